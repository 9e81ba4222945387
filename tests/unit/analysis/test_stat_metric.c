/* SPDX-License-Identifier: MIT */
/*
 * test_stat_metric.c - perfkit stat -M's display half on counts: the line
 * its value goes on (its expression's first event), and the value with
 * perf's format and unit column (IPC "%8.2f" "IPC"; branch_misprediction_ratio "%8.1f"
 * "%  branch_misprediction_ratio"), none when an event did not count.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stat.h"

static const struct pk_metric_def *row(const char *name)
{
	const struct pk_metric_def *m;

	for (size_t i = 0; (m = pk_metric_def_get(i)); i++)
		if (!strcmp(m->name, name))
			return m;
	fail_msg("no row %s", name);
	return NULL;
}

/* The lines of `names` (as parsed, in order) with metric `name` attached. */
static void lines(struct result *r, struct pk_event_desc *d, const char *const *names, size_t nr,
		  const struct pk_metric_def **mdefs, const char *name)
{
	struct stat_opts o = { .mdefs = mdefs, .nr_mdefs = 1 };

	mdefs[0] = row(name);
	for (size_t i = 0; i < nr; i++) {
		d[i] = (struct pk_event_desc){ .size = sizeof(d[i]), .name = names[i] };
		r[i].d = &d[i];
	}
	stat_metric_attach(&o, r, nr);
}

static void test_ipc(void **state)
{
	static const char *const names[] = { "task-clock", "CPU_CLK_UNHALTED:THREAD_P",
					     "INST_RETIRED:ANY_P" };
	const struct pk_metric_def *mdefs[1];
	struct pk_event_desc d[3];
	struct result r[3] = { 0 };
	struct pk_metric m;
	double vals[] = { 1e6, 1200, 3000 };

	(void)state;
	lines(r, d, names, 3, mdefs, "IPC");
	/* On the line of the expression's first event, not the list's. */
	assert_null(r[0].metric);
	assert_null(r[1].metric);
	assert_ptr_equal(r[2].metric, mdefs[0]);
	assert_int_equal(stat_metric_figure(r, 3, 2, vals, &m), 1);
	assert_true(m.value == 2.5);
	assert_string_equal(m.format, "%8.2f");
	assert_string_equal(m.unit, "IPC");
	assert_int_equal(stat_metric_figure(r, 3, 1, vals, &m), 0);
	r[1].err = -ENODATA;	/* <not supported>: no figure */
	assert_int_equal(stat_metric_figure(r, 3, 2, vals, &m), 0);
}

static void test_ratio(void **state)
{
	static const char *const names[] = { "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
					     "RETIRED_BRANCH_INSTRUCTIONS" };
	const struct pk_metric_def *mdefs[1];
	struct pk_event_desc d[2];
	struct result r[2] = { 0 };
	struct pk_metric m;
	double vals[] = { 12, 400 };

	(void)state;
	lines(r, d, names, 2, mdefs, "branch_misprediction_ratio");
	assert_int_equal(stat_metric_figure(r, 2, 0, vals, &m), 1);
	assert_true(m.value == 3);
	assert_string_equal(m.format, "%8.1f");
	assert_string_equal(m.unit, "%  branch_misprediction_ratio");
	vals[1] = 0;	/* d_ratio: 0 over a zero denominator */
	assert_int_equal(stat_metric_figure(r, 2, 0, vals, &m), 1);
	assert_true(m.value == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipc),
		cmocka_unit_test(test_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
