/* SPDX-License-Identifier: MIT */
/*
 * elf.c - an ELF file opened once, through libelf, from a path or from
 * memory: its symbols as perf 6.1 loads them, a function's file offset (through the
 * PT_LOAD segment that holds it), its GNU build-id note, its
 * .gnu_debuglink and the CRC-32 that checks a debug file against it.  Files are outside input: a truncated or corrupt one
 * fails with -EINVAL and a message, never reads past what libelf checked.
 */
#include "elf/elf.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pk__elf {
	Elf *elf;
	int fd;			/* -1 when opened from memory */
	void *image;		/* our copy of an in-memory image */
	char *name;
};

void pk__elf_close(struct pk__elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->image);
	free(e->name);
	free(e);
}

const char *pk__elf_name(const struct pk__elf *e)
{
	return e->name;
}

/* Check what elf_begin made of the bytes: an ELF file with readable headers. */
static int finish_open(struct pk__elf *e, struct pk__elf **out)
{
	GElf_Ehdr eh;
	size_t nr;

	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &eh) ||
	    elf_getshdrnum(e->elf, &nr) < 0 || elf_getphdrnum(e->elf, &nr) < 0) {
		pk__error(-EINVAL, "read an ELF file", "%s is not an ELF file%s", e->name,
			  e->elf && elf_kind(e->elf) == ELF_K_ELF ? " (its headers are corrupt)" : "");
		pk__elf_close(e);
		return -EINVAL;
	}
	*out = e;
	return 0;
}

static struct pk__elf *new_elf(const char *name)
{
	struct pk__elf *e = pk__calloc(1, sizeof(*e));

	if (!e || !(e->name = pk__strdup(name))) {
		free(e);
		pk__error_nomem("the ELF file %s", name);
		return NULL;
	}
	e->fd = -1;
	return e;
}

int pk__elf_open(const char *path, struct pk__elf **out)
{
	struct pk__elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return pk__error(-EOPNOTSUPP, "read an ELF file", "libelf is unusable: %s",
				 elf_errmsg(-1));
	if (!(e = new_elf(path)))
		return pk__error_nomem("the ELF file %s", path);
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0) {
		int err = errno == EACCES || errno == EPERM ? -EACCES : errno == EMFILE ? -EMFILE
			  : -ENOENT;

		pk__error(err, "read an ELF file", "cannot open %s: %s", path, strerror(errno));
		pk__elf_close(e);
		return err;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	return finish_open(e, out);
}

int pk__elf_open_mem(const void *image, size_t len, const char *name, struct pk__elf **out)
{
	struct pk__elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return pk__error(-EOPNOTSUPP, "read an ELF file", "libelf is unusable: %s",
				 elf_errmsg(-1));
	if (!(e = new_elf(name)))
		return pk__error_nomem("the ELF image %s", name);
	/* libelf may write to the image it is given: hand it our own copy. */
	if (!(e->image = pk__malloc(len ? len : 1))) {
		pk__elf_close(e);
		return pk__error(-ENOMEM, "read an ELF file", "out of memory copying %s", name);
	}
	memcpy(e->image, image, len);
	e->elf = elf_memory(e->image, len);
	return finish_open(e, out);
}

int pk__elf_open_mapped(const void *base, const char *name, struct pk__elf **out)
{
	const unsigned char *b = base;
	const ElfW(Ehdr) *eh = base;
	size_t len;

	if (!b || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)))
		return pk__error(-EINVAL, "read an ELF image", "%s is not an ELF image", name);
	len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(b + eh->e_phoff) + i;

		if (ph->p_offset + ph->p_filesz > len)
			len = ph->p_offset + ph->p_filesz;
	}
	return pk__elf_open_mem(base, len, name, out);
}

