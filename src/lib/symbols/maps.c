/* SPDX-License-Identifier: MIT */
/*
 * maps.c - per-process memory maps followed from a recording's records
 * (MMAP, MMAP2, FORK; an exec's COMM forgets nothing; KSYMBOL for the kernel's
 * BPF programs and other code that comes and goes), with perf's semantics: each map keeps
 * its file offset, protection and flags, a new mapping splits or replaces
 * the ones it overlaps, so an address resolves to the map live at the
 * sample's time when records are followed in time order; the DSO table
 * the maps point into; and pk_maps_resolve, address -> DSO -> symbol.
 */
#include "perfkit.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KERNEL_PID UINT32_MAX	/* the kernel's maps: pid -1 in the records */

struct map {
	uint64_t start, end, pgoff;
	uint32_t prot, flags;
	struct pk__dso *dso;
};

struct proc {
	uint32_t pid;
	bool used;
	struct map *maps;
	size_t nr, cap;
};

struct pk_maps {
	struct proc *procs;	/* open addressing on pid */
	size_t cap, nr_procs;
	struct pk__dso **dsos;	/* each allocated alone: pointers stay valid */
	size_t nr_dsos, cap_dsos;
	char *dir[PK_MAPS_DIR_VMLINUX + 1];
	pk_maps_lookup_cb lookup;
	void *lookup_arg;
	char *cache;		/* the build-id cache's directory */
	char *symfs;		/* pk_maps_set_symfs's root, or NULL */
	enum pk_demangle demangle;	/* pk_maps_set_demangle */
	bool kernel_loaded;
};

int pk_maps_new(struct pk_maps **out)
{
	struct pk_maps *m = pk__calloc(1, sizeof(*m));

	if (!m || !(m->procs = pk__calloc(64, sizeof(*m->procs)))) {
		free(m);
		return pk__error_nomem("the address-space maps");
	}
	m->cap = 64;
	*out = m;
	return 0;
}

static void dso_free(struct pk__dso *d)
{
	pk__symtab_free(d->syms);
	pk__symtab_free(d->plt);
	pk__srcline_free(d->srcline);
	free(d->segs);
	free(d->symfile);
	free(d->unwind_file);
	free(d->long_name);
	if (d->vdso_fd >= 0)
		close(d->vdso_fd);
	free(d->name);
	free(d);
}

void pk_maps_free(struct pk_maps *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->procs[i].maps);
	for (size_t i = 0; i < m->nr_dsos; i++)
		dso_free(m->dsos[i]);
	for (size_t i = 0; i <= PK_MAPS_DIR_VMLINUX; i++)
		free(m->dir[i]);
	free(m->cache);
	free(m->symfs);
	free(m->procs);
	free(m->dsos);
	free(m);
}

int pk_maps_set_dir(struct pk_maps *m, enum pk_maps_dir which, const char *path)
{
	char *copy = NULL;

	if ((unsigned int)which > PK_MAPS_DIR_VMLINUX)
		return pk__error(-EINVAL, "set a symbol directory", "no directory kind %d", (int)which);
	if (path && !(copy = pk__strdup(path)))
		return pk__error_nomem("a symbol directory");
	free(m->dir[which]);
	m->dir[which] = copy;
	return 0;
}

void pk_maps_set_lookup(struct pk_maps *m, pk_maps_lookup_cb cb, void *arg)
{
	m->lookup = cb;
	m->lookup_arg = arg;
}

int pk_maps_set_buildid_cache(struct pk_maps *m, const char *dir)
{
	char *copy = NULL;

	if (dir && !(copy = pk__strdup(dir)))
		return pk__error_nomem("the build-id cache's directory");
	free(m->cache);
	m->cache = copy;
	return 0;
}

int pk_maps_set_symfs(struct pk_maps *m, const char *dir)
{
	char *copy = NULL, *real;
	bool root;

	/* perf 6.1's symbol__init: a root that is "/" is no root at all. */
	real = dir && *dir ? realpath(dir, NULL) : NULL;
	root = real && !strcmp(real, "/");
	free(real);
	if (dir && *dir && !root && !(copy = pk__strdup(dir)))
		return pk__error_nomem("the symfs directory");
	free(m->symfs);
	m->symfs = copy;
	return 0;
}

