/* SPDX-License-Identifier: MIT */
/*
 * cfi.c - the unwinder's fast path.  libdwfl's own frame walk allocates a
 * frame and re-reads the CFI rules for every frame of every sample; here
 * the rules at a pc (CFA as register + offset, each register undefined,
 * same value, saved at CFA + n or equal to CFA + n) are read once through
 * libdw, cached per DSO and pc in one hash table shared by every process,
 * and evaluated directly, with libdwfl's semantics step for step (which
 * pc to look up, which registers a failed read leaves unset, when the
 * chain ends).  At a frame whose rules are more than that (an expression,
 * a signal frame, no CFI at all, where libdwfl would fall back to frame
 * pointers) libdwfl takes over, starting from that frame's registers as
 * the fast path has them, so the frames are always the ones libdwfl would
 * give, but for one rule: a callee-saved register the CFI says nothing
 * about keeps its value (perf 6.1 unwinds with libunwind, which does so),
 * where libdw's x86_64 defaults leave rbx undefined.  A frame finds its
 * rule through a memo by process, pc and the process's generation, so the
 * lookups behind it (the maps, libdwfl's module at the pc, the rule
 * table) run once per pc for as long as the process's modules stay.  An
 * unwinding notes the sample registers it used and the stack words it
 * read, so that replay.c can give a repeat of the sample its frames.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "unwind/unwind.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NREGS 17	/* x86_64: rax .. r15 and the return address column */
#define RA 16

enum kind { K_UNSET, K_UNDEF, K_SAME, K_AT_CFA, K_CFA_PLUS };

/* A register a rule sets from the CFA: saved at CFA + off (at), or
 * equal to CFA + off. */
struct cfa_reg {
	int32_t off;
	uint8_t reg;
	bool at;
};

/* The most registers a fast rule sets from the CFA: compiled x86_64 code
 * saves at most the six callee-saved ones and has the return address at
 * the CFA (a rule with more goes to libdwfl).  Kept short, a rule is 112
 * bytes, not 168: a deep profile's cc1 made 21,000 of them. */
#define MAX_CFA_REGS 10

/* The rules at one pc of one DSO, as step() reads them: the CFA, the
 * registers set from it in cfa[], those that keep their value in `same`
 * (a bit each); every other register becomes unset. */
struct pk__unwind_rule {
	uint64_t pc;		/* less the module's bias: the same in every process */
	int64_t cfa_off;
	uint32_t dso1;		/* the DSO's number + 1 */
	uint32_t same;
	bool fast;		/* the rules say all; else ask libdwfl */
	bool ra_undef;		/* the return address is undefined: the chain ends */
	uint8_t cfa_reg;
	uint8_t nr_cfa;
	struct cfa_reg cfa[MAX_CFA_REGS];
};

/* One page's share of a part of a row of .eh_frame's table: the file
 * pcs [start, end) that one rule holds for (from a pc its rule was read
 * at to the row's end, libdw's dwarf_frame_info), the rule's number, and
 * the next on the page (index + 1, 0: none). */
struct pk__unwind_row {
	uint64_t start, end;
	uint32_t rule, next;
};

/* A page's rows: (dso, 4 KiB page of file pcs) -> the first row's index
 * + 1 (0: an empty slot). */
struct pk__unwind_page {
	uint64_t page;
	uint32_t dso1, head;
};

#define ROW_PAGE_BITS 12
/* A row over more pages than this is not indexed (its pcs still find
 * their rules one by one): a function's body is one row, and a few of a
 * compiler's span hundreds of KiB. */
#define ROW_MAX_PAGES 16

/* Rules live in chunks that never move, so that the frame memo's
 * pointers stay good as the table grows, and a chunk's pages are
 * written only as its rules are made (a table of empty slots, zeroed up
 * front, was a page fault per rule). */
#define RULE_CHUNK 64

/* A frame's rule as rule_at gave it, after pk__unwind_report_module said
 * yes to the frame's pc, for process p in generation tag >> 1, the
 * initial frame (looked up at pc, not pc - 1) when tag & 1. */
struct pk__unwind_memo {
	uint64_t pc;
	const struct uproc *p;
	uint64_t tag;
	const struct pk__unwind_rule *r;
};

