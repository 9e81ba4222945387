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

#define NIL PK__HIST_NIL

static void rotate(struct pk__hist_rbt *t, uint32_t x, bool to_left)
{
	uint32_t *a = to_left ? t->right : t->left, *b = to_left ? t->left : t->right;
	uint32_t y = a[x], p = t->up[x];

	if (t->nr_rotated < 2) {	/* (the earlier in order first) */
		t->rotated[t->nr_rotated][0] = to_left ? x : y;
		t->rotated[t->nr_rotated++][1] = to_left ? y : x;
	}
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
static void recolor(struct pk__hist_rbt *t, uint32_t z)
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

int pk__hist_rbt_reserve(struct pk__hist_rbt *t, size_t n)
{
	size_t cap = t->cap + t->cap / 2;
	uint32_t *links;
	bool *red;

	if (!t->cap)
		t->root = NIL;
	if (n <= t->cap)
		return 0;
	if (n >= NIL)
		return pk__error(-EOVERFLOW, "a histogram's tree", "%zu entries", n);
	cap = cap < n ? n : cap;
	if (!(links = pk__reallocarray(NULL, cap, 3 * sizeof(uint32_t))) || !(red = realloc(t->red, cap))) {
		free(links);
		return pk__error_nomem("a histogram's tree");
	}
	if (t->cap) {	/* the three arrays are one allocation: moved apart */
		memcpy(links, t->left, t->cap * sizeof(uint32_t));
		memcpy(links + cap, t->right, t->cap * sizeof(uint32_t));
		memcpy(links + 2 * cap, t->up, t->cap * sizeof(uint32_t));
		free(t->left);
	}
	t->left = links;
	t->right = links + cap;
	t->up = links + 2 * cap;
	t->red = red;
	t->cap = cap;
	return 0;
}

void pk__hist_rbt_link(struct pk__hist_rbt *t, uint32_t z, uint32_t parent, bool left)
{
	t->nr_rotated = 0;
	t->up[z] = parent;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	if (parent == NIL)
		t->root = z;
	else if (left)
		t->left[parent] = z;
	else
		t->right[parent] = z;
	recolor(t, z);
}

void pk__hist_rbt_free(struct pk__hist_rbt *t)
{
	free(t->left);
	free(t->red);
	*t = (struct pk__hist_rbt){ .root = NIL };
}

void pk__hist_rbt_order(const struct pk__hist_rbt *t, uint32_t *order, uint32_t *stack, uint32_t *n)
{
	uint32_t at = t->root;

	*n = 0;
	for (uint32_t sp = 0; at != NIL || sp;) {
		while (at != NIL) {
			stack[sp++] = at;
			at = t->left[at];
		}
		at = stack[--sp];
		order[(*n)++] = at;
		at = t->right[at];
	}
}

/* Entries moved in place, cycle by cycle (a copy of them all was the
 * largest allocation at the end of a big children report). */
void pk__hist_permute(struct pk_hist_entry *e, const uint32_t *order, size_t nr, bool *seen)
{
	memset(seen, 0, nr);
	for (uint32_t i = 0; i < nr; i++) {
		struct pk_hist_entry first;
		uint32_t j = i;

		if (seen[i] || order[i] == i)
			continue;
		first = e[i];
		while (order[j] != i) {
			e[j] = e[order[j]];
			seen[j] = 1;
			j = order[j];
		}
		e[j] = first;
		seen[j] = 1;
	}
}

int pk__hist_tree_order(struct pk_hist_entry *e, size_t nr, int (*cmp)(const void *, const void *, void *),
			void *arg)
{
	struct pk__hist_rbt t = { .root = NIL };
	uint32_t *stack = NULL, n;
	int err;

	if ((err = pk__hist_rbt_reserve(&t, nr)) < 0)
		return err;
	if (!(stack = pk__reallocarray(NULL, t.cap, sizeof(*stack)))) {
		pk__hist_rbt_free(&t);
		return pk__error_nomem("a histogram's order");
	}
	for (uint32_t z = 0; z < nr; z++) {
		uint32_t at = t.root, p = NIL;
		bool go_left = false;

		while (at != NIL) {
			p = at;
			go_left = cmp(&e[z], &e[at], arg) < 0;
			at = go_left ? t.left[at] : t.right[at];
		}
		pk__hist_rbt_link(&t, z, p, go_left);
	}
	pk__hist_rbt_order(&t, t.up, stack, &n);	/* the walk needs no parents */
	pk__hist_permute(e, t.up, nr, t.red);
	free(stack);
	pk__hist_rbt_free(&t);
	return 0;
}
