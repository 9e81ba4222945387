/* SPDX-License-Identifier: MIT */
/*
 * test_stat_metric_nmi.c - perf 6.1's NO_NMI_WATCHDOG metric constraint in
 * perfkit stat -M: the generated table carries it (Skylake's and Ice
 * Lake's Page_Walks_Utilization, as in perf's JSON), and while the NMI
 * watchdog is on such a metric's events are counted ungrouped, with perf's
 * warning per metric and its hint once after; other metrics stay grouped,
 * and --metric-no-group says nothing.  On the Skylake fixture PMU
 * (PERFKIT_SYSFS_ROOT, LIBPFM_FORCE_PMU=skl, PERFKIT_CPUID).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stat.h"

/* main.c's usage printer (main.c has perfkit's main): the pieces linked in
 * reach it only for bad options, which no test here passes. */
int cli_usage(const char *cmd, const char *fmt, ...)
{
	fail_msg("cli_usage(%s, %s) reached", cmd, fmt);
	return CLI_EXIT_USAGE;
}

static void test_table(void **state)
{
	const struct pk_metric_def *m;
	size_t nr = 0;

	(void)state;
	for (size_t i = 0; (m = pk_metric_def_get(i)); i++) {
		assert_true(m->size >= offsetof(struct pk_metric_def, constraint) + sizeof(m->constraint));
		if (!m->constraint)
			continue;
		assert_string_equal(m->constraint, "NO_NMI_WATCHDOG");
		assert_string_equal(m->name, "Page_Walks_Utilization");
		nr++;
	}
	assert_int_equal(nr, 2);	/* skl-metrics.json's and icl-metrics.json's */
}

/* -M `names` expanded with the watchdog `on`: o->events into *events,
 * what went to stderr into *msg. */
static void expand(const char *names, bool no_group, bool on, char **events, char **msg)
{
	struct stat_opts o = { .metric_arg = (char *)names, .metric_no_group = no_group };
	FILE *tmp = tmpfile();
	int saved = dup(2);
	long len;

	assert_non_null(tmp);
	fflush(stderr);
	assert_true(dup2(fileno(tmp), 2) == 2);
	assert_int_equal(stat_metric_expand_nmi(&o, on), 0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	len = ftell(tmp);
	assert_true(len >= 0);
	*msg = calloc(1, (size_t)len + 1);
	rewind(tmp);
	assert_int_equal(fread(*msg, 1, (size_t)len, tmp), (size_t)len);
	fclose(tmp);
	*events = o.events;
	free(o.mdefs);
}

#define WALKS "ITLB_MISSES:WALK_PENDING,DTLB_LOAD_MISSES:WALK_PENDING,DTLB_STORE_MISSES:WALK_PENDING,EPT:WALK_PENDING,CPU_CLK_UNHALTED:THREAD_P"
#define HINT "Try disabling the NMI watchdog to comply NO_NMI_WATCHDOG metric constraint:\n" \
	"    echo 0 > /proc/sys/kernel/nmi_watchdog\n    perf stat ...\n" \
	"    echo 1 > /proc/sys/kernel/nmi_watchdog\n"

/* Whether `list` is in `events` on its own: between commas or the ends,
 * not in braces. */
static bool ungrouped(const char *events, const char *list)
{
	const char *w = strstr(events, list);
	size_t n = strlen(list);

	return w && (w == events || w[-1] == ',') && (w[n] == ',' || w[n] == '\0');
}

static void test_watchdog_off(void **state)
{
	char *events, *msg;

	(void)state;
	expand("Page_Walks_Utilization", false, false, &events, &msg);
	assert_non_null(strstr(events, "{" WALKS "}"));
	assert_string_equal(msg, "");
	free(events);
	free(msg);
}

static void test_watchdog_on(void **state)
{
	char *events, *msg;

	(void)state;
	expand("IPC,Page_Walks_Utilization,CPI", false, true, &events, &msg);
	/* IPC and CPI keep their groups; the walks' events are ungrouped. */
	assert_non_null(strstr(events, "{INST_RETIRED:ANY_P,CPU_CLK_UNHALTED:THREAD_P}"));
	assert_true(ungrouped(events, WALKS));
	assert_string_equal(msg, "Splitting metric group Page_Walks_Utilization into standalone metrics.\n" HINT);
	free(events);
	free(msg);
	/* --metric-no-group: nothing to split, nothing said. */
	expand("Page_Walks_Utilization", true, true, &events, &msg);
	assert_string_equal(msg, "");
	assert_null(strchr(events, '{'));
	free(events);
	free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_watchdog_off),
		cmocka_unit_test(test_watchdog_on),
	};

	char root[1024];

	snprintf(root, sizeof(root), "%s/sysfs/intel", getenv("PERFKIT_FIXTURES") ? getenv("PERFKIT_FIXTURES") : "tests/fixtures");
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	setenv("PERFKIT_CPUID", "GenuineIntel-6-5E-3", 1);
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
