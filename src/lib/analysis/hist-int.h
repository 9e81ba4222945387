/* SPDX-License-Identifier: MIT */
/*
 * hist-int.h - what hist.c shows the rest of the analysis layer (diff.c,
 * the hist-*.c files): among it the histogram's struct, for hist-pair.c.
 */
#ifndef PK_ANALYSIS_HIST_INT_H
#define PK_ANALYSIS_HIST_INT_H

#include "perfkit.h"

/* pk__hist_keys - h's sort keys, *nr of them, in the order they were given. */
const enum pk_hist_key *pk__hist_keys(const struct pk_hist *h, size_t *nr);

/* pk__hist_shown_period - the period of every sample added that no filter
 * hid (perf's total_non_filtered_period, its --percentage relative). */
uint64_t pk__hist_shown_period(const struct pk_hist *h);

/*
 * pk__hist_cmp_key - key `key` of entries a and b compared by what perf
 * sorts and collapses on (names, not addresses: unresolved symbols tie),
 * in perf's output order: < 0 when a comes first.
 */
int pk__hist_cmp_key(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* pk__hist_names - the interner pk_hist_set_by_name gave h, or NULL. */
struct pk_intern *pk__hist_names(const struct pk_hist *h);

/* pk__hist_same_key - whether entries a and b (of h, or of histograms
 * sharing its keys and interner) have the same key: h's own comparison,
 * by pointer. */
bool pk__hist_same_key(const struct pk_hist *h, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* pk__hist_entry_merge - add src's sums, its nr_slots pairs and its
 * call-chain tree into dst (perf's collapse of two entries of one key);
 * src's tree and pairs are then freed or moved to dst.  0 or -ENOMEM
 * (src's tree then partly merged, and still src's). */
int pk__hist_entry_merge(struct pk_hist_entry *dst, struct pk_hist_entry *src, size_t nr_slots);

/*
 * pk__hist_tree_order - e[0..nr) put in perf's output order for a
 * comparison that need not be transitive: each entry, in the order given,
 * inserted into a red-black tree by cmp (< 0: left of the node), then the
 * tree read in order back into e.  Returns 0, -ENOMEM or -EOVERFLOW.
 */
int pk__hist_tree_order(struct pk_hist_entry *e, size_t nr, int (*cmp)(const void *, const void *, void *),
			void *arg);

/* ---- hist-tree.c: red-black trees of entries ------------------------------ */

#define PK__HIST_NIL UINT32_MAX

/* A red-black tree of entry indexes, balanced as the kernel's rbtree that
 * perf's trees are: each node's left, right and parent (PK__HIST_NIL
 * none), its colour, and the root; room for `cap` nodes. */
struct pk__hist_rbt {
	uint32_t *left, *right, *up;
	bool *red;
	uint32_t root;
	size_t cap;
	bool on;		/* in use (pk_hist's input tree: hist-intree.c) */
	/* the last link's rotations: each the node and the child that took
	 * its place, the earlier in order first (an insertion rotates at
	 * most twice) */
	uint32_t rotated[2][2];
	unsigned nr_rotated;
};

/* pk__hist_rbt_reserve - room in t for nodes below n (grown by half at
 * least); an empty tree's root is NIL.  0 or -ENOMEM (t as it was). */
int pk__hist_rbt_reserve(struct pk__hist_rbt *t, size_t n);

/* pk__hist_rbt_link - node z (below t->cap) made parent's left child
 * (`left`) or right one, or the root when parent is NIL, then the tree
 * rebalanced as the kernel's rb_insert_color does. */
void pk__hist_rbt_link(struct pk__hist_rbt *t, uint32_t z, uint32_t parent, bool left);

/* pk__hist_rbt_free - t's arrays freed, t emptied; an empty t is a no-op. */
void pk__hist_rbt_free(struct pk__hist_rbt *t);

/* pk__hist_rbt_order - t's nodes in order into order[0..n) (*n set); `stack`
 * has room for t->cap ids (the walk's). */
void pk__hist_rbt_order(const struct pk__hist_rbt *t, uint32_t *order, uint32_t *stack, uint32_t *n);

/* pk__hist_permute - e[0..nr) put in place in order[]'s order (entry i
 * becomes the old entry order[i]); `seen` has room for nr flags. */
void pk__hist_permute(struct pk_hist_entry *e, const uint32_t *order, size_t nr, bool *seen);

/* ---- hist-sort.c: perf's comparisons ------------------------------------- */

/* pk__hist_cmp_collapsed - entries pa and pb (of histogram arg) compared
 * as perf's trees compare a new entry pa with a node pb by the keys
 * (hist_entry__cmp, hist_entry__collapse: < 0 left of the node, 0 one
 * entry); not always an order (pk__hist_watch). */
int pk__hist_cmp_collapsed(const void *pa, const void *pb, void *arg);

/* pk__hist_sym_inlined - whether a symbol's name is an inlined
 * function's frame's (it ends in " (inlined)"). */
bool pk__hist_sym_inlined(const char *sym);

/* pk__hist_odd - whether a symbol's start or an unresolved address lies
 * between user space's and the kernel's (2^62 to 2^64 - 2^62): perf
 * compares those by their difference's sign, which is then no order. */
static inline bool pk__hist_odd(uint64_t at)
{
	return at >= 1ull << 62 && at < 0ull - (1ull << 62);
}

/* What tells whether that comparison is an order among some entries. */
struct pk__hist_watch {
	size_t nr_resolved;
	bool unresolved, inlined;
	/* a symbol's start, an unresolved address, between 2^62 and
	 * 2^64 - 2^62: compared by their difference's sign, no order */
	bool odd_start, odd_ip;
};

/* pk__hist_watch_init / _add - no entries watched; entry e counted in. */
void pk__hist_watch_init(struct pk__hist_watch *w);
void pk__hist_watch_add(struct pk__hist_watch *w, const struct pk_hist_entry *e);

/* pk__hist_watch_no_order - whether the comparison of the entries w has
 * counted may be no order in h: an unresolved address or a symbol's
 * start between user space's and the kernel's, resolved and
 * unresolved symbols keyed by symbol without object, or an inlined
 * function's symbol (by name) beside others (by start). */
bool pk__hist_watch_no_order(const struct pk_hist *h, const struct pk__hist_watch *w);

/* ---- hist-intree.c: perf's input tree ------------------------------------ */

/* pk__hist_intree_wanted - whether h finds its entries through perf's
 * input tree once the comparison is no order: keyed by symbol, not by
 * source line or file (perf's input tree orders those by address) nor by
 * name (diff.c's histograms). */
bool pk__hist_intree_wanted(const struct pk_hist *h);

/* pk__hist_intree_start - h's input tree made from its entries in the
 * order they were made, every entry's search to be made again.  0 or
 * -ENOMEM (h without a tree). */
int pk__hist_intree_start(struct pk_hist *h);

/* pk__hist_intree_note - entry i, just made, noted for the tree's
 * rotations: the object of an inlined function's symbol, an unresolved
 * address between user space's and the kernel's.  0 or -ENOMEM. */
int pk__hist_intree_note(struct pk_hist *h, size_t i);

/* pk__hist_intree_search - perf's search of h's input tree for probe's
 * key: the entry of that key it ends at, or NIL with the node a new entry
 * hangs from (*parent, NIL for the root) and on which side (*left).  An
 * entry perf's comparison finds equal but of another key here (two
 * binaries' symbols at one start) is passed on its right. */
uint32_t pk__hist_intree_search(const struct pk_hist *h, const struct pk_hist_entry *probe, uint32_t *parent,
				bool *left);

/* pk__hist_intree_add - entry z (h->nr - 1, just made) hung where the
 * search ended; the tree's generation bumped when its rotations may
 * change where another key's search ends.  0 or -ENOMEM (h's tree then
 * given up: its entries are found by key). */
int pk__hist_intree_add(struct pk_hist *h, uint32_t z, uint32_t parent, bool left);

/* pk__hist_intree_order - h's entries put in its input tree's order,
 * the tree then let go.  0 or -ENOMEM (entries and tree as they were). */
int pk__hist_intree_order(struct pk_hist *h);

/* pk__hist_intree_collapse - h's entries, in the input tree's order, put
 * into perf's collapse tree (hists__collapse_insert_entry): an entry the
 * tree finds a node of its key for is merged into that node, which keeps
 * its own deepest chain as perf's does; the rest in the tree's order.
 * 0, or -ENOMEM with the entries in their old order, those merged so far
 * merged (still there, without samples: the caller's sort keeps them). */
int pk__hist_intree_collapse(struct pk_hist *h);

/* ---- hist-keys-mem.c: the memory keys ------------------------------------ */

/* The memory keys' fields an entry is told apart by (0 when not a key). */
struct pk__hist_keymem {
	uint64_t daddr, iaddr, phys_addr, page_size, line;
	uint64_t data_src;	/* the bits of the data_src keys in use */
	const char *dso;	/* DADDR_DSO's and DCACHELINE's object */
	uint32_t pid;		/* DCACHELINE in anonymous memory */
	char level;		/* DCACHELINE: the sample's mode */
};

/* pk__hist_keymem_make / _hash / _eq / _cmp - as the pk__hist_key2 ones. */
void pk__hist_keymem_make(const bool *use, const struct pk_hist_sample *s, struct pk__hist_keymem *k);
uint64_t pk__hist_keymem_hash(const struct pk__hist_keymem *k);
bool pk__hist_keymem_eq(const struct pk__hist_keymem *a, const struct pk__hist_keymem *b);
int pk__hist_keymem_cmp(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* ---- hist-keys2.c: the keys from PK_HIST_KEY_TIME on ---------------------- */

/* The fields of those keys an entry is told apart by (0 when not a key). */
struct pk__hist_key2 {
	uint64_t time, sym_size;
	int32_t socket;
	const char *trace;
	uint64_t cgroup, weight;
	uint16_t ins_lat, p_stage_cyc;
	struct pk__hist_keymem mem;	/* hist-keys-mem.c's */
	uint64_t dso_size, cgroup_dev, cgroup_ino, transaction, code_page_size, addr;
};

/* pk__hist_key2_make - s's fields of the keys `use` marks (indexed by key). */
void pk__hist_key2_make(const bool *use, const struct pk_hist_sample *s, struct pk__hist_key2 *k);

/* pk__hist_key2_uncached - whether perf's children code never finds frame
 * s's entry among those the sample counted already: its template entry
 * (iter_add_next_cumulative_entry's he_tmp) leaves the cgroup id,
 * transaction and code page size 0, so a key on one of them that is not
 * 0 tells it apart from every entry, and the frame counts again. */
bool pk__hist_key2_uncached(const bool *use, const struct pk_hist_sample *s);

/* pk__hist_key2_hash / pk__hist_key2_eq - for hist.c's entry table. */
uint64_t pk__hist_key2_hash(const struct pk__hist_key2 *k);
bool pk__hist_key2_eq(const struct pk__hist_key2 *a, const struct pk__hist_key2 *b);

/* pk__hist_key2_cmp - as pk__hist_cmp_key, for those keys (0 for others). */
int pk__hist_key2_cmp(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* pk__hist_sym_addr_cmp - the IPC_NULL key's order (perf's sort__sym_cmp)
 * of a and b, `use` the histogram's keys (indexed by key). */
int pk__hist_sym_addr_cmp(const bool *use, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* ---- hist-chains.c: call chains kept for trees built later ---------------- */

/* An entry a chain counted in (its id: pk_hist_entry.ref) and the first
 * frame of the tail it gave it. */
struct pk__hist_ref {
	uint32_t id, k;
};

struct pk__hist_chains;
struct pk__frame_pool;

/* pk__hist_chains_new - an empty table in *out; 0 or -ENOMEM. */
int pk__hist_chains_new(struct pk__hist_chains **out);

/* pk__hist_chains_free - free it; NULL is a no-op. */
void pk__hist_chains_free(struct pk__hist_chains *t);

/*
 * pk__hist_chains_add - `count` samples of chain[0..nr) whose periods sum
 * to `period`, counted in the entries `refs` names (each once, in the order
 * their tails are appended): added to the same chain with the same refs,
 * else kept as a new one, its frames interned in pool.  0, -ENOMEM, or
 * -EINVAL after pk__hist_chains_index.
 */
int pk__hist_chains_add(struct pk__hist_chains *t, struct pk__frame_pool *pool,
			const struct pk_callchain_frame *chain, size_t nr, const struct pk__hist_ref *refs,
			size_t nr_refs, uint64_t period, uint64_t count);

/* pk__hist_chains_index - each entry's tails listed, for ids below nr_ids
 * (every ref's must be), so that a build reads its own alone; no chain is
 * added after.  0 (also when indexed already), -ENOMEM or -EINVAL. */
int pk__hist_chains_index(struct pk__hist_chains *t, size_t nr_ids);

/* pk__hist_chains_build - entry `id`'s tree: each of its tails appended in
 * the order their chains were first added, in a new tree of pool's frames
 * (the caller's to free); NULL in *out when no chain counted in it or the
 * tree's root period is below min_period (indexed, nothing is built then).
 * 0 or -ENOMEM (*out NULL). */
int pk__hist_chains_build(const struct pk__hist_chains *t, struct pk__frame_pool *pool, uint32_t id,
			  uint64_t min_period, struct pk_callchain **out);

/* pk__hist_undefer - every entry of h given its tree (e->chain) from h's
 * deferred chains, which are then let go: h builds trees as chains come
 * again.  0 or -ENOMEM (h as it was; trees built so far freed). */
int pk__hist_undefer(struct pk_hist *h);

/* ---- hist.c --------------------------------------------------------------- */

/* The fields one entry is told apart by; those of keys not in use are 0.
 * Those of hist-keys2.c's keys are apart (pk_hist.k2s), kept only when
 * one is used: 168 bytes an entry that most histograms never read. */
struct pk__hist_ekey {
	const char *comm, *dso, *sym, *srcline, *srcfile, *parent;
	uint64_t sym_start, ip;
	/* the tid (high half) and the cpu (low half) in one word: stored as
	 * two 4-byte halves, they were read back as one 8-byte compare, a
	 * store-forwarding stall that was nearly half of find's time */
	uint64_t tid_cpu;
};

/* A name's length without " (inlined)", by its pointer (hist-sort.c). */
#define PK__HIST_SYMC 1024
struct pk__hist_symc {
	const char *sym;
	uint32_t len;
	bool inlined;
};

struct pk_hist {
	enum pk_hist_key keys[PK_HIST_MAX_KEYS];
	size_t nr_keys;
	bool use[PK_HIST_KEY_NR];
	bool use2;	/* a key from PK_HIST_KEY_TIME on is used: else every key's k2 is zero */
	struct pk_hist_entry *entries;
	struct pk__hist_ekey *ekeys;	/* entries[i]'s key */
	struct pk__hist_key2 *k2s;	/* the rest of it, with use2 (else NULL) */
	size_t nr, cap;
	uint32_t *table;	/* entry index + 1, 0 empty; at most half full */
	size_t table_cap;
	uint64_t total_period, nr_samples;
	uint64_t shown_period;	/* the periods of samples no filter hides */
	bool sorted;		/* pk_hist_sort ran: ekeys no longer match entries */
	bool children;		/* pk_hist_add_chain added children: sort by period_acc */
	enum pk_hist_chain_order order;	/* pk_hist_set_chain_order */
	uint32_t last;		/* the entry of the last sample + 1: runs of samples share one */
	int sort_by[2 * PK_HIST_MAX_KEYS];	/* pk_hist_set_order; nr_sort_by 0: the default */
	size_t nr_sort_by;
	size_t nr_slots;	/* pk_hist_link's members, and their total periods */
	uint64_t *slot_total;
	struct pk_intern *names;	/* pk_hist_set_by_name: keys by interned names */
	struct pk__frame_pool *pool;	/* the frames of every entry's call-chain tree */
	struct pk__hist_chains *deferred;	/* pk_hist_defer_chains: the chains, no trees */
	bool no_trees;		/* pk_hist_no_trees: chains counted, neither kept nor in trees */
	/* perf's input tree (hist-intree.c), kept once its comparison of
	 * these entries may be no order (watch); then found[i] is the tree's
	 * generation when entry i was last found by its key's search, and
	 * nr_split the number of entries made beside one of their key */
	struct pk__hist_watch watch;
	struct pk__hist_rbt intree;
	uint32_t *found;
	uint32_t tree_gen;	/* bumped by a rotation that may change a search */
	size_t nr_split;
	const char **inl_dsos;	/* the objects with an inlined function's entry */
	size_t nr_inl_dsos, cap_inl_dsos;
	uint64_t *odd_ips;	/* the unresolved addresses between user space's
				 * and the kernel's, sorted */
	size_t nr_odd_ips, cap_odd_ips;
	struct pk__hist_symc symc[PK__HIST_SYMC];
};

/* pk__hist_find - the index of the entry s's key fields select in h, made
 * on first sight (*idx).  0, or -ENOMEM. */
int pk__hist_find(struct pk_hist *h, const struct pk_hist_sample *s, uint32_t *idx);

#endif
