/* SPDX-License-Identifier: MIT */
/*
 * fuzz_symbols.c - libFuzzer target for what the symbols layer reads from
 * outside.  The first byte picks one: 'p' a JIT's perf-PID.map file, 'k'
 * a kallsyms file for a kernel and a module map (an odd-sized one for the
 * kernel alone, its lines indexed, and then its sparse index checked
 * against a table of every line, mapped or read), 'e' an ELF file mapped
 * as a DSO (symbol tables, PLT entries, PT_LOAD segments, debuglink,
 * build-id), 'i' a kallsyms file's scan kept beside it and read back
 * after the input's edits (kept_index), 'd' a name for the demangler, 'b' a perf.data BUILD_ID
 * feature section handed to the maps.  Each is loaded through pk_maps_resolve as a
 * report would, then addresses taken from the input are resolved; every
 * answer is checked against the contract (a symbol holds its address,
 * names are terminated), and so is the DWARF line reader's (pk_maps_srcline:
 * file, line and inline frames) for every address resolved.  fuzz_replay_symbols runs fuzz/corpus/symbols.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfkit.h"
#include "host/host.h"
#include "symbols/kindex-cache.h"
#include "symbols/symbols.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static volatile size_t sink;

static void mmap2(struct pk_maps *m, uint32_t pid, uint64_t addr, uint64_t len, uint32_t prot,
		  const char *file)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };

	r.mmap2 = (struct pk_rec_mmap2){ .pid = pid, .tid = pid, .addr = addr, .len = len,
					 .prot = prot, .filename = file };
	pk_maps_process(m, &r);
}

/* The DWARF line reader on the same location: a line found names its
 * file, every frame's strings are terminated, and asking again gives the
 * cached answer, the same. */
static void check_srcline(struct pk_maps *m, const struct pk_location *loc)
{
	struct pk_srcline a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	int err = pk_maps_srcline(m, loc, &a);

	if (err == -ENOENT || err == -ENODATA || err == -ENOMEM)
		return;
	if (err != 0 || !a.file || (a.nr_frames && !a.frames) || pk_maps_srcline(m, loc, &b) != 0 ||
	    b.file != a.file || b.line != a.line || b.nr_frames != a.nr_frames)
		abort();
	sink += strlen(a.file);
	for (size_t i = 0; i < a.nr_frames; i++)
		sink += (a.frames[i].func ? strlen(a.frames[i].func) : 0) +
			(a.frames[i].file ? strlen(a.frames[i].file) : 0) + a.frames[i].line;
}

/* Resolve addresses spread over [base, base + span) and from the input. */
static void probe(struct pk_maps *m, uint32_t pid, uint16_t cpumode, uint64_t base, uint64_t span,
		  const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < 64; i++) {
		struct pk_location loc = { .size = sizeof(loc) };
		uint64_t ip = base + span / 64 * i;

		if (i >= 32 && size >= 8) {
			uint64_t v;

			memcpy(&v, data + (i * 7) % (size - 7), 8);
			ip = base + v % (span ? span : 1);
		}
		if (pk_maps_resolve(m, pid, ip, cpumode, &loc) < 0)
			continue;
		if (!loc.dso || (loc.sym && loc.symoff != loc.addr - loc.sym_start))
			abort();
		sink += strlen(loc.dso->name) + (loc.sym ? strlen(loc.sym) : 0);
		check_srcline(m, &loc);
	}
}

