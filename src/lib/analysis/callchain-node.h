/* SPDX-License-Identifier: MIT */
/*
 * callchain-node.h - the call-chain tree's own structs, shared by
 * callchain.c (making and appending) and callchain-sort.c (perf's print
 * orders and the accessors).
 */
#ifndef PK_ANALYSIS_CALLCHAIN_NODE_H
#define PK_ANALYSIS_CALLCHAIN_NODE_H

#include "perfkit.h"
#include "callchain-int.h"

/* A node and its frames in one allocation, the frames the pool's (a
 * children-mode profile of a compiler made 555,000 node frames of 72
 * bytes, 40 MB, from a few tens of thousands of distinct ones). */
struct pk_callchain_node {
	struct pk_callchain_node *parent;
	struct pk_callchain_node **children;	/* match order */
	struct pk_callchain_node **sorted;	/* what graph printing shows */
	struct pk_branch_counts *bc;	/* per frame (callchain-branch.c); NULL: no branch */
	uint64_t hit, children_hit;
	uint64_t count, children_count;	/* the same in samples (chains appended) */
	uint32_t nr_frames, nr_children, cap_children, nr_sorted;
	const struct pk_callchain_frame *frames[];
};

/* The last chain appended, when it changed no node but added to nodes on
 * one path: the same chain again (the same frames, field for field) takes
 * the same path through the same tree, so it adds to those nodes without
 * a match.  Any other append forgets it. */
struct memo {
	struct pk_callchain_frame *frames;
	size_t nr, cap;
	struct pk_callchain_node **path;	/* below the root; the last one ends it */
	size_t depth, cap_path;
	bool valid;
	bool branches;	/* the chain being appended may have branch frames */
	struct pk__frame_pool *pool;	/* the tree's, for the frames of new nodes */
	struct arena *arena;		/* the tree's */
	/* The chain being appended is read through pointers to its frames:
	 * pk__callchain_append_kept's are the pool's (kept: new nodes take
	 * them as they are), pk__callchain_append's point into its frames at
	 * `base` (fps, grown as needed: fps[i] is &base[i], for the branch
	 * counts) */
	bool kept;
	const struct pk_callchain_frame *base;
	const struct pk_callchain_frame **fps;
	size_t cap_fp;
	/* Where the last append ended (its chain's last frame is last's), and
	 * whether that append made the node. */
	struct pk_callchain_node *last;
	bool last_new;
	/* pk__callchain_append_kept's trail: the last chain appended, when it
	 * was a kept one, as its pool frames; its path is last's parents */
	bool trail;
	const struct pk_callchain_frame **prev;
	size_t nr_prev, cap_prev;
};

/* The memory of a tree built to be printed and freed
 * (pk__callchain_new_arena): its nodes, child lists and orders carved from
 * chunks that go with the tree, none freed alone (an entry's tree made and
 * freed tens of thousands of nodes one by one, a tenth of a deep
 * children report). */
struct arena_chunk;
struct arena {
	bool on;
	struct arena_chunk *chunks;	/* the newest first */
	size_t used;			/* of the newest */
};

/* pk__arena_alloc - size bytes (8-aligned, not zeroed) from a's chunks, or
 * NULL out of memory. */
void *pk__arena_alloc(struct arena *a, size_t size);

struct pk_callchain {
	struct pk_callchain_node *root;		/* no frames */
	struct pk__frame_pool *pool;
	struct pk_callchain_node **flat;
	size_t nr_flat, cap_flat;
	bool sorted;		/* pk_callchain_sort ran: no more appends */
	struct arena arena;
	struct memo memo;
};

#endif
