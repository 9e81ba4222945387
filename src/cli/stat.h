/* SPDX-License-Identifier: MIT */
/*
 * stat.h - what the pieces of perfkit stat share: cmd-stat.c (counting,
 * runs), stat-opts.c (options), stat-control.c (--control), stat-display.c
 * (perf's table, CSV and JSON layouts), stat-metric-only.c
 * (--metric-only) and stat-topdown.c (--topdown).
 */
#ifndef PK_CLI_STAT_H
#define PK_CLI_STAT_H

#include "cli.h"

#include <sys/resource.h>

struct stat_opts {
	char *events;		/* joined -e arguments, or NULL for the default set */
	unsigned detailed;	/* -d, -dd, -ddd: perf's detailed event sets appended */
	char *spec;		/* what is counted: events (or the default set) and -d's */
	size_t nr_default;	/* events of the default set at the head of spec (0 with -e):
				 * left out where they cannot count */
	struct cli_target target;	/* -p, -t, -a, -C as given (each run builds its own) */
	const char *cgroup;	/* -G NAME[,NAME...]: only tasks in the cgroup(s) */
	const char *for_each_cgroup;	/* --for-each-cgroup NAME[,NAME...] */
	size_t nr_copies;	/* --for-each-cgroup: spec holds the list this many times */
	size_t nr_per_copy;	/* ... each of this many events */
	const char **ev_cgroups;	/* each event's cgroup (NULL: none); NULL without -G */
	size_t nr_ev_cgroups;
	char *cgroup_buf;	/* the names ev_cgroups points into */
	const char *sep;	/* -x: CSV separator, or NULL for the table */
	bool json;		/* -j */
	const char *output;	/* -o FILE */
	bool append;
	bool quiet;		/* -q: print no counts */
	bool null_run;		/* -n: no default (or -d) counters: time the command */
	bool all_user;		/* --all-user: every event counts user space only */
	bool all_kernel;	/* --all-kernel: every event counts kernel space only */
	bool no_inherit;	/* --no-inherit: children are not counted */
	bool no_aggr;		/* -A: one line per CPU */
	bool per_thread;	/* --per-thread: one line per thread */
	char per;		/* --per-core/die/socket/node: 'c', 'd', 's', 'n'; 0 = none */
	unsigned repeat;	/* -r N: run the command N times (1 by default) */
	unsigned interval_ms;	/* -I MS: print the counts of each interval */
	unsigned interval_count;/* --interval-count N: stop after N intervals */
	unsigned delay_ms;	/* -D MS: start counting MS after the command starts */
	bool start_disabled;	/* -D -1: start disabled; --control enables */
	const char *control;	/* --control fifo:CTL[,ACK] or fd:N[,M] */
	bool verbose;		/* -v: show the attrs as opened */
	int big_num_opt;	/* -B 1, --no-big-num 0, neither -1 */
	bool big_num;		/* thousands' separators in the table (perf's default) */
	bool summary;		/* --summary: the totals after the -I intervals */
	bool no_csv_summary;	/* --no-csv-summary: no "summary" column in -x/-j's totals */
	bool summary_now;	/* set while stat_print prints --summary's totals after -I */
	char *metric_arg;	/* -M: joined metric and group names */
	bool metric_no_group;	/* --metric-no-group: a metric's events are not grouped */
	bool metric_no_merge;	/* --metric-no-merge: accepted; metrics never share events here */
	const struct pk_metric_def **mdefs;	/* the metrics -M added, in order */
	size_t nr_mdefs;
	bool metric_only;	/* --metric-only: the derived figures only, one line */
	bool topdown;		/* --topdown */
	unsigned td_level;	/* --td-level N */
	const char *pre_cmd;	/* --pre CMD: run by the shell before each run */
	const char *post_cmd;	/* --post CMD: run by the shell after each run */
	/* stat-flags2.c: the rest of perf stat 6.1's flags */
	bool sync_run;		/* -S: sync() before each run */
	bool no_scale;		/* --no-scale: counts as counted, not scaled for multiplexing */
	bool no_merge;		/* --no-merge: accepted; perfkit never merges events of one name */
	bool hybrid_merge;	/* --hybrid-merge: accepted; only a hybrid machine has events to merge */
	bool percore_show_thread;	/* --percore-show-thread: accepted (needs percore events) */
	bool table;		/* --table: each -r run's wall time under the counts */
	bool group;		/* -g: every event in one group */
	bool interval_clear;	/* --interval-clear: clear the screen before each interval */
	bool transaction;	/* -T: perf's transaction events */
	bool smi_cost;		/* --smi-cost */
	char *smi_reset;	/* the freeze_on_smi it set to 1, to set back to 0 */
	bool iostat;		/* --iostat[=LIST] */
	const char *iostat_arg;	/* its LIST, or NULL */
	const char *cputype;	/* --cputype TYPE: events of the cpu_TYPE PMU only */
	unsigned timeout_ms;	/* --timeout MS: stop the command after MS */
	int log_fd;		/* --log-fd N: the counts to fd N (0: not given) */
	const char **e_args;	/* each -e as given, for --filter */
	size_t nr_e;
	struct stat_filter { size_t e; const char *text; } *filters;	/* --filter, on -e number e */
	size_t nr_filters;
	FILE *out;		/* where the counts go (stderr, or -o FILE) */
	char **argv;		/* the command, or NULL */
};

