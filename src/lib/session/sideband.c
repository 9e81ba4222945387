/* SPDX-License-Identifier: MIT */
/*
 * sideband.c - the recorder's BPF side band, as perf record's side-band
 * thread: a dummy event on every online CPU that reports only BPF program
 * loads (bpf_event) and wakes its reader at each one (wakeup_events = 1),
 * read by a thread of its own that fetches a loaded program's info and
 * BTF right away, while the program is most likely still there.  Without
 * it a program loaded and unloaded between two drains of the rings (up to
 * perf's 100 ms) is gone when its PROG_LOAD reaches the writer.  What the
 * thread reads is kept here and put into each file's BPF_PROG_INFO and
 * BPF_BTF when the file ends.  Where the kernel will not open the event
 * (no right to watch every CPU), the recording goes on without it.
 */
#include "session/session.h"
#include "data/data.h"
#include "sys/sys.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

/* Data pages of each CPU's ring: a burst of a hundred loads fits. */
#define SB_PAGES 4

struct pk__sideband {
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	int *cpus;
	size_t nr_cpus;
	int stop_fd;			/* an eventfd: written to end the thread */
	pthread_t thread;
	bool running;
	pthread_mutex_t ring_lock;	/* one reader of the rings at a time */
	pthread_mutex_t lock;		/* guards bpf, err, what and why */
	struct pk__data_bpf *bpf;	/* the programs read so far */
	const struct pk__sys_ops *ops;	/* the starter's sys seam, the thread's too */
	int err;			/* the first failure of the thread, or 0 */
	char what[96], why[160];	/* its error record, for the caller's thread */
};

/* Keep the first failure, with the error record the thread made for it
 * (records are per thread), for pk__sideband_sync and _put to report. */
static void sb_fail(struct pk__sideband *sb, int err)
{
	const struct pk_error *e = pk_last_error();

	pthread_mutex_lock(&sb->lock);
	if (!sb->err) {
		sb->err = err;
		snprintf(sb->what, sizeof(sb->what), "%s", e->code == err ? e->what : "the BPF side band");
		snprintf(sb->why, sizeof(sb->why), "%s", e->code == err ? e->why : strerror(-err));
	}
	pthread_mutex_unlock(&sb->lock);
}

/* The thread's failure as the caller's error record, or 0.  Under lock. */
static int sb_err(const struct pk__sideband *sb)
{
	if (!sb->err)
		return 0;
	return pk__error(sb->err, sb->what, "%s (the BPF side-band thread)", sb->why);
}

/* Every record the rings hold: each PROG_LOAD's program read now.  Under
 * ring_lock: the thread and pk__sideband_sync both read. */
static void sb_drain(struct pk__sideband *sb)
{
	pthread_mutex_lock(&sb->ring_lock);
	for (size_t k = 0; k < pk_rings_nr(sb->rs); k++) {
		struct pk_ring *ring = pk_rings_get(sb->rs, k);
		const struct perf_event_header *h;

		while (pk_ring_next(ring, &h) == 1) {
			if (h->type == PERF_RECORD_BPF_EVENT) {
				int err;

				pthread_mutex_lock(&sb->lock);
				err = pk__data_bpf_note(sb->bpf, h, h->size);
				pthread_mutex_unlock(&sb->lock);
				if (err < 0) {
					pk__error_nomem("a loaded BPF program's info for perf.data");
					sb_fail(sb, -ENOMEM);
				}
			}
			pk_ring_consume(ring);
		}
		pk_ring_consume(ring);
	}
	pthread_mutex_unlock(&sb->ring_lock);
}

/* The thread: wait for a load or the stop, read, until stopped.  A wait
 * that fails (not a signal) ends it: reported by _sync and _put, while the
 * writer still reads each program as its PROG_LOAD passes. */
