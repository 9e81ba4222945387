/* SPDX-License-Identifier: MIT */
/*
 * test_parse.c - the event parser's structure and error behaviour: groups and
 * their modifiers, per-event terms, canonical strings that parse back to the
 * same attr, attr printing, and the error message, errno and column for
 * malformed strings.  Encodings of individual events against perf 6.1 live in
 * tests/unit/vectors; this file covers what those vectors cannot.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

static struct pk_events *parse_ok(const char *spec, int expect_nr)
{
	struct pk_events *ev = NULL;
	int n = pk_events_parse(spec, NULL, &ev);

	if (n < 0)
		fail_msg("'%s' failed: %s: %s (column %d)", spec, pk_last_error()->what,
			 pk_last_error()->why, pk_last_error()->column);
	assert_int_equal(n, expect_nr);
	assert_int_equal(pk_events_nr(ev), (size_t)expect_nr);
	return ev;
}

static void test_group_structure(void **state)
{
	struct pk_events *ev = parse_ok("task-clock,{cpu-clock,page-faults,cs}:u,dummy", 5);
	const struct pk_event_desc *d;

	(void)state;
	assert_int_equal(pk_events_desc(ev, 0)->leader, 0);
	assert_int_equal(pk_events_desc(ev, 0)->nr_members, 1);
	for (size_t i = 1; i <= 3; i++) {
		d = pk_events_desc(ev, i);
		assert_int_equal(d->leader, 1);
		assert_int_equal(pk_events_attr(ev, i)->exclude_kernel, 1);
		assert_int_equal(pk_events_attr(ev, i)->exclude_hv, 1);
		assert_int_equal(pk_events_attr(ev, i)->exclude_user, 0);
	}
	assert_int_equal(pk_events_desc(ev, 1)->nr_members, 3);
	assert_int_equal(pk_events_desc(ev, 4)->leader, 4);
	assert_int_equal(pk_events_attr(ev, 4)->exclude_kernel, 0);
	assert_null(pk_events_desc(ev, 5));
	assert_null(pk_events_attr(ev, 5));
	pk_events_free(ev);
}

/* Group modifiers combine with the members' own (perf's add mode), and
 * pinned/exclusive from the group apply to the leader only. */
/* pk_events_group (record --group): a range of whole groups merged into
 * one, modifiers kept; a range splitting a group is refused, unchanged. */
static void test_events_group(void **state)
{
	struct pk_events *ev = parse_ok("task-clock,{cpu-clock,page-faults}:u,cs,{dummy,minor-faults}", 6);

	(void)state;
	assert_int_equal(pk_events_group(ev, 1, 4), -EINVAL);	/* splits {dummy,minor-faults} */
	assert_int_equal(pk_events_group(ev, 0, 2), -EINVAL);	/* splits {cpu-clock,page-faults} */
	assert_int_equal(pk_events_group(ev, 2, 2), -EINVAL);
	assert_int_equal(pk_events_group(ev, 0, 0), -EINVAL);
	assert_int_equal(pk_events_group(ev, 0, 7), -EINVAL);
	assert_int_equal(pk_events_desc(ev, 1)->nr_members, 2);
	assert_int_equal(pk_events_group(ev, 0, 4), 0);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(pk_events_desc(ev, i)->leader, 0);
	assert_int_equal(pk_events_desc(ev, 0)->nr_members, 4);
	assert_int_equal(pk_events_desc(ev, 1)->nr_members, 1);
	assert_int_equal(pk_events_attr(ev, 1)->exclude_kernel, 1);	/* its :u stays */
	assert_int_equal(pk_events_attr(ev, 0)->exclude_kernel, 0);
	assert_int_equal(pk_events_desc(ev, 4)->leader, 4);		/* the last group is its own */
	assert_int_equal(pk_events_desc(ev, 4)->nr_members, 2);
	assert_int_equal(pk_events_group(ev, 0, 6), 0);
	assert_int_equal(pk_events_desc(ev, 5)->leader, 0);
	assert_int_equal(pk_events_desc(ev, 0)->nr_members, 6);
	pk_events_free(ev);
}

