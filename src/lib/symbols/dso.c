/* SPDX-License-Identifier: MIT */
/*
 * dso.c - a user-space DSO's symbols, loaded once: the file is found the
 * way perf finds it (the build-id lookup hook, the build-id cache, the
 * debug directory by build-id, .gnu_debuglink next to the file, in its
 * .debug/ and under the debug directory, checked by build-id or else by
 * its CRC-32, then the file itself), one with .symtab preferred over one
 * with only .dynsym, and a file whose build-id differs from the recorded
 * one is never used; the "name@plt" entries perf 6.1 makes up for the
 * PLT of the file that runs; the vDSO from this process's own image when
 * the build-ids match, else from the cache; perf-PID.map for JIT code;
 * and the file the unwinder reads instead of a rebuilt one (for the vDSO:
 * the cache's copy, else this process's image in a memfd).  Under a
 * symfs root (pk_maps_set_symfs) every system path is looked for below
 * it, as perf 6.1's dso__read_binary_type_filename joins them, and the
 * running vDSO image is not used.
 */
#include "elf/elf.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SEGS 16

struct candidate {
	struct pk__elf *elf;
	bool symtab;
	char runtime[PATH_MAX];	/* the first file with a real .dynsym, or "":
				 * where perf 6.1 takes the PLT entries from */
};

/* Whether a file's build-id agrees with the DSO's recorded one (a DSO
 * with none recorded takes any file, as perf does). */
static bool same_build_id(const struct pk__dso *d, struct pk__elf *e, bool *mismatch)
{
	uint8_t id[20];
	int n;

	if (!d->pub.build_id_size)
		return true;
	n = pk__elf_build_id(e, id);
	if (n == (int)d->pub.build_id_size && !memcmp(id, d->pub.build_id, (size_t)n))
		return true;
	*mismatch = true;
	return false;
}

/* A candidate is read only when it is a regular file: a name that leads
 * to a FIFO, a device or a process's pipe (a .gnu_debuglink of "0" next to
 * /proc/self/fd/N; fuzz_srcline) would block or never end. */
static bool regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Try one path: keep it in *best when it is better than what is there
 * (a .symtab beats a .dynsym; otherwise the first found stays), and note
 * it as the runtime file when it is the first with a real .dynsym. */

static void consider(const struct pk__dso *d, const char *path, struct candidate *best,
		     bool *mismatch)
{
	struct pk__elf *e;
	bool symtab;

	if ((best->symtab && best->runtime[0]) || !regular(path) || pk__elf_open(path, &e) < 0)
		return;
	if (!same_build_id(d, e, mismatch)) {
		pk__elf_close(e);
		return;
	}
	if (!best->runtime[0] && pk__elf_has_dynsym(e))
		snprintf(best->runtime, sizeof(best->runtime), "%s", path);
	symtab = pk__elf_has_symtab(e);
	if (best->symtab || (best->elf && !symtab)) {
		pk__elf_close(e);
		return;
	}
	pk__elf_close(best->elf);
	best->elf = e;
	best->symtab = symtab;
}

const char *pk__symfs_path(const struct pk__sym_dirs *dirs, const char *path, char *buf,
			   size_t len)
{
	if (!dirs->symfs)
		return path;
	return snprintf(buf, len, "%s/%s", dirs->symfs, path) < (int)len ? buf : NULL;
}

void pk__debug_build_id_path(const uint8_t *id, size_t size, const char *debug, char *path, size_t len)
{
	int n = snprintf(path, len, "%s/.build-id/%02x/", debug, id[0]);

	for (size_t i = 1; i < size && n > 0 && (size_t)n + 3 < len; i++)
		n += snprintf(path + n, len - (size_t)n, "%02x", id[i]);
	if (n > 0 && (size_t)n + 7 < len)
		snprintf(path + n, len - (size_t)n, ".debug");
}

/* What decides whether a file found by .gnu_debuglink belongs to the DSO. */
struct link {
	uint32_t crc;		/* the CRC-32 the link carries */
	uint8_t id[20];		/* the mapped file's own build-id */
	int id_size;		/* <= 0 when it has none */
};