int pk_maps_set_demangle(struct pk_maps *m, enum pk_demangle how)
{
	if (how != PK_DEMANGLE_NAME && how != PK_DEMANGLE_PARAMS && how != PK_DEMANGLE_NONE)
		return pk__error(-EINVAL, "pk_maps_set_demangle", "%d is not an enum pk_demangle", (int)how);
	m->demangle = how;
	return 0;
}

const char *pk__maps_symfs(const struct pk_maps *m)
{
	return m->symfs;
}

const char *pk__maps_cache(const struct pk_maps *m)
{
	return m->cache;
}

static struct proc *slot(struct proc *procs, size_t cap, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (cap - 1);

	while (procs[i].used && procs[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &procs[i];
}

static struct proc *find(struct pk_maps *m, uint32_t pid)
{
	struct proc *p = slot(m->procs, m->cap, pid);

	return p->used ? p : NULL;
}

void pk__maps_forget(struct pk_maps *m, uint32_t pid)
{
	struct proc *p = find(m, pid);

	if (!p)
		return;
	free(p->maps);	/* the slot stays: open addressing keeps its chain */
	p->maps = NULL;
	p->nr = p->cap = 0;
}

static struct proc *get(struct pk_maps *m, uint32_t pid)
{
	struct proc *p;

	if ((m->nr_procs + 1) * 2 > m->cap) {	/* keep it half empty */
		size_t cap = m->cap * 2;
		struct proc *n = pk__calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->procs[i].used)
				*slot(n, cap, m->procs[i].pid) = m->procs[i];
		free(m->procs);
		m->procs = n;
		m->cap = cap;
	}
	p = slot(m->procs, m->cap, pid);
	if (!p->used) {
		memset(p, 0, sizeof(*p));
		p->used = true;
		p->pid = pid;
		m->nr_procs++;
	}
	return p;
}

static struct pk__dso *dso_get(struct pk_maps *m, const char *name, enum pk__dso_kind kind)
{
	struct pk__dso *d;

	for (size_t i = 0; i < m->nr_dsos; i++)
		if (!strcmp(m->dsos[i]->name, name))
			return m->dsos[i];
	if (m->nr_dsos == m->cap_dsos) {
		size_t cap = m->cap_dsos ? m->cap_dsos * 2 : 32;
		struct pk__dso **n = pk__realloc(m->dsos, cap * sizeof(*n));

		if (!n)
			return NULL;
		m->dsos = n;
		m->cap_dsos = cap;
	}
	if (!(d = pk__calloc(1, sizeof(*d))) || !(d->name = pk__strdup(name))) {
		free(d);
		return NULL;
	}
	d->kind = kind;
	d->vdso_fd = -1;
	d->idx = m->nr_dsos;
	d->pub.name = d->name;
	d->pub.kernel = kind == PK__DSO_KERNEL || kind == PK__DSO_MODULE || kind == PK__DSO_KSYMBOL;
	m->dsos[m->nr_dsos++] = d;
	return d;
}

/* Insert nm into a process's sorted maps.  What it overlaps is cut back
 * to the parts outside it (perf's maps__fixup_overlappings): a piece left
 * of it keeps its pgoff, a piece right of it moves its pgoff by as much as
 * its start moved.  Built into a new array: one split adds at most two. */
static int add_map(struct proc *p, const struct map *nm)
{
	size_t cap = p->cap > p->nr + 2 ? p->cap : (p->nr + 2) * 2, k = 0;
	struct map *n = pk__malloc(cap * sizeof(*n));
	bool placed = false;

	if (!n)
		return pk__error_nomem("a process's maps");
	for (size_t j = 0; j < p->nr; j++) {
		struct map old = p->maps[j];

		if (old.end <= nm->start) {
			n[k++] = old;
			continue;
		}
		if (old.start < nm->start) {
			n[k] = old;
			n[k++].end = nm->start;
		}
		if (!placed) {
			n[k++] = *nm;
			placed = true;
		}
		if (old.end > nm->end) {
			if (old.start < nm->end) {
				old.pgoff += nm->end - old.start;
				old.start = nm->end;
			}
			n[k++] = old;
		}
	}
	if (!placed)
		n[k++] = *nm;
	free(p->maps);
	p->maps = n;
	p->nr = k;
	p->cap = cap;
	return 0;
}

/* p's last map that starts at or below ip (it may end before), or NULL. */
static const struct map *map_before(const struct proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p ? p->nr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &p->maps[lo - 1] : NULL;
}

static const struct map *map_at(struct pk_maps *m, uint32_t pid, uint64_t ip)
{
	const struct map *map = map_before(find(m, pid), ip);

	return map && ip < map->end ? map : NULL;
}

/* The name and kind of the DSO a kernel mapping holds: the kernel's text
 * ("[kernel.kallsyms]_text") or a module, named "[name]" as perf shows it
 * from its .ko path ("/lib/modules/.../virtio-net.ko.xz" -> "[virtio_net]"). */
static enum pk__dso_kind kernel_name(const char *file, char *name, size_t len)
{
	const char *base = strrchr(file, '/');
	size_t n;

	if (!strncmp(file, "[kernel.kallsyms]", 17)) {
		snprintf(name, len, "[kernel.kallsyms]");
		return PK__DSO_KERNEL;
	}
	if (file[0] == '[') {	/* already a module's short name */
		snprintf(name, len, "%s", file);
		return PK__DSO_MODULE;
	}
	base = base ? base + 1 : file;
	n = strcspn(base, ".");
	snprintf(name, len, "[%.*s]", (int)(n < len - 3 ? n : len - 3), base);
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return PK__DSO_MODULE;
}

/* The DSO a user mapping holds, the way perf's map__new names it:
 * anonymous and DSO-less executable memory is the JIT's perf-PID.map. */
static enum pk__dso_kind user_name(uint32_t pid, const char *file, uint32_t prot, uint32_t flags,
				   char *name, size_t len)
{
	bool anon = !strcmp(file, "//anon") || !strncmp(file, "/dev/zero", 9) ||
		    !strncmp(file, "/anon_hugepage", 14) || (flags & MAP_HUGETLB);
	bool no_dso = !strncmp(file, "[stack", 6) || !strncmp(file, "/SYSV", 5) ||
		      !strcmp(file, "[heap]");

	if ((anon || no_dso) && (prot & PROT_EXEC)) {
		snprintf(name, len, "/tmp/perf-%u.map", pid);
		return PK__DSO_PERFMAP;
	}
	snprintf(name, len, "%s", file);
	if (anon || no_dso)
		return PK__DSO_NONE;
	return !strcmp(file, "[vdso]") ? PK__DSO_VDSO : PK__DSO_FILE;
}

static int mmap_record(struct pk_maps *m, const struct pk_rec_mmap2 *r, const uint8_t *build_id,
		       size_t build_id_size)
{
	char name[4096 + 32];
	enum pk__dso_kind kind;
	struct map map = { r->addr, r->addr + r->len, r->pgoff, r->prot, r->flags, NULL };
	struct proc *p;

	if (r->len == 0 || r->addr + r->len < r->addr)
		map.end = UINT64_MAX;	/* a kernel map "to the end": ~0 - start */
	if (r->pid == KERNEL_PID)
		kind = kernel_name(r->filename, name, sizeof(name));
	else
		kind = user_name(r->pid, r->filename, r->prot, r->flags, name, sizeof(name));
	if (kind == PK__DSO_VDSO)
		map.pgoff = 0;	/* perf: the vDSO image starts at its map */
	if (!(map.dso = dso_get(m, name, kind)))
		return pk__error_nomem("a DSO");
	if (!map.dso->pub.maj && !map.dso->pub.min && !map.dso->pub.ino && !map.dso->pub.ino_generation) {
		map.dso->pub.maj = r->maj;	/* perf's dso id, the first one seen */
		map.dso->pub.min = r->min;
		map.dso->pub.ino = r->ino;
		map.dso->pub.ino_generation = r->ino_generation;
	}
	if (build_id && build_id_size && build_id_size <= 20) {
		memcpy(map.dso->pub.build_id, build_id, build_id_size);
		map.dso->pub.build_id_size = build_id_size;
	}
	if (kind == PK__DSO_KERNEL && r->pgoff)
		map.dso->text_start = r->pgoff;	/* perf writes _text's address there */
	/* perf's machine__addnew_module_map: the module's long name is the
	 * file its first MMAP names ("[name]" when perf found none). */
	if (kind == PK__DSO_MODULE && !map.dso->long_name && r->filename[0] == '/') {
		if (!(map.dso->long_name = pk__strdup(r->filename)))
			return pk__error_nomem("a module's path");
		map.dso->pub.long_name = map.dso->long_name;
	}
	if (!(p = get(m, r->pid)))
		return pk__error_nomem("a process in the maps");
	return add_map(p, &map);
}

int pk_maps_set_build_id(struct pk_maps *m, const char *name, const uint8_t *id, size_t size)
{
	struct pk__dso *d;
	char kname[4096 + 32];
	enum pk__dso_kind kind;

	if (!size || size > 20)
		return pk__error(-EINVAL, "set a build-id", "%s: a build-id of %zu bytes", name, size);
	if (name[0] == '[' && strcmp(name, "[vdso]"))
		kind = kernel_name(name, kname, sizeof(kname));
	else
		kind = user_name(0, name, PROT_EXEC, 0, kname, sizeof(kname));
	if (!(d = dso_get(m, kname, kind)))
		return pk__error_nomem("a DSO");
	memcpy(d->pub.build_id, id, size);
	d->pub.build_id_size = size;
	return 0;
}

/*
 * A KSYMBOL unregistering code (perf's machine__process_ksymbol_unregister):
 * the kernel map holding addr goes, so a sample there after it finds none
 * ([unknown]), as in perf.  That matters where the kernel's unregister
 * record reaches the file with a sample id of zeros (its size 32 bytes too
 * large, the id read from its end): perf and the reader then deliver it at
 * time 0, before the samples of its round.  The kernel's own map stays
 * (perf drops a symbol of it then; no KSYMBOL names one).
 */
static int ksymbol_unregister(struct pk_maps *m, uint64_t addr)
{
	struct proc *p = find(m, KERNEL_PID);
	const struct map *map = map_before(p, addr);
	size_t i;

	if (!map || addr >= map->end || map->dso->kind == PK__DSO_KERNEL)
		return 0;
	i = (size_t)(map - p->maps);
	memmove(&p->maps[i], &p->maps[i + 1], (p->nr - i - 1) * sizeof(*p->maps));
	p->nr--;
	return 0;
}

/*
 * A KSYMBOL registering code (perf's machine__process_ksymbol_register):
 * a kernel map of its own, [addr, addr + len), whose DSO is named after the
 * symbol and holds it, so samples there resolve to "bpf_prog_<tag>_<name>"
 * in that DSO as perf shows them.  Code registered there later replaces
 * it; an unregistered one goes (ksymbol_unregister).
 */
static int ksymbol_record(struct pk_maps *m, const struct pk_rec_ksymbol *k)
{
	struct map map = { k->addr, k->addr + k->len, 0, PROT_READ | PROT_EXEC, 0, NULL };
	struct proc *p;
	struct pk__dso *d;
	int err;

	if (k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)
		return ksymbol_unregister(m, k->addr);
	if (!k->len || map.end < map.start || !k->name[0])
		return 0;
	if (!(d = map.dso = dso_get(m, k->name, PK__DSO_KSYMBOL)))
		return pk__error_nomem("a DSO");
	if (d->kind != PK__DSO_KSYMBOL)
		return 0;	/* a file of that name: not ours to give symbols */
	d->loaded = true;
	if (!d->syms && pk__symtab_new(&d->syms) < 0)
		return pk__error_nomem("a symbol table");
	if ((err = pk__symtab_add(d->syms, k->addr, k->len, k->name, STB_GLOBAL)) < 0)
		return err;
	pk__symtab_finish(d->syms, false);
	if (!(p = get(m, KERNEL_PID)))
		return pk__error_nomem("the kernel's maps");
	return add_map(p, &map);
}

static int fork_record(struct pk_maps *m, const struct pk_rec_task *t, uint16_t misc)
{
	struct proc *parent, *child;
	struct map *copy;
	size_t nr;

	/* A new thread shares the maps; a new process starts with a copy.
	 * A FORK marked FORK_EXEC is synthesized for a process already
	 * running, whose own MMAPs follow: perf copies nothing for it (the
	 * parent's maps would stand where the child has none). */
	if ((misc & PERF_RECORD_MISC_FORK_EXEC) || t->pid == t->ppid ||
	    !(parent = find(m, t->ppid)))
		return 0;
	nr = parent->nr;
	if (!(copy = pk__malloc((nr ? nr : 1) * sizeof(*copy))))
		return pk__error_nomem("a forked process's maps");
	memcpy(copy, parent->maps, nr * sizeof(*copy));
	if (!(child = get(m, t->pid))) {
		free(copy);
		return pk__error_nomem("a forked process in the maps");
	}
	free(child->maps);
	child->maps = copy;
	child->nr = nr;
	child->cap = nr ? nr : 1;
	return 0;
}

int pk_maps_process(struct pk_maps *m, const struct pk_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP: {
		/* MMAP has no prot: perf writes it for executable maps unless
		 * misc says data. */
		struct pk_rec_mmap2 m2 = {
			.pid = r->mmap.pid, .tid = r->mmap.tid, .addr = r->mmap.addr,
			.len = r->mmap.len, .pgoff = r->mmap.pgoff, .filename = r->mmap.filename,
			.prot = (r->misc & PERF_RECORD_MISC_MMAP_DATA) ? PROT_READ : PROT_READ | PROT_EXEC,
		};

		return mmap_record(m, &m2, NULL, 0);
	}
	case PERF_RECORD_MMAP2:
		return mmap_record(m, &r->mmap2, r->mmap2.has_build_id ? r->mmap2.build_id : NULL,
				   r->mmap2.build_id_size);
	case PERF_RECORD_COMM:
		/* An exec keeps the old maps until new mappings replace them, as
		 * perf 6.1 keeps them: a sample taken inside execve, after the
		 * COMM, still has the old program's user stack (its execve call). */
		return 0;
	case PERF_RECORD_FORK:
		return fork_record(m, &r->task, r->misc);
	case PERF_RECORD_KSYMBOL:
		return ksymbol_record(m, &r->ksymbol);
	default:
		return 0;	/* EXIT: samples may still arrive out of order; keep the maps */
	}
}

