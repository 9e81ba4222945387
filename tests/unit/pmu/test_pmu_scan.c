/* SPDX-License-Identifier: MIT */
/*
 * test_pmu_scan.c - PMU discovery against the fixture sysfs trees (an Intel
 * Skylake-like and an AMD Zen 3-like machine, tests/fixtures/sysfs), against
 * a deliberately broken tree built at test time, and against a root that
 * does not exist.  What is asserted is what `perfkit list` and the event
 * parser rely on: which PMUs exist with which types, what each term and
 * alias means, the .scale/.unit/.per-pkg/.snapshot companions, cpumasks,
 * caps, and the messages a user sees when something does not fit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkit.h"
#include "pmu/pmu.h"
#include "tmpdir.h"

#define BIT(n) (1ULL << (n))

static struct pk_pmus *scan_tree(const char *tree)
{
	const char *fixtures = getenv("PERFKIT_FIXTURES");
	char root[PATH_MAX];
	struct pk_pmus *pmus = NULL;

	assert_non_null(fixtures);
	snprintf(root, sizeof(root), "%s/sysfs/%s", fixtures, tree);
	assert_int_equal(setenv("PERFKIT_SYSFS_ROOT", root, 1), 0);
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	assert_non_null(pmus);
	return pmus;
}

static const struct pmu_vec {
	const char *tree, *pmu;
	uint32_t type;
	size_t nr_formats, nr_aliases, nr_caps;
	const char *cpumask;	/* NULL: none */
	int mux, rdpmc;		/* -1: absent */
} pmu_vecs[] = {
	{ "intel", "software", 1, 0, 0, 0, NULL, 4, -1 },
	{ "intel", "tracepoint", 2, 0, 0, 0, NULL, 4, -1 },
	{ "intel", "cpu", 4, 12, 27, 3, NULL, 4, 1 },
	{ "intel", "breakpoint", 5, 0, 0, 0, NULL, 4, -1 },
	{ "intel", "kprobe", 6, 1, 0, 0, NULL, 4, -1 },
	{ "intel", "uprobe", 7, 2, 0, 0, NULL, 4, -1 },
	{ "intel", "msr", 9, 1, 6, 0, NULL, 4, -1 },
	{ "intel", "power", 10, 1, 5, 0, "0", 4, -1 },
	{ "intel", "intel_cqm", 11, 1, 3, 0, "0", 4, -1 },
	{ "intel", "uncore_cbox_0", 13, 5, 1, 0, "0", 4, -1 },
	{ "intel", "uncore_cbox_1", 14, 5, 1, 0, "0", 4, -1 },
	{ "intel", "uncore_imc_0", 15, 5, 3, 0, "0", 4, -1 },
	{ "amd", "software", 1, 0, 0, 0, NULL, 4, -1 },
	{ "amd", "tracepoint", 2, 0, 0, 0, NULL, 4, -1 },
	{ "amd", "cpu", 4, 5, 8, 1, NULL, 4, 1 },
	{ "amd", "breakpoint", 5, 0, 0, 0, NULL, 4, -1 },
	{ "amd", "kprobe", 6, 1, 0, 0, NULL, 4, -1 },
	{ "amd", "uprobe", 7, 2, 0, 0, NULL, 4, -1 },
	{ "amd", "power", 8, 1, 1, 0, "0", 4, -1 },
	{ "amd", "msr", 9, 1, 4, 0, NULL, 4, -1 },
	{ "amd", "ibs_fetch", 10, 1, 0, 0, NULL, 4, -1 },
	{ "amd", "ibs_op", 11, 1, 0, 0, NULL, 4, -1 },
	{ "amd", "amd_df", 12, 2, 0, 0, "0", 4, -1 },
	{ "amd", "amd_l3", 13, 7, 0, 0, "0", 4, -1 },
};

static size_t tree_pmu_count(const char *tree)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(pmu_vecs) / sizeof(pmu_vecs[0]); i++)
		n += !strcmp(pmu_vecs[i].tree, tree);
	return n;
}