/* A build-id decides when there is one on both sides (consider() checks
 * a recorded one); otherwise the file's CRC-32 must be the link's, as gdb
 * checks it, so a stale debug file left next to a rebuilt one is not used. */
static bool link_matches(const struct pk__dso *d, const struct link *l, const char *path)
{
	struct pk__elf *e;
	uint8_t id[20];
	uint32_t crc;
	int n;

	if (d->pub.build_id_size)
		return true;
	if (l->id_size > 0 && pk__elf_open(path, &e) == 0) {
		n = pk__elf_build_id(e, id);
		pk__elf_close(e);
		if (n > 0)
			return n == l->id_size && !memcmp(id, l->id, (size_t)n);
	}
	return pk__elf_file_crc32(path, &crc) == 0 && crc == l->crc;
}

static void consider_link(const struct pk__dso *d, const struct link *l, const char *path,
			  struct candidate *best, bool *mismatch)
{
	if (!(best->symtab && best->runtime[0]) && regular(path) && link_matches(d, l, path))
		consider(d, path, best, mismatch);
}

/* The .gnu_debuglink places: the file's directory, its .debug/, and the
 * same directory under the debug root. */
static void by_debuglink(const struct pk__dso *d, const char *file, const char *debug, char *path,
			 size_t len, struct candidate *best, bool *mismatch)
{
	char name[NAME_MAX + 1], dir[PATH_MAX];
	struct pk__elf *e;
	const char *slash = strrchr(file, '/');
	struct link l;
	int ret;

	if (!slash || pk__elf_open(file, &e) < 0)
		return;
	ret = pk__elf_debuglink(e, name, sizeof(name), &l.crc);
	l.id_size = pk__elf_build_id(e, l.id);
	pk__elf_close(e);
	if (ret < 0 || strchr(name, '/'))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	if (snprintf(path, len, "%s/%s", dir, name) < (int)len && strcmp(path, file))
		consider_link(d, &l, path, best, mismatch);
	if (snprintf(path, len, "%s/.debug/%s", dir, name) < (int)len)
		consider_link(d, &l, path, best, mismatch);
	if (snprintf(path, len, "%s%s/%s", debug, dir, name) < (int)len)
		consider_link(d, &l, path, best, mismatch);
}

struct fill {
	struct pk__symtab *t;
	bool symtab;		/* the file has .symtab: skip its .dynsym */
	enum pk_demangle how;	/* how names are demangled */
	int err;
};

static int add_sym(void *arg, const struct pk__elf_sym *s)
{
	struct fill *f = arg;

	if (f->symtab && s->dynamic)
		return 1;	/* .symtab is complete: perf reads .dynsym only without it */
	/* demangled when looked up (pk__symtab_set_demangle) */
	f->err = pk__symtab_add(f->t, s->value, s->size, s->name, s->binding);
	if (f->err >= 0 && s->type == STT_OBJECT)
		pk__symtab_set_object(f->t);
	return f->err < 0;
}

/* The PT_LOAD segments of the file the process mapped.  A separate debug
 * file keeps the offsets and addresses but not the sizes (objcopy
 * --only-keep-debug leaves p_filesz 0): its are used, by p_memsz, only
 * when the mapped file is gone or is another build. */
static void read_segments(struct pk__dso *d, const char *mapped, struct pk__elf *symfile)
{
	struct pk__elf_seg segs[MAX_SEGS];
	struct pk__elf *e = NULL;
	bool mismatch = false;
	int nr;

	if (mapped && pk__elf_open(mapped, &e) == 0 && !same_build_id(d, e, &mismatch)) {
		pk__elf_close(e);
		e = NULL;
	}
	nr = pk__elf_load_segments(e ? e : symfile, segs, MAX_SEGS);
	pk__elf_close(e);

	if (nr > MAX_SEGS)
		nr = MAX_SEGS;
	if (nr > 0 && (d->segs = pk__calloc((size_t)nr, sizeof(*d->segs)))) {
		for (int i = 0; i < nr; i++)
			d->segs[i] = (struct pk__seg){ segs[i].offset,
						       segs[i].filesz ? segs[i].filesz : segs[i].memsz,
						       segs[i].vaddr,
						       segs[i].memsz > segs[i].filesz ? segs[i].memsz
										      : segs[i].filesz };
		d->nr_segs = (size_t)nr;
	}
}

