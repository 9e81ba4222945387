/* SPDX-License-Identifier: MIT */
/*
 * test_pmu_sysfs.c - PMU discovery on this machine's real /sys ('kernel'
 * suite: it depends on the running kernel, not on fixtures).  The fixed
 * types are ABI (software 1, tracepoint 2, breakpoint 5); every other PMU's
 * type is checked against its own type file, read here independently, so
 * symlinked entries, real file endings and whatever PMUs this kernel has
 * all go through the scanner.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfkit.h"
#include "pmu/pmu.h"

#define DEVICES "/sys/bus/event_source/devices"

static struct pk_pmus *scan_real(void)
{
	struct pk_pmus *pmus = NULL;
	struct stat st;

	unsetenv("PERFKIT_SYSFS_ROOT");
	if (stat(DEVICES, &st))
		skip();	/* no perf_events in this kernel, or no sysfs */
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	return pmus;
}

static const struct { const char *name; uint32_t type; } fixed[] = {
	{ "software", PERF_TYPE_SOFTWARE },
	{ "tracepoint", PERF_TYPE_TRACEPOINT },
	{ "breakpoint", PERF_TYPE_BREAKPOINT },
};

static void test_fixed_types(void **state)
{
	struct pk_pmus *pmus = scan_real();

	(void)state;
	assert_int_equal(PERF_TYPE_SOFTWARE, 1);
	assert_int_equal(PERF_TYPE_TRACEPOINT, 2);
	assert_int_equal(PERF_TYPE_BREAKPOINT, 5);
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		const struct pk_pmu *pmu = pk_pmus_find(pmus, fixed[i].name);

		assert_non_null(pmu);
		assert_int_equal(pk_pmu_type(pmu), fixed[i].type);
		assert_ptr_equal(pk__pmu_find_by_type(pmus, fixed[i].type), pmu);
		/* The software PMUs have no format/ and no events/. */
		assert_int_equal(pk_pmu_nr_formats(pmu), 0);
	}
	pk_pmus_free(pmus);
}

static void test_every_type(void **state)
{
	struct pk_pmus *pmus = scan_real();

	(void)state;
	assert_true(pk_pmus_nr(pmus) >= 3);
	for (size_t i = 0; i < pk_pmus_nr(pmus); i++) {
		const struct pk_pmu *pmu = pk_pmus_get(pmus, i);
		char path[PATH_MAX];
		unsigned int type;
		FILE *f;

		snprintf(path, sizeof(path), DEVICES "/%s/type", pk_pmu_name(pmu));
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(fscanf(f, "%u", &type), 1);
		fclose(f);
		print_message("# %s type %u\n", pk_pmu_name(pmu), type);
		assert_int_equal(pk_pmu_type(pmu), type);
		/* Every PMU of this era has the mux interval. */
		assert_true(pk_pmu_mux_interval_ms(pmu) > 0);
	}
	pk_pmus_free(pmus);
}

static void test_msr_tsc(void **state)
{
	struct pk_pmus *pmus = scan_real();
	const struct pk_pmu *msr = pk_pmus_find(pmus, "msr");
	const struct pk_pmu_alias *tsc;
	const struct pk_pmu_format *event;
	uint64_t config[4] = { 0 };

	(void)state;
	if (!msr) {
		pk_pmus_free(pmus);
		skip();	/* the msr PMU is x86-only (CONFIG_PERF_EVENTS_INTEL/AMD msr) */
	}
	tsc = pk_pmu_find_alias(msr, "tsc");
	assert_non_null(tsc);
	assert_string_equal(tsc->terms, "event=0x00");
	assert_ptr_equal(pk_pmu_find_alias(msr, "TSC"), tsc);
	event = pk_pmu_find_format(msr, "event");
	assert_non_null(event);
	assert_string_equal(event->spec, "config:0-63");
	assert_int_equal(pk_pmu_encode(msr, "event", 0x06, config), 0);
	assert_int_equal(config[0], 0x06);
	pk_pmus_free(pmus);
}

static void test_uprobe(void **state)
{
	struct pk_pmus *pmus = scan_real();
	const struct pk_pmu *uprobe = pk_pmus_find(pmus, "uprobe");
	const struct pk_pmu_format *f;

	(void)state;
	if (!uprobe) {
		pk_pmus_free(pmus);
		skip();	/* CONFIG_UPROBE_EVENTS is off */
	}
	f = pk_pmu_find_format(uprobe, "retprobe");
	assert_non_null(f);
	assert_int_equal(f->field, 0);
	assert_int_equal(f->mask, 1);
	pk_pmus_free(pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_types),
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_msr_tsc),
		cmocka_unit_test(test_uprobe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
