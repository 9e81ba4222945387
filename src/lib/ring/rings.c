/* SPDX-License-Identifier: MIT */
/*
 * rings.c - the ring buffers of an evlist: one mmap per CPU x thread, the
 * other events of that CPU x thread redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT, as perf record lays them out.
 */
#include "ring.h"
#include "counter/counter.h"
#include "sys/sys.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct pk_rings {
	struct pk_ring *ring;
	void **map;
	bool *hup;		/* POLLHUP seen on ring i */
	size_t nr, map_len;
	size_t nr_cpus, nr_threads;	/* the evlist's, for pk_rings_at */
};

void pk_rings_free(struct pk_rings *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->nr; i++) {
		if (rs->ring[i].aux)
			pk__sys_munmap(rs->ring[i].aux, rs->ring[i].aux_size);
		if (rs->map[i])
			pk__sys_munmap(rs->map[i], rs->map_len);
		pk__ring_fini(&rs->ring[i]);
	}
	free(rs->ring);
	free(rs->map);
	free(rs->hup);
	free(rs);
}

size_t pk_rings_nr(const struct pk_rings *rs)
{
	return rs ? rs->nr : 0;
}

struct pk_ring *pk_rings_get(struct pk_rings *rs, size_t idx)
{
	return rs && idx < rs->nr ? &rs->ring[idx] : NULL;
}

/*
 * Map the rings of one CPU x thread: one for its normal events and one for
 * its overwrite (write_backward) events, each on the first such event, with
 * the others of the same direction sent there.  The kernel refuses to mix
 * directions in one ring, which is why perf keeps sideband in its own.
 * `k` is the slot; forward rings are 0..nslots-1, backward nslots.. after.
 */
static int map_one(struct pk_rings *rs, size_t k, size_t nslots, struct pk_evlist *l, size_t c,
		   size_t t, size_t data_len)
{
	size_t nr = pk__evlist_nr_events(l);
	long page = (long)pk__sys_page_size();
	int out[2] = { -1, -1 }, err = 0;

	for (size_t i = 0; i < nr; i++) {
		int fd = pk__evlist_fd(l, i, c, t);
		bool backward;
		size_t r;

		if (fd < 0)
			continue;	/* not supported here: nothing to route */
		backward = pk_evlist_attr(l, i)->write_backward;
		r = backward ? nslots + k : k;
		if (out[backward] >= 0) {
			if ((err = pk__sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out[backward])) < 0)
				return err;
			continue;
		}
		/* An overwrite ring is mapped read-only: that is how the kernel
		 * knows not to wait for data_tail. */
		rs->map[r] = pk__sys_mmap(fd, rs->map_len, PROT_READ | (backward ? 0 : PROT_WRITE), 0, &err);
		if (!rs->map[r])
			return err;
		if (backward)
			pk__ring_init_backward(&rs->ring[r], rs->map[r], (char *)rs->map[r] + page, data_len);
		else
			pk__ring_init(&rs->ring[r], rs->map[r], (char *)rs->map[r] + page, data_len);
		rs->ring[r].fd = fd;
		out[backward] = fd;
	}
	return 0;
}

/* How many rings map_one will map: one per direction in use per CPU x thread. */
static size_t nr_maps(struct pk_evlist *l)
{
	size_t maps = 0;

	for (size_t c = 0; c < pk_evlist_nr_cpus(l); c++)
		for (size_t t = 0; t < pk_evlist_nr_threads(l); t++) {
			bool dir[2] = { false, false };

			for (size_t i = 0; i < pk__evlist_nr_events(l); i++)
				if (pk__evlist_fd(l, i, c, t) >= 0)
					dir[pk_evlist_attr(l, i)->write_backward] = true;
			maps += dir[0] + dir[1];
		}
	return maps;
}

int pk_rings_map(struct pk_evlist *l, size_t pages, struct pk_rings **out)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);
	long page = (long)pk__sys_page_size();
	struct pk_rings *rs;
	bool backward = false;
	size_t nr;
	int err = 0;

	pk__error_clear();
	if (!pages || (pages & (pages - 1)) || pages > (1u << 20))
		return pk__error(-EINVAL, "map ring buffers", "%zu data pages: the kernel wants a power "
				 "of two (1, 2, 4, ... 1048576)", pages);
	rs = pk__calloc(1, sizeof(*rs));
	/* Backward rings only when some event writes backward. */
	for (size_t i = 0; i < pk__evlist_nr_events(l); i++)
		backward |= pk_evlist_attr(l, i)->write_backward;
	nr = nc * nt * (backward ? 2 : 1);
	if (!rs || !(rs->ring = pk__calloc(nr, sizeof(*rs->ring))) ||
	    !(rs->map = pk__calloc(nr, sizeof(*rs->map))) || !(rs->hup = pk__calloc(nr, sizeof(*rs->hup)))) {
		pk_rings_free(rs);
		return pk__error_nomem("the ring table of %zu rings", nr);
	}
	rs->nr = nr;
	rs->nr_cpus = nc;
	rs->nr_threads = nt;
	for (size_t k = 0; k < rs->nr; k++)
		rs->ring[k].fd = -1;
	rs->map_len = (pages + 1) * (size_t)page;	/* the control page, then the data */
	/* Say up front when the rings cannot all be locked, and what would fit. */
	if ((err = pk__sys_lock_check(nr_maps(l), rs->map_len)) < 0) {
		pk_rings_free(rs);
		return err;
	}
	for (size_t c = 0; c < nc && !err; c++)
		for (size_t t = 0; t < nt && !err; t++)
			err = map_one(rs, c * nt + t, nc * nt, l, c, t, pages * (size_t)page);
	if (err < 0) {
		pk_rings_free(rs);
		return err;
	}
	*out = rs;
	return 0;
}

