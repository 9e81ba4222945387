/* SPDX-License-Identifier: MIT */
/*
 * test_nomem.c - every out-of-memory path of representative public calls
 * leaves a true error record.  Each row runs one call with the Nth library
 * allocation failing, for N = 1, 2, 3, ... until the call no longer reaches
 * an Nth allocation, and checks that the call fails with -ENOMEM, that
 * pk_last_error() says so in words naming what ran out instead of the
 * error before it, and (in the ASan build, which checks leaks) that the
 * failed call freed everything it had made.  A last test covers public
 * calls that used to fail without touching the record at all.
 */
#include "sysfake.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkit/symbols.h"

/* A PMU with formats, an alias with companions and caps, so the scan and
 * the parser walk every allocation they make for them. */
static void add_uncore_detail(void)
{
	const char *d = "bus/event_source/devices/uncore_imc/";
	char rel[256];
	static const char *const files[][2] = {
		{ "format/event", "config:0-7\n" },
		{ "format/umask", "config:8-15\n" },
		{ "events/cas_count_read", "event=0x04,umask=0x03\n" },
		{ "events/cas_count_read.scale", "6.103515625e-5\n" },
		{ "events/cas_count_read.unit", "MiB\n" },
		{ "caps/max_precise", "0\n" },
		{ "cpumask", "0\n" },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "%s%s", d, files[i][0]);
		put(root_hw, rel, files[i][1]);
	}
}

static int group_setup(void **state)
{
	int err = sysfake_group_setup(state);

	if (!err)
		add_uncore_detail();
	return err;
}

/* ---- the calls: each frees whatever it made, success or not ------------- */

static int call_pmus_scan(const void *arg)
{
	struct pk_pmus *pmus = NULL;
	int err = pk_pmus_scan(&pmus);

	(void)arg;
	pk_pmus_free(pmus);
	return err;
}

static int call_parse(const void *arg)
{
	struct pk_events *ev = NULL;
	int err = pk_events_parse(arg, NULL, &ev);

	pk_events_free(ev);
	return err;
}

/* The tracefs fixture the catalog tests use. */
static const char *fixture_tracefs(void)
{
	static char dir[512];
	const char *src = getenv("PERFKIT_SRCDIR");

	snprintf(dir, sizeof(dir), "%s/tests/unit/catalog/tracefs", src ? src : ".");
	return dir;
}

static int call_parse_tracepoint(const void *arg)
{
	struct pk_parse_opts o = { .size = sizeof(o), .tracefs = fixture_tracefs() };
	struct pk_events *ev = NULL;
	int err = pk_events_parse(arg, &o, &ev);

	pk_events_free(ev);
	return err;
}

static int call_evlist_new(const void *arg)
{
	static const int cpus[] = { 0, 1 };
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2,
			       .cgroup = NULL };
	struct pk_events *ev = NULL;
	struct pk_evlist *l = NULL;
	int err;

	/* Parse with the seam off: this row is about the event list. */
	unsigned long nth = pk__alloc_fail_nth(0);

	err = pk_events_parse(arg, NULL, &ev);
	pk__alloc_fail_nth(nth);
	assert_true(err > 0);
	err = pk_evlist_new(ev, &t, &l);
	pk_evlist_free(l);
	pk_events_free(ev);
	return err;
}

static int call_catalog_new(const void *arg)
{
	struct pk_catalog_opts o = { .size = sizeof(o), .no_tracepoints = true, .no_libpfm = true };
	struct pk_catalog *cat = NULL;
	int err;

	if (arg) {
		o.no_tracepoints = false;
		o.tracefs = fixture_tracefs();
	}
	err = pk_catalog_new(&o, &cat);
	pk_catalog_free(cat);
	return err;
}

