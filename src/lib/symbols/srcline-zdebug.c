/* SPDX-License-Identifier: MIT */
/*
 * srcline-zdebug.c - a debug file's DWARF for srcline.c without inflating
 * what source lines never read.  libdw's dwarf_begin inflates every
 * compressed .debug_* section of a file as it opens it (10 MB for
 * Debian's libc debug file, location lists and all, through zlib with its
 * Adler-32 check); for a `--call-graph dwarf` recording that was most of
 * report's and script's time.  When a file's DWARF is SHF_COMPRESSED
 * (zlib), this gives libdw an uncompressed ELF image in memory holding only
 * the sections line tables, units and inline scopes need, inflated as raw
 * deflate (each stream's length checked against its compression header
 * instead of its checksum; a section taken whole by libdeflate in one
 * call, one taken as far as needed by zlib's stream), and .debug_info
 * only as far as the units asked for: the unit holding an address is
 * found in .debug_aranges, the image is rebuilt with at least twice the
 * units when an address lies beyond it, and .debug_aranges in the image
 * keeps only the sets of units it holds, so libdw answers for those
 * exactly as on the whole file.
 * .debug_abbrev and .debug_line are inflated and held only as far as the
 * units in the image read them (each unit's abbreviation table, to its
 * end, and its unit DIE's line program: srcline-unit.c); a unit whose
 * table refers outside it, or that cannot be read, takes everything.  An
 * address in a unit past half of .debug_info takes the whole file.  A file
 * with type units, an address in no arange set, or anything unexpected
 * takes the whole .debug_info; a file of another kind, class or byte
 * order, or one whose inflating fails, goes to dwarf_begin on the file as
 * before, so libdw's own answers and errors are unchanged.  A new image
 * ends the one before (its Dwarf and bytes): the caller copies what its
 * answers keep (pk__zdebug_builds tells it when), so a DSO holds one
 * image, not every size it grew through.  An image past the spill budget
 * (libc's 9.5 MB) is a temporary file's (sys/spill.c): its pages, written
 * once, are let go after the build and every few answers, and libdw reads
 * back only what it asks for.
 */
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libdeflate.h>
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
/* .debug_info bytes of the first image, at least: 64 KiB, less for the
 * fuzz target (pk__zdebug_set_first_info) so that its small files take
 * the lazy path too. */
static uint64_t first_info = 64u << 10;

void pk__zdebug_set_first_info(uint64_t bytes)
{
	first_info = bytes;
}

struct part {
	Elf_Scn *scn;
	const char *name;
	uint64_t size;			/* uncompressed */
	bool compressed;
	unsigned char *buf;		/* its bytes (owned when compressed) */
	uint64_t have;			/* inflated so far */
	uint64_t need;			/* bytes the image holds (a prefix when lazy) */
	bool lazy;			/* inflated on demand: .debug_info/abbrev/line */
	z_stream zs;			/* a lazy part's stream, at have */
	bool live;
	bool in_img;			/* buf is in the last image (not owned) */
	uint64_t off;			/* in the image being built */
};

struct arange {
	uint64_t lo, hi, unit;
};

struct built {
	Dwarf *dw;
	Elf *mem;
	struct pk__spill img;		/* past the spill budget, a temporary file's */
};

struct pk__zdebug {
	int fd;
	Elf *e;				/* the file, mapped: uncompressed parts point into it */
	struct part p[MAX_SCNS];
	size_t n, info, aranges;	/* n: none */
	size_t abbrev, line;
	bool whole;			/* every unit: .debug_info inflated to its end */
	bool libdw;			/* give up: dwarf_begin on the file */
	struct arange *ar;		/* .debug_aranges, by lo */
	size_t nr_ar, cap_ar;
	uint64_t prefix;		/* .debug_info bytes (whole units) of the last image */
	struct built cur;		/* the current handle, when `held` */
	bool held;
	unsigned long builds;		/* handles made so far (pk__zdebug_builds) */
	struct libdeflate_decompressor *ld;	/* inflate_whole's, made at its first use */
	char *keep_dir, *keep_path;	/* where the whole image is kept, for what file */
};

