/* SPDX-License-Identifier: MIT */
/*
 * test_attr_name.c - pk_attr_name, the name perf 6.1 gives an event it
 * knows only by its attr (a file cut before EVENT_DESC): each type's name
 * for its config as perf's evsel__name writes it, with perf's modifier
 * letters, and perf's wording for what it cannot name.  The expected
 * strings follow tools/perf/util/evsel.c of perf 6.1 (evsel__hw_names,
 * evsel__sw_names, evsel__add_modifiers, __evsel__hw_cache_name,
 * evsel__raw_name, __evsel__bp_name); "page-faults:uH" is also what perf
 * report prints for page-faults:u in a cut file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

#define C(t, op, res) ((uint64_t)(t) | (uint64_t)(op) << 8 | (uint64_t)(res) << 16)

/* The attr bits a case sets: exclude_kernel, _user, _hv, _host, _guest. */
enum { XK = 1, XU = 2, XH = 4, XHOST = 8, XG = 16 };

static const struct {
	uint32_t type;
	uint64_t config;
	unsigned int excl, precise;
	uint64_t bp_addr;
	uint32_t bp_type;
	const char *want;
} cases[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, XG, 0, 0, 0, "cycles" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, XK | XH | XG, 0, 0, 0, "cycles:uH" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, XU | XG, 0, 0, 0, "cycles:khH" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, XG, 2, 0, 0, "cycles:ppH" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, XG, 0, 0, 0, "branches" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, XG, 0, 0, 0, "ref-cycles" },
	{ PERF_TYPE_HARDWARE, 99, XG, 0, 0, 0, "unknown-hardware" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, 0, 0, "page-faults:HG" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, XK | XH | XG, 0, 0, 0, "page-faults:uH" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, XG, 0, 0, 0, "cpu-clock" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, XHOST, 0, 0, 0, "context-switches:G" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, XG, 0, 0, 0, "dummy" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, XG, 0, 0, 0, "unknown-software" },
	{ PERF_TYPE_HW_CACHE, C(0, 0, 1), XG, 0, 0, 0, "L1-dcache-load-misses" },
	{ PERF_TYPE_HW_CACHE, C(0, 0, 0), XG, 0, 0, 0, "L1-dcache-loads" },
	{ PERF_TYPE_HW_CACHE, C(2, 1, 1), XG, 0, 0, 0, "LLC-store-misses" },
	{ PERF_TYPE_HW_CACHE, C(1, 1, 0), XG, 0, 0, 0, "invalid-cache" },
	{ PERF_TYPE_HW_CACHE, C(9, 0, 0), XG, 0, 0, 0, "unknown-ext-hardware-cache-type" },
	{ PERF_TYPE_HW_CACHE, C(0, 7, 0), XG, 0, 0, 0, "unknown-ext-hardware-cache-op" },
	{ PERF_TYPE_HW_CACHE, C(0, 0, 5), XG, 0, 0, 0, "unknown-ext-hardware-cache-result" },
	{ PERF_TYPE_RAW, 0x1c2, XK | XH | XG, 0, 0, 0, "raw 0x1c2:uH" },
	{ PERF_TYPE_BREAKPOINT, 0, XG, 0, 0x1000, 3, "mem:0x1000:rw" },
	{ PERF_TYPE_BREAKPOINT, 0, XG, 0, 0x7ffc0010, 4, "mem:0x7ffc0010:x" },
	{ PERF_TYPE_TRACEPOINT, 312, XG, 0, 0, 0, "unknown tracepoint" },
	{ 9, 0, XG, 0, 0, 0, "unknown attr type: 9" },
};

static void test_each_type_named_as_perf(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a;
		char buf[128];

		memset(&a, 0, sizeof(a));
		a.type = cases[i].type;
		a.config = cases[i].config;
		a.exclude_kernel = !!(cases[i].excl & XK);
		a.exclude_user = !!(cases[i].excl & XU);
		a.exclude_hv = !!(cases[i].excl & XH);
		a.exclude_host = !!(cases[i].excl & XHOST);
		a.exclude_guest = !!(cases[i].excl & XG);
		a.precise_ip = cases[i].precise & 3;
		a.bp_addr = cases[i].bp_addr;
		a.bp_type = cases[i].bp_type;
		assert_int_equal(pk_attr_name(&a, buf, sizeof(buf)), 0);
		if (strcmp(buf, cases[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, buf, cases[i].want);
	}
}

static void test_short_buffers_and_bad_arguments(void **state)
{
	struct perf_event_attr a;
	char buf[8];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	assert_int_equal(pk_attr_name(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "context");	/* cut, NUL-terminated */
	assert_int_equal(pk_attr_name(&a, buf, 1), 0);
	assert_string_equal(buf, "");
	assert_int_equal(pk_attr_name(NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pk_attr_name(&a, NULL, 8), -EINVAL);
	assert_int_equal(pk_attr_name(&a, buf, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_type_named_as_perf),
		cmocka_unit_test(test_short_buffers_and_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