/* The first section called `want` with its header, or NULL. */
static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (gelf_getshdr(scn, sh) && (name = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* ---- symbols --------------------------------------------------------------- */

/* ARM's mapping symbols ($a, $d, $t, $x, alone or with a '.' suffix) mark
 * code and data runs, not functions: perf 6.1 drops them. */
static bool arm_mapping_symbol(const GElf_Ehdr *eh, const char *name)
{
	return (eh->e_machine == EM_ARM || eh->e_machine == EM_AARCH64) && name[0] == '$' &&
	       name[1] && strchr("adtx", name[1]) && (name[2] == '\0' || name[2] == '.');
}

/* What perf 6.1's dso__load_sym asks of the section a symbol is defined
 * in, read once per walk rather than once per symbol (libelf's section
 * lookup showed in report's profile): whether it is loaded (SHF_ALLOC),
 * and whether its name says text or data (for labels). */
struct sec_kind {
	bool alloc, text_or_data;
};

/* The kinds of e's sections by index into *out (the caller frees it), *nr
 * of them.  Returns 0 (*out NULL when the file's section count cannot be
 * read: no symbol is then kept) or -ENOMEM. */
static int section_kinds(Elf *elf, size_t shstrndx, struct sec_kind **out, size_t *nr)
{
	struct sec_kind *k;

	*out = NULL;
	if (elf_getshdrnum(elf, nr) < 0 || !*nr)
		return 0;
	if (!(k = pk__calloc(*nr, sizeof(*k))))
		return pk__error_nomem("an ELF file's section kinds (%zu sections)", *nr);
	for (size_t i = 0; i < *nr; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *sec;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		k[i].alloc = true;
		sec = elf_strptr(elf, shstrndx, sh.sh_name);
		k[i].text_or_data = sec && (strstr(sec, "text") || strstr(sec, "data"));
	}
	*out = k;
	return 0;
}

/* Whether perf 6.1's dso__load_sym keeps the symbol: a named function or
 * object, or a label that is not hidden or internal, defined in a section
 * of the loaded image (SHF_ALLOC: not absolute, common or out of range);
 * a label only in a section named like text or data. */
static bool kept_symbol(const struct sec_kind *kinds, size_t nr_kinds, const GElf_Sym *sym)
{
	int st = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	bool label = st == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	if (!label && st != STT_FUNC && st != STT_GNU_IFUNC && st != STT_OBJECT)
		return false;
	if (sym->st_shndx >= nr_kinds || !kinds[sym->st_shndx].alloc)
		return false;
	return !label || kinds[sym->st_shndx].text_or_data;
}

/* A symbol table's string table, read directly when it is a plain
 * SHT_STRTAB held in one block (elf_strptr's checks made once): a name is
 * there when its offset is inside and a NUL ends it inside, as
 * elf_strptr has it.  Otherwise every name goes through elf_strptr. */
struct strtab {
	Elf *elf;
	size_t ndx;
	const char *base;	/* NULL: use elf_strptr */
	size_t size;
	bool ends_nul;		/* the last byte is NUL: every offset inside is a name */
};

static void strtab_open(struct strtab *t, Elf *elf, size_t ndx)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	Elf_Data *d;
	GElf_Shdr sh;

	*t = (struct strtab){ .elf = elf, .ndx = ndx };
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB || (sh.sh_flags & SHF_COMPRESSED) ||
	    !(d = elf_getdata(scn, NULL)) || !d->d_buf || d->d_size != sh.sh_size || !d->d_size ||
	    elf_getdata(scn, d))
		return;
	t->base = d->d_buf;
	t->size = d->d_size;
	t->ends_nul = t->base[t->size - 1] == '\0';
}

static const char *strtab_name(const struct strtab *t, size_t off)
{
	if (!t->base)
		return elf_strptr(t->elf, t->ndx, off);
	if (off >= t->size || (!t->ends_nul && !memchr(t->base + off, '\0', t->size - off)))
		return NULL;
	return t->base + off;
}

/* Symbol i of a symbol table's data: read in place for a 64-bit file
 * (libelf has converted it to this machine's order), else by gelf. */
static bool sym_at(Elf_Data *data, bool is64, size_t i, GElf_Sym *sym)
{
	if (is64) {
		memcpy(sym, (const char *)data->d_buf + i * sizeof(Elf64_Sym), sizeof(Elf64_Sym));
		return true;
	}
	return gelf_getsym(data, (int)i, sym) != NULL;
}

