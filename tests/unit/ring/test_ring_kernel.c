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
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += i;
		clock_gettime(CLOCK_MONOTONIC, &t);
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
	assert_int_equal(pk_rings_count(rs), 1);	/* one CPU x thread: one ring for both */
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
	/* 500 page-fault samples routed into task-clock's ring, plus its ticks. */
	if (samples < 500 + 100)
		fail_msg("%u samples (and %u other records); expected at least 600", samples, other);
	pk_rings_free(rs);
	pk_evlist_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_through_one_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