int pk_maps_hit(struct pk_maps *m, uint32_t pid, uint64_t ip, bool kernel)
{
	const struct map *map = map_at(m, kernel ? KERNEL_PID : pid, ip);

	if (!map)
		return -ENOENT;
	map->dso->pub.hit = true;
	return (int)map->dso->idx;
}

size_t pk_maps_nr_dsos(const struct pk_maps *m)
{
	return m->nr_dsos;
}

const struct pk_dso *pk_maps_dso(const struct pk_maps *m, size_t i)
{
	return i < m->nr_dsos ? &m->dsos[i]->pub : NULL;
}

void pk__maps_hit_all(struct pk_maps *m)
{
	for (size_t i = 0; i < m->nr_dsos; i++)
		m->dsos[i]->pub.hit = true;
}

void pk_maps_read_build_ids(struct pk_maps *m)
{
	for (size_t i = 0; i < m->nr_dsos; i++) {
		struct pk_dso *d = &m->dsos[i]->pub;
		enum pk__dso_kind kind = m->dsos[i]->kind;
		int n = -ENOENT;

		if (d->build_id_size || (!d->hit && kind != PK__DSO_VDSO))
			continue;
		if (kind == PK__DSO_KERNEL)
			n = pk_build_id_kernel(d->build_id);
		else if (kind == PK__DSO_VDSO)
			n = pk_build_id_vdso(d->build_id);
		else if (kind == PK__DSO_FILE && d->name[0] == '/' && strncmp(d->name, "/memfd:", 7))
			n = pk_build_id_read(d->name, d->build_id);
		if (n > 0)
			d->build_id_size = (size_t)n;
	}
}

