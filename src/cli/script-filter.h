/* SPDX-License-Identifier: MIT */
/*
 * script-filter.h - perf script's sample filters and time display
 * (script-filter.c: --pid, --tid, -C, --comms, --dsos, -S, --addr-range,
 * --time, --reltime, --deltatime, -G) and its side-band record lines and
 * per-event files (script-events.c: --show-*-events, --per-event-dump, -l,
 * and the flags perf takes that change nothing here).
 */
#ifndef PK_CLI_SCRIPT_FILTER_H
#define PK_CLI_SCRIPT_FILTER_H

#include "cli.h"
#include "diff.h"

/* The option ids of the flags these two files own (cmd-script.c's table);
 * a flag with a letter has the letter for its id (-c, -C, -S, -G, -a, -l, -v). */
enum script_filter_opt {
	SOPT_PID = 0x200, SOPT_TID, SOPT_DSOS, SOPT_TIME, SOPT_RELTIME, SOPT_DELTATIME,
	SOPT_ADDR_RANGE, SOPT_SHOW_SWITCH, SOPT_SHOW_LOST, SOPT_SHOW_NS, SOPT_SHOW_CGROUP,
	SOPT_SHOW_BPF, SOPT_SHOW_ROUND, SOPT_SHOW_POKE, SOPT_PER_EVENT_DUMP, SOPT_LIST,
	SOPT_DEMANGLE, SOPT_NO_DEMANGLE, SOPT_DEMANGLE_KERNEL, SOPT_ITRACE,
	/* script-switch.c */
	SOPT_SWITCH_ON, SOPT_SWITCH_OFF, SOPT_SHOW_ON_OFF, SOPT_KALLSYMS, SOPT_SHOW_KPATH,
	SOPT_FULL_SRC, SOPT_STOP_BT, SOPT_GRAPH_FUNC, SOPT_INSN_TRACE, SOPT_XED,
	SOPT_CALL_TRACE, SOPT_CALLRET_TRACE,
	/* script-dlfilter.c */
	SOPT_LIST_DLFILTERS, SOPT_DLFILTER, SOPT_DLARG,
};

struct script_dlfilter;

/* perf's user record type of the end of a round (no kernel header names it). */
#define SCRIPT_FINISHED_ROUND 68

/* What the flags set; zero is "none given". */
struct script_filter {
	char **comms, **dsos, **syms;	/* NULL-terminated; NULL: no such filter */
	uint64_t *addrs;		/* -S words that are hex numbers (perf's addr_list) */
	size_t nr_addrs;
	int addr_range;			/* --addr-range */
	pid_t *pids, *tids;
	size_t nr_pids, nr_tids;
	int *cpus;			/* -C */
	size_t nr_cpus;
	const char *time;		/* --time, as given */
	struct diff_time ranges;
	bool reltime, deltatime;
	uint64_t initial_time, previous_time;	/* what --reltime and --deltatime count from */
	bool hide_callgraph;		/* -G */
	/* script-events.c */
	uint32_t show;			/* 1u << PERF_RECORD_x: the records to print */
	bool show_round;		/* --show-round-events: file order, each round */
	bool per_event_dump;
	FILE **files;			/* --per-event-dump: one per event */
	uint64_t *nr_samples;
	char **names;
	size_t nr_files;
	int verbose;
	/* script-switch.c */
	const char *switch_on, *switch_off;	/* --switch-on, --switch-off: event names */
	int on_ev, off_ev;		/* their events; -1: none (set by script_filter_setup) */
	bool show_on_off;		/* --show-on-off-events */
	bool discarding;		/* between the off event and the on event */
	char **stop_bt;			/* --stop-bt: NULL-terminated */
	const char *graph_function;	/* --graph-function */
	const char *kallsyms;		/* --kallsyms */
	const char *vmlinux;		/* -k, --vmlinux */
	bool print_flags;		/* -F flags, --call-ret-trace: perf's flags column */
	bool xed;			/* --xed: the lines go through xed */
	int cur_ev;			/* the event of the sample being printed ... */
	const char *cur_name;		/* ... and its name (script_filter_early) */
	/* script-dlfilter.c */
	const char *dlfilter_path;	/* --dlfilter */
	char **dlargs;			/* --dlarg, in order */
	int nr_dlargs;
	struct script_dlfilter *dlfilter;
};

/* script_filter_split - perf's strlist of a comma-separated string into
 * *out (NULL-terminated, empty words dropped; the old list freed).  0, or a
 * usage exit status. */
int script_filter_split(const char *arg, char ***out);

