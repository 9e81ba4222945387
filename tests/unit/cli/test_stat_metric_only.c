/* SPDX-License-Identifier: MIT */
/*
 * test_stat_metric_only.c - perfkit stat --metric-only with -M on synthetic
 * counts, in perf 6.1's layout: each -M metric headed (by "UNIT  NAME"
 * with its value, by its name alone over an empty column when its events
 * did not count), plain events unheaded but their figures and empty
 * columns still on the values line; the table, -x, -I and JSON variants.
 * The metrics are rows of perfkit's own table (Skylake's IPC, Zen 3's
 * branch_misprediction_ratio), attached as perfkit stat attaches them.
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

/* main.c's usage printer (main.c has perfkit's main): the pieces linked in
 * reach it only for bad options, which no test here passes. */
int cli_usage(const char *cmd, const char *fmt, ...)
{
	fail_msg("cli_usage(%s, %s) reached", cmd, fmt);
	return CLI_EXIT_USAGE;
}

struct fake {
	struct pk_event_desc d[MAX];
	struct perf_event_attr attr[MAX];
	struct result r[MAX];
	double vals[MAX];
	size_t nr;
	const struct pk_metric_def *mdefs[2];
	struct stat_opts o;
};

/* The row `name` of perfkit's table that applies to the CPU `cpuid`. */
static const struct pk_metric_def *row(const char *name, const char *cpuid)
{
	const struct pk_metric_def *m;

	for (size_t i = 0; (m = pk_metric_def_get(i)); i++)
		if (!strcmp(m->name, name) && pk_metric_def_matches(m, cpuid) == 1)
			return m;
	fail_msg("no row %s for %s", name, cpuid);
	return NULL;
}

/* One event: a raw one unless `hw` names a hardware event (its config + 1);
 * vals < 0: it did not count. */
static void add(struct fake *f, const char *name, unsigned hw, double val)
{
	size_t i = f->nr++;

	f->attr[i] = (struct perf_event_attr){ .type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW,
					       .size = sizeof(f->attr[i]), .config = hw ? hw - 1 : 0 };
	f->d[i] = (struct pk_event_desc){ .size = sizeof(f->d[i]), .name = name };
	f->r[i].d = &f->d[i];
	f->r[i].attr = &f->attr[i];
	f->r[i].err = val < 0 ? -ENODATA : 0;
	f->vals[i] = val < 0 ? 0 : val;
}

/* The -M metric m (NULL: none) attached to the events added so far. */
static void attach(struct fake *f, const struct pk_metric_def *m)
{
	f->mdefs[0] = m;
	f->o.mdefs = f->mdefs;
	f->o.nr_mdefs = m ? 1 : 0;
	stat_metric_attach(&f->o, f->r, f->nr);
}

/* --metric-only's headings and values for f, as one string; `prefix` is
 * the -I timestamp (NULL: no -I). */
static char *metric_only(struct fake *f, const char *prefix)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	stat_metric_only_header(m, &f->o, f->r, f->nr, f->vals, 1e9, prefix ? "" : NULL);
	stat_metric_only_values(m, &f->o, f->r, f->nr, f->vals, 1e9, prefix);
	fclose(m);
	return text;
}

static void layout_is(struct fake *f, const char *prefix, const char *want)
{
	char *got = metric_only(f, prefix);

	assert_string_equal(got, want);
	free(got);
}

/* IPC (no unit: "%8.2f") on 2000 instructions in 1000 cycles, beside the
 * plain instructions and cycles: perf heads IPC only, but prints the plain
 * pair's insn per cycle on the values line. */
static void ipc(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	add(f, "INST_RETIRED:ANY_P", 0, 2000);
	add(f, "CPU_CLK_UNHALTED:THREAD_P", 0, 1000);
	add(f, "instructions", PERF_COUNT_HW_INSTRUCTIONS + 1, 300);
	add(f, "cycles", PERF_COUNT_HW_CPU_CYCLES + 1, 100);
	attach(f, row("IPC", "GenuineIntel-6-5E-3"));
}

static void test_table(void **state)
{
	struct fake f;

	(void)state;
	ipc(&f);
	layout_is(&f, NULL, "                 IPC \n"
			    "                2.00                3.00  \n");
}

