/* SPDX-License-Identifier: MIT */
/*
 * test_probe.c - uprobe and kprobe strings -> perf_event_attr without
 * opening anything.  The uprobe target is a function of this very test
 * binary; its expected file offset is worked out independently of the ELF
 * symbol tables, from where the loader mapped it (/proc/self/maps: address
 * minus mapping start plus the mapping's file offset).  kprobes are
 * encoded against the fixture sysfs trees, whose kprobe PMU this machine
 * lacks, and against a tree built here with a different retprobe bit, so
 * the bit is read from the format file rather than assumed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkit.h"
#include "event/event.h"
#include "tmpdir.h"

/* The uprobe target: kept out of line and in the symbol table. */
__attribute__((noinline, used)) int pk_test_probe_target(int x);
__attribute__((noinline, used)) int pk_test_probe_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

static char self_path[PATH_MAX];
static char tmp_root[PATH_MAX];

/* The file offset of `addr` in this executable, from /proc/self/maps. */
static uint64_t file_offset_of(uintptr_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	uint64_t off = UINT64_MAX;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, pgoff;

		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
		    addr >= start && addr < end) {
			assert_non_null(strstr(line, self_path));
			off = addr - start + pgoff;
			break;
		}
	}
	fclose(f);
	assert_true(off != UINT64_MAX);
	return off;
}

static struct pk_pmus *scan(const char *root)
{
	struct pk_pmus *pmus = NULL;

	assert_int_equal(setenv("PERFKIT_SYSFS_ROOT", root, 1), 0);
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	return pmus;
}

static struct pk_pmus *scan_fixture(const char *tree)
{
	char root[PATH_MAX];

	snprintf(root, sizeof(root), "%s/sysfs/%s", getenv("PERFKIT_FIXTURES"), tree);
	return scan(root);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, rel) < (int)sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_dir(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, rel) < (int)sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
}

/*
 * A sysfs tree with only a software PMU (no uprobe, no kprobe), and one
 * whose kprobe PMU has type 42 and keeps retprobe in bit 5.
 */
static int setup(void **state)
{
	(void)state;
	if (readlink("/proc/self/exe", self_path, sizeof(self_path) - 1) < 0)
		return -1;
	if (!tmp_mkdtemp(tmp_root, sizeof(tmp_root), "perfkit-probe"))
		return -1;
	make_dir(tmp_root, "bare");
	make_dir(tmp_root, "bare/bus");
	make_dir(tmp_root, "bare/bus/event_source");
	make_dir(tmp_root, "bare/bus/event_source/devices");
	make_dir(tmp_root, "bare/bus/event_source/devices/software");
	write_file(tmp_root, "bare/bus/event_source/devices/software/type", "1\n");
	make_dir(tmp_root, "odd");
	make_dir(tmp_root, "odd/bus");
	make_dir(tmp_root, "odd/bus/event_source");
	make_dir(tmp_root, "odd/bus/event_source/devices");
	make_dir(tmp_root, "odd/bus/event_source/devices/kprobe");
	make_dir(tmp_root, "odd/bus/event_source/devices/kprobe/format");
	write_file(tmp_root, "odd/bus/event_source/devices/kprobe/type", "42\n");
	write_file(tmp_root, "odd/bus/event_source/devices/kprobe/format/retprobe", "config:5\n");
	write_file(tmp_root, "not-elf.txt", "#!/bin/sh\necho hello\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(tmp_root) == 0 ? 0 : -1;
}

static int encode(const struct pk_pmus *pmus, bool k, bool ret, const char *text,
		  struct perf_event_attr *a, char **owned, char **canonical)
{
	memset(a, 0, sizeof(*a));
	return pk__probe_encode(pmus, NULL, k, ret, text, a, owned, canonical);
}

static void test_uprobe_symbol(void **state)
{
	struct pk_pmus *pmus = scan_fixture("intel");
	uint64_t want = file_offset_of((uintptr_t)&pk_test_probe_target);
	struct { const char *suffix; bool ret; uint64_t add; const char *kind; } cases[] = {
		{ "pk_test_probe_target", false, 0, "uprobe" },
		{ "pk_test_probe_target+4", false, 4, "uprobe" },
		{ "pk_test_probe_target+0x10", false, 16, "uprobe" },
		{ "pk_test_probe_target", true, 0, "uretprobe" },
	};

	(void)state;
	assert_int_equal(pk_test_probe_target(1), 4);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a;
		char text[PATH_MAX + 64], expect[PATH_MAX + 64], *owned, *canonical;

		/* /proc/self/exe on purpose: the attr must name the real file. */
		snprintf(text, sizeof(text), "/proc/self/exe:%s", cases[i].suffix);
		assert_int_equal(encode(pmus, false, cases[i].ret, text, &a, &owned, &canonical), 0);
		assert_int_equal(a.type, 7);	/* the fixture's uprobe PMU */
		assert_int_equal(a.config, cases[i].ret ? 1 : 0);
		assert_string_equal(owned, self_path);
		assert_ptr_equal((const char *)(uintptr_t)a.config1, owned);
		assert_int_equal(a.config2, want + cases[i].add);
		snprintf(expect, sizeof(expect), "%s:%s:0x%" PRIx64, cases[i].kind, self_path,
			 want + cases[i].add);
		assert_string_equal(canonical, expect);
		free(owned);
		free(canonical);
	}
	pk_pmus_free(pmus);
}

