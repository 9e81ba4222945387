/* SPDX-License-Identifier: MIT */
/*
 * chain-memo.h - the resolver's memo of resolved call chains
 * (chain-memo.c): the frames a chain resolved to, kept under its key, a
 * process and the addresses the frames were built from, so that a repeat
 * of the key in the same generation is handed the same frames and chain id
 * instead of being resolved again.
 */
#ifndef PK_SESSION_CHAIN_MEMO_H
#define PK_SESSION_CHAIN_MEMO_H

#include "perfkit.h"

#include <string.h>

/* What a chain's frames are built from: the process's raw
 * PERF_SAMPLE_CALLCHAIN entries, then the unwinder's addresses for its
 * user stack (none for a sample without one).  `hash` is
 * pk__chain_memo_hash's of the rest. */
struct pk__chain_key {
	uint32_t pid;
	const uint64_t *chain;
	size_t nr_chain;
	const uint64_t *unwound;
	size_t nr_unwound;
	uint64_t hash;
};

/* The memo is here, not in chain-memo.c, so that its hash and lookup,
 * once a sample, inline into the resolver (two calls and their saved
 * registers were half of a repeat's cost).  The samples of a hot
 * workload repeat a few chains. */
#define PK__CHAIN_MEMO_SIZE 256	/* a power of two */
#define PK__CHAIN_MEMO_WAYS 4	/* slots a key may be in: a set */

/* One key's addresses and frames, in one of the slots of the set its hash
 * picks. */
struct pk__chain_slot {
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
	struct pk__chain_slot slots[PK__CHAIN_MEMO_SIZE];
};

/* pk__chain_memo_new - an empty memo in *out; 0 or -ENOMEM. */
int pk__chain_memo_new(struct pk__chain_memo **out);

/* pk__chain_memo_free - free it and every frame it kept; NULL is a no-op. */
void pk__chain_memo_free(struct pk__chain_memo *m);

/* pk__chain_memo_forget - what the memo holds may no longer be what its
 * keys resolve to: start a generation in which none of it is found. */
void pk__chain_memo_forget(struct pk__chain_memo *m);

/* pk__chain_memo_mix - h with each of nr addresses mixed in. */
static inline uint64_t pk__chain_memo_mix(uint64_t h, const uint64_t *ips, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0xff51afd7ed558ccdull;
	return h;
}

/* pk__chain_memo_hash - the hash of key k's fields but `hash`: equal keys
 * hash alike; a key without unwound addresses hashes as its chain alone
 * always has (pk_resolver_chain_key's hash). */
static inline uint64_t pk__chain_memo_hash(const struct pk__chain_key *k)
{
	uint64_t h = ((uint64_t)k->pid << 32 | k->nr_chain) * 0x9e3779b97f4a7c15ull;

	h = pk__chain_memo_mix(h, k->chain, k->nr_chain);

	if (k->nr_unwound)
		h = pk__chain_memo_mix((h ^ k->nr_unwound) * 0x9e3779b97f4a7c15ull, k->unwound, k->nr_unwound);
	return h ^ (h >> 29);
}

/* pk__chain_memo_set - the first of the PK__CHAIN_MEMO_WAYS slots a key
 * of this hash may be in. */
static inline size_t pk__chain_memo_set(uint64_t hash)
{
	return (hash >> 40) & (PK__CHAIN_MEMO_SIZE - PK__CHAIN_MEMO_WAYS);
}

/* pk__chain_memo_same - whether n addresses at a and b are the same
 * (memcmp and memcpy must not be given NULL, even for no bytes). */
static inline bool pk__chain_memo_same(const uint64_t *a, const uint64_t *b, size_t n)
{
	return !n || !memcmp(a, b, n * sizeof(*a));
}

/*
 * pk__chain_memo_get - whether the memo holds key k (its hash set) in
 * this generation; if so, *frames, *nr and *id are what it was stored
 * with, valid until the next pk__chain_memo_put, _forget or _free.
 */
static inline bool pk__chain_memo_get(const struct pk__chain_memo *m, const struct pk__chain_key *k,
				      const struct pk_frame **frames, size_t *nr, uint64_t *id)
{
	const struct pk__chain_slot *set = &m->slots[pk__chain_memo_set(k->hash)];

	for (size_t w = 0; w < PK__CHAIN_MEMO_WAYS; w++) {
		const struct pk__chain_slot *c = &set[w];

		if (c->hash != k->hash || c->gen != m->gen || c->pid != k->pid || c->nr_chain != k->nr_chain ||
		    c->nr_unwound != k->nr_unwound || !pk__chain_memo_same(c->ips, k->chain, k->nr_chain) ||
		    !pk__chain_memo_same(c->ips + k->nr_chain, k->unwound, k->nr_unwound))
			continue;
		*frames = c->frames;
		*nr = c->nr_frames;
		*id = c->id;
		return true;
	}
	return false;
}

/*
 * pk__chain_memo_put - keep a copy of `nr` frames as what key k (its hash
 * set) resolves to in this generation, under a new chain id (never 0, never
 * handed out before), in a slot of its set from a past generation, or else
 * in place of the one kept longest (so a generation with no more than
 * PK__CHAIN_MEMO_WAYS keys in a set puts none out).  Returns the id, or 0
 * when out of memory or k has no address (nothing kept: the memo only
 * saves work).
 */
uint64_t pk__chain_memo_put(struct pk__chain_memo *m, const struct pk__chain_key *k,
			    const struct pk_frame *frames, size_t nr);

#endif