static void built_end(struct built *b)
{
	if (b->dw)
		dwarf_end(b->dw);
	if (b->mem)
		elf_end(b->mem);
	pk__spill_free(&b->img);
}

/* b the current handle; the one before it ended. */
static void built_take(struct pk__zdebug *z, struct built b)
{
	if (z->held)
		built_end(&z->cur);
	z->cur = b;
	z->held = true;
	z->builds++;
}

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
 * takes (GNU .zdebug, a dwz alt file, a compression other than zlib, no
 * compressed DWARF at all). */
static bool collect(struct pk__zdebug *z, size_t shstrndx)
{
	bool any = false;
	Elf_Scn *scn = NULL;

	z->info = z->aranges = z->abbrev = z->line = MAX_SCNS;
	z->n = 0;
	while ((scn = elf_nextscn(z->e, scn))) {
		GElf_Shdr sh;
		const char *name;
		struct part *p = &z->p[z->n];

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(z->e, shstrndx, sh.sh_name)))
			return false;
		if (strncmp(name, ".zdebug", 7) == 0 || strcmp(name, ".gnu_debugaltlink") == 0)
			return false;
		if (!wanted(name) || sh.sh_type == SHT_NOBITS)
			continue;
		if (z->n == MAX_SCNS)
			return false;
		*p = (struct part){ .scn = scn, .name = name, .size = sh.sh_size };
		if (sh.sh_flags & SHF_COMPRESSED) {
			GElf_Chdr ch;

			/* deflate expands 1032:1 at most: a claimed size past
			 * that is a lie (libelf's check too), not a malloc */
			if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB || ch.ch_size > UINT32_MAX ||
			    sh.sh_size < sizeof(Elf64_Chdr) || ch.ch_size / 1032 > sh.sh_size - sizeof(Elf64_Chdr))
				return false;
			p->size = ch.ch_size;
			p->compressed = any = true;
		}
		if (strcmp(name, ".debug_info") == 0)
			z->info = z->n;
		else if (strcmp(name, ".debug_aranges") == 0)
			z->aranges = z->n;
		else if (strcmp(name, ".debug_abbrev") == 0)
			z->abbrev = z->n;
		else if (strcmp(name, ".debug_line") == 0)
			z->line = z->n;
		z->n++;
	}
	return any;
}

/* A section's raw deflate stream, in *in and *len: after its compression
 * header and RFC 1950's two bytes (deflate, a valid check, no preset
 * dictionary); the Adler-32 after it is not read. */
static bool raw_stream(const struct part *p, const unsigned char **in, size_t *len)
{
	Elf_Data *raw = elf_rawdata(p->scn, NULL);
	const unsigned char *b;
	size_t hdr = sizeof(Elf64_Chdr);

	if (!raw || !raw->d_buf || raw->d_size < hdr + 2)
		return false;
	b = (const unsigned char *)raw->d_buf + hdr;
	if ((b[0] & 0x0f) != 8 || ((b[0] << 8) | b[1]) % 31 != 0 || (b[1] & 0x20))
		return false;
	*in = b + 2;
	*len = raw->d_size - hdr - 2;
	return *len <= UINT32_MAX;
}

/* Start a section's raw deflate stream. */
static bool stream_start(const struct part *p, z_stream *zs)
{
	const unsigned char *in;
	size_t len;

	if (!raw_stream(p, &in, &len))
		return false;
	*zs = (z_stream){ .next_in = (unsigned char *)in, .avail_in = (uInt)len };
	return inflateInit2(zs, -15) == Z_OK;
}

/* A compressed part inflated whole into out (p->size bytes) by one call
 * of libdeflate, which decodes about 2.4 times as fast as zlib's stream
 * (libc's .debug_info: 8.2 against 19.1 ms).  As in stream_to, the
 * stream must give exactly p->size bytes and end there. */
static bool inflate_whole(struct pk__zdebug *z, const struct part *p, unsigned char *out)
{
	const unsigned char *in;
	size_t len, used, got;

	if (!raw_stream(p, &in, &len) || (!z->ld && !(z->ld = libdeflate_alloc_decompressor())))
		return false;
	return libdeflate_deflate_decompress_ex(z->ld, in, len, out, p->size, &used, &got) == LIBDEFLATE_SUCCESS &&
	       got == p->size;
}

