/* SPDX-License-Identifier: MIT */
/*
 * test_srcline.c - pk_maps_srcline on the inline target (-O2 -g, mix()
 * inlined into step() inlined into spin()): every address of spin() has a
 * line of the target's source, the hot loop's addresses have the chain
 * mix, step, spin with perf's call sites (addr2line -i's lines 24 and 34),
 * answers are cached, a copy without DWARF has symbols but no lines
 * (-ENODATA, with the file addr2line then takes from the symbol table),
 * and the kernel and unmapped addresses have none (-ENOENT).  On the
 * no-line target: addr2line's symbol-table files where no line exists,
 * and its DWARF 5 rule for rows of file 1.  A copy of the perfkit binary
 * (hundreds of units) with its DWARF zlib-compressed gives the same answer
 * as the binary at thousands of addresses asked in scattered order (its
 * units are inflated on demand: srcline-zdebug.c).  An assembler function
 * of three names (three subprograms of one range) is named as addr2line
 * names it.  A section whose compression header says one byte more or
 * fewer than its stream gives is refused, whether it is inflated whole at
 * the open or as the last image.
 * argv: the inline target, a copy of it with its debug sections stripped,
 * the no-line target, the perfkit binary, a copy with compressed DWARF,
 * the alias workload ("" where it is not built), a compressed copy with a
 * unit length that wraps (zdebug-craft.py).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <elfutils/libdw.h>
#include <gelf.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "symbols/symbols.h"
#include "srcline-test.h"
#include "procmaps.h"
#include "sys/sys.h"
#include "tmpdir.h"

static char **paths;

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* Map the executable segment of `file` as the loader does; the ip of
 * function `fn` in it. */
static uint64_t map_fn(struct pk_maps *m, const char *file, const char *fn)
{
	struct pk__elf *e;
	struct pk__elf_seg segs[8];
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };
	uint64_t off, value, base = 0x555555554000ull;
	int nr;

	assert_int_equal(pk__elf_open(file, &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, fn, &off, &value), 0);
	nr = pk__elf_load_segments(e, segs, 8);
	pk__elf_close(e);
	for (int i = 0; i < nr && i < 8; i++) {
		uint64_t start = (base + segs[i].vaddr) & ~0xfffull, pgoff = segs[i].offset & ~0xfffull;

		if (!(segs[i].flags & 1))	/* PF_X */
			continue;
		r.mmap2 = (struct pk_rec_mmap2){ .pid = 7, .tid = 7, .addr = start,
						 .len = segs[i].filesz + 0x1000, .pgoff = pgoff,
						 .prot = PROT_READ | PROT_EXEC, .filename = file };
		assert_int_equal(pk_maps_process(m, &r), 0);
		return start + (off - pgoff);
	}
	fail_msg("%s has no executable segment", file);
	return 0;
}

static int at(struct pk_maps *m, uint64_t ip, struct pk_location *loc, struct pk_srcline *sl)
{
	*loc = (struct pk_location){ .size = sizeof(*loc) };
	*sl = (struct pk_srcline){ .size = sizeof(*sl) };
	if (pk_maps_resolve(m, 7, ip, PERF_RECORD_MISC_USER, loc) < 0)
		return -ESRCH;
	return pk_maps_srcline(m, loc, sl);
}

