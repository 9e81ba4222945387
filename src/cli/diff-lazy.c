/* SPDX-License-Identifier: MIT */
/*
 * diff-lazy.c - which rows' source line (or file) perf diff 6.1 has in
 * hand when it sizes the column.  perf makes an entry's srcline and
 * srcfile only when it compares the entry on that key with another one
 * equal on the keys before it (util/sort.c's sort__srcline_cmp): a second
 * sample agreeing so in its own file, or, as hists__match and hists__link
 * look each later file's entries up among the baseline's, an entry of
 * another file agreeing so.  The others are made when printed: cut to the
 * column's width, they do not widen it.
 */
#include "diff.h"

#include <string.h>

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return a != b;
	return strcmp(a, b);
}

/* Whether a and b are one value of key k, as perf's collapse compares them
 * (a symbol by its name, an unresolved one by its address). */
static bool key_eq(enum pk_hist_key k, const struct pk_hist_sample *a, const struct pk_hist_sample *b)
{
	switch (k) {
	case PK_HIST_KEY_COMM: return !cmp_str(a->comm, b->comm);
	case PK_HIST_KEY_PID: case PK_HIST_KEY_TID: return a->tid == b->tid;
	case PK_HIST_KEY_DSO: return !cmp_str(a->dso, b->dso);
	case PK_HIST_KEY_SYM: return (a->sym || b->sym) ? !cmp_str(a->sym, b->sym) : a->ip == b->ip;
	case PK_HIST_KEY_CPU: return a->cpu == b->cpu;
	case PK_HIST_KEY_PARENT: return !cmp_str(a->parent, b->parent);
	case PK_HIST_KEY_SRCLINE: return !cmp_str(a->srcline, b->srcline);
	case PK_HIST_KEY_SRCFILE: return !cmp_str(a->srcfile, b->srcfile);
	case PK_HIST_KEY_TRACE: return !cmp_str(a->trace, b->trace);
	case PK_HIST_KEY_TIME: return a->time == b->time;
	case PK_HIST_KEY_SYM_SIZE: return a->sym_size == b->sym_size;
	case PK_HIST_KEY_SOCKET: return a->socket == b->socket;
	case PK_HIST_KEY_WEIGHT: case PK_HIST_KEY_LOCAL_WEIGHT: return a->weight == b->weight;
	case PK_HIST_KEY_INS_LAT: case PK_HIST_KEY_LOCAL_INS_LAT: return a->ins_lat == b->ins_lat;
	case PK_HIST_KEY_DSO_SIZE: return a->dso_size == b->dso_size;
	case PK_HIST_KEY_CGROUP_ID: return a->cgroup_dev == b->cgroup_dev && a->cgroup_ino == b->cgroup_ino;
	case PK_HIST_KEY_TRANSACTION: return a->transaction == b->transaction;
	case PK_HIST_KEY_CODE_PAGE_SIZE: return a->code_page_size == b->code_page_size;
	case PK_HIST_KEY_ADDR: return a->addr == b->addr;
	default: return true;	/* diff takes no other key */
	}
}

/* Whether a and b agree on o's first `nr` keys. */
static bool prefix_eq(const struct diff_opts *o, size_t nr, const struct pk_hist_sample *a,
		      const struct pk_hist_sample *b)
{
	for (size_t i = 0; i < nr; i++)
		if (!key_eq(o->keys[i], a, b))
			return false;
	return true;
}

/* Row r's entry of file f and its samples (NULL: the file has none). */
static const struct pk_hist_entry *entry_of(const struct pk_diff *d, const struct pk_diff_entry *r, size_t f,
					    uint64_t *samples)
{
	const struct pk_diff_pair *p;

	if (!f) {
		*samples = r->base_samples;
		return r->base;
	}
	p = pk_diff_pair_get(d, r, f);
	*samples = p->samples;
	return p->entry;
}

bool diff_lazy_known(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		     enum pk_hist_key k)
{
	const struct pk_hist_entry *x = pk_diff_key(d, e), *y;
	size_t at = 0, own_file = 0, nr_files = pk_diff_nr_files(d);
	uint64_t own = 0, n;
	bool other = false;

	while (at < o->nr_keys && o->keys[at] != k)
		at++;
	while (own_file < nr_files && entry_of(d, e, own_file, &n) != x)
		own_file++;
	for (size_t i = 0; i < pk_diff_nr(d) && own < 2 && !other; i++)
		for (size_t f = 0; f < nr_files; f++) {
			if (!(y = entry_of(d, pk_diff_get(d, i), f, &n)) || !prefix_eq(o, at, &x->s, &y->s))
				continue;
			if (f == own_file)
				own += n;
			else
				other = true;
		}
	return own > 1 || other;
}