/* The kept symbols of one symbol table section, through cb. */
static int walk_table(const struct pk__elf *e, const GElf_Ehdr *eh, Elf_Scn *scn, const GElf_Shdr *sh,
		      const struct sec_kind *kinds, size_t nr_kinds, size_t entsize, bool dynamic,
		      pk__elf_sym_cb cb, void *arg)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	bool is64 = data && gelf_getclass(e->elf) == ELFCLASS64 && data->d_type == ELF_T_SYM &&
		    entsize == sizeof(Elf64_Sym) && data->d_buf;
	struct strtab str;
	int ret = 0;

	if (!data)
		return 0;
	strtab_open(&str, e->elf, sh->sh_link);
	for (size_t i = 0; !ret && i < data->d_size / entsize; i++) {
		struct pk__elf_sym s = { .dynamic = dynamic };
		GElf_Sym sym;

		if (!sym_at(data, is64, i, &sym))
			break;
		if (!kept_symbol(kinds, nr_kinds, &sym))
			continue;
		s.name = strtab_name(&str, sym.st_name);
		if (!s.name || !s.name[0] || arm_mapping_symbol(eh, s.name))
			continue;
		s.value = sym.st_value;
		s.size = sym.st_size;
		s.binding = GELF_ST_BIND(sym.st_info);
		s.type = GELF_ST_TYPE(sym.st_info);
		ret = cb(arg, &s);
	}
	return ret;
}

/* The kept symbols of every section of type `type`, through cb. */
static int walk_syms(struct pk__elf *e, Elf64_Word type, pk__elf_sym_cb cb, void *arg)
{
	size_t entsize = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT), shstrndx, nr_kinds = 0;
	struct sec_kind *kinds = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int ret = 0;

	if (elf_getshdrstrndx(e->elf, &shstrndx) < 0 || !gelf_getehdr(e->elf, &eh))
		return 0;
	while (!ret && entsize && (scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
			continue;
		if (!kinds && (ret = section_kinds(e->elf, shstrndx, &kinds, &nr_kinds)) < 0)
			break;
		if (!kinds)
			break;	/* no section count: no symbol is in a known section */
		ret = walk_table(e, &eh, scn, &sh, kinds, nr_kinds, entsize, type == SHT_DYNSYM, cb, arg);
	}
	free(kinds);
	return ret;
}

int pk__elf_symbols(struct pk__elf *e, pk__elf_sym_cb cb, void *arg)
{
	int ret = walk_syms(e, SHT_SYMTAB, cb, arg);

	return ret ? ret : walk_syms(e, SHT_DYNSYM, cb, arg);
}

bool pk__elf_has_dynsym(struct pk__elf *e)
{
	GElf_Shdr sh;

	return find_section(e->elf, ".dynsym", &sh) && sh.sh_type == SHT_DYNSYM;
}

/* The size of .plt's header (PLT0) and of each entry after it, by machine,
 * as perf 6.1 has them; other machines use .plt's sh_entsize for both. */
static void plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *hdr, uint64_t *ent)
{
	static const struct { uint16_t machine; uint8_t hdr, ent; } sizes[] = {
		{ EM_ARM, 20, 12 }, { EM_AARCH64, 32, 16 }, { EM_SPARC, 48, 12 },
		{ EM_SPARCV9, 128, 32 },
	};

	*hdr = *ent = plt->sh_entsize;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i].machine == eh->e_machine) {
			*hdr = sizes[i].hdr;
			*ent = sizes[i].ent;
		}
}

/* The .dynsym name of relocation i's symbol; "" when it names none. */
static const char *rel_sym_name(Elf *elf, Elf_Data *rel, bool rela, size_t i, Elf_Data *dynsym,
				size_t strndx)
{
	GElf_Rela ra;
	GElf_Rel r;
	GElf_Sym sym;
	uint64_t info;
	const char *name;

	if (rela ? !gelf_getrela(rel, (int)i, &ra) : !gelf_getrel(rel, (int)i, &r))
		return "";
	info = rela ? ra.r_info : r.r_info;
	if (GELF_R_SYM(info) > INT32_MAX || !gelf_getsym(dynsym, (int)GELF_R_SYM(info), &sym))
		return "";
	name = elf_strptr(elf, strndx, sym.st_name);
	return name ? name : "";
}

