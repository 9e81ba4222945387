/* SPDX-License-Identifier: MIT */
/*
 * perfkit/recorder.h - sampling as perf record does it, as an object: the
 * events laid out the way perf record lays out samples, opened on a target,
 * their rings mapped, what existed before recording synthesized, and every
 * record moved from the rings to a perf.data writer, to a callback, or to
 * both, with perf's FINISHED_ROUND markers, DWARF stacks cut to what the
 * kernel really copied, the DSOs samples land in marked for the BUILD_ID
 * table, and the losses counted.  The caller keeps the loop (poll, drain,
 * stop), the signals, the messages and the file's name and fate.
 * Included by perfkit.h.
 *
 * A recording, in order:
 *   pk_recorder_new        parse, lay out, open (disabled), map the rings
 *   pk_recorder_set_writer / pk_recorder_set_callback   where records go
 *   pk_recorder_start      describe the events, synthesize, enable
 *   pk_recorder_poll + pk_recorder_drain, until the caller decides to stop
 *   pk_recorder_finish     disable, last drain, sample times and build-ids
 *   pk_recorder_stats, then pk_data_writer_finish on the writer, pk_recorder_free
 */
#ifndef PERFKIT_RECORDER_H
#define PERFKIT_RECORDER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfkit/error.h"
#include "perfkit/event.h"
#include "perfkit/evlist.h"
#include "perfkit/record.h"
#include "perfkit/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How samples get their call chains. */
enum pk_callgraph {
	PK_CALLGRAPH_NONE,
	PK_CALLGRAPH_FP,	/* the kernel walks frame pointers (perf record -g) */
	PK_CALLGRAPH_DWARF,	/* registers and a copy of the user stack, unwound later */
	PK_CALLGRAPH_LBR,	/* the last-branch-record call stack (Intel) */
};

/*
 * What to record and how: perf record's options.  Zero-initialise, set size
 * = sizeof, then what differs from perf's defaults.  The target is one of:
 * `workload` (a command started with pk_workload_start, sampled from its
 * exec on, with its children), `pids` (every thread of these processes),
 * `tids` (these threads), `all_cpus` or `cpu_list` (every task on those
 * CPUs); none of them means the calling thread and its children.  The
 * recorder copies the struct, not what it points to: pids, tids and
 * cpu_list must stay valid until pk_recorder_start returns.
 */
