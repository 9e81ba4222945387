/* SPDX-License-Identifier: MIT */
/*
 * test_export.c - the exporters' contract on small profiles: folded lines
 * exactly as stackcollapse-perf writes them (comm first, names root first,
 * unknown frames named by their DSO, ';' in names made ':', weights summed
 * per stack, lines in order), speedscope's per-thread timelines in time
 * order (sorted, or grouped when the samples come in time order, as from
 * the reader), a stack deeper than the speedscope writer's buffer, the flame graph merging frames under its threshold, a sample
 * given by an earlier one's stack, a failed stream reported, and the
 * errors of a bad sample or options.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static const struct pk_export_event EV[] = { { "cpu-clock", "nanoseconds" }, { "page-faults", "count" } };

static struct pk_exporter *make(enum pk_export_format format, double min_share)
{
	struct pk_export_opts o = { .size = sizeof(o), .format = format, .events = EV, .nr_events = 2,
				    .min_share = min_share };
	struct pk_exporter *ex;

	assert_int_equal(pk_exporter_new(&o, &ex), 0);
	return ex;
}

/* Add a sample of `stack` ("outer;...;inner", frames named by it; "?" a
 * frame without a name in /lib/libc.so.6, "??" one without name or DSO). */
static void add(struct pk_exporter *ex, const char *comm, uint32_t tid, uint64_t time, uint64_t weight,
		const char *stack)
{
	struct pk_export_frame f[16];
	char *copy = strdup(stack), *names[16], *save = NULL;
	size_t n = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	for (size_t i = 0; i < n; i++) {
		const char *nm = names[n - 1 - i];

		f[i] = (struct pk_export_frame){ .name = nm[0] == '?' ? NULL : nm, .addr = 0x1000 + i,
						 .dso = strcmp(nm, "??") ? "/lib/libc.so.6" : NULL };
	}
	struct pk_export_sample s = { .size = sizeof(s), .weight = weight, .pid = tid, .tid = tid,
				      .comm = comm, .cpu = 0, .has_time = true, .time = time,
				      .frames = f, .nr_frames = n };
	assert_int_equal(pk_exporter_add(ex, &s), 0);
	free(copy);
}

/* What the exporter writes, as a string (freed by the caller). */
static char *written(struct pk_exporter *ex)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pk_exporter_write(ex, f), 0);
	fclose(f);
	return buf;
}

static void folded_lines(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_FOLDED, 0);
	char *out;

	(void)state;
	add(ex, "app", 1, 10, 5, "main,work");
	add(ex, "app", 2, 20, 7, "main,work");	/* another thread, the same stack: summed */
	add(ex, "app", 1, 30, 3, "main,?");
	add(ex, "app", 1, 40, 2, "main,??");
	add(ex, "app", 1, 50, 1, "main,a;b");
	add(ex, "app", 1, 60, 4, "main");
	add(ex, "cc1", 3, 70, 9, "main,work");
	out = written(ex);
	assert_string_equal(out, "app;main 4\n"
				 "app;main;[libc.so.6] 3\n"
				 "app;main;[unknown] 2\n"
				 "app;main;a:b 1\n"
				 "app;main;work 12\n"
				 "cc1;main;work 9\n");
	assert_int_equal(pk_exporter_nr_samples(ex), 7);
	assert_int_equal(pk_exporter_total_weight(ex), 31);
	free(out);
	add(ex, "app", 1, 80, 1, "main");	/* the exporter goes on collecting */
	out = written(ex);
	assert_non_null(strstr(out, "app;main 5\n"));
	free(out);
	pk_exporter_free(ex);
}

