/* SPDX-License-Identifier: MIT */
/*
 * export-speedscope.c - speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): the frames shared
 * by every profile (one per frame label, with its file and line when
 * known), and one sampled profile per thread and event whose samples run
 * in time order when samples carry time, so speedscope's "Time Order"
 * view is that thread's timeline; weights are the samples' weights in the
 * event's unit.  Also the JSON string escaping the exporters share.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pk__export_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

struct order {
	const struct pk__xsample *s;
	size_t idx;
};

/* By event, process, thread, then time (when known), then arrival. */
static int cmp_order(const void *a, const void *b)
{
	const struct pk__xsample *x = ((const struct order *)a)->s, *y = ((const struct order *)b)->s;
	size_t i = ((const struct order *)a)->idx, j = ((const struct order *)b)->idx;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->has_time && y->has_time && x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* speedscope's name for a unit: it knows time units and bytes. */
static const char *unit_of(const char *unit)
{
	static const char *const known[] = { "nanoseconds", "microseconds", "milliseconds", "seconds",
					     "bytes" };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(unit, known[i]))
			return unit;
	return "none";
}

/* The shared frames: one per label; *index maps label id -> frame index. */
static int frames(const struct pk_exporter *ex, FILE *f, uint32_t **index)
{
	uint32_t *ix = pk__calloc(ex->nr_strs, sizeof(*ix)), nr = 0;

	if (!ix)
		return pk__error_nomem("a speedscope profile");
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"perfkit\",\"name\":\"perfkit profile\",\"activeProfileIndex\":0,"
	      "\"shared\":{\"frames\":[", f);
	for (size_t i = 1; i < ex->nr_frames; i++) {
		const struct pk__xframe *x = &ex->frames[i];

		if (ix[x->label])
			continue;
		ix[x->label] = ++nr;
		fputs(nr > 1 ? ",{\"name\":" : "{\"name\":", f);
		pk__export_json_str(f, pk__export_str(ex, x->label));
		if (x->file) {
			fputs(",\"file\":", f);
			pk__export_json_str(f, pk__export_str(ex, x->file));
			if (x->line)
				fprintf(f, ",\"line\":%u", x->line);
		}
		fputc('}', f);
	}
	fputs("]},\"profiles\":[", f);
	*index = ix;
	return 0;
}

/* Output for the samples and weights, written in big pieces: the profile
 * is most of the file, and fprintf per number was most of its cost. */
struct obuf {
	FILE *f;
	size_t len;
	char b[1 << 16];
};

static void ob_flush(struct obuf *o)
{
	if (o->len)
		fwrite(o->b, 1, o->len, o->f);
	o->len = 0;
}

/* Room for n bytes (n <= sizeof(o->b)) at o->b + o->len. */
static char *ob_room(struct obuf *o, size_t n)
{
	if (o->len + n > sizeof(o->b))
		ob_flush(o);
	return o->b + o->len;
}

static void ob_putc(struct obuf *o, char c)
{
	*ob_room(o, 1) = c;
	o->len++;
}

