/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - the kernel's and its modules' symbols from kallsyms, read
 * once for all of them (through the host layer's reader): perf's filter
 * (text, weak, data and bss symbols), module symbols to their module's
 * table, and the kernel's table moved by the difference between the
 * _text address the recording saw and this kallsyms' (a reboot with KASLR).
 * A recording of another kernel (its build-id differs from this one's)
 * reads that kernel's kallsyms from the build-id cache, or gets no kernel
 * symbols: wrong names are worse than none.  The running kernel's
 * /proc/kallsyms costs ~35 ms of kernel CPU to generate; its copy in the
 * build-id cache is read instead when it is provably the same for what
 * the recording needs: same build-id, same _text (no reboot with KASLR
 * between), and no module mapped by the recording.  Under a symfs root
 * no kallsyms is read unless the caller named one, as in perf 6.1: the
 * kernel's symbols come from a vmlinux there (perf's vmlinux_path under
 * --symfs: "vmlinux" below the root, then "/boot/vmlinux" as it stands,
 * absolute paths not being joined to the root), of the recorded build-id,
 * moved by the recorded _text minus its own.
 */
#include "elf/elf.h"
#include "host/host.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct kload {
	struct pk__kernel_dsos *k;
	struct pk__kindex *index;	/* the kernel's lines, when no module is mapped */
	struct pk__symtab *kernel;
	struct pk__symtab **mods;	/* parallel to k->modules */
	uint64_t text;			/* _text in this kallsyms */
	int err;
};

static struct pk__symtab **module_table(struct kload *l, const char *module)
{
	for (size_t i = 0; i < l->k->nr_modules; i++) {
		const char *n = l->k->modules[i]->name;	/* "[name]" */
		size_t len = strlen(module);

		if (!strncmp(n + 1, module, len) && n[len + 1] == ']' && !n[len + 2])
			return &l->mods[i];
	}
	return NULL;
}

/* One kallsyms line into its table, by perf's filter (pk__ksym_binding). */
static int add_ksym(void *arg, const struct pk__host_ksym *s)
{
	struct kload *l = arg;
	struct pk__symtab **tab = &l->kernel;
	int b;

	if (!s->module && s->name[0] == '_' && s->name[1] == 't' && !strcmp(s->name, "_text"))
		l->text = s->addr;
	if ((b = pk__ksym_binding(s->type, s->name[0])) < 0)
		return 0;
	if (s->module && !(tab = module_table(l, s->module)))
		return 0;	/* a module the recording never mapped */
	if (!*tab && (l->err = pk__symtab_new(tab)) < 0)
		return 1;
	/* The kernel's names stay in the loaded text (the kernel's table owns
	 * it); a module's table gets copies. */
	l->err = s->module ? pk__symtab_add(*tab, s->addr, 0, s->name, PK__KSYM_BINDING(b))
			   : pk__symtab_add_ref(*tab, s->addr, 0, s->name, PK__KSYM_BINDING(b));
	if (l->err >= 0 && (b & PK__KSYM_OBJECT))
		pk__symtab_set_object(*tab);
	return l->err < 0;
}

static int table_add(void *arg, uint64_t addr, const char *name, unsigned char binding)
{
	if (pk__symtab_add(arg, addr, 0, name, PK__KSYM_BINDING(binding)) < 0)
		return 1;
	if (binding & PK__KSYM_OBJECT)
		pk__symtab_set_object(arg);
	return 0;
}

static int any(void *arg, uint64_t addr, const char *name, unsigned char binding)
{
	(void)arg, (void)addr, (void)name, (void)binding;
	return 1;
}

/* The index into the kernel's table in l->kernel: looked up in place when
 * in address order, else added symbol by symbol as add_ksym would have
 * (pk__kindex_scan applies the same filter). */
