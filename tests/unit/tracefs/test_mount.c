/* SPDX-License-Identifier: MIT */
/*
 * test_mount.c - the library never mounts tracefs on its own, and
 * pk_tracefs_mount does when asked.  Runs as root in a child with a private
 * mount namespace where tracefs (and debugfs) are unmounted, so the
 * machine's own mounts are never touched; the child reports each check
 * through its exit status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfkit.h"

#define SKIP_STATUS 77

static bool mounted(void)
{
	struct stat st;

	return stat("/sys/kernel/tracing/events", &st) == 0;
}

/* tracefs mounts at /sys/kernel/tracing, from /proc/self/mounts. */
static int nr_tracefs_mounts(void)
{
	char line[1024];
	FILE *f = fopen("/proc/self/mounts", "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !!strstr(line, " /sys/kernel/tracing tracefs ");
	fclose(f);
	return n;
}

static int parse_sched_switch(uint64_t *config)
{
	struct pk_events *ev = NULL;
	int n = pk_events_parse("sched:sched_switch", NULL, &ev);

	if (n == 1)
		*config = pk_events_attr(ev, 0)->config;
	pk_events_free(ev);
	return n;
}

static int checks(void)
{
	struct pk_catalog_opts co = { .size = sizeof(co), .no_libpfm = true };
	struct pk_catalog *cat = NULL;
	uint64_t config = 0;
	long id = 0;
	FILE *f;

	/* Parsing and cataloguing without tracefs fail or skip, and mount nothing. */
	if (parse_sched_switch(&config) != -ENOENT)
		return 1;
	if (!strstr(pk_last_error()->hint, "mount -t tracefs nodev /sys/kernel/tracing"))
		return 2;
	if (pk_catalog_new(&co, &cat) < 0)
		return 3;
	for (size_t i = 0; i < pk_catalog_nr(cat); i++)
		if (pk_catalog_get(cat, i)->source == PK_SRC_TRACEPOINT)
			return 4;
	pk_catalog_free(cat);
	if (mounted() || nr_tracefs_mounts() != 0)
		return 5;
	/* Asked, it mounts, once. */
	if (pk_tracefs_mount() != 0 || !mounted())
		return 6;
	if (pk_tracefs_mount() != 0 || nr_tracefs_mounts() != 1)
		return 7;
	f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");
	if (!f || fscanf(f, "%ld", &id) != 1)
		return 8;
	fclose(f);
	if (parse_sched_switch(&config) != 1 || config != (uint64_t)id)
		return 9;
	return 0;
}

static void test_mount_only_when_asked(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(SKIP_STATUS);
		umount2("/sys/kernel/tracing", MNT_DETACH);
		umount2("/sys/kernel/debug", MNT_DETACH);
		if (mounted())
			_exit(SKIP_STATUS);
		_exit(checks());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == SKIP_STATUS)
		skip();
	if (WEXITSTATUS(status))
		fail_msg("check %d failed in the private mount namespace", WEXITSTATUS(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_only_when_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
