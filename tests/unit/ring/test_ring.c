/* SPDX-License-Identifier: MIT */
/*
 * test_ring.c - the ring reader over rings built by hand, laid out as the
 * kernel writes them: records in order, one that wraps the end handed out
 * whole, data_tail published on consume, and every kind of bad buffer
 * refused with the offset named rather than read past.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "ring/ring.h"

#define SIZE 4096

struct fake {
	struct perf_event_mmap_page page;
	unsigned char data[SIZE];
	uint64_t head;
};

/* Write a record of `size` bytes at the head, wrapping like the kernel:
 * header, then payload bytes 0, 1, 2, ... */
static void put(struct fake *f, uint32_t type, uint16_t size)
{
	unsigned char rec[1024];
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	assert_true(size <= sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		rec[i] = (unsigned char)(i - sizeof(h));
	for (size_t i = 0; i < size; i++)
		f->data[(f->head + i) % SIZE] = rec[i];
	f->head += size;
	f->page.data_head = f->head;
}

static struct fake *new_fake(uint64_t start)
{
	struct fake *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->head = start;
	f->page.data_head = f->page.data_tail = start;
	return f;
}

static void test_in_order_and_consume(void **state)
{
	struct fake *f = new_fake(0);
	struct pk_ring r;
	const struct perf_event_header *h;

	(void)state;
	pk__ring_init(&r, &f->page, f->data, SIZE);
	assert_int_equal(pk_ring_size(&r), SIZE);
	assert_int_equal(pk_ring_next(&r, &h), 0);
	put(f, PERF_RECORD_SAMPLE, 16);
	put(f, PERF_RECORD_COMM, 40);
	put(f, PERF_RECORD_EXIT, 48);
	assert_int_equal(pk_ring_next(&r, &h), 1);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(pk_ring_next(&r, &h), 1);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_int_equal(h->size, 40);
	assert_int_equal(((const unsigned char *)h)[39], 31);
	/* Nothing is given back until consume. */
	assert_int_equal(f->page.data_tail, 0);
	pk_ring_consume(&r);
	assert_int_equal(f->page.data_tail, 56);
	assert_int_equal(pk_ring_next(&r, &h), 1);
	assert_int_equal(h->type, PERF_RECORD_EXIT);
	assert_int_equal(pk_ring_next(&r, &h), 0);
	pk_ring_consume(&r);
	assert_int_equal(f->page.data_tail, 104);
	pk__ring_fini(&r);
	free(f);
}

/* A record that starts 24 bytes before the end comes back whole. */
static void test_wrapping_record(void **state)
{
	struct fake *f = new_fake(3 * SIZE - 24);	/* the counters never reset: far past SIZE */
	struct pk_ring r;
	const struct perf_event_header *h;
	const unsigned char *b;

	(void)state;
	pk__ring_init(&r, &f->page, f->data, SIZE);
	put(f, PERF_RECORD_SAMPLE, 200);
	put(f, PERF_RECORD_LOST, 32);
	assert_int_equal(pk_ring_next(&r, &h), 1);
	assert_int_equal(h->size, 200);
	b = (const unsigned char *)h;
	for (int i = 8; i < 200; i++)
		if (b[i] != (unsigned char)(i - 8))
			fail_msg("byte %d of the wrapped record is %u, not %u", i, b[i], (unsigned)(i - 8));
	assert_int_equal(pk_ring_next(&r, &h), 1);
	assert_int_equal(h->type, PERF_RECORD_LOST);
	pk_ring_consume(&r);
	assert_int_equal(f->page.data_tail, 3 * SIZE - 24 + 232);
	pk__ring_fini(&r);
	free(f);
}

static void test_bad_buffers(void **state)
{
	struct fake *f = new_fake(64);
	struct pk_ring r;
	const struct perf_event_header *h;

	(void)state;
	/* A header claiming 4 bytes. */
	pk__ring_init(&r, &f->page, f->data, SIZE);
	put(f, PERF_RECORD_SAMPLE, 16);
	((struct perf_event_header *)(f->data + 64))->size = 4;
	assert_int_equal(pk_ring_next(&r, &h), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "offset 64"));
	assert_non_null(strstr(pk_last_error()->why, "smaller than a record header"));
	/* A record longer than what was published. */
	((struct perf_event_header *)(f->data + 64))->size = 64;
	assert_int_equal(pk_ring_next(&r, &h), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "longer than what the kernel published"));
	pk__ring_fini(&r);
	/* A head more than a buffer ahead of the tail. */
	f->page.data_head = 64 + SIZE + 8;
	pk__ring_init(&r, &f->page, f->data, SIZE);
	assert_int_equal(pk_ring_next(&r, &h), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "ran past the buffer"));
	pk__ring_fini(&r);
	/* Less than a header published. */
	f->page.data_head = 68;
	pk__ring_init(&r, &f->page, f->data, SIZE);
	assert_int_equal(pk_ring_next(&r, &h), -EINVAL);
	pk__ring_fini(&r);
	free(f);
}