static void test_pmus(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pmu_vecs) / sizeof(pmu_vecs[0]); i++) {
		const struct pmu_vec *v = &pmu_vecs[i];
		struct pk_pmus *pmus = scan_tree(v->tree);
		const struct pk_pmu *pmu = pk_pmus_find(pmus, v->pmu);

		print_message("# %s/%s\n", v->tree, v->pmu);
		assert_int_equal(pk_pmus_nr(pmus), tree_pmu_count(v->tree));
		assert_non_null(pmu);
		assert_string_equal(pk_pmu_name(pmu), v->pmu);
		assert_int_equal(pk_pmu_type(pmu), v->type);
		assert_int_equal(pk_pmu_nr_formats(pmu), v->nr_formats);
		assert_int_equal(pk_pmu_nr_aliases(pmu), v->nr_aliases);
		assert_int_equal(pk_pmu_nr_caps(pmu), v->nr_caps);
		if (v->cpumask)
			assert_string_equal(pk_pmu_cpumask(pmu), v->cpumask);
		else
			assert_null(pk_pmu_cpumask(pmu));
		assert_int_equal(pk_pmu_mux_interval_ms(pmu), v->mux);
		assert_int_equal(pk_pmu_rdpmc(pmu), v->rdpmc);
		assert_ptr_equal(pk__pmu_find_by_type(pmus, v->type), pmu);
		pk_pmus_free(pmus);
	}
}

/* Stable output: PMUs, formats, aliases and caps all come out sorted. */
static void test_sorted(void **state)
{
	static const char *const trees[] = { "intel", "amd" };

	(void)state;
	for (size_t t = 0; t < 2; t++) {
		struct pk_pmus *pmus = scan_tree(trees[t]);
		size_t n = pk_pmus_nr(pmus);

		for (size_t i = 0; i < n; i++) {
			const struct pk_pmu *pmu = pk_pmus_get(pmus, i);
			const char *prev = NULL, *name, *value;

			if (i)
				assert_true(strcmp(pk_pmu_name(pk_pmus_get(pmus, i - 1)),
						   pk_pmu_name(pmu)) < 0);
			for (size_t j = 0; j < pk_pmu_nr_formats(pmu); j++) {
				name = pk_pmu_format(pmu, j)->name;
				assert_true(!prev || strcmp(prev, name) < 0);
				prev = name;
			}
			assert_null(pk_pmu_format(pmu, pk_pmu_nr_formats(pmu)));
			prev = NULL;
			for (size_t j = 0; j < pk_pmu_nr_aliases(pmu); j++) {
				name = pk_pmu_alias(pmu, j)->name;
				assert_true(!prev || strcmp(prev, name) < 0);
				prev = name;
			}
			assert_null(pk_pmu_alias(pmu, pk_pmu_nr_aliases(pmu)));
			prev = NULL;
			for (size_t j = 0; j < pk_pmu_nr_caps(pmu); j++) {
				assert_int_equal(pk_pmu_cap(pmu, j, &name, &value), 0);
				assert_true(!prev || strcmp(prev, name) < 0);
				prev = name;
			}
			assert_int_equal(pk_pmu_cap(pmu, pk_pmu_nr_caps(pmu), &name, &value),
					 -ERANGE);
		}
		assert_null(pk_pmus_get(pmus, n));
		assert_null(pk_pmus_find(pmus, "nosuchpmu"));
		assert_null(pk__pmu_find_by_type(pmus, 4242));
		pk_pmus_free(pmus);
	}
}

static const struct format_case {
	const char *tree, *pmu, *term;
	int field;
	uint64_t mask;
	const char *spec;
} format_cases[] = {
	{ "intel", "cpu", "event", 0, 0xff, "config:0-7" },
	{ "intel", "cpu", "any", 0, BIT(21), "config:21" },
	{ "intel", "cpu", "cmask", 0, 0xff000000ULL, "config:24-31" },
	{ "intel", "cpu", "in_tx_cp", 0, BIT(33), "config:33" },
	{ "intel", "cpu", "ldlat", 1, 0xffff, "config1:0-15" },
	{ "intel", "cpu", "frontend", 1, 0xffffff, "config1:0-23" },
	{ "intel", "cpu", "offcore_rsp", 1, ~0ULL, "config1:0-63" },
	{ "intel", "msr", "event", 0, ~0ULL, "config:0-63" },
	{ "intel", "uncore_cbox_0", "cmask", 0, 0x1f000000ULL, "config:24-28" },
	{ "amd", "cpu", "event", 0, 0xf000000ffULL, "config:0-7,32-35" },
	{ "amd", "amd_df", "event", 0, 0x1800000f000000ffULL, "config:0-7,32-35,59-60" },
	{ "amd", "amd_l3", "threadmask", 0, 0x0300000000000000ULL, "config:56-57" },
	{ "amd", "ibs_op", "cnt_ctl", 0, BIT(19), "config:19" },
	{ "amd", "uprobe", "ref_ctr_offset", 0, 0xffffffff00000000ULL, "config:32-63" },
	{ "amd", "kprobe", "retprobe", 0, BIT(0), "config:0" },
};

