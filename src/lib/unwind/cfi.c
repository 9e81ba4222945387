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
 * where libdw's x86_64 defaults leave rbx undefined.
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

struct pk__unwind_rule {
	uint32_t dso1;		/* the DSO's number + 1; 0: an empty slot */
	bool fast;		/* the rules below say all; else ask libdwfl */
	uint8_t cfa_reg;
	uint8_t kind[NREGS];
	uint8_t nr_cfa;		/* the registers at or from the CFA, in cfa[] */
	uint8_t cfa[NREGS];
	uint32_t same;		/* the registers that keep their value, a bit each */
	uint64_t pc;		/* less the module's bias: the same in every process */
	int64_t cfa_off;
	int64_t off[NREGS];
};

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

void pk__unwind_rules_free(struct pk_unwinder *u)
{
	for (size_t i = 0; i < u->nr_paths; i++)
		free(u->paths[i]);
	free(u->paths);
	free(u->path_slots);
	free(u->rules);
}

static size_t rule_hash(uint32_t dso, uint64_t pc, size_t cap)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ull) ^ (dso * 0xc2b2ae3d27d4eb4full)) & (cap - 1);
}

/* The slot for (dso, pc): the cached rule, or the empty slot to fill. */
static struct pk__unwind_rule *rule_slot(struct pk__unwind_rule *rules, size_t cap, uint32_t dso, uint64_t pc)
{
	size_t k = rule_hash(dso, pc, cap);

	while (rules[k].dso1 && (rules[k].dso1 != dso + 1 || rules[k].pc != pc))
		k = (k + 1) & (cap - 1);
	return &rules[k];
}

static int grow_rules(struct pk_unwinder *u)
{
	size_t cap = u->cap_rules ? u->cap_rules * 2 : 1024;
	struct pk__unwind_rule *n = pk__calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < u->cap_rules; i++)
		if (u->rules[i].dso1)
			*rule_slot(n, cap, u->rules[i].dso1 - 1, u->rules[i].pc) = u->rules[i];
	free(u->rules);
	u->rules = n;
	u->cap_rules = cap;
	return 0;
}

/* The x86_64 psABI's callee-saved registers, by DWARF number: rbx, rbp,
 * r12 .. r15. */
static bool callee_saved(int regno)
{
	return regno == 3 || regno == 6 || (regno >= 12 && regno <= 15);
}

/* One register's rule, as libdw gives it, in r->kind/off; false when it
 * is more than the fast path evaluates. */
static bool take_register(Dwarf_Frame *frame, int regno, struct pk__unwind_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 1;

	if (dwarf_frame_register(frame, regno, mem, &ops, &nops) != 0) {
		r->kind[regno] = K_UNSET;	/* libdwfl leaves it unset */
		return true;
	}
	if (nops == 0) {
		r->kind[regno] = ops == mem ? K_UNDEF : ops == NULL ? K_SAME : K_UNSET;
		/* libdw cannot tell a silent rule from DW_CFA_undefined, which
		 * compilers emit for the return address only: a callee-saved
		 * register it calls undefined keeps its value, as libunwind's
		 * silent rules do.  rbx is the one that matters: ld.so's lazy
		 * resolver (_dl_runtime_resolve_xsave*) keeps its CFA in rbx, and
		 * _dl_fixup's first instructions have not saved it yet. */
		if (r->kind[regno] == K_UNDEF && callee_saved(regno))
			r->kind[regno] = K_SAME;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	r->off[regno] = 0;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		r->off[regno] = (int64_t)ops[i++].number;
	else if (i + 1 < nops && ops[i].atom == DW_OP_consts && ops[i + 1].atom == DW_OP_plus)
		r->off[regno] = (int64_t)ops[i].number, i += 2;
	r->kind[regno] = K_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value)
		r->kind[regno] = K_CFA_PLUS, i++;
	return i == nops;
}

