/* SPDX-License-Identifier: MIT */
/*
 * test_explain.c - the errno explainer: one failing perf_event_open per
 * errno perf_event_open(2) documents, through the seam and fake sysfs trees
 * (machines with and without a hardware PMU), then the pure explainer with
 * chosen facts for every perf_event_paranoid level, kernel versions, limits
 * and mmap failures.
 */
#include "sysfake.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/explain.h"

/* ---- one failure per errno --------------------------------------------------- */

#define GROUP_CLOSED 987654
#define GROUP_DEVNULL (-100)
#define PRIVILEGE NULL	/* why/hint depend on this machine's paranoid level and caps */

struct errno_row {
	int err;
	bool hw;			/* fake sysfs has a cpu PMU */
	struct perf_event_attr attr;
	pid_t pid;
	int cpu, group_fd;
	unsigned long flags;
	const char *why, *hint;
};

static const struct errno_row errno_rows[] = {
	{ E2BIG, true, { .type = 1, .size = 40 }, 0, -1, -1, 0,
	  "attr.size 40 is outside", "set attr.size to 136" },
	{ EACCES, true, { .type = 1, .config = 1 }, 0, -1, -1, 0, PRIVILEGE, PRIVILEGE },
	{ EBADF, true, { .type = 1 }, 0, -1, GROUP_CLOSED, 0,
	  "group_fd 987654 is not an open file descriptor", "or -1 for no group" },
	{ EBADF, true, { .type = 1 }, 0, -1, GROUP_DEVNULL, 0,
	  "is open but is not a perf event", "leader's fd" },
	{ EBADF, true, { .type = 1 }, 7, 0, -1, PERF_FLAG_PID_CGROUP,
	  "must be an open fd of a cgroup directory", "cgroup's directory" },
	{ EBUSY, true, { .type = 4, .exclusive = 1 }, 0, -1, -1, 0,
	  "exclusive=1", "drop exclusive=1" },
	{ EBUSY, true, { .type = 4 }, 0, -1, -1, 0,
	  "exclusive access to the PMU", "another perf session" },
	{ EFAULT, true, { .type = 1 }, 0, -1, -1, 0,
	  "outside the process's memory", "bug in the caller" },
	{ EINTR, true, { .type = 1 }, 0, -1, -1, 0, "interrupted", "retry" },
	{ EINVAL, true, { .type = 1, .freq = 1, .sample_freq = 1ULL << 40 }, 0, -1, -1, 0,
	  "above kernel.perf_event_max_sample_rate", "sample at -F " },
	{ EINVAL, true, { .type = 1, .sample_period = 1ULL << 63 }, 0, -1, -1, 0,
	  "bit 63", "below 2^63" },
	{ EINVAL, true, { .type = 1 }, -1, -1, -1, 0,
	  "every process on every CPU", "one event per CPU" },
	{ EINVAL, true, { .type = 1 }, -1, 4096, -1, 0,
	  "CPU 4096 does not exist: this machine's CPUs are 0-3", "(online: 0-2)" },
	{ EINVAL, true, { .type = 1 }, 0, -1, -1, 0x100,
	  "flags 0x100", "PERF_FLAG_FD_CLOEXEC" },
	{ EINVAL, true, { .type = 1 }, 5, -1, -1, PERF_FLAG_PID_CGROUP,
	  "cgroup mode", "one event per CPU" },
	{ EINVAL, true, { .type = 1, .inherit_thread = 1 }, 0, -1, -1, 0,
	  "inherit_thread=1 needs inherit=1", "set inherit" },
	{ EINVAL, true, { .type = 1, .remove_on_exec = 1, .enable_on_exec = 1 }, 0, -1, -1, 0,
	  "cannot both be set", "clear one" },
	{ EINVAL, true, { .type = 1, .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 100 },
	  0, -1, -1, 0, "sample_stack_user 100 must be a multiple of 8", "8192" },
	{ EINVAL, true, { .type = 4, .sample_type = PERF_SAMPLE_BRANCH_STACK,
			  .branch_sample_type = PERF_SAMPLE_BRANCH_USER }, 0, -1, -1, 0,
	  "selects no branch type", "-j any" },
	{ EINVAL, true, { .type = 3, .config = 0x9 }, 0, -1, -1, 0,
	  "cache event config 0x9", "L1-dcache-load-misses" },
	{ EINVAL, true, { .type = 2, .config = 999999 }, 0, -1, -1, 0,
	  "no tracepoint has id 999999", "events/<subsystem>/<event>/id" },
	{ EINVAL, true, { .type = 1 }, 0, -1, GROUP_DEVNULL, 0,
	  "does not match its group leader", "leader's pid, cpu" },
	{ EINVAL, true, { .type = 42, .config = 0xff00 }, 0, -1, -1, 0,
	  "the uncore_imc PMU (type 42) rejected config 0xff00", "uncore_imc/format" },
	{ EINVAL, true, { .type = 1 }, 0, -1, -1, 0,
	  "found a field of the attr invalid", "perf stat -vv" },
	{ EMFILE, true, { .type = 1 }, 0, -1, -1, 0,
	  "reached its limit of open files (RLIMIT_NOFILE soft", "or open fewer events or CPUs" },
	{ ENODEV, true, { .type = 1 }, -1, 3, -1, 0,
	  "CPU 3 is offline (online CPUs: 0-2)", "echo 1 > /sys/devices/system/cpu/cpu3/online" },
	{ ENODEV, false, { .type = 0, .config = 0 }, 0, -1, -1, 0,
	  "no hardware PMU", "cpu-clock instead of cycles" },
	{ ENODEV, true, { .type = 4 }, 0, -1, -1, 0,
	  "lacks a feature", "perfkit list" },
	{ ENOENT, false, { .type = 0, .config = 0 }, 0, -1, -1, 0,
	  "this machine has no hardware PMU", "use the software event cpu-clock instead of cycles" },
	{ ENOENT, false, { .type = 0, .config = 9 }, 0, -1, -1, 0,
	  "virtual machine without PMU passthrough", "cpu-clock instead of ref-cycles" },
	{ ENOENT, false, { .type = 0, .config = 6 }, 0, -1, -1, 0,
	  "perf shows <not supported>", "cpu-clock instead of bus-cycles" },
	{ ENOENT, false, { .type = 0, .config = 1 }, 0, -1, -1, 0,
	  "no hardware PMU", "task-clock instead of instructions" },
	{ ENOENT, false, { .type = 0, .config = 5 }, 0, -1, -1, 0,
	  "no hardware PMU", "task-clock instead of branch-misses" },
	{ ENOENT, false, { .type = 3, .config = 0x10000 }, 0, -1, -1, 0,
	  "no hardware PMU", "no software event counts cache events" },
	{ ENOENT, false, { .type = 4, .config = 0x3c }, 0, -1, -1, 0,
	  "no hardware PMU", "no software event counts raw events" },
	{ ENOENT, true, { .type = 0, .config = 9 }, 0, -1, -1, 0,
	  "does not implement the generic event ref-cycles", "perfkit list" },
	{ ENOENT, true, { .type = 77 }, 0, -1, -1, 0,
	  "no PMU has type 77", "lists them with their type files" },
	{ ENOENT, true, { .type = 0, .config = 77ULL << 32 }, 0, -1, -1, 0,
	  "no PMU has type 77", "ls " },
	{ ENOENT, true, { .type = 1, .config = 1000 }, 0, -1, -1, 0,
	  "software event config 1000", "perfkit list sw" },
	{ ENOSPC, true, { .type = 5, .bp_type = 3, .bp_addr = 0x1000, .bp_len = 8 }, 0, -1, -1, 0,
	  "every hardware breakpoint slot is in use", "fewer addresses" },
	{ ENOSPC, true, { .type = 4 }, 0, -1, -1, 0,
	  "no hardware counter or breakpoint slot", "fewer hardware events" },
	{ ENOSYS, true, { .type = 1, .sample_type = PERF_SAMPLE_STACK_USER }, 0, -1, -1, 0,
	  "does not implement", "call-graph=fp" },
	{ ENOSYS, true, { .type = 1 }, 0, -1, -1, 0,
	  "a seccomp filter", "seccomp=unconfined" },
	{ EOPNOTSUPP, true, { .type = 1, .precise_ip = 2, .sample_period = 1000 }, 0, -1, -1, 0,
	  "precise_ip=2 (the :p modifier) needs precise sampling", "drop the :p modifier" },
	{ EOPNOTSUPP, true, { .type = 1, .sample_type = PERF_SAMPLE_BRANCH_STACK,
			      .sample_period = 1 }, 0, -1, -1, 0,
	  "branch stack sampling needs", "drop -b/-j" },
	{ EOPNOTSUPP, true, { .type = 1, .sample_type = PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_CALLCHAIN,
			      .branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
			      .sample_period = 1 }, 0, -1, -1, 0,
	  "branch stack sampling needs", "--call-graph fp or --call-graph dwarf" },
	{ EOPNOTSUPP, true, { .type = 42, .sample_period = 1000 }, 0, -1, -1, 0,
	  "cannot sample: it has no overflow interrupt", "perfkit stat" },
	{ EOPNOTSUPP, false, { .type = 0, .sample_period = 1000 }, 0, -1, -1, 0,
	  "no hardware PMU", "cpu-clock" },
	{ EOVERFLOW, true, { .type = 1, .sample_type = PERF_SAMPLE_CALLCHAIN,
			     .sample_max_stack = 65535 }, 0, -1, -1, 0,
	  "sample_max_stack 65535 is above kernel.perf_event_max_stack", "sysctl -w kernel.perf_event_max_stack=65535" },
	{ EPERM, true, { .type = 1, .config = 1 }, 0, -1, -1, 0, PRIVILEGE, PRIVILEGE },
	{ ESRCH, true, { .type = 1 }, 2147483600, -1, -1, 0,
	  "no process 2147483600 exists (no /proc/2147483600)", "ps -p 2147483600" },
};