static void test_formats(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(format_cases) / sizeof(format_cases[0]); i++) {
		const struct format_case *c = &format_cases[i];
		struct pk_pmus *pmus = scan_tree(c->tree);
		const struct pk_pmu_format *f =
			pk_pmu_find_format(pk_pmus_find(pmus, c->pmu), c->term);

		print_message("# %s: %s/%s\n", c->tree, c->pmu, c->term);
		assert_non_null(f);
		assert_string_equal(f->name, c->term);
		assert_int_equal(f->field, c->field);
		assert_int_equal(f->mask, c->mask);
		assert_string_equal(f->spec, c->spec);
		pk_pmus_free(pmus);
	}
}

static const struct alias_case {
	const char *tree, *pmu, *lookup;	/* lookup: as a user may type it */
	const char *name, *terms, *unit;
	double scale;
	bool per_pkg, snapshot;
} alias_cases[] = {
	{ "intel", "cpu", "cycles-ct", "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1", "", 1.0 },
	{ "intel", "cpu", "Cycles-T", "cycles-t", "event=0x3c,in_tx=1", "", 1.0 },
	{ "intel", "cpu", "MEM-LOADS", "mem-loads", "event=0xcd,umask=0x1,ldlat=3", "", 1.0 },
	{ "intel", "cpu", "cpu-cycles", "cpu-cycles", "event=0x3c", "", 1.0 },
	{ "intel", "cpu", "ref-cycles", "ref-cycles", "event=0x00,umask=0x03", "", 1.0 },
	/* Written without a trailing newline by events_ht_sysfs_show. */
	{ "intel", "cpu", "topdown-total-slots", "topdown-total-slots",
	  "event=0x3c,umask=0x0,any=1", "", 2.0 },
	{ "intel", "power", "energy-pkg", "energy-pkg", "event=0x02", "Joules",
	  2.3283064365386962890625e-10 },
	{ "intel", "uncore_imc_0", "CAS_COUNT_READ", "cas_count_read", "event=0x04,umask=0x03",
	  "MiB", 6.103515625e-5 },
	{ "intel", "msr", "tsc", "tsc", "event=0x00", "", 1.0 },
	{ "intel", "msr", "cpu_thermal_margin", "cpu_thermal_margin", "event=0x07", "C", 1.0,
	  false, true },
	{ "intel", "intel_cqm", "llc_occupancy", "llc_occupancy", "event=0x01", "Bytes", 65536.0,
	  true, true },
	{ "intel", "intel_cqm", "total_bytes", "total_bytes", "event=0x02", "MB", 1e-6, true,
	  false },
	{ "amd", "cpu", "CPU-Cycles", "cpu-cycles", "event=0x76", "", 1.0 },
	{ "amd", "cpu", "stalled-cycles-backend", "stalled-cycles-backend",
	  "event=0x87,umask=0x01", "", 1.0 },
	{ "amd", "msr", "irperf", "irperf", "event=0x06", "", 1.0 },
	{ "amd", "power", "Energy-Pkg", "energy-pkg", "event=0x02", "Joules",
	  2.3283064365386962890625e-10 },
};

static void test_aliases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(alias_cases) / sizeof(alias_cases[0]); i++) {
		const struct alias_case *c = &alias_cases[i];
		struct pk_pmus *pmus = scan_tree(c->tree);
		const struct pk_pmu_alias *a =
			pk_pmu_find_alias(pk_pmus_find(pmus, c->pmu), c->lookup);

		print_message("# %s: %s/%s/\n", c->tree, c->pmu, c->lookup);
		assert_non_null(a);
		assert_string_equal(a->name, c->name);
		assert_string_equal(a->terms, c->terms);
		assert_string_equal(a->unit, c->unit);
		assert_true(a->scale == c->scale);
		assert_int_equal(a->per_pkg, c->per_pkg);
		assert_int_equal(a->snapshot, c->snapshot);
		pk_pmus_free(pmus);
	}
}

