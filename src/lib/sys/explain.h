/* SPDX-License-Identifier: MIT */
/*
 * explain.h - private to the sys layer (and its unit tests): the errno
 * explainer split into probing the machine (pk__sys_probe) and a pure
 * function from (errno, probed facts, call) to the error record, so every
 * branch can be tested with chosen facts: each paranoid level, a machine
 * with and without a hardware PMU, low limits.
 */
#ifndef PK_SYS_EXPLAIN_H
#define PK_SYS_EXPLAIN_H

#include "sys.h"

#include <stdbool.h>

#define PK__FACT_UNKNOWN (-2147483647L - 1)	/* a probe that could not read its source */

enum pk__cpu_state { PK_CPU_UNKNOWN, PK_CPU_ONLINE, PK_CPU_OFFLINE, PK_CPU_ABSENT };
enum pk__pid_state { PK_PID_UNKNOWN, PK_PID_ALIVE, PK_PID_ZOMBIE, PK_PID_ABSENT };
enum pk__fd_state { PK_FD_UNKNOWN, PK_FD_PERF, PK_FD_OTHER, PK_FD_CLOSED };

/* Everything the explainer may want to know about the machine and caller. */
struct pk__sys_facts {
	bool perf_supported;	/* /proc/sys/kernel/perf_event_paranoid exists */
	long paranoid;		/* kernel.perf_event_paranoid, or PK__FACT_UNKNOWN */
	long max_sample_rate;	/* kernel.perf_event_max_sample_rate */
	long max_stack;		/* kernel.perf_event_max_stack */
	long mlock_kb;		/* kernel.perf_event_mlock_kb */
	long nofile_soft, nofile_hard;	/* RLIMIT_NOFILE; -1 = unlimited */
	long memlock_soft_kb, memlock_hard_kb;	/* RLIMIT_MEMLOCK in KiB; -1 = unlimited */
	bool caps_known;
	bool cap_perfmon, cap_sys_admin, cap_bpf, cap_ipc_lock, cap_sys_ptrace;
	bool hw_pmu_known;	/* the devices directory could be read */
	bool have_hw_pmu;	/* a core PMU (cpu, cpu_core, armv8_*, ...) exists */
	bool type_pmu_known;	/* type_pmu below was looked up */
	char type_pmu[64];	/* the PMU whose type is the attr's (or its extended) type, or "" */
	char devices_dir[200];	/* <sysfs>/bus/event_source/devices, for messages */
	enum pk__cpu_state cpu_state;
	char cpus_online[64];	/* "0-1", or "" when unknown */
	char cpus_possible[64];
	enum pk__pid_state pid_state;
	bool pid_other_user;	/* the target process belongs to another user */
	enum pk__fd_state group_fd_state;
	int kernel_major, kernel_minor;	/* from uname; 0 when unknown */
	char exe[160];		/* /proc/self/exe, or "" */
	long online_cpus;	/* number of online CPUs, or 0 */
	long page_size;
};

/* pk__sys_facts_init - every fact "unknown" (the state the pure explainer
 * must cope with when a probe fails). */
void pk__sys_facts_init(struct pk__sys_facts *f);

/* pk__sys_probe - read the facts relevant to a perf_event_open call. */
void pk__sys_probe(struct pk__sys_facts *f, const struct perf_event_attr *attr, pid_t pid,
		   int cpu, int group_fd);

/*
 * pk__sys_explain_facts - fill the error record for perf_event_open failing
 * with `err` (negative errno), given already probed facts.  Pure: reads
 * nothing but its arguments.  Returns err.
 */
int pk__sys_explain_facts(int err, const struct pk__sys_facts *f,
			  const struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags, const char *name);

/*
 * pk__sys_explain_e2big - the error for E2BIG after size negotiation:
 * the caller passed `orig_size` bytes, the kernel knows `kernel_size`.
 * Names the first non-zero field past kernel_size (reading attr's first
 * orig_size bytes).  Returns -E2BIG.
 */
int pk__sys_explain_e2big(const struct perf_event_attr *attr, uint32_t orig_size,
			  uint32_t kernel_size, pid_t pid, int cpu, int group_fd,
			  const char *name);

/*
 * pk__attr_first_nonzero - offset of the first non-zero byte of attr in
 * [from, to), or -1 when they are all zero.
 */
long pk__attr_first_nonzero(const struct perf_event_attr *attr, uint32_t from, uint32_t to);

/* pk__attr_field_name - the field of struct perf_event_attr holding byte
 * `offset` ("sig_data"), or NULL when the offset is past every known field
 * or inside the first 64 bytes. */
const char *pk__attr_field_name(long offset, const char **since);

/*
 * pk__sys_explain_mmap_facts - the error for mmap of `len` bytes of an event
 * fd failing with `err`, given facts.  Pure.  Returns err.
 */
int pk__sys_explain_mmap_facts(int err, const struct pk__sys_facts *f, int fd, size_t len);

/*
 * pk__sys_lock_check_facts - whether nr_maps mappings of map_len bytes fit
 * in what the user may lock (kernel.perf_event_mlock_kb per online CPU
 * plus RLIMIT_MEMLOCK, for a paranoid kernel and no CAP_IPC_LOCK), as the
 * kernel's perf_mmap counts them for a user with nothing mapped yet.
 * 0 when they fit or a fact is unknown; -EPERM, recorded with the ring
 * size that would fit, when they cannot.
 */
int pk__sys_lock_check_facts(const struct pk__sys_facts *f, size_t nr_maps, size_t map_len);

/* pk__sys_explain_what - "perf_event_open(<name>, pid=P, cpu=C)" into buf. */
void pk__sys_explain_what(char *buf, size_t len, const struct perf_event_attr *attr,
			  pid_t pid, int cpu, int group_fd, const char *name);

#endif