static void *sb_main(void *arg)
{
	struct pk__sideband *sb = arg;
	size_t n = sb->nr_cpus;
	struct pollfd *p;
	int ret;

	pk__sys_set_ops(sb->ops);
	if (!(p = pk__calloc(n + 1, sizeof(*p)))) {
		pk__error_nomem("the BPF side band's poll set of %zu fds", n + 1);
		sb_fail(sb, -ENOMEM);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = pk_evlist_fd(sb->l, 0, i, 0), .events = POLLIN };
	p[n] = (struct pollfd){ .fd = sb->stop_fd, .events = POLLIN };
	for (;;) {
		ret = pk__sys_poll(p, n + 1, -1, "the BPF side band's events");
		if (ret == -EINTR)
			continue;	/* revents are stale: wait again */
		if (ret < 0) {
			sb_fail(sb, ret);
			break;
		}
		sb_drain(sb);
		if (p[n].revents)
			break;
		/* A CPU gone offline hangs up its event: stop watching it. */
		for (size_t i = 0; i < n; i++)
			if (p[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				p[i].fd = -1;
	}
	free(p);
	return NULL;
}

/* The dummy event on every online CPU with its rings; -ENOMEM, or another
 * negative errno for "not here". */
static int sb_open(struct pk__sideband *sb)
{
	struct perf_event_attr *a;
	struct pk_target t = { .size = sizeof(t) };
	int err = pk_events_parse("dummy", NULL, &sb->ev);

	if (err < 0 || (err = pk_cpus_online(&sb->cpus, &sb->nr_cpus)) < 0)
		return err;
	if (!(a = pk_events_attr_mut(sb->ev, 0)))
		return -EINVAL;
	a->bpf_event = 1;
	a->watermark = 0;
	a->wakeup_events = 1;
	a->sample_type = 0;
	a->sample_id_all = 0;
	a->disabled = 0;
	a->exclude_guest = 0;	/* perf's side-band attr is built by hand, without it */
	t.cpus = sb->cpus;
	t.nr_cpus = sb->nr_cpus;
	if ((err = pk_evlist_new(sb->ev, &t, &sb->l)) < 0 || (err = pk_evlist_open(sb->l)) < 0)
		return err;
	if ((err = pk_rings_map(sb->l, SB_PAGES, &sb->rs)) < 0)
		return err;
	if ((err = pk_evlist_enable(sb->l)) < 0)
		return err;
	return pk__data_bpf_new(&sb->bpf);
}

void pk__sideband_free(struct pk__sideband *sb)
{
	if (!sb)
		return;
	pk__sideband_stop(sb);
	pk__data_bpf_free(sb->bpf);
	pk_rings_free(sb->rs);
	pk_evlist_free(sb->l);
	pk_events_free(sb->ev);
	free(sb->cpus);
	if (sb->stop_fd >= 0)
		pk__sys_close(sb->stop_fd);
	pthread_mutex_destroy(&sb->lock);
	pthread_mutex_destroy(&sb->ring_lock);
	free(sb);
}

int pk__sideband_start(struct pk__sideband **out)
{
	struct pk__sideband *sb = pk__calloc(1, sizeof(*sb));
	int err;

	*out = NULL;
	if (!sb)
		return pk__error_nomem("the BPF side band");
	sb->ops = pk__sys_get_ops();
	pthread_mutex_init(&sb->lock, NULL);
	pthread_mutex_init(&sb->ring_lock, NULL);
	/* First, as it costs nothing to undo: without it the thread could
	 * never be stopped, and a machine out of fds is no "not here". */
	if ((sb->stop_fd = pk__sys_eventfd(0, EFD_CLOEXEC, "the BPF side band's stop")) < 0) {
		err = sb->stop_fd;
		pk__sideband_free(sb);
		return err;
	}
	err = sb_open(sb);
	if (!err && !(err = -pthread_create(&sb->thread, NULL, sb_main, sb)))
		sb->running = true;
	if (err < 0) {
		pk__sideband_free(sb);
		if (err == -ENOMEM)
			return pk_last_error()->code == -ENOMEM ? err : pk__error_nomem("the BPF side band");
		pk__error_clear();
		return 0;	/* not here: the writer reads each program as it passes */
	}
	*out = sb;
	return 0;
}

void pk__sideband_stop(struct pk__sideband *sb)
{
	if (!sb || !sb->running)
		return;
	/* An eventfd's write fails only when its count would overflow. */
	if (pk__sys_eventfd_signal(sb->stop_fd) < 0)
		return;
	pthread_join(sb->thread, NULL);
	sb->running = false;
}

int pk__sideband_put(struct pk__sideband *sb, struct pk_data_writer *w)
{
	int err;

	if (!sb)
		return 0;
	pthread_mutex_lock(&sb->lock);
	err = sb->err ? sb_err(sb) : pk__data_writer_add_bpf(w, sb->bpf);
	pthread_mutex_unlock(&sb->lock);
	return err;
}

int pk__sideband_sync(struct pk__sideband *sb)
{
	int err;

	if (!sb)
		return 0;
	pk__error_clear();
	sb_drain(sb);
	pthread_mutex_lock(&sb->lock);
	err = sb_err(sb);
	pthread_mutex_unlock(&sb->lock);
	return err;
}
