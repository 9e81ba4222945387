/* SPDX-License-Identifier: MIT */
/*
 * fuzz_srcline.c - libFuzzer target for the source-line reader
 * (pk_maps_srcline: DWARF line tables and inline scopes through libdw, and
 * the ELF symbol table's STT_FILE fallback where no line row covers an
 * address).  The whole input is an ELF file, written to a memfd and mapped
 * as a process's one DSO the way the loader maps its first executable
 * PT_LOAD segment (the file from offset 0 when it has none, as an object
 * file); then every symbol's start and middle and addresses taken from the
 * input's own bytes are resolved and their source lines read, each answer
 * checked against the contract: only 0, -ENODATA, -ENOENT or -ENOMEM; a
 * line names its file, frames[0] is that file:line, at most 1024 frames,
 * every string terminated; -ENODATA has no frames; asking again gives the
 * cached answer.  A second maps asks the same addresses in the other order
 * (the cache is per DSO, so the first answer for an address is computed
 * cold in each order, the second without a build-id cache).  The first has
 * one, in a directory of the target's own: a compressed file whose image it
 * made whole is kept there (srcline-kept.c), and a third maps, when one
 * was kept, reads it back and answers from it.  The input is also kept as
 * the whole image of a file of its own (a sound header before any bytes)
 * and read back through libdw: the kept file's own checks decide what
 * libelf and libdw see.  The directory is emptied after each input.  A
 * zlib-compressed file's units are inflated from
 * a first image of 64 bytes, not 64 KiB, so that the lazy path
 * (srcline-zdebug.c) is taken by inputs this small.  fuzz_replay_srcline
 * runs fuzz/corpus/srcline.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char cache[4096];	/* the build-id cache, under $TMPDIR, made once */

/* Remove what is in directory `path` (files only), and it too when `all`. */
static void empty(const char *path, bool all)
{
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	if (all)
		rmdir(path);
}

static void kept_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/.perfkit-dwarf", cache);
}

static void remove_cache(void)
{
	char kept[4200];

	kept_path(kept, sizeof(kept));
	empty(kept, true);
	rmdir(cache);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	/* a compressed file's first image of at least 64 bytes of units, not
	 * 64 KiB: inputs this small grow their images a unit at a time */
	pk__zdebug_set_first_info(64);
	snprintf(cache, sizeof(cache), "%s/fuzz-srcline-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(cache))
		snprintf(cache, sizeof(cache), "/nonexistent");	/* nothing kept */
	else
		atexit(remove_cache);
	return 0;
}

#define MAX_ADDRS 512
#define BASE 0x555555554000ull

static volatile size_t sink;

/* The addresses to ask about (file vaddrs) and how the mapping places them. */
struct probe {
	uint64_t addrs[MAX_ADDRS];
	size_t nr;
	uint64_t start, len, pgoff;	/* the mapping */
	uint64_t vaddr, offset;		/* its segment: vaddr at file offset */
};

static void add(struct probe *p, uint64_t addr)
{
	if (p->nr < MAX_ADDRS)
		p->addrs[p->nr++] = addr;
}

static int add_sym(void *arg, const struct pk__elf_sym *s)
{
	struct probe *p = arg;

	add(p, s->value);
	if (s->size > 1)
		add(p, s->value + s->size / 2);
	return p->nr >= MAX_ADDRS - 16;	/* room left for the raw ones */
}

/* The mapping of the first executable segment, the symbols' addresses. */
static void layout(const uint8_t *data, size_t size, struct probe *p)
{
	struct pk__elf *e;
	struct pk__elf_seg segs[16];
	int nr;

	p->start = BASE;
	p->len = (size + 0xfff) & ~0xfffull;
	if (pk__elf_open_mem(data, size, "fuzz", &e) < 0)
		return;
	nr = pk__elf_load_segments(e, segs, 16);
	for (int i = 0; i < nr && i < 16; i++) {
		if (!(segs[i].flags & 1))	/* PF_X */
			continue;
		p->pgoff = segs[i].offset & ~0xfffull;
		p->start = (BASE + segs[i].vaddr) & ~0xfffull;
		p->len = (segs[i].filesz % (1ull << 32)) + 0x1000;
		p->vaddr = segs[i].vaddr;
		p->offset = segs[i].offset;
		break;
	}
	pk__elf_symbols(e, add_sym, p);
	pk__elf_close(e);
}

/* The ip at which file vaddr addr is mapped (wrapping: a symbol outside
 * the segment gives an ip outside the mapping, which resolves to nothing). */
static uint64_t ip_of(const struct probe *p, uint64_t addr)
{
	return p->start + (addr - p->vaddr) + (p->offset - p->pgoff);
}

static void check_frames(const struct pk_srcline *a)
{
	if (a->nr_frames > 1024 || (a->nr_frames && !a->frames))
		abort();
	for (size_t i = 0; i < a->nr_frames; i++) {
		const struct pk_srcline_frame *f = &a->frames[i];

		sink += (f->func ? strlen(f->func) : 0) + (f->file ? strlen(f->file) : 0) +
			(f->file_addr2line ? strlen(f->file_addr2line) : 0) + f->line;
	}
	if (a->nr_frames && (a->frames[0].file != a->file || a->frames[0].line != a->line))
		abort();
}

/* One address: resolved, then its line asked twice. */
static void ask(struct pk_maps *m, uint64_t ip)
{
	struct pk_location loc = { .size = sizeof(loc) };
	struct pk_srcline a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	int err, again;

	if (pk_maps_resolve(m, 1, ip, PERF_RECORD_MISC_USER, &loc) < 0)
		return;
	if (!loc.dso || (loc.sym && loc.symoff != loc.addr - loc.sym_start))
		abort();
	err = pk_maps_srcline(m, &loc, &a);
	if (err == -ENOMEM)
		return;
	again = pk_maps_srcline(m, &loc, &b);
	if (again != err || b.file != a.file || b.line != a.line || b.nr_frames != a.nr_frames ||
	    b.frames != a.frames || b.file_addr2line != a.file_addr2line)
		abort();
	if (err == -ENOENT || err == -ENODATA) {
		if (a.file || a.nr_frames || (err == -ENOENT && a.file_addr2line))
			abort();
		sink += a.file_addr2line ? strlen(a.file_addr2line) : 0;
		return;
	}
	if (err != 0 || !a.file || !a.file_addr2line)
		abort();
	sink += strlen(a.file) + strlen(a.file_addr2line);
	check_frames(&a);
}

static void run(const char *path, const struct probe *p, bool reverse, const char *dir)
{
	struct pk_maps *m;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };

	if (pk_maps_new(&m) < 0)
		return;
	pk_maps_set_dir(m, PK_MAPS_DIR_DEBUG, "/nonexistent");
	pk_maps_set_buildid_cache(m, dir);
	r.mmap2 = (struct pk_rec_mmap2){ .pid = 1, .tid = 1, .addr = p->start, .len = p->len,
					 .pgoff = p->pgoff, .prot = PROT_READ | PROT_EXEC,
					 .filename = path };
	pk_maps_process(m, &r);
	for (size_t i = 0; i < p->nr; i++)
		ask(m, ip_of(p, p->addrs[reverse ? p->nr - 1 - i : i]));
	pk_maps_free(m);
}

