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
	r->fd = -1;
}

void pk__ring_init_backward(struct pk_ring *r, struct perf_event_mmap_page *page, void *data,
			    uint64_t size)
{
	pk__ring_init(r, page, data, size);
	r->backward = true;
}

bool pk_ring_is_overwrite(const struct pk_ring *r)
{
	return r->backward;
}

int pk_ring_pause(struct pk_ring *r, bool pause)
{
	pk__error_clear();
	if (r->fd < 0)
		return pk__error(-EBADF, "pause ring buffer", "%s", "the ring is not mapped on an event");
	return pk__sys_ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0);
}

/*
 * Copy a record that wraps the end of the buffer into the scratch area, and
 * one at an offset that is not 8-byte aligned (only a corrupt buffer has
 * one): callers read its fields as u64s.  realloc's memory is aligned.
 */
static const struct perf_event_header *contiguous(struct pk_ring *r, uint64_t off, uint16_t size)
{
	size_t first = (size_t)(r->size - off);

	if (off + size <= r->size && !(off & 7))
		return (const struct perf_event_header *)(r->data + off);
	if (r->scratch_len < size) {
		unsigned char *n = pk__realloc(r->scratch, size);

		if (!n)
			return NULL;
		r->scratch = n;
		r->scratch_len = size;
	}
	if (first > size)
		first = size;
	memcpy(r->scratch, r->data + off, first);
	memcpy(r->scratch + first, r->data, size - first);
	return (const struct perf_event_header *)r->scratch;
}

/*
 * The size field of the header at `off`.  The kernel keeps records 8-byte
 * aligned, so a header never wraps the end of a power-of-two buffer; but a
 * head or tail at an odd offset, or a corrupt size that leads to one, must
 * not make us read past the end: take the header's bytes across the wrap.
 */
static uint16_t header_size(const struct pk_ring *r, uint64_t off)
{
	struct perf_event_header h;
	unsigned char *b = (unsigned char *)&h;

	if (off + sizeof(h) <= r->size) {
		memcpy(&h, r->data + off, sizeof(h));	/* off may be unaligned */
		return h.size;
	}
	for (size_t i = 0; i < sizeof(h); i++)
		b[i] = r->data[(off + i) & (r->size - 1)];
	return h.size;
}

/*
 * An overwrite ring: the kernel writes each record just below the previous
 * one and moves data_head down to it, so the newest record is at data_head
 * and older ones follow upward until a buffer's worth has been read, an
 * unwritten (zero) header shows up, or a record was partly overwritten.
 * Those ends are normal, not errors.
 */
static int next_backward(struct pk_ring *r, const struct perf_event_header **rec)
{
	const struct perf_event_header *h;
	uint64_t off;
	uint16_t size;

	if (!r->reading) {
		r->pos = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
		r->end = r->pos + r->size;
		/* Stop where the previous snapshot began: what lies above it was
		 * handed out then (unless the kernel has lapped it since). */
		if (r->have_last && r->last_head - r->pos < r->size)
			r->end = r->last_head;
		r->last_head = r->pos;
		r->have_last = true;
		r->reading = true;
	}
	if (r->end - r->pos < sizeof(*h))
		return 0;
	off = r->pos & (r->size - 1);
	size = header_size(r, off);
	if (size < sizeof(*h) || size > r->end - r->pos) {
		r->pos = r->end;
		return 0;
	}
	if (!(h = contiguous(r, off, size)))
		return pk__error_nomem("a copy of a record that wraps the ring's end");
	r->pos += h->size;
	*rec = h;
	return 1;
}

int pk__ring_reserve(struct pk_ring *r, size_t len)
{
	unsigned char *n;

	if (!r->page || r->scratch_len >= len)
		return 0;
	if (!(n = pk__realloc(r->scratch, len)))
		return pk__error_nomem("a %zu-byte copy area for records that wrap the ring's end", len);
	r->scratch = n;
	r->scratch_len = len;
	return 0;
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

uint64_t pk__ring_pending(struct pk_ring *r)
{
	if (!r->page || r->backward)
		return 0;
	/* Acquire, as in pk_ring_next: the head read here may be read from. */
	r->head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	return r->head - r->pos;
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
	uint16_t size;

	if (!r->page)
		return 0;	/* no event of this CPU x thread opened: never any data */
	if (r->backward)
		return next_backward(r, rec);
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
	size = header_size(r, off);
	if (size < sizeof(*h))
		return corrupt(r, size, "is smaller than a record header");
	if (size > avail)
		return corrupt(r, size, "is longer than what the kernel published");
	if (!(h = contiguous(r, off, size)))
		return pk__error_nomem("a copy of a record that wraps the ring's end");
	r->pos += h->size;
	*rec = h;
	return 1;
}

void pk_ring_consume(struct pk_ring *r)
{
	if (!r->page)
		return;
	if (r->backward) {
		/* Read-only mapping: the next read takes a new snapshot. */
		r->reading = false;
		return;
	}
	/* Release: our reads of the records happen before the kernel may reuse them. */
	__atomic_store_n(&r->page->data_tail, r->pos, __ATOMIC_RELEASE);
}

int pk_ring_aux_next(struct pk_ring *r, const void **data, size_t *len)
{
	uint64_t off, n;

	if (!r->aux)
		return 0;
	if (r->aux_pos == r->aux_head) {
		/* Acquire, as for data_head: the PMU's writes precede the head. */
		r->aux_head = __atomic_load_n(&r->page->aux_head, __ATOMIC_ACQUIRE);
		if (r->aux_pos == r->aux_head)
			return 0;
	}
	off = r->aux_pos & (r->aux_size - 1);
	n = r->aux_head - r->aux_pos;
	if (n > r->aux_size)
		n = r->aux_size;	/* the PMU lapped us: hand out what the area holds */
	if (off + n > r->aux_size)
		n = r->aux_size - off;	/* up to the end; the rest on the next call */
	*data = r->aux + off;
	*len = (size_t)n;
	r->aux_pos += n;
	return 1;
}

void pk_ring_aux_consume(struct pk_ring *r)
{
	if (r->aux)
		__atomic_store_n(&r->page->aux_tail, r->aux_pos, __ATOMIC_RELEASE);
}
