/* SPDX-License-Identifier: MIT */
/*
 * diff.c - two histograms compared as perf diff 6.1 compares them: each
 * side's entries collapsed by their keys' names (perf diff's collapse
 * takes a symbol by its name alone, so entries of one name merge and
 * unresolved ones of one object merge), the sides paired by those names,
 * the new side's unpaired entries added as perf's zero-period "dummy"
 * rows, each pair's delta, ratio or weighted difference, and the rows in
 * perf diff's order: the computed value (with -o 1), the baseline period,
 * the computed value again, then the keys.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pk_diff {
	struct pk_diff_entry *rows;
	size_t nr;
	uint64_t base_total, pair_total;
	enum pk_diff_compute compute;
	unsigned int order;
	const enum pk_hist_key *keys;
	size_t nr_keys;
};

/* One side's entries of one key: the first entry (in the histogram's
 * order) and the sums. */
struct group {
	const struct pk_hist_entry *first;
	uint64_t period, samples;
};

static int cmp_num(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_keys(const struct pk_diff *d, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	for (size_t i = 0; i < d->nr_keys; i++)
		if ((c = pk__hist_cmp_key(d->keys[i], a, b)))
			return c;
	return 0;
}

/* Sorting one side's entries by key, ties by their place in the histogram. */
struct by_key {
	const struct pk_diff *d;
	const struct pk_hist *h;
};

static int cmp_idx(const void *pa, const void *pb, void *arg)
{
	const struct by_key *k = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_keys(k->d, pk_hist_get(k->h, a), pk_hist_get(k->h, b));

	return c ? c : cmp_num((int64_t)a, (int64_t)b);
}

/* h's entries merged by key into *out (sorted by key), *nr of them. */
static int collapse(const struct pk_diff *d, const struct pk_hist *h, struct group **out, size_t *nr)
{
	size_t n = pk_hist_nr(h), k = 0;
	size_t *idx = pk__calloc(n ? n : 1, sizeof(*idx));
	struct group *g = pk__calloc(n ? n : 1, sizeof(*g));
	struct by_key arg = { d, h };

	if (!idx || !g) {
		free(idx);
		free(g);
		return pk__error_nomem("a profile comparison");
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_idx, &arg);
	for (size_t i = 0; i < n; i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, idx[i]);

		if (!k || cmp_keys(d, g[k - 1].first, e))
			g[k++].first = e;
		g[k - 1].period += e->period;
		g[k - 1].samples += e->nr_samples;
	}
	free(idx);
	*out = g;
	*nr = k;
	return 0;
}

/* perf's period_percent: of a total of 0 there is no share. */
static double percent(uint64_t period, uint64_t total)
{
	return total ? (double)period * 100.0 / (double)total : 0.0;
}

static void compute(struct pk_diff_entry *r, const struct pk_diff_opts *o, uint64_t base_total,
		    uint64_t pair_total)
{
	/* perf divides by the total unguarded: of an empty total (a filter
	 * that hides a whole file, with --percentage relative) the delta is NaN. */
	r->delta = (double)r->pair_period * 100.0 / (double)pair_total -
		   (double)r->base_period * 100.0 / (double)base_total;
	r->ratio = (double)r->pair_period / (double)(r->base_period ? r->base_period : 1);
	/* perf multiplies its u64 periods by s64 weights in u64: the same wrap. */
	r->wdiff = (int64_t)(r->pair_period * (uint64_t)o->w2 - r->base_period * (uint64_t)o->w1);
}

static void add_row(struct pk_diff *d, const struct group *base, const struct group *pair)
{
	struct pk_diff_entry *r = &d->rows[d->nr++];

	memset(r, 0, sizeof(*r));
	if (base) {
		r->base = base->first;
		r->base_period = base->period;
		r->base_samples = base->samples;
	}
	if (pair) {
		r->pair = pair->first;
		r->pair_period = pair->period;
		r->pair_samples = pair->samples;
	}
}

/* The two sides, sorted by key, joined: pairs, the old side's alone, and
 * (without -b) the new side's alone; -b keeps the pairs only. */
static void join(struct pk_diff *d, const struct group *b, size_t nb, const struct group *p, size_t np,
		 bool baseline_only)
{
	size_t i = 0, j = 0;

	while (i < nb || j < np) {
		int c = i == nb ? 1 : j == np ? -1 : cmp_keys(d, b[i].first, p[j].first);

		if (!c)
			add_row(d, &b[i++], &p[j++]);
		else if (c < 0 && !baseline_only)
			add_row(d, &b[i++], NULL);
		else if (c > 0 && !baseline_only)
			add_row(d, NULL, &p[j++]);
		else
			c < 0 ? i++ : j++;
	}
}

static int cmp_double_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

/*
 * perf's comparison of the computed values: rows with a pair first; with
 * `dummy_rule` (the -o column), for the ratio and wdiff, rows with a base
 * before those without; then the value, largest first.
 */
