/* SPDX-License-Identifier: MIT */
/*
 * hist-chains.c - a histogram's call chains kept for trees built later
 * (pk_hist_defer_chains).  perf's children mode gives every entry a tree of
 * the chains through it: a deep profile's trees hold many times the nodes
 * of its chains, all of them kept to the end.  Here each distinct chain is
 * kept once, with the entries it counted in (each by the first frame of
 * the tail it gave that entry) and the sums of its samples; an entry's tree
 * is made when it is asked for, by appending its tails in the order the
 * chains were first added: a chain added again follows the path its first
 * append made, so the tree has the same nodes, frames and sums as one
 * built sample by sample.
 */
#include "hist-int.h"
#include "sys/sys.h"
#include "callchain-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One distinct chain: its frames (pool pointers) and refs, by offset. */
struct rec {
	uint64_t hash;
	uint64_t period, count;
	uint32_t frames_at, nr_frames;
	uint32_t refs_at, nr_refs;
};

/* Where an entry's tail is: the chain and the tail's first frame. */
struct use {
	uint32_t rec, k;
};

/* A chain's ref to an entry until the chains are indexed; the same slot
 * then holds one of an entry's uses (pk__hist_chains_index moves the refs
 * into the uses' order in place: the two never coexist). */
union slot {
	struct pk__hist_ref ref;
	struct use use;
};
_Static_assert(sizeof(union slot) == sizeof(struct pk__hist_ref), "refs copied and compared as slots");

struct pk__hist_chains {
	struct rec *recs;
	size_t nr_recs, cap_recs;
	const struct pk_callchain_frame **frames;
	size_t nr_frames, cap_frames;
	union slot *refs;	/* each chain's refs in turn; once indexed, the uses:
				 * entry id i's at refs[at[i] .. at[i + 1]) */
	size_t nr_refs, cap_refs;
	uint32_t *table;	/* chain index + 1, 0 empty; at most half full */
	size_t table_cap;
	uint32_t *at;		/* pk__hist_chains_index's, NULL before */
	size_t nr_ids;
};

int pk__hist_chains_new(struct pk__hist_chains **out)
{
	if (!(*out = pk__calloc(1, sizeof(**out))))
		return pk__error_nomem("a histogram's call chains");
	return 0;
}

void pk__hist_chains_free(struct pk__hist_chains *t)
{
	if (!t)
		return;
	free(t->recs);
	free(t->frames);
	free(t->refs);
	free(t->table);
	free(t->at);
	free(t);
}

/* Room for `more` items in an array of *cap (grown by half: what is
 * left unused stays under a third); false: no memory or more than a u32
 * offset reaches. */
static bool room(void **a, size_t *cap, size_t nr, size_t more, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *p;

	if (nr + more <= *cap)
		return true;
	if (nr + more > UINT32_MAX)
		return false;
	while (c < nr + more)
		c *= 2;
	if (!(p = pk__reallocarray(*a, c, size)))
		return false;
	*a = p;
	*cap = c;
	return true;
}

static uint64_t chain_hash(const struct pk_callchain_frame *chain, size_t nr, const struct pk__hist_ref *refs,
			   size_t nr_refs)
{
	uint64_t h = nr * 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < nr; i++)
		h = (h ^ pk__frame_hash(&chain[i])) * 0xff51afd7ed558ccdull;
	for (size_t i = 0; i < nr_refs; i++)
		h = (h ^ ((uint64_t)refs[i].id << 32 | refs[i].k)) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 31);
}

static bool same_chain(const struct pk__hist_chains *t, const struct rec *r, uint64_t hash,
		       const struct pk_callchain_frame *chain, size_t nr, const struct pk__hist_ref *refs,
		       size_t nr_refs)
{
	const struct pk_callchain_frame *const *f = t->frames + r->frames_at;

	if (r->hash != hash || r->nr_frames != nr || r->nr_refs != nr_refs ||
	    memcmp(t->refs + r->refs_at, refs, nr_refs * sizeof(*refs)))
		return false;
	for (size_t i = 0; i < nr; i++)
		if (!pk__frame_same(f[i], &chain[i]))
			return false;
	return true;
}