static void test_uprobe_offset(void **state)
{
	struct pk_pmus *pmus = scan_fixture("amd");
	struct perf_event_attr a;
	char text[PATH_MAX + 32], expect[PATH_MAX + 32], *owned, *canonical;

	(void)state;
	snprintf(text, sizeof(text), "%s:0x1234", self_path);
	assert_int_equal(encode(pmus, false, false, text, &a, &owned, &canonical), 0);
	assert_int_equal(a.config2, 0x1234);
	assert_string_equal((const char *)(uintptr_t)a.config1, self_path);
	snprintf(expect, sizeof(expect), "uprobe:%s:0x1234", self_path);
	assert_string_equal(canonical, expect);
	free(owned);
	free(canonical);
	pk_pmus_free(pmus);
}

static void expect_error(const struct pk_pmus *pmus, bool k, bool ret, const char *text,
			 int err, const char *why_has, const char *hint_has)
{
	struct perf_event_attr a;
	char *owned = (char *)"x", *canonical = (char *)"x";
	const struct pk_error *e;
	int r = encode(pmus, k, ret, text, &a, &owned, &canonical);

	e = pk_last_error();
	print_message("# %s -> %d: %s / hint: %s\n", text, r, e->why, e->hint);
	assert_int_equal(r, err);
	assert_int_equal(e->code, err);
	assert_null(owned);
	assert_null(canonical);
	if (why_has && !strstr(e->why, why_has))
		fail_msg("why '%s' lacks '%s'", e->why, why_has);
	if (hint_has && !strstr(e->hint, hint_has))
		fail_msg("hint '%s' lacks '%s'", e->hint, hint_has);
}

static void test_uprobe_errors(void **state)
{
	struct pk_pmus *pmus = scan_fixture("intel");
	char text[PATH_MAX + 64];

	(void)state;
	snprintf(text, sizeof(text), "%s:pk_test_probe_targte", self_path);
	expect_error(pmus, false, false, text, -ENOENT, "pk_test_probe_targte",
		     "pk_test_probe_target");
	expect_error(pmus, false, false, "/no/such/binary:main", -ENOENT, "/no/such/binary",
		     "path");
	snprintf(text, sizeof(text), "%s/not-elf.txt:main", tmp_root);
	expect_error(pmus, false, false, text, -EINVAL, "not an ELF file", NULL);
	snprintf(text, sizeof(text), "%s:main", tmp_root);
	expect_error(pmus, false, false, text, -EINVAL, "not a regular file", NULL);
	snprintf(text, sizeof(text), "%s:pk_test_probe_target+zz", self_path);
	expect_error(pmus, false, false, text, -EINVAL, "'zz'", NULL);
	expect_error(pmus, false, false, "pk_test_probe_target", -EINVAL, "PATH:SYMBOL", NULL);
	snprintf(text, sizeof(text), "%s:", self_path);
	expect_error(pmus, false, false, text, -EINVAL, "PATH:SYMBOL", NULL);
	pk_pmus_free(pmus);

	/* no uprobe PMU at all */
	snprintf(text, sizeof(text), "%s/bare", tmp_root);
	pmus = scan(text);
	snprintf(text, sizeof(text), "%s:pk_test_probe_target", self_path);
	expect_error(pmus, false, false, text, -ENODEV, "CONFIG_UPROBE_EVENTS", NULL);
	pk_pmus_free(pmus);
}

/* A kernel function this machine surely has: "schedule" exists on every
 * kernel perf runs on, and kallsyms (when readable) confirms it. */
