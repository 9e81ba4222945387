/* SPDX-License-Identifier: MIT */
/*
 * symbols.h - the symbols layer's internal interface: sorted symbol tables
 * (symtab.c), the per-DSO state behind the public struct pk_dso and the
 * loaders that fill a DSO's table from an ELF file (dso.c), from kallsyms
 * (kernel.c) or from a JIT's /tmp/perf-PID.map (perfmap.c), and the
 * demangler (demangle.c).
 */
#ifndef PK_SYMBOLS_INTERNAL_H
#define PK_SYMBOLS_INTERNAL_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit.h"

/* ---- symtab.c ---------------------------------------------------------------- */

/* One symbol: [start, end) in its DSO's address space. */
struct pk__sym {
	uint64_t start, end;
	const char *name;	/* owned by the table */
	unsigned char binding;	/* STB_LOCAL, STB_GLOBAL or STB_WEAK */
	bool mangled;		/* name not demangled yet (pk__symtab_set_demangle);
				 * in binding's padding: 32 bytes a symbol */
	bool object;		/* a data object (STT_OBJECT): perf prints its offset */
	uint32_t seq;		/* order of addition */
};

struct pk__symtab;

/* pk__symtab_new - an empty table.  0 with *out, or -ENOMEM. */
int pk__symtab_new(struct pk__symtab **out);

/* pk__symtab_free - free it and its names; NULL is a no-op. */
void pk__symtab_free(struct pk__symtab *t);

/* pk__symtab_add - add a symbol, copying its name.  0 or -ENOMEM. */
int pk__symtab_add(struct pk__symtab *t, uint64_t start, uint64_t size, const char *name,
		   unsigned char binding);

/* pk__symtab_set_object - the symbol last added is a data object (ELF's
 * STT_OBJECT), which perf's data-address keys print with its offset. */
void pk__symtab_set_object(struct pk__symtab *t);

/* pk__symtab_add_ref - add a symbol, its name not copied: it must live as
 * long as t (in memory given to pk__symtab_own, say).  0 or -ENOMEM. */
int pk__symtab_add_ref(struct pk__symtab *t, uint64_t start, uint64_t size, const char *name,
		       unsigned char binding);

/* pk__symtab_set_demangle - names added from now on are C++ or Rust
 * names to demangle (pk__demangle, or with PK_DEMANGLE_PARAMS
 * pk__demangle_params; PK_DEMANGLE_NONE keeps them as they are),
 * each the first time a find answers with it or finish compares it: the
 * same names as demangling each one as it is added, for the few a report
 * looks up.  A name the demangler does not take stays as it is. */
void pk__symtab_set_demangle(struct pk__symtab *t, enum pk_demangle how);

/* pk__symtab_reserve - room for n symbols in all, in one allocation, so
 * that adding up to n reallocates (and copies, and faults) nothing.  A
 * hint: 0, or -ENOMEM (recorded) with the table as it was. */
int pk__symtab_reserve(struct pk__symtab *t, size_t n);

/* pk__symtab_own - t frees `mem` (from malloc) when it is freed. */
void pk__symtab_own(struct pk__symtab *t, void *mem);

/* pk__symtab_finish - sort, give each zero-sized symbol the room up to the
 * next one (the last: to its start rounded up to a page, plus a page), then
 * keep one symbol per start address (perf's choice: sized over zero-sized,
 * so of zero-sized ones at one address the last one added, strong over
 * weak, global over local, fewer leading underscores, the longer name;
 * for kallsyms the last one added), in perf 6.1's order.  Call once,
 * before any find. */
void pk__symtab_finish(struct pk__symtab *t, bool kallsyms);

/* pk__symtab_find - the symbol holding addr, or NULL; its name demangled
 * (once) when the table demangles. */
const struct pk__sym *pk__symtab_find(struct pk__symtab *t, uint64_t addr);

/* pk__symtab_span - the first symbol's start and the last's end (the
 * symbol of the highest start; perf's map__fixup_start/end): 0, -ENOENT
 * for a table of no symbols, -ENOMEM.  Once finished. */
