/* SPDX-License-Identifier: MIT */
/*
 * test_overflow_kernel.c - overflow by signal on the real kernel with a
 * software event: task-clock with a period signals this thread with the
 * event's fd in si_fd and POLL_IN at each overflow; with
 * PERF_EVENT_IOC_REFRESH it says POLL_HUP on the last allowed overflow and
 * the kernel disables the event; a disarmed (freed) table stops the
 * signals.  The waits are handshakes: the thread spins until its handler
 * has seen what it waits for, bounded by the counter itself, not a clock.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

#define PERIOD 100000ULL	/* 0.1 ms of this thread's CPU time */
#define MAX_PERIODS 20000	/* spin no longer than this many periods (2 s of CPU) */

static struct pk_overflow *ovf;
static volatile sig_atomic_t nr_in, nr_hup, nr_other, last_fd;

static void on_overflow(const struct pk_overflow_event *ev, void *arg)
{
	(void)arg;
	last_fd = ev->fd;
	if (ev->event != 0)
		nr_other++;
	else if (ev->code == POLL_HUP)
		nr_hup++;
	else if (ev->code == POLL_IN)
		nr_in++;
	else
		nr_other++;
}

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (!pk_overflow_handle(ovf, si))
		nr_other++;
}

static struct pk_evlist *open_sampler(void)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t) };
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_RESTART };

	assert_int_equal(sigaction(SIGRTMIN, &sa, NULL), 0);
	assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
	pk_events_attr_mut(ev, 0)->sample_period = PERIOD;
	pk_events_attr_mut(ev, 0)->exclude_kernel = 0;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	nr_in = nr_hup = nr_other = 0;
	last_fd = -1;
	return l;
}

static uint64_t count(struct pk_evlist *l)
{
	struct pk_count c = { .size = sizeof(c) };

	assert_int_equal(pk_evlist_read(l, 0, &c), 0);
	return c.value;
}

/* Burn CPU until *flag reaches want, or the counter shows MAX_PERIODS went by. */
static void spin_until(struct pk_evlist *l, volatile sig_atomic_t *flag, int want)
{
	volatile uint64_t x = 0;

	/* The pass limit only stops a broken kernel from hanging the test:
	 * an event disabled without the signal stops its counter too. */
	for (long pass = 0; pass < 1000000 && *flag < want && count(l) < MAX_PERIODS * PERIOD; pass++)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
}

static void test_signal_at_each_overflow(void **state)
{
	struct pk_evlist *l = open_sampler();

	(void)state;
	assert_int_equal(pk_overflow_new(l, on_overflow, NULL, &ovf), 0);
	assert_int_equal(pk_overflow_arm(ovf, 0, SIGRTMIN, 0), 0);
	assert_int_equal(pk_evlist_enable(l), 0);
	spin_until(l, &nr_in, 5);
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_true(nr_in >= 5);
	assert_int_equal(nr_hup, 0);
	assert_int_equal(nr_other, 0);
	assert_int_equal(last_fd, pk_evlist_fd(l, 0, 0, 0));
	/* Freed: the fd stops signalling, though the event counts on. */
	pk_overflow_free(ovf);
	ovf = NULL;
	nr_in = 0;
	assert_int_equal(pk_evlist_enable(l), 0);
	{
		uint64_t start = count(l);
		volatile uint64_t x = 0;

		while (count(l) < start + 20 * PERIOD)
			for (int i = 0; i < 10000; i++)
				x += (uint64_t)i;
	}
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_int_equal(nr_in, 0);
	assert_int_equal(nr_other, 0);
	pk_evlist_free(l);
}

static void test_refresh_counts_down_to_hup(void **state)
{
	struct pk_evlist *l = open_sampler();
	uint64_t stopped;

	(void)state;
	assert_int_equal(pk_overflow_new(l, on_overflow, NULL, &ovf), 0);
	assert_int_equal(pk_overflow_arm(ovf, 0, SIGRTMIN, 0), 0);
	/* REFRESH enables the event for 3 overflows. */
	assert_int_equal(pk_evlist_refresh(l, 0, 3), 0);
	spin_until(l, &nr_hup, 1);
	assert_int_equal(nr_hup, 1);
	assert_true(nr_in <= 2);
	assert_int_equal(nr_other, 0);
	/* The kernel disabled it at the third overflow: it counts no more. */
	stopped = count(l);
	{
		volatile uint64_t x = 0;

		for (int i = 0; i < 20000000; i++)
			x += (uint64_t)i;
	}
	assert_int_equal(count(l), stopped);
	/* Three periods, plus what ran before the kernel's deferred disable. */
	assert_true(stopped >= 3 * PERIOD && stopped < 5 * PERIOD);
	pk_overflow_free(ovf);
	ovf = NULL;
	pk_evlist_free(l);
}

static void test_bad_arguments(void **state)
{
	struct pk_evlist *l = open_sampler();
	struct pk_overflow *o;
	siginfo_t si;

	(void)state;
	assert_int_equal(pk_overflow_new(l, NULL, NULL, &o), -EINVAL);
	assert_int_equal(pk_overflow_new(l, on_overflow, NULL, &o), 0);
	assert_int_equal(pk_overflow_arm(o, 0, SIGKILL, 0), -EINVAL);
	assert_int_equal(pk_overflow_arm(o, 7, SIGRTMIN, 0), -ERANGE);
	/* A signal for another fd is not ours. */
	memset(&si, 0, sizeof(si));
	si.si_code = POLL_IN;
	si.si_fd = 12345;
	assert_int_equal(pk_overflow_handle(o, &si), 0);
	/* Not armed: its own fd is not dispatched either. */
	si.si_code = POLL_IN;
	si.si_fd = pk_evlist_fd(l, 0, 0, 0);
	assert_int_equal(pk_overflow_handle(o, &si), 0);
	/* Armed, with the kernel's code: dispatched; from kill(2): not ours. */
	assert_int_equal(pk_overflow_arm(o, 0, SIGRTMIN, 0), 0);
	nr_in = 0;
	assert_int_equal(pk_overflow_handle(o, &si), 1);
	assert_int_equal(nr_in, 1);
	si.si_code = SI_USER;
	assert_int_equal(pk_overflow_handle(o, &si), 0);
	assert_int_equal(nr_in, 1);
	assert_int_equal(pk_evlist_fd(l, 3, 0, 0), -ERANGE);
	pk_overflow_free(o);
	pk_evlist_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_at_each_overflow),
		cmocka_unit_test(test_refresh_counts_down_to_hup),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
