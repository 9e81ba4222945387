/* SPDX-License-Identifier: MIT */
/*
 * hist-intree.c - perf's input tree, kept once its comparison is no order.
 * perf finds a sample's entry by searching its tree of entries with
 * hist_entry__cmp (hists__findnew_entry) and makes a new one where the
 * search ends without one.  While that comparison is an order among the
 * entries the search finds the entry of the sample's key, as hist.c's
 * table does.  Where it is not (pk__hist_watch_no_order: an inlined
 * function's symbol, compared by name, beside others, compared by start;
 * unresolved addresses 2^63 or more apart; ...) a search can pass the entry of its
 * key by and end elsewhere: perf then makes a second entry of that key,
 * two rows with --sort sym, which collapses nothing; with the default keys
 * its collapse merges them, and the merged entry keeps the first one's
 * deepest chain (the children's tie order).  So from the entry that makes
 * the comparison no order on, a histogram keeps that tree (made from its
 * entries in the order they were made: until then each search found its
 * key) and finds each key through it.  A search's answer stays good
 * until a rotation of the tree may change it (harmless): an entry keeps
 * the tree's generation when it was last found (pk_hist.found).
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NIL PK__HIST_NIL

bool pk__hist_intree_wanted(const struct pk_hist *h)
{
	return h->use[PK_HIST_KEY_SYM] && !h->use[PK_HIST_KEY_SRCLINE] && !h->use[PK_HIST_KEY_SRCFILE] &&
	       !h->names;
}

/* Room for found[] up to the tree's capacity. */
static int reserve_found(struct pk_hist *h, size_t old_cap)
{
	uint32_t *f = pk__reallocarray(h->found, h->intree.cap, sizeof(*f));

	if (!f)
		return pk__error_nomem("a histogram's tree");
	for (size_t i = old_cap; i < h->intree.cap; i++)
		f[i] = NIL;
	h->found = f;
	return 0;
}

static void give_up(struct pk_hist *h)
{
	pk__hist_rbt_free(&h->intree);
	free(h->found);
	h->found = NULL;
}

uint32_t pk__hist_intree_search(const struct pk_hist *h, const struct pk_hist_entry *probe, uint32_t *parent,
				bool *left)
{
	const struct pk__hist_rbt *t = &h->intree;
	uint32_t at = t->root;

	*parent = NIL;
	*left = false;
	while (at != NIL) {
		int c = pk__hist_cmp_collapsed(probe, &h->entries[at], (void *)h);

		/* one to perf but two keys here (two binaries' symbols at one
		 * start, report's own frames) stay two, as the table keeps them:
		 * the later goes right, as pk__hist_tree_order puts it */
		if (!c && pk__hist_same_key(h, probe, &h->entries[at]))
			return at;
		*parent = at;
		*left = c < 0;
		at = c < 0 ? t->left[at] : t->right[at];
	}
	return NIL;
}

int pk__hist_intree_start(struct pk_hist *h)
{
	int err;

	if ((err = pk__hist_rbt_reserve(&h->intree, h->cap)) < 0)
		return err;
	if ((err = reserve_found(h, 0)) < 0) {
		give_up(h);
		return err;
	}
	for (uint32_t z = 0; z < h->nr; z++) {
		uint32_t at = h->intree.root, parent = NIL;
		bool left = false;

		/* Until now an order: each entry's search ended beside a node,
		 * but where two keys are one to perf (pk__hist_intree_search),
		 * which go right, as in pk__hist_tree_order. */
		while (at != NIL) {
			parent = at;
			left = pk__hist_cmp_collapsed(&h->entries[z], &h->entries[at], h) < 0;
			at = left ? h->intree.left[at] : h->intree.right[at];
		}
		pk__hist_rbt_link(&h->intree, z, parent, left);
	}
	h->intree.on = true;
	h->tree_gen++;	/* (found[] is all NIL: no search kept) */
	return 0;
}

