/* SPDX-License-Identifier: MIT */
/*
 * overflow.c - overflow by signal: a task-clock event with a period of 1 ms
 * of CPU signals this thread at each overflow (SIGRTMIN, queued, with the
 * event's fd in si_fd and POLL_IN in si_code); then PERF_EVENT_IOC_REFRESH
 * lets it overflow three more times, the last one saying POLL_HUP as the
 * kernel disables the event.  The handler only counts: what a signal
 * handler may do is little (see signal-safety(7)).
 */
#include <perfkit.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static struct pk_overflow *ovf;
static volatile sig_atomic_t nr_in, nr_hup;
static volatile unsigned long sink;

/* Called by pk_overflow_handle, inside the signal handler. */
static void on_overflow(const struct pk_overflow_event *ev, void *arg)
{
	(void)arg;
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

/* Burn CPU until *flag reaches want (the event's overflows end the wait). */
static void spin_until(volatile sig_atomic_t *flag, int want)
{
	while (*flag < want)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
}

int main(void)
{
	struct pk_target self = { .size = sizeof(self) };
	struct sigaction sa;
	struct pk_events *ev;
	struct pk_evlist *l = NULL;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGRTMIN, &sa, NULL);		/* installed before anything can signal */

	if (pk_events_parse("task-clock/period=1000000/u", NULL, &ev) < 0 ||
	    pk_evlist_new(ev, &self, &l) < 0 || pk_evlist_open(l) < 0 ||
	    pk_overflow_new(l, on_overflow, NULL, &ovf) < 0 ||
	    pk_overflow_arm(ovf, 0, SIGRTMIN, 0) < 0) {	/* F_SETOWN_EX, F_SETSIG, O_ASYNC */
		fprintf(stderr, "%s\n", pk_last_error()->why);
		return 1;
	}
	pk_events_free(ev);

	/* 1. A signal at every period while the event is enabled. */
	pk_evlist_enable(l);
	spin_until(&nr_in, 10);
	pk_evlist_disable(l);
	printf("enabled: %d POLL_IN, %d POLL_HUP\n", (int)nr_in, (int)nr_hup);

	/* 2. REFRESH 3: enabled for three overflows, the third is POLL_HUP. */
	nr_in = nr_hup = 0;
	pk_evlist_refresh(l, 0, 3);
	spin_until(&nr_hup, 1);
	printf("refresh 3: %d POLL_IN, %d POLL_HUP\n", (int)nr_in, (int)nr_hup);

	pk_overflow_free(ovf);		/* before the evlist it reads the fds of */
	pk_evlist_free(l);
	return 0;
}
