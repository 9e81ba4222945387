/* SPDX-License-Identifier: MIT */
/*
 * test_writer_clock.c - the writer's calls about the process, through the
 * sys seam's fake kernel: pk_data_writer_tick puts the records in the file
 * once a second of CLOCK_MONOTONIC has passed and not before (a fake clock,
 * no sleeping), and on every tick when the clock cannot be read, so that a
 * killed recorder still leaves its records; a file that cannot be created
 * for want of file descriptors (EMFILE, for real, under a lowered
 * RLIMIT_NOFILE) says so with the `ulimit -n` hint, with the limits when
 * getrlimit(2) gives them and without when it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "tmpdir.h"

static char dir[200];

/* ---- the clock ---------------------------------------------------------------- */

static uint64_t clock_now;	/* ns; 0: the clock fails */

static int fake_clock(clockid_t clock, struct timespec *ts)
{
	assert_int_equal(clock, CLOCK_MONOTONIC);
	if (!clock_now) {
		errno = EINVAL;
		return -1;
	}
	ts->tv_sec = (time_t)(clock_now / 1000000000u);
	ts->tv_nsec = (long)(clock_now % 1000000000u);
	return 0;
}

/* The data size the temporary file's header says now. */
static uint64_t data_size_on_disk(const char *partial)
{
	uint64_t size = 0;
	int fd = open(partial, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &size, sizeof(size), 48), (ssize_t)sizeof(size));
	close(fd);
	return size;
}

/* n 64-byte sample records more. */
static void put_samples(struct pk_data_writer *w, int n)
{
	unsigned char rec[64] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };

	memcpy(rec, &h, sizeof(h));
	for (int i = 0; i < n; i++)
		assert_int_equal(pk_data_writer_write(w, rec, sizeof(rec)), 0);
}

static void test_tick_each_second(void **state)
{
	static const struct pk__sys_ops ops = { .clock_gettime = fake_clock };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .sample_period = 1000,
				     .sample_type = PERF_SAMPLE_IP };
	struct pk_data_writer *w;
	char file[300], partial[400];
	uint64_t id = 1, before;

	(void)state;
	snprintf(file, sizeof(file), "%s/tick.data", dir);
	pk__sys_set_ops(&ops);
	clock_now = 10 * 1000000000ull;
	assert_int_equal(pk_data_writer_create(file, &w), 0);
	snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
	assert_int_equal(pk_data_writer_add_event(w, &a, "cpu-clock", &id, 1), 0);
	put_samples(w, 10);
	assert_int_equal(pk_data_writer_tick(w), 0);	/* the first tick writes */
	before = data_size_on_disk(partial);
	assert_int_equal(before % 64, 0);
	assert_true(before >= 640);
	/* Half a second later: nothing new on disk. */
	put_samples(w, 10);
	clock_now += 500000000u;
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(data_size_on_disk(partial), before);
	/* A second after the last write: the ten new records are on disk. */
	clock_now += 500000000u;
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(data_size_on_disk(partial), before + 640);
	/* No clock: every tick writes, twice in a row. */
	clock_now = 0;
	put_samples(w, 1);
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(data_size_on_disk(partial), before + 704);
	put_samples(w, 1);
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(data_size_on_disk(partial), before + 768);
	assert_int_equal(pk_data_writer_finish(w), 0);
	pk__sys_set_ops(NULL);
	assert_int_equal(unlink(file), 0);
}

/* ---- out of file descriptors ------------------------------------------------- */

static int getrlimit_fails(int resource, struct rlimit *rl)
{
	(void)resource;
	(void)rl;
	errno = EPERM;
	return -1;
}

static void test_emfile_hint(void **state)
{
	static const struct pk__sys_ops ops = { .getrlimit = getrlimit_fails };
	struct rlimit old, low;
	struct pk_data_writer *w;
	int fds[64], n = 0, fd;
	char file[300];

	(void)state;
	snprintf(file, sizeof(file), "%s/emfile.data", dir);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	/* Room for a few more files, then none. */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	low = old;
	low.rlim_cur = (rlim_t)fd + 8;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n < 64 && (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		fds[n++] = fd;
	assert_true(n < 64);
	pk__sys_set_ops(&ops);
	assert_int_equal(pk_data_writer_create(file, &w), -EMFILE);
	pk__sys_set_ops(NULL);
	assert_non_null(strstr(pk_last_error()->hint, "limit of open files"));
	assert_non_null(strstr(pk_last_error()->hint, "ulimit -n"));
	assert_null(strstr(pk_last_error()->hint, "RLIMIT_NOFILE soft"));
	assert_int_equal(pk_data_writer_create(file, &w), -EMFILE);
	assert_non_null(strstr(pk_last_error()->hint, "RLIMIT_NOFILE soft"));
	assert_non_null(strstr(pk_last_error()->hint, "ulimit -n"));
	while (n)
		close(fds[--n]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(access(file, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_tick_each_second),
		cmocka_unit_test(test_emfile_hint),
	};
	int ret;

	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-writer-clock"));
	ret = cmocka_run_group_tests(unit, NULL, NULL);
	tmp_rmtree(dir);
	return ret;
}
