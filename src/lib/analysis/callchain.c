/* SPDX-License-Identifier: MIT */
/*
 * callchain.c - the call-chain tree behind perf report's -g output: chains
 * merged into nodes of shared frames (a node matched in part is split, as
 * perf's callchain tree does), each node's children kept in perf's match
 * order (object, then symbol start or address, highest first; or by
 * address alone, or source line, for perf's other -g keys).  The orders
 * perf prints them in are callchain-sort.c's.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "callchain-node.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	unsigned char mem[];	/* 8-aligned: after a pointer and a size */
};

void *pk__arena_alloc(struct arena *a, size_t size)
{
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!a->chunks || size > a->chunks->size - a->used) {
		size_t want = a->chunks && a->chunks->size < (1u << 20) ? 2 * a->chunks->size : 1u << 14;
		struct arena_chunk *c;

		if (a->chunks && want < a->chunks->size)
			want = a->chunks->size;
		if (want < size)
			want = size;
		if (!(c = pk__malloc(sizeof(*c) + want)))
			return NULL;
		c->next = a->chunks;
		c->size = want;
		a->chunks = c;
		a->used = 0;
	}
	p = a->chunks->mem + a->used;
	a->used += size;
	return p;
}

static void arena_free(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
}

int pk__callchain_new_pooled(struct pk_callchain **out, struct pk__frame_pool *pool)
{
	struct pk_callchain *cc = pk__calloc(1, sizeof(*cc));

	if (!cc || !(cc->root = pk__calloc(1, sizeof(*cc->root)))) {
		free(cc);
		return pk__error_nomem("a call-chain tree");
	}
	cc->pool = pk__frame_pool_get(pool);
	cc->memo.arena = &cc->arena;
	*out = cc;
	return 0;
}

int pk__callchain_new_arena(struct pk_callchain **out, struct pk__frame_pool *pool)
{
	int err = pk__callchain_new_pooled(out, pool);

	if (!err)
		(*out)->arena.on = true;
	return err;
}

int pk_callchain_new(struct pk_callchain **out)
{
	struct pk__frame_pool *pool = pk__frame_pool_new();
	int err;

	if (!pool)
		return pk__error_nomem("a call-chain tree");
	err = pk__callchain_new_pooled(out, pool);
	pk__frame_pool_put(pool);
	return err;
}

static void node_free(struct pk_callchain_node *n)
{
	for (size_t i = 0; i < n->nr_children; i++) {
		node_free(n->children[i]);
		free(n->children[i]);
	}
	free(n->children);
	free(n->sorted);
	free(n->bc);
}