int pk__elf_plt_entries(struct pk__elf *e, pk__elf_plt_cb cb, void *arg)
{
	GElf_Shdr dyn, rel, plt;
	GElf_Ehdr eh;
	Elf_Scn *dscn = find_section(e->elf, ".dynsym", &dyn), *rscn;
	Elf_Data *rdata, *ddata;
	uint64_t hdr, ent, nr;
	int ret = 0;

	if (!dscn || dyn.sh_type != SHT_DYNSYM || !gelf_getehdr(e->elf, &eh))
		return 0;
	if (!(rscn = find_section(e->elf, ".rela.plt", &rel)) &&
	    !(rscn = find_section(e->elf, ".rel.plt", &rel)))
		return 0;
	/* A debug file's PLT sections are NOBITS: they name nothing. */
	if ((rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL) ||
	    rel.sh_link != elf_ndxscn(dscn) || !rel.sh_entsize ||
	    !find_section(e->elf, ".plt", &plt) || !(rdata = elf_getdata(rscn, NULL)) ||
	    !(ddata = elf_getdata(dscn, NULL)))
		return 0;
	plt_sizes(&eh, &plt, &hdr, &ent);
	if (!ent)
		return 0;	/* perf 6.1 would stack them all at one address */
	/* The relocations libelf has in hand: a size past the file reads nothing. */
	nr = (rdata->d_size < rel.sh_size ? rdata->d_size : rel.sh_size) / rel.sh_entsize;
	for (uint64_t i = 0; !ret && i < nr && i < INT32_MAX; i++) {
		struct pk__elf_plt p = {
			rel_sym_name(e->elf, rdata, rel.sh_type == SHT_RELA, (size_t)i, ddata,
				     dyn.sh_link),
			plt.sh_addr + hdr + i * ent, ent,
		};

		ret = cb(arg, &p);
	}
	return ret;
}

size_t pk__elf_symbol_slots(struct pk__elf *e, bool dynamic)
{
	size_t entsize = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT), n = 0;
	Elf64_Word type = dynamic ? SHT_DYNSYM : SHT_SYMTAB;
	Elf_Scn *scn = NULL;

	/* By the data libelf has for them, as walk_syms counts: a header's
	 * sh_size could claim more than the file holds. */
	while (entsize && (scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == type && (data = elf_getdata(scn, NULL)))
			n += data->d_size / entsize;
	}
	return n;
}

bool pk__elf_has_symtab(struct pk__elf *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB && sh.sh_size > sh.sh_entsize)
			return true;	/* more than the null symbol */
	}
	return false;
}

int pk__elf_load_segments(struct pk__elf *e, struct pk__elf_seg *segs, size_t max)
{
	size_t nr, n = 0;

	if (elf_getphdrnum(e->elf, &nr) < 0)
		return pk__error(-EINVAL, "read an ELF file", "%s: unreadable program headers",
				 e->name);
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (n < max)
			segs[n] = (struct pk__elf_seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz,
							ph.p_flags };
		n++;
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

struct want {
	const char *name;
	uint64_t value;
};

/* Whether an ELF symbol name ("memcpy@@GLIBC_2.14" in some .symtab's) is
 * the one wanted; stops the walk when it is. */
static int sym_is(void *arg, const struct pk__elf_sym *s)
{
	struct want *w = arg;
	size_t n = strlen(w->name);

	if ((s->type != STT_FUNC && s->type != STT_GNU_IFUNC) || strncmp(s->name, w->name, n) ||
	    (s->name[n] != '\0' && s->name[n] != '@'))
		return 0;	/* a function of that name, not an object or a label */
	w->value = s->value;
	return 1;
}

/* The file offset of virtual address `vaddr`: the PT_LOAD segment holding it. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t nr;

	if (elf_getphdrnum(elf, &nr) < 0)
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -EINVAL;
}

int pk__elf_symbol_offset(struct pk__elf *e, const char *name, uint64_t *off, uint64_t *value)
{
	struct want w = { name, 0 };

	if (pk__elf_symbols(e, sym_is, &w) != 1)
		return pk__error(-ENOENT, "find a symbol", "%s has no function symbol '%s'", e->name,
				 name);
	if (value)
		*value = w.value;
	if (vaddr_to_offset(e->elf, w.value, off) < 0)
		return pk__error(-EINVAL, "find a symbol", "'%s' (0x%llx) lies in no loadable "
				 "segment of %s", name, (unsigned long long)w.value, e->name);
	return 0;
}

/* ---- build-id and debuglink --------------------------------------------------- */

int pk__elf_notes_build_id(const void *notes, size_t len, uint8_t id[20])
{
	const unsigned char *p = notes;
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_end;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		if (namesz > len - off)
			break;
		name_end = off + ((namesz + 3) & ~(size_t)3);
		if (name_end > len || descsz > len - name_end)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + off, "GNU", 4) &&
		    descsz && descsz <= 20) {
			memcpy(id, p + name_end, descsz);
			return (int)descsz;
		}
		off = name_end + ((descsz + 3) & ~(size_t)3);
	}
	return -ENOENT;
}

