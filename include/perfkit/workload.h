/* SPDX-License-Identifier: MIT */
/*
 * perfkit/workload.h - a command started for counting: forked and held
 * before exec until counters are open on it (pk_workload_start), or spawned
 * at once under counters the caller inherits (pk_workload_spawn); then
 * waited for, signalled, and its status reported as a shell would.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_WORKLOAD_H
#define PERFKIT_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_workload;

/* The name pk_workload_start's child has until its exec, as perf names
 * its own (a recording's COMM for the child says so: what is sampled in
 * the exec before the command's COMM belongs to it). */
#define PK_WORKLOAD_COMM "perf-exec"

/*
 * pk_workload_start - fork a child that will run argv (argv[0] searched in
 * PATH) but is held before exec until pk_workload_go, so counters can be
 * opened on its pid with enable_on_exec first and count only the command.
 * The child is named PK_WORKLOAD_COMM until the exec.
 * The child is killed (SIGKILL) when the thread that started it dies.
 * Returns 0 with the workload in *out, -EINVAL for an empty argv, or the
 * negative errno of pipe/fork.
 */
PK_API int pk_workload_start(char *const argv[], struct pk_workload **out);

/*
 * pk_workload_spawn - run argv at once (posix_spawnp: no copy of the
 * caller's page tables, so cheaper than pk_workload_start).  To count it,
 * open the events on the calling thread (pid 0) with inherit and
 * enable_on_exec *before* spawning: the child inherits them and the kernel
 * enables them at its exec, while the caller, which never execs, is not
 * counted; reads of the caller's events then include the child's counts.
 * Returns 0 with the running workload in *out (pk_workload_go is then a
 * no-op), or the exec's negative errno with pk_last_error saying which
 * command could not run.
 */
PK_API int pk_workload_spawn(char *const argv[], struct pk_workload **out);

/* pk_workload_pid - the child's pid, for pk_target.threads. */
PK_API pid_t pk_workload_pid(const struct pk_workload *w);

/*
 * pk_workload_go - release the child to exec the command.  Returns 0 once
 * the exec has happened, or the exec's negative errno (-ENOENT: no such
 * command, -EACCES: not executable) with pk_last_error saying which command
 * could not run; the child has then exited and been reaped.
 */
PK_API int pk_workload_go(struct pk_workload *w);

/*
 * pk_workload_wait - wait for the command to end.  Returns its exit status
 * as a shell reports it (0-255, or 128 + N when killed by signal N), or a
 * negative errno when waiting fails.  EINTR is retried.
 */
PK_API int pk_workload_wait(struct pk_workload *w);

/* pk_workload_try_wait - like pk_workload_wait, but returns -EAGAIN at once
 * when the command is still running. */
PK_API int pk_workload_try_wait(struct pk_workload *w);

/*
 * pk_workload_signal - the signal that ended the command, once it has been
 * waited for; 0 when it exited (even with status 128 + N) or is still
 * running.
 */
PK_API int pk_workload_signal(const struct pk_workload *w);

/* pk_workload_kill - send `sig` to the child (to forward SIGINT/SIGTERM).
 * Returns 0 or a negative errno (-ESRCH once it has been reaped). */
PK_API int pk_workload_kill(struct pk_workload *w, int sig);

/* pk_workload_free - free the handle.  A child still held before exec is
 * killed and reaped; a running one is left alone.  NULL is a no-op. */
PK_API void pk_workload_free(struct pk_workload *w);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_WORKLOAD_H */
