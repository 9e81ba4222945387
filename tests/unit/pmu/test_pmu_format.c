/* SPDX-License-Identifier: MIT */
/*
 * test_pmu_format.c - the two pure helpers under every PMU term: parsing a
 * format file's text into (field, mask), and scattering a value over a
 * mask's bits.  A wrong mask or a wrong scatter puts a user's umask into the
 * wrong bits of attr.config and counts the wrong event without any error, so
 * both are pinned down by vectors taken from real kernels' format files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "perfkit.h"
#include "pmu/pmu.h"

#define BIT(n) (1ULL << (n))

static const struct format_vec {
	const char *text;
	int field;
	uint64_t mask;
} good_formats[] = {
	{ "config:0-7", 0, 0xff },				/* Intel/AMD umask, event */
	{ "config:21", 0, BIT(21) },				/* Intel any: one bit */
	{ "config:0", 0, BIT(0) },				/* kprobe retprobe */
	{ "config:63", 0, BIT(63) },
	{ "config:0-7,32-35", 0, 0xf000000ffULL },		/* AMD core event */
	{ "config:0-7,32-35,59-60", 0, 0x1800000f000000ffULL },/* AMD Zen 3 DF event */
	{ "config:8-15,24-27", 0, 0xf00ff00ULL },		/* AMD Zen 4 DF umask */
	{ "config1:1,6-10,44", 1, BIT(1) | (0x1fULL << 6) | BIT(44) },
	{ "config1:0-63", 1, ~0ULL },				/* Intel offcore_rsp */
	{ "config2:0-63", 2, ~0ULL },
	{ "config3:3", 3, BIT(3) },
	{ "config:32-63", 0, 0xffffffff00000000ULL },		/* uprobe ref_ctr_offset */
	{ "config:7-7", 0, BIT(7) },
	{ "config:0-7\n", 0, 0xff },				/* as read, newline kept */
	{ "config:0-3,2-5", 0, 0x3f },				/* overlapping ranges merge */
};

static void test_format_good(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(good_formats) / sizeof(good_formats[0]); i++) {
		const struct format_vec *v = &good_formats[i];
		int field = -1;
		uint64_t mask = 0;

		print_message("# format '%.*s'\n", (int)strcspn(v->text, "\n"), v->text);
		assert_int_equal(pk__pmu_parse_format(v->text, &field, &mask), 0);
		assert_int_equal(field, v->field);
		assert_int_equal(mask, v->mask);
	}
}

static const struct bad_format_vec {
	const char *text;
	int column;		/* 1-based column of the offending character */
} bad_formats[] = {
	{ "", 1 },
	{ "config", 1 },
	{ ":0-7", 1 },
	{ "cfg:0-7", 1 },
	{ "config4:0", 1 },
	{ "config0:0", 1 },
	{ "Config:0-7", 1 },
	{ "config:", 8 },
	{ "config:a", 8 },
	{ "config:-3", 8 },
	{ "config: 0-7", 8 },
	{ "config:64", 8 },
	{ "config:99999999999999999999", 8 },
	{ "config:0-64", 10 },
	{ "config:8-7", 10 },
	{ "config:0--7", 10 },
	{ "config:0-", 10 },
	{ "config:0-7,", 12 },
	{ "config:0,,1", 10 },
	{ "config:0-7x", 11 },
	{ "config:0-7;8", 11 },
	{ "config:0-7 8", 12 },
};

static void test_format_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_formats) / sizeof(bad_formats[0]); i++) {
		const struct bad_format_vec *v = &bad_formats[i];
		int field = 7;
		uint64_t mask = 0x1234;
		const struct pk_error *e;

		print_message("# bad format '%s'\n", v->text);
		pk__error_clear();
		assert_int_equal(pk__pmu_parse_format(v->text, &field, &mask), -EINVAL);
		e = pk_last_error();
		assert_int_equal(e->code, -EINVAL);
		assert_int_equal(e->column, v->column);
		assert_non_null(strstr(e->why, "not a format"));
		assert_true(e->hint[0] != '\0');
		/* A rejected text must not leave a half-parsed result behind. */
		assert_int_equal(field, 7);
		assert_int_equal(mask, 0x1234);
	}
}