static void speedscope_timelines(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_SPEEDSCOPE, 0);
	char *out;

	(void)state;
	add(ex, "app", 1, 300, 3, "main,c");
	add(ex, "app", 2, 100, 9, "main,b");
	add(ex, "app", 1, 100, 1, "main,a");
	add(ex, "app", 1, 200, 2, "main,b");
	out = written(ex);
	/* frames by first appearance: main 0, c 1, b 2, a 3; thread 1's samples by time */
	assert_non_null(strstr(out, "\"frames\":[{\"name\":\"main\"},{\"name\":\"c\"},{\"name\":\"b\"},{\"name\":\"a\"}]"));
	assert_non_null(strstr(out, "\"name\":\"app (1/1) cpu-clock\",\"unit\":\"nanoseconds\",\"startValue\":0,"
				    "\"samples\":[[0,3],[0,2],[0,1]],\"weights\":[1,2,3],\"endValue\":6}"));
	assert_non_null(strstr(out, "\"name\":\"app (2/2) cpu-clock\",\"unit\":\"nanoseconds\",\"startValue\":0,"
				    "\"samples\":[[0,2]],\"weights\":[9],\"endValue\":9}"));
	free(out);
	pk_exporter_free(ex);
}

/* Samples already in time order (the reader's order): grouped by thread
 * without a sort, each thread's in arrival order; a stack deeper than the
 * writer's buffer still written whole. */
static void speedscope_in_time_order(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_SPEEDSCOPE, 0);
	struct pk_export_frame deep[4000];
	char *out, *p;

	(void)state;
	add(ex, "app", 7, 100, 1, "main,a");
	add(ex, "app", 3, 100, 2, "main,b");
	add(ex, "app", 7, 150, 3, "main,c");
	add(ex, "app", 3, 200, 4, "main,a");
	add(ex, "app", 7, 200, 5, "main,b");
	for (size_t i = 0; i < 4000; i++)	/* inner first: "main" is the root */
		deep[i] = (struct pk_export_frame){ .name = i == 3999 ? "main" : "r", .addr = 0x9000 + i,
						    .dso = "/lib/libc.so.6" };
	struct pk_export_sample s = { .size = sizeof(s), .weight = 6, .pid = 9, .tid = 9, .comm = "deep",
				      .has_time = true, .time = 300, .frames = deep, .nr_frames = 4000 };
	assert_int_equal(pk_exporter_add(ex, &s), 0);
	out = written(ex);
	/* frames: main 0, a 1, b 2, c 3, r 4; threads 3, 7, 9 in that order */
	p = strstr(out, "\"name\":\"app (3/3) cpu-clock\",\"unit\":\"nanoseconds\",\"startValue\":0,"
			"\"samples\":[[0,2],[0,1]],\"weights\":[2,4],\"endValue\":6}");
	assert_non_null(p);
	p = strstr(p, "\"name\":\"app (7/7) cpu-clock\",\"unit\":\"nanoseconds\",\"startValue\":0,"
		      "\"samples\":[[0,1],[0,3],[0,2]],\"weights\":[1,3,5],\"endValue\":9}");
	assert_non_null(p);
	p = strstr(p, "\"name\":\"deep (9/9) cpu-clock\"");
	assert_non_null(p);
	p = strstr(p, "\"samples\":[[0,4,4,");
	assert_non_null(p);
	size_t fours = 0;

	for (p += strlen("\"samples\":[[0"); strncmp(p, ",4", 2) == 0; p += 2)
		fours++;
	assert_int_equal(fours, 3999);
	const char *tail = "]],\"weights\":[6],\"endValue\":6}";

	assert_true(strncmp(p, tail, strlen(tail)) == 0);
	free(out);
	pk_exporter_free(ex);
}

static void flamegraph_merges_narrow_frames(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_FLAMEGRAPH, 0.05);
	char *out;

	(void)state;
	add(ex, "app", 1, 1, 900, "main,wide");
	for (int i = 0; i < 25; i++) {
		char stack[32];

		snprintf(stack, sizeof(stack), "main,narrow_%d", i);
		add(ex, "app", 1, 2, 4, stack);	/* 0.4% each, 10% together */
	}
	out = written(ex);
	assert_non_null(strstr(out, "<svg"));
	assert_non_null(strstr(out, "names:[\"app\",\"main\",\"wide\",\"[merged]\"]"));
	/* totals in units of their common divisor, 4; the merged box, name 4,
	 * kind 5, two boxes after main (its parent): 100 of 1000, so 25 */
	assert_non_null(strstr(out, "scale:4,"));
	assert_non_null(strstr(out, ",2,4,5,25]"));
	assert_null(strstr(out, "narrow_"));
	free(out);
	pk_exporter_free(ex);
}

