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
 * does.  A file without rounds (or with rounds larger than QUEUE_MAX) is
 * flushed in halves once the queue's memory reaches QUEUE_MAX, as perf
 * does when its queue outgrows report.queue-size; perf's default has no
 * limit, so its order and ours differ only where a record comes after
 * a record of a later time than itself by more than half the queue
 * (counted in nr_unordered): a whole report stays within 64 MB.  Queued
 * records are not copied: they stay in the buffer they were read into,
 * which they pin until delivered (struct rd_buf); only those of a buffer
 * the stream leaves with under a quarter of it queued are copied out, so
 * a timed record among many delivered at once does not keep 256 KiB.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_MAX (16u << 20)	/* the queue's memory (footprint()) before a half flush; a
					 * directory's merged files share one queue too */
#define SPARSE (PK__READER_BUF_SIZE / 4)	/* queued bytes of a buffer left that are copied out */

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

/* A sample's fields before READ, one u64 each (TID and CPU two u32s). */
#define SAMPLE_FIXED (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		      PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		      PERF_SAMPLE_PERIOD)

/* The number of bits set in x, without libgcc's __popcountdi2 call (the
 * build targets x86-64 without POPCNT; this runs twice a sample). */
static inline unsigned int bits(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((x * 0x0101010101010101ull) >> 56);
}

/* A sample's time (its attr's sample_type `st`) as pk__reader_record_time
 * gives it: pk_sample_peek's answer, read directly (it showed in report's
 * profile): the time when the record holds all of the fixed fields
 * IDENTIFIER .. PERIOD, as peek requires; TIME is after IDENTIFIER, IP and
 * TID.  The layout is worked out once per sample_type (a file has one or
 * a few). */
static inline bool sample_time(struct rd_layout *l, uint64_t st, const struct perf_event_header *h, uint64_t *t)
{
	if (!(st & PERF_SAMPLE_TIME))
		return false;
	if (st != l->st) {
		l->fixed = 8 * (size_t)bits(st & SAMPLE_FIXED);
		l->at = 8 + 8 * (size_t)bits(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID));
		l->st = st;
	}
	if (h->size < sizeof(*h) || h->size - sizeof(*h) < l->fixed)
		return false;
	memcpy(t, (const unsigned char *)h + l->at, sizeof(*t));
	return *t != 0 && *t != UINT64_MAX;
}

/* Another record's time, from its sample_id_all trailer. */
static bool trailer_time(const struct perf_event_attr *a, const struct perf_event_header *h, uint64_t *t)
{
	/* made here only: zeroing a whole pk_record per sample showed */
	struct pk_record d = { .size = sizeof(d) };

	if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all || pk_record_decode(h, a, &d) != 0 ||
	    !(d.id.fields & PERF_SAMPLE_TIME))
		return false;
	*t = d.id.time;
	return *t != 0 && *t != UINT64_MAX;
}

/* The time perf orders `h` by, or false when it has none (perf's -ETIME:
 * delivered at once).  A record of no known event has none either. */