static void sym_dirs(const struct pk_maps *m, struct pk__sym_dirs *dirs)
{
	dirs->debug = m->dir[PK_MAPS_DIR_DEBUG] ? m->dir[PK_MAPS_DIR_DEBUG] : "/usr/lib/debug";
	dirs->tmp = m->dir[PK_MAPS_DIR_TMP] ? m->dir[PK_MAPS_DIR_TMP] : "/tmp";
	dirs->kallsyms = m->dir[PK_MAPS_DIR_KALLSYMS];
	dirs->vmlinux = m->dir[PK_MAPS_DIR_VMLINUX];
	dirs->lookup = m->lookup;
	dirs->lookup_arg = m->lookup_arg;
	dirs->cache = m->cache;
	dirs->symfs = m->symfs;
	dirs->demangle = m->demangle;
}

int pk__maps_unwind_file(struct pk_maps *m, const char *name, const char **out)
{
	struct pk__sym_dirs dirs;

	for (size_t i = 0; i < m->nr_dsos; i++) {
		if ((m->dsos[i]->kind == PK__DSO_FILE || m->dsos[i]->kind == PK__DSO_VDSO) &&
		    !strcmp(m->dsos[i]->name, name)) {
			sym_dirs(m, &dirs);
			return pk__dso_unwind_file(m->dsos[i], &dirs, out);
		}
	}
	*out = name;
	return 0;
}

