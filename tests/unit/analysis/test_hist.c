/* SPDX-License-Identifier: MIT */
/*
 * test_hist.c - the histogram engine: samples grouped by exactly the
 * fields of their sort keys, period and sample sums, perf report's order
 * (period, then each key, then unresolved addresses highest first),
 * percentages and --percent-limit in perf's single precision, filtered
 * samples counted in the totals and hidden with their entry, growth past
 * the first tables, the errors, and a group's members linked into their
 * leader (perf's --group).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static const char *const A = "alpha", *const B = "beta", *const LIBC = "libc.so.6";

static void add(struct pk_hist *h, const char *comm, uint32_t tid, const char *dso, uint64_t ip,
		int32_t cpu, uint64_t period)
{
	struct pk_hist_sample s = { .size = sizeof(s), .comm = comm, .pid = tid, .tid = tid, .dso = dso,
				    .ip = ip, .cpu = cpu, .level = '.', .period = period };

	assert_int_equal(pk_hist_add(h, &s), 0);
}

static void groups_by_keys_only(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	add(h, A, 1, LIBC, 0x10, 0, 100);
	add(h, A, 2, LIBC, 0x20, 1, 100);	/* another tid, ip and cpu: same entry */
	add(h, A, 1, NULL, 0x30, 0, 50);	/* no DSO: its own entry */
	add(h, B, 3, LIBC, 0x10, 0, 300);
	assert_int_equal(pk_hist_nr(h), 3);
	assert_int_equal(pk_hist_total_period(h), 550);
	assert_int_equal(pk_hist_nr_samples(h), 4);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_ptr_equal(pk_hist_get(h, 0)->s.comm, B);
	assert_int_equal(pk_hist_get(h, 1)->period, 200);
	assert_int_equal(pk_hist_get(h, 1)->nr_samples, 2);
	assert_int_equal(pk_hist_get(h, 1)->s.tid, 1);	/* the first sample's */
	assert_null(pk_hist_get(h, 2)->s.dso);
	assert_null(pk_hist_get(h, 3));
	/* No adding once sorted: the table no longer matches. */
	{
		struct pk_hist_sample s = { .size = sizeof(s), .comm = A, .period = 1 };

		assert_int_equal(pk_hist_add(h, &s), -EINVAL);
	}
	pk_hist_free(h);
}

static void perf_order_for_ties(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_DSO, PK_HIST_KEY_CPU, PK_HIST_KEY_SYM };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 3, &h), 0);
	add(h, A, 1, NULL, 0x10, 0, 10);	/* no DSO: after named ones */
	add(h, A, 1, "zz", 0x10, 0, 10);
	add(h, A, 1, "aa", 0x10, 1, 10);
	add(h, A, 1, "aa", 0x10, 0, 10);
	add(h, A, 1, "aa", 0x30, 0, 10);	/* unresolved: lowest address first */
	pk_hist_sort(h);
	assert_string_equal(pk_hist_get(h, 0)->s.dso, "aa");
	assert_int_equal(pk_hist_get(h, 0)->s.cpu, 0);
	assert_int_equal(pk_hist_get(h, 0)->s.ip, 0x10);
	assert_int_equal(pk_hist_get(h, 1)->s.ip, 0x30);
	assert_int_equal(pk_hist_get(h, 2)->s.cpu, 1);
	assert_string_equal(pk_hist_get(h, 3)->s.dso, "zz");
	assert_null(pk_hist_get(h, 4)->s.dso);
	pk_hist_free(h);
	/* perf's pid_t: a sample of no task (-1) before the others */
	assert_int_equal(pk_hist_new((enum pk_hist_key[]){ PK_HIST_KEY_PID }, 1, &h), 0);
	add(h, A, 5, NULL, 0, 0, 10);
	add(h, A, UINT32_MAX, NULL, 0, 0, 10);
	pk_hist_sort(h);
	assert_int_equal(pk_hist_get(h, 0)->s.tid, UINT32_MAX);
	pk_hist_free(h);
}

