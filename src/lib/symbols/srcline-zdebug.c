/* SPDX-License-Identifier: MIT */
/*
 * srcline-zdebug.c - a debug file's DWARF for srcline.c without inflating
 * what source lines never read.  libdw's dwarf_begin inflates every
 * compressed .debug_* section of a file as it opens it, the location lists
 * (.debug_loclists, 14% of Debian's libc debug file) among them, through
 * zlib with its Adler-32 check; for a `--call-graph dwarf` recording that
 * was most of report's and script's time.  When a file's DWARF is
 * SHF_COMPRESSED (zlib), this builds an uncompressed ELF image in memory
 * holding only the sections line tables, units and inline scopes need,
 * inflated as raw deflate (the stream's length is checked against the
 * compression header instead of its checksum), and opens libdw on it.
 * Any other file, or anything unexpected in one, goes to dwarf_begin on
 * the file as before, so libdw's own answers and errors are unchanged.
 */
#include "symbols/symbols.h"

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Sections libdw reads only for variables' locations, macros, CFI and name
 * indexes: nothing srcline.c asks of it (lines, units, scopes, names). */
static const char *const unneeded[] = {
	".debug_loc", ".debug_loclists", ".debug_macro", ".debug_macinfo", ".debug_frame",
	".debug_pubnames", ".debug_pubtypes", ".debug_gnu_pubnames", ".debug_gnu_pubtypes",
	".debug_names",
};

#define MAX_SCNS 64

struct part {
	Elf_Scn *scn;
	const char *name;
	uint64_t size;			/* uncompressed */
	bool compressed;
	uint64_t off;			/* in the image */
};

static bool wanted(const char *name)
{
	if (strncmp(name, ".debug_", 7) != 0)
		return false;
	for (size_t i = 0; i < sizeof(unneeded) / sizeof(unneeded[0]); i++)
		if (strcmp(name, unneeded[i]) == 0)
			return false;
	return true;
}

/* The file's sections to copy; false when the file is not one this path
 * takes (another class or byte order, GNU .zdebug, a dwz alt file, a
 * compression other than zlib, no compressed DWARF at all). */
static bool collect(Elf *e, size_t shstrndx, struct part *p, size_t *n)
{
	bool any = false;
	Elf_Scn *scn = NULL;

	*n = 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			return false;
		if (strncmp(name, ".zdebug", 7) == 0 || strcmp(name, ".gnu_debugaltlink") == 0)
			return false;
		if (!wanted(name) || sh.sh_type == SHT_NOBITS)
			continue;
		if (*n == MAX_SCNS)
			return false;
		p[*n] = (struct part){ .scn = scn, .name = name, .size = sh.sh_size };
		if (sh.sh_flags & SHF_COMPRESSED) {
			GElf_Chdr ch;

			if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB)
				return false;
			p[*n].size = ch.ch_size;
			p[*n].compressed = any = true;
		}
		(*n)++;
	}
	return any;
}

/* Inflate a section's zlib stream (after its compression header) into
 * exactly size bytes, skipping the Adler-32 check. */
static bool inflate_to(Elf_Scn *scn, unsigned char *out, uint64_t size)
{
	Elf_Data *raw = elf_rawdata(scn, NULL);
	const unsigned char *in;
	size_t len, hdr = sizeof(Elf64_Chdr);
	z_stream z = { 0 };
	int rc;

	if (!raw || !raw->d_buf || raw->d_size < hdr + 2 || size > UINT32_MAX)
		return false;
	in = (const unsigned char *)raw->d_buf + hdr;
	len = raw->d_size - hdr;
	/* RFC 1950's header: deflate, a valid check, no preset dictionary. */
	if ((in[0] & 0x0f) != 8 || ((in[0] << 8) | in[1]) % 31 != 0 || (in[1] & 0x20))
		return false;
	if (len - 2 > UINT32_MAX || inflateInit2(&z, -15) != Z_OK)
		return false;
	z.next_in = (unsigned char *)in + 2;
	z.avail_in = (uInt)(len - 2);
	z.next_out = out;
	z.avail_out = (uInt)size;
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	return rc == Z_STREAM_END && z.total_out == size;
}