/* Read the symbols of an opened file into d; mapped is the file the
 * process mapped (under the symfs root), or NULL. */
static void read_elf(struct pk__dso *d, const char *mapped, struct pk__elf *e, bool symtab)
{
	struct fill f = { .symtab = symtab, .how = d->demangle };

	read_segments(d, mapped, e);
	/* A file with neither table is no symbol source for perf 6.1 either
	 * (its symtab type stays NOT_FOUND: -v's '!'): its segments only. */
	if (!symtab && !pk__elf_has_dynsym(e))
		return;
	if (pk__symtab_new(&f.t) < 0)
		return;
	pk__symtab_set_demangle(f.t, f.how);
	/* Sized once: the kept symbols are at most the table's entries (out
	 * of memory here is out of memory for the table, as an add's). */
	if (pk__symtab_reserve(f.t, pk__elf_symbol_slots(e, !symtab)) == 0)
		pk__elf_symbols(e, add_sym, &f);
	else
		f.err = -ENOMEM;
	if (f.err < 0) {
		pk__symtab_free(f.t);
		return;
	}
	pk__symtab_finish(f.t, false);
	d->syms = f.t;
	d->symfile = pk__strdup(pk__elf_name(e));
}

/* The build-id cache's copy of the DSO, by its recorded build-id. */
static bool from_cache(const struct pk__dso *d, const struct pk__sym_dirs *dirs, char *path,
		       size_t len)
{
	return dirs->cache && d->pub.build_id_size &&
	       pk_buildid_cache_lookup(dirs->cache, d->pub.build_id, d->pub.build_id_size, path,
				       len) > 0;
}

static int add_plt(void *arg, const struct pk__elf_plt *p)
{
	struct fill *f = arg;
	char buf[1024], name[1024 + 8];
	const char *dm = f->how == PK_DEMANGLE_NONE ? NULL :
			 f->how == PK_DEMANGLE_PARAMS ? pk__demangle_params(p->name, buf, sizeof(buf)) :
			 pk__demangle(p->name, buf, sizeof(buf));

	snprintf(name, sizeof(name), "%s@plt", dm ? dm : p->name);
	f->err = pk__symtab_add(f->t, p->vaddr, p->size, name, STB_GLOBAL);
	return f->err < 0;
}

/* perf 6.1 names the PLT entries of the runtime file "sym@plt" once the
 * symbol file gave any symbol (dso__synthesize_plt_symbols), after it
 * fixed the others' ends: they are a table of their own here. */
static void read_plt(struct pk__dso *d, struct candidate *best)
{
	struct fill f = { .how = d->demangle };
	struct pk__elf *e = best->elf;

	if (!d->syms || !pk__symtab_nr(d->syms) || !best->runtime[0])
		return;
	if (strcmp(best->runtime, pk__elf_name(e)) && pk__elf_open(best->runtime, &e) < 0)
		return;
	if (pk__symtab_new(&f.t) == 0) {
		pk__elf_plt_entries(e, add_plt, &f);
		if (f.err < 0 || !pk__symtab_nr(f.t)) {
			pk__symtab_free(f.t);
		} else {
			pk__symtab_finish(f.t, false);
			d->plt = f.t;
		}
	}
	if (e != best->elf)
		pk__elf_close(e);
}