bool pk__reader_record_time(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t *t, int *ev)
{
	const struct perf_event_attr *a;
	int i;

	*ev = PK__EV_UNKNOWN;
	if (h->type >= PERF_RECORD_MAX)
		return false;
	i = pk__reader_event_of(r, h);
	if (i < 0)
		return false;	/* looked up again when asked: the lookup's error record */
	*ev = i;
	a = pk__reader_attr(r, (size_t)i);
	return h->type == PERF_RECORD_SAMPLE ? sample_time(&r->order.time, a->sample_type, h, t) : trailer_time(a, h, t);
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

/* The buffers records are read into (reader-stream.c's buf and dbuf, a
 * directory's too) are rd_bufs: a record queued in one pins it until it
 * was delivered, and the stream moves on to a fresh buffer instead of
 * overwriting a pinned one.  A few unpinned ones are kept for reuse. */
unsigned char *pk__reader_buf_new(struct pk_data_reader *r)
{
	struct rd_order *o = &r->order;
	struct rd_buf *b = o->nr_spare ? o->spare[--o->nr_spare] : pk__malloc(sizeof(*b) + PK__READER_BUF_SIZE);

	if (!b) {
		pk__error_nomem("a perf.data reader's buffer (%u bytes)", PK__READER_BUF_SIZE);
		return NULL;
	}
	*b = (struct rd_buf){ 0 };
	return b->mem;
}

void pk__reader_buf_drop(unsigned char *mem)
{
	struct rd_buf *b = mem ? PK__RD_BUF(mem) : NULL;

	if (b && b->live)
		b->detached = true;	/* freed by unpin with its last record */
	else
		free(b);
}

/* The record delivered last or a queued one, of `size` bytes, is done with. */
static void unpin(struct rd_order *o, struct rd_buf *b, size_t size)
{
	b->bytes -= size;
	if (--b->live)
		return;
	o->nr_pinned--;
	if (!b->detached)
		return;
	if (o->nr_spare < PK__READER_SPARE)
		o->spare[o->nr_spare++] = b;
	else
		free(b);
}

/* Whether p lies in buffer `buf` (which may be NULL). */
static inline bool within(const unsigned char *p, const unsigned char *buf)
{
	return buf && p >= buf && p < buf + PK__READER_BUF_SIZE;
}

/* The buffer a record read last lies in: the reader's, or the directory
 * file's it came from (its state is parked in its cursor).  Tested one
 * by one, not through an array of them on the stack: that array was
 * stored 16 bytes at a time and read back 8 at a time, a store-forwarding
 * stall that was a seventh of pk_data_reader_next's time. */
static struct rd_buf *owner(const struct pk_data_reader *r, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)h;

	if (within(p, r->buf))
		return PK__RD_BUF(r->buf);
	if (within(p, r->dbuf))
		return PK__RD_BUF(r->dbuf);
	if (r->nr_cur && r->took && r->took < r->nr_cur) {
		if (within(p, r->cur[r->took].buf))
			return PK__RD_BUF(r->cur[r->took].buf);
		if (within(p, r->cur[r->took].dbuf))
			return PK__RD_BUF(r->cur[r->took].dbuf);
	}
	return NULL;
}

static size_t rec_size(const struct rd_queued *e)
{
	return ((const struct perf_event_header *)(const void *)e->rec)->size;
}

/* Copy the queued records of `b`, which holds few, into the arena, so
 * that b is not kept for them: a stream of records delivered at once,
 * with a timed one here and there, would otherwise pin every buffer. */
static void relocate(struct pk_data_reader *r, struct rd_buf *b)
{
	struct rd_order *o = &r->order;

	/* from the end: b was read last, its records queued last (unless a
	 * flush sorted them in), so the scan is short */
	for (size_t i = o->nr_q; i-- > o->next_ready && b->live;) {
		struct rd_queued *e = &o->q[i];
		size_t size = rec_size(e);

		if (e->buf != b)
			continue;
		if (o->arena && !o->arena->live)
			o->arena_len = 0;
		if (!o->arena || o->arena_len + size > PK__READER_BUF_SIZE) {
			unsigned char *m = pk__reader_buf_new(r);

			if (!m)
				return;	/* b stays pinned: more memory, as correct */
			if (o->arena)
				pk__reader_buf_drop(o->arena->mem);
			o->arena = PK__RD_BUF(m);
			o->arena_len = 0;
		}
		memcpy(o->arena->mem + o->arena_len, e->rec, size);
		e->rec = o->arena->mem + o->arena_len;
		e->buf = o->arena;
		o->arena_len += size;
		if (!o->arena->live++)
			o->nr_pinned++;
		o->arena->bytes += size;
		unpin(o, b, size);
	}
}

