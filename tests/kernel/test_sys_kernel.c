/* SPDX-License-Identifier: MIT */
/*
 * test_sys_kernel.c - the sys layer against the real kernel (suite
 * 'kernel'): pk_attr_probe on software and hardware events, real E2BIG,
 * EINVAL, EOVERFLOW, ESRCH, EMFILE, EBADF and EACCES failures explained with
 * the machine's real limits, and mmap/ioctl/prctl on a task-clock fd.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfkit.h"
#include "sys/sys.h"

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected \"%s\" in \"%s\"", needle, hay);
}

static long proc_long(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static const struct perf_event_attr task_clock = {
	.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
};

static int group_setup(void **state)
{
	(void)state;
	unsetenv("PERFKIT_SYSFS_ROOT");
	return 0;
}

static void test_probe_task_clock(void **state)
{
	(void)state;
	if (pk_attr_probe(&task_clock, "task-clock") != 0)
		fail_msg("task-clock does not open: %s: %s", pk_last_error()->what, pk_last_error()->why);
}

static bool machine_has_core_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	bool found = false;

	assert_non_null(d);
	while ((de = readdir(d)))
		found |= !strcmp(de->d_name, "cpu") || !strcmp(de->d_name, "cpu_core") ||
			 !strcmp(de->d_name, "cpu_atom") || !strncmp(de->d_name, "armv8_", 6);
	closedir(d);
	return found;
}

static void test_probe_cycles_without_pmu(void **state)
{
	static const struct {
		uint64_t config;
		const char *name, *hint;
	} rows[] = {
		{ PERF_COUNT_HW_CPU_CYCLES, "cycles", "use the software event cpu-clock instead of cycles" },
		{ PERF_COUNT_HW_INSTRUCTIONS, "instructions", "task-clock instead of instructions" },
	};

	(void)state;
	if (machine_has_core_pmu()) {
		print_message("skip: this machine has a hardware PMU, so cycles opens\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = rows[i].config };
		char what[96];
		int ret = pk_attr_probe(&a, rows[i].name);

		assert_true(ret < 0);
		assert_int_equal(pk_last_error()->code, ret);
		snprintf(what, sizeof(what), "perf_event_open(%s, pid=0, cpu=-1)", rows[i].name);
		assert_string_equal(pk_last_error()->what, what);
		assert_contains(pk_last_error()->why, "this machine has no hardware PMU");
		assert_contains(pk_last_error()->why, "<not supported>");
		assert_contains(pk_last_error()->hint, rows[i].hint);
	}
}

static void test_real_e2big(void **state)
{
	union {
		struct perf_event_attr a;
		unsigned char b[200];
	} u;

	(void)state;
	memset(&u, 0, sizeof(u));
	u.a = task_clock;
	u.a.size = 200;
	assert_int_equal(pk_attr_probe(&u.a, "task-clock"), 0);	/* zero tail: accepted */
	u.b[199] = 1;
	assert_int_equal(pk_attr_probe(&u.a, "task-clock"), -E2BIG);
	assert_contains(pk_last_error()->why, "the attr sets byte 199");
	assert_contains(pk_last_error()->hint, "zero the attr past byte");
}

static void test_real_einval(void **state)
{
	long max = proc_long("perf_event_max_sample_rate");
	struct perf_event_attr a = task_clock;
	char want[96];
	int fd;

	(void)state;
	assert_true(max > 0);
	a.freq = 1;
	a.sample_freq = (uint64_t)max + 1;
	assert_int_equal(pk_attr_probe(&a, "task-clock"), -EINVAL);
	snprintf(want, sizeof(want), "above kernel.perf_event_max_sample_rate (%ld Hz)", max);
	assert_contains(pk_last_error()->why, want);

	a = task_clock;
	fd = pk__sys_open(&a, -1, -1, -1, PERF_FLAG_FD_CLOEXEC, "task-clock");
	assert_int_equal(fd, -EINVAL);
	assert_contains(pk_last_error()->why, "every process on every CPU");

	fd = pk__sys_open(&a, -1, 4096, -1, PERF_FLAG_FD_CLOEXEC, "task-clock");
	assert_int_equal(fd, -EINVAL);
	assert_contains(pk_last_error()->why, "CPU 4096 does not exist");
}

static void test_real_eoverflow(void **state)
{
	long max = proc_long("perf_event_max_stack");
	struct perf_event_attr a = task_clock;
	char want[96];

	(void)state;
	if (max < 0 || max >= 65535) {
		print_message("skip: kernel.perf_event_max_stack is %ld; no sample_max_stack exceeds it\n", max);
		skip();
	}
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.sample_max_stack = (uint16_t)(max + 1);
	assert_int_equal(pk_attr_probe(&a, "task-clock"), -EOVERFLOW);
	snprintf(want, sizeof(want), "is above kernel.perf_event_max_stack (%ld)", max);
	assert_contains(pk_last_error()->why, want);
}

static void test_real_esrch(void **state)
{
	struct perf_event_attr a = task_clock;
	pid_t child = fork();
	char want[64];

	(void)state;
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(pk__sys_open(&a, child, -1, -1, PERF_FLAG_FD_CLOEXEC, NULL), -ESRCH);
	snprintf(want, sizeof(want), "no process %d exists", (int)child);
	assert_contains(pk_last_error()->why, want);
}

