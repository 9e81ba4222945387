/* SPDX-License-Identifier: MIT */
/*
 * report-hier-marks.c - perf 6.1's hierarchy filter marks, replayed: perf
 * inserts the flat entries (filtered ones too) into the hierarchy in its
 * collapse order, each new entry copying its maker's filter bits, then,
 * per filter type, a level of the type's key (comm or pid for --comms,
 * --pid and --tid; dso; sym) keeps the bit and an unfiltered one clears
 * it on every ancestor, while another level sets it at the top and below
 * takes the parent's bit as it stands at the time.  An entry whose bit
 * stays set is hidden.  The result depends on that order whenever the
 * type's level does not decide the filter (--pid with the comm key: a
 * comm shared by processes), so it is replayed, not summarised.
 */
#include "report-hier.h"

#include <stdint.h>
#include <stdlib.h>

struct hier_rank {
	const struct pk_hist_entry *e;
	size_t rank;
};

struct hier_marks {
	size_t n, nk;
	struct hier_rank *by_ptr;	/* each leaf's rank in collapse order, by address */
	const struct pk_hist_entry **sorted;
	unsigned char *bits;		/* bits[rank * nk + level]: the entry that leaf made */
};

unsigned hier_key_types(enum pk_hist_key k)
{
	return k == PK_HIST_KEY_COMM || k == PK_HIST_KEY_PID ? HIER_F_THREAD :
	       k == PK_HIST_KEY_DSO ? HIER_F_DSO : k == PK_HIST_KEY_SYM ? HIER_F_SYM : 0;
}

/* qsort's: the keys and comparison of the sort under way. */
static const enum pk_hist_key *sort_keys;
static size_t sort_nk;
static hier_collapse_fn sort_collapse;

static int leaf_order(const void *pa, const void *pb)
{
	const struct pk_hist_entry *a = *(const struct pk_hist_entry *const *)pa;
	const struct pk_hist_entry *b = *(const struct pk_hist_entry *const *)pb;

	for (size_t k = 0; k < sort_nk; k++) {
		int c = sort_collapse(sort_keys[k], a, b);

		if (c)
			return c;
	}
	return 0;
}

static int ptr_order(const void *pa, const void *pb)
{
	uintptr_t a = (uintptr_t)((const struct hier_rank *)pa)->e, b = (uintptr_t)((const struct hier_rank *)pb)->e;

	return a < b ? -1 : a > b;
}

/* The entries leaf i makes from level d on, their marks as perf sets them. */
static void make_entries(struct hier_marks *m, const enum pk_hist_key *keys, size_t i, size_t d, unsigned own,
			 unsigned active, size_t *path)
{
	for (size_t l = d; l < m->nk; l++) {
		unsigned b = own;

		for (unsigned t = 1; t <= HIER_F_SYM; t <<= 1) {
			if (!(active & t))
				continue;
			if (hier_key_types(keys[l]) & t) {
				for (size_t p = 0; p < l && !(own & t); p++)
					m->bits[path[p] * m->nk + p] &= (unsigned char)~t;
			} else {
				b |= l == 0 ? t : m->bits[path[l - 1] * m->nk + l - 1] & t;
			}
		}
		path[l] = i;
		m->bits[i * m->nk + l] = (unsigned char)b;
	}
}

struct hier_marks *hier_marks_new(const enum pk_hist_key *keys, size_t nk, const struct pk_hist_entry **leaves,
				  size_t n, unsigned active, hier_collapse_fn collapse, hier_bits_fn bits,
				  const void *arg)
{
	struct hier_marks *m = calloc(1, sizeof(*m));
	size_t path[PK_HIST_MAX_KEYS] = { 0 };

	if (!m || !(m->by_ptr = calloc(n ? n : 1, sizeof(*m->by_ptr))) ||
	    !(m->sorted = calloc(n ? n : 1, sizeof(*m->sorted))) || !(m->bits = calloc(n * nk + 1, 1))) {
		hier_marks_free(m);
		return NULL;
	}
	m->n = n;
	m->nk = nk;
	for (size_t i = 0; i < n; i++)
		m->sorted[i] = leaves[i];
	sort_keys = keys;
	sort_nk = nk;
	sort_collapse = collapse;
	qsort(m->sorted, n, sizeof(*m->sorted), leaf_order);
	for (size_t i = 0; i < n; i++) {
		size_t d = 0;

		m->by_ptr[i] = (struct hier_rank){ m->sorted[i], i };
		while (i && d < nk && !collapse(keys[d], m->sorted[i - 1], m->sorted[i]))
			d++;
		make_entries(m, keys, i, d, bits(arg, m->sorted[i]) & active, active, path);
	}
	qsort(m->by_ptr, n, sizeof(*m->by_ptr), ptr_order);
	return m;
}

static size_t rank_of(const struct hier_marks *m, const struct pk_hist_entry *e)
{
	struct hier_rank key = { e, 0 };
	const struct hier_rank *r = bsearch(&key, m->by_ptr, m->n, sizeof(*m->by_ptr), ptr_order);

	return r ? r->rank : 0;
}

static size_t first_rank(const struct hier_marks *m, const struct pk_hist_entry **leaves, size_t n)
{
	size_t best = rank_of(m, leaves[0]);

	for (size_t i = 1; i < n; i++) {
		size_t r = rank_of(m, leaves[i]);

		if (r < best)
			best = r;
	}
	return best;
}

/* In a group's leader, perf makes a node of the leader's own entries,
 * and of a member's only where the leader has none there (hists__link's
 * dummy, a copy of the member's node): the first of its own leaves, or
 * else the first of all. */
const struct pk_hist_entry *hier_marks_maker(const struct hier_marks *m, const struct pk_hist_entry **leaves,
					     size_t n)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		size_t r;

		if (!leaves[i]->nr_samples && !leaves[i]->period_acc)
			continue;	/* only a member had it (pk_hist_link) */
		r = rank_of(m, leaves[i]);
		if (r < best)
			best = r;
	}
	return m->sorted[best != SIZE_MAX ? best : first_rank(m, leaves, n)];
}

bool hier_marks_hidden(const struct hier_marks *m, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	return m->bits[first_rank(m, leaves, n) * m->nk + level] != 0;
}

void hier_marks_free(struct hier_marks *m)
{
	if (!m)
		return;
	free(m->by_ptr);
	free(m->sorted);
	free(m->bits);
	free(m);
}
