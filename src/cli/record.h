/* SPDX-License-Identifier: MIT */
/*
 * record.h - what the files of `perfkit record` share: the options as
 * parsed (record-opts.c) for the run (cmd-record.c).
 */
#ifndef PK_CLI_RECORD_H
#define PK_CLI_RECORD_H

#include "cli.h"

struct record_opts {
	char *events;		/* -e, joined; NULL: cycles, falling back to cpu-clock */
	struct pk_recorder_opts r;	/* the sampling options; the target is set in setup */
	struct cli_target target;	/* -p, -t, -a, -C */
	const char *output;	/* -o, default perf.data */
	unsigned pages;		/* -m */
	unsigned long long pages_asked;	/* before rounding up to a power of two */
	double duration;	/* --duration seconds, 0 = none */
	bool quiet;
	bool no_cache;		/* -N: no build-id cache */
	char cache_dir[4096];	/* the build-id cache, when used */
	int verbose;		/* -v: the attrs as opened and the ring size */
	char **argv;
	const char **e_args;	/* each -e as given, in order */
	size_t nr_e;
	struct record_filter *filters;	/* --filter, each with the -e it follows */
	size_t nr_filters;
	unsigned delay_ms;	/* -D MS: enable the events MS after the start */
	bool freq_max;		/* -F max: perf_event_max_sample_rate */
	const char *control;	/* --control fifo:CTL[,ACK] or fd:N[,M] */
	bool off_cpu;		/* --off-cpu: sched_switch samples and switch records too */
};

/* --filter FILTER after the -e at index e (of e_args). */
struct record_filter {
	size_t e;
	const char *filter;
};

/*
 * record_filters - the filters of o as one per event of o->events (the
 * --filters after one -e joined with && as perf joins them), in *out
 * (free each and the array) with *nr events.  Returns 0 (nothing when no
 * --filter), or an exit status after a message.
 */
int record_filters(const struct record_opts *o, char ***out, size_t *nr);

/*
 * record_offcpu_setup - --off-cpu (record-offcpu.c): the default on-CPU
 * event when none was given, sched:sched_switch and context-switch
 * records added to o.  0, or an exit status after a message.
 */
int record_offcpu_setup(struct record_opts *o);

/* record_free_opts - free what parsing allocated. */
void record_free_opts(struct record_opts *o);
/*
 * record_parse_opts - the command line into *o (zeroed but for its
 * defaults).  Returns 0 with o->argv the command (or NULL), -1 after
 * --help, or an exit status after a message.
 */
int record_parse_opts(int argc, char **argv, struct record_opts *o);

#endif