static void spin_lines_and_inlines(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk_srcline sl, again;
	uint64_t ip;
	size_t nr = 0, chains = 0;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_fn(m, paths[0], "spin");
	for (;; ip++) {
		assert_int_equal(at(m, ip, &loc, &sl), 0);
		if (!loc.sym || strcmp(loc.sym, "spin"))
			break;
		nr++;
		assert_true(ends_with(sl.file, "inline-target.c"));
		assert_in_range(sl.line, 14, 37);	/* mix(), step() or spin() */
		assert_true(sl.nr_frames >= 1);
		assert_string_equal(sl.frames[sl.nr_frames - 1].func, "spin");
		assert_ptr_equal(sl.frames[0].file, sl.file);
		assert_int_equal(sl.frames[0].line, sl.line);
		if (sl.nr_frames == 3) {	/* mix() inlined in step() inlined in spin() */
			chains++;
			assert_string_equal(sl.frames[0].func, "mix");
			assert_in_range(sl.line, 16, 19);
			assert_string_equal(sl.frames[1].func, "step");
			assert_int_equal(sl.frames[1].line, 24);
			assert_string_equal(sl.frames[2].func, "spin");
			assert_int_equal(sl.frames[2].line, 34);
			assert_true(ends_with(sl.frames[2].file, "inline-target.c"));
		}
		/* The second answer is the cached one. */
		again = (struct pk_srcline){ .size = sizeof(again) };
		assert_int_equal(pk_maps_srcline(m, &loc, &again), 0);
		assert_ptr_equal(again.file, sl.file);
		assert_ptr_equal(again.frames, sl.frames);
	}
	assert_true(nr > 16);
	assert_true(chains > 0);
	pk_maps_free(m);
}

static void no_dwarf_no_lines(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk_srcline sl;
	uint64_t ip;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_fn(m, paths[1], "spin");
	assert_int_equal(at(m, ip + 4, &loc, &sl), -ENODATA);
	assert_string_equal(loc.sym, "spin");	/* the symbols are there */
	assert_null(sl.file);
	assert_int_equal(sl.nr_frames, 0);
	/* addr2line's "??:?": strip --strip-debug drops the STT_FILE symbols */
	assert_null(sl.file_addr2line);
	pk_maps_free(m);
}

/* Where no line exists, addr2line's fallback to the symbol table: a local
 * function after an unnamed STT_FILE is ":?" (file ""), a global one after
 * later STT_FILEs "??:?" (no file); perf prints ":0" and "??:0". */
static void symtab_files(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk_srcline sl;
	uint64_t ip;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_fn(m, paths[2], "blank_spin");
	assert_int_equal(at(m, ip + 4, &loc, &sl), -ENODATA);
	assert_string_equal(loc.sym, "blank_spin");
	assert_non_null(sl.file_addr2line);
	assert_string_equal(sl.file_addr2line, "");
	assert_null(sl.file);
	ip = map_fn(m, paths[2], "srcline_blank");
	assert_int_equal(at(m, ip + 4, &loc, &sl), -ENODATA);
	assert_string_equal(loc.sym, "srcline_blank");
	assert_null(sl.file_addr2line);
	pk_maps_free(m);
}

/* srcline-files.s: rows still carrying the initial file register (1) are
 * file 0's for addr2line 2.40, rows after an explicit set_file 1 file 1's. */
static void dwarf5_file_zero(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk_srcline sl;
	uint64_t ip;
	unsigned int seen = 0;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_fn(m, paths[2], "srcline_files");
	for (;; ip++) {
		int err = at(m, ip, &loc, &sl);

		if (!loc.sym || strcmp(loc.sym, "srcline_files"))
			break;
		if (err == -ENODATA && (seen & 4))
			continue;	/* the padding after the sequence's end */
		assert_int_equal(err, 0);
		switch (sl.line) {
		case 10:
		case 11:	/* libdw: file 1; addr2line: file 0 */
			assert_true(ends_with(sl.file, "/srcline-files.h"));
			assert_true(ends_with(sl.file_addr2line, "/srcline-files.c"));
			seen |= 1;
			break;
		case 20:
			assert_true(ends_with(sl.file_addr2line, "/srcline-other.h"));
			seen |= 2;
			break;
		case 30:	/* after DW_LNS_set_file 1: file 1 for both */
			assert_true(ends_with(sl.file, "/srcline-files.h"));
			assert_true(ends_with(sl.file_addr2line, "/srcline-files.h"));
			seen |= 4;
			break;
		default:
			fail_msg("line %u", sl.line);
		}
	}
	assert_int_equal(seen, 7);
	pk_maps_free(m);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int srcline_of(struct pk_maps *m, uint32_t pid, uint64_t ip, struct pk_srcline *sl)
{
	struct pk_location loc = { .size = sizeof(loc) };

	*sl = (struct pk_srcline){ .size = sizeof(*sl) };
	if (pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_USER, &loc) < 0)
		return -ESRCH;
	return pk_maps_srcline(m, &loc, sl);
}

