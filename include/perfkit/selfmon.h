/* SPDX-License-Identifier: MIT */
/*
 * perfkit/selfmon.h - programs that measure themselves: a region is a group
 * of events counting the calling thread, started and stopped with one
 * ioctl per group and read without a syscall when the hardware allows
 * (the mmap page and rdpmc), else with one read(2) per group; markers are
 * named regions (begin("parse") ... end("parse")) summed per name and per
 * thread and printed as a table.  Included by perfkit.h.
 */
#ifndef PERFKIT_SELFMON_H
#define PERFKIT_SELFMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "perfkit/error.h"
#include "perfkit/count.h"
#include "perfkit/evlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How to open a region.  Zero-initialise and set size = sizeof; NULL
 * options mean all false. */
struct pk_region_opts {
	size_t size;
	/* Also count the threads and processes the calling thread creates
	 * after opening (inherit).  Inherited counts exist only in read(2),
	 * so such a region never reads from the mmap page. */
	bool inherit;
	/* Never read from the mmap page: always one read(2) per group. */
	bool no_fast_read;
};

struct pk_region;

/*
 * pk_region_open - open the events of `events` (perf's event grammar) as
 * counters of the calling thread, stopped.  Events outside braces form one
 * group ("task-clock,page-faults" is "{task-clock,page-faults}"), so they
 * are started, stopped and read together; a string with braces keeps its
 * groups.  Where the kernel refuses kernel-space counting the events count
 * user space only (pk_evlist_fallback says so).  The first page of each
 * fd is mapped for the fast read; when that fails the region reads with
 * read(2) and says nothing.  Returns 0 with the region in *out, or the
 * negative errno of parsing or opening with pk_last_error explaining it.
 * The region belongs to the thread that opened it: only that thread may
 * start, stop or read it (another thread's read goes through read(2) and
 * still gives the opener's counts).
 */
PK_API int pk_region_open(const char *events, const struct pk_region_opts *opts,
			  struct pk_region **out);

/* pk_region_free - close the counters and free the region.  NULL is a no-op. */
PK_API void pk_region_free(struct pk_region *r);

/* pk_region_nr - the number of events counted. */
PK_API size_t pk_region_nr(const struct pk_region *r);

/* pk_region_name - the name of event i as the event string gave it, or
 * NULL when i is out of range.  Lives as long as the region. */
PK_API const char *pk_region_name(const struct pk_region *r, size_t i);

/*
 * pk_region_start / pk_region_stop / pk_region_reset - enable, disable or
 * zero every group: one ioctl per group, whatever the number of events.
 * Start and stop switch a group's leader alone when the group is read
 * with read(2) (its members follow it: while it is off none of them
 * counts, and the region's reads carry its times), else the whole group
 * (PERF_IOC_FLAG_GROUP: a group that may read its mmap pages, or opened
 * with inherit).  So a member read on its own (pk_evlist_read) may show
 * time enabled that ran on while the region was stopped; its count did
 * not.  Counts accumulate across start/stop pairs until a reset.  0 or a
 * negative errno.
 */
PK_API int pk_region_start(struct pk_region *r);
PK_API int pk_region_stop(struct pk_region *r);
PK_API int pk_region_reset(struct pk_region *r);

/*
 * pk_region_read - the counts so far, scaled for multiplexing (value is
 * pk_count_scaled; enabled and running in ns as the kernel keeps them; id
 * the kernel's id), one per event in event order into `out` (stride
 * out[0].size, see struct pk_count), at most `max`.  From the mmap page
 * and rdpmc when every counter of a group is on a hardware register, else
 * one read(2) for the group: the caller cannot tell, except by
 * pk_region_fast_reads.  Returns the number of events (which may exceed
 * max), or a negative errno (-EINVAL for a bad out, -EIO for a pinned group
 * in error state).
 */
PK_API int pk_region_read(struct pk_region *r, struct pk_count *out, size_t max);

/* pk_region_fast_reads - how many group reads so far came from the mmap
 * page without a syscall (0 on machines without a usable PMU). */
PK_API uint64_t pk_region_fast_reads(const struct pk_region *r);

/*
 * pk_region_evlist - the evlist behind the region (one CPU index, one
 * thread index), for pk_evlist_fd, pk_evlist_attr and the other evlist
 * calls.  Owned by the region.
 */
PK_API struct pk_evlist *pk_region_evlist(struct pk_region *r);

/* ---- markers: named regions ---------------------------------------------- */

struct pk_markers;

/*
 * pk_markers_new - prepare named regions counting `events` (as
 * pk_region_open takes them).  Nothing is opened until a thread's first
 * pk_markers_begin, which opens and starts a region for that thread.
 * Returns 0 with the markers in *out, -EINVAL for an event string that does
 * not parse (checked now), or -ENOMEM.
 */
PK_API int pk_markers_new(const char *events, struct pk_markers **out);

/* pk_markers_free - close every thread's counters and free.  NULL is a no-op.
 * No thread may be between begin and end. */
PK_API void pk_markers_free(struct pk_markers *m);

/*
 * pk_markers_begin / pk_markers_end - the calling thread enters / leaves
 * the region `name`.  Regions nest: end must name the innermost region the
 * thread has begun (else -EINVAL, the error naming both), and the counts
 * between begin and end are added to (name, thread), with one more call.
 * Safe from any number of threads at once.  0 or a negative errno (opening
 * the thread's counters, reading them, -ENOMEM).
 */
PK_API int pk_markers_begin(struct pk_markers *m, const char *name);
PK_API int pk_markers_end(struct pk_markers *m, const char *name);

/* One row of the table: a region name on one thread. */
struct pk_marker_row {
	size_t size;		/* set by the caller: sizeof(struct pk_marker_row) */
	const char *name;	/* lives as long as the markers */
	pid_t tid;
	uint64_t calls;		/* completed begin/end pairs */
	uint64_t time_ns;	/* summed time counted (the first event's time enabled) */
};

/* pk_markers_nr - the rows so far: one per (name, thread) ended at least once. */
PK_API size_t pk_markers_nr(const struct pk_markers *m);

/* pk_markers_nr_events / pk_markers_event - the events counted and their names. */
PK_API size_t pk_markers_nr_events(const struct pk_markers *m);
PK_API const char *pk_markers_event(const struct pk_markers *m, size_t i);

/*
 * pk_markers_get - row `idx`: name, thread, calls and time into *row (size
 * set by the caller), and the summed scaled count of each event into
 * values[0..max).  Rows are ordered by name's first begin, then thread.
 * 0, -ERANGE when idx is out of range, -EINVAL for a row whose size is
 * too small.
 */
PK_API int pk_markers_get(const struct pk_markers *m, size_t idx, struct pk_marker_row *row,
			  uint64_t *values, size_t max);

/*
 * pk_markers_print - the rows as a table to `f`: region, tid, calls, time
 * in ms and one column per event.  Returns 0, or -EIO when writing failed.
 */
PK_API int pk_markers_print(const struct pk_markers *m, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_SELFMON_H */