/* A topdown event of the core PMU, by what perf derives from it. */
enum stat_td {
	TD_NONE, TD_TOTAL_SLOTS, TD_SLOTS_RETIRED, TD_RECOVERY_BUBBLES, TD_FETCH_BUBBLES,
	TD_SLOTS_ISSUED, TD_RETIRING, TD_BAD_SPEC, TD_FE_BOUND, TD_BE_BOUND, TD_HEAVY_OPS,
	TD_BR_MISPREDICT, TD_FETCH_LAT, TD_MEM_BOUND,
	TD_SLOTS_ISSUED_NO_RECOVERY,	/* slots issued where the PMU has no recovery bubbles */
	TD_NR
};

/* Running mean and variance (Welford), as perf keeps them across -r runs. */
struct stat_acc {
	unsigned n;
	double mean, m2;
};

void stat_acc_add(struct stat_acc *a, double v);

/* perf's noise figure: the standard error of the mean, as % of the mean. */
double stat_acc_noise_pct(const struct stat_acc *a);

struct result {
	const struct pk_event_desc *d;
	const struct perf_event_attr *attr;	/* as parsed (pk_events_attr) */
	char shown[160];	/* the name shown when not d->name ("cycles:u" after perf's fallback) */
	struct pk_count c;	/* the last run's reading */
	int err;		/* 0, or why it has no count (-ENODATA: not supported) */
	struct stat_acc val;	/* scaled value over the runs */
	struct pk_count *per;	/* -A / --per-thread: cpu_idx * nr_threads + thread_idx */
	double *per_sum;	/* -r: each slot's value summed over the runs */
	const struct pk_metric_def *metric;	/* -M: the metric shown on this line */
	char metric_unit[96];	/* its unit column: "%  NAME" or NAME */
	const char *cgroup;	/* -G / --for-each-cgroup: the cgroup it counted in, or NULL */
	enum stat_td td;	/* a topdown event (stat_topdown_attach), or TD_NONE */
	double td_scale;	/* its sysfs .scale, as perf multiplies the count by it */
};

/* Whether event i is one of perf's default set (dropped where it cannot
 * count), in any --for-each-cgroup copy of the list. */
static inline bool stat_in_default(const struct stat_opts *o, size_t i)
{
	return (o->nr_per_copy ? i % o->nr_per_copy : i) < o->nr_default;
}

struct stat_summary {
	struct stat_acc wall;	/* seconds per run */
	struct rusage ru;	/* children's user and sys time, when a command ran */
	bool have_ru;
	unsigned runs;
	/* What -A and --per-thread print the lines for. */
	size_t nr_cpus, nr_threads;
	int *cpus;
	pid_t *tids;
	char (*comm)[16];	/* per thread, from /proc/TID/comm */
	struct pk_cpu_topology *topo;	/* per CPU, for --per-core/die/socket/node */
	double *walls;		/* --table: each run's seconds */
};

