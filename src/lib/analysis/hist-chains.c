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
 * built sample by sample.  The chains' frames and refs, nearly a
 * sample's worth each in a DWARF profile, are arrays that move to a
 * temporary file past a budget (sys/spill.c): written once, read back to
 * index them and to build the trees printed, their pages are let go as
 * they are passed.
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

/* A chain's ref to an entry until the chains are indexed; then one of an
 * entry's uses (pk__hist_chains_index writes them in a new array that
 * takes the refs' place). */
union slot {
	struct pk__hist_ref ref;
	struct use use;
};
_Static_assert(sizeof(union slot) == sizeof(struct pk__hist_ref), "refs copied and compared as slots");

struct pk__hist_chains {
	struct rec *recs;
	size_t nr_recs, cap_recs;
	/* The frames (pool pointers), and each chain's refs in turn; once
	 * indexed, the slots are the uses: entry id i's at [at[i], at[i + 1]).
	 * Pointers to spill[], so that a const table's builds count what
	 * they read (pk__spill_touch). */
	struct pk__spill *frames, *slots;
	struct pk__spill spill[2];
	size_t nr_frames, nr_refs;
	uint32_t *table;	/* chain index + 1, 0 empty; at most half full */
	size_t table_cap;
	uint32_t *at;		/* pk__hist_chains_index's, NULL before */
	uint64_t *root;		/* ... and each id's tree's root period */
	size_t nr_ids;
};

static const struct pk_callchain_frame **frames_of(const struct pk__hist_chains *t)
{
	return (const struct pk_callchain_frame **)(void *)t->frames->p;
}

static union slot *slots_of(const struct pk__hist_chains *t)
{
	return (union slot *)(void *)t->slots->p;
}

int pk__hist_chains_new(struct pk__hist_chains **out)
{
	if (!(*out = pk__calloc(1, sizeof(**out))))
		return pk__error_nomem("a histogram's call chains");
	(*out)->frames = &(*out)->spill[0];
	(*out)->slots = &(*out)->spill[1];
	pk__spill_init((*out)->frames);
	pk__spill_init((*out)->slots);
	return 0;
}