/* The memo is asked only for the frames of samples replay.c has not
 * kept: 1024 entries, 32 KiB, whose pages are written as slots are. */
#define MEMO_BITS 10
#define MEMO_SIZE (1u << MEMO_BITS)

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int grow_paths(struct pk_unwinder *u)
{
	size_t cap = u->cap_paths ? u->cap_paths * 2 : 64;
	uint32_t *slots = pk__calloc(cap, sizeof(*slots));
	char **paths = pk__reallocarray(u->paths, cap, sizeof(*paths));

	if (!slots || !paths) {
		free(slots);
		if (paths)
			u->paths = paths;
		return pk__error_nomem("the unwinder's DSO table");
	}
	u->paths = paths;
	for (size_t i = 0; i < u->nr_paths; i++) {
		size_t k = hash_str(paths[i]) & (cap - 1);

		while (slots[k])
			k = (k + 1) & (cap - 1);
		slots[k] = (uint32_t)i + 1;
	}
	free(u->path_slots);
	u->path_slots = slots;
	u->cap_paths = cap;
	return 0;
}

int pk__unwind_path_id(struct pk_unwinder *u, const char *path)
{
	size_t k;

	if ((u->nr_paths + 1) * 2 > u->cap_paths && grow_paths(u) < 0)
		return -ENOMEM;
	for (k = hash_str(path) & (u->cap_paths - 1); u->path_slots[k]; k = (k + 1) & (u->cap_paths - 1))
		if (!strcmp(u->paths[u->path_slots[k] - 1], path))
			return (int)u->path_slots[k] - 1;
	if (!(u->paths[u->nr_paths] = pk__strdup(path)))
		return pk__error_nomem("the unwinder's DSO table");
	u->path_slots[k] = (uint32_t)++u->nr_paths;
	return (int)u->nr_paths - 1;
}

int pk__unwind_rules_new(struct pk_unwinder *u)
{
	if (!(u->memo = pk__calloc(MEMO_SIZE, sizeof(*u->memo))))
		return pk__error_nomem("the unwinder's frame memo");
	return 0;
}

void pk__unwind_rules_free(struct pk_unwinder *u)
{
	for (size_t i = 0; i < u->nr_paths; i++)
		free(u->paths[i]);
	free(u->paths);
	free(u->path_slots);
	for (size_t i = 0; i < u->nr_chunks; i++)
		free(u->rule_chunks[i]);
	free(u->rule_chunks);
	free(u->rule_slots);
	free(u->rows);
	free(u->pages);
	free(u->memo);
}

static size_t rule_hash(uint32_t dso, uint64_t pc, size_t cap)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ull) ^ (dso * 0xc2b2ae3d27d4eb4full)) & (cap - 1);
}

static struct pk__unwind_rule *rule_get(const struct pk_unwinder *u, uint32_t i)
{
	return &u->rule_chunks[i / RULE_CHUNK][i % RULE_CHUNK];
}

/* The slot of (dso, pc) in slots[cap]: the cached rule's number + 1, or
 * the empty slot to fill. */
static uint32_t *rule_slot(const struct pk_unwinder *u, uint32_t *slots, size_t cap, uint32_t dso, uint64_t pc)
{
	size_t k = rule_hash(dso, pc, cap);

	for (; slots[k]; k = (k + 1) & (cap - 1)) {
		const struct pk__unwind_rule *r = rule_get(u, slots[k] - 1);

		if (r->dso1 == dso + 1 && r->pc == pc)
			break;
	}
	return &slots[k];
}

static size_t page_hash(uint32_t dso, uint64_t page, size_t cap)
{
	return (size_t)((page * 0xc2b2ae3d27d4eb4full) ^ (dso * 0x9e3779b97f4a7c15ull)) >> 17 & (cap - 1);
}

/* The slot of (dso, page) in pages[cap], or the empty one to fill. */
static struct pk__unwind_page *page_slot(struct pk__unwind_page *pages, size_t cap, uint32_t dso, uint64_t page)
{
	size_t k = page_hash(dso, page, cap);

	while (pages[k].head && (pages[k].dso1 != dso + 1 || pages[k].page != page))
		k = (k + 1) & (cap - 1);
	return &pages[k];
}

