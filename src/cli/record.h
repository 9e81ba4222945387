/* SPDX-License-Identifier: MIT */
/*
 * record.h - what the files of `perfkit record` share: the options as
 * parsed (record-opts.c) for the run (cmd-record.c).
 */
#ifndef PK_CLI_RECORD_H
#define PK_CLI_RECORD_H

#include "cli.h"

#include <sys/types.h>

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
	char *cgroups;		/* -G, every one's list joined with ',' */
	char *switch_event;	/* --switch-output-event, joined */
	unsigned delay_ms;	/* -D MS: enable the events MS after the start */
	bool freq_max;		/* -F max: perf_event_max_sample_rate */
	bool strict_freq;	/* --strict-freq: a -F over that limit is refused */
	const char *control;	/* --control fifo:CTL[,ACK] or fd:N[,M] */
	bool switch_output;	/* --switch-output: one of the three below */
	bool switch_signal;	/* ... on SIGUSR2 */
	uint64_t switch_size;	/* ... when a file has this many bytes of records */
	unsigned switch_secs;	/* ... every this many seconds */
	int switch_max_files;	/* --switch-max-files: keep the N newest, 0 all */
	bool timestamp_filename;	/* --timestamp-filename (implied by --switch-output) */
	uint64_t max_size;	/* --max-size: stop at this many bytes of records, 0 none */
	bool off_cpu;		/* --off-cpu: sched_switch samples and switch records too */
	bool dry_run;		/* --dry-run: check the options and events, record nothing */
	bool group;		/* --group: every -e event in one group, {...} merged (pk_recorder_opts.group) */
	char exclude_perf[32];	/* --exclude-perf's filter: "common_pid != <our pid>" */
	bool threads;		/* --threads: a directory, data.N per ring (record-threads.c) */
	/* record-flags2.c's */
	const char *uid;	/* -u USER */
	char *uid_pids;		/* -u's processes, the -p list they became */
	int realtime;		/* -r: the recorder's SCHED_FIFO priority, 0 none */
	bool buildid_mmap;	/* --buildid-mmap */
	unsigned aio;		/* --aio's control blocks (checked, 0 without) */
	const char *affinity;	/* --affinity node|cpu (checked, NULL without) */
	bool kcore;		/* --kcore */
	bool debuginfod;	/* --debuginfod */
	int aux_flag;		/* -S or --aux-sample given (its id), 0 none */
};

/* The ids of record-flags2.c's long-only options. */
enum {
	RECORD_OPT_FLAGS2 = 0x200, RECORD_OPT_ALL_CGROUPS, RECORD_OPT_TRANSACTION,
	RECORD_OPT_BUILDID_ALL, RECORD_OPT_BUILDID_MMAP, RECORD_OPT_SYNTH, RECORD_OPT_NUM_THREAD_SYNTH,
	RECORD_OPT_PROC_MAP_TIMEOUT, RECORD_OPT_AFFINITY, RECORD_OPT_AIO, RECORD_OPT_VMLINUX,
	RECORD_OPT_KCORE, RECORD_OPT_DEBUGINFOD, RECORD_OPT_CLANG_PATH, RECORD_OPT_CLANG_OPT,
	RECORD_OPT_AUX_SAMPLE,
};

/* record_flags2_option - one of record-flags2.c's options (-u, -r, -S or
 * an id above) into o.  0, an exit status after a message, or 1 when id
 * is none of them. */
int record_flags2_option(struct record_opts *o, int id, const char *arg);

/* record_flags2_check - after the options: -S/--aux-sample and --kcore
 * refused with perf's messages, -u into a -p list of the user's
 * processes (perf's overrides against the other targets), and
 * --buildid-mmap's implied -B -N.  0, or an exit status after a message. */
int record_flags2_check(struct record_opts *o);

/* record_realtime - -r: SCHED_FIFO at its priority for perfkit, before
 * the recording starts and the command is let run (perf: after its
 * synthesis).  0, or an exit status after perf's message. */
int record_realtime(const struct record_opts *o);

/* A file this run made (--switch-max-files), as it was made. */
struct record_file {
	char *name;
	dev_t dev;
	ino_t ino;
};

/* The state of timestamped and switched output (record-output.c). */
struct record_out {
	int argc;		/* the command line each file stores: perfkit's */
	char **argv;		/* path (/proc/self/exe), then "record" and the rest */
	char exe[4096];
	uint64_t wakeups;	/* the wake-ups before the current file */
	uint64_t samples;	/* the samples before the current file */
	char name[4096];	/* the name the last file got */
	struct record_file *files;	/* --switch-max-files slots, oldest at next */
	size_t next;
};

/* record_out_cmdline - out->argc/argv: argv (from "record" on) after
 * the path of perfkit's executable, as perf stores its own first
 * ("perfkit" when /proc/self/exe cannot be read).  0 or -ENOMEM; freed
 * by record_out_free. */
