/* SPDX-License-Identifier: MIT */
/*
 * srcline.c - source lines and inlined frames of an address in a DSO, as
 * `addr2line -i -f` gives them to perf 6.1, read in this process through
 * libdw: the DSO's DWARF is opened once, from the file its symbols came
 * from (a separate debug file when one was found), each compilation
 * unit's line table is read once by libdw and searched by binary search
 * (dwarf_getsrc_die), the inline chain comes from the scopes around the
 * address (the concrete functions, inlined instances and blocks holding
 * it, down from the unit, whose top-level ones and their ranges are read
 * once per unit), and every answer is kept per address so a
 * recording's repeated ips cost one hash probe.  Only ELF files by path
 * have lines here: the kernel, modules and the vDSO have none, as in
 * perf without a vmlinux.
 */
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* perf stops at this many inline frames (MAX_INLINE_NEST), and so do we. */
#define MAX_FRAMES 1024

/* One address's answer, kept for the DSO's life. */
struct answer {
	uint64_t addr;
	bool used;
	bool found;			/* a line-table row covers addr */
	bool symbol;			/* none does, but addr2line names a function there */
	const char *file;		/* libdw's string (a copy in `kept` with a z) */
	const char *file_a2l;		/* the file as GNU addr2line names it */
	unsigned int line;
	struct pk_srcline_frame *frames;	/* names owned here */
	size_t nr_frames;
};

/* A relative file name of libdw's, and the path addr2line makes of it. */
struct joined {
	const char *comp_dir, *file;	/* libdw's strings */
	char *path;
};

/* A unit's top-level functions and blocks, each range of each in DIE
 * order: the first step of scope_path without walking every top-level
 * DIE of the unit (types, variables, declarations) for each address. */
struct top_range {
	uint64_t lo, hi;
	size_t die;
};

struct unit_tops {
	const void *key;		/* the unit DIE's bytes: one per unit and image */
	Dwarf_Die *dies;
	size_t nr_dies, cap_dies;
	struct top_range *r;
	size_t nr_r, cap_r;
};

/* A file without DWARF has the symbol table's answer only (no_line's):
 * cheap to make again, so a small direct-mapped memo holds it instead of
 * a table growing with every address asked (a stripped program's
 * thousands: 3.7 MB for cc1 in a compile profile).  It starts at
 * NODW_FIRST slots and, emptied, takes four times as many each time its
 * misses pass its size, up to NODW_MOST (393 KB). */
#define NODW_FIRST 256
#define NODW_MOST 16384

struct nodw {
	uint64_t addr;
	const char *file_a2l;		/* the a2l index's */
	bool used, symbol;
};

struct pk__srcline {
	int fd;
	Dwarf *dw;			/* NULL: the file has no DWARF (or none was found) */
	struct pk__zdebug *z;		/* compressed DWARF read in part (srcline-zdebug.c); dw NULL */
	Elf *elf;			/* the symbol table's, opened on the first address without a line */
	struct pk__a2l_index *a2l;	/* its index for addr2line's fallback */
	struct answer *tab;		/* open addressing on addr */
	size_t cap, nr;
	struct nodw *nodw;		/* without DWARF: a memo of nodw_cap, not tab */
	size_t nodw_cap, nodw_misses;
	struct joined *joined;		/* relative file names with their unit's comp_dir */
	size_t nr_joined;
	struct unit_tops *tops;		/* the units scope_path has entered */
	size_t nr_tops;
	const Dwarf *checked;		/* the last Dwarf strings_end_nul looked at, */
	bool checked_ok;		/* and its answer */
	unsigned long builds;		/* z's handles when joined, tops and checked were made */
	char **kept;			/* with a z: the file names answers hold, one copy each */
	size_t nr_kept, cap_kept;	/* (open addressing; cap a power of two) */
};

/* Whether every string section of dw's ELF ends in a NUL: libdw 0.188
 * reads a name at a checked offset with strlen, so a last string without
 * its NUL runs past the section (fuzz_symbols found it through
 * dwarf_getsrclines).  Such a file's lines are not read. */
static bool strings_end_nul(Dwarf *dw)
{
	Elf *e = dwarf_getelf(dw);
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!e || elf_getshdrstrndx(e, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    (strcmp(name, ".debug_str") && strcmp(name, ".debug_line_str")))
			continue;
		if (!(d = elf_getdata(scn, NULL)) || (d->d_size && (!d->d_buf ||
							  ((const char *)d->d_buf)[d->d_size - 1])))
			return false;
	}
	return true;
}