int pk__symtab_span(struct pk__symtab *t, uint64_t *start, uint64_t *end);

/* pk__symtab_nr - how many symbols it holds (with an index: the lines
 * indexed, the malformed among them not known yet). */
size_t pk__symtab_nr(const struct pk__symtab *t);

/* pk__write_all - all len bytes of buf written to fd, through short writes
 * and EINTR (buildid-cache.c).  0, or a negative errno. */
int pk__write_all(int fd, const void *buf, size_t len);

/* ---- kallsyms looked up without a table of every line (kallsyms-index.c) -- */

struct pk__host_ksym;
struct pk__kindex;

/* pk__kindex_new - an empty index.  0 with *out, or -ENOMEM. */
int pk__kindex_new(struct pk__kindex **out);

/* pk__kindex_free - free it, and the text it owns; NULL is a no-op. */
void pk__kindex_free(struct pk__kindex *x);

/*
 * pk__kindex_scan - the kernel's lines of the kallsyms at `path` (NULL:
 * /proc/kallsyms) into the empty x, which keeps the text (mapped when
 * `map` and the file is a plain one ending in a newline, never written
 * into); the lines perf's filter keeps (text, weak, data, bss; no '$'
 * names, no module lines) are counted and every 32nd noted, their names
 * checked when looked up.  `kept` (for a build-id cache's copy, which is
 * never rewritten): a mapped file's scan is read back from beside it
 * when one was kept for this very file, else made and kept there
 * (kindex-cache.h) - the same answers either way.  *text_addr gets the
 * _text line's address (0 when none).  0, or a negative errno with the
 * error record set as pk__host_kallsyms_read's with PK__KSYM_NEED_ADDRS
 * (-EACCES when every address is hidden).
 */
int pk__kindex_scan(struct pk__kindex *x, const char *path, bool map, bool kept, uint64_t *text_addr);

/* pk__kindex_in_order - whether the kept lines came in address order. */
bool pk__kindex_in_order(const struct pk__kindex *x);

/* pk__kindex_from_cache - whether pk__kindex_scan read its scan back
 * from beside the file rather than making it. */
bool pk__kindex_from_cache(const struct pk__kindex *x);

/* A kallsyms line's binding with PK__KSYM_OBJECT set for a data symbol
 * (kallsyms' D and B, perf's STT_OBJECT); PK__KSYM_BINDING takes it off. */
#define PK__KSYM_OBJECT 0x80
#define PK__KSYM_BINDING(b) ((unsigned char)((b) & ~PK__KSYM_OBJECT))

/* pk__ksym_binding - perf's filter (text, weak, data, bss; no '$' names)
 * on a kallsyms line's type letter and name's first byte: its binding (as
 * above), or -1 when perf drops the line.  ASCII by hand, for 100k+ lines:
 * the upper case of a letter is type & ~0x20, lower case means local. */
static inline int pk__ksym_binding(char type, char name0)
{
	char t = (char)(type & ~0x20);

	if ((t != 'T' && t != 'W' && t != 'D' && t != 'B') || name0 == '$')
		return -1;
	return (t == 'W' ? STB_WEAK : type == t ? STB_GLOBAL : STB_LOCAL) | (t == 'D' || t == 'B' ? PK__KSYM_OBJECT : 0);
}

/* Called for each well-formed line (its binding as pk__ksym_binding's);
 * non-zero stops pk__kindex_each. */
typedef int (*pk__kindex_cb)(void *arg, uint64_t addr, const char *name, unsigned char binding);

/* pk__kindex_each - each well-formed kept line in the file's order (every name
 * checked; a copy, valid as long as x).  0, the callback's stop value or
 * -ENOMEM. */
int pk__kindex_each(struct pk__kindex *x, pk__kindex_cb cb, void *arg);

/* pk__kindex_finish - ready for lookups, once scanned and the lines are
 * in address order.  0 or -ENOMEM. */
int pk__kindex_finish(struct pk__kindex *x);

