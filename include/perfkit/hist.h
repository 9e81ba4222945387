/* SPDX-License-Identifier: MIT */
/*
 * perfkit/hist.h - histograms of samples, as perf report builds them:
 * entries keyed by a list of sort keys (comm, pid, tid, dso, sym, cpu, srcline, srcfile,
 * time, symbol size, socket, trace, cgroup, the weights, ipc_null, dso size,
 * cgroup id, transaction, code page size, addr),
 * each summing its samples and their periods, sorted in perf's order, with
 * perf's percentages and --percent-limit.  Included by perfkit.h.
 */
#ifndef PERFKIT_HIST_H
#define PERFKIT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfkit/callchain.h"
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sort keys.  PERIOD groups nothing: it shows (and sorts by) the period. */
enum pk_hist_key {
	PK_HIST_KEY_COMM,	/* the thread's comm at the sample */
	PK_HIST_KEY_PID,	/* perf's "pid": the thread (tid) and its comm */
	PK_HIST_KEY_TID,	/* the thread id alone */
	PK_HIST_KEY_DSO,	/* the object the ip falls in */
	PK_HIST_KEY_SYM,	/* the symbol, or the address when unresolved */
	PK_HIST_KEY_CPU,
	PK_HIST_KEY_PERIOD,
	PK_HIST_KEY_SRCLINE,	/* the sample's srcline string (perf's "file.c:123") */
	PK_HIST_KEY_SRCFILE,	/* the sample's source file name ("" when unknown) */
	PK_HIST_KEY_PARENT,	/* perf's "parent": the sample's parent symbol, or "[other]" */
	/* The keys of analysis/hist-keys2.c: */
	PK_HIST_KEY_TIME,	/* the sample's time, as the caller rounds it (perf's time quantum) */
	PK_HIST_KEY_SYM_SIZE,	/* the symbol's size (0 for none: perf's "unknown") */
	PK_HIST_KEY_SOCKET,	/* the CPU's socket (perf 6.1 reading a file: -1) */
	PK_HIST_KEY_TRACE,
	PK_HIST_KEY_CGROUP,	/* the sample's cgroup id (0: none, perf's "N/A") */
	/* perf's weight keys: entries by the sample's value, the largest
	 * first; "local" shows it, the other it times the entry's samples */
	PK_HIST_KEY_WEIGHT, PK_HIST_KEY_LOCAL_WEIGHT,
	PK_HIST_KEY_INS_LAT, PK_HIST_KEY_LOCAL_INS_LAT,
	PK_HIST_KEY_P_STAGE_CYC, PK_HIST_KEY_LOCAL_P_STAGE_CYC,	/* the tracepoint's fields as its print fmt renders them */
	PK_HIST_KEY_IPC_NULL,	/* perf's ipc_null, which its report adds to a --sort naming
				 * "symbol" outside branch mode: entries told apart as by
				 * SYM, in perf's address order (sort__sym_cmp: unresolved
				 * by ip; the object's name when DSO is no key; resolved
				 * first; the symbol's start, then its end) */
	PK_HIST_KEY_DSO_SIZE,	/* the size of the map the ip falls in (0: none, "unknown") */
	PK_HIST_KEY_CGROUP_ID,	/* the thread's cgroup namespace: device and inode */
	PK_HIST_KEY_TRANSACTION,	/* the sample's PERF_TXN_* flags and abort code */
	PK_HIST_KEY_CODE_PAGE_SIZE,	/* the page size of the sample's ip (0: none) */
	PK_HIST_KEY_ADDR,	/* the sample's address as sampled */
	/* perf's memory keys (report --mem-mode), analysis/hist-keys-mem.c: */
	PK_HIST_KEY_MEM_DADDR_SYM,	/* symbol_daddr: by the data address */
	PK_HIST_KEY_MEM_IADDR_SYM,	/* symbol_iaddr: by the sampled ip (iaddr) */
	PK_HIST_KEY_MEM_DADDR_DSO,	/* dso_daddr: by the data address's object */
	PK_HIST_KEY_MEM_LOCKED,		/* the data_src fields: locked, */
	PK_HIST_KEY_MEM_TLB,		/* ... tlb, */
	PK_HIST_KEY_MEM_LVL,		/* ... mem (mem_lvl alone), */
	PK_HIST_KEY_MEM_SNOOP,		/* ... snoop (mem_snoop alone) */
	PK_HIST_KEY_MEM_DCACHELINE,	/* the data address's cache line: by mode, object,
					 * process (anonymous memory) and line */
	PK_HIST_KEY_MEM_PHYS_DADDR,	/* phys_daddr */
	PK_HIST_KEY_MEM_DATA_PAGE_SIZE,	/* data_page_size */
	PK_HIST_KEY_MEM_BLOCKED,	/* data_src's mem_blk */
	PK_HIST_KEY_NR,
};