/*
 * script_filter_option - option `id` (an enum script_filter_opt) with its
 * argument into *f.  0; a usage exit status after a message; -1 when the
 * option ended the run with its output (-l, --list-dlfilters).
 */
int script_filter_option(struct script_filter *f, int id, const char *arg);

/*
 * script_filter_setup - the checks and parses that need the file r (read
 * from path): --time against its first and last sample times (relative to
 * the first with --reltime).  0, or an exit status after a message.
 */
int script_filter_setup(struct script_filter *f, struct pk_data_reader *r);

/*
 * script_filter_early_tests - script_filter_early's tests, when some flag
 * asks for one (the event already noted).
 */
int script_filter_early_tests(struct script_filter *f, struct pk_resolver *res,
			      const struct perf_event_attr *attr, const struct pk_record *rec);

/*
 * script_filter_early - the tests perf makes on a sample of event ev
 * (attr, named name) before resolving it: the --dlfilter's
 * filter_event_early, then --time and -C (script_filter_skip).  Notes the
 * event for script_filter_pass.  1 to go on, 0 to drop it, or
 * -ECANCELED after a message (the dlfilter failed: stop).  Inline: every
 * sample asks, and without those flags the answer is 1.
 */
static inline int script_filter_early(struct script_filter *f, struct pk_resolver *res,
				      const struct perf_event_attr *attr, int ev, const char *name,
				      const struct pk_record *rec)
{
	f->cur_ev = ev;
	f->cur_name = name;
	if (!f->dlfilter && !f->time && !f->cpus)
		return 1;
	return script_filter_early_tests(f, res, attr, rec);
}

/* script_filter_skip - whether --time or -C drops sample s before it is
 * resolved, as perf's process_sample_event. */
bool script_filter_skip(const struct script_filter *f, const struct pk_sample *s);

/* script_filter_skip_cpu - -C's test alone (perf's filter_cpu), for
 * side-band records too; (uint32_t)-1 is kept. */
bool script_filter_skip_cpu(const struct script_filter *f, uint32_t cpu);

/* script_filter_lists_hide - script_filter_hides' tests, when one of its
 * flags is given. */
bool script_filter_lists_hide(const struct script_filter *f, const struct pk_resolved_sample *r,
			      uint64_t ip);

/* script_filter_hides - whether --comms, --pid, --tid, --dsos or -S hide
 * the resolved sample r (perf's al.filtered).  Inline: without those
 * flags, which every sample asks first, nothing is hidden. */
static inline bool script_filter_hides(const struct script_filter *f, const struct pk_resolved_sample *r,
				       uint64_t ip)
{
	return (f->comms || f->pids || f->tids || f->dsos || f->syms) && script_filter_lists_hide(f, r, ip);
}

/* script_filter_rel_time - script_filter_time under --reltime or
 * --deltatime. */
uint64_t script_filter_rel_time(struct script_filter *f, uint64_t time);

/* script_filter_time - the time the TIME field shows for a line at `time`:
 * itself, or with --reltime the time since the first line's, with
 * --deltatime since the previous line's (which it then becomes). */
static inline uint64_t script_filter_time(struct script_filter *f, uint64_t time)
{
	return f->reltime || f->deltatime ? script_filter_rel_time(f, time) : time;
}

/* script_filter_free - free what the options allocated. */
void script_filter_free(struct script_filter *f);

/* ---- script-events.c -------------------------------------------------------- */

/* script_events_shows - whether a --show-*-events flag asks for records of
 * `type` (other than the task and mmap ones cmd-script.c prints). */
bool script_events_shows(const struct script_filter *f, uint32_t type);

/*
 * script_events_body - what perf's perf_event__fprintf prints for the
 * decoded record d: "PERF_RECORD_<TYPE>" and its fields, a line (or more).
 * res: for a TEXT_POKE's symbol.
 */
void script_events_body(FILE *out, const struct pk_record *d, struct pk_resolver *res);

/* script_events_round - --show-round-events' line for a FINISHED_ROUND. */
void script_events_round(FILE *out);

/*
 * script_events_open - --per-event-dump: PATH.EVNAME.dump for each event
 * of r (perf's names).  0, or an exit status after a message.
 */
int script_events_open(struct script_filter *f, struct pk_data_reader *r, const char *path);

/* script_events_file - where the lines of event ev go: its dump file, or
 * stdout (script_filter_pass counts the samples printed). */
static inline FILE *script_events_file(const struct script_filter *f, int ev)
{
	if (!f->files || ev < 0 || (size_t)ev >= f->nr_files)
		return stdout;
	return f->files[ev];
}

