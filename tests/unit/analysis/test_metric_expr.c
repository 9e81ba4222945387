/* SPDX-License-Identifier: MIT */
/*
 * test_metric_expr.c - perfkit stat -M's metrics: the expression evaluator
 * (precedence, parentheses, unary minus, d_ratio, event names with dots and
 * modifiers looked up in order, perf's `A if C else B`, max, min and
 * #literals, the errors), the table's rows matched to
 * CPUs by cpuid as perf matches them, and every shipped row evaluated on
 * counts.
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

#include "perfkit.h"

/* Counts by name; every name looked up is appended to seen. */
struct counts {
	const char *names[12];
	double vals[12];
	char seen[8192];
};

static int lookup(void *arg, const char *name, size_t len, double *v)
{
	struct counts *c = arg;

	strncat(c->seen, name, len);
	strcat(c->seen, " ");
	for (size_t i = 0; i < 12 && c->names[i]; i++) {
		if (strlen(c->names[i]) == len && !strncmp(c->names[i], name, len)) {
			*v = c->vals[i];
			return 0;
		}
	}
	return -ENOENT;
}

static double eval_ok(const char *e, struct counts *c)
{
	double v = -1;

	assert_int_equal(pk_metric_expr_eval(e, lookup, c, &v), 0);
	return v;
}

static void test_arithmetic(void **state)
{
	struct counts c = { { "a", "b.x", "c:u" }, { 6, 3, 2 } };

	(void)state;
	assert_true(eval_ok("1 + 2 * 3", &c) == 7);
	assert_true(eval_ok("(1 + 2) * 3", &c) == 9);
	assert_true(eval_ok("10 - 4 - 3", &c) == 3);
	assert_true(eval_ok("12 / 3 / 2", &c) == 2);
	assert_true(eval_ok("-a + 1", &c) == -5);
	assert_true(eval_ok("(a * 16) / b.x", &c) == 32);
	assert_true(eval_ok("a + b.x + c:u", &c) == 11);
	assert_string_equal(c.seen, "a a b.x a b.x c:u ");
	assert_true(eval_ok("1e2 + .5", &c) == 100.5);
}

static void test_d_ratio(void **state)
{
	struct counts c = { { "m", "t", "z" }, { 5, 200, 0 } };

	(void)state;
	assert_true(eval_ok("d_ratio(m, t)", &c) == 0.025);
	assert_true(eval_ok("d_ratio(m, z)", &c) == 0);
	assert_true(eval_ok("100 * d_ratio(m + m, t - 100)", &c) == 10);
	/* Not followed by '(': an event named d_ratio, the space not its. */
	c.names[2] = "d_ratio";
	c.vals[2] = 4;
	assert_true(eval_ok("d_ratio + m", &c) == 9);
}