void pk__reader_buf_leave(struct pk_data_reader *r, unsigned char *mem)
{
	struct rd_buf *b = PK__RD_BUF(mem);

	if (b->live && b->bytes <= SPARSE)
		relocate(r, b);
	if (!b->live && r->order.nr_spare < PK__READER_SPARE)
		r->order.spare[r->order.nr_spare++] = b;
	else
		pk__reader_buf_drop(mem);
}

static void release_held(struct rd_order *o)
{
	if (!o->held)
		return;
	unpin(o, o->held, o->held_size);
	o->held = NULL;
}

void pk__reader_order_free(struct pk_data_reader *r)
{
	struct rd_order *o = &r->order;

	release_held(o);
	for (size_t i = o->next_ready; i < o->nr_q; i++)
		unpin(o, o->q[i].buf, rec_size(&o->q[i]));
	if (o->arena)
		pk__reader_buf_drop(o->arena->mem);
	while (o->nr_spare)
		free(o->spare[--o->nr_spare]);
	free(o->q);
	free(o->tmp);
}

/* Queue `h` where it lies: no copy, its buffer pinned. */
static int enqueue(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t t, int ev)
{
	struct rd_order *o = &r->order;
	struct rd_buf *b;
	int err;

	/* The delivered entries' room, reused when it is half the array or
	 * more (else the array doubles): the live entries move at most once
	 * per array's worth of records, not once a round, and the array stays
	 * near twice the live queue (a page first written costs this VM more
	 * than moving 4 KiB of entries). */
	if (o->nr_q == o->cap_q && o->head && o->head >= o->nr_q - o->head) {
		memmove(o->q, o->q + o->head, (o->nr_q - o->head) * sizeof(*o->q));
		o->nr_q -= o->head;
		o->next_ready -= o->head;
		o->nr_ready -= o->head;
		o->head = 0;
	}
	err = grow((void **)&o->q, &o->cap_q, o->nr_q + 1, sizeof(*o->q), "the time-order queue");
	b = err ? NULL : owner(r, h);

	if (err)
		return err;
	if (!b)
		return pk__error(-EFAULT, "read perf.data", "%s: internal: a record to queue is in none of "
				 "the reader's buffers", r->path);
	if (t < o->last_flush)
		o->nr_unordered++;	/* perf counts these as "out of order events" */
	if (t > o->max_time)
		o->max_time = t;
	o->q[o->nr_q++] = (struct rd_queued){ t, o->seq++, (const unsigned char *)h, b, (uint32_t)r->cur_file,
					      ev, r->nr_cur ? r->cur_off : r->rec_off };
	if (!b->live++)
		o->nr_pinned++;
	b->bytes += h->size;
	return 0;
}

/* The memory the queue takes: the buffers its records pin and, for each
 * record, its entry in the queue and in the merge's other half (their
 * capacity beyond that is allocated, not touched: no resident pages). */
static size_t footprint(const struct rd_order *o)
{
	return o->nr_pinned * (sizeof(struct rd_buf) + PK__READER_BUF_SIZE) + 2 * (o->nr_q - o->head) * sizeof(*o->q);
}

