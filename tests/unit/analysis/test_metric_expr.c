/* SPDX-License-Identifier: MIT */
/*
 * test_metric_expr.c - perfkit stat -M's metrics: the expression evaluator
 * (precedence, parentheses, unary minus, d_ratio, event names with dots and
 * modifiers looked up in order, the errors), the table's rows matched to
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
	const char *names[8];
	double vals[8];
	char seen[512];
};

static int lookup(void *arg, const char *name, size_t len, double *v)
{
	struct counts *c = arg;

	strncat(c->seen, name, len);
	strcat(c->seen, " ");
	for (size_t i = 0; i < 8 && c->names[i]; i++) {
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

/* Every row parses, and its value on counts of 1 per event is finite. */
static int all_ones(void *arg, const char *name, size_t len, double *v)
{
	(void)arg, (void)name, (void)len;
	*v = 1;
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
	assert_true(n >= 6);
	m = find("branch_misprediction_ratio");
	assert_true(eval_ok(m->expr, &c) * m->scale == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),  cmocka_unit_test(test_d_ratio),
		cmocka_unit_test(test_errors),      cmocka_unit_test(test_cpuid_match),
		cmocka_unit_test(test_table_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
