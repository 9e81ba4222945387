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
	struct pk_count tc, pf, mn;
	int err;

	(void)state;
	assert_int_equal(pk_events_parse("{task-clock,page-faults},minor-faults", NULL, &ev), 3);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_page_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