static void answer_free(struct answer *a)
{
	for (size_t i = 0; i < a->nr_frames; i++)
		free((char *)a->frames[i].func);
	free(a->frames);
}

void pk__srcline_free(struct pk__srcline *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->cap; i++)
		if (s->tab[i].used)
			answer_free(&s->tab[i]);
	free(s->tab);
	free(s->nodw);
	for (size_t i = 0; i < s->nr_joined; i++)
		free(s->joined[i].path);
	free(s->joined);
	for (size_t i = 0; i < s->nr_tops; i++) {
		free(s->tops[i].dies);
		free(s->tops[i].r);
	}
	free(s->tops);
	for (size_t i = 0; i < s->cap_kept; i++)
		free(s->kept[i]);
	free(s->kept);
	pk__a2l_index_free(s->a2l);
	if (s->elf)
		elf_end(s->elf);
	if (s->dw)
		dwarf_end(s->dw);
	pk__zdebug_free(s->z);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* Open the DWARF of `path` once; a file without any is remembered as such.
 * A compressed file's whole image is kept in the build-id cache's
 * directory `cache` (NULL: none), and read back from there. */
static int srcline_open(const char *path, const char *cache, struct pk__srcline **out)
{
	struct pk__srcline *s = pk__calloc(1, sizeof(*s));

	if (!s || !(s->tab = pk__calloc(64, sizeof(*s->tab)))) {
		free(s);
		return pk__error_nomem("the source-line table of %s", path);
	}
	s->cap = 64;
	s->fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (s->fd >= 0 && !(s->z = pk__zdebug_open_kept(s->fd, path, cache)))
		s->dw = dwarf_begin(s->fd, DWARF_C_READ);
	*out = s;
	return 0;
}

static uint64_t hash_addr(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	return a ^ (a >> 33);
}

static struct answer *slot(struct pk__srcline *s, uint64_t addr)
{
	size_t i = hash_addr(addr) & (s->cap - 1);

	while (s->tab[i].used && s->tab[i].addr != addr)
		i = (i + 1) & (s->cap - 1);
	return &s->tab[i];
}

static int grow(struct pk__srcline *s)
{
	struct answer *old = s->tab;
	size_t old_cap = s->cap;

	s->tab = pk__calloc(old_cap * 2, sizeof(*s->tab));
	if (!s->tab) {
		s->tab = old;
		return pk__error_nomem("the source-line cache");
	}
	s->cap = old_cap * 2;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].used)
			*slot(s, old[i].addr) = old[i];
	free(old);
	return 0;
}

/* The compilation unit holding addr: by .debug_aranges, else by walking
 * the units' ranges (a producer may leave aranges out). */
static bool unit_at(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu))
		return true;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

/* A function's name as addr2line prints it (the linkage name first),
 * demangled as perf demangles it; NULL when DWARF names none, or out of
 * memory (`*nomem` set). */
static char *func_name(Dwarf_Die *die, bool *nomem)
{
	static const unsigned int names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute attr;
	const char *name = NULL, *dem;
	char buf[1024];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !name; i++)
		if (dwarf_attr_integrate(die, names[i], &attr))
			name = dwarf_formstring(&attr);
	if (!name)
		return NULL;
	dem = pk__demangle(name, buf, sizeof(buf));
	if (!(dem = pk__strdup(dem ? dem : name)))
		*nomem = true;
	return (char *)dem;
}

/* The index in `lines` of row l (rows are sorted by address). */
static size_t row_index(Dwarf_Lines *lines, size_t nr, Dwarf_Line *l)
{
	Dwarf_Addr want = 0, at;
	size_t lo = 0, hi = nr;

	dwarf_lineaddr(l, &want);
	while (lo < hi) {	/* the first row at want */
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &at) == 0 && at < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < nr && dwarf_onesrcline(lines, lo) != l)
		lo++;
	return lo;
}

/* The file GNU addr2line 2.40 names for row l of `file`.  Its DWARF 5
 * reader starts each sequence with file 0 where the standard says file 1
 * (binutils' decode_line_info: concat_filename (table, 0)), so a row
 * that still carries the register's first value names file 0; a row
 * after an explicit DW_LNS_set_file 1 names file 1.  gcc writes the two
 * alike; a table rewritten afterwards, as Debian's glibc debug files
 * are, may not (perf then prints bsearch.c where the row says
 * stdlib-bsearch.h, but arena.c where it says arena.c after a set_file).
 * libdw keeps no register history: a row of file 1 is taken as the
 * first value when every row before it in its sequence is of file 1. */
