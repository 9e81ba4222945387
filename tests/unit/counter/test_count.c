/* SPDX-License-Identifier: MIT */
/*
 * test_count.c - decoding read(2) data for every read_format combination,
 * from buffers laid out by hand per perf_event_open(2), rejecting short,
 * long and inconsistent buffers, and multiplexing scaling including values
 * whose product with the enabled time overflows 64 bits.
 */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

#define TE PERF_FORMAT_TOTAL_TIME_ENABLED
#define TR PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID PERF_FORMAT_ID
#define GR PERF_FORMAT_GROUP
#define LO (1ULL << 4)
#define SZ sizeof(struct pk_count)

/* Build the layout the man page documents, independently of the decoder. */
static size_t layout(uint64_t rf, const struct pk_count *c, size_t nr, uint64_t *w)
{
	size_t n = 0;

	if (!(rf & GR)) {
		w[n++] = c[0].value;
		if (rf & TE) w[n++] = c[0].enabled;
		if (rf & TR) w[n++] = c[0].running;
		if (rf & ID) w[n++] = c[0].id;
		if (rf & LO) w[n++] = c[0].lost;
		return n;
	}
	w[n++] = nr;
	if (rf & TE) w[n++] = c[0].enabled;
	if (rf & TR) w[n++] = c[0].running;
	for (size_t i = 0; i < nr; i++) {
		w[n++] = c[i].value;
		if (rf & ID) w[n++] = c[i].id;
		if (rf & LO) w[n++] = c[i].lost;
	}
	return n;
}

/* All 32 combinations of the five bits, single and group (3 counters). */
static void test_every_read_format(void **state)
{
	const struct pk_count in[3] = {
		{ SZ, 111, 9000, 4500, 7, 1 }, { SZ, 222, 9000, 4500, 8, 2 }, { SZ, 333, 9000, 4500, 9, 3 },
	};

	(void)state;
	for (uint64_t rf = 0; rf < 32; rf++) {
		uint64_t w[32];
		struct pk_count out[4];
		size_t nr = (rf & GR) ? 3 : 1, n = layout(rf, in, nr, w);
		int got;

		memset(out, 0xa5, sizeof(out));
		out[0].size = SZ;
		got = pk_count_parse(rf, w, n * 8, out, 4);
		if (got != (int)nr)
			fail_msg("read_format 0x%llx: got %d counters, want %zu (%s)",
				 (unsigned long long)rf, got, nr, pk_last_error()->why);
		for (size_t i = 0; i < nr; i++) {
			assert_int_equal(out[i].value, in[i].value);
			assert_int_equal(out[i].enabled, rf & TE ? in[0].enabled : 0);
			assert_int_equal(out[i].running, rf & TR ? in[0].running : 0);
			assert_int_equal(out[i].id, rf & ID ? in[i].id : 0);
			assert_int_equal(out[i].lost, rf & LO ? in[i].lost : 0);
		}
		/* One word short or long is an error that says how big it should be. */
		assert_int_equal(pk_count_parse(rf, w, (n - 1) * 8, out, 4), -22);
		assert_int_equal(pk_count_parse(rf, w, (n + 1) * 8, out, 4), -22);
		assert_int_equal(pk_count_parse(rf, w, n * 8 - 3, out, 4), -22);
	}
}

static void test_group_more_than_max(void **state)
{
	const struct pk_count in[3] = { { SZ, 1 }, { SZ, 2 }, { SZ, 3 } };
	uint64_t w[8];
	struct pk_count out[2] = { { .size = SZ } };
	size_t n = layout(GR, in, 3, w);

	(void)state;
	/* Like snprintf: the return says how many there are; only max are filled. */
	assert_int_equal(pk_count_parse(GR, w, n * 8, out, 2), 3);
	assert_int_equal(out[1].value, 2);
	assert_int_equal(pk_count_parse(GR, w, n * 8, NULL, 0), 3);
}

