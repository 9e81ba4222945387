/* SPDX-License-Identifier: MIT */
/*
 * test_workload.c - starting commands for counting: exit statuses as a shell
 * reports them, a command that cannot run told apart from one that fails,
 * a held child that never runs its command, signal forwarding, and counting
 * only the command through enable_on_exec.  Scratch files go under $TMPDIR
 * and are removed by the tests' teardowns.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

/* Touch 3000 fresh pages in this process. */
static void touch_pages_here(void)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, 3000 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (int i = 0; i < 3000; i++)
		p[i * page] = 1;
	munmap((void *)p, 3000 * page);
}

static int run(char *const argv[])
{
	struct pk_workload *w;
	int st;

	assert_int_equal(pk_workload_start(argv, &w), 0);
	assert_true(pk_workload_pid(w) > 0);
	assert_int_equal(pk_workload_go(w), 0);
	st = pk_workload_wait(w);
	pk_workload_free(w);
	return st;
}

static void test_exit_status(void **state)
{
	char *t[] = { "true", NULL };
	char *f[] = { "sh", "-c", "exit 3", NULL };
	char *k[] = { "sh", "-c", "kill -TERM $$", NULL };

	(void)state;
	assert_int_equal(run(t), 0);
	assert_int_equal(run(f), 3);
	assert_int_equal(run(k), 128 + SIGTERM);
}

/* A scratch directory per test (its path in *state), removed even when an
 * assertion fails. */
static int make_dir(void **state)
{
	static char dir[PATH_MAX];

	if (!tmp_mkdtemp(dir, sizeof(dir), "perfkit-workload"))
		return -1;
	*state = dir;
	return 0;
}

static int remove_dir(void **state)
{
	return tmp_rmtree(*state) == 0 ? 0 : -1;
}

static void test_cannot_run(void **state)
{
	char *argv[] = { "perfkit-no-such-command", NULL };
	char path[PATH_MAX + 32];
	char *noexec[] = { path, NULL };
	struct pk_workload *w;
	int fd;

	snprintf(path, sizeof(path), "%s/noexec", (const char *)*state);
	assert_int_equal(pk_workload_start(argv, &w), 0);
	assert_int_equal(pk_workload_go(w), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "cannot run 'perfkit-no-such-command'"));
	assert_non_null(strstr(pk_last_error()->hint, "full path"));
	assert_int_equal(pk_workload_wait(w), 127);	/* already reaped, status kept */
	pk_workload_free(w);

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pk_workload_start(noexec, &w), 0);
	/* root may execute anything with an x bit; without one, even root gets EACCES */
	assert_int_equal(pk_workload_go(w), -EACCES);
	assert_non_null(strstr(pk_last_error()->hint, "chmod +x"));
	pk_workload_free(w);

	assert_int_equal(pk_workload_start((char *[]){ NULL }, &w), -EINVAL);
}

/* A workload freed before it was released never runs its command. */
static void test_never_released(void **state)
{
	char marker[PATH_MAX + 32], cmd[PATH_MAX + 64];
	char *argv[] = { "sh", "-c", cmd, NULL };
	struct pk_workload *w;

	snprintf(marker, sizeof(marker), "%s/ran", (const char *)*state);
	snprintf(cmd, sizeof(cmd), "touch '%s'", marker);
	assert_int_equal(pk_workload_start(argv, &w), 0);
	pk_workload_free(w);	/* reaps the held child */
	assert_int_equal(access(marker, F_OK), -1);
}

static void test_forward_signal(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct pk_workload *w;

	(void)state;
	assert_int_equal(pk_workload_start(argv, &w), 0);
	assert_int_equal(pk_workload_go(w), 0);
	assert_int_equal(pk_workload_try_wait(w), -EAGAIN);	/* still sleeping */
	assert_int_equal(pk_workload_signal(w), 0);
	assert_int_equal(pk_workload_kill(w, SIGINT), 0);
	assert_int_equal(pk_workload_wait(w), 128 + SIGINT);
	assert_int_equal(pk_workload_signal(w), SIGINT);
	assert_int_equal(pk_workload_kill(w, SIGINT), -ESRCH);
	assert_int_equal(pk_workload_try_wait(w), 128 + SIGINT);	/* reaped: kept */
	pk_workload_free(w);
}

/* Counters opened on the held child with enable_on_exec count the command. */
/* What a counting test holds, freed by its teardown even when an assertion
 * fails half-way (so the sanitizer run reports no leak on top of it). */
struct held {
	struct pk_workload *w;
	struct pk_events *ev;
	struct pk_evlist *l;
};

static int hold(void **state)
{
	static struct held h;

	memset(&h, 0, sizeof(h));
	*state = &h;
	return 0;
}

static int release(void **state)
{
	struct held *h = *state;

	pk_evlist_free(h->l);
	pk_events_free(h->ev);
	pk_workload_free(h->w);
	return 0;
}