/* kallsyms is read once for the kernel and every module together. */
static void load_kernel(struct pk_maps *m, const struct pk__sym_dirs *dirs)
{
	struct pk__kernel_dsos k = { 0 };
	struct pk__dso **mods = pk__calloc(m->nr_dsos ? m->nr_dsos : 1, sizeof(*mods));

	if (!mods)
		return;	/* out of memory: the next resolve tries again */
	/* Only those not loaded yet: a module mapped later gets its turn. */
	for (size_t i = 0; i < m->nr_dsos; i++) {
		if (m->dsos[i]->loaded)
			continue;
		if (m->dsos[i]->kind == PK__DSO_KERNEL)
			k.kernel = m->dsos[i];
		else if (m->dsos[i]->kind == PK__DSO_MODULE)
			mods[k.nr_modules++] = m->dsos[i];
	}
	k.modules = mods;
	pk__kernel_load(&k, dirs);
	for (size_t i = 0; i < m->nr_dsos; i++) {
		struct pk__dso *d = m->dsos[i];

		if (d->kind == PK__DSO_KERNEL || d->kind == PK__DSO_MODULE) {
			d->loaded = true;
			d->pub.symfile = d->symfile;
		}
	}
	free(mods);
}

static void load(struct pk_maps *m, struct pk__dso *d)
{
	struct pk__sym_dirs dirs;

	if (d->loaded)
		return;
	sym_dirs(m, &dirs);
	if (d->kind == PK__DSO_KERNEL || d->kind == PK__DSO_MODULE)
		load_kernel(m, &dirs);
	else
		pk__dso_load(d, &dirs);
	d->pub.symfile = d->symfile;
}