/* The machine's real privilege, read independently of the code under test. */
static void expected_privilege(const char **why, const char **hint)
{
	char buf[8192], *p;
	unsigned long long eff = 0;
	long paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		assert_int_equal(fscanf(f, "%ld", &paranoid), 1);
		fclose(f);
	}
	f = fopen("/proc/self/status", "r");
	assert_non_null(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	p = strstr(buf, "CapEff:");
	assert_non_null(p);
	eff = strtoull(p + 7, NULL, 16);
	if (paranoid >= 3 && !(eff >> 21 & 1)) {
		*why = "kernel.perf_event_paranoid is";
		*hint = "sysctl -w kernel.perf_event_paranoid=2";
	} else if (eff >> 21 & 1 || eff >> 38 & 1) {
		*why = "so kernel.perf_event_paranoid";
		*hint = "seccomp";
	} else if (paranoid >= 2) {
		*why = "this event also counts the kernel (exclude_kernel=0)";
		*hint = "setcap cap_perfmon+ep ";
	} else {
		*why = "refused";
		*hint = "CAP_PERFMON";
	}
}

static void check_row(const struct errno_row *r, int devnull)
{
	struct perf_event_attr a = r->attr;
	const char *why = r->why, *hint = r->hint;
	const struct pk_error *e;
	int group_fd = r->group_fd == GROUP_DEVNULL ? devnull : r->group_fd;
	char prefix[64], suffix[32];

	memset(&fake, 0, sizeof(fake));
	fake.err = r->err;
	fake.write_size = 136;
	setenv("PERFKIT_SYSFS_ROOT", r->hw ? root_hw : root_nohw, 1);
	if (!why)
		expected_privilege(&why, &hint);
	assert_int_equal(pk__sys_open(&a, r->pid, r->cpu, group_fd, r->flags, NULL), -r->err);
	e = pk_last_error();
	assert_int_equal(e->code, -r->err);
	snprintf(prefix, sizeof(prefix), "pid=%d, cpu=%d", (int)r->pid, r->cpu);
	assert_true(strncmp(e->what, "perf_event_open(", 16) == 0);
	assert_contains(e->what, prefix);
	snprintf(suffix, sizeof(suffix), "(%s)", strerrorname_np(r->err));
	assert_contains(e->why, suffix);
	assert_contains(e->why, why);
	assert_contains(e->hint, hint);
}