/* pk__kindex_find - the symbol pk__symtab_find would give for addr on a
 * kallsyms table of the same lines finished with pk__symtab_finish(t,
 * true), or NULL; made on the first lookup and kept (not thread-safe). */
const struct pk__sym *pk__kindex_find(struct pk__kindex *x, uint64_t addr);

/* pk__kindex_span - pk__symtab_span of its well-formed lines. */
int pk__kindex_span(struct pk__kindex *x, uint64_t *start, uint64_t *end);

/* pk__kindex_nr - how many lines it holds. */
size_t pk__kindex_nr(const struct pk__kindex *x);

/* pk__symtab_set_index - t answers finds from x (finished) and frees it;
 * t must hold no symbols of its own. */
void pk__symtab_set_index(struct pk__symtab *t, struct pk__kindex *x);

/* ---- the DSO state (maps.c owns the table, dso.c loads) ---------------------- */

enum pk__dso_kind {
	PK__DSO_FILE,		/* an ELF file by path */
	PK__DSO_KERNEL,		/* [kernel.kallsyms] */
	PK__DSO_MODULE,		/* a kernel module: [name] */
	PK__DSO_VDSO,		/* [vdso] */
	PK__DSO_PERFMAP,	/* /tmp/perf-PID.map: anonymous executable memory */
	PK__DSO_NONE,		/* [heap], [stack], //anon data: no symbols */
	PK__DSO_KSYMBOL,	/* a KSYMBOL's code (a BPF program): named after it */
};

/* One PT_LOAD segment, for file offset -> ELF virtual address. */
struct pk__seg {
	uint64_t offset, filesz, vaddr;
	uint64_t size;		/* max(memsz, filesz): with the zero-filled tail */
};

struct pk__dso {
	struct pk_dso pub;	/* what pk_maps_dso hands out; stays put */
	char *name;
	enum pk__dso_kind kind;
	size_t idx;		/* its place in the maps' DSO table */
	bool loaded;		/* a load was tried (successful or not) */
	struct pk__symtab *syms;	/* NULL when nothing could be loaded */
	struct pk__symtab *plt;	/* "name@plt" entries perf 6.1 makes up, or NULL:
				 * looked in first (they sit inside the room a
				 * zero-sized _init was given up to the next symbol) */
	struct pk__seg *segs;
	size_t nr_segs;
	uint64_t text_start;	/* kernel: _text when recorded (its MMAP's pgoff) */
	uint64_t text_delta;	/* kernel: recorded _text minus this kallsyms' */
	uint64_t kallsyms_size;	/* kernel from kallsyms: its symbols' span (perf's map
				 * size once loaded), 0 otherwise */
	char *symfile;		/* where the symbols came from */
	struct pk__srcline *srcline;	/* its DWARF lines, opened on the first lookup */
	char *unwind_file;	/* pk__dso_unwind_file's answer ("" none), or NULL */
	char *long_name;	/* what pub.long_name points at, or NULL */
	int vdso_fd;		/* the vDSO: a memfd holding this process's image,
				 * which unwind_file names; -1 none */
	enum pk_demangle demangle;	/* how its names are demangled (pk_maps_set_demangle) */
};

/* Where the loaders look; set through pk_maps_set_dir. */
struct pk__sym_dirs {
	const char *debug;	/* "/usr/lib/debug" */
	const char *tmp;	/* "/tmp" for perf-PID.map */
	const char *kallsyms;	/* "/proc/kallsyms" */
	const char *vmlinux;	/* the only vmlinux to read, or NULL */
	pk_maps_lookup_cb lookup;	/* the caller's lookup hook, or NULL */
	void *lookup_arg;
	const char *cache;	/* the build-id cache's directory, or NULL */
	const char *symfs;	/* pk_maps_set_symfs's root, or NULL for "/" */
	enum pk_demangle demangle;	/* pk_maps_set_demangle's */
};

/* pk__symfs_path - path under the symfs root into buf ("ROOT/path", as
 * perf joins them), or path itself when there is no root; NULL when it
 * does not fit. */
const char *pk__symfs_path(const struct pk__sym_dirs *dirs, const char *path, char *buf,
			   size_t len);

