/* SPDX-License-Identifier: MIT */
/*
 * diff.c - two or more histograms compared as perf diff 6.1 compares them: each
 * side's entries collapsed by their keys' names (perf diff's collapse
 * takes a symbol by its name alone, so entries of one name merge and
 * unresolved ones of one object merge: histograms keyed by name on one
 * interner, pk_hist_set_by_name, come collapsed and pair by hist.c's own
 * key comparison; others by their names here), the sides paired by those names,
 * the later files' unpaired entries added as perf's zero-period "dummy"
 * rows, each pair's delta, ratio or weighted difference, and the rows in
 * perf diff's order: file -o N's computed value, the baseline period,
 * each later file's computed value, then the keys (PK_DIFF_BASELINE: the
 * baseline period, then the keys).
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row and its later files' sides; rows are sorted, pairs stay put. */
struct row {
	struct pk_diff_entry e;		/* first: pk_diff_get hands out &row->e */
	struct pk_diff_pair *p;		/* p[f - 1]: file f's side, f = 1 .. nr_files - 1 */
};

struct pk_diff {
	struct row *rows;
	struct pk_diff_pair *pairs;
	size_t nr, nr_files;
	uint64_t base_total, *totals;	/* totals[f]: file f's, f >= 1 */
	enum pk_diff_compute compute;
	unsigned int order;
	const enum pk_hist_key *keys;
	size_t nr_keys;
	const struct pk_hist *by_name;	/* every histogram keyed by name on its interner */
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

/* Whether a and b are one key: for histograms keyed by name on one
 * interner, hist.c's comparison of their keys' pointers; else their names. */
static bool same_key(const struct pk_diff *d, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	return d->by_name ? pk__hist_same_key(d->by_name, a, b) : !cmp_keys(d, a, b);
}

/* Sorting one side's entries by key, ties by their place in the histogram
 * but unresolved symbols' by address: perf's collapse keeps the entry of
 * the lowest (sort__sym_cmp's order of its input tree). */
struct by_key {
	const struct pk_diff *d;
	const struct pk_hist *h;
};

static int cmp_idx(const void *pa, const void *pb, void *arg)
{
	const struct by_key *k = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct pk_hist_entry *ea = pk_hist_get(k->h, a), *eb = pk_hist_get(k->h, b);
	int c = cmp_keys(k->d, ea, eb);
	bool by_ip = false;

	for (size_t i = 0; i < k->d->nr_keys; i++)
		by_ip |= k->d->keys[i] == PK_HIST_KEY_SYM && !ea->s.sym && !eb->s.sym;
	if (!c && by_ip && ea->s.ip != eb->s.ip)
		return ea->s.ip < eb->s.ip ? -1 : 1;
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

		if (!k || !same_key(d, g[k - 1].first, e))
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

static void compute(struct pk_diff_pair *p, uint64_t base_period, const struct pk_diff_opts *o,
		    uint64_t base_total, uint64_t pair_total)
{
	/* perf divides by the total unguarded: of an empty total (a filter
	 * that hides a whole file, with --percentage relative) the delta is NaN. */
	p->delta = (double)p->period * 100.0 / (double)pair_total -
		   (double)base_period * 100.0 / (double)base_total;
	p->ratio = (double)p->period / (double)(base_period ? base_period : 1);
	/* perf multiplies its u64 periods by s64 weights in u64: the same wrap. */
	p->wdiff = (int64_t)(p->period * (uint64_t)o->w2 - base_period * (uint64_t)o->w1);
}

/* The entry that names row r: its base, else its first later file's. */
static const struct pk_hist_entry *row_key(const struct pk_diff *d, const struct row *r)
{
	for (size_t f = 1; !r->e.base && f < d->nr_files; f++)
		if (r->p[f - 1].entry)
			return r->p[f - 1].entry;
	return r->e.base;
}

/* The smallest key among the files' next groups. */
static const struct pk_hist_entry *min_head(const struct pk_diff *d, struct group *const *g, const size_t *ng,
					    const size_t *pos)
{
	const struct pk_hist_entry *min = NULL;

	for (size_t f = 0; f < d->nr_files; f++)
		if (pos[f] < ng[f] && (!min || cmp_keys(d, g[f][pos[f]].first, min) < 0))
			min = g[f][pos[f]].first;
	return min;
}

/*
 * The files' groups, each sorted by key, joined into rows as perf's
 * hists__match and hists__link do: a row per key any file has (an old
 * file's key missing, perf's "dummy"); -b keeps the rows of the old file
 * found in some other.
 */
static void join(struct pk_diff *d, struct group *const *g, const size_t *ng, size_t *pos, bool baseline_only)
{
	const struct pk_hist_entry *min;

	while ((min = min_head(d, g, ng, pos))) {
		struct row *r = &d->rows[d->nr];
		bool paired = false;

		r->p = &d->pairs[d->nr * (d->nr_files - 1)];
		for (size_t f = 0; f < d->nr_files; f++) {
			const struct group *x = pos[f] < ng[f] ? &g[f][pos[f]] : NULL;

			if (!x || !same_key(d, x->first, min))
				continue;
			pos[f]++;
			if (!f) {
				r->e.base = x->first;
				r->e.base_period = x->period;
				r->e.base_samples = x->samples;
				continue;
			}
			r->p[f - 1] = (struct pk_diff_pair){ .entry = x->first, .period = x->period,
							     .samples = x->samples };
			paired = true;
		}
		if (baseline_only && (!r->e.base || !paired)) {
			memset(r->p, 0, (d->nr_files - 1) * sizeof(*r->p));
			memset(&r->e, 0, sizeof(r->e));
			continue;
		}
		d->nr++;
	}
}

static int cmp_double_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

static int cmp_value(const struct pk_diff *d, const struct pk_diff_pair *a, const struct pk_diff_pair *b)
{
	switch (d->compute) {
	case PK_DIFF_DELTA: return cmp_double_desc(a->delta, b->delta);
	case PK_DIFF_DELTA_ABS: return cmp_double_desc(fabs(a->delta), fabs(b->delta));
	case PK_DIFF_RATIO: return cmp_double_desc(a->ratio, b->ratio);
	case PK_DIFF_WDIFF: return cmp_num(b->wdiff, a->wdiff);
	case PK_DIFF_BASELINE: return 0;
	}
	return 0;
}

static bool has_pairs(const struct pk_diff *d, const struct row *r)
{
	for (size_t f = 1; f < d->nr_files; f++)
		if (r->p[f - 1].entry)
			return true;
	return false;
}

/*
 * perf's comparison of file f's computed values.  As the -o column
 * (`order`): rows with a pair in f first, then for the ratio and wdiff
 * rows with a base before those without, then the value, largest first.
 * As a column: rows with any pair first, then rows with a pair in f,
 * then the value.
 */
static int cmp_compute(const struct pk_diff *d, const struct row *a, const struct row *b, size_t f, bool order)
{
	const struct pk_diff_pair *pa = &a->p[f - 1], *pb = &b->p[f - 1];

	if (!order) {
		bool ha = has_pairs(d, a), hb = has_pairs(d, b);

		if (!ha || !hb)
			return ha == hb ? 0 : ha ? -1 : 1;
	}
	if (!pa->entry || !pb->entry)
		return !pa->entry && !pb->entry ? 0 : pa->entry ? -1 : 1;
	if (order && d->compute != PK_DIFF_DELTA && d->compute != PK_DIFF_DELTA_ABS &&
	    (!a->e.base || !b->e.base))
		return !a->e.base && !b->e.base ? 0 : a->e.base ? -1 : 1;
	return cmp_value(d, pa, pb);
}

/* perf diff's sort list: the -o column, the baseline period, each later
 * file's column, the keys; PK_DIFF_BASELINE's columns are perf's
 * hist_entry__cmp_nop, so they say nothing (not even which rows have pairs). */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct row *a = pa, *b = pb;
	const struct pk_diff *d = arg;
	bool nop = d->compute == PK_DIFF_BASELINE;
	int c;

	if (!nop && d->order && (c = cmp_compute(d, a, b, d->order, true)))
		return c;
	if (a->e.base_period != b->e.base_period)
		return a->e.base_period > b->e.base_period ? -1 : 1;
	for (size_t f = 1; !nop && f < d->nr_files; f++)
		if ((c = cmp_compute(d, a, b, f, false)))
			return c;
	return cmp_keys(d, row_key(d, a), row_key(d, b));
}

static int check(const struct pk_hist *const *hists, size_t nr, const struct pk_diff_opts *o)
{
	size_t nb, np;
	const enum pk_hist_key *kb, *kp;

	if (nr < 2)
		return pk__error(-EINVAL, "a profile comparison", "%zu histograms: at least two", nr);
	kb = pk__hist_keys(hists[0], &nb);
	for (size_t f = 1; f < nr; f++) {
		kp = pk__hist_keys(hists[f], &np);
		if (nb != np || memcmp(kb, kp, nb * sizeof(*kb)))
			return pk__error(-EINVAL, "a profile comparison",
					 "histograms 0 and %zu have different sort keys", f);
	}
	if (o->size < sizeof(*o))
		return pk__error(-EINVAL, "a profile comparison", "options of size %zu (%zu expected)", o->size,
				 sizeof(*o));
	if ((unsigned)o->compute > PK_DIFF_BASELINE)
		return pk__error(-EINVAL, "a profile comparison", "unknown computation %d", (int)o->compute);
	if (o->compute == PK_DIFF_WDIFF && (!o->w1 || !o->w2))
		return pk__error(-EINVAL, "a profile comparison", "a weight of 0 for wdiff");
	if (o->order >= nr)
		return pk__error(-EINVAL, "a profile comparison", "order %u: %zu files have columns 0 to %zu",
				 o->order, nr, nr - 1);
	return 0;
}

/* Each row's values, row->e filled from file 1's side, and the Baseline total. */
static void finish_rows(struct pk_diff *d, const struct pk_diff_opts *o, uint64_t base_all)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct row *r = &d->rows[i];