/* Inflate p's stream on to at least upto bytes (all of it at most). */
static bool stream_to(struct part *p, z_stream *zs, uint64_t upto)
{
	unsigned char extra;
	int rc = Z_OK;

	if (upto > p->size)
		upto = p->size;
	while (p->have < upto && rc == Z_OK) {
		zs->next_out = p->buf + p->have;
		zs->avail_out = (uInt)(upto - p->have);
		rc = inflate(zs, Z_SYNC_FLUSH);
		p->have = zs->total_out;
	}
	if (p->have < upto)
		return false;
	if (p->have < p->size || rc == Z_STREAM_END)
		return true;
	/* All of it: the stream must end here, not one byte later. */
	zs->next_out = &extra;
	zs->avail_out = 1;
	return inflate(zs, Z_FINISH) == Z_STREAM_END && zs->total_out == p->size;
}

/* A part's bytes: a compressed one inflated whole (but .debug_info,
 * .debug_abbrev and .debug_line, inflated on demand and held in the
 * image as far as its units read them), an uncompressed one as the file
 * maps it. */
static bool part_load(struct pk__zdebug *z, size_t i)
{
	struct part *p = &z->p[i];
	Elf_Data *d;

	if (!p->compressed) {
		if (!(d = elf_rawdata(p->scn, NULL)) || d->d_size != p->size)
			return false;
		p->buf = d->d_buf;
		p->have = p->need = p->size;
		return true;
	}
	if (!(p->buf = malloc(p->size ? p->size : 1)))
		return false;
	if (i == z->info || i == z->abbrev || i == z->line) {
		p->lazy = true;
		p->live = stream_start(p, &p->zs);
		return p->live;
	}
	if (!inflate_whole(z, p, p->buf))
		return false;
	p->have = p->need = p->size;
	return true;
}

