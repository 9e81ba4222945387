/* SPDX-License-Identifier: MIT */
/*
 * features-host.c - the perf.data features that describe the machine
 * (host name, kernel, CPUs and their topology, caches, memory, NUMA
 * nodes, PMUs and their caps), gathered from sysfs and procfs once per
 * process and kept, because gathering reads hundreds of files (every
 * CPU's topology and cache indices, every memory block, every PMU) and a
 * process may write many files (pipe mode asks for each feature apart).
 * The kept description is checked against a cheap key before each file
 * and gathered again when the key changed: the sysfs root
 * ($PERFKIT_SYSFS_ROOT), uname(2), the configured CPU count, the online
 * CPU and node lists, the PMU directory names and MemTotal, so a CPU, node
 * or memory hot-plug, a new PMU or a new host name is seen by the next
 * file.  NRCPUS (its online count) and NUMA_TOPOLOGY (MemFree, a moment's
 * value, as perf writes it) are read anew for every file.  Thread safety:
 * a mutex guards the current description; a writer takes a reference to
 * it (pk__data_host_get) and encodes from it without the lock, and a
 * description replaced while referenced is freed by its last holder.
 */
#include "data.h"
#include "host/host.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The feature ids, from the list the reader shares (features.def). */
enum {
#define PK__FEAT(id, NAME, name) FEAT_##NAME = (id),
#include "features.def"
#undef PK__FEAT
	FEAT_LAST = 32,		/* the bitmap's bits perf 6.1 reserves */
};

/* Unique non-empty lists of `file` over the CPUs, as a perf string list. */
static void sibling_lists(struct pk__data_blob *b, int nr_cpus, const char *file)
{
	char (*seen)[256] = pk__calloc((size_t)nr_cpus, sizeof(*seen));
	uint32_t n = 0;

	if (!seen) {
		b->oom = true;
		return;
	}
	for (int c = 0; c < nr_cpus; c++) {
		char l[256];
		bool dup = false;

		pk__host_topology_list(c, file, l, sizeof(l));
		for (uint32_t k = 0; k < n && !dup; k++)
			dup = !strcmp(seen[k], l);
		if (l[0] && !dup)
			snprintf(seen[n++], sizeof(seen[0]), "%s", l);
	}
	pk__data_put_u32(b, n);
	for (uint32_t k = 0; k < n; k++)
		pk__data_put_string(b, seen[k]);
	free(seen);
}

/* Three revisions in one: sockets and threads lists, core/socket ids, dies. */
static void cpu_topology(struct pk__data_blob *b, int nr_cpus)
{
	sibling_lists(b, nr_cpus, "core_siblings_list");
	sibling_lists(b, nr_cpus, "thread_siblings_list");
	for (int c = 0; c < nr_cpus; c++) {
		struct pk_cpu_topology t = { .size = sizeof(t) };
		int err = pk_cpu_topology(c, &t);

		b->oom |= err == -ENOMEM;
		pk__data_put_u32(b, err == 0 ? (uint32_t)t.core : (uint32_t)-1);
		pk__data_put_u32(b, err == 0 ? (uint32_t)t.socket : (uint32_t)-1);
	}
	sibling_lists(b, nr_cpus, "die_cpus_list");
	for (int c = 0; c < nr_cpus; c++) {
		struct pk_cpu_topology t = { .size = sizeof(t) };
		int err = pk_cpu_topology(c, &t);

		b->oom |= err == -ENOMEM;
		pk__data_put_u32(b, err == 0 ? (uint32_t)t.die : (uint32_t)-1);
	}
	/* Offline CPUs without topology are not an error; no memory is. */
	if (!b->oom)
		pk__error_clear();
}

/* The PMUs, scanned once for PMU_MAPPINGS, PMU_CAPS and CPU_PMU_CAPS; NULL
 * when there are none to scan (then those features say so); no memory
 * fails the file. */
static struct pk_pmus *scan_pmus(bool *oom)
{
	struct pk_pmus *pmus;
	int err = pk_pmus_scan(&pmus);

	*oom |= err == -ENOMEM;
	if (err < 0) {
		if (err != -ENOMEM)
			pk__error_clear();
		return NULL;
	}
	return pmus;
}

