/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon_kernel.c - regions and markers on the real kernel with
 * software events: a region counts the pages this thread touches between
 * start and stop and nothing outside, its reads agree with read(2) on the
 * same fds, software events never take the page path (the kernel gives
 * them index 0), inherit reaches a thread created later, and markers sum
 * nested regions per name and per thread into a table.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "counter/counter.h"

#define PAGES 256

static void touch_fresh_pages(int pages)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)pages * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < pages; i++)
		p[i * page] = 1;	/* one minor fault per page */
	munmap((void *)p, (size_t)pages * page);
}

static void test_region_counts_between_start_and_stop(void **state)
{
	struct pk_region *r;
	struct pk_count c[2] = { { .size = sizeof(c[0]) } }, g[2] = { { .size = sizeof(g[0]) } };
	const struct perf_event_mmap_page *pc;
	struct pk__page_reading pr;
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	(void)state;
	assert_int_equal(pk_region_open("task-clock,page-faults", NULL, &r), 0);
	touch_fresh_pages(PAGES);		/* before start: not counted */
	assert_int_equal(pk_region_start(r), 0);
	touch_fresh_pages(PAGES);
	assert_int_equal(pk_region_stop(r), 0);
	touch_fresh_pages(PAGES);		/* after stop: not counted */
	assert_int_equal(pk_region_read(r, c, 2), 2);
	assert_true(c[1].value >= PAGES && c[1].value < 2 * PAGES);
	assert_true(c[0].value > 0);		/* task-clock, ns */
	assert_int_equal(c[0].enabled, c[0].running);	/* software: never multiplexed */
	/* The same fds read with read(2) through the evlist agree exactly. */
	assert_int_equal(pk_evlist_read_group(pk_region_evlist(r), 0, 0, 0, g, 2), 2);
	assert_int_equal(g[0].value, c[0].value);
	assert_int_equal(g[1].value, c[1].value);
	assert_int_equal(g[1].id, c[1].id);
	/* The page is mapped, and for software events the kernel says index 0:
	 * the page cannot give the count, so every read was a read(2). */
	fd = pk_evlist_fd(pk_region_evlist(r), 1, 0, 0);
	assert_true(fd >= 0);
	pc = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(pc != MAP_FAILED);
	assert_int_equal(pc->index, 0);
	assert_int_equal(pk__page_read(pc, &pr), -EAGAIN);
	munmap((void *)pc, (size_t)page);
	assert_int_equal(pk_region_fast_reads(r), 0);
	/* Reset zeroes; start again counts again. */
	assert_int_equal(pk_region_reset(r), 0);
	assert_int_equal(pk_region_read(r, c, 2), 2);
	assert_int_equal(c[1].value, 0);
	pk_region_free(r);
}

/* A stopped region stands still, members and time alike (start and stop
 * switch the leader alone; the members follow it), and a second start
 * counts on from where it stopped. */
static void test_region_stopped_stands_still(void **state)
{
	struct pk_region *r;
	struct pk_count a[2] = { { .size = sizeof(a[0]) } }, b[2] = { { .size = sizeof(b[0]) } };

	(void)state;
	assert_int_equal(pk_region_open("task-clock,page-faults", NULL, &r), 0);
	assert_int_equal(pk_region_start(r), 0);
	touch_fresh_pages(PAGES);
	assert_int_equal(pk_region_stop(r), 0);
	assert_int_equal(pk_region_read(r, a, 2), 2);
	touch_fresh_pages(PAGES);
	assert_int_equal(pk_region_read(r, b, 2), 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(b[i].value, a[i].value);
		assert_int_equal(b[i].enabled, a[i].enabled);
		assert_int_equal(b[i].running, a[i].running);
	}
	assert_true(a[1].value >= PAGES);
	assert_int_equal(pk_region_start(r), 0);
	touch_fresh_pages(PAGES);
	assert_int_equal(pk_region_stop(r), 0);
	assert_int_equal(pk_region_read(r, b, 2), 2);
	assert_true(b[1].value >= a[1].value + PAGES && b[1].value < a[1].value + 2 * PAGES);
	assert_true(b[0].value > a[0].value && b[0].enabled > a[0].enabled);
	pk_region_free(r);
}

static void *touch_thread(void *arg)
{
	touch_fresh_pages(*(int *)arg);
	return NULL;
}