static void test_every_errno_explained(void **state)
{
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char label[64];

	(void)state;
	assert_true(devnull >= 0);

	for (size_t i = 0; i < sizeof(errno_rows) / sizeof(errno_rows[0]); i++) {
		snprintf(label, sizeof(label), "row %zu (%s): ", i, strerrorname_np(errno_rows[i].err));
		row_label = label;
		check_row(&errno_rows[i], devnull);
	}
	row_label = "";
	close(devnull);
}

/* The table above must cover every errno perf_event_open(2) documents. */
static void test_table_covers_man_page(void **state)
{
	static const int documented[] = {
		E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE, ENODEV,
		ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM, ESRCH,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++) {
		bool found = false;

		for (size_t j = 0; j < sizeof(errno_rows) / sizeof(errno_rows[0]); j++)
			found |= errno_rows[j].err == documented[i];
		if (!found)
			fail_msg("no test row for %s", strerrorname_np(documented[i]));
	}
}

static void test_unknown_errno_falls_back(void **state)
{
	struct perf_event_attr a = { .type = 1 };

	(void)state;
	fake.err = ENXIO;
	assert_int_equal(pk__sys_open(&a, 0, -1, -1, 0, "task-clock"), -ENXIO);
	assert_string_equal(pk_last_error()->what, "perf_event_open(task-clock, pid=0, cpu=-1)");
	assert_contains(pk_last_error()->why, strerror(ENXIO));
	assert_contains(pk_last_error()->why, "(ENXIO)");
}

