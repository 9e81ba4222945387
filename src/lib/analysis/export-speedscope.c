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

/* The frame indices of `node`'s stack, root first. */
static void put_stack(const struct pk_exporter *ex, FILE *f, uint32_t node, const uint32_t *ix)
{
	const struct pk__xnode *n = &ex->nodes[node];

	if (n->parent) {
		put_stack(ex, f, n->parent, ix);
		fputc(',', f);
	}
	fprintf(f, "%u", ix[ex->frames[n->frame].label] - 1);
}

/* One profile: samples o[0..n) of one thread and event. */
static int profile(const struct pk_exporter *ex, FILE *f, const struct order *o, size_t n,
		   const uint32_t *ix, bool first)
{
	const struct pk__xsample *s0 = o[0].s;
	uint64_t total = 0;
	char *name;

	if (asprintf(&name, "%s (%u/%u) %s", pk__export_str(ex, s0->comm), s0->pid, s0->tid,
		     ex->events[s0->ev].name) < 0)
		return pk__error_nomem("a speedscope profile");
	fputs(first ? "{\"type\":\"sampled\",\"name\":" : ",{\"type\":\"sampled\",\"name\":", f);
	pk__export_json_str(f, name);
	free(name);
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[", unit_of(ex->events[s0->ev].unit));
	for (size_t i = 0; i < n; i++) {
		fputc(i ? ',' : '[', f);
		if (i)
			fputc('[', f);
		put_stack(ex, f, o[i].s->node, ix);
		fputc(']', f);
	}
	fputs("],\"weights\":[", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, i ? ",%llu" : "%llu", (unsigned long long)o[i].s->weight);
		total += o[i].s->weight;
	}
	fprintf(f, "],\"endValue\":%llu}", (unsigned long long)total);
	return 0;
}

int pk__export_speedscope(const struct pk_exporter *ex, FILE *f)
{
	struct order *o = pk__calloc(ex->nr_samples + 1, sizeof(*o));
	uint32_t *ix = NULL;
	int err;

	if (!o)
		return pk__error_nomem("a speedscope profile");
	if ((err = frames(ex, f, &ix)) < 0) {
		free(o);
		return err;
	}
	for (size_t i = 0; i < ex->nr_samples; i++)
		o[i] = (struct order){ &ex->samples[i], i };
	qsort(o, ex->nr_samples, sizeof(*o), cmp_order);
	for (size_t i = 0, j; !err && i < ex->nr_samples; i = j) {
		for (j = i + 1; j < ex->nr_samples && o[j].s->ev == o[i].s->ev && o[j].s->pid == o[i].s->pid &&
				o[j].s->tid == o[i].s->tid; j++)
			;
		err = profile(ex, f, o + i, j - i, ix, i == 0);
	}
	fputs("]}\n", f);
	free(ix);
	free(o);
	return err;
}