/* Companion files describe an alias; they are never aliases themselves. */
static void test_not_aliases(void **state)
{
	static const struct { const char *tree, *pmu, *name; } cases[] = {
		{ "intel", "power", "energy-pkg.scale" },
		{ "intel", "power", "energy-pkg.unit" },
		{ "intel", "cpu", "topdown-total-slots.scale" },
		{ "intel", "intel_cqm", "llc_occupancy.per-pkg" },
		{ "intel", "msr", "cpu_thermal_margin.snapshot" },
		{ "intel", "cpu", "cycles" },		/* a prefix is not a match */
		{ "intel", "cpu", "cpu-cycles-x" },
		{ "intel", "software", "cpu-clock" },	/* no events/ at all */
		{ "amd", "cpu", "ref-cycles" },		/* hidden on AMD */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_pmus *pmus = scan_tree(cases[i].tree);
		const struct pk_pmu *pmu = pk_pmus_find(pmus, cases[i].pmu);

		print_message("# %s: %s/%s/\n", cases[i].tree, cases[i].pmu, cases[i].name);
		assert_non_null(pmu);
		assert_null(pk_pmu_find_alias(pmu, cases[i].name));
		pk_pmus_free(pmus);
	}
}

static void test_caps(void **state)
{
	static const char *const want[][2] = {
		{ "branches", "32" }, { "max_precise", "3" }, { "pmu_name", "skylake" },
	};
	struct pk_pmus *pmus = scan_tree("intel");
	const struct pk_pmu *cpu = pk_pmus_find(pmus, "cpu");
	const char *name, *value;

	(void)state;
	assert_int_equal(pk_pmu_nr_caps(cpu), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(pk_pmu_cap(cpu, i, &name, &value), 0);
		assert_string_equal(name, want[i][0]);
		assert_string_equal(value, want[i][1]);
	}
	pk_pmus_free(pmus);

	pmus = scan_tree("amd");
	cpu = pk_pmus_find(pmus, "cpu");
	assert_int_equal(pk_pmu_cap(cpu, 0, &name, &value), 0);
	assert_string_equal(name, "max_precise");
	assert_string_equal(value, "0");
	pk_pmus_free(pmus);
}

struct term { const char *term; uint64_t value; };

static const struct encode_case {
	const char *tree, *pmu;
	struct term terms[4];
	uint64_t config[4];
} encode_cases[] = {
	{ "intel", "cpu", { { "event", 0xcd }, { "umask", 0x1 }, { "ldlat", 3 } },
	  { 0x1cd, 3, 0, 0 } },
	{ "intel", "cpu", { { "event", 0x3c }, { "in_tx", 1 }, { "in_tx_cp", 1 } },
	  { 0x30000003cULL, 0, 0, 0 } },
	{ "intel", "cpu", { { "event", 0xb7 }, { "umask", 0x1 }, { "offcore_rsp", ~0ULL } },
	  { 0x1b7, ~0ULL, 0, 0 } },
	{ "intel", "cpu", { { "event", 0xc0 }, { "cmask", 1 }, { "inv", 1 }, { "edge", 1 } },
	  { 0x18400c0ULL, 0, 0, 0 } },
	{ "amd", "cpu", { { "event", 0x187 }, { "umask", 0x2 } }, { 0x100000287ULL, 0, 0, 0 } },
	{ "amd", "amd_df", { { "event", 0x3fff }, { "umask", 0xff } },
	  { 0x1800000f0000ffffULL, 0, 0, 0 } },
	{ "amd", "uprobe", { { "retprobe", 1 }, { "ref_ctr_offset", 0x1234 } },
	  { 0x123400000001ULL, 0, 0, 0 } },
	/* The last value of a term wins, as with perf's repeated terms. */
	{ "intel", "cpu", { { "umask", 0xff }, { "umask", 0x2 } }, { 0x200, 0, 0, 0 } },
};