/*
 * stat_parse_opts - parse perfkit stat's arguments into *o.  Returns 0 to
 * go on, -1 when --help was printed (exit 0), or an exit status after
 * printing the usage error.
 */
int stat_parse_opts(int argc, char **argv, struct stat_opts *o);

/* stat_control_poll - wait up to timeout_ms for --control input and act on
 * every complete line (enabling or disabling l, which may be NULL);
 * returns true when a "stop" came. */
bool stat_control_poll(const struct stat_opts *o, struct pk_evlist *l, struct cli_control *c,
		       int timeout_ms);

/* stat_topdown_setup - --topdown: the core PMU's topdown events added to
 * o->spec as perf 6.1 picks them (perf-metrics under slots, else the slots
 * events, system-wide only), --metric-only set and the level settled; or
 * perf's refusal.  0 (also without --topdown), else an exit status after
 * the message. */
int stat_topdown_setup(struct stat_opts *o);

/* stat_topdown_attach - each result's topdown kind and its alias's .scale
 * (from the core PMU under PERFKIT_SYSFS_ROOT). */
void stat_topdown_attach(struct result *r, size_t nr);

/* stat_topdown_figures - perf's top-down figures for r[i] from vals
 * (each event's value): how many went into m (1 or 2), or -1 when r[i]
 * has none of its own (not a topdown event, or too few perf-metrics
 * counts: perf's full_td). */
int stat_topdown_figures(const struct result *r, size_t nr, size_t i, const double *vals,
			 struct pk_metric m[2]);

/* stat_cgroup_spec - --for-each-cgroup: o->spec repeated once per cgroup.
 * 0, or an exit status after the message. */
int stat_cgroup_spec(struct stat_opts *o);

/* stat_cgroup_assign - each of the nr parsed events' cgroup into
 * o->ev_cgroups, paired as perf pairs -G's list with the events, or one
 * copy of the list per --for-each-cgroup name.  0 (also without either),
 * or an exit status after the message. */
int stat_cgroup_assign(struct stat_opts *o, size_t nr);

/* stat_cgroup_same - whether two results counted in the same cgroup (or
 * both in none): perf derives figures within one cgroup only. */
bool stat_cgroup_same(const struct result *a, const struct result *b);

/* stat_cgroup_free - what stat_cgroup_assign allocated. */
void stat_cgroup_free(struct stat_opts *o);

/* stat_apply_space - --all-user / --all-kernel on every parsed attr, as perf
 * sets them: exclude_kernel or exclude_user, the other cleared. */
void stat_apply_space(const struct stat_opts *o, struct pk_events *ev);

/* stat_print_interval - one -I interval: the counts since the previous one,
 * stamped with `ts` seconds since counting began, split as `s` says when
 * -A, --per-thread or --per-* asked (r[i].per then holds each slot's
 * counts for the interval); `head` adds perf's column headings (perf's
 * first interval and every 25th after it; each one with --interval-clear). */
void stat_print_interval(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			 const struct stat_summary *s, double ts, double wall_ns, bool first);

/* stat_figures - perf's derived figures for r[i] (at most two, into m),
 * from vals[] (each event's value in the same context); returns how many. */
int stat_figures(const struct result *r, size_t nr, size_t i, const double *vals, double wall_ns,
		 struct pk_metric m[2]);

/* stat_metric_only_header - --metric-only's column headings, one per
 * figure, as perf lays them out; `interval` is NULL outside -I, else the
 * first interval's line starts "#           time" (CSV "time,"). */
void stat_metric_only_header(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			     const double *vals, double wall_ns, const char *interval);

/* stat_metric_only_values - --metric-only's one line of figures after
 * `prefix` (the -I timestamp, or NULL). */
void stat_metric_only_values(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			     const double *vals, double wall_ns, const char *prefix);

/* stat_metric_expand - -M: add the named metrics' events to o->events and
 * their rows to o->mdefs, with perf's message for a name that matches
 * nothing here or a metric whose events this kernel lacks.  0, or -ENOMEM. */
int stat_metric_expand(struct stat_opts *o);

