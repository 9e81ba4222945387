/* SPDX-License-Identifier: MIT */
/*
 * test_sys.c - the sys layer's plumbing without the kernel: the sysfs path
 * and file readers, attr size negotiation on E2BIG against a fake old
 * kernel, the syscall seam (per thread, NULL members fall back to the real
 * calls) and pk_attr_probe's copy semantics.
 */
#include "sysfake.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "sys/explain.h"

/* ---- sysfs and file readers ------------------------------------------------- */

static void test_sysfs_path(void **state)
{
	char buf[256], small[8];

	(void)state;
	unsetenv("PERFKIT_SYSFS_ROOT");
	assert_string_equal(pk__sysfs_path(buf, sizeof(buf), "bus/event_source/devices"),
			    "/sys/bus/event_source/devices");
	setenv("PERFKIT_SYSFS_ROOT", "/tmp/fake", 1);
	assert_string_equal(pk__sysfs_path(buf, sizeof(buf), "/devices/system/cpu/online"),
			    "/tmp/fake/devices/system/cpu/online");
	assert_null(pk__sysfs_path(small, sizeof(small), "bus/event_source"));
	setenv("PERFKIT_SYSFS_ROOT", "", 1);
	assert_string_equal(pk__sysfs_path(buf, sizeof(buf), "x"), "/sys/x");
	unsetenv("PERFKIT_SYSFS_ROOT");
}

static void test_read_file_and_long(void **state)
{
	static const struct {
		const char *text;
		int ret;	/* pk__read_long's return */
		long val;
	} rows[] = {
		{ "2\n", 0, 2 }, { "-1\n", 0, -1 }, { "100000", 0, 100000 },
		{ "516 \n", 0, 516 }, { "abc\n", -EINVAL, 0 }, { "12x\n", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
	};
	char path[sizeof(root_hw) + 16], buf[8];
	long v;

	(void)state;
	snprintf(path, sizeof(path), "%s/value", root_hw);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		put(root_hw, "value", rows[i].text);
		v = 12345;
		assert_int_equal(pk__read_long(path, &v), rows[i].ret);
		if (rows[i].ret == 0)
			assert_int_equal(v, rows[i].val);
	}
	put(root_hw, "value", "0-1\n");
	assert_int_equal(pk__read_file(path, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "0-1");
	put(root_hw, "value", "0123456789\n");
	assert_int_equal(pk__read_file(path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0123456");
	assert_int_equal(pk__read_file("/nonexistent/perfkit", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(pk__read_long("/nonexistent/perfkit", &v), -ENOENT);
}

/* ---- size negotiation --------------------------------------------------------- */

static void test_size_zero_becomes_ver7(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 1 };

	(void)state;
	assert_int_equal(pk__sys_open(&a, 0, -1, -1, 0, "task-clock"), 42);
	assert_int_equal(fake.seen_size, 128);
	assert_int_equal(a.size, 128);
}

static void test_e2big_zero_tail_retries(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 1, .size = 128 };

	(void)state;
	fake.accept_size = 120;
	assert_int_equal(pk__sys_open(&a, 0, -1, -1, 0, "task-clock"), 42);
	assert_int_equal(fake.calls, 2);
	assert_int_equal(fake.seen_size, 120);
	assert_int_equal(a.size, 120);
}

static void test_e2big_names_the_field(void **state)
{
	static const struct {
		size_t offset;		/* byte to set */
		uint32_t size;		/* attr.size passed */
		const char *field, *since;
	} rows[] = {
		{ 120, 128, "sig_data", "5.13" },
		{ 127, 128, "sig_data", "5.13" },
		{ 128, 136, "config3", "6.3" },
		{ 116, 128, "aux_action", "6.13" },
	};
	union {
		struct perf_event_attr a;
		unsigned char b[136];
	} u;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&u, 0, sizeof(u));
		memset(&fake, 0, sizeof(fake));
		u.a.type = PERF_TYPE_SOFTWARE;
		u.a.size = rows[i].size;
		u.b[rows[i].offset] = 1;
		fake.accept_size = rows[i].offset < 120 ? 112 : 120;
		assert_int_equal(pk__sys_open(&u.a, 0, -1, -1, 0, "task-clock"), -E2BIG);
		assert_int_equal(fake.calls, 1);
		assert_int_equal(u.a.size, rows[i].size);	/* the caller's attr is restored */
		assert_int_equal(pk_last_error()->code, -E2BIG);
		assert_contains(pk_last_error()->why, rows[i].field);
		assert_contains(pk_last_error()->why, rows[i].since);
		assert_contains(pk_last_error()->hint, "clear ");
		assert_contains(pk_last_error()->hint, rows[i].field);
	}
}

static void test_size_136_passes_untouched(void **state)
{
	union {
		struct perf_event_attr a;
		unsigned char b[136];
	} u;
	uint64_t config3 = 0x1234, seen;

	(void)state;
	memset(&u, 0, sizeof(u));
	u.a.type = 42;
	u.a.size = 136;
	memcpy(u.b + 128, &config3, 8);
	assert_int_equal(pk__sys_open(&u.a, 0, -1, -1, 0, NULL), 42);
	assert_int_equal(fake.seen_size, 136);
	memcpy(&seen, fake.seen + 128, 8);
	assert_int_equal(seen, 0x1234);
}

static void test_e2big_retry_failure_is_explained(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 1, .size = 128 };

	(void)state;
	fake.accept_size = 120;
	fake.retry_err = EMFILE;
	assert_int_equal(pk__sys_open(&a, 0, -1, -1, 0, NULL), -EMFILE);
	assert_int_equal(a.size, 120);
	assert_contains(pk_last_error()->why, "(EMFILE)");
}

