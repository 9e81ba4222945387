/* SPDX-License-Identifier: MIT */
/*
 * hist-sort.c - a histogram's entries in perf report's output order: its
 * fields and keys (pk_hist_set_order, or Overhead and the keys), in
 * children mode Children first with perf's caller-above-callee rule for
 * one thread's ties, and the rest in perf's collapsed order (unresolved
 * symbols by address).  Where perf's comparison is no order (that rule,
 * an unresolved address or a symbol's start between user space's and the
 * kernel's, inlined functions' symbols beside others, or resolved and
 * unresolved symbols keyed without their object: no_order) the entries go
 * through perf's own trees (hist-tree.c, hist-intree.c) instead of a sort.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

/* Two unresolved addresses, the lower first, as perf's _sort__addr_cmp
 * orders them: by the sign of their difference as an int64_t, so an
 * address at or above 2^63 (the kernel's, or a user chain's garbage)
 * comes before user space's, and addresses 2^63 or more apart compare the
 * other way round: no order then (no_order). */
static int cmp_ip(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* The length of a symbol's name without the " (inlined)" that names an
 * inlined function's frame, and whether it had it. */
static size_t bare_len(const char *sym, bool *inlined)
{
	static const char inl[] = " (inlined)";
	size_t n = strlen(sym);

	*inlined = n >= sizeof(inl) - 1 && !memcmp(sym + n - (sizeof(inl) - 1), inl, sizeof(inl) - 1);
	return *inlined ? n - (sizeof(inl) - 1) : n;
}

bool pk__hist_sym_inlined(const char *sym)
{
	bool inlined;

	bare_len(sym, &inlined);
	return inlined;
}

/* bare_len of sym through h's cache of the last names seen (by pointer:
 * a caller's names are mostly interned; the comparisons of perf's trees
 * ask for a name over and over). */
static size_t bare_len_cached(struct pk_hist *h, const char *sym, bool *inlined)
{
	struct pk__hist_symc *c = &h->symc[((uintptr_t)sym >> 3) % PK__HIST_SYMC];

	if (c->sym != sym) {
		c->sym = sym;
		c->len = bare_len(sym, &c->inlined);
	}
	*inlined = c->inlined;
	return c->len;
}

/* perf's _sort__sym_cmp where a symbol is an inlined function's (perf
 * makes it with the function's name and its caller's range): the names
 * first, as strcmp(node, new entry) in its trees, so the later name comes
 * first; one name at one start is one entry (perf: the ranges overlap).
 * 2 when neither is inlined (the starts decide). */
static int cmp_inlined(struct pk_hist *h, const char *a, const char *b, uint64_t a_start, uint64_t b_start)
{
	bool a_inl, b_inl;
	size_t la, lb;
	int c;

	if (a == b)	/* one name: its starts, inlined or not */
		return 2;
	la = bare_len_cached(h, a, &a_inl);
	lb = bare_len_cached(h, b, &b_inl);
	if (!a_inl && !b_inl)
		return 2;
	if ((c = memcmp(b, a, la < lb ? la : lb)) || la != lb)
		return c ? (c < 0 ? -1 : 1) : (lb < la ? -1 : 1);
	return a_start == b_start ? 0 : 2;
}

void pk__hist_watch_init(struct pk__hist_watch *w)
{
	*w = (struct pk__hist_watch){ 0 };
}

void pk__hist_watch_add(struct pk__hist_watch *w, const struct pk_hist_entry *e)
{
	if (e->s.sym) {
		w->odd_start |= pk__hist_odd(e->s.sym_start);	/* (by their difference's sign too) */
		if (!w->inlined)
			bare_len(e->s.sym, &w->inlined);
		w->nr_resolved++;
		return;
	}
	w->unresolved = true;
	w->odd_ip |= pk__hist_odd(e->s.ip);	/* (cmp_ip) */
}

bool pk__hist_watch_no_order(const struct pk_hist *h, const struct pk__hist_watch *w)
{
	if (!h->use[PK_HIST_KEY_SYM])
		return false;
	/* an inlined function's symbol compares by name, the others by start */
	return w->odd_start || w->odd_ip ||
	       (w->nr_resolved && w->unresolved && !h->use[PK_HIST_KEY_DSO]) || (w->inlined && w->nr_resolved > 1);
}

/* Whether perf's collapsed comparison (cmp_collapsed) is no order among
 * h's entries (pk__hist_watch_no_order).  perf's entries then follow its
 * trees, each built by insertion (pk_hist_sort). */
static bool no_order(const struct pk_hist *h)
{
	struct pk__hist_watch w;

	if (h->intree.on)
		return true;
	pk__hist_watch_init(&w);
	for (size_t i = 0; i < h->nr; i++)
		pk__hist_watch_add(&w, &h->entries[i]);
	return pk__hist_watch_no_order(h, &w);
}

/* perf's caller-above-callee rule for equal period_acc of one thread. */
static int cmp_depth(const struct pk_hist *sorting, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	if (sorting->children && sorting->order != PK_HIST_CHAIN_UNORDERED && a->s.pid == b->s.pid &&
	    a->s.tid == b->s.tid && a->max_depth != b->max_depth)
		return (a->max_depth > b->max_depth) == (sorting->order == PK_HIST_CHAIN_CALLER_FIRST) ? -1 : 1;
	return 0;
}

/* An output field's value in an entry, and in a member's pair. */
static uint64_t field_value(int what, const struct pk_hist_entry *e)
{
	switch (what) {
	case PK_HIST_ORDER_OVERHEAD_SYS: return e->period_sys;
	case PK_HIST_ORDER_OVERHEAD_US: return e->period_us;
	case PK_HIST_ORDER_OVERHEAD_GUEST_SYS: return e->period_guest_sys;
	case PK_HIST_ORDER_OVERHEAD_GUEST_US: return e->period_guest_us;
	case PK_HIST_ORDER_SAMPLES: return e->nr_samples;
	default: return e->period;
	}
}

static uint64_t pair_value(int what, const struct pk_hist_pair *p)
{
	switch (what) {
	case PK_HIST_ORDER_OVERHEAD_SYS: return p->period_sys;
	case PK_HIST_ORDER_OVERHEAD_US: return p->period_us;
	case PK_HIST_ORDER_OVERHEAD_GUEST_SYS: return p->period_guest_sys;
	case PK_HIST_ORDER_OVERHEAD_GUEST_US: return p->period_guest_us;
	case PK_HIST_ORDER_SAMPLES: return p->nr_samples;
	default: return p->period;
	}
}

/* perf's __hpp__sort: the field, then (a group) each member's in turn. */
static int cmp_field(const struct pk_hist *sorting, int what, const struct pk_hist_entry *a,
		     const struct pk_hist_entry *b)
{
	int c = cmp_u64_desc(field_value(what, a), field_value(what, b));

	for (size_t i = 0; !c && a->pairs && b->pairs && i < sorting->nr_slots; i++)
		c = cmp_u64_desc(pair_value(what, &a->pairs[i]), pair_value(what, &b->pairs[i]));
	return c;
}

/* One item of pk_hist_set_order's list. */
static int cmp_order(const struct pk_hist *sorting, int what, const struct pk_hist_entry *a,
		     const struct pk_hist_entry *b)
{
	int c;

	if (what == PK_HIST_ORDER_CHILDREN) {
		c = cmp_u64_desc(a->period_acc, b->period_acc);
		return c ? c : cmp_depth(sorting, a, b);
	}
	if (what < PK_HIST_ORDER_NR)
		return cmp_field(sorting, what, a, b);
	if (what == PK_HIST_ORDER_KEY(PK_HIST_KEY_IPC_NULL))
		return pk__hist_sym_addr_cmp(sorting->use, a, b);
	return pk__hist_cmp_key((enum pk_hist_key)(what - PK_HIST_ORDER_KEY(0)), a, b);
}

/* perf's hist_entry__sort: its output fields and keys, no more. */
static int cmp_output(const void *pa, const void *pb, void *arg)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	const struct pk_hist *sorting = arg;
	int c;

	if (sorting->nr_sort_by) {
		for (size_t i = 0; i < sorting->nr_sort_by; i++)
			if ((c = cmp_order(sorting, sorting->sort_by[i], a, b)))
				return c;
	} else {
		if (sorting->children && a->period_acc != b->period_acc)
			return a->period_acc > b->period_acc ? -1 : 1;
		/* perf: of one thread's entries, the caller above the callee. */
		if ((c = cmp_depth(sorting, a, b)) || (c = cmp_field(sorting, PK_HIST_ORDER_OVERHEAD, a, b)))
			return c;
		for (size_t i = 0; i < sorting->nr_keys; i++)
			if ((c = sorting->keys[i] == PK_HIST_KEY_IPC_NULL ?
				 pk__hist_sym_addr_cmp(sorting->use, a, b) :
				 pk__hist_cmp_key(sorting->keys[i], a, b)))
				return c;
	}
	return 0;
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	const struct pk_hist *sorting = arg;
	int c = cmp_output(a, b, arg);

	if (c)
		return c;
	/* perf keeps its collapsed order for the rest: unresolved symbols by
	 * address, lowest first (its input and collapse trees put the lower
	 * address left, and its output tree keeps equal entries in order),
	 * compared as perf does, by their signed difference (cmp_ip). */
	if (sorting->use[PK_HIST_KEY_SYM] && !a->s.sym && a->s.ip != b->s.ip)
		return cmp_ip(a->s.ip, b->s.ip);
	return 0;
}