/* The rule of a row read before that holds file pc `pc` of dso, or NULL:
 * the rules of one row are one (libdw reads them by running the CFI up to
 * the row that holds the pc), so the pcs of a function's body, its call
 * sites, need one read. */
static const struct pk__unwind_rule *row_find(const struct pk_unwinder *u, uint32_t dso, uint64_t pc)
{
	const struct pk__unwind_page *slot;

	if (!u->cap_pages)
		return NULL;
	slot = page_slot(u->pages, u->cap_pages, dso, pc >> ROW_PAGE_BITS);
	for (uint32_t i = slot->head; i; i = u->rows[i - 1].next)
		if (u->rows[i - 1].start <= pc && pc < u->rows[i - 1].end)
			return rule_get(u, u->rows[i - 1].rule);
	return NULL;
}

/* Room for one more page in the index, rehashed when half full. */
static bool grow_pages(struct pk_unwinder *u)
{
	size_t cap = u->cap_pages ? u->cap_pages * 2 : 1024;
	struct pk__unwind_page *n;

	if ((u->nr_pages + 1) * 2 <= u->cap_pages)
		return true;
	if (!(n = pk__calloc(cap, sizeof(*n))))
		return false;
	for (size_t i = 0; i < u->cap_pages; i++)
		if (u->pages[i].head)
			*page_slot(n, cap, u->pages[i].dso1 - 1, u->pages[i].page) = u->pages[i];
	free(u->pages);
	u->pages = n;
	u->cap_pages = cap;
	return true;
}

/* Row [start, end) of dso, whose rule is number `rule`, indexed on each
 * page it covers; out of memory, it is left out (an index, not the rules). */
static void row_add(struct pk_unwinder *u, uint32_t dso, uint64_t start, uint64_t end, uint32_t rule)
{
	uint64_t first = start >> ROW_PAGE_BITS, last = (end - 1) >> ROW_PAGE_BITS;

	if (end <= start || last - first >= ROW_MAX_PAGES)
		return;
	for (uint64_t page = first; page <= last; page++) {
		struct pk__unwind_page *slot;

		if (u->nr_rows == u->cap_rows) {
			size_t cap = u->cap_rows ? u->cap_rows * 2 : 1024;
			struct pk__unwind_row *n = pk__reallocarray(u->rows, cap, sizeof(*n));

			if (!n)
				return;
			u->rows = n;
			u->cap_rows = cap;
		}
		if (!grow_pages(u))
			return;
		slot = page_slot(u->pages, u->cap_pages, dso, page);
		if (!slot->head) {
			*slot = (struct pk__unwind_page){ .page = page, .dso1 = dso + 1 };
			u->nr_pages++;
		}
		u->rows[u->nr_rows] = (struct pk__unwind_row){ .start = start, .end = end, .rule = rule,
							       .next = slot->head };
		slot->head = (uint32_t)++u->nr_rows;
	}
}

/* Room in the index for one more rule, and in the chunks for it. */
static int grow_rules(struct pk_unwinder *u)
{
	if ((u->nr_rules + 1) * 2 > u->cap_rules) {
		size_t cap = u->cap_rules ? u->cap_rules * 2 : 1024;
		uint32_t *n = pk__calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (uint32_t i = 0; i < u->nr_rules; i++) {
			const struct pk__unwind_rule *r = rule_get(u, i);

			*rule_slot(u, n, cap, r->dso1 - 1, r->pc) = i + 1;
		}
		free(u->rule_slots);
		u->rule_slots = n;
		u->cap_rules = cap;
	}
	if (u->nr_rules == u->nr_chunks * RULE_CHUNK) {
		size_t c = u->nr_chunks;
		struct pk__unwind_rule **chunks = pk__reallocarray(u->rule_chunks, c + 1, sizeof(*chunks));

		if (!chunks)
			return -ENOMEM;
		u->rule_chunks = chunks;
		if (!(chunks[c] = pk__malloc(RULE_CHUNK * sizeof(**chunks))))
			return -ENOMEM;
		u->nr_chunks++;
	}
	return 0;
}

/* The x86_64 psABI's callee-saved registers, by DWARF number: rbx, rbp,
 * r12 .. r15. */
static bool callee_saved(int regno)
{
	return regno == 3 || regno == 6 || (regno >= 12 && regno <= 15);
}

