/* SPDX-License-Identifier: MIT */
/*
 * perfkit/record.h - decoding the records the kernel writes into ring
 * buffers (and perf.data files hold): one pure, bounds-checked function from
 * (attr, bytes) to a typed record, for every PERF_RECORD_* type of the UAPI
 * and every PERF_SAMPLE_* field, plus the helpers a reader needs around it:
 * which event a record belongs to, names for record types, sample fields
 * and callchain context markers, and the fields of a DATA_SRC word.
 * Included by perfkit.h.
 *
 * Lifetimes: a decoded record holds no memory of its own.  Variable-length
 * parts (strings, callchain, raw data, branch stack, registers, user stack,
 * AUX sample data, read values, namespaces, text-poke bytes, build-id)
 * point into the record's bytes and are valid exactly as long as those
 * bytes are (for a ring, until pk_ring_next/pk_ring_consume moves on).
 */
#ifndef PERFKIT_RECORD_H
#define PERFKIT_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfkit/error.h"
#include "perfkit/count.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pk_record_decode's return for a record type this library does not know. */
#define PK_RECORD_UNKNOWN 1

/* The PERF_SAMPLE_* bits that form the sample_id_all trailer (and the ones a
 * SAMPLE record copies into pk_record.id). */
#define PK_SAMPLE_ID_FIELDS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/*
 * The fields of union perf_mem_data_src (PERF_SAMPLE_DATA_SRC), each shifted
 * down so it compares with the PERF_MEM_<FIELD>_* constants of the UAPI:
 * mem_op == PERF_MEM_OP_LOAD, mem_lvl_num == PERF_MEM_LVLNUM_L3, ...
 */
struct pk_data_src {
	uint32_t mem_op;	/* 5 bits: PERF_MEM_OP_* */
	uint32_t mem_lvl;	/* 14 bits: PERF_MEM_LVL_* (hit/miss and level) */
	uint32_t mem_snoop;	/* 5 bits: PERF_MEM_SNOOP_* */
	uint32_t mem_lock;	/* 2 bits: PERF_MEM_LOCK_* */
	uint32_t mem_dtlb;	/* 7 bits: PERF_MEM_TLB_* */
	uint32_t mem_lvl_num;	/* 4 bits: PERF_MEM_LVLNUM_* */
	uint32_t mem_remote;	/* 1 bit: PERF_MEM_REMOTE_REMOTE */
	uint32_t mem_snoopx;	/* 2 bits: PERF_MEM_SNOOPX_* */
	uint32_t mem_blk;	/* 3 bits: PERF_MEM_BLK_* */
	uint32_t mem_hops;	/* 3 bits: PERF_MEM_HOPS_* */
};

/*
 * Read values (PERF_SAMPLE_READ, PERF_RECORD_READ): the struct read_format
 * bytes, exactly as long as attr.read_format says; nr is the number of
 * counters they hold (1, or the group's nr).  Turn them into counts with
 * pk_count_parse(attr->read_format, data, len, out, max).
 */
struct pk_read_values {
	const void *data;
	size_t len;
	uint32_t nr;
};

/* Registers (PERF_SAMPLE_REGS_USER/REGS_INTR): abi is PERF_SAMPLE_REGS_ABI_*;
 * with ABI_NONE there are none (nr 0), otherwise nr = popcount(mask) values,
 * in increasing bit order of mask (attr.sample_regs_user/intr). */
struct pk_sample_regs {
	uint64_t abi;
	uint64_t mask;
	uint32_t nr;
	const uint64_t *regs;
};

/*
 * A PERF_RECORD_SAMPLE.  `fields` holds the PERF_SAMPLE_* bits of the attr
 * that produced it, i.e. which members below were in the record; the
 * others are 0 / NULL.
 */