/* A sample given by the stack of an earlier one: the same frames, not
 * read again; a stack the exporter never gave is refused, and a caller
 * built before `stack` existed (the smaller size) has it ignored. */
static void stack_given_again(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_FOLDED, 0);
	struct pk_export_frame fr = { .name = "other" };
	struct pk_export_sample s = { .size = sizeof(s), .weight = 9, .pid = 3, .tid = 3, .comm = "cc1", .cpu = -1 };
	uint32_t stack;
	char *out;

	(void)state;
	assert_int_equal(pk_exporter_last_stack(ex), 0);
	add(ex, "app", 1, 10, 5, "main,work");
	stack = pk_exporter_last_stack(ex);
	assert_int_not_equal(stack, 0);
	add(ex, "app", 1, 20, 1, "main");
	assert_int_not_equal(pk_exporter_last_stack(ex), stack);
	s.stack = stack;	/* no frames: main;work's */
	assert_int_equal(pk_exporter_add(ex, &s), 0);
	assert_int_equal(pk_exporter_last_stack(ex), stack);
	s.stack = 1000;
	assert_int_equal(pk_exporter_add(ex, &s), -EINVAL);
	s.size = offsetof(struct pk_export_sample, stack);	/* an older caller: frames read */
	s.frames = &fr;
	s.nr_frames = 1;
	s.weight = 2;
	assert_int_equal(pk_exporter_add(ex, &s), 0);
	out = written(ex);
	assert_string_equal(out, "app;main 1\n"
				 "app;main;work 5\n"
				 "cc1;main;work 9\n"
				 "cc1;other 2\n");
	assert_int_equal(pk_exporter_nr_samples(ex), 4);
	free(out);
	pk_exporter_free(ex);
}

static void failed_stream(void **state)
{
	struct pk_exporter *ex = make(PK_EXPORT_PPROF, 0);
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	add(ex, "app", 1, 1, 1, "main");
	assert_non_null(f);
	assert_int_equal(pk_exporter_write(ex, f), -EIO);
	fclose(f);
	pk_exporter_free(ex);
}

static void bad_input(void **state)
{
	struct pk_export_opts o = { .size = sizeof(o), .format = PK_EXPORT_FOLDED, .events = EV, .nr_events = 0 };
	struct pk_export_frame fr = { .name = "main" };
	struct pk_export_sample s = { .size = sizeof(s), .ev = 2, .weight = 1, .frames = &fr, .nr_frames = 1 };
	struct pk_exporter *ex;

	(void)state;
	assert_int_equal(pk_exporter_new(&o, &ex), -EINVAL);
	assert_null(ex);
	o.nr_events = 1;
	o.format = (enum pk_export_format)7;
	assert_int_equal(pk_exporter_new(&o, &ex), -EINVAL);
	o.format = PK_EXPORT_FOLDED;
	assert_int_equal(pk_exporter_new(&o, &ex), 0);
	assert_int_equal(pk_exporter_add(ex, &s), -EINVAL);	/* event 2 of 1 */
	s.ev = 0;
	s.nr_frames = 0;
	assert_int_equal(pk_exporter_add(ex, &s), -EINVAL);
	assert_int_equal(pk_exporter_nr_samples(ex), 0);
	pk_exporter_free(ex);
	pk_exporter_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(folded_lines),
		cmocka_unit_test(speedscope_timelines),
		cmocka_unit_test(speedscope_in_time_order),
		cmocka_unit_test(flamegraph_merges_narrow_frames),
		cmocka_unit_test(stack_given_again),
		cmocka_unit_test(failed_stream),
		cmocka_unit_test(bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