static bool before(const struct rd_queued *x, const struct rd_queued *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* The end of the ascending run of q from i on. */
static size_t run_end(const struct rd_queued *q, size_t i, size_t n)
{
	while (++i < n && !before(&q[i], &q[i - 1]))
		;
	return i;
}

/* Sort the live queue, q[head, nr_q), by time and, at equal times, file
 * order.  The queue is made of ascending runs (each ring's records are in
 * time order, and what a flush left is sorted), so adjacent runs are
 * merged pairwise, a pass at a time, until one is left: a few linear
 * passes instead of a general sort.  The first pass also drops the
 * delivered entries before head (the merge starts the other half at 0).
 * Call it with every ready entry delivered. */
static int sort_queue(struct rd_order *o)
{
	int err = grow((void **)&o->tmp, &o->cap_tmp, o->nr_q, sizeof(*o->tmp), "the time-order queue");

	if (err)
		return err;
	for (;;) {
		const struct rd_queued *src = o->q + o->head;
		struct rd_queued *dst = o->tmp, *t;
		size_t n = o->nr_q - o->head, i = 0, cap;

		if (run_end(src, 0, n) >= n)
			return 0;
		while (i < n) {
			size_t mid = run_end(src, i, n), end = mid < n ? run_end(src, mid, n) : n;
			size_t x = i, y = mid, k = i;

			while (x < mid && y < end)
				dst[k++] = before(&src[y], &src[x]) ? src[y++] : src[x++];
			memcpy(dst + k, src + x, (mid - x) * sizeof(*dst));
			k += mid - x;
			memcpy(dst + k, src + y, (end - y) * sizeof(*dst));
			i = end;
		}
		t = o->q;
		o->q = o->tmp;
		o->tmp = t;
		cap = o->cap_q;
		o->cap_q = o->cap_tmp;
		o->cap_tmp = cap;
		o->nr_q = n;
		o->head = o->next_ready = o->nr_ready = 0;
	}
}

/* Make the queued records no later than `limit` the ready ones:
 * q[next_ready, nr_ready), from head on. */
static int flush(struct rd_order *o, uint64_t limit)
{
	size_t n;
	int err = sort_queue(o);

	if (err)
		return err;
	n = o->head;
	while (n < o->nr_q && o->q[n].time <= limit)
		n++;
	o->nr_ready = n;
	o->next_ready = o->head;
	return 0;
}

/* Drop the delivered records from the queue (their buffers were
 * unpinned by release_held): the live queue starts after them.  Their
 * room is taken back by the next merge, or by enqueue when it is full,
 * not by moving the rest down each round. */
static void compact(struct rd_order *o)
{
	o->head = o->nr_ready;
}

static int failed(struct pk_data_reader *r, int err)
{
	r->err = r->order.src_end = err;
	pk__reader_keep(r);
	return err;
}

/* Once the queue's memory is past QUEUE_MAX: sort it, and make the
 * older half of its time span ready. */
static int bound(struct rd_order *o)
{
	int err;

	if (footprint(o) <= QUEUE_MAX)
		return 0;
	if ((err = flush(o, UINT64_MAX)) != 0)	/* sorts; */
		return err;
	return flush(o, o->q[o->head].time + (o->q[o->nr_q - 1].time - o->q[o->head].time) / 2);	/* half goes */
}

/* What to do with the next record read: deliver it now (1, in *rec),
 * queue it, or take it as the end of a round (0 for both). */
static int take(struct pk_data_reader *r, const struct perf_event_header *h, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	uint64_t t;
	int err, ev;

	if (h->type == PK__RECORD_FINISHED_ROUND && h->size == sizeof(*h)) {
		/* perf flushes up to the latest time of the round before: a
		 * record of this round can still be overtaken by the next. */
		if (o->next_flush && (err = flush(o, o->next_flush)) < 0)
			return failed(r, err);
		o->next_flush = o->max_time;
		o->round = *h;
		o->round_off = r->nr_cur ? r->cur_off : r->rec_off;
		o->round_pending = true;
		return 0;
	}
	if (!pk__reader_record_time(r, h, &t, &ev)) {
		*rec = r->cur_rec = h;
		r->cur_ev = ev;
		return 1;
	}
	err = enqueue(r, h, t, ev);
	if (!err)
		err = bound(o);
	return err ? failed(r, err) : 0;
}

/* What take_samples' loop did: bytes of the window taken, the last
 * record's offset and event, and the queue's state, kept in locals while
 * it ran (stores into the queue could be any of the reader's fields, for
 * all the compiler knows). */
struct taken {
	size_t k, nr_q;
	uint64_t at, max_time, nr_unordered;
	int ev;
};

/* Where take_samples' loop stops queueing into buffer b: at the queue's
 * capacity, or once it queued one entry more than footprint() allows
 * (then bound() flushes, as after take()). */
static size_t queue_stop(const struct rd_order *o, const struct rd_buf *b)
{
	size_t pinned = (o->nr_pinned + !b->live) * (sizeof(struct rd_buf) + PK__READER_BUF_SIZE);
	size_t full = pinned <= QUEUE_MAX ? o->head + (QUEUE_MAX - pinned) / (2 * sizeof(*o->q)) : 0;

	return full < o->cap_q ? full + 1 : o->cap_q;
}

/* take_samples' loop: queue the samples at the start of w, one after the
 * other, until another record or queue_stop.  Returns the sample it
 * stopped at when it has no time (taken, to deliver now), else NULL; in
 * *s what it did.  Not inlined: in next_any, its locals did not fit the
 * registers. */
static __attribute__((noinline)) const struct perf_event_header *
queue_samples(struct pk_data_reader *r, const struct rd_window *w, struct taken *s)
{
	struct rd_order *o = &r->order;
	struct rd_queued *q = o->q;
	struct rd_layout lay = o->time;
	const struct perf_event_header *h, *now = NULL;
	const unsigned char *p = w->p, *end = w->p + w->len;
	size_t nr_q = o->nr_q, stop = queue_stop(o, w->buf);
	uint64_t seq = o->seq - nr_q;	/* an entry's seq: this plus its index */
	uint64_t step = w->expanded ? 0 : UINT64_MAX, base = w->off - ((uintptr_t)p & step);	/* at: */
	uint64_t at = 0, t, max_time = o->max_time, nr_unordered = 0;
	uint64_t st0 = r->nr_events ? pk__reader_attr(r, 0)->sample_type : 0;
	bool one = r->nr_events == 1;
	int ev = 0;

	for (; nr_q < stop && end - p >= (ptrdiff_t)sizeof(*h); p += h->size) {
		h = (const struct perf_event_header *)(const void *)p;
		if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) || h->size % 8 || h->size > end - p)
			break;
		at = base + ((uintptr_t)p & step);	/* off, or off and p's place in w */
		ev = one ? 0 : pk__reader_event_of(r, h);
		if (ev < 0 || !sample_time(&lay, ev ? pk__reader_attr(r, (size_t)ev)->sample_type : st0, h, &t)) {
			now = h;
			p += h->size;
			break;
		}
		nr_unordered += t < o->last_flush;	/* perf's "out of order events" */
		max_time = t > max_time ? t : max_time;
		q[nr_q] = (struct rd_queued){ t, seq + nr_q, (const unsigned char *)h, w->buf, 0, ev, at };
		nr_q++;
	}
	o->time = lay;
	*s = (struct taken){ (size_t)(p - w->p), nr_q, at, max_time, nr_unordered, ev };
	return now;
}