static void load_file(struct pk__dso *d, const struct pk__sym_dirs *dirs)
{
	struct candidate best = { 0 };
	char path[PATH_MAX], file[PATH_MAX], debug[PATH_MAX];
	const char *mapped = d->name[0] == '/' ? pk__symfs_path(dirs, d->name, file, sizeof(file))
					       : NULL;
	const char *droot = pk__symfs_path(dirs, dirs->debug, debug, sizeof(debug));
	bool mismatch = false;

	if (!droot)
		return;

	if (dirs->lookup && dirs->lookup(dirs->lookup_arg, &d->pub, path, sizeof(path)) == 0)
		consider(d, path, &best, &mismatch);
	if (from_cache(d, dirs, path, sizeof(path)))
		consider(d, path, &best, &mismatch);
	if (d->pub.build_id_size) {
		pk__debug_build_id_path(d->pub.build_id, d->pub.build_id_size, droot, path, sizeof(path));
		consider(d, path, &best, &mismatch);
	} else if (mapped) {
		/* None recorded: the file's own leads to its debug file, as in perf. */
		uint8_t id[20];
		struct pk__elf *e = NULL;
		int n = pk__elf_open(mapped, &e) < 0 ? -ENOENT : pk__elf_build_id(e, id);

		pk__elf_close(e);	/* opened with or without a build-id */
		if (n > 0) {
			pk__debug_build_id_path(id, (size_t)n, droot, path, sizeof(path));
			consider(d, path, &best, &mismatch);
		}
	}
	if (mapped) {
		/* perf 6.1's last debuglink place is the debug root (not under
		 * symfs) followed by the symfs-joined directory. */
		by_debuglink(d, mapped, dirs->debug, path, sizeof(path), &best, &mismatch);
		consider(d, mapped, &best, &mismatch);
	}
	if (best.elf) {
		read_elf(d, mapped, best.elf, best.symtab);
		read_plt(d, &best);
		pk__elf_close(best.elf);
		return;
	}
	/* Only files with another build-id were found: say so, use none. */
	d->pub.build_id_mismatch = mismatch;
}

/* The vDSO: this process's own image when it has the recorded build-id
 * (the same kernel), else the build-id cache's copy of that image.  With
 * no build-id recorded (perf record -z writes no BUILD_ID feature), the
 * running image, as perf 6.1 does (machine__findnew_vdso copies it to a
 * temporary file and reads its symbols there). */
static void load_vdso(struct pk__dso *d, const struct pk__sym_dirs *dirs)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct pk__elf *e;
	char path[PATH_MAX];
	bool mismatch = false;

	/* Under a symfs root perf 6.1 looks for its copy of the running
	 * image there, never finding it: only the cache can have it. */
	if (base && !dirs->symfs && pk__elf_open_mapped(base, "[vdso]", &e) == 0) {
		if (same_build_id(d, e, &mismatch))
			read_elf(d, NULL, e, pk__elf_has_symtab(e));
		pk__elf_close(e);
	}
	if (!d->syms && from_cache(d, dirs, path, sizeof(path)) && pk__elf_open(path, &e) == 0) {
		if (same_build_id(d, e, &mismatch))
			read_elf(d, NULL, e, pk__elf_has_symtab(e));
		pk__elf_close(e);
	}
	d->pub.build_id_mismatch = mismatch && !d->syms;
}

static void load_perfmap(struct pk__dso *d, const struct pk__sym_dirs *dirs)
{
	char path[PATH_MAX];
	const char *base = strrchr(d->name, '/');

	/* d->name is "/tmp/perf-PID.map"; the directory may be another. */
	if (!base || snprintf(path, sizeof(path), "%s%s", dirs->tmp, base) >= (int)sizeof(path))
		return;
	if (pk__perfmap_load(path, &d->syms) == 0)
		d->symfile = pk__strdup(path);
}

void pk__dso_load(struct pk__dso *d, const struct pk__sym_dirs *dirs)
{
	if (d->loaded)
		return;
	d->loaded = true;
	d->demangle = dirs->demangle;
	if (d->kind == PK__DSO_FILE)
		load_file(d, dirs);
	else if (d->kind == PK__DSO_VDSO)
		load_vdso(d, dirs);
	else if (d->kind == PK__DSO_PERFMAP)
		load_perfmap(d, dirs);
}

/* Whether the file at path has the DSO's recorded build-id. */
static bool file_matches(const struct pk__dso *d, const char *path)
{
	struct pk__elf *e;
	bool mismatch = false, same;

	if (pk__elf_open(path, &e) < 0)
		return false;
	same = same_build_id(d, e, &mismatch);
	pk__elf_close(e);
	return same;
}

/* The cache's copy of d (through the lookup hook, then the cache
 * directory), checked by build-id, into path. */