/* Every field past byte 64 that the UAPI header knows maps back to its name. */
static void test_field_names_match_header(void **state)
{
#define FIELD(f) { #f, offsetof(struct perf_event_attr, f), sizeof(((struct perf_event_attr *)0)->f) }
	static const struct {
		const char *name;
		size_t offset, size;
	} rows[] = {
		FIELD(config2), FIELD(branch_sample_type), FIELD(sample_regs_user),
		FIELD(sample_stack_user), FIELD(clockid), FIELD(sample_regs_intr),
		FIELD(aux_watermark), FIELD(sample_max_stack), FIELD(aux_sample_size),
		FIELD(sig_data),
	};
#undef FIELD
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_string_equal(pk__attr_field_name((long)rows[i].offset, NULL), rows[i].name);
		assert_string_equal(pk__attr_field_name((long)(rows[i].offset + rows[i].size - 1), NULL),
				    rows[i].name);
	}
	assert_string_equal(pk__attr_field_name(sizeof(struct perf_event_attr), NULL), "config3");
	assert_null(pk__attr_field_name(136, NULL));
	assert_null(pk__attr_field_name(8, NULL));
}

/* ---- mmap, ioctl, prctl, close through the seam ------------------------------ */

static int mmap_errno;

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)addr, (void)len, (void)prot, (void)flags, (void)fd, (void)off;
	errno = mmap_errno;
	return MAP_FAILED;
}

static int fake_ioctl(int fd, unsigned long request, unsigned long arg)
{
	(void)fd, (void)request;
	if (arg == 99) {
		errno = ENOTTY;
		return -1;
	}
	return (int)arg;
}

static int fake_prctl(int option)
{
	return option == PR_TASK_PERF_EVENTS_ENABLE ? 0 : (errno = EPERM, -1);
}

static void test_other_syscalls_through_seam(void **state)
{
	static const struct pk__sys_ops ops = {
		.mmap = fake_mmap, .ioctl = fake_ioctl, .prctl = fake_prctl,
	};
	int err = 0;

	(void)state;
	pk__sys_set_ops(&ops);
	mmap_errno = EPERM;
	assert_null(pk__sys_mmap(7, 9 * 4096, PROT_READ, 0, &err));
	assert_int_equal(err, -EPERM);
	assert_int_equal(pk_last_error()->code, -EPERM);
	assert_string_equal(pk_last_error()->what, "mmap(fd 7, 36 KiB)");

	assert_int_equal(pk__sys_ioctl(3, PERF_EVENT_IOC_ENABLE, 0), 0);
	assert_int_equal(pk__sys_ioctl(3, PERF_EVENT_IOC_ENABLE, 99), -ENOTTY);
	assert_string_equal(pk_last_error()->what, "ioctl(fd 3, PERF_EVENT_IOC_ENABLE)");
	assert_contains(pk_last_error()->why, "not a perf event");

	assert_int_equal(pk__sys_prctl(PR_TASK_PERF_EVENTS_ENABLE), 0);
	assert_int_equal(pk__sys_prctl(PR_TASK_PERF_EVENTS_DISABLE), -EPERM);
	assert_string_equal(pk_last_error()->what, "prctl(PR_TASK_PERF_EVENTS_DISABLE)");
	assert_int_equal(pk__sys_prctl(12345), -EINVAL);

	/* close has no fake in this table: the real one runs. */
	assert_int_equal(pk__sys_close(-1), -EBADF);
	assert_string_equal(pk_last_error()->what, "close(fd -1)");
	pk__sys_set_ops(NULL);
}

static void *other_thread(void *arg)
{
	*(int *)arg = pk__sys_close(123456);	/* no seam here: the real close */
	return NULL;
}