static int call_maps(const void *arg)
{
	struct pk_maps *m = NULL;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };
	int err;

	(void)arg;
	err = pk_maps_new(&m);
	for (uint32_t i = 0; !err && i < 40; i++) {
		char file[64];

		/* Enough processes and DSOs to grow every table once. */
		snprintf(file, sizeof(file), "/usr/lib/lib%u.so", i % 20);
		r.mmap = (struct pk_rec_mmap){ .pid = 100 + i % 3, .tid = 100 + i % 3,
					       .addr = 0x10000ULL * (i + 1), .len = 0x1000,
					       .filename = file };
		err = pk_maps_process(m, &r);
	}
	if (!err) {
		r = (struct pk_record){ .type = PERF_RECORD_FORK };
		r.task = (struct pk_rec_task){ .pid = 200, .ppid = 100, .tid = 200, .ptid = 100 };
		err = pk_maps_process(m, &r);
	}
	pk_maps_free(m);
	return err;
}

static int call_cpus_parse(const void *arg)
{
	int *cpus = NULL;
	size_t nr = 0;
	int err = pk_cpus_parse(arg, &cpus, &nr);

	free(cpus);
	return err;
}

/* A whole perf.data file in root_hw (removed again): writer, events, a
 * group, a build-id, the command line, compressed records, finish. */
static int call_writer(const void *arg)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .sample_type = PERF_SAMPLE_IP };
	static const uint8_t id[20] = { 1, 2, 3 };
	char *const argv[] = { (char *)"perfkit", (char *)"record", NULL };
	uint64_t ids[2] = { 7, 8 };
	struct {
		struct perf_event_header h;
		uint64_t ip;
	} rec = { { PERF_RECORD_SAMPLE, 0, sizeof(rec) }, 0x1234 };
	struct pk_data_writer *w = NULL;
	char path[400];
	int err;

	snprintf(path, sizeof(path), "%s/nomem.data", root_hw);
	err = pk_data_writer_create(path, &w);
	if (!err)
		err = pk_data_writer_add_event(w, &a, "task-clock", ids, 2);
	if (!err)
		err = pk_data_writer_add_event(w, &a, "page-faults", ids, 1);
	if (!err)
		err = pk_data_writer_add_group(w, 0, 2);
	if (!err)
		err = pk_data_writer_add_build_id(w, "/usr/bin/true", id, sizeof(id), false);
	if (!err)
		err = pk_data_writer_set_cmdline(w, 2, argv);
	if (!err && arg)
		err = pk_data_writer_set_compression(w, 1);
	for (int i = 0; !err && i < 4; i++)
		err = pk_data_writer_write(w, &rec, sizeof(rec));
	if (!err)
		err = pk_data_writer_write_round(w);
	if (!err) {
		err = pk_data_writer_finish(w);
		unlink(path);
	} else if (w) {
		pk_data_writer_abort(w);
	}
	return err;
}

struct row {
	const char *name;
	int (*call)(const void *arg);
	const void *arg;
};

static const struct row rows[] = {
	{ "pk_pmus_scan", call_pmus_scan, NULL },
	{ "pk_events_parse task-clock", call_parse, "task-clock" },
	{ "pk_events_parse a list with modifiers", call_parse, "cpu-clock:u,page-faults:k" },
	{ "pk_events_parse a group", call_parse, "{task-clock,context-switches}:S" },
	{ "pk_events_parse PMU terms", call_parse, "uncore_imc/event=0x4,umask=0x3/" },
	{ "pk_events_parse a PMU alias", call_parse, "uncore_imc/cas_count_read/" },
	{ "pk_events_parse a raw event", call_parse, "r1a8" },
	{ "pk_events_parse a breakpoint", call_parse, "mem:0x1000:rw" },
	{ "pk_evlist_new", call_evlist_new, "task-clock,page-faults" },
	{ "pk_catalog_new", call_catalog_new, NULL },
	{ "pk_catalog_new with tracepoints", call_catalog_new, "tracefs" },
	{ "pk_events_parse a tracepoint", call_parse_tracepoint, "sched:sched_switch" },
	{ "pk_events_parse a tracepoint glob", call_parse_tracepoint, "sched:*,irq:irq_handler_entry" },
	{ "pk_maps_new/process", call_maps, NULL },
	{ "pk_cpus_parse", call_cpus_parse, "0-3,8,10-11,64-127" },
	{ "pk_data_* (writer)", call_writer, NULL },
	{ "pk_data_* (writer, compressed)", call_writer, "zstd" },
};

