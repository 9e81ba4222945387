/* SPDX-License-Identifier: MIT */
/*
 * test_mount_seam.c - pk_tracefs_mount when mount(2) fails, which a root
 * test could not make happen before mount went through the sys seam: the
 * errno reaches the caller with a hint that fits it (EACCES is EPERM, as
 * for a user without the right), and a mount that leaves no events
 * directory is no success.  Runs as root in a child with a private mount
 * namespace where tracefs and debugfs are unmounted, so that the library
 * looks for them and tries to mount; the fake mount never mounts anything.
 * The child reports each check through its exit status.
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
#include "sys/sys.h"

#define SKIP_STATUS 77

static struct {
	int err;		/* errno the fake fails with, or 0: "succeeds", mounting nothing */
	int calls;
	char source[32], target[64], fstype[32];
} m;

static int fake_mount(const char *source, const char *target, const char *fstype,
		      unsigned long flags, const void *data)
{
	(void)flags, (void)data;
	m.calls++;
	snprintf(m.source, sizeof(m.source), "%s", source ? source : "");
	snprintf(m.target, sizeof(m.target), "%s", target ? target : "");
	snprintf(m.fstype, sizeof(m.fstype), "%s", fstype ? fstype : "");
	if (m.err) {
		errno = m.err;
		return -1;
	}
	return 0;
}

static const struct pk__sys_ops ops = { .mount = fake_mount };

static bool mounted(void)
{
	struct stat st;

	return stat("/sys/kernel/tracing/events", &st) == 0;
}

/* pk_tracefs_mount with the fake failing with `err`: the result, and the
 * check's number + 1 when the error record does not say `why` / `hint`. */
static int one(int check, int err, int want, const char *why, const char *hint)
{
	const struct pk_error *e;

	memset(&m, 0, sizeof(m));
	m.err = err;
	if (pk_tracefs_mount() != want || m.calls != 1)
		return check;
	e = pk_last_error();
	if (e->code != want || strcmp(e->what, "mount tracefs") || !strstr(e->why, why) ||
	    !strstr(e->hint, hint))
		return check + 1;
	if (strcmp(m.source, "nodev") || strcmp(m.target, "/sys/kernel/tracing") ||
	    strcmp(m.fstype, "tracefs") || mounted())
		return check + 2;
	return 0;
}

static int checks(void)
{
	int r;

	pk__sys_set_ops(&ops);
	if ((r = one(10, EPERM, -EPERM, strerror(EPERM), "as root: mount -t tracefs")) ||
	    (r = one(20, EACCES, -EPERM, strerror(EACCES), "as root: mount -t tracefs")) ||
	    (r = one(30, ENODEV, -ENODEV, strerror(ENODEV), "CONFIG_TRACING")) ||
	    (r = one(40, 0, -ENOENT, strerror(ENOENT), "CONFIG_TRACING")))
		return r;
	return 0;
}

static void test_mount_failures(void **state)
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
		cmocka_unit_test(test_mount_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
