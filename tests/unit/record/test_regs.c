/* SPDX-License-Identifier: MIT */
/*
 * test_regs.c - register lists as perf's --user-regs/--intr-regs take them,
 * the names of register bits, the set DWARF unwinding samples, and perf
 * record -j's branch filter words.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static void test_parse(void **state)
{
	static const struct { const char *list; int err; uint64_t mask; int column; } t[] = {
		{ "AX", 0, 1, 0 },
		{ "ax,bx,IP", 0, 1 | 2 | 1 << 8, 0 },
		{ "R8,R15,FLAGS", 0, 1 << 16 | 1 << 23 | 1 << 9, 0 },
		{ "AX,ZZ", -EINVAL, 0, 4 },
		{ "AX,", 0, 1, 0 },	/* a trailing comma adds nothing */
		{ "", -EINVAL, 0, 0 },
		{ "R16", -EINVAL, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t m = 99;
		int err = pk_regs_parse(t[i].list, &m);

		if (err != t[i].err || (!err && m != t[i].mask) || (err && pk_last_error()->column != t[i].column))
			fail_msg("'%s': got %d mask %#llx column %d", t[i].list, err, (unsigned long long)m,
				 pk_last_error()->column);
	}
}

static void test_names_and_dwarf(void **state)
{
	(void)state;
	assert_string_equal(pk_regs_name(8), "IP");
	assert_string_equal(pk_regs_name(23), "R15");
	assert_null(pk_regs_name(24));
	/* perf's x86-64 PERF_REGS_MASK: all 24 but DS, ES, FS, GS */
	assert_int_equal(pk_regs_dwarf_mask(), 0xff0fff);
}

static void test_branch_filter(void **state)
{
	static const struct { const char *list; int err; uint64_t mask; int column; } t[] = {
		{ "any", 0, PERF_SAMPLE_BRANCH_ANY, 0 },
		{ "any_call,u", 0, PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER, 0 },
		/* levels alone: any branch at those levels, as perf */
		{ "u,k", 0, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_ANY, 0 },
		{ "call_stack,save_type", 0, PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_TYPE_SAVE, 0 },
		{ "any,foo", -EINVAL, 0, 5 },
		{ "anyx", -EINVAL, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t m = 99;
		int err = pk_branch_filter_parse(t[i].list, &m);

		if (err != t[i].err || (!err && m != t[i].mask) || (err && pk_last_error()->column != t[i].column))
			fail_msg("'%s': got %d mask %#llx column %d", t[i].list, err, (unsigned long long)m,
				 pk_last_error()->column);
	}
	assert_int_equal(pk_branch_filter_parse("bogus", &(uint64_t){ 0 }), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "'bogus'"));
	assert_non_null(strstr(pk_last_error()->hint, "any_call"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_names_and_dwarf),
		cmocka_unit_test(test_branch_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