/* Fail allocation 1, 2, 3, ... of row `r` until the call never gets to it. */
static void walk(const struct row *r)
{
	char label[128];
	unsigned long n;

	for (n = 1;; n++) {
		const struct pk_error *e;
		int ret;

		snprintf(label, sizeof(label), "%s, allocation %lu: ", r->name, n);
		row_label = label;
		/* The error a stale record would still show. */
		pk__error(-EINVAL, "an earlier call", "stale text that must not survive");
		pk__alloc_fail_nth(n);
		ret = r->call(r->arg);
		if (pk__alloc_fail_nth(0) != 0) {
			/* Allocation n never happened: the call ran to the end. */
			if (ret < 0)
				fail_msg("%sfailed with %d without a failed allocation: %s", label,
					 ret, pk_last_error()->why);
			break;
		}
		e = pk_last_error();
		if (ret != -ENOMEM || e->code != -ENOMEM)
			fail_msg("%sreturned %d, recorded %d (%s: %s)", label, ret, e->code,
				 e->what, e->why);
		assert_contains(e->why, "out of memory");
		if (strstr(e->why, "stale") || strstr(e->what, "earlier"))
			fail_msg("%sthe record is the previous error's", label);
	}
	row_label = "";
	/* Every row allocates: a row that never failed checked nothing. */
	if (n == 1)
		fail_msg("%s makes no allocation through the library's allocator", r->name);
}

static void every_allocation_failure_is_recorded(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		walk(&rows[i]);
}

/* The words name what ran out, not only that something did. */
static void the_message_names_what_ran_out(void **state)
{
	struct pk_events *ev = NULL;
	char msg[1024];

	(void)state;
	pk__alloc_fail_nth(1);
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), -ENOMEM);
	pk__alloc_fail_nth(0);
	assert_null(ev);
	pk_error_format(NULL, msg, sizeof(msg));
	row_label = "";
	assert_contains(msg, "out of memory for the event list");
}

/* Failures that allocate nothing also replace the previous record. */
static void other_failures_are_recorded(void **state)
{
	struct pk_pmus *pmus = NULL;
	const struct pk_pmu *pmu;
	struct pk_metric_input in = { .size = sizeof(in) };
	struct pk_metric m = { .size = sizeof(m) };
	uint8_t id[20];
	char path[300];

	(void)state;
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	pmu = pk_pmus_find(pmus, "uncore_imc");
	assert_non_null(pmu);
	pk__error(-EINVAL, "an earlier call", "stale");
	assert_int_equal(pk_pmu_cap(pmu, 5, NULL, NULL), -ERANGE);
	assert_int_equal(pk_last_error()->code, -ERANGE);
	assert_contains(pk_last_error()->why, "uncore_imc has 1");
	pk_pmus_free(pmus);

	pk__error(-EINVAL, "an earlier call", "stale");
	assert_int_equal(pk_metric_derive(&in, 1, 1, 1e9, &m, 1), -ERANGE);
	assert_int_equal(pk_last_error()->code, -ERANGE);
	assert_contains(pk_last_error()->why, "no event 1");

	/* A file that is not there: the code is the one the contract names. */
	snprintf(path, sizeof(path), "%s/no-such-binary", root_hw);
	pk__error(-EINVAL, "an earlier call", "stale");
	assert_int_equal(pk_build_id_read(path, id), -ENOENT);
	assert_int_equal(pk_last_error()->code, -ENOENT);
	assert_contains(pk_last_error()->why, "no-such-binary");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_allocation_failure_is_recorded,
						sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(the_message_names_what_ran_out,
						sysfake_setup, sysfake_teardown),
		cmocka_unit_test_setup_teardown(other_failures_are_recorded,
						sysfake_setup, sysfake_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, sysfake_group_teardown);
}
