/* SPDX-License-Identifier: MIT */
/*
 * test_sigtrap_kernel.c - synchronous SIGTRAP and watchpoints on the real
 * kernel: task-clock with sigtrap traps the thread that burned its period,
 * with the event's sig_data and type; an inherited sigtrap event traps a
 * forked child but is gone after the child's exec (remove_on_exec); a
 * write watchpoint traps the writing instruction with the variable's
 * address, misses other variables, and follows its variable after
 * pk_watch_move.  The waits are handshakes: a thread spins until its
 * handler has seen the trap, bounded by the counter, not a clock.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "perfkit.h"

#define PERIOD 100000ULL	/* 0.1 ms of the thread's CPU time */
#define COOKIE 0x5157ab1eULL

static volatile sig_atomic_t nr_traps, nr_other;
static volatile pid_t trap_tid;
static struct pk_sigtrap_info last;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	struct pk_sigtrap_info info = { .size = sizeof(info) };

	(void)sig;
	if (!pk_sigtrap_decode(si, uc, &info)) {
		nr_other++;
		return;
	}
	last = info;
	trap_tid = gettid();
	nr_traps++;
}

static void install(void)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART };

	assert_int_equal(sigaction(SIGTRAP, &sa, NULL), 0);
	nr_traps = nr_other = 0;
	trap_tid = 0;
	memset(&last, 0, sizeof(last));
}

/* task-clock of the calling thread, trapping every PERIOD ns; inherit to
 * forked children when asked. */
static struct pk_evlist *open_trapper(bool inherit)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .inherit = inherit };

	assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
	pk_events_attr_mut(ev, 0)->sample_period = PERIOD;
	/* Only user time: a period that runs out inside execve would trap the
	 * new program (see pk_sigtrap_set). */
	pk_events_attr_mut(ev, 0)->exclude_kernel = 1;
	assert_int_equal(pk_sigtrap_set(ev, 0, COOKIE), 0);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	/* Too late now: the evlist has its copy. */
	assert_int_equal(pk_sigtrap_set(ev, 0, 1), -EBUSY);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	return l;
}

/* Burn CPU until `want` traps were seen (or far too many periods went by). */
static void burn_until(int want)
{
	volatile uint64_t x = 0;

	for (long pass = 0; pass < 200000 && nr_traps < want; pass++)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
}

struct worker {
	pid_t tid;
	int traps;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pk_evlist *l = open_trapper(false);

	w->tid = gettid();
	assert_int_equal(pk_evlist_enable(l), 0);
	burn_until(3);
	assert_int_equal(pk_evlist_disable(l), 0);
	w->traps = nr_traps;
	pk_evlist_free(l);
	return NULL;
}

/* The trap arrives on the thread that ran the period out, not on main. */
static void test_trap_on_the_overflowing_thread(void **state)
{
	struct worker w = { 0 };
	pthread_t th;

	(void)state;
	install();
	assert_int_equal(pthread_create(&th, NULL, worker_main, &w), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(w.traps >= 3);
	assert_int_equal(nr_other, 0);
	assert_int_equal(trap_tid, w.tid);
	assert_int_not_equal(trap_tid, gettid());
	assert_int_equal(last.data, COOKIE);
	assert_int_equal(last.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(last.size, sizeof(last));
}

/* A kill(SIGTRAP) is not a perf trap. */
static void test_other_sigtrap_is_not_decoded(void **state)
{
	(void)state;
	install();
	assert_int_equal(raise(SIGTRAP), 0);
	assert_int_equal(nr_traps, 0);
	assert_int_equal(nr_other, 1);
}

/* The inherited event traps the child until it execs, then is removed:
 * the new program burns CPU and exits normally. */
static void test_remove_on_exec(void **state)
{
	struct pk_evlist *l;
	pid_t pid;
	int status;

	(void)state;
	install();
	l = open_trapper(true);
	assert_int_equal(pk_evlist_enable(l), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		nr_traps = 0;
		burn_until(2);
		if (nr_traps < 2 || last.data != COOKIE)
			_exit(3);
		execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done", (char *)NULL);
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(pk_evlist_disable(l), 0);
	if (WIFSIGNALED(status))
		print_message("child killed by signal %d\n", WTERMSIG(status));
	assert_false(WIFSIGNALED(status));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	pk_evlist_free(l);
}

static volatile long watched_a, watched_b;

__attribute__((noinline)) static void poke(volatile long *p, long v)
{
	*p = v;
	__asm__ volatile("" ::: "memory");
}

static void test_watchpoint_catches_write_and_moves(void **state)
{
	struct pk_watch *w;
	uint64_t n;
	int err;

	(void)state;
	install();
	err = pk_watch_new((const void *)&watched_a, sizeof(watched_a), PK_WATCH_WRITE, 77, &w);
	if (err == -ENOENT || err == -ENOSPC) {
		print_message("no hardware breakpoints here: %s\n", pk_last_error()->why);
		skip();
	}
	assert_int_equal(err, 0);
	assert_ptr_equal(pk_watch_addr(w), (const void *)&watched_a);
	poke(&watched_b, 1);
	assert_int_equal(nr_traps, 0);
	poke(&watched_a, 2);
	assert_int_equal(nr_traps, 1);
	assert_int_equal(last.addr, (uint64_t)(uintptr_t)&watched_a);
	assert_int_equal(last.data, 77);
	assert_int_equal(last.type, PERF_TYPE_BREAKPOINT);
	/* The trap follows the write: the ip is inside poke, past its start. */
	assert_true(last.ip > (uint64_t)(uintptr_t)poke && last.ip < (uint64_t)(uintptr_t)poke + 512);
	assert_int_equal(watched_a, 2);

	assert_int_equal(pk_watch_move(w, (const void *)&watched_b, sizeof(watched_b)), 0);
	assert_ptr_equal(pk_watch_addr(w), (const void *)&watched_b);
	poke(&watched_a, 3);
	assert_int_equal(nr_traps, 1);
	poke(&watched_b, 4);
	assert_int_equal(nr_traps, 2);
	assert_int_equal(last.addr, (uint64_t)(uintptr_t)&watched_b);
	/* The event counted both writes it watched. */
	assert_int_equal(read(pk_watch_fd(w), &n, sizeof(n)), (ssize_t)sizeof(n));
	assert_int_equal(n, 2);
	/* A length the machine refuses leaves it where it was. */
	assert_true(pk_watch_move(w, (const void *)&watched_a, 3) < 0);
	assert_ptr_equal(pk_watch_addr(w), (const void *)&watched_b);
	pk_watch_free(w);
	poke(&watched_b, 5);
	assert_int_equal(nr_traps, 2);
	assert_int_equal(nr_other, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trap_on_the_overflowing_thread),
		cmocka_unit_test(test_other_sigtrap_is_not_decoded),
		cmocka_unit_test(test_remove_on_exec),
		cmocka_unit_test(test_watchpoint_catches_write_and_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