/* The first of h's odd addresses at or above ip. */
static size_t odd_from(const struct pk_hist *h, uint64_t ip)
{
	size_t lo = 0, hi = h->nr_odd_ips;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->odd_ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int note_odd(struct pk_hist *h, uint64_t ip)
{
	size_t at = odd_from(h, ip);

	if (at < h->nr_odd_ips && h->odd_ips[at] == ip)
		return 0;
	if (h->nr_odd_ips == h->cap_odd_ips) {
		size_t cap = h->cap_odd_ips ? 2 * h->cap_odd_ips : 64;
		uint64_t *d = pk__reallocarray(h->odd_ips, cap, sizeof(*d));

		if (!d)
			return pk__error_nomem("a histogram's tree");
		h->odd_ips = d;
		h->cap_odd_ips = cap;
	}
	memmove(h->odd_ips + at + 1, h->odd_ips + at, (h->nr_odd_ips - at) * sizeof(*h->odd_ips));
	h->odd_ips[at] = ip;
	h->nr_odd_ips++;
	return 0;
}

static bool inlined_in(const struct pk_hist *h, const char *dso)
{
	for (size_t k = 0; k < h->nr_inl_dsos; k++)
		if (h->inl_dsos[k] == dso)
			return true;
	return false;
}

int pk__hist_intree_note(struct pk_hist *h, size_t i)
{
	const struct pk_hist_entry *e = &h->entries[i];

	if (!e->s.sym)
		return pk__hist_odd(e->s.ip) ? note_odd(h, e->s.ip) : 0;
	if (!pk__hist_sym_inlined(e->s.sym) || inlined_in(h, e->s.dso))
		return 0;
	if (h->nr_inl_dsos == h->cap_inl_dsos) {
		size_t cap = h->cap_inl_dsos ? 2 * h->cap_inl_dsos : 8;
		const char **d = pk__reallocarray(h->inl_dsos, cap, sizeof(*d));

		if (!d)
			return pk__error_nomem("a histogram's tree");
		h->inl_dsos = d;
		h->cap_inl_dsos = cap;
	}
	h->inl_dsos[h->nr_inl_dsos++] = e->s.dso;
	return 0;
}

/* Whether the symbol key compares objects before symbols: dso is no key
 * (the key compares a symbol's object first), or one before it. */
static bool dso_first(const struct pk_hist *h)
{
	for (size_t i = 0; h->use[PK_HIST_KEY_DSO] && i < h->nr_keys; i++)
		if (h->keys[i] == PK_HIST_KEY_DSO || h->keys[i] == PK_HIST_KEY_SYM ||
		    h->keys[i] == PK_HIST_KEY_IPC_NULL)
			return h->keys[i] == PK_HIST_KEY_DSO;
	return true;
}

/*
 * Whether rotating nodes x and y (a child of x taking its place) leaves
 * where the search of every entry's key ends.  It changes only for a key
 * that sorts before the earlier of them and after the later (perf's
 * comparison no order), so not when x and y differ in a key before the
 * symbol; nor when one is unresolved (those come after every resolved
 * one, unless the symbol key compares objects beside resolved ones only:
 * pk__hist_watch_no_order), and for two, while no address lies between
 * user space's and the kernel's; nor for two resolved ones, while no start lies between
 * user space's and the kernel's, of different objects (compared first)
 * or of an object without inlined functions' entries (by start alone:
 * those compare by name).
 */
static bool harmless(const struct pk_hist *h, uint32_t x, uint32_t y)
{
	const struct pk_hist_entry *a = &h->entries[x], *b = &h->entries[y];	/* a before b */
	const struct pk__hist_watch *w = &h->watch;
	size_t k;

	for (size_t i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] == PK_HIST_KEY_SYM || h->keys[i] == PK_HIST_KEY_IPC_NULL)
			break;
		if (pk__hist_cmp_key(h->keys[i], a, b))
			return true;
	}
	if (!a->s.sym || !b->s.sym) {
		if (!h->use[PK_HIST_KEY_DSO] && w->nr_resolved && w->unresolved)
			return false;
		if (a->s.sym || b->s.sym)
			return true;
		/* two unresolved ones compare by their difference's sign: a
		 * key sorts before a and after b only from [a + 2^63, b + 2^63),
		 * between user space and the kernel when a and b are not */
		if (pk__hist_odd(a->s.ip) || pk__hist_odd(b->s.ip) || (int64_t)(b->s.ip - a->s.ip) <= 0)
			return false;
		k = odd_from(h, a->s.ip + (1ull << 63));
		return k == h->nr_odd_ips || h->odd_ips[k] >= b->s.ip + (1ull << 63);
	}
	if (w->odd_start)
		return false;
	if (!dso_first(h))
		return !h->nr_inl_dsos;
	return a->s.dso != b->s.dso || !inlined_in(h, a->s.dso);
}

