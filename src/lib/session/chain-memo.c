/* SPDX-License-Identifier: MIT */
/*
 * chain-memo.c - the resolver's memo of resolved call chains (see
 * chain-memo.h): direct-mapped by the key's hash, each slot holding one
 * key's addresses (its raw chain, then its unwound ones) and a copy of
 * its frames.  A slot is good while its generation is the memo's: the
 * resolver starts a new one whenever the maps, the threads or an option
 * may change what an address resolves to.
 */
#include "chain-memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The samples of a hot workload repeat a few chains. */
#define CHAIN_MEMO_SIZE 256	/* a power of two */

struct chain_slot {
	uint64_t hash;
	uint32_t pid;
	uint32_t gen;			/* 0: empty */
	uint64_t id;			/* pk_resolved_sample.chain_id of its frames */
	uint64_t *ips;			/* the key's chain, then its unwound addresses */
	size_t nr_chain, nr_unwound, cap_ips;
	struct pk_frame *frames;	/* what they resolved to */
	size_t nr_frames, cap_frames;
};

struct pk__chain_memo {
	uint32_t gen;			/* the live generation, never 0 */
	uint64_t last_id;		/* the last chain id handed out */
	struct chain_slot slots[CHAIN_MEMO_SIZE];
};

int pk__chain_memo_new(struct pk__chain_memo **out)
{
	if (!(*out = calloc(1, sizeof(**out))))
		return -ENOMEM;
	(*out)->gen = 1;
	return 0;
}

void pk__chain_memo_free(struct pk__chain_memo *m)
{
	for (size_t i = 0; m && i < CHAIN_MEMO_SIZE; i++) {
		free(m->slots[i].ips);
		free(m->slots[i].frames);
	}
	free(m);
}

void pk__chain_memo_forget(struct pk__chain_memo *m)
{
	if (++m->gen == 0) {	/* wrapped: no slot may look current */
		for (size_t i = 0; i < CHAIN_MEMO_SIZE; i++)
			m->slots[i].gen = 0;
		m->gen = 1;
	}
}

static uint64_t mix(uint64_t h, const uint64_t *ips, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0xff51afd7ed558ccdull;
	return h;
}

uint64_t pk__chain_memo_hash(const struct pk__chain_key *k)
{
	uint64_t h = mix(((uint64_t)k->pid << 32 | k->nr_chain) * 0x9e3779b97f4a7c15ull, k->chain, k->nr_chain);

	if (k->nr_unwound)
		h = mix((h ^ k->nr_unwound) * 0x9e3779b97f4a7c15ull, k->unwound, k->nr_unwound);
	return h ^ (h >> 29);
}

static size_t slot_of(uint64_t hash)
{
	return (hash >> 40) & (CHAIN_MEMO_SIZE - 1);
}

/* (memcmp and memcpy must not be given NULL, even for no bytes) */
static bool same_ips(const uint64_t *a, const uint64_t *b, size_t n)
{
	return !n || !memcmp(a, b, n * sizeof(*a));
}

bool pk__chain_memo_get(const struct pk__chain_memo *m, const struct pk__chain_key *k,
			const struct pk_frame **frames, size_t *nr, uint64_t *id)
{
	const struct chain_slot *c = &m->slots[slot_of(k->hash)];

	if (c->gen != m->gen || c->hash != k->hash || c->pid != k->pid || c->nr_chain != k->nr_chain ||
	    c->nr_unwound != k->nr_unwound || !same_ips(c->ips, k->chain, k->nr_chain) ||
	    !same_ips(c->ips + k->nr_chain, k->unwound, k->nr_unwound))
		return false;
	*frames = c->frames;
	*nr = c->nr_frames;
	*id = c->id;
	return true;
}

/* Room in c for n addresses and nr frames; false out of memory. */
static bool slot_room(struct chain_slot *c, size_t n, size_t nr)
{
	if (n > c->cap_ips) {
		uint64_t *ips = realloc(c->ips, n * sizeof(*ips));

		if (!ips)
			return false;
		c->ips = ips;
		c->cap_ips = n;
	}
	if (nr > c->cap_frames) {
		struct pk_frame *f = realloc(c->frames, nr * sizeof(*f));

		if (!f)
			return false;
		c->frames = f;
		c->cap_frames = nr;
	}
	return true;
}

uint64_t pk__chain_memo_put(struct pk__chain_memo *m, const struct pk__chain_key *k,
			    const struct pk_frame *frames, size_t nr)
{
	struct chain_slot *c = &m->slots[slot_of(k->hash)];

	if (!k->nr_chain && !k->nr_unwound)
		return 0;
	c->gen = 0;
	if (!slot_room(c, k->nr_chain + k->nr_unwound, nr))
		return 0;
	if (k->nr_chain)
		memcpy(c->ips, k->chain, k->nr_chain * sizeof(*c->ips));
	if (k->nr_unwound)
		memcpy(c->ips + k->nr_chain, k->unwound, k->nr_unwound * sizeof(*c->ips));
	if (nr)
		memcpy(c->frames, frames, nr * sizeof(*frames));
	c->hash = k->hash;
	c->pid = k->pid;
	c->nr_chain = k->nr_chain;
	c->nr_unwound = k->nr_unwound;
	c->nr_frames = nr;
	c->id = ++m->last_id;
	c->gen = m->gen;
	return c->id;
}
