/* SPDX-License-Identifier: MIT */
/*
 * test_hist_keys2.c - the histogram's later keys (analysis/hist-keys2.c):
 * time, symbol size, socket, trace and cgroup group by exactly their
 * field and order their ties ascending; ipc_null tells symbols apart as
 * the symbol key does and orders them by address, as perf's sort__sym_cmp.
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

static struct pk_hist_sample sample(uint64_t period)
{
	return (struct pk_hist_sample){ .size = sizeof(struct pk_hist_sample), .comm = "w", .pid = 1, .tid = 1,
					.level = '.', .period = period, .socket = -1 };
}

static void time_groups_and_orders(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_TIME };
	struct pk_hist_sample s = sample(10);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	s.time = 300, s.sym = "a";
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.time = 100, s.sym = "b";	/* another symbol, another time: its own entry */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.time = 300, s.sym = "c", s.socket = 2;	/* the time alone decides */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.time = 200;
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 3);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_get(h, 0)->s.time, 300);	/* the most period first */
	assert_int_equal(pk_hist_get(h, 0)->period, 20);
	assert_int_equal(pk_hist_get(h, 1)->s.time, 100);	/* ties: earliest first */
	assert_int_equal(pk_hist_get(h, 2)->s.time, 200);
	pk_hist_free(h);
}

static void other_keys_group_by_their_field(void **state)
{
	static const char *const t1 = "x=1", *const t2 = "x=2";
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM_SIZE, PK_HIST_KEY_SOCKET, PK_HIST_KEY_TRACE, PK_HIST_KEY_CGROUP };
	struct pk_hist_sample s = sample(5);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 4, &h), 0);
	s.sym_size = 43, s.socket = 0, s.trace = t1, s.cgroup = 7;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.time = 999, s.ip = 0x55;	/* not keys: the same entry */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.cgroup = 8;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.cgroup = 7, s.trace = t2;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.trace = t1, s.socket = 1;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.socket = 0, s.sym_size = 12;
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 5);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_get(h, 0)->nr_samples, 2);
	/* equal periods: by size, then socket, trace and cgroup, ascending */
	assert_int_equal(pk_hist_get(h, 1)->s.sym_size, 12);
	assert_int_equal(pk_hist_get(h, 2)->s.cgroup, 8);
	assert_string_equal(pk_hist_get(h, 3)->s.trace, t2);
	assert_int_equal(pk_hist_get(h, 4)->s.socket, 1);
	pk_hist_free(h);
}

static void ipc_null_is_the_symbol_by_address(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM_SIZE, PK_HIST_KEY_IPC_NULL };
	struct pk_hist_sample s = sample(10);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	s.dso = "prog", s.sym_size = 43;
	s.sym = "zeta", s.sym_start = 0x1000;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.sym = "alpha", s.sym_start = 0x2000;	/* same size, another symbol */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.sym = NULL, s.sym_size = 0, s.ip = 0x30;	/* unresolved: after the resolved */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.ip = 0x20;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.sym = "zeta", s.sym_start = 0x1000, s.sym_size = 43, s.ip = 0x1004;
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 4);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_string_equal(pk_hist_get(h, 0)->s.sym, "zeta");
	assert_int_equal(pk_hist_get(h, 0)->period, 20);
	assert_int_equal(pk_hist_get(h, 1)->s.sym_size, 0);	/* size first: unresolved are 0 */
	assert_int_equal(pk_hist_get(h, 1)->s.ip, 0x20);	/* then by address */
	assert_int_equal(pk_hist_get(h, 2)->s.ip, 0x30);
	assert_string_equal(pk_hist_get(h, 3)->s.sym, "alpha");
	pk_hist_free(h);
}

/* pk_hist_prefix_samples: the samples agreeing on the leading keys. */
static void prefix_samples_sum_the_group(void **state)
{
	static const char *const t1 = "x=1", *const t2 = "x=2";
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_TRACE };
	struct pk_hist_sample s = sample(1);
	uint64_t n[3] = { 0 }, all[3] = { 0 };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	s.comm = "a", s.trace = t1;	/* comm a: two entries of one sample */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.trace = t2;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.comm = "b";	/* comm b: one sample alone */
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 3);
	assert_int_equal(pk_hist_prefix_samples(h, 1, n), 0);
	assert_int_equal(pk_hist_prefix_samples(h, 0, all), 0);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(n[i], strcmp(pk_hist_get(h, i)->s.comm, "a") ? 1 : 2);
		assert_int_equal(all[i], 3);
	}
	assert_int_equal(pk_hist_prefix_samples(h, 2, n), 0);	/* every entry its own group */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(n[i], 1);
	assert_int_equal(pk_hist_prefix_samples(h, 3, n), -EINVAL);
	pk_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(time_groups_and_orders),
		cmocka_unit_test(other_keys_group_by_their_field),
		cmocka_unit_test(ipc_null_is_the_symbol_by_address),
		cmocka_unit_test(prefix_samples_sum_the_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