/* pk__debug_build_id_path - the debug file of build-id `id` (`size`
 * bytes) in debug directory `debug`: DEBUG/.build-id/xx/rest.debug, as
 * perf, gdb and libdwfl look for it, into path (cut short where it does
 * not fit in `len`). */
void pk__debug_build_id_path(const uint8_t *id, size_t size, const char *debug, char *path, size_t len);

/* pk__dso_load - load a user-space DSO's symbols (kind FILE, VDSO or
 * PERFMAP) once: find its file (the lookup hook, /usr/lib/debug by
 * build-id, .gnu_debuglink, the path), check its build-id, read .symtab
 * (else .dynsym) and the PT_LOAD segments.  Failure leaves d->syms NULL;
 * a build-id mismatch sets d->pub.build_id_mismatch.  Never fails louder:
 * an unresolvable DSO is normal. */
void pk__dso_load(struct pk__dso *d, const struct pk__sym_dirs *dirs);

/* pk__dso_unwind_file - the file whose CFI and bytes stand for a mapping
 * of d (a FILE) when unwinding: d's own path when its build-id is the
 * recorded one (or none is recorded), else the build-id cache's copy
 * (the lookup hook's, then the cache directory's) when it has that
 * build-id; decided once per DSO with a recorded build-id.  0 with *out
 * (owned by d; d's path when the file is gone and no copy has it),
 * -ENOENT when the file on disk is another build and no copy exists (the
 * unwinder must read none), -ENOMEM.  For the vDSO (a VDSO): the cache's
 * copy of the recorded build-id, else this process's image (a memfd, as
 * /proc/self/fd/N) when its build-id is the recorded one; -ENOENT none. */
int pk__dso_unwind_file(struct pk__dso *d, const struct pk__sym_dirs *dirs, const char **out);

/* pk__dso_file_vaddr - the ELF virtual address at file offset off, through
 * the PT_LOAD segment holding it; else through one whose zero-filled tail
 * (.bss, past the file) reaches it, as perf places a symbol by
 * max(memsz, filesz); off itself when none does. */
uint64_t pk__dso_file_vaddr(const struct pk__dso *d, uint64_t off);

/* pk__perfmap_load - read a perf-PID.map file into a new table: lines
 * "START SIZE name" in hex; malformed lines are skipped.  0 with *out, a
 * negative errno when the file cannot be read. */
int pk__perfmap_load(const char *path, struct pk__symtab **out);

/* pk__perfmap_line - parse one line in place: 0 with start, size and
 * name (NUL-terminated, pointing into line), or -EINVAL. */
int pk__perfmap_line(char *line, uint64_t *start, uint64_t *size, const char **name);

/* Kernel DSOs by module name, for pk__kernel_load to fill. */
struct pk__kernel_dsos {
	struct pk__dso *kernel;		/* [kernel.kallsyms], or NULL */
	struct pk__dso **modules;	/* kind MODULE */
	size_t nr_modules;
};

/* pk__kernel_load - read kallsyms once, giving the kernel DSO and every
 * module DSO in k its table (perf's filter: text, weak, data and bss
 * symbols).  A kernel DSO whose build-id differs from the running
 * kernel's is marked mismatched and gets no symbols. */
void pk__kernel_load(struct pk__kernel_dsos *k, const struct pk__sym_dirs *dirs);

/* ---- maps.c: for the session layer ------------------------------------------------ */

/* pk__maps_unwind_file - pk__dso_unwind_file for the DSO the maps know as
 * `name` (a mapped file's path as in its MMAP2); `name` itself when they
 * know no such DSO.  0 with *out (valid until the maps are freed or name
 * is), -ENOENT when only files of another build-id exist, -ENOMEM. */
int pk__maps_unwind_file(struct pk_maps *m, const char *name, const char **out);

/* pk__vdso_write - this process's vDSO image, as mapped, into fd: 0,
 * -ENOENT without one, or write(2)'s negative errno. */
int pk__vdso_write(int fd);