int pk__hist_intree_add(struct pk_hist *h, uint32_t z, uint32_t parent, bool left)
{
	size_t old = h->intree.cap;
	int err;

	if ((err = pk__hist_rbt_reserve(&h->intree, (size_t)z + 1)) < 0 || (err = reserve_found(h, old)) < 0) {
		give_up(h);
		return err;
	}
	h->intree.on = true;	/* (reserve's failure left it as it was) */
	pk__hist_rbt_link(&h->intree, z, parent, left);
	for (unsigned i = 0; i < h->intree.nr_rotated; i++)
		if (!harmless(h, h->intree.rotated[i][0], h->intree.rotated[i][1])) {
			h->tree_gen++;
			break;
		}
	return 0;
}

int pk__hist_intree_order(struct pk_hist *h)
{
	uint32_t *stack = pk__reallocarray(NULL, h->intree.cap, 2 * sizeof(*stack)), n;

	if (!stack)
		return pk__error_nomem("a histogram's order");
	pk__hist_rbt_order(&h->intree, stack + h->intree.cap, stack, &n);
	pk__hist_permute(h->entries, stack + h->intree.cap, h->nr, h->intree.red);
	free(stack);
	pk__hist_rbt_free(&h->intree);	/* (its colours were the permutation's marks) */
	return 0;
}

/* Entry z put into the collapse tree t: hung where its search ends, or
 * merged into the node of its key (1; of its key here too, as in
 * pk__hist_intree_search). */
static int collapse_one(struct pk_hist *h, struct pk__hist_rbt *t, uint32_t z)
{
	uint32_t at = t->root, parent = NIL;
	bool left = false;

	while (at != NIL) {
		int c = pk__hist_cmp_collapsed(&h->entries[z], &h->entries[at], h);

		if (!c && pk__hist_same_key(h, &h->entries[z], &h->entries[at])) {
			uint32_t depth = h->entries[at].max_depth;	/* perf's merge keeps it */
			int err = 0;

			/* merged trees need both trees: deferred ones made now */
			if (h->deferred && !h->entries[at].chain)
				err = pk__hist_chains_build(h->deferred, h->pool, h->entries[at].ref, 0,
							    &h->entries[at].chain);
			if (!err && h->deferred && !h->entries[z].chain)
				err = pk__hist_chains_build(h->deferred, h->pool, h->entries[z].ref, 0,
							    &h->entries[z].chain);
			if (!err)
				err = pk__hist_entry_merge(&h->entries[at], &h->entries[z], h->nr_slots);

			h->entries[at].max_depth = depth;
			if (err < 0)
				return err;
			h->entries[z] = (struct pk_hist_entry){ .s = h->entries[z].s, .ref = h->entries[z].ref };
			return 1;
		}
		parent = at;
		left = c < 0;
		at = left ? t->left[at] : t->right[at];
	}
	pk__hist_rbt_link(t, z, parent, left);
	return 0;
}

int pk__hist_intree_collapse(struct pk_hist *h)
{
	struct pk__hist_rbt t = { .root = NIL };
	uint32_t *stack = NULL, *order, n, m;
	bool *gone = NULL;
	int err = 0;

	if ((err = pk__hist_rbt_reserve(&t, h->nr)) < 0)
		return err;
	if (!(stack = pk__reallocarray(NULL, t.cap, 2 * sizeof(*stack))) || !(gone = pk__calloc(t.cap, 1))) {
		err = pk__error_nomem("a histogram's order");
		goto done;
	}
	order = stack + t.cap;
	for (uint32_t z = 0; z < h->nr && err >= 0; z++)
		if ((err = collapse_one(h, &t, z)) > 0)
			gone[z] = true;
	if (err < 0)
		goto done;
	pk__hist_rbt_order(&t, order, stack, &n);
	m = n;	/* the merged entries, emptied, after the tree's, then let go */
	for (uint32_t i = 0; i < h->nr; i++)
		if (gone[i])
			order[m++] = i;
	pk__hist_permute(h->entries, order, h->nr, gone);
	h->nr = n;
	err = 0;
done:
	free(stack);
	free(gone);
	pk__hist_rbt_free(&t);
	return err;
}