static void test_group_modifiers_combine(void **state)
{
	struct pk_events *ev = parse_ok("{task-clock:k,page-faults}:uD", 2);
	const struct perf_event_attr *a0 = pk_events_attr(ev, 0), *a1 = pk_events_attr(ev, 1);

	(void)state;
	/* task-clock:k excludes user and hv; the group's u re-includes user. */
	assert_int_equal(a0->exclude_user, 0);
	assert_int_equal(a0->exclude_kernel, 0);
	assert_int_equal(a0->exclude_hv, 1);
	assert_int_equal(a1->exclude_user, 0);
	assert_int_equal(a1->exclude_kernel, 1);
	assert_int_equal(a0->pinned, 1);
	assert_int_equal(a1->pinned, 0);
	pk_events_free(ev);
}

static void test_terms(void **state)
{
	struct pk_events *ev = parse_ok("task-clock/period=1000,name=tc,call-graph=dwarf,stack-size=4096,"
					"no-inherit,time=0/,cpu-clock/freq=99,max-stack=7,overwrite/", 2);
	const struct pk_event_desc *d = pk_events_desc(ev, 0), *e = pk_events_desc(ev, 1);
	const struct perf_event_attr *da = pk_events_attr(ev, 0), *ea = pk_events_attr(ev, 1);

	(void)state;
	assert_int_equal(da->sample_period, 1000);
	assert_int_equal(da->freq, 0);
	assert_string_equal(d->name, "tc");
	assert_string_equal(d->call_graph, "dwarf");
	assert_int_equal(d->stack_size, 4096);
	assert_true(d->no_inherit_set);
	assert_int_equal(da->inherit, 0);
	assert_int_equal(d->time, 0);
	assert_int_equal(d->max_stack, -1);
	assert_int_equal(ea->sample_freq, 99);
	assert_int_equal(ea->freq, 1);
	assert_int_equal(e->max_stack, 7);
	assert_int_equal(e->overwrite, 1);
	assert_int_equal(e->time, -1);
	assert_string_equal(e->name, "cpu-clock/freq=99,max-stack=7,overwrite/");
	pk_events_free(ev);
}