/* EMFILE names the limits the process really has. */
static void test_emfile_names_the_limit(void **state)
{
	struct perf_event_attr a = { .type = 1 };
	struct rlimit old, low;
	char want[64];

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 64;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	fake.err = EMFILE;
	assert_int_equal(pk__sys_open(&a, 0, -1, -1, 0, NULL), -EMFILE);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_contains(pk_last_error()->why, "RLIMIT_NOFILE soft 64, hard");
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max > 64) {
		snprintf(want, sizeof(want), "`ulimit -n %llu`", (unsigned long long)old.rlim_max);
		assert_contains(pk_last_error()->hint, want);
	}
}

/* ESRCH tells a reaped pid from a zombie. */
static void test_esrch_zombie_and_gone(void **state)
{
	struct perf_event_attr a = { .type = 1 };
	char want[64];
	pid_t child = fork();

	(void)state;
	if (child == 0)
		_exit(0);
	assert_true(child > 0);
	assert_int_equal(waitid(P_PID, (id_t)child, NULL, WEXITED | WNOWAIT), 0);
	fake.err = ESRCH;
	assert_int_equal(pk__sys_open(&a, child, -1, -1, 0, NULL), -ESRCH);
	snprintf(want, sizeof(want), "process %d has exited", (int)child);
	assert_contains(pk_last_error()->why, want);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(pk__sys_open(&a, child, -1, -1, 0, NULL), -ESRCH);
	snprintf(want, sizeof(want), "no process %d exists", (int)child);
	assert_contains(pk_last_error()->why, want);
}

/* ---- the pure explainer with chosen facts: each paranoid level ------------------ */

enum caps { NOCAP, PERFMON, SYSADMIN };

static void facts_with(struct pk__sys_facts *f, long paranoid, enum caps caps)
{
	pk__sys_facts_init(f);
	f->perf_supported = true;
	f->paranoid = paranoid;
	f->caps_known = true;
	f->cap_perfmon = caps == PERFMON;
	f->cap_sys_admin = caps == SYSADMIN;
	f->hw_pmu_known = f->have_hw_pmu = true;
	snprintf(f->exe, sizeof(f->exe), "/usr/bin/perfkit");
}

