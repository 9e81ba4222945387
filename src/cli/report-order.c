/* SPDX-License-Identifier: MIT */
/*
 * report-order.c - records in time order for perfkit report, the way perf
 * report orders them: records are queued (copied into an arena) and, at
 * each FINISHED_ROUND, those no later than the latest time of the round
 * before are delivered sorted by time.  Without it, a thread's first
 * samples can come before the FORK or COMM that names it (they sit in
 * another CPU's buffer), and get the wrong comm.  Memory is two rounds of
 * records, reused.  The reader is to deliver records in this order itself
 * (issue 10); this file goes away then.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct item {
	uint64_t time;
	size_t seq;	/* file order, for equal times */
	size_t off;	/* in the arena */
};

struct arena {
	unsigned char *buf;
	size_t len, cap;
};

struct report_queue {
	struct item *items;
	size_t nr, cap, seq;
	struct arena a, spare;
	uint64_t max_time, next_flush;
};

struct report_queue *report_queue_new(void)
{
	return calloc(1, sizeof(struct report_queue));
}

void report_queue_free(struct report_queue *q)
{
	if (!q)
		return;
	free(q->items);
	free(q->a.buf);
	free(q->spare.buf);
	free(q);
}

/* Room for `len` more bytes; 8-byte alignment holds (every size is a multiple of 8). */
static int reserve(struct arena *a, size_t len)
{
	if (a->len + len > a->cap) {
		size_t cap = a->cap ? a->cap : 1 << 20;
		unsigned char *b;

		while (cap < a->len + len)
			cap *= 2;
		if (!(b = realloc(a->buf, cap)))
			return -ENOMEM;
		a->buf = b;
		a->cap = cap;
	}
	return 0;
}

static int push(struct report_queue *q, const struct perf_event_header *rec, uint64_t time)
{
	if (q->nr == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct item *n = realloc(q->items, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		q->items = n;
		q->cap = cap;
	}
	if (reserve(&q->a, rec->size) < 0)
		return -ENOMEM;
	memcpy(q->a.buf + q->a.len, rec, rec->size);
	q->items[q->nr++] = (struct item){ time, q->seq++, q->a.len };
	q->a.len += rec->size;
	return 0;
}

static int by_time(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Deliver the queued records no later than `limit`, keep the rest. */
static int flush(struct report_queue *q, uint64_t limit, report_deliver_fn *deliver, void *arg)
{
	size_t i = 0, k = 0;
	struct arena t;
	int err = 0;

	qsort(q->items, q->nr, sizeof(*q->items), by_time);
	for (; i < q->nr && q->items[i].time <= limit && !err; i++)
		err = deliver(arg, (const struct perf_event_header *)(q->a.buf + q->items[i].off));
	if (err)
		return err;
	/* The rest moves to the spare arena, which becomes the arena. */
	q->spare.len = 0;
	for (; i < q->nr; i++, k++) {
		const struct perf_event_header *h = (const void *)(q->a.buf + q->items[i].off);

		if (reserve(&q->spare, h->size) < 0)
			return -ENOMEM;
		memcpy(q->spare.buf + q->spare.len, h, h->size);
		q->items[k] = q->items[i];
		q->items[k].off = q->spare.len;
		q->spare.len += h->size;
	}
	q->nr = k;
	t = q->a;
	q->a = q->spare;
	q->spare = t;
	return 0;
}

int report_queue_add(struct report_queue *q, const struct perf_event_header *rec, uint64_t time,
		     report_deliver_fn *deliver, void *arg)
{
	int err;

	if (rec->type == PK_DATA_RECORD_FINISHED_ROUND) {
		if ((err = flush(q, q->next_flush, deliver, arg)) < 0)
			return err;
		q->next_flush = q->max_time;
		return 0;
	}
	/* perf delivers a record without a time (or at time 0) at once. */
	if (!time || time == UINT64_MAX)
		return deliver(arg, rec);
	if (time > q->max_time)
		q->max_time = time;
	return push(q, rec, time);
}

int report_queue_finish(struct report_queue *q, report_deliver_fn *deliver, void *arg)
{
	return flush(q, UINT64_MAX, deliver, arg);
}