/* One register's rule, as libdw gives it, in *kind and *off; false when
 * it is more than the fast path evaluates. */
static bool take_register(Dwarf_Frame *frame, int regno, uint8_t *kind, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 1;

	if (dwarf_frame_register(frame, regno, mem, &ops, &nops) != 0) {
		*kind = K_UNSET;	/* libdwfl leaves it unset */
		return true;
	}
	if (nops == 0) {
		*kind = ops == mem ? K_UNDEF : ops == NULL ? K_SAME : K_UNSET;
		/* libdw cannot tell a silent rule from DW_CFA_undefined, which
		 * compilers emit for the return address only: a callee-saved
		 * register it calls undefined keeps its value, as libunwind's
		 * silent rules do.  rbx is the one that matters: ld.so's lazy
		 * resolver (_dl_runtime_resolve_xsave*) keeps its CFA in rbx, and
		 * _dl_fixup's first instructions have not saved it yet. */
		if (*kind == K_UNDEF && callee_saved(regno))
			*kind = K_SAME;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	*off = 0;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[i++].number;
	else if (i + 1 < nops && ops[i].atom == DW_OP_consts && ops[i + 1].atom == DW_OP_plus)
		*off = (int64_t)ops[i].number, i += 2;
	*kind = K_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value)
		*kind = K_CFA_PLUS, i++;
	/* an offset past 2 GiB is no stack slot: libdwfl's to evaluate */
	return i == nops && *off == (int32_t)*off;
}

/* Read the rules at file pc `pc` from cfi into r (zeroed), and where the
 * row they are of ends, *end. */
static bool take_frame(Dwarf_CFI *cfi, uint64_t pc, struct pk__unwind_rule *r, Dwarf_Addr *end)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false, ok;
	int ra;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
		return false;
	ra = dwarf_frame_info(frame, NULL, end, &signal);
	ok = ra == RA && !signal && dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
	     ops[0].atom == DW_OP_bregx && ops[0].number < NREGS;
	if (ok) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	}
	for (int regno = 0; ok && regno < NREGS; regno++) {
		uint8_t kind = K_UNSET;
		int64_t off = 0;

		ok = take_register(frame, regno, &kind, &off);
		if ((kind == K_AT_CFA || kind == K_CFA_PLUS) && r->nr_cfa == MAX_CFA_REGS)
			ok = false;	/* more than a fast rule holds: libdwfl's */
		else if (kind == K_SAME)
			r->same |= 1u << regno;
		else if (kind == K_AT_CFA || kind == K_CFA_PLUS)
			r->cfa[r->nr_cfa++] = (struct cfa_reg){ .off = (int32_t)off, .reg = (uint8_t)regno,
								.at = kind == K_AT_CFA };
		if (regno == RA)
			r->ra_undef = kind == K_UNDEF;
	}
	free(frame);
	r->fast = ok;
	return true;
}

/* The cached rule of the module that holds `lookup`, or NULL when it
 * cannot be had (no module, out of memory). */
static const struct pk__unwind_rule *rule_at(struct pk_unwinder *u, struct uproc *p, uint64_t lookup)
{
	struct umap *m = pk__unwind_map_of(p, lookup);
	struct pk__unwind_rule *r;
	const struct pk__unwind_rule *row;
	Dwarf_Addr bias_eh = 0, bias_dw = 0, end = 0;
	Dwarf_CFI *eh;
	uint32_t *slot;
	bool indexed = false;

	/* m->tried: reported already (pk__unwind_report_module would find m
	 * again only to say so).  libdwfl's module at lookup must be m's,
	 * asked of this very address (frame_rule keeps the answer for as
	 * long as the modules stay): a check once per mapping (its module
	 * alone over it) let fuzz_unwind crash libdw in dwarf_cfi_addrframe. */
	if (!m || !(m->tried ? m->mod != NULL : pk__unwind_report_module(p, lookup)) ||
	    dwfl_addrmodule(p->dwfl, lookup) != m->mod)
		return NULL;
	eh = dwfl_module_eh_cfi(m->mod, &bias_eh);
	if (grow_rules(u) < 0)
		return NULL;
	slot = rule_slot(u, u->rule_slots, u->cap_rules, m->dso, lookup - bias_eh);
	if (*slot)
		return rule_get(u, *slot - 1);
	if (eh && (row = row_find(u, m->dso, lookup - bias_eh)))
		return row;
	r = rule_get(u, (uint32_t)u->nr_rules);
	memset(r, 0, sizeof(*r));
	if (take_frame(eh, lookup - bias_eh, r, &end)) {
		indexed = true;
	} else {
		Dwarf_CFI *dw = dwfl_module_dwarf_cfi(m->mod, &bias_dw);

		if (!take_frame(dw, lookup - bias_dw, r, &end))
			r->fast = false;	/* no CFI: libdwfl tries frame pointers */
	}
	r->dso1 = m->dso + 1;
	r->pc = lookup - bias_eh;
	*slot = (uint32_t)++u->nr_rules;
	/* .eh_frame's rows only, what row_find is asked about; from the pc
	 * on: libdw's start is the FDE's, not the row's (the rules at 20,000
	 * random pcs each of cc1 and libc held up to the end it gave, and not
	 * before the pc for 4% of them) */
	if (indexed)
		row_add(u, m->dso, lookup - bias_eh, end, (uint32_t)u->nr_rules - 1);
	return r;
}

