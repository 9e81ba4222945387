/* SPDX-License-Identifier: MIT */
/*
 * script-out.c - the slow paths of script-out.h's buffer: numbers written
 * digit by digit into a small scratch array and copied in with their
 * padding, and strings longer than the room left.  perf script prints
 * hundreds of thousands of lines; printf's format parsing was most of
 * perfkit script's instructions.
 */
#include "script-out.h"

void script_out_mem(struct script_out *o, const char *s, size_t n)
{
	if (n > SCRIPT_OUT_SIZE - o->len) {
		script_out_flush(o);
		if (n > SCRIPT_OUT_SIZE) {
			fwrite_unlocked(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void fill(struct script_out *o, char ch, int n)
{
	static const char spaces[] = "                                ";
	static const char zeros[] = "00000000000000000000000000000000";
	const char *from = ch == '0' ? zeros : spaces;

	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		script_out_mem(o, from, (size_t)k);
		n -= k;
	}
}

/* The text s (n bytes) in |width| columns: right-aligned, or left-aligned
 * when width is negative. */
static void put_padded(struct script_out *o, const char *s, size_t n, int width, char ch)
{
	int pad = (width < 0 ? -width : width) - (int)n;

	if (width > 0 && pad > 0)
		fill(o, ch, pad);
	script_out_mem(o, s, n);
	if (width < 0 && pad > 0)
		fill(o, ' ', pad);
}

void script_out_padn(struct script_out *o, const char *s, size_t n, int width)
{
	put_padded(o, s, n, width, ' ');
}

/* v's digits, written backwards ending at end; returns the first. */
static char *digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void script_out_udec(struct script_out *o, uint64_t v, int width, char ch)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p = digits(end, v);

	put_padded(o, p, (size_t)(end - p), width, ch);
}

void script_out_sdec(struct script_out *o, int64_t v, int width)
{
	char tmp[24], *end = tmp + sizeof(tmp);
	char *p = digits(end, v < 0 ? -(uint64_t)v : (uint64_t)v);

	if (v < 0)
		*--p = '-';
	put_padded(o, p, (size_t)(end - p), width, ' ');
}

void script_out_hex(struct script_out *o, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16], *end = tmp + sizeof(tmp), *p = end;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	put_padded(o, p, (size_t)(end - p), width, ' ');
}

void script_out_fixed(struct script_out *o, uint64_t secs, uint64_t frac, int prec, int width)
{
	char tmp[48], *end = tmp + sizeof(tmp), *p = end;

	for (int i = 0; i < prec && i < 20; i++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--p = '.';
	p = digits(p, secs);
	put_padded(o, p, (size_t)(end - p), width, ' ');
}
