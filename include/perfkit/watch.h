/* SPDX-License-Identifier: MIT */
/*
 * perfkit/watch.h - watchpoints of the calling thread: a hardware
 * breakpoint event on a variable's address that sends the thread a
 * synchronous SIGTRAP (see perfkit/sigtrap.h) when it writes (or reads,
 * or executes) there, and PERF_EVENT_IOC_MODIFY_ATTRIBUTES to move an
 * armed watchpoint to another address without reopening it.  The
 * caller's SIGTRAP handler calls pk_sigtrap_decode, whose info gives the
 * address, the watchpoint's data and the instruction pointer.  Included
 * by perfkit.h.
 */
#ifndef PERFKIT_WATCH_H
#define PERFKIT_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What touching the address does: the kernel's HW_BREAKPOINT_* values. */
enum pk_watch_kind {
	PK_WATCH_WRITE = 2,	/* HW_BREAKPOINT_W */
	PK_WATCH_RW = 3,	/* HW_BREAKPOINT_RW: x86 has no read-only watchpoints */
	PK_WATCH_EXEC = 4,	/* HW_BREAKPOINT_X: len must be sizeof(long) */
};

struct pk_watch;

/*
 * pk_watch_new - watch `len` bytes (1, 2, 4 or 8, aligned to len) at
 * `addr` in the calling thread for `kind` accesses, armed at once: each
 * access sends this thread a SIGTRAP whose pk_sigtrap_info has .data =
 * `data`, .type = PERF_TYPE_BREAKPOINT and .addr = addr.  Install the
 * SA_SIGINFO handler for SIGTRAP first (SIGTRAP's default action ends the
 * process).  Other threads, and the program after an exec, are not
 * watched.  Returns 0 with *out, or a negative errno with the error record
 * saying why: -EINVAL (a kind, length or alignment the machine refuses),
 * -ENOSPC (every debug register is in use: x86 has four), -ENOENT
 * (kernel without hardware breakpoints), -ENOMEM.
 */
PK_API int pk_watch_new(const void *addr, size_t len, enum pk_watch_kind kind, uint64_t data,
			struct pk_watch **out);

/*
 * pk_watch_move - point the armed watchpoint at `len` bytes at `addr`
 * instead, with PERF_EVENT_IOC_MODIFY_ATTRIBUTES (Linux 4.17+): the event,
 * its fd and its data stay the same.  Returns 0, or a negative errno with
 * the watchpoint left where it was (-EINVAL as pk_watch_new; -ENOTTY from
 * a kernel that cannot modify an event).
 */
PK_API int pk_watch_move(struct pk_watch *w, const void *addr, size_t len);

/* pk_watch_addr - the address watched now. */
PK_API const void *pk_watch_addr(const struct pk_watch *w);

/* pk_watch_fd - the breakpoint event's fd, owned by the watchpoint (do not
 * close it; read(2) gives how many accesses it counted). */
PK_API int pk_watch_fd(const struct pk_watch *w);

/* pk_watch_free - disarm, close and free.  NULL is a no-op. */
PK_API void pk_watch_free(struct pk_watch *w);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_WATCH_H */
