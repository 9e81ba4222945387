/* SPDX-License-Identifier: MIT */
/*
 * perfkit/host.h - facts about the machine that counting needs: CPU lists
 * (online CPUs, perf -C's syntax), where a CPU sits (socket, die, core,
 * node), where the perf_event cgroup hierarchy is mounted, and a process's
 * threads and thread group.  Included by perfkit.h.
 */
#ifndef PERFKIT_HOST_H
#define PERFKIT_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pk_cpus_parse - parse a CPU list like "0-3,8,10-11" (sysfs's and perf -C's
 * syntax) into a sorted, duplicate-free malloc'd array.  Returns 0 with
 * *cpus (free it) and *nr, or -EINVAL with the column of the bad character.
 */
PK_API int pk_cpus_parse(const char *list, int **cpus, size_t *nr);

/*
 * pk_cpus_online - the online CPUs, from <sysfs>/devices/system/cpu/online
 * (PERFKIT_SYSFS_ROOT applies).  Same result convention as pk_cpus_parse.
 */
PK_API int pk_cpus_online(int **cpus, size_t *nr);

/* Where a CPU sits, from sysfs: -1 for what the kernel does not report.
 * The caller allocates it and sets size = sizeof(struct pk_cpu_topology). */
struct pk_cpu_topology {
	size_t size;		/* set by the caller: sizeof(struct pk_cpu_topology) */
	int cpu;
	int socket;		/* topology/physical_package_id */
	int die;		/* topology/die_id (0 on kernels without dies) */
	int core;		/* topology/core_id */
	int node;		/* the NUMA node whose cpulist has it */
};

/*
 * pk_cpu_topology - read CPU `cpu`'s place from <sysfs>/devices/system
 * (PERFKIT_SYSFS_ROOT applies).  Returns 0, or -ENOENT (the error names the
 * file) when the CPU has no topology directory, or -ENOMEM; -EINVAL when
 * t->size is smaller than the struct this library fills (*t untouched).
 */
PK_API int pk_cpu_topology(int cpu, struct pk_cpu_topology *t);

/*
 * pk_cgroup_root - where the perf_event cgroup hierarchy is mounted: the
 * cgroup v1 mount with the perf_event controller, or else the cgroup2 mount,
 * from /proc/self/mounts.  Writes it to buf; 0, or -ENOENT when neither is
 * mounted (the hint says how to mount cgroup2).
 */
PK_API int pk_cgroup_root(char *buf, size_t len);

/*
 * pk_nmi_watchdog - whether the kernel's NMI watchdog is on
 * (/proc/sys/kernel/nmi_watchdog above 0), holding one hardware counter of
 * every CPU: perf then leaves some events ungrouped.  Writes the answer to
 * *on; 0, or a negative errno when the setting cannot be read (-ENOENT on a
 * kernel without it; *on is left alone) or on is NULL (-EINVAL).
 */
PK_API int pk_nmi_watchdog(bool *on);

/*
 * pk_pid_threads - every thread of process `pid`, from /proc/PID/task, in
 * ascending order.  Returns 0 with *tids (free it) and *nr, -ESRCH when no
 * such process exists (the error says so), or -EACCES.
 */
PK_API int pk_pid_threads(pid_t pid, pid_t **tids, size_t *nr);

/*
 * pk_pid_tgid - the process (thread group) that thread `tid` belongs to,
 * from the Tgid: line of /proc/TID/status.  Returns the tgid (> 0), -ESRCH
 * when no such thread exists (the error says so), or -EACCES.
 */
PK_API pid_t pk_pid_tgid(pid_t tid);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_HOST_H */
