/* SPDX-License-Identifier: MIT */
/*
 * perfkit/overflow.h - overflow by signal: the kernel signals a thread
 * when a sampling event's period elapses (F_SETOWN_EX, F_SETSIG, O_ASYNC,
 * the event's fd in si_fd), and with PERF_EVENT_IOC_REFRESH
 * (pk_evlist_refresh) disables the event after a number of overflows,
 * saying POLL_HUP on the last.  The library installs no signal handler
 * and keeps no global state: the caller's SA_SIGINFO handler passes the
 * siginfo to pk_overflow_handle, which calls the caller's function with
 * the event that overflowed.  Included by perfkit.h.
 *
 * A sampler's handler reads the samples written since its last call from
 * the event's ring: map the rings (pk_rings_map) and make them safe to read
 * in a handler (pk_rings_reserve) before arming, then in the function
 *
 *	struct pk_ring *r = pk_rings_at(rs, ev->cpu_idx, ev->thread_idx);
 *	while (pk_ring_next(r, &h) > 0)
 *		... pk_sample_peek(h, pk_evlist_attr(l, ev->event), &s) ...
 *	pk_ring_consume(r);
 *
 * The kernel writes an overflow's sample before it signals, so each call
 * finds at least the sample of its own overflow.  Code outside the handler
 * that reads the same ring blocks the signal around its reads.  Or defer:
 * let the handler only note that the ring has data, and read it where the
 * program is ready to (the ring keeps the samples until consumed).
 */
#ifndef PERFKIT_OVERFLOW_H
#define PERFKIT_OVERFLOW_H

#include <stddef.h>
#include <sys/types.h>
#include "perfkit/error.h"
#include "perfkit/evlist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What pk_overflow_handle passes to the caller's function. */
struct pk_overflow_event {
	size_t size;		/* sizeof(struct pk_overflow_event) of the library */
	size_t event;		/* the evlist's event index */
	size_t cpu_idx, thread_idx;
	int fd;			/* the event's fd (si_fd) */
	/* POLL_IN: the period elapsed; POLL_HUP: the count given to
	 * pk_evlist_refresh ran out and the kernel disabled the event. */
	int code;
};

struct pk_overflow;

/*
 * pk_overflow_new - prepare to dispatch overflow signals of the open
 * evlist `l` to fn(event, arg).  Remembers every fd of `l` now, so `l`
 * must stay open and outlive the result (free this first).  Arms nothing:
 * see pk_overflow_arm.  Returns 0 with *out, -EINVAL (no function, or an
 * evlist with nothing open), or -ENOMEM.
 */
PK_API int pk_overflow_new(struct pk_evlist *l,
			   void (*fn)(const struct pk_overflow_event *ev, void *arg), void *arg,
			   struct pk_overflow **out);

/*
 * pk_overflow_arm - make every fd of event i signal `signo` to thread
 * `tid` (0: the calling thread) at each overflow: F_SETOWN_EX with
 * F_OWNER_TID, F_SETSIG (so that si_fd and si_code are set; use a
 * real-time signal to have every overflow queued, not merged), and
 * O_ASYNC.  The caller installs the SA_SIGINFO handler for signo before
 * enabling the event.  The event needs a period (period= or freq= in the
 * event string, or sample_period set before pk_evlist_new).  0 or a
 * negative errno (-ERANGE for i, -EINVAL for signo, fcntl's errno).
 */
PK_API int pk_overflow_arm(struct pk_overflow *o, size_t i, int signo, pid_t tid);

/*
 * pk_overflow_handle - call from the signal handler with its siginfo (the
 * siginfo_t * an SA_SIGINFO handler receives; declared as void * so this
 * header needs no POSIX feature macros under strict ISO C): when si_code is a POLL_* code (the kernel's overflow signal, not kill or
 * sigqueue) and si_fd is an armed fd of the evlist, calls the function given to
 * pk_overflow_new with the event and returns 1; returns 0 for any other
 * signal (chain to the previous handler then).  Async-signal-safe: it
 * allocates nothing, takes no lock and leaves the error record alone.
 */
PK_API int pk_overflow_handle(const struct pk_overflow *o, const void *siginfo);

/* pk_overflow_free - stop the armed fds signalling (O_ASYNC off) and free.
 * NULL is a no-op. */
PK_API void pk_overflow_free(struct pk_overflow *o);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_OVERFLOW_H */