/* perf's collapsed order, in which its entries go into the output tree:
 * the keys, but symbols by address (unresolved ones by ip, after the
 * resolved; both by the sign of their difference), of one dso when dso is
 * no key. */
int pk__hist_cmp_collapsed(const void *pa, const void *pb, void *arg)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	struct pk_hist *sorting = arg;
	int c;

	for (size_t i = 0; i < sorting->nr_keys; i++) {
		if (sorting->keys[i] != PK_HIST_KEY_SYM && sorting->keys[i] != PK_HIST_KEY_IPC_NULL) {
			/* (one name: no call; the trees compare these most) */
			if ((sorting->keys[i] == PK_HIST_KEY_COMM && a->s.comm == b->s.comm) ||
			    (sorting->keys[i] == PK_HIST_KEY_DSO && a->s.dso == b->s.dso))
				continue;
			if ((c = pk__hist_cmp_key(sorting->keys[i], a, b)))
				return c;
			continue;
		}
		if (!a->s.sym && !b->s.sym) {
			c = cmp_ip(a->s.ip, b->s.ip);	/* lowest first */
		} else if (!a->s.sym || !b->s.sym) {
			/* perf's sort__sym_cmp: the objects first when dso is
			 * no key (6.1.y's stable fix of its test), then the
			 * resolved one */
			if (!sorting->use[PK_HIST_KEY_DSO] && (c = pk__hist_cmp_key(PK_HIST_KEY_DSO, a, b)))
				return c;
			c = a->s.sym ? -1 : 1;
		} else if (!sorting->use[PK_HIST_KEY_DSO] && (c = pk__hist_cmp_key(PK_HIST_KEY_DSO, a, b)))
			return c;
		else if ((c = cmp_inlined(sorting, a->s.sym, b->s.sym, a->s.sym_start, b->s.sym_start)) == 2)
			/* perf's _sort__sym_cmp: the sign of the starts' difference, so a
			 * kernel symbol (at or above 2^63) before a user object's
			 * (sym,dso: one of each compared, not their objects) */
			c = cmp_ip(a->s.sym_start, b->s.sym_start);
		if (c)
			return c;
	}
	return 0;
}