static void test_paranoid_levels(void **state)
{
	static const struct {
		int err;
		long paranoid;
		enum caps caps;
		struct perf_event_attr attr;
		pid_t pid;
		int cpu;
		const char *why, *hint;
	} rows[] = {
		{ EACCES, -1, NOCAP, { .type = 2, .sample_type = PERF_SAMPLE_RAW, .exclude_kernel = 1 },
		  0, -1, "lack of privilege", "CAP_PERFMON" },
		{ EACCES, 0, NOCAP, { .type = 2, .sample_type = PERF_SAMPLE_RAW, .exclude_kernel = 1 },
		  0, -1, "is 0 (unprivileged users may not read raw tracepoint data), and this "
		  "tracepoint event samples raw data", "sysctl -w kernel.perf_event_paranoid=-1" },
		{ EACCES, 1, NOCAP, { .type = 1, .exclude_kernel = 1 }, -1, 0,
		  "is 1 (unprivileged users may not count CPU-wide", "sysctl -w kernel.perf_event_paranoid=0" },
		{ EACCES, 1, NOCAP, { .type = 1 }, 0, -1, "lack of privilege", "CAP_PERFMON" },
		{ EACCES, 2, NOCAP, { .type = 1 }, 0, -1,
		  "is 2 (unprivileged users may count only the user space of their own processes), "
		  "and this event also counts the kernel (exclude_kernel=0)",
		  "count user space only with the :u modifier (exclude_kernel=1), run `sysctl -w "
		  "kernel.perf_event_paranoid=1`, or grant CAP_PERFMON: `setcap cap_perfmon+ep "
		  "/usr/bin/perfkit`" },
		{ EACCES, 2, NOCAP, { .type = 1 }, -1, 1,
		  "also counts the kernel", "sysctl -w kernel.perf_event_paranoid=0`" },
		{ EACCES, 2, NOCAP, { .type = 1, .exclude_kernel = 1 }, -1, 1,
		  "counts CPU 1 for every process (pid=-1)", "measure a process (pid >= 0) instead" },
		{ EACCES, 2, NOCAP, { .type = 1, .exclude_kernel = 1,
				      .sample_type = PERF_SAMPLE_PHYS_ADDR }, 0, -1,
		  "physical addresses (PERF_SAMPLE_PHYS_ADDR)", "drop --phys-data" },
		{ EACCES, 2, NOCAP, { .type = 1, .exclude_kernel = 1 }, 0, -1,
		  "lack of privilege", "setcap cap_perfmon+ep" },
		{ EACCES, 2, PERFMON, { .type = 1 }, 0, -1,
		  "has CAP_PERFMON, so kernel.perf_event_paranoid (2) does not restrict it",
		  "seccomp" },
		{ EACCES, 3, NOCAP, { .type = 1, .exclude_kernel = 1 }, 0, -1,
		  "is 3 (a Debian/Android patch: only CAP_SYS_ADMIN may use perf_event_open at all)",
		  "sysctl -w kernel.perf_event_paranoid=2" },
		{ EACCES, 3, PERFMON, { .type = 1, .exclude_kernel = 1 }, 0, -1,
		  "is 3 (", "or run as root" },
		{ EACCES, 3, SYSADMIN, { .type = 1 }, 0, -1,
		  "has CAP_SYS_ADMIN", "security-opt seccomp" },
		{ EACCES, 4, NOCAP, { .type = 1, .exclude_kernel = 1 }, 0, -1,
		  "is 4 (a distribution patch", "sysctl -w kernel.perf_event_paranoid=2" },
		{ EACCES, PK__FACT_UNKNOWN, NOCAP, { .type = 1 }, 0, -1,
		  "lack of privilege", "setcap cap_perfmon+ep" },
		{ EACCES, 1, NOCAP, { .type = 1, .exclude_kernel = 1, .namespaces = 1 }, 0, -1,
		  "namespaces=1", "drop --namespaces" },
		{ EPERM, 2, NOCAP, { .type = 1 }, 0, -1,
		  "also counts the kernel", "sysctl -w kernel.perf_event_paranoid=1" },
		{ EPERM, 1, NOCAP, { .type = 5, .bp_addr = 0xffffffff81000000ULL, .bp_type = 1,
				     .bp_len = 8 }, 0, -1,
		  "address 0xffffffff81000000 is in the kernel", "watch a user-space address" },
		{ EPERM, 1, NOCAP, { .type = 1, .sample_type = PERF_SAMPLE_REGS_INTR }, 0, -1,
		  "locked down", "lockdown" },
		{ EPERM, 1, NOCAP, { .type = 1, .exclude_kernel = 1 }, 0, -1,
		  "exclude_* setting", "the :u modifier" },
	};
	struct pk__sys_facts f;
	char label[64];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(label, sizeof(label), "row %zu (paranoid %ld): ", i, rows[i].paranoid);
		row_label = label;
		facts_with(&f, rows[i].paranoid, rows[i].caps);
		assert_int_equal(pk__sys_explain_facts(-rows[i].err, &f, &rows[i].attr, rows[i].pid,
						       rows[i].cpu, -1, 0, NULL), -rows[i].err);
		assert_contains(pk_last_error()->why, rows[i].why);
		assert_contains(pk_last_error()->hint, rows[i].hint);
	}
	row_label = "";
}

