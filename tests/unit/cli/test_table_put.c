/* SPDX-License-Identifier: MIT */
/*
 * test_table_put.c - report's printf-free cells (src/cli/table-put.c)
 * write the very bytes printf writes for the same format: "%*.2f" over
 * shares as report computes them (100 * a / b), half cents exactly and
 * just off them, values whose hundredfold lands next to a whole number,
 * widths under and over the text, negative zero, NaN, infinities and
 * huge values; "%-*.*s" and "%*.*s" with precisions and widths, negative
 * ones included; "%#.*llx" over every digit count, zero among them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What f wrote, from a memstream. */
struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static void open_out(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	assert_non_null(o->f);
}

static void close_out(struct out *o)
{
	fclose(o->f);
}

/* a (ours, n bytes said) and b (printf's, m) closed: the same bytes. */
static void same_out(struct out *a, struct out *b, int n, int m)
{
	close_out(a);
	close_out(b);
	assert_string_equal(a->buf, b->buf);
	assert_int_equal(n, m);
	free(a->buf);
	free(b->buf);
}

static void same_fixed2(int width, double v)
{
	struct out a, b;
	int n, m;

	open_out(&a);
	open_out(&b);
	n = cli_put_fixed2(a.f, width, v);
	m = fprintf(b.f, "%*.2f", width, v);
	close_out(&a);
	close_out(&b);
	if (strcmp(a.buf, b.buf))
		fail_msg("%*.2f of %.17g at width %d: \"%s\", printf \"%s\"", width, v, v, width, a.buf, b.buf);
	assert_int_equal(n, m);
	free(a.buf);
	free(b.buf);
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void fixed2(void **state)
{
	static const double odd[] = { 0, 0.005, 0.015, 0.125, 0.375, 1.005, 2.675, 99.995, 99.999, 100,
				      0.0049999999, 0.0050000001, 12.345, 1e-300, 999999.995, 999999.99,
				      1e6, 1e7 + 0.125, 1e20 };
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		for (int w = -8; w <= 12; w += 4) {
			same_fixed2(w, odd[i]);
			same_fixed2(w, nextafter(odd[i], 0));
			same_fixed2(w, nextafter(odd[i], 1e300));
		}
	same_fixed2(6, -0.0);
	same_fixed2(6, -1.5);
	same_fixed2(6, NAN);
	same_fixed2(6, INFINITY);
	same_fixed2(6, -INFINITY);
	for (int i = 0; i < 300000; i++) {	/* shares as report makes them */
		uint64_t total = 1 + next(&x) % 100000000, part = next(&x) % (total + 1);

		same_fixed2(6, 100.0 * (double)part / (double)total);
	}
	for (int i = 0; i < 20000; i++)	/* every half cent and its neighbours */
		for (int d = -1; d <= 1; d++)
			same_fixed2(5, nextafter((double)i / 200.0, d < 0 ? 0 : d > 0 ? 1e9 : (double)i / 200.0));
}

static void same_str(const char *s, int width, int prec, bool left)
{
	struct out a, b;
	int n, m;

	open_out(&a);
	open_out(&b);
	n = cli_put_str(a.f, s, width, prec, left);
	m = left ? fprintf(b.f, "%-*.*s", width, prec, s) : fprintf(b.f, "%*.*s", width, prec, s);
	same_out(&a, &b, n, m);
}

static void strings(void **state)
{
	static const char *const s[] = { "", "a", "perfkit-workload", "[kernel.kallsyms]",
					 "a name longer than sixty-four bytes, which the spaces' block is not ..." };

	(void)state;
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (int w = -70; w <= 90; w += 7)
			for (int p = -1; p <= 80; p += 9) {
				same_str(s[i], w, p, true);
				same_str(s[i], w, p, false);
			}
}

static void hex(void **state)
{
	static const uint64_t v[] = { 0, 1, 0xf, 0x10, 0x7ffde3a0, 0xffffffff81000e06ull, UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int d = 0; d <= 18; d++) {
			struct out a, b;
			int n, m;

			open_out(&a);
			open_out(&b);
			n = cli_put_hex(a.f, v[i], d);
			m = fprintf(b.f, "%#.*llx", d, (unsigned long long)v[i]);
			same_out(&a, &b, n, m);
		}
}

static void spaces(void **state)
{
	struct out a;

	(void)state;
	open_out(&a);
	assert_int_equal(cli_put_spaces(a.f, -3), 0);
	assert_int_equal(cli_put_spaces(a.f, 0), 0);
	assert_int_equal(cli_put_spaces(a.f, 150), 150);
	close_out(&a);
	assert_int_equal(a.len, 150);
	assert_int_equal(strspn(a.buf, " "), 150);
	free(a.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed2),
		cmocka_unit_test(strings),
		cmocka_unit_test(hex),
		cmocka_unit_test(spaces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
