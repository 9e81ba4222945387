/* SPDX-License-Identifier: MIT */
/*
 * perfkit/offcpu.h - off-CPU intervals without BPF: where a thread went
 * off CPU (a sched:sched_switch sample, taken in the context of the thread
 * leaving, carries its call chain and prev_state) paired with when it ran
 * again (the next PERF_RECORD_SWITCH switch-in of the same thread, or any
 * later sample of it), giving the thread, the time it waited in
 * nanoseconds, its state and its stack at switch-out.  Pure: fed resolved
 * records in time order, no file or kernel access.  Included by perfkit.h.
 */
#ifndef PERFKIT_OFFCPU_H
#define PERFKIT_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"
#include "perfkit/record.h"
#include "perfkit/resolve.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One off-CPU interval of thread `tid` (of process `pid`, named `comm`):
 * it left CPU `cpu` at `start` in state `state` (perf's prev_state letter:
 * 'S' sleeping, 'D' uninterruptible, 'R' preempted while runnable, ...; 0
 * when unknown) and ran again at `end`; `duration` is end - start in the
 * recording's clock (nanoseconds).  `loc`, `cpumode`, `frames` and
 * `nr_frames` are the switch-out sample's, as pk_resolver_resolve gave
 * them (innermost first).
 */
struct pk_offcpu_interval {
	size_t size;			/* caller sets sizeof(struct pk_offcpu_interval) */
	const char *comm;
	uint32_t pid, tid;
	int32_t cpu;			/* -1 when the sample carried no CPU */
	char state;
	uint64_t start, end, duration;
	uint16_t cpumode;
	struct pk_location loc;
	const struct pk_frame *frames;
	size_t nr_frames;
};

struct pk_offcpu;

/* pk_offcpu_new - an empty tracker in *out.  Returns 0 or -ENOMEM. */
PK_API int pk_offcpu_new(struct pk_offcpu **out);

/* pk_offcpu_free - free it and every interval's frames.  NULL is a no-op. */
PK_API void pk_offcpu_free(struct pk_offcpu *oc);

/*
 * pk_offcpu_switch_out - thread rs->tid leaves the CPU at `time` (on
 * `cpu`, -1 unknown) in `state` (0 unknown): `rs` is its resolved
 * sched_switch sample.  The frames and the location are copied; the
 * strings and DSOs they point at are not and must outlive the tracker's
 * intervals (the resolver's do, until pk_resolver_free).  A thread already
 * off CPU (its switch-in was lost) starts over from this one.  The idle
 * threads (tid 0, one per CPU, which share the tid) are ignored.  Returns 0;
 * -EINVAL for rs NULL or a size smaller than this library's struct;
 * -ENOMEM.
 */
PK_API int pk_offcpu_switch_out(struct pk_offcpu *oc, const struct pk_resolved_sample *rs,
				uint64_t time, int32_t cpu, char state);

/*
 * pk_offcpu_switch_in - thread `tid` is on a CPU at `time` (a switch-in,
 * or any sample it took).  Returns 1 with *out (out->size set by the
 * caller) the interval that ends here, when the thread was off CPU since a
 * switch-out at or before `time`; 0 when it was not (nothing pending, or
 * the pending switch-out is later than `time`, which leaves it pending);
 * -EINVAL when out->size is smaller than this library's struct.  The
 * interval's frames stay valid until the next call on oc.
 */
PK_API int pk_offcpu_switch_in(struct pk_offcpu *oc, uint32_t tid, uint64_t time,
			       struct pk_offcpu_interval *out);

/*
 * pk_offcpu_record - follow one decoded non-sample record: a switch-in
 * (PERF_RECORD_SWITCH or SWITCH_CPU_WIDE without SWITCH_OUT, whose
 * sample_id_all TID and TIME name the thread coming in) is
 * pk_offcpu_switch_in's; an EXIT forgets the thread's pending switch-out
 * (it never ran again).  Records without TID and TIME, and other types,
 * change nothing.  Returns as pk_offcpu_switch_in: 1 with *out, 0, or
 * -EINVAL.
 */
PK_API int pk_offcpu_record(struct pk_offcpu *oc, const struct pk_record *rec,
			    struct pk_offcpu_interval *out);

/* pk_offcpu_nr_pending - how many threads are off CPU with no end seen
 * yet (at the end of a recording: intervals that are left out). */
PK_API size_t pk_offcpu_nr_pending(const struct pk_offcpu *oc);

/*
 * pk_offcpu_state - the prev_state letter in the text of a sched_switch
 * sample as pk_tracing_format renders it ("... prev_state=S ==> ..."):
 * the first letter after "prev_state=", '+' kept out ("R+" is 'R').
 * Returns 0 when the text has none.
 */
PK_API char pk_offcpu_state(const char *text);

#ifdef __cplusplus
}
#endif
#endif
