/* SPDX-License-Identifier: MIT */
/*
 * ksym-quick.h - the kallsyms line test that runs on every one of the
 * file's 100k+ lines, inlined into each walk that needs it (the host's
 * and the symbols layer's sparse index): the usual shape (16 hex digits,
 * a blank, a letter, a blank, a name) recognised and its address parsed
 * eight bytes at a time, the name not looked at.
 */
#ifndef PK_HOST_KSYM_QUICK_H
#define PK_HOST_KSYM_QUICK_H

#include "host/host.h"

#include <ctype.h>
#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

/* Eight bytes at p as a little-endian word (the first byte lowest). */
static inline uint64_t ksym_word(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * The eight hex digits in `x` (the first, most significant, in the lowest
 * byte) as a number, eight bytes at a time; false when a byte is not a
 * hex digit.  For bytes below 0x80, b + 0x50 has its top bit set from '0'
 * up and b + 0x46 from '9' + 1 up, and no sum carries into the next byte.
 */
static inline bool ksym_hex8(uint64_t x, uint32_t *out)
{
	uint64_t y = x | 0x20 * ONES;	/* letters in lower case */
	uint64_t digit = (x + 0x50 * ONES) & ~(x + 0x46 * ONES);
	uint64_t letter = (y + 0x1f * ONES) & ~(y + 0x19 * ONES);

	if ((x & HIGH) || ((digit | letter) & HIGH) != HIGH)
		return false;
	x = (x & 0x0f * ONES) + ((x >> 6) & ONES) * 9;	/* each byte's value */
	x = __builtin_bswap64(x);	/* the last digit, least significant, lowest */
	x = (x | x >> 4) & 0x00ff00ff00ff00ffull;
	x = (x | x >> 8) & 0x0000ffff0000ffffull;
	*out = (uint32_t)(x | x >> 16);
	return true;
}

/* Whether the 16 bytes at p are all lower-case hex digits (the kernel's
 * own spelling), the test of ksym_hex8 without the arithmetic: for those,
 * the bytes' order as text is the addresses' order. */
static inline bool pk__host_ksym_lower16(const char *p)
{
	uint64_t a = ksym_word(p), b = ksym_word(p + 8);
	uint64_t da = (a + 0x50 * ONES) & ~(a + 0x46 * ONES), la = (a + 0x1f * ONES) & ~(a + 0x19 * ONES);
	uint64_t db = (b + 0x50 * ONES) & ~(b + 0x46 * ONES), lb = (b + 0x1f * ONES) & ~(b + 0x19 * ONES);

	return !((a | b) & HIGH) && ((da | la) & (db | lb) & HIGH) == HIGH;
}

/* The start of a quick line's name: after "ffffffff81000000 T ". */
#define QUICK_NAME 19

/*
 * A line of n bytes (line[n] NUL) in the usual shape, its name not looked
 * at: 16 hex digits, a blank, a letter, a blank, and a last byte that is
 * neither a blank, a control character, DEL nor ']'.  parse() would take
 * such a line, a name without a module, exactly when the name holds no
 * byte that ends a name (pk__host_ksym_name_ok): a name ended early by a
 * blank would need a module or trailing blanks, and the last byte rules
 * both out.  Inlined into both of its callers: it runs on every line.
 */
static inline __attribute__((always_inline)) bool pk__host_ksym_quick(const char *line, size_t n,
									      struct pk__host_ksym *s)
{
	uint32_t hi, lo;
	unsigned char last;

	if (n <= QUICK_NAME || line[16] != ' ' || !isalpha((unsigned char)line[17]) ||
	    line[18] != ' ' || !ksym_hex8(ksym_word(line), &hi) || !ksym_hex8(ksym_word(line + 8), &lo))
		return false;
	last = (unsigned char)line[n - 1];
	if (last <= ' ' || last == 0x7f || last == ']')
		return false;
	*s = (struct pk__host_ksym){ (uint64_t)hi << 32 | lo, line[17], line + QUICK_NAME, NULL, true,
				     (uint32_t)(n - QUICK_NAME) };
	return true;
}

#endif