static void test_encode(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(encode_cases) / sizeof(encode_cases[0]); i++) {
		const struct encode_case *c = &encode_cases[i];
		struct pk_pmus *pmus = scan_tree(c->tree);
		const struct pk_pmu *pmu = pk_pmus_find(pmus, c->pmu);
		uint64_t config[4] = { 0 };

		print_message("# encode %s: %s\n", c->tree, c->pmu);
		for (size_t t = 0; t < 4 && c->terms[t].term; t++)
			assert_int_equal(pk_pmu_encode(pmu, c->terms[t].term, c->terms[t].value,
						       config), 0);
		assert_memory_equal(config, c->config, sizeof(config));
		pk_pmus_free(pmus);
	}
}

static const struct encode_error {
	const char *tree, *pmu, *term;
	uint64_t value;
	int ret;
	const char *why_has, *hint_has;
} encode_errors[] = {
	{ "intel", "cpu", "umask", 0x100, -ERANGE, "config:8-15", "0xff (255)" },
	{ "intel", "cpu", "any", 2, -ERANGE, "config:21", "0x1 (1)" },
	{ "amd", "cpu", "event", 0x1000, -ERANGE, "config:0-7,32-35", "0xfff (4095)" },
	{ "amd", "amd_df", "event", 0x4000, -ERANGE, "config:0-7,32-35,59-60", "0x3fff (16383)" },
	{ "intel", "cpu", "umsak", 1, -ENOENT, "umsak", "umask" },
	{ "intel", "cpu", "UMASK", 1, -ENOENT, "UMASK", "any, cmask, edge, event" },
	{ "intel", "software", "event", 1, -ENOENT, "event", "no format" },
};

static void test_encode_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(encode_errors) / sizeof(encode_errors[0]); i++) {
		const struct encode_error *c = &encode_errors[i];
		struct pk_pmus *pmus = scan_tree(c->tree);
		uint64_t config[4] = { 1, 2, 3, 4 };
		const uint64_t untouched[4] = { 1, 2, 3, 4 };
		const struct pk_error *e;

		print_message("# encode %s: %s/%s=%#llx/\n", c->tree, c->pmu, c->term,
			      (unsigned long long)c->value);
		assert_int_equal(pk_pmu_encode(pk_pmus_find(pmus, c->pmu), c->term, c->value,
					       config), c->ret);
		assert_memory_equal(config, untouched, sizeof(config));
		e = pk_last_error();
		assert_int_equal(e->code, c->ret);
		assert_non_null(strstr(e->what, c->pmu));
		assert_non_null(strstr(e->why, c->why_has));
		assert_non_null(strstr(e->hint, c->hint_has));
		pk_pmus_free(pmus);
	}
}

/* ---- a broken tree ------------------------------------------------------- */

