/* SPDX-License-Identifier: MIT */
/*
 * hist.c - the histogram behind perf report's table: samples grouped into
 * entries by the fields their sort keys select (a small key struct, hashed
 * into an open-addressing table, so counting a sample into an existing
 * entry allocates nothing), the period and sample sums, and perf's
 * percentages (its output order: hist-sort.c).
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "callchain-int.h"
#include "hist-int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int pk_hist_new(const enum pk_hist_key *keys, size_t nr_keys, struct pk_hist **out)
{
	struct pk_hist *h;

	if (nr_keys > PK_HIST_MAX_KEYS)
		return pk__error(-EINVAL, "a histogram", "%zu sort keys (0 to %d)", nr_keys,
				 PK_HIST_MAX_KEYS);
	for (size_t i = 0; i < nr_keys; i++)
		if ((unsigned)keys[i] >= PK_HIST_KEY_NR)
			return pk__error(-EINVAL, "a histogram", "unknown sort key %d", (int)keys[i]);
	if (!(h = pk__calloc(1, sizeof(*h))) || !(h->table = pk__calloc(1024, sizeof(*h->table)))) {
		free(h);
		return pk__error_nomem("a histogram");
	}
	h->table_cap = 1024;
	pk__hist_watch_init(&h->watch);
	if (nr_keys)
		memcpy(h->keys, keys, nr_keys * sizeof(*keys));
	h->nr_keys = nr_keys;
	for (size_t i = 0; i < nr_keys; i++) {
		h->use[keys[i]] = true;
		h->use2 |= keys[i] >= PK_HIST_KEY_TIME;	/* hist-keys2.c's and the memory keys */
	}
	if (h->use[PK_HIST_KEY_IPC_NULL])	/* its entries are the symbol key's */
		h->use[PK_HIST_KEY_SYM] = true;
	*out = h;
	return 0;
}

void pk_hist_free(struct pk_hist *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr; i++) {
		pk_callchain_free(h->entries[i].chain);
		free(h->entries[i].pairs);
	}
	pk__hist_chains_free(h->deferred);
	pk__frame_pool_put(h->pool);
	free(h->slot_total);
	free(h->entries);
	free(h->ekeys);
	free(h->k2s);
	free(h->table);
	pk__hist_rbt_free(&h->intree);
	free(h->found);
	free(h->inl_dsos);
	free(h->odd_ips);
	free(h);
}

/* s's key into *k: its fields set one by one, the large k2 only when
 * used (zeroing and returning the whole key by value showed in find). */
static inline __attribute__((always_inline)) void make_key(const struct pk_hist *h, const struct pk_hist_sample *s,
							   struct pk__hist_ekey *k, struct pk__hist_key2 *k2)
{
	uint32_t tid = h->use[PK_HIST_KEY_PID] || h->use[PK_HIST_KEY_TID] ? s->tid : 0;
	int32_t cpu = h->use[PK_HIST_KEY_CPU] ? s->cpu : 0;

	k->comm = h->use[PK_HIST_KEY_COMM] ? s->comm : NULL;
	k->dso = h->use[PK_HIST_KEY_DSO] ? s->dso : NULL;
	k->srcline = h->use[PK_HIST_KEY_SRCLINE] ? s->srcline : NULL;
	k->srcfile = h->use[PK_HIST_KEY_SRCFILE] ? s->srcfile : NULL;
	k->parent = h->use[PK_HIST_KEY_PARENT] ? s->parent : NULL;
	k->sym = NULL;
	k->sym_start = k->ip = 0;
	k->tid_cpu = (uint64_t)tid << 32 | (uint32_t)cpu;
	if (h->use2)	/* else k2 is not read: its make, hash and compare were a third of find */
		pk__hist_key2_make(h->use, s, k2);
	if (h->use[PK_HIST_KEY_SYM] && h->names) {
		k->sym = s->sym;	/* by name alone: perf diff's collapse */
	} else if (h->use[PK_HIST_KEY_SYM]) {
		/* perf tells unresolved symbols apart by address alone, and a
		 * symbol by its object and start. */
		if (s->sym) {
			k->sym = s->sym;
			k->sym_start = s->sym_start;
			k->dso = s->dso;
		} else {
			k->ip = s->ip;
		}
	}
}