/* pk__maps_forget - process pid's maps let go (an exited process: its
 * addresses resolve to nothing after), its DSOs kept. */
void pk__maps_forget(struct pk_maps *m, uint32_t pid);

/* pk__maps_symfs - the symfs root pk_maps_set_symfs kept, or NULL. */
const char *pk__maps_symfs(const struct pk_maps *m);

/* pk__maps_cache - the build-id cache's directory pk_maps_set_buildid_cache
 * kept, or NULL. */
const char *pk__maps_cache(const struct pk_maps *m);

/* ---- srcline.c ----------------------------------------------------------------- */

struct pk__srcline;

/* pk__srcline_free - close a DSO's DWARF and drop its answers; NULL is a no-op. */
void pk__srcline_free(struct pk__srcline *s);

/* ---- srcline-zdebug.c ----------------------------------------------------------- */

struct pk__zdebug;
struct Dwarf;
struct Elf;

/* pk__zdebug_open - the DWARF of the ELF file open on fd when its sections
 * are zlib-compressed, to be read through pk__zdebug_dwarf; NULL for any
 * other file (or no memory): then dwarf_begin(fd) reads it as before. */
struct pk__zdebug *pk__zdebug_open(int fd);

/* pk__zdebug_open_kept - pk__zdebug_open for the file at `path`, its whole
 * image read back from the build-id cache's directory `dir` when one was
 * kept there for this very file (no inflating: the handle is at once the
 * whole image's); else kept there when it becomes whole and images can be
 * kept there (srcline-kept.c).  A file whose addresses never need all of
 * it is inflated as far as they reach, each time: that is cheaper than
 * libdw's reading of every unit a whole image makes it read.  dir NULL:
 * pk__zdebug_open. */
struct pk__zdebug *pk__zdebug_open_kept(int fd, const char *path, const char *dir);

/* pk__zdebug_dwarf - a libdw handle that answers for addr as libdw on the
 * whole file would (the units it holds grow as addresses need them).  A
 * call that makes a new handle ends the one before, with the image its
 * strings and DIEs are in (pk__zdebug_builds then counts one more); the
 * last stays valid until pk__zdebug_free.  NULL: no DWARF. */
struct Dwarf *pk__zdebug_dwarf(struct pk__zdebug *z, uint64_t addr);

/* pk__zdebug_builds - how many handles pk__zdebug_dwarf has made: when it
 * changes, whatever was read through an earlier handle is gone. */
unsigned long pk__zdebug_builds(const struct pk__zdebug *z);

/* pk__zdebug_set_first_info - the least .debug_info the first image holds
 * (64 KiB); a test seam, set once before any file is opened (the srcline
 * fuzz target makes it small so that its inputs grow images too). */
void pk__zdebug_set_first_info(uint64_t bytes);

/* pk__zdebug_free - end every handle and free the images; NULL is a no-op. */
void pk__zdebug_free(struct pk__zdebug *z);

/* ---- srcline-kept.c ------------------------------------------------------------- */

struct pk__spill;

/* Where a kept file's image starts: after its header's 4 KiB. */
#define PK__ZKEPT_AT 4096

/* pk__zkept_read - the image kept in `dir` for the debug file `path`, open
 * at fd: true with *img the kept file's read-only mapping (the image at
 * PK__ZKEPT_AT, pk__spill_free lets it go) and *size the image's bytes;
 * false when none is kept for this very file (its size, time, inode and
 * device as fstat(2) sees them now), or it cannot be read whole. */
bool pk__zkept_read(const char *dir, const char *path, int fd, struct pk__spill *img, size_t *size);

/* pk__zkept_usable - whether images can be kept in dir: it is the
 * caller's, and so is dir/.perfkit-dwarf, or that is still to be made. */
bool pk__zkept_usable(const char *dir);

/* pk__zkept_write - keep `size` bytes of image for the debug file `path`,
 * open at fd, in dir/.perfkit-dwarf: only when dir is the caller's; what
 * fails leaves nothing (and says nothing: the next read inflates again). */