static const char *a2l_file(Dwarf_Die *cu, Dwarf_Line *l, const char *file)
{
	Dwarf_Files *files;
	Dwarf_Lines *lines;
	Dwarf_Die unit;
	Dwarf_Half version = 0;
	const char *zero, *one;
	size_t nfiles, nr, i;

	if (dwarf_cu_die(cu->cu, &unit, &version, NULL, NULL, NULL, NULL, NULL) == NULL ||
	    version < 5 || dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || nfiles < 2 ||
	    (one = dwarf_filesrc(files, 1, NULL, NULL)) != file ||
	    dwarf_getsrclines(cu, &lines, &nr) != 0 || (i = row_index(lines, nr, l)) >= nr)
		return file;
	while (i-- > 0) {
		Dwarf_Line *prev = dwarf_onesrcline(lines, i);
		bool end = false;

		if (dwarf_lineendsequence(prev, &end) != 0 || end)
			break;
		if (dwarf_linesrc(prev, NULL, NULL) != one)
			return file;	/* a DW_LNS_set_file came between */
	}
	zero = dwarf_filesrc(files, 0, NULL, NULL);
	return zero ? zero : file;
}

/* `file` as addr2line prints it: a relative name (its directory entry
 * relative too, as meson's "../src") after the unit's DW_AT_comp_dir,
 * binutils' concat_filename; so it opens from any directory.  The joined
 * string is kept with s, one per name and unit directory.  NULL stays.
 * NULL for a relative name when out of memory (`*nomem` set): the answer
 * is then not made, rather than made with the bare name. */
static const char *a2l_path(struct pk__srcline *s, Dwarf_Die *cu, const char *file, bool *nomem)
{
	Dwarf_Attribute attr;
	const char *dir;
	struct joined *grown;
	char *path;

	if (!file || file[0] == '/' || !(dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr))) ||
	    !dir[0])
		return file;
	for (size_t i = 0; i < s->nr_joined; i++)
		if (s->joined[i].file == file && s->joined[i].comp_dir == dir)
			return s->joined[i].path;
	if (!(grown = pk__reallocarray(s->joined, s->nr_joined + 1, sizeof(*grown))) ||
	    pk__asprintf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file) < 0) {
		if (grown)
			s->joined = grown;
		*nomem = true;
		return NULL;
	}
	s->joined = grown;
	s->joined[s->nr_joined++] = (struct joined){ .comp_dir = dir, .file = file, .path = path };
	return path;
}

/* Where an inlined instance was called from: its DW_AT_call_file and
 * DW_AT_call_line, the file named through the unit's file table. */
static void call_site(Dwarf_Die *cu, Dwarf_Die *inl, const char **file, const char **file_a2l,
		      unsigned int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx = 0, ln = 0;
	Dwarf_Files *files;
	size_t nfiles;

	*file = *file_a2l = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &attr), &ln) == 0)
		*line = (unsigned int)ln;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &attr), &idx) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && idx < nfiles) {
		/* addr2line names a call file by its index, as it is */
		*file = *file_a2l = dwarf_filesrc(files, idx, NULL, NULL);
	}
}

/* The length of die's range that holds addr. */
static uint64_t range_len(Dwarf_Die *die, uint64_t addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (addr >= start && addr < end)
			return end - start;
	return UINT64_MAX;
}

/* The child of parent to descend into for addr: a function, inlined
 * instance or block holding it; of several (gas gives each alias of an
 * assembler function a subprogram of the same range), the one with the
 * shortest range holding addr, the last of equals, as binutils'
 * lookup_address_in_function_table chooses. */
static bool scope_child(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *best)
{
	Dwarf_Die child;
	uint64_t best_len = UINT64_MAX, len;
	bool found = false;

	if (dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if ((tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
		     tag != DW_TAG_lexical_block) || dwarf_haspc(&child, addr) <= 0)
			continue;
		len = range_len(&child, addr);
		if (!found || len <= best_len) {
			*best = child;
			best_len = len;
			found = true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return found;
}

static bool scope_tag(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block;
}

/* Add die and its ranges to t. */
static bool tops_add(struct unit_tops *t, Dwarf_Die *die)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	if (t->nr_dies == t->cap_dies) {
		size_t cap = t->cap_dies ? 2 * t->cap_dies : 64;
		Dwarf_Die *d = pk__reallocarray(t->dies, cap, sizeof(*d));

		if (!d)
			return false;
		t->dies = d;
		t->cap_dies = cap;
	}
	t->dies[t->nr_dies] = *die;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (t->nr_r == t->cap_r) {
			size_t cap = t->cap_r ? 2 * t->cap_r : 64;
			struct top_range *r = pk__reallocarray(t->r, cap, sizeof(*r));

			if (!r)
				return false;
			t->r = r;
			t->cap_r = cap;
		}
		t->r[t->nr_r++] = (struct top_range){ start, end, t->nr_dies };
	}
	t->nr_dies++;
	return true;
}

