/* SPDX-License-Identifier: MIT */
/*
 * test_catalog.c - the event catalogue against the fixture sysfs trees
 * (PERFKIT_SYSFS_ROOT), a fixture tracefs (tracefs/ next to this file, real
 * format files copied from Linux 6.18) and libpfm4 forced to Skylake
 * (LIBPFM_FORCE_PMU=skl): what `perfkit list` and `perfkit info` show.
 */
#include "perfkit.h"
#include "event/event.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static char fixtures[512];

static void use_tree(const char *name)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/sysfs/%s", fixtures, name);
	setenv("PERFKIT_SYSFS_ROOT", path, 1);
}

/* A catalogue of one fixture tree, without the live tracefs and libpfm4. */
static struct pk_catalog *catalog_of(const char *tree)
{
	struct pk_catalog_opts o = { .size = sizeof(o), .no_tracepoints = true, .no_libpfm = true };
	struct pk_catalog *cat = NULL;

	use_tree(tree);
	assert_int_equal(pk_catalog_new(&o, &cat), 0);
	assert_non_null(cat);
	return cat;
}

static const struct pk_event_info *find(const struct pk_catalog *cat, const char *name)
{
	int i = pk_catalog_find(cat, name);

	if (i < 0)
		fail_msg("pk_catalog_find(%s) = %d: %s", name, i, pk_last_error()->why);
	return pk_catalog_get(cat, (size_t)i);
}

/* Attribute `name` of event `ev` at layer os, or fail. */
static struct pk_attr_info attr_named(const struct pk_catalog *cat, const char *ev, const char *name,
				      enum pk_os os, size_t *idx)
{
	int e = pk_catalog_find(cat, ev);
	const struct pk_event_info *in;
	struct pk_attr_info a;

	assert_true(e >= 0);
	in = pk_catalog_get(cat, (size_t)e);
	for (size_t i = 0; i < in->nr_attrs[os]; i++) {
		assert_int_equal(pk_catalog_attr(cat, (size_t)e, i, os, &a), 0);
		if (!strcmp(a.name, name)) {
			if (idx)
				*idx = i;
			return a;
		}
	}
	fail_msg("%s has no attribute %s at layer %d", ev, name, (int)os);
	return a;
}

/* ---- sysfs PMUs ----------------------------------------------------------- */

/* The Skylake cpu PMU's format/ directory, as `perfkit info cpu/raw` shows it. */
static const struct {
	const char *name;
	enum pk_attr_type type;
	int field;
	uint64_t mask;
} skl_formats[] = {
	{ "event", PK_ATTR_MOD_INT, 0, 0xff },
	{ "umask", PK_ATTR_MOD_INT, 0, 0xff00 },
	{ "edge", PK_ATTR_MOD_BOOL, 0, 1ull << 18 },
	{ "pc", PK_ATTR_MOD_BOOL, 0, 1ull << 19 },
	{ "any", PK_ATTR_MOD_BOOL, 0, 1ull << 21 },
	{ "inv", PK_ATTR_MOD_BOOL, 0, 1ull << 23 },
	{ "cmask", PK_ATTR_MOD_INT, 0, 0xff000000ull },
	{ "in_tx", PK_ATTR_MOD_BOOL, 0, 1ull << 32 },
	{ "in_tx_cp", PK_ATTR_MOD_BOOL, 0, 1ull << 33 },
	{ "ldlat", PK_ATTR_MOD_INT, 1, 0xffff },
	{ "frontend", PK_ATTR_MOD_INT, 1, 0xffffff },
	{ "offcore_rsp", PK_ATTR_MOD_INT, 1, ~0ull },
};

static void test_raw_pmu_terms(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");
	const struct pk_event_info *raw = find(cat, "cpu/raw");

	(void)state;
	assert_int_equal(raw->source, PK_SRC_RAW);
	assert_string_equal(raw->pmu, "cpu");
	assert_int_equal(raw->nr_attrs[PK_OS_PMU], sizeof(skl_formats) / sizeof(skl_formats[0]));
	for (size_t i = 0; i < sizeof(skl_formats) / sizeof(skl_formats[0]); i++) {
		struct pk_attr_info a = attr_named(cat, "cpu/raw", skl_formats[i].name, PK_OS_PMU, NULL);

		assert_int_equal(a.type, skl_formats[i].type);
		assert_int_equal(a.ctrl, PK_ATTR_CTRL_PMU);
		assert_int_equal(a.field, skl_formats[i].field);
		assert_int_equal(a.code, skl_formats[i].mask);
		assert_false(a.is_dfl);
	}
	pk_catalog_free(cat);
}