static void test_other_facts(void **state)
{
	struct pk__sys_facts f;
	struct perf_event_attr a = { .type = 1, .sigtrap = 1, .remove_on_exec = 1 };

	(void)state;
	facts_with(&f, 2, NOCAP);
	f.kernel_major = 5;
	f.kernel_minor = 10;
	pk__sys_explain_facts(-EINVAL, &f, &a, 0, -1, -1, 0, "x");
	assert_contains(pk_last_error()->why, "attr.sigtrap needs Linux 5.13 or later; this kernel is 5.10");
	a = (struct perf_event_attr){ .type = 1, .build_id = 1, .mmap2 = 1 };
	f.kernel_major = 4;
	f.kernel_minor = 19;
	pk__sys_explain_facts(-EINVAL, &f, &a, 0, -1, -1, 0, "x");
	assert_contains(pk_last_error()->why, "attr.build_id needs Linux 5.12");
	assert_contains(pk_last_error()->hint, "clear build_id");

	f.perf_supported = false;
	pk__sys_explain_facts(-ENOSYS, &f, &a, 0, -1, -1, 0, "x");
	assert_contains(pk_last_error()->why, "CONFIG_PERF_EVENTS");

	f.nofile_soft = f.nofile_hard = 1024;
	pk__sys_explain_facts(-EMFILE, &f, &a, 0, -1, -1, 0, "x");
	assert_contains(pk_last_error()->why, "soft 1024, hard 1024");
	assert_contains(pk_last_error()->hint, "already the hard limit");

	f.pid_other_user = true;
	f.pid_state = PK_PID_ALIVE;
	a = (struct perf_event_attr){ .type = 1, .exclude_kernel = 1 };
	pk__sys_explain_facts(-EACCES, &f, &a, 1234, -1, -1, 0, "x");
	assert_contains(pk_last_error()->why, "process 1234 belongs to another user");

	/* Nothing known at all still gives the table's text, never a crash. */
	pk__sys_facts_init(&f);
	pk__sys_explain_facts(-EACCES, &f, NULL, 0, -1, -1, 0, NULL);
	assert_string_equal(pk_last_error()->what, "perf_event_open(NULL, pid=0, cpu=-1)");
	assert_contains(pk_last_error()->why, "lack of privilege");
}

/* ---- mmap ------------------------------------------------------------------------ */

