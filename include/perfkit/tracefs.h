/* SPDX-License-Identifier: MIT */
/*
 * perfkit/tracefs.h - tracefs, where the kernel publishes its tracepoints.
 * The library finds tracefs (/sys/kernel/tracing, then
 * /sys/kernel/debug/tracing) but never mounts it on its own: a program that
 * wants tracepoints resolved on a machine where tracefs is not mounted asks
 * for the mount once, up front, with pk_tracefs_mount.  Included by perfkit.h.
 */
#ifndef PERFKIT_TRACEFS_H
#define PERFKIT_TRACEFS_H

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pk_tracefs_mount - make tracefs available: returns 0 at once when it is
 * already mounted (at /sys/kernel/tracing or /sys/kernel/debug/tracing),
 * else mounts tracefs at /sys/kernel/tracing, as perf does, and returns 0.
 * Mounting changes the machine for every process in the caller's mount
 * namespace and needs CAP_SYS_ADMIN; that is why no other call does it.
 * Returns -EACCES when tracefs is mounted but not readable by the caller,
 * -EPERM when it is not mounted and the caller may not mount it, or the
 * mount's negative errno (-ENODEV: a kernel without CONFIG_TRACING); each
 * with pk_last_error saying how to mount it by hand.
 */
PK_API int pk_tracefs_mount(void);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_TRACEFS_H */