		for (size_t f = 1; f < d->nr_files; f++)
			if (r->p[f - 1].entry)
				compute(&r->p[f - 1], r->e.base_period, o, base_all, d->totals[f]);
		r->e.pair = r->p[0].entry;
		r->e.pair_period = r->p[0].period;
		r->e.pair_samples = r->p[0].samples;
		r->e.delta = r->p[0].delta;
		r->e.ratio = r->p[0].ratio;
		r->e.wdiff = r->p[0].wdiff;
		/* The deltas take every old sample; the Baseline column, as perf
		 * prints it after -b, only the rows'. */
		if (!o->relative || !row_key(d, r)->s.filtered)
			d->base_total += r->e.base_period;
	}
}

/* Every histogram collapsed, joined, computed and sorted into d. */
static int build(struct pk_diff *d, const struct pk_hist *const *hists, const struct pk_diff_opts *o)
{
	size_t nf = d->nr_files, total = 0;
	struct group **g = pk__calloc(nf, sizeof(*g));
	size_t *ng = pk__calloc(nf, sizeof(*ng)), *pos = pk__calloc(nf, sizeof(*pos));
	int err = 0;

	if (!g || !ng || !pos)
		err = pk__error_nomem("a profile comparison");
	for (size_t f = 0; !err && f < nf; f++) {
		d->totals[f] = o->relative ? pk__hist_shown_period(hists[f]) : pk_hist_total_period(hists[f]);
		if (!(err = collapse(d, hists[f], &g[f], &ng[f])))
			total += ng[f];
	}
	if (!err && (!(d->rows = pk__calloc(total + 1, sizeof(*d->rows))) ||
		     !(d->pairs = pk__calloc((total + 1) * (nf - 1), sizeof(*d->pairs)))))
		err = pk__error_nomem("a profile comparison");
	if (!err) {
		join(d, g, ng, pos, o->baseline_only);
		finish_rows(d, o, d->totals[0]);
		if (d->nr)
			qsort_r(d->rows, d->nr, sizeof(*d->rows), cmp_rows, d);
	}
	for (size_t f = 0; g && f < nf; f++)
		free(g[f]);
	free(g);
	free(ng);
	free(pos);
	return err;
}

