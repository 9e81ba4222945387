/* SPDX-License-Identifier: MIT */
/*
 * perfkit/ring.h - sampling: the mmap ring buffers the kernel writes
 * records into, one per CPU x thread of an open evlist, read from user space
 * with the memory ordering the kernel's protocol needs, and their AUX areas.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_RING_H
#define PERFKIT_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include "perfkit/error.h"
#include "perfkit/evlist.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_ring;		/* one kernel ring buffer, read from user space */
struct pk_rings;	/* the rings of an evlist */

/*
 * pk_rings_map - map one ring buffer of `pages` data pages (a power of
 * two) plus the control page for each CPU x thread of an open evlist, and
 * route every other event of that CPU x thread into it
 * (PERF_EVENT_IOC_SET_OUTPUT), as perf record does; overwrite
 * (write_backward) events get a second ring of their own per CPU x thread,
 * since the kernel does not mix the two in one ring.  Returns 0 with the
 * rings in *out (free them with pk_rings_free before the evlist); -EINVAL
 * when pages is not a power of two or an event is not open; or the mmap's
 * error, explained with perf_event_mlock_kb and RLIMIT_MEMLOCK when the
 * kernel refuses the size.
 */
PK_API int pk_rings_map(struct pk_evlist *l, size_t pages, struct pk_rings **out);

/* pk_rings_free - unmap every ring.  NULL is a no-op. */
PK_API void pk_rings_free(struct pk_rings *rs);

/* pk_rings_nr / pk_rings_get - the rings, in CPU x thread order; when
 * some events write backward (overwrite mode), their rings follow, in the
 * same order, after the normal ones (whose slots are then empty rings where
 * no normal event exists).  pk_rings_get returns NULL out of range. */
PK_API size_t pk_rings_nr(const struct pk_rings *rs);
PK_API struct pk_ring *pk_rings_get(struct pk_rings *rs, size_t idx);

/*
 * pk_rings_at - the ring that the events on (cpu_idx, thread_idx) of the
 * evlist write into (the indices of pk_evlist_fd and of a
 * pk_overflow_event), or NULL when out of range.  An overwrite event's
 * ring is not this one (see pk_rings_get).
 */
PK_API struct pk_ring *pk_rings_at(struct pk_rings *rs, size_t cpu_idx, size_t thread_idx);

/*
 * pk_rings_reserve - make reading these rings safe inside a signal
 * handler, so an overflow handler (perfkit/overflow.h) can read the
 * samples written since its last call: gives every ring now the copy area
 * that pk_ring_next would otherwise allocate for a record that wraps the
 * buffer's end, so from then on pk_ring_next and pk_ring_consume allocate
 * nothing and take no lock (only a corrupt ring makes pk_ring_next write
 * the error record).  A ring has one reader at a time: while the handler
 * may read a ring, any other code that reads it must block the signal
 * around its reads (pthread_sigmask).  0 or -ENOMEM.
 */
PK_API int pk_rings_reserve(struct pk_rings *rs);

/*
 * pk_rings_poll - wait up to timeout_ms (-1: forever) until a ring has data
 * to read (the kernel's wakeup_events / wakeup_watermark decide when it
 * wakes us) or every monitored task has exited.  Returns the number of
 * rings with data, 0 on timeout, or a negative errno (-EINTR when a signal
 * arrived).  After it, pk_rings_hangup says whether the tasks are all gone.
 */
PK_API int pk_rings_poll(struct pk_rings *rs, int timeout_ms);

/* pk_rings_hangup - true once every ring reported POLLHUP: no monitored task
 * is left, so no more data will come after what the rings hold. */
PK_API bool pk_rings_hangup(const struct pk_rings *rs);

/*
 * pk_ring_pause - stop (true) or restart (false) the kernel's writing into
 * the ring (PERF_EVENT_IOC_PAUSE_OUTPUT).  Records that arrive while it is
 * paused are lost and counted by the kernel.  0 or a negative errno.
 */
PK_API int pk_ring_pause(struct pk_ring *r, bool pause);

/*
 * pk_ring_is_overwrite - whether the ring is an overwrite ring: its events
 * were opened with attr.write_backward, the kernel keeps writing over the
 * oldest records and never waits for us, and the ring is read as a
 * snapshot: pause it, read every record from the newest to the oldest
 * still whole with pk_ring_next (which then returns them newest first),
 * and restart it.
 */
PK_API bool pk_ring_is_overwrite(const struct pk_ring *r);

/*
 * pk_ring_next - the next record the kernel wrote, in order.  Returns 1 and
 * points *rec at it (a record that wraps the end of the buffer is copied to
 * a scratch area first, so it is always contiguous), 0 when no record is
 * left, or -EINVAL when the buffer holds something that is not a valid
 * record (a size of less than a header, or more than the kernel published);
 * the error names the offset.  *rec stays valid until the next call or
 * pk_ring_consume.  The head is read with acquire ordering, so everything
 * the kernel wrote before publishing it is visible.
 */
PK_API int pk_ring_next(struct pk_ring *r, const struct perf_event_header **rec);

/*
 * pk_ring_consume - give the space of every record returned so far back to
 * the kernel (a release store of data_tail, after our reads of it).
 */
PK_API void pk_ring_consume(struct pk_ring *r);

/*
 * pk_rings_map_aux - map the AUX area of ring `idx`: `pages` pages (a power
 * of two) after the data area, for PMUs that write bulk trace data there
 * (Intel PT, ARM SPE, CoreSight).  Returns 0; -EINVAL for a bad page count
 * or index; the kernel's refusal (EOPNOTSUPP or EINVAL when the ring's
 * events are not on such a PMU) with the error saying so.  Unmapped by
 * pk_rings_free.
 */
PK_API int pk_rings_map_aux(struct pk_rings *rs, size_t idx, size_t pages);

/*
 * pk_ring_aux_next - the next unread AUX bytes, as one contiguous chunk up
 * to the end of the area (call again for the part after a wrap).  Returns 1
 * with *data and *len set, 0 when nothing is unread or no AUX area is
 * mapped.  aux_head is read with acquire ordering.
 */
PK_API int pk_ring_aux_next(struct pk_ring *r, const void **data, size_t *len);

/* pk_ring_aux_consume - give the AUX bytes returned so far back to the
 * kernel (a release store of aux_tail). */
PK_API void pk_ring_aux_consume(struct pk_ring *r);

/* pk_ring_size - the data area's size in bytes. */
PK_API size_t pk_ring_size(const struct pk_ring *r);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_RING_H */