/*
 * The order perf 6.1 writes PMUs and caps in: the one readdir(3) gives
 * (its PMU list and each PMU's caps list are built as the directory is
 * read; the snapshot's are sorted by name).  order[i] is the i-th item's
 * index among the nr given, as directory `rel` lists its name; items the
 * directory does not list (it changed since) follow in their own order.
 * False when memory ran out.
 */
static bool dir_order(const char *rel, size_t nr, const char *(*name)(const void *, size_t),
		      const void *items, size_t *order)
{
	char path[PATH_MAX];
	unsigned char *taken = pk__calloc(nr ? nr : 1, 1);
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (!taken)
		return false;
	d = pk__sysfs_path(path, sizeof(path), rel) ? opendir(path) : NULL;
	while (d && (de = readdir(d)))
		for (size_t i = 0; i < nr; i++)
			if (!taken[i] && !strcmp(name(items, i), de->d_name)) {
				taken[i] = 1;
				order[n++] = i;
				break;
			}
	if (d)
		closedir(d);
	for (size_t i = 0; i < nr; i++)
		if (!taken[i])
			order[n++] = i;
	free(taken);
	return true;
}

static const char *pmu_name_at(const void *pmus, size_t i)
{
	return pk_pmu_name(pk_pmus_get(pmus, i));
}

static const char *cap_name_at(const void *pmu, size_t i)
{
	const char *name, *value;

	pk_pmu_cap(pmu, i, &name, &value);
	return name;
}

static void pmu_mappings(struct pk__data_blob *b, const struct pk_pmus *pmus, const size_t *order)
{
	size_t nr = pmus ? pk_pmus_nr(pmus) : 0;

	pk__data_put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		pk__data_put_u32(b, pk_pmu_type(pk_pmus_get(pmus, order[i])));
		pk__data_put_string(b, pk_pmu_name(pk_pmus_get(pmus, order[i])));
	}
}

/* One PMU's caps: their number, name/value string pairs, then (for
 * PMU_CAPS, not CPU_PMU_CAPS) the PMU's name. */
static void pmu_caps_of(struct pk__data_blob *b, const struct pk_pmu *pmu, bool with_name)
{
	size_t nr = pk_pmu_nr_caps(pmu), *order = pk__calloc(nr ? nr : 1, sizeof(*order));
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/caps", pk_pmu_name(pmu));
	if (!order || !dir_order(rel, nr, cap_name_at, pmu, order)) {
		b->oom = true;
		free(order);
		return;
	}
	pk__data_put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		const char *name, *value;

		pk_pmu_cap(pmu, order[i], &name, &value);
		pk__data_put_string(b, name);
		pk__data_put_string(b, value);
	}
	if (with_name)
		pk__data_put_string(b, pk_pmu_name(pmu));
	free(order);
}

/* PMU_CAPS: every PMU but "cpu" that has caps (perf 6.1 writes it with a
 * count of 0 when none has).  Hybrid PMUs would come first; perfkit does
 * not know hybrid machines yet. */
static void pmu_caps(struct pk__data_blob *b, const struct pk_pmus *pmus, const size_t *order)
{
	size_t nr = pmus ? pk_pmus_nr(pmus) : 0;
	uint32_t n = 0;

	for (size_t i = 0; i < nr; i++)
		n += strcmp(pk_pmu_name(pk_pmus_get(pmus, i)), "cpu") &&
		     pk_pmu_nr_caps(pk_pmus_get(pmus, i)) > 0;
	pk__data_put_u32(b, n);
	for (size_t i = 0; i < nr; i++) {
		const struct pk_pmu *pmu = pk_pmus_get(pmus, order[i]);

		if (strcmp(pk_pmu_name(pmu), "cpu") && pk_pmu_nr_caps(pmu) > 0)
			pmu_caps_of(b, pmu, true);
	}
}

/* NUMA_TOPOLOGY: per online node its id, MemTotal and MemFree (KiB) and
 * CPU list.  False (no section) without NUMA information, as perf. */
static bool numa_topology(struct pk__data_blob *b)
{
	int *nodes;
	size_t nr;
	int err = pk__host_nodes(&nodes, &nr);

	b->oom |= err == -ENOMEM;
	if (err < 0)
		return false;
	pk__data_put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		uint64_t total = 0, avail = 0;
		char cpus[4096];

		pk__host_node_mem(nodes[i], &total, &avail);
		pk__host_node_cpulist(nodes[i], cpus, sizeof(cpus));
		pk__data_put_u32(b, (uint32_t)nodes[i]);
		pk__data_put_u64(b, total);
		pk__data_put_u64(b, avail);
		pk__data_put_string(b, cpus);
	}
	free(nodes);
	return true;
}