static void test_amd_multi_range_format(void **state)
{
	struct pk_catalog *cat = catalog_of("amd");
	struct pk_attr_info a = attr_named(cat, "cpu/raw", "event", PK_OS_PMU, NULL);

	(void)state;
	/* config:0-7,32-35: a 12-bit event code split in two. */
	assert_int_equal(a.code, 0xf000000ffull);
	assert_int_equal(a.type, PK_ATTR_MOD_INT);
	a = attr_named(cat, "amd_df/raw", "event", PK_OS_PMU, NULL);
	assert_int_equal(a.code, 0x1800000f000000ffull);
	pk_catalog_free(cat);
}

/* Alias events carry their terms, unit and scale; their terms are the
 * defaults of the PMU's format attributes. */
static void test_alias_events(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");
	const struct pk_event_info *in = find(cat, "uncore_imc_0/cas_count_read/");
	struct pk_attr_info a;

	(void)state;
	assert_int_equal(in->source, PK_SRC_PMU);
	assert_string_equal(in->pmu, "uncore_imc_0");
	assert_int_equal(in->code, 0x304);
	assert_non_null(strstr(in->desc, "event=0x04,umask=0x03"));
	assert_non_null(strstr(in->desc, "MiB"));
	assert_non_null(strstr(in->desc, "6.103515625e-05"));
	assert_string_equal(in->equiv, "uncore_imc_0/event=0x04,umask=0x03/");
	a = attr_named(cat, "uncore_imc_0/cas_count_read/", "umask", PK_OS_PMU, NULL);
	assert_true(a.is_dfl);
	assert_int_equal(a.dfl_val64, 3);
	a = attr_named(cat, "uncore_imc_0/cas_count_read/", "edge", PK_OS_PMU, NULL);
	assert_false(a.is_dfl);

	in = find(cat, "power/energy-pkg/");
	assert_non_null(strstr(in->desc, "Joules"));
	assert_non_null(strstr(in->desc, "2.32830643654e-10"));
	in = find(cat, "intel_cqm/llc_occupancy/");
	assert_non_null(strstr(in->desc, "per package"));
	/* A bare term ("in_tx") means 1. */
	in = find(cat, "cpu/cycles-t/");
	assert_int_equal(in->code, 0x10000003cull);
	a = attr_named(cat, "cpu/cycles-t/", "in_tx", PK_OS_PMU, NULL);
	assert_true(a.is_dfl);
	assert_int_equal(a.dfl_val64, 1);
	pk_catalog_free(cat);
}

static size_t count_source(const struct pk_catalog *cat, enum pk_event_source src)
{
	size_t n = 0;

	for (size_t i = 0; i < pk_catalog_nr(cat); i++)
		n += pk_catalog_get(cat, i)->source == src;
	return n;
}