/* The most keys one histogram takes. */
#define PK_HIST_MAX_KEYS 16

/*
 * What a sample resolved to: the fields the keys group by.  Strings are
 * the caller's and must stay valid, unchanged, for the histogram's life;
 * entries key on the pointers (equal strings must be the same pointer, as
 * pk_threads_comm and pk_maps give them), but for `sym`, keyed by its text
 * with `sym_start` and `dso`, so two binaries of one `dso` name share their
 * symbols' entries as in perf.  `dso` NULL means no known
 * mapping holds the ip; `sym` NULL means no symbol does (then `ip` tells
 * entries apart).  `level` is perf's privilege mark: '.' user, 'k' kernel,
 * 'H' hypervisor, 'g' guest kernel, 'u' guest user.
 */
struct pk_hist_sample {
	size_t size;		/* set by the caller: sizeof(struct pk_hist_sample) */
	const char *comm;
	uint32_t pid, tid;
	int32_t cpu;		/* -1 when the samples carry no CPU */
	const char *dso;
	const char *sym;
	uint64_t sym_start;	/* the symbol's start: two symbols of one name differ */
	uint64_t ip;
	char level;
	uint64_t period;
	bool filtered;		/* a filter (--comms, --pid, --tid, --dsos) hides it */
	const char *srcline;	/* for PK_HIST_KEY_SRCLINE: interned like comm */
	const char *srcfile;	/* for PK_HIST_KEY_SRCFILE: interned like comm */
	const char *parent;	/* PARENT: the chain's first frame matching perf's parent
				 * regex (equal names the same pointer); NULL: none */
	uint64_t time;		/* TIME: the time the entry groups by (the caller's
				 * quantum applied: perf's (time / q) * q) */
	uint64_t sym_size;	/* SYM_SIZE: the symbol's size, 0 without one */
	int32_t socket;		/* SOCKET: the socket of the sample's CPU, -1 unknown */
	const char *trace;	/* TRACE: interned like comm; NULL for no tracepoint */
	uint64_t cgroup;	/* CGROUP: the sample's cgroup id, 0 without one */
	uint64_t weight;	/* WEIGHT keys: perf's sample weight (0 without one), */
	uint16_t ins_lat;	/* ... instruction latency and pipeline stage */
	uint16_t p_stage_cyc;	/* ... cycles (WEIGHT_STRUCT's var2_w, var3_w) */
	/* The memory keys' fields (perf's mem_info of the sample): */
	uint64_t data_src;	/* PERF_SAMPLE_DATA_SRC's word (0 without one) */
	uint64_t daddr;		/* the data address (PERF_SAMPLE_ADDR) */
	uint64_t iaddr;		/* the sampled ip, as sampled */
	const char *daddr_dso;	/* the data address's object, interned like dso; NULL none */
	const struct pk_dso *daddr_obj;	/* ... the object itself (DCACHELINE orders by its id) */
	const char *daddr_sym;	/* ... its symbol, NULL none (shown, not keyed on) */
	uint64_t daddr_symoff;	/* ... the data address minus the symbol's start */
	bool daddr_object;	/* ... the symbol is a data object (shown with its offset) */
	bool daddr_anon;	/* ... user memory, private, of no file (perf's zero dso
				 * id): DCACHELINE tells processes apart there */
	uint64_t dcacheline;	/* DCACHELINE: the line of the address in its map (perf's
				 * cl_address of al_addr) */
	uint64_t dcl_symoff;	/* ... that line minus the symbol's start, as perf shows it */
	char dcl_level;		/* ... the mark perf shows it with: 's' shared file data,
				 * 'X' in no map, else `level` */
	uint64_t phys_addr;	/* PERF_SAMPLE_PHYS_ADDR */
	uint64_t data_page_size;	/* PERF_SAMPLE_DATA_PAGE_SIZE */
	uint64_t dso_size;	/* DSO_SIZE: the map's size, 0 without a map */
	uint64_t cgroup_dev, cgroup_ino;	/* CGROUP_ID: the cgroup namespace's link */
	uint64_t transaction;	/* TRANSACTION: the sample's transaction word */
	uint64_t code_page_size;	/* CODE_PAGE_SIZE: 0 without one */
	uint64_t addr;		/* ADDR: the sampled address (not map-relative) */
	bool sym_object;	/* sym is a data object (STT_OBJECT; kallsyms' D and B):
				 * perf shows it as "name+0xOFFSET" from ip */
};