static void percent_and_limit(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_TID };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	add(h, A, 1, NULL, 0, 0, 95);
	add(h, A, 2, NULL, 0, 0, 5);
	pk_hist_sort(h);
	assert_true(pk_hist_percent(h, pk_hist_get(h, 0)) == 95.0);
	assert_false(pk_hist_below_limit(h, pk_hist_get(h, 1), 5));	/* 5% is not under 5 */
	assert_true(pk_hist_below_limit(h, pk_hist_get(h, 1), 5.01));
	pk_hist_free(h);
}

static void filtered_first_sample_decides(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_CPU };
	struct pk_hist_sample s = { .size = sizeof(s), .comm = A, .cpu = 0, .period = 10, .filtered = true };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.filtered = false;
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 1);
	assert_true(pk_hist_get(h, 0)->s.filtered);
	assert_int_equal(pk_hist_get(h, 0)->period, 20);
	assert_int_equal(pk_hist_total_period(h), 20);
	pk_hist_free(h);
}

static void growth_and_errors(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM }, bad = (enum pk_hist_key)99;
	struct pk_hist *h;
	struct pk_hist_sample s = { .size = 8 };

	(void)state;
	assert_int_equal(pk_hist_new(keys, PK_HIST_MAX_KEYS + 1, &h), -EINVAL);
	assert_int_equal(pk_hist_new(&bad, 1, &h), -EINVAL);
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	assert_int_equal(pk_hist_add(h, &s), -EINVAL);
	assert_int_equal(pk_hist_sort(h), 0);	/* empty: nothing to sort */
	assert_int_equal(pk_hist_nr(h), 0);
	pk_hist_free(h);
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	for (int round = 0; round < 2; round++)
		for (uint64_t ip = 1; ip <= 100000; ip++)
			add(h, A, 1, LIBC, ip, 0, ip);
	assert_int_equal(pk_hist_nr(h), 100000);
	pk_hist_sort(h);
	assert_int_equal(pk_hist_get(h, 0)->s.ip, 100000);
	assert_int_equal(pk_hist_get(h, 0)->period, 200000);
	assert_int_equal(pk_hist_get(h, 0)->nr_samples, 2);
	pk_hist_free(h);
	pk_hist_free(NULL);
}

/* perf's group view: member entries matched to the leader's by key, an
 * entry only a member has made in the leader with no samples, ties of
 * the leader's period broken by the members' in slot order. */
static void group_link(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM }, other[] = { PK_HIST_KEY_DSO };
	struct pk_hist *lead, *m1, *m2, *bad;
	const struct pk_hist_entry *e;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &lead), 0);
	assert_int_equal(pk_hist_new(keys, 1, &m1), 0);
	assert_int_equal(pk_hist_new(keys, 1, &m2), 0);
	assert_int_equal(pk_hist_new(other, 1, &bad), 0);
	add(lead, A, 1, LIBC, 0x10, 0, 100);
	add(lead, B, 2, LIBC, 0x10, 0, 100);
	add(m1, A, 1, LIBC, 0x10, 0, 30);
	add(m1, B, 2, LIBC, 0x10, 0, 10);
	add(m1, B, 2, LIBC, 0x10, 0, 60);	/* B beats A on the first member */
	add(m2, LIBC, 9, LIBC, 0x10, 0, 40);	/* a comm only the second member saw */
	assert_int_equal(pk_hist_link(lead, m1, 0, 2), 0);
	assert_int_equal(pk_hist_link(lead, m2, 1, 2), 0);
	assert_int_equal(pk_hist_link(lead, m2, 2, 2), -EINVAL);	/* no slot 2 */
	assert_int_equal(pk_hist_link(lead, m2, 0, 3), -EINVAL);	/* nr_slots changed */
	assert_int_equal(pk_hist_link(lead, bad, 0, 2), -EINVAL);	/* other keys */
	assert_int_equal(pk_hist_nr(lead), 3);
	assert_int_equal(pk_hist_total_period(lead), 200);	/* the leader's own */
	assert_int_equal(pk_hist_sort(lead), 0);
	e = pk_hist_get(lead, 0);
	assert_ptr_equal(e->s.comm, B);
	assert_int_equal(e->pairs[0].period, 70);
	assert_int_equal(e->pairs[0].nr_samples, 2);
	assert_true(pk_hist_pair_percent(lead, e, 0) == 70.0);
	assert_true(pk_hist_pair_percent(lead, e, 1) == 0.0);
	e = pk_hist_get(lead, 2);
	assert_ptr_equal(e->s.comm, LIBC);
	assert_int_equal(e->period, 0);
	assert_int_equal(e->nr_samples, 0);
	assert_true(pk_hist_pair_percent(lead, e, 1) == 100.0);
	assert_true(pk_hist_pair_percent(lead, e, 5) == 0.0);	/* out of range */
	assert_int_equal(pk_hist_link(lead, m1, 0, 2), -EINVAL);	/* sorted */
	pk_hist_free(lead);
	pk_hist_free(m1);
	pk_hist_free(m2);
	pk_hist_free(bad);
}