static void test_kprobe_fixture(void **state)
{
	struct pk_pmus *pmus = scan_fixture("intel");
	struct {
		const char *text; bool ret; bool named; uint64_t config, config2; const char *canon;
	} cases[] = {
		{ "schedule", false, true, 0, 0, "kprobe:schedule" },
		{ "schedule+0x10", false, true, 0, 0x10, "kprobe:schedule+0x10" },
		{ "schedule", true, true, 1, 0, "kretprobe:schedule" },
		{ "0xffffffff81000000", false, false, 0, 0xffffffff81000000ULL, "kprobe:0xffffffff81000000" },
		{ "0xffffffff81000000", true, false, 1, 0xffffffff81000000ULL, "kretprobe:0xffffffff81000000" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a;
		char *owned, *canonical;

		assert_int_equal(encode(pmus, true, cases[i].ret, cases[i].text, &a, &owned,
					&canonical), 0);
		assert_int_equal(a.type, 6);
		assert_int_equal(a.config, cases[i].config);
		assert_int_equal(a.config2, cases[i].config2);
		assert_non_null(owned);	/* the caller owns a string either way */
		if (cases[i].named) {
			assert_string_equal((const char *)(uintptr_t)a.config1, "schedule");
			assert_ptr_equal((const char *)(uintptr_t)a.config1, owned);
		} else {
			assert_int_equal(a.config1, 0);
		}
		assert_string_equal(canonical, cases[i].canon);
		free(owned);
		free(canonical);
	}
	pk_pmus_free(pmus);
}

static void test_kprobe_retprobe_bit_from_format(void **state)
{
	char root[PATH_MAX];
	struct pk_pmus *pmus;
	struct perf_event_attr a;
	char *owned, *canonical;

	(void)state;
	assert_true(snprintf(root, sizeof(root), "%s/odd", tmp_root) < (int)sizeof(root));
	pmus = scan(root);
	assert_int_equal(encode(pmus, true, true, "schedule", &a, &owned, &canonical), 0);
	assert_int_equal(a.type, 42);
	assert_int_equal(a.config, 1u << 5);
	free(owned);
	free(canonical);
	assert_int_equal(encode(pmus, true, false, "schedule", &a, &owned, &canonical), 0);
	assert_int_equal(a.config, 0);
	free(owned);
	free(canonical);
	pk_pmus_free(pmus);
}

static void test_kprobe_errors(void **state)
{
	struct pk_pmus *pmus = scan_fixture("intel");
	FILE *f = fopen("/proc/kallsyms", "r");
	char root[PATH_MAX];

	(void)state;
	expect_error(pmus, true, false, "sched ule", -EINVAL, "not a kernel symbol", "SYMBOL");
	expect_error(pmus, true, false, "schedule+x", -EINVAL, "'x'", NULL);
	expect_error(pmus, true, false, "", -EINVAL, NULL, NULL);
	/* With kallsyms readable a typo is caught now, with its near misses. */
	if (f) {
		fclose(f);
		expect_error(pmus, true, false, "schedulx", -ENOENT, "schedulx", "schedule");
	}
	pk_pmus_free(pmus);

	assert_true(snprintf(root, sizeof(root), "%s/bare", tmp_root) < (int)sizeof(root));
	pmus = scan(root);
	expect_error(pmus, true, false, "schedule", -ENODEV, "no kprobe PMU (CONFIG_KPROBE_EVENTS)",
		     "4.17");
	expect_error(pmus, true, true, "schedule", -ENODEV, "CONFIG_KPROBE_EVENTS", NULL);
	pk_pmus_free(pmus);
}

/*
 * The bounded edit distance behind every near-miss hint agrees with the full
 * one up to its bound and answers bound + 1 beyond it, whichever way the
 * strings differ (length alone, or a row of the table already past it).
 */
static void test_edit_distance_bound(void **state)
{
	static const struct {
		const char *a, *b;
		size_t full;
	} cases[] = {
		{ "schedule", "schedule", 0 },
		{ "schedulx", "schedule", 1 },
		{ "shcedule", "schedule", 2 },
		{ "", "vfs_read", 8 },
		{ "vfs_read", "vfs_write", 4 },
		{ "kitten", "sitting", 3 },
		{ "abcdefgh", "zyxwvuts", 8 },
		{ "do_sys_open", "do_sys_openat2", 3 },
	};
	char longer[300];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(pk__edit_distance(cases[i].a, cases[i].b), cases[i].full);
		assert_int_equal(pk__edit_distance(cases[i].b, cases[i].a), cases[i].full);
		for (size_t max = 0; max < 10; max++) {
			size_t want = cases[i].full <= max ? cases[i].full : max + 1;

			assert_int_equal(pk__edit_distance_max(cases[i].a, cases[i].b, max), want);
		}
		assert_int_equal(pk__edit_distance_max(cases[i].a, cases[i].b, SIZE_MAX),
				 cases[i].full);
	}
	memset(longer, 'q', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(pk__edit_distance(longer, "qqq"), sizeof(longer) - 4);
	assert_int_equal(pk__edit_distance_max(longer, "qqq", 3), 4);
}

/* This machine's own sysfs: a kprobe PMU is either there or explained. */
static void test_kprobe_real_machine(void **state)
{
	struct stat st;
	struct pk_pmus *pmus;
	struct perf_event_attr a;
	char *owned, *canonical;
	int ret;

	(void)state;
	pmus = scan("/sys");
	ret = encode(pmus, true, false, "schedule", &a, &owned, &canonical);
	if (stat("/sys/bus/event_source/devices/kprobe", &st) == 0) {
		assert_int_equal(ret, 0);
		free(owned);
		free(canonical);
	} else {
		assert_int_equal(ret, -ENODEV);
		assert_non_null(strstr(pk_last_error()->why, "this kernel has no kprobe PMU"));
	}
	pk_pmus_free(pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uprobe_symbol),
		cmocka_unit_test(test_uprobe_offset),
		cmocka_unit_test(test_uprobe_errors),
		cmocka_unit_test(test_kprobe_fixture),
		cmocka_unit_test(test_kprobe_retprobe_bit_from_format),
		cmocka_unit_test(test_kprobe_errors),
		cmocka_unit_test(test_kprobe_real_machine),
		cmocka_unit_test(test_edit_distance_bound),
	};

	return cmocka_run_group_tests_name("probe", tests, setup, teardown);
}
