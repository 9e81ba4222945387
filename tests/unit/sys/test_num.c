/* SPDX-License-Identifier: MIT */
/*
 * test_num.c - the checked number parser every option and event term goes
 * through: a table of strings with the value or the errno and the words of
 * the message each must give, for unsigned, signed and duration numbers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

struct u64_case {
	const char *s;
	uint64_t min, max;
	int err;		/* 0, -EINVAL or -ERANGE */
	uint64_t want;		/* when err is 0 */
	const char *why;	/* a part of the message when err is not 0 */
};

static const struct u64_case u64_cases[] = {
	{ "0", 0, UINT64_MAX, 0, 0, NULL },
	{ "4000", 1, UINT32_MAX, 0, 4000, NULL },
	{ "010", 0, 100, 0, 10, NULL },		/* perf: leading zeros are decimal */
	{ "0x10", 0, 100, 0, 16, NULL },
	{ "0XfF", 0, 1000, 0, 255, NULL },
	{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX, NULL },
	{ "0xffffffffffffffff", 0, UINT64_MAX, 0, UINT64_MAX, NULL },
	{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0, "'18446744073709551616' is out of range" },
	{ "0x10000000000000000", 0, UINT64_MAX, -ERANGE, 0, "out of range" },
	{ "4294967297", 1, UINT32_MAX, -ERANGE, 0, "give a number from 1 to 4294967295" },
	{ "0", 1, 10, -ERANGE, 0, "'0' is out of range: give a number from 1 to 10" },
	{ "-1", 0, UINT64_MAX, -ERANGE, 0, "'-1' is negative" },
	{ "-0", 0, 10, -ERANGE, 0, "negative" },
	{ "", 0, 10, -EINVAL, 0, "an empty string is not a number" },
	{ "10x", 0, 100, -EINVAL, 0, "'10x' is not a number" },
	{ "+5", 0, 10, -EINVAL, 0, "not a number" },
	{ " 5", 0, 10, -EINVAL, 0, "not a number" },
	{ "5 ", 0, 10, -EINVAL, 0, "not a number" },
	{ "0x", 0, 10, -EINVAL, 0, "not a number" },
	{ "0xg", 0, 10, -EINVAL, 0, "not a number" },
	{ "1e3", 0, 10000, -EINVAL, 0, "not a number" },
	{ "99999999999999999999x", 0, 10, -EINVAL, 0, "not a number" },	/* junk beats overflow */
	{ "1\x1b[2J", 0, 10, -EINVAL, 0, "'1?[2J'" },	/* control bytes never quoted raw */
};

static void test_u64_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(u64_cases) / sizeof(u64_cases[0]); i++) {
		const struct u64_case *c = &u64_cases[i];
		uint64_t v = 12345;
		int err = pk_num_parse_u64(c->s, c->min, c->max, &v);

		if (err != c->err)
			fail_msg("'%s': %d, want %d (%s)", c->s, err, c->err, pk_last_error()->why);
		if (!err) {
			assert_true(v == c->want);
			continue;
		}
		assert_true(v == 12345);	/* untouched on failure */
		assert_int_equal(pk_last_error()->code, c->err);
		if (!strstr(pk_last_error()->why, c->why))
			fail_msg("'%s': message '%s' lacks '%s'", c->s, pk_last_error()->why, c->why);
	}
}

static void test_i64(void **state)
{
	int64_t v = 7;

	(void)state;
	assert_int_equal(pk_num_parse_i64("-1", -1, 100, &v), 0);
	assert_true(v == -1);
	assert_int_equal(pk_num_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(pk_num_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(pk_num_parse_i64("-0x10", -100, 0, &v), 0);
	assert_true(v == -16);
	assert_int_equal(pk_num_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &v), -ERANGE);
	assert_int_equal(pk_num_parse_i64("-9223372036854775809", INT64_MIN, INT64_MAX, &v), -ERANGE);
	assert_int_equal(pk_num_parse_i64("-2", -1, 100, &v), -ERANGE);
	assert_non_null(strstr(pk_last_error()->why, "give a number from -1 to 100"));
	assert_int_equal(pk_num_parse_i64("-", -1, 100, &v), -EINVAL);
	assert_int_equal(pk_num_parse_i64("--1", -10, 100, &v), -EINVAL);
	assert_int_equal(pk_num_parse_i64("", -10, 100, &v), -EINVAL);
	assert_true(v == -16);
	assert_int_equal(pk_num_parse_u64(NULL, 0, 1, NULL), -EINVAL);
	assert_int_equal(pk_num_parse_u64("1", 2, 1, (uint64_t *)&v), -EINVAL);
}

static void test_seconds(void **state)
{
	static const struct { const char *s; int err; double want; } cases[] = {
		{ "2", 0, 2 }, { "0.5", 0, 0.5 }, { ".25", 0, 0.25 }, { "3.", 0, 3 },
		{ "nan", -EINVAL, 0 }, { "NaN", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
		{ "infinity", -EINVAL, 0 }, { "0x1p3", -EINVAL, 0 }, { "1e3", -EINVAL, 0 },
		{ "-1", -ERANGE, 0 }, { "", -EINVAL, 0 }, { ".", -EINVAL, 0 }, { "1.2.3", -EINVAL, 0 },
		{ "0", -ERANGE, 0 }, { "99999999999", -ERANGE, 0 }, { "1 ", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -5;
		int err = pk_num_parse_seconds(cases[i].s, 0.001, 31536000, &v);

		if (err != cases[i].err)
			fail_msg("'%s': %d, want %d (%s)", cases[i].s, err, cases[i].err, pk_last_error()->why);
		if (!err)
			assert_true(v == cases[i].want);
		else
			assert_true(v == -5);
	}
	pk_num_parse_seconds("99999999999", 0.001, 31536000, &(double){ 0 });
	assert_non_null(strstr(pk_last_error()->why, "give seconds from 0.001 to 31536000"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_table),
		cmocka_unit_test(test_i64),
		cmocka_unit_test(test_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
