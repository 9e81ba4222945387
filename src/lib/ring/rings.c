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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct pk_rings {
	struct pk_ring *ring;
	void **map;
	size_t nr, map_len;
};

void pk_rings_free(struct pk_rings *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->nr; i++) {
		if (rs->map[i])
			pk__sys_munmap(rs->map[i], rs->map_len);
		pk__ring_fini(&rs->ring[i]);
	}
	free(rs->ring);
	free(rs->map);
	free(rs);
}

size_t pk_rings_count(const struct pk_rings *rs)
{
	return rs ? rs->nr : 0;
}

struct pk_ring *pk_rings_get(struct pk_rings *rs, size_t idx)
{
	return rs && idx < rs->nr ? &rs->ring[idx] : NULL;
}

/* Map the ring of one CPU x thread on its first open event; send the rest there. */
static int map_one(struct pk_rings *rs, size_t k, struct pk_evlist *l, size_t c, size_t t,
		   size_t data_len)
{
	size_t nr = pk__evlist_nr_events(l);
	long page = sysconf(_SC_PAGESIZE);
	int out = -1, err = 0;

	for (size_t i = 0; i < nr; i++) {
		int fd = pk__evlist_fd(l, i, c, t);

		if (fd < 0)
			continue;	/* not supported here: nothing to route */
		if (out < 0) {
			rs->map[k] = pk__sys_mmap(fd, rs->map_len, PROT_READ | PROT_WRITE, &err);
			if (!rs->map[k])
				return err;
			pk__ring_init(&rs->ring[k], rs->map[k], (char *)rs->map[k] + page, data_len);
			out = fd;
		} else if ((err = pk__sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)out)) < 0) {
			return err;
		}
	}
	return 0;
}

int pk_rings_map(struct pk_evlist *l, size_t pages, struct pk_rings **out)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);
	long page = sysconf(_SC_PAGESIZE);
	struct pk_rings *rs;
	int err = 0;

	pk__error_clear();
	if (!pages || (pages & (pages - 1)) || pages > (1u << 20))
		return pk__error(-EINVAL, "map ring buffers", "%zu data pages: the kernel wants a power "
				 "of two (1, 2, 4, ... 1048576)", pages);
	rs = calloc(1, sizeof(*rs));
	if (!rs || !(rs->ring = calloc(nc * nt, sizeof(*rs->ring))) ||
	    !(rs->map = calloc(nc * nt, sizeof(*rs->map)))) {
		pk_rings_free(rs);
		return -ENOMEM;
	}
	rs->nr = nc * nt;
	rs->map_len = (pages + 1) * (size_t)page;	/* the control page, then the data */
	for (size_t c = 0; c < nc && !err; c++)
		for (size_t t = 0; t < nt && !err; t++)
			err = map_one(rs, c * nt + t, l, c, t, pages * (size_t)page);
	if (err < 0) {
		pk_rings_free(rs);
		return err;
	}
	*out = rs;
	return 0;
}