static void test_bad_buffers(void **state)
{
	uint64_t w[4] = { UINT64_MAX, 1, 2, 3 };	/* a group claiming 2^64-1 counters */
	struct pk_count out[1] = { { .size = SZ } };

	(void)state;
	assert_int_equal(pk_count_parse(GR | TE, w, sizeof(w), out, 1), -22);
	assert_non_null(strstr(pk_last_error()->why, "counters"));
	assert_int_equal(pk_count_parse(GR, w, 0, out, 1), -22);
	assert_int_equal(pk_count_parse(1ULL << 9, w, 8, out, 1), -22);
	assert_non_null(strstr(pk_last_error()->why, "does not know"));
	assert_int_equal(pk_count_parse(0, w, 0, out, 1), -22);
	assert_non_null(strstr(pk_last_error()->why, "needs 8 bytes"));
}

static void test_scaling(void **state)
{
	static const struct {
		struct pk_count c;
		uint64_t scaled;
		bool ran;
	} t[] = {
		{ { SZ, 1000, 0, 0 }, 1000, true },			/* times not read */
		{ { SZ, 1000, 500, 500 }, 1000, true },		/* ran all the time */
		{ { SZ, 1000, 1000, 250 }, 4000, true },		/* a quarter of the time */
		{ { SZ, 1000, 3, 2 }, 1500, true },
		{ { SZ, 10, 3, 4 }, 7, true },			/* rounded down */
		{ { SZ, 1000, 800, 0 }, 0, false },			/* never scheduled */
		/* value * enabled overflows 64 bits; the result does not. */
		{ { SZ, UINT64_MAX / 2, 1ULL << 40, 1ULL << 39 }, UINT64_MAX - 1, true },
		{ { SZ, UINT64_MAX, 3, 1 }, UINT64_MAX, true },	/* saturates */
		{ { SZ, 0x123456789abcdef, 0xfedcba987654321, 0xfedcba987654321 / 3 },
		  0x369d0369d0369cd, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (pk_count_scaled(&t[i].c) != t[i].scaled)
			fail_msg("case %zu: scaled %llu, want %llu", i,
				 (unsigned long long)pk_count_scaled(&t[i].c),
				 (unsigned long long)t[i].scaled);
		assert_int_equal(pk_count_ran(&t[i].c), t[i].ran);
	}
}

/*
 * struct pk_count starts with its size.  Too small (a caller that never set
 * it) is refused with a message that says what to set; an array's stride is
 * the first element's size, so a caller built against a larger, later
 * struct gets every count in the right element and zeroes in the fields
 * this version does not know.
 */
static void test_size_and_stride(void **state)
{
	const struct pk_count in[3] = { { SZ, 1, 10, 5, 7, 0 }, { SZ, 2, 10, 5, 8, 0 },
					{ SZ, 3, 10, 5, 9, 0 } };
	struct later { struct pk_count c; uint64_t added; } big[3];
	struct pk_count out[1] = { { .size = 0 } };
	uint64_t w[16];
	size_t n = layout(GR | TE | TR | ID, in, 3, w);

	(void)state;
	assert_int_equal(pk_count_parse(GR | TE | TR | ID, w, n * 8, out, 1), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "sizeof(struct pk_count)"));
	out[0].size = PK_COUNT_SIZE_VER0 - 8;
	assert_int_equal(pk_count_parse(GR | TE | TR | ID, w, n * 8, out, 1), -EINVAL);
	assert_int_equal(pk_count_parse(GR | TE | TR | ID, w, n * 8, NULL, 1), -EINVAL);
	/* Nothing to fill: no struct needed. */
	assert_int_equal(pk_count_parse(GR | TE | TR | ID, w, n * 8, NULL, 0), 3);

	memset(big, 0xa5, sizeof(big));
	big[0].c.size = sizeof(big[0]);
	assert_int_equal(pk_count_parse(GR | TE | TR | ID, w, n * 8, &big[0].c, 3), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(big[i].c.size, sizeof(big[0]));
		assert_int_equal(big[i].c.value, i + 1);
		assert_int_equal(big[i].c.enabled, 10);
		assert_int_equal(big[i].c.running, 5);
		assert_int_equal(big[i].c.id, 7 + i);
		assert_int_equal(big[i].c.lost, 0);
		assert_int_equal(big[i].added, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_read_format),
		cmocka_unit_test(test_group_more_than_max),
		cmocka_unit_test(test_bad_buffers),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_size_and_stride),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
