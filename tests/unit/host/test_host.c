/* SPDX-License-Identifier: MIT */
/*
 * test_host.c - the host layer: CPU lists (perf -C and sysfs syntax), the
 * online CPUs and topology read through PERFKIT_SYSFS_ROOT, the threads,
 * thread group, name and maps of a process, /proc status and maps lines,
 * and /proc/kallsyms lines and files, malformed ones included.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "host/host.h"
#include "../sys/sysfake.h"	/* put(): files in a made-up sysfs tree */
#include "tmpdir.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove a fixture tree the test made. */
static void rm_tree(const char *root)
{
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void test_cpu_lists(void **state)
{
	static const struct {
		const char *list;
		int err, column;
		const char *cpus;	/* expected, as "a b c" */
	} t[] = {
		{ "0", 0, 0, "0" },
		{ "0-3,8", 0, 0, "0 1 2 3 8" },
		{ "8,3,1-2,3", 0, 0, "1 2 3 8" },	/* sorted, duplicates dropped */
		{ "10-11", 0, 0, "10 11" },
		{ "0-3,2-5,7,6", 0, 0, "0 1 2 3 4 5 6 7" },	/* overlapping and adjacent ranges */
		{ "5,5,5", 0, 0, "5" },
		{ "", -EINVAL, 1, NULL },
		{ "1-", -EINVAL, 3, NULL },
		{ "3-1", -EINVAL, 1, NULL },
		{ "0,,1", -EINVAL, 3, NULL },
		{ "0,", -EINVAL, 2, NULL },
		{ "a", -EINVAL, 1, NULL },
		{ "0-x", -EINVAL, 3, NULL },
		{ "99999999", -EINVAL, 1, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int *cpus = NULL;
		size_t nr = 0;
		int err = pk_cpus_parse(t[i].list, &cpus, &nr);
		char got[128] = "";

		for (size_t k = 0, n = 0; !err && k < nr; k++)
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%d", k ? " " : "", cpus[k]);
		if (err != t[i].err || (t[i].cpus && strcmp(got, t[i].cpus)) ||
		    (err && pk_last_error()->column != t[i].column))
			fail_msg("'%s': got %d '%s' column %d, want %d '%s' column %d", t[i].list, err, got,
				 pk_last_error()->column, t[i].err, t[i].cpus ? t[i].cpus : "", t[i].column);
		free(cpus);
	}
}

/* Repeated big ranges are merged before they are expanded: the fuzzer's
 * list of many "0-560808" once took seconds to sort.  Each CPU once. */
static void test_cpus_parse_repeated_ranges(void **state)
{
	char list[4096] = "";
	int *cpus = NULL;
	size_t nr = 0, n = 0;

	(void)state;
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s0-%d", i ? "," : "", 1000000 - i);
	assert_int_equal(pk_cpus_parse(list, &cpus, &nr), 0);
	assert_int_equal(nr, 1000001);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[nr - 1], 1000000);
	for (size_t i = 1; i < nr; i++)
		if (cpus[i] != cpus[i - 1] + 1)
			fail_msg("cpus[%zu] = %d after %d", i, cpus[i], cpus[i - 1]);
	free(cpus);
}

/* A made-up sysfs root per test (its path in *state), removed and
 * forgotten even when an assertion fails. */
static int make_root(void **state)
{
	static char root[PATH_MAX];

	if (!tmp_mkdtemp(root, sizeof(root), "perfkit-sysfs"))
		return -1;
	*state = root;
	return 0;
}

static int remove_root(void **state)
{
	unsetenv("PERFKIT_SYSFS_ROOT");
	return tmp_rmtree(*state) == 0 ? 0 : -1;
}

static void test_online_from_sysfs_root(void **state)
{
	const char *root = *state;
	char path[PATH_MAX + 64];
	int *cpus;
	size_t nr;

	put(root, "devices/system/cpu/online", "0-2,5\n");
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	assert_int_equal(pk_cpus_online(&cpus, &nr), 0);
	assert_int_equal(nr, 4);
	assert_int_equal(cpus[3], 5);
	free(cpus);
	unlink(path);
	assert_int_equal(pk_cpus_online(&cpus, &nr), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "online"));
	unsetenv("PERFKIT_SYSFS_ROOT");
	rm_tree(root);
}

static void *idle_thread(void *arg)
{
	pthread_mutex_lock(arg);
	pthread_mutex_unlock(arg);
	return NULL;
}

