/* SPDX-License-Identifier: MIT */
/*
 * perfkit/sigtrap.h - synchronous SIGTRAP from an event (Linux 5.13+): an
 * event with sigtrap set sends SIGTRAP to the very thread whose action
 * made it overflow (a software event's period elapsing, a breakpoint's
 * address touched), before that thread runs another user instruction, with
 * si_code TRAP_PERF and the event's sig_data in the siginfo.  The kernel
 * insists on remove_on_exec with it, so such an event never outlives an
 * exec (a new program would die of a SIGTRAP it does not expect).  The
 * library installs no handler: the caller's SA_SIGINFO handler for SIGTRAP
 * passes its siginfo and ucontext to pk_sigtrap_decode.  Included by
 * perfkit.h.
 */
#ifndef PERFKIT_SIGTRAP_H
#define PERFKIT_SIGTRAP_H

#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"
#include "perfkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What pk_sigtrap_decode found in a perf SIGTRAP. */
struct pk_sigtrap_info {
	size_t size;		/* sizeof(struct pk_sigtrap_info) of the caller */
	uint64_t data;		/* the event's sig_data (pk_sigtrap_set's `data`) */
	uint32_t type;		/* the event's attr.type (PERF_TYPE_SOFTWARE, _BREAKPOINT, ...) */
	uint32_t flags;		/* si_perf_flags: bit 0 set when delivered asynchronously */
	uint64_t addr;		/* si_addr: a breakpoint's address, else 0 */
	/* The user instruction pointer the signal interrupted, from the
	 * ucontext (0 when none was given or perfkit does not know this
	 * architecture's ucontext).  For a data watchpoint this is the
	 * instruction after the access: x86 reports data breakpoints as traps. */
	uint64_t ip;
};

/*
 * pk_sigtrap_set - make event i of `ev` send a synchronous SIGTRAP carrying
 * `data` at each overflow: sets sigtrap, remove_on_exec and sig_data in its
 * attr (the event needs a period, e.g. period= in the string; a
 * breakpoint has one of 1).  Call before pk_evlist_new.  Returns 0,
 * -ERANGE when i is out of range, -EBUSY when the list was already given
 * to pk_evlist_new (the change could not take effect), -EINVAL with
 * enable_on_exec set (the kernel refuses both).  With inheritance, count
 * user time only (exclude_kernel): a period that runs out inside execve,
 * before the kernel removes the event, still traps the new program, which
 * then dies of SIGTRAP (seen on Linux 6.18).
 */
PK_API int pk_sigtrap_set(struct pk_events *ev, size_t i, uint64_t data);

/*
 * pk_sigtrap_decode - from an SA_SIGINFO handler: when `siginfo` (its
 * siginfo_t *) is a perf event's SIGTRAP (si_code TRAP_PERF), fills the
 * first out->size bytes of *out from it and from `ucontext` (the handler's
 * third argument, or NULL) and returns 1; returns 0 for any other signal
 * (a breakpoint instruction, a debugger, kill), leaving *out alone.
 * Async-signal-safe: allocates nothing, takes no lock, leaves the error
 * record alone.  siginfo is declared void * so that this header needs no
 * POSIX feature macros under strict ISO C.
 */
PK_API int pk_sigtrap_decode(const void *siginfo, const void *ucontext, struct pk_sigtrap_info *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_SIGTRAP_H */