#define ASKED 3000

static void same_answer(const struct pk_srcline *a, const struct pk_srcline *b, int rc)
{
	if (rc == -ENODATA)
		assert_true(same_str(a->file_addr2line, b->file_addr2line));
	if (rc)
		return;
	assert_string_equal(a->file, b->file);
	assert_true(same_str(a->file_addr2line, b->file_addr2line));
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->nr_frames, b->nr_frames);
	for (size_t f = 0; f < a->nr_frames; f++) {
		assert_true(same_str(a->frames[f].func, b->frames[f].func));
		assert_true(same_str(a->frames[f].file, b->frames[f].file));
		assert_int_equal(a->frames[f].line, b->frames[f].line);
	}
}

/* The compressed copy is asked the addresses with lines first (each in a
 * unit .debug_aranges names, so its units are inflated a part at a time),
 * then those without (which make it read every unit, as libdw would). */
static void compressed_same_answers(void **state)
{
	static struct pk_srcline plain[ASKED], kept[ASKED];
	static int rcs[ASKED];
	struct pk_maps *m;
	uint64_t start, len, zstart, zlen;
	size_t lines = 0, inlined = 0;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	map_exec(m, 7, paths[3], &start, &len);
	map_exec(m, 8, paths[4], &zstart, &zlen);
	assert_true(start == zstart && len == zlen);
	for (size_t i = 0; i < ASKED; i++) {
		rcs[i] = srcline_of(m, 7, start + i * (len / ASKED), &plain[i]);
		lines += !rcs[i];
		inlined += !rcs[i] && plain[i].nr_frames > 1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < ASKED; k++) {
			size_t i = k * 1009 % ASKED;	/* scattered: 1009 is prime to ASKED */
			struct pk_srcline z;

			if ((rcs[i] == 0) == (pass == 0)) {
				assert_int_equal(srcline_of(m, 8, start + i * (len / ASKED), &z), rcs[i]);
				same_answer(&plain[i], &z, rcs[i]);
				kept[i] = z;
			}
		}
	/* The answers given before the images that ended theirs (each new
	 * one ends the last) still hold their names. */
	for (size_t i = 0; i < ASKED; i++)
		same_answer(&plain[i], &kept[i], rcs[i]);
	/* The binary's own code is built with -g (650 lines, 300 of them in
	 * inlined code, when this was written; the rest is static libraries'). */
	assert_true(lines > ASKED / 30);
	assert_true(inlined > ASKED / 300);
	pk_maps_free(m);
}

/* The compressed copy's handle grown through several images by addresses
 * asked unit after unit (the plain file's libdw says which): each handle
 * holds the unit asked for at its offset, whatever the builds before it
 * (each new image ends the last: ASan's leak check sees one not ended;
 * every image was kept before, about twice the last in all). */
struct by_unit {
	uint64_t unit, addr;
};

