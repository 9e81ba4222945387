/* SPDX-License-Identifier: MIT */
/*
 * report.h - what cmd-report.c (options, reading, resolving) and
 * report-print.c (perf report's --stdio table) share.
 */
#ifndef PK_CLI_REPORT_H
#define PK_CLI_REPORT_H

#include "cli.h"

/* -g: how call graphs print (perf's print_type, threshold, print_limit, order). */
struct report_cg {
	enum pk_callchain_mode mode;
	double min_percent;		/* the threshold, in percent */
	uint32_t print_limit;		/* 0: no limit */
	bool caller;			/* chains root first (perf's "caller") */
};

/* The options of one report run. */
struct report_opts {
	const char *input;		/* -i, default perf.data */
	bool force;			/* -f */
	bool dump;			/* -D: every record, raw (report-dump.c) */
	bool quiet;			/* -q */
	bool show_nr;			/* -n */
	bool show_period;		/* --show-total-period */
	double percent_limit;		/* --percent-limit */
	enum pk_hist_key keys[PK_HIST_MAX_KEYS];
	size_t nr_keys;
	char **comms, **dsos;		/* --comms, --dsos: NULL-terminated lists */
	pid_t *pids, *tids;		/* --pid, --tid */
	size_t nr_pids, nr_tids;
	int *cpus;			/* --cpu */
	size_t nr_cpus;
	int format;			/* --format: -1 stdio, else an enum pk_export_format */
	const char *output;		/* -o, for --format other than stdio */
	bool sort_sym;			/* --sort begins with sym (perf then skips a frame) */
	/* Call graphs: -g, --children, -G, --max-stack. */
	struct report_cg cg;
	bool cg_given, cg_none;		/* -g given; -g none */
	bool order_set, inverted;	/* -g caller/callee given; -G */
	int children_opt;		/* --children 1, --no-children 0, else -1 */
	unsigned int max_stack;		/* --max-stack */
	bool callchain;			/* report_cg_setup: the graphs are shown */
	bool children;			/* report_cg_setup: Children totals are */
	bool header, header_only;	/* --header, --header-only (report-header.c) */
	bool show_info;			/* -I */
	bool stats;			/* --stats (report-stats.c) */
};

/*
 * report_cg_parse - perf's -g string into o: print type (graph, flat,
 * fractal, folded, none), order (caller, callee), function, percent, then
 * numbers: the threshold and the print limit; each word may be shortened
 * as perf allows.  0, or CLI_EXIT_USAGE after a message.
 */
int report_cg_parse(struct report_opts *o, const char *arg);

/*
 * report_cg_setup - once the file is open, what perf decides from it:
 * call graphs shown when its samples carry call chains (unless -g none),
 * Children totals by default then (-g none too), caller order with them (unless -g
 * named the order) and with -G.  0, or CLI_EXIT_EVENT after a message
 * for -g on a file without call chains.
 */
int report_cg_setup(struct report_opts *o, struct pk_data_reader *r);

/* Per-sample frame buffers of cmd-report.c's chain hook. */
struct report_chains {
	struct pk_hist_sample *samples;
	struct pk_callchain_frame *frames;
	size_t cap;
};

/* One event's section: its name and histogram. */
struct report_event {
	const char *name;
	struct pk_hist *hist;
};

/*
 * report_print - the --stdio output for every event with samples: the
 * header comments perf prints (unless quiet), each section's table, and
 * the closing comment.  `threads` gives each entry's thread's final comm,
 * which perf sizes the Command columns by.  When no event has a sample
 * left (filters such as --cpu can remove them all), only perf's first
 * line is printed and false returned, for the caller to say so.
 */
bool report_print(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		  uint64_t lost_samples, struct pk_threads *threads);

/*
 * report_callchain_print - the call graph under one entry, in cg's mode,
 * from tree `cc` (sorted for that mode): percentages of `total` (the
 * event's period), or for fractal of `parent_total` (the entry's period,
 * its Children period with --children); a lone chain carrying exactly
 * `parent_total` prints under "---" with no percentage.
 * `skip_first` leaves out a lone chain's first frame (perf does when the
 * sort starts with sym, as the row names it already).
 */
void report_callchain_print(FILE *f, const struct report_cg *cg, const struct pk_callchain *cc,
			    uint64_t total, uint64_t parent_total, bool skip_first);

/* ---- stack health (report-health.c) ------------------------------------------ */

/* report_health_new - the stack-health count for a run with options o,
 * its limit the smaller of --max-stack and the kernel's
 * perf_event_max_stack.  0 with *out, or -ENOMEM. */
int report_health_new(const struct report_opts *o, struct pk_stack_health **out);

/* report_health_print - the summary on f, a line per kind of cut stack,
 * when something is wrong and not -q; h NULL prints nothing. */
void report_health_print(FILE *f, struct pk_stack_health *h, const struct report_opts *o);

/* report_health_stats - --stats' part: read o->input again through the
 * resolver and print every figure on stderr (nothing for standard
 * input, read once already).  Returns the exit status. */
int report_health_stats(const struct report_opts *o);

/* ---- exports (report-export.c) -------------------------------------------- */

/* report_in_ids / report_in_list - whether id is one of ids[0..nr), and
 * whether s is one of the NULL-terminated list (s NULL: no): the filters
 * --pid/--tid and --comms/--dsos, shared by the table and the exports. */
bool report_in_ids(const pid_t *ids, size_t nr, int64_t id);
bool report_in_list(char *const *list, const char *s);

/* report_export_format - --format's argument into *format (-1 for stdio).
 * 0, or CLI_EXIT_USAGE after saying why. */
int report_export_format(const char *arg, int *format);

/* report_export - read every record of `r` (which it frees) through the
 * resolver and write o->format to o->output (stdout when NULL or "-").
 * Returns the exit status. */
int report_export(const struct report_opts *o, struct pk_data_reader *r);

/* ---- --header, --header-only, --stats (report-header.c) --------------------- */

/* report_info - what comes before the table or instead of it: --stats
 * (the counts), --header-only (the header block), both ending the run
 * with the reader freed and the exit status returned; --header prints
 * the block (unless -q) and returns -1 for the table to follow. */
int report_info(const struct report_opts *o, struct pk_data_reader *r);

#endif
