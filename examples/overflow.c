/* SPDX-License-Identifier: MIT */
/*
 * overflow.c - overflow by signal: a task-clock sampler with a period of
 * 1 ms of CPU signals this thread at each overflow (SIGRTMIN, queued, with
 * the event's fd in si_fd and POLL_IN in si_code); then
 * PERF_EVENT_IOC_REFRESH lets it overflow three more times, the last one
 * saying POLL_HUP as the kernel disables the event.  The handler reads the
 * samples written since its last call from the event's ring (mapped and
 * reserved with pk_rings_reserve before arming, so reading allocates
 * nothing): it counts them per overflow and tallies their ips in a fixed
 * table, all it may do in a signal handler (see signal-safety(7)).  main
 * prints the counts and, naming the ips with dladdr (the example is linked
 * with -rdynamic), the function the most samples were in.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dladdr, gettid */
#endif
#include <perfkit.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_CALLS 256	/* overflows whose sample counts are kept */
#define MAX_IPS 256	/* distinct ips tallied */

static struct pk_overflow *ovf;
static struct pk_evlist *list;
static struct pk_rings *rings;
static volatile sig_atomic_t nr_in, nr_hup;
static volatile unsigned long sink;
static uint32_t my_pid, my_tid;

/* Written only by the handler; main reads them with the event disabled. */
static unsigned per_call[MAX_CALLS];
static unsigned long nr_calls, nr_samples, nr_foreign;
static struct { uint64_t ip; unsigned long n; } ips[MAX_IPS];

static void tally(uint64_t ip)
{
	for (size_t i = 0; i < MAX_IPS; i++) {
		if (ips[i].n && ips[i].ip != ip)
			continue;
		ips[i].ip = ip;
		ips[i].n++;
		return;
	}
}

/* Called by pk_overflow_handle, inside the signal handler: read what the
 * kernel wrote since the last call.  The kernel writes an overflow's
 * sample before it signals, so all the calls together read at least one
 * sample per overflow (a call may find its own already read by the one
 * before, if that overflow came while the previous call was reading). */
static void on_overflow(const struct pk_overflow_event *ev, void *arg)
{
	struct pk_ring *r = pk_rings_at(rings, ev->cpu_idx, ev->thread_idx);
	const struct perf_event_header *h;
	unsigned n = 0;

	(void)arg;
	while (r && pk_ring_next(r, &h) > 0) {
		struct pk_sample_peek s = { .size = sizeof(s) };

		if (h->type != PERF_RECORD_SAMPLE ||
		    pk_sample_peek(h, pk_evlist_attr(list, ev->event), &s) < 0)
			continue;
		n++;
		if (s.pid != my_pid || s.tid != my_tid)
			nr_foreign++;
		tally(s.ip);
	}
	if (r)
		pk_ring_consume(r);
	if (nr_calls < MAX_CALLS)
		per_call[nr_calls] = n;
	nr_calls++;
	nr_samples += n;
	if (ev->code == POLL_HUP)
		nr_hup++;
	else
		nr_in++;
}

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	pk_overflow_handle(ovf, si);	/* 0 when it is not one of ours */
}

/* Burn CPU until *flag reaches want (the event's overflows end the wait).
 * Not static: dladdr finds only exported symbols. */
void spin_until(volatile sig_atomic_t *flag, int want);
__attribute__((noinline)) void spin_until(volatile sig_atomic_t *flag, int want)
{
	while (*flag < want)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
}

/* The sampler on this thread, its ring ready for the handler, armed. */
static int setup(void)
{
	struct pk_target self = { .size = sizeof(self) };
	struct pk_events *ev;
	int err;

	if (pk_events_parse("task-clock/period=1000000/u", NULL, &ev) < 0)
		return -1;
	pk_events_attr_mut(ev, 0)->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	err = pk_evlist_new(ev, &self, &list);
	pk_events_free(ev);
	if (err < 0 || pk_evlist_open(list) < 0 ||
	    pk_rings_map(list, 8, &rings) < 0 ||	/* 8 pages: far more than a call's samples */
	    pk_rings_reserve(rings) < 0 ||		/* before the handler can read */
	    pk_overflow_new(list, on_overflow, NULL, &ovf) < 0 ||
	    pk_overflow_arm(ovf, 0, SIGRTMIN, 0) < 0)	/* F_SETOWN_EX, F_SETSIG, O_ASYNC */
		return -1;
	return 0;
}

/* The function an ip is in, by dladdr (outside the handler: not
 * async-signal-safe). */
static const char *name_of(uint64_t ip)
{
	Dl_info info;

	if (!dladdr((void *)(uintptr_t)ip, &info) || !info.dli_sname)
		return "[unknown]";
	return info.dli_sname;
}

/* How many samples each overflow delivered, and the hottest function:
 * the tallied ips summed per function. */
static void report(void)
{
	struct fn_count { const char *name; unsigned long n; } fn[MAX_IPS];
	size_t nr = 0, best = 0;

	printf("samples per overflow:");
	for (unsigned long i = 0; i < nr_calls && i < MAX_CALLS; i++)
		printf(" %u", per_call[i]);
	printf("\nsamples: %lu read in %lu overflows, %lu not from this thread\n",
	       nr_samples, nr_calls, nr_foreign);
	for (size_t i = 0; i < MAX_IPS && ips[i].n; i++) {
		const char *name = name_of(ips[i].ip);
		size_t j = 0;

		while (j < nr && strcmp(fn[j].name, name))
			j++;
		if (j == nr)
			fn[nr++] = (struct fn_count){ name, 0 };
		fn[j].n += ips[i].n;
		if (fn[j].n > fn[best].n)
			best = j;
	}
	if (nr)
		printf("hottest: %s (%lu of %lu samples)\n", fn[best].name, fn[best].n, nr_samples);
}

int main(void)
{
	struct sigaction sa;

	my_pid = (uint32_t)getpid();
	my_tid = (uint32_t)gettid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGRTMIN, &sa, NULL);		/* installed before anything can signal */
	if (setup() < 0) {
		fprintf(stderr, "%s\n", pk_last_error()->why);
		return pk_overflow_free(ovf), pk_rings_free(rings), pk_evlist_free(list), 1;
	}

	/* 1. A signal at every period while the event is enabled. */
	pk_evlist_enable(list);
	spin_until(&nr_in, 10);
	pk_evlist_disable(list);
	printf("enabled: %d POLL_IN, %d POLL_HUP\n", (int)nr_in, (int)nr_hup);

	/* 2. REFRESH 3: enabled for three overflows, the third is POLL_HUP. */
	nr_in = nr_hup = 0;
	pk_evlist_refresh(list, 0, 3);
	spin_until(&nr_hup, 1);
	printf("refresh 3: %d POLL_IN, %d POLL_HUP\n", (int)nr_in, (int)nr_hup);

	report();
	pk_overflow_free(ovf);		/* before the evlist it reads the fds of */
	pk_rings_free(rings);		/* rings before their evlist */
	pk_evlist_free(list);
	return 0;
}
