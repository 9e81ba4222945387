/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ring.c - libFuzzer target for the ring reader (src/lib/ring) over a
 * ring built by hand, as tests/unit/ring does: a control page and a data
 * area of exactly the ring's size on the heap (so ASan sees any read past
 * its end), filled from the input.  An input is a flags byte (bit 0: an
 * overwrite ring read backward; bits 1-3: the data area is 64 << n bytes),
 * the starting data_tail and up to three data_head moves (little-endian
 * u64s, the moves signed for an overwrite ring), then the bytes of the data
 * area, repeated to fill it.  Each head move is followed by a drain with
 * pk_ring_next and a pk_ring_consume; the reader must hand out only whole
 * records that fit in what was published, never more of them than the area
 * can hold, give data_tail back exactly past them, and fail only with
 * -EINVAL and an error record naming the bad state.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"
#include "ring/ring.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static uint64_t take_u64(const uint8_t **p, size_t *left)
{
	uint64_t v = 0;

	for (int i = 0; i < 8 && *left; i++, (*p)++, (*left)--)
		v |= (uint64_t)**p << (8 * i);
	return v;
}

/* Read every byte of a handed-out record, so ASan checks all of it. */
static unsigned int touch(const struct perf_event_header *h)
{
	const volatile unsigned char *b = (const volatile unsigned char *)h;
	unsigned int sum = 0;

	for (size_t i = 0; i < h->size; i++)
		sum += b[i];
	return sum;
}

/* Drain the ring; returns what pk_ring_next last returned. */
static int drain(struct pk_ring *r, uint64_t ring_size, uint64_t published, bool backward)
{
	const struct perf_event_header *h;
	uint64_t total = 0, nr = 0;
	int ret;

	while ((ret = pk_ring_next(r, &h)) == 1) {
		if (h->size < sizeof(*h))
			abort();	/* a record smaller than its header was handed out */
		total += h->size;
		if (++nr > ring_size / sizeof(*h) || total > ring_size)
			abort();	/* more records than the area can hold */
		if (!backward && total > published)
			abort();	/* past what the kernel published */
		(void)touch(h);
	}
	if (ret < 0) {
		const struct pk_error *e = pk_last_error();

		if (ret != -EINVAL || e->code != ret || !e->why || !*e->why)
			abort();
	} else if (ret != 0) {
		abort();
	}
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_mmap_page *page;
	const uint8_t *p = data;
	size_t left = size;
	uint64_t ring_size, tail, head;
	unsigned char *area;
	struct pk_ring r;
	bool backward;

	if (left < 1)
		return 0;
	backward = p[0] & 1;
	ring_size = (uint64_t)64 << ((p[0] >> 1) & 7);
	p++;
	left--;
	tail = take_u64(&p, &left);
	page = calloc(1, sizeof(*page));
	area = malloc(ring_size);
	if (!page || !area)
		abort();
	/* The data bytes follow the flags, the tail and three moves. */
	for (uint64_t i = 0; i < ring_size; i++)
		area[i] = size > 33 ? data[33 + i % (size - 33)] : 0;
	page->data_tail = page->data_head = tail;
	if (backward)
		pk__ring_init_backward(&r, page, area, ring_size);
	else
		pk__ring_init(&r, page, area, ring_size);
	if (pk_ring_is_overwrite(&r) != backward || pk_ring_size(&r) != ring_size)
		abort();
	head = tail;
	for (int round = 0; round < 3; round++) {
		uint64_t move = take_u64(&p, &left);
		uint64_t from = page->data_tail;

		head += move;
		page->data_head = head;
		if (drain(&r, ring_size, head - from, backward) < 0)
			break;
		pk_ring_consume(&r);
		/* Forward: data_tail goes exactly to the end of what was read,
		 * never past the head.  Backward: nothing is ever written back. */
		if (backward ? page->data_tail != tail : page->data_tail - from > head - from)
			abort();
	}
	pk__ring_fini(&r);
	free(area);
	free(page);
	return 0;
}