/* Each field times its own odd constant, summed, then mixed: the
 * products are independent of one another (the table is probed for every
 * frame of every sample in children mode).  The symbol is hashed by its
 * start alone: key_eq compares names by text (same_sym), and two copies
 * of a binary have the same start for the same name. */
static uint64_t key_hash(const struct pk__hist_ekey *k, const struct pk__hist_key2 *k2, bool use2)
{
	uint64_t x = (uintptr_t)k->comm * 0x9e3779b97f4a7c15ull + (uintptr_t)k->dso * 0xc2b2ae3d27d4eb4full +
		     k->sym_start * 0xd6e8feb86659fd93ull +
		     k->ip * 0xff51afd7ed558ccdull +
		     k->tid_cpu * 0xc4ceb9fe1a85ec53ull +
		     (uintptr_t)k->srcline * 0x27d4eb2f165667c5ull +
		     (uintptr_t)k->srcfile * 0x94d049bb133111ebull + (uintptr_t)k->parent * 0xbf58476d1ce4e5b9ull +
		     (use2 ? pk__hist_key2_hash(k2) : 0);

	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ull;
	return x ^ (x >> 32);
}

/* A symbol by its text, not its pointer: two binaries of one shown name
 * (two copies of a program) have a symbol table each, and perf 6.1's sym
 * key compares the DSOs by the name it shows (short, long under -v, as
 * the caller passes `dso`) and then the symbols by address, so it merges
 * their entries; sym_start and the name stand for perf's start and end. */
