/* SPDX-License-Identifier: MIT */
/*
 * test_pfm.c - libpfm4 names -> perf_event_attr for fixed CPU models, with
 * no hardware needed: LIBPFM_FORCE_PMU picks the model.  libpfm4 reads that
 * variable once per process, so this one executable is registered once per
 * model and takes the model as its argument ("skl", "amd64_fam19h_zen3", or
 * "none" for libpfm4's generic perf:: and perf_raw:: PMUs, which a forced
 * model hides).
 *
 * The expected encodings come from the vendors' manuals, not from running
 * the code: Intel SDM vol. 3B, Skylake core events (INST_RETIRED.ANY_P
 * C0H/00H, UOPS_ISSUED.ANY 0EH/01H, BR_MISP_RETIRED.ALL_BRANCHES C5H/00H,
 * MEM_LOAD_RETIRED.L1_MISS D1H/08H, CPU_CLK_UNHALTED.THREAD_P 3CH/00H;
 * IA32_PERFEVTSELx: edge bit 18, inv bit 23, cmask bits 24-31) and AMD's
 * PPR for family 19h model 01h (PMCx0C0, PMCx076, PMCx0C2, PMCx0C3,
 * PMCx029 unit mask 01h, PMCx28F unit mask 04h with event bits 11:8 in
 * PerfEvtSel bits 35:32).  Through perf_events the USR/OS/INT/EN bits are
 * never in config: the kernel derives them from exclude_* itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "perfkit.h"
#include "event/event.h"

struct vec {
	const char *text;
	uint32_t type;
	uint64_t config;
	int eu, ek, eh;		/* exclude_user, exclude_kernel, exclude_hv (-1: generic_exclude_hv) */
	int precise;
	uint64_t period;
	int freq;
	const char *fstr_prefix;	/* libpfm4's fully qualified name starts so */
};

static const char *pmu_name;	/* the libpfm4 PMU every vector resolves to */
static const struct vec *vecs;
static size_t nr_vecs;