int record_out_cmdline(struct record_out *out, int argc, char **argv);

/* record_parse_size - `arg` of option `opt` as bytes (B/K/M/G or none)
 * into *out; 0, or an exit status after a usage message. */
int record_parse_size(const char *opt, const char *arg, uint64_t *out);

/* record_parse_switch - --switch-output's value (NULL: signal) into o;
 * 0, or an exit status after a usage message. */
int record_parse_switch(struct record_opts *o, const char *arg);

/* record_out_check - refuse timestamped or switched output to a stream or
 * a device (perf would rename the device).  0 or an exit status. */
int record_out_check(const struct record_opts *o);

/* record_out_name - name writer w's file PATH.<timestamp> (out->name).
 * 0, or a negative errno after a message. */
int record_out_name(struct record_out *out, const struct record_opts *o, struct pk_data_writer *w);

/* record_out_done - out->name is in place: perf's Dump line (when `say`),
 * and with --switch-max-files the oldest file this run made deleted. */
void record_out_done(struct record_out *out, const struct record_opts *o, bool say);

/*
 * record_out_switch - a new file at o->output for the recorder, the
 * current one (*w) finished under its timestamped name; *w becomes the new
 * writer.  `wakeups`: the recorder's count so far.  0, or a negative errno
 * after a message (the recording should stop; *w is still to be finished).
 */
int record_out_switch(struct record_out *out, const struct record_opts *o, struct pk_recorder *rec,
		      struct pk_data_writer **w, uint64_t wakeups);

/* record_out_free - free what out holds. */
void record_out_free(struct record_out *out, const struct record_opts *o);

/* record_dry_run - --dry-run: the events of o parsed as the recording would
 * (nothing opened, no file, no command run).  0, or an exit status after
 * the message. */
int record_dry_run(struct record_opts *o);

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
 * record_cgroups - -G's cgroups (every -G's list, in order) paired with
 * the events as perf pairs them: one name for every event, else the Nth
 * name for the Nth event (an empty one: none).  Sets ro->cgroup or
 * ro->event_cgroups, whose names live in *buf and the array in *names
 * (free both).  0, or an exit status after the message.
 */
/* --switch-output-event's events, counted on the recording's target. */
struct record_swevent {
	struct pk_evlist *l;	/* NULL without the option */
	size_t nr;
	uint64_t seen;		/* their total count at the last switch */
	pid_t pid;		/* the command, when it is the target */
	int *cpus;		/* -a / -C */
	size_t nr_cpus;
};

/* record_swevent_add - one --switch-output-event (implies
 * --switch-output=signal, as in perf).  0, or an exit status. */
int record_swevent_add(struct record_opts *o, const char *arg);

/* record_swevent_open - count the switch events on the target (`command`:
 * the held command's pid when it is what is recorded).  0 (nothing to do
 * without the option), or an exit status after the message. */
int record_swevent_open(struct record_swevent *sw, const struct record_opts *o, pid_t command);

/* record_swevent_fired - whether a switch event occurred since the last
 * call that said so. */
bool record_swevent_fired(struct record_swevent *sw);

/* record_swevent_close - close the events; a closed or zeroed one is a no-op. */
void record_swevent_close(struct record_swevent *sw);

/* record_cgroup_add - one -G: its list appended to o->cgroups.  0, or an
 * exit status after the message. */
int record_cgroup_add(struct record_opts *o, const char *arg);

int record_cgroups(const struct record_opts *o, struct pk_recorder_opts *ro, char **buf,
		   const char ***names);

/*
 * record_offcpu_setup - --off-cpu (record-offcpu.c): the default on-CPU
 * event when none was given, sched:sched_switch and context-switch
 * records added to o.  0, or an exit status after a message.
 */
int record_offcpu_setup(struct record_opts *o);

/* record_threads_parse - --threads[=SPEC] (NULL: cpu) into o, checked as
 * perf checks it.  0, or an exit status after a usage message. */
int record_threads_parse(struct record_opts *o, const char *arg);

/* record_threads_check - with --threads, refuse what perf refuses (-o -,
 * --per-thread) and drop with perf's warning what it ignores
 * (--switch-output, --switch-output-event, --timestamp-filename).  0 or
 * an exit status after the message. */
int record_threads_check(struct record_opts *o);

/* record_threads_writer - the directory writer at o->output for rec, a
 * data.N per ring.  0, or an exit status after the message. */
int record_threads_writer(const struct record_opts *o, struct pk_recorder *rec, struct pk_data_writer **w);

/* record_free_opts - free what parsing allocated. */
void record_free_opts(struct record_opts *o);
/*
 * record_parse_opts - the command line into *o (zeroed but for its
 * defaults).  Returns 0 with o->argv the command (or NULL), -1 after
 * --help, or an exit status after a message.
 */
int record_parse_opts(int argc, char **argv, struct record_opts *o);

#endif