/* take()'s common case, fast: the samples that lie one after the other in
 * one of the stream's buffers (pk__reader_stream_window) are queued or,
 * the first without a time, delivered (1, in *rec), exactly as take()
 * would.  Returns 1; 2 after queueing some; 0 when it took no record (the
 * next one is left to take()); or a negative errno.  Not for a directory,
 * whose files' records are merged first. */
static int take_samples(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	const struct perf_event_header *now;
	struct rd_window w;
	struct taken s;
	size_t n;
	int err;

	if (r->nr_cur || !pk__reader_stream_window(r, &w))
		return 0;
	now = queue_samples(r, &w, &s);
	if (!s.k)
		return 0;
	pk__reader_stream_took(r, &w, s.k, s.at);
	n = s.nr_q - o->nr_q;
	if (n && !w.buf->live)
		o->nr_pinned++;
	w.buf->live += n;
	w.buf->bytes += s.k - (now ? now->size : 0);	/* the rest was queued */
	o->nr_q = s.nr_q;
	o->seq += n;
	o->max_time = s.max_time;
	o->nr_unordered += s.nr_unordered;
	if (now) {
		*rec = r->cur_rec = now;
		r->cur_ev = s.ev >= 0 ? s.ev : PK__EV_UNKNOWN;
		r->cur_off = s.at;
		return 1;
	}
	err = bound(o);
	return err ? failed(r, err) : 2;
}