/* The table's slot for hash: its chain's, or the empty one to put it in. */
static uint32_t *slot_of(const struct pk__hist_chains *t, uint64_t hash, const struct pk_callchain_frame *chain,
			 size_t nr, const struct pk__hist_ref *refs, size_t nr_refs)
{
	size_t i = hash & (t->table_cap - 1);

	while (t->table[i] && !same_chain(t, &t->recs[t->table[i] - 1], hash, chain, nr, refs, nr_refs))
		i = (i + 1) & (t->table_cap - 1);
	return &t->table[i];
}

static bool grow_table(struct pk__hist_chains *t)
{
	size_t cap = t->table_cap ? 2 * t->table_cap : 1024;
	uint32_t *table = pk__calloc(cap, sizeof(*table));

	if (!table)
		return false;
	for (size_t i = 0; i < t->nr_recs; i++) {
		size_t j = t->recs[i].hash & (cap - 1);

		while (table[j])
			j = (j + 1) & (cap - 1);
		table[j] = (uint32_t)(i + 1);
	}
	free(t->table);
	t->table = table;
	t->table_cap = cap;
	return true;
}

/* A new chain, its frames interned in pool. */
static int put_new(struct pk__hist_chains *t, struct pk__frame_pool *pool, uint64_t hash,
		   const struct pk_callchain_frame *chain, size_t nr, const struct pk__hist_ref *refs,
		   size_t nr_refs, uint64_t period, uint64_t count)
{
	struct rec *r;

	if (!room((void **)&t->recs, &t->cap_recs, t->nr_recs, 1, sizeof(*t->recs)) ||
	    !room((void **)&t->frames, &t->cap_frames, t->nr_frames, nr, sizeof(*t->frames)) ||
	    !room((void **)&t->refs, &t->cap_refs, t->nr_refs, nr_refs, sizeof(*t->refs)))
		return pk__error_nomem("a histogram's call chains");
	for (size_t i = 0; i < nr; i++)
		if (!(t->frames[t->nr_frames + i] = pk__frame_pool_intern(pool, &chain[i])))
			return pk__error_nomem("a histogram's call chains");
	memcpy(t->refs + t->nr_refs, refs, nr_refs * sizeof(*refs));
	r = &t->recs[t->nr_recs];
	*r = (struct rec){ .hash = hash, .period = period, .count = count,
			   .frames_at = (uint32_t)t->nr_frames, .nr_frames = (uint32_t)nr,
			   .refs_at = (uint32_t)t->nr_refs, .nr_refs = (uint32_t)nr_refs };
	t->nr_frames += nr;
	t->nr_refs += nr_refs;
	*slot_of(t, hash, chain, nr, refs, nr_refs) = (uint32_t)++t->nr_recs;
	return 0;
}

int pk__hist_chains_add(struct pk__hist_chains *t, struct pk__frame_pool *pool,
			const struct pk_callchain_frame *chain, size_t nr, const struct pk__hist_ref *refs,
			size_t nr_refs, uint64_t period, uint64_t count)
{
	uint64_t hash = chain_hash(chain, nr, refs, nr_refs);
	uint32_t *slot;

	if (t->at)
		return pk__error(-EINVAL, "a histogram's call chains", "a chain added after they were indexed");
	if (2 * (t->nr_recs + 1) > t->table_cap && !grow_table(t))
		return pk__error_nomem("a histogram's call chains");
	slot = slot_of(t, hash, chain, nr, refs, nr_refs);
	if (!*slot)
		return put_new(t, pool, hash, chain, nr, refs, nr_refs, period, count);
	t->recs[*slot - 1].period += period;
	t->recs[*slot - 1].count += count;
	return 0;
}

/* *a, of *cap items of `size`, made nr long (what doubling left over
 * given back; kept as it is when that fails). */
static void fit(void **a, size_t *cap, size_t nr, size_t size)
{
	void *p;

	if (nr && nr < *cap && (p = pk__reallocarray(*a, nr, size))) {
		*a = p;
		*cap = nr;
	}
}

/* The chain whose refs hold slot p: the last with refs_at <= p, found
 * from first[p / 64], the chain holding slot p rounded down to 64 (a chain
 * holds 18 refs on average: a few steps). */