static void test_errors(void **state)
{
	struct counts c = { { "a", "z" }, { 1, 0 } };
	char deep[300];
	double v = 42;

	(void)state;
	assert_int_equal(pk_metric_expr_eval("a / z", lookup, &c, &v), -EDOM);
	assert_int_equal(pk_metric_expr_eval("missing + 1", lookup, &c, &v), -ENOENT);
	assert_int_equal(pk_metric_expr_eval("a +", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("(a", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("a a", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("d_ratio(a)", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval(NULL, lookup, &c, &v), -EINVAL);
	memset(deep, '(', sizeof(deep) - 2);
	deep[sizeof(deep) - 2] = '1';
	deep[sizeof(deep) - 1] = 0;
	assert_int_equal(pk_metric_expr_eval(deep, lookup, &c, &v), -E2BIG);
	assert_true(v == 42);
}

/* perf's escapes: '\\' takes the next character into the name, '@' is '/';
 * the lookup gets the name with both undone. */
static void test_escapes(void **state)
{
	struct counts c = { { "topdown-fe-bound", "cpu/event=0xd,cmask=1,edge/", "a=b" },
			    { 6, 3, 2 } };
	double v = 42;

	(void)state;
	assert_true(eval_ok("topdown\\-fe\\-bound - cpu@event\\=0xd\\,cmask\\=1\\,edge@", &c) == 3);
	assert_string_equal(c.seen, "topdown-fe-bound cpu/event=0xd,cmask=1,edge/ ");
	assert_true(eval_ok("a\\=b*topdown\\-fe\\-bound", &c) == 12);
	/* Unescaped, '-' is still a minus and '=' no name character. */
	assert_int_equal(pk_metric_expr_eval("topdown-fe-bound", lookup, &c, &v), -ENOENT);
	assert_int_equal(pk_metric_expr_eval("topdown\\-fe\\-bound=b", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("topdown\\-fe\\-bound\\", lookup, &c, &v), -EINVAL);
	assert_true(v == 42);
}

/* The row `name` that applies to the CPU `cpuid`. */
static const struct pk_metric_def *find_for(const char *name, const char *cpuid)
{
	const struct pk_metric_def *m;

	for (size_t i = 0; (m = pk_metric_def_get(i)); i++)
		if (!strcmp(m->name, name) && pk_metric_def_matches(m, cpuid) == 1)
			return m;
	return NULL;
}

static const struct pk_metric_def *find(const char *name)
{
	const struct pk_metric_def *m;

	for (size_t i = 0; (m = pk_metric_def_get(i)); i++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static void test_cpuid_match(void **state)
{
	const struct pk_metric_def *b = find("branch_misprediction_ratio"), *ipc = find("IPC");

	(void)state;
	assert_non_null(b);
	assert_non_null(ipc);
	assert_int_equal(pk_metric_def_matches(b, "AuthenticAMD-25-11-1"), 1);
	assert_int_equal(pk_metric_def_matches(b, "AuthenticAMD-25-11"), 1);
	assert_int_equal(pk_metric_def_matches(b, "AuthenticAMD-23-31"), 0);
	assert_int_equal(pk_metric_def_matches(b, "GenuineIntel-6-5E-3"), 0);
	/* Intel's regex has no stepping part: perf matches with the stepping
	 * dropped only where the table lists a model without one. */
	assert_int_equal(pk_metric_def_matches(ipc, "GenuineIntel-6-5E"), 1);
	assert_int_equal(pk_metric_def_matches(ipc, "GenuineIntel-6-55"), 0);
	assert_int_equal(pk_metric_def_matches(NULL, "x"), -EINVAL);
}

/* Every row parses, and evaluates on counts that differ per event (a
 * hash of the name, so no difference of two events is 0); literals 0. */
static int all_ones(void *arg, const char *name, size_t len, double *v)
{
	unsigned h = 5381;

	(void)arg;
	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned char)name[i];
	*v = name[0] == '#' ? 0 : 1000 + h % 997;
	return 0;
}

static void test_table_rows(void **state)
{
	const struct pk_metric_def *m;
	struct counts c = { { "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "RETIRED_BRANCH_INSTRUCTIONS" },
			   { 30, 1000 } };
	double v;
	size_t n = 0;

	(void)state;
	for (; (m = pk_metric_def_get(n)); n++) {
		assert_int_equal(m->size, sizeof(*m));
		assert_int_equal(pk_metric_expr_eval(m->expr, all_ones, NULL, &v), 0);
		assert_true(m->scale > 0 && m->groups[0] && m->desc[0]);
	}
	assert_true(n >= 300);	/* perf 6.1's Zen 3, Skylake and Ice Lake sets */
	m = find("branch_misprediction_ratio");
	assert_true(eval_ok(m->expr, &c) * m->scale == 3);
}

/* perf's conditional: the branch not taken is never looked up. */
static void test_conditional(void **state)
{
	struct counts c = { { "a", "b", "#SMT_on", "max" }, { 6, 3, 1, 7 } };
	double v;

	(void)state;
	assert_true(eval_ok("a if 1 else b", &c) == 6);
	assert_string_equal(c.seen, "a ");
	c.seen[0] = '\0';
	assert_true(eval_ok("a if a - 6 else b", &c) == 3);
	assert_string_equal(c.seen, "a b ");
	c.seen[0] = '\0';
	/* Right to left, lowest precedence, inside parentheses too. */
	assert_true(eval_ok("1 if 0 else 2 if 0 else 3", &c) == 3);
	assert_true(eval_ok("2 * (a if #SMT_on else b) + 1", &c) == 13);
	assert_string_equal(c.seen, "#SMT_on a ");
	assert_true(eval_ok("(a / 2 if 1 else b) if 0 else 5", &c) == 5);
	assert_true(eval_ok("max(a, b) + min(a, b) * 10", &c) == 36);
	assert_true(eval_ok("max + 1", &c) == 8);	/* an event named max */
	/* perf's < and >: 1 or 0, below + and -, above the conditional. */
	assert_true(eval_ok("a < b", &c) == 0 && eval_ok("a > b", &c) == 1);
	assert_true(eval_ok("b + 4 > a", &c) == 1 && eval_ok("1 < 2 < 3", &c) == 1);
	assert_true(eval_ok("a if #SMT_on < 1 else b", &c) == 3);
	/* A division by zero in the branch not taken is no error. */
	assert_true(eval_ok("a / 0 if 0 else b", &c) == 3);
	assert_int_equal(pk_metric_expr_eval("a if 1", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("a if else b", lookup, &c, &v), -EINVAL);
	assert_int_equal(pk_metric_expr_eval("# + 1", lookup, &c, &v), -EINVAL);
}

/* Skylake's TopdownL1 on counts worked by hand from perf 6.1's formulas
 * (skl-metrics.json): SLOTS = 4 * CORE_CLKS = 4000 both ways, so Frontend
 * 400/4000, Bad Speculation (2500 - 2000 + 200)/4000, Retiring
 * 2000/4000, Backend the rest; the four add up to 100%. */
static void test_topdown_skl(void **state)
{
	static const char *const l1[] = { "tma_frontend_bound", "tma_bad_speculation",
					  "tma_backend_bound", "tma_retiring" };
	static const double want[] = { 10, 17.5, 22.5, 50 };
	struct counts off = { { "#core_wide", "#SMT_on", "CPU_CLK_UNHALTED:THREAD_P",
				"IDQ_UOPS_NOT_DELIVERED:CORE", "UOPS_ISSUED:ANY", "UOPS_RETIRED:RETIRE_SLOTS",
				"INT_MISC:RECOVERY_CYCLES" }, { 1, 0, 1000, 400, 2500, 2000, 50 } };
	/* SMT on, per thread: CORE_CLKS = 1000/2 * (1 + 100/100); recovery 4 * 100/2. */
	struct counts on = { { "#core_wide", "#SMT_on", "CPU_CLK_UNHALTED:THREAD_P",
			       "IDQ_UOPS_NOT_DELIVERED:CORE", "UOPS_ISSUED:ANY", "UOPS_RETIRED:RETIRE_SLOTS",
			       "INT_MISC:RECOVERY_CYCLES_ANY", "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE",
			       "CPU_CLK_UNHALTED:REF_XCLK" }, { 0, 1, 1000, 400, 2500, 2000, 100, 100, 100 } };
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const struct pk_metric_def *m = find(l1[i]);
		double a, b;

		assert_non_null(m);
		assert_int_equal(pk_metric_def_matches(m, "GenuineIntel-6-5E-3"), 1);
		assert_non_null(strstr(m->groups, "TopdownL1"));
		assert_string_equal(m->unit, "%");
		a = eval_ok(m->expr, &off) * m->scale;
		b = eval_ok(m->expr, &on) * m->scale;
		assert_true(a > want[i] - 1e-9 && a < want[i] + 1e-9);
		assert_true(b > want[i] - 1e-9 && b < want[i] + 1e-9);
		sum += a;
	}
	assert_true(sum > 100 - 1e-9 && sum < 100 + 1e-9);
	/* Without SMT the per-thread and any-thread events are never needed. */
	assert_null(strstr(off.seen, "ONE_THREAD_ACTIVE"));
	assert_null(strstr(off.seen, "_ANY"));
}

/* Ice Lake's TopdownL1 (icl-metrics.json) on counts worked by hand: the
 * perf-metrics events share 1000 slots as 200 frontend, 100 bad
 * speculation, 500 retiring, 200 backend; 50 uops dropped and 10 recovery
 * edges (INT_MISC.RECOVERY_CYCLES,cmask=1,edge: libpfm4's
 * INT_MISC:CLEARS_COUNT).  Frontend 0.2 - 50/1000, Backend 0.2 + 5 * 10/1000, Retiring 0.5,
 * Bad Speculation what is left: 15 + 25 + 50 + 10 = 100%.  Each row names
 * slots first, so slots leads the group of its events. */
static void test_topdown_icl(void **state)
{
	static const char *const l1[] = { "tma_frontend_bound", "tma_bad_speculation",
					  "tma_backend_bound", "tma_retiring" };
	static const double want[] = { 15, 10, 25, 50 };
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct counts c = { { "slots", "topdown-fe-bound", "topdown-bad-spec",
				      "topdown-retiring", "topdown-be-bound", "INT_MISC:UOP_DROPPING",
				      "INT_MISC:CLEARS_COUNT" },
				    { 1000, 200, 100, 500, 200, 50, 10 } };
		const struct pk_metric_def *m = find_for(l1[i], "GenuineIntel-6-7E-5");
		double a;

		assert_non_null(m);
		assert_ptr_not_equal(m, find_for(l1[i], "GenuineIntel-6-5E-3"));
		assert_non_null(strstr(m->groups, "TopdownL1"));
		a = eval_ok(m->expr, &c) * m->scale;
		assert_true(a > want[i] - 1e-9 && a < want[i] + 1e-9);
		assert_int_equal(strncmp(c.seen, "slots ", 6), 0);
		sum += a;
	}
	assert_true(sum > 100 - 1e-9 && sum < 100 + 1e-9);
	/* Bad speculation is never below 0 (perf's max(..., 0)). */
	{
		struct counts c = { { "slots", "topdown-fe-bound", "topdown-bad-spec",
				      "topdown-retiring", "topdown-be-bound", "INT_MISC:UOP_DROPPING",
				      "INT_MISC:CLEARS_COUNT" },
				    { 1000, 300, 0, 500, 200, 0, 100 } };

		assert_true(eval_ok(find_for("tma_bad_speculation", "GenuineIntel-6-7D-1")->expr,
				    &c) == 0);
	}
}

/* Zen 3's unit-mask and cpu@...@ rows (amdzen3/recommended.json) on counts:
 * the names looked up are perfkit event names, unescaped. */
static void test_zen3_l2(void **state)
{
	static const char *const names[] = {
		"cpu/event=0x60,umask=0xf9/", "L2_PREFETCH_HIT_L2:L2_HW_PREFETCHER:L1_HW_PREFETCHER",
		"L2_PREFETCH_HIT_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER",
		"L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER",
		"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C:IC_FILL_MISS",
		"IC_TAG_HIT_MISS:IC_MISS", "IC_TAG_HIT_MISS:ALL_IC_ACCESS",
		"OP_CACHE_HIT_MISS:OC_MISS", "OP_CACHE_HIT_MISS:ALL_OC_ACCESS" };
	static const double vals[] = { 1000, 100, 20, 3, 40, 18, 1000, 5, 200 };
	static const struct { const char *name; double want; } rows[] = {
		{ "all_l2_cache_accesses", 1123 }, { "all_l2_cache_misses", 63 },
		{ "l2_cache_accesses_from_l2_hwpf", 123 }, { "l2_cache_misses_from_l2_hwpf", 23 },
		{ "ic_fetch_miss_ratio", 1.8 }, { "op_cache_fetch_miss_ratio", 0.025 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pk_metric_def *m = find_for(rows[i].name, "AuthenticAMD-25-11-1");
		struct counts c = { { 0 } };
		double v;

		for (size_t k = 0; k < 9; k++)
			c.names[k] = names[k], c.vals[k] = vals[k];
		assert_non_null(m);
		v = eval_ok(m->expr, &c) * m->scale;
		assert_true(v > rows[i].want - 1e-9 && v < rows[i].want + 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),  cmocka_unit_test(test_d_ratio),
		cmocka_unit_test(test_errors),      cmocka_unit_test(test_cpuid_match),
		cmocka_unit_test(test_table_rows),  cmocka_unit_test(test_conditional),
		cmocka_unit_test(test_topdown_skl), cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_topdown_icl), cmocka_unit_test(test_zen3_l2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