/*
 * One entry: the key fields of its first sample and the sums.  As in perf,
 * the first sample decides whether the whole entry is filtered out (which
 * matters only when the filter's field is not a key, so that samples of
 * both kinds share entries).
 */
/* A group member's sums in its leader's entry (pk_hist_link). */
struct pk_hist_pair {
	uint64_t period, period_acc, nr_samples;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

struct pk_hist_entry {
	struct pk_hist_sample s;	/* fields outside the keys, filtered: the first sample's */
	uint64_t period;		/* the sum of its samples' periods */
	uint64_t nr_samples;
	/* With pk_hist_add_chain: perf's Children total (the period of every
	 * sample whose chain passes through the entry, once per sample) and
	 * the call-chain tree of the entry (NULL when no chain was added, and
	 * with pk_hist_defer_chains until a comm rename builds them all:
	 * pk_hist_chain gives the tree either way). */
	uint64_t period_acc;
	struct pk_callchain *chain;
	uint32_t max_depth;	/* the most frames of one chain added to the tree */
	uint32_t ref;		/* the histogram's own: the entry's number in its
				 * deferred chains */
	/* With pk_hist_link: each linked member's sums, by its slot (NULL
	 * before the first link).  An entry only a member had is in the
	 * leader with no samples of its own. */
	struct pk_hist_pair *pairs;
	/* The period by the sample's mode (level 'k', '.', 'g', 'u'): perf's
	 * overhead_sys, overhead_us, overhead_guest_sys, overhead_guest_us. */
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

struct pk_hist;

/*
 * pk_hist_new - an empty histogram grouping by `keys` (nr_keys of them, in
 * the order perf's --sort gives them; 0 to PK_HIST_MAX_KEYS: with none,
 * every sample counts in one entry).  Returns 0 with *out; -EINVAL for
 * too many keys or an unknown one; -ENOMEM.
 */
PK_API int pk_hist_new(const enum pk_hist_key *keys, size_t nr_keys, struct pk_hist **out);

/* pk_hist_free - free it.  NULL is a no-op. */
PK_API void pk_hist_free(struct pk_hist *h);

/* A string interner: one copy of each string, shared by the histograms of
 * files compared with one another (pk_hist_set_by_name), so that a name
 * is one pointer in all of them. */
struct pk_intern;

/* pk_intern_new - an empty interner.  Returns 0 with *out; -ENOMEM. */
PK_API int pk_intern_new(struct pk_intern **out);

/* pk_intern_str - the interner's copy of `s` in *out, made on first sight
 * and valid until pk_intern_free (NULL for NULL).  Returns 0; -ENOMEM. */
PK_API int pk_intern_str(struct pk_intern *t, const char *s, const char **out);

/* pk_intern_nr - how many strings it holds. */
PK_API size_t pk_intern_nr(const struct pk_intern *t);

/* pk_intern_free - free it and every copy.  NULL is a no-op. */
PK_API void pk_intern_free(struct pk_intern *t);

/*
 * pk_hist_set_by_name - key h's entries by the names perf diff pairs
 * files by: every string of an added sample (comm, dso, sym, srcline,
 * srcfile, parent) is replaced by `names`' copy (which must outlive h),
 * and a symbol is told apart by its name alone (not its start or
 * object), unresolved addresses not at all, as perf diff's collapse
 * does.  Histograms sharing `names` then key one name on one pointer,
 * and pk_diff pairs their entries by pk_hist's own key comparison.
 * Returns 0; -EINVAL once samples were added.
 */
PK_API int pk_hist_set_by_name(struct pk_hist *h, struct pk_intern *names);

/*
 * pk_hist_add - count sample `s` (s->size set) in the entry its key fields
 * select, making the entry on first sight; filtered samples count too, in
 * their entries and in the totals percentages are taken of, as in perf.  Adding to an existing entry
 * allocates nothing; new entries grow tables by doubling.  Counts toward
 * the totals.  Returns 0; -EINVAL for a short s->size; -ENOMEM.  Entries
 * must not be added after pk_hist_sort (-EINVAL).
 */
PK_API int pk_hist_add(struct pk_hist *h, const struct pk_hist_sample *s);

/*
 * pk_hist_add_n - count `nr_samples` samples with s's fields at once,
 * s->period the sum of their periods: the same sums as that many
 * pk_hist_add calls (a caller that remembers repeated samples adds them
 * together).  Returns as pk_hist_add.
 */
PK_API int pk_hist_add_n(struct pk_hist *h, const struct pk_hist_sample *s, uint64_t nr_samples);

/*
 * pk_hist_add_chain - count sample `s` as pk_hist_add does, with its call
 * chain: `frames` (nr of them, in the order the chains print: perf's
 * caller or callee order) each as a pk_hist_sample (the sample's fields
 * with the frame's dso, sym, sym_start, ip and level: the key of the
 * entry a frame counts in) and as a pk_callchain_frame in `chain`.  The
 * sample's entry gets the whole chain in its tree.  With `children`, as
 * perf's --children: every frame's entry (made with no period of its own
 * when new) gets the sample's period in period_acc and chain[k..nr) in its
 * tree, once per sample however often the entry recurs in the chain, and
 * the sample's own entry gets it in period_acc too; pk_hist_sort then
 * orders by period_acc first.  Strings as for pk_hist_add.  Returns 0,
 * -EINVAL (short sizes, after pk_hist_sort), -ENOMEM.
 */
PK_API int pk_hist_add_chain(struct pk_hist *h, const struct pk_hist_sample *s,
			     const struct pk_hist_sample *frames, const struct pk_callchain_frame *chain,
			     size_t nr, bool children);

/*
 * pk_hist_add_chain_n - `nr_samples` samples of the same fields and chain
 * at once, s->period the sum of their periods: the same sums and trees as
 * that many pk_hist_add_chain calls.  A branch frame (--branch-history)
 * is counted per sample: with one in the chain, nr_samples must be 1.
 * Returns as pk_hist_add_chain; -EINVAL for branch frames in more than one
 * sample.
 */
PK_API int pk_hist_add_chain_n(struct pk_hist *h, const struct pk_hist_sample *s,
			       const struct pk_hist_sample *frames, const struct pk_callchain_frame *chain,
			       size_t nr, bool children, uint64_t nr_samples);

/*
 * pk_hist_in_order - whether h now finds a sample's entries the way perf's
 * input tree does: once perf's comparison of h's entries is no order (an
 * inlined function's symbol, compared by name, among others, compared by
 * address; unresolved addresses 2^63 apart; ...) perf's tree search can
 * pass an entry of the key by and make a second one, and h does the same.
 * Each sample is then looked up when it is added, in the tree as the
 * samples before it left it: a caller that counts repeats together
 * (pk_hist_add_n, pk_hist_add_chain_n) gives perf's entries only when it
 * adds them before any later sample of its own.
 */
PK_API bool pk_hist_in_order(const struct pk_hist *h);

/*
 * pk_hist_defer_chains - keep the chains added from now on rather than a
 * tree per entry: each distinct chain once, with the entries it counted in
 * and its sums, and an entry's tree built when pk_hist_chain asks for it,
 * the same tree as built sample by sample.  Made for perf's children mode
 * above all, where every entry's tree holds the chains through it (a deep
 * profile's trees, all kept, were many times the size of its chains).  Only before
 * the first sample is added, and not for chains with branch frames
 * (pk_hist_add_chain then fails with -EINVAL).  Returns 0 or -EINVAL.
 */
PK_API int pk_hist_defer_chains(struct pk_hist *h);

/*
 * pk_hist_no_trees - count the chains added from now on (pk_hist_add_chain's
 * period_acc with `children`, and each entry's deepest chain, which orders
 * ties) but keep neither them nor any tree: pk_hist_chain then gives NULL
 * for every entry.  For output that shows no call graph (perf report's
 * `-g none`), where the chains kept were the largest part of a children
 * report's memory.  Only before the first sample is added; it ends
 * pk_hist_defer_chains's and outlasts a later call of it.  Returns 0 or
 * -EINVAL.
 */
PK_API int pk_hist_no_trees(struct pk_hist *h);

/*
 * pk_hist_chain - entry e's call-chain tree in *out: e->chain, or, in a
 * histogram with deferred chains, a tree built now (after pk_hist_sort,
 * from the entry's own chains; before it, every chain is looked through);
 * NULL when no chain was added to e, or when the tree's root period
 * (pk_callchain_node_cumul) is below `min_period`: then no node of it
 * reaches a pk_callchain_sort threshold of min_period in GRAPH_ABS, FLAT or
 * FOLDED, and after the sort none is built (0: any tree).  Give it back with pk_hist_chain_put before the histogram is
 * freed.  Returns 0 or -ENOMEM (*out NULL).
 */
PK_API int pk_hist_chain(const struct pk_hist *h, const struct pk_hist_entry *e, uint64_t min_period,
			 struct pk_callchain **out);

/* pk_hist_chain_put - done with the tree pk_hist_chain gave for e: one
 * built for the call is freed, e->chain kept.  NULL is a no-op. */
PK_API void pk_hist_chain_put(const struct pk_hist_entry *e, struct pk_callchain *cc);

/* The order of the chains pk_hist_add_chain gets, for pk_hist_sort's ties. */
enum pk_hist_chain_order {
	PK_HIST_CHAIN_UNORDERED,	/* the default: no tie rule (perf without call graphs shown) */
	PK_HIST_CHAIN_CALLEE_FIRST,
	PK_HIST_CHAIN_CALLER_FIRST,
};

/*
 * pk_hist_set_chain_order - tell the histogram the order of the chains
 * pk_hist_add_chain gets, which turns on perf's rule for entries of equal
 * period_acc (see pk_hist_sort); PK_HIST_CHAIN_UNORDERED turns it off.
 */
PK_API void pk_hist_set_chain_order(struct pk_hist *h, enum pk_hist_chain_order order);

/*
 * pk_hist_rename_comm - perf's comm override after the fact: every entry
 * whose comm is `from` (a thread's ":TID", see pk_threads_rename) now has
 * `to`, and entries that then share their key with an earlier one are
 * merged into it as perf's collapse merges them (sums, pairs, call-chain
 * trees: each node with samples of its own appended once).  Call it before
 * pk_hist_link and pk_hist_sort.  Returns 0; -EINVAL after pk_hist_sort;
 * -ENOMEM (the histogram then holds what was merged so far).
 */
PK_API int pk_hist_rename_comm(struct pk_hist *h, const char *from, const char *to);

/*
 * pk_hist_sort - put the entries in perf report's order: by period_acc
 * when children were added (among equal ones of one thread, with a chain
 * order set, the caller above the callee, as perf puts them: the entry whose
 * longest chain is longer first in caller order, shorter first in callee
 * order), then by period,
 * largest first, then by each key in turn (comm, dso and symbol names
 * ascending; pid, tid and cpu ascending), then, for unresolved symbols,
 * by address, lowest first.  With children, that comparison is not
 * transitive (as perf's): the entries go where perf's tree insertion, in
 * its collapsed order, puts them.  Returns 0; -ENOMEM (the entries sorted
 * as nearly as a plain sort can).
 */
PK_API int pk_hist_sort(struct pk_hist *h);

/*
 * pk_hist_link - perf's event group view: make `leader` (not yet sorted)
 * carry `member`'s sums (same keys; strings the same pointers) in slot
 * `slot` of `nr_slots` (the same nr_slots on every call): each member
 * entry is matched to the leader's entry of the same key, made with no
 * samples of its own when the leader has none (perf's hists__link), and
 * its sums go into that entry's pairs[slot]; the member's totals are
 * kept for pk_hist_pair_percent.  pk_hist_sort then breaks ties of period
 * by the pairs' periods in slot order, as perf sorts a group's Overhead.
 * The member is not changed.  Returns 0; -EINVAL for a slot out of range,
 * a changed nr_slots, differing keys or a sorted leader; -ENOMEM.
 */
PK_API int pk_hist_link(struct pk_hist *leader, const struct pk_hist *member, size_t slot,
			size_t nr_slots);

/* pk_hist_pair_total - slot `slot`'s member's total period (0 out of range). */
PK_API uint64_t pk_hist_pair_total(const struct pk_hist *h, size_t slot);

/* pk_hist_pair_set_total - make slot `slot`'s total (what its percentages
 * are of) `total`: perf's --percentage relative takes each member's
 * unfiltered period.  -EINVAL for a slot not linked yet. */
PK_API int pk_hist_pair_set_total(struct pk_hist *h, size_t slot, uint64_t total);

/* pk_hist_pair_percent / pk_hist_pair_percent_acc - entry e's slot
 * `slot` period (period_acc) as a share of that member's total period,
 * in percent (0 for an empty total, an unlinked slot or no pairs). */
PK_API double pk_hist_pair_percent(const struct pk_hist *h, const struct pk_hist_entry *e, size_t slot);
PK_API double pk_hist_pair_percent_acc(const struct pk_hist *h, const struct pk_hist_entry *e,
				       size_t slot);

/* What pk_hist_set_order can sort by: perf's output fields, largest
 * first, and (PK_HIST_ORDER_KEY(k)) the sort keys. */
enum pk_hist_order {
	PK_HIST_ORDER_OVERHEAD,		/* period; all but CHILDREN then compare pk_hist_link's pairs */
	PK_HIST_ORDER_OVERHEAD_SYS,
	PK_HIST_ORDER_OVERHEAD_US,
	PK_HIST_ORDER_OVERHEAD_GUEST_SYS,
	PK_HIST_ORDER_OVERHEAD_GUEST_US,
	PK_HIST_ORDER_CHILDREN,		/* period_acc, with the chain order's tie rule */
	PK_HIST_ORDER_SAMPLES,
	PK_HIST_ORDER_PERIOD,
	PK_HIST_ORDER_NR,
};
#define PK_HIST_ORDER_KEY(k) (0x100 + (int)(k))

/*
 * pk_hist_set_order - sort by exactly `order` (nr of them, at most
 * 2 * PK_HIST_MAX_KEYS: enum pk_hist_order values and PK_HIST_ORDER_KEY
 * of any key), in turn, instead of pk_hist_sort's default; as perf's
 * output order when -F is given.  Unresolved symbols still end in
 * address order.  The array is copied.  Returns 0 or -EINVAL.
 */
PK_API int pk_hist_set_order(struct pk_hist *h, const int *order, size_t nr);

/* pk_hist_nr / pk_hist_get - the entries (in order after pk_hist_sort);
 * pk_hist_get returns NULL out of range.  Owned by the histogram. */
PK_API size_t pk_hist_nr(const struct pk_hist *h);
PK_API const struct pk_hist_entry *pk_hist_get(const struct pk_hist *h, size_t idx);

/*
 * pk_hist_prefix_samples - for each entry i (pk_hist_get's order), the
 * number of samples of every entry equal to it on the histogram's first
 * `nr_keys` keys (all samples when nr_keys is 0; filtered ones included),
 * stored in out[i], which has pk_hist_nr(h) slots.  perf 6.1 makes a
 * tracepoint entry's trace text only when it compares two samples on
 * that key, so this says which entries perf has a text for when it sizes
 * the column (more than one sample here).  Returns 0, -EINVAL when
 * nr_keys is more than the histogram has, or -ENOMEM.
 */
PK_API int pk_hist_prefix_samples(const struct pk_hist *h, size_t nr_keys, uint64_t *out);

/* pk_hist_total_period / pk_hist_nr_samples - the sums over every sample
 * added, filtered ones included (perf's default, --percentage absolute). */
PK_API uint64_t pk_hist_total_period(const struct pk_hist *h);
PK_API uint64_t pk_hist_nr_samples(const struct pk_hist *h);

/* pk_hist_percent_acc - the same for the entry's period_acc. */
PK_API double pk_hist_percent_acc(const struct pk_hist *h, const struct pk_hist_entry *e);

/* pk_hist_percent - entry e's share of the total period, in percent, as
 * perf computes it (0 for an empty total). */
PK_API double pk_hist_percent(const struct pk_hist *h, const struct pk_hist_entry *e);

/*
 * pk_hist_below_limit - whether entry e falls under --percent-limit
 * `limit`, compared in single precision as perf does (so an entry perf
 * hides at the limit is hidden here too); by its period_acc when
 * pk_hist_add_chain added children, as perf's --children does.
 */
PK_API bool pk_hist_below_limit(const struct pk_hist *h, const struct pk_hist_entry *e, double limit);


/* ---- JSON (analysis/export-json.c) ---------------------------------------- */

/* One event's section of pk_hist_write_json: its name, its histogram
 * (sorted) and the samples the kernel lost for it (0 when unknown). */
struct pk_hist_json_event {
	const char *name;
	struct pk_hist *hist;
	uint64_t lost;
};

/*
 * What pk_hist_write_json writes: `file` names the input (may be NULL);
 * `keys` (nr_keys of them) are the histogram's sort keys, each a member
 * of every row's "keys"; rows under `percent_limit` (as pk_hist_below_limit)
 * and filtered entries are left out, as the table leaves them out; with
 * `children` rows carry their Children share and period; with `callchain`
 * each row carries its call-chain tree, sorted in `cg_mode` with the
 * threshold `cg_min_percent` as perf report's -g does.
 */
struct pk_stack_health;

struct pk_hist_json_opts {
	size_t size;		/* set by the caller: sizeof(struct pk_hist_json_opts) */
	const char *file;
	const enum pk_hist_key *keys;
	size_t nr_keys;
	double percent_limit;
	bool children;
	bool callchain;
	enum pk_callchain_mode cg_mode;
	double cg_min_percent;
	/* The stack health of the samples read (include/perfkit/health.h),
	 * written as the document's "stack_health"; NULL leaves it out. */
	struct pk_stack_health *health;
};

/*
 * pk_hist_write_json - the report of events `ev` (nr_ev of them; events
 * without samples are left out, as in the table) as one JSON document on
 * `f` (schema: docs/EXPORTS.md).  Strings are escaped per RFC 8259; a byte
 * that is not part of valid UTF-8 is written as \ufffd.  Returns 0;
 * -EINVAL for a short opts->size or a NULL argument; -ENOMEM; -EIO when
 * writing fails.
 */
PK_API int pk_hist_write_json(FILE *f, const struct pk_hist_json_opts *opts,
			      const struct pk_hist_json_event *ev, size_t nr_ev);

#ifdef __cplusplus
}
#endif
#endif
