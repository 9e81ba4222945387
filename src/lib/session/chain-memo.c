/* SPDX-License-Identifier: MIT */
/*
 * chain-memo.c - the resolver's memo of resolved call chains (see
 * chain-memo.h): set-associative by the key's hash, each slot holding one
 * key's addresses (its raw chain, then its unwound ones) and a copy of
 * its frames.  A slot is good while its generation is the memo's: the
 * resolver starts a new one whenever the maps, the threads or an option
 * may change what an address resolves to.
 */
#include "chain-memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pk__chain_memo_new(struct pk__chain_memo **out)
{
	if (!(*out = calloc(1, sizeof(**out))))
		return -ENOMEM;
	(*out)->gen = 1;
	return 0;
}

void pk__chain_memo_free(struct pk__chain_memo *m)
{
	for (size_t i = 0; m && i < PK__CHAIN_MEMO_SIZE; i++) {
		free(m->slots[i].ips);
		free(m->slots[i].frames);
	}
	free(m);
}

void pk__chain_memo_forget(struct pk__chain_memo *m)
{
	if (++m->gen == 0) {	/* wrapped: no slot may look current */
		for (size_t i = 0; i < PK__CHAIN_MEMO_SIZE; i++)
			m->slots[i].gen = 0;
		m->gen = 1;
	}
}


/* Room in c for n addresses and nr frames; false out of memory. */
static bool slot_room(struct pk__chain_slot *c, size_t n, size_t nr)
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

/* The slot of k's set to put it in: one of a past generation, or else the
 * one put there first (the smallest id: ids only grow). */
static struct pk__chain_slot *slot_for(struct pk__chain_memo *m, const struct pk__chain_key *k)
{
	struct pk__chain_slot *set = &m->slots[pk__chain_memo_set(k->hash)], *old = set;

	for (size_t w = 0; w < PK__CHAIN_MEMO_WAYS; w++) {
		if (set[w].gen != m->gen)
			return &set[w];
		if (set[w].id < old->id)
			old = &set[w];
	}
	return old;
}

uint64_t pk__chain_memo_put(struct pk__chain_memo *m, const struct pk__chain_key *k,
			    const struct pk_frame *frames, size_t nr)
{
	struct pk__chain_slot *c = slot_for(m, k);

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
