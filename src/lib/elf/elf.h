/* SPDX-License-Identifier: MIT */
/*
 * elf.h - the elf layer's internal interface: an ELF file opened once (from
 * a path or from memory) and the facts the layers above need from it:
 * function symbols, a symbol's file offset (what a uprobe wants), the GNU
 * build-id note and the .gnu_debuglink name and CRC.  Only this layer
 * includes libelf; every failure is a negative errno with the error record
 * naming the file.
 */
#ifndef PK_ELF_H
#define PK_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pk__elf;

/* pk__elf_open - open and check the ELF file at path.  Returns 0 with *out
 * (close it), -ENOENT / -EACCES when it cannot be opened, -EINVAL when it
 * is not an ELF file (or is truncated before its headers), -ENOMEM. */
int pk__elf_open(const char *path, struct pk__elf **out);

/* pk__elf_open_mem - the same over a copy of len bytes at image; `name`
 * is what error messages call it. */
int pk__elf_open_mem(const void *image, size_t len, const char *name, struct pk__elf **out);

/* pk__elf_open_mapped - pk__elf_open_mem over an image the loader mapped
 * at base (the vDSO), its length taken from its own headers (the end of
 * its section headers or of its last segment, whichever is further). */
int pk__elf_open_mapped(const void *base, const char *name, struct pk__elf **out);

/* pk__elf_close - release it; NULL is a no-op. */
void pk__elf_close(struct pk__elf *e);

/* pk__elf_name - the path or name it was opened with. */
const char *pk__elf_name(const struct pk__elf *e);

/* One defined symbol of the loaded image: a function (STT_FUNC or
 * STT_GNU_IFUNC), an object (STT_OBJECT) or a label (STT_NOTYPE). */
struct pk__elf_sym {
	const char *name;	/* valid while the pk__elf is open */
	uint64_t value, size;
	bool dynamic;		/* from .dynsym rather than .symtab */
	unsigned char binding;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK, ... */
	unsigned char type;	/* STT_FUNC, STT_GNU_IFUNC, STT_OBJECT or STT_NOTYPE */
};

/* Called once per symbol; a non-zero return stops the walk. */
typedef int (*pk__elf_sym_cb)(void *arg, const struct pk__elf_sym *s);

/* pk__elf_symbols - the symbols perf 6.1 loads for a DSO, of .symtab, then
 * of .dynsym, through cb: every named function and object defined in an
 * allocated section, and every label (STT_NOTYPE, not hidden or internal)
 * of a section whose name has "text" or "data" in it, such as _start or
 * ld.so's _dl_start_user; none absolute, none of ARM's mapping symbols
 * ($a, $d, $t, $x).  A caller after functions only checks `type`.
 * Returns 0 or the callback's stop value. */
int pk__elf_symbols(struct pk__elf *e, pk__elf_sym_cb cb, void *arg);

/* One PLT entry as perf 6.1 names it (dso__synthesize_plt_symbols): the
 * .dynsym name of the symbol its .rela.plt (or .rel.plt) relocation binds,
 * "" for one that binds none (an IRELATIVE), and the place of the entry in
 * .plt that the relocation's position gives it. */
struct pk__elf_plt {
	const char *name;	/* valid while the pk__elf is open */
	uint64_t vaddr, size;
};

/* Called once per PLT entry; a non-zero return stops the walk. */
typedef int (*pk__elf_plt_cb)(void *arg, const struct pk__elf_plt *p);

/* pk__elf_plt_entries - the PLT entries of a file with a real .dynsym
 * (not a debug file's NOBITS one), .plt and a .rela.plt/.rel.plt linked
 * to .dynsym, in relocation order, through cb: the n-th relocation is
 * the n-th entry after .plt's header (its size and the entries' by
 * machine: ARM 20/12, AArch64 32/16, SPARC 48/12, SPARCv9 128/32, else
 * .plt's sh_entsize for both).  Returns the callback's stop value, or 0
 * (also when there is no such PLT, or its sizes are 0). */