static void test_generic_counts(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");
	const struct pk_event_info *in;

	(void)state;
	/* perf 6.1 lists 10 hardware and 12 software events. */
	assert_int_equal(count_source(cat, PK_SRC_HARDWARE), 10);
	assert_int_equal(count_source(cat, PK_SRC_SOFTWARE), 12);
	/* 7 caches x their valid ops x {access, miss}: L1I has no stores,
	 * iTLB and branch only loads. */
	assert_int_equal(count_source(cat, PK_SRC_HW_CACHE), 32);
	assert_true(pk_catalog_find(cat, "L1-icache-stores") < 0);
	in = find(cat, "L1-icache-load-misses");
	assert_int_equal(in->code, PERF_COUNT_HW_CACHE_L1I | PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	in = find(cat, "task-clock");
	assert_int_equal(in->code, PERF_COUNT_SW_TASK_CLOCK);
	assert_string_equal(in->pmu, "software");
	/* Every msr alias and the two probe PMUs of the tree are there. */
	assert_int_equal(count_source(cat, PK_SRC_KPROBE), 2);
	assert_int_equal(count_source(cat, PK_SRC_UPROBE), 2);
	find(cat, "msr/cpu_thermal_margin/");
	pk_catalog_free(cat);
}

/* The perf and extended layers extend the PMU layer without renumbering. */
static void test_layers(void **state)
{
	static const char *const perf_mods[] = { "u", "k", "h", "H", "G", "I", "p", "D", "e" };
	struct pk_catalog *cat = catalog_of("intel");
	int ti = pk_catalog_find(cat, "task-clock"), ri = pk_catalog_find(cat, "cpu/raw");
	const struct pk_event_info *tc = pk_catalog_get(cat, (size_t)ti);
	const struct pk_event_info *raw = pk_catalog_get(cat, (size_t)ri);
	struct pk_attr_info a, b;
	size_t idx;

	(void)state;
	assert_int_equal(tc->nr_attrs[PK_OS_PMU], 0);
	assert_int_equal(tc->nr_attrs[PK_OS_PERF], 9);
	assert_true(tc->nr_attrs[PK_OS_PERF_EXT] > 9);
	for (size_t i = 0; i < 9; i++) {
		assert_int_equal(pk_catalog_attr(cat, (size_t)ti, i, PK_OS_PERF, &a), 0);
		assert_string_equal(a.name, perf_mods[i]);
		assert_int_equal(a.ctrl, PK_ATTR_CTRL_PERF_EVENT);
	}
	a = attr_named(cat, "task-clock", "p", PK_OS_PERF, NULL);
	assert_int_equal(a.type, PK_ATTR_MOD_INT);
	a = attr_named(cat, "task-clock", "call-graph", PK_OS_PERF_EXT, NULL);
	assert_int_equal(a.type, PK_ATTR_MOD_STR);
	a = attr_named(cat, "task-clock", "period", PK_OS_PERF_EXT, NULL);
	assert_int_equal(a.type, PK_ATTR_MOD_INT);
	/* The PMU layer's index means the same attribute at every layer. */
	for (size_t i = 0; i < raw->nr_attrs[PK_OS_PMU]; i++) {
		assert_int_equal(pk_catalog_attr(cat, (size_t)ri, i, PK_OS_PMU, &a), 0);
		assert_int_equal(pk_catalog_attr(cat, (size_t)ri, i, PK_OS_PERF_EXT, &b), 0);
		assert_string_equal(a.name, b.name);
	}
	attr_named(cat, "cpu/raw", "u", PK_OS_PERF, &idx);
	assert_int_equal(idx, raw->nr_attrs[PK_OS_PMU]);
	/* Out of range at a layer, valid at the next. */
	assert_int_equal(pk_catalog_attr(cat, (size_t)ti, 9, PK_OS_PERF, &a), -ERANGE);
	assert_int_equal(pk_catalog_attr(cat, (size_t)ti, 9, PK_OS_PERF_EXT, &a), 0);
	assert_int_equal(pk_catalog_attr(cat, pk_catalog_nr(cat), 0, PK_OS_PERF, &a), -ERANGE);
	assert_null(pk_catalog_get(cat, pk_catalog_nr(cat)));
	pk_catalog_free(cat);
}

static void test_breakpoint_attrs(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");
	struct pk_attr_info a;

	(void)state;
	assert_int_equal(find(cat, "mem:0x1000/8:w")->source, PK_SRC_BREAKPOINT);
	/* perf's default is rw, 4 bytes. */
	a = attr_named(cat, "mem:ADDR", "r", PK_OS_PMU, NULL);
	assert_true(a.is_dfl && a.dfl_val64 == 1 && a.type == PK_ATTR_MOD_BOOL);
	a = attr_named(cat, "mem:ADDR", "x", PK_OS_PMU, NULL);
	assert_false(a.is_dfl);
	a = attr_named(cat, "mem:ADDR", "len", PK_OS_PMU, NULL);
	assert_true(a.is_dfl && a.dfl_val64 == 4 && a.type == PK_ATTR_MOD_INT);
	/* The probe PMUs' retprobe bit. */
	a = attr_named(cat, "kprobe:SYMBOL", "retprobe", PK_OS_PMU, NULL);
	assert_int_equal(a.type, PK_ATTR_MOD_BOOL);
	assert_int_equal(a.code, 1);
	pk_catalog_free(cat);
}

/* ---- lookup ------------------------------------------------------------------ */

static const struct {
	const char *query;
	const char *name;	/* the catalogue entry it must find */
} finds[] = {
	{ "cs", "context-switches" },
	{ "cycles", "cpu-cycles" },
	{ "faults", "page-faults" },
	{ "migrations", "cpu-migrations" },
	{ "L1-dcache-load-misses", "L1-dcache-load-misses" },
	{ "l1d-loads", "L1-dcache-loads" },
	{ "LLC-load-miss", "LLC-load-misses" },
	{ "msr/tsc/", "msr/tsc/" },
	{ "msr/tsc", "msr/tsc/" },
	{ "cpu/CYCLES-T/", "cpu/cycles-t/" },
	{ "cpu/event=0x3c,umask=1/", "cpu/raw" },
	{ "task-clock:u", "task-clock" },
	{ "r1a8", "rNNN" },
	{ "uprobe:/bin/true:main", "uprobe:PATH:SYMBOL" },
};

static void test_find(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");

	(void)state;
	for (size_t i = 0; i < sizeof(finds) / sizeof(finds[0]); i++) {
		const struct pk_event_info *in = find(cat, finds[i].query);

		if (strcmp(in->name, finds[i].name))
			fail_msg("%s found %s, not %s", finds[i].query, in->name, finds[i].name);
	}
	pk_catalog_free(cat);
}

static void test_find_near_miss(void **state)
{
	struct pk_catalog *cat = catalog_of("intel");
	const struct pk_error *e;

	(void)state;
	assert_int_equal(pk_catalog_find(cat, "task-clok"), -ENOENT);
	e = pk_last_error();
	assert_int_equal(e->code, -ENOENT);
	assert_non_null(strstr(e->hint, "'task-clock'"));
	assert_int_equal(pk_catalog_find(cat, "msr/tcs/"), -ENOENT);
	assert_non_null(strstr(pk_last_error()->hint, "'msr/tsc/'"));
	/* Nothing near: the hint points at the list instead of guessing. */
	assert_int_equal(pk_catalog_find(cat, "qqqqqqqqqqqqqqqqqqqq"), -ENOENT);
	assert_null(strstr(pk_last_error()->hint, "did you mean"));
	assert_non_null(strstr(pk_last_error()->hint, "perfkit list"));
	assert_int_equal(pk_catalog_find(cat, ""), -ENOENT);
	pk_catalog_free(cat);
}

/* ---- tracepoints --------------------------------------------------------------- */

static const struct {
	const char *event, *field;
	enum pk_attr_type type;
	uint64_t offset;
	const char *type_text;
} tp_fields[] = {
	{ "sched:sched_switch", "prev_comm", PK_ATTR_MOD_STR, 8, "char[16]" },
	{ "sched:sched_switch", "prev_pid", PK_ATTR_MOD_INT, 24, "pid_t" },
	{ "sched:sched_switch", "next_prio", PK_ATTR_MOD_INT, 60, "int" },
	{ "sched:sched_process_exec", "filename", PK_ATTR_MOD_STR, 8, "__data_loc char[]" },
	{ "sched:sched_process_exec", "old_pid", PK_ATTR_MOD_INT, 16, "pid_t" },
	{ "irq:irq_handler_entry", "name", PK_ATTR_MOD_STR, 12, "__data_loc char[]" },
};

static void test_tracepoint_fields(void **state)
{
	char tracefs[600];
	struct pk_catalog_opts o = { .size = sizeof(o), .no_libpfm = true, .tracefs = tracefs };
	struct pk_catalog *cat = NULL;
	const struct pk_event_info *in;

	(void)state;
	snprintf(tracefs, sizeof(tracefs), "%s/tests/unit/catalog/tracefs", getenv("PERFKIT_SRCDIR"));
	use_tree("intel");
	assert_int_equal(pk_catalog_new(&o, &cat), 0);
	assert_int_equal(count_source(cat, PK_SRC_TRACEPOINT), 3);
	in = find(cat, "sched:sched_switch");
	assert_int_equal(in->source, PK_SRC_TRACEPOINT);
	assert_string_equal(in->pmu, "tracepoint");
	assert_true(in->code > 0);
	/* Seven fields after the four common_ ones. */
	assert_int_equal(in->nr_attrs[PK_OS_PMU], 7);
	assert_int_equal(in->nr_attrs[PK_OS_PERF], 7 + 9);
	for (size_t i = 0; i < sizeof(tp_fields) / sizeof(tp_fields[0]); i++) {
		struct pk_attr_info a = attr_named(cat, tp_fields[i].event, tp_fields[i].field,
						   PK_OS_PMU, NULL);

		assert_int_equal(a.type, tp_fields[i].type);
		assert_int_equal(a.code, tp_fields[i].offset);
		assert_true(!strncmp(a.desc, tp_fields[i].type_text, strlen(tp_fields[i].type_text)));
	}
	for (size_t i = 0; i < in->nr_attrs[PK_OS_PMU]; i++) {
		struct pk_attr_info a;

		pk_catalog_attr(cat, (size_t)pk_catalog_find(cat, "sched:sched_switch"), i, PK_OS_PMU, &a);
		assert_null(strstr(a.name, "common_"));
	}
	pk_catalog_free(cat);
}

/* ---- libpfm4 (forced to Skylake in main) ------------------------------------------ */

static const struct {
	const char *name;
	enum pk_attr_type type;
	enum pk_attr_ctrl ctrl[3];	/* at PK_OS_PMU, PERF, PERF_EXT */
} skl_mods[] = {
	{ "ANY_P", PK_ATTR_UMASK, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU } },
	{ "u", PK_ATTR_MOD_BOOL, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PERF_EVENT, PK_ATTR_CTRL_PERF_EVENT } },
	{ "k", PK_ATTR_MOD_BOOL, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PERF_EVENT, PK_ATTR_CTRL_PERF_EVENT } },
	{ "i", PK_ATTR_MOD_BOOL, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU } },
	{ "e", PK_ATTR_MOD_BOOL, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU } },
	{ "c", PK_ATTR_MOD_INT, { PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU, PK_ATTR_CTRL_PMU } },
};