static void test_seam_is_per_thread(void **state)
{
	pthread_t t;
	int ret = 0;

	(void)state;
	assert_int_equal(pk__sys_close(123456), 0);	/* fake_close */
	assert_int_equal(fake.closes, 1);
	assert_int_equal(pthread_create(&t, NULL, other_thread, &ret), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(ret, -EBADF);
	assert_int_equal(fake.closes, 1);
}

/* ---- the inline read fast path and its gate -------------------------------- */

static ssize_t fake_read_x(int fd, void *buf, size_t len)
{
	(void)fd;
	memset(buf, 'x', len);
	return (ssize_t)len;
}

struct reader {
	int fd;
	char got[4];
	ssize_t n;
};

static void *read_on_other_thread(void *arg)
{
	struct reader *rd = arg;

	rd->n = pk__sys_read(rd->fd, rd->got, sizeof(rd->got));
	return NULL;
}

/* pk__sys_read makes read(2) directly while no thread has a fake (the
 * gate is 0); a fake installed on one thread raises the gate, serves that
 * thread only, and removing it lowers the gate again. */
static void test_read_gate(void **state)
{
	static const struct pk__sys_ops ops = { .read = fake_read_x };
	struct reader rd = { .fd = -1 };
	pthread_t t;
	char buf[4];
	int p[2];

	(void)state;
	assert_int_equal(pk__sys_faked, 0);
	assert_int_equal(pipe(p), 0);
	rd.fd = p[0];
	assert_int_equal(write(p[1], "abcdabcd", 8), 8);
	assert_int_equal(pk__sys_read(p[0], buf, 4), 4);
	assert_memory_equal(buf, "abcd", 4);

	pk__sys_set_ops(&ops);
	pk__sys_set_ops(&ops);	/* again: still one thread */
	assert_int_equal(pk__sys_faked, 1);
	assert_int_equal(pk__sys_read(p[0], buf, 4), 4);
	assert_memory_equal(buf, "xxxx", 4);
	assert_int_equal(pthread_create(&t, NULL, read_on_other_thread, &rd), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(rd.n, 4);
	assert_memory_equal(rd.got, "abcd", 4);	/* the pipe's: a real read */
	pk__sys_set_ops(NULL);
	assert_int_equal(pk__sys_faked, 0);
	pk__sys_set_ops(NULL);	/* again: stays 0 */
	assert_int_equal(pk__sys_faked, 0);
	close(p[1]);
	/* Real again: the pipe is empty and closed, so read(2) gives 0. */
	assert_int_equal(pk__sys_read(p[0], buf, 4), 0);
	assert_contains(pk_last_error()->what, "read(event fd");
	close(p[0]);
}

/* ---- pk_attr_probe ---------------------------------------------------------- */

static void test_attr_probe_copies(void **state)
{
	union {
		struct perf_event_attr a;
		unsigned char b[136];
	} u;
	struct perf_event_attr a = { .type = 1, .config = 1 };

	(void)state;
	assert_int_equal(pk_attr_probe(&a, "task-clock"), 0);
	assert_int_equal(a.size, 0);			/* the caller's attr is const */
	assert_int_equal(fake.seen_size, 128);
	assert_int_equal(fake.pid, 0);
	assert_int_equal(fake.cpu, -1);
	assert_int_equal(fake.group_fd, -1);
	assert_int_equal(fake.flags, PERF_FLAG_FD_CLOEXEC);
	assert_int_equal(fake.closes, 1);
	assert_int_equal(fake.last_closed, 42);

	memset(&u, 0, sizeof(u));
	u.a.type = 42;
	u.a.size = 136;
	u.b[130] = 0x5a;				/* config3 */
	assert_int_equal(pk_attr_probe(&u.a, NULL), 0);
	assert_int_equal(fake.seen[130], 0x5a);

	u.a.size = 4000;
	fake.calls = 0;
	assert_int_equal(pk_attr_probe(&u.a, "big"), -E2BIG);
	assert_int_equal(fake.calls, 0);
	assert_contains(pk_last_error()->why, "attr.size 4000");

	fake.err = ENOENT;
	a.type = 0;
	a.config = 0;
	setenv("PERFKIT_SYSFS_ROOT", root_nohw, 1);
	assert_int_equal(pk_attr_probe(&a, "cycles"), -ENOENT);
	assert_string_equal(pk_last_error()->what, "perf_event_open(cycles, pid=0, cpu=-1)");
	assert_contains(pk_last_error()->why, "no hardware PMU");
	assert_int_equal(pk_attr_probe(NULL, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_path),
		cmocka_unit_test(test_read_file_and_long),
		cmocka_unit_test_setup_teardown(test_size_zero_becomes_ver7, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_e2big_zero_tail_retries, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_e2big_names_the_field, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_size_136_passes_untouched, sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(test_e2big_retry_failure_is_explained, sysfake_setup, sysfake_teardown),
		cmocka_unit_test(test_field_names_match_header),
		cmocka_unit_test(test_other_syscalls_through_seam),
		cmocka_unit_test_setup_teardown(test_seam_is_per_thread, sysfake_setup, sysfake_teardown),
		cmocka_unit_test(test_read_gate),
		cmocka_unit_test_setup_teardown(test_attr_probe_copies, sysfake_setup, sysfake_teardown),
	};

	return cmocka_run_group_tests(tests, sysfake_group_setup, sysfake_group_teardown);
}
