/* SPDX-License-Identifier: MIT */
/*
 * test_tracing.c - the HEADER_TRACING_DATA payload byte by byte, built
 * from the fixture tracefs in tests/unit/catalog/tracefs: the magic and
 * version perf's reader checks, the header files and the recorded
 * tracepoints' format texts as the fixture holds them, grouped by
 * subsystem, and nothing at all when no event is a tracepoint.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "data/data.h"

static char fixture[4096];

/* A fixture file's bytes; the test fails when it cannot be read. */
static char *slurp(const char *rel, size_t *len)
{
	char path[4200];
	FILE *f;
	char *buf = malloc(1 << 16);

	snprintf(path, sizeof(path), "%s/%s", fixture, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

static uint64_t fixture_id(const char *rel)
{
	size_t len;
	char *s = slurp(rel, &len);
	uint64_t id = strtoull(s, NULL, 10);

	free(s);
	return id;
}

/* A cursor over the payload: every read is checked against its end. */
struct cur {
	const unsigned char *p;
	size_t left;
};

static const void *take(struct cur *c, size_t n)
{
	const void *at = c->p;

	assert_true(n <= c->left);
	c->p += n;
	c->left -= n;
	return at;
}

static uint32_t take_u32(struct cur *c) { uint32_t v; memcpy(&v, take(c, 4), 4); return v; }
static uint64_t take_u64(struct cur *c) { uint64_t v; memcpy(&v, take(c, 8), 8); return v; }

static void take_str(struct cur *c, const char *want)
{
	assert_memory_equal(take(c, strlen(want) + 1), want, strlen(want) + 1);
}

/* A u64 size and a text equal to the fixture file `rel`. */
static void take_file(struct cur *c, const char *rel)
{
	size_t len;
	char *want = slurp(rel, &len);

	assert_int_equal(take_u64(c), len);
	assert_memory_equal(take(c, len), want, len);
	free(want);
}

/* The section for sched_switch, cpu-clock and irq_handler_entry, named
 * `a`, "cpu-clock" and `b`: the same bytes whatever the names say. */
static void check_section(const char *a, const char *b)
{
	struct pk__data_event ev[3] = { 0 };
	unsigned char *out;
	size_t len;
	struct cur c;

	ev[0].attr.type = PERF_TYPE_TRACEPOINT;
	ev[0].attr.config = fixture_id("events/sched/sched_switch/id");
	ev[0].name = (char *)a;
	ev[1].attr.type = PERF_TYPE_SOFTWARE;	/* not a tracepoint: no format */
	ev[1].attr.config = PERF_COUNT_SW_CPU_CLOCK;
	ev[1].name = (char *)"cpu-clock";
	ev[2].attr.type = PERF_TYPE_TRACEPOINT;
	ev[2].attr.config = fixture_id("events/irq/irq_handler_entry/id");
	ev[2].name = (char *)b;
	assert_int_equal(pk__data_writer_tracing(fixture, ev, 3, &out, &len), 0);
	assert_non_null(out);
	c = (struct cur){ out, len };
	assert_memory_equal(take(&c, 10), "\027\010\104tracing", 10);
	take_str(&c, "0.6");
	assert_int_equal(*(const uint8_t *)take(&c, 1), 0);		/* little-endian */
	assert_int_equal(*(const uint8_t *)take(&c, 1), sizeof(long));
	assert_int_equal(take_u32(&c), (uint32_t)sysconf(_SC_PAGESIZE));
	take_str(&c, "header_page");
	take_file(&c, "events/header_page");
	take_str(&c, "header_event");
	take_file(&c, "events/header_event");
	assert_int_equal(take_u32(&c), 0);		/* ftrace formats */
	assert_int_equal(take_u32(&c), 2);		/* subsystems, sorted */
	take_str(&c, "irq");
	assert_int_equal(take_u32(&c), 1);
	take_file(&c, "events/irq/irq_handler_entry/format");
	take_str(&c, "sched");
	assert_int_equal(take_u32(&c), 1);		/* sched_process_exec was not recorded */
	take_file(&c, "events/sched/sched_switch/format");
	assert_int_equal(take_u32(&c), 0);		/* kallsyms */
	assert_int_equal(take_u32(&c), 0);		/* printk formats */
	assert_int_equal(take_u64(&c), 0);		/* saved_cmdlines */
	assert_int_equal(c.left, 0);
	free(out);
}

static void test_section(void **state)
{
	(void)state;
	check_section("sched:sched_switch", "irq:irq_handler_entry");	/* found by name */
	check_section("sched:sched_switch", "irq:renamed");		/* by every id */
	check_section(NULL, "");
	check_section("irq:irq_handler_entry", "sched:sched_switch");	/* names that lie */
}

static void test_no_tracepoints(void **state)
{
	struct pk__data_event ev[1] = { 0 };
	unsigned char *out = (unsigned char *)"x";
	size_t len = 1;

	(void)state;
	ev[0].attr.type = PERF_TYPE_SOFTWARE;
	assert_int_equal(pk__data_writer_tracing(fixture, ev, 1, &out, &len), 0);
	assert_null(out);
	assert_int_equal(len, 0);
}

static void test_no_tracefs(void **state)
{
	struct pk__data_event ev[1] = { 0 };
	unsigned char *out;
	size_t len;

	(void)state;
	ev[0].attr.type = PERF_TYPE_TRACEPOINT;
	ev[0].attr.config = 1;
	assert_true(pk__data_writer_tracing("/nonexistent-tracefs", ev, 1, &out, &len) < 0);
	assert_null(out);
	assert_non_null(strstr(pk_last_error()->why, "tracefs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_section),
		cmocka_unit_test(test_no_tracepoints),
		cmocka_unit_test(test_no_tracefs),
	};

	snprintf(fixture, sizeof(fixture), "%s/tests/unit/catalog/tracefs", getenv("PERFKIT_SRCDIR"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