static int arange_cmp(const void *a, const void *b)
{
	const struct arange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* One arange set's tuples; *off moves to the next set. */
static bool aranges_set(struct pk__zdebug *z, const unsigned char *b, uint64_t size, uint64_t *off)
{
	uint64_t len = pk__dwarf_le(b + *off, 4), hdr = 4, unit, at, end;
	unsigned int osz = 4, asz;

	if (len == 0xffffffff) {
		if (size - *off < 12)
			return false;
		len = pk__dwarf_le(b + *off + 4, 8);
		hdr = 12;
		osz = 8;
	}
	if (len > size - *off - hdr || len < 2u + osz + 2u || pk__dwarf_le(b + *off + hdr, 2) != 2)
		return false;
	end = *off + hdr + len;
	unit = pk__dwarf_le(b + *off + hdr + 2, osz);
	asz = b[*off + hdr + 2 + osz];
	if ((asz != 4 && asz != 8) || b[*off + hdr + 3 + osz])
		return false;
	at = *off + ((hdr + 4 + osz + 2 * asz - 1) / (2 * asz)) * (2 * asz);
	for (; at + 2 * asz <= end; at += 2 * asz) {
		uint64_t lo = pk__dwarf_le(b + at, asz), n = pk__dwarf_le(b + at + asz, asz);
		struct arange *ar;

		if (!lo && !n)
			break;
		if (z->nr_ar == z->cap_ar) {
			size_t cap = z->cap_ar ? 2 * z->cap_ar : 256;

			if (!(ar = realloc(z->ar, cap * sizeof(*ar))))
				return false;
			z->ar = ar;
			z->cap_ar = cap;
		}
		if (n > UINT64_MAX - lo)
			return false;	/* a range past the address space */
		z->ar[z->nr_ar++] = (struct arange){ lo, lo + n, unit };
	}
	*off = end;
	return true;
}

static bool aranges_read(struct pk__zdebug *z)
{
	const struct part *p = &z->p[z->aranges];
	uint64_t off = 0;

	while (off + 4 <= p->size)
		if (!aranges_set(z, p->buf, p->size, &off))
			return false;
	if (z->nr_ar)	/* (none: z->ar is still NULL) */
		qsort(z->ar, z->nr_ar, sizeof(*z->ar), arange_cmp);
	for (size_t i = 1; i < z->nr_ar; i++)
		if (z->ar[i].lo < z->ar[i - 1].hi)
			return false;	/* overlapping sets: let libdw choose, from all units */
	return true;
}

/* The unit offset aranges give addr; false when none does. */
static bool unit_of(const struct pk__zdebug *z, uint64_t addr, uint64_t *unit)
{
	size_t lo = 0, hi = z->nr_ar;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->ar[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= z->ar[lo - 1].hi)
		return false;
	*unit = z->ar[lo - 1].unit;
	return true;
}

/* The arange sets of units in the image, copied to dst (NULL: counted). */
static uint64_t aranges_keep(const struct pk__zdebug *z, unsigned char *dst)
{
	const struct part *p = &z->p[z->aranges];
	uint64_t off = 0, out = 0;

	if (z->whole) {
		if (dst && p->size)	/* (an empty part's buf is NULL) */
			memcpy(dst, p->buf, p->size);
		return p->size;
	}
	/* aranges_read checked every set's header */
	while (off + 4 <= p->size) {
		bool dwarf64 = pk__dwarf_le(p->buf + off, 4) == 0xffffffff;
		uint64_t hdr = dwarf64 ? 12 : 4, osz = dwarf64 ? 8 : 4;
		uint64_t len = dwarf64 ? pk__dwarf_le(p->buf + off + 4, 8) : pk__dwarf_le(p->buf + off, 4);

		if (pk__dwarf_le(p->buf + off + hdr + 2, (unsigned int)osz) < z->prefix) {
			if (dst)
				memcpy(dst + out, p->buf + off, hdr + len);
			out += hdr + len;
		}
		off += hdr + len;
	}
	return out;
}

/* The size a part has in the image. */
static uint64_t part_size(const struct pk__zdebug *z, size_t i)
{
	if (i == z->info)
		return z->prefix;
	if (i == z->aranges)
		return aranges_keep(z, NULL);
	return z->p[i].need;
}

/* A part's first n bytes into the image at p->off.  In the last image
 * (every part whole), a part still being inflated is inflated there,
 * from the start by inflate_whole, rather than into its own buffer and
 * then copied: the last image comes when an address lies past half of
 * .debug_info, so at most about half was inflated, and inflate_whole
 * takes less time for all of it than zlib's stream for the rest. */
static bool image_part(struct pk__zdebug *z, struct part *p, unsigned char *img, uint64_t n)
{
	if (!p->lazy || p->have >= p->size || n < p->size) {
		if (n)
			memcpy(img + p->off, p->buf, n);
		return true;
	}
	free(p->buf);
	p->buf = img + p->off;
	p->in_img = true;	/* not used again if this fails: the file goes to libdw */
	if (p->live)
		inflateEnd(&p->zs);
	p->live = false;
	if (!inflate_whole(z, p, p->buf))
		return false;
	p->have = p->size;
	return true;
}

/* An ELF image of the parts in *sp: the header, their bytes, their names,
 * the section headers. */
static bool image_build(struct pk__zdebug *z, struct pk__spill *sp, size_t *size)
{
	size_t off = sizeof(Elf64_Ehdr), names = 1 + sizeof(".shstrtab"), shoff, nlen = 1;
	unsigned char *img;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;

	for (size_t i = 0; i < z->n; i++) {
		z->p[i].off = off;
		off = (off + part_size(z, i) + 7) & ~(size_t)7;
		names += strlen(z->p[i].name) + 1;
	}
	shoff = (off + names + 7) & ~(size_t)7;
	*size = shoff + (z->n + 2) * sizeof(Elf64_Shdr);
	pk__spill_init(sp);
	if (pk__spill_alloc(sp, *size) < 0)
		return false;
	img = sp->p;
	eh = (Elf64_Ehdr *)img;
	memcpy(eh, elf64_getehdr(z->e), sizeof(*eh));
	eh->e_phoff = 0;
	eh->e_phnum = 0;
	eh->e_shoff = shoff;
	eh->e_shnum = (Elf64_Half)(z->n + 2);
	eh->e_shstrndx = (Elf64_Half)(z->n + 1);
	sh = (Elf64_Shdr *)(img + shoff);
	for (size_t i = 0; i < z->n; i++) {
		const struct part *p = &z->p[i];
		uint64_t n = part_size(z, i);
		GElf_Shdr g;

		gelf_getshdr(p->scn, &g);
		sh[i + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)nlen, .sh_type = g.sh_type,
					  .sh_flags = g.sh_flags & ~(uint64_t)SHF_COMPRESSED,
					  .sh_offset = p->off, .sh_size = n, .sh_addralign = 1,
					  .sh_entsize = g.sh_entsize };
		memcpy(img + off + nlen, p->name, strlen(p->name) + 1);
		nlen += strlen(p->name) + 1;
		if (i == z->aranges)
			aranges_keep(z, img + p->off);
		else if (!image_part(z, z->p + i, img, n)) {
			pk__spill_free(sp);
			return false;
		}
	}
	memcpy(img + off + nlen, ".shstrtab", sizeof(".shstrtab"));
	sh[z->n + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)nlen, .sh_type = SHT_STRTAB,
				     .sh_offset = off, .sh_size = names, .sh_addralign = 1 };
	return true;
}

