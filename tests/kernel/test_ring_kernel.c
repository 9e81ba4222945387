/* SPDX-License-Identifier: MIT */
/*
 * test_ring_kernel.c - real samples through real rings: a task-clock
 * sampling every 100 us and a page-fault event sampling every fault, in one
 * group, share one ring (SET_OUTPUT), and every record comes out whole.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

static void busy_and_touch(void)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, 500 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct timespec t0, t;
	volatile unsigned long x = 0;

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < 500; i++)
		p[i * page] = 1;
	munmap((void *)p, 500 * page);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 30000000L);
}

static void test_samples_through_one_ring(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	struct pk_target t = { .size = sizeof(t) };
	const struct perf_event_header *h;
	unsigned samples = 0, other = 0;
	int err, n;

	(void)state;
	assert_int_equal(pk_events_parse("{task-clock/period=100000/,page-faults/period=1/}", NULL, &ev), 2);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM) {
		pk_evlist_free(l);
		skip();	/* perf_event_paranoid forbids sampling here */
	}
	assert_int_equal(err, 0);
	assert_int_equal(pk_rings_map(l, 64, &rs), 0);
	assert_int_equal(pk_rings_nr(rs), 1);	/* one CPU x thread: one ring for both */
	assert_int_equal(pk_ring_size(pk_rings_get(rs, 0)), 64 * sysconf(_SC_PAGESIZE));
	assert_int_equal(pk_evlist_enable(l), 0);
	busy_and_touch();
	assert_int_equal(pk_evlist_disable(l), 0);
	while ((n = pk_ring_next(pk_rings_get(rs, 0), &h)) == 1) {
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else
			other++;
		assert_true(h->size >= sizeof(*h) && h->size % 8 == 0);
	}
	assert_int_equal(n, 0);
	pk_ring_consume(pk_rings_get(rs, 0));
	/* Software events have no AUX area: the refusal says so. */
	assert_true(pk_rings_map_aux(rs, 0, 4) < 0);
	assert_non_null(strstr(pk_last_error()->why, "without an AUX area"));
	assert_int_equal(pk_rings_map_aux(rs, 0, 3), -EINVAL);
	/* 500 page-fault samples routed into task-clock's ring, plus its ticks. */
	if (samples < 500 + 100)
		fail_msg("%u samples (and %u other records); expected at least 600", samples, other);
	pk_rings_free(rs);
	pk_evlist_free(l);
}


/* Spin for `ms` of this thread's own CPU time, so a busy machine (CI runs
 * suites side by side) does not cut the samples a test expects. */
static void busy_ms(long ms)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L < ms);
}

/* An overwrite ring keeps the newest samples: read paused, newest first. */
static void test_overwrite_ring(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	struct pk_target t = { .size = sizeof(t) };
	const struct perf_event_header *h;
	uint64_t last = UINT64_MAX;
	unsigned n = 0;
	int err;

	(void)state;
	assert_int_equal(pk_events_parse("task-clock/period=100000/", NULL, &ev), 1);
	pk_events_attr_mut(ev, 0)->sample_type = PERF_SAMPLE_TIME;
	pk_events_attr_mut(ev, 0)->write_backward = 1;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM || err == -EINVAL) {
		pk_evlist_free(l);
		skip();	/* no sampling here, or a kernel before write_backward (4.7) */
	}
	assert_int_equal(err, 0);
	assert_int_equal(pk_rings_map(l, 2, &rs), 0);	/* 8 KiB: 512 samples of 16 bytes */
	/* The normal ring of the slot (empty: no normal event), then the overwrite one. */
	assert_int_equal(pk_rings_nr(rs), 2);
	assert_false(pk_ring_is_overwrite(pk_rings_get(rs, 0)));
	assert_true(pk_ring_is_overwrite(pk_rings_get(rs, 1)));
	assert_int_equal(pk_evlist_enable(l), 0);
	busy_ms(150);		/* ~1500 samples: the ring wraps about three times */
	assert_int_equal(pk_ring_next(pk_rings_get(rs, 0), &h), 0);
	assert_int_equal(pk_ring_pause(pk_rings_get(rs, 1), true), 0);
	while (pk_ring_next(pk_rings_get(rs, 1), &h) == 1) {
		uint64_t time;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&time, h + 1, sizeof(time));
		assert_true(time < last);	/* newest first */
		last = time;
		n++;
	}
	pk_ring_consume(pk_rings_get(rs, 1));
	assert_int_equal(pk_ring_pause(pk_rings_get(rs, 1), false), 0);
	/* Nearly a full ring of the newest samples, never more than fits. */
	if (n < 400 || n > 512)
		fail_msg("%u samples read from an 8 KiB overwrite ring", n);
	pk_rings_free(rs);
	pk_evlist_free(l);
}

/* Polling a task's ring reports the task's exit (POLLHUP). */
static void test_poll_hangup(void **state)
{
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL };
	struct pk_workload *w;
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	const struct perf_event_header *h;
	unsigned records = 0;
	struct timespec t0, now;
	pid_t pid;
	int err;

	(void)state;
	assert_int_equal(pk_workload_start(argv, &w), 0);
	pid = pk_workload_pid(w);
	struct pk_target t = { .size = sizeof(t), .threads = &pid, .nr_threads = 1, .enable_on_exec = true };
	assert_int_equal(pk_events_parse("task-clock/period=100000/", NULL, &ev), 1);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM) {
		pk_workload_free(w);
		pk_evlist_free(l);
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(pk_rings_map(l, 8, &rs), 0);
	assert_int_equal(pk_workload_go(w), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (pk_rings_hangup(rs) || now.tv_sec - t0.tv_sec > 10)
			break;
		assert_true(pk_rings_poll(rs, 100) >= 0);
		while (pk_ring_next(pk_rings_get(rs, 0), &h) == 1)
			records++;
		pk_ring_consume(pk_rings_get(rs, 0));
	}
	assert_true(pk_rings_hangup(rs));
	assert_true(records > 10);
	assert_int_equal(pk_workload_wait(w), 0);
	pk_rings_free(rs);
	pk_evlist_free(l);
	pk_workload_free(w);
}


/* A normal and an overwrite event on one thread: two rings, each with its own. */
static void test_mixed_directions(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	struct pk_target t = { .size = sizeof(t) };
	const struct perf_event_header *h;
	unsigned fwd = 0, back = 0;
	int err;

	(void)state;
	assert_int_equal(pk_events_parse("task-clock/period=100000/,cpu-clock/period=100000/", NULL, &ev), 2);
	pk_events_attr_mut(ev, 1)->write_backward = 1;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM || err == -EINVAL) {
		pk_evlist_free(l);
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(pk_rings_map(l, 8, &rs), 0);
	assert_int_equal(pk_rings_nr(rs), 2);
	assert_int_equal(pk_evlist_enable(l), 0);
	busy_ms(20);
	assert_int_equal(pk_evlist_disable(l), 0);
	while (pk_ring_next(pk_rings_get(rs, 0), &h) == 1)
		fwd += h->type == PERF_RECORD_SAMPLE;
	while (pk_ring_next(pk_rings_get(rs, 1), &h) == 1)
		back += h->type == PERF_RECORD_SAMPLE;
	assert_true(fwd > 50 && back > 50);
	pk_rings_free(rs);
	pk_evlist_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_through_one_ring),
		cmocka_unit_test(test_overwrite_ring),
		cmocka_unit_test(test_poll_hangup),
		cmocka_unit_test(test_mixed_directions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
