/* SPDX-License-Identifier: MIT */
/*
 * reader-order.c - the records of a perf.data file in time order, the way
 * perf's ordered_events (tools/perf/util/ordered-events.c) delivers them to
 * perf report and perf script: records with a time are queued; at each
 * FINISHED_ROUND those no later than the latest time seen by the round
 * before are delivered, sorted by time and, at equal times, in file order;
 * at the end of the data all the rest.  The recorder writes a round after
 * each pass over all its rings, and a record can only be overtaken by one
 * from the next pass, so the queue holds about two rounds, never the file.
 * Records without a time (perf's own user records, events without
 * PERF_SAMPLE_TIME, non-samples without sample_id_all, a time of 0 such as
 * the synthesized ones) are delivered the moment they are read, as perf
 * does.  A file without rounds is flushed in halves once the queue is
 * large, as perf does when its queue outgrows its allotment.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_MAX (256u << 20)	/* queued record bytes before a half flush */

void pk__reader_order_free(struct pk_data_reader *r)
{
	free(r->order.arena);
	free(r->order.spare);
	free(r->order.q);
}

int pk_data_reader_set_order(struct pk_data_reader *r, enum pk_data_order order)
{
	if (order != PK_DATA_ORDER_TIME && order != PK_DATA_ORDER_FILE && order != PK_DATA_ORDER_TIME_ROUND_FIRST)
		return pk__error(-EINVAL, "pk_data_reader_set_order", "%d is not an enum pk_data_order", (int)order);
	if (r->order.started)
		return pk__error(-EBUSY, "pk_data_reader_set_order", "%s: records were read already: choose the "
				 "order before the first pk_data_reader_next", r->path);
	r->order.file_order = order == PK_DATA_ORDER_FILE;
	r->order.round_first = order == PK_DATA_ORDER_TIME_ROUND_FIRST;
	return 0;
}

int pk_data_reader_stats(const struct pk_data_reader *r, struct pk_data_reader_stats *out)
{
	size_t size = out->size;

	if (size < sizeof(*out))
		return pk__error(-EINVAL, "pk_data_reader_stats",
				 "struct pk_data_reader_stats.size is %zu, less than the %zu bytes this "
				 "library fills", size, sizeof(*out));
	*out = r->stats;
	out->size = size;
	return 0;
}

uint64_t pk_data_reader_nr_unordered(const struct pk_data_reader *r)
{
	return r->order.nr_unordered;
}

/* The time perf orders `h` by, or false when it has none (perf's -ETIME:
 * delivered at once).  A record of no known event has none either. */
static bool record_time(const struct pk_data_reader *r, const struct perf_event_header *h, uint64_t *t)
{
	const struct perf_event_attr *a;
	struct pk_record d = { .size = sizeof(d) };

	if (h->type >= PERF_RECORD_MAX)
		return false;
	a = pk_data_reader_attr_of(r, h);
	if (!a || !(a->sample_type & PERF_SAMPLE_TIME))
		return false;
	if (h->type == PERF_RECORD_SAMPLE) {
		struct pk_sample_peek p = { .size = sizeof(p) };

		if (pk_sample_peek(h, a, &p) < 0)
			return false;
		*t = p.time;
	} else {
		if (!a->sample_id_all || pk_record_decode(h, a, &d) != 0 || !(d.id.fields & PERF_SAMPLE_TIME))
			return false;
		*t = d.id.time;
	}
	return *t != 0 && *t != UINT64_MAX;
}

static int grow(void **p, size_t *cap, size_t need, size_t unit, const char *what)
{
	size_t n = *cap ? *cap : 4096 / unit;
	void *np;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	np = pk__realloc(*p, n * unit);
	if (!np)
		return pk__error_nomem("%s (%zu bytes)", what, n * unit);
	*p = np;
	*cap = n;
	return 0;
}

