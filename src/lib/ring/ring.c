/* SPDX-License-Identifier: MIT */
/*
 * ring.c - reading a perf_event ring buffer: records in order, a record that
 * wraps the end of the buffer copied out whole, nothing longer than the
 * kernel published, and the memory ordering the kernel's protocol needs
 * (acquire on data_head, release on data_tail).
 */
#include "ring.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pk__ring_init(struct pk_ring *r, struct perf_event_mmap_page *page, void *data, uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->page = page;
	r->data = data;
	r->size = size;
	r->pos = r->head = __atomic_load_n(&page->data_tail, __ATOMIC_RELAXED);
}

void pk__ring_fini(struct pk_ring *r)
{
	free(r->scratch);
	r->scratch = NULL;
	r->scratch_len = 0;
}

size_t pk_ring_size(const struct pk_ring *r)
{
	return (size_t)r->size;
}

static int corrupt(const struct pk_ring *r, uint64_t size, const char *why)
{
	return pk__error(-EINVAL, "read ring buffer", "the record at offset %llu (head %llu) %s "
			 "(header size %llu)", (unsigned long long)(r->pos % r->size),
			 (unsigned long long)(r->head % r->size), why, (unsigned long long)size);
}

int pk_ring_next(struct pk_ring *r, const struct perf_event_header **rec)
{
	const struct perf_event_header *h;
	uint64_t off, avail;

	if (!r->page)
		return 0;	/* no event of this CPU x thread opened: never any data */
	if (r->pos == r->head) {
		/*
		 * Acquire: the kernel writes a record, then publishes data_head
		 * (with a full barrier); our reads of the record must not be
		 * satisfied before this load.
		 */
		r->head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
		if (r->pos == r->head)
			return 0;
	}
	avail = r->head - r->pos;
	if (avail < sizeof(*h) || avail > r->size)
		return corrupt(r, avail, avail > r->size ? "is behind a head that ran past the buffer" :
			       "is cut: less than a header was published");
	off = r->pos & (r->size - 1);
	/* Records are 8-byte aligned in a power-of-two buffer: a header never wraps. */
	h = (const struct perf_event_header *)(r->data + off);
	if (h->size < sizeof(*h))
		return corrupt(r, h->size, "is smaller than a record header");
	if (h->size > avail)
		return corrupt(r, h->size, "is longer than what the kernel published");
	if (off + h->size > r->size) {
		size_t first = (size_t)(r->size - off);

		if (r->scratch_len < h->size) {
			unsigned char *n = realloc(r->scratch, h->size);

			if (!n)
				return -ENOMEM;
			r->scratch = n;
			r->scratch_len = h->size;
		}
		memcpy(r->scratch, r->data + off, first);
		memcpy(r->scratch + first, r->data, h->size - first);
		h = (const struct perf_event_header *)r->scratch;
	}
	r->pos += h->size;
	*rec = h;
	return 1;
}

void pk_ring_consume(struct pk_ring *r)
{
	if (!r->page)
		return;
	/* Release: our reads of the records happen before the kernel may reuse them. */
	__atomic_store_n(&r->page->data_tail, r->pos, __ATOMIC_RELEASE);
}