int pk__elf_plt_entries(struct pk__elf *e, pk__elf_plt_cb cb, void *arg);

/* pk__elf_has_dynsym - whether it has a .dynsym section of type
 * SHT_DYNSYM: the file that runs, not a separate debug file (whose
 * .dynsym is NOBITS).  perf takes PLT entries only from such a file. */
bool pk__elf_has_dynsym(struct pk__elf *e);

/* pk__elf_symbol_slots - how many entries the sections of type
 * SHT_DYNSYM (dynamic) or SHT_SYMTAB hold (their data as read, not their
 * headers' claim): at least as many as pk__elf_symbols hands over from
 * them, to size a table once. */
size_t pk__elf_symbol_slots(struct pk__elf *e, bool dynamic);

/* pk__elf_has_symtab - whether it has a .symtab section with symbols in
 * it (a file not stripped, or a separate debug file). */
bool pk__elf_has_symtab(struct pk__elf *e);

/* One PT_LOAD program header: the bytes at [offset, offset + filesz) of
 * the file are loaded at [vaddr, vaddr + filesz). */
struct pk__elf_seg {
	uint64_t vaddr, offset, filesz, memsz;
	uint32_t flags;		/* PF_X, PF_W, PF_R */
};

/* pk__elf_load_segments - its PT_LOAD headers, in file order, the first
 * `max` of them into segs.  Returns how many there are (it may exceed
 * max), or -EINVAL when the program headers are unreadable. */
int pk__elf_load_segments(struct pk__elf *e, struct pk__elf_seg *segs, size_t max);

/* pk__elf_symbol_offset - the file offset of function `name` ("memcpy"
 * also matches a versioned "memcpy@@GLIBC_2.14"): its value mapped
 * through the PT_LOAD segment holding it, as the uprobe PMU wants it.
 * .symtab is searched first (the complete list), then .dynsym.  Returns 0
 * with *off (and *value, when not NULL), -ENOENT when no function has that
 * name, or -EINVAL when its address lies in no loadable segment. */
int pk__elf_symbol_offset(struct pk__elf *e, const char *name, uint64_t *off, uint64_t *value);

/* pk__elf_build_id - the NT_GNU_BUILD_ID note of its SHT_NOTE sections (or
 * PT_NOTE segments when sections are stripped).  Returns the id's size (1
 * to 20) with the bytes in id, or -ENOENT. */
int pk__elf_build_id(struct pk__elf *e, uint8_t id[20]);

/* pk__elf_notes_build_id - the GNU build-id in a buffer of ELF notes (a
 * note section, /sys/kernel/notes).  Returns its size or -ENOENT. */
int pk__elf_notes_build_id(const void *notes, size_t len, uint8_t id[20]);

/* pk__elf_mapped_build_id - the build-id of an ELF image the loader mapped
 * at `base` (the vDSO), found through its program headers.  Returns its
 * size or -ENOENT. */
int pk__elf_mapped_build_id(const void *base, uint8_t id[20]);

/* pk__elf_debuglink - the .gnu_debuglink section: the separate debug
 * file's name and the CRC-32 of its contents.  Returns 0, -ENOENT when
 * there is none, -EINVAL when it is malformed, -ENAMETOOLONG when the
 * name does not fit in len bytes. */
int pk__elf_debuglink(struct pk__elf *e, char *name, size_t len, uint32_t *crc);

/* pk__elf_file_crc32 - the CRC-32 .gnu_debuglink carries for a debug
 * file: the IEEE 802.3 CRC (zlib's crc32, gdb's gnu_debuglink_crc32) of
 * every byte of the file at path.  Returns 0 with *crc, or -ENOENT /
 * -EACCES / -EIO when it cannot be read. */
int pk__elf_file_crc32(const char *path, uint32_t *crc);

#endif
