/* SPDX-License-Identifier: MIT */
/*
 * report-memo.h - report's repeated samples counted together
 * (report-memo.c): a sample of the same event, thread, CPU, mode, ip and
 * raw call chain as one seen before, with nothing between them that could
 * change what it resolves to, adds what that one added.  So a repeat is
 * neither resolved nor keyed again: its count and period wait in the memo,
 * and go into the histogram and the stack health (pk_hist_add_chain_n,
 * pk_stack_health_add_n) when its slot is taken or at the end.  A
 * --call-graph dwarf sample's chain is known only once it is unwound:
 * such a sample is keyed after it is resolved, by the resolver's chain
 * id, and its repeats skip the histogram's work only.
 */
#ifndef PERFKIT_CLI_REPORT_MEMO_H
#define PERFKIT_CLI_REPORT_MEMO_H

#include "report.h"

struct report_memo;

/*
 * report_memo_new - a memo for a run of options `o` over `nr_ev` events
 * (ev[i].hist, each of them; `health` may be NULL), in *out; *out is NULL
 * when the options make a sample's entry depend on more than the memo's
 * key (a key or mode that reads its time, period, weight, addresses or
 * source lines, -v, branch modes, --off-cpu, --mem-mode, -g with an
 * address or source-line key).  `chain` and `children`: how cmd-report.c
 * adds samples (pk_hist_add_chain with its Children flag, or pk_hist_add).
 * 0 or -ENOMEM.
 */
int report_memo_new(const struct report_opts *o, struct report_event *ev, size_t nr_ev,
		    struct pk_stack_health *health, bool chain, bool children, struct report_memo **out);

/*
 * report_memo_sample - sample record `d` of event `ev` (attr its attr,
 * `period` its period): 1 when it repeats a sample kept, and is counted;
 * 0 when the caller must resolve and add it as usual (the second sample of
 * a key: the memo then keeps what report_memo_keep_health and
 * report_memo_keep_hist are given before the next call; the first only
 * has its key kept).  A sample whose attr reads registers, stacks, branch
 * stacks or counters is never kept, nor any once the memo's hit rate
 * showed it does not pay.  Negative errno on failure.
 */
int report_memo_sample(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
		       const struct pk_record *d, uint64_t period);

/*
 * report_memo_resolved - a sample report_memo_sample gave back for its
 * user registers and stack (--call-graph dwarf), once resolved (rs) and
 * added to the stack health by the caller (the health reads each
 * sample's stack copy): 1 when it repeats a sample of the same key and
 * resolved chain (the resolver's chain_id) kept, and is counted into the
 * histogram; 0 when the caller must add it as usual (at the key's second
 * sight the memo then keeps what report_memo_keep_hist is given), always
 * for a chain without an id.  Negative errno on failure.
 */
int report_memo_resolved(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
			 const struct pk_record *d, const struct pk_resolved_sample *rs, uint64_t period);

/*
 * report_memo_record - sample record `h` of event `ev` (attr its attr),
 * before it is decoded: 1 when it repeats a sample kept, and is counted
 * (*time set to its time when it has one), as report_memo_sample would
 * have; 0 when it must be decoded and given to report_memo_sample (not a
 * repeat, a layout with more than fixed-size fields and a call chain,
 * --time or --switch-on/off, which read the decoded sample).  Its key
 * includes the record's size: a repeat decodes as the sample kept did.
 */
int report_memo_record(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
		       const struct perf_event_header *h, uint64_t *time);

/* report_memo_keep_health - what the sample report_memo_sample last
 * returned 0 for gave pk_stack_health_add (its resolved sample). */
void report_memo_keep_health(struct report_memo *m, const struct pk_resolved_sample *rs);

/*
 * report_memo_keep_hist - what the same sample added to its histogram: s,
 * and with a chain its nr frames' entries (`samples`, read with Children
 * only) and frames.  A sample that adds nothing (a filter dropped it) is
 * not given, and its repeats add nothing either.
 */
void report_memo_keep_hist(struct report_memo *m, const struct pk_hist_sample *s,
			   const struct pk_hist_sample *samples, const struct pk_callchain_frame *frames,
			   size_t nr);

/* report_memo_forget - a non-sample record of `type` came: no sample
 * after it repeats one before it, unless the type changes nothing a
 * sample resolves to (FINISHED_ROUND, LOST, THROTTLE, SWITCH, ...). */
void report_memo_forget(struct report_memo *m, uint32_t type);

/* report_memo_flush - every repeat waiting, added.  Call it once the
 * records are read, before the histograms are used.  0 or negative errno. */
int report_memo_flush(struct report_memo *m);

/* report_memo_free - free it; NULL is a no-op. */
void report_memo_free(struct report_memo *m);

#endif