/* The unit's top-level functions and blocks, read on its first address;
 * NULL when out of memory (then the unit is walked as before). */
static struct unit_tops *tops_of(struct pk__srcline *s, Dwarf_Die *cu)
{
	struct unit_tops *t, *grown;
	Dwarf_Die child;

	for (size_t i = 0; i < s->nr_tops; i++)
		if (s->tops[i].key == cu->addr)
			return &s->tops[i];
	if (!(grown = pk__reallocarray(s->tops, s->nr_tops + 1, sizeof(*grown))))
		return NULL;
	s->tops = grown;
	t = &s->tops[s->nr_tops];
	*t = (struct unit_tops){ .key = cu->addr };
	if (dwarf_child(cu, &child) == 0) {
		do {
			if (scope_tag(&child) && !tops_add(t, &child)) {
				free(t->dies);
				free(t->r);
				return NULL;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	s->nr_tops++;
	return t;
}

/* scope_child of the unit, from its cached ranges: of the DIEs with a
 * range holding addr, the one whose first such range is shortest, the
 * last of equals. */
static bool top_child(struct pk__srcline *s, Dwarf_Die *cu, uint64_t addr, Dwarf_Die *best)
{
	struct unit_tops *t = tops_of(s, cu);
	uint64_t best_len = UINT64_MAX;
	size_t taken = SIZE_MAX;
	bool found = false;

	if (!t)
		return scope_child(cu, addr, best);
	for (size_t i = 0; i < t->nr_r; i++) {
		const struct top_range *r = &t->r[i];

		if (r->die == taken || addr < r->lo || addr >= r->hi)
			continue;
		taken = r->die;		/* its first range holding addr */
		if (!found || r->hi - r->lo <= best_len) {
			*best = t->dies[r->die];
			best_len = r->hi - r->lo;
			found = true;
		}
	}
	return found;
}

/* The concrete DIEs holding addr, outermost first, down from the unit:
 * functions, their inlined instances and the blocks between them (the
 * abstract definitions an inlined instance points to are not followed,
 * which is where dwarf_getscopes goes). */
static int scope_path(struct pk__srcline *s, Dwarf_Die *cu, uint64_t addr, Dwarf_Die **out, size_t *nr)
{
	Dwarf_Die *path = NULL, *grown, child, *parent = cu;
	size_t n = 0, cap = 0;

	while (parent == cu ? top_child(s, cu, addr, &child) : scope_child(parent, addr, &child)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			if (!(grown = pk__reallocarray(path, cap, sizeof(*path)))) {
				free(path);
				return pk__error_nomem("the scopes at %#llx", (unsigned long long)addr);
			}
			path = grown;
		}
		path[n++] = child;
		parent = &path[n - 1];
	}
	*out = path;
	*nr = n;
	return 0;
}

/* The functions around addr, innermost first: each inlined instance and
 * then the function they are all in, each with the file:line inside it
 * (the line table's for the first, the call site of the one before for
 * the others), as addr2line -i lists them. */
static int inline_chain(struct pk__srcline *s, Dwarf_Die *cu, uint64_t addr, struct answer *a)
{
	Dwarf_Die *path = NULL;
	const char *file = a->file, *file_a2l = a->file_a2l;
	unsigned int line = a->line;
	bool nomem = false;
	size_t n = 0;
	int err = scope_path(s, cu, addr, &path, &n);

	if (err < 0 || !n)
		return err;
	if (!(a->frames = pk__calloc(n, sizeof(*a->frames)))) {
		free(path);
		return pk__error_nomem("the inlined frames at %#llx", (unsigned long long)addr);
	}
	for (size_t i = n; i-- > 0 && a->nr_frames < MAX_FRAMES;) {
		int tag = dwarf_tag(&path[i]);
		struct pk_srcline_frame *f;

		if (tag == DW_TAG_lexical_block)
			continue;
		f = &a->frames[a->nr_frames++];
		f->func = func_name(&path[i], &nomem);
		f->file = file;
		f->file_addr2line = file_a2l;
		f->line = line;
		if (tag == DW_TAG_subprogram)
			break;
		call_site(cu, &path[i], &file, &file_a2l, &line);
		file_a2l = a2l_path(s, cu, file_a2l, &nomem);
	}
	free(path);
	return nomem ? pk__error_nomem("the inlined frames at %#llx", (unsigned long long)addr) : 0;
}

/* addr2line's answer where no line row covers addr: a function the DWARF
 * has around it names no file ("??:?"); else the symbol table's fallback
 * (pk__srcline_symtab_file).  perf 6.1 prints either as FILE:0. */
static int no_line(struct pk__srcline *s, uint64_t addr, Dwarf_Die *cu, struct answer *a)
{
	Dwarf_Die *path = NULL;
	size_t n = 0;
	int err = cu ? scope_path(s, cu, addr, &path, &n) : 0;

	free(path);
	if (err < 0)
		return err;
	if (n) {
		a->symbol = true;
		return 0;
	}
	if (!s->elf && s->fd >= 0 && elf_version(EV_CURRENT) != EV_NONE)
		s->elf = elf_begin(s->fd, ELF_C_READ_MMAP, NULL);
	a->symbol = pk__srcline_symtab_file(&s->a2l, s->elf, addr, &a->file_a2l);
	return 0;
}

static uint64_t hash_str(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*p)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ULL;
	return h;
}

/* s's copy of string p (made on first sight); p itself when there is no
 * memory for one (the caller then drops the answer). */
static const char *keep(struct pk__srcline *s, const char *p)
{
	size_t i;

	if (!p)
		return NULL;
	if (2 * (s->nr_kept + 1) > s->cap_kept) {
		size_t cap = s->cap_kept ? 2 * s->cap_kept : 64;
		char **t = pk__calloc(cap, sizeof(*t));

		if (!t)
			return p;
		for (size_t k = 0; k < s->cap_kept; k++) {
			if (!s->kept[k])
				continue;
			for (i = hash_str(s->kept[k]) & (cap - 1); t[i]; i = (i + 1) & (cap - 1))
				;
			t[i] = s->kept[k];
		}
		free(s->kept);
		s->kept = t;
		s->cap_kept = cap;
	}
	for (i = hash_str(p) & (s->cap_kept - 1); s->kept[i]; i = (i + 1) & (s->cap_kept - 1))
		if (!strcmp(s->kept[i], p))
			return s->kept[i];
	if (!(s->kept[i] = pk__strdup(p)))
		return p;
	s->nr_kept++;
	return s->kept[i];
}

/* An answer read through z's current handle holds copies of its file
 * names, not the image's strings: the next handle ends this one.  -ENOMEM
 * when a copy could not be made. */
static int keep_names(struct pk__srcline *s, struct answer *a)
{
	const char *before = a->file, *before_a2l = a->file_a2l;
	bool lost;

	a->file = keep(s, a->file);
	a->file_a2l = keep(s, a->file_a2l);
	lost = (before && a->file == before) || (before_a2l && a->file_a2l == before_a2l);
	for (size_t i = 0; i < a->nr_frames; i++) {
		struct pk_srcline_frame *f = &a->frames[i];
		const char *file = f->file, *a2l = f->file_addr2line;

		f->file = keep(s, file);
		f->file_addr2line = keep(s, a2l);
		lost |= (file && f->file == file) || (a2l && f->file_addr2line == a2l);
	}
	return lost ? pk__error_nomem("a source file's name") : 0;
}

/* z made a new handle: what was read through the one it ended (the DIEs
 * of tops, the pointers joined and checked are keyed by) is forgotten;
 * joined's paths stay, answers hold them. */
static void new_handle(struct pk__srcline *s)
{
	for (size_t i = 0; i < s->nr_tops; i++) {
		free(s->tops[i].dies);
		free(s->tops[i].r);
	}
	s->nr_tops = 0;
	for (size_t i = 0; i < s->nr_joined; i++)
		s->joined[i].comp_dir = s->joined[i].file = NULL;
	s->checked = NULL;
	s->builds = pk__zdebug_builds(s->z);
}

static int answer_fill(struct pk__srcline *s, uint64_t addr, struct answer *a)
{
	Dwarf *dw = s->z ? pk__zdebug_dwarf(s->z, addr) : s->dw;
	Dwarf_Die cu;
	Dwarf_Line *l;
	bool in_unit, nomem = false;
	int err;

	if (s->z && pk__zdebug_builds(s->z) != s->builds)
		new_handle(s);
	if (dw && dw != s->checked) {
		s->checked = dw;
		s->checked_ok = strings_end_nul(dw);
	}
	if (dw && !s->checked_ok)
		dw = NULL;
	in_unit = dw && unit_at(dw, addr, &cu);
	int lineno = 0;

	if (!in_unit || !(l = dwarf_getsrc_die(&cu, addr)) || !(a->file = dwarf_linesrc(l, NULL, NULL)))
		return no_line(s, addr, in_unit ? &cu : NULL, a);
	a->file_a2l = a2l_path(s, &cu, a2l_file(&cu, l, a->file), &nomem);
	if (nomem)
		return pk__error_nomem("the source line at %#llx", (unsigned long long)addr);
	dwarf_lineno(l, &lineno);
	a->line = lineno > 0 ? (unsigned int)lineno : 0;
	a->found = true;
	if ((err = inline_chain(s, &cu, addr, a)) < 0)
		return err;
	return s->z ? keep_names(s, a) : 0;
}

/* srcline_find's answer in a file without DWARF: no_line's, from the memo. */
static int no_dwarf(struct pk__srcline *s, uint64_t addr, struct pk_srcline *out)
{
	struct nodw *m;

	if (!s->nodw || (s->nodw_misses > s->nodw_cap && s->nodw_cap < NODW_MOST)) {
		size_t cap = s->nodw ? 4 * s->nodw_cap : NODW_FIRST;
		struct nodw *t = pk__calloc(cap, sizeof(*t));

		if (!t)
			return pk__error_nomem("the source-line cache");
		free(s->nodw);
		s->nodw = t;
		s->nodw_cap = cap;
		s->nodw_misses = 0;
	}
	m = &s->nodw[hash_addr(addr) & (s->nodw_cap - 1)];
	if (!m->used || m->addr != addr) {
		struct answer a = { .addr = addr };
		int err = no_line(s, addr, NULL, &a);

		s->nodw_misses++;
		if (err < 0)
			return err;
		*m = (struct nodw){ .addr = addr, .file_a2l = a.file_a2l, .used = true, .symbol = a.symbol };
	}
	out->file_addr2line = m->symbol ? m->file_a2l : NULL;
	return m->symbol ? -ENODATA : -ENOENT;
}

static int srcline_find(struct pk__srcline **sp, const char *path, const char *cache, uint64_t addr,
			struct pk_srcline *out)
{
	struct answer *a;
	int err;