static bool same_sym(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static inline __attribute__((always_inline)) bool key_eq(const struct pk__hist_ekey *a, const struct pk__hist_key2 *a2,
							 const struct pk__hist_ekey *b, const struct pk__hist_key2 *b2,
							 bool use2)
{
	return a->comm == b->comm && a->dso == b->dso && same_sym(a->sym, b->sym) &&
	       a->sym_start == b->sym_start && a->ip == b->ip && a->tid_cpu == b->tid_cpu &&
	       a->srcline == b->srcline && a->srcfile == b->srcfile &&
	       a->parent == b->parent && (!use2 || pk__hist_key2_eq(a2, b2));
}

/* Entry i's k2, or NULL when the histogram keeps none. */
static inline const struct pk__hist_key2 *k2_of(const struct pk_hist *h, size_t i)
{
	return h->use2 ? &h->k2s[i] : NULL;
}

static uint32_t *table_slot(const struct pk_hist *h, uint32_t *table, size_t cap, const struct pk__hist_ekey *k,
			    const struct pk__hist_key2 *k2)
{
	size_t i = (size_t)key_hash(k, k2, h->use2) & (cap - 1);

	while (table[i] && !key_eq(&h->ekeys[table[i] - 1], k2_of(h, table[i] - 1), k, k2, h->use2))
		i = (i + 1) & (cap - 1);
	return &table[i];
}

static int grow(struct pk_hist *h)
{
	if (h->nr == h->cap) {
		/* by half: a deep profile's children entries are tens of
		 * thousands, 472 bytes each, and doubling left up to half unused */
		size_t cap = h->cap ? h->cap + h->cap / 2 : 256;
		struct pk_hist_entry *e = pk__reallocarray(h->entries, cap, sizeof(*e));
		struct pk__hist_ekey *k;

		if (!e)
			return pk__error_nomem("histogram entries");
		h->entries = e;
		if (!(k = pk__reallocarray(h->ekeys, cap, sizeof(*k))))
			return pk__error_nomem("histogram entries");
		h->ekeys = k;
		if (h->use2) {
			struct pk__hist_key2 *k2 = pk__reallocarray(h->k2s, cap, sizeof(*k2));

			if (!k2)
				return pk__error_nomem("histogram entries");
			h->k2s = k2;
		}
		h->cap = cap;
	}
	if ((h->nr + 1) * 2 > h->table_cap) {
		size_t cap = h->table_cap * 2;
		uint32_t *t = pk__calloc(cap, sizeof(*t));

		if (!t)
			return pk__error_nomem("the histogram's table");
		for (size_t i = 0; i < h->nr; i++)
			*table_slot(h, t, cap, &h->ekeys[i], k2_of(h, i)) = (uint32_t)(i + 1);
		free(h->table);
		h->table = t;
		h->table_cap = cap;
	}
	return 0;
}

static int check_sample(const struct pk_hist *h, const struct pk_hist_sample *s)
{
	if (s->size < sizeof(*s))
		return pk__error(-EINVAL, "a histogram sample", "size %zu, want %zu", s->size, sizeof(*s));
	if (h->sorted)
		return pk__error(-EINVAL, "a histogram sample", "added after pk_hist_sort");
	return 0;
}

/* A new entry of sample s, key k and k2, its index in *slot (the table's
 * slot of its key: a new entry of a key is the one found from now on). */
static int make_entry(struct pk_hist *h, const struct pk_hist_sample *s, const struct pk__hist_ekey *k,
		      const struct pk__hist_key2 *k2, uint32_t **slot)
{
	int err;

	if (h->nr >= UINT32_MAX - 1)
		return pk__error(-ENOMEM, "a histogram", "more than %u entries", UINT32_MAX - 1);
	if ((err = grow(h)) < 0)
		return err;
	*slot = table_slot(h, h->table, h->table_cap, k, k2);
	h->entries[h->nr] = (struct pk_hist_entry){ .s = *s, .ref = (uint32_t)h->nr };
	h->ekeys[h->nr] = *k;
	if (h->use2)
		h->k2s[h->nr] = *k2;
	**slot = (uint32_t)++h->nr;
	return 0;
}

/* find through perf's input tree (hist-intree.c): the table's entry of
 * the key while no rotation of the tree since its search found it may
 * have changed that (pk_hist.found), else the one the search finds, or a
 * new one where it ends. */
static int find_in_tree(struct pk_hist *h, const struct pk_hist_sample *s, const struct pk__hist_ekey *k,
			const struct pk__hist_key2 *k2, uint32_t *idx)
{
	uint32_t *slot = table_slot(h, h->table, h->table_cap, k, k2), at, parent;
	struct pk_hist_entry probe = { .s = *s };
	bool left, known = *slot;
	int err;

	if (*slot && h->found[*slot - 1] == h->tree_gen) {
		*idx = *slot - 1;
		return 0;
	}
	if ((at = pk__hist_intree_search(h, &probe, &parent, &left)) != PK__HIST_NIL) {
		h->found[at] = h->tree_gen;
		*idx = at;
		if (key_eq(&h->ekeys[at], k2_of(h, at), k, k2, h->use2))
			*slot = at + 1;	/* the key's entry from now on */
		return 0;
	}
	if ((err = make_entry(h, s, k, k2, &slot)) < 0)
		return err;
	*idx = *slot - 1;
	h->nr_split += known;
	pk__hist_watch_add(&h->watch, &h->entries[*idx]);
	if ((err = pk__hist_intree_note(h, *idx)) < 0 || (err = pk__hist_intree_add(h, *idx, parent, left)) < 0)
		return err;
	h->found[*idx] = h->tree_gen;
	return 0;
}

/* The index of the entry s's key fields select, made on first sight. */
static int find(struct pk_hist *h, const struct pk_hist_sample *s, uint32_t *idx)
{
	struct pk__hist_ekey k;
	struct pk__hist_key2 k2;
	uint32_t *slot;
	int err;

	make_key(h, s, &k, &k2);
	if (h->intree.on) {
		err = find_in_tree(h, s, &k, &k2, idx);
		h->last = err ? 0 : *idx + 1;	/* (refs[0] of pk_hist_add_chain_n) */
		return err;
	}
	if (h->last && key_eq(&h->ekeys[h->last - 1], k2_of(h, h->last - 1), &k, &k2, h->use2)) {
		*idx = h->last - 1;
		return 0;
	}
	slot = table_slot(h, h->table, h->table_cap, &k, &k2);
	if (!*slot) {
		if ((err = make_entry(h, s, &k, &k2, &slot)) < 0)
			return err;
		/* the first entry that makes perf's comparison no order: its
		 * input tree from now on (out of memory: by key, as before) */
		pk__hist_watch_add(&h->watch, &h->entries[h->nr - 1]);
		if ((err = pk__hist_intree_note(h, h->nr - 1)) < 0)
			return err;
		if (pk__hist_intree_wanted(h) && pk__hist_watch_no_order(h, &h->watch) &&
		    pk__hist_intree_start(h) == 0)
			h->found[h->nr - 1] = h->tree_gen;
	}
	h->last = *slot;
	*idx = *slot - 1;
	return 0;
}

int pk__hist_find(struct pk_hist *h, const struct pk_hist_sample *s, uint32_t *idx)
{
	return find(h, s, idx);
}

int pk_hist_set_by_name(struct pk_hist *h, struct pk_intern *names)
{
	if (h->nr_samples || h->nr)
		return pk__error(-EINVAL, "a histogram", "keyed by name after samples were added");
	h->names = names;
	return 0;
}

/* s's strings replaced by the interner's copies in *out. */
static int intern_sample(struct pk_hist *h, const struct pk_hist_sample *s, struct pk_hist_sample *out)
{
	const char *const *from[] = { &s->comm, &s->dso, &s->sym, &s->srcline, &s->srcfile, &s->parent };
	const char **to[] = { &out->comm, &out->dso, &out->sym, &out->srcline, &out->srcfile, &out->parent };
	int err = 0;

	*out = *s;
	for (size_t i = 0; !err && i < sizeof(from) / sizeof(from[0]); i++)
		err = pk_intern_str(h->names, *from[i], to[i]);
	return err;
}

int pk_hist_add_n(struct pk_hist *h, const struct pk_hist_sample *s, uint64_t nr_samples)
{
	struct pk_hist_sample copy;
	struct pk_hist_entry *e;
	uint32_t idx;
	int err;

	if ((err = check_sample(h, s)) < 0)
		return err;
	if (h->names && (err = intern_sample(h, s, &copy)) < 0)
		return err;
	if ((err = find(h, h->names ? &copy : s, &idx)) < 0)
		return err;
	e = &h->entries[idx];
	/* By name, unresolved addresses share an entry: perf's collapse keeps
	 * the one of the lowest address, its first sample's fields. */
	if (h->names && h->use[PK_HIST_KEY_SYM] && !copy.sym && copy.ip < e->s.ip)
		e->s = copy;
	e->period += s->period;
	e->nr_samples += nr_samples;
	switch (s->level) {	/* perf's he_stat__add_cpumode_period */
	case 'k': e->period_sys += s->period; break;
	case '.': e->period_us += s->period; break;
	case 'g': e->period_guest_sys += s->period; break;
	case 'u': e->period_guest_us += s->period; break;
	default: break;
	}
	h->total_period += s->period;
	if (!s->filtered)
		h->shown_period += s->period;
	h->nr_samples += nr_samples;
	return 0;
}

bool pk_hist_in_order(const struct pk_hist *h)
{
	return h->intree.on;
}

int pk_hist_add(struct pk_hist *h, const struct pk_hist_sample *s)
{
	return pk_hist_add_n(h, s, 1);
}

/* `branches`: whether the sample's whole chain has a branch frame (a
 * tail of it then may have, else has none). */
static int append(struct pk_hist *h, struct pk_hist_entry *e, const struct pk_callchain_frame *chain, size_t nr,
		  uint64_t period, uint64_t count, bool branches)
{
	int err;

	if (!e->chain && (err = pk__callchain_new_pooled(&e->chain, h->pool)) < 0)
		return err;
	return pk__callchain_append(e->chain, chain, nr, period, count, branches);
}

/* The sample's chain given to the entries refs names (by index): each its
 * tail, in a tree now or kept for later. */
static int add_tails(struct pk_hist *h, const struct pk_callchain_frame *chain, size_t nr,
		     struct pk__hist_ref *refs, size_t nr_refs, uint64_t period, uint64_t count, bool branches)
{
	int err = 0;

	for (size_t i = 0; i < nr_refs; i++) {
		struct pk_hist_entry *e = &h->entries[refs[i].id];

		if (nr - refs[i].k > e->max_depth)
			e->max_depth = (uint32_t)(nr - refs[i].k);
	}
	if (h->no_trees)
		return 0;
	if (!h->pool && !(h->pool = pk__frame_pool_new()))
		return pk__error_nomem("a call-chain tree");
	if (h->deferred) {	/* entries keep their indexes until the sort: their refs */
		for (size_t i = 0; i < nr_refs; i++)
			refs[i].id = h->entries[refs[i].id].ref;
		return pk__hist_chains_add(h->deferred, h->pool, chain, nr, refs, nr_refs, period, count);
	}
	for (size_t i = 0; i < nr_refs && !err; i++)
		err = append(h, &h->entries[refs[i].id], chain + refs[i].k, nr - refs[i].k, period, count,
			     branches);
	return err;
}

/* Whether perf finds frame s's entry among those its sample counted
 * already (iter_add_next_cumulative_entry's he_cache, by its comparison:
 * by the key here, and by the entry found after). */
static bool counted(const struct pk_hist *h, const struct pk_hist_sample *s, const struct pk__hist_ref *refs,
		    size_t nr_refs)
{
	struct pk__hist_ekey k;
	struct pk__hist_key2 k2;

	make_key(h, s, &k, &k2);
	for (size_t i = 0; i < nr_refs; i++)
		if (key_eq(&h->ekeys[refs[i].id], k2_of(h, refs[i].id), &k, &k2, h->use2))
			return true;
	return false;
}

/* With `children`: the entry of each frame k whose tail it counts (once per
 * sample, as perf finds it), after refs[0], in refs[1..*nr_refs). */
static int children_refs(struct pk_hist *h, const struct pk_hist_sample *s, const struct pk_hist_sample *frames,
			 size_t nr, struct pk__hist_ref *refs, size_t *nr_refs)
{
	for (size_t k = 0; k < nr; k++) {
		struct pk_hist_sample copy;
		uint32_t idx;
		size_t i = 0;
		int err;

		if ((err = check_sample(h, &frames[k])) < 0 ||
		    (h->names && (err = intern_sample(h, &frames[k], &copy)) < 0))
			return err;
		/* through perf's input tree, as perf does: an entry of the sample
		 * already is not searched for (a search may make another) */
		if (h->intree.on && counted(h, h->names ? &copy : &frames[k], refs, *nr_refs) &&
		    !pk__hist_key2_uncached(h->use, &frames[k]))
			continue;
		if ((err = find(h, h->names ? &copy : &frames[k], &idx)) < 0)
			return err;
		/* perf counts an entry once per sample: recursion adds nothing
		 * (as perf finds it: hist-keys2.c). */
		while (i < *nr_refs && refs[i].id != idx)
			i++;
		if (i < *nr_refs && !pk__hist_key2_uncached(h->use, &frames[k]))
			continue;
		refs[(*nr_refs)++] = (struct pk__hist_ref){ idx, (uint32_t)k };
		h->entries[idx].period_acc += s->period;
	}
	return 0;
}

int pk_hist_add_chain_n(struct pk_hist *h, const struct pk_hist_sample *s, const struct pk_hist_sample *frames,
			const struct pk_callchain_frame *chain, size_t nr, bool children, uint64_t nr_samples)
{
	struct pk__hist_ref *refs, refs_here[128];
	size_t nr_refs = 1;
	bool branches = pk__branch_frames_any(chain, nr);	/* once, not per tail */
	int err;

	if (branches && nr_samples != 1)	/* a branch is counted once per sample */
		return pk__error(-EINVAL, "a histogram sample", "%" PRIu64 " samples with branches at once",
				 nr_samples);
	if (branches && h->deferred)
		return pk__error(-EINVAL, "a histogram sample", "a chain with branches, its trees deferred");
	if (nr > UINT32_MAX - 1)
		return pk__error(-EINVAL, "a histogram sample", "a chain of %zu frames", nr);
	if ((err = pk_hist_add_n(h, s, nr_samples)) < 0)
		return err;
	/* most chains fit on the stack: no allocation per sample */
	refs = nr < sizeof(refs_here) / sizeof(refs_here[0]) ? refs_here
							     : pk__reallocarray(NULL, nr + 1, sizeof(*refs));
	if (!refs)
		return pk__error_nomem("a sample's chain");
	refs[0] = (struct pk__hist_ref){ h->last - 1, 0 };	/* the sample's own entry: the whole chain */
	if (children) {
		h->children = true;
		h->entries[refs[0].id].period_acc += s->period;
		err = children_refs(h, s, frames, nr, refs, &nr_refs);
	}
	if (!err)
		err = add_tails(h, chain, nr, refs, nr_refs, s->period, nr_samples, branches);
	if (refs != refs_here)
		free(refs);
	return err;
}

int pk_hist_add_chain(struct pk_hist *h, const struct pk_hist_sample *s, const struct pk_hist_sample *frames,
		      const struct pk_callchain_frame *chain, size_t nr, bool children)
{
	return pk_hist_add_chain_n(h, s, frames, chain, nr, children, 1);
}

static int cmp_str(const char *a, const char *b)
{
	if (a == b)	/* one name, as the caller's interned names mostly are */
		return 0;
	if (!a || !b)	/* perf: an entry with the name sorts after one without */
		return a ? -1 : 1;
	return strcmp(a, b);
}

static int cmp_num(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

bool pk__hist_same_key(const struct pk_hist *h, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	struct pk__hist_ekey ka, kb;
	struct pk__hist_key2 ka2, kb2;

	make_key(h, &a->s, &ka, &ka2);
	make_key(h, &b->s, &kb, &kb2);
	return key_eq(&ka, &ka2, &kb, &kb2, h->use2);
}

struct pk_intern *pk__hist_names(const struct pk_hist *h)
{
	return h->names;
}

/* Key `key` of a and b in perf's output order: < 0 when a comes first. */
int pk__hist_cmp_key(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	switch (key) {
	case PK_HIST_KEY_COMM:
		return cmp_str(a->s.comm, b->s.comm);
	case PK_HIST_KEY_PID:
	case PK_HIST_KEY_TID:	/* perf's pid_t: -1 (no task) first */
		return cmp_num((int32_t)a->s.tid, (int32_t)b->s.tid);
	case PK_HIST_KEY_DSO:
		return cmp_str(a->s.dso, b->s.dso);
	case PK_HIST_KEY_CPU:
		return cmp_num(a->s.cpu, b->s.cpu);
	case PK_HIST_KEY_SYM:
		/* Resolved before unresolved; two unresolved ones tie here. */
		return cmp_str(a->s.sym, b->s.sym);
	case PK_HIST_KEY_SRCLINE:
		return cmp_str(a->s.srcline, b->s.srcline);
	case PK_HIST_KEY_SRCFILE:
		return cmp_str(a->s.srcfile, b->s.srcfile);
	case PK_HIST_KEY_PARENT:
		return cmp_str(a->s.parent, b->s.parent);
	default:
		return pk__hist_key2_cmp(key, a, b);
	}
}

int pk_hist_rename_comm(struct pk_hist *h, const char *from, const char *to)
{
	size_t nr = 0, renamed = 0;
	int err = 0;

	if (h->sorted)
		return pk__error(-EINVAL, "a histogram", "a comm renamed after pk_hist_sort");
	if (h->names && ((err = pk_intern_str(h->names, from, &from)) < 0 ||
			 (err = pk_intern_str(h->names, to, &to)) < 0))
		return err;
	for (size_t i = 0; i < h->nr; i++) {
		if (h->entries[i].s.comm != from)
			continue;
		h->entries[i].s.comm = to;
		h->ekeys[i].comm = h->use[PK_HIST_KEY_COMM] ? to : NULL;
		renamed++;
	}
	if (!renamed || !h->use[PK_HIST_KEY_COMM])
		return 0;
	if (h->deferred && (err = pk__hist_undefer(h)) < 0)	/* merges merge trees */
		return err;
	/* perf's collapse: entries of one key now are one, the first kept. */
	memset(h->table, 0, h->table_cap * sizeof(*h->table));
	h->last = 0;
	for (size_t i = 0; i < h->nr; i++) {
		uint32_t *slot = table_slot(h, h->table, h->table_cap, &h->ekeys[i], k2_of(h, i));

		/* out of memory: the rest kept apart, every sample still counted */
		if (*slot && !err && !(err = pk__hist_entry_merge(&h->entries[*slot - 1], &h->entries[i],
								  h->nr_slots)))
			continue;
		h->entries[nr] = h->entries[i];
		if (h->use2)
			h->k2s[nr] = h->k2s[i];
		h->ekeys[nr++] = h->ekeys[i];
		if (!*slot)
			*slot = (uint32_t)nr;
	}
	h->nr = nr;
	if (h->intree.on) {	/* its tree made again, of the entries left */
		pk__hist_rbt_free(&h->intree);
		free(h->found);
		h->found = NULL;
		if (!err)
			err = pk__hist_intree_start(h);
	}
	return err;
}

size_t pk_hist_nr(const struct pk_hist *h)
{
	return h->nr;
}

const struct pk_hist_entry *pk_hist_get(const struct pk_hist *h, size_t idx)
{
	return idx < h->nr ? &h->entries[idx] : NULL;
}

struct prefix_ctx {
	const struct pk_hist *h;
	size_t nr_keys;
};

static int cmp_prefix(const void *pa, const void *pb, void *arg)
{
	const struct prefix_ctx *c = arg;
	const struct pk_hist_entry *a = &c->h->entries[*(const size_t *)pa];
	const struct pk_hist_entry *b = &c->h->entries[*(const size_t *)pb];
	int r = 0;

	for (size_t k = 0; k < c->nr_keys && !r; k++)
		r = pk__hist_cmp_key(c->h->keys[k], a, b);
	return r;
}

int pk_hist_prefix_samples(const struct pk_hist *h, size_t nr_keys, uint64_t *out)
{
	struct prefix_ctx c = { h, nr_keys };
	size_t *idx;

	if (nr_keys > h->nr_keys)
		return -EINVAL;
	if (!h->nr)
		return 0;
	if (!(idx = malloc(h->nr * sizeof(*idx))))
		return -ENOMEM;
	for (size_t i = 0; i < h->nr; i++)
		idx[i] = i;
	qsort_r(idx, h->nr, sizeof(*idx), cmp_prefix, &c);
	for (size_t i = 0, j; i < h->nr; i = j) {
		uint64_t sum = 0;

		for (j = i; j < h->nr && (j == i || !cmp_prefix(&idx[i], &idx[j], &c)); j++)
			sum += h->entries[idx[j]].nr_samples;
		for (size_t k = i; k < j; k++)
			out[idx[k]] = sum;
	}
	free(idx);
	return 0;
}

uint64_t pk_hist_total_period(const struct pk_hist *h)
{
	return h->total_period;
}

uint64_t pk_hist_nr_samples(const struct pk_hist *h)
{
	return h->nr_samples;
}

double pk_hist_percent_acc(const struct pk_hist *h, const struct pk_hist_entry *e)
{
	return h->total_period ? 100.0 * (double)e->period_acc / (double)h->total_period : 0.0;
}

double pk_hist_percent(const struct pk_hist *h, const struct pk_hist_entry *e)
{
	return h->total_period ? 100.0 * (double)e->period / (double)h->total_period : 0.0;
}

bool pk_hist_below_limit(const struct pk_hist *h, const struct pk_hist_entry *e, double limit)
{
	/* perf measures an entry by its Children period when it has one. */
	uint64_t period = h->children ? e->period_acc : e->period;
	float pct = h->total_period ? (float)((double)period * 100.0 / (double)h->total_period) : 0.0f;

	return pct < (float)limit;
}

const enum pk_hist_key *pk__hist_keys(const struct pk_hist *h, size_t *nr)
{
	*nr = h->nr_keys;
	return h->keys;
}

uint64_t pk__hist_shown_period(const struct pk_hist *h)
{
	return h->shown_period;
}