static const struct pack_vec {
	const char *what;
	uint64_t mask;
	uint64_t value;
	uint64_t before;
	int ret;
	uint64_t after;
} packs[] = {
	{ "event=0x3c", 0xff, 0x3c, 0, 0, 0x3c },
	{ "umask=1 lands at bit 8", 0xff00, 0x1, 0, 0, 0x100 },
	{ "replaces only the mask's bits", 0xff00, 0xab, 0xffffULL, 0, 0xabffULL },
	{ "clears the mask's bits for 0", 0xff00, 0, ~0ULL, 0, ~0xff00ULL },
	{ "AMD event 0x187: bit 8 goes to bit 32", 0xf000000ffULL, 0x187, 0, 0, 0x100000087ULL },
	{ "AMD event 0xfff fills both ranges", 0xf000000ffULL, 0xfff, 0, 0, 0xf000000ffULL },
	{ "AMD event 0x1000 is too big", 0xf000000ffULL, 0x1000, 0x55, -ERANGE, 0x55 },
	{ "Zen 3 DF event bit 12 goes to bit 59", 0x1800000f000000ffULL, 0x1000, 0, 0, BIT(59) },
	{ "Zen 3 DF event 0x3fff fills all three", 0x1800000f000000ffULL, 0x3fff, 0, 0,
	  0x1800000f000000ffULL },
	{ "Zen 3 DF event 0x4000 is too big", 0x1800000f000000ffULL, 0x4000, 0, -ERANGE, 0 },
	{ "config1:1,6-10,44 with 0x41", BIT(1) | (0x1fULL << 6) | BIT(44), 0x41, 0, 0,
	  BIT(1) | BIT(44) },
	{ "config1:1,6-10,44 with 0x7f", BIT(1) | (0x1fULL << 6) | BIT(44), 0x7f, 0, 0,
	  BIT(1) | (0x1fULL << 6) | BIT(44) },
	{ "config1:1,6-10,44 with 0x1e", BIT(1) | (0x1fULL << 6) | BIT(44), 0x1e, 0, 0,
	  0xfULL << 6 },
	{ "config1:1,6-10,44 with 0x80", BIT(1) | (0x1fULL << 6) | BIT(44), 0x80, 0, -ERANGE, 0 },
	{ "one bit takes 1", BIT(21), 1, 0, 0, BIT(21) },
	{ "one bit refuses 2", BIT(21), 2, 0, -ERANGE, 0 },
	{ "umask 0x100 is too big", 0xff00, 0x100, 0x1234, -ERANGE, 0x1234 },
	{ "config:0-63 takes everything", ~0ULL, ~0ULL, 0, 0, ~0ULL },
	{ "config:32-63 takes 0xffffffff", 0xffffffff00000000ULL, 0xffffffff, 0x77, 0,
	  0xffffffff00000077ULL },
	{ "config:32-63 refuses 1<<32", 0xffffffff00000000ULL, BIT(32), 0, -ERANGE, 0 },
	{ "config:63 takes 1", BIT(63), 1, 0, 0, BIT(63) },
	{ "empty mask takes 0", 0, 0, 5, 0, 5 },
	{ "empty mask refuses 1", 0, 1, 5, -ERANGE, 5 },
};

static void test_pack(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(packs) / sizeof(packs[0]); i++) {
		const struct pack_vec *v = &packs[i];
		uint64_t field = v->before;

		print_message("# pack: %s\n", v->what);
		assert_int_equal(pk__pmu_pack(v->mask, v->value, &field), v->ret);
		assert_int_equal(field, v->after);
	}
}

/* Parsing and packing together: what the kernel will gather back out. */
static void test_parse_then_pack(void **state)
{
	int field;
	uint64_t mask, config[4] = { 0 };

	(void)state;
	assert_int_equal(pk__pmu_parse_format("config1:1,6-10,44", &field, &mask), 0);
	assert_int_equal(pk__pmu_pack(mask, 0x5a, &config[field]), 0);
	/* 0x5a = 1011010b: bit0=0 -> bit1, bits1..5=01101 -> bits 6..10, bit6=1 -> bit44 */
	assert_int_equal(config[1], (0x0dULL << 6) | BIT(44));
	assert_int_equal(config[0], 0);
	assert_int_equal(config[2], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_good),
		cmocka_unit_test(test_format_bad),
		cmocka_unit_test(test_pack),
		cmocka_unit_test(test_parse_then_pack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
