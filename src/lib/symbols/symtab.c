/* SPDX-License-Identifier: MIT */
/*
 * symtab.c - a DSO's symbol table: symbols collected in any order, then
 * sorted once by address with perf's rules for duplicates and zero sizes,
 * and searched by binary search.  Names live in a few large blocks, not
 * one allocation each: kallsyms alone has 100k+ of them.  A table of C++
 * or Rust names keeps them mangled and demangles the few looked up.
 */
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 32 bytes a symbol on 64-bit machines: tables of 100k symbols are paged in. */
_Static_assert(sizeof(void *) != 8 || sizeof(struct pk__sym) == 32, "struct pk__sym grew");

#define BLOCK_SIZE (64 * 1024)
#define PAGE 4096u

struct block {
	struct block *next;
	size_t used, cap;
	char data[];
};

struct pk__symtab {
	struct pk__sym *syms;
	size_t nr, cap;
	struct block *blocks;
	void *owned;		/* names added by reference live here, or NULL */
	struct pk__kindex *index;	/* kallsyms looked up lazily, or NULL */
	enum { KEEP, DEMANGLE, DEMANGLE_PARAMS } demangle;	/* names added */
};

/* The demangler's buffer: a longer demangled name stays mangled, as when
 * each name was demangled as it was added (dso.c's add_sym). */
#define DEMANGLED_MAX 1024

int pk__symtab_new(struct pk__symtab **out)
{
	struct pk__symtab *t = pk__calloc(1, sizeof(*t));

	if (!t)
		return pk__error_nomem("a symbol table");
	*out = t;
	return 0;
}

void pk__symtab_free(struct pk__symtab *t)
{
	if (!t)
		return;
	while (t->blocks) {
		struct block *b = t->blocks;

		t->blocks = b->next;
		free(b);
	}
	free(t->syms);
	pk__kindex_free(t->index);
	free(t->owned);
	free(t);
}

