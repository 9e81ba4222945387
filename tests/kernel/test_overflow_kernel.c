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

/* The handler that reads the samples since its last call from the ring. */
static struct pk_rings *rings;
static const struct perf_event_attr *ring_attr;
static volatile sig_atomic_t nr_samples, nr_bad;

static void on_overflow_read(const struct pk_overflow_event *ev, void *arg)
{
	struct pk_ring *r = pk_rings_at(rings, ev->cpu_idx, ev->thread_idx);
	const struct perf_event_header *h;

	(void)arg;
	nr_in++;
	if (!r)
		return (void)nr_bad++;
	while (pk_ring_next(r, &h) > 0) {
		struct pk_sample_peek s = { .size = sizeof(s) };

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (pk_sample_peek(h, ring_attr, &s) < 0 || s.pid != (uint32_t)getpid() || !s.ip ||
		    s.period != PERIOD || !s.time)
			nr_bad++;
		else
			nr_samples++;
	}
	pk_ring_consume(r);
}

/*
 * An overflow handler reads the samples written since its last call: every
 * signal comes after the kernel wrote the overflow's sample, so by the k-th
 * call at least k samples were read, all of this process, whole and
 * decoded, though a one-page ring makes records wrap its end all the time.
 */
static void test_handler_reads_samples(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t) };
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct perf_event_attr *a;
	sigset_t rt, old;
	const struct perf_event_header *h;
	int left = 0;

	(void)state;
	assert_int_equal(sigaction(SIGRTMIN, &sa, NULL), 0);
	assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
	a = pk_events_attr_mut(ev, 0);
	a->sample_period = PERIOD;
	a->exclude_kernel = 0;
	/* 40 bytes a sample: not a divisor of the page, so records wrap. */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	ring_attr = pk_evlist_attr(l, 0);
	assert_int_equal(pk_rings_map(l, 1, &rings), 0);
	assert_int_equal(pk_rings_reserve(rings), 0);
	assert_ptr_equal(pk_rings_at(rings, 0, 0), pk_rings_get(rings, 0));
	assert_null(pk_rings_at(rings, 1, 0));
	assert_null(pk_rings_at(rings, 0, 1));
	nr_in = nr_hup = nr_other = nr_samples = nr_bad = 0;
	assert_int_equal(pk_overflow_new(l, on_overflow_read, NULL, &ovf), 0);
	assert_int_equal(pk_overflow_arm(ovf, 0, SIGRTMIN, 0), 0);
	assert_int_equal(pk_evlist_enable(l), 0);
	spin_until(l, &nr_in, 200);	/* 200 x 40 bytes: the 4 KiB ring wrapped */
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_true(nr_in >= 200);
	assert_true(nr_samples >= nr_in);
	assert_int_equal(nr_bad, 0);
	assert_int_equal(nr_other, 0);
	/* The pattern for reading outside the handler: block the signal. */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	assert_int_equal(sigprocmask(SIG_BLOCK, &rt, &old), 0);
	while (pk_ring_next(pk_rings_at(rings, 0, 0), &h) > 0)
		left++;
	pk_ring_consume(pk_rings_at(rings, 0, 0));
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	assert_true(left < 200);	/* the handler kept up: what is left is the tail */
	pk_overflow_free(ovf);
	ovf = NULL;
	pk_rings_free(rings);
	rings = NULL;
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
		cmocka_unit_test(test_handler_reads_samples),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