/* stat_metric_expand_nmi - stat_metric_expand with the NMI watchdog's
 * state given (stat_metric_expand reads it, pk_nmi_watchdog): while it is
 * on, a NO_NMI_WATCHDOG metric's events are not grouped, with perf 6.1's
 * "Splitting metric group NAME into standalone metrics." and, after all
 * the names, its hint to turn the watchdog off. */
int stat_metric_expand_nmi(struct stat_opts *o, bool watchdog);

/* stat_metric_literal - a metric expression's literal (perf's #SMT_on,
 * #core_wide) into *v: 1; 0 when name is not a literal; -ENOENT for one
 * perfkit does not know. */
int stat_metric_literal(const char *name, size_t len, double *v);

/* stat_metric_attach - mark the line of each -M metric's first event. */
void stat_metric_attach(const struct stat_opts *o, struct result *r, size_t nr);

/* stat_metric_figure - r[i]'s -M metric evaluated on vals, into *m: 1, or
 * 0 when r[i] shows none or an event of it was not counted. */
int stat_metric_figure(const struct result *r, size_t nr, size_t i, const double *vals,
		       struct pk_metric *m);

/* stat_metric_list - perf list metric / metricgroups: the metrics (with
 * descriptions) or groups of perfkit's table for this CPU, sorted, in perf
 * list's layout.  0, or an exit status. */
int stat_metric_list(FILE *f, bool groups);

/* ---- stat-flags2.c: the rest of perf stat 6.1's flags ---- */

/* Ids of stat-flags2.c's long-only options in stat-opts.c's table (-S, -g
 * and -T go by their letters). */
enum { STAT_OPT_SCALE = 0x200, STAT_OPT_NO_SCALE, STAT_OPT_NO_MERGE, STAT_OPT_HYBRID_MERGE,
       STAT_OPT_PERCORE_SHOW_THREAD, STAT_OPT_TABLE, STAT_OPT_INTERVAL_CLEAR, STAT_OPT_SMI_COST,
       STAT_OPT_IOSTAT, STAT_OPT_CPUTYPE, STAT_OPT_TIMEOUT, STAT_OPT_LOG_FD, STAT_OPT_FILTER };

/* stat_flags2_option - one of stat-flags2.c's options into *o (also notes
 * each -e for --filter): 0, an exit status after the message, or 1 when
 * `id` is for stat-opts.c to take. */
int stat_flags2_option(struct stat_opts *o, int id, const char *arg);

/* stat_flags2_check - what those options say together, with perf's words
 * for its refusals: 0 or an exit status after the message. */
int stat_flags2_check(const struct stat_opts *o);

/* stat_flags2_spec - -g, -T, --smi-cost, --iostat and --cputype on
 * o->spec, as perf 6.1 sets them up: 0 or an exit status after the
 * message. */
int stat_flags2_spec(struct stat_opts *o);

/* stat_flags2_out - where the counts go: stderr, -o FILE or --log-fd N;
 * NULL after the message. */
FILE *stat_flags2_out(const struct stat_opts *o);

/* stat_filters_apply - --filter on the events of the -e before it, each
 * --for-each-cgroup copy too: 0, or -1 after the message. */
int stat_filters_apply(const struct stat_opts *o, struct pk_evlist *l, size_t nr);

/* stat_timeout_wait - --timeout: wait for the command w at most the
 * timeout after t0, then end it with SIGTERM as perf does.  The command's
 * exit status, or 0. */
int stat_timeout_wait(const struct stat_opts *o, struct pk_workload *w, double t0);

/* stat_table_print - --table: perf's table of each run's wall time,
 * between the counts and the elapsed line, `p` decimals. */
void stat_table_print(FILE *f, const struct stat_summary *s, int p);

/* stat_tx_figures - perf's -T and --smi-cost figures for r[i] (stat-tx.c):
 * how many went into m (0: an event of theirs perf shows no number for
 * here), or -1 when r[i] is none of perf's transaction or SMI events. */
int stat_tx_figures(const struct result *r, size_t nr, size_t i, const double *vals,
		    struct pk_metric m[2]);

/* stat_flags2_free - what stat-flags2.c allocated in o. */
void stat_flags2_free(struct stat_opts *o);

/* stat_print - the counts in the layout the options ask for. */
void stat_print(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
		const struct stat_summary *s);

#endif