static const char *copy_name(struct pk__symtab *t, const char *name)
{
	size_t n = strlen(name) + 1;
	struct block *b = t->blocks;
	char *p;

	if (!b || b->cap - b->used < n) {
		size_t cap = n > BLOCK_SIZE ? n : BLOCK_SIZE;

		if (!(b = pk__malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = t->blocks;
		b->used = 0;
		b->cap = cap;
		t->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, name, n);
	b->used += n;
	return p;
}

/* Room for twice as many symbols; out of line, so that adding one (kallsyms:
 * 120,000 times a run) is a leaf function without a frame to set up. */
static __attribute__((noinline, cold)) int grow(struct pk__symtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	struct pk__sym *n = pk__realloc(t->syms, cap * sizeof(*n));

	if (!n)
		return pk__error_nomem("a symbol table");
	t->syms = n;
	t->cap = cap;
	return 0;
}

int pk__symtab_reserve(struct pk__symtab *t, size_t n)
{
	struct pk__sym *syms;

	if (n <= t->cap)
		return 0;
	if (n > SIZE_MAX / sizeof(*syms) || !(syms = pk__realloc(t->syms, n * sizeof(*syms))))
		return pk__error_nomem("a symbol table");
	t->syms = syms;
	t->cap = n;
	return 0;
}

int pk__symtab_add_ref(struct pk__symtab *t, uint64_t start, uint64_t size, const char *name,
		       unsigned char binding)
{
	int err;

	if (t->nr == t->cap && (err = grow(t)) < 0)
		return err;
	/* An end past the address space is clamped, not wrapped. */
	t->syms[t->nr] = (struct pk__sym){ .start = start,
					   .end = size > UINT64_MAX - start ? UINT64_MAX : start + size,
					   .name = name, .binding = binding, .seq = (uint32_t)t->nr };
	t->nr++;
	return 0;
}

void pk__symtab_set_object(struct pk__symtab *t)
{
	if (t->nr)
		t->syms[t->nr - 1].object = true;
}

int pk__symtab_add(struct pk__symtab *t, uint64_t start, uint64_t size, const char *name,
		   unsigned char binding)
{
	const char *copy = copy_name(t, name);
	int err;

	if (!copy)
		return pk__error_nomem("a symbol name");
	if ((err = pk__symtab_add_ref(t, start, size, copy, binding)) < 0)
		return err;
	/* Only "_Z" and "_R" names are ever demangled (demangle.c). */
	t->syms[t->nr - 1].mangled = t->demangle != KEEP && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
	return 0;
}

void pk__symtab_set_demangle(struct pk__symtab *t, enum pk_demangle how)
{
	t->demangle = how == PK_DEMANGLE_NONE ? KEEP : how == PK_DEMANGLE_PARAMS ? DEMANGLE_PARAMS : DEMANGLE;
}

/* s's name demangled, once: the copy replaces the mangled name.  Out of
 * memory the name stays as the file spells it. */
static const char *sym_name(struct pk__symtab *t, struct pk__sym *s)
{
	char buf[DEMANGLED_MAX];
	const char *dm, *copy;

	if (!s->mangled)
		return s->name;
	s->mangled = false;
	dm = t->demangle == DEMANGLE_PARAMS ? pk__demangle_params(s->name, buf, sizeof(buf))
					    : pk__demangle(s->name, buf, sizeof(buf));
	if (dm && (copy = copy_name(t, dm)))
		s->name = copy;
	return s->name;
}

void pk__symtab_own(struct pk__symtab *t, void *mem)
{
	free(t->owned);
	t->owned = mem;
}

static int by_start(const void *a, const void *b)
{
	const struct pk__sym *x = a, *y = b;

	/* Ties keep the order of addition: qsort is not stable. */
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Whether the symbols were added in address order already (kallsyms is).
 * Ties are in order of addition by construction. */
static bool in_order(const struct pk__symtab *t)
{
	for (size_t i = 1; i < t->nr; i++)
		if (t->syms[i - 1].start > t->syms[i].start)
			return false;
	return true;
}

/*
 * Sort by start, ties in order of addition: a least-significant-digit
 * radix sort (stable, so the order of addition is kept without comparing
 * seq), a byte a pass, skipping the bytes every start shares (an ELF
 * file's symbols span a few MiB: two or three passes, not eight).  Falls
 * back to qsort when the scratch array cannot be had.
 */
static void sort_by_start(struct pk__symtab *t)
{
	struct pk__sym *src = t->syms, *dst = pk__malloc(t->nr * sizeof(*dst)), *swap;
	uint64_t differ = 0;	/* the bits in which some start differs from the first */

	if (!dst) {
		qsort(t->syms, t->nr, sizeof(*t->syms), by_start);
		return;
	}
	for (size_t i = 1; i < t->nr; i++)
		differ |= src[i].start ^ src[0].start;
	for (unsigned shift = 0; shift < 64 && differ >> shift; shift += 8) {
		size_t count[256] = { 0 }, pos = 0;

		if (!(differ >> shift & 0xff))
			continue;	/* every start has this byte: nothing moves */
		for (size_t i = 0; i < t->nr; i++)
			count[src[i].start >> shift & 0xff]++;
		for (size_t b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = pos;
			pos += c;
		}
		for (size_t i = 0; i < t->nr; i++)
			dst[count[src[i].start >> shift & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != t->syms)
		t->cap = t->nr;
	t->syms = src;
	free(dst);	/* the other array */
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Whether a is the better of two symbols at one address (perf's order). */
static bool better(struct pk__symtab *t, struct pk__sym *a, struct pk__sym *b)
{
	bool asized = a->end > a->start, bsized = b->end > b->start;
	size_t ua, ub, la, lb;

	if (asized != bsized)
		return asized;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	ua = underscores(sym_name(t, a));
	ub = underscores(sym_name(t, b));
	if (ua != ub)
		return ua < ub;
	la = strlen(a->name);
	lb = strlen(b->name);
	return la >= lb;
}

void pk__symtab_finish(struct pk__symtab *t, bool kallsyms)
{
	size_t k = 0;

	if (!t->nr)
		return;
	if (!in_order(t))
		sort_by_start(t);
	/* perf's symbols__fixup_end, before duplicates go: a zero-sized
	 * symbol reaches to the next one (of several at one address only the
	 * last one added gets a size that way); the last, to its start
	 * rounded up to a page, plus a page. */
	for (size_t i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].end == t->syms[i].start)
			t->syms[i].end = t->syms[i + 1].start;
	if (t->syms[t->nr - 1].end == t->syms[t->nr - 1].start) {
		uint64_t s = t->syms[t->nr - 1].start;
		uint64_t up = (s + PAGE - 1) & ~(uint64_t)(PAGE - 1);

		t->syms[t->nr - 1].end = up > UINT64_MAX - PAGE ? UINT64_MAX : up + PAGE;
	}
	/* Then symbols__fixup_duplicate: one symbol per address, the better
	 * by perf's rules (so a sized one, as __TMC_END__ over _edata). */
	for (size_t i = 1; i < t->nr; i++) {
		if (t->syms[i].start == t->syms[k].start) {
			if (kallsyms || !better(t, &t->syms[k], &t->syms[i]))
				t->syms[k] = t->syms[i];
			continue;
		}
		t->syms[++k] = t->syms[i];
	}
	t->nr = k + 1;
}

void pk__symtab_set_index(struct pk__symtab *t, struct pk__kindex *x)
{
	pk__kindex_free(t->index);
	t->index = x;
}

const struct pk__sym *pk__symtab_find(struct pk__symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	if (t->index)
		return pk__kindex_find(t->index, addr);

	while (lo < hi) {	/* the last symbol starting at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->syms[lo - 1].end)
		return NULL;
	sym_name(t, &t->syms[lo - 1]);
	return &t->syms[lo - 1];
}

int pk__symtab_span(struct pk__symtab *t, uint64_t *start, uint64_t *end)
{
	if (t->index)
		return pk__kindex_span(t->index, start, end);
	if (!t->nr)
		return -ENOENT;
	*start = t->syms[0].start;	/* finished: in address order */
	*end = t->syms[t->nr - 1].end;
	return 0;
}

size_t pk__symtab_nr(const struct pk__symtab *t)
{
	return t->index ? pk__kindex_nr(t->index) : t->nr;
}