static int enqueue(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t t)
{
	struct rd_order *o = &r->order;
	int err = grow((void **)&o->arena, &o->arena_cap, o->arena_len + h->size, 1, "the time-order queue");

	if (!err)
		err = grow((void **)&o->q, &o->cap_q, o->nr_q + 1, sizeof(*o->q), "the time-order queue");
	if (err)
		return err;
	if (t < o->last_flush)
		o->nr_unordered++;	/* perf counts these as "out of order events" */
	if (t > o->max_time)
		o->max_time = t;
	memcpy(o->arena + o->arena_len, h, h->size);
	o->q[o->nr_q++] = (struct rd_queued){ t, o->seq++, o->arena_len, r->rec_off };
	o->arena_len += h->size;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rd_queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Make the queued records no later than `limit` the ready ones. */
static void flush(struct rd_order *o, uint64_t limit)
{
	size_t n = 0;

	qsort(o->q, o->nr_q, sizeof(*o->q), by_time);
	while (n < o->nr_q && o->q[n].time <= limit)
		n++;
	o->nr_ready = n;
	o->next_ready = 0;
}

/* Drop the delivered records: the others move to the spare arena, which
 * becomes the arena, so the queue's memory follows what it holds. */
static int compact(struct pk_data_reader *r)
{
	struct rd_order *o = &r->order;
	size_t len = 0, need = 0;
	unsigned char *t;
	int err;

	for (size_t i = o->nr_ready; i < o->nr_q; i++)
		need += ((const struct perf_event_header *)(const void *)(o->arena + o->q[i].off))->size;
	err = grow((void **)&o->spare, &o->spare_cap, need ? need : 1, 1, "the time-order queue");
	if (err)
		return err;
	for (size_t i = o->nr_ready; i < o->nr_q; i++) {
		const struct perf_event_header *h = (const void *)(o->arena + o->q[i].off);

		memcpy(o->spare + len, h, h->size);
		o->q[i - o->nr_ready] = (struct rd_queued){ o->q[i].time, o->q[i].seq, len, o->q[i].file_off };
		len += h->size;
	}
	o->nr_q -= o->nr_ready;
	o->nr_ready = o->next_ready = 0;
	t = o->arena;
	o->arena = o->spare;
	o->spare = t;
	o->arena_len = len;
	need = o->arena_cap;
	o->arena_cap = o->spare_cap;
	o->spare_cap = need;
	return 0;
}

/* What to do with the next record read: deliver it now (1, in *rec),
 * queue it, or take it as the end of a round (0 for both). */
static int take(struct pk_data_reader *r, const struct perf_event_header *h, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	uint64_t t;
	int err;

	if (h->type == PK__RECORD_FINISHED_ROUND && h->size == sizeof(*h)) {
		/* perf flushes up to the latest time of the round before: a
		 * record of this round can still be overtaken by the next. */
		if (o->next_flush)
			flush(o, o->next_flush);
		o->next_flush = o->max_time;
		o->round = *h;
		o->round_off = r->rec_off;
		o->round_pending = true;
		return 0;
	}
	if (!record_time(r, h, &t)) {
		*rec = h;
		return 1;
	}
	err = enqueue(r, h, t);
	if (err) {
		r->err = o->src_end = err;
		pk__reader_keep(r);
		return err;
	}
	if (o->arena_len > QUEUE_MAX) {
		flush(o, UINT64_MAX);	/* sorts; then half of the span goes */
		flush(o, o->q[0].time + (o->q[o->nr_q - 1].time - o->q[0].time) / 2);
	}
	return 0;
}

static int deliver_round(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	r->order.round_pending = false;
	r->cur_off = r->order.round_off;
	*rec = &r->order.round;
	return 1;
}

int pk_data_reader_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	const struct perf_event_header *h;
	int ret;

	o->started = true;
	if (o->file_order) {
		ret = pk__reader_stream_next(r, rec);
		r->cur_off = r->rec_off;
		return ret;
	}
	for (;;) {
		if (o->round_pending && (o->round_first || o->next_ready == o->nr_ready))
			return deliver_round(r, rec);
		if (o->next_ready < o->nr_ready) {
			const struct rd_queued *e = &o->q[o->next_ready++];

			o->last_flush = e->time;
			r->cur_off = e->file_off;
			*rec = (const struct perf_event_header *)(const void *)(o->arena + e->off);
			return 1;
		}
		if (o->nr_ready && (ret = compact(r)) < 0)
			return ret;
		if (o->src_end) {
			if (!o->nr_q)
				return o->src_end > 0 ? 0 : pk__reader_again(r);
			flush(o, UINT64_MAX);	/* perf's final flush; damage comes after */
			continue;
		}
		ret = pk__reader_stream_next(r, &h);
		if (ret <= 0)
			o->src_end = ret ? ret : 1;
		else if ((ret = take(r, h, rec)) != 0) {
			r->cur_off = r->rec_off;
			return ret;
		}
	}
}