/* MEM_TOPOLOGY: version 1, the block size, and per node its id and bitmap
 * of memory blocks (a bit count, then u64 words).  False without memory
 * hotplug information, as perf. */
static bool mem_topology(struct pk__data_blob *b)
{
	uint64_t bsize;
	int *nodes;
	size_t nr;
	int err;

	if (pk__host_mem_block_size(&bsize) < 0)
		return false;
	err = pk__host_nodes(&nodes, &nr);
	b->oom |= err == -ENOMEM;
	if (err < 0)
		return false;
	pk__data_put_u64(b, 1);
	pk__data_put_u64(b, bsize);
	pk__data_put_u64(b, nr);
	for (size_t i = 0; i < nr; i++) {
		uint64_t *bits, nr_bits;

		err = pk__host_node_blocks(nodes[i], &bits, &nr_bits);
		b->oom |= err == -ENOMEM;
		pk__data_put_u64(b, (uint64_t)nodes[i]);
		pk__data_put_u64(b, nr_bits);
		pk__data_put_u64(b, nr_bits);
		if (bits)
			pk__data_put(b, bits, (size_t)(nr_bits + 63) / 64 * sizeof(uint64_t));
		free(bits);
	}
	free(nodes);
	return true;
}

#define MAX_CACHE_IDX 4		/* perf 6.1 looks at cache index0..index3 */

static bool same_cache(const struct pk__host_cache *a, const struct pk__host_cache *c)
{
	return a->level == c->level && a->line_size == c->line_size && a->sets == c->sets &&
	       a->ways == c->ways && !strcmp(a->type, c->type) && !strcmp(a->size, c->size) &&
	       !strcmp(a->map, c->map);
}

static void put_cache(struct pk__data_blob *b, const struct pk__host_cache *c)
{
	pk__data_put_u32(b, c->level);
	pk__data_put_u32(b, c->line_size);
	pk__data_put_u32(b, c->sets);
	pk__data_put_u32(b, c->ways);
	pk__data_put_string(b, c->type);
	pk__data_put_string(b, c->size);
	pk__data_put_string(b, c->map);
}

/* CACHE: version 1, then each distinct cache of CPUs 0..nr_cpus-1 ordered
 * by level, first seen first within a level.  False when a cache index
 * cannot be read, as perf leaves the section out then. */
static bool caches(struct pk__data_blob *b, int nr_cpus)
{
	size_t cap = (size_t)nr_cpus * MAX_CACHE_IDX, n = 0;
	struct pk__host_cache *c = pk__calloc(cap ? cap : 1, sizeof(*c));
	bool ok = c != NULL;

	b->oom |= !c;
	for (int cpu = 0; ok && cpu < nr_cpus; cpu++)
		for (int idx = 0; ok && idx < MAX_CACHE_IDX; idx++) {
			size_t k = 0;
			int err = pk__host_cache(cpu, idx, &c[n]);

			if (err == 1)
				break;
			ok = err == 0;
			while (ok && k < n && !same_cache(&c[k], &c[n]))
				k++;
			n += ok && k == n;
		}
	if (ok) {
		pk__data_put_u32(b, 1);
		pk__data_put_u32(b, (uint32_t)n);
		/* A stable insertion sort by level (a handful of entries). */
		for (size_t k = 1; k < n; k++)
			for (size_t j = k; j > 0 && c[j - 1].level > c[j].level; j--) {
				struct pk__host_cache t = c[j];

				c[j] = c[j - 1];
				c[j - 1] = t;
			}
		for (size_t k = 0; k < n; k++)
			put_cache(b, &c[k]);
	}
	free(c);
	return ok;
}

/* What the machine features are written from, read once per gathering. */
struct machine {
	struct utsname u;
	bool have_u;		/* uname(2) worked */
	int nr_cpus;		/* configured CPUs; 0 when sysconf(3) cannot say */
	struct pk_pmus *pmus;	/* NULL when none could be scanned */
	size_t *pmu_order;	/* pmus' indices in the directory's order */
};

/* The payload of a kept feature about this machine; false for any other
 * (and for NRCPUS and NUMA_TOPOLOGY, read for each file).  What cannot be
 * known (uname or the CPU count failing) is left out, not written wrong. */
