/* SPDX-License-Identifier: MIT */
/*
 * perfkit/callchain.h - the call-chain tree of one histogram entry, as perf
 * report builds it: chains of frames merged into a tree of nodes (each a
 * run of frames every chain through it shares), with the period that ends
 * in each node and below it, sorted for perf's graph (absolute), fractal
 * (relative), flat and folded printing with the percent threshold.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_CALLCHAIN_H
#define PERFKIT_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * How frames match (perf's -g key; every frame of one tree carries the
 * same): FUNCTION, perf's default, by symbol (below); ADDRESS by object
 * and address alone; SRCLINE by the `srcline` text where either frame has
 * one (a frame with none orders after one with one), else as FUNCTION.
 */
enum pk_callchain_key {
	PK_CALLCHAIN_KEY_FUNCTION,
	PK_CALLCHAIN_KEY_ADDRESS,
	PK_CALLCHAIN_KEY_SRCLINE,
};

/*
 * One frame.  Strings are the caller's and must stay valid, unchanged, for
 * the tree's life; frames match on the pointers (equal names must be the
 * same pointer).  With the FUNCTION key (perf's "function"): two frames
 * with symbols match when their object and symbol start do; otherwise
 * when their object and address do.  The object is `object` when set, else `dso`: two objects
 * shown by one name (two copies of a program, by their short name) stay
 * apart when each has its own `object`, as perf compares its dso
 * pointers.  `sym` NULL: unresolved (printed as its address).
 */
struct pk_callchain_frame {
	const char *sym;
	const char *dso;	/* NULL: no known object */
	uint64_t sym_start;
	uint64_t ip;
	bool inlined;		/* an inlined function's frame: matched by name, as
				 * perf matches its inline symbols (they share the
				 * start of the function they are inlined into) */
	const void *object;	/* the object's identity (e.g. its struct pk_dso);
				 * NULL: the `dso` pointer is */
	enum pk_callchain_key key;	/* how it matches (0: FUNCTION) */
	const char *srcline;	/* its source line as the key shows it (NULL: none);
				 * matched by text with the SRCLINE key */
};

/* How pk_callchain_sort orders and prunes (perf's -g print types). */
enum pk_callchain_mode {
	PK_CALLCHAIN_GRAPH_ABS,	/* "graph": threshold of the whole histogram's period */
	PK_CALLCHAIN_GRAPH_REL,	/* "fractal": threshold of each parent's period */
	PK_CALLCHAIN_FLAT,	/* "flat": every chain that ends somewhere, by its own period */
	PK_CALLCHAIN_FOLDED,	/* "folded": as flat */
};

struct pk_callchain;
struct pk_callchain_node;

/* pk_callchain_new - an empty tree.  Returns 0 with *out, or -ENOMEM. */
PK_API int pk_callchain_new(struct pk_callchain **out);

/* pk_callchain_free - free the tree and its nodes.  NULL is a no-op. */
PK_API void pk_callchain_free(struct pk_callchain *cc);

/*
 * pk_callchain_append - merge chain `frames` (nr of them, in the order they
 * print: the caller's choice of caller or callee first) with `period`:
 * walk the nodes that match, split a node matched only in part, and add a
 * node for the rest.  An empty chain changes nothing.  Returns 0 or
 * -ENOMEM (the tree is then as before the call or holds the chain in part;
 * either way it stays consistent).  Not after pk_callchain_sort (-EINVAL).
 */
PK_API int pk_callchain_append(struct pk_callchain *cc, const struct pk_callchain_frame *frames,
			       size_t nr, uint64_t period);

/*
 * pk_callchain_sort - order the tree for `mode`, as perf does: graph modes
 * keep each node's children whose period (their own and below) reaches
 * `min_hit` (GRAPH_ABS) or ceil(parent's below-period * min_percent / 100)
 * (GRAPH_REL), largest first; flat and folded list every node with a
 * period of its own of at least `min_hit` (and not 0), largest first.
 * Ties keep perf's order.  May be called again with other parameters.
 * Returns 0 or -ENOMEM.
 */
PK_API int pk_callchain_sort(struct pk_callchain *cc, enum pk_callchain_mode mode, uint64_t min_hit,
			     double min_percent);

/* pk_callchain_root - the root: no frames, every chain is below it. */
PK_API const struct pk_callchain_node *pk_callchain_root(const struct pk_callchain *cc);

/* pk_callchain_nr_flat / pk_callchain_flat - the nodes flat and folded print, in order (after
 * pk_callchain_sort in one of those modes); NULL out of range. */
PK_API size_t pk_callchain_nr_flat(const struct pk_callchain *cc);
PK_API const struct pk_callchain_node *pk_callchain_flat(const struct pk_callchain *cc, size_t idx);

/* A node's frames (NULL out of range) and its parent (NULL for the root). */
PK_API size_t pk_callchain_node_nr_frames(const struct pk_callchain_node *n);
PK_API const struct pk_callchain_frame *pk_callchain_node_frame(const struct pk_callchain_node *n,
								 size_t idx);
PK_API const struct pk_callchain_node *pk_callchain_node_parent(const struct pk_callchain_node *n);

/* pk_callchain_node_self - the period of the chains that end in the node;
 * pk_callchain_node_cumul - that and the period of every chain below it. */
PK_API uint64_t pk_callchain_node_self(const struct pk_callchain_node *n);
PK_API uint64_t pk_callchain_node_cumul(const struct pk_callchain_node *n);

/* pk_callchain_node_count - the number of chains (samples) that end in the
 * node; pk_callchain_node_cumul_count - those and every chain below it. */
PK_API uint64_t pk_callchain_node_count(const struct pk_callchain_node *n);
PK_API uint64_t pk_callchain_node_cumul_count(const struct pk_callchain_node *n);

/* pk_callchain_node_nr_children / pk_callchain_node_child - the children
 * graph printing shows, in order (after pk_callchain_sort in a graph
 * mode); NULL out of range. */
PK_API size_t pk_callchain_node_nr_children(const struct pk_callchain_node *n);
PK_API const struct pk_callchain_node *pk_callchain_node_child(const struct pk_callchain_node *n,
								size_t idx);

#ifdef __cplusplus
}
#endif
#endif
