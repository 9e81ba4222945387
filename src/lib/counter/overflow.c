/* SPDX-License-Identifier: MIT */
/*
 * overflow.c - overflow signals: arming an event's fds to signal a thread
 * (F_SETOWN_EX, F_SETSIG, O_ASYNC, all through the sys seam) and turning a
 * siginfo back into the event that overflowed, from a table of fds made
 * before any signal can arrive, so that the lookup in the handler is a
 * plain scan that allocates nothing.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct slot {
	int fd;
	bool armed;
	size_t event, cpu_idx, thread_idx;
};

struct pk_overflow {
	void (*fn)(const struct pk_overflow_event *ev, void *arg);
	void *arg;
	struct slot *slot;
	size_t nr;
};

int pk_overflow_new(struct pk_evlist *l, void (*fn)(const struct pk_overflow_event *ev, void *arg),
		    void *arg, struct pk_overflow **out)
{
	size_t nr_ev = pk__evlist_nr_events(l), nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);
	struct pk_overflow *o;

	pk__error_clear();
	if (!fn || !out)
		return pk__error(-EINVAL, "pk_overflow_new", "%s", !fn ? "no function to call" : "out is NULL");
	if (!(o = pk__calloc(1, sizeof(*o))) || !(o->slot = pk__calloc(nr_ev * nc * nt, sizeof(*o->slot)))) {
		free(o);
		return pk__error_nomem("the overflow table of %zu fds", nr_ev * nc * nt);
	}
	o->fn = fn;
	o->arg = arg;
	for (size_t i = 0; i < nr_ev; i++)
		for (size_t c = 0; c < nc; c++)
			for (size_t t = 0; t < nt; t++) {
				int fd = pk__evlist_fd(l, i, c, t);

				if (fd >= 0)
					o->slot[o->nr++] = (struct slot){ .fd = fd, .event = i,
									  .cpu_idx = c, .thread_idx = t };
			}
	if (!o->nr) {
		pk_overflow_free(o);
		return pk__error(-EINVAL, "pk_overflow_new", "%s", "the evlist has no open fd: "
				 "call pk_evlist_open first");
	}
	*out = o;
	return 0;
}

/* One fd: signal `signo` to thread `tid`, with si_fd, asynchronously. */
static int arm_fd(int fd, int signo, pid_t tid)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = tid };
	int fl, err;

	if ((err = pk__sys_fcntl(fd, F_SETOWN_EX, (unsigned long)&owner)) < 0 ||
	    (err = pk__sys_fcntl(fd, F_SETSIG, (unsigned long)signo)) < 0 ||
	    (fl = err = pk__sys_fcntl(fd, F_GETFL, 0)) < 0 ||
	    (err = pk__sys_fcntl(fd, F_SETFL, (unsigned long)(fl | O_ASYNC))) < 0)
		return err;
	return 0;
}

int pk_overflow_arm(struct pk_overflow *o, size_t i, int signo, pid_t tid)
{
	bool found = false;

	pk__error_clear();
	if (signo <= 0 || signo >= NSIG || signo == SIGKILL || signo == SIGSTOP)
		return pk__error(-EINVAL, "pk_overflow_arm", "signal %d cannot be caught", signo);
	if (!tid)
		tid = pk__sys_gettid();
	for (size_t k = 0; k < o->nr; k++) {
		int err;

		if (o->slot[k].event != i)
			continue;
		found = true;
		if ((err = arm_fd(o->slot[k].fd, signo, tid)) < 0)
			return err;
		o->slot[k].armed = true;
	}
	if (!found)
		return pk__error(-ERANGE, "pk_overflow_arm", "event %zu has no open fd", i);
	return 0;
}

int pk_overflow_handle(const struct pk_overflow *o, const void *siginfo)
{
	const siginfo_t *si = siginfo;

	/* Only the kernel's SIGPOLL-style codes carry si_fd; a signal sent by
	 * kill or sigqueue has garbage there. */
	if (!o || !si || si->si_code < POLL_IN || si->si_code > POLL_HUP)
		return 0;
	for (size_t k = 0; k < o->nr; k++) {
		const struct slot *s = &o->slot[k];

		if (s->armed && s->fd == si->si_fd) {
			struct pk_overflow_event ev = { .size = sizeof(ev), .event = s->event,
							.cpu_idx = s->cpu_idx, .thread_idx = s->thread_idx,
							.fd = s->fd, .code = si->si_code };

			o->fn(&ev, o->arg);
			return 1;
		}
	}
	return 0;
}

void pk_overflow_free(struct pk_overflow *o)
{
	if (!o)
		return;
	for (size_t k = 0; k < o->nr; k++) {
		int fl;

		if (o->slot[k].armed && (fl = pk__sys_fcntl(o->slot[k].fd, F_GETFL, 0)) >= 0)
			pk__sys_fcntl(o->slot[k].fd, F_SETFL, (unsigned long)(fl & ~O_ASYNC));
	}
	free(o->slot);
	free(o);
}
