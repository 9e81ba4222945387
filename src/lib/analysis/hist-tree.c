/* SPDX-License-Identifier: MIT */
/*
 * hist-tree.c - perf's output order where its comparison is not a total
 * order.  perf report inserts its entries, one by one in its collapsed
 * order, into a red-black tree by hist_entry__sort (a new entry goes left
 * of a node it sorts before, right otherwise) and prints the tree in
 * order.  In children mode that comparison breaks ties of one thread by
 * chain depth and others by the next field, so it is not transitive and a
 * sort function may put an entry elsewhere: only the same insertions, in
 * the same order, into a tree balanced the same way (the classic red-black
 * insertion, which the kernel's rbtree follows) give perf's rows.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

struct tree {
	uint32_t *left, *right, *up;
	bool *red;
	uint32_t root;
};

static void rotate(struct tree *t, uint32_t x, bool to_left)
{
	uint32_t *a = to_left ? t->right : t->left, *b = to_left ? t->left : t->right;
	uint32_t y = a[x], p = t->up[x];

	a[x] = b[y];
	if (b[y] != NIL)
		t->up[b[y]] = x;
	t->up[y] = p;
	if (p == NIL)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	b[y] = x;
	t->up[x] = y;
}

/* The classic fix-up after node z went in red. */
static void recolor(struct tree *t, uint32_t z)
{
	while (t->up[z] != NIL && t->red[t->up[z]]) {
		uint32_t p = t->up[z], g = t->up[p];
		bool p_left = t->left[g] == p;
		uint32_t u = p_left ? t->right[g] : t->left[g];

		if (u != NIL && t->red[u]) {
			t->red[p] = t->red[u] = false;
			t->red[g] = true;
			z = g;
			continue;
		}
		if (z == (p_left ? t->right[p] : t->left[p])) {
			z = p;
			rotate(t, z, p_left);
			p = t->up[z];
		}
		t->red[p] = false;
		t->red[g] = true;
		rotate(t, g, !p_left);
	}
	t->red[t->root] = false;
}

static void insert(struct tree *t, const struct pk_hist_entry *e, uint32_t z,
		   int (*cmp)(const void *, const void *, void *), void *arg)
{
	uint32_t at = t->root, p = NIL;
	bool go_left = false;

	while (at != NIL) {
		p = at;
		go_left = cmp(&e[z], &e[at], arg) < 0;
		at = go_left ? t->left[at] : t->right[at];
	}
	t->up[z] = p;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	if (p == NIL)
		t->root = z;
	else if (go_left)
		t->left[p] = z;
	else
		t->right[p] = z;
	recolor(t, z);
}

int pk__hist_tree_order(struct pk_hist_entry *e, size_t nr, int (*cmp)(const void *, const void *, void *),
			void *arg)
{
	struct tree t = { .root = NIL };
	uint32_t *ids = NULL, *order, at, n = 0;
	int err = 0;

	if (nr >= NIL)
		return pk__error(-EOVERFLOW, "a histogram's order", "%zu entries", nr);
	t.left = pk__reallocarray(NULL, nr, 4 * sizeof(uint32_t));
	t.red = malloc(nr);
	if (!t.left || !t.red) {
		err = pk__error_nomem("a histogram's order");
		goto done;
	}
	t.right = t.left + nr;
	t.up = t.right + nr;
	ids = t.up + nr;	/* the walk's stack */
	for (uint32_t z = 0; z < nr; z++)
		insert(&t, e, z, cmp, arg);
	order = t.up;	/* the walk needs no parents: entry n of the order */
	at = t.root;	/* in order, with ids as the walk's stack */
	for (uint32_t sp = 0; at != NIL || sp;) {
		while (at != NIL) {
			ids[sp++] = at;
			at = t.left[at];
		}
		at = ids[--sp];
		order[n++] = at;
		at = t.right[at];
	}
	/* Entries moved in place, cycle by cycle (a copy of them all was the
	 * largest allocation at the end of a big children report). */
	memset(t.red, 0, nr);
	for (uint32_t i = 0; i < nr; i++) {
		struct pk_hist_entry first;
		uint32_t j = i;

		if (t.red[i] || order[i] == i)
			continue;
		first = e[i];
		while (order[j] != i) {
			e[j] = e[order[j]];
			t.red[j] = 1;
			j = order[j];
		}
		e[j] = first;
		t.red[j] = 1;
	}
done:
	free(t.left);
	free(t.red);
	return err;
}
