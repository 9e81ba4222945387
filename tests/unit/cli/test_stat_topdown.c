/* SPDX-License-Identifier: MIT */
/*
 * test_stat_topdown.c - perfkit stat --topdown's figures and layout on
 * synthetic counts: perf 6.1's level 1 from the older slots events (each
 * count times its sysfs .scale, from the Skylake fixture), the Ice Lake
 * perf-metrics level 1 and 2 as shares of their sum, perf's full_td rule,
 * and the --metric-only line perf prints for them (table and CSV).
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

#define MAX 16

/* main.c's usage printer (main.c has perfkit's main): the pieces linked in
 * reach it only for bad options, which no test here passes. */
int cli_usage(const char *cmd, const char *fmt, ...)
{
	fail_msg("cli_usage(%s, %s) reached", cmd, fmt);
	return CLI_EXIT_USAGE;
}

struct fake {
	struct pk_event_desc d[MAX];
	struct result r[MAX];
	double vals[MAX];
	size_t nr;
};

/* The events `names` with `vals`, attached as perfkit stat attaches them. */
static void make(struct fake *f, const char *const *names, const double *vals, size_t nr)
{
	static const struct perf_event_attr raw = { .type = PERF_TYPE_RAW, .size = sizeof(raw) };

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < nr; i++) {
		f->d[i] = (struct pk_event_desc){ .size = sizeof(f->d[i]), .name = names[i] };
		f->r[i].d = &f->d[i];
		f->r[i].attr = &raw;
		f->vals[i] = vals[i];
	}
	f->nr = nr;
	stat_topdown_attach(f->r, nr);
}

/* --metric-only's header and values for f, with opts o, as one string. */
static char *metric_only(const struct fake *f, const struct stat_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	stat_metric_only_header(m, o, f->r, f->nr, f->vals, 1e9, NULL);
	stat_metric_only_values(m, o, f->r, f->nr, f->vals, 1e9, NULL);
	fclose(m);
	return text;
}

static void figure_is(const struct fake *f, size_t i, int n, double v0, const char *u0)
{
	struct pk_metric m[2];

	assert_int_equal(stat_topdown_figures(f->r, f->nr, i, f->vals, m), n);
	assert_true(m[0].value > v0 - 1e-9 && m[0].value < v0 + 1e-9);
	assert_string_equal(m[0].unit, u0);
	assert_string_equal(m[0].format, "%8.1f%%");
}

static const char *const skl[] = { "topdown-total-slots", "topdown-slots-retired",
				   "topdown-recovery-bubbles", "topdown-fetch-bubbles",
				   "topdown-slots-issued" };

/* Skylake: total slots and recovery bubbles carry .scale 2 (SMT on). */
static void test_slots_level1(void **state)
{
	static const double vals[] = { 1000, 800, 100, 300, 1100 };
	struct fake f;

	(void)state;
	make(&f, skl, vals, 5);
	assert_int_equal(f.r[0].td, TD_TOTAL_SLOTS);
	assert_true(f.r[0].td_scale == 2 && f.r[2].td_scale == 2 && f.r[1].td_scale == 1);
	/* 2000 slots: 800 retired, 1100 - 800 + 200 wasted, 300 bubbles. */
	figure_is(&f, 1, 1, 40, "retiring");
	figure_is(&f, 2, 1, 25, "bad speculation");
	figure_is(&f, 3, 1, 15, "frontend bound");
	figure_is(&f, 4, 1, 20, "backend bound");
	assert_int_equal(stat_topdown_figures(f.r, f.nr, 0, f.vals, (struct pk_metric[2]){ 0 }), -1);
}