struct pk_recorder_opts {
	size_t size;
	unsigned freq;			/* samples a second; 0: pk_recorder_default_freq()
				 * unless -c or the event's own */
	uint64_t period;		/* an event count between samples instead of freq */
	enum pk_callgraph callgraph;
	uint32_t stack_size;		/* DWARF: user stack bytes per sample, 0 = 8192 */
	bool data_addr;			/* ADDR, DATA_SRC and data mmaps (perf record -d) */
	bool raw;			/* PERF_SAMPLE_RAW (-R) */
	uint64_t branch_type;		/* branch_sample_type for a branch stack, 0 = none */
	uint64_t user_regs, intr_regs;	/* sample_regs_user / sample_regs_intr masks */
	bool switch_events;		/* context switch records */
	bool namespaces;		/* namespace records, synthesized ones too */
	bool overwrite;			/* overwrite rings, read by pk_recorder_snapshot */
	bool sample_cpu;		/* PERF_SAMPLE_CPU also for a task target */
	bool no_inherit;		/* do not follow the target's new children */
	pid_t workload;			/* > 0: the target is this started command */
	const pid_t *pids;		/* the target is these processes ... */
	size_t nr_pids;
	const pid_t *tids;		/* ... or these threads ... */
	size_t nr_tids;
	bool all_cpus;			/* ... or every CPU ... */
	const char *cpu_list;		/* ... or these ("0-3,8") */
	size_t pages;			/* ring data pages (a power of two), 0: the policy below */
	bool use_clockid;		/* sample times on clockid instead of perf's clock */
	int clockid;
	bool no_build_ids;		/* no build-id marking and no BUILD_ID table */
	int compression;		/* zstd level 1-22 for the writer's records, 0 = none */
	const char *buildid_dir;	/* the build-id cache to fill at the end (perf's
					 * ~/.debug layout), NULL: none; unused with
					 * no_build_ids.  Must stay valid until finish */
	/* Appended later; zero keeps perf record's defaults. */
	const char *cgroup;		/* sample only tasks in this cgroup (a path in
					 * the perf_event hierarchy); CPU targets only */
	const char *const *filters;	/* filters[i]: tracepoint filter for event i (the
					 * kernel's ftrace syntax), NULL for none */
	size_t nr_filters;
	bool start_disabled;		/* pk_recorder_start leaves the events disabled
					 * (and a workload's too): pk_recorder_enable */
	bool all_user;			/* every event samples user space only */
	bool all_kernel;		/* every event samples kernel space only */
	bool weight;			/* PERF_SAMPLE_WEIGHT_STRUCT (perf record -W) */
	bool data_page_size;		/* PERF_SAMPLE_DATA_PAGE_SIZE */
	bool code_page_size;		/* PERF_SAMPLE_CODE_PAGE_SIZE */
	bool user_callchains;		/* call chains of user space only */
	bool kernel_callchains;		/* call chains of kernel space only */
	bool per_thread;		/* one event per thread on any CPU (task targets;
					 * no inherit), one ring each */
	size_t mmap_flush;		/* pk_recorder_drain leaves a ring alone until it
					 * holds this many bytes (perf's --mmap-flush);
					 * 0 or 1: any; at most a quarter of a ring (see
					 * pk_recorder_mmap_flush) */
	bool inherit_stat;		/* a child's counts written as a READ record
					 * when it exits (perf record -s) */
	const char *const *event_cgroups;	/* event i samples only tasks in
					 * event_cgroups[i] (NULL or "": cgroup above, or
					 * none), as perf pairs -G's list with -e's
					 * events; CPU targets only */
	size_t nr_event_cgroups;
	bool default_event;		/* perf's default event (see pk_recorder_new's
					 * NULL events) before the events given, as
					 * perf record --off-cpu adds its own to it */
	bool timestamp;			/* sample times with per_thread too (perf's -T):
					 * perf's per-thread samples carry none */
	bool running_time;		/* read_format with the enabled and running
					 * times (perf's --running-time): the S
					 * modifier's samples and -s's READ records
					 * carry them, for scaling */
	bool tail_synthesize;		/* what exists (kernel map, processes, BPF
					 * programs) written at the end of each file,
					 * not at its start (perf's --tail-synthesize;
					 * implied by overwrite) */
	bool sample_identifier;		/* PERF_SAMPLE_IDENTIFIER in every layout,
					 * one event or many (perf's --sample-identifier) */
	bool no_bpf_event;		/* no BPF program loads: no bpf_event, none
					 * synthesized, no BPF side band (perf's
					 * --no-bpf-event) */
	bool no_samples;		/* every event opened with a zero rate: no
					 * samples, the side band alone (perf's -n) */
	bool phys_data;			/* PERF_SAMPLE_PHYS_ADDR (perf's --phys-data) */
	bool no_buffering;		/* every sample wakes the reader (wakeup_events
					 * 1, perf's --no-buffering) */
	bool group;			/* the events given in one group, groups in
					 * them merged (perf's --group; pk_events_group) */
	bool transaction;		/* PERF_SAMPLE_TRANSACTION (perf's --transaction) */
	bool all_cgroups;		/* PERF_SAMPLE_CGROUP in every layout, and the
					 * side band's cgroup records (--all-cgroups) */
	bool buildid_mmap;		/* the side band's build_id bit: MMAP2 records
					 * carry build-ids (perf's --buildid-mmap) */
	bool buildid_all;		/* BUILD_ID lists every DSO mapped, not only
					 * those samples hit (perf's --buildid-all) */
	unsigned no_synth;		/* PK_RECORDER_NO_SYNTH_*: what of the targets'
					 * processes is not synthesized (perf's --synth) */
	bool ignore_missing;		/* pids: threads that exit before their events
					 * open are left out, not an error (perf's -u) */
	bool sample_period;		/* PERF_SAMPLE_PERIOD with a fixed period too
					 * (perf's -P): else only a frequency's samples
					 * and a tracepoint's carry their period, as in
					 * perf 6.1.  The kernel samples a software
					 * event with a fixed period and this bit at
					 * every event, each of period 1 (as perf -P
					 * does). */
	bool sample_id;			/* the event id in every sample, one event too
					 * (PERF_SAMPLE_ID; several layouts keep
					 * IDENTIFIER, as sample_identifier does): as
					 * perf 6.1 records for a pipe (-o -), whose
					 * reader tells the events apart by it */
};