static void test_csv_and_interval(void **state)
{
	struct fake f;

	(void)state;
	ipc(&f);
	f.o.sep = ",";
	layout_is(&f, NULL, "IPC,\n2.00,3.00,\n");
	/* -I: perf's " time," heading, each line after its timestamp. */
	layout_is(&f, "     1.001000000,", " time,IPC,\n     1.001000000,2.00,3.00,\n");
	f.o.sep = NULL;
	layout_is(&f, "     1.001000000 ", "#           time                  IPC \n"
			"     1.001000000                 2.00                3.00  \n");
}

static void test_json(void **state)
{
	struct fake f;

	(void)state;
	ipc(&f);
	f.o.json = true;
	layout_is(&f, NULL, "{\"unit\" : \"IPC\"}\n"
			    "{\"metric-value\" : \"2.00\"}{\"metric-value\" : \"3.00\"}\n");
}

/* A metric with a unit: "%  NAME" heads it (perf's header width, 20, is
 * no pad for a longer one), its value in a column one wider than that. */
static void test_unit(void **state)
{
	struct fake f = { 0 };

	(void)state;
	add(&f, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 0, 25);
	add(&f, "RETIRED_BRANCH_INSTRUCTIONS", 0, 1000);
	attach(&f, row("branch_misprediction_ratio", "AuthenticAMD-25-11-1"));
	layout_is(&f, NULL, "%  branch_misprediction_ratio \n"
			    "                           2.5 \n");
	f.o.sep = ";";
	layout_is(&f, NULL, "%  branch_misprediction_ratio;\n2.5;\n");
}

/* Nothing counted: the metric keeps its heading (its name alone), and
 * every event an empty column on the values line; the plain page-faults
 * that did not count either gets no heading. */
static void test_not_counted(void **state)
{
	struct fake f = { 0 };

	(void)state;
	add(&f, "INST_RETIRED:ANY_P", 0, -1);
	add(&f, "CPU_CLK_UNHALTED:THREAD_P", 0, -1);
	add(&f, "page-faults", 0, -1);
	attach(&f, row("IPC", "GenuineIntel-6-5E-3"));
	layout_is(&f, NULL, "                 IPC \n"
			    "                                                               \n");
	f.o.sep = ",";
	layout_is(&f, NULL, "IPC,\n,,,\n");
	/* Counted, but no value (a division by zero in the formula): the
	 * same heading over one empty column. */
	f.r[0].err = f.r[1].err = f.r[2].err = 0;
	layout_is(&f, NULL, "IPC,\n,\n");
	f.o.sep = NULL;
	f.o.json = true;
	layout_is(&f, NULL, "{\"unit\" : \"IPC\"}\n{\"metric-value\" : \"\"}\n");
}

/* Without -M nothing is headed (perf 6.1 heads only metric events). */
static void test_plain_only(void **state)
{
	struct fake f = { 0 };

	(void)state;
	add(&f, "instructions", PERF_COUNT_HW_INSTRUCTIONS + 1, 300);
	add(&f, "cycles", PERF_COUNT_HW_CPU_CYCLES + 1, 100);
	add(&f, "branch-misses", PERF_COUNT_HW_BRANCH_MISSES + 1, -1);
	attach(&f, NULL);
	layout_is(&f, NULL, "\n               3.00                       \n");
}

/* Two cores of two CPUs each (CPU 3 idle): IPC per CPU and per core, from
 * each one's own counts (2000/1000 on core 0, 300/100 on core 1). */
static void split(struct fake *f, struct pk_count per[2][4], struct stat_summary *s,
		  struct pk_cpu_topology topo[4], int cpus[4])
{
	static const uint64_t inst[4] = { 1200, 800, 300, 0 }, clk[4] = { 700, 300, 100, 0 };