int pk__elf_build_id(struct pk__elf *e, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	size_t nr;
	int ret = -ENOENT;

	while (ret < 0 && (scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		ret = pk__elf_notes_build_id(d->d_buf, d->d_size, id);
	}
	/* A file stripped of its section headers still has its PT_NOTE segments. */
	for (size_t i = 0; ret < 0 && elf_getphdrnum(e->elf, &nr) == 0 && i < nr; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(e->elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (d)
			ret = pk__elf_notes_build_id(d->d_buf, d->d_size, id);
	}
	return ret;
}

int pk__elf_mapped_build_id(const void *base, uint8_t id[20])
{
	const unsigned char *b = base;
	const ElfW(Ehdr) *eh = base;

	if (!b || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)))
		return -ENOENT;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(b + eh->e_phoff) + i;

		if (ph->p_type == PT_NOTE) {
			int n = pk__elf_notes_build_id(b + ph->p_offset, ph->p_filesz, id);

			if (n > 0)
				return n;
		}
	}
	return -ENOENT;
}

int pk__elf_debuglink(struct pk__elf *e, char *name, size_t len, uint32_t *crc)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e->elf, ".gnu_debuglink", &sh);
	Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;
	const char *p;
	size_t n, crc_at;
	GElf_Ehdr eh;
	uint32_t v;

	if (!scn || !d || !d->d_buf)
		return -ENOENT;
	p = d->d_buf;
	n = strnlen(p, d->d_size);
	/* The name, NUL-terminated, padded to 4 bytes, then the CRC. */
	crc_at = (n + 4) & ~(size_t)3;
	if (n == d->d_size || !n || crc_at + 4 > d->d_size || !gelf_getehdr(e->elf, &eh))
		return pk__error(-EINVAL, "read .gnu_debuglink", "the section of %s is malformed",
				 e->name);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(name, p, n + 1);
	memcpy(&v, p + crc_at, 4);
	/* The CRC is a word of the file's byte order. */
	if ((eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		v = __builtin_bswap32(v);
	*crc = v;
	return 0;
}

int pk__elf_file_crc32(const char *path, uint32_t *crc)
{
	uint32_t table[256], c = 0xffffffffu;
	unsigned char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return pk__error(errno == EACCES ? -EACCES : -ENOENT, "check a debug file's CRC",
				 "cannot open %s: %s", path, strerror(errno));
	/* The reflected polynomial's table, made per call: no global state. */
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t v = i;

		for (int k = 0; k < 8; k++)
			v = (v >> 1) ^ (0xedb88320u & (0u - (v & 1)));
		table[i] = v;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	close(fd);
	if (n < 0)
		return pk__error(-EIO, "check a debug file's CRC", "reading %s: %s", path,
				 strerror(errno));
	*crc = c ^ 0xffffffffu;
	return 0;
}