static void test_count_command(void **state)
{
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done", NULL };
	struct held *h = *state;
	struct pk_workload *w;
	struct pk_evlist *l;
	struct pk_count tc = { .size = sizeof(tc) }, pf = { .size = sizeof(pf) };
	pid_t pid;
	int err;

	assert_int_equal(pk_workload_start(argv, &h->w), 0);
	w = h->w;
	pid = pk_workload_pid(w);
	struct pk_target t = { .size = sizeof(t), .threads = &pid, .nr_threads = 1,
			       .inherit = true, .enable_on_exec = true };
	assert_int_equal(pk_events_parse("task-clock,page-faults", NULL, &h->ev), 2);
	assert_int_equal(pk_evlist_new(h->ev, &t, &h->l), 0);
	l = h->l;
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM)
		skip();
	assert_int_equal(err, 0);
	/* Held before exec: nothing counted yet. */
	assert_int_equal(pk_evlist_read(l, 0, &tc), 0);
	assert_int_equal(tc.value, 0);
	assert_int_equal(pk_workload_go(w), 0);
	assert_int_equal(pk_workload_wait(w), 0);
	assert_int_equal(pk_evlist_read(l, 0, &tc), 0);
	assert_int_equal(pk_evlist_read(l, 1, &pf), 0);
	assert_true(tc.value > 100000);		/* more than 0.1 ms of shell loop */
	assert_true(pf.value > 10);		/* exec maps and touches pages */
}


/* Spawned with events on ourselves (inherit + enable_on_exec): only the
 * command is counted, including its children, and exec failures come back. */
static void test_spawn(void **state)
{
	char *argv[] = { "sh", "-c", "exit 5", NULL };
	char *missing[] = { "perfkit-no-such-command", NULL };
	char cmd[256];
	char *touch[] = { "sh", "-c", cmd, NULL };
	const char *wl = getenv("PERFKIT_WORKLOAD");
	struct held *h = *state;
	struct pk_workload *w;
	struct pk_evlist *l;
	struct pk_count pf = { .size = sizeof(pf) };
	pid_t self = 0;
	int err;

	assert_int_equal(pk_workload_spawn(argv, &h->w), 0);
	assert_int_equal(pk_workload_go(h->w), 0);	/* already running: a no-op */
	assert_int_equal(pk_workload_wait(h->w), 5);
	pk_workload_free(h->w);
	h->w = NULL;
	assert_int_equal(pk_workload_spawn(missing, &w), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "cannot run 'perfkit-no-such-command'"));
	if (!wl)
		skip();	/* the counting half needs the workload binary */
	snprintf(cmd, sizeof(cmd), "%s pages 1000; %s pages 1000", wl, wl);
	struct pk_target t = { .size = sizeof(t), .threads = &self, .nr_threads = 1, .inherit = true,
			       .enable_on_exec = true };
	assert_int_equal(pk_events_parse("page-faults", NULL, &h->ev), 1);
	assert_int_equal(pk_evlist_new(h->ev, &t, &h->l), 0);
	l = h->l;
	err = pk_evlist_open(l);
	if (err == -EACCES || err == -EPERM)
		skip();
	assert_int_equal(err, 0);
	touch_pages_here();	/* ours: must not count, we never exec */
	assert_int_equal(pk_workload_spawn(touch, &h->w), 0);
	assert_int_equal(pk_workload_wait(h->w), 0);
	assert_int_equal(pk_evlist_read(l, 0, &pf), 0);
	/* both children's 1000 pages, plus the shell's and their own start-up */
	if (pf.value < 2000 || pf.value > 2600)
		fail_msg("page-faults %llu for two children touching 1000 pages each",
			 (unsigned long long)pf.value);
}


/* A held child killed from outside: releasing it is an error, not SIGPIPE. */
static void test_release_dead_child(void **state)
{
	char *argv[] = { "true", NULL };
	struct pk_workload *w;
	siginfo_t si;

	(void)state;
	assert_int_equal(pk_workload_start(argv, &w), 0);
	assert_int_equal(kill(pk_workload_pid(w), SIGKILL), 0);
	/* Wait until it is a zombie (its descriptors, the pipe's read end among
	 * them, are closed by then), but leave it to pk_workload_wait to reap. */
	assert_int_equal(waitid(P_PID, (id_t)pk_workload_pid(w), &si, WEXITED | WNOWAIT), 0);
	assert_int_equal(si.si_code, CLD_KILLED);
	assert_int_equal(pk_workload_go(w), -EPIPE);
	assert_non_null(strstr(pk_last_error()->why, "cannot release 'true'"));
	assert_int_equal(pk_workload_wait(w), 128 + SIGKILL);
	pk_workload_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test_setup_teardown(test_cannot_run, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_never_released, make_dir, remove_dir),
		cmocka_unit_test(test_forward_signal),
		cmocka_unit_test_setup_teardown(test_count_command, hold, release),
		cmocka_unit_test_setup_teardown(test_spawn, hold, release),
		cmocka_unit_test(test_release_dead_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
