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
 * to sym+offset or dso[addr].  Reads the file's .symtab, else .dynsym.
 */
#include "symbols/symbols.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

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

/* Whether bfd's maybe_function_sym would take sym in section shndx. */
static bool function_like(const GElf_Sym *sym, size_t shndx)
{
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_OBJECT:
	case STT_COMMON:
	case STT_SECTION:
	case STT_FILE:
	case STT_TLS:
		return false;
	default:
		return sym->st_shndx == shndx;
	}
}

bool pk__srcline_symtab_file(Elf *elf, uint64_t addr, const char **file)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	const char *cur_file = NULL;
	uint64_t best = 0, best_size = 0;
	bool found = false;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	size_t shndx;

	*file = NULL;
	if (!elf || !(shndx = section_at(elf, addr)) || !(scn = symtab_of(elf, &sh)) ||
	    !(data = elf_getdata(scn, NULL)))
		return false;
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		uint64_t size;

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
		if (!function_like(&sym, shndx) || sym.st_value > addr)
			continue;
		size = sym.st_size ? sym.st_size : 1;	/* bfd never takes a size of 0 */
		if (found && !(sym.st_value > best || (sym.st_value == best && size > best_size)))
			continue;
		found = true;
		best = sym.st_value;
		best_size = size;
		*file = cur_file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
				     state != FILE_AFTER_SYMBOL) ? cur_file : NULL;
	}
	return found;
}