static void test_libpfm_skl(void **state)
{
	struct pk_catalog_opts o = { .size = sizeof(o), .no_tracepoints = true };
	struct pk_catalog *cat = NULL;
	const struct pk_event_info *in;
	struct pk_attr_info a;
	int ei;

	(void)state;
	use_tree("intel");
	assert_int_equal(pk_catalog_new(&o, &cat), 0);
	ei = pk_catalog_find(cat, "skl::INST_RETIRED");
	assert_true(ei >= 0);
	assert_int_equal(pk_catalog_find(cat, "INST_RETIRED:ANY_P:u"), ei);
	in = pk_catalog_get(cat, (size_t)ei);
	assert_int_equal(in->source, PK_SRC_LIBPFM);
	assert_string_equal(in->pmu, "libpfm4:skl");
	assert_string_equal(in->canonical, "skl::INST_RETIRED");
	assert_int_equal(in->code, 0xc0);
	assert_true(in->is_precise);
	assert_true(in->nr_attrs[PK_OS_PMU] <= in->nr_attrs[PK_OS_PERF]);
	assert_true(in->nr_attrs[PK_OS_PERF] < in->nr_attrs[PK_OS_PERF_EXT]);
	for (size_t m = 0; m < sizeof(skl_mods) / sizeof(skl_mods[0]); m++) {
		size_t idx0, idx;

		for (int os = PK_OS_PMU; os <= PK_OS_PERF_EXT; os++) {
			a = attr_named(cat, "skl::INST_RETIRED", skl_mods[m].name, (enum pk_os)os, &idx);
			assert_int_equal(a.type, skl_mods[m].type);
			assert_int_equal(a.ctrl, skl_mods[m].ctrl[os]);
			if (os == PK_OS_PMU)
				idx0 = idx;
			else
				assert_int_equal(idx, idx0);	/* same index at every layer */
		}
	}
	/* ANY_P is the default umask; ALL is precise. */
	a = attr_named(cat, "skl::INST_RETIRED", "ANY_P", PK_OS_PMU, NULL);
	assert_true(a.is_dfl);
	assert_false(attr_named(cat, "skl::INST_RETIRED", "i", PK_OS_PMU, NULL).is_dfl);
	assert_true(attr_named(cat, "skl::INST_RETIRED", "ALL", PK_OS_PMU, NULL).is_precise);
	/* The extended layer adds perf_events' period and precise. */
	a = attr_named(cat, "skl::INST_RETIRED", "period", PK_OS_PERF_EXT, NULL);
	assert_int_equal(a.type, PK_ATTR_MOD_INT);
	assert_int_equal(a.ctrl, PK_ATTR_CTRL_PERF_EVENT);
	attr_named(cat, "skl::INST_RETIRED", "precise", PK_OS_PERF_EXT, NULL);
	/* Only the forced PMU's events: no other core PMU sneaks in. */
	for (size_t i = 0; i < pk_catalog_nr(cat); i++) {
		in = pk_catalog_get(cat, i);
		if (in->source == PK_SRC_LIBPFM)
			assert_string_equal(in->pmu, "libpfm4:skl");
	}
	pk_catalog_free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_pmu_terms),
		cmocka_unit_test(test_amd_multi_range_format),
		cmocka_unit_test(test_alias_events),
		cmocka_unit_test(test_generic_counts),
		cmocka_unit_test(test_layers),
		cmocka_unit_test(test_breakpoint_attrs),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_find_near_miss),
		cmocka_unit_test(test_tracepoint_fields),
		cmocka_unit_test(test_libpfm_skl),
	};
	const char *f = getenv("PERFKIT_FIXTURES");

	snprintf(fixtures, sizeof(fixtures), "%s", f ? f : "tests/fixtures");
	/* libpfm4 reads this once, when it initialises. */
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