	if (!*sp && (err = srcline_open(path, cache, sp)) < 0)
		return err;
	if (!(*sp)->dw && !(*sp)->z)
		return no_dwarf(*sp, addr, out);
	if ((*sp)->nr * 2 >= (*sp)->cap && (err = grow(*sp)) < 0)
		return err;
	a = slot(*sp, addr);
	if (!a->used) {
		*a = (struct answer){ .addr = addr };
		if ((err = answer_fill(*sp, addr, a)) < 0) {
			answer_free(a);
			*a = (struct answer){ 0 };
			return err;
		}
		a->used = true;
		(*sp)->nr++;
	}
	if (!a->found) {
		out->file_addr2line = a->symbol ? a->file_a2l : NULL;
		return a->symbol ? -ENODATA : -ENOENT;
	}
	out->file = a->file;
	out->file_addr2line = a->file_a2l;
	out->line = a->line;
	out->frames = a->frames;
	out->nr_frames = a->nr_frames;
	return 0;
}

int pk_maps_srcline(struct pk_maps *m, const struct pk_location *loc, struct pk_srcline *out)
{
	struct pk__dso *d;

	if (loc->size < sizeof(struct pk_location) || out->size < sizeof(struct pk_srcline))
		return pk__error(-EINVAL, "look up a source line", "struct pk_location of %zu bytes "
				 "or struct pk_srcline of %zu bytes is too small", loc->size, out->size);
	*out = (struct pk_srcline){ .size = out->size };
	if (!loc->dso)
		return -ENOENT;
	/* pub is the first member of the maps' own DSO state. */
	d = (struct pk__dso *)(uintptr_t)loc->dso;
	if (d->kind != PK__DSO_FILE || !d->loaded || !d->symfile)
		return -ENOENT;
	/* the DSO is the maps', reached through loc */
	return srcline_find(&d->srcline, d->symfile, m ? pk__maps_cache(m) : NULL, loc->addr, out);
}
