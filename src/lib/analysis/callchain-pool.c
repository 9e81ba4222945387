/* SPDX-License-Identifier: MIT */
/*
 * callchain-pool.c - the frames of call-chain trees, each kept once.  A
 * node holds pointers to its frames, which live here: a profile's trees
 * (perf's children mode makes one per entry, each holding the chains
 * through its symbol) name the same few thousand frames in hundreds of
 * thousands of nodes, and a frame is 72 bytes against a pointer's 8.
 * Frames are equal field for field (a node's frames hold no branch);
 * they sit in chunks that never move, so a pointer stays good until the
 * pool's last reference goes.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "callchain-int.h"

#include <stdint.h>
#include <stdlib.h>

#define CHUNK_FRAMES 256

struct chunk {
	struct chunk *next;
	size_t used;
	struct pk_callchain_frame f[CHUNK_FRAMES];
};

struct pk__frame_pool {
	const struct pk_callchain_frame **slot;	/* open addressing, NULL: free */
	size_t cap, nr;			/* cap a power of two, nr <= cap / 2 */
	struct chunk *chunks;		/* the newest first */
	size_t refs;
};

struct pk__frame_pool *pk__frame_pool_new(void)
{
	struct pk__frame_pool *p = pk__calloc(1, sizeof(*p));

	if (p)
		p->refs = 1;
	return p;
}

struct pk__frame_pool *pk__frame_pool_get(struct pk__frame_pool *p)
{
	p->refs++;
	return p;
}

void pk__frame_pool_put(struct pk__frame_pool *p)
{
	if (!p || --p->refs)
		return;
	for (struct chunk *c = p->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(p->slot);
	free(p);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

uint64_t pk__frame_hash(const struct pk_callchain_frame *f)
{
	uint64_t h = mix(0, f->ip);

	h = mix(h, (uintptr_t)f->sym);
	h = mix(h, (uintptr_t)f->dso);
	h = mix(h, f->sym_start);
	h = mix(h, (uintptr_t)f->object);
	h = mix(h, (uintptr_t)f->srcline);
	h = mix(h, (uint64_t)f->key << 1 | f->inlined);
	return h * 0xff51afd7ed558ccdULL;
}

bool pk__frame_same(const struct pk_callchain_frame *a, const struct pk_callchain_frame *b)
{
	return a->ip == b->ip && a->sym == b->sym && a->sym_start == b->sym_start && a->dso == b->dso &&
	       a->object == b->object && a->inlined == b->inlined && a->key == b->key &&
	       a->srcline == b->srcline;
}

/* The table twice as large, every frame placed again. */
static bool grow(struct pk__frame_pool *p)
{
	size_t cap = p->cap ? 2 * p->cap : 1024;
	const struct pk_callchain_frame **slot = pk__calloc(cap, sizeof(*slot));

	if (!slot)
		return false;
	for (size_t i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->slot[i])
			continue;
		for (j = pk__frame_hash(p->slot[i]) >> 20 & (cap - 1); slot[j]; j = (j + 1) & (cap - 1))
			;
		slot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
	return true;
}

const struct pk_callchain_frame *pk__frame_pool_intern(struct pk__frame_pool *p,
							const struct pk_callchain_frame *f)
{
	struct pk_callchain_frame *kept;
	size_t j;

	if (2 * (p->nr + 1) > p->cap && !grow(p))
		return NULL;
	for (j = pk__frame_hash(f) >> 20 & (p->cap - 1); p->slot[j]; j = (j + 1) & (p->cap - 1))
		if (pk__frame_same(p->slot[j], f))
			return p->slot[j];
	if (!p->chunks || p->chunks->used == CHUNK_FRAMES) {
		struct chunk *c = pk__malloc(sizeof(*c));

		if (!c)
			return NULL;
		c->next = p->chunks;
		c->used = 0;
		p->chunks = c;
	}
	kept = &p->chunks->f[p->chunks->used++];
	*kept = *f;
	kept->branch = NULL;	/* the caller's, gone after the append */
	p->slot[j] = kept;
	p->nr++;
	return kept;
}