static uint32_t rec_of(const struct pk__hist_chains *t, const uint32_t *first, size_t p)
{
	uint32_t r = first[p / 64];

	while (r + 1 < t->nr_recs && t->recs[r + 1].refs_at <= p)
		r++;
	return r;
}

/* Each id's start in at[] (at[id] its count before): 0, or -EINVAL for a
 * ref past nr_ids. */
static int starts(struct pk__hist_chains *t, size_t nr_ids)
{
	for (size_t i = 0; i < t->nr_refs; i++) {	/* counts, then each id's start */
		if (t->refs[i].ref.id >= nr_ids)
			return pk__error(-EINVAL, "a histogram's call chains", "an entry beyond the %zu given",
					 nr_ids);
		t->at[t->refs[i].ref.id + 1]++;
	}
	for (size_t i = 0; i < nr_ids; i++)
		t->at[i + 1] += t->at[i];
	return 0;
}

/* Every ref moved to its use's slot, in place: each ref's id replaced by
 * its slot (ids in turn, the chains' order kept within an id), then the
 * cycles of that permutation followed, each slot's ref picked up before
 * its use is put there.  `done` marks the slots that hold their use. */
static void refs_to_uses(struct pk__hist_chains *t, const uint32_t *first, uint64_t *done)
{
	for (size_t i = 0; i < t->nr_refs; i++)
		t->refs[i].ref.id = t->at[t->refs[i].ref.id]++;
	for (size_t i = t->nr_ids; i > 0; i--)	/* each start moved to the next one's: back */
		t->at[i] = t->at[i - 1];
	t->at[0] = 0;
	for (size_t p0 = 0; p0 < t->nr_refs; p0++) {
		struct pk__hist_ref ref;
		uint32_t rec;

		if (done[p0 / 64] >> (p0 % 64) & 1)
			continue;
		ref = t->refs[p0].ref;
		rec = rec_of(t, first, p0);
		for (;;) {
			size_t d = ref.id;
			struct pk__hist_ref next = t->refs[d].ref;
			uint32_t next_rec = d == p0 ? 0 : rec_of(t, first, d);

			t->refs[d].use = (struct use){ rec, ref.k };
			done[d / 64] |= 1ull << (d % 64);
			if (d == p0)
				break;
			ref = next;
			rec = next_rec;
		}
	}
}

int pk__hist_chains_index(struct pk__hist_chains *t, size_t nr_ids)
{
	uint64_t *done = NULL;
	uint32_t *first = NULL;
	int err;

	if (t->at)
		return 0;
	free(t->table);	/* no chain comes after */
	t->table = NULL;
	t->table_cap = 0;
	fit((void **)&t->recs, &t->cap_recs, t->nr_recs, sizeof(*t->recs));
	fit((void **)&t->frames, &t->cap_frames, t->nr_frames, sizeof(*t->frames));
	fit((void **)&t->refs, &t->cap_refs, t->nr_refs, sizeof(*t->refs));
	if (nr_ids >= UINT32_MAX || !(t->at = pk__calloc(nr_ids + 1, sizeof(*t->at))) ||
	    !(done = pk__calloc(t->nr_refs / 64 + 1, sizeof(*done))) ||
	    !(first = pk__calloc(t->nr_refs / 64 + 1, sizeof(*first)))) {
		err = pk__error_nomem("a histogram's call chains");
		goto out;
	}
	if ((err = starts(t, nr_ids)) < 0)
		goto out;
	for (size_t r = 0; r < t->nr_recs; r++)	/* the chain at each 64th slot */
		for (size_t p = (t->recs[r].refs_at + 63) / 64 * 64; p < t->recs[r].refs_at + t->recs[r].nr_refs;
		     p += 64)
			first[p / 64] = (uint32_t)r;
	t->nr_ids = nr_ids;
	refs_to_uses(t, first, done);
out:
	if (err < 0) {
		free(t->at);
		t->at = NULL;
	}
	free(done);
	free(first);
	return err;
}

