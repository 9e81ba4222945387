/* SPDX-License-Identifier: MIT */
/*
 * test_sideband.c - the recorder's BPF side-band thread without a kernel:
 * a fake kernel behind the sys seam (perf_event_open hands out fds, mmap
 * hands out zeroed memory for the rings) and a sysfs with two online CPUs.
 * The stop eventfd is a real one and a wait that blocks is a real poll(2)
 * on it, so stopping is checked against a thread that is really asleep.
 * Checked: the thread waits on every CPU's event and the stop fd, and
 * stopping wakes it; a wait interrupted by a signal is simply made again;
 * a wait that fails ends the thread and the failure reaches the caller
 * instead of a hang; an eventfd that cannot be made fails the start with
 * a message naming it; a kernel that will not open the event leaves no
 * side band and no fd behind.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "session/session.h"
#include "sys/sys.h"
#include "tmpdir.h"

#define FD0 700
#define NR_CPUS 2

/* What one wait of the thread does, in order; past the script: BLOCK. */
enum wait_step { BLOCK, FAIL_EINTR, FAIL_ENOMEM };

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int nr_open, nr_closed;		/* fake event fds */
	int open_err;			/* errno for perf_event_open, or 0 */
	int eventfd_err;		/* errno for eventfd, or 0 */
	int efd;			/* the real eventfd handed out, or -1 */
	bool efd_closed;
	int nr_signals;			/* writes of 1 to the eventfd */
	enum wait_step script[4];
	int nr_polls;
	size_t poll_nfds;
	int poll_fds[8], poll_timeout;
} k = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static char root[256];

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	int fd;

	(void)pid, (void)cpu, (void)group_fd, (void)flags;
	assert_true(a->bpf_event);
	pthread_mutex_lock(&k.lock);
	if (k.open_err) {
		pthread_mutex_unlock(&k.lock);
		errno = k.open_err;
		return -1;
	}
	fd = FD0 + k.nr_open++;
	pthread_mutex_unlock(&k.lock);
	return fd;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == PERF_EVENT_IOC_ID) {
		uint64_t id = 9000 + (uint64_t)fd;

		memcpy((void *)arg, &id, sizeof(id));
	}
	return 0;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = NULL;

	(void)addr, (void)prot, (void)flags, (void)fd, (void)off;
	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), len))
		return MAP_FAILED;
	memset(p, 0, len);
	return p;
}

static int fake_munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}

static int fake_close(int fd)
{
	pthread_mutex_lock(&k.lock);
	if (fd == k.efd && k.efd >= 0) {
		k.efd_closed = true;
		pthread_mutex_unlock(&k.lock);
		return close(fd);
	}
	k.nr_closed++;
	pthread_mutex_unlock(&k.lock);
	return 0;
}

static int fake_eventfd(unsigned int initval, int flags)
{
	if (k.eventfd_err) {
		errno = k.eventfd_err;
		return -1;
	}
	k.efd = eventfd(initval, flags);
	return k.efd;
}

static ssize_t fake_write(int fd, const void *buf, size_t len)
{
	uint64_t v;

	assert_int_equal(fd, k.efd);
	assert_int_equal(len, sizeof(v));
	memcpy(&v, buf, sizeof(v));
	assert_int_equal(v, 1);
	pthread_mutex_lock(&k.lock);
	k.nr_signals++;
	pthread_mutex_unlock(&k.lock);
	return write(fd, buf, len);
}

/* The thread's wait: noted (and the test told), then the script's step.
 * BLOCK is a real poll(2) on the eventfd alone: the fake event fds are no
 * kernel's, and no BPF program loads here. */
static int fake_poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	enum wait_step step;
	struct pollfd stop = { .fd = -1, .events = POLLIN };
	size_t stop_idx = nfds;
	int n;

	pthread_mutex_lock(&k.lock);
	step = k.nr_polls < 4 ? k.script[k.nr_polls] : BLOCK;
	k.nr_polls++;
	k.poll_nfds = nfds;
	k.poll_timeout = timeout_ms;
	for (size_t i = 0; i < nfds && i < 8; i++)
		k.poll_fds[i] = fds[i].fd;
	pthread_cond_broadcast(&k.cond);
	pthread_mutex_unlock(&k.lock);
	if (step != BLOCK) {
		errno = step == FAIL_EINTR ? EINTR : ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < nfds; i++) {
		fds[i].revents = 0;
		if (fds[i].fd == k.efd)
			stop_idx = i;
	}
	if (stop_idx == nfds)
		return 0;	/* nothing that could wake it: the test fails on the fds */
	stop.fd = fds[stop_idx].fd;
	do
		n = poll(&stop, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	fds[stop_idx].revents = stop.revents;
	return n;
}

static const struct pk__sys_ops ops = {
	.perf_event_open = fake_open, .ioctl = fake_ioctl, .mmap = fake_mmap,
	.munmap = fake_munmap, .close = fake_close, .eventfd = fake_eventfd,
	.write = fake_write, .poll = fake_poll,
};

/* Until the thread has begun its nth wait: a handshake, not a sleep. */
static void wait_for_polls(int nth)
{
	pthread_mutex_lock(&k.lock);
	while (k.nr_polls < nth)
		pthread_cond_wait(&k.cond, &k.lock);
	pthread_mutex_unlock(&k.lock);
}