	ipc(f);
	f->nr = 2;	/* the metric's own events alone */
	for (size_t c = 0; c < 4; c++) {
		per[0][c] = (struct pk_count){ sizeof(per[0][c]), inst[c], 10, 10 };
		per[1][c] = (struct pk_count){ sizeof(per[1][c]), clk[c], 10, 10 };
		topo[c] = (struct pk_cpu_topology){ sizeof(topo[c]), (int)c, 0, 0, (int)c / 2, 0 };
		cpus[c] = (int)c;
	}
	f->r[0].per = per[0];
	f->r[1].per = per[1];
	*s = (struct stat_summary){ .wall = { 1, 1, 0 }, .runs = 1, .nr_cpus = 4, .nr_threads = 1,
				    .cpus = cpus, .topo = topo };
	f->o.target.all_cpus = true;
	f->o.metric_only = true;
}

static void print_is(struct fake *f, const struct stat_summary *s, const char *want)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	stat_print(m, &f->o, f->r, f->nr, s);
	fclose(m);
	assert_string_equal(text, want);
	free(text);
}

#define HEAD "\n Performance counter stats for 'system wide':\n\n"
#define FOOT "\n       1.000000000 seconds time elapsed\n\n"

/* --per-core and -A: perf's indent over the line prefix, a line per core
 * (or CPU) with its own figure; an idle CPU's IPC is an empty column. */
static void test_per_core(void **state)
{
	struct pk_count per[2][4];
	struct pk_cpu_topology topo[4];
	struct stat_summary s;
	struct fake f;
	int cpus[4];

	(void)state;
	split(&f, per, &s, topo, cpus);
	f.o.per = 'c';
	print_is(&f, &s, HEAD "                                         IPC \n"
			 "S0-D0-C0           2                 2.00 \n"
			 "S0-D0-C1           2                 3.00 \n" FOOT);
	f.o.sep = ",";
	print_is(&f, &s, "core,cpus,IPC,\nS0-D0-C0,2,2.00,\nS0-D0-C1,2,3.00,\n");
	f.o.sep = NULL;
	f.o.json = true;
	print_is(&f, &s, "{                        \"unit\" : \"IPC\"}\n"
			 "{\"core\" : \"S0-D0-C0\", \"aggregate-number\" : 2, {\"metric-value\" : \"2.00\"}\n"
			 "{\"core\" : \"S0-D0-C1\", \"aggregate-number\" : 2, {\"metric-value\" : \"3.00\"}\n");
	f.o.json = false;
	f.o.per = 's';
	f.o.sep = ",";
	/* perf writes no comma after "cpus" (its aggr_header_csv) */
	/* perf writes no comma after "cpus" here (its aggr_header_csv). */
	print_is(&f, &s, "socket,cpusIPC,\nS0,4,2.09,\n");	/* 2300 / 1100 */
	f.o.sep = NULL;
	f.o.per = 0;
	f.o.no_aggr = true;
	print_is(&f, &s, HEAD "                       IPC \n"
			 "CPU0       " "                1.71 \n"
			 "CPU1       " "                2.67 \n"
			 "CPU2       " "                3.00 \n"
			 "CPU3       " "                     \n" FOOT);
}

/* -I: the first interval's heading line starts with perf's per-core
 * words; each line has its timestamp before the core. */
static void test_per_core_interval(void **state)
{
	struct pk_count per[2][4];
	struct pk_cpu_topology topo[4];
	struct stat_summary s;
	struct fake f;
	int cpus[4];
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	split(&f, per, &s, topo, cpus);
	f.o.per = 'c';
	f.o.sep = ",";
	assert_non_null(m = open_memstream(&text, &len));
	stat_print_interval(m, &f.o, f.r, f.nr, &s, 1.0, 1e9, true);
	stat_print_interval(m, &f.o, f.r, f.nr, &s, 2.0, 1e9, false);
	fclose(m);
	assert_string_equal(text, " time,core,cpus,IPC,\n"
			    "     1.000000000,S0-D0-C0,2,2.00,\n     1.000000000,S0-D0-C1,2,3.00,\n"
			    "     2.000000000,S0-D0-C0,2,2.00,\n     2.000000000,S0-D0-C1,2,3.00,\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),      cmocka_unit_test(test_csv_and_interval),
		cmocka_unit_test(test_json),       cmocka_unit_test(test_unit),
		cmocka_unit_test(test_not_counted), cmocka_unit_test(test_plain_only),
		cmocka_unit_test(test_per_core),   cmocka_unit_test(test_per_core_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