static void test_slots_layout(void **state)
{
	static const double vals[] = { 1000, 800, 100, 300, 1100 };
	struct stat_opts o = { 0 };
	struct fake f;
	char *s;

	(void)state;
	make(&f, skl, vals, 5);
	s = metric_only(&f, &o);
	/* perf's columns: at least 20 wide, one space after each; perf 6.1
	 * heads none of them (its headings are -M metrics' alone). */
	assert_string_equal(s, "\n"
			       "               40.0%                25.0%                15.0% "
			       "               20.0% \n");
	free(s);
	o.sep = ",";
	s = metric_only(&f, &o);
	assert_string_equal(s, "\n40.0,25.0,15.0,20.0,\n");
	free(s);
}

/* No total slots: perf still gives backend bound its column, empty. */
static void test_slots_none(void **state)
{
	static const double vals[] = { 0, 800, 100, 300, 1100 };
	struct pk_metric m[2];
	struct fake f;

	(void)state;
	make(&f, skl, vals, 5);
	figure_is(&f, 1, 1, 0, "retiring");
	assert_int_equal(stat_topdown_figures(f.r, f.nr, 4, f.vals, m), 1);
	assert_null(m[0].format);
	assert_string_equal(m[0].unit, "backend bound");
}

static const char *const icl[] = { "slots", "topdown-retiring", "topdown-bad-spec",
				   "topdown-fe-bound", "topdown-be-bound", "topdown-heavy-ops",
				   "topdown-br-mispredict", "topdown-fetch-lat",
				   "topdown-mem-bound" };

static void test_perf_metrics(void **state)
{
	static const double vals[] = { 1000, 300, 100, 200, 400, 100, 50, 150, 300 };
	struct pk_metric m[2];
	struct stat_opts o = { .sep = "," };
	struct fake f;
	char *s;

	(void)state;
	make(&f, icl, vals, 9);
	assert_int_equal(f.r[0].td, TD_NONE);	/* slots itself shows no figure */
	figure_is(&f, 1, 1, 30, "Retiring");
	figure_is(&f, 2, 1, 10, "Bad Speculation");
	figure_is(&f, 3, 1, 20, "Frontend Bound");
	figure_is(&f, 4, 1, 40, "Backend Bound");
	figure_is(&f, 5, 2, 10, "Heavy Operations");
	assert_int_equal(stat_topdown_figures(f.r, f.nr, 8, f.vals, m), 2);
	assert_true(m[0].value == 30 && m[1].value > 10 - 1e-9 && m[1].value < 10 + 1e-9);
	assert_string_equal(m[1].unit, "Core Bound");
	s = metric_only(&f, &o);
	assert_string_equal(s, "\n30.0,10.0,20.0,40.0,10.0,20.0,5.0,5.0,15.0,5.0,30.0,10.0,\n");
	free(s);
}

/* The normal (not --metric-only) output of f with opts o: perf keeps a
 * level-2 pair's two figures on the line of its event. */
static char *normal(const struct fake *f, struct stat_opts *o)
{
	char *argv[] = { "true", NULL }, *text = NULL;
	struct stat_summary sum = { .runs = 1 };
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	sum.wall.mean = 1;
	o->argv = argv;
	for (size_t i = 0; i < f->nr; i++)
		((struct result *)f->r)[i].val.mean = f->vals[i];
	stat_print(m, o, f->r, f->nr, &sum);
	fclose(m);
	o->argv = NULL;
	return text;
}

static void test_level2_pair_line(void **state)
{
	static const double vals[] = { 1000, 300, 100, 200, 400, 100, 50, 150, 300 };
	struct stat_opts o = { 0 };
	struct fake f;
	char *s, *heavy, *end;

	(void)state;
	make(&f, icl, vals, 9);
	s = normal(&f, &o);
	heavy = strstr(s, "topdown-heavy-ops");
	assert_non_null(heavy);
	end = strchr(heavy, '\n');
	assert_non_null(end);
	*end = 0;
	/* perf's print_metric_std twice: " # %8.1f%% " and the unit padded
	 * to its 35 columns, then the second figure. */
	assert_string_equal(heavy, "topdown-heavy-ops                #     10.0% Heavy Operations      "
				   " #     20.0% Light Operations      ");
	assert_null(strstr(end + 1, "Light Operations"));
	free(s);
	o.sep = ",";
	s = normal(&f, &o);
	assert_non_null(strstr(s, "\n100,,topdown-heavy-ops,0,100.00,10.0,Heavy Operations,"
				  "20.0,Light Operations\n"));
	assert_non_null(strstr(s, "\n300,,topdown-mem-bound,0,100.00,30.0,Memory Bound,"
				  "10.0,Core Bound\n"));
	free(s);
}