static void test_rings_map_pages(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs = NULL;
	struct pk_target t = { .size = sizeof(t) };

	(void)state;
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), 1);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_rings_map(l, 3, &rs), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "power of two"));
	assert_int_equal(pk_rings_map(l, 0, &rs), -EINVAL);
	assert_null(rs);
	assert_int_equal(pk_rings_nr(NULL), 0);
	assert_null(pk_rings_get(NULL, 0));
	pk_rings_free(NULL);
	pk_evlist_free(l);
	pk_events_free(ev);
}


/* Write like the kernel into an overwrite ring: each record just below the
 * previous one, data_head moved down to it. */
static void put_back(struct fake *f, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .size = size };

	f->head -= size;
	for (size_t i = 0; i < size; i++)
		f->data[(f->head + i) % SIZE] = i < sizeof(h) ? ((unsigned char *)&h)[i] : (unsigned char)type;
	f->page.data_head = f->head;
}

static void test_overwrite_snapshot(void **state)
{
	struct fake *f = new_fake(0);
	struct pk_ring r;
	const struct perf_event_header *h;
	uint32_t types[8];
	int n = 0;

	(void)state;
	pk__ring_init_backward(&r, &f->page, f->data, SIZE);
	assert_true(pk_ring_is_overwrite(&r));
	put_back(f, 1, 16);	/* oldest */
	put_back(f, 2, 32);
	put_back(f, 3, 24);	/* newest */
	while (pk_ring_next(&r, &h) == 1 && n < 8)
		types[n++] = h->type;
	/* Newest first; the zero header after the oldest ends the snapshot. */
	assert_int_equal(n, 3);
	assert_int_equal(types[0], 3);
	assert_int_equal(types[2], 1);
	pk_ring_consume(&r);	/* read-only: nothing written back */
	assert_int_equal(f->page.data_tail, 0);
	/* Overflow it: 5 records of 1000 bytes in 4096; the oldest is partly
	 * overwritten and must not be handed out. */
	for (uint32_t t = 10; t < 15; t++)
		put_back(f, t, 1000);
	n = 0;
	while (pk_ring_next(&r, &h) == 1 && n < 8) {
		types[n++] = h->type;
		assert_int_equal(h->size, 1000);
		assert_int_equal(((const unsigned char *)h)[999], (unsigned char)h->type);
	}
	assert_int_equal(n, 4);
	assert_int_equal(types[0], 14);
	assert_int_equal(types[3], 11);
	pk_ring_consume(&r);
	/* A later snapshot hands out only what came after the previous one. */
	put_back(f, 20, 16);
	put_back(f, 21, 16);
	n = 0;
	while (pk_ring_next(&r, &h) == 1 && n < 8)
		types[n++] = h->type;
	assert_int_equal(n, 2);
	assert_int_equal(types[0], 21);
	assert_int_equal(types[1], 20);
	pk_ring_consume(&r);
	assert_int_equal(pk_ring_next(&r, &h), 0);	/* nothing new: nothing again */
	pk__ring_fini(&r);
	free(f);
}


/* AUX data is handed out in contiguous chunks, split at the end of the area. */
static void test_aux_area(void **state)
{
	struct fake *f = new_fake(0);
	unsigned char aux[1024];
	struct pk_ring r;
	const void *data;
	size_t len;

	(void)state;
	for (int i = 0; i < 1024; i++)
		aux[i] = (unsigned char)i;
	pk__ring_init(&r, &f->page, f->data, SIZE);
	assert_int_equal(pk_ring_aux_next(&r, &data, &len), 0);	/* no AUX area */
	r.aux = aux;
	r.aux_size = sizeof(aux);
	r.aux_pos = r.aux_head = 1000;
	f->page.aux_tail = f->page.aux_head = 1000;	/* nothing written yet */
	assert_int_equal(pk_ring_aux_next(&r, &data, &len), 0);
	f->page.aux_head = 1100;	/* 100 bytes: 24 before the end, 76 after */
	assert_int_equal(pk_ring_aux_next(&r, &data, &len), 1);
	assert_int_equal(len, 24);
	assert_ptr_equal(data, aux + 1000);
	assert_int_equal(pk_ring_aux_next(&r, &data, &len), 1);
	assert_int_equal(len, 76);
	assert_ptr_equal(data, aux);
	assert_int_equal(pk_ring_aux_next(&r, &data, &len), 0);
	assert_int_equal(f->page.aux_tail, 1000);
	pk_ring_aux_consume(&r);
	assert_int_equal(f->page.aux_tail, 1100);
	pk__ring_fini(&r);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order_and_consume),
		cmocka_unit_test(test_wrapping_record),
		cmocka_unit_test(test_bad_buffers),
		cmocka_unit_test(test_rings_map_pages),
		cmocka_unit_test(test_overwrite_snapshot),
		cmocka_unit_test(test_aux_area),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