/* Whether a kept file is in the cache. */
static bool any_kept(void)
{
	char kept[4200];
	struct dirent *de;
	bool yes = false;
	DIR *d;

	kept_path(kept, sizeof(kept));
	if (!(d = opendir(kept)))
		return false;
	while (!yes && (de = readdir(d)))
		yes = de->d_name[0] != '.';
	closedir(d);
	return yes;
}

/* The input kept as the whole image of the file open at fd, and read
 * back: what libdw is handed, it reads (units, their DIEs and lines). */
static void as_kept_image(int fd, const char *path, const uint8_t *data, size_t size)
{
	struct pk__zdebug *z;
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf *dw;

	pk__zkept_write(cache, path, fd, data, size);
	if (!(z = pk__zdebug_open_kept(fd, path, cache)))
		return;
	dw = pk__zdebug_builds(z) == 1 ? pk__zdebug_dwarf(z, 0) : NULL;	/* read back */
	for (int n = 0; dw && n < 64 && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; n++) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nr;

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			sink += dwarf_diename(&cu) ? strlen(dwarf_diename(&cu)) : 0;
			if (dwarf_getsrclines(&cu, &lines, &nr) == 0)
				sink += nr;
		}
		off = next;
	}
	pk__zdebug_free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct probe p;
	char path[64], kept[4200];
	int fd;

	memset(&p, 0, sizeof(p));
	layout(data, size, &p);
	/* a few raw offsets from the input's last bytes, inside the mapping */
	for (size_t i = 0; i < 8 && size >= 8; i++) {
		uint64_t v;

		memcpy(&v, data + size - 8 - (i * 13) % (size - 7), 8);
		add(&p, p.vaddr + v % p.len);
	}
	if ((fd = memfd_create("fuzz-srcline", MFD_CLOEXEC)) < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		run(path, &p, false, cache);
		run(path, &p, true, "/nonexistent");
		if (any_kept())
			run(path, &p, false, cache);
		if (size >= 64)
			as_kept_image(fd, path, data, size);
	}
	close(fd);
	kept_path(kept, sizeof(kept));
	empty(kept, false);
	return 0;
}