static bool machine_feature(int f, struct pk__data_blob *b, const struct machine *m)
{
	const struct utsname *u = &m->u;
	char s[512];

	switch (f) {
	case FEAT_HOSTNAME: case FEAT_OSRELEASE: case FEAT_ARCH:
		if (!m->have_u)
			return false;
		pk__data_put_string(b, f == FEAT_HOSTNAME ? u->nodename : f == FEAT_ARCH ? u->machine : u->release);
		return true;
	case FEAT_VERSION:
		snprintf(s, sizeof(s), "%s (perfkit)", pk_version());
		pk__data_put_string(b, s);
		return true;
	case FEAT_CPUDESC:
		pk__host_cpuinfo("model name", s, sizeof(s));
		pk__data_put_string(b, s);
		return true;
	case FEAT_CPUID: {
		char vendor[64], family[16], model[16], stepping[16];

		pk__host_cpuinfo("vendor_id", vendor, sizeof(vendor));
		pk__host_cpuinfo("cpu family", family, sizeof(family));
		pk__host_cpuinfo("model\t", model, sizeof(model));
		pk__host_cpuinfo("stepping", stepping, sizeof(stepping));
		snprintf(s, sizeof(s), "%s,%s,%s,%s", vendor, family, model, stepping);
		pk__data_put_string(b, s);
		return true;
	}
	case FEAT_TOTAL_MEM: pk__data_put_u64(b, pk__host_mem_total_kb()); return true;
	case FEAT_CPU_TOPOLOGY:
		if (m->nr_cpus > 0)
			cpu_topology(b, m->nr_cpus);
		return m->nr_cpus > 0;
	case FEAT_PMU_MAPPINGS: pmu_mappings(b, m->pmus, m->pmu_order); return true;
	case FEAT_MEM_TOPOLOGY: return mem_topology(b);
	case FEAT_CACHE: return m->nr_cpus > 0 && caches(b, m->nr_cpus);
	case FEAT_PMU_CAPS: pmu_caps(b, m->pmus, m->pmu_order); return true;
	case FEAT_CPU_PMU_CAPS: {
		const struct pk_pmu *cpu = m->pmus ? pk_pmus_find(m->pmus, "cpu") : NULL;

		if (cpu)
			pmu_caps_of(b, cpu, false);
		return cpu != NULL;
	}
	default:
		return false;
	}
}

/* ---- the kept description ------------------------------------------------ */

struct pk__data_host {
	unsigned int refs;		/* under host_lock: host_now's and each writer's */
	struct pk__data_blob key;	/* what it was gathered under (host_key) */
	struct pk__data_blob feat[FEAT_LAST];
	bool has[FEAT_LAST];
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pk__data_host *host_now;	/* the newest; holds one reference */

/* Sysfs file `rel` (under the root in force) into the key, "" when absent. */
static void key_file(struct pk__data_blob *k, const char *rel)
{
	char path[512], text[4096] = "";

	if (pk__sysfs_path(path, sizeof(path), rel))
		pk__read_file(path, text, sizeof(text));
	pk__data_put(k, text, strlen(text) + 1);
}

/* What must be unchanged for a kept description to stand: a few small
 * reads, against the hundreds gathering takes. */
static void host_key(struct pk__data_blob *k)
{
	char path[512] = "";
	struct utsname u;
	long nr_conf = pk__sys_sysconf(_SC_NPROCESSORS_CONF);
	uint64_t mem = pk__host_mem_total_kb();
	struct dirent *de;
	DIR *d;

	pk__sys_uname(&u);	/* zeroed when it fails */
	pk__sysfs_path(path, sizeof(path), "");
	pk__data_put(k, path, strlen(path) + 1);
	pk__data_put(k, &u, sizeof(u));
	pk__data_put(k, &nr_conf, sizeof(nr_conf));
	pk__data_put(k, &mem, sizeof(mem));
	key_file(k, "devices/system/cpu/online");
	key_file(k, "devices/system/node/online");
	d = pk__sysfs_path(path, sizeof(path), "bus/event_source/devices") ? opendir(path) : NULL;
	while (d && (de = readdir(d)))
		pk__data_put(k, de->d_name, strlen(de->d_name) + 1);
	if (d)
		closedir(d);
}

static void host_free(struct pk__data_host *h)
{
	if (!h)
		return;
	free(h->key.p);
	for (int f = 0; f < FEAT_LAST; f++)
		free(h->feat[f].p);
	free(h);
}

/* A new description under key k (taken over): NULL with the error record
 * set when memory ran out for any part of it. */
static struct pk__data_host *host_gather(struct pk__data_blob *k)
{
	struct pk__data_host *h = pk__calloc(1, sizeof(*h));
	long nr_cpus = pk__sys_sysconf(_SC_NPROCESSORS_CONF);
	struct machine m = { .nr_cpus = nr_cpus > 0 && nr_cpus < INT_MAX ? (int)nr_cpus : 0 };
	bool oom = false;
	int f;