static void test_sources_and_names(void **state)
{
	static const struct {
		const char *spec;
		enum pk_event_source src;
		const char *canonical;
	} t[] = {
		{ "cycles", PK_SRC_HARDWARE, "cpu-cycles" },
		{ "cs:u", PK_SRC_SOFTWARE, "context-switches:u" },
		{ "instructions:kh", PK_SRC_HARDWARE, "instructions:kh" },
		{ "l1d-loads", PK_SRC_HW_CACHE, "L1-dcache-loads" },
		{ "L1-data-load-misses", PK_SRC_HW_CACHE, "L1-dcache-load-misses" },
		{ "LLC-prefetch-misses:ppp", PK_SRC_HW_CACHE, "LLC-prefetch-misses:ppp" },
		{ "r1a8", PK_SRC_RAW, "r1a8" },
		{ "r0x1A8:u", PK_SRC_RAW, "r1a8:u" },
		{ "1:0", PK_SRC_SOFTWARE, "cpu-clock" },
		{ "mem:0x1000", PK_SRC_BREAKPOINT, "mem:0x1000/4:rw" },
		{ "mem:4096/8:x:u", PK_SRC_BREAKPOINT, "mem:0x1000/8:x:u" },
		{ "task-clock:IS", PK_SRC_SOFTWARE, "task-clock:IS" },
		{ "cpu-clock:De", PK_SRC_SOFTWARE, "cpu-clock:De" },
		{ "cycles:b", PK_SRC_HARDWARE, "cpu-cycles:b" },
		{ "mem:0x1000/8:w", PK_SRC_BREAKPOINT, "mem:0x1000/8:w" },
		{ "software/task-clock/k", PK_SRC_PMU, "software/config=0x1/k" },
		{ "TASK-CLOCK", PK_SRC_SOFTWARE, "task-clock" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pk_events *ev = parse_ok(t[i].spec, 1), *again;
		const struct pk_event_desc *d = pk_events_desc(ev, 0);

		if (d->source != t[i].src || strcmp(d->canonical, t[i].canonical))
			fail_msg("'%s': source %s canonical '%s', expected %s '%s'", t[i].spec,
				 pk_event_source_name(d->source), d->canonical,
				 pk_event_source_name(t[i].src), t[i].canonical);
		assert_string_equal(d->name, t[i].spec);
		/* The canonical string is itself a spec for the same attr. */
		again = parse_ok(d->canonical, 1);
		assert_memory_equal(pk_events_attr(again, 0), pk_events_attr(ev, 0), sizeof(struct perf_event_attr));
		pk_events_free(again);
		pk_events_free(ev);
	}
}

static void test_attr_format_and_fields(void **state)
{
	struct pk_events *ev = parse_ok("mem:0x1000/8:w:u", 1);
	char buf[2048];
	const char *name;
	uint64_t v;
	int n, seen_bp_addr = 0, seen_config1 = 0;

	(void)state;
	n = pk_attr_format(pk_events_attr(ev, 0), buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	assert_non_null(strstr(buf, "  type                             5\n"));
	assert_non_null(strstr(buf, "  { bp_addr, config1 }             0x1000\n"));
	assert_non_null(strstr(buf, "  { bp_len, config2 }              0x8\n"));
	assert_non_null(strstr(buf, "  bp_type                          2\n"));
	assert_non_null(strstr(buf, "  exclude_kernel                   1\n"));
	assert_null(strstr(buf, "exclude_user"));
	/* A short buffer still reports the full length, like snprintf. */
	assert_int_equal(pk_attr_format(pk_events_attr(ev, 0), buf, 10), n);
	for (size_t i = 0; pk_attr_field(pk_events_attr(ev, 0), i, &name, &v) == 0; i++) {
		if (!strcmp(name, "bp_addr"))
			seen_bp_addr = v == 0x1000;
		if (!strcmp(name, "config1"))
			seen_config1 = v == 0x1000;
	}
	assert_true(seen_bp_addr && seen_config1);
	pk_events_free(ev);
	/* The flag fields as perf spells them, including bits no table knows. */
	{
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER;
		a.read_format = PERF_FORMAT_ID | PERF_FORMAT_GROUP;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY;
		pk_attr_format(&a, buf, sizeof(buf));
		assert_non_null(strstr(buf, "  sample_type                      IP|TID|CALLCHAIN|IDENTIFIER\n"));
		assert_non_null(strstr(buf, "  read_format                      ID|GROUP\n"));
		assert_non_null(strstr(buf, "  branch_sample_type               USER|ANY\n"));
		a.sample_type = PERF_SAMPLE_IP | (1ULL << 60);
		pk_attr_format(&a, buf, sizeof(buf));
		assert_non_null(strstr(buf, "  sample_type                      IP|0x1000000000000000\n"));
	}
}

struct bad {
	const char *spec;
	int err;
	int column;
	const char *why;
	const char *hint;
};

static const struct bad bad[] = {
	{ "task-clock:q", -22, 12, "unknown modifier 'q'", "modifiers are" },
	{ "task-clock:uu", -22, 13, "modifier 'u' is given twice", NULL },
	{ "cycles:pppp", -22, 11, "precise level above 3", "ppp" },
	{ "L1-dcache-loadz", -2, 1, "unknown event 'L1-dcache-loadz'", "did you mean L1-dcache-loads?" },
	{ "task-clok", -2, 1, "unknown event 'task-clok'", "did you mean task-clock?" },
	{ "{cycles,instructions", -22, 1, "unbalanced '{'", "close the group" },
	{ "cycles}", -22, 7, "'}' without a matching '{'", NULL },
	{ "{cycles,{instructions}}", -22, 9, "groups cannot be nested", NULL },
	{ "{}", -22, 2, "empty group", NULL },
	{ "cycles,", -22, 7, "trailing ','", NULL },
	{ "cycles,,instructions", -22, 8, "expected an event name", NULL },
	{ "", -22, 0, "the event list is empty", NULL },
	{ "task-clock/period=abc/", -22, 19, "term 'period': 'abc' is not a number", NULL },
	{ "task-clock/bogus=1/", -22, 12, "unknown term 'bogus'", "period" },
	{ "task-clock/period=1", -22, 20, "missing closing '/'", NULL },
	{ "mem:", -22, 5, "mem: needs an address", NULL },
	{ "mem:0x1000/0", -22, 12, "breakpoint length '0' is not 1, 2, 4 or 8 bytes", NULL },
	{ "mem:0x1000:z", -22, 12, "access type must be r, w, x or rw", NULL },
	{ "mem:0x1000:rx", -22, 12, "execute breakpoint", NULL },
	{ "nosuchpmu/event=1/", -19, 1, "no PMU named 'nosuchpmu'", "PMUs here" },
	{ "task-clock/call-graph=foo/", -22, 23, "unknown call-graph mode", "fp, dwarf, lbr" },
	{ "cycles:", -22, 8, "expected modifiers after ':'", NULL },
	{ "cycles instructions", -22, 8, "expected ',' between events", NULL },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_events *ev = NULL;
		struct pk_parse_opts o = { .size = sizeof(o), .no_libpfm = true };
		int err = pk_events_parse(bad[i].spec, &o, &ev);
		const struct pk_error *e = pk_last_error();

		if (err != bad[i].err || e->code != err || e->column != bad[i].column ||
		    !strstr(e->why, bad[i].why) || (bad[i].hint && !strstr(e->hint, bad[i].hint)))
			fail_msg("'%s': got %d column %d why '%s' hint '%s'; expected %d column %d why '%s' hint '%s'",
				 bad[i].spec, err, e->column, e->why, e->hint, bad[i].err, bad[i].column,
				 bad[i].why, bad[i].hint ? bad[i].hint : "");
		assert_null(ev);
	}
}

/* A failed parse leaves *out alone and a later success clears the record. */
static void test_error_record_lifecycle(void **state)
{
	struct pk_events *ev = (struct pk_events *)(uintptr_t)0x1;
	char msg[512];

	(void)state;
	assert_int_equal(pk_events_parse("task-clock:q", NULL, &ev), -22);
	assert_ptr_equal(ev, (struct pk_events *)(uintptr_t)0x1);
	assert_true(pk_error_format(NULL, msg, sizeof(msg)) > 0);
	assert_non_null(strstr(msg, "event 'task-clock:q': unknown modifier 'q'\n  hint: "));
	ev = NULL;
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), 1);
	assert_int_equal(pk_last_error()->code, 0);
	pk_events_free(ev);
	pk_events_free(NULL);
}