static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void link_to(const char *root, const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

#define DEV "bus/event_source/devices"

/*
 * build_broken - everything that goes wrong in the wild: a format the parser
 * refuses, attributes that are directories or dangling symlinks, sub-trees
 * that are files, a type that is not a number, stray files, and the
 * symlinked shape of a real /sys.
 */
static void build_broken(const char *root)
{
	dir(root, "bus");
	dir(root, "bus/event_source");
	dir(root, DEV);
	dir(root, "devices");

	dir(root, DEV "/good");
	put(root, DEV "/good/type", "42\n");
	dir(root, DEV "/good/format");
	put(root, DEV "/good/format/event", "config:0-7\n");
	put(root, DEV "/good/format/wide", "config:0-99\n");
	put(root, DEV "/good/format/garbage", "hello\n");
	put(root, DEV "/good/format/empty", "");
	dir(root, DEV "/good/format/adir");
	link_to(root, DEV "/good/format/dangling", "/nonexistent/perfkit/format");
	put(root, DEV "/good/format/locked", "config:8-15\n");
	dir(root, DEV "/good/events");
	put(root, DEV "/good/events/ok", "event=0x1\n");
	put(root, DEV "/good/events/ok.scale", "not-a-number\n");
	put(root, DEV "/good/events/ok.unit", "Widgets\n");
	put(root, DEV "/good/events/orphan.unit", "MiB\n");
	put(root, DEV "/good/events/huge", "event=0x2\n");
	put(root, DEV "/good/events/huge.scale", "1e999\n");
	put(root, DEV "/good/events/zero", "event=0x3  \t\n\n");
	put(root, DEV "/good/events/zero.scale", "0\n");
	put(root, DEV "/good/events/zero.per-pkg", "0\n");
	put(root, DEV "/good/events/zero.snapshot", "1\n");
	dir(root, DEV "/good/events/subdir");
	link_to(root, DEV "/good/events/broken", "/nonexistent/perfkit/event");
	dir(root, DEV "/good/cpumask");	/* unreadable as a file */
	put(root, DEV "/good/cpus", "0-3\n");
	put(root, DEV "/good/rdpmc", "two\n");

	dir(root, DEV "/partial");
	put(root, DEV "/partial/type", "43");
	put(root, DEV "/partial/format", "not a directory\n");
	link_to(root, DEV "/partial/events", "/nonexistent/perfkit/events");
	put(root, DEV "/partial/caps", "not a directory\n");
	put(root, DEV "/partial/perf_event_mux_interval_ms", "99999999999999999999\n");

	dir(root, "devices/linked");
	put(root, "devices/linked/type", "44\n");
	link_to(root, DEV "/linked", "../../../devices/linked");

	dir(root, DEV "/notype");
	dir(root, DEV "/badtype");
	put(root, DEV "/badtype/type", "four\n");
	dir(root, DEV "/negtype");
	put(root, DEV "/negtype/type", "-1\n");
	dir(root, DEV "/emptytype");
	put(root, DEV "/emptytype/type", " \n");
	put(root, DEV "/stray", "a file among the PMUs\n");
	link_to(root, DEV "/ghost", "../../../devices/ghost");
}

/* A temporary root per test, removed even when an assertion fails. */
static int make_tmp(void **state)
{
	static char root[PATH_MAX];

	if (!tmp_mkdtemp(root, sizeof(root), "perfkit-pmu"))
		return -1;
	*state = root;
	return 0;
}

static int remove_tmp(void **state)
{
	return tmp_rmtree(*state) == 0 ? 0 : -1;
}

static void test_broken_tree(void **state)
{
	const char *root = *state;
	char locked[PATH_MAX];
	struct pk_pmus *pmus = NULL;
	const struct pk_pmu *good, *partial, *linked;
	const struct pk_pmu_alias *a;

	build_broken(root);
	snprintf(locked, sizeof(locked), "%s/" DEV "/good/format/locked", root);
	assert_int_equal(chmod(locked, 0), 0);
	assert_int_equal(setenv("PERFKIT_SYSFS_ROOT", root, 1), 0);
	assert_int_equal(pk_pmus_scan(&pmus), 0);

	/* Only directories with a numeric type are PMUs. */
	assert_int_equal(pk_pmus_nr(pmus), 3);
	good = pk_pmus_find(pmus, "good");
	partial = pk_pmus_find(pmus, "partial");
	linked = pk_pmus_find(pmus, "linked");
	assert_non_null(good);
	assert_non_null(partial);
	assert_non_null(linked);
	assert_null(pk_pmus_find(pmus, "notype"));
	assert_null(pk_pmus_find(pmus, "badtype"));
	assert_null(pk_pmus_find(pmus, "negtype"));
	assert_null(pk_pmus_find(pmus, "ghost"));

	/* The directories without a usable type are named, each with why;
	 * a stray file and a dangling link are not PMUs at all. */
	{
		static const struct { const char *name, *why; } unusable[] = {
			{ "badtype", "its type file holds 'four', not a number from 0 to 4294967295" },
			{ "emptytype", "its type file is empty" },
			{ "negtype", "its type file holds '-1', not a number" },
			{ "notype", "its type file cannot be read: No such file or directory" },
		};
		const char *why = NULL;

		assert_int_equal(pk_pmus_nr_unusable(pmus), 4);
		for (size_t i = 0; i < 4; i++) {
			assert_string_equal(pk_pmus_unusable(pmus, i, &why), unusable[i].name);
			if (!strstr(why, unusable[i].why))
				fail_msg("%s: '%s' lacks '%s'", unusable[i].name, why, unusable[i].why);
		}
		assert_null(pk_pmus_unusable(pmus, 4, &why));
		assert_non_null(strstr(pk_pmus_dir(pmus), root));
		assert_non_null(strstr(pk_pmus_dir(pmus), DEV));
	}

	/* Bad format files are skipped, the good ones kept. */
	assert_int_equal(pk_pmu_type(good), 42);
	assert_non_null(pk_pmu_find_format(good, "event"));
	assert_null(pk_pmu_find_format(good, "wide"));
	assert_null(pk_pmu_find_format(good, "garbage"));
	assert_null(pk_pmu_find_format(good, "empty"));
	assert_null(pk_pmu_find_format(good, "adir"));
	assert_null(pk_pmu_find_format(good, "dangling"));
	/* root reads a mode-0 file; anybody else must see it skipped. */
	if (access(locked, R_OK) == 0)
		assert_non_null(pk_pmu_find_format(good, "locked"));
	else
		assert_null(pk_pmu_find_format(good, "locked"));

	/* A scale that does not parse, or overflows, leaves counts unscaled. */
	assert_int_equal(pk_pmu_nr_aliases(good), 3);
	a = pk_pmu_find_alias(good, "ok");
	assert_non_null(a);
	assert_string_equal(a->terms, "event=0x1");
	assert_true(a->scale == 1.0);
	assert_string_equal(a->unit, "Widgets");
	a = pk_pmu_find_alias(good, "huge");
	assert_non_null(a);
	assert_true(a->scale == 1.0);
	/* A zero scale would silently zero every count; a flag file may say 0. */
	a = pk_pmu_find_alias(good, "zero");
	assert_non_null(a);
	assert_string_equal(a->terms, "event=0x3");
	assert_true(a->scale == 1.0);
	assert_false(a->per_pkg);
	assert_true(a->snapshot);
	assert_null(pk_pmu_find_alias(good, "orphan"));
	assert_null(pk_pmu_find_alias(good, "subdir"));
	assert_null(pk_pmu_find_alias(good, "broken"));
	/* cpumask is unreadable, so the hybrid-style cpus file is used. */
	assert_string_equal(pk_pmu_cpumask(good), "0-3");
	assert_int_equal(pk_pmu_rdpmc(good), -1);

	/* A PMU whose sub-directories are all wrong is still listed. */
	assert_int_equal(pk_pmu_type(partial), 43);
	assert_int_equal(pk_pmu_nr_formats(partial), 0);
	assert_int_equal(pk_pmu_nr_aliases(partial), 0);
	assert_int_equal(pk_pmu_nr_caps(partial), 0);
	assert_int_equal(pk_pmu_mux_interval_ms(partial), -1);
	assert_null(pk_pmu_cpumask(partial));

	/* Real sysfs entries are symlinks into /sys/devices. */
	assert_int_equal(pk_pmu_type(linked), 44);

	pk_pmus_free(pmus);
}

static void test_no_root(void **state)
{
	static const char *const roots[] = { "/nonexistent/perfkit-sysfs", "EMPTY", "FILE" };
	const char *tmp = *state;

	dir(tmp, "bus");
	dir(tmp, "bus/event_source");
	put(tmp, "bus/event_source/devices", "a file, not a directory\n");
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		struct pk_pmus *sentinel = (struct pk_pmus *)&sentinel;
		struct pk_pmus *pmus = sentinel;
		char root[PATH_MAX];
		const struct pk_error *e;

		if (!strcmp(roots[i], "EMPTY"))
			snprintf(root, sizeof(root), "%s/bus", tmp);
		else if (!strcmp(roots[i], "FILE"))
			snprintf(root, sizeof(root), "%s", tmp);
		else
			snprintf(root, sizeof(root), "%s", roots[i]);
		print_message("# PERFKIT_SYSFS_ROOT=%s\n", root);
		assert_int_equal(setenv("PERFKIT_SYSFS_ROOT", root, 1), 0);
		pk__error_clear();
		assert_int_equal(pk_pmus_scan(&pmus), -ENOENT);
		/* The out-parameter is left untouched on failure. */
		assert_ptr_equal(pmus, sentinel);
		e = pk_last_error();
		assert_int_equal(e->code, -ENOENT);
		assert_non_null(strstr(e->what, root));
		assert_true(strstr(e->why, "does not exist") || strstr(e->why, "not a directory"));
		assert_non_null(strstr(e->hint, "PERFKIT_SYSFS_ROOT"));
	}
}

static void test_free_null(void **state)
{
	(void)state;
	pk_pmus_free(NULL);
	assert_int_equal(pk_pmus_nr(NULL), 0);
	assert_null(pk_pmus_get(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmus),
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_not_aliases),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test_setup_teardown(test_broken_tree, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_no_root, make_tmp, remove_tmp),
		cmocka_unit_test(test_free_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