	if (!h) {
		free(k->p);
		pk__error_nomem("the machine's description for perf.data");
		return NULL;
	}
	h->key = *k;
	m.have_u = pk__sys_uname(&m.u) == 0;
	m.pmus = scan_pmus(&oom);
	if (m.pmus) {
		size_t nr = pk_pmus_nr(m.pmus);

		if (!(m.pmu_order = pk__calloc(nr ? nr : 1, sizeof(*m.pmu_order))) ||
		    !dir_order("bus/event_source/devices", nr, pmu_name_at, m.pmus, m.pmu_order)) {
			free(m.pmu_order);
			pk_pmus_free(m.pmus);
			m.pmus = NULL;
			m.pmu_order = NULL;
			oom = true;
		}
	}
	for (f = 1; f < FEAT_LAST; f++)
		h->has[f] = machine_feature(f, &h->feat[f], &m);
	pk_pmus_free(m.pmus);
	free(m.pmu_order);
	if (oom)
		pk__error_nomem("the PMU list for perf.data's PMU features");
	for (f = 1; f < FEAT_LAST && !oom; f++)
		if (h->feat[f].oom || h->key.oom) {
			pk__error_nomem("the perf.data machine feature %d", f);
			oom = true;
		}
	if (oom) {
		host_free(h);
		return NULL;
	}
	return h;
}

int pk__data_host_get(struct pk__data_host **out)
{
	struct pk__data_blob k = { 0 };
	struct pk__data_host *h;

	*out = NULL;
	host_key(&k);
	pthread_mutex_lock(&host_lock);
	h = host_now;
	if (!h || k.oom || h->key.len != k.len || memcmp(h->key.p, k.p, k.len)) {
		/* Gathered under the lock: threads finishing files at once wait
		 * for one gathering rather than each doing its own. */
		h = host_gather(&k);
		if (!h) {
			pthread_mutex_unlock(&host_lock);
			return -ENOMEM;
		}
		if (host_now && --host_now->refs == 0)
			host_free(host_now);
		host_now = h;
		h->refs = 1;
	} else {
		free(k.p);
	}
	h->refs++;
	pthread_mutex_unlock(&host_lock);
	*out = h;
	return 0;
}

void pk__data_host_put(struct pk__data_host *h)
{
	bool last;

	if (!h)
		return;
	pthread_mutex_lock(&host_lock);
	last = --h->refs == 0;
	pthread_mutex_unlock(&host_lock);
	if (last)
		host_free(h);
}

/* The kept description is freed at exit (or dlclose), so that memory
 * checkers see nothing left. */
__attribute__((destructor)) static void host_drop(void)
{
	struct pk__data_host *h;

	pthread_mutex_lock(&host_lock);
	h = host_now;
	host_now = NULL;
	pthread_mutex_unlock(&host_lock);
	pk__data_host_put(h);
}

bool pk__data_host_feature(const struct pk__data_host *h, int f, struct pk__data_blob *b)
{
	switch (f) {
	case FEAT_NRCPUS: {
		long conf = pk__sys_sysconf(_SC_NPROCESSORS_CONF), onln = pk__sys_sysconf(_SC_NPROCESSORS_ONLN);

		/* Left out rather than 4294967295 CPUs when sysconf(3) cannot say. */
		if (conf < 0 || onln < 0 || conf > UINT32_MAX || onln > UINT32_MAX)
			return false;
		pk__data_put_u32(b, (uint32_t)conf);
		pk__data_put_u32(b, (uint32_t)onln);
		return true;
	}
	case FEAT_NUMA_TOPOLOGY: return numa_topology(b);
	default:
		if (f <= 0 || f >= FEAT_LAST || !h->has[f])
			return false;
		pk__data_put(b, h->feat[f].p, h->feat[f].len);
		return true;
	}
}
