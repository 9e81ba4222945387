/* SPDX-License-Identifier: MIT */
/*
 * test_resolvers_kernel.c - the resolvers against the running kernel: a
 * uprobe on a function of this binary really opens and counts its calls,
 * and tracepoint names expand to the ids this kernel's tracefs publishes
 * (checked by reading the id files directly).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "event/event.h"

__attribute__((noinline, used)) int pk_test_counted(int x);
__attribute__((noinline, used)) int pk_test_counted(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static void test_uprobe_counts_calls(void **state)
{
	struct pk_pmus *pmus = NULL;
	struct perf_event_attr a;
	char *owned, *canonical;
	uint64_t count = 0;
	volatile int sink = 0;
	int fd, ret;

	(void)state;
	unsetenv("PERFKIT_SYSFS_ROOT");
	assert_int_equal(pk_pmus_scan(&pmus), 0);
	memset(&a, 0, sizeof(a));
	ret = pk__probe_encode(pmus, NULL, false, false, "/proc/self/exe:pk_test_counted", &a, &owned,
			       &canonical);
	if (ret == -ENODEV) {
		pk_pmus_free(pmus);
		skip();	/* this kernel has no uprobe PMU */
	}
	assert_int_equal(ret, 0);
	print_message("# %s\n", canonical);
	fd = pk__sys_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, canonical);
	if (fd < 0)
		fail_msg("open %s: %s (%s)", canonical, pk_last_error()->why, pk_last_error()->hint);
	for (int i = 0; i < 5; i++)
		sink += pk_test_counted(i);
	assert_int_equal(read(fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	assert_int_equal(count, 5);
	assert_int_equal(sink, 15);
	pk__sys_close(fd);
	free(owned);
	free(canonical);
	pk_pmus_free(pmus);
}

static char tracefs[PATH_MAX];

/* Skip (naming why) when this machine has no usable tracefs. */
static int setup(void **state)
{
	(void)state;
	(void)pk_tracefs_mount();	/* as root, as the CLI does; else a no-op */
	if (pk__tracefs_find(NULL, tracefs, sizeof(tracefs)) < 0) {
		print_message("# no tracefs: %s (%s)\n", pk_last_error()->why,
			      pk_last_error()->hint);
		tracefs[0] = '\0';
	}
	return 0;
}

static void need_tracefs(void)
{
	if (!tracefs[0])
		skip();
}

static uint64_t id_file(const char *sys, const char *name)
{
	char path[PATH_MAX];
	unsigned long long id = 0;
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name) < (int)sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu", &id), 1);
	fclose(f);
	return id;
}

static void check(const char *sys, const char *ev, size_t min_nr)
{
	struct pk__tp *tps;
	size_t nr;

	assert_int_equal(pk__tp_expand(tracefs, sys, ev, &tps, &nr), 0);
	print_message("# %s:%s -> %zu tracepoints\n", sys, ev, nr);
	assert_true(nr >= min_nr);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(fnmatch(sys, tps[i].sys, 0), 0);
		assert_int_equal(fnmatch(ev, tps[i].name, 0), 0);
		assert_int_equal(tps[i].id, id_file(tps[i].sys, tps[i].name));
		if (i) {
			int c = strcmp(tps[i - 1].sys, tps[i].sys);

			assert_true(c < 0 || (c == 0 && strcmp(tps[i - 1].name, tps[i].name) < 0));
		}
	}
	pk__tp_free(tps, nr);
}

static void test_tracepoints(void **state)
{
	struct pk__tp *tps;
	size_t nr;

	(void)state;
	need_tracefs();
	assert_int_equal(pk__tp_expand(tracefs, "sched", "sched_switch", &tps, &nr), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(tps[0].name, "sched_switch");
	assert_int_equal(tps[0].id, id_file("sched", "sched_switch"));
	pk__tp_free(tps, nr);
	check("sched", "sched_*", 4);
	/* syscalls:* needs CONFIG_FTRACE_SYSCALLS, which Debian kernels have */
	check("syscalls", "sys_enter_open*", 2);
	assert_true(pk__tracefs_is_system(tracefs, "sched"));
	assert_false(pk__tracefs_is_system(tracefs, "no_such_subsystem"));
}

static void test_tracepoint_miss(void **state)
{
	struct pk__tp *tps;
	size_t nr;

	(void)state;
	need_tracefs();
	assert_int_equal(pk__tp_expand(tracefs, "sched", "sched_swtich", &tps, &nr), -ENOENT);
	print_message("# %s / %s\n", pk_last_error()->why, pk_last_error()->hint);
	assert_non_null(strstr(pk_last_error()->hint, "'sched:sched_switch'"));
	assert_int_equal(pk__tp_expand(tracefs, "schde", "sched_switch", &tps, &nr), -ENOENT);
	assert_non_null(strstr(pk_last_error()->hint, "'sched:sched_switch'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uprobe_counts_calls),
		cmocka_unit_test(test_tracepoints),
		cmocka_unit_test(test_tracepoint_miss),
	};

	return cmocka_run_group_tests_name("resolvers-kernel", tests, setup, NULL);
}
