/* SPDX-License-Identifier: MIT */
/*
 * table-put.c - the cells of report's table written without printf: a
 * report of a stripped binary's DWARF profile prints tens of thousands of
 * rows, and fprintf's format parsing and its exact decimal conversion of
 * each percentage were a tenth of the whole run.  Each helper writes the
 * bytes printf's format would, and hands printf the rare value whose
 * rounding it cannot tell for sure.
 */
#include "cli.h"

#include <math.h>
#include <string.h>

static int spaces(FILE *f, int n)
{
	static const char blanks[] = "                                                                ";
	int left = n;

	while (left > 0) {
		int k = left < (int)sizeof(blanks) - 1 ? left : (int)sizeof(blanks) - 1;

		fwrite(blanks, 1, (size_t)k, f);
		left -= k;
	}
	return n > 0 ? n : 0;
}

int cli_put_spaces(FILE *f, int n)
{
	return spaces(f, n);
}

int cli_put_fixed2(FILE *f, int width, double v)
{
	char buf[24], *p = buf + sizeof(buf);
	long long whole, cents;
	double y;
	int n;

	/* printf rounds v's exact value; v * 100 is within 1e-8 of it for v
	 * under 1e6, so away from a half cent by more than 1e-6 the rounding
	 * goes the same way (a negative zero, NaN and the rest: printf's) */
	if (!(v >= 0 && v < 1e6) || signbit(v) || width < 0)	/* (negative: printf's left) */
		return fprintf(f, "%*.2f", width, v);
	y = v * 100.0;
	whole = (long long)y;	/* y >= 0: the floor */
	if (fabs(y - (double)whole - 0.5) < 1e-6)
		return fprintf(f, "%*.2f", width, v);
	cents = whole + (y - (double)whole > 0.5);
	*--p = (char)('0' + cents % 10);
	*--p = (char)('0' + cents / 10 % 10);
	*--p = '.';
	whole = cents / 100;
	do
		*--p = (char)('0' + whole % 10);
	while ((whole /= 10) > 0);
	n = (int)(buf + sizeof(buf) - p);
	spaces(f, width - n);
	fwrite(p, 1, (size_t)n, f);
	return n > width ? n : width;
}

int cli_put_str(FILE *f, const char *s, int width, int prec, bool left)
{
	size_t len = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
	int n = (int)len, pad = width > n ? width - n : 0;

	if (width < 0)	/* printf's negative width: left, its size */
		return fprintf(f, "%*.*s", width, prec, s);
	if (!left)
		spaces(f, pad);
	fwrite(s, 1, len, f);
	if (left)
		spaces(f, pad);
	return n + pad;
}

int cli_put_hex(FILE *f, uint64_t v, int digits)
{
	char buf[24], *p = buf + sizeof(buf);
	int n;

	if (!v || digits < 1 || digits > 16)	/* no "0x" for a zero: printf's */
		return fprintf(f, "%#.*llx", digits, (unsigned long long)v);
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (buf + sizeof(buf) - p < digits)
		*--p = '0';
	*--p = 'x';
	*--p = '0';
	n = (int)(buf + sizeof(buf) - p);
	fwrite(p, 1, (size_t)n, f);
	return n;
}