/*
 * The rule for the frame at pc, looked up at `lookup`, with *known false
 * when pk__unwind_report_module finds no module at pc.  The answer is a
 * function of the process's maps and modules and of the rule table, so
 * the memo keeps it until one of them changes (p->gen; a rule, once made,
 * never moves): rule_at's check that libdwfl's module at lookup
 * is its map's is made once per generation, its answer the same at every
 * frame until then.
 */
static const struct pk__unwind_rule *frame_rule(struct pk_unwinder *u, struct uproc *p, uint64_t pc,
						uint64_t lookup, bool *known)
{
	uint64_t tag = p->gen << 1 | (lookup == pc);
	uint64_t h = (pc ^ (uintptr_t)p ^ tag) * 0x9e3779b97f4a7c15ull;
	struct pk__unwind_memo *e = &u->memo[h >> (64 - MEMO_BITS)];
	const struct pk__unwind_rule *r;

	*known = true;
	if (e->pc == pc && e->p == p && e->tag == tag)
		return e->r;
	if (!pk__unwind_report_module(p, pc)) {
		*known = false;
		return NULL;
	}
	r = rule_at(u, p, lookup);
	if (r)	/* both calls may have changed p->gen */
		*e = (struct pk__unwind_memo){ .pc = pc, .p = p, .tag = p->gen << 1 | (lookup == pc), .r = r };
	return r;
}

struct frame_regs {
	uint64_t v[NREGS];
	uint32_t set;
};

/* A word of the process's memory at addr: the stack copy's, noted in
 * rec with *src its index there, else the mapped file's. */
static bool read_word(struct uproc *p, uint64_t addr, uint64_t *out, struct pk__unwind_rec *rec, int16_t *src)
{
	const struct sample_state *s = &p->cur;
	Dwarf_Word w;

	if (addr - s->sp < s->stack_words) {
		memcpy(out, s->stack + (addr - s->sp), 8);
		if (rec->nr_reads < PK__TRACE_READS) {
			rec->offs[rec->nr_reads] = (uint32_t)(addr - s->sp);
			rec->vals[rec->nr_reads] = *out;
			*src = (int16_t)rec->nr_reads;
		}
		rec->nr_reads++;
		return true;
	}
	if (addr + 8 < addr || !pk__unwind_read_file_word(p, addr, &w))
		return false;
	*out = w;
	return true;
}

/* Register reg's value is used: what it came from is noted. */
static void consume(struct pk__unwind_rec *rec, unsigned int reg)
{
	int k = rec->src[reg];

	if (k == PK__FROM_SAMPLE)
		rec->consumed |= 1u << reg;
	else if (k >= 0)
		rec->needed[k / 64] |= 1ull << (k % 64);
}

/* The caller's registers from this frame's, in place: libdwfl's
 * handle_cfi on the rule.  Returns the caller's pc, or 0 when it is
 * undefined (the end).  rec notes where each register's value came
 * from, and what the values used (the CFA's base, the return address)
 * came from. */
