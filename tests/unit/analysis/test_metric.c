/* SPDX-License-Identifier: MIT */
/*
 * test_metric.c - perf stat's derived figures from synthetic counts, so the
 * hardware-event figures (IPC, GHz, miss ratios, idle cycles) are checked on
 * machines that cannot count hardware events: values, formats and units as
 * perf 6.1 prints them, and when perf prints none.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static struct perf_event_attr A(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = { .type = type, .config = config };

	return a;
}

/* One input: the size first, as every caller must set it. */
#define IN(attr, value, counted) { sizeof(struct pk_metric_input), attr, value, counted }

#define C(t, op, r) (PERF_COUNT_HW_CACHE_##t | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
		     PERF_COUNT_HW_CACHE_RESULT_##r << 16)

static void expect(const struct pk_metric_input *in, size_t nr, size_t i, double wall_ns,
		   const char *want_text, const char *want_unit)
{
	struct pk_metric m = { .size = sizeof(m) };
	char got[64];
	int r = pk_metric_derive(in, nr, i, wall_ns, &m, 1);

	if (!want_text) {
		if (r != 0)
			fail_msg("event %zu: expected no figure, got '%s' %s", i, m.format, m.unit);
		return;
	}
	assert_int_equal(r, 1);
	snprintf(got, sizeof(got), m.format, m.value);
	if (strcmp(got, want_text) || strcmp(m.unit, want_unit))
		fail_msg("event %zu: got '%s' '%s', want '%s' '%s'", i, got, m.unit, want_text, want_unit);
}

/* The figures of perf stat's default set on a machine with a hardware PMU. */
static void test_default_set(void **state)
{
	struct perf_event_attr a[] = {
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES),
	};
	/* 2 ms of task time in 4 ms; 5e6 cycles (2.5 GHz), 1.1e7 instructions,
	 * 2e6 branches, 30000 misses (1.5%). */
	struct pk_metric_input in[] = {
		IN(&a[0], 2e6, true), IN(&a[1], 50, true), IN(&a[2], 5e6, true),
		IN(&a[3], 1.1e7, true), IN(&a[4], 2e6, true), IN(&a[5], 3e4, true),
	};

	(void)state;
	expect(in, 6, 0, 4e6, "   0.500", "CPUs utilized");
	expect(in, 6, 1, 4e6, "  25.000", "K/sec");
	expect(in, 6, 2, 4e6, "   2.500", "GHz");
	expect(in, 6, 3, 4e6, "   2.20 ", "insn per cycle");
	/* exactly 1e9 per second stays M/sec: perf scales only above 1000 */
	expect(in, 6, 4, 4e6, "1000.000", "M/sec");
	expect(in, 6, 5, 4e6, "   1.50%", "of all branches");
	in[4].value = 2.5e6;	/* 1.25e9 per second */
	expect(in, 6, 4, 4e6, "   1.250", "G/sec");
}

static void test_cache_and_stalls(void **state)
{
	struct perf_event_attr a[] = {
		A(PERF_TYPE_HW_CACHE, C(L1D, READ, ACCESS)), A(PERF_TYPE_HW_CACHE, C(L1D, READ, MISS)),
		A(PERF_TYPE_HW_CACHE, C(LL, READ, ACCESS)), A(PERF_TYPE_HW_CACHE, C(LL, READ, MISS)),
		A(PERF_TYPE_HW_CACHE, C(DTLB, READ, ACCESS)), A(PERF_TYPE_HW_CACHE, C(DTLB, READ, MISS)),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
		A(PERF_TYPE_HW_CACHE, C(ITLB, READ, MISS)),
	};
	struct pk_metric_input in[] = {
		IN(&a[0], 1000, true), IN(&a[1], 125, true), IN(&a[2], 400, true), IN(&a[3], 0, true),
		IN(&a[4], 0, true), IN(&a[5], 7, true), IN(&a[6], 3000, true), IN(&a[7], 1000, true),
		IN(&a[8], 8000, true), IN(&a[9], 2000, true), IN(&a[10], 4000, true), IN(&a[11], 5, true),
	};

	(void)state;
	expect(in, 12, 1, 0, "  12.50%", "of all L1-dcache accesses");
	expect(in, 12, 3, 0, "   0.00%", "of all LL-cache accesses");
	/* A base that counted 0 gives 0%, as perf prints it. */
	expect(in, 12, 5, 0, "   0.00%", "of all dTLB cache accesses");
	expect(in, 12, 7, 0, "  33.333 %", "of all cache refs");
	expect(in, 12, 9, 0, "  25.00%", "frontend cycles idle");
	expect(in, 12, 10, 0, "  50.00%", "backend cycles idle");
	/* No iTLB accesses counted, no clock: nothing to show. */
	expect(in, 12, 11, 0, NULL, NULL);
	/* cycles without a clock: perf shows no GHz. */
	expect(in, 12, 8, 0, NULL, NULL);
	/* Accesses have no figure of their own and there is no clock for a rate. */
	expect(in, 12, 0, 0, NULL, NULL);
}