int pk_diff_new_files(const struct pk_hist *const *hists, size_t nr, const struct pk_diff_opts *opts,
		      struct pk_diff **out)
{
	struct pk_diff_opts def = { .size = sizeof(def), .compute = PK_DIFF_DELTA_ABS, .w1 = 1, .w2 = 1, .order = 1 };
	const struct pk_diff_opts *o = opts ? opts : &def;
	struct pk_diff *d;
	int err;

	if ((err = check(hists, nr, o)) < 0)
		return err;
	if (!(d = pk__calloc(1, sizeof(*d))) || !(d->totals = pk__calloc(nr, sizeof(*d->totals)))) {
		pk_diff_free(d);
		return pk__error_nomem("a profile comparison");
	}
	d->nr_files = nr;
	d->compute = o->compute;
	d->order = o->order;
	d->keys = pk__hist_keys(hists[0], &d->nr_keys);
	d->by_name = pk__hist_names(hists[0]) ? hists[0] : NULL;
	for (size_t f = 1; f < nr; f++)
		if (pk__hist_names(hists[f]) != pk__hist_names(hists[0]))
			d->by_name = NULL;
	if ((err = build(d, hists, o)) < 0) {
		pk_diff_free(d);
		return err;
	}
	*out = d;
	return 0;
}

int pk_diff_new(const struct pk_hist *base, const struct pk_hist *other, const struct pk_diff_opts *o,
		struct pk_diff **out)
{
	const struct pk_hist *hists[] = { base, other };

	return pk_diff_new_files(hists, 2, o, out);
}

void pk_diff_free(struct pk_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->pairs);
	free(d->totals);
	free(d);
}

size_t pk_diff_nr(const struct pk_diff *d)
{
	return d->nr;
}

const struct pk_diff_entry *pk_diff_get(const struct pk_diff *d, size_t idx)
{
	return idx < d->nr ? &d->rows[idx].e : NULL;
}

size_t pk_diff_nr_files(const struct pk_diff *d)
{
	return d->nr_files;
}

const struct pk_diff_pair *pk_diff_pair_get(const struct pk_diff *d, const struct pk_diff_entry *e, size_t file)
{
	const struct row *r = (const struct row *)e;	/* e is the first member of its row */

	return file >= 1 && file < d->nr_files ? &r->p[file - 1] : NULL;
}

const struct pk_hist_entry *pk_diff_key(const struct pk_diff *d, const struct pk_diff_entry *e)
{
	return row_key(d, (const struct row *)e);
}

uint64_t pk_diff_base_total(const struct pk_diff *d)
{
	return d->base_total;
}

uint64_t pk_diff_pair_total(const struct pk_diff *d)
{
	return d->totals[1];
}

uint64_t pk_diff_file_total(const struct pk_diff *d, size_t file)
{
	return !file ? d->base_total : file < d->nr_files ? d->totals[file] : 0;
}

double pk_diff_base_percent(const struct pk_diff *d, const struct pk_diff_entry *e)
{
	return e->base ? percent(e->base_period, d->base_total) : 0.0;
}
