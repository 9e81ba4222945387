/* SPDX-License-Identifier: MIT */
/*
 * test_guest.c - exclude_guest and exclude_host as perf 6.1 sets them: every
 * event starts excluding the guest, a modifier string on the event starts
 * afresh (only u and p exclude the guest again), group modifiers add to the
 * members' bits, G/H set both bits then clear their own.  Each expected row
 * is what `perf stat -vv -e SPEC -- true` printed with perf 6.1; the
 * canonical string of every event parses back to the same bits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

/* A tracefs with one tracepoint, sched:sched_switch (id 316), so the
 * tracepoint rows do not depend on the machine's tracefs. */
static char tracefs[200];

static int make_tracefs(void **state)
{
	char path[256];
	FILE *f;

	(void)state;
	if (!tmp_mkdtemp(tracefs, sizeof(tracefs), "pk-guest"))
		return -1;
	snprintf(path, sizeof(path), "%s/events", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tracefs);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("316\n", f);
	return fclose(f);
}

static int remove_tracefs(void **state)
{
	(void)state;
	return tmp_rmtree(tracefs) == 0 ? 0 : -1;
}

static int parse(const char *spec, struct pk_events **ev)
{
	struct pk_parse_opts o = { .size = sizeof(o), .tracefs = tracefs };

	return pk_events_parse(spec, &o, ev);
}

/* Per event: 'g' exclude_guest only, 'h' exclude_host only, 'b' both, '-' neither. */
static const struct {
	const char *spec;
	const char *gh;
} cases[] = {
	{ "cpu-clock", "g" },
	{ "task-clock", "g" },
	{ "page-faults", "g" },
	{ "sched:sched_switch", "g" },
	{ "mem:0x1000", "g" },
	{ "duration_time", "g" },
	{ "cycles", "g" },
	{ "r1c2", "g" },
	{ "cpu-clock/period=1000/", "g" },
	{ "cpu-clock:u", "g" },
	{ "cpu-clock:k", "-" },
	{ "cpu-clock:ku", "g" },
	{ "cpu-clock:G", "h" },
	{ "cpu-clock:H", "g" },
	{ "cpu-clock:uG", "h" },
	{ "cpu-clock:p", "g" },
	{ "cpu-clock:I", "-" },
	{ "cpu-clock:S", "-" },
	{ "cpu-clock:D", "-" },
	{ "mem:0x1000:k", "-" },
	{ "sched:sched_switch:k", "-" },
	{ "{cpu-clock,task-clock}", "gg" },
	{ "{cpu-clock,task-clock}:k", "gg" },
	{ "{cpu-clock:k,task-clock}:u", "gg" },
	{ "{cpu-clock:u,task-clock}:k", "gg" },
	{ "{cpu-clock,task-clock}:G", "hh" },
	{ "{cpu-clock:H,task-clock:GH}:G", "--" },
	{ "{cpu-clock:GH,task-clock:k}:u", "-g" },
};

static char gh_of(const struct perf_event_attr *a)
{
	return a->exclude_guest ? (a->exclude_host ? 'b' : 'g') : (a->exclude_host ? 'h' : '-');
}

static void test_perf_bits(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_events *ev = NULL;
		size_t n = strlen(cases[i].gh);
		int nr = parse(cases[i].spec, &ev);

		if (nr < 0)
			fail_msg("'%s': %s", cases[i].spec, pk_last_error()->why);
		assert_int_equal(nr, (int)n);
		for (size_t k = 0; k < n; k++) {
			char got = gh_of(pk_events_attr(ev, k));

			if (got != cases[i].gh[k])
				fail_msg("'%s' event %zu: guest/host '%c', perf 6.1 has '%c'",
					 cases[i].spec, k, got, cases[i].gh[k]);
		}
		pk_events_free(ev);
	}
}

/* The canonical string of each event gives its guest/host bits back. */
static void test_canonical_round_trip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_events *ev = NULL;

		assert_true(parse(cases[i].spec, &ev) > 0);
		for (size_t k = 0; k < pk_events_nr(ev); k++) {
			const char *canon = pk_events_desc(ev, k)->canonical;
			struct pk_events *back = NULL;

			if (parse(canon, &back) != 1)
				fail_msg("'%s' event %zu: canonical '%s' does not parse", cases[i].spec, k,
					 canon);
			if (gh_of(pk_events_attr(back, 0)) != gh_of(pk_events_attr(ev, k)))
				fail_msg("'%s' event %zu: canonical '%s' gives '%c', not '%c'",
					 cases[i].spec, k, canon, gh_of(pk_events_attr(back, 0)),
					 gh_of(pk_events_attr(ev, k)));
			pk_events_free(back);
		}
		pk_events_free(ev);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_bits),
		cmocka_unit_test(test_canonical_round_trip),
	};

	return cmocka_run_group_tests(tests, make_tracefs, remove_tracefs);
}