void pk__zkept_write(const char *dir, const char *path, int fd, const void *image, size_t size);

/* ---- srcline-unit.c ------------------------------------------------------------- */

/* A compilation unit's header as read from raw .debug_info bytes. */
struct pk__cu_head {
	unsigned int version, osz, asz;	/* offset and address sizes */
	uint64_t abbrev;		/* its table's .debug_abbrev offset */
	uint64_t code;			/* the unit DIE's abbreviation code */
	const unsigned char *die, *end;	/* the unit DIE's attribute values; the unit's end */
};

/* pk__dwarf_le - the n-byte (n <= 8) little-endian number at b: DWARF as
 * srcline-zdebug.c reads it, from little-endian files only. */
uint64_t pk__dwarf_le(const unsigned char *b, unsigned int n);

/* pk__dwarf_unit_size - the bytes of the unit (or line table, or arange
 * set: any DWARF initial length) at off of buf's first have bytes, its
 * length field included, with *hdr that field's size (4 or 12); UINT64_MAX
 * when the field is not all there, is a reserved value, or would wrap. */
uint64_t pk__dwarf_unit_size(const unsigned char *buf, uint64_t off, uint64_t have, unsigned int *hdr);

/* pk__cu_head_read - the header of the unit at u (avail bytes there, the
 * whole unit among them); false for a unit of a kind this does not read
 * (type or split units, a version outside 2-5, an empty unit). */
bool pk__cu_head_read(const unsigned char *u, uint64_t avail, struct pk__cu_head *h);

/* pk__abbrev_scan - the abbreviation table at off of .debug_abbrev's first
 * have bytes: 1 with *table_end past its terminating 0 and *spec the
 * offset of code's attribute specifications (UINT64_MAX: no such code);
 * -1 when the table goes on past have (or is cut off); 0 when a form in
 * it may refer outside its unit (DW_FORM_ref_addr, ref_sig8, indirect,
 * the GNU alt forms and DWARF 5's sup forms).  A code defined twice is its
 * first definition, as libdw reads it. */
int pk__abbrev_scan(const unsigned char *buf, uint64_t have, uint64_t off, uint64_t code,
		    uint64_t *spec, uint64_t *table_end);

/* pk__cu_stmt_list - the unit DIE's DW_AT_stmt_list, its attribute
 * specifications at spec (up to spec_end): 1 with *stmt, 0 when it has
 * none, -1 when a form is not known here or runs past the unit. */
int pk__cu_stmt_list(const struct pk__cu_head *h, const unsigned char *spec, const unsigned char *spec_end,
		     uint64_t *stmt);

/* ---- srcline-symtab.c ----------------------------------------------------------- */

/* pk__srcline_symtab_file - addr2line's answer for an address no line row
 * covers, from the ELF symbol table: true when a function symbol is at or
 * before addr in its section, with *file the STT_FILE name addr2line
 * gives it ("" possible) or NULL ("??"); false when none is.  *ix is the
 * table's index, made on the first call (start with NULL; it points into
 * elf's strings, so free it with pk__a2l_index_free before elf_end). */
struct pk__a2l_index;
bool pk__srcline_symtab_file(struct pk__a2l_index **ix, struct Elf *elf, uint64_t addr, const char **file);
void pk__a2l_index_free(struct pk__a2l_index *ix);

/* ---- demangle.c ----------------------------------------------------------------- */

/* pk__demangle - the demangled name of a C++ or Rust (legacy or v0)
 * symbol, without parameters as perf prints it, into buf; returns buf, or
 * NULL when name is not mangled (or does not fit). */
const char *pk__demangle(const char *name, char *buf, size_t len);

/* pk__demangle_params - the same with a C++ name's parameter lists, as
 * perf -v demangles (DMGL_PARAMS); Rust names as pk__demangle gives them. */
const char *pk__demangle_params(const char *name, char *buf, size_t len);

/* pk__maps_hit_all - mark every DSO of m as hit (perf record's
 * --buildid-all: each gets its build-id read and listed). */
void pk__maps_hit_all(struct pk_maps *m);

#endif
