/* SPDX-License-Identifier: MIT */
/*
 * srcline-symtab.c - the file GNU addr2line 2.40 names for an address no
 * line row covers, which perf 6.1 prints as "FILE:0": addr2line then falls
 * back to the ELF symbol table (bfd's elf_find_function), takes the last
 * function-like symbol at or before the address in the address's section,
 * and names the STT_FILE symbol in force where that symbol stands: for a
 * local symbol the last STT_FILE before it ("" for the unnamed one the
 * linker writes, so perf prints ":0"), for a global one the same unless a
 * STT_FILE came after some other symbol (the usual case: then no file,
 * "??:0").  No such symbol: addr2line answers "??:0" and perf falls back
 * to sym+offset or dso[addr].  Reads the file's .symtab, else .dynsym,
 * once: each candidate symbol with its file, sorted by section and
 * address and searched by bisection (a walk of the whole table for each
 * address took seconds on cc1's 100k symbols).
 */
#include "symbols/symbols.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* The symbol table addr2line reads: .symtab, .dynsym when there is none. */
static Elf_Scn *symtab_of(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dyn_shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || sh.sh_size < 2 * sh.sh_entsize)
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			*shdr = sh;
			return scn;
		}
		if (sh.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dyn_shdr = sh;
		}
	}
	if (dyn)
		*shdr = dyn_shdr;
	return dyn;
}

/* The index of the first allocated section holding addr (addr2line's
 * find_address_in_section), 0 for none. */
static size_t section_at(Elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    addr >= sh.sh_addr && addr - sh.sh_addr < sh.sh_size)
			return elf_ndxscn(scn);
	}
	return 0;
}

/* A symbol bfd's maybe_function_sym may take (in its own section), with
 * the STT_FILE name addr2line would give it; `order` is its index. */
struct a2l_sym {
	uint64_t value, size;
	uint32_t shndx, order;
	const char *file;
};

struct pk__a2l_index {
	struct a2l_sym *v;
	size_t nr;
};

static bool excluded(const GElf_Sym *sym)
{
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_OBJECT:
	case STT_COMMON:
	case STT_SECTION:
	case STT_FILE:
	case STT_TLS:
		return true;
	default:
		return false;
	}
}

/* By section, address and size; of equal ones the first in the table
 * last, so that the last at or before an address is addr2line's pick. */
static int by_place(const void *pa, const void *pb)
{
	const struct a2l_sym *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->order > b->order ? -1 : a->order < b->order;
}

/* One pass over the table, as addr2line's walk goes: the STT_FILE in force
 * at each symbol, and whether one came after some other symbol. */
static struct pk__a2l_index *index_of(Elf *elf)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	struct pk__a2l_index *ix = calloc(1, sizeof(*ix));
	const char *cur_file = NULL;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;

	if (!ix || !(scn = symtab_of(elf, &sh)) || !(data = elf_getdata(scn, NULL)) ||
	    !(ix->v = calloc(sh.sh_size / sh.sh_entsize, sizeof(*ix->v))))
		return ix;	/* no table (or no memory): no symbol, as addr2line */
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			cur_file = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (excluded(&sym))
			continue;
		ix->v[ix->nr++] = (struct a2l_sym){
			sym.st_value, sym.st_size ? sym.st_size : 1,	/* bfd never takes a size of 0 */
			sym.st_shndx, (uint32_t)i,
			cur_file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL || state != FILE_AFTER_SYMBOL) ? cur_file
														    : NULL };
	}
	qsort(ix->v, ix->nr, sizeof(*ix->v), by_place);
	return ix;
}

void pk__a2l_index_free(struct pk__a2l_index *ix)
{
	if (ix)
		free(ix->v);
	free(ix);
}

bool pk__srcline_symtab_file(struct pk__a2l_index **ixp, Elf *elf, uint64_t addr, const char **file)
{
	const struct pk__a2l_index *ix;
	size_t shndx, lo = 0, hi;

	*file = NULL;
	if (!elf || !(shndx = section_at(elf, addr)))
		return false;
	if (!*ixp && !(*ixp = index_of(elf)))
		return false;
	ix = *ixp;
	hi = ix->nr;
	while (lo < hi) {	/* the first past (shndx, addr) */
		size_t mid = lo + (hi - lo) / 2;
		const struct a2l_sym *m = &ix->v[mid];

		if (m->shndx < shndx || (m->shndx == shndx && m->value <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ix->v[lo - 1].shndx != shndx)
		return false;
	*file = ix->v[lo - 1].file;
	return true;
}
