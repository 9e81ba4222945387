/* SPDX-License-Identifier: MIT */
/*
 * hist-keys-mem.c - perf 6.1's memory sort keys (report --mem-mode,
 * util/sort.c's memory_sort_dimensions): which of a sample's memory
 * fields each groups by, a hash of them, and their order in perf's output.
 * The data_src keys each compare their own field of the word alone (perf's
 * "mem" its mem_lvl, not the level number, hops or remote bit it also
 * prints), so entries differing only elsewhere share a row, shown as
 * their first sample's.
 */
#include "hist-int.h"

#include <string.h>

/* The bits of PERF_SAMPLE_DATA_SRC each data_src key compares. */
static uint64_t src_mask(enum pk_hist_key key)
{
	switch (key) {
	case PK_HIST_KEY_MEM_LVL: return 0x3fffull << PERF_MEM_LVL_SHIFT;
	case PK_HIST_KEY_MEM_SNOOP: return 0x1full << PERF_MEM_SNOOP_SHIFT;
	case PK_HIST_KEY_MEM_LOCKED: return 0x3ull << PERF_MEM_LOCK_SHIFT;
	case PK_HIST_KEY_MEM_TLB: return 0x7full << PERF_MEM_TLB_SHIFT;
	case PK_HIST_KEY_MEM_BLOCKED: return 0x7ull << PERF_MEM_BLK_SHIFT;
	default: return 0;
	}
}

void pk__hist_keymem_make(const bool *use, const struct pk_hist_sample *s, struct pk__hist_keymem *k)
{
	uint64_t mask = 0;

	*k = (struct pk__hist_keymem){ 0 };
	for (int key = PK_HIST_KEY_MEM_DADDR_SYM; key < PK_HIST_KEY_NR; key++)
		if (use[key])
			mask |= src_mask((enum pk_hist_key)key);
	k->data_src = s->data_src & mask;
	if (use[PK_HIST_KEY_MEM_DADDR_SYM])
		k->daddr = s->daddr;
	if (use[PK_HIST_KEY_MEM_IADDR_SYM])
		k->iaddr = s->iaddr;
	if (use[PK_HIST_KEY_MEM_DADDR_DSO] || use[PK_HIST_KEY_MEM_DCACHELINE])
		k->dso = s->daddr_dso;
	if (use[PK_HIST_KEY_MEM_DCACHELINE]) {
		k->line = s->dcacheline;
		k->level = s->level;
		/* perf tells lines of user anonymous memory apart by process */
		k->pid = s->daddr_anon ? s->pid : 0;
	}
	if (use[PK_HIST_KEY_MEM_PHYS_DADDR])
		k->phys_addr = s->phys_addr;
	if (use[PK_HIST_KEY_MEM_DATA_PAGE_SIZE])
		k->page_size = s->data_page_size;
}

uint64_t pk__hist_keymem_hash(const struct pk__hist_keymem *k)
{
	return k->daddr * 0x9e3779b97f4a7c15ull + k->iaddr * 0xbf58476d1ce4e5b9ull +
	       k->phys_addr * 0x94d049bb133111ebull + k->page_size * 0x2545f4914f6cdd1dull +
	       k->line * 0x27d4eb2f165667c5ull + k->data_src * 0xff51afd7ed558ccdull +
	       (uintptr_t)k->dso * 0xc4ceb9fe1a85ec53ull + ((uint64_t)k->pid << 8 | (uint8_t)k->level);
}

bool pk__hist_keymem_eq(const struct pk__hist_keymem *a, const struct pk__hist_keymem *b)
{
	return a->daddr == b->daddr && a->iaddr == b->iaddr && a->phys_addr == b->phys_addr &&
	       a->page_size == b->page_size && a->line == b->line && a->data_src == b->data_src &&
	       a->dso == b->dso && a->pid == b->pid && a->level == b->level;
}

/* perf's (int64_t)(right - left) of two u64 addresses, turned into our
 * order (< 0: a first), wrap-around and all. */
static int cmp_wrapped(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? -1 : d < 0;
}

static int cmp_num(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* perf's cpumode number of a level mark, for the cache line's order. */
static int mode_of(char level)
{
	switch (level) {
	case 'k': return 1;
	case '.': return 2;
	case 'H': return 3;
	case 'g': return 4;
	default: return 5;
	}
}

/* perf's dso__cmp_id: device, inode and its generation, ascending. */
static int cmp_id(const struct pk_dso *a, const struct pk_dso *b)
{
	int c;

	if ((c = cmp_num(a->maj, b->maj)) || (c = cmp_num(a->min, b->min)) || (c = cmp_num(a->ino, b->ino)))
		return c;
	return cmp_num(a->ino_generation, b->ino_generation);
}

/* perf's sort__dcacheline_cmp: by mode, by object id (anonymous objects,
 * all of id 0, tie), by process in private anonymous user memory, then by
 * line; an address in no map after those in one. */
static int cmp_line(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	if ((c = cmp_num((uint64_t)mode_of(a->s.level), (uint64_t)mode_of(b->s.level))))
		return c;
	if (a->s.daddr_obj || b->s.daddr_obj) {
		if (!a->s.daddr_obj || !b->s.daddr_obj)
			return a->s.daddr_obj ? -1 : 1;
		if ((c = cmp_id(a->s.daddr_obj, b->s.daddr_obj)))
			return c;
		if (a->s.daddr_anon && (c = cmp_num(a->s.pid, b->s.pid)))
			return c;
	}
	return cmp_num(a->s.dcacheline, b->s.dcacheline);
}

int pk__hist_keymem_cmp(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	uint64_t m = src_mask(key);

	switch (key) {
	case PK_HIST_KEY_MEM_DADDR_SYM:
		return cmp_wrapped(a->s.daddr, b->s.daddr);
	case PK_HIST_KEY_MEM_IADDR_SYM:
		return cmp_wrapped(a->s.iaddr, b->s.iaddr);
	case PK_HIST_KEY_MEM_DADDR_DSO:
		/* perf's _sort__dso_cmp unswapped: names descending, none first */
		if (!a->s.daddr_dso || !b->s.daddr_dso)
			return a->s.daddr_dso ? (b->s.daddr_dso ? 0 : 1) : (b->s.daddr_dso ? -1 : 0);
		return a->s.daddr_dso == b->s.daddr_dso ? 0 : strcmp(b->s.daddr_dso, a->s.daddr_dso);
	case PK_HIST_KEY_MEM_DCACHELINE:
		return cmp_line(a, b);
	case PK_HIST_KEY_MEM_PHYS_DADDR:
		return cmp_wrapped(a->s.phys_addr, b->s.phys_addr);
	case PK_HIST_KEY_MEM_DATA_PAGE_SIZE:
		return cmp_wrapped(a->s.data_page_size, b->s.data_page_size);
	default:	/* a data_src field: ascending */
		return m ? cmp_num(a->s.data_src & m, b->s.data_src & m) : 0;
	}
}