/* The input as a file under a memfd; its path into path. */
static int as_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* perf-PID.map through the loader pk_maps_resolve uses (the file name is
 * the pid's, so the loader is driven directly), then lookups. */
static void perf_map(const uint8_t *data, size_t size)
{
	char path[64];
	struct pk__symtab *t;
	int fd = as_file(data, size, path, sizeof(path));

	if (fd < 0)
		return;
	if (pk__perfmap_load(path, &t) == 0) {
		for (size_t i = 0; i + 8 <= size; i += 8) {
			uint64_t v;
			const struct pk__sym *s;

			memcpy(&v, data + i, 8);
			if ((s = pk__symtab_find(t, v)) && (v < s->start || v >= s->end || !s->name[0]))
				abort();
		}
		sink += pk__symtab_nr(t);
		pk__symtab_free(t);
	}
	close(fd);
}

/* perf's filter as kernel.c applies it, into a table of every line. */
static int to_table(void *arg, const struct pk__host_ksym *s)
{
	char t = (char)(s->type & ~0x20);

	if (s->module || (t != 'T' && t != 'W' && t != 'D' && t != 'B') || s->name[0] == '$')
		return 0;
	return pk__symtab_add_ref(arg, s->addr, 0, s->name,
				  t == 'W' ? STB_WEAK : s->type == t ? STB_GLOBAL : STB_LOCAL) < 0;
}

/* The two answers for addr, the index's and the table's: the same. */
static void same_answer(struct pk__symtab *t, struct pk__symtab *x, uint64_t addr)
{
	const struct pk__sym *a = pk__symtab_find(t, addr), *b = pk__symtab_find(x, addr);

	if (!a != !b || (a && (a->start != b->start || a->end != b->end || strcmp(a->name, b->name) ||
			       a->binding != b->binding)))
		abort();
}

/* At each line's address of the text and around it: the same answer
 * from the table t and the index x (same), or from x a symbol whose
 * name is terminated, or none. */
static void lookups(struct pk__symtab *t, struct pk__symtab *x, const uint8_t *data, size_t size, bool same)
{
	for (size_t i = 0, n = 0; i < size && n < 256; n++) {
		char line[24] = { 0 };
		const struct pk__sym *b;
		uint64_t a;

		memcpy(line, data + i, size - i < 16 ? size - i : 16);
		a = strtoull(line, NULL, 16);
		for (uint64_t d = 0; d < 3; d++) {
			if (same)
				same_answer(t, x, a - 1 + d);
			else if ((b = pk__symtab_find(x, a - 1 + d)) != NULL)
				sink += strlen(b->name);
		}
		while (i < size && data[i++] != '\n')
			;
	}
}

/* The file's kernel lines through the sparse index (pk__kindex_scan)
 * and through a table of every line: the same errors, and at each line's
 * address and around it the same symbol. */
static void index_as_table(const char *path, const uint8_t *data, size_t size)
{
	struct pk__symtab *t = NULL, *x = NULL;
	struct pk__kindex *idx = NULL;
	char *text = NULL;
	uint64_t tx;
	int r1, r2;

	if (pk__symtab_new(&t) || pk__symtab_new(&x) || pk__kindex_new(&idx))
		goto out;
	r1 = pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, to_table, t, &text);
	r2 = pk__kindex_scan(idx, path, size & 2, false, &tx);
	if ((r1 == -EACCES) != (r2 == -EACCES))
		abort();
	pk__symtab_own(t, text);
	if (r1 || r2 || !pk__kindex_in_order(idx) || pk__kindex_finish(idx))
		goto out;
	pk__symtab_finish(t, true);
	pk__symtab_set_index(x, idx);
	idx = NULL;
	lookups(t, x, data, size, true);
out:
	pk__kindex_free(idx);
	pk__symtab_free(t);
	pk__symtab_free(x);
}

static void kallsyms(const uint8_t *data, size_t size)
{
	char path[64];
	struct pk_maps *m;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };
	int fd = as_file(data, size, path, sizeof(path));

	if (fd < 0)
		return;
	if (pk_maps_new(&m) == 0) {
		pk_maps_set_dir(m, PK_MAPS_DIR_KALLSYMS, path);
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffff80000000,
					       .len = 0x40000000, .pgoff = 0xffffffff81000000,
					       .filename = "[kernel.kallsyms]_text" };
		pk_maps_process(m, &r);
		if (size & 1) {	/* no module: the kernel's lines indexed */
			probe(m, 1, PERF_RECORD_MISC_KERNEL, 0xffffffff80000000, 0x41000000, data, size);
			index_as_table(path, data, size);
			pk_maps_free(m);
			close(fd);
			return;
		}
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffffc0000000,
					       .len = 0x1000000, .filename = "/lib/modules/x/m.ko" };
		pk_maps_process(m, &r);
		probe(m, 1, PERF_RECORD_MISC_KERNEL, 0xffffffff80000000, 0x41000000, data, size);
		pk_maps_free(m);
	}
	close(fd);
}

static char kdir[4096];	/* kept_index's directory under $TMPDIR, made once */

static void remove_kdir(void)
{
	rmdir(kdir);
}

static bool have_kdir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (kdir[0])
		return true;
	snprintf(kdir, sizeof(kdir), "%s/fuzz-kindex-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(kdir)) {
		kdir[0] = '\0';
		return false;
	}
	atexit(remove_kdir);
	return true;
}

static bool write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(p, 1, n, f) == n;

	return f && !fclose(f) && ok;
}

/* The kept file at ipath changed by edits (3 bytes each: a u16 offset
 * and a byte xor-ed in there); flags bit 1: cut at the last edit's
 * offset; bit 0: its checksum made right again. */
static void edit_kept(const char *ipath, const uint8_t *e, size_t n, uint8_t flags)
{
	unsigned char *buf = malloc(1 << 20);
	FILE *f = fopen(ipath, "rb");
	size_t len = 0, last = SIZE_MAX;

	if (f && buf)
		len = fread(buf, 1, 1 << 20, f);
	if (f)
		fclose(f);
	for (size_t i = 0; buf && i + 3 <= n; i += 3) {
		uint16_t off;

		memcpy(&off, e + i, 2);
		if (off < len) {
			buf[off] ^= e[i + 2];
			last = off;
		}
	}
	if ((flags & 2) && last < len)
		len = last;
	if (flags & 1)
		pk__kindex_cache_reseal(buf, len);
	if (buf)
		write_file(ipath, buf, len);
	free(buf);
}