/* What pk_recorder_opts.no_synth leaves out of the records of what exists
 * (the kernel's map and BPF programs are always told, as by perf). */
#define PK_RECORDER_NO_SYNTH_TASK	1u	/* names, forks and maps of processes */
#define PK_RECORDER_NO_SYNTH_MMAP	2u	/* their maps */
#define PK_RECORDER_NO_SYNTH_CGROUP	4u	/* the cgroups (with all_cgroups) */

/*
 * Where records go besides (or instead of) a writer: called for every
 * record in the order the rings give them, and for each FINISHED_ROUND.
 * `h` is the record as written to the file (a DWARF sample with its stack
 * already cut); `rec` is it decoded with its own event's attr, or NULL for
 * a FINISHED_ROUND, a record type the decoder does not know, or bytes that
 * do not decode.  Both are valid only during the call.  Return 0 to go on,
 * or a negative errno to stop delivery (see pk_recorder_drain).
 */
typedef int (*pk_recorder_cb)(void *arg, const struct perf_event_header *h,
			      const struct pk_record *rec);

/* What a recording saw, for pk_recorder_stats. */
struct pk_recorder_stats {
	size_t size;			/* set by the caller: sizeof(struct pk_recorder_stats) */
	uint64_t records;		/* every record read from the rings */
	uint64_t samples;		/* SAMPLE records among them */
	uint64_t lost;			/* records the kernel dropped, the rings full (LOST) */
	uint64_t lost_samples;		/* samples the kernel could not take (LOST_SAMPLES) */
	uint64_t throttled;		/* THROTTLE records: the kernel slowed sampling down */
	uint64_t wakeups;		/* pk_recorder_poll calls that found data */
	uint64_t first_time;		/* the earliest and latest sample time, */
	uint64_t last_time;		/* 0 before any sample */
	int sink_error;			/* the first failure delivering records, or 0 */
	uint64_t buildid_cached;	/* DSOs newly put into the build-id cache */
	uint64_t buildid_cache_failed;	/* DSOs the cache could not take (the first
					 * one's reason: pk_recorder_warning) */
};

struct pk_recorder;

/*
 * pk_recorder_new - get a recording ready: parse `events` (perf's grammar;
 * NULL means perf's default, cycles, falling back to cpu-clock where the
 * machine cannot sample cycles, see pk_recorder_fell_back), give every
 * event perf record's sample layout (IDENTIFIER, IP, TID, TIME, PERIOD;
 * CALLCHAIN with a call graph, REGS_USER and STACK_USER for DWARF, a
 * branch stack for LBR; CPU for CPU targets; ADDR, RAW, regs as asked) and
 * the first event (for CPU targets, an added dummy:HG event) the sideband,
 * open them disabled on the target, one fd per event x CPU x thread, and
 * map the rings: `pages` pages each, or 128 (perf's default), or for DWARF
 * 2048 where the locked-memory limit allows it (every sample carries its
 * stack).  Returns 0 with the recorder in *out, or a negative errno with
 * pk_last_error set: the parser's error (its column is in `events`), the
 * kernel's refusal to open or map, -EINVAL for more than one target, or
 * -ESRCH for a process in pids that does not exist.
 */
PK_API int pk_recorder_new(const char *events, const struct pk_recorder_opts *opts,
			   struct pk_recorder **out);

/* pk_recorder_free - close the events and free everything; the writer,
 * which the caller owns, is left alone.  NULL is a no-op. */
