/* SPDX-License-Identifier: MIT */
/*
 * script-read.c - perf script's view of PERF_SAMPLE_READ samples: perf
 * 6.1's session delivers such a sample once per counter it reads (the
 * leader of a `{a,b}:S` group and every member, or the one counter of a
 * single read), each as a sample of that counter's own event with the
 * counter's growth since the previous sample of the same id as its period,
 * and drops the counters that did not grow.  This keeps the last value of
 * every id of the file, sorted for a binary search.
 */
#include "script-fields.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct read_id {
	uint64_t id;
	size_t event;		/* the event index in the reader */
	uint64_t last;		/* the value at this id's previous sample */
};

struct script_reads {
	struct read_id *ids;
	size_t nr;
	struct pk_count *counts;	/* room for cap counts, reused */
	size_t cap;
};

static int cmp_id(const void *a, const void *b)
{
	const struct read_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int script_reads_new(const struct pk_data_reader *r, struct script_reads **out)
{
	struct script_reads *sr = calloc(1, sizeof(*sr));
	size_t nr_events = pk_data_reader_nr_events(r), total = 0, nr;

	if (!sr)
		return -ENOMEM;
	for (size_t i = 0; i < nr_events; i++) {
		pk_data_reader_ids(r, i, &nr);
		total += nr;
	}
	if (total && !(sr->ids = calloc(total, sizeof(*sr->ids)))) {
		free(sr);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr_events; i++) {
		const uint64_t *ids = pk_data_reader_ids(r, i, &nr);

		for (size_t k = 0; k < nr; k++)
			sr->ids[sr->nr++] = (struct read_id){ .id = ids[k], .event = i };
	}
	qsort(sr->ids, sr->nr, sizeof(*sr->ids), cmp_id);
	*out = sr;
	return 0;
}

void script_reads_free(struct script_reads *sr)
{
	if (!sr)
		return;
	free(sr->ids);
	free(sr->counts);
	free(sr);
}

static struct read_id *find_id(struct script_reads *sr, uint64_t id)
{
	struct read_id key = { .id = id };

	return sr->nr ? bsearch(&key, sr->ids, sr->nr, sizeof(key), cmp_id) : NULL;
}

/* The counts of the sample, in sr->counts; their number or -errno. */
static int parse_counts(struct script_reads *sr, const struct perf_event_attr *a,
			const struct pk_sample *s)
{
	size_t want = s->read.nr ? s->read.nr : 1;

	if (want > sr->cap) {
		struct pk_count *n = realloc(sr->counts, want * sizeof(*n));

		if (!n)
			return -ENOMEM;
		sr->counts = n;
		sr->cap = want;
	}
	sr->counts[0].size = sizeof(struct pk_count);
	return pk_count_parse(a->read_format, s->read.data, s->read.len, sr->counts, sr->cap);
}

int script_print_member(FILE *f, struct script_ctx *c, const struct pk_data_reader *r,
			const struct pk_record *rec, size_t ev, uint64_t id, uint64_t period)
{
	struct pk_record one = *rec;

	one.sample.id = id;
	one.sample.period = period;
	one.sample.fields |= PERF_SAMPLE_PERIOD;
	return script_print_sample(f, c, pk_data_reader_attr(r, ev), pk_data_reader_name(r, ev), &one);
}

int script_print_read(FILE *f, struct script_ctx *c, struct script_reads *sr,
		      const struct pk_data_reader *r, const struct perf_event_attr *a,
		      const struct pk_record *rec)
{
	int n = parse_counts(sr, a, &rec->sample), err;

	if (n < 0)
		return n;
	for (int i = 0; i < n && (size_t)i < sr->cap; i++) {
		struct read_id *rid = find_id(sr, sr->counts[i].id);
		uint64_t grew;

		/* perf counts a sample of an id it does not know, prints none */
		if (!rid)
			continue;
		grew = sr->counts[i].value - rid->last;
		rid->last = sr->counts[i].value;
		if (!grew)
			continue;
		err = script_print_member(f, c, r, rec, rid->event, rid->id, grew);
		if (err < 0)
			return err;
	}
	return 0;
}