static int group_setup(void **state)
{
	char path[512];
	FILE *f;

	(void)state;
	assert_non_null(tmp_mkdtemp(root, sizeof(root), "pk-sideband"));
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
	(void)state;
	pthread_mutex_lock(&k.lock);
	k.nr_open = k.nr_closed = k.open_err = k.eventfd_err = k.nr_signals = k.nr_polls = 0;
	k.efd = -1;
	k.efd_closed = false;
	memset(k.script, 0, sizeof(k.script));
	k.poll_nfds = 0;
	pthread_mutex_unlock(&k.lock);
	pk__error_clear();
	pk__sys_set_ops(&ops);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pk__sys_set_ops(NULL);
	return 0;
}

/* Freed: the eventfd closed and every event fd opened closed again. */
static void assert_all_closed(void)
{
	assert_true(k.efd < 0 || k.efd_closed);
	assert_int_equal(k.nr_closed, k.nr_open);
}

/* The thread waits on each CPU's event and the stop fd, without end; stop
 * wakes it from a wait it is really blocked in, with one signal. */
static void test_stop_wakes_the_wait(void **state)
{
	struct pk__sideband *sb;

	(void)state;
	assert_int_equal(pk__sideband_start(&sb), 0);
	assert_non_null(sb);
	wait_for_polls(1);
	pthread_mutex_lock(&k.lock);
	assert_int_equal(k.poll_nfds, NR_CPUS + 1);
	assert_int_equal(k.poll_fds[0], FD0);
	assert_int_equal(k.poll_fds[1], FD0 + 1);
	assert_int_equal(k.poll_fds[NR_CPUS], k.efd);
	assert_int_equal(k.poll_timeout, -1);
	pthread_mutex_unlock(&k.lock);
	pk__sideband_stop(sb);		/* returns only once the thread has */
	assert_int_equal(k.nr_signals, 1);
	assert_int_equal(k.nr_polls, 1);
	pk__sideband_stop(sb);		/* stopped already: nothing more */
	assert_int_equal(k.nr_signals, 1);
	assert_int_equal(pk__sideband_sync(sb), 0);
	pk__sideband_free(sb);
	assert_all_closed();
}

/* A signal during the wait is no failure: the thread waits again, and
 * is still there to be stopped. */
static void test_eintr_waits_again(void **state)
{
	struct pk__sideband *sb;

	(void)state;
	k.script[0] = k.script[1] = FAIL_EINTR;
	assert_int_equal(pk__sideband_start(&sb), 0);
	assert_non_null(sb);
	wait_for_polls(3);		/* the third wait blocks */
	pk__sideband_stop(sb);
	assert_int_equal(k.nr_polls, 3);
	assert_int_equal(pk__sideband_sync(sb), 0);
	assert_int_equal(pk_last_error()->code, 0);
	pk__sideband_free(sb);
	assert_all_closed();
}

/* A wait that fails ends the thread (one wait, no spinning), stopping it
 * afterwards does not hang, and the caller is told what failed. */
static void test_failed_wait_is_reported(void **state)
{
	struct pk__sideband *sb;
	const struct pk_error *e;

	(void)state;
	k.script[0] = FAIL_ENOMEM;
	assert_int_equal(pk__sideband_start(&sb), 0);
	assert_non_null(sb);
	wait_for_polls(1);
	pk__sideband_stop(sb);
	assert_int_equal(k.nr_polls, 1);
	assert_int_equal(pk__sideband_sync(sb), -ENOMEM);
	e = pk_last_error();
	assert_int_equal(e->code, -ENOMEM);
	assert_string_equal(e->what, "poll the BPF side band's events");
	assert_non_null(strstr(e->why, "poll table"));
	assert_non_null(strstr(e->why, "side-band thread"));
	/* Sticky: asked again, the same answer. */
	assert_int_equal(pk__sideband_sync(sb), -ENOMEM);
	pk__sideband_free(sb);
	assert_all_closed();
}

/* No eventfd, no side band: the start fails, saying which fd and why,
 * before any event is opened. */
static void test_eventfd_failure_fails_start(void **state)
{
	struct pk__sideband *sb = (struct pk__sideband *)&sb;
	const struct pk_error *e;

	(void)state;
	k.eventfd_err = EMFILE;
	assert_int_equal(pk__sideband_start(&sb), -EMFILE);
	assert_null(sb);
	e = pk_last_error();
	assert_int_equal(e->code, -EMFILE);
	assert_string_equal(e->what, "eventfd(2) for the BPF side band's stop");
	assert_non_null(strstr(e->why, "Too many open files (EMFILE)"));
	assert_non_null(strstr(e->why, "RLIMIT_NOFILE"));
	assert_non_null(strstr(e->hint, "ulimit -n"));
	assert_int_equal(k.nr_open, 0);
	assert_int_equal(k.nr_polls, 0);
}

/* A kernel that will not open the event (no right to watch every CPU):
 * no side band and no error, and its eventfd closed again. */
static void test_not_here_leaves_nothing(void **state)
{
	struct pk__sideband *sb = (struct pk__sideband *)&sb;

	(void)state;
	k.open_err = EACCES;
	assert_int_equal(pk__sideband_start(&sb), 0);
	assert_null(sb);
	assert_int_equal(pk_last_error()->code, 0);
	assert_true(k.efd >= 0);
	assert_true(k.efd_closed);
	assert_int_equal(k.nr_polls, 0);
	pk__sideband_stop(NULL);
	assert_int_equal(pk__sideband_sync(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stop_wakes_the_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eintr_waits_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_wait_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eventfd_failure_fails_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_here_leaves_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