PK_API void pk_recorder_free(struct pk_recorder *r);

/* pk_recorder_fell_back - whether cycles (the default, or an event asked
 * for) could not be sampled here and cpu-clock is sampled in its place, as
 * perf does (for the caller to say so; pk_recorder_event_name). */
PK_API bool pk_recorder_fell_back(const struct pk_recorder *r);

/* pk_recorder_events / pk_recorder_evlist - the events as parsed (with any
 * added dummy) and as opened (attrs after fallbacks, ids, CPUs, threads);
 * they live as long as the recorder. */
PK_API const struct pk_events *pk_recorder_events(const struct pk_recorder *r);
PK_API const struct pk_evlist *pk_recorder_evlist(const struct pk_recorder *r);

/* pk_recorder_pages / pk_recorder_nr_rings - the data pages of each ring
 * and how many rings are mapped. */
PK_API size_t pk_recorder_pages(const struct pk_recorder *r);
PK_API size_t pk_recorder_nr_rings(const struct pk_recorder *r);

/*
 * pk_recorder_set_writer - write the recording into `w`, which the caller
 * created (and still owns: it calls pk_data_writer_finish or pk_data_writer_abort after
 * pk_recorder_finish).  pk_recorder_start sets its compression and clock
 * and describes the events to it; pk_recorder_finish adds the sample time
 * span and the build-ids.  Returns 0, or -EINVAL after pk_recorder_start.
 */
PK_API int pk_recorder_set_writer(struct pk_recorder *r, struct pk_data_writer *w);

/*
 * pk_recorder_switch - go on recording into `w`, a new writer the caller
 * created, and give the current one back whole (perf record
 * --switch-output): drain the rings (all they hold, whatever mmap_flush
 * says; with overwrite a snapshot too), give the current writer its sample
 * time span and BUILD_ID table as pk_recorder_finish does, then describe
 * the events to `w` and deliver to it the records of what exists now
 * (the kernel's map; the processes' names and maps of the target: a
 * command's process, pids, tids, or every process for CPU targets), so
 * each file reads alone.  The caller then finishes the writer it had set
 * (pk_data_writer_set_path to name it, pk_data_writer_finish) and owns `w`
 * as it owned that one.  Returns 0; -EINVAL before pk_recorder_start or
 * without a writer, with nothing switched; or the sink error (as
 * pk_recorder_drain), after which records still go to `w` and the old
 * writer keeps what reached it.
 */
PK_API int pk_recorder_switch(struct pk_recorder *r, struct pk_data_writer *w);

/* pk_recorder_mmap_flush - the bytes a ring must hold before
 * pk_recorder_drain moves them: opts.mmap_flush, at least 1 and at most a
 * quarter of a ring, as perf clamps it. */
PK_API size_t pk_recorder_mmap_flush(const struct pk_recorder *r);

/* pk_recorder_default_freq - the samples a second an event takes when
 * opts.freq is 0 and neither opts.period nor the event's own terms set a
 * rate: perf record's default, 4000.  Never fails. */
PK_API unsigned pk_recorder_default_freq(void);

/* pk_recorder_set_callback - also hand every record to `cb` with `arg`
 * (see pk_recorder_cb).  Returns 0, or -EINVAL after pk_recorder_start. */
PK_API int pk_recorder_set_callback(struct pk_recorder *r, pk_recorder_cb cb, void *arg);

/*
 * pk_recorder_start - describe the events and their ids to the writer,
 * deliver the records of what exists already (the kernel's map; for pids
 * and tids their processes' names and maps; for CPU targets every
 * process's), then enable the events (a workload's are enabled by its
 * exec: call pk_workload_go after this).  A kernel map that
 * kernel.kptr_restrict hides is left out, not an error: see
 * pk_recorder_warning.  Returns 0, or a negative errno (a sink's, or the
 * kernel's refusal to enable) with pk_last_error set.
 */
PK_API int pk_recorder_start(struct pk_recorder *r);