/* A temporary sysfs root per test (its path in *state), removed even when
 * an assertion fails. */
static int make_tmp(void **state)
{
	static char root[PATH_MAX];

	if (!tmp_mkdtemp(root, sizeof(root), "perfkit-longpmu"))
		return -1;
	*state = root;
	return 0;
}

static int remove_tmp(void **state)
{
	unsetenv("PERFKIT_SYSFS_ROOT");
	return tmp_rmtree(*state) == 0 ? 0 : -1;
}

/* A PMU name as long as sysfs allows still gives a whole canonical string. */
static void test_long_pmu_name(void **state)
{
	const char *root = *state;
	char name[251], path[PATH_MAX + 300], spec[300];
	struct pk_events *ev;
	FILE *f;

	memset(name, 'p', 250);
	name[250] = '\0';
	snprintf(path, sizeof(path), "%s/bus", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", root, name);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format", root, name);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("42\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format/event", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("config:0-7\n", f);
	fclose(f);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	snprintf(spec, sizeof(spec), "%s/event=1,config1=2,config2=3/", name);
	assert_int_equal(pk_events_parse(spec, NULL, &ev), 1);
	assert_int_equal(strlen(pk_events_desc(ev, 0)->canonical), 250 + strlen("/config=0x1,config1=0x2,config2=0x3/"));
	assert_non_null(strstr(pk_events_desc(ev, 0)->canonical, "/config=0x1,config1=0x2,config2=0x3/"));
	pk_events_free(ev);
	unsetenv("PERFKIT_SYSFS_ROOT");
}

static void put_file(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX + 300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * config3 (Linux 6.3+) is an ordinary field of the desc, and the attr the
 * library hands out (parsed, and as the evlist will open it) is 136 bytes
 * with config3 at byte 128, where the kernel reads it, whatever the
 * caller's UAPI header says.
 */
static void test_config3(void **state)
{
	const char *root = *state;
	static const char *const dirs[] = { "bus", "bus/event_source", "bus/event_source/devices",
					    "bus/event_source/devices/p3",
					    "bus/event_source/devices/p3/format" };
	char path[PATH_MAX + 300];
	struct pk_target t = { .size = sizeof(t) };
	struct pk_evlist *l = NULL;
	struct pk_events *ev;
	uint64_t word;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	put_file(root, "bus/event_source/devices/p3/type", "43\n");
	put_file(root, "bus/event_source/devices/p3/format/event", "config:0-7\n");
	put_file(root, "bus/event_source/devices/p3/format/ext", "config3:4-11\n");
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	assert_int_equal(pk_events_parse("p3/event=1,ext=0x5a/,p3/event=2/", NULL, &ev), 2);
	assert_int_equal(pk_events_desc(ev, 0)->config3, 0x5a0);
	assert_int_equal(pk_events_attr(ev, 0)->size, 136);
	memcpy(&word, (const char *)pk_events_attr(ev, 0) + 128, sizeof(word));
	assert_int_equal(word, 0x5a0);
	assert_non_null(strstr(pk_events_desc(ev, 0)->canonical, "config3=0x5a0"));
	/* Without config3 the attr stays at perf 6.1's 128 bytes. */
	assert_int_equal(pk_events_desc(ev, 1)->config3, 0);
	assert_int_equal(pk_events_attr(ev, 1)->size, 128);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	/* The evlist keeps its own 136-byte copy. */
	assert_int_equal(pk_evlist_attr(l, 0)->size, 136);
	memcpy(&word, (const char *)pk_evlist_attr(l, 0) + 128, sizeof(word));
	assert_int_equal(word, 0x5a0);
	assert_int_equal(pk_evlist_attr(l, 0)->config, 1);
	pk_evlist_free(l);
	unsetenv("PERFKIT_SYSFS_ROOT");
}

/*
 * A snapshot passed in opts->pmus is what the parser resolves PMU names and
 * aliases against: with the sysfs root gone, the snapshot still encodes
 * cpu/mem-loads/ exactly as the tree it was read from said, while a parse
 * without it (or from a caller whose opts predate the field) fails.
 */
static void test_caller_snapshot(void **state)
{
	const char *fx = getenv("PERFKIT_FIXTURES");
	struct pk_parse_opts opts = { .size = sizeof(opts) };
	struct pk_events *ev = NULL;
	struct pk_pmus *pmus = NULL;
	char root[PATH_MAX];

	(void)state;
	assert_non_null(fx);
	snprintf(root, sizeof(root), "%s/sysfs/intel", fx);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	setenv("PERFKIT_SYSFS_ROOT", "/nonexistent/perfkit-sysfs", 1);
	opts.pmus = pmus;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pk_events_parse("cpu/mem-loads,ldlat=3/u", &opts, &ev), 1);
		assert_int_equal(pk_events_attr(ev, 0)->type, 4);
		assert_int_equal(pk_events_attr(ev, 0)->config, 0x1cd);
		assert_int_equal(pk_events_attr(ev, 0)->config1, 3);
		assert_string_equal(pk_events_desc(ev, 0)->pmu, "cpu");
		pk_events_free(ev);
		ev = NULL;
	}
	assert_true(pk_events_parse("cpu/mem-loads/", NULL, &ev) < 0);
	assert_null(ev);
	opts.size = offsetof(struct pk_parse_opts, pmus);
	assert_true(pk_events_parse("cpu/mem-loads/", &opts, &ev) < 0);
	unsetenv("PERFKIT_SYSFS_ROOT");
	pk_pmus_free(pmus);
}

