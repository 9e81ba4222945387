/* SPDX-License-Identifier: MIT */
/*
 * test_calls.c - the contract of calls.c's small wrappers, the real calls
 * and a fake kernel failing each: pk__sys_open_dir (a real missing
 * directory, a file that is not one, a fake EMFILE), pk__sys_clock_gettime
 * (a clock the kernel lacks; a fake failure zeroes the time),
 * pk__sys_sysconf (-1 without errno is "not known": -EINVAL; with errno,
 * that errno; 0 is no value either), pk__sys_page_size (a fake's 64 KiB
 * pages, 4096 when the fake fails), pk__sys_uname, pk__sys_getrlimit and
 * pk__sys_gettid.  Each failure is a negative errno and records nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"

static int fail_errno;	/* what every fake fails with; 0: sysconf gives -1 without errno */

static int open_fails(const char *path, int flags)
{
	(void)path;
	(void)flags;
	errno = fail_errno;
	return -1;
}

static int clock_fails(clockid_t c, struct timespec *ts)
{
	(void)c;
	ts->tv_sec = 99;	/* what a failing call may leave */
	errno = fail_errno;
	return -1;
}

static long sysconf_result = -1;

static long sysconf_fake(int name)
{
	(void)name;
	if (sysconf_result < 0 && fail_errno)
		errno = fail_errno;
	return sysconf_result;
}

static int uname_fails(struct utsname *u)
{
	u->nodename[0] = 'x';
	errno = fail_errno;
	return -1;
}

static int getrlimit_fails(int res, struct rlimit *rl)
{
	(void)res;
	(void)rl;
	errno = fail_errno;
	return -1;
}

static pid_t gettid_fake(void) { return 4242; }

static const struct pk__sys_ops fake = {
	.open = open_fails, .clock_gettime = clock_fails, .sysconf = sysconf_fake, .uname = uname_fails,
	.getrlimit = getrlimit_fails, .gettid = gettid_fake,
};

static void test_real(void **state)
{
	struct timespec ts;
	struct utsname u;
	struct rlimit rl;
	int fd;

	(void)state;
	pk__error_clear();
	fd = pk__sys_open_dir("/");
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	assert_int_equal(pk__sys_open_dir("/perfkit-no-such-dir"), -ENOENT);
	assert_int_equal(pk__sys_open_dir("/dev/null"), -ENOTDIR);
	assert_int_equal(pk__sys_clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	assert_true(ts.tv_sec > 0 || ts.tv_nsec > 0);
	/* A clock id no kernel has. */
	assert_int_equal(pk__sys_clock_gettime((clockid_t)1000, &ts), -EINVAL);
	assert_int_equal(ts.tv_sec, 0);
	assert_int_equal(pk__sys_sysconf(_SC_PAGESIZE), sysconf(_SC_PAGESIZE));
	assert_int_equal(pk__sys_sysconf(-12345), -EINVAL);
	assert_int_equal(pk__sys_page_size(), (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(pk__sys_uname(&u), 0);
	assert_string_equal(u.sysname, "Linux");
	assert_int_equal(pk__sys_getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(pk__sys_getrlimit(-1, &rl), -EINVAL);
	assert_int_equal(pk__sys_gettid(), (pid_t)syscall(SYS_gettid));
	assert_int_equal(pk_last_error()->code, 0);	/* nothing recorded */
}

static void test_fake_failures(void **state)
{
	struct timespec ts;
	struct utsname u;
	struct rlimit rl;

	(void)state;
	pk__error_clear();
	pk__sys_set_ops(&fake);
	fail_errno = EMFILE;
	assert_int_equal(pk__sys_open_dir("/"), -EMFILE);
	fail_errno = EPERM;
	assert_int_equal(pk__sys_clock_gettime(CLOCK_REALTIME, &ts), -EPERM);
	assert_int_equal(ts.tv_sec, 0);	/* zeroed, not what the call left */
	assert_int_equal(pk__sys_uname(&u), -EPERM);
	assert_int_equal(u.nodename[0], '\0');
	assert_int_equal(pk__sys_getrlimit(RLIMIT_NOFILE, &rl), -EPERM);
	/* sysconf: -1 with errno, -1 without (not known), 0, and a value. */
	fail_errno = EINVAL;
	assert_int_equal(pk__sys_sysconf(_SC_NPROCESSORS_ONLN), -EINVAL);
	fail_errno = 0;
	assert_int_equal(pk__sys_sysconf(_SC_NPROCESSORS_ONLN), -EINVAL);
	assert_int_equal(pk__sys_page_size(), 4096);
	sysconf_result = 0;
	assert_int_equal(pk__sys_sysconf(_SC_NPROCESSORS_ONLN), -EINVAL);
	sysconf_result = 65536;
	assert_int_equal(pk__sys_sysconf(_SC_PAGESIZE), 65536);
	assert_int_equal(pk__sys_page_size(), 65536);
	assert_int_equal(pk__sys_gettid(), 4242);
	pk__sys_set_ops(NULL);
	assert_int_equal(pk_last_error()->code, 0);
	assert_int_equal(pk__sys_page_size(), (size_t)sysconf(_SC_PAGESIZE));
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_fake_failures),
	};

	return cmocka_run_group_tests(unit, NULL, NULL);
}
