/* SPDX-License-Identifier: MIT */
/*
 * session.h - the session layer's internal interface: the recorder's state,
 * shared by its two halves, recorder.c (layout, open, target, synthesis)
 * and pump.c (rings -> sinks, build-ids, statistics).
 */
#ifndef PK_SESSION_H
#define PK_SESSION_H

#include "perfkit.h"

/* An event id and the event (index) that owns it, sorted by id. */
struct pk__rec_id {
	uint64_t id;
	size_t event;
};

struct pk_recorder {
	struct pk_recorder_opts o;	/* as given (size clamped); arrays not owned */
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	pid_t *threads;			/* the target's threads (NULL: CPU-wide) */
	size_t nr_threads;
	int *cpus;
	size_t nr_cpus;
	bool cpu_wide;
	bool fell_back;
	bool default_event;		/* event 0 is perf's default: cycles, max precise */
	char **names;			/* per event: its name after a fallback, or NULL */
	bool started;
	size_t pages;
	struct pk__rec_id *ids;		/* every fd's id -> its event, to find a record's attr */
	size_t nr_ids;
	bool same_layout;		/* every event lays records out alike: skip the lookup */
	struct pk_data_writer *w;
	size_t ring;			/* the ring being drained, SIZE_MAX for none: a
					 * directory writer's data.N (writer-dir.c) */
	pk_recorder_cb cb;
	void *cb_arg;
	void *trim;			/* DWARF: room for a sample with its stack cut */
	struct pk_maps *maps;		/* DSOs samples hit, for BUILD_ID; NULL without */
	struct pk_recorder_stats st;
	char *warning;
	size_t flush;			/* opts.mmap_flush clamped: bytes a ring must hold */
	uint64_t file_first, file_last;	/* the sample time span of the current file */
	struct pk__sideband *sb;	/* BPF loads read at once (sideband.c), or NULL */
};

/*
 * pk__recorder_deliver - hand one record to the sinks (writer, callback),
 * after following it for build-ids; does nothing once a sink failed.
 * `a` is the attr of the event that wrote it.  Returns the sticky error.
 */
int pk__recorder_deliver(struct pk_recorder *r, const struct perf_event_header *h,
			 const struct perf_event_attr *a);

/* pk__recorder_parse_events - parse `list` (or perf's default event when
 * NULL) into r->ev with the recorder's options (recorder.c). */
int pk__recorder_parse_events(struct pk_recorder *r, const char *list);

/* pk__recorder_layout_events - perf record's sample layout on every event
 * of r->ev (recorder.c). */
void pk__recorder_layout_events(struct pk_recorder *r);

/* pk__recorder_open_events - parse, lay out and open `events` into r->l
 * with perf's precise-level and cycles -> cpu-clock fallbacks
 * (recorder-open.c).  Returns 0 or a negative errno with the error set. */
int pk__recorder_open_events(struct pk_recorder *r, const char *events);

/* pk__recorder_attr - the attr that lays out record `h` (found by its id). */
const struct perf_event_attr *pk__recorder_attr(const struct pk_recorder *r,
						const struct perf_event_header *h);

/* pk__recorder_describe - the events, their ids, groups, compression and
 * clock into the writer.  0 or a negative errno. */
int pk__recorder_describe(struct pk_recorder *r);

/* pk__recorder_drain_all - every ring's records to the sinks, whatever
 * the flush size, with overwrite a snapshot too.  The sticky error. */
int pk__recorder_drain_all(struct pk_recorder *r);

/* pk__recorder_synthesize_tail - with tail_synthesize (or overwrite), what
 * exists (kernel, processes, BPF programs) told at the end of a file, as
 * perf's; nothing without.  0 or a negative errno. */
int pk__recorder_synthesize_tail(struct pk_recorder *r);

/* pk__recorder_end_file - give the writer the current file's sample time
 * span and the BUILD_ID table.  0, the sink error, or -ENOMEM. */
int pk__recorder_end_file(struct pk_recorder *r);

/*
 * The BPF side band (sideband.c): pk__sideband_start opens it and starts
 * its thread, *out NULL where the kernel will not open it (0 all the
 * same); -ENOMEM, or the errno of its stop eventfd (recorded).  The thread
 * makes its system calls through the starter's sys seam.
 * pk__sideband_stop ends the thread after a last read (no-op for NULL or
 * stopped).  pk__sideband_sync reads what its rings hold now, in the
 * caller's thread: 0, or the first failure of the thread (-ENOMEM, or the
 * errno of a wait that failed and so ended it), recorded in the caller's
 * thread.  pk__sideband_put adds the programs read so far to w's BPF
 * features: 0, -ENOMEM, or that failure.  pk__sideband_free stops and
 * frees; NULL is a no-op.
 */
struct pk__sideband;
int pk__sideband_start(struct pk__sideband **out);
void pk__sideband_stop(struct pk__sideband *sb);
int pk__sideband_sync(struct pk__sideband *sb);
int pk__sideband_put(struct pk__sideband *sb, struct pk_data_writer *w);
void pk__sideband_free(struct pk__sideband *sb);

#endif