/*
 * opts->kallsyms replaces /proc/kallsyms for kprobe symbols: a symbol only
 * that file has is accepted, a typo of it is refused with the file named and
 * the symbol as the near miss.
 */
static void test_kallsyms_option(void **state)
{
	const char *fx = getenv("PERFKIT_FIXTURES");
	struct pk_parse_opts opts = { .size = sizeof(opts) };
	char root[PATH_MAX], path[PATH_MAX + 16];
	struct pk_events *ev = NULL;
	FILE *f;

	assert_non_null(fx);
	snprintf(path, sizeof(path), "%s/kallsyms", (const char *)*state);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T pk_only_here\nffffffff81000100 t other_fn\n", f);
	fclose(f);
	snprintf(root, sizeof(root), "%s/sysfs/intel", fx);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	opts.kallsyms = path;
	assert_int_equal(pk_events_parse("kprobe:pk_only_here", &opts, &ev), 1);
	assert_string_equal(pk_events_desc(ev, 0)->canonical, "kprobe:pk_only_here");
	pk_events_free(ev);
	ev = NULL;
	assert_int_equal(pk_events_parse("kprobe:pk_only_hera", &opts, &ev), -ENOENT);
	assert_null(ev);
	assert_non_null(strstr(pk_last_error()->why, path));
	assert_non_null(strstr(pk_last_error()->hint, "pk_only_here"));
	unsetenv("PERFKIT_SYSFS_ROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_structure),
		cmocka_unit_test(test_group_modifiers_combine),
		cmocka_unit_test(test_events_group),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_sources_and_names),
		cmocka_unit_test(test_attr_format_and_fields),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_record_lifecycle),
		cmocka_unit_test(test_caller_snapshot),
		cmocka_unit_test_setup_teardown(test_kallsyms_option, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_long_pmu_name, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_config3, make_tmp, remove_tmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