static int index_table(struct kload *l)
{
	int err;

	if (!pk__kindex_each(l->index, any, NULL))
		return 0;	/* no symbol kept: no table, as add_ksym makes none */
	if ((err = pk__symtab_new(&l->kernel)) < 0)
		return err;
	if (pk__kindex_in_order(l->index)) {
		if ((err = pk__kindex_finish(l->index)) < 0)
			return err;
		pk__symtab_set_index(l->kernel, l->index);
		l->index = NULL;
		return 0;
	}
	return pk__kindex_each(l->index, table_add, l->kernel) ? -ENOMEM : 0;
}

/* Whether the kernel DSO was recorded from another kernel than this one. */
static bool other_kernel(const struct pk__dso *d)
{
	uint8_t id[20];
	int n;

	if (!d->pub.build_id_size || (n = pk_build_id_kernel(id)) < 0)
		return false;
	return (size_t)n != d->pub.build_id_size || memcmp(id, d->pub.build_id, (size_t)n);
}

/*
 * The build-id cache's copy of the running kernel's kallsyms into `out`,
 * when reading it gives what /proc/kallsyms would: the kernel's symbols are
 * fixed by its build-id and _text, and module lines are skipped anyway
 * when the recording mapped no module.  False otherwise.
 */
static bool same_copy(const struct pk__kernel_dsos *k, const struct pk__sym_dirs *dirs,
		      char *out, size_t len)
{
	const struct pk_dso *d = k->kernel ? &k->kernel->pub : NULL;
	uint8_t id[20];
	uint64_t text;
	int n;

	if (dirs->kallsyms || !d || k->nr_modules || (n = pk_build_id_kernel(id)) <= 0)
		return false;
	/* The cache by the running kernel's id, or the caller's hook by the
	 * recorded one when that is the running kernel's. */
	if (dirs->cache) {
		if (pk_buildid_cache_lookup(dirs->cache, id, (size_t)n, out, len) <= 0)
			return false;
	} else if (!dirs->lookup || d->build_id_size != (size_t)n ||
		   memcmp(d->build_id, id, (size_t)n) ||
		   dirs->lookup(dirs->lookup_arg, d, out, len) != 0) {
		return false;
	}
	text = pk__host_kallsyms_text(out);
	return text && text == pk__host_kallsyms_text(NULL);
}

static void install(struct pk__dso *d, struct pk__symtab *t, const char *path)
{
	uint64_t start, end;

	if (!t)
		return;
	pk__symtab_finish(t, true);
	if (d->kind == PK__DSO_KERNEL && pk__symtab_span(t, &start, &end) == 0)
		d->kallsyms_size = end - start;
	d->syms = t;
	d->symfile = pk__strdup(path);
}

struct vfill {
	struct pk__symtab *t;
	uint64_t text;		/* the file's _text */
	int err;
};

static int add_vsym(void *arg, const struct pk__elf_sym *s)
{
	struct vfill *f = arg;

	if (s->dynamic)
		return 1;	/* a vmlinux's symbols are its .symtab */
	if (!strcmp(s->name, "_text"))
		f->text = s->value;
	f->err = pk__symtab_add(f->t, s->value, s->size, s->name, s->binding);
	return f->err < 0;
}

/* The kernel's symbols from the vmlinux at `path` when it is the recorded
 * kernel's (perf rejects one whose build-id differs or cannot be read,
 * when one was recorded).  True when d has them; then d's long name is
 * `name`, the path as perf names it (before the symfs root). */
static bool try_vmlinux(struct pk__dso *d, const char *path, const char *name)
{
	struct vfill f = { 0 };
	struct pk__elf *e;
	uint8_t id[20];
	int n;

	if (pk__elf_open(path, &e) < 0)
		return false;
	n = pk__elf_build_id(e, id);
	if (d->pub.build_id_size && (n != (int)d->pub.build_id_size || memcmp(id, d->pub.build_id, (size_t)n))) {
		pk__elf_close(e);
		return false;
	}
	if (pk__symtab_new(&f.t) == 0)
		pk__elf_symbols(e, add_vsym, &f);
	pk__elf_close(e);
	if (!f.t || f.err < 0 || !pk__symtab_nr(f.t)) {
		pk__symtab_free(f.t);
		return false;
	}
	pk__symtab_finish(f.t, false);
	d->syms = f.t;
	d->symfile = pk__strdup(path);
	free(d->long_name);
	d->pub.long_name = d->long_name = pk__strdup(name);	/* NULL: its name */
	if (d->text_start && f.text)
		d->text_delta = d->text_start - f.text;
	return true;
}