/* A part's bytes, inflated or copied. */
static bool fill(const struct part *pt, unsigned char *dst)
{
	Elf_Data *d;

	if (pt->compressed)
		return inflate_to(pt->scn, dst, pt->size);
	if (!(d = elf_rawdata(pt->scn, NULL)) || d->d_size != pt->size)
		return false;
	if (pt->size)
		memcpy(dst, d->d_buf, pt->size);
	return true;
}

/* Lay the parts out after the ELF header, then the names, then the section
 * headers; fill each part's bytes. */
static unsigned char *image_build(Elf *e, struct part *p, size_t n, size_t *size)
{
	size_t off = sizeof(Elf64_Ehdr), names = 1 + sizeof(".shstrtab"), shoff, nlen;
	unsigned char *img;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;

	for (size_t i = 0; i < n; i++) {
		p[i].off = off;
		off = (off + p[i].size + 7) & ~(size_t)7;
		names += strlen(p[i].name) + 1;
	}
	shoff = (off + names + 7) & ~(size_t)7;
	*size = shoff + (n + 2) * sizeof(Elf64_Shdr);
	if (!(img = calloc(1, *size)))
		return NULL;
	eh = (Elf64_Ehdr *)img;
	memcpy(eh, elf64_getehdr(e), sizeof(*eh));
	eh->e_phoff = 0;
	eh->e_phnum = 0;
	eh->e_shoff = shoff;
	eh->e_shnum = (Elf64_Half)(n + 2);
	eh->e_shstrndx = (Elf64_Half)(n + 1);
	sh = (Elf64_Shdr *)(img + shoff);
	nlen = 1;
	for (size_t i = 0; i < n; i++) {
		GElf_Shdr g;

		gelf_getshdr(p[i].scn, &g);
		sh[i + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)nlen, .sh_type = g.sh_type,
					  .sh_flags = g.sh_flags & ~(uint64_t)SHF_COMPRESSED,
					  .sh_offset = p[i].off, .sh_size = p[i].size,
					  .sh_addralign = 1, .sh_entsize = g.sh_entsize };
		memcpy(img + off + nlen, p[i].name, strlen(p[i].name) + 1);
		nlen += strlen(p[i].name) + 1;
		if (!fill(&p[i], img + p[i].off)) {
			free(img);
			return NULL;
		}
	}
	memcpy(img + off + nlen, ".shstrtab", sizeof(".shstrtab"));
	sh[n + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)nlen, .sh_type = SHT_STRTAB,
				  .sh_offset = off, .sh_size = names, .sh_addralign = 1 };
	return img;
}

/* The in-memory DWARF of a file whose DWARF is compressed, or NULL. */
static Dwarf *image_dwarf(Elf *e, Elf **mem, void **image)
{
	struct part p[MAX_SCNS];
	const unsigned char *id = (const unsigned char *)elf_getident(e, NULL);
	size_t shstrndx, n, size;
	unsigned char *img;
	Dwarf *dw;

	if (!id || id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || elf_getshdrstrndx(e, &shstrndx) != 0 ||
	    !collect(e, shstrndx, p, &n) || !(img = image_build(e, p, n, &size)))
		return NULL;
	if (!(*mem = elf_memory((char *)img, size))) {
		free(img);
		return NULL;
	}
	if (!(dw = dwarf_begin_elf(*mem, DWARF_C_READ, NULL))) {
		elf_end(*mem);
		*mem = NULL;
		free(img);
		return NULL;
	}
	*image = img;
	return dw;
}

Dwarf *pk__srcline_dwarf_open(int fd, Elf **mem, void **image)
{
	Elf *e;
	Dwarf *dw = NULL;

	*mem = NULL;
	*image = NULL;
	if (elf_version(EV_CURRENT) != EV_NONE && (e = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		if (elf_kind(e) == ELF_K_ELF)
			dw = image_dwarf(e, mem, image);
		elf_end(e);
	}
	return dw ? dw : dwarf_begin(fd, DWARF_C_READ);
}