/* perf's full_td: fewer than two level-1 shares above 0, no figures. */
static void test_perf_metrics_partial(void **state)
{
	static const double vals[] = { 1000, 300, 0, 0, 0 };
	struct fake f;

	(void)state;
	make(&f, icl, vals, 5);
	for (size_t i = 1; i < 5; i++)
		assert_int_equal(stat_topdown_figures(f.r, f.nr, i, f.vals, (struct pk_metric[2]){ 0 }), -1);
	f.r[2].err = -ENODATA;
	f.vals[3] = 200;	/* two above 0 again: the shares of the counted ones */
	figure_is(&f, 1, 1, 60, "Retiring");
}

/* Before Ice Lake perf counts the slots events per core (AGGR_CORE): two
 * cores of two SMT siblings each, every core's figures from its own
 * threads' counts summed (core 0 as test_slots_level1's totals; core 1
 * 1000 slots, 100 retired, 500 fetch bubbles, 100 issued). */
static void test_slots_per_core(void **state)
{
	static const double cpu_counts[5][4] = {
		{ 600, 400, 300, 200 }, { 500, 300, 60, 40 }, { 50, 50, 0, 0 },
		{ 100, 200, 250, 250 }, { 600, 500, 50, 50 },
	};
	struct pk_cpu_topology topo[4];
	struct pk_count per[5][4];
	struct stat_summary s;
	struct stat_opts o = { .topdown = true, .per = 'c', .sep = "," };
	int cpus[4];
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	struct fake f;

	(void)state;
	make(&f, skl, (const double[5]){ 0 }, 5);
	for (size_t c = 0; c < 4; c++) {
		for (size_t i = 0; i < 5; i++)
			per[i][c] = (struct pk_count){ sizeof(per[i][c]), (uint64_t)cpu_counts[i][c], 5, 5 };
		topo[c] = (struct pk_cpu_topology){ sizeof(topo[c]), (int)c, 0, 0, (int)c / 2, 0 };
		cpus[c] = (int)c;
	}
	for (size_t i = 0; i < 5; i++)
		f.r[i].per = per[i];
	s = (struct stat_summary){ .wall = { 1, 1, 0 }, .runs = 1, .nr_cpus = 4, .nr_threads = 1,
				   .cpus = cpus, .topo = topo };
	o.target.all_cpus = true;
	o.metric_only = true;
	assert_non_null(m = open_memstream(&text, &len));
	stat_print(m, &o, f.r, f.nr, &s);
	fclose(m);
	assert_string_equal(text, "core,cpus,\n"
			    "S0-D0-C0,2,40.0,25.0,15.0,20.0,\n"
			    "S0-D0-C1,2,10.0,0.0,50.0,40.0,\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_level1),
		cmocka_unit_test(test_slots_layout),
		cmocka_unit_test(test_slots_per_core),
		cmocka_unit_test(test_slots_none),
		cmocka_unit_test(test_perf_metrics),
		cmocka_unit_test(test_perf_metrics_partial),
		cmocka_unit_test(test_level2_pair_line),
	};
	char root[4096];
	const char *fx = getenv("PERFKIT_FIXTURES");

	/* The Skylake fixture's core PMU: its .scale files. */
	snprintf(root, sizeof(root), "%s/sysfs/intel", fx ? fx : "tests/fixtures");
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
