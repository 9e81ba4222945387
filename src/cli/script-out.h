/* SPDX-License-Identifier: MIT */
/*
 * script-out.h - a small output buffer for perf script's hot path: text,
 * decimal and hexadecimal numbers formatted by hand (the widths and
 * padding printf's "%5d", "%-5d", "%03u", "%10lu", "%16lx" and "%16s"
 * give) into a buffer that is handed to its FILE with one fwrite when full
 * or flushed; the sample lines' buffer lasts from one sample to the next.  The FILE keeps its error flag, so output errors are seen
 * where they were before.
 */
#ifndef PK_CLI_SCRIPT_OUT_H
#define PK_CLI_SCRIPT_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 64 KiB, a pipe's default capacity: lines piped to another program go
 * in an eighth of the write(2)s (and the reader's wake-ups) that 8 KiB
 * took, each 8 KiB fwrite through stdout's 4 KiB buffer being two. */
#define SCRIPT_OUT_SIZE 65536

struct script_out {
	FILE *f;
	size_t len;
	uint64_t flushes;	/* counted: the bytes since len was n are buf[n, len) if it did not move */
	char buf[SCRIPT_OUT_SIZE];
};

/* script_out_flush - hand what is buffered to the FILE, in order; call it
 * before anything else writes to the FILE. */
static inline void script_out_flush(struct script_out *o)
{
	if (o->len) {
		fwrite_unlocked(o->buf, 1, o->len, o->f);
		o->flushes++;
	}
	o->len = 0;
}

/* script_out_lines - the buffer sample lines are written into, kept from
 * one sample to the next, so that a run of samples reaches f in one
 * fwrite per SCRIPT_OUT_SIZE bytes rather than one a sample.  Whatever
 * else writes to f must call script_out_sync first. */
struct script_out *script_out_lines(FILE *f);

/* script_out_done - a sample's lines are complete: handed to the FILE now
 * when it is line-buffered (a terminal, which shows each line as it
 * comes), else kept in the buffer. */
void script_out_done(struct script_out *o);

/* script_out_sync - hand the kept sample lines to their FILE. */
void script_out_sync(void);

/* script_out_mem_slow - script_out_mem when s does not fit in the room
 * left (longer than the buffer: straight through). */
void script_out_mem_slow(struct script_out *o, const char *s, size_t n);

/* script_out_mem - n bytes of s. */
static inline void script_out_mem(struct script_out *o, const char *s, size_t n)
{
	if (n <= SCRIPT_OUT_SIZE - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		script_out_mem_slow(o, s, n);
	}
}

static inline void script_out_str(struct script_out *o, const char *s)
{
	script_out_mem(o, s, strlen(s));
}

static inline void script_out_chr(struct script_out *o, char ch)
{
	if (o->len == SCRIPT_OUT_SIZE)
		script_out_flush(o);
	o->buf[o->len++] = ch;
}

/* script_out_padn - the n bytes of s right-aligned in `width` columns
 * ("%*s"; a negative width left-aligns, as printf's). */
void script_out_padn(struct script_out *o, const char *s, size_t n, int width);

static inline void script_out_pad(struct script_out *o, const char *s, int width)
{
	script_out_padn(o, s, strlen(s), width);
}

/* script_out_udec - v in decimal, right-aligned in `width` columns padded
 * with `fill` (' ' or '0'). */
void script_out_udec(struct script_out *o, uint64_t v, int width, char fill);

/* script_out_sdec - v in decimal in `width` columns, right-aligned ("%5d")
 * or, with a negative width, left-aligned ("%-5d"). */
void script_out_sdec(struct script_out *o, int64_t v, int width);

/* script_out_hex - v in lowercase hex, right-aligned in `width` columns
 * padded with spaces ("%16lx"). */
void script_out_hex(struct script_out *o, uint64_t v, int width);

/* script_out_fixed - "secs.frac", frac zero-padded to `prec` digits,
 * right-aligned in `width` columns (perf's "%12s" time, or "%5lu.%09lu"
 * as width 15). */
void script_out_fixed(struct script_out *o, uint64_t secs, uint64_t frac, int prec, int width);

/* A time's text as last written, for script_out_fixed_kept: consecutive
 * samples repeat their time's seconds. */
struct script_out_kept {
	uint64_t v;		/* the seconds */
	int prec, width;	/* the fraction's digits and the column */
	uint8_t len;		/* 0: nothing kept */
	char text[32];		/* what comes before the fraction
				 * (copied 32 bytes at once: no call) */
};

/* script_out_fixed_keep - script_out_fixed, and what it wrote before the
 * fraction kept in *k (prec 1 to 9; other precisions keep nothing). */
void script_out_fixed_keep(struct script_out *o, struct script_out_kept *k, uint64_t secs, uint64_t frac,
			   int prec, int width);

/* "00" to "99": the two digits of every number below 100. */
extern const char script_out_dec_pairs[200];

/* script_out_low_digits - the low n digits of v (zeros before it as
 * needed), written backwards ending at end, two at a time: a time's
 * fraction, in 32-bit arithmetic, unrolled where n is a constant. */
static inline __attribute__((always_inline)) void script_out_low_digits(char *end, uint32_t v, int n)
{
#pragma GCC unroll 5
	for (; n >= 2; n -= 2) {
		uint32_t q = v / 100;

		end -= 2;
		memcpy(end, &script_out_dec_pairs[(v - q * 100) * 2], 2);
		v = q;
	}
	if (n)
		end[-1] = (char)('0' + v % 10);
}

/* script_out_fixed_kept - script_out_fixed, what comes before the
 * fraction copied from *k when the seconds are the same (a kept prec is
 * 1 to 9, so the fraction's digits fit after the 32 bytes copied; a
 * fraction of 2^32 or more goes the long way, which takes it modulo
 * 10^prec).  Always inline: every sample line has a time, and its
 * callers' constant precisions unroll the digits' loop. */
static inline __attribute__((always_inline)) void script_out_fixed_kept(struct script_out *o,
									 struct script_out_kept *k,
									 uint64_t secs, uint64_t frac,
									 int prec, int width)
{
	if (k->len && k->v == secs && k->prec == prec && k->width == width && k->len + prec <= 32 &&
	    !(frac >> 32)) {
		char *d;

		if (SCRIPT_OUT_SIZE - o->len < 32)
			script_out_flush(o);
		d = o->buf + o->len;
		memcpy(d, k->text, sizeof(k->text));
		script_out_low_digits(d + k->len + prec, (uint32_t)frac, prec);
		o->len += k->len + (size_t)prec;
		return;
	}
	script_out_fixed_keep(o, k, secs, frac, prec, width);
}

#endif