static void test_inherit_counts_new_threads(void **state)
{
	struct pk_region_opts o = { .size = sizeof(o), .inherit = true };
	struct pk_region *r;
	struct pk_count c = { .size = sizeof(c) };
	pthread_t th;
	int pages = 4 * PAGES;

	(void)state;
	assert_int_equal(pk_region_open("page-faults", &o, &r), 0);
	assert_int_equal(pk_region_start(r), 0);
	assert_int_equal(pthread_create(&th, NULL, touch_thread, &pages), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(pk_region_stop(r), 0);
	assert_int_equal(pk_region_read(r, &c, 1), 1);
	assert_true(c.value >= (uint64_t)pages);
	pk_region_free(r);
}

static void test_bad_event_string(void **state)
{
	struct pk_region *r = NULL;

	(void)state;
	assert_int_equal(pk_region_open("no-such-event-xyz", NULL, &r), -ENOENT);
	assert_null(r);
	assert_int_equal(pk_markers_new("{task-clock", (struct pk_markers **)&r), -EINVAL);
}

struct worker {
	struct pk_markers *m;
	pid_t tid;
};

static void *marker_thread(void *arg)
{
	struct worker *w = arg;

	w->tid = gettid();
	assert_int_equal(pk_markers_begin(w->m, "inner"), 0);
	touch_fresh_pages(2 * PAGES);
	assert_int_equal(pk_markers_end(w->m, "inner"), 0);
	return NULL;
}

static void find_row(struct pk_markers *m, const char *name, pid_t tid, struct pk_marker_row *row,
		     uint64_t *v)
{
	for (size_t i = 0; i < pk_markers_nr(m); i++) {
		assert_int_equal(pk_markers_get(m, i, row, v, 2), 0);
		if (!strcmp(row->name, name) && row->tid == tid)
			return;
	}
	fail_msg("no row %s/%d", name, (int)tid);
}

static void test_markers_nest_per_name_and_thread(void **state)
{
	struct pk_markers *m;
	struct pk_marker_row row = { .size = sizeof(row) };
	struct worker w;
	uint64_t v[2], inner;
	pthread_t th;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(pk_markers_new("task-clock,page-faults", &m), 0);
	assert_int_equal(pk_markers_nr_events(m), 2);
	assert_string_equal(pk_markers_event(m, 1), "page-faults");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pk_markers_begin(m, "outer"), 0);
		touch_fresh_pages(PAGES);
		assert_int_equal(pk_markers_begin(m, "inner"), 0);
		touch_fresh_pages(PAGES);
		/* Ending the outer region first is an error, and changes nothing. */
		assert_int_equal(pk_markers_end(m, "outer"), -EINVAL);
		assert_non_null(strstr(pk_last_error()->why, "\"inner\""));
		assert_int_equal(pk_markers_end(m, "inner"), 0);
		assert_int_equal(pk_markers_end(m, "outer"), 0);
	}
	assert_int_equal(pk_markers_end(m, "outer"), -EINVAL);	/* nothing begun */
	find_row(m, "inner", gettid(), &row, v);
	assert_int_equal(row.calls, 3);
	assert_true(v[1] >= 3 * PAGES && v[1] < 4 * PAGES);
	assert_true(row.time_ns > 0 && v[0] > 0);
	inner = v[1];
	find_row(m, "outer", gettid(), &row, v);
	assert_int_equal(row.calls, 3);
	assert_true(v[1] >= inner + 3 * PAGES);
	/* Another thread's region is its own row. */
	w.m = m;
	assert_int_equal(pthread_create(&th, NULL, marker_thread, &w), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	find_row(m, "inner", w.tid, &row, v);
	assert_int_equal(row.calls, 1);
	assert_true(v[1] >= 2 * PAGES && v[1] < 3 * PAGES);
	assert_int_equal(pk_markers_nr(m), 3);
	/* Rows in order of the names' first begin: outer, inner (two threads). */
	assert_int_equal(pk_markers_get(m, 0, &row, NULL, 0), 0);
	assert_string_equal(row.name, "outer");
	assert_int_equal(pk_markers_get(m, 3, &row, NULL, 0), -ERANGE);
	/* The table has a header and one line per row. */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(pk_markers_print(m, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "page-faults"));
	assert_non_null(strstr(text, "outer"));
	{
		char tid[32];

		snprintf(tid, sizeof(tid), " %d ", (int)w.tid);
		assert_non_null(strstr(text, tid));
	}
	free(text);
	pk_markers_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_counts_between_start_and_stop),
		cmocka_unit_test(test_region_stopped_stands_still),
		cmocka_unit_test(test_inherit_counts_new_threads),
		cmocka_unit_test(test_bad_event_string),
		cmocka_unit_test(test_markers_nest_per_name_and_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