/* The address a map's ip has in its DSO: an ELF file's virtual address,
 * through the file offset; the ip itself for the kernel, the JIT's map
 * and memory without a file (perf's identity map). */
static uint64_t dso_addr(const struct map *map, uint64_t ip)
{
	switch (map->dso->kind) {
	case PK__DSO_FILE:
	case PK__DSO_VDSO:
		return pk__dso_file_vaddr(map->dso, ip - map->start + map->pgoff);
	default:
		return ip;
	}
}

/* perf's map_ip: the offset into the mapped file; the kernel's maps count
 * from their start (perf keeps the kernel map's pgoff, _text's address, as
 * its relocation reference instead); JIT and anonymous memory are
 * identity maps. */
static uint64_t map_ip(const struct map *map, uint64_t ip)
{
	switch (map->dso->kind) {
	case PK__DSO_FILE:
	case PK__DSO_VDSO:
		return ip - map->start + map->pgoff;
	case PK__DSO_KERNEL:
	case PK__DSO_MODULE:
	case PK__DSO_KSYMBOL:
		return ip - map->start;
	default:
		return ip;
	}
}

/*
 * A kernel-mode ip past the end of the kernel's text map (its MMAP ends at
 * _etext): perf sizes that map to its kallsyms symbols once they load
 * (map__fixup_end), so init text and what follows up to the last symbol
 * kept is the kernel's (a swapper chain's start_kernel); the kernel's
 * symbols are loaded to tell.  NULL when ip is past them, or the map
 * before ip is another.
 */