/* A new current Dwarf over the parts as they are; the whole image kept
 * for the next reader of the file when `keep` and z was told where. */
static bool rebuild(struct pk__zdebug *z, bool keep)
{
	struct built b = { 0 };
	size_t size;

	if (!image_build(z, &b.img, &size))
		return false;
	if (!(b.mem = elf_memory((char *)b.img.p, size)) || !(b.dw = dwarf_begin_elf(b.mem, DWARF_C_READ, NULL))) {
		if (b.mem)
			elf_end(b.mem);
		pk__spill_free(&b.img);
		return false;
	}
	if (keep && z->keep_dir)
		pk__zkept_write(z->keep_dir, z->keep_path, z->fd, b.img.p, size);
	pk__spill_drop(&b.img, 0, size);	/* in a file: the pages written let go */
	built_take(z, b);
	return true;
}

/* The first upto bytes of part i inflated (a part read whole has them
 * all); false past its end or when inflating fails. */
static bool part_fill(struct pk__zdebug *z, size_t i, uint64_t upto)
{
	struct part *p = &z->p[i];

	return upto <= p->size && (!p->lazy || stream_to(p, &p->zs, upto));
}

/* The first upto bytes of part i inflated and in the image. */
static bool part_to(struct pk__zdebug *z, size_t i, uint64_t upto)
{
	struct part *p = &z->p[i];

	if (!part_fill(z, i, upto))
		return false;
	if (p->need < upto)
		p->need = upto;
	return true;
}

/* The whole image is the last one: the parts' own copies of what it holds
 * are let go, and with them the file's mapping when every part came out
 * of a compressed section (libc's debug file: 3.2 MB of it read while
 * inflating, and the parts read whole besides). */
static void settle(struct pk__zdebug *z, const unsigned char *img)
{
	bool mapped = false;

	for (size_t i = 0; i < z->n; i++) {
		struct part *p = &z->p[i];

		if (!p->compressed) {
			mapped = true;
			continue;
		}
		if (!p->in_img)
			free(p->buf);
		p->buf = (unsigned char *)img + p->off;
		p->in_img = true;
	}
	if (!mapped) {
		elf_end(z->e);
		z->e = NULL;
	}
}

/* Every part whole: every unit in the image (the last one: the parts
 * still being inflated are inflated into it). */
static bool go_whole(struct pk__zdebug *z)
{
	z->whole = true;
	for (size_t i = 0; i < z->n; i++)
		z->p[i].need = z->p[i].size;
	z->prefix = z->info < z->n ? z->p[z->info].size : 0;
	if (!rebuild(z, true))
		return false;
	settle(z, z->cur.img.p);
	return true;
}

