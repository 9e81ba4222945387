/* SPDX-License-Identifier: MIT */
/*
 * test_script_out.c - script's hand-written formatter (src/cli/script-out.c)
 * against printf itself: every writer, for values at the edges of each
 * width and digit count, negative and left-aligned columns, columns wider
 * than the in-place path, the time column through its kept seconds,
 * strings longer than the buffer, text crossing a flush, and an output
 * error left on the FILE as fprintf leaves it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <cmocka.h>

#include "script-out.h"

struct both {
	char *got, *want;
	size_t got_len, want_len;
	FILE *g, *w;
	struct script_out o;
};

static void both_open(struct both *b)
{
	memset(b, 0, sizeof(*b));
	b->g = open_memstream(&b->got, &b->got_len);
	b->w = open_memstream(&b->want, &b->want_len);
	assert_non_null(b->g);
	assert_non_null(b->w);
	b->o.f = b->g;
}

static void both_check(struct both *b)
{
	script_out_flush(&b->o);
	assert_int_equal(fclose(b->g), 0);
	assert_int_equal(fclose(b->w), 0);
	assert_int_equal(b->got_len, b->want_len);
	assert_memory_equal(b->got, b->want, b->want_len);
	free(b->got);
	free(b->want);
}

static const uint64_t values[] = {
	0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 12345, 99999, 100000, 999999, 1000000,
	0xf, 0x10, 0xfff, 0x1000, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
	0xffffffff81000000ull, 0x7fffdeadbeefull, 999999999999ull, 1000000000000ull,
	UINT64_MAX / 10, UINT64_MAX,
};
static const int widths[] = { 0, 1, 3, 5, 10, 12, 15, 16, 20, 31, 32, 33, 40, 64 };
#define NV (sizeof(values) / sizeof(values[0]))
#define NW (sizeof(widths) / sizeof(widths[0]))

static void test_numbers(void **state)
{
	struct both b;

	(void)state;
	both_open(&b);
	for (size_t i = 0; i < NV; i++) {
		uint64_t v = values[i];

		for (size_t j = 0; j < NW; j++) {
			int w = widths[j];

			script_out_udec(&b.o, v, w, ' ');
			fprintf(b.w, "%*" PRIu64, w, v);
			script_out_udec(&b.o, v, w, '0');
			fprintf(b.w, "%0*" PRIu64, w, v);
			script_out_hex(&b.o, v, w);
			fprintf(b.w, "%*" PRIx64, w, v);
			script_out_sdec(&b.o, (int64_t)v, w);
			fprintf(b.w, "%*" PRId64, w, (int64_t)v);
			script_out_sdec(&b.o, (int64_t)v, -w);
			fprintf(b.w, "%-*" PRId64, w, (int64_t)v);
			script_out_sdec(&b.o, -(int64_t)(v >> 1), -w);
			fprintf(b.w, "%-*" PRId64, w, -(int64_t)(v >> 1));
			script_out_chr(&b.o, '|');
			fputc('|', b.w);
		}
	}
	script_out_sdec(&b.o, INT64_MIN, 5);
	fprintf(b.w, "%5" PRId64, INT64_MIN);
	both_check(&b);
}

/* perf's time column: "%12s" of "%lu.%06lu", and --ns's "%5lu.%09lu". */
static void test_time(void **state)
{
	struct both b;
	char tmp[64];

	(void)state;
	both_open(&b);
	for (size_t i = 0; i < NV; i++) {
		uint64_t t = values[i], secs = t / 1000000000u, ns = t % 1000000000u;

		script_out_fixed(&b.o, secs, ns / 1000, 6, 12);
		snprintf(tmp, sizeof(tmp), "%" PRIu64 ".%06" PRIu64, secs, ns / 1000);
		fprintf(b.w, "%12s", tmp);
		script_out_fixed(&b.o, secs, ns, 9, 15);
		fprintf(b.w, "%5" PRIu64 ".%09" PRIu64, secs, ns);
		script_out_fixed(&b.o, secs, ns, 9, 40);
		fprintf(b.w, "%30" PRIu64 ".%09" PRIu64, secs, ns);
	}
	both_check(&b);
}

/* The time column through the kept seconds (script_out_fixed_kept): runs
 * of one second with fractions of every digit count, seconds that change
 * and come back, seconds wider than the column, and a fraction of 2^32 or
 * more (taken modulo 10^prec, as script_out_fixed does), for perf's
 * microseconds and --ns's nanoseconds. */
static void test_time_kept(void **state)
{
	static const uint64_t secs[] = { 26808, 26808, 26808, 26809, 26808, 0, 0, 123456789012ull,
					 123456789012ull, 5, 5 };
	static const uint64_t fracs[] = { 633071, 5, 0, 999999999, 42, 1, 100000, 7, 654321,
					  0x100000005ull, 3 };
	struct script_out_kept us = { 0 }, ns = { 0 };
	struct both b;
	char tmp[64];

	(void)state;
	both_open(&b);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
			uint64_t f = fracs[i];

			script_out_fixed_kept(&b.o, &us, secs[i], f, 6, 12);
			snprintf(tmp, sizeof(tmp), "%" PRIu64 ".%06" PRIu64, secs[i], f % 1000000);
			fprintf(b.w, "%12s", tmp);
			script_out_fixed_kept(&b.o, &ns, secs[i], f, 9, 15);
			fprintf(b.w, "%5" PRIu64 ".%09" PRIu64, secs[i], f % 1000000000);
			script_out_chr(&b.o, '|');
			fputc('|', b.w);
		}
	}
	both_check(&b);
}

/* Strings: padded both ways, longer than the buffer, and many small
 * writes crossing flushes of the buffer. */
static void test_strings(void **state)
{
	size_t big = SCRIPT_OUT_SIZE * 2 + 17;
	char *long_name = malloc(big + 1);
	struct both b;

	(void)state;
	assert_non_null(long_name);
	memset(long_name, 'x', big);
	long_name[big] = 0;
	both_open(&b);
	for (int i = 0; i < 3000; i++) {
		const char *s = i % 3 ? "perfkit-workload" : "sh";
		int w = i % 7 == 0 ? -40 : i % 5 == 0 ? 0 : 16;

		script_out_pad(&b.o, s, w);
		fprintf(b.w, "%*s", w, s);
		script_out_mem(&b.o, " (", 2);
		script_out_str(&b.o, "/usr/lib/x86_64-linux-gnu/libc.so.6");
		script_out_chr(&b.o, ')');
		fputs(" (/usr/lib/x86_64-linux-gnu/libc.so.6)", b.w);
		if (i % 1000 == 1) {
			script_out_pad(&b.o, long_name, 16);
			fputs(long_name, b.w);
		}
	}
	both_check(&b);
	free(long_name);
}

/* A full device: the error stays on the FILE, as fprintf's would. */
static void test_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct script_out o;

	(void)state;
	if (!f)
		skip();
	o.f = f;
	o.len = 0;
	for (int i = 0; i < 10000; i++)
		script_out_hex(&o, (uint64_t)i, 16);
	script_out_flush(&o);
	fflush(f);
	assert_true(ferror(f));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_time_kept),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
