/* SPDX-License-Identifier: MIT */
/*
 * script-out.c - the out-of-line parts of script-out.h's buffer.  A number
 * is written in place: 32 bytes of its fill are stored first (one fixed
 * copy), then its digits backwards from where its column ends, so the
 * padding costs no loop.  perf script prints hundreds of thousands of
 * lines; printf's format parsing was most of perfkit script's
 * instructions.
 */
#include "script-out.h"

#include <stdbool.h>
#include <stdio_ext.h>

#define FIELD 32	/* the widest number column written in place */

static const char spaces[FIELD] = "                                ";
static const char zeros[FIELD] = "00000000000000000000000000000000";

static struct script_out lines;	/* sample lines kept between samples */
static bool lines_now;			/* lines.f is line-buffered */

struct script_out *script_out_lines(FILE *f)
{
	if (lines.f != f) {
		script_out_flush(&lines);
		lines.f = f;
		lines_now = __flbf(f) != 0;
	}
	return &lines;
}

void script_out_done(struct script_out *o)
{
	if (lines_now)
		script_out_flush(o);
}

void script_out_sync(void)
{
	if (lines.f)
		script_out_flush(&lines);
}

void script_out_mem_slow(struct script_out *o, const char *s, size_t n)
{
	script_out_flush(o);
	if (n > SCRIPT_OUT_SIZE) {
		fwrite_unlocked(s, 1, n, o->f);
		return;
	}
	memcpy(o->buf, s, n);
	o->len = n;
}

/* FIELD bytes of room at the end of the buffer, filled with ch. */
static char *field(struct script_out *o, char ch)
{
	char *d;

	if (SCRIPT_OUT_SIZE - o->len < FIELD)
		script_out_flush(o);
	d = o->buf + o->len;
	memcpy(d, ch == '0' ? zeros : spaces, FIELD);
	return d;
}

static void fill(struct script_out *o, int n)
{
	for (; n > 0; n -= FIELD)
		script_out_mem(o, spaces, (size_t)(n < FIELD ? n : FIELD));
}

void script_out_padn(struct script_out *o, const char *s, size_t n, int width)
{
	int pad = (width < 0 ? -width : width) - (int)n;

	if (width > 0 && pad > 0)
		fill(o, pad);
	script_out_mem(o, s, n);
	if (width < 0 && pad > 0)
		fill(o, pad);
}

/* A column wider than FIELD (nothing here asks for one): the text,
 * formatted in tmp, padded byte by byte. */
static void wide(struct script_out *o, const char *s, int len, int width, char ch)
{
	int pad = (width < 0 ? -width : width) - len;

	for (int i = 0; width > 0 && i < pad; i++)
		script_out_chr(o, ch);
	script_out_mem(o, s, (size_t)len);
	for (int i = 0; width < 0 && i < pad; i++)
		script_out_chr(o, ' ');
}

/* How many decimal digits v has. */
static int dec_len(uint64_t v)
{
	int n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* (200 characters: the string's NUL is left out.) */
const char script_out_dec_pairs[200] = "00010203040506070809101112131415161718192021222324"
				       "25262728293031323334353637383940414243444546474849"
				       "50515253545556575859606162636465666768697071727374"
				       "75767778798081828384858687888990919293949596979899";

/* v's digits, written backwards ending at end, two at a time; returns
 * the first. */
static char *digits(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned int i = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--end = script_out_dec_pairs[i + 1];
		*--end = script_out_dec_pairs[i];
	}
	if (v >= 10) {
		*--end = script_out_dec_pairs[v * 2 + 1];
		*--end = script_out_dec_pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* A number of `len` characters written by put(end) in |width| columns:
 * right-aligned in `ch`, or left-aligned in spaces for a negative width. */
#define PUT_NUMBER(o, width, ch, len, put)                                      \
	do {                                                                    \
		int w_ = (width) < 0 ? -(width) : (width);                      \
		int total_ = w_ > (len) ? w_ : (len);                           \
		char tmp_[FIELD];                                               \
		char *d_ = w_ > FIELD ? tmp_ : field(o, (width) < 0 ? ' ' : (ch)); \
		char *end = d_ + (w_ > FIELD || (width) < 0 ? (len) : total_);  \
		put;                                                            \
		if (w_ > FIELD)                                                 \
			wide(o, tmp_, len, width, ch);                          \
		else                                                            \
			(o)->len += (size_t)total_;                             \
	} while (0)

void script_out_udec(struct script_out *o, uint64_t v, int width, char ch)
{
	int len = dec_len(v);

	PUT_NUMBER(o, width, ch, len, digits(end, v));
}

void script_out_sdec(struct script_out *o, int64_t v, int width)
{
	uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int len = dec_len(mag) + (v < 0);

	PUT_NUMBER(o, width, ' ', len, {
		char *p = digits(end, mag);

		if (v < 0)
			p[-1] = '-';
	});
}

/* v's len hex digits, written backwards ending at end, a byte at a time
 * (a sample's addresses are most of script's numbers). */
static void hex_digits(char *end, uint64_t v, int len)
{
	static const char pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
				    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
				    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
				    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
				    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
				    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
				    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
				    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

	for (; len >= 2; len -= 2, v >>= 8) {
		end -= 2;
		memcpy(end, &pairs[(v & 0xff) * 2], 2);
	}
	if (len)
		*--end = pairs[(v & 15) * 2 + 1];
}

void script_out_hex(struct script_out *o, uint64_t v, int width)
{
	int len = (64 - __builtin_clzll(v | 1) + 3) / 4;

	PUT_NUMBER(o, width, ' ', len, hex_digits(end, v, len));
}

void script_out_fixed(struct script_out *o, uint64_t secs, uint64_t frac, int prec, int width)
{
	static const uint32_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
					1000000000 };
	int len;

	if (prec > 9)
		prec = 9;	/* nanoseconds at most */
	frac %= p10[prec];	/* the digits written below are prec */
	len = dec_len(secs) + 1 + prec;
	PUT_NUMBER(o, width, ' ', len, {
		char *f = digits(end, frac);	/* frac < 10^prec: zeros before */

		end -= prec;
		while (f > end)
			*--f = '0';
		*--end = '.';
		digits(end, secs);
	});
}

/* Keep o's text since `from` (no flush since `flushes`) in k, less its
 * last `drop` bytes (the fraction's), as the text of `key`. */
static void keep(struct script_out_kept *k, const struct script_out *o, size_t from, uint64_t flushes,
		 size_t drop, struct script_out_kept key)
{
	size_t n = o->len - from - drop;

	k->len = 0;
	if (o->flushes != flushes || o->len < from + drop || n == 0 || n > sizeof(k->text))
		return;
	*k = key;
	k->len = (uint8_t)n;
	memcpy(k->text, o->buf + from, n);
}

void script_out_fixed_keep(struct script_out *o, struct script_out_kept *k, uint64_t secs, uint64_t frac,
			   int prec, int width)
{
	size_t from = o->len;
	uint64_t flushes = o->flushes;

	script_out_fixed(o, secs, frac, prec, width);
	if (prec >= 1 && prec <= 9)
		keep(k, o, from, flushes, (size_t)prec,
		     (struct script_out_kept){ .v = secs, .prec = prec, .width = width });
	else
		k->len = 0;
}