void pk_callchain_free(struct pk_callchain *cc)
{
	if (!cc)
		return;
	if (!cc->arena.on)	/* (an arena's nodes have no branch counts) */
		node_free(cc->root);
	arena_free(&cc->arena);
	free(cc->root);
	pk__frame_pool_put(cc->pool);
	free(cc->flat);
	free(cc->memo.frames);
	free(cc->memo.path);
	free(cc->memo.prev);
	free(cc->memo.fps);
	free(cc);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* A frame's object: its identity when the caller gave one, else its name. */
static const void *object(const struct pk_callchain_frame *f)
{
	return f->object ? f->object : (const void *)f->dso;
}

/* perf's match_chain_strings: a string orders before none; 2: both none. */
static int text_cmp(const char *a, const char *b)
{
	int c;

	if (!a || !b)
		return !a && !b ? 2 : a ? -1 : 1;
	return (c = strcmp(a, b)) < 0 ? -1 : c > 0;
}

/* perf's match of two frames: 0 equal, < 0 when `a` orders before `b`.
 * Inlined: it runs per child on every descent (21M calls on a kernel-heavy
 * children report, a fifth of its time, a third of that the calls). */
static inline __attribute__((always_inline)) int frame_cmp(const struct pk_callchain_frame *a,
							   const struct pk_callchain_frame *b)
{
	bool by_sym = a->key != PK_CALLCHAIN_KEY_ADDRESS && a->sym && b->sym;
	int c;

	if (a->key == PK_CALLCHAIN_KEY_SRCLINE && (c = text_cmp(a->srcline, b->srcline)) != 2)
		return c;
	if (by_sym && (a->inlined || b->inlined))
		return text_cmp(a->sym, b->sym);
	if (object(a) != object(b))
		return (uintptr_t)object(a) < (uintptr_t)object(b) ? -1 : 1;
	if (by_sym)
		return cmp_u64(a->sym_start, b->sym_start);
	return cmp_u64(a->ip, b->ip);
}

/*
 * Where a child whose first frame is `f` sits among n's children, which
 * perf keeps with the highest frame first; *found when one matches.
 */
static size_t child_pos(const struct pk_callchain_node *n, const struct pk_callchain_frame *f, bool *found)
{
	size_t lo = 0, hi = n->nr_children;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = frame_cmp(n->children[mid]->frames[0], f);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert_child(struct arena *a, struct pk_callchain_node *parent, struct pk_callchain_node *child,
			size_t pos)
{
	struct pk_callchain_node **c = parent->children;

	/* grown by doubling: a realloc per insert was a tenth of a tree's build
	 * (in an arena the old list is left where it is) */
	if (parent->nr_children == parent->cap_children) {
		size_t cap = parent->cap_children ? 2 * parent->cap_children : 2;

		c = a->on ? pk__arena_alloc(a, cap * sizeof(*c)) : pk__reallocarray(parent->children, cap, sizeof(*c));
		if (!c)
			return pk__error_nomem("a call-chain node");
		if (a->on && parent->nr_children)
			memcpy(c, parent->children, parent->nr_children * sizeof(*c));
		parent->children = c;
		parent->cap_children = (uint32_t)cap;
	}
	memmove(&c[pos + 1], &c[pos], (parent->nr_children - pos) * sizeof(*c));
	c[pos] = child;
	parent->nr_children++;
	child->parent = parent;
	return 0;
}

/* A node of nr frames (not set) with `count` samples of `period` ending
 * in it. */
static struct pk_callchain_node *node_alloc(struct arena *a, size_t nr, uint64_t period, uint64_t count)
{
	size_t size = sizeof(struct pk_callchain_node) + nr * sizeof(const struct pk_callchain_frame *);
	struct pk_callchain_node *n = a->on ? pk__arena_alloc(a, size) : pk__calloc(1, size);

	if (!n) {
		pk__error_nomem("a call-chain node");
		return NULL;
	}
	if (a->on)
		memset(n, 0, size);
	n->nr_frames = (uint32_t)nr;
	n->hit = period;
	n->count = count;
	return n;
}

/* A node made and not in a tree, let go (in an arena, left there). */
static void node_drop(const struct arena *a, struct pk_callchain_node *n)
{
	if (n && !a->on) {
		node_free(n);
		free(n);
	}
}

/* A new node for fp[0..nr), its frames kept in m's pool (a kept chain's
 * are the pool's already), with `count` samples of `period` ending in it;
 * branch counts looked for only when m's chain may have branches. */
static struct pk_callchain_node *new_node(const struct memo *m, const struct pk_callchain_frame *const *fp,
					  size_t nr, uint64_t period, uint64_t count)
{
	struct pk_callchain_node *n = node_alloc(m->arena, nr, period, count);

	if (!n)
		return NULL;
	if (m->kept)	/* nothing to look up */
		memcpy(n->frames, fp, nr * sizeof(n->frames[0]));
	for (size_t i = 0; !m->kept && i < nr; i++)
		if (!(n->frames[i] = pk__frame_pool_intern(m->pool, fp[i]))) {
			node_drop(m->arena, n);
			pk__error_nomem("a call-chain frame");
			return NULL;
		}
	if (m->branches && pk__branch_counts_new(&n->bc, m->base + (fp - m->fps), nr) < 0) {
		node_drop(m->arena, n);
		return NULL;
	}
	return n;
}

static int add_child(struct memo *m, struct pk_callchain_node *parent,
		     const struct pk_callchain_frame *const *fp, size_t nr, uint64_t period, uint64_t count,
		     size_t pos)
{
	struct pk_callchain_node *n = new_node(m, fp, nr, period, count);
	int err;

	if (!n)
		return -ENOMEM;
	if ((err = insert_child(m->arena, parent, n, pos)) < 0) {
		node_drop(m->arena, n);
		return err;
	}
	m->last = n;
	m->last_new = true;
	return 0;
}

/*
 * Node n matched only its first `k` frames: its tail, period and children
 * move to one new child, and the rest of the chain (if any) becomes a
 * second child, in match order.
 */
static int split(struct memo *m, struct pk_callchain_node *n, size_t k,
		 const struct pk_callchain_frame *const *rest, size_t nr_rest, uint64_t period, uint64_t count)
{
	/* its frames the pool's already; the node keeps its array, shorter */
	struct pk_callchain_node *tail = node_alloc(m->arena, n->nr_frames - k, n->hit, n->count);
	bool found;

	if (tail)
		memcpy(tail->frames, n->frames + k, tail->nr_frames * sizeof(tail->frames[0]));
	if (!tail || pk__branch_counts_tail(&tail->bc, n->bc, k, n->nr_frames) < 0) {
		node_drop(m->arena, tail);
		return -ENOMEM;
	}
	tail->children_hit = n->children_hit;
	tail->children_count = n->children_count;
	tail->children = n->children;
	tail->nr_children = n->nr_children;
	tail->cap_children = n->cap_children;
	for (size_t i = 0; i < tail->nr_children; i++)
		tail->children[i]->parent = tail;
	n->children = NULL;
	n->nr_children = 0;
	n->cap_children = 0;
	n->nr_frames = (uint32_t)k;
	if (insert_child(m->arena, n, tail, 0) < 0) {
		/* Undo: the node is whole again. */
		n->children = tail->children;
		n->nr_children = tail->nr_children;
		n->cap_children = tail->cap_children;
		for (size_t i = 0; i < n->nr_children; i++)
			n->children[i]->parent = n;
		n->nr_frames += tail->nr_frames;
		if (!m->arena->on) {	/* (its children are n's again) */
			free(tail->bc);
			free(tail);
		}
		return -ENOMEM;
	}
	n->children_hit = tail->hit + tail->children_hit;
	n->children_count = tail->count + tail->children_count;
	if (!nr_rest) {
		n->hit = period;
		n->count = count;
		m->last = n;
		m->last_new = false;
		return 0;
	}
	n->hit = 0;
	n->count = 0;
	n->children_hit += period;
	n->children_count += count;
	return add_child(m, n, rest, nr_rest, period, count, child_pos(n, rest[0], &found));
}

static int append_children(struct pk_callchain_node *n, const struct pk_callchain_frame *const *fp, size_t nr,
			   uint64_t period, uint64_t count, struct memo *m);

/* The memo's path one node longer; on no memory the memo is dropped (it
 * only saves work). */
static void memo_push(struct memo *m, struct pk_callchain_node *n)
{
	if (!m->valid)
		return;
	if (m->depth == m->cap_path) {
		size_t cap = m->cap_path ? 2 * m->cap_path : 8;
		struct pk_callchain_node **p = pk__reallocarray(m->path, cap, sizeof(*p));

		if (!p) {
			m->valid = false;
			return;
		}
		m->path = p;
		m->cap_path = cap;
	}
	m->path[m->depth++] = n;
}

/* Merge a chain whose first frame matches n's first frame into n. */
static int append_node(struct pk_callchain_node *n, const struct pk_callchain_frame *const *fp, size_t nr,
		       uint64_t period, uint64_t count, struct memo *m)
{
	size_t k = 1;

	while (k < n->nr_frames && k < nr && !frame_cmp(n->frames[k], fp[k]))
		k++;
	for (size_t i = 0; m->branches && i < k; i++)	/* perf counts each matched frame's branch */
		if (pk__branch_counts_match(&n->bc, n->nr_frames, i, fp[i]) < 0)
			return -ENOMEM;
	if (k < n->nr_frames) {
		m->valid = false;
		return split(m, n, k, fp + k, nr - k, period, count);
	}
	memo_push(m, n);
	if (k == nr) {
		n->hit += period;
		n->count += count;
		m->last = n;
		m->last_new = false;
		return 0;
	}
	return append_children(n, fp + k, nr - k, period, count, m);
}

static int append_children(struct pk_callchain_node *n, const struct pk_callchain_frame *const *fp, size_t nr,
			   uint64_t period, uint64_t count, struct memo *m)
{
	bool found;
	size_t pos = child_pos(n, fp[0], &found);
	int err;

	if (!found)
		m->valid = false;
	err = found ? append_node(n->children[pos], fp, nr, period, count, m)
		    : add_child(m, n, fp, nr, period, count, pos);
	if (!err) {
		n->children_hit += period;
		n->children_count += count;
	}
	return err;
}

/* Whether two frames are the same field for field (so every match gives
 * the same answer for both). */
static bool same_frame(const struct pk_callchain_frame *a, const struct pk_callchain_frame *b)
{
	return a->ip == b->ip && a->sym == b->sym && a->sym_start == b->sym_start && a->dso == b->dso &&
	       a->object == b->object && a->inlined == b->inlined && a->key == b->key &&
	       a->srcline == b->srcline;
}

/* The memo's chain again: its path's nodes take the period as a match
 * would have given it to them.  False when the chain is another. */
static bool memo_hit(struct pk_callchain *cc, const struct pk_callchain_frame *frames, size_t nr,
		     uint64_t period, uint64_t count)
{
	struct memo *m = &cc->memo;

	if (!m->valid || m->nr != nr)
		return false;
	for (size_t i = nr; i-- > 0;)	/* the outer frames differ least: from the leaf */
		if (!same_frame(&m->frames[i], &frames[i]))
			return false;
	cc->root->children_hit += period;
	cc->root->children_count += count;
	for (size_t i = 0; i + 1 < m->depth; i++) {
		m->path[i]->children_hit += period;
		m->path[i]->children_count += count;
	}
	m->path[m->depth - 1]->hit += period;
	m->path[m->depth - 1]->count += count;
	return true;
}

/* The chain just appended as the memo, when its append changed no node. */
static void memo_keep(struct memo *m, const struct pk_callchain_frame *frames, size_t nr)
{
	if (!m->valid || !m->depth)
		return;
	if (nr > m->cap) {
		struct pk_callchain_frame *f = pk__reallocarray(m->frames, nr, sizeof(*f));

		if (!f) {
			m->valid = false;
			return;
		}
		m->frames = f;
		m->cap = nr;
	}
	memcpy(m->frames, frames, nr * sizeof(*frames));
	m->nr = nr;
}

/* m's pointers to frames[0..nr), for the append to read them by. */
static bool point_at(struct memo *m, const struct pk_callchain_frame *frames, size_t nr)
{
	if (nr > m->cap_fp) {
		const struct pk_callchain_frame **fp = pk__reallocarray(m->fps, 2 * nr, sizeof(*fp));

		if (!fp)
			return false;
		m->fps = fp;
		m->cap_fp = 2 * nr;
	}
	for (size_t i = 0; i < nr; i++)
		m->fps[i] = &frames[i];
	m->base = frames;
	return true;
}

int pk__callchain_append(struct pk_callchain *cc, const struct pk_callchain_frame *frames, size_t nr,
			 uint64_t period, uint64_t count, bool branches)
{
	int err;

	if (cc->sorted)
		return pk__error(-EINVAL, "a call chain", "appended after pk_callchain_sort");
	if (branches && count != 1)	/* a branch is counted once per sample */
		return pk__error(-EINVAL, "a call chain", "%" PRIu64 " samples with branches at once", count);
	if (branches && cc->arena.on)	/* its nodes are never freed one by one: nor their counts */
		return pk__error(-EINVAL, "a call chain", "a chain with branches in a tree built to print");
	if (!nr)
		return 0;
	/* branch counts: no memo */
	if (!branches && memo_hit(cc, frames, nr, period, count))
		return 0;
	cc->memo.trail = false;	/* a trail is of kept chains alone */
	if (!point_at(&cc->memo, frames, nr)) {
		cc->memo.valid = false;
		return -ENOMEM;
	}
	cc->memo.valid = true;
	cc->memo.depth = 0;
	cc->memo.branches = branches;
	cc->memo.pool = cc->pool;
	cc->memo.kept = false;	/* new nodes intern their frames */
	err = append_children(cc->root, cc->memo.fps, nr, period, count, &cc->memo);
	if (err || branches)
		cc->memo.valid = false;
	else
		memo_keep(&cc->memo, frames, nr);
	return err;
}

/* n's parents given `count` samples of `period` through n. */
static void add_above(struct pk_callchain_node *n, uint64_t period, uint64_t count)
{
	for (n = n->parent; n; n = n->parent) {
		n->children_hit += period;
		n->children_count += count;
	}
}

/* Where a kept chain's append may start: the deepest node on the last kept
 * chain's path whose frames lie in what the two share (the same pool frames:
 * each match there answers as it did) and past which the new one goes, the
 * position after it in *at; else the root, at 0.  Never the node the last
 * append made: its parent's children changed, so that search is made again. */
static struct pk_callchain_node *resume_node(struct pk_callchain *cc, const struct pk_callchain_frame *const *kept,
					     size_t nr, size_t *at)
{
	const struct memo *m = &cc->memo;
	struct pk_callchain_node *n = m->last;
	size_t shared = 0, end = m->nr_prev;

	*at = 0;
	if (!m->trail)
		return cc->root;
	while (shared < nr && shared < m->nr_prev && kept[shared] == m->prev[shared])
		shared++;
	if (m->last_new) {
		end -= n->nr_frames;
		n = n->parent;
	}
	while (n != cc->root && (end > shared || end == nr)) {
		end -= n->nr_frames;
		n = n->parent;
	}
	*at = n == cc->root ? 0 : end;
	return n;
}

/* The chain kept as the trail; a trail that cannot be kept is dropped. */
static void keep_trail(struct memo *m, const struct pk_callchain_frame *const *kept, size_t nr)
{
	if (nr > m->cap_prev) {
		const struct pk_callchain_frame **p = pk__reallocarray(m->prev, 2 * nr, sizeof(*p));

		if (!p) {
			m->trail = false;
			return;
		}
		m->prev = p;
		m->cap_prev = 2 * nr;
	}
	memcpy(m->prev, kept, nr * sizeof(*kept));
	m->nr_prev = nr;
	m->trail = true;
}

/* The last kept chain again, which found its last node: along its path. */
static bool trail_repeat(struct pk_callchain *cc, const struct pk_callchain_frame *const *kept, size_t nr,
			 uint64_t period, uint64_t count)
{
	const struct memo *m = &cc->memo;

	if (!m->trail || m->last_new || nr != m->nr_prev || memcmp(kept, m->prev, nr * sizeof(*kept)))
		return false;
	m->last->hit += period;
	m->last->count += count;
	add_above(m->last, period, count);
	return true;
}

/* A kept chain appended from where the last one's path and its own part
 * (resume_node), only the rest matched: the tails of one entry mostly
 * share their first frames.  The tree is a whole append's. */
int pk__callchain_append_kept(struct pk_callchain *cc, const struct pk_callchain_frame *const *kept, size_t nr,
			      uint64_t period, uint64_t count)
{
	struct memo *m = &cc->memo;
	struct pk_callchain_node *n;
	size_t at;
	int err;

	if (cc->sorted)
		return pk__error(-EINVAL, "a call chain", "appended after pk_callchain_sort");
	if (!nr || trail_repeat(cc, kept, nr, period, count))
		return 0;
	n = resume_node(cc, kept, nr, &at);
	m->valid = false;	/* the frames memo: pk__callchain_append's */
	m->branches = false;
	m->pool = cc->pool;
	m->kept = true;
	err = append_children(n, kept + at, nr - at, period, count, m);
	m->kept = false;
	if (err) {
		m->trail = false;
		return err;
	}
	add_above(n, period, count);
	keep_trail(m, kept, nr);
	return 0;
}

int pk_callchain_append(struct pk_callchain *cc, const struct pk_callchain_frame *frames, size_t nr,
			uint64_t period)
{
	return pk__callchain_append(cc, frames, nr, period, 1, pk__branch_frames_any(frames, nr));
}

/* n's frames after path[0..depth), and n's own samples appended to dst
 * with that whole path; then its children, in match order. */
static int merge_node(struct pk_callchain *dst, const struct pk_callchain_node *n,
		      struct pk_callchain_frame **path, size_t *cap, size_t depth)
{
	size_t nr = depth + n->nr_frames;
	int err = 0;

	if (nr > *cap) {
		size_t c = nr * 2;
		struct pk_callchain_frame *p = pk__reallocarray(*path, c, sizeof(*p));

		if (!p)
			return pk__error_nomem("a call chain's merge");
		*path = p;
		*cap = c;
	}
	for (size_t i = 0; i < n->nr_frames; i++)
		(*path)[depth + i] = *n->frames[i];
	if (n->hit)
		err = pk__callchain_append(dst, *path, nr, n->hit, 1, false);
	for (size_t i = 0; !err && i < n->nr_children; i++)
		err = merge_node(dst, n->children[i], path, cap, nr);
	return err;
}

int pk__callchain_merge(struct pk_callchain *dst, const struct pk_callchain *src)
{
	struct pk_callchain_frame *path = NULL;
	size_t cap = 0;
	int err = merge_node(dst, src->root, &path, &cap, 0);

	free(path);
	return err;
}
