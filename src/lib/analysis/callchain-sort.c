/* SPDX-License-Identifier: MIT */
/*
 * callchain-sort.c - the orders perf prints a call-chain tree in:
 * children by their period and below for the graph modes, nodes by their
 * own period for flat and folded, ties in match order, under perf's
 * thresholds; and the tree's accessors.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "callchain-node.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

static uint64_t cumul(const struct pk_callchain_node *n)
{
	return n->hit + n->children_hit;
}

/* Stable insertion by a key, largest first: perf's rb-tree puts ties to the right. */
static void insert_sorted(struct pk_callchain_node **v, size_t nr, struct pk_callchain_node *n, bool own)
{
	uint64_t key = own ? n->hit : cumul(n);
	size_t i = nr;

	while (i && (own ? v[i - 1]->hit : cumul(v[i - 1])) < key) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = n;
}

/* Only the children that reach the threshold are ordered, and only below
 * them: no other node can be reached from the root's order (a node's
 * cumulated period is at most its parent's), so no other needs one (most
 * nodes of a big profile are below perf's 0.5%; each had an order array
 * of its own). */
static int sort_graph(struct arena *a, struct pk_callchain_node *n, bool rel, uint64_t min_hit,
		      double min_fraction)
{
	size_t shown = 0;
	int err;

	if (!a->on)	/* (an arena's old order stays where it is) */
		free(n->sorted);
	n->sorted = NULL;
	n->nr_sorted = 0;
	if (rel)
		min_hit = (uint64_t)ceil((double)n->children_hit * min_fraction);
	for (size_t i = 0; i < n->nr_children; i++)
		shown += cumul(n->children[i]) >= min_hit;
	if (shown && !(n->sorted = a->on ? pk__arena_alloc(a, shown * sizeof(*n->sorted))
					 : pk__reallocarray(NULL, shown, sizeof(*n->sorted))))
		return pk__error_nomem("a call-chain tree's order");
	for (size_t i = 0; i < n->nr_children; i++) {
		struct pk_callchain_node *c = n->children[i];

		if (cumul(c) < min_hit)
			continue;
		if ((err = sort_graph(a, c, rel, min_hit, min_fraction)) < 0)
			return err;
		insert_sorted(n->sorted, n->nr_sorted++, c, false);
	}
	return 0;
}

/* perf's flat order: every node after its children (in match order). */
static int sort_flat(struct pk_callchain *cc, struct pk_callchain_node *n, uint64_t min_hit)
{
	int err;

	for (size_t i = 0; i < n->nr_children; i++)
		if ((err = sort_flat(cc, n->children[i], min_hit)) < 0)
			return err;
	if (!n->hit || n->hit < min_hit)
		return 0;
	if (cc->nr_flat == cc->cap_flat) {
		size_t cap = cc->cap_flat ? cc->cap_flat * 2 : 16;
		struct pk_callchain_node **v = pk__reallocarray(cc->flat, cap, sizeof(*v));

		if (!v)
			return pk__error_nomem("a call-chain tree's order");
		cc->flat = v;
		cc->cap_flat = cap;
	}
	insert_sorted(cc->flat, cc->nr_flat++, n, true);
	return 0;
}

int pk_callchain_sort(struct pk_callchain *cc, enum pk_callchain_mode mode, uint64_t min_hit,
		      double min_percent)
{
	cc->sorted = true;
	switch (mode) {
	case PK_CALLCHAIN_GRAPH_ABS:
	case PK_CALLCHAIN_GRAPH_REL:
		return sort_graph(&cc->arena, cc->root, mode == PK_CALLCHAIN_GRAPH_REL, min_hit, min_percent / 100.0);
	case PK_CALLCHAIN_FLAT:
	case PK_CALLCHAIN_FOLDED:
		cc->nr_flat = 0;
		return sort_flat(cc, cc->root, min_hit);
	default:
		return pk__error(-EINVAL, "a call-chain tree", "unknown mode %d", (int)mode);
	}
}

const struct pk_callchain_node *pk_callchain_root(const struct pk_callchain *cc)
{
	return cc->root;
}

size_t pk_callchain_nr_flat(const struct pk_callchain *cc)
{
	return cc->nr_flat;
}

const struct pk_callchain_node *pk_callchain_flat(const struct pk_callchain *cc, size_t idx)
{
	return idx < cc->nr_flat ? cc->flat[idx] : NULL;
}

size_t pk_callchain_node_nr_frames(const struct pk_callchain_node *n)
{
	return n->nr_frames;
}

const struct pk_callchain_frame *pk_callchain_node_frame(const struct pk_callchain_node *n, size_t idx)
{
	return idx < n->nr_frames ? n->frames[idx] : NULL;
}

const struct pk_callchain_node *pk_callchain_node_parent(const struct pk_callchain_node *n)
{
	return n->parent;
}

uint64_t pk_callchain_node_self(const struct pk_callchain_node *n)
{
	return n->hit;
}

uint64_t pk_callchain_node_cumul(const struct pk_callchain_node *n)
{
	return cumul(n);
}

uint64_t pk_callchain_node_count(const struct pk_callchain_node *n)
{
	return n->count;
}

uint64_t pk_callchain_node_cumul_count(const struct pk_callchain_node *n)
{
	return n->count + n->children_count;
}

size_t pk_callchain_node_nr_children(const struct pk_callchain_node *n)
{
	return n->nr_sorted;
}

const struct pk_callchain_node *pk_callchain_node_child(const struct pk_callchain_node *n, size_t idx)
{
	return idx < n->nr_sorted ? n->sorted[idx] : NULL;
}

const struct pk_branch_counts *pk_callchain_node_branch_counts(const struct pk_callchain_node *n, size_t idx)
{
	return n && n->bc && idx < n->nr_frames ? &n->bc[idx] : NULL;
}

uint16_t pk_callchain_context_mode(uint64_t ip)
{
	switch (ip) {
	case PERF_CONTEXT_HV: return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_KERNEL: return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER: return PERF_RECORD_MISC_USER;
	default: return 0;
	}
}
