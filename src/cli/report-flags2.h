/* SPDX-License-Identifier: MIT */
/*
 * report-flags2.h - perf report 6.1's everyday flags perfkit report had
 * lacked (report-flags2.c, report-tasks.c): --time, -U, --tasks, --mmaps,
 * --switch-on/--switch-off, and the ones perf takes for its TUI or for
 * annotate only.
 */
#ifndef PK_CLI_REPORT_FLAGS2_H
#define PK_CLI_REPORT_FLAGS2_H

#include "cli.h"

#include <regex.h>

/* The option ids of these flags (after cmd-report.c's own). */
enum {
	REPORT_OPT_TIME = 0x200, REPORT_OPT_NS, REPORT_OPT_TASKS, REPORT_OPT_MMAPS,
	REPORT_OPT_SWITCH_ON, REPORT_OPT_SWITCH_OFF, REPORT_OPT_SHOW_ON_OFF, REPORT_OPT_SAMPLES,
	REPORT_OPT_TUI, REPORT_OPT_ANNOTATE_STR, REPORT_OPT_ANNOTATE_BOOL, REPORT_OPT_PREFIX,
	REPORT_OPT_PREFIX_STRIP, REPORT_OPT_PERCENT_TYPE, REPORT_OPT_CPU_UTIL, REPORT_OPT_REF_CG,
	REPORT_OPT_SKIP_EMPTY, REPORT_OPT_PERCENTAGE, REPORT_OPT_IGNORE_CALLEES, REPORT_OPT_KALLSYMS, REPORT_OPT_DISABLE_ORDER, REPORT_OPT_DISASM_STYLE = 'M',
	REPORT_OPT_HIDE_UNRESOLVED = 'U', REPORT_OPT_FIELD_SEP = 't',
};

struct diff_time;
struct pk_data_reader;
struct pk_sample;
struct pk_resolved_sample;
struct report_flags2_chain;
struct report_flags2_totals;
struct pk_hist;
struct pk_resolver;
struct pk_hist_entry;

/* What these flags ask, and the switch's state while reading. */
struct report_flags2 {
	const char *time_str;		/* --time, as given */
	struct diff_time *time;		/* ... its ranges (report_flags2_setup) */
	bool ns;			/* --ns */
	bool hide_unresolved;		/* -U */
	bool tasks, mmaps;		/* --tasks, --mmaps */
	const char *switch_on, *switch_off;	/* --switch-on, --switch-off: event names */
	bool show_on_off;		/* --show-on-off-events */
	int on_ev, off_ev;		/* ... their events (-1: none) */
	bool *discarding;		/* the switch: samples are dropped while set */
	struct report_flags2_chain *chain;	/* -U: a sample's resolved frames only */
	const char *field_sep;		/* -t */
	bool prefix, prefix_strip;	/* --prefix, --prefix-strip given (annotate's) */
	bool cpu_util;			/* --show-cpu-utilization: sys and usr columns */
	bool ref_cg;			/* --show-ref-call-graph */
	bool relative;			/* --percentage relative */
	const char *kallsyms;		/* --kallsyms */
	bool disable_order;		/* --disable-order: -D in the file's order (report-dump.c) */
	bool ignore_callees;		/* --ignore-callees: callees_re compiled */
	regex_t callees_re;
	struct report_flags2_totals *totals;	/* ... each histogram's unfiltered totals, once */
};

struct report_opts;

/* report_flags2_option - option `id` (a REPORT_OPT_*) with `arg` into
 * o's flags.  0, or CLI_EXIT_USAGE after a message. */
int report_flags2_option(struct report_opts *o, int id, const char *arg);

/*
 * report_flags2_setup - once file r is open: --time parsed against its
 * first and last sample times, --switch-on/--switch-off's events found by
 * name.  0, or an exit status after perf's message (an event the file
 * lacks, a malformed time string, a percentage of a file without sample
 * times); -ENOMEM.
 */
int report_flags2_setup(struct report_opts *o, struct pk_data_reader *r);

/*
 * report_flags2_skip - whether a sample `s` of event `ev` does not count,
 * as perf report decides before it resolves it: outside --time's ranges,
 * or while the --switch-on/--switch-off switch is off (which such a
 * sample of the switch events turns).
 */
bool report_flags2_skip(const struct report_opts *o, size_t ev, const struct pk_sample *s);

/*
 * report_flags2_chain - *rs replaced by a copy (valid until the next call)
 * whose call chain is the one perf makes of it: with -U only the frames
 * that resolved to a symbol; with --ignore-callees, in perf's walk of the
 * chain (innermost first, or outermost first in caller order) the last
 * frame whose symbol matches becomes the sample's location and the chain
 * starts again from it, what came before forgotten.  Unchanged when
 * neither applies.  0 or -ENOMEM.
 */
int report_flags2_chain(const struct report_opts *o, const struct pk_resolved_sample **rs);

/* report_flags2_resolver - what these flags set on the run's resolver:
 * --kallsyms's file for the kernel's symbols.  0 or -ENOMEM. */
int report_flags2_resolver(const struct report_opts *o, struct pk_resolver *res);

/* report_flags2_time_note - the suffix perf puts after a section's event
 * name `name`: " (time slices: STR)" with --time, ", show reference
 * callgraph" with --show-ref-call-graph for an event named with
 * call-graph=no; else "". */
const char *report_flags2_time_note(const struct report_opts *o, const char *name, char *buf, size_t len);

/* report_flags2_sep_cell - with -t, one cell's text `s` as perf prints
 * it: in a key's (`key`) text each SEP character turned into '.', a
 * number's padded to `width`. */
void report_flags2_sep_cell(FILE *f, const struct report_opts *o, char *s, bool key, int width);

/*
 * --percentage: what percentages are of (perf's hists__total_period):
 * the event's total period (absolute, the default), or with relative the
 * period of the entries the filters (--comms, --dsos, --symbols, --pid,
 * --tid, -x) leave, which the header's counts then give too.
 * report_flags2_total - that total for histogram h (sorted);
 * report_flags2_percent - v as a percentage of it (0 for none);
 * report_flags2_below_limit - whether entry e is under --percent-limit,
 * by its Children period when it has one, in perf's single precision;
 * report_flags2_totals - the header's sample count and period, replaced
 * by the unfiltered ones with relative.
 */
uint64_t report_flags2_total(const struct report_opts *o, const struct pk_hist *h);
double report_flags2_percent(const struct report_opts *o, const struct pk_hist *h, uint64_t v);
bool report_flags2_below_limit(const struct report_opts *o, const struct pk_hist *h, const struct pk_hist_entry *e);
void report_flags2_totals(const struct report_opts *o, const struct pk_hist *h, uint64_t *nr, uint64_t *period);

/* report_flags2_free - what setup allocated. */
void report_flags2_free(struct report_opts *o);

/*
 * report_tasks (report-tasks.c) - --tasks and --mmaps: read every record
 * of r (which it frees) and print perf's tree of the tasks the file saw,
 * "pid tid ppid |comm" indented under each parent, each with its
 * process's maps for --mmaps.  Returns the exit status.
 */
int report_tasks(const struct report_opts *o, struct pk_data_reader *r);

#endif