static void test_mmap_explained(void **state)
{
	struct pk__sys_facts f;

	(void)state;
	facts_with(&f, 2, NOCAP);
	f.mlock_kb = 516;
	f.online_cpus = 2;
	f.memlock_soft_kb = 8192;
	pk__sys_explain_mmap_facts(-EPERM, &f, 5, (512 + 1) * 4096);
	assert_string_equal(pk_last_error()->what, "mmap(fd 5, 2052 KiB)");
	assert_contains(pk_last_error()->why, "kernel.perf_event_mlock_kb is 516 KiB per CPU "
			"(1032 KiB for 2 online CPUs");
	assert_contains(pk_last_error()->why, "RLIMIT_MEMLOCK (8192 KiB)");
	assert_contains(pk_last_error()->hint, "sysctl -w kernel.perf_event_mlock_kb=2052");
	assert_contains(pk_last_error()->hint, "ulimit -l");
	f.cap_ipc_lock = true;
	pk__sys_explain_mmap_facts(-ENOMEM, &f, 5, (512 + 1) * 4096);
	assert_null(strstr(pk_last_error()->why, "perf_event_mlock_kb"));
	pk__sys_explain_mmap_facts(-EINVAL, &f, 5, 4 * 4096);
	assert_contains(pk_last_error()->why, "not 1 + 2^n pages");
	pk__sys_explain_mmap_facts(-EINVAL, &f, 5, 9 * 4096);
	assert_contains(pk_last_error()->why, "already mapped with another size");
}

/* Rings checked against the lockable memory before mapping, as the kernel counts it. */
static void test_lock_check(void **state)
{
	struct pk__sys_facts f;

	(void)state;
	facts_with(&f, 2, NOCAP);
	f.mlock_kb = 516;
	f.online_cpus = 2;
	f.memlock_soft_kb = 8192;
	f.page_size = 4096;
	/* 2 x (1024 + 1) pages = 8200 KiB of 1032 + 8192: fits */
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 1025 * 4096), 0);
	/* 2 x (2048 + 1) pages = 16392 KiB: does not; 1024 pages would */
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 2049 * 4096), -EPERM);
	assert_string_equal(pk_last_error()->what, "map ring buffers");
	assert_contains(pk_last_error()->why, "2 ring buffers of 8196 KiB need 16392 KiB of locked memory");
	assert_contains(pk_last_error()->why, "this user may lock 9224 KiB");
	assert_contains(pk_last_error()->hint, "1024 data pages each (-m 1024) fit");
	assert_contains(pk_last_error()->hint, "sysctl -w kernel.perf_event_mlock_kb=8196");
	/* so many rings that not even one page each fits */
	assert_int_equal(pk__sys_lock_check_facts(&f, 2000, 2 * 4096), -EPERM);
	assert_contains(pk_last_error()->hint, "even 1-page rings do not fit");
	/* CAP_IPC_LOCK, paranoid -1, an unlimited RLIMIT_MEMLOCK or unknown facts: no limit */
	f.cap_ipc_lock = true;
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 2049 * 4096), 0);
	f.cap_ipc_lock = false;
	f.paranoid = -1;
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 2049 * 4096), 0);
	f.paranoid = 2;
	f.memlock_soft_kb = -1;
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 2049 * 4096), 0);
	f.memlock_soft_kb = 8192;
	f.mlock_kb = PK__FACT_UNKNOWN;
	assert_int_equal(pk__sys_lock_check_facts(&f, 2, 2049 * 4096), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_errno_explained, sysfake_setup, sysfake_teardown),
		cmocka_unit_test(test_table_covers_man_page),
		cmocka_unit_test_setup_teardown(test_unknown_errno_falls_back, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_emfile_names_the_limit, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_esrch_zombie_and_gone, sysfake_setup, sysfake_teardown),
		cmocka_unit_test(test_paranoid_levels),
		cmocka_unit_test(test_other_facts),
		cmocka_unit_test(test_mmap_explained),
		cmocka_unit_test(test_lock_check),
	};

	return cmocka_run_group_tests(tests, sysfake_group_setup, sysfake_group_teardown);
}
