/* SPDX-License-Identifier: MIT */
/*
 * fuzz_num.c - libFuzzer target for the checked number parser
 * (pk_num_parse_u64/_i64/_seconds), which every numeric CLI option and
 * event term goes through.  Input: one byte choosing the parser, 16 bytes
 * of bounds (two little-endian 64-bit values, swapped when out of order),
 * then the string.  The properties checked, with abort() on a violation:
 * a success lies within the bounds and agrees with an independent reading
 * of the digits; a failure is -EINVAL or -ERANGE, leaves the result
 * untouched and has a message holding no control byte.  fuzz_replay_num
 * runs the committed corpus (fuzz/corpus/num) as a unit test.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void check_failure(int err)
{
	const char *why = pk_last_error()->why;

	if ((err != -EINVAL && err != -ERANGE) || pk_last_error()->code != err || !why[0])
		abort();
	for (const char *p = why; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
}

/* The digits' value by a different route (strtoull), for a plain unsigned
 * spelling that the parser accepted. */
static void check_value(const char *s, uint64_t v)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;

	errno = 0;
	if (strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10) != v || errno || *end)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t a, b, u = 42;
	int64_t i = 42;
	double d = 42;
	char *s;
	int err;

	if (size < 17)
		return 0;
	a = le64(data + 1);
	b = le64(data + 9);
	s = malloc(size - 17 + 1);
	if (!s)
		return 0;
	memcpy(s, data + 17, size - 17);
	s[size - 17] = '\0';
	switch (data[0] % 3) {
	case 0:
		err = pk_num_parse_u64(s, a < b ? a : b, a < b ? b : a, &u);
		if (err)
			check_failure(err), u != 42 ? abort() : (void)0;
		else if (u < (a < b ? a : b) || u > (a < b ? b : a))
			abort();
		else
			check_value(s, u);
		break;
	case 1: {
		int64_t lo = (int64_t)a < (int64_t)b ? (int64_t)a : (int64_t)b;
		int64_t hi = (int64_t)a < (int64_t)b ? (int64_t)b : (int64_t)a;

		err = pk_num_parse_i64(s, lo, hi, &i);
		if (err)
			check_failure(err), i != 42 ? abort() : (void)0;
		else if (i < lo || i > hi)
			abort();
		break;
	}
	default: {
		double hi = (double)(b % 100000000) + 0.5;

		err = pk_num_parse_seconds(s, 0.001, hi, &d);
		if (err)
			check_failure(err), d != 42 ? abort() : (void)0;
		else if (!(d >= 0.001 && d <= hi) || strpbrk(s, "xXnNiIeEpP+"))
			abort();
		break;
	}
	}
	free(s);
	return 0;
}