static void test_real_emfile(void **state)
{
	struct perf_event_attr a = task_clock;
	struct rlimit old, low;
	int next = dup(0), fd;
	char want[64];

	(void)state;
	assert_true(next >= 0);
	close(next);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = (rlim_t)next;	/* the event would need fd `next` */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	fd = pk__sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, "task-clock");
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(fd, -EMFILE);
	snprintf(want, sizeof(want), "RLIMIT_NOFILE soft %d", next);
	assert_contains(pk_last_error()->why, want);
	assert_contains(pk_last_error()->hint, "ulimit -n");
}

static void test_real_ebadf(void **state)
{
	struct perf_event_attr a = task_clock;
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC), closed = dup(0);

	(void)state;
	assert_true(devnull >= 0 && closed >= 0);
	close(closed);
	assert_int_equal(pk__sys_open(&a, 0, -1, closed, PERF_FLAG_FD_CLOEXEC, NULL), -EBADF);
	assert_contains(pk_last_error()->why, "is not an open file descriptor");
	assert_int_equal(pk__sys_open(&a, 0, -1, devnull, PERF_FLAG_FD_CLOEXEC, NULL), -EBADF);
	assert_contains(pk_last_error()->why, "is open but is not a perf event");
	close(devnull);
}

static void test_real_fd_operations(void **state)
{
	struct perf_event_attr a = task_clock;
	long page = sysconf(_SC_PAGESIZE);
	int fd, devnull, err = 0;
	uint64_t id = 0;
	void *ring;

	(void)state;
	a.sample_period = 1000000;
	a.disabled = 1;
	fd = pk__sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, "task-clock");
	assert_true(fd >= 0);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_RESET, 0), 0);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&id), 0);
	assert_true(id != 0);
	assert_int_equal(pk__sys_prctl(PR_TASK_PERF_EVENTS_DISABLE), 0);
	assert_int_equal(pk__sys_prctl(PR_TASK_PERF_EVENTS_ENABLE), 0);

	assert_null(pk__sys_mmap(fd, 4 * (size_t)page, PROT_READ | PROT_WRITE, 0, &err));
	assert_int_equal(err, -EINVAL);
	assert_contains(pk_last_error()->why, "not 1 + 2^n pages");
	ring = pk__sys_mmap(fd, 9 * (size_t)page, PROT_READ | PROT_WRITE, 0, &err);
	assert_non_null(ring);
	assert_int_equal(pk__sys_munmap(ring, 9 * (size_t)page), 0);
	assert_int_equal(pk__sys_close(fd), 0);

	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(pk__sys_ioctl(devnull, PERF_EVENT_IOC_ENABLE, 0), -ENOTTY);
	assert_contains(pk_last_error()->what, "PERF_EVENT_IOC_ENABLE");
	assert_contains(pk_last_error()->why, "not a perf event");
	close(devnull);
	assert_int_equal(pk__sys_close(fd), -EBADF);
}

/*
 * As an unprivileged user (root drops to nobody in a child), the kernel's
 * refusal is explained with the machine's real paranoid level.
 */
static void run_unprivileged(int out)
{
	struct perf_event_attr a = task_clock;
	char buf[2048];
	int ret;

	if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
		_exit(3);
	prctl(PR_SET_DUMPABLE, 1);
	ret = pk_attr_probe(&a, "task-clock");
	snprintf(buf, sizeof(buf), "%d\n%s\n%s\n", ret, pk_last_error()->why, pk_last_error()->hint);
	a.exclude_kernel = 1;
	ret = pk__sys_open(&a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC, "task-clock:u");
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%d\n%s\n%s\n", ret,
		 pk_last_error()->why, pk_last_error()->hint);
	if (write(out, buf, strlen(buf)) < 0)
		_exit(4);
	_exit(0);
}

static void test_real_paranoid(void **state)
{
	long paranoid = proc_long("perf_event_paranoid");
	char buf[2048] = "", *line[6];
	int fds[2], status;
	ssize_t n;
	pid_t child;

	(void)state;
	if (paranoid < 2) {
		print_message("skip: kernel.perf_event_paranoid is %ld, which lets users count the kernel\n",
			      paranoid);
		skip();
	}
	assert_int_equal(pipe(fds), 0);
	child = fork();
	if (child == 0) {
		close(fds[0]);
		run_unprivileged(fds[1]);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0 && n > 0);
	line[0] = strtok(buf, "\n");
	for (int i = 1; i < 6; i++)
		line[i] = strtok(NULL, "\n");
	for (int i = 0; i < 6; i++)
		assert_non_null(line[i]);
	assert_int_equal(atoi(line[0]), -EACCES);
	assert_int_equal(atoi(line[3]), -EACCES);
	if (paranoid >= 3) {
		assert_contains(line[1], "kernel.perf_event_paranoid is");
		assert_contains(line[2], "sysctl -w kernel.perf_event_paranoid=2");
		return;
	}
	assert_contains(line[1], "kernel.perf_event_paranoid is 2");
	assert_contains(line[1], "also counts the kernel (exclude_kernel=0)");
	assert_contains(line[2], "sysctl -w kernel.perf_event_paranoid=1");
	assert_contains(line[2], "setcap cap_perfmon+ep ");
	assert_contains(line[4], "counts CPU 0 for every process (pid=-1)");
	assert_contains(line[5], "sysctl -w kernel.perf_event_paranoid=0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_task_clock),
		cmocka_unit_test(test_probe_cycles_without_pmu),
		cmocka_unit_test(test_real_e2big),
		cmocka_unit_test(test_real_einval),
		cmocka_unit_test(test_real_eoverflow),
		cmocka_unit_test(test_real_esrch),
		cmocka_unit_test(test_real_emfile),
		cmocka_unit_test(test_real_ebadf),
		cmocka_unit_test(test_real_fd_operations),
		cmocka_unit_test(test_real_paranoid),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