/* Read the rules at file pc `pc` from cfi into r. */
static bool take_frame(Dwarf_CFI *cfi, uint64_t pc, struct pk__unwind_rule *r)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false, ok;
	int ra;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
		return false;
	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	ok = ra == RA && !signal && dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
	     ops[0].atom == DW_OP_bregx && ops[0].number < NREGS;
	if (ok) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	}
	for (int regno = 0; ok && regno < NREGS; regno++) {
		ok = take_register(frame, regno, r);
		if (r->kind[regno] == K_SAME)
			r->same |= 1u << regno;
		else if (r->kind[regno] == K_AT_CFA || r->kind[regno] == K_CFA_PLUS)
			r->cfa[r->nr_cfa++] = (uint8_t)regno;
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
	Dwarf_Addr bias_eh = 0, bias_dw = 0;
	Dwarf_CFI *eh;

	/* m->tried: reported already (pk__unwind_report_module would find m
	 * again only to say so).  libdwfl's module at lookup must be m's,
	 * asked at every frame: a check once per mapping (its module alone
	 * over it) let fuzz_unwind crash libdw in dwarf_cfi_addrframe. */
	if (!m || !(m->tried ? m->mod != NULL : pk__unwind_report_module(p, lookup)) ||
	    dwfl_addrmodule(p->dwfl, lookup) != m->mod)
		return NULL;
	eh = dwfl_module_eh_cfi(m->mod, &bias_eh);
	if ((u->nr_rules + 1) * 2 > u->cap_rules && grow_rules(u) < 0)
		return NULL;
	r = rule_slot(u->rules, u->cap_rules, m->dso, lookup - bias_eh);
	if (r->dso1)
		return r;
	memset(r, 0, sizeof(*r));
	if (!take_frame(eh, lookup - bias_eh, r)) {
		Dwarf_CFI *dw = dwfl_module_dwarf_cfi(m->mod, &bias_dw);

		if (!take_frame(dw, lookup - bias_dw, r))
			r->fast = false;	/* no CFI: libdwfl tries frame pointers */
	}
	r->dso1 = m->dso + 1;
	r->pc = lookup - bias_eh;
	u->nr_rules++;
	return r;
}

struct frame_regs {
	uint64_t v[NREGS];
	uint32_t set;
};

static bool read_word(struct uproc *p, uint64_t addr, uint64_t *out)
{
	const struct sample_state *s = &p->cur;
	Dwarf_Word w;

	if (addr + 8 < addr)
		return false;
	if (addr >= s->sp && addr + 8 <= s->sp + s->stack_size) {
		memcpy(out, s->stack + (addr - s->sp), 8);
		return true;
	}
	if (!pk__unwind_read_file_word(p, addr, &w))
		return false;
	*out = w;
	return true;
}

/* The caller's registers from this frame's: libdwfl's handle_cfi on the
 * rule.  Returns the caller's pc, or 0 when it is undefined (the end). */
static uint64_t step(struct uproc *p, const struct pk__unwind_rule *r, const struct frame_regs *in,
		     struct frame_regs *out)
{
	bool cfa_ok = in->set & (1u << r->cfa_reg);
	uint64_t cfa = in->v[r->cfa_reg] + (uint64_t)r->cfa_off;

	/* same value: kept where the frame has it; undefined or unset: not
	 * set (their values are copied along but never read) */
	memcpy(out->v, in->v, sizeof(out->v));
	out->set = in->set & r->same;
	for (unsigned int k = 0; k < r->nr_cfa && cfa_ok; k++) {
		unsigned int i = r->cfa[k];
		uint64_t v = cfa + (uint64_t)r->off[i];

		if (r->kind[i] == K_AT_CFA && !read_word(p, v, &v))
			continue;
		out->v[i] = v;
		out->set |= 1u << i;
	}
	if (r->kind[RA] == K_UNDEF || !(out->set & (1u << RA)))
		return 0;
	return out->v[RA];
}

/* The sample's registers by DWARF number: one walk over the mask's bits
 * (pk__unwind_reg's popcount per register is a libgcc call per register
 * on a baseline x86_64 build). */
static void sample_regs(const struct sample_state *s, struct frame_regs *r)
{
	/* dwarf_to_perf turned around; -1 for flags and segment registers */
	static const int8_t perf_to_dwarf[24] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1,
						  -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t i = 0;

	r->set = 0;
	for (uint64_t mask = s->mask; mask; mask &= mask - 1, i++) {
		int bit = __builtin_ctzll(mask), d = bit < 24 ? perf_to_dwarf[bit] : -1;

		if (d >= 0) {
			r->v[d] = s->regs[i];
			r->set |= 1u << d;
		}
	}
}

int pk__unwind_fast(struct pk_unwinder *u, struct uproc *p, uint64_t ip)
{
	struct sample_state *s = &p->cur;
	struct frame_regs regs[2] = { 0 };
	int cur = 0;
	uint64_t pc = ip;

	sample_regs(s, &regs[0]);
	for (bool initial = true;; initial = false) {
		uint64_t lookup = initial ? pc : pc - 1;
		const struct pk__unwind_rule *r;

		if (!pk__unwind_report_module(p, pc)) {
			/* the frame callback's way: kept, then the end */
			if (!initial)
				s->ips[s->nr++] = lookup;
			return 1;
		}
		if (!(r = rule_at(u, p, lookup)) || !r->fast) {
			/* libdwfl goes on from this frame with what the fast
			 * path knows there: rbx too, which its own walk from
			 * the sample would have lost (ld.so's lazy resolver). */
			s->resume = !initial;
			s->resume_pc = lookup;
			s->resume_set = regs[cur].set;
			memcpy(s->resume_regs, regs[cur].v, sizeof(s->resume_regs));
			return 0;
		}
		s->ips[s->nr++] = lookup;
		if (s->nr == s->max)
			return 1;
		pc = step(p, r, &regs[cur], &regs[!cur]);
		cur = !cur;
		if (!pc)
			return 1;
	}
}
