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

struct pk__chain_memo;

/* pk__chain_memo_new - an empty memo in *out; 0 or -ENOMEM. */
int pk__chain_memo_new(struct pk__chain_memo **out);

/* pk__chain_memo_free - free it and every frame it kept; NULL is a no-op. */
void pk__chain_memo_free(struct pk__chain_memo *m);

/* pk__chain_memo_forget - what the memo holds may no longer be what its
 * keys resolve to: start a generation in which none of it is found. */
void pk__chain_memo_forget(struct pk__chain_memo *m);

/* pk__chain_memo_hash - the hash of key k's fields but `hash`: equal keys
 * hash alike; a key without unwound addresses hashes as its chain alone
 * always has (pk_resolver_chain_key's hash). */
uint64_t pk__chain_memo_hash(const struct pk__chain_key *k);

/*
 * pk__chain_memo_get - whether the memo holds key k (its hash set) in
 * this generation; if so, *frames, *nr and *id are what it was stored
 * with, valid until the next pk__chain_memo_put, _forget or _free.
 */
bool pk__chain_memo_get(const struct pk__chain_memo *m, const struct pk__chain_key *k,
			const struct pk_frame **frames, size_t *nr, uint64_t *id);

/*
 * pk__chain_memo_put - keep a copy of `nr` frames as what key k (its hash
 * set) resolves to in this generation, under a new chain id (never 0, never
 * handed out before), in place of whatever shared its slot.  Returns the
 * id, or 0 when out of memory or k has no address (nothing kept: the
 * memo only saves work).
 */
uint64_t pk__chain_memo_put(struct pk__chain_memo *m, const struct pk__chain_key *k,
			    const struct pk_frame *frames, size_t nr);

#endif