static void test_missing_or_uncounted(void **state)
{
	struct perf_event_attr a[] = {
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK),
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
	};
	struct pk_metric_input in[] = {
		IN(&a[0], 100, true), IN(&a[1], 0, false), IN(&a[2], 1e9, true), IN(&a[3], 999, true),
	};
	struct pk_metric m = { .size = sizeof(m) };

	(void)state;
	/* cycles not supported: no IPC (perf prints nothing, not 0). */
	expect(in, 4, 0, 1e9, NULL, NULL);
	/* an uncounted event itself has no figure */
	expect(in, 4, 1, 1e9, NULL, NULL);
	/* cpu-clock is a clock too: 999 per second, below the K threshold */
	expect(in, 4, 3, 1e9, " 999.000", "/sec");
	expect(in, 4, 2, 5e8, "   2.000", "CPUs utilized");
	expect(in, 4, 2, 0, NULL, NULL);	/* no wall time */
	assert_int_equal(pk_metric_derive(in, 4, 4, 1e9, &m, 1), -ERANGE);
	/* instructions with cycles counted as 0: perf shows nothing */
	in[1] = (struct pk_metric_input)IN(&a[1], 0, true);
	expect(in, 4, 0, 1e9, NULL, NULL);
}


/* Under instructions, perf adds stalled cycles per insn (the larger stall). */
static void test_stalls_per_insn(void **state)
{
	struct perf_event_attr a[] = {
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
		A(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
	};
	struct pk_metric_input in[] = {
		IN(&a[0], 1000, true), IN(&a[1], 2000, true), IN(&a[2], 300, true), IN(&a[3], 900, true),
	};
	struct pk_metric m[2] = { { .size = sizeof(m[0]) } };
	char got[32];

	(void)state;
	assert_int_equal(pk_metric_derive(in, 4, 1, 0, m, 2), 2);
	snprintf(got, sizeof(got), m[0].format, m[0].value);
	assert_string_equal(got, "   2.00 ");
	assert_string_equal(m[0].unit, "insn per cycle");
	snprintf(got, sizeof(got), m[1].format, m[1].value);
	assert_string_equal(got, "   0.45 ");	/* 900 / 2000 */
	assert_string_equal(m[1].unit, "stalled cycles per insn");
	/* Room for one: the count says two, the first is filled. */
	assert_int_equal(pk_metric_derive(in, 4, 1, 0, m, 1), 2);
	/* Without stall events: just IPC. */
	assert_int_equal(pk_metric_derive(in, 2, 1, 0, m, 2), 1);
}

/*
 * The size fields: a caller that sets none is refused with a message that
 * says what to set; a caller built against later, larger structs (a field
 * this version does not know after each element) gets the same figures,
 * each written into its own element.
 */
static void test_sizes(void **state)
{
	struct perf_event_attr a[] = {
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
		A(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES),
	};
	struct later_input { struct pk_metric_input in; uint64_t later; } big[2] = {
		{ { sizeof(big[0]), &a[0], 2e6, true }, 0xdead },
		{ { sizeof(big[0]), &a[1], 50, true }, 0xbeef },
	};
	struct later_metric { struct pk_metric m; uint64_t later; } out[2] = { { { .size = sizeof(out[0]) }, 7 } };
	struct pk_metric_input none[] = { { 0 } };
	struct pk_metric m = { .size = sizeof(m) };

	(void)state;
	assert_int_equal(pk_metric_derive(none, 1, 0, 1e9, &m, 1), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "set size = sizeof(struct pk_metric_input)"));
	m.size = 0;
	assert_int_equal(pk_metric_derive(&big[0].in, 2, 0, 4e6, &m, 1), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "pk_metric"));
	assert_int_equal(pk_metric_derive(&big[0].in, 2, 1, 4e6, &out[0].m, 2), 1);
	assert_string_equal(out[0].m.unit, "K/sec");
	assert_true(fabs(out[0].m.value - 25.0) < 1e-9);
	assert_int_equal(out[0].m.size, sizeof(out[0]));
	assert_int_equal(out[0].later, 7);	/* what this version does not know is left alone */
	assert_int_equal(pk_metric_derive(&big[0].in, 2, 0, 4e6, &out[0].m, 2), 1);
	assert_string_equal(out[0].m.unit, "CPUs utilized");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_set),
		cmocka_unit_test(test_cache_and_stalls),
		cmocka_unit_test(test_missing_or_uncounted),
		cmocka_unit_test(test_stalls_per_insn),
		cmocka_unit_test(test_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