static bool cached_copy(const struct pk__dso *d, const struct pk__sym_dirs *dirs, char *path,
			size_t len)
{
	if (dirs->lookup && dirs->lookup(dirs->lookup_arg, &d->pub, path, len) == 0 &&
	    file_matches(d, path))
		return true;
	return from_cache(d, dirs, path, len) && file_matches(d, path);
}

/* This process's vDSO image in a memfd, into path as /proc/self/fd/N,
 * when its build-id is the recorded one (or none was recorded, as for
 * the symbols: perf record -z); false otherwise or when it cannot be made. */
static bool own_vdso(struct pk__dso *d, const struct pk__sym_dirs *dirs, char *path, size_t len)
{
	uint8_t id[20];
	int n = pk_build_id_vdso(id), fd;

	/* under a symfs root the running image is not used (load_vdso) */
	if (dirs->symfs || n <= 0 ||
	    (d->pub.build_id_size && (n != (int)d->pub.build_id_size || memcmp(id, d->pub.build_id, (size_t)n))))
		return false;
	if (d->vdso_fd < 0) {
		if ((fd = memfd_create("perfkit-vdso", MFD_CLOEXEC)) < 0)
			return false;
		if (pk__vdso_write(fd) < 0) {
			close(fd);
			return false;
		}
		d->vdso_fd = fd;
	}
	snprintf(path, len, "/proc/self/fd/%d", d->vdso_fd);
	return true;
}

/* The vDSO's image for the unwinder: the build-id cache's copy of the
 * recorded one, else this process's own when it is the same, else none
 * (""): an image of another build is never read. */
static int vdso_unwind_file(struct pk__dso *d, const struct pk__sym_dirs *dirs, const char **out)
{
	char path[PATH_MAX] = "";

	if (!d->unwind_file) {
		if (!(d->pub.build_id_size && cached_copy(d, dirs, path, sizeof(path))) &&
		    !own_vdso(d, dirs, path, sizeof(path)))
			path[0] = '\0';
		if (!(d->unwind_file = pk__strdup(path)))
			return -ENOMEM;
	}
	*out = d->unwind_file;
	return d->unwind_file[0] ? 0 : -ENOENT;
}

int pk__dso_unwind_file(struct pk__dso *d, const struct pk__sym_dirs *dirs, const char **out)
{
	char path[PATH_MAX], buf[PATH_MAX];
	const char *file;

	if (d->kind == PK__DSO_VDSO)
		return vdso_unwind_file(d, dirs, out);
	if (d->kind != PK__DSO_FILE || !d->pub.build_id_size || d->name[0] != '/') {
		*out = d->name;
		return 0;
	}
	if (!d->unwind_file) {
		/* Another build on disk and no copy: "", so nothing is read.  A
		 * file gone and no copy: its name, which the unwinder cannot open.
		 * Under a symfs root the file on disk is the one below it. */
		if (!(file = pk__symfs_path(dirs, d->name, buf, sizeof(buf))))
			file = "";
		if (file_matches(d, file))
			snprintf(path, sizeof(path), "%s", file);
		else if (!cached_copy(d, dirs, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s", access(file, F_OK) == 0 ? "" : file);
		if (!(d->unwind_file = pk__strdup(path)))
			return -ENOMEM;
	}
	*out = d->unwind_file;
	return d->unwind_file[0] ? 0 : -ENOENT;
}

uint64_t pk__dso_file_vaddr(const struct pk__dso *d, uint64_t off)
{
	for (size_t i = 0; i < d->nr_segs; i++) {
		const struct pk__seg *s = &d->segs[i];

		if (off >= s->offset && off - s->offset < s->filesz)
			return off - s->offset + s->vaddr;
	}
	/* A data address past the file's bytes: the segment's .bss part
	 * (perf 6.1 files its symbols at vaddr - p_vaddr + p_offset). */
	for (size_t i = 0; i < d->nr_segs; i++) {
		const struct pk__seg *s = &d->segs[i];

		if (off >= s->offset && off - s->offset < s->size)
			return off - s->offset + s->vaddr;
	}
	return off;
}