/* Chain c's tail from frame k appended to cc (its frames the pool's). */
static int append_tail(const struct pk__hist_chains *t, const struct rec *c, uint32_t k, struct pk_callchain *cc)
{
	if (k > c->nr_frames)
		return pk__error(-EINVAL, "a histogram's call chains", "a tail past its chain's end");
	return pk__callchain_append_kept(cc, t->frames + c->frames_at + k, c->nr_frames - k, c->period, c->count);
}

/* The period of entry id's tree's root, when indexed: its tails' but the
 * empty ones' (an empty chain adds nothing to a tree). */
static uint64_t period_of(const struct pk__hist_chains *t, uint32_t id)
{
	uint64_t sum = 0;

	for (uint32_t u = t->at[id]; u < t->at[id + 1]; u++)
		if (t->refs[u].use.k < t->recs[t->refs[u].use.rec].nr_frames)
			sum += t->recs[t->refs[u].use.rec].period;
	return sum;
}

int pk__hist_chains_build(const struct pk__hist_chains *t, struct pk__frame_pool *pool, uint32_t id,
			  uint64_t min_period, struct pk_callchain **out)
{
	int err = 0;

	*out = NULL;
	if (!t->nr_recs || (t->at && (id >= t->nr_ids || t->at[id] == t->at[id + 1] ||
				      (min_period && period_of(t, id) < min_period))))
		return 0;
	if ((err = pk__callchain_new_arena(out, pool)) < 0)
		return err;
	if (t->at) {	/* indexed: the id's own uses */
		for (uint32_t u = t->at[id]; !err && u < t->at[id + 1]; u++)
			err = append_tail(t, &t->recs[t->refs[u].use.rec], t->refs[u].use.k, *out);
	} else {	/* not yet: every chain looked through */
		bool any = false;

		for (size_t r = 0; !err && r < t->nr_recs; r++)
			for (size_t i = 0; !err && i < t->recs[r].nr_refs; i++)
				if (t->refs[t->recs[r].refs_at + i].ref.id == id) {
					any = true;
					err = append_tail(t, &t->recs[r], t->refs[t->recs[r].refs_at + i].ref.k, *out);
				}
		if (!any || (min_period && pk_callchain_node_cumul(pk_callchain_root(*out)) < min_period)) {
			pk_callchain_free(*out);
			*out = NULL;
		}
	}
	if (err < 0) {
		pk_callchain_free(*out);
		*out = NULL;
	}
	return err;
}

int pk_hist_defer_chains(struct pk_hist *h)
{
	if (h->nr || h->nr_samples)
		return pk__error(-EINVAL, "a histogram", "chains deferred after samples were added");
	if (h->deferred || h->no_trees)
		return 0;
	return pk__hist_chains_new(&h->deferred);
}

int pk_hist_no_trees(struct pk_hist *h)
{
	if (h->nr || h->nr_samples)
		return pk__error(-EINVAL, "a histogram", "trees given up after samples were added");
	pk__hist_chains_free(h->deferred);
	h->deferred = NULL;
	h->no_trees = true;
	return 0;
}

int pk_hist_chain(const struct pk_hist *h, const struct pk_hist_entry *e, uint64_t min_period,
		  struct pk_callchain **out)
{
	if (!h->deferred || e->chain) {
		*out = e->chain && pk_callchain_node_cumul(pk_callchain_root(e->chain)) >= min_period ? e->chain
												       : NULL;
		return 0;
	}
	return pk__hist_chains_build(h->deferred, h->pool, e->ref, min_period, out);
}

void pk_hist_chain_put(const struct pk_hist_entry *e, struct pk_callchain *cc)
{
	if (cc != e->chain)
		pk_callchain_free(cc);
}

int pk__hist_undefer(struct pk_hist *h)
{
	int err = 0;
	size_t i;

	for (i = 0; i < h->nr && !err; i++)
		err = pk__hist_chains_build(h->deferred, h->pool, h->entries[i].ref, 0, &h->entries[i].chain);
	if (err < 0) {
		while (i-- > 0) {
			pk_callchain_free(h->entries[i].chain);
			h->entries[i].chain = NULL;
		}
		return err;
	}
	pk__hist_chains_free(h->deferred);
	h->deferred = NULL;
	return 0;
}