/* The index of path scanned with its scan kept beside it; *err the scan's. */
static struct pk__kindex *kept_scan(const char *path, int *err)
{
	struct pk__kindex *idx;
	uint64_t tx;

	*err = -ENOMEM;
	if (pk__kindex_new(&idx))
		return NULL;
	*err = pk__kindex_scan(idx, path, true, true, &tx);
	return idx;
}

/* 'i': a kallsyms text (a u16 length, a flag byte, the text) written to
 * a directory of ours and scanned with the scan kept beside it; the kept
 * file changed by the rest of the input (edit_kept) and scanned again.
 * Unchanged, it is read back and answers as a table of every line does;
 * changed, what it answers is a terminated name or none. */
static void kept_index(const uint8_t *data, size_t size)
{
	char path[4200], ipath[4300], *text = NULL;
	struct pk__symtab *t = NULL, *x = NULL;
	struct pk__kindex *idx;
	bool same;
	uint16_t n;
	int err;

	if (size < 3 || !have_kdir())
		return;
	memcpy(&n, data, 2);
	n = n > size - 3 ? (uint16_t)(size - 3) : n;
	same = size - 3 == n;
	snprintf(path, sizeof(path), "%s/kallsyms", kdir);
	snprintf(ipath, sizeof(ipath), "%s%s", path, PK__KINDEX_CACHE_SUFFIX);
	unlink(ipath);
	if (!write_file(path, data + 3, n))
		return;
	pk__kindex_free(kept_scan(path, &err));
	if (err)
		goto out;
	edit_kept(ipath, data + 3 + n, size - 3 - n, data[2]);
	idx = kept_scan(path, &err);
	if (same && (err || (n && data[2 + n] == '\n' && !pk__kindex_from_cache(idx))))
		abort();	/* unchanged: read back, as the scan was */
	if (!err && !pk__symtab_new(&t) && !pk__symtab_new(&x) && pk__kindex_in_order(idx) &&
	    !pk__kindex_finish(idx) &&
	    !pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, to_table, t, &text)) {
		pk__symtab_own(t, text);
		text = NULL;
		pk__symtab_finish(t, true);
		pk__symtab_set_index(x, idx);
		idx = NULL;
		lookups(t, x, data + 3, n, same);
	}
	free(text);
	pk__kindex_free(idx);
	pk__symtab_free(t);
	pk__symtab_free(x);
out:
	unlink(ipath);
	unlink(path);
}

static void elf_file(const uint8_t *data, size_t size)
{
	char path[64];
	struct pk_maps *m;
	int fd = as_file(data, size, path, sizeof(path));

	if (fd < 0)
		return;
	if (pk_maps_new(&m) == 0) {
		pk_maps_set_dir(m, PK_MAPS_DIR_DEBUG, "/nonexistent");
		mmap2(m, 1, 0x400000, 0x100000, PROT_EXEC, path);
		probe(m, 1, PERF_RECORD_MISC_USER, 0x400000, 0x100000, data, size);
		/* Closer together where a small file's text is. */
		probe(m, 1, PERF_RECORD_MISC_USER, 0x400000, 0x4000, data, size);
		pk_maps_free(m);
	}
	close(fd);
}

static void demangle(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1), buf[512];
	const char *out;

	if (!name)
		return;
	memcpy(name, data, size);
	name[size] = '\0';
	out = pk__demangle(name, buf, sizeof(buf));
	if (out && (out != buf || strnlen(buf, sizeof(buf)) == sizeof(buf)))
		abort();
	free(name);
}

/* A BUILD_ID section: never more DSOs than entries of the smallest size,
 * every build-id 1 to 20 bytes, every name terminated. */
static void build_ids(const uint8_t *data, size_t size)
{
	struct pk_maps *m;
	int n;

	if (pk_maps_new(&m) < 0)
		return;
	n = pk_maps_set_build_ids(m, data, size);
	if (n > 0 && (size_t)n > size / 37)
		abort();
	for (size_t i = 0; i < pk_maps_nr_dsos(m); i++) {
		const struct pk_dso *d = pk_maps_dso(m, i);

		if (!d->build_id_size || d->build_id_size > 20)
			abort();
		sink += strlen(d->name);
	}
	pk_maps_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0]) {
	case 'p':
		perf_map(data + 1, size - 1);
		break;
	case 'k':
		kallsyms(data + 1, size - 1);
		break;
	case 'i':
		kept_index(data + 1, size - 1);
		break;
	case 'e':
		elf_file(data + 1, size - 1);
		break;
	case 'd':
		demangle(data + 1, size - 1);
		break;
	case 'b':
		build_ids(data + 1, size - 1);
		break;
	default:
		break;
	}
	return 0;
}