/* v in decimal, ending at end; the first digit's address. */
static char *dec_back(char *end, uint64_t v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

static void ob_u64(struct obuf *o, uint64_t v)
{
	char d[20], *p = dec_back(d + sizeof(d), v);

	memcpy(ob_room(o, 20), p, (size_t)(d + sizeof(d) - p));
	o->len += (size_t)(d + sizeof(d) - p);
}

/* The frame indices of `node`'s stack, root first: written backwards from
 * the leaf into `to`, which holds `cap` bytes (10 digits and a comma a
 * frame); the text's start. */
static char *stack_text(const struct pk_exporter *ex, uint32_t node, const uint32_t *ix, char *to, size_t cap)
{
	char *q = to + cap;

	for (uint32_t n = node;;) {
		const struct pk__xnode *x = &ex->nodes[n];

		q = dec_back(q, ix[ex->frames[x->frame].label] - 1);
		if (!(n = x->parent))
			return q;
		*--q = ',';
	}
}

static int put_stack(const struct pk_exporter *ex, struct obuf *o, uint32_t node, const uint32_t *ix)
{
	size_t cap = 11;
	char *to, *q;

	for (uint32_t n = node; ex->nodes[n].parent; n = ex->nodes[n].parent)
		cap += 11;
	if (cap <= sizeof(o->b) / 2) {
		to = ob_room(o, cap);
		q = stack_text(ex, node, ix, to, cap);
		memmove(to, q, (size_t)(to + cap - q));
		o->len += (size_t)(to + cap - q);
		return 0;
	}
	if (!(to = malloc(cap)))	/* deeper than a few thousand frames */
		return pk__error_nomem("a speedscope profile");
	q = stack_text(ex, node, ix, to, cap);
	ob_flush(o);
	fwrite(q, 1, (size_t)(to + cap - q), o->f);
	free(to);
	return 0;
}

/* One profile: samples o[0..n) of one thread and event. */
static int profile(const struct pk_exporter *ex, struct obuf *ob, const struct order *o, size_t n,
		   const uint32_t *ix, bool first)
{
	const struct pk__xsample *s0 = o[0].s;
	uint64_t total = 0;
	char *name;
	int err = 0;

	if (asprintf(&name, "%s (%u/%u) %s", pk__export_str(ex, s0->comm), s0->pid, s0->tid,
		     ex->events[s0->ev].name) < 0)
		return pk__error_nomem("a speedscope profile");
	ob_flush(ob);
	fputs(first ? "{\"type\":\"sampled\",\"name\":" : ",{\"type\":\"sampled\",\"name\":", ob->f);
	pk__export_json_str(ob->f, name);
	free(name);
	fprintf(ob->f, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[", unit_of(ex->events[s0->ev].unit));
	for (size_t i = 0; !err && i < n; i++) {
		if (i)
			ob_putc(ob, ',');
		ob_putc(ob, '[');
		err = put_stack(ex, ob, o[i].s->node, ix);
		ob_putc(ob, ']');
	}
	ob_putc(ob, ']');
	ob_flush(ob);
	fputs(",\"weights\":[", ob->f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			ob_putc(ob, ',');
		ob_u64(ob, o[i].s->weight);
		total += o[i].s->weight;
	}
	ob_flush(ob);
	fprintf(ob->f, "],\"endValue\":%llu}", (unsigned long long)total);
	return err;
}

/* A group of samples: one event, process and thread. */
struct group {
	uint32_t ev, pid, tid;
	size_t count;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Whether every sample has a time no earlier than the one before it (the
 * reader's time order), so that cmp_order's order is the arrival order
 * within each event, process and thread. */
static bool in_time_order(const struct pk_exporter *ex)
{
	for (size_t i = 0; i < ex->nr_samples; i++)
		if (!ex->samples[i].has_time || (i && ex->samples[i].time < ex->samples[i - 1].time))
			return false;
	return true;
}

/* The group of sample s in g[0..*nr) (cap slots, a power of two, hashed
 * open addressing); a new group counts from 0. */
static struct group *group_of(struct group *g, size_t cap, const struct pk__xsample *s)
{
	size_t h = ((size_t)s->tid * 0x9E3779B1u ^ (size_t)s->pid * 0x85EBCA77u ^ s->ev) & (cap - 1);

	while (g[h].count && (g[h].ev != s->ev || g[h].pid != s->pid || g[h].tid != s->tid))
		h = (h + 1) & (cap - 1);
	g[h].ev = s->ev;
	g[h].pid = s->pid;
	g[h].tid = s->tid;
	return &g[h];
}

/* The samples in cmp_order's order, into o: for samples in time order,
 * grouped by a count of each group's samples (a qsort of every sample
 * was a tenth of the export); otherwise sorted. */
static int order_samples(const struct pk_exporter *ex, struct order *o)
{
	size_t cap = 16, nr = 0, at = 0;
	struct group *g;

	for (size_t i = 0; i < ex->nr_samples; i++)
		o[i] = (struct order){ &ex->samples[i], i };
	if (!in_time_order(ex)) {
		qsort(o, ex->nr_samples, sizeof(*o), cmp_order);
		return 0;
	}
	while (cap < 2 * ex->nr_samples)
		cap *= 2;
	if (!(g = pk__calloc(cap, sizeof(*g))))
		return pk__error_nomem("a speedscope profile");
	for (size_t i = 0; i < ex->nr_samples; i++)
		group_of(g, cap, &ex->samples[i])->count++;
	for (size_t i = 0; i < cap; i++)
		if (g[i].count)
			g[nr++] = g[i];
	qsort(g, nr, sizeof(*g), cmp_group);
	for (size_t i = 0; i < nr; i++) {	/* counts become start offsets */
		size_t c = g[i].count;

		g[i].count = at;
		at += c;
	}
	for (size_t i = 0; i < ex->nr_samples; i++) {
		const struct pk__xsample *s = &ex->samples[i];
		struct group key = { s->ev, s->pid, s->tid, 0 };
		struct group *hit = bsearch(&key, g, nr, sizeof(*g), cmp_group);

		o[hit->count++] = (struct order){ s, i };
	}
	free(g);
	return 0;
}

int pk__export_speedscope(const struct pk_exporter *ex, FILE *f)
{
	struct order *o = pk__calloc(ex->nr_samples + 1, sizeof(*o));
	struct obuf *ob = pk__calloc(1, sizeof(*ob));
	uint32_t *ix = NULL;
	int err;

	if (!o || !ob) {
		free(o);
		free(ob);
		return pk__error_nomem("a speedscope profile");
	}
	ob->f = f;
	if ((err = frames(ex, f, &ix)) < 0)
		goto out;
	if ((err = order_samples(ex, o)) < 0)
		goto out;
	for (size_t i = 0, j; !err && i < ex->nr_samples; i = j) {
		for (j = i + 1; j < ex->nr_samples && o[j].s->ev == o[i].s->ev && o[j].s->pid == o[i].s->pid &&
				o[j].s->tid == o[i].s->tid; j++)
			;
		err = profile(ex, ob, o + i, j - i, ix, i == 0);
	}
	fputs("]}\n", f);
out:
	free(ix);
	free(ob);
	free(o);
	return err;
}
