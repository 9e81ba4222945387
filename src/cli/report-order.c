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
	size_t seq;		/* file order, for equal times */
	bool is_sample;
	union {
		struct report_sample s;
		size_t off;	/* another record: its bytes in the arena */
	};
};

struct arena {
	unsigned char *buf;
	size_t len, cap;
};

struct report_queue {
	struct item *items, *tmp;	/* tmp: the merge sort's other half */
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
	free(q->tmp);
	free(q->a.buf);
	free(q->spare.buf);
	free(q);
}

/* Room for `len` more bytes; 8-byte alignment holds (every size is a multiple of 8). */
static int reserve(struct arena *a, size_t len)
{
	if (a->len + len > a->cap) {
		size_t cap = a->cap ? a->cap : 1 << 16;
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

static struct item *push(struct report_queue *q, uint64_t time)
{
	if (q->nr == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct item *n = realloc(q->items, cap * sizeof(*n)), *t;

		if (!n)
			return NULL;
		q->items = n;
		if (!(t = realloc(q->tmp, cap * sizeof(*t))))
			return NULL;
		q->tmp = t;
		q->cap = cap;
	}
	q->items[q->nr] = (struct item){ .time = time, .seq = q->seq++ };
	return &q->items[q->nr++];
}

static bool before(const struct item *a, const struct item *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static size_t run_end(const struct item *v, size_t i, size_t n)
{
	while (++i < n && !before(&v[i], &v[i - 1]))
		;
	return i;
}

/*
 * Sort by time, file order among equals: a natural merge sort, since a
 * round is a few runs already in order (one per CPU's buffer) and what
 * was kept from the round before is one more.
 */
static void sort_items(struct report_queue *q)
{
	struct item *src = q->items, *dst = q->tmp;
	size_t runs = 2;

	while (runs > 1) {
		runs = 0;
		for (size_t i = 0; i < q->nr; runs++) {
			size_t mid = run_end(src, i, q->nr), end = mid < q->nr ? run_end(src, mid, q->nr) : mid;
			size_t a = i, b = mid, k = i;

			if (runs == 0 && end == q->nr && mid == q->nr)
				return;	/* one run from the start: sorted, in place */
			while (a < mid && b < end)
				dst[k++] = before(&src[b], &src[a]) ? src[b++] : src[a++];
			memcpy(&dst[k], &src[a], (mid - a) * sizeof(*dst));
			k += mid - a;
			memcpy(&dst[k], &src[b], (end - b) * sizeof(*dst));
			i = end;
		}
		q->items = dst;
		q->tmp = src;
		dst = src;
		src = q->items;
	}
}

static int deliver_item(const struct report_queue *q, const struct item *it, report_deliver_fn *deliver,
			void *arg)
{
	if (it->is_sample)
		return deliver(arg, NULL, &it->s);
	return deliver(arg, (const struct perf_event_header *)(q->a.buf + it->off), NULL);
}

/* Deliver the queued records no later than `limit`, keep the rest. */
static int flush(struct report_queue *q, uint64_t limit, report_deliver_fn *deliver, void *arg)
{
	size_t i = 0, k = 0;
	struct arena t;
	int err = 0;

	sort_items(q);
	for (; i < q->nr && q->items[i].time <= limit && !err; i++)
		err = deliver_item(q, &q->items[i], deliver, arg);
	if (err)
		return err;
	/* The rest moves to the front, and their bytes to the spare arena,
	 * which becomes the arena. */
	q->spare.len = 0;
	for (; i < q->nr; i++, k++) {
		q->items[k] = q->items[i];
		if (!q->items[k].is_sample) {
			const struct perf_event_header *h = (const void *)(q->a.buf + q->items[i].off);

			if (reserve(&q->spare, h->size) < 0)
				return -ENOMEM;
			memcpy(q->spare.buf + q->spare.len, h, h->size);
			q->items[k].off = q->spare.len;
			q->spare.len += h->size;
		}
	}
	q->nr = k;
	t = q->a;
	q->a = q->spare;
	q->spare = t;
	return 0;
}

int report_queue_add(struct report_queue *q, const struct perf_event_header *rec,
		     const struct report_sample *s, uint64_t time, report_deliver_fn *deliver, void *arg)
{
	struct item *it;
	int err;

	if (rec && rec->type == PK_DATA_RECORD_FINISHED_ROUND) {
		if ((err = flush(q, q->next_flush, deliver, arg)) < 0)
			return err;
		q->next_flush = q->max_time;
		return 0;
	}
	/* perf delivers a record without a time (or at time 0) at once. */
	if (!time || time == UINT64_MAX)
		return deliver(arg, rec, s);
	if (time > q->max_time)
		q->max_time = time;
	if (!(it = push(q, time)) || (rec && reserve(&q->a, rec->size) < 0))
		return -ENOMEM;
	if (s) {
		it->is_sample = true;
		it->s = *s;
		return 0;
	}
	memcpy(q->a.buf + q->a.len, rec, rec->size);
	it->off = q->a.len;
	q->a.len += rec->size;
	return 0;
}

int report_queue_finish(struct report_queue *q, report_deliver_fn *deliver, void *arg)
{
	return flush(q, UINT64_MAX, deliver, arg);
}
