/* SPDX-License-Identifier: MIT */
/*
 * test_rings_poll.c - pk_rings_poll over the rings of two CPUs, with a
 * fake kernel behind the sys seam (perf_event_open hands out fds, mmap
 * zeroed memory, poll answers as each test says).  Checked: every ring's
 * fd is waited on for input with the caller's timeout; a timeout is 0 and
 * no error; rings with input are counted; hang-ups are remembered for
 * pk_rings_hangup (all rings, not some); a signal is -EINTR without an
 * error record; any other failure is its errno with a message.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "tmpdir.h"

#define FD0 700

static struct {
	int nr_open, nr_closed;
	int poll_err;			/* errno to fail with, or 0 */
	short revents[2];		/* what ring 0 and ring 1 report */
	int nr_polls;
	size_t nfds;
	struct pollfd seen[2];
	int timeout;
} k;

static char root[256];

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	(void)a, (void)pid, (void)cpu, (void)group_fd, (void)flags;
	return FD0 + k.nr_open++;
}

static int fake_close(int fd)
{
	assert_true(fd >= FD0 && fd < FD0 + k.nr_open);
	k.nr_closed++;
	return 0;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd, (void)req, (void)arg;
	return 0;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = NULL;

	(void)addr, (void)prot, (void)flags, (void)fd, (void)off;
	assert_int_equal(posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), len), 0);
	memset(p, 0, len);
	return p;
}

static int fake_munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}

static int fake_poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	int n = 0;

	k.nr_polls++;
	k.nfds = nfds;
	k.timeout = timeout_ms;
	for (size_t i = 0; i < nfds && i < 2; i++)
		k.seen[i] = fds[i];
	if (k.poll_err) {
		errno = k.poll_err;
		return -1;
	}
	for (size_t i = 0; i < nfds && i < 2; i++) {
		fds[i].revents = k.revents[i];
		n += k.revents[i] != 0;
	}
	return n;
}

static const struct pk__sys_ops ops = {
	.perf_event_open = fake_open, .close = fake_close, .ioctl = fake_ioctl,
	.mmap = fake_mmap, .munmap = fake_munmap, .poll = fake_poll,
};

/* The rings of one sampling event on CPUs 0 and 1. */
struct fixture {
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
};

static int group_setup(void **state)
{
	char path[512];
	FILE *f;

	(void)state;
	assert_non_null(tmp_mkdtemp(root, sizeof(root), "pk-rings-poll"));
	snprintf(path, sizeof(path), "%s/devices", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	assert_non_null(f = fopen(path, "w"));
	fputs("0-1\n", f);
	fclose(f);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	unsetenv("PERFKIT_SYSFS_ROOT");
	return tmp_rmtree(root);
}

static int setup(void **state)
{
	static const int cpus[2] = { 0, 1 };
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2 };
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	memset(&k, 0, sizeof(k));
	pk__sys_set_ops(&ops);
	assert_true(pk_events_parse("task-clock", NULL, &fx->ev) >= 0);
	assert_int_equal(pk_evlist_new(fx->ev, &t, &fx->l), 0);
	if (pk_evlist_open(fx->l) < 0) {
		char m[512];

		pk_error_format(NULL, m, sizeof(m));
		fail_msg("%s", m);
	}
	assert_int_equal(pk_rings_map(fx->l, 1, &fx->rs), 0);
	assert_int_equal(pk_rings_nr(fx->rs), 2);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	pk_rings_free(fx->rs);
	pk_evlist_free(fx->l);
	pk_events_free(fx->ev);
	free(fx);
	assert_int_equal(k.nr_closed, k.nr_open);
	pk__sys_set_ops(NULL);
	return 0;
}

/* Each ring's fd, for input, with the caller's timeout; nothing came. */
static void test_timeout(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(pk_rings_poll(fx->rs, 250), 0);
	assert_int_equal(k.nr_polls, 1);
	assert_int_equal(k.nfds, 2);
	assert_int_equal(k.timeout, 250);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(k.seen[i].fd, FD0 + i);
		assert_int_equal(k.seen[i].events, POLLIN);
	}
	assert_int_equal(pk_last_error()->code, 0);
	assert_false(pk_rings_hangup(fx->rs));
}

/* The rings with input are counted; a ring that hangs up with input
 * counts too, and is remembered. */
static void test_ready_counted(void **state)
{
	struct fixture *fx = *state;

	k.revents[1] = POLLIN;
	assert_int_equal(pk_rings_poll(fx->rs, -1), 1);
	assert_int_equal(k.timeout, -1);
	k.revents[0] = POLLIN | POLLHUP;
	assert_int_equal(pk_rings_poll(fx->rs, 0), 2);
	assert_false(pk_rings_hangup(fx->rs));	/* ring 1 still has a task */
}

/* A hang-up is remembered: once every ring has reported one, all
 * monitored tasks are gone, even when they were seen one wait apart. */
static void test_hangup_remembered(void **state)
{
	struct fixture *fx = *state;

	k.revents[0] = POLLHUP;
	assert_int_equal(pk_rings_poll(fx->rs, 10), 0);
	assert_false(pk_rings_hangup(fx->rs));
	k.revents[0] = 0;
	k.revents[1] = POLLERR;
	assert_int_equal(pk_rings_poll(fx->rs, 10), 0);
	assert_true(pk_rings_hangup(fx->rs));
}

/* A signal is the caller's business (its stop flag), not a failure. */
static void test_eintr_unrecorded(void **state)
{
	struct fixture *fx = *state;

	k.poll_err = EINTR;
	assert_int_equal(pk_rings_poll(fx->rs, 100), -EINTR);
	assert_int_equal(k.nr_polls, 1);	/* not retried: the caller decides */
	assert_int_equal(pk_last_error()->code, 0);
	assert_false(pk_rings_hangup(fx->rs));
}

/* Any other failure is its errno, with what failed and why. */
static void test_error_recorded(void **state)
{
	struct fixture *fx = *state;
	const struct pk_error *e;

	k.poll_err = EINVAL;
	assert_int_equal(pk_rings_poll(fx->rs, 100), -EINVAL);
	e = pk_last_error();
	assert_int_equal(e->code, -EINVAL);
	assert_string_equal(e->what, "poll ring buffers");
	assert_non_null(strstr(e->why, "RLIMIT_NOFILE"));
	k.poll_err = ENOMEM;
	assert_int_equal(pk_rings_poll(fx->rs, 100), -ENOMEM);
	assert_non_null(strstr(pk_last_error()->why, "poll table"));
	/* The next good wait clears the record. */
	k.poll_err = 0;
	assert_int_equal(pk_rings_poll(fx->rs, 100), 0);
	assert_int_equal(pk_last_error()->code, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ready_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hangup_remembered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eintr_unrecorded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_recorded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