struct pk_ring *pk_rings_at(struct pk_rings *rs, size_t cpu_idx, size_t thread_idx)
{
	if (!rs || cpu_idx >= rs->nr_cpus || thread_idx >= rs->nr_threads)
		return NULL;
	return &rs->ring[cpu_idx * rs->nr_threads + thread_idx];
}

int pk_rings_reserve(struct pk_rings *rs)
{
	pk__error_clear();
	for (size_t k = 0; k < rs->nr; k++) {
		/* A record's size is a u16 and it fits in its buffer: no wrapped
		 * copy is ever longer than the smaller of the two. */
		int err = pk__ring_reserve(&rs->ring[k], rs->ring[k].size < 65536 ?
					   (size_t)rs->ring[k].size : 65536);

		if (err < 0)
			return err;
	}
	return 0;
}

int pk_rings_poll(struct pk_rings *rs, int timeout_ms)
{
	struct pollfd *p;
	int n, ready = 0;

	pk__error_clear();
	p = pk__calloc(rs->nr ? rs->nr : 1, sizeof(*p));
	if (!p)
		return pk__error_nomem("the poll set of %zu rings", rs->nr);
	/* -1 is ignored; an overwrite ring is read only when asked (a
	 * snapshot), so its wakeups are no news: only its hangup is, as in
	 * perf's poll set. */
	for (size_t k = 0; k < rs->nr; k++)
		p[k] = (struct pollfd){ .fd = rs->ring[k].fd,
					.events = pk_ring_is_overwrite(&rs->ring[k]) ? 0 : POLLIN };
	/* -EINTR comes back unrecorded: the caller's stop signal, most likely. */
	n = pk__sys_poll(p, rs->nr, timeout_ms, "ring buffers");
	if (n < 0) {
		free(p);
		return n;
	}
	for (size_t k = 0; k < rs->nr; k++) {
		if (p[k].revents & POLLIN)
			ready++;
		if (p[k].revents & (POLLHUP | POLLERR))
			rs->hup[k] = true;
	}
	free(p);
	return ready;
}

bool pk_rings_hangup(const struct pk_rings *rs)
{
	bool any = false;

	for (size_t k = 0; k < rs->nr; k++) {
		if (rs->ring[k].fd < 0)
			continue;
		if (!rs->hup[k])
			return false;
		any = true;
	}
	return any;
}

int pk_rings_map_aux(struct pk_rings *rs, size_t idx, size_t pages)
{
	long page = (long)pk__sys_page_size();
	struct pk_ring *r;
	void *p;
	int err = 0;

	pk__error_clear();
	if (idx >= rs->nr || !rs->ring[idx].page || rs->ring[idx].aux)
		return pk__error(-EINVAL, "map AUX area", "ring %zu %s", idx, idx >= rs->nr ?
				 "does not exist" : rs->ring[idx].aux ? "already has an AUX area" :
				 "has no open event");
	if (!pages || (pages & (pages - 1)))
		return pk__error(-EINVAL, "map AUX area", "%zu pages: the kernel wants a power of two",
				 pages);
	r = &rs->ring[idx];
	/* The kernel reads where to map the area from the control page. */
	r->page->aux_offset = rs->map_len;
	r->page->aux_size = pages * (uint64_t)page;
	p = pk__sys_mmap(r->fd, (size_t)r->page->aux_size, PROT_READ | PROT_WRITE,
			 (off_t)r->page->aux_offset, &err);
	if (!p) {
		if (err == -EINVAL || err == -EOPNOTSUPP) {
			char what[64];

			snprintf(what, sizeof(what), "map the AUX area of ring %zu", idx);
			pk__error(err, what, "the events of this ring are on a PMU without an AUX area "
				  "(the kernel says %s)", strerror(-err));
			pk__error_hint("%s", "only PMUs that trace into memory have one (intel_pt, "
				       "intel_bts, arm_spe, cs_etm); open such an event for this ring");
		}
		r->page->aux_offset = r->page->aux_size = 0;
		return err;
	}
	r->aux = p;
	r->aux_size = r->page->aux_size;
	r->aux_head = r->aux_pos = __atomic_load_n(&r->page->aux_tail, __ATOMIC_RELAXED);
	return 0;
}