static void test_pid_threads(void **state)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_t th;
	pid_t *tids;
	size_t nr;

	(void)state;
	pthread_mutex_lock(&m);
	assert_int_equal(pthread_create(&th, NULL, idle_thread, &m), 0);
	assert_int_equal(pk_pid_threads(getpid(), &tids, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(tids[0], getpid());	/* the main thread's tid is the pid, and lowest */
	assert_true(tids[1] > tids[0]);
	free(tids);
	pthread_mutex_unlock(&m);
	pthread_join(th, NULL);
	assert_int_equal(pk_pid_threads(0, &tids, &nr), -ESRCH);
	assert_int_equal(pk_pid_threads(INT32_MAX - 1, &tids, &nr), -ESRCH);
	assert_non_null(strstr(pk_last_error()->why, "no such process"));
}


/* Two sockets, the second with two dies, two NUMA nodes; CPU 3 lacks die_id. */
static void test_topology(void **state)
{
	static const int pkg[] = { 0, 0, 1, 1 }, die[] = { 0, 0, 1, -1 }, core[] = { 0, 1, 0, 4 };
	const char *root = *state;
	char rel[128];
	struct pk_cpu_topology t = { .size = sizeof(t) };

	for (int c = 0; c < 4; c++) {
		char v[16];

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", c);
		snprintf(v, sizeof(v), "%d\n", pkg[c]);
		put(root, rel, v);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", c);
		snprintf(v, sizeof(v), "%d\n", core[c]);
		put(root, rel, v);
		if (die[c] >= 0) {
			snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/die_id", c);
			snprintf(v, sizeof(v), "%d\n", die[c]);
			put(root, rel, v);
		}
	}
	put(root, "devices/system/node/node0/cpulist", "0-1\n");
	put(root, "devices/system/node/node1/cpulist", "2-3\n");
	put(root, "devices/system/node/node2/cpulist", "\n");	/* a memory-only node */
	put(root, "devices/system/cpu/cpu0/topology/core_siblings_list", "0-1\n");
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	assert_int_equal(pk_cpu_topology(2, &t), 0);
	assert_int_equal(t.cpu, 2);
	assert_int_equal(t.socket, 1);
	assert_int_equal(t.die, 1);
	assert_int_equal(t.core, 0);
	assert_int_equal(t.node, 1);
	assert_int_equal(pk_cpu_topology(3, &t), 0);
	assert_int_equal(t.die, 0);	/* no die_id: one die per socket */
	assert_int_equal(t.core, 4);
	assert_int_equal(pk_cpu_topology(1, &t), 0);
	assert_int_equal(t.node, 0);
	assert_int_equal(pk_cpu_topology(7, &t), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "cpu7/topology"));
	/* A struct whose size was never set is refused and left alone. */
	{
		struct pk_cpu_topology unsized = { .cpu = 99 };

		assert_int_equal(pk_cpu_topology(2, &unsized), -EINVAL);
		assert_non_null(strstr(pk_last_error()->why, "sizeof(struct pk_cpu_topology)"));
		assert_int_equal(unsized.cpu, 99);
	}
	{
		char list[16];

		assert_int_equal(pk__host_topology_list(0, "core_siblings_list", list, sizeof(list)), 0);
		assert_string_equal(list, "0-1");
		assert_int_equal(pk__host_topology_list(1, "core_siblings_list", list, sizeof(list)),
				 -ENOENT);
		assert_string_equal(list, "");
	}
	unsetenv("PERFKIT_SYSFS_ROOT");
	rm_tree(root);
}

/* pk_nmi_watchdog says what /proc/sys/kernel/nmi_watchdog says (on above
 * 0), or -ENOENT where the kernel has no such setting. */
static void test_nmi_watchdog(void **state)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	bool on = true;
	int v = -1;

	(void)state;
	assert_int_equal(pk_nmi_watchdog(NULL), -EINVAL);
	if (!f) {
		assert_int_equal(pk_nmi_watchdog(&on), -ENOENT);
		return;
	}
	assert_int_equal(fscanf(f, "%d", &v), 1);
	fclose(f);
	on = v <= 0;	/* the opposite, so the call must write it */
	assert_int_equal(pk_nmi_watchdog(&on), 0);
	assert_true(on == (v > 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_cpus_parse_repeated_ranges),
		cmocka_unit_test_setup_teardown(test_online_from_sysfs_root, make_root, remove_root),
		cmocka_unit_test(test_pid_threads),
		cmocka_unit_test_setup_teardown(test_topology, make_root, remove_root),
		cmocka_unit_test(test_nmi_watchdog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
