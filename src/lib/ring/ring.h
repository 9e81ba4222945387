/* SPDX-License-Identifier: MIT */
/*
 * ring.h - the ring layer's internal interface: a reader over one kernel
 * ring buffer, made over any memory so tests can build rings by hand.
 */
#ifndef PK_RING_H
#define PK_RING_H

#include "perfkit.h"

struct pk_ring {
	struct perf_event_mmap_page *page;	/* control page: data_head, data_tail */
	unsigned char *data;			/* size bytes */
	uint64_t size;				/* a power of two */
	uint64_t head;				/* the last data_head read */
	uint64_t pos;				/* where the next record starts */
	unsigned char *scratch;			/* a wrapped record, made contiguous */
	size_t scratch_len;
	int fd;					/* the event fd it is mapped on, or -1 */
	bool backward;				/* an overwrite ring (write_backward) */
	bool reading;				/* backward: a snapshot read is under way */
	uint64_t end;				/* backward: where the snapshot ends */
	uint64_t last_head;			/* backward: where the previous snapshot began */
	bool have_last;
	unsigned char *aux;			/* the AUX area, or NULL */
	uint64_t aux_size;			/* a power of two */
	uint64_t aux_head, aux_pos;		/* last aux_head read; next byte to hand out */
};

/*
 * pk__ring_init - a reader over `page` and a data area of `size` bytes
 * (a power of two), starting at the page's data_tail.
 */
void pk__ring_init(struct pk_ring *r, struct perf_event_mmap_page *page, void *data, uint64_t size);

/* pk__ring_init_backward - the same for an overwrite ring: read as
 * snapshots from data_head, newest record first. */
void pk__ring_init_backward(struct pk_ring *r, struct perf_event_mmap_page *page, void *data,
			    uint64_t size);

/* pk__ring_pending - the bytes the kernel has published and this reader
 * has not read yet (0 for a ring with no event, or an overwrite ring). */
uint64_t pk__ring_pending(struct pk_ring *r);

/* pk__ring_reserve - grow the copy area for wrapped records to `len`
 * bytes now, so that reading never allocates (see pk_rings_reserve).
 * 0 or -ENOMEM.  A ring with no event mapped is left alone. */
int pk__ring_reserve(struct pk_ring *r, size_t len);

/* pk__ring_fini - free the scratch area (the memory is the caller's). */
void pk__ring_fini(struct pk_ring *r);

#endif