struct pk_sample {
	uint64_t fields;
	uint64_t identifier;		/* IDENTIFIER */
	uint64_t ip;			/* IP */
	uint32_t pid, tid;		/* TID */
	uint64_t time;			/* TIME, ns (perf clock or attr.clockid) */
	uint64_t addr;			/* ADDR */
	uint64_t id;			/* ID */
	uint64_t stream_id;		/* STREAM_ID */
	uint32_t cpu, cpu_res;		/* CPU */
	uint64_t period;		/* PERIOD */
	struct pk_read_values read;	/* READ, single or group form */
	struct {			/* CALLCHAIN: nr entries, context markers */
		uint64_t nr;		/* (PERF_CONTEXT_*, see pk_record_context_name) */
		const uint64_t *ips;	/* included, in the kernel's order */
	} callchain;
	struct {			/* RAW: size bytes (padding not included) */
		uint32_t size;
		const void *data;
	} raw;
	struct {			/* BRANCH_STACK */
		uint64_t nr;
		bool has_hw_idx;	/* attr.branch_sample_type has BRANCH_HW_INDEX */
		bool call_stack;	/* ... has BRANCH_CALL_STACK (--call-graph lbr) */
		uint64_t hw_idx;	/* only when has_hw_idx */
		const struct perf_branch_entry *entries;	/* nr entries */
	} branch;
	struct pk_sample_regs regs_user;	/* REGS_USER */
	struct {			/* STACK_USER: size bytes were copied, of which */
		uint64_t size;		/* dyn_size are meaningful; dyn_size is only */
		const void *data;	/* in the record when size != 0 */
		uint64_t dyn_size;
	} stack;
	struct {			/* WEIGHT or WEIGHT_STRUCT (one u64 either way) */
		uint64_t full;		/* the whole word (WEIGHT) */
		uint32_t var1;		/* WEIGHT_STRUCT: var1_dw (e.g. latency) */
		uint16_t var2, var3;	/* WEIGHT_STRUCT: var2_w, var3_w */
	} weight;
	uint64_t data_src;		/* DATA_SRC, the raw word ... */
	struct pk_data_src mem;		/* ... and its fields */
	uint64_t transaction;		/* TRANSACTION: PERF_TXN_* flags, abort code << 32 */
	struct pk_sample_regs regs_intr;	/* REGS_INTR */
	uint64_t phys_addr;		/* PHYS_ADDR */
	uint64_t cgroup;		/* CGROUP: the cgroup id (see PERF_RECORD_CGROUP) */
	uint64_t data_page_size;	/* DATA_PAGE_SIZE */
	uint64_t code_page_size;	/* CODE_PAGE_SIZE */
	struct {			/* AUX: size bytes of AUX data */
		uint64_t size;
		const void *data;
	} aux;
};

/*
 * The identity of a record: for non-SAMPLE records the sample_id_all
 * trailer, for SAMPLE records the same fields copied from the sample, so
 * every record can be ordered by time and attributed alike.  `fields` says
 * which are present (a subset of PK_SAMPLE_ID_FIELDS); `id` is the ID or
 * IDENTIFIER value (they are the same number).
 */