static uint64_t step(struct uproc *p, const struct pk__unwind_rule *restrict r, struct frame_regs *restrict regs,
		     struct pk__unwind_rec *restrict rec)
{
	uint64_t cfa = regs->v[r->cfa_reg] + (uint64_t)r->cfa_off;
	unsigned int nr = regs->set & (1u << r->cfa_reg) ? r->nr_cfa : 0;

	if (nr)
		consume(rec, r->cfa_reg);
	/* same value: kept where the frame has it; undefined or unset: not
	 * set (their old values stay but are never read); of this frame's
	 * values, the CFA's alone is read below */
	uint32_t set = regs->set & r->same;

	for (unsigned int k = 0; k < nr; k++) {
		const struct cfa_reg *c = &r->cfa[k];
		uint64_t v = cfa + (uint64_t)(int64_t)c->off;
		int16_t src = PK__FROM_FIXED;

		if (c->at && !read_word(p, v, &v, rec, &src))
			continue;
		regs->v[c->reg] = v;
		rec->src[c->reg] = src;
		set |= 1u << c->reg;
	}
	regs->set = set;
	if (r->ra_undef || !(set & (1u << RA)))
		return 0;
	consume(rec, RA);
	return regs->v[RA];
}

const struct reg_layout *pk__unwind_layout(struct pk_unwinder *u, uint64_t regs_mask)
{
	/* dwarf_to_perf turned around; -1 for flags and segment registers */
	static const int8_t perf_to_dwarf[24] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1,
						  -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15 };
	struct reg_layout *l = &u->layout;
	uint8_t i = 0;

	if (l->mask == regs_mask)
		return l;
	memset(l, 0, sizeof(*l));
	l->mask = regs_mask;
	for (uint64_t mask = regs_mask; mask; mask &= mask - 1, i++) {
		int bit = __builtin_ctzll(mask), d = bit < 24 ? perf_to_dwarf[bit] : -1;

		if (d >= 0) {
			l->pos[d] = i;
			l->set |= 1u << d;
		}
	}
	return l;
}

/* The sample's registers by DWARF number, as the mask's layout has them
 * (each register's index in the sample worked out once per mask, not
 * once per sample: a popcount is a libgcc call on a baseline x86_64). */
static void sample_regs(const struct sample_state *s, const struct reg_layout *l, struct frame_regs *r)
{
	for (int d = 0; d < NREGS; d++)
		r->v[d] = s->regs[l->pos[d]];
	r->set = l->set;
}

int pk__unwind_fast(struct pk_unwinder *u, struct uproc *p, uint64_t ip)
{
	struct sample_state *s = &p->cur;
	const struct reg_layout *l = pk__unwind_layout(u, s->mask);
	uint64_t *ips = s->ips, pc = ip, gen = p->gen;
	size_t nr = s->nr;	/* kept here: a store through ips may alias s->nr */
	struct frame_regs regs;
	struct pk__unwind_rec rec;	/* its arrays written as used */
	int done = 1;

	memset(rec.src, 0xff, sizeof(rec.src));	/* PK__FROM_SAMPLE each */
	memset(rec.needed, 0, sizeof(rec.needed));
	rec.consumed = 0;
	rec.nr_reads = 0;
	sample_regs(s, l, &regs);
	for (bool initial = true;; initial = false) {
		uint64_t lookup = initial ? pc : pc - 1;
		const struct pk__unwind_rule *r;
		bool known;

		if (!(r = frame_rule(u, p, pc, lookup, &known)) && !known) {
			/* the frame callback's way: kept, then the end */
			if (!initial)
				ips[nr++] = lookup;
			break;
		}
		if (!r || !r->fast) {
			/* libdwfl goes on from this frame with what the fast
			 * path knows there: rbx too, which its own walk from
			 * the sample would have lost (ld.so's lazy resolver). */
			s->resume = !initial;
			s->resume_pc = lookup;
			s->resume_set = regs.set;
			memcpy(s->resume_regs, regs.v, sizeof(s->resume_regs));
			done = 0;
			break;
		}
		ips[nr++] = lookup;
		if (nr == s->max || !(pc = step(p, r, &regs, &rec)))
			break;
	}
	s->nr = nr;
	/* kept only when no module came in on the way: one that did may
	 * change the rules of the frames before it (p->gen) */
	if (done && p->gen == gen)
		pk__unwind_keep(u, p, ip, l, &rec);
	return done;
}