void pk__hist_chains_free(struct pk__hist_chains *t)
{
	if (!t)
		return;
	free(t->recs);
	pk__spill_free(t->frames);
	pk__spill_free(t->slots);
	free(t->table);
	free(t->at);
	free(t->root);
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

/* Room for `more` items of `size` after nr in spill array s; false: no
 * memory or more than a u32 offset reaches. */
static bool spill_room(struct pk__spill *s, size_t nr, size_t more, size_t size)
{
	return nr + more <= UINT32_MAX && pk__spill_reserve(s, (nr + more) * size) == 0;
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
	const struct pk_callchain_frame *const *f = frames_of(t) + r->frames_at;

	if (r->hash != hash || r->nr_frames != nr || r->nr_refs != nr_refs)
		return false;
	pk__spill_touch(t->slots, r->refs_at * sizeof(union slot), nr_refs * sizeof(union slot));
	pk__spill_touch(t->frames, r->frames_at * sizeof(*f), nr * sizeof(*f));
	if (memcmp(slots_of(t) + r->refs_at, refs, nr_refs * sizeof(*refs)))
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
	    !spill_room(t->frames, t->nr_frames, nr, sizeof(struct pk_callchain_frame *)) ||
	    !spill_room(t->slots, t->nr_refs, nr_refs, sizeof(union slot)))
		return pk__error_nomem("a histogram's call chains");
	for (size_t i = 0; i < nr; i++)
		if (!(frames_of(t)[t->nr_frames + i] = pk__frame_pool_intern(pool, &chain[i])))
			return pk__error_nomem("a histogram's call chains");
	memcpy(slots_of(t) + t->nr_refs, refs, nr_refs * sizeof(*refs));
	pk__spill_touch(t->frames, t->nr_frames * sizeof(struct pk_callchain_frame *),
			nr * sizeof(struct pk_callchain_frame *));
	pk__spill_touch(t->slots, t->nr_refs * sizeof(union slot), nr_refs * sizeof(union slot));
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

/* Each id's start in at[] (at[id] its count before): 0, or -EINVAL for a
 * ref past nr_ids. */
static int starts(struct pk__hist_chains *t, size_t nr_ids)
{
	const union slot *refs = slots_of(t);

	for (size_t i = 0; i < t->nr_refs; i++) {	/* counts, then each id's start */
		if (refs[i].ref.id >= nr_ids)
			return pk__error(-EINVAL, "a histogram's call chains", "an entry beyond the %zu given",
					 nr_ids);
		t->at[refs[i].ref.id + 1]++;
		if (i % 4096 == 4095)
			pk__spill_touch(t->slots, (i - 4095) * sizeof(*refs), 4096 * sizeof(*refs));
	}
	pk__spill_drop(t->slots, 0, t->nr_refs * sizeof(*refs));
	for (size_t i = 0; i < nr_ids; i++)
		t->at[i + 1] += t->at[i];
	return 0;
}

/* The uses whose slots are in [lo, hi) written to uses: every ref read in
 * turn (its chain followed along), each id's next slot from next[]; the
 * first sweep sums each id's root period too (what the threshold of a
 * build is checked against, without reading the uses of every entry
 * printed: a spilled array's page each). */
static void uses_sweep(const struct pk__hist_chains *t, uint32_t *next, union slot *uses, size_t lo, size_t hi)
{
	const union slot *refs = slots_of(t);
	uint32_t r = 0;

	memcpy(next, t->at, t->nr_ids * sizeof(*next));
	for (size_t i = 0; i < t->nr_refs; i++) {
		uint32_t at = next[refs[i].ref.id]++;

		while (i >= (size_t)t->recs[r].refs_at + t->recs[r].nr_refs)
			r++;	/* the chain holding ref i: refs are kept in chain order */
		if (at >= lo && at < hi)
			uses[at].use = (struct use){ r, refs[i].ref.k };
		if (!lo && refs[i].ref.k < t->recs[r].nr_frames)	/* (an empty tail adds nothing) */
			t->root[refs[i].ref.id] += t->recs[r].period;
		if (i % 4096 == 4095)	/* the refs read, counted as they go */
			pk__spill_touch(t->slots, (i - 4095) * sizeof(*refs), 4096 * sizeof(*refs));
	}
}

/* The refs turned into the uses, in a new array that takes their place:
 * written in sweeps over as many uses as half the spill budget holds, so
 * that an array moved to a file is in memory only a sweep's worth at a
 * time (and the refs, read whole each sweep, a quarter budget). */
static int refs_to_uses(struct pk__hist_chains *t)
{
	struct pk__spill uses;
	size_t step = t->slots->budget / 2 / sizeof(union slot), bytes = t->nr_refs * sizeof(union slot);
	uint32_t *next = pk__malloc(t->nr_ids * sizeof(*next) + 1);

	pk__spill_init(&uses);
	if (!next || pk__spill_reserve(&uses, bytes + 1) < 0) {
		free(next);
		return pk__error_nomem("a histogram's call chains");
	}
	if (!pk__spill_in_file(&uses) || step == 0)
		step = t->nr_refs + 1;
	for (size_t lo = 0; lo < t->nr_refs; lo += step) {
		uses_sweep(t, next, (union slot *)(void *)uses.p, lo, lo + step);
		pk__spill_drop(&uses, lo * sizeof(union slot), (lo + step) * sizeof(union slot));
		pk__spill_drop(t->slots, 0, bytes);
	}
	free(next);
	pk__spill_free(t->slots);
	*t->slots = uses;
	return 0;
}

int pk__hist_chains_index(struct pk__hist_chains *t, size_t nr_ids)
{
	int err;

	if (t->at)
		return 0;
	free(t->table);	/* no chain comes after */
	t->table = NULL;
	t->table_cap = 0;
	fit((void **)&t->recs, &t->cap_recs, t->nr_recs, sizeof(*t->recs));
	if (nr_ids >= UINT32_MAX || !(t->at = pk__calloc(nr_ids + 1, sizeof(*t->at))) ||
	    !(t->root = pk__calloc(nr_ids + 1, sizeof(*t->root)))) {
		free(t->at);
		t->at = NULL;
		return pk__error_nomem("a histogram's call chains");
	}
	t->nr_ids = nr_ids;
	if ((err = starts(t, nr_ids)) < 0 || (err = refs_to_uses(t)) < 0) {
		free(t->at);
		free(t->root);
		t->at = NULL;
		t->root = NULL;
		t->nr_ids = 0;
	}
	return err;
}

/* Chain c's tail from frame k appended to cc (its frames the pool's). */
static int append_tail(const struct pk__hist_chains *t, const struct rec *c, uint32_t k, struct pk_callchain *cc)
{
	if (k > c->nr_frames)
		return pk__error(-EINVAL, "a histogram's call chains", "a tail past its chain's end");
	pk__spill_touch(t->frames, (c->frames_at + k) * sizeof(struct pk_callchain_frame *),
			(c->nr_frames - k) * sizeof(struct pk_callchain_frame *));
	return pk__callchain_append_kept(cc, frames_of(t) + c->frames_at + k, c->nr_frames - k, c->period,
					 c->count);
}

int pk__hist_chains_build(const struct pk__hist_chains *t, struct pk__frame_pool *pool, uint32_t id,
			  uint64_t min_period, struct pk_callchain **out)
{
	int err = 0;

	*out = NULL;
	if (!t->nr_recs || (t->at && (id >= t->nr_ids || t->at[id] == t->at[id + 1] ||
				      (min_period && t->root[id] < min_period))))
		return 0;
	if ((err = pk__callchain_new_arena(out, pool)) < 0)
		return err;
	if (t->at) {	/* indexed: the id's own uses */
		const union slot *uses = slots_of(t);

		pk__spill_touch(t->slots, t->at[id] * sizeof(*uses),
				(t->at[id + 1] - t->at[id]) * sizeof(*uses));
		for (uint32_t u = t->at[id]; !err && u < t->at[id + 1]; u++)
			err = append_tail(t, &t->recs[uses[u].use.rec], uses[u].use.k, *out);
	} else {	/* not yet: every chain looked through */
		const union slot *refs = slots_of(t);
		bool any = false;

		for (size_t r = 0; !err && r < t->nr_recs; r++)
			for (size_t i = 0; !err && i < t->recs[r].nr_refs; i++)
				if (refs[t->recs[r].refs_at + i].ref.id == id) {
					any = true;
					err = append_tail(t, &t->recs[r], refs[t->recs[r].refs_at + i].ref.k, *out);
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
