/* SPDX-License-Identifier: MIT */
/*
 * test_evlist_kernel.c - the evlist on the real kernel with software events:
 * a deterministic workload (touching fresh pages) is counted exactly by a
 * group, nothing is counted while disabled, reset zeroes, and software
 * events are never multiplexed (enabled == running).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

#define PAGES 512

static void touch_fresh_pages(void)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < PAGES; i++)
		p[i * page] = 1;	/* one minor fault per page */
	munmap((void *)p, PAGES * page);
}

static void test_count_page_faults(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t) };
	struct pk_count tc = { .size = sizeof(tc) }, pf = { .size = sizeof(pf) }, mn = { .size = sizeof(mn) };
	int err;

	(void)state;
	assert_int_equal(pk_events_parse("{task-clock,page-faults},minor-faults", NULL, &ev), 3);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	/* The default target: the calling thread (pid 0) on any CPU. */
	assert_int_equal(pk_evlist_cpu(l, 0), PK_CPU_ANY);
	assert_int_equal(pk_evlist_thread(l, 0), 0);
	assert_int_equal(pk_evlist_cpu(l, 1), -ERANGE);
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM)
		skip();	/* perf_event_paranoid forbids even self-counting here */
	assert_int_equal(err, 0);

	touch_fresh_pages();	/* disabled: must not count */
	assert_int_equal(pk_evlist_read(l, 1, &pf), 0);
	assert_int_equal(pf.value, 0);

	assert_int_equal(pk_evlist_enable(l), 0);
	touch_fresh_pages();
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_int_equal(pk_evlist_read(l, 0, &tc), 0);
	assert_int_equal(pk_evlist_read(l, 1, &pf), 0);
	assert_int_equal(pk_evlist_read(l, 2, &mn), 0);
	/* Each fresh page faults once; the test's own code may add a few. */
	if (pf.value < PAGES || pf.value > PAGES + 64)
		fail_msg("page-faults %llu for %d fresh pages", (unsigned long long)pf.value, PAGES);
	assert_true(mn.value >= PAGES && mn.value <= PAGES + 64);
	assert_true(tc.value > 0);
	assert_int_equal(pf.enabled, pf.running);	/* software events are not multiplexed */

	assert_int_equal(pk_evlist_reset(l), 0);
	assert_int_equal(pk_evlist_read(l, 1, &pf), 0);
	assert_int_equal(pf.value, 0);
	pk_evlist_free(l);
}


static struct pk_evlist *open_self(const char *spec, bool group_read)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .group_read = group_read };

	assert_true(pk_events_parse(spec, NULL, &ev) > 0);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	return l;
}

/* One read(2) returns the whole group, with the ids PERF_EVENT_IOC_ID gives. */
static void test_group_read_and_ids(void **state)
{
	struct pk_evlist *l = open_self("{task-clock,page-faults,minor-faults},cs", true);
	struct pk_count g[4] = { { .size = sizeof(g[0]) } }, one = { .size = sizeof(one) };
	uint64_t id0, id2;

	(void)state;
	assert_int_equal(pk_evlist_enable(l), 0);
	touch_fresh_pages();
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_int_equal(pk_evlist_read_group(l, 0, 0, 0, g, 4), 3);
	assert_true(g[0].value > 0);
	assert_true(g[1].value >= PAGES && g[2].value >= PAGES);
	/* Read together: the group shares one enabled/running time. */
	assert_int_equal(g[1].enabled, g[0].enabled);
	assert_int_equal(pk_evlist_id(l, 0, 0, 0, &id0), 0);
	assert_int_equal(pk_evlist_id(l, 2, 0, 0, &id2), 0);
	assert_int_equal(g[0].id, id0);
	assert_int_equal(g[2].id, id2);
	assert_true(id0 != id2);
	/* The leader read alone still gives its own count. */
	assert_int_equal(pk_evlist_read_one(l, 0, 0, 0, &one), 0);
	assert_int_equal(one.value, g[0].value);
	/* A member does not lead a group; cs leads its own group of one. */
	assert_int_equal(pk_evlist_read_group(l, 1, 0, 0, g, 4), -EINVAL);
	assert_int_equal(pk_evlist_read_group(l, 3, 0, 0, g, 4), 1);
	pk_evlist_free(l);
}

/* A group opened to sample its reads (PERF_SAMPLE_READ, PERF_FORMAT_GROUP
 * on every event, as the recorder opens an S group): each event read alone
 * gives its own count and id, not its leader's, and inherit is off. */
static void test_sample_read_group_members(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .inherit = true };
	struct pk_count c[2] = { { .size = sizeof(c[0]) }, { .size = sizeof(c[1]) } };
	uint64_t id[2];

	(void)state;
	assert_true(pk_events_parse("{task-clock,page-faults}", NULL, &ev) > 0);
	for (size_t i = 0; i < 2; i++) {
		pk_events_attr_mut(ev, i)->sample_type |= PERF_SAMPLE_READ;
		pk_events_attr_mut(ev, i)->read_format |= PERF_FORMAT_GROUP;
	}
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(pk_evlist_enable(l), 0);
	touch_fresh_pages();
	assert_int_equal(pk_evlist_disable(l), 0);
	for (size_t i = 0; i < 2; i++) {
		assert_true(pk_evlist_attr(l, i)->read_format & PERF_FORMAT_GROUP);
		assert_false(pk_evlist_attr(l, i)->inherit);
		assert_int_equal(pk_evlist_id(l, i, 0, 0, &id[i]), 0);
		assert_int_equal(pk_evlist_read_one(l, i, 0, 0, &c[i]), 0);
		assert_int_equal(c[i].id, id[i]);
	}
	assert_true(c[1].value >= PAGES && c[1].value <= PAGES + 64);
	pk_evlist_free(l);
}

/* prctl stops every counter on this process, whoever opened it. */
static void test_prctl(void **state)
{
	struct pk_evlist *l = open_self("page-faults", false);
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	assert_int_equal(pk_evlist_enable(l), 0);
	assert_int_equal(pk_task_counters_enable(false), 0);
	touch_fresh_pages();
	assert_int_equal(pk_evlist_read(l, 0, &c), 0);
	assert_true(c.value < 16);	/* only the faults before the prctl */
	assert_int_equal(pk_task_counters_enable(true), 0);
	touch_fresh_pages();
	assert_int_equal(pk_evlist_read(l, 0, &c), 0);
	assert_true(c.value >= PAGES);
	pk_evlist_free(l);
}

/* PERIOD and REFRESH are for sampling events; counting ones get EINVAL. */
static void test_period_refresh(void **state)
{
	struct pk_evlist *l = open_self("task-clock/period=1000000/,page-faults", false);

	(void)state;
	assert_int_equal(pk_evlist_period(l, 0, 2000000), 0);
	assert_int_equal(pk_evlist_refresh(l, 0, 1), 0);
	assert_int_equal(pk_evlist_period(l, 1, 100), -EINVAL);
	assert_non_null(strstr(pk_last_error()->what, "ioctl"));
	assert_int_equal(pk_evlist_period(l, 2, 100), -ERANGE);
	pk_evlist_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_page_faults),
		cmocka_unit_test(test_sample_read_group_members),
		cmocka_unit_test(test_group_read_and_ids),
		cmocka_unit_test(test_prctl),
		cmocka_unit_test(test_period_refresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
