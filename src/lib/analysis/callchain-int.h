/* SPDX-License-Identifier: MIT */
/*
 * callchain-int.h - callchain.c's use of callchain-branch.c: the branch
 * counts kept beside a node's frames (an array as long as the node's
 * frames, NULL until a branch frame reaches the node).
 */
#ifndef PK_ANALYSIS_CALLCHAIN_INT_H
#define PK_ANALYSIS_CALLCHAIN_INT_H

#include "perfkit.h"

/* The counts of a new node's frames (each as the frame that made it);
 * *bc stays NULL when none is a branch.  0 or -ENOMEM. */
int pk__branch_counts_new(struct pk_branch_counts **bc, const struct pk_callchain_frame *frames, size_t nr);

/* Frame idx of a node of nr frames matched `f`: count f's branch into it
 * (*bc made when it is the node's first branch).  0 or -ENOMEM. */
int pk__branch_counts_match(struct pk_branch_counts **bc, size_t nr, size_t idx,
			    const struct pk_callchain_frame *f);

/* A node split after frame k of nr: the counts of frames [k, nr) for its
 * tail (NULL when bc is).  0 or -ENOMEM. */
int pk__branch_counts_tail(struct pk_branch_counts **tail, const struct pk_branch_counts *bc, size_t k,
			   size_t nr);

/* Whether any of the frames is a branch frame. */
bool pk__branch_frames_any(const struct pk_callchain_frame *frames, size_t nr);

/* pk_callchain_append of `count` samples of this chain at once, `period`
 * their periods' sum, with `branches` known by the caller: false only
 * when no frame is a branch frame (true when unsure: then they are looked
 * for).  A caller appending a chain's tails walks its frames once.  A
 * branch is counted per sample: with branches, count must be 1 (else
 * -EINVAL). */
int pk__callchain_append(struct pk_callchain *cc, const struct pk_callchain_frame *frames, size_t nr,
			 uint64_t period, uint64_t count, bool branches);

/* pk__callchain_append_kept - pk__callchain_append of a chain without
 * branch frames whose frames are in the tree's pool already: kept[0..nr),
 * taken by new nodes as they are.  Successive kept chains that begin with
 * the same pool frames are matched from where they part (the tree is the
 * same as appended whole). */
int pk__callchain_append_kept(struct pk_callchain *cc, const struct pk_callchain_frame *const *kept, size_t nr,
			      uint64_t period, uint64_t count);

/* pk__callchain_merge - perf's callchain_merge: every node of src with
 * samples of its own appended to dst along its path, with its period and
 * a count of one, without branch counts (perf's merge_chain_branch
 * appends them so).  0 or -ENOMEM. */
int pk__callchain_merge(struct pk_callchain *dst, const struct pk_callchain *src);

/*
 * The frames of call-chain trees, each kept once (callchain-pool.c).  A
 * pool is counted: pk__frame_pool_new's caller holds one reference,
 * pk__frame_pool_get takes another, pk__frame_pool_put lets one go (the
 * last frees it and every frame it kept; NULL is a no-op).  NULL: no
 * memory.
 */
struct pk__frame_pool;
struct pk__frame_pool *pk__frame_pool_new(void);
struct pk__frame_pool *pk__frame_pool_get(struct pk__frame_pool *p);
void pk__frame_pool_put(struct pk__frame_pool *p);

/* The pool's frame equal to f field for field (its branch left out),
 * added when there is none; it stays where it is for the pool's life.
 * NULL: no memory. */
const struct pk_callchain_frame *pk__frame_pool_intern(struct pk__frame_pool *p,
							const struct pk_callchain_frame *f);

/* pk__frame_hash / pk__frame_same - the pool's hash of frame f, and its
 * equality (field for field, the branch left out). */
uint64_t pk__frame_hash(const struct pk_callchain_frame *f);
bool pk__frame_same(const struct pk_callchain_frame *a, const struct pk_callchain_frame *b);

/* pk_callchain_new of a tree whose frames are kept in `pool` (shared with
 * the other trees of its caller; the tree takes a reference).  0 or
 * -ENOMEM. */
int pk__callchain_new_pooled(struct pk_callchain **out, struct pk__frame_pool *pool);

/* pk__callchain_new_pooled of a tree whose nodes, child lists and orders
 * are carved from chunks freed with it, none alone: for a tree built to be
 * printed and freed.  It takes no chain with branch frames (-EINVAL). */
int pk__callchain_new_arena(struct pk_callchain **out, struct pk__frame_pool *pool);

#endif
