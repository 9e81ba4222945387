/* SPDX-License-Identifier: MIT */
/*
 * num.c - the one checked number parser of libperfkit and its CLI: whole
 * numbers (unsigned or signed 64-bit, decimal or 0x hex, between explicit
 * bounds) and durations in seconds (plain decimal fractions).  Every way a
 * string can fail to be the number asked for -- empty, a sign where none is
 * allowed, trailing junk, a value past 64 bits or outside the bounds, nan,
 * inf, a hex float -- becomes -EINVAL or -ERANGE with a sentence that names
 * the value and the allowed range.  perf's event grammar and option parser
 * read leading zeros as decimal ("010" is ten), and so does this parser:
 * there is no octal.
 */
#include "sys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The offending text, shortened and with its control bytes shown as '?',
 * for a message that quotes it. */
static const char *quote(const char *s, size_t n, char *buf, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 4 < len; i++)
		buf[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	if (n > len - 4 && len > 4)
		memcpy(buf + k, "...", 3), k += 3;
	buf[k] = '\0';
	return buf;
}

static int fail(int err, const char *s, size_t n, const char *fmt_value, const char *range)
{
	char q[72];

	if (!n)
		return pk__error(err, "parsing a number", "an empty string is not a number%s%s",
				 range[0] ? ": give " : "", range);
	return pk__error(err, "parsing a number", fmt_value, quote(s, n, q, sizeof(q)), range);
}

/* Digits of `base` in [s, s+n) into *v; false on a bad digit or 64-bit overflow. */
static bool digits(const char *s, size_t n, unsigned base, uint64_t *v, bool *overflow)
{
	*v = 0;
	*overflow = false;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned d = c >= '0' && c <= '9' ? c - '0'
			   : c >= 'a' && c <= 'f' ? c - 'a' + 10
			   : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

		if (d >= base)
			return false;
		if (*v > (UINT64_MAX - d) / base)
			*overflow = true;	/* keep scanning: junk after it is the worse error */
		else
			*v = *v * base + d;
	}
	return true;
}

/* The magnitude of an unsigned spelling: decimal, or hex after 0x/0X. */
static int magnitude(const char *s, size_t n, uint64_t *v, bool *overflow)
{
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return digits(s + 2, n - 2, 16, v, overflow) ? 0 : -EINVAL;
	return digits(s, n, 10, v, overflow) ? 0 : -EINVAL;
}

int pk__num_u64(const char *s, size_t n, uint64_t min, uint64_t max, uint64_t *out)
{
	char range[64];
	uint64_t v;
	bool over;

	snprintf(range, sizeof(range), "a number from %" PRIu64 " to %" PRIu64, min, max);
	if (n && s[0] == '-')
		return fail(-ERANGE, s, n, "'%s' is negative: give %s", range);
	if (magnitude(s, n, &v, &over) < 0)
		return fail(-EINVAL, s, n, "'%s' is not a number (decimal, or hex after 0x): give %s", range);
	if (over || v < min || v > max)
		return fail(-ERANGE, s, n, "'%s' is out of range: give %s", range);
	*out = v;
	return 0;
}

int pk__num_i64(const char *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
	char range[64];
	bool neg = n && s[0] == '-', over;
	uint64_t v, lim;
	int64_t r;

	snprintf(range, sizeof(range), "a number from %" PRId64 " to %" PRId64, min, max);
	if (magnitude(s + neg, n - neg, &v, &over) < 0)
		return fail(-EINVAL, s, n, "'%s' is not a number (decimal, or hex after 0x): give %s", range);
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (over || v > lim)
		return fail(-ERANGE, s, n, "'%s' is out of range: give %s", range);
	r = neg ? (v == lim ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	if (r < min || r > max)
		return fail(-ERANGE, s, n, "'%s' is out of range: give %s", range);
	*out = r;
	return 0;
}

int pk_num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	if (!s || !out || min > max)
		return pk__error(-EINVAL, "parsing a number", "no string, no result, or min above max");
	return pk__num_u64(s, strlen(s), min, max, out);
}

int pk_num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	if (!s || !out || min > max)
		return pk__error(-EINVAL, "parsing a number", "no string, no result, or min above max");
	return pk__num_i64(s, strlen(s), min, max, out);
}

/*
 * Seconds: digits with at most one '.', at least one digit.  Exponents, hex
 * floats, nan and inf are refused by construction: only these characters
 * get through, so no libc float syntax (or locale) is involved.
 */
int pk_num_parse_seconds(const char *s, double min, double max, double *out)
{
	char range[80];
	size_t n, int_digits = 0, frac_digits = 0;
	double v = 0, scale = 1;
	bool dot = false;

	if (!s || !out || !(min <= max))
		return pk__error(-EINVAL, "parsing a duration", "no string, no result, or min above max");
	n = strlen(s);
	snprintf(range, sizeof(range), "seconds from %.9g to %.9g", min, max);
	if (n && s[0] == '-')
		return fail(-ERANGE, s, n, "'%s' is negative: give %s", range);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && !dot) {
			dot = true;
		} else if (s[i] >= '0' && s[i] <= '9') {
			if (dot) {
				scale /= 10;
				v += (s[i] - '0') * scale;
				frac_digits++;
			} else {
				v = v * 10 + (s[i] - '0');
				int_digits++;
			}
		} else {
			return fail(-EINVAL, s, n, "'%s' is not a duration (like 2 or 0.5): give %s", range);
		}
	}
	if (!int_digits && !frac_digits)
		return fail(-EINVAL, s, n, "'%s' is not a duration (like 2 or 0.5): give %s", range);
	if (v < min || v > max)
		return fail(-ERANGE, s, n, "'%s' is out of range: give %s", range);
	*out = v;
	return 0;
}