struct pk_sample_id {
	uint64_t fields;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

struct pk_rec_mmap {		/* PERF_RECORD_MMAP */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	const char *filename;
};

struct pk_rec_mmap2 {		/* PERF_RECORD_MMAP2 */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	bool has_build_id;		/* misc has PERF_RECORD_MISC_MMAP_BUILD_ID: */
	uint8_t build_id_size;		/* then build_id is set and maj..ino_generation */
	const uint8_t *build_id;	/* are 0; otherwise the reverse (20 bytes) */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	const char *filename;
};

struct pk_rec_lost {		/* PERF_RECORD_LOST */
	uint64_t id, lost;
};

struct pk_rec_comm {		/* PERF_RECORD_COMM (exec: misc has COMM_EXEC) */
	uint32_t pid, tid;
	bool exec;
	const char *comm;
};

struct pk_rec_task {		/* PERF_RECORD_FORK and PERF_RECORD_EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pk_rec_throttle {	/* PERF_RECORD_THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
};

struct pk_rec_read {		/* PERF_RECORD_READ */
	uint32_t pid, tid;
	struct pk_read_values values;
};

struct pk_rec_aux {		/* PERF_RECORD_AUX */
	uint64_t aux_offset, aux_size;
	uint64_t flags;			/* PERF_AUX_FLAG_* */
};

struct pk_rec_itrace_start {	/* PERF_RECORD_ITRACE_START */
	uint32_t pid, tid;
};

struct pk_rec_lost_samples {	/* PERF_RECORD_LOST_SAMPLES */
	uint64_t lost;
};

struct pk_rec_switch {		/* PERF_RECORD_SWITCH and SWITCH_CPU_WIDE */
	bool out;			/* misc has SWITCH_OUT: switching out, else in */
	bool preempt;			/* misc has SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid;		/* SWITCH_CPU_WIDE only: the task switched */
	uint32_t next_prev_tid;		/* to (out) or from (in) */
};

struct pk_rec_namespaces {	/* PERF_RECORD_NAMESPACES */
	uint32_t pid, tid;
	uint64_t nr;
	const struct perf_ns_link_info *links;	/* nr of them, indexed by *_NS_INDEX */
};

struct pk_rec_ksymbol {		/* PERF_RECORD_KSYMBOL */
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;		/* PERF_RECORD_KSYMBOL_TYPE_* */
	uint16_t flags;			/* PERF_RECORD_KSYMBOL_FLAGS_* */
	const char *name;
};

struct pk_rec_bpf_event {	/* PERF_RECORD_BPF_EVENT */
	uint16_t type;			/* PERF_BPF_EVENT_* */
	uint16_t flags;
	uint32_t id;			/* the BPF program id */
	const uint8_t *tag;		/* 8 bytes (BPF_TAG_SIZE) */
};

struct pk_rec_cgroup {		/* PERF_RECORD_CGROUP */
	uint64_t id;
	const char *path;
};

struct pk_rec_text_poke {	/* PERF_RECORD_TEXT_POKE */
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes;	/* old_len bytes, then ... */
	const uint8_t *new_bytes;	/* ... new_len bytes */
};

struct pk_rec_aux_output_hw_id {	/* PERF_RECORD_AUX_OUTPUT_HW_ID */
	uint64_t hw_id;
};

/*
 * A decoded record: the header, the type's body, and its identity.  The
 * caller allocates it and sets size = sizeof(struct pk_record) before
 * pk_record_decode, so the struct can grow; the record's own length is
 * `len`.
 */
struct pk_record {
	size_t size;			/* set by the caller: sizeof(struct pk_record) */
	uint32_t type;			/* PERF_RECORD_* */
	uint16_t misc;			/* PERF_RECORD_MISC_* */
	uint16_t len;			/* the record's bytes, header included (its header's size) */
	union {
		struct pk_sample sample;
		struct pk_rec_mmap mmap;
		struct pk_rec_mmap2 mmap2;
		struct pk_rec_lost lost;
		struct pk_rec_comm comm;
		struct pk_rec_task task;		/* FORK, EXIT */
		struct pk_rec_throttle throttle;	/* THROTTLE, UNTHROTTLE */
		struct pk_rec_read read;
		struct pk_rec_aux aux;
		struct pk_rec_itrace_start itrace_start;
		struct pk_rec_lost_samples lost_samples;
		struct pk_rec_switch switch_;		/* SWITCH, SWITCH_CPU_WIDE */
		struct pk_rec_namespaces namespaces;
		struct pk_rec_ksymbol ksymbol;
		struct pk_rec_bpf_event bpf_event;
		struct pk_rec_cgroup cgroup;
		struct pk_rec_text_poke text_poke;
		struct pk_rec_aux_output_hw_id aux_output_hw_id;
	};
	struct pk_sample_id id;
};

/*
 * pk_record_decode - decode the record at `h` (h->size bytes, which must be
 * readable, starting 8-byte aligned as the kernel and perf.data lay them
 * out) written for an event opened with `attr` (its sample_type,
 * read_format, sample_regs_user/intr, branch_sample_type and sample_id_all
 * decide the layout; NULL means an attr of all zeros).
 *
 * Returns 0 with *out filled; PK_RECORD_UNKNOWN (1) for a record type this
 * library does not know (user types of perf.data, newer kernels), with only
 * type, misc and size filled, so the caller can skip and count it; or
 * -EINVAL when the bytes do not hold what the attr says they should (a
 * truncated record, a count or size that runs past its end, a string with
 * no NUL inside the record, sample_type bits this library does not know,
 * an unaligned record), with pk_last_error naming the record type, the
 * byte offset inside the record and what was missing there.  *out is
 * undefined after an error.  Never reads outside [h, h + h->size).
 * out->size must be at least the sizeof(struct pk_record) this library was
 * built with: otherwise -EINVAL, with the error saying so, and *out is not
 * written.  out->size is kept; the rest of *out is overwritten.
 */
PK_API int pk_record_decode(const struct perf_event_header *h, const struct perf_event_attr *attr,
			    struct pk_record *out);

/*
 * pk_record_event_id - the event ID of the record at `h`, to find the attr
 * (of several, e.g. in a perf.data file) that decodes it, the way perf does:
 * a SAMPLE carries it as PERF_SAMPLE_IDENTIFIER (the first u64 after the
 * header) or else PERF_SAMPLE_ID (after IP, TID, TIME, ADDR if present);
 * any other record in its sample_id_all trailer, as IDENTIFIER (the last
 * u64) or else ID.  `attr` is any attr of the set: this works when all of
 * them place the ID alike (pk_record_id_compatible).
 * Returns 0 with *id set; -ENOENT when the attr gives the record no ID (no
 * IDENTIFIER/ID bit, or a non-SAMPLE record without sample_id_all), or the
 * type is not a kernel record (>= PERF_RECORD_MAX); -EINVAL when the record
 * is too short to hold it.  Both are recorded in pk_last_error.
 */
PK_API int pk_record_event_id(const struct perf_event_header *h, const struct perf_event_attr *attr,
			      uint64_t *id);

/*
 * pk_record_id_compatible - whether records of events opened with `a` and
 * `b` carry their ID at the same place, so one pk_record_event_id call finds
 * it whichever event wrote the record: both have PERF_SAMPLE_IDENTIFIER, or
 * both have ID at the same position from the start (samples) and the end
 * (trailers), with equal sample_id_all.
 */
PK_API bool pk_record_id_compatible(const struct perf_event_attr *a,
				    const struct perf_event_attr *b);

/*
 * pk_sample_trim_stack - a copy of SAMPLE record `h` (written for `attr`)
 * whose user stack (PERF_SAMPLE_STACK_USER) keeps only the dyn_size bytes
 * the kernel could really copy, rounded up to 8.  The kernel reserves the
 * full sample_stack_user bytes in every sample, and the rest of them is
 * not stack; perf and perfkit read dyn_size, so the copy means the same.
 * `out` must hold h->size bytes.  Returns the copy's size; 0 when there is
 * nothing to cut (not a sample, no stack, or all of it valid: use `h`
 * itself); or -EINVAL when `h` does not decode (see pk_record_decode).
 */
PK_API int pk_sample_trim_stack(const struct perf_event_header *h, const struct perf_event_attr *attr,
				void *out);

/*
 * The fixed-size fields at the start of a sample, as pk_sample_peek finds
 * them.  `fields` holds the PERF_SAMPLE_* bits among IDENTIFIER, IP, TID,
 * TIME, ADDR, ID, STREAM_ID, CPU and PERIOD that the record carried; the
 * members of the others are 0.  `id` is the IDENTIFIER or ID value.
 * The caller allocates it and sets size = sizeof(struct pk_sample_peek).
 */
struct pk_sample_peek {
	size_t size;		/* set by the caller: sizeof(struct pk_sample_peek) */
	uint64_t fields;
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint32_t cpu;
	uint64_t period;
};

/*
 * pk_sample_peek - the leading fixed-size fields of SAMPLE record `h`
 * (written for `attr`; NULL means all zeros), without decoding the rest:
 * where pk_record_decode walks every field, this reads only those that
 * come before READ in the kernel's order, so it costs the same for a
 * sample with an 8 KiB stack as for one without.  The values are those
 * pk_record_decode gives.  Returns 0 with *out filled, or -EINVAL (in
 * pk_last_error, naming the offset) for a record that is not a SAMPLE or
 * is too short for the fields `attr` says it has.  Reads only
 * [h, h + h->size).  -EINVAL, *out untouched, when out->size is smaller
 * than the struct this library fills.
 */
PK_API int pk_sample_peek(const struct perf_event_header *h, const struct perf_event_attr *attr,
			  struct pk_sample_peek *out);

/*
 * pk_record_type_name - "MMAP", "SAMPLE", "MMAP2", ... for a PERF_RECORD_*
 * type, or NULL when the library does not know it.  Static strings.
 */
PK_API const char *pk_record_type_name(uint32_t type);

/*
 * pk_sample_field_name - "IP", "CALLCHAIN", "WEIGHT_STRUCT", ... for one
 * PERF_SAMPLE_* bit, or NULL when `bit` is not exactly one known bit.
 */
PK_API const char *pk_sample_field_name(uint64_t bit);

/*
 * pk_record_context_name - for a callchain entry that is a context marker
 * (>= PERF_CONTEXT_MAX): "kernel", "user", "hv", "guest", "guest-kernel",
 * "guest-user", or "unknown" for a marker the UAPI does not name.  Returns
 * NULL for an ordinary address, so it also answers "is this a marker?".
 */
PK_API const char *pk_record_context_name(uint64_t ip);

/* pk_record_data_src - the fields of a PERF_SAMPLE_DATA_SRC word. */
PK_API struct pk_data_src pk_record_data_src(uint64_t data_src);

/* ---- registers (x86-64) --------------------------------------------------- */

/*
 * pk_regs_parse - a comma-separated list of register names, as perf's
 * --user-regs/--intr-regs take them ("AX,BX,IP", any case), into a
 * sample_regs_user/intr mask.  Returns 0, or -EINVAL naming the unknown
 * register and its column.
 */
PK_API int pk_regs_parse(const char *list, uint64_t *mask);

/*
 * pk_branch_filter_parse - perf record -j's comma-separated branch filter
 * words (any, any_call, any_ret, ind_call, call, cond, ind_jmp,
 * call_stack, abort_tx, in_tx, no_tx, save_type, and the levels u, k, hv)
 * into a branch_sample_type mask; levels alone mean any branch at those
 * levels, as in perf.  Returns 0, or -EINVAL naming the unknown word and
 * its column, with the known words as the hint.
 */
PK_API int pk_branch_filter_parse(const char *list, uint64_t *mask);

/* pk_regs_name - "AX", "R15", ... for a register's bit, or NULL. */
PK_API const char *pk_regs_name(int bit);

/* pk_regs_dwarf_mask - the registers perf samples for --call-graph dwarf. */
PK_API uint64_t pk_regs_dwarf_mask(void);

/* ---- synthesized records: what existed before recording started -------- */

/* Where synthesized records go: return 0 to go on, a negative errno to stop. */
typedef int (*pk_record_sink)(void *arg, const struct perf_event_header *rec);

/*
 * pk_record_synth_kernel - the PERF_RECORD_MMAP perf writes for the kernel
 * ("[kernel.kallsyms]_text", pid -1, from _stext to _etext in
 * /proc/kallsyms), with the sample_id trailer `attr` asks for (its ids set
 * to `id`), handed to `sink`.  Returns 0; -EACCES when /proc/kallsyms hides
 * the addresses (kernel.kptr_restrict) or cannot be read; -ENOENT when there
 * is no /proc/kallsyms or it lacks _stext/_etext; -EMFILE or -ENFILE when no
 * file descriptor is left; the error says which; or what sink returned.
 */
PK_API int pk_record_synth_kernel(const struct perf_event_attr *attr, uint64_t id,
				  pk_record_sink sink, void *arg);

/*
 * pk_record_synth_kernel_build_id - the same map as pk_record_synth_kernel
 * as perf record --buildid-mmap writes it: a PERF_RECORD_MMAP2 (no
 * protection bits) carrying the running kernel's build-id from
 * /sys/kernel/notes with PERF_RECORD_MISC_MMAP_BUILD_ID (device and inode
 * 0 when it cannot be read).  Returns as pk_record_synth_kernel.
 */
PK_API int pk_record_synth_kernel_build_id(const struct perf_event_attr *attr, uint64_t id,
					   pk_record_sink sink, void *arg);

/* What pk_record_synth_process and pk_record_synth_all add, as flags. */
#define PK_SYNTH_DATA		1u	/* data mappings too (perf record -d) */
#define PK_SYNTH_NAMESPACES	2u	/* a NAMESPACES record per thread (--namespaces) */
#define PK_SYNTH_NO_MAPS	4u	/* the threads alone, no mappings (perf's --synth task) */
#define PK_SYNTH_BUILD_ID	8u	/* each file mapping's build-id in place of its
					 * device and inode (PERF_RECORD_MISC_MMAP_BUILD_ID,
					 * perf's --buildid-mmap), where it has one */

/*
 * pk_record_synth_process - records describing process `pid` as it is now,
 * as perf synthesizes them for -p: a PERF_RECORD_COMM for every thread
 * (preceded, with PK_SYNTH_NAMESPACES, by a PERF_RECORD_NAMESPACES giving
 * the device and inode of each of its /proc/TID/ns links in the UAPI's
 * *_NS_INDEX order), and a PERF_RECORD_MMAP2 for every executable mapping
 * in /proc/PID/maps (with PK_SYNTH_DATA, data mappings too), each with the
 * trailer `attr` asks for.  `flags` is 0 or PK_SYNTH_* ORed.  Returns 0;
 * -ESRCH when the process is gone (it may exit while we read it); or what
 * sink returned.
 */
PK_API int pk_record_synth_process(pid_t pid, const struct perf_event_attr *attr, uint64_t id,
				   unsigned flags, pk_record_sink sink, void *arg);

/*
 * pk_record_synth_comm - a PERF_RECORD_COMM naming thread `tid` of process
 * `pid` `comm` (cut to 15 bytes, the kernel's TASK_COMM_LEN), with the
 * trailer `attr` asks for: the name a recorder gives a thread it knows
 * without reading /proc (perf's "perf-exec" for the command it forked, not
 * yet exec'd).  Returns 0 or what sink returned.
 */
PK_API int pk_record_synth_comm(pid_t pid, pid_t tid, const char *comm, const struct perf_event_attr *attr,
				uint64_t id, pk_record_sink sink, void *arg);

/*
 * pk_record_synth_all - the records of pk_record_synth_process for every
 * process in /proc (for -a), each thread's records preceded by a
 * PERF_RECORD_FORK as perf writes them: a leader forked from its parent
 * (PPid in /proc/PID/status), any other thread from its leader, at time 0,
 * with PERF_RECORD_MISC_FORK_EXEC.  Processes that exit while being read
 * are skipped.  Returns 0 or what sink returned.
 */
PK_API int pk_record_synth_all(const struct perf_event_attr *attr, uint64_t id, unsigned flags,
			       pk_record_sink sink, void *arg);

/*
 * pk_record_synth_bpf - the records perf synthesizes for the BPF programs
 * loaded now: for each jited program a PERF_RECORD_KSYMBOL (type BPF) per
 * function, named "bpf_prog_<tag>_<name>" as perf names it (the name from
 * the program's BTF function info, else its own name), then a
 * PERF_RECORD_BPF_EVENT (PROG_LOAD, its id and tag), each with the trailer
 * `attr` asks for (pid and tid 0, ids `id`).  Programs it may not see (no
 * CAP_SYS_ADMIN: none) or that unload meanwhile are skipped.  Then, as
 * perf 6.1 does, a KSYMBOL (type BPF, a page long) for each trampoline
 * ("bpf_trampoline_<n>") and dispatcher ("bpf_dispatcher_<name>") that
 * /proc/kallsyms lists in its [bpf] module (reading it costs tens of
 * milliseconds, as it does perf); none when it cannot be read.
 * Returns 0; -ENOMEM; or what sink returned.
 */
PK_API int pk_record_synth_bpf(const struct perf_event_attr *attr, uint64_t id,
			       pk_record_sink sink, void *arg);

/*
 * pk_record_synth_cgroups - a PERF_RECORD_CGROUP for every cgroup that
 * exists now, as perf record --all-cgroups synthesizes them: the
 * hierarchy pk_cgroup_root finds, walked from its root (path "/") down in
 * directory order, each record with the cgroup's id (its file handle, the
 * id samples carry in PERF_SAMPLE_CGROUP) and its path under the mount,
 * and the trailer `attr` asks for (pid and tid 0, ids `id`).  Cgroups
 * that go away meanwhile are skipped.  Returns 0; -ENOENT when no cgroup
 * hierarchy is mounted (the error says so); or what sink returned.
 */
PK_API int pk_record_synth_cgroups(const struct perf_event_attr *attr, uint64_t id,
				   pk_record_sink sink, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_RECORD_H */
