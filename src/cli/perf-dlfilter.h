/* SPDX-License-Identifier: MIT */
/*
 * perf-dlfilter.h - the ABI of perf script's --dlfilter shared objects
 * (perf 6.1's perf/perf_dlfilter.h, written anew with the same layout):
 * a filter built against perf's header loads in perfkit script and one
 * built against this loads in perf.  The filter defines filter_event
 * and/or filter_event_early (non-zero: drop the sample), and may define
 * start, stop, filter_description and a `struct perf_dlfilter_fns
 * perf_dlfilter_fns` object, which the host fills with its callbacks
 * before start.
 */
#ifndef PK_PERF_DLFILTER_H
#define PK_PERF_DLFILTER_H

#include <linux/perf_event.h>
#include <linux/types.h>

#define PERF_DLFILTER_HAS_MACHINE_PID

/* The sample's flags (branch kinds, from decoded AUX data). */
enum {
	PERF_DLFILTER_FLAG_BRANCH	= 1ULL << 0,
	PERF_DLFILTER_FLAG_CALL		= 1ULL << 1,
	PERF_DLFILTER_FLAG_RETURN	= 1ULL << 2,
	PERF_DLFILTER_FLAG_CONDITIONAL	= 1ULL << 3,
	PERF_DLFILTER_FLAG_SYSCALLRET	= 1ULL << 4,
	PERF_DLFILTER_FLAG_ASYNC	= 1ULL << 5,
	PERF_DLFILTER_FLAG_INTERRUPT	= 1ULL << 6,
	PERF_DLFILTER_FLAG_TX_ABORT	= 1ULL << 7,
	PERF_DLFILTER_FLAG_TRACE_BEGIN	= 1ULL << 8,
	PERF_DLFILTER_FLAG_TRACE_END	= 1ULL << 9,
	PERF_DLFILTER_FLAG_IN_TX	= 1ULL << 10,
	PERF_DLFILTER_FLAG_VMENTRY	= 1ULL << 11,
	PERF_DLFILTER_FLAG_VMEXIT	= 1ULL << 12,
};

/* One sample as the filter sees it; size is the host's sizeof. */
struct perf_dlfilter_sample {
	__u32 size;
	__u16 ins_lat;
	__u16 p_stage_cyc;
	__u64 ip;
	__s32 pid;
	__s32 tid;
	__u64 time;
	__u64 addr;
	__u64 id;
	__u64 stream_id;
	__u64 period;
	__u64 weight;
	__u64 transaction;
	__u64 insn_cnt;
	__u64 cyc_cnt;
	__s32 cpu;
	__u32 flags;			/* PERF_DLFILTER_FLAG_* */
	__u64 data_src;
	__u64 phys_addr;
	__u64 data_page_size;
	__u64 code_page_size;
	__u64 cgroup;
	__u8  cpumode;			/* the header's misc & PERF_RECORD_MISC_CPUMODE_MASK */
	__u8  addr_correlates_sym;	/* resolve_addr may be called */
	__u16 misc;
	__u32 raw_size;
	const void *raw_data;
	__u64 brstack_nr;
	const struct perf_branch_entry *brstack;
	__u64 raw_callchain_nr;
	const __u64 *raw_callchain;
	const char *event;		/* the event's name */
	__s32 machine_pid;
	__s32 vcpu;
};

/* Where an address is: its symbol and object. */
struct perf_dlfilter_al {
	__u32 size;			/* set by the caller of resolve_address */
	__u32 symoff;
	const char *sym;
	__u64 addr;			/* the address in the object */
	__u64 sym_start;
	__u64 sym_end;
	const char *dso;
	__u8  sym_binding;		/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	__u8  is_64_bit;
	__u8  is_kernel_ip;
	__u32 buildid_size;
	__u8 *buildid;
	/* resolve_ip only: */
	__u8 filtered;			/* the sample is filtered out (--comms, --dsos, ...) */
	const char *comm;
};

/* The host's callbacks; ctx is the one the filter's function was given. */
struct perf_dlfilter_fns {
	const struct perf_dlfilter_al *(*resolve_ip)(void *ctx);
	const struct perf_dlfilter_al *(*resolve_addr)(void *ctx);
	char **(*args)(void *ctx, int *dlargc);
	__s32 (*resolve_address)(void *ctx, __u64 address, struct perf_dlfilter_al *al);
	const __u8 *(*insn)(void *ctx, __u32 *length);
	const char *(*srcline)(void *ctx, __u32 *line_number);
	struct perf_event_attr *(*attr)(void *ctx);
	__s32 (*object_code)(void *ctx, __u64 ip, void *buf, __u32 len);
	void *(*reserved[120])(void *);
};

/* What a filter may define (all optional but one of the two filters). */
int start(void **data, void *ctx);
int stop(void *data, void *ctx);
int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx);
int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx);
const char *filter_description(const char **long_description);

#endif
