/* SPDX-License-Identifier: MIT */
/*
 * test_stat_tx.c - perfkit stat -T's figures on synthetic counts, as perf
 * 6.1's stat-shadow.c derives them: transactional and aborted cycles as
 * shares of cycles, cycles per transaction and per elision, no number
 * where perf prints none, and the CSV line perf writes for them; and
 * --smi-cost's SMI cycles% and SMI#.
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

#define MAX 8

/* main.c's usage printer: the pieces linked in reach it only for bad
 * options, which no test here passes. */
int cli_usage(const char *cmd, const char *fmt, ...)
{
	fail_msg("cli_usage(%s, %s) reached", cmd, fmt);
	return CLI_EXIT_USAGE;
}

struct fake {
	struct pk_event_desc d[MAX];
	struct perf_event_attr a[MAX];
	struct result r[MAX];
	double vals[MAX];
	size_t nr;
};

/* "cycles" is the hardware event; the others raw, as cpu/.../ parse. */
static void make(struct fake *f, const char *const *names, const double *vals, size_t nr)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < nr; i++) {
		f->d[i] = (struct pk_event_desc){ .size = sizeof(f->d[i]), .name = names[i] };
		f->a[i] = (struct perf_event_attr){ .size = sizeof(f->a[i]), .type = PERF_TYPE_RAW,
						    .config = 0x3c };
		if (!strcmp(names[i], "cycles"))
			f->a[i].type = PERF_TYPE_HARDWARE, f->a[i].config = PERF_COUNT_HW_CPU_CYCLES;
		f->r[i].d = &f->d[i];
		f->r[i].attr = &f->a[i];
		f->r[i].val.mean = vals[i];
		f->vals[i] = vals[i];
	}
	f->nr = nr;
}

static const char *const tx[] = { "cycles", "cpu/cycles-t/", "cpu/cycles-ct/", "cpu/tx-start/",
				  "cpu/el-start/" };

static void figure_is(const struct fake *f, size_t i, double v, const char *unit, const char *fmt)
{
	struct pk_metric m[2];

	assert_int_equal(stat_tx_figures(f->r, f->nr, i, f->vals, m), 1);
	assert_true(m[0].value > v - 1e-9 && m[0].value < v + 1e-9);
	assert_string_equal(m[0].unit, unit);
	assert_string_equal(m[0].format, fmt);
}

static void test_figures(void **state)
{
	static const double vals[] = { 1000, 400, 300, 20, 8 };
	struct fake f;

	(void)state;
	make(&f, tx, vals, 5);
	figure_is(&f, 1, 40.0, "transactional cycles", "%7.2f%%");
	/* in tx 400, of which 300 checkpointed and kept: 100 of 1000 aborted */
	figure_is(&f, 2, 10.0, "aborted cycles", "%7.2f%%");
	figure_is(&f, 3, 20.0, "cycles / transaction", "%8.0f");
	figure_is(&f, 4, 50.0, "cycles / elision", "%8.0f");
	/* cycles itself is no transaction event: stat_figures goes on to GHz */
	{
		struct pk_metric m[2];

		assert_int_equal(stat_tx_figures(f.r, f.nr, 0, f.vals, m), -1);
	}
}

/* perf's clamp: more checkpointed cycles than cycles in tx abort none. */
static void test_clamp_and_missing(void **state)
{
	static const double vals[] = { 1000, 200, 300, 0, 0 };
	struct pk_metric m[2];
	struct fake f;

	(void)state;
	make(&f, tx, vals, 5);
	figure_is(&f, 2, 0.0, "aborted cycles", "%7.2f%%");
	/* no transactions started: perf's ratio stays 0 */
	figure_is(&f, 3, 0.0, "cycles / transaction", "%8.0f");
	/* without cycles: perf prints no number for the shares */
	make(&f, tx + 1, vals + 1, 4);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 0, f.vals, m), 0);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 1, f.vals, m), 0);
	/* the per-transaction figure needs cycles-t, the elision one does not */
	make(&f, tx + 3, vals + 3, 2);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 0, f.vals, m), 0);
	figure_is(&f, 1, 0.0, "cycles / elision", "%8.0f");
	/* a cycles-t of another privilege level is another context */
	make(&f, tx, (const double[]){ 1000, 400, 300, 20, 8 }, 5);
	f.a[0].exclude_kernel = 1;
	assert_int_equal(stat_tx_figures(f.r, f.nr, 1, f.vals, m), 0);
}

/* --smi-cost: perf's print_smi_cost on msr/smi/'s line. */
static void test_smi(void **state)
{
	static const char *const smi[] = { "msr/aperf/", "msr/smi/", "cycles" };
	struct pk_metric m[2];
	struct fake f;

	(void)state;
	make(&f, smi, (const double[]){ 1000, 2, 900 }, 3);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 1, f.vals, m), 2);
	assert_true(m[0].value > 10.0 - 1e-9 && m[0].value < 10.0 + 1e-9);
	assert_string_equal(m[0].unit, "SMI cycles%");
	assert_string_equal(m[0].format, "%8.1f%%");
	assert_true(m[1].value == 2);
	assert_string_equal(m[1].unit, "SMI#");
	assert_string_equal(m[1].format, "%4.0f");
	/* aperf is no figure of its own: the generic rules take it */
	assert_int_equal(stat_tx_figures(f.r, f.nr, 0, f.vals, m), -1);
	/* no SMI: no cost, whatever aperf and cycles say */
	make(&f, smi, (const double[]){ 1000, 0, 900 }, 3);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 1, f.vals, m), 2);
	assert_true(m[0].value == 0 && m[1].value == 0);
	/* no cycles counted: perf prints nothing */
	make(&f, smi, (const double[]){ 1000, 2, 0 }, 3);
	assert_int_equal(stat_tx_figures(f.r, f.nr, 1, f.vals, m), 0);
}

/* The CSV line: perf's number without its padding or '%', then the unit. */
static void test_csv_line(void **state)
{
	static const double vals[] = { 1000, 400, 300, 20, 8 };
	char *argv[] = { "true", NULL }, *text = NULL;
	struct stat_opts o = { .sep = ",", .argv = argv };
	struct stat_summary sum = { .runs = 1 };
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct fake f;

	(void)state;
	assert_non_null(m);
	make(&f, tx, vals, 5);
	sum.wall.mean = 1;
	stat_print(m, &o, f.r, f.nr, &sum);
	fclose(m);
	assert_non_null(strstr(text, "400,,cpu/cycles-t/,0,100.00,40.00,transactional cycles\n"));
	assert_non_null(strstr(text, "300,,cpu/cycles-ct/,0,100.00,10.00,aborted cycles\n"));
	assert_non_null(strstr(text, "20,,cpu/tx-start/,0,100.00,20,cycles / transaction\n"));
	assert_non_null(strstr(text, "8,,cpu/el-start/,0,100.00,50,cycles / elision\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_clamp_and_missing),
		cmocka_unit_test(test_smi),
		cmocka_unit_test(test_csv_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