static int by_unit_cmp(const void *a, const void *b)
{
	const struct by_unit *x = a, *y = b;

	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

static void one_image_held(void **state)
{
	static struct by_unit asked[ASKED];
	struct pk_maps *m;
	uint64_t start, len;
	struct pk__zdebug *z;
	size_t n = 0;
	int fd = open(paths[4], O_RDONLY | O_CLOEXEC), pfd = open(paths[3], O_RDONLY | O_CLOEXEC);
	Dwarf *plain;

	(void)state;
	assert_true(fd >= 0 && pfd >= 0);
	assert_non_null(plain = dwarf_begin(pfd, DWARF_C_READ));
	assert_int_equal(pk_maps_new(&m), 0);
	map_exec(m, 7, paths[3], &start, &len);
	for (size_t i = 0; i < ASKED; i++) {
		struct pk_location loc = { .size = sizeof(loc) };
		Dwarf_Die cu;

		if (pk_maps_resolve(m, 7, start + i * (len / ASKED), PERF_RECORD_MISC_USER, &loc) == 0 &&
		    dwarf_addrdie(plain, loc.addr, &cu))
			asked[n++] = (struct by_unit){ dwarf_dieoffset(&cu), loc.addr };
	}
	assert_true(n > ASKED / 30);
	qsort(asked, n, sizeof(asked[0]), by_unit_cmp);	/* each unit past the last image's */
	pk__zdebug_set_first_info(4096);	/* more images: each at least twice the last */
	assert_non_null(z = pk__zdebug_open(fd));
	for (size_t i = 0; i < n; i++) {
		Dwarf *dw = pk__zdebug_dwarf(z, asked[i].addr);
		Dwarf_Die cu;

		/* the handle made for it holds the unit, where the plain file has it */
		assert_non_null(dw);
		assert_non_null(dwarf_addrdie(dw, asked[i].addr, &cu));
		assert_int_equal(dwarf_dieoffset(&cu), asked[i].unit);
	}
	assert_true(pk__zdebug_builds(z) > 2);
	pk__zdebug_set_first_info(64u << 10);
	pk__zdebug_free(z);
	dwarf_end(plain);
	close(fd);
	close(pfd);
	pk_maps_free(m);
}

/* Out of memory at each of the allocations a compressed file's first
 * answer makes in turn (the seam fails the nth): -ENOMEM or the plain
 * file's answer, and asked again, the plain file's answer (an answer whose
 * names could not be copied is not kept half made). */
static void compressed_out_of_memory(void **state)
{
	struct pk_srcline want, got;
	uint64_t start, len, ip = 0;
	unsigned long nth;
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	map_exec(m, 7, paths[3], &start, &len);
	for (size_t i = 0; i < ASKED && !ip; i++)	/* an address with inlined frames */
		if (!srcline_of(m, 7, start + i * (len / ASKED), &want) && want.nr_frames > 1)
			ip = start + i * (len / ASKED);
	assert_true(ip != 0);
	for (nth = 1;; nth++) {
		struct pk_location loc = { .size = sizeof(loc) };
		struct pk_maps *z;
		int rc;

		assert_int_equal(pk_maps_new(&z), 0);
		map_exec(z, 8, paths[4], &start, &len);
		assert_int_equal(pk_maps_resolve(z, 8, ip, PERF_RECORD_MISC_USER, &loc), 0);
		got = (struct pk_srcline){ .size = sizeof(got) };
		pk__alloc_fail_nth(nth);	/* the DSO is loaded: the source line's own allocations */
		rc = pk_maps_srcline(z, &loc, &got);
		if (pk__alloc_fail_nth(0)) {	/* the nth was never reached */
			assert_int_equal(rc, 0);
			same_answer(&want, &got, 0);
			pk_maps_free(z);
			break;
		}
		assert_true(rc == 0 || rc == -ENOMEM);
		if (rc == 0)
			same_answer(&want, &got, 0);
		assert_int_equal(srcline_of(z, 8, ip, &got), 0);
		same_answer(&want, &got, 0);
		pk_maps_free(z);
	}
	assert_true(nth > 3);
	pk_maps_free(m);
}

/* An address in no unit .debug_aranges names takes the whole file: its
 * image is the last, and the file's mapping (every debug section of the
 * copy is compressed) is let go; the whole image answers as the plain
 * file's DWARF does. */
static void whole_image_lets_go(void **state)
{
	int fd = open(paths[4], O_RDONLY | O_CLOEXEC), pfd = open(paths[3], O_RDONLY | O_CLOEXEC);
	struct pk__zdebug *z;
	Dwarf *plain, *dw;

	(void)state;
	assert_true(fd >= 0 && pfd >= 0);
	assert_non_null(plain = dwarf_begin(pfd, DWARF_C_READ));
	assert_non_null(z = pk__zdebug_open(fd));
	assert_true(proc_mapped(paths[4]));
	assert_non_null(dw = pk__zdebug_dwarf(z, 0));	/* in no unit */
	assert_false(proc_mapped(paths[4]));
	assert_true(same_units(plain, dw) > 10);
	assert_ptr_equal(pk__zdebug_dwarf(z, 0), dw);
	pk__zdebug_free(z);
	dwarf_end(plain);
	close(fd);
	close(pfd);
}

/* A compressed copy whose unit past the first image claims a 64-bit
 * length that wraps when the header is added (zdebug-craft.py): asked the
 * addresses with lines in the binary first (each in a unit .debug_aranges
 * names, so units are walked a part at a time, past the bad one), then
 * the rest; each answer is one the contract allows (the walk hung). */
static void wrapping_unit_length(void **state)
{
	static int rcs[ASKED];
	struct pk_maps *m;
	uint64_t start, len, wstart, wlen;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	map_exec(m, 7, paths[3], &start, &len);
	map_exec(m, 9, paths[6], &wstart, &wlen);
	assert_true(start == wstart && len == wlen);
	for (size_t i = 0; i < ASKED; i++) {
		struct pk_srcline sl;

		rcs[i] = srcline_of(m, 7, start + i * (len / ASKED), &sl);
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < ASKED; k++) {
			size_t i = k * 1009 % ASKED;
			struct pk_srcline sl;
			int rc;

			if ((rcs[i] == 0) != (pass == 0))
				continue;
			rc = srcline_of(m, 9, start + i * (len / ASKED), &sl);
			assert_true(rc == 0 || rc == -ENODATA || rc == -ENOENT);
		}
	pk_maps_free(m);
}

/* A copy of the compressed file in a fresh temporary file, its section
 * `name`'s compression header claiming `delta` more bytes; its fd. */
static int copy_claiming(const char *name, int64_t delta, char *path, size_t len)
{
	int in = open(paths[4], O_RDONLY | O_CLOEXEC), out = tmp_mkstemp(path, len, "zdebug-claim");
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	char buf[65536];
	ssize_t n;
	Elf *e;

	assert_true(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	assert_true(elf_version(EV_CURRENT) != EV_NONE);
	assert_non_null(e = elf_begin(in, ELF_C_READ, NULL));
	assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf64_Chdr ch;

		assert_non_null(gelf_getshdr(scn, &sh));
		if (strcmp(elf_strptr(e, shstrndx, sh.sh_name), name))
			continue;
		assert_true(sh.sh_flags & SHF_COMPRESSED);
		assert_int_equal(pread(out, &ch, sizeof(ch), (off_t)sh.sh_offset), sizeof(ch));
		ch.ch_size += (uint64_t)delta;
		assert_int_equal(pwrite(out, &ch, sizeof(ch), (off_t)sh.sh_offset), sizeof(ch));
		break;
	}
	assert_non_null(scn);
	elf_end(e);
	close(in);
	return out;
}

/* .debug_str is inflated whole at the open, .debug_info lazily and then
 * whole in the last image (an address in no unit): a stream one byte
 * short of its header or one byte past it is damage either way.  At the
 * open the file is refused (srcline then takes libdw's own reading); in
 * the last image the handle becomes libdw's own reading of the file (an
 * ELF with the file's program headers, not an image without any), or
 * none where libdw has none either. */
static void stream_length_checked(void **state)
{
	static const char *const names[] = { ".debug_str", ".debug_info" };
	char path[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < 2; i++)
		for (int64_t delta = -1; delta <= 1; delta += 2) {
			int fd = copy_claiming(names[i], delta, path, sizeof(path));
			struct pk__zdebug *z = pk__zdebug_open(fd);
			Dwarf *own, *dw;
			size_t phnum = 0;

			if (i == 0) {
				assert_null(z);
			} else {
				assert_non_null(z);
				own = dwarf_begin(fd, DWARF_C_READ);
				dw = pk__zdebug_dwarf(z, 0);
				assert_true(!own == !dw);
				if (dw) {
					assert_int_equal(elf_getphdrnum(dwarf_getelf(dw), &phnum), 0);
					assert_true(phnum > 0);
				}
				if (own)
					dwarf_end(own);
				pk__zdebug_free(z);
			}
			close(fd);
			assert_int_equal(unlink(path), 0);
		}
}

/* addr2line -f's function for the ELF address addr of file, or "". */
static void addr2line_func(const char *file, uint64_t addr, char *buf, size_t size)
{
	char cmd[4200];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "addr2line -f -e '%s' %#llx 2>/dev/null", file, (unsigned long long)addr);
	buf[0] = 0;
	if ((p = popen(cmd, "r"))) {
		if (!fgets(buf, (int)size, p))
			buf[0] = 0;
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = 0;
}

static void aliases_as_addr2line(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk_srcline sl;
	struct pk__elf *e;
	uint64_t ip, off, value;
	char want[256];

	(void)state;
	if (!*paths[5])
		skip();
	assert_int_equal(pk__elf_open(paths[5], &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, "alias_first", &off, &value), 0);
	pk__elf_close(e);
	addr2line_func(paths[5], value + 1, want, sizeof(want));
	if (!*want)
		skip();		/* no addr2line */
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_fn(m, paths[5], "alias_first") + 1;
	assert_int_equal(at(m, ip, &loc, &sl), 0);
	assert_int_equal(sl.nr_frames, 1);
	assert_string_equal(sl.frames[0].func, want);
	assert_true(ends_with(sl.file, "alias-workload.S"));
	pk_maps_free(m);
}

static void nothing_to_read(void **state)
{
	struct pk_maps *m;
	struct pk_location loc = { .size = sizeof(loc) };
	struct pk_srcline sl = { .size = sizeof(sl) };

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	map_fn(m, paths[0], "spin");
	/* No map holds it. */
	assert_int_equal(pk_maps_resolve(m, 7, 0x1000, PERF_RECORD_MISC_USER, &loc), -ENOENT);
	assert_int_equal(pk_maps_srcline(m, &loc, &sl), -ENOENT);
	/* Structs older than this library's. */
	sl.size = sizeof(sl) - 1;
	assert_int_equal(pk_maps_srcline(m, &loc, &sl), -EINVAL);
	pk_maps_free(m);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spin_lines_and_inlines),
		cmocka_unit_test(no_dwarf_no_lines),
		cmocka_unit_test(nothing_to_read),
		cmocka_unit_test(symtab_files),
		cmocka_unit_test(dwarf5_file_zero),
		cmocka_unit_test(compressed_same_answers),
		cmocka_unit_test(one_image_held),
		cmocka_unit_test(whole_image_lets_go),
		cmocka_unit_test(compressed_out_of_memory),
		cmocka_unit_test(aliases_as_addr2line),
		cmocka_unit_test(wrapping_unit_length),
		cmocka_unit_test(stream_length_checked),
	};

	if (argc < 8) {
		fprintf(stderr, "usage: %s INLINE-TARGET STRIPPED-COPY NOLINE-TARGET PERFKIT COMPRESSED-COPY "
			"ALIAS-WORKLOAD WRAPPING-COPY\n", argv[0]);
		return 2;
	}
	paths = argv + 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