static const struct map *kernel_tail(struct pk_maps *m, uint64_t ip)
{
	const struct map *k = map_before(find(m, KERNEL_PID), ip);
	uint64_t start, end;

	if (!k || k->dso->kind != PK__DSO_KERNEL)
		return NULL;
	load(m, k->dso);
	if (!k->dso->syms || pk__symtab_span(k->dso->syms, &start, &end) < 0 ||
	    ip - k->dso->text_delta >= end)
		return NULL;
	return k;
}

/* The map live for ip, loc filled as far as it goes without symbols. */
static int find_map(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
		    struct pk_location *loc, const struct map **out)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	const struct map *map = NULL;

	if (loc->size < sizeof(struct pk_location))
		return pk__error(-EINVAL, "resolve an address", "struct pk_location of %zu bytes, "
				 "not %zu", loc->size, sizeof(struct pk_location));
	*loc = (struct pk_location){ .size = loc->size, .addr = ip, .kernel = kernel, .map_ip = ip };
	/* Guest and hypervisor samples have no maps here, as in perf without --guest. */
	if (kernel || cpumode == PERF_RECORD_MISC_USER)
		map = map_at(m, kernel ? KERNEL_PID : pid, ip);
	if (!map && kernel)
		map = kernel_tail(m, ip);
	if (!map)
		return -ENOENT;
	loc->dso = &map->dso->pub;
	loc->map_ip = map_ip(map, ip);
	loc->map_prot = map->prot;
	loc->map_flags = map->flags;
	loc->map_size = map->end - map->start;
	*out = map;
	return 0;
}

int pk_maps_find(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t cpumode, struct pk_location *loc)
{
	const struct map *map;

	return find_map(m, pid, ip, cpumode, loc, &map);
}

int pk_maps_resolve(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
		    struct pk_location *loc)
{
	const struct map *map = NULL;
	const struct pk__sym *sym = NULL;
	struct pk__dso *d;
	int err;

	if ((err = find_map(m, pid, ip, cpumode, loc, &map)) < 0)
		return err;
	d = map->dso;
	load(m, d);
	if (d->kallsyms_size)	/* perf's map__fixup_start/end after kallsyms */
		loc->map_size = d->kallsyms_size;
	loc->addr = dso_addr(map, ip);
	if (d->plt)
		sym = pk__symtab_find(d->plt, loc->addr);
	if (!sym && d->syms)
		sym = pk__symtab_find(d->syms, loc->addr - d->text_delta);
	if (sym) {
		loc->sym = sym->name;
		loc->sym_start = sym->start + d->text_delta;
		loc->sym_end = sym->end + d->text_delta;
		loc->sym_binding = sym->binding;
		loc->sym_object = sym->object;
		loc->symoff = loc->addr - loc->sym_start;
	}
	return 0;
}

int pk_maps_resolve_data(struct pk_maps *m, uint32_t pid, uint64_t addr, uint16_t cpumode,
			 struct pk_location *loc)
{
	/* perf's machine__addr_cpumode on x86_64: every address at or
	 * above 2^63 is the kernel's, the rest user space's. */
	uint16_t own = addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	int err = pk_maps_resolve(m, pid, addr, cpumode, loc);

	if (err != -ENOENT || own == cpumode ||
	    (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER))
		return err;
	return pk_maps_resolve(m, pid, addr, own, loc);
}
