/* SPDX-License-Identifier: MIT */
/*
 * maps.c - per-process memory maps followed from a recording's records
 * (MMAP, MMAP2, COMM exec, FORK, EXIT), so an address can be traced to the
 * DSO it belongs to; kept sorted per process for binary search.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_PID UINT32_MAX	/* the kernel's maps: pid -1 in the records */

struct map {
	uint64_t start, end;
	size_t dso;
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
	struct pk_dso *dsos;
	char **names;		/* owned copies of the DSO names */
	size_t nr_dsos, cap_dsos;
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

void pk_maps_free(struct pk_maps *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->procs[i].maps);
	for (size_t i = 0; i < m->nr_dsos; i++)
		free(m->names[i]);
	free(m->procs);
	free(m->dsos);
	free(m->names);
	free(m);
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

static int dso_index(struct pk_maps *m, const char *name, bool kernel)
{
	for (size_t i = 0; i < m->nr_dsos; i++)
		if (!strcmp(m->names[i], name))
			return (int)i;
	if (m->nr_dsos == m->cap_dsos) {
		size_t cap = m->cap_dsos ? m->cap_dsos * 2 : 32;
		struct pk_dso *d = pk__realloc(m->dsos, cap * sizeof(*d));
		char **n;

		if (!d)
			return pk__error_nomem("the DSO table");
		m->dsos = d;
		n = pk__realloc(m->names, cap * sizeof(*n));
		if (!n)
			return pk__error_nomem("the DSO table");
		m->names = n;
		m->cap_dsos = cap;
	}
	if (!(m->names[m->nr_dsos] = pk__strdup(name)))
		return pk__error_nomem("a DSO name");
	/* The names array may move on growth: point at the copies afresh. */
	for (size_t i = 0; i <= m->nr_dsos; i++)
		m->dsos[i].name = m->names[i];
	m->dsos[m->nr_dsos] = (struct pk_dso){ .name = m->names[m->nr_dsos], .kernel = kernel };
	return (int)m->nr_dsos++;
}

/* Insert a mapping, keeping the process's maps sorted and dropping those
 * the new one covers entirely (an mmap over them replaced them). */
static int add_map(struct proc *p, uint64_t start, uint64_t len, size_t dso)
{
	size_t i = 0, k = 0;

	if (p->nr == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct map *n = pk__realloc(p->maps, cap * sizeof(*n));

		if (!n)
			return pk__error_nomem("a process's maps");
		p->maps = n;
		p->cap = cap;
	}
	for (size_t j = 0; j < p->nr; j++)
		if (!(p->maps[j].start >= start && p->maps[j].end <= start + len))
			p->maps[k++] = p->maps[j];
	p->nr = k;
	while (i < p->nr && p->maps[i].start < start)
		i++;
	memmove(&p->maps[i + 1], &p->maps[i], (p->nr - i) * sizeof(*p->maps));
	p->maps[i] = (struct map){ start, start + len, dso };
	p->nr++;
	return 0;
}

static int mmap_record(struct pk_maps *m, uint32_t pid, uint64_t addr, uint64_t len, const char *file,
		       const uint8_t *build_id, size_t build_id_size)
{
	bool kernel = pid == KERNEL_PID;
	/* The kernel's map is named "[kernel.kallsyms]_text": the DSO is the kernel. */
	int d = dso_index(m, kernel && !strncmp(file, "[kernel.kallsyms]", 17) ? "[kernel.kallsyms]" : file,
			  kernel);
	struct proc *p;

	if (d < 0)
		return d;
	if (build_id && build_id_size && build_id_size <= 20) {
		memcpy(m->dsos[d].build_id, build_id, build_id_size);
		m->dsos[d].build_id_size = build_id_size;
	}
	if (!(p = get(m, pid)))
		return pk__error_nomem("a process in the maps");
	return add_map(p, addr, len, (size_t)d);
}

int pk_maps_process(struct pk_maps *m, const struct pk_record *r)
{
	struct proc *parent, *child;

	switch (r->type) {
	case PERF_RECORD_MMAP:
		return mmap_record(m, r->mmap.pid, r->mmap.addr, r->mmap.len, r->mmap.filename, NULL, 0);
	case PERF_RECORD_MMAP2:
		return mmap_record(m, r->mmap2.pid, r->mmap2.addr, r->mmap2.len, r->mmap2.filename,
				   r->mmap2.has_build_id ? r->mmap2.build_id : NULL, r->mmap2.build_id_size);
	case PERF_RECORD_COMM:
		if (r->comm.exec && r->comm.pid == r->comm.tid && (child = find(m, r->comm.pid)))
			child->nr = 0;	/* a new program: the old maps are gone */
		return 0;
	case PERF_RECORD_FORK:
		/* A new thread shares the maps; a new process starts with a copy. */
		if (r->task.pid == r->task.ppid || !(parent = find(m, r->task.ppid)))
			return 0;
		{
			size_t nr = parent->nr;
			struct map *copy = pk__malloc((nr ? nr : 1) * sizeof(*copy));

			if (!copy)
				return pk__error_nomem("a forked process's maps");
			memcpy(copy, parent->maps, nr * sizeof(*copy));
			if (!(child = get(m, r->task.pid))) {
				free(copy);
				return pk__error_nomem("a forked process in the maps");
			}
			free(child->maps);
			child->maps = copy;
			child->nr = child->cap = nr;
			if (!nr)
				child->cap = 1;
		}
		return 0;
	default:
		return 0;	/* EXIT: samples may still arrive out of order; keep the maps */
	}
}

int pk_maps_hit(struct pk_maps *m, uint32_t pid, uint64_t ip, bool kernel)
{
	struct proc *p = find(m, kernel ? KERNEL_PID : pid);
	size_t lo = 0, hi;

	if (!p)
		return -ENOENT;
	hi = p->nr;
	while (lo < hi) {	/* the last map that starts at or below ip */
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= p->maps[lo - 1].end)
		return -ENOENT;
	m->dsos[p->maps[lo - 1].dso].hit = true;
	return (int)p->maps[lo - 1].dso;
}

size_t pk_maps_nr_dsos(const struct pk_maps *m)
{
	return m->nr_dsos;
}

const struct pk_dso *pk_maps_dso(const struct pk_maps *m, size_t i)
{
	return i < m->nr_dsos ? &m->dsos[i] : NULL;
}

void pk_maps_read_build_ids(struct pk_maps *m)
{
	for (size_t i = 0; i < m->nr_dsos; i++) {
		struct pk_dso *d = &m->dsos[i];
		bool vdso = !strcmp(d->name, "[vdso]");
		int n = -ENOENT;

		if (d->build_id_size || (!d->hit && !vdso))
			continue;
		if (d->kernel && !strcmp(d->name, "[kernel.kallsyms]"))
			n = pk_build_id_kernel(d->build_id);
		else if (vdso)
			n = pk_build_id_vdso(d->build_id);
		else if (d->name[0] == '/' && strncmp(d->name, "/memfd:", 7))
			n = pk_build_id_read(d->name, d->build_id);
		if (n > 0)
			d->build_id_size = (size_t)n;
	}
}