/* pk_recorder_warning - what pk_recorder_start had to leave out, as a
 * sentence with its hint ("... ; set kernel.kptr_restrict ..."), or NULL;
 * after pk_recorder_finish, why the first DSO the build-id cache could not
 * take was refused, when one was (stats: buildid_cache_failed). */
PK_API const char *pk_recorder_warning(const struct pk_recorder *r);

/*
 * pk_recorder_poll - wait up to timeout_ms (-1: forever) for data in the
 * rings, or for every monitored task to exit.  Returns the number of rings
 * with data (counted as a wake-up when > 0), 0 on timeout, or a negative
 * errno (-EINTR for a signal).
 */
PK_API int pk_recorder_poll(struct pk_recorder *r, int timeout_ms);

/* pk_recorder_hangup - true once every monitored task is gone: after a
 * last drain, no more records will come. */
PK_API bool pk_recorder_hangup(const struct pk_recorder *r);

/*
 * pk_recorder_drain - move what the normal rings hold to the sinks, at
 * most a ring's size from each per call so one busy ring cannot starve the
 * others, giving each record's space back to the kernel at once, then a
 * FINISHED_ROUND (not with overwrite, whose snapshots come newest first).
 * Overwrite rings are left for pk_recorder_snapshot.  Returns 0, or the
 * first failure of a sink (a write error such as -ENOSPC, a callback's
 * errno) or of a ring (-EINVAL, a corrupt ring): from then on records are
 * still read, counted and freed, but no longer delivered, and every call
 * returns that error; the file keeps what was written before it.
 */
PK_API int pk_recorder_drain(struct pk_recorder *r);

/*
 * pk_recorder_snapshot - with overwrite, deliver what the overwrite rings
 * hold now, each paused while read (newest records first).  Returns as
 * pk_recorder_drain does; 0 without overwrite.
 */
PK_API int pk_recorder_snapshot(struct pk_recorder *r);

/*
 * pk_recorder_sync - with a writer, have every BPF program whose load the
 * kernel reported before this call read now, if it is still loaded, for
 * the file's BPF_PROG_INFO and BPF_BTF.  The recorder's side band (a
 * thread started by pk_recorder_start, as perf's, on every online CPU
 * where the kernel allows it) reads each program as it loads anyway; this
 * is for a caller that must know it has (perf record's --control ping).
 * Returns 0, or with pk_last_error set -ENOMEM or the errno of a wait that
 * failed and ended the side-band thread.
 */
PK_API int pk_recorder_sync(struct pk_recorder *r);

/* pk_recorder_enable - enable the events (after start_disabled, or
 * pk_recorder_stop).  0 or a negative errno. */
PK_API int pk_recorder_enable(struct pk_recorder *r);

/* pk_recorder_event_name - the name event i is recorded under: as parsed,
 * or after a fallback its new name ("cpu-clock" for "cycles"); NULL when i
 * is out of range. */
PK_API const char *pk_recorder_event_name(const struct pk_recorder *r, size_t i);

/* pk_recorder_stop - disable the events (they stay open, the rings keep
 * what they hold).  0 or a negative errno. */
PK_API int pk_recorder_stop(struct pk_recorder *r);

/*
 * pk_recorder_finish - end the recording: disable the events, drain the
 * rings a last time (and snapshot them with overwrite), with
 * tail_synthesize (implied by overwrite) synthesize what exists, then give the
 * writer the first and last sample time and the BUILD_ID table (every DSO
 * a sample landed in, and the vDSO, that has a build-id), and with
 * buildid_dir put each of those DSOs into the build-id cache there
 * (pk_buildid_cache_add; a DSO it cannot take is counted in the stats and
 * never fails the recording).  Returns 0; the
 * sink error (as pk_recorder_drain); or -ENOMEM when the build-id table
 * could not be made (the file then has none).
 */
PK_API int pk_recorder_finish(struct pk_recorder *r);

/*
 * pk_recorder_stats - copy what the recording saw into *out, at most
 * out->size bytes of it (set size = sizeof(*out) first), so callers built
 * against an older, shorter struct keep working.
 */
PK_API void pk_recorder_stats(const struct pk_recorder *r, struct pk_recorder_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_RECORDER_H */
