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

#include <linux/perf_event.h>

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
	const struct pk_branch_frame *branch;	/* --branch-history: the branch it
				 * comes from, counted into the node frame it
				 * reaches (read during the append alone; NULL
				 * in a node's frames); NULL: none */
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
struct pk_branch_frame;
struct pk_branch_counts;

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

/*
 * pk_callchain_context_mode - the cpumode a PERF_SAMPLE_CALLCHAIN context
 * marker switches the addresses after it to: PERF_RECORD_MISC_KERNEL,
 * _USER or _HYPERVISOR for PERF_CONTEXT_KERNEL, _USER or _HV; 0 for any
 * other value (a guest marker or one the kernel does not write, which perf
 * takes as a corrupt chain, or an address, which is no marker).
 */
PK_API uint16_t pk_callchain_context_mode(uint64_t ip);

/*
 * Branch history (perf report --branch-history, callchain-branch.c): a
 * sample's branch stack as call-chain frames, and what perf counts of
 * them in each node of the tree.
 */
#define PK_BRANCH_MAX_DEPTH 127		/* perf's bound of a branch stack */
#define PK_BR_NEW_MAX 8			/* perf's extended branch types */
#define PK_CONTEXT_MAX ((uint64_t)-4095)	/* call-chain context markers start here */

/* The loop iterations folded into one branch entry and their cycles. */
struct pk_branch_iter {
	uint64_t nr_loop_iter;
	uint64_t cycles;	/* the last folded loop's (perf's) */
};

/* One frame a branch adds: its target (`from` set: where it came from)
 * or its source (`from` 0), with the entry's flags and, for a source,
 * the loop iterations folded into it. */
struct pk_branch_frame {
	bool branch;		/* false: a call-chain frame ("calltrace") */
	uint64_t ip;
	uint64_t from;
	struct perf_branch_entry entry;
	uint64_t nr_loop_iter;
	uint64_t iter_cycles;
};

/* A sample's branch frames (pk_branch_history). */
struct pk_branch_history {
	struct perf_branch_entry entries[PK_BRANCH_MAX_DEPTH];	/* after loops are folded */
	struct pk_branch_iter iter[PK_BRANCH_MAX_DEPTH];
	struct pk_branch_frame frames[2 * PK_BRANCH_MAX_DEPTH];
	size_t nr_frames;
	size_t first_call;	/* the call chain goes on from this index ... */
	size_t chain_end;	/* ... up to this one (perf's chain_nr - branches) */
};

/* What perf counts of the branch frames merged into one node frame. */
struct pk_branch_counts {
	uint64_t branch_count, predicted_count, abort_count;
	uint64_t cycles_count, iter_count, iter_cycles, from_count;
	bool branch_to;		/* the last frame merged was a target */
	uint64_t counts[PERF_BR_MAX];	/* by PERF_BR_* type; PERF_BR_EXTEND_ABI's stays 0 */
	uint64_t new_counts[PK_BR_NEW_MAX];	/* ... those by PERF_BR_NEW_* type */
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

/*
 * pk_branch_remove_loops - fold repeated runs of branch sources in `e` (nr
 * entries, at most PK_BRANCH_MAX_DEPTH) as perf does: a run of sources
 * equal to the run just before it is dropped and counted as an iteration
 * in `iter` (nr of them, zeroed here) of the entry after it.  Returns the
 * entries left (nr unchanged when nr is over the bound or e/iter NULL).
 */
PK_API size_t pk_branch_remove_loops(struct perf_branch_entry *e, struct pk_branch_iter *iter, size_t nr);

/*
 * pk_branch_history - the frames perf 6.1's --branch-history adds for a
 * sample with branch stack `br` (nr_br entries, innermost first) and call
 * chain `ips`: the first max_stack entries, in callee order or reversed
 * (caller_order), loops folded, each as its target then its source; and
 * the part of the call chain that follows them: positions [first_call,
 * chain_end) counted from the chain's start in callee order (the entries
 * the branches overlap skipped), from its end in caller order (perf's
 * loop; chain_end is the chain's length less the entries kept, perf's own
 * arithmetic).  A stack over PK_BRANCH_MAX_DEPTH adds no frame and leaves
 * the chain whole.  Returns 0, or -EINVAL for missing arrays.
 */
PK_API int pk_branch_history(const struct perf_branch_entry *br, size_t nr_br, const uint64_t *ips,
			     size_t nr_ips, bool caller_order, size_t max_stack,
			     struct pk_branch_history *out);

/*
 * pk_branch_counts_add - count branch frame `f` into `c` (a frame that is
 * no branch changes nothing); `first`: the frame that made the node, whose
 * source perf leaves out of the iterations' divisor.
 */
PK_API void pk_branch_counts_add(struct pk_branch_counts *c, const struct pk_branch_frame *f, bool first);

/*
 * pk_branch_type_count - count branch entry `e` into c's type counts as
 * perf's branch_type_count does: nothing for PERF_BR_UNKNOWN or a source
 * of 0; else its type (an extended type for PERF_BR_EXTEND_ABI), a
 * conditional branch forward or backward, and a target in another 2 MB
 * area, or else in another 4 KB page.  The other counts stay as they are;
 * c or e NULL changes nothing.
 */
PK_API void pk_branch_type_count(struct pk_branch_counts *c, const struct perf_branch_entry *e);

/*
 * pk_branch_type_name - perf's name of branch type `type` (PERF_BR_*:
 * "N/A" for PERF_BR_UNKNOWN) or, for PERF_BR_EXTEND_ABI, of extended type
 * new_type (PERF_BR_NEW_*); "(null)" where perf has no name, as perf
 * prints one.  Static storage; never NULL.  (perf script and report -D
 * print "" for PERF_BR_UNKNOWN instead: that choice is theirs.)
 */
PK_API const char *pk_branch_type_name(unsigned int type, unsigned int new_type);

/*
 * pk_branch_counts_str - the text perf prints after a frame's name in a
 * --branch-history graph: " (calltrace)" for no branch (c NULL too), a target's types
 * and predicted/abort shares, a source's cycles and iterations, or "".
 * Writes at most size bytes with the NUL; returns the length written.
 */
PK_API size_t pk_branch_counts_str(const struct pk_branch_counts *c, char *buf, size_t size);

/* pk_callchain_node_branch_counts - the branch counts of the node's frame
 * idx (pk_branch_counts_str prints them); NULL when no branch frame
 * reached the node (perf's "calltrace") or idx is out of range. */
PK_API const struct pk_branch_counts *pk_callchain_node_branch_counts(const struct pk_callchain_node *n,
								      size_t idx);

#ifdef __cplusplus
}
#endif
#endif