/* perf 6.1's vmlinux_path under a symfs root, in its order. */
static void load_symfs_vmlinux(struct pk__kernel_dsos *k, const struct pk__sym_dirs *dirs)
{
	char path[PATH_MAX];
	const char *joined = pk__symfs_path(dirs, "vmlinux", path, sizeof(path));

	if (k->kernel && !(joined && try_vmlinux(k->kernel, joined, "vmlinux")))
		try_vmlinux(k->kernel, "/boot/vmlinux", "/boot/vmlinux");
}

void pk__kernel_load(struct pk__kernel_dsos *k, const struct pk__sym_dirs *dirs)
{
	struct kload l = { .k = k };
	const char *path = dirs->kallsyms ? dirs->kallsyms : "/proc/kallsyms";
	char cached[PATH_MAX], *text = NULL;

	/* A vmlinux named (perf's --vmlinux): that one or nothing. */
	if (dirs->vmlinux && !dirs->kallsyms) {
		if (k->kernel)
			try_vmlinux(k->kernel, dirs->vmlinux, dirs->vmlinux);
		return;
	}
	/* Under a symfs root perf 6.1 reads no kallsyms, only a vmlinux
	 * there (else the kernel stays bare), unless the caller named a
	 * kallsyms file. */
	if (dirs->symfs && !dirs->kallsyms) {
		load_symfs_vmlinux(k, dirs);
		return;
	}
	/* Another kernel's recording: its kallsyms from the build-id cache,
	 * as perf's dso__find_kallsyms, modules and all; else none. */
	if (k->kernel && other_kernel(k->kernel)) {
		if (dirs->cache && pk_buildid_cache_lookup(dirs->cache, k->kernel->pub.build_id,
							   k->kernel->pub.build_id_size, cached,
							   sizeof(cached)) > 0) {
			path = cached;
		} else {
			k->kernel->pub.build_id_mismatch = true;
			k->kernel = NULL;
		}
	} else if (same_copy(k, dirs, cached, sizeof(cached))) {
		path = cached;
	}
	if (!(l.mods = pk__calloc(k->nr_modules ? k->nr_modules : 1, sizeof(*l.mods))))
		return;
	/* Without modules, the kernel's lines indexed, not made symbols. */
	if (!k->nr_modules && pk__kindex_new(&l.index) < 0) {
		free(l.mods);
		return;
	}
	if ((l.index ? pk__kindex_scan(l.index, path, true, path == cached, &l.text)
		     : pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, add_ksym, &l, &text)) != 0 ||
	    l.err < 0 || (l.index && (l.err = index_table(&l)) < 0)) {
		pk__kindex_free(l.index);
		pk__symtab_free(l.kernel);
		for (size_t i = 0; i < k->nr_modules; i++)
			pk__symtab_free(l.mods[i]);
		free(l.mods);
		free(text);
		return;
	}
	pk__kindex_free(l.index);
	if (l.kernel)
		pk__symtab_own(l.kernel, text);
	else
		free(text);
	if (k->kernel) {
		install(k->kernel, l.kernel, path);
		if (k->kernel->text_start && l.text)
			k->kernel->text_delta = k->kernel->text_start - l.text;
	} else
		pk__symtab_free(l.kernel);
	for (size_t i = 0; i < k->nr_modules; i++)
		install(k->modules[i], l.mods[i], path);
	free(l.mods);
}