/* The abbreviation table of unit h in the image, inflated as far as it
 * goes; its unit DIE's specifications at *spec.  0: a form in it refers
 * outside the unit (or it is malformed): every unit is needed. */
static int abbrev_need(struct pk__zdebug *z, const struct pk__cu_head *h, uint64_t *spec)
{
	struct part *p = &z->p[z->abbrev];
	uint64_t step = 4096, end;
	int rc;

	while ((rc = pk__abbrev_scan(p->buf, p->have, h->abbrev, h->code, spec, &end)) < 0) {
		if (p->have >= p->size || !part_fill(z, z->abbrev, p->size - p->have > step ? p->have + step : p->size))
			return 0;
		step *= 2;
	}
	return rc > 0 && *spec != UINT64_MAX && part_to(z, z->abbrev, end);
}

/* The line program at stmt of .debug_line, inflated and in the image. */
static bool line_need(struct pk__zdebug *z, uint64_t stmt)
{
	struct part *p = &z->p[z->line];
	unsigned int hdr = 4;
	uint64_t len;

	if (stmt >= p->size || p->size - stmt < 4 ||
	    !part_to(z, z->line, p->size - stmt < 12 ? p->size : stmt + 12))
		return false;
	len = pk__dwarf_unit_size(p->buf, stmt, p->have, &hdr);
	return len <= p->size - stmt && part_to(z, z->line, stmt + len);
}

/* What the units from off to end read of .debug_abbrev and .debug_line,
 * inflated and in the image; false when it cannot be told (then every
 * unit and section whole). */
static bool units_need(struct pk__zdebug *z, uint64_t off, uint64_t end)
{
	const struct part *info = &z->p[z->info];

	if (z->abbrev == MAX_SCNS)
		return false;
	while (off < end) {
		struct pk__cu_head h;
		uint64_t spec, stmt = 0;
		int has;

		if (!pk__cu_head_read(info->buf + off, end - off, &h) || !abbrev_need(z, &h, &spec))
			return false;
		has = pk__cu_stmt_list(&h, z->p[z->abbrev].buf + spec, z->p[z->abbrev].buf + z->p[z->abbrev].have,
				       &stmt);
		if (has < 0 || (has && (z->line == MAX_SCNS || !line_need(z, stmt))))
			return false;
		off = (uint64_t)(h.end - info->buf);
	}
	return true;
}

/* Grow the image's units to hold the one at unit and at least twice as
 * many bytes as before, ending on a unit's end. */
static bool grow_to(struct pk__zdebug *z, uint64_t unit)
{
	struct part *p = &z->p[z->info];
	uint64_t off = z->prefix, want, len;
	unsigned int hdr = 4;
	bool seen = false;

	if (unit > p->size / 2 || !stream_to(p, &p->zs, unit + 12))
		return go_whole(z);	/* doubling would soon reach the end: one image, not two */
	if ((len = pk__dwarf_unit_size(p->buf, unit, p->have, &hdr)) > p->size - unit)
		return go_whole(z);	/* a header cut short or a length past the end */
	want = unit + len;
	if (want < 2 * z->prefix)
		want = 2 * z->prefix;
	if (want > p->size / 2)
		return go_whole(z);
	if (want < first_info)
		want = first_info;
	if (!stream_to(p, &p->zs, want))
		return false;
	/* every unit is at least 4 bytes: the walk always moves on */
	while ((len = pk__dwarf_unit_size(p->buf, off, p->have, &hdr)) <= p->have - off) {
		seen |= off == unit;
		off += len;
	}
	if (!seen || off <= unit || !units_need(z, z->prefix, off))
		return go_whole(z);	/* aranges name no unit start: let libdw see all */
	z->prefix = off;
	return rebuild(z, false);
}

static void zdebug_end(struct pk__zdebug *z)
{
	if (z->held)
		built_end(&z->cur);
	z->held = false;
	for (size_t i = 0; i < z->n; i++) {
		if (z->p[i].live)
			inflateEnd(&z->p[i].zs);
		if (z->p[i].compressed && !z->p[i].in_img)
			free(z->p[i].buf);
	}
	z->n = 0;
	free(z->ar);
	z->ar = NULL;
	if (z->e)
		elf_end(z->e);
	z->e = NULL;
	libdeflate_free_decompressor(z->ld);
	z->ld = NULL;
	free(z->keep_dir);
	free(z->keep_path);
	z->keep_dir = z->keep_path = NULL;
}

