/* SPDX-License-Identifier: MIT */
/*
 * counter.h - the counter layer's internal interface for the layers above
 * it (ring buffers need the event fds the evlist opened).
 */
#ifndef PK_COUNTER_H
#define PK_COUNTER_H

#include "perfkit.h"

/* pk__evlist_fd - the fd of event i on one CPU x thread, or -1 when it is
 * not open (or out of range). */
int pk__evlist_fd(const struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx);

/*
 * Caller-allocated counts (struct pk_count's contract): pk__count_check
 * returns 0, or -EINVAL with the error naming `what` when c is NULL or its
 * size is below PK_COUNT_SIZE_VER0.  pk__count_at is element i of an array
 * whose stride is base->size.  pk__count_put stores src into dst: the
 * fields that fit in dst->size, the rest of dst->size bytes zeroed, size
 * left as it is.
 */
int pk__count_check(const struct pk_count *c, const char *what);
struct pk_count *pk__count_at(struct pk_count *base, size_t i);
void pk__count_put(struct pk_count *dst, const struct pk_count *src);

/*
 * The clock of an evlist's tool events (tool.c): start and stop follow the
 * evlist's enable and disable (start again while running is a no-op),
 * reset zeroes what accumulated, and value is a tool event's figure in ns
 * so far (0 for PK_TOOL_NONE).  start[] and acc[] hold duration, user and
 * system time in that order.
 */
struct pk__tool_clock {
	bool used;		/* some event is a tool event: else the clock never runs */
	bool running;
	uint64_t start[3], acc[3];
};
void pk__tool_clock_start(struct pk__tool_clock *c);
void pk__tool_clock_stop(struct pk__tool_clock *c);
void pk__tool_clock_reset(struct pk__tool_clock *c);
uint64_t pk__tool_clock_value(const struct pk__tool_clock *c, enum pk_tool_event t);

/*
 * A read_format's layout worked out once, for a reader that decodes the
 * same kind of buffer on every read (pk_region_read): word indices of each
 * field of counter 0 (value, id and lost move by `stride` per counter; the
 * times are the group's), and a mask of 0 for a field the format lacks.
 * pk__count_layout_init fills it for `read_format` and, for a group, `nr`
 * counters.  pk__count_decode_scaled decodes `len` bytes of `buf` into
 * out (stride out->size, at most max, out already checked with
 * pk__count_check when max > 0), each value scaled by pk_count_scaled,
 * and returns the number of counters; a buffer of another length or
 * member count goes through pk_count_parse, which decodes it or returns
 * its negative errno with the error record naming the mismatch.
 */
struct pk__count_layout {
	uint64_t read_format;
	uint64_t mask[4];	/* enabled, running, id, lost: all ones or 0 */
	size_t len;		/* the bytes a read returns */
	uint32_t nr, stride, value, enabled, running, id, lost;
	bool group;
};
void pk__count_layout_init(struct pk__count_layout *lay, uint64_t read_format, size_t nr);
int pk__count_decode_scaled(const struct pk__count_layout *lay, const uint64_t *buf, size_t len,
			    struct pk_count *out, size_t max);

/* pk__evlist_read_format - what event i's fd returns on read(2). */
uint64_t pk__evlist_read_format(const struct pk_evlist *l, size_t i);

/* pk__evlist_nr_events - the number of events. */
size_t pk__evlist_nr_events(const struct pk_evlist *l);

/* ---- the mmap page (selfmon.c) ----------------------------------------- */

struct perf_event_mmap_page;

/* What one consistent look at an event's mmap page gave. */
struct pk__page_reading {
	uint64_t value;		/* offset + the sign-extended rdpmc value */
	uint64_t enabled;	/* time_enabled brought up to now with the TSC, ns */
	uint64_t running;	/* time_running likewise */
	uint64_t time;		/* the perf clock now (time_zero), or 0 */
	bool has_time;		/* cap_user_time_zero: time is set */
	unsigned int tries;	/* passes of the seqlock loop (1 when no writer interfered) */
};

/*
 * pk__page_read - read a counter of the calling thread from its mmap'ed
 * first page as perf_event_open(2) describes, without a syscall.  Returns
 * 0 with *out filled, or -EAGAIN when the page cannot give the count and
 * the caller must read(2) the fd: index 0 (not on a hardware counter now,
 * and always for software events, whose offset may be a time slice stale),
 * no cap_user_rdpmc or cap_user_time, a pmc_width outside 1..64, an
 * architecture without rdpmc, or a lock that kept changing.  Never sets
 * the error record.  Only the thread the counter measures may call it.
 */
int pk__page_read(const struct perf_event_mmap_page *pc, struct pk__page_reading *out);

#endif