static const struct vec skl_vecs[] = {
	{ "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "inst_retired:any_p", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:u", PERF_TYPE_RAW, 0xc0, 0, 1, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:k", PERF_TYPE_RAW, 0xc0, 1, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:u:k", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:c=1", PERF_TYPE_RAW, 0x010000c0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:e=0:i=0:c=1" },
	{ "INST_RETIRED:ANY_P:c=1:i=1", PERF_TYPE_RAW, 0x018000c0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:e=0:i=1:c=1" },
	{ "INST_RETIRED:ANY_P:e=1:c=1", PERF_TYPE_RAW, 0x010400c0, 0, 0, 0, 0, 0, 0, "skl::INST_RETIRED:ANY_P:e=1:i=0:c=1" },
	{ "INST_RETIRED:ANY_P:precise=2", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 2, 0, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:period=100003", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 100003, 0, "skl::INST_RETIRED:ANY_P:" },
	{ "INST_RETIRED:ANY_P:freq=4000", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 4000, 1, "skl::INST_RETIRED:ANY_P:" },
	{ "skl::UOPS_ISSUED:ANY", PERF_TYPE_RAW, 0x010e, 0, 0, 0, 0, 0, 0, "skl::UOPS_ISSUED:ANY:" },
	{ "BR_MISP_RETIRED:ALL_BRANCHES", PERF_TYPE_RAW, 0xc5, 0, 0, 0, 0, 0, 0, "skl::BR_MISP_RETIRED:ALL_BRANCHES:" },
	{ "MEM_LOAD_RETIRED:L1_MISS", PERF_TYPE_RAW, 0x08d1, 0, 0, 0, 0, 0, 0, "skl::MEM_LOAD_RETIRED:L1_MISS:" },
	{ "CPU_CLK_UNHALTED:THREAD_P", PERF_TYPE_RAW, 0x3c, 0, 0, 0, 0, 0, 0, "skl::" },
};

/* AMD's PMU knows the hypervisor level, so perf --pfm-events' default of
 * user+kernel excludes it, as does a u or k modifier; h=1 brings it back. */
static const struct vec zen3_vecs[] = {
	{ "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:" },
	{ "RETIRED_INSTRUCTIONS:u:k:h", PERF_TYPE_RAW, 0xc0, 0, 0, 0, 0, 0, 0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:" },
	{ "RETIRED_INSTRUCTIONS:k", PERF_TYPE_RAW, 0xc0, 1, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:" },
	{ "RETIRED_INSTRUCTIONS:u", PERF_TYPE_RAW, 0xc0, 0, 1, 1, 0, 0, 0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:" },
	{ "CYCLES_NOT_IN_HALT", PERF_TYPE_RAW, 0x76, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::CYCLES_NOT_IN_HALT:" },
	{ "RETIRED_BRANCH_INSTRUCTIONS", PERF_TYPE_RAW, 0xc2, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::" },
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", PERF_TYPE_RAW, 0xc3, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::" },
	{ "LS_DISPATCH:LD_DISPATCH", PERF_TYPE_RAW, 0x0129, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::LS_DISPATCH:LD_DISPATCH:" },
	{ "OP_CACHE_HIT_MISS:OC_MISS", PERF_TYPE_RAW, 0x20000048fULL, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::OP_CACHE_HIT_MISS:OC_MISS:" },
	{ "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:c=2:i=1", PERF_TYPE_RAW, 0x028000c0, 0, 0, 1, 0, 0, 0, "amd64_fam19h_zen3::" },
};

/* libpfm4's perf:: names map to perf's generic events (linux/perf_event.h). */
static const struct vec generic_vecs[] = {
	{ "perf::PERF_COUNT_SW_CPU_CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 0, -1, 0, 0, 0, "perf::PERF_COUNT_SW_CPU_CLOCK:" },
	{ "perf::PERF_COUNT_SW_CPU_CLOCK:u", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 1, -1, 0, 0, 0, "perf::PERF_COUNT_SW_CPU_CLOCK:" },
	{ "perf::PERF_COUNT_SW_PAGE_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, -1, 0, 0, 0, "perf::PERF_COUNT_SW_PAGE_FAULTS:" },
	{ "perf::PERF_COUNT_HW_INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, -1, 0, 0, 0, "perf::PERF_COUNT_HW_INSTRUCTIONS:" },
	{ "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS", PERF_TYPE_HW_CACHE,
	  PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
	  0, 0, -1, 0, 0, 0, "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS:" },
};

/* exclude_hv of a perf:: event given user and kernel: libpfm4's perf::
 * PMU takes its levels from the core PMU it finds active (an Intel one has
 * no hypervisor level; with none found, as in a VM of a CPU model libpfm4
 * does not know, every level), and hv is excluded only where the level
 * exists.  Asked of libpfm4 itself: a perf:: hardware event lists the h
 * modifier exactly when it does. */
static int generic_exclude_hv(void)
{
	pfm_event_info_t ei;
	int idx;

	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	assert_true((idx = pfm_find_event("perf::PERF_COUNT_HW_INSTRUCTIONS")) >= 0);
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	assert_int_equal(pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei), PFM_SUCCESS);
	for (int i = 0; i < ei.nattrs; i++) {
		pfm_event_attr_info_t ai;

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_MOD_BOOL && !strcmp(ai.name, "h"))
			return 1;
	}
	return 0;
}

static void test_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < nr_vecs; i++) {
		const struct vec *v = &vecs[i];
		struct perf_event_attr a;
		char *fstr = NULL, *pmu = NULL;
		int ret;

		memset(&a, 0, sizeof(a));
		a.size = 0x5a;	/* a field libpfm4 must not touch */
		ret = pk__pfm_encode(v->text, &a, &fstr, &pmu);
		if (ret != 0)
			print_error("%s: %d %s\n", v->text, ret, pk_last_error()->why);
		assert_int_equal(ret, 0);
		print_message("# %s -> type %u config %#llx\n", v->text, a.type,
			      (unsigned long long)a.config);
		assert_int_equal(a.type, v->type);
		assert_int_equal(a.config, v->config);
		assert_int_equal(a.config1, 0);
		assert_int_equal(a.exclude_user, v->eu);
		assert_int_equal(a.exclude_kernel, v->ek);
		assert_int_equal(a.exclude_hv, v->eh < 0 ? generic_exclude_hv() : v->eh);
		/* host only unless mg/mh say otherwise, like perf's default */
		assert_int_equal(a.exclude_guest, 1);
		assert_int_equal(a.exclude_host, 0);
		assert_int_equal(a.precise_ip, v->precise);
		assert_int_equal(a.sample_period, v->period);
		assert_int_equal(a.freq, v->freq);
		assert_int_equal(a.size, 0x5a);
		assert_non_null(fstr);
		assert_non_null(pmu);
		if (strncmp(fstr, v->fstr_prefix, strlen(v->fstr_prefix)))
			fail_msg("%s: fstr %s does not start with %s", v->text, fstr, v->fstr_prefix);
		if (strcmp(pmu_name, "none"))
			assert_string_equal(pmu, pmu_name);
		free(fstr);
		free(pmu);
	}
}

/* One failing string: the errno, and words the message must contain. */
static void expect_error(const char *text, int err, const char *why_has, const char *hint_has)
{
	struct perf_event_attr a;
	char *fstr = (char *)"untouched", *pmu = (char *)"untouched";
	const struct pk_error *e;
	int ret;

	memset(&a, 0, sizeof(a));
	ret = pk__pfm_encode(text, &a, &fstr, &pmu);
	e = pk_last_error();
	print_message("# %s -> %d: %s / hint: %s\n", text, ret, e->why, e->hint);
	assert_int_equal(ret, err);
	assert_int_equal(e->code, err);
	assert_null(fstr);
	assert_null(pmu);
	assert_int_equal(a.type, 0);
	assert_int_equal(a.config, 0);
	assert_non_null(strstr(e->what, text));
	if (why_has && !strstr(e->why, why_has))
		fail_msg("why '%s' lacks '%s'", e->why, why_has);
	if (hint_has && !strstr(e->hint, hint_has))
		fail_msg("hint '%s' lacks '%s'", e->hint, hint_has);
}

static void test_skl_errors(void **state)
{
	(void)state;
	/* a umask the event does not have: named, and the real ones listed */
	expect_error("INST_RETIRED:BOGUS", -EINVAL, "'BOGUS'", "ANY_P");
	expect_error("INST_RETIRED:ANY_P:zz=1", -EINVAL, "'zz' is not", "modifiers");
	expect_error("INST_RETIRED:ANY_P:c=1:c=2", -EINVAL, "'c' is given twice", "ANY_P");
	expect_error("INST_RETIRED:ANY_P:c=300", -EINVAL, "'c=300'", NULL);
	/* two umasks that do not combine */
	expect_error("INST_RETIRED:ALL:ANY_P", -EINVAL, "libpfm4", "PREC_DIST");
	/* nothing close: no guess, a pointer to the list instead */
	expect_error("NO_SUCH_EVENT", -ENOENT, "NO_SUCH_EVENT", "lists the events libpfm4 knows");
	expect_error("INST_RETIRD:ANY_P", -ENOENT, "INST_RETIRD", "skl::INST_RETIRED");
	/* a model other than the forced one */
	expect_error("skx::INST_RETIRED:ANY_P", -ENOENT, "skx::INST_RETIRED",
		     "LIBPFM_FORCE_PMU=skl restricts");
	/* cpu= cannot travel in an attr */
	expect_error("INST_RETIRED:ANY_P:cpu=1", -EINVAL, "cpu=1", "--cpu");
	expect_error("INST_RETIRED:ANY_P:period=0", -EINVAL, NULL, NULL);
}

static void test_zen3_errors(void **state)
{
	(void)state;
	/* PMCx28F needs a unit mask: libpfm4 says so, we list them */
	expect_error("OP_CACHE_HIT_MISS", -EINVAL, "unit mask", "OC_MISS");
	expect_error("OP_CACHE_HIT_MISS:OC_MISSES", -EINVAL, "'OC_MISSES'", "OC_HIT");
	expect_error("RETIRED_INSTRUCTONS", -ENOENT, NULL, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS");
}

static void test_generic_errors(void **state)
{
	(void)state;
	expect_error("perf::PERF_COUNT_SW_CPU_CLOK", -ENOENT, NULL, "perf::PERF_COUNT_SW_CPU_CLOCK");
	/* a model libpfm4 knows but this machine is not */
	expect_error("skl::INST_RETIRED:ANY_P", -ENOENT, NULL, "LIBPFM_FORCE_PMU=skl selects it");
	expect_error("nosuchpmu::INST_RETIRED", -ENOENT, NULL, "no PMU called 'nosuchpmu'");
	expect_error("perf::PERF_COUNT_SW_CPU_CLOCK:h=1:precise=9", -EINVAL, NULL, NULL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest skl[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_skl_errors),
	};
	const struct CMUnitTest zen3[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_zen3_errors),
	};
	const struct CMUnitTest generic[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_generic_errors),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s skl|amd64_fam19h_zen3|none\n", argv[0]);
		return 2;
	}
	pmu_name = argv[1];
	/* Before the first pfm_initialize() of the process: libpfm4 reads it once. */
	if (!strcmp(pmu_name, "none"))
		unsetenv("LIBPFM_FORCE_PMU");
	else
		setenv("LIBPFM_FORCE_PMU", pmu_name, 1);
	if (!strcmp(pmu_name, "skl")) {
		vecs = skl_vecs;
		nr_vecs = sizeof(skl_vecs) / sizeof(skl_vecs[0]);
		return cmocka_run_group_tests_name("pfm-skl", skl, NULL, NULL);
	}
	if (!strcmp(pmu_name, "amd64_fam19h_zen3")) {
		vecs = zen3_vecs;
		nr_vecs = sizeof(zen3_vecs) / sizeof(zen3_vecs[0]);
		return cmocka_run_group_tests_name("pfm-zen3", zen3, NULL, NULL);
	}
	vecs = generic_vecs;
	nr_vecs = sizeof(generic_vecs) / sizeof(generic_vecs[0]);
	return cmocka_run_group_tests_name("pfm-generic", generic, NULL, NULL);
}