/* perf's -F order: exactly the fields given, in turn; no keys at all
 * make one entry of every sample. */
static void set_order(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO };
	int by_dso_then_samples[] = { PK_HIST_ORDER_KEY(PK_HIST_KEY_DSO), PK_HIST_ORDER_SAMPLES };
	int by_us[] = { PK_HIST_ORDER_OVERHEAD_SYS, PK_HIST_ORDER_OVERHEAD_US }, bad[] = { 77 };
	struct pk_hist_sample k = { .size = sizeof(k), .comm = A, .dso = "[kernel.kallsyms]", .level = 'k',
				    .period = 5 };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	assert_int_equal(pk_hist_set_order(h, bad, 1), -EINVAL);
	add(h, A, 1, LIBC, 0x10, 0, 100);
	add(h, B, 1, LIBC, 0x10, 0, 10);
	add(h, B, 1, LIBC, 0x10, 0, 10);
	assert_int_equal(pk_hist_add(h, &k), 0);
	assert_int_equal(pk_hist_set_order(h, by_dso_then_samples, 2), 0);
	assert_int_equal(pk_hist_sort(h), 0);
	/* "[kernel.kallsyms]" < "libc.so.6"; then B's two samples beat A's one. */
	assert_int_equal(pk_hist_get(h, 0)->period_sys, 5);
	assert_ptr_equal(pk_hist_get(h, 1)->s.comm, B);
	assert_int_equal(pk_hist_get(h, 1)->period_us, 20);
	assert_ptr_equal(pk_hist_get(h, 2)->s.comm, A);
	pk_hist_free(h);

	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	add(h, A, 1, LIBC, 0x10, 0, 100);
	assert_int_equal(pk_hist_add(h, &k), 0);
	assert_int_equal(pk_hist_set_order(h, by_us, 2), 0);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_get(h, 0)->period_sys, 5);	/* sys first, though smaller */
	pk_hist_free(h);

	assert_int_equal(pk_hist_new(NULL, 0, &h), 0);
	add(h, A, 1, LIBC, 0x10, 0, 100);
	add(h, B, 2, NULL, 0x20, 1, 50);
	assert_int_equal(pk_hist_nr(h), 1);
	assert_int_equal(pk_hist_get(h, 0)->nr_samples, 2);
	pk_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_by_keys_only),
		cmocka_unit_test(perf_order_for_ties),
		cmocka_unit_test(percent_and_limit),
		cmocka_unit_test(filtered_first_sample_decides),
		cmocka_unit_test(growth_and_errors),
		cmocka_unit_test(group_link),
		cmocka_unit_test(set_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