/* Read the file's parts and choose: units on demand, or all of them. */
static bool zdebug_start(struct pk__zdebug *z)
{
	const unsigned char *id = (const unsigned char *)elf_getident(z->e, NULL);
	size_t shstrndx;
	bool types = false;

	if (!id || id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || elf_getshdrstrndx(z->e, &shstrndx) != 0 ||
	    !collect(z, shstrndx))
		return false;
	for (size_t i = 0; i < z->n; i++) {
		if (!part_load(z, i))
			return false;
		types |= strcmp(z->p[i].name, ".debug_types") == 0;
	}
	if (z->info == MAX_SCNS || !z->p[z->info].compressed || z->aranges == MAX_SCNS ||
	    z->abbrev == MAX_SCNS || types || !aranges_read(z))
		return go_whole(z);
	return true;
}

/* The whole image kept for this very file, read back: the handle at
 * once, nothing inflated. */
static bool kept_take(struct pk__zdebug *z, const char *path, const char *dir)
{
	struct built b = { 0 };
	size_t size;

	if (!pk__zkept_read(dir, path, z->fd, &b.img, &size))
		return false;
	if (!(b.mem = elf_memory((char *)b.img.p + PK__ZKEPT_AT, size)) || elf_kind(b.mem) != ELF_K_ELF ||
	    !(b.dw = dwarf_begin_elf(b.mem, DWARF_C_READ, NULL))) {
		built_end(&b);
		return false;	/* damaged: made again, and kept again */
	}
	z->whole = true;
	built_take(z, b);
	return true;
}

struct pk__zdebug *pk__zdebug_open_kept(int fd, const char *path, const char *dir)
{
	struct pk__zdebug *z;

	if (elf_version(EV_CURRENT) == EV_NONE || !(z = pk__calloc(1, sizeof(*z))))
		return NULL;
	z->fd = fd;
	if (dir && path && kept_take(z, path, dir))
		return z;
	if (dir && path && pk__zkept_usable(dir) &&
	    (!(z->keep_dir = pk__strdup(dir)) || !(z->keep_path = pk__strdup(path)))) {
		free(z->keep_dir);
		z->keep_dir = NULL;	/* not kept: no memory to say where */
	}
	if (!(z->e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) || elf_kind(z->e) != ELF_K_ELF ||
	    !zdebug_start(z)) {
		zdebug_end(z);
		free(z);
		return NULL;
	}
	return z;
}

struct pk__zdebug *pk__zdebug_open(int fd)
{
	return pk__zdebug_open_kept(fd, NULL, NULL);
}

Dwarf *pk__zdebug_dwarf(struct pk__zdebug *z, uint64_t addr)
{
	uint64_t unit;
	bool ok = true;

	if (!z->libdw && !z->whole) {
		if (!unit_of(z, addr, &unit))
			ok = go_whole(z);
		else if (unit >= z->prefix)
			ok = grow_to(z, unit);
	}
	if (!ok && !z->libdw) {
		/* inflating failed part-way: libdw's own reading of the file,
		 * and its answer, from here on */
		struct built b = { .dw = dwarf_begin(z->fd, DWARF_C_READ) };

		z->libdw = true;
		built_take(z, b);
	}
	if (!z->held)
		return NULL;
	/* An answer reads a few places of an image in a file (its unit, line
	 * program, abbreviations, strings): counted as two 64 KiB blocks
	 * faulted in, they are let go every so many answers. */
	pk__spill_count(&z->cur.img, 128u << 10);
	return z->cur.dw;
}

unsigned long pk__zdebug_builds(const struct pk__zdebug *z)
{
	return z->builds;
}

void pk__zdebug_free(struct pk__zdebug *z)
{
	if (!z)
		return;
	zdebug_end(z);
	free(z);
}