int pk_hist_set_order(struct pk_hist *h, const int *order, size_t nr)
{
	if (nr > sizeof(h->sort_by) / sizeof(h->sort_by[0]))
		return pk__error(-EINVAL, "a histogram's order", "%zu fields (at most %zu)", nr,
				 sizeof(h->sort_by) / sizeof(h->sort_by[0]));
	for (size_t i = 0; i < nr; i++)
		if ((order[i] < 0 || order[i] >= PK_HIST_ORDER_NR) &&
		    (order[i] < PK_HIST_ORDER_KEY(0) || order[i] >= PK_HIST_ORDER_KEY(PK_HIST_KEY_NR)))
			return pk__error(-EINVAL, "a histogram's order", "unknown field %d", order[i]);
	memcpy(h->sort_by, order, nr * sizeof(*order));
	h->nr_sort_by = nr;
	return 0;
}

void pk_hist_set_chain_order(struct pk_hist *h, enum pk_hist_chain_order order)
{
	h->order = order;
}

int pk_hist_sort(struct pk_hist *h)
{
	/* No entry is looked up from here on: its keys and table go (the
	 * entries hold what they are shown by). */
	free(h->table);
	free(h->ekeys);
	free(h->k2s);
	h->table = NULL;
	h->ekeys = NULL;
	h->k2s = NULL;
	h->table_cap = 0;
	/* Deferred chains: each entry's listed by its ref, which the sort
	 * does not change (out of memory, a tree looks through them all). */
	if (h->deferred && !h->sorted)
		(void)pk__hist_chains_index(h->deferred, h->nr);
	/* Where perf's comparisons are no order (children mode's depth rule;
	 * no_order's entries), only its own insertions give its order: its
	 * input tree, made as the entries were, read into its collapse tree
	 * (only for a key with a collapse function of its own: comm,
	 * srcline, srcfile), read into its output tree. */
	bool collapsed_trees = h->nr && no_order(h);

	if (h->nr && (h->children || collapsed_trees)) {
		bool collapse = h->use[PK_HIST_KEY_COMM] || h->use[PK_HIST_KEY_SRCLINE] || h->use[PK_HIST_KEY_SRCFILE];
		int err = 0;

		if (!collapsed_trees)
			qsort_r(h->entries, h->nr, sizeof(*h->entries), pk__hist_cmp_collapsed, h);
		else if (!(err = h->intree.on ? pk__hist_intree_order(h)
					      : pk__hist_tree_order(h->entries, h->nr, pk__hist_cmp_collapsed, h)) &&
			 collapse)
			/* entries perf's input tree kept apart (hist-intree.c) merge here */
			err = h->nr_split ? pk__hist_intree_collapse(h)
					  : pk__hist_tree_order(h->entries, h->nr, pk__hist_cmp_collapsed, h);
		pk__hist_rbt_free(&h->intree);
		if (!err)
			err = pk__hist_tree_order(h->entries, h->nr, cmp_output, h);
		if (err < 0) {	/* the nearest order a sort gives */
			qsort_r(h->entries, h->nr, sizeof(*h->entries), cmp_entries, h);
			h->sorted = true;
			return err;
		}
	} else if (h->nr) {	/* an empty histogram has no array at all */
		qsort_r(h->entries, h->nr, sizeof(*h->entries), cmp_entries, h);
	}
	/* The table indexes the old order: no entry may be added any more. */
	pk__hist_rbt_free(&h->intree);
	free(h->found);
	h->found = NULL;
	h->sorted = true;
	return 0;
}
