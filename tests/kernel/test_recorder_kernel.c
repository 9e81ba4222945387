/* SPDX-License-Identifier: MIT */
/*
 * test_recorder_kernel.c - real recordings with a software event
 * (task-clock) of a command that spins (tests/workloads' `hot`): through
 * the callback sink every sample arrives decoded with the command's pid and
 * the callback sees as many samples as the statistics report; through a
 * writer the file is one perf 6.1 reads, and `perf script` shows exactly
 * the samples the recorder counted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

struct seen {
	pid_t pid;
	uint64_t samples, other_pid, undecoded, rounds;
};

static int on_record(void *arg, const struct perf_event_header *h, const struct pk_record *rec)
{
	struct seen *s = arg;

	if (h->type == PK_DATA_RECORD_FINISHED_ROUND) {
		s->rounds++;
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (!rec) {
		s->undecoded++;
		return 0;
	}
	s->samples++;
	s->other_pid += rec->sample.pid != (uint32_t)s->pid;
	return 0;
}

/* Start `hot 300` stopped before exec, record it until it exits; with
 * `next`, switch to it once the first samples are in, while it runs. */
static void record_hot_switch(struct pk_data_writer *w, struct pk_data_writer *next, struct seen *seen,
			      struct pk_recorder_stats *st)
{
	const char *exe = getenv("PERFKIT_WORKLOAD");
	char *argv[] = { (char *)exe, (char *)"hot", (char *)"300", NULL };
	struct pk_recorder_opts o = { .size = sizeof(o) };
	struct pk_workload *wl;
	struct pk_recorder *r;
	int status;

	assert_non_null(exe);
	assert_int_equal(pk_workload_start(argv, &wl), 0);
	o.workload = pk_workload_pid(wl);
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	if (w)
		assert_int_equal(pk_recorder_set_writer(r, w), 0);
	if (seen) {
		seen->pid = o.workload;
		assert_int_equal(pk_recorder_set_callback(r, on_record, seen), 0);
	}
	assert_int_equal(pk_recorder_start(r), 0);
	assert_int_equal(pk_workload_go(wl), 0);
	/* The command's exit is the handshake: poll wakes up for data, and
	 * every 100 ms to look at the command. */
	while ((status = pk_workload_try_wait(wl)) == -EAGAIN) {
		pk_recorder_poll(r, 100);
		assert_int_equal(pk_recorder_drain(r), 0);
		st->size = sizeof(*st);
		pk_recorder_stats(r, st);
		if (next && st->samples) {
			assert_int_equal(pk_recorder_switch(r, next), 0);
			next = NULL;
		}
	}
	assert_null(next);	/* switched while the command ran */
	assert_int_equal(status, 0);
	assert_int_equal(pk_recorder_finish(r), 0);
	st->size = sizeof(*st);
	pk_recorder_stats(r, st);
	pk_recorder_free(r);
	pk_workload_free(wl);
}

static void record_hot(struct pk_data_writer *w, struct seen *seen, struct pk_recorder_stats *st)
{
	record_hot_switch(w, NULL, seen, st);
}

static void test_callback(void **state)
{
	struct seen seen = { 0 };
	struct pk_recorder_stats st;

	(void)state;
	record_hot(NULL, &seen, &st);
	assert_true(st.samples > 10);	/* 300 ms at 4000 Hz: about 1200 */
	assert_int_equal(seen.samples, st.samples);
	assert_int_equal(seen.other_pid, 0);
	assert_int_equal(seen.undecoded, 0);
	assert_true(seen.rounds > 0);
	assert_true(st.first_time > 0 && st.last_time > st.first_time);
	assert_int_equal(st.sink_error, 0);
}

/* The count of sample lines `perf script` prints for `path`, or -1 when
 * perf is not installed. */
static long perf_script_samples(const char *path)
{
	char cmd[640], line[256];
	long n = 0;
	FILE *p;

	if (system("command -v perf >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F pid 2>/dev/null", path);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p))
		n++;
	assert_int_equal(pclose(p), 0);
	return n;
}

static void test_writer(void **state)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512];
	struct pk_recorder_stats st;
	struct pk_data_writer *w;
	int fd;
	long lines;

	(void)state;
	snprintf(path, sizeof(path), "%s/pk-recorder-kernel-XXXXXX", tmp);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	record_hot(w, NULL, &st);
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_true(st.samples > 10);
	lines = perf_script_samples(path);
	unlink(path);
	if (lines < 0)
		skip();
	assert_int_equal(lines, st.samples);
}

/* The unknown-comm samples perf script prints (":PID" for a thread the
 * file never named), or -1 without perf. */
static long perf_script_unnamed(const char *path)
{
	char cmd[640], line[256];
	long n = 0;
	FILE *p;

	if (system("command -v perf >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F comm 2>/dev/null", path);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p))
		n += line[strspn(line, " ")] == ':';
	assert_int_equal(pclose(p), 0);
	return n;
}

/* pk_recorder_switch mid-recording: two files, each whole and read alone
 * by perf (the second names the command: it was synthesized again), whose
 * samples add up to what the recorder counted. */
static void test_switch(void **state)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512], path2[520];
	struct pk_recorder_stats st;
	struct pk_data_writer *w, *w2;
	long a, b, unnamed;

	(void)state;
	snprintf(path, sizeof(path), "%s/pk-recorder-switch.1", tmp);
	snprintf(path2, sizeof(path2), "%s/pk-recorder-switch.2", tmp);
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_create(path2, &w2), 0);
	record_hot_switch(w, w2, NULL, &st);
	/* The first writer came back whole from the switch; the second is the
	 * recorder's until finish. */
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_writer_finish(w2), 0);
	a = perf_script_samples(path);
	b = perf_script_samples(path2);
	unnamed = perf_script_unnamed(path2);
	unlink(path);
	unlink(path2);
	if (a < 0)
		skip();
	assert_true(a > 0);
	assert_int_equal(a + b, st.samples);
	assert_int_equal(unnamed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callback),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