static int deliver_round(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	r->order.round_pending = false;
	r->cur_off = r->order.round_off;
	*rec = r->cur_rec = &r->order.round;
	return 1;
}

/* The next ready record: its bytes stay, its buffer pinned (held), until
 * the next call. */
static inline int deliver(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	const struct rd_queued *e = &o->q[o->next_ready++];
	const struct perf_event_header *h = (const struct perf_event_header *)(const void *)e->rec;

	o->last_flush = e->time;
	r->cur_off = e->file_off;
	r->cur_file = e->file;
	r->cur_ev = e->ev;
	*rec = r->cur_rec = h;
	o->held = e->buf;
	o->held_size = h->size;
	return 1;
}

/* Read on: 1 with a record to deliver now (in *rec), 0 after one was
 * queued or taken, or the end or damage met (in src_end), or a
 * negative errno. */
static int read_on(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	const struct perf_event_header *h;
	int ret = take_samples(r, rec);

	if (ret)
		return ret == 2 ? 0 : ret;
	ret = r->nr_cur ? pk__reader_dir_next(r, &h) : pk__reader_stream_next(r, &h);
	if (ret <= 0) {
		r->order.src_end = ret ? ret : 1;
		return 0;
	}
	ret = take(r, h, rec);
	if (ret > 0 && !r->nr_cur)
		r->cur_off = r->rec_off;	/* dir_next set it, and cur_file */
	return ret;
}

/* pk_data_reader_next's every case but the commonest.  Not inlined:
 * pk_data_reader_next stays small, with no registers to save. */
static __attribute__((noinline)) int next_any(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;
	int ret;

	o->started = true;
	r->cur_rec = NULL;
	r->cur_ev = PK__EV_UNKNOWN;
	if (o->file_order) {
		/* a directory's in perf's read order */
		ret = r->nr_cur ? pk__reader_dir_next(r, rec) : pk__reader_stream_next(r, rec);
		if (!r->nr_cur)
			r->cur_off = r->rec_off;
		r->cur_rec = ret > 0 ? *rec : NULL;
		return ret;
	}
	release_held(o);
	for (;;) {
		if (o->round_pending && (o->round_first || o->next_ready == o->nr_ready))
			return deliver_round(r, rec);
		if (o->next_ready < o->nr_ready)
			return deliver(r, rec);
		if (o->nr_ready > o->head)
			compact(o);
		if (o->src_end) {
			if (o->nr_q == o->head)
				return o->src_end > 0 ? 0 : pk__reader_again(r);
			if ((ret = flush(o, UINT64_MAX)) < 0)	/* perf's final flush; damage comes after */
				return failed(r, ret);
			continue;
		}
		if ((ret = read_on(r, rec)) != 0)
			return ret;
	}
}

int pk_data_reader_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	struct rd_order *o = &r->order;

	/* the commonest case, a ready record (a pending round comes after
	 * them, but for perf -D's order) */
	if (o->next_ready < o->nr_ready && !(o->round_pending && o->round_first)) {
		release_held(o);
		return deliver(r, rec);
	}
	return next_any(r, rec);
}

void pk__reader_order_forget_events(struct pk_data_reader *r)
{
	struct rd_order *o = &r->order;

	r->cur_ev = PK__EV_UNKNOWN;
	for (size_t i = o->next_ready; i < o->nr_q; i++)
		o->q[i].ev = PK__EV_UNKNOWN;
}