/* script_events_close - close the dump files, each with perf's "[ perf
 * script: Wrote ... ]" line on stdout. */
void script_events_close(struct script_filter *f);

/*
 * script_events_option - the flags script-events.c owns (the --show-*
 * ones, --per-event-dump, -l, and -a, -v, --itrace and the demangling
 * ones, which change nothing here).  0; -1 when the run is over (-l).
 */
int script_events_option(struct script_filter *f, int id, const char *arg);

/* ---- script-switch.c ------------------------------------------------------ */

/* script_switch_option - --switch-on/-off, --show-on-off-events, --stop-bt,
 * --graph-function, --kallsyms, --vmlinux, --xed, --call-ret-trace's flags
 * column, and the flags accepted as perf accepts them without the data
 * they are for (--show-kernel-path, --max-blocks); then script-dlfilter.c's.
 * 0, or a usage exit status; -1 when the run is over (--list-dlfilters). */
int script_switch_option(struct script_filter *f, int id, const char *arg);

/* script_switch_fields - the -F edit --insn-trace[=ARG] (id SOPT_INSN_TRACE),
 * --call-trace or --call-ret-trace stands for, as perf's parse_*_trace;
 * NULL after a message for an --insn-trace argument perf refuses. */
const char *script_switch_fields(int id, const char *arg);

/* script_switch_setup - --switch-on and --switch-off's events in r, by
 * name (perf's evlist__find_evsel_by_str).  0, or an exit status after
 * perf's message. */
int script_switch_setup(struct script_filter *f, struct pk_data_reader *r);

/* script_switch_resolver - what the flags set in the resolver res
 * (--kallsyms, --vmlinux), and --xed's pipe into xed (perf's forced pager).  0, or an
 * exit status after a message. */
int script_switch_resolver(struct script_filter *f, struct pk_resolver *res);

/* script_filter_pass_tests - script_filter_pass's tests, when some flag
 * asks for one. */
int script_filter_pass_tests(struct script_filter *f, struct pk_resolver *res,
			     const struct perf_event_attr *attr, const struct pk_record *rec,
			     const struct pk_resolved_sample *r);

/*
 * script_filter_pass - the tests perf makes after a sample is resolved and
 * its comm, pid, DSO and symbol filters passed: --graph-function (which
 * needs branch flags only AUX data gives: no sample passes), --switch-on
 * and --switch-off (perf's evswitch), then the --dlfilter; a sample kept
 * is counted for --per-event-dump.  The sample's event is f->cur_ev.  1
 * to print it, 0 to drop it, or -ECANCELED after a message (the dlfilter
 * failed: stop).  Inline: without those flags, the answer is 1.
 */
static inline int script_filter_pass(struct script_filter *f, struct pk_resolver *res,
				     const struct perf_event_attr *attr, const struct pk_record *rec,
				     const struct pk_resolved_sample *r)
{
	if (!f->graph_function && f->on_ev < 0 && f->off_ev < 0 && !f->dlfilter && !f->nr_samples)
		return 1;
	return script_filter_pass_tests(f, res, attr, rec, r);
}

/* script_switch_stops - whether --stop-bt ends a call chain after the
 * frame of symbol sym. */
bool script_switch_stops(const struct script_filter *f, const char *sym);

/* ---- script-dlfilter.c ---------------------------------------------------- */

/* script_dlfilter_option - --list-dlfilters, --dlfilter and --dlarg.  0, a
 * usage exit status, or -1 when the run is over (--list-dlfilters). */
int script_dlfilter_option(struct script_filter *f, int id, const char *arg);

/* script_dlfilter_open - load the --dlfilter (perf's dlfilter__new: its
 * start with the --dlarg arguments).  0, or an exit status after a message. */
int script_dlfilter_open(struct script_filter *f);

/* script_dlfilter_early - filter_event_early's verdict on a sample before it
 * is resolved: 1 keep, 0 drop, or -ECANCELED after a message (the filter
 * failed: the run stops, as perf's). */
int script_dlfilter_early(struct script_filter *f, struct pk_resolver *res, const struct perf_event_attr *attr,
			  const char *event, const struct pk_record *rec);

/* script_dlfilter_filter - the filter's verdict on a sample: 1 keep, 0
 * drop, or -ECANCELED after a message (the filter failed). */
int script_dlfilter_filter(struct script_filter *f, struct pk_resolver *res, const struct perf_event_attr *attr,
			   const struct pk_record *rec, const struct pk_resolved_sample *r);

/* script_dlfilter_close - the filter's stop, and unload it. */
void script_dlfilter_close(struct script_filter *f);

#endif
