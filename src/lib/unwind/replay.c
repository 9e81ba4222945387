/* SPDX-License-Identifier: MIT */
/*
 * replay.c - the unwinder's memory of whole unwindings.  The samples of a
 * hot loop come back to the same ip with the same stack pointer and the
 * same frames above it: what changes between them is the loop's own
 * registers and locals, which the unwinding does not use.  The fast path
 * (cfi.c) records where the values an unwinding used (each frame's CFA
 * base and return address) came from: a sample register, or a stack word,
 * by its offset from sp.  Everything else it used is fixed while the
 * process's generation stays: the maps, the modules, the rules and the
 * mapped files.  A sample whose ip, stack pointer, stack size, register
 * mask, those registers and those words are all the kept unwinding's gets
 * its frames copied, each word compared instead of evaluated through its
 * frame's rule.  A callee-saved register a frame restores and no later
 * frame uses is not compared: it does not change the frames.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "unwind/unwind.h"

#include <stdlib.h>
#include <string.h>

#define TRACE_BITS 8
#define TRACE_SLOTS (1u << TRACE_BITS)

struct pk__unwind_trace {
	const struct uproc *p;	/* NULL: nothing kept */
	uint64_t gen, ip, sp, stack_words, mask;
	size_t max;
	uint32_t consumed;	/* as pk__unwind_rec's */
	uint32_t nr_ips, nr_reads;
	uint64_t regs[17];	/* the consumed registers' values, by DWARF number */
	uint64_t ips[PK__TRACE_FRAMES];
	uint32_t offs[PK__TRACE_READS];
	uint64_t vals[PK__TRACE_READS];
};

static size_t trace_slot(const struct uproc *p, uint64_t ip)
{
	return (size_t)(((ip ^ (uintptr_t)p) * 0x9e3779b97f4a7c15ull) >> (64 - TRACE_BITS));
}

bool pk__unwind_replay(struct pk_unwinder *u, struct uproc *p, uint64_t ip, const struct reg_layout *l)
{
	struct sample_state *s = &p->cur;
	const struct pk__unwind_trace *t = u->traces ? u->traces[trace_slot(p, ip)] : NULL;
	uint64_t diff = 0;

	if (!t || t->p != p || t->ip != ip || t->gen != p->gen || t->sp != s->sp ||
	    t->stack_words != s->stack_words || t->mask != s->mask || t->max != s->max)
		return false;
	for (uint32_t m = t->consumed; m; m &= m - 1) {
		unsigned int d = (unsigned int)__builtin_ctz(m);

		if (s->regs[l->pos[d]] != t->regs[d])
			return false;
	}
	/* the words mostly match: one test at the end, not one a word */
	for (uint32_t i = 0; i < t->nr_reads; i++) {
		uint64_t w;

		memcpy(&w, s->stack + t->offs[i], sizeof(w));
		diff |= w ^ t->vals[i];
	}
	if (diff)
		return false;
	memcpy(s->ips, t->ips, t->nr_ips * sizeof(*t->ips));
	s->nr = t->nr_ips;
	return true;
}

void pk__unwind_keep(struct pk_unwinder *u, struct uproc *p, uint64_t ip, const struct reg_layout *l,
		     const struct pk__unwind_rec *rec)
{
	const struct sample_state *s = &p->cur;
	struct pk__unwind_trace **slot, *t;

	/* (plain allocations: out of memory, the memo only saves no work,
	 * and no error is to be reported) */
	if (rec->nr_reads > PK__TRACE_READS || s->nr > PK__TRACE_FRAMES || s->stack_words > UINT32_MAX ||
	    (!u->traces && !(u->traces = calloc(TRACE_SLOTS, sizeof(*u->traces)))))
		return;
	slot = &u->traces[trace_slot(p, ip)];
	if (!*slot && !(*slot = malloc(sizeof(**slot))))
		return;
	t = *slot;	/* field by field: most of it is the arrays' unused tails */
	t->p = p;
	t->gen = p->gen;
	t->ip = ip;
	t->sp = s->sp;
	t->stack_words = s->stack_words;
	t->mask = s->mask;
	t->max = s->max;
	t->consumed = rec->consumed;
	t->nr_ips = (uint32_t)s->nr;
	t->nr_reads = 0;
	for (uint32_t i = 0; i < rec->nr_reads; i++) {
		if (!(rec->needed[i / 64] >> (i % 64) & 1))
			continue;	/* a word no value used came from */
		t->offs[t->nr_reads] = rec->offs[i];
		t->vals[t->nr_reads++] = rec->vals[i];
	}
	for (uint32_t m = rec->consumed; m; m &= m - 1) {
		unsigned int d = (unsigned int)__builtin_ctz(m);

		t->regs[d] = s->regs[l->pos[d]];
	}
	memcpy(t->ips, s->ips, s->nr * sizeof(*s->ips));
}

void pk__unwind_traces_free(struct pk_unwinder *u)
{
	for (size_t i = 0; u->traces && i < TRACE_SLOTS; i++)
		free(u->traces[i]);
	free(u->traces);
}
