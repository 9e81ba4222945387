/* SPDX-License-Identifier: MIT */
/*
 * report.h - what cmd-report.c (options, reading, resolving) and
 * report-print.c (perf report's --stdio table) share.
 */
#ifndef PK_CLI_REPORT_H
#define PK_CLI_REPORT_H

#include "cli.h"

/* The options of one report run. */
struct report_opts {
	const char *input;		/* -i, default perf.data */
	bool force;			/* -f */
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
 * which perf sizes the Command columns by.
 */
void report_print(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		  uint64_t lost_samples, struct pk_threads *threads);

#endif