static int cmp_compute(const struct pk_diff *d, const struct pk_diff_entry *a, const struct pk_diff_entry *b,
		       bool dummy_rule)
{
	if (!a->pair || !b->pair)
		return !a->pair && !b->pair ? 0 : a->pair ? -1 : 1;
	if (dummy_rule && d->compute != PK_DIFF_DELTA && d->compute != PK_DIFF_DELTA_ABS &&
	    (!a->base || !b->base))
		return !a->base && !b->base ? 0 : a->base ? -1 : 1;
	switch (d->compute) {
	case PK_DIFF_DELTA: return cmp_double_desc(a->delta, b->delta);
	case PK_DIFF_DELTA_ABS: return cmp_double_desc(fabs(a->delta), fabs(b->delta));
	case PK_DIFF_RATIO: return cmp_double_desc(a->ratio, b->ratio);
	case PK_DIFF_WDIFF: return cmp_num(b->wdiff, a->wdiff);
	}
	return 0;
}

static const struct pk_hist_entry *key_entry(const struct pk_diff_entry *r)
{
	return r->base ? r->base : r->pair;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct pk_diff_entry *a = pa, *b = pb;
	const struct pk_diff *d = arg;
	int c;

	if (d->order == 1 && (c = cmp_compute(d, a, b, true)))
		return c;
	if (a->base_period != b->base_period)
		return a->base_period > b->base_period ? -1 : 1;
	if ((c = cmp_compute(d, a, b, false)))
		return c;
	return cmp_keys(d, key_entry(a), key_entry(b));
}

static int check(const struct pk_hist *base, const struct pk_hist *other, const struct pk_diff_opts *o)
{
	size_t nb, np;
	const enum pk_hist_key *kb = pk__hist_keys(base, &nb), *kp = pk__hist_keys(other, &np);

	if (nb != np || memcmp(kb, kp, nb * sizeof(*kb)))
		return pk__error(-EINVAL, "a profile comparison", "the two histograms have different sort keys");
	if (o->size < sizeof(*o))
		return pk__error(-EINVAL, "a profile comparison", "options of size %zu (%zu expected)", o->size,
				 sizeof(*o));
	if ((unsigned)o->compute > PK_DIFF_WDIFF)
		return pk__error(-EINVAL, "a profile comparison", "unknown computation %d", (int)o->compute);
	if (o->compute == PK_DIFF_WDIFF && (!o->w1 || !o->w2))
		return pk__error(-EINVAL, "a profile comparison", "a weight of 0 for wdiff");
	if (o->order > 1)
		return pk__error(-EINVAL, "a profile comparison", "order %u: two files have columns 0 and 1",
				 o->order);
	return 0;
}

int pk_diff_new(const struct pk_hist *base, const struct pk_hist *other, const struct pk_diff_opts *opts,
		struct pk_diff **out)
{
	struct pk_diff_opts def = { .size = sizeof(def), .compute = PK_DIFF_DELTA_ABS, .w1 = 1, .w2 = 1, .order = 1 };
	const struct pk_diff_opts *o = opts ? opts : &def;
	struct group *gb = NULL, *gp = NULL;
	size_t nb = 0, np = 0;
	struct pk_diff *d;
	uint64_t base_all;
	int err;

	if ((err = check(base, other, o)) < 0)
		return err;
	base_all = o->relative ? pk__hist_shown_period(base) : pk_hist_total_period(base);
	if (!(d = pk__calloc(1, sizeof(*d))))
		return pk__error_nomem("a profile comparison");
	d->compute = o->compute;
	d->order = o->order;
	d->keys = pk__hist_keys(base, &d->nr_keys);
	d->pair_total = o->relative ? pk__hist_shown_period(other) : pk_hist_total_period(other);
	if ((err = collapse(d, base, &gb, &nb)) < 0 || (err = collapse(d, other, &gp, &np)) < 0)
		goto fail;
	if (!(d->rows = pk__calloc(nb + np + 1, sizeof(*d->rows)))) {
		err = pk__error_nomem("a profile comparison");
		goto fail;
	}
	join(d, gb, nb, gp, np, o->baseline_only);
	for (size_t i = 0; i < d->nr; i++) {
		/* The deltas take every old sample; the Baseline column, as perf
		 * prints it after -b, only the rows'. */
		if (d->rows[i].pair)
			compute(&d->rows[i], o, base_all, d->pair_total);
		if (!o->relative || !key_entry(&d->rows[i])->s.filtered)
			d->base_total += d->rows[i].base_period;
	}
	if (d->nr)
		qsort_r(d->rows, d->nr, sizeof(*d->rows), cmp_rows, d);
	free(gb);
	free(gp);
	*out = d;
	return 0;
fail:
	free(gb);
	free(gp);
	pk_diff_free(d);
	return err;
}

void pk_diff_free(struct pk_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d);
}

size_t pk_diff_nr(const struct pk_diff *d)
{
	return d->nr;
}

const struct pk_diff_entry *pk_diff_get(const struct pk_diff *d, size_t idx)
{
	return idx < d->nr ? &d->rows[idx] : NULL;
}

uint64_t pk_diff_base_total(const struct pk_diff *d)
{
	return d->base_total;
}

uint64_t pk_diff_pair_total(const struct pk_diff *d)
{
	return d->pair_total;
}

double pk_diff_base_percent(const struct pk_diff *d, const struct pk_diff_entry *e)
{
	return e->base ? percent(e->base_period, d->base_total) : 0.0;
}
