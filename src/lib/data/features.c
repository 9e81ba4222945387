/* SPDX-License-Identifier: MIT */
/*
 * features.c - the perf.data feature sections perfkit writes, in perf's
 * encodings (tools/perf/Documentation/perf.data-file-format.txt): strings
 * padded to 64 bytes, string lists, the event descriptions, the CPU
 * topology, the NUMA nodes, caches and memory blocks, the PMU mappings
 * and caps, groups, the sample time range, the BPF programs
 * (features-bpf.c) and, for tracepoints, the tracing data (tracing.c).
 */
#include "data.h"
#include "host/host.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The feature ids, from the list the reader shares (features.def). */
enum {
#define PK__FEAT(id, NAME, name) FEAT_##NAME = (id),
#include "features.def"
#undef PK__FEAT
	FEAT_LAST = 32,		/* the bitmap's bits perf 6.1 reserves */
};

/* perf's name of feature f, for messages. */
static const char *feat_name(int f)
{
	static const char *const names[FEAT_LAST] = {
#define PK__FEAT(id, NAME, name) [id] = name,
#include "features.def"
#undef PK__FEAT
	};

	return f > 0 && f < FEAT_LAST && names[f] ? names[f] : "unknown";
}

struct blob {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct blob *b, const void *p, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 256) + len;
		unsigned char *n = pk__realloc(b->p, cap);

		if (!n) {
			b->oom = true;
			return;
		}
		b->p = n;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

static void put_u32(struct blob *b, uint32_t v) { put(b, &v, sizeof(v)); }
static void put_u64(struct blob *b, uint64_t v) { put(b, &v, sizeof(v)); }

/* perf_header_string: u32 length, then the string NUL-padded to 64 bytes. */
static void put_string(struct blob *b, const char *s)
{
	static const char zeros[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	put_u32(b, (uint32_t)padded);
	put(b, s, n - 1);
	put(b, zeros, padded - (n - 1));
}

static void event_desc(struct pk_data_writer *w, struct blob *b)
{
	put_u32(b, (uint32_t)w->nr_events);
	put_u32(b, PK__ATTR_SIZE);
	for (size_t i = 0; i < w->nr_events; i++) {
		put(b, &w->ev[i].attr, PK__ATTR_SIZE);
		put_u32(b, (uint32_t)w->ev[i].nr_ids);
		put_string(b, w->ev[i].name);
		put(b, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
}

/* Unique non-empty lists of `file` over the CPUs, as a perf string list. */
static void sibling_lists(struct blob *b, int nr_cpus, const char *file)
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
	put_u32(b, n);
	for (uint32_t k = 0; k < n; k++)
		put_string(b, seen[k]);
	free(seen);
}

/* Three revisions in one: sockets and threads lists, core/socket ids, dies. */
static void cpu_topology(struct blob *b, int nr_cpus)
{
	sibling_lists(b, nr_cpus, "core_siblings_list");
	sibling_lists(b, nr_cpus, "thread_siblings_list");
	for (int c = 0; c < nr_cpus; c++) {
		struct pk_cpu_topology t = { .size = sizeof(t) };
		int err = pk_cpu_topology(c, &t);

		b->oom |= err == -ENOMEM;
		put_u32(b, err == 0 ? (uint32_t)t.core : (uint32_t)-1);
		put_u32(b, err == 0 ? (uint32_t)t.socket : (uint32_t)-1);
	}
	sibling_lists(b, nr_cpus, "die_cpus_list");
	for (int c = 0; c < nr_cpus; c++) {
		struct pk_cpu_topology t = { .size = sizeof(t) };
		int err = pk_cpu_topology(c, &t);

		b->oom |= err == -ENOMEM;
		put_u32(b, err == 0 ? (uint32_t)t.die : (uint32_t)-1);
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

static void pmu_mappings(struct blob *b, const struct pk_pmus *pmus)
{
	size_t nr = pmus ? pk_pmus_nr(pmus) : 0;

	put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		put_u32(b, pk_pmu_type(pk_pmus_get(pmus, i)));
		put_string(b, pk_pmu_name(pk_pmus_get(pmus, i)));
	}
}

/* One PMU's caps: their number, name/value string pairs, then (for
 * PMU_CAPS, not CPU_PMU_CAPS) the PMU's name. */
static void pmu_caps_of(struct blob *b, const struct pk_pmu *pmu, bool with_name)
{
	put_u32(b, (uint32_t)pk_pmu_nr_caps(pmu));
	for (size_t i = 0; i < pk_pmu_nr_caps(pmu); i++) {
		const char *name, *value;

		pk_pmu_cap(pmu, i, &name, &value);
		put_string(b, name);
		put_string(b, value);
	}
	if (with_name)
		put_string(b, pk_pmu_name(pmu));
}

/* PMU_CAPS: every PMU but "cpu" that has caps (perf 6.1 writes it with a
 * count of 0 when none has).  Hybrid PMUs would come first; perfkit does
 * not know hybrid machines yet. */
static void pmu_caps(struct blob *b, const struct pk_pmus *pmus)
{
	size_t nr = pmus ? pk_pmus_nr(pmus) : 0;
	uint32_t n = 0;

	for (size_t i = 0; i < nr; i++)
		n += strcmp(pk_pmu_name(pk_pmus_get(pmus, i)), "cpu") &&
		     pk_pmu_nr_caps(pk_pmus_get(pmus, i)) > 0;
	put_u32(b, n);
	for (size_t i = 0; i < nr; i++) {
		const struct pk_pmu *pmu = pk_pmus_get(pmus, i);

		if (strcmp(pk_pmu_name(pmu), "cpu") && pk_pmu_nr_caps(pmu) > 0)
			pmu_caps_of(b, pmu, true);
	}
}

/* NUMA_TOPOLOGY: per online node its id, MemTotal and MemFree (KiB) and
 * CPU list.  False (no section) without NUMA information, as perf. */
static bool numa_topology(struct blob *b)
{
	int *nodes;
	size_t nr;
	int err = pk__host_nodes(&nodes, &nr);

	b->oom |= err == -ENOMEM;
	if (err < 0)
		return false;
	put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		uint64_t total = 0, avail = 0;
		char cpus[4096];

		pk__host_node_mem(nodes[i], &total, &avail);
		pk__host_node_cpulist(nodes[i], cpus, sizeof(cpus));
		put_u32(b, (uint32_t)nodes[i]);
		put_u64(b, total);
		put_u64(b, avail);
		put_string(b, cpus);
	}
	free(nodes);
	return true;
}

/* MEM_TOPOLOGY: version 1, the block size, and per node its id and bitmap
 * of memory blocks (a bit count, then u64 words).  False without memory
 * hotplug information, as perf. */
static bool mem_topology(struct blob *b)
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
	put_u64(b, 1);
	put_u64(b, bsize);
	put_u64(b, nr);
	for (size_t i = 0; i < nr; i++) {
		uint64_t *bits, nr_bits;

		err = pk__host_node_blocks(nodes[i], &bits, &nr_bits);
		b->oom |= err == -ENOMEM;
		put_u64(b, (uint64_t)nodes[i]);
		put_u64(b, nr_bits);
		put_u64(b, nr_bits);
		if (bits)
			put(b, bits, (size_t)(nr_bits + 63) / 64 * sizeof(uint64_t));
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

static void put_cache(struct blob *b, const struct pk__host_cache *c)
{
	put_u32(b, c->level);
	put_u32(b, c->line_size);
	put_u32(b, c->sets);
	put_u32(b, c->ways);
	put_string(b, c->type);
	put_string(b, c->size);
	put_string(b, c->map);
}

/* CACHE: version 1, then each distinct cache of CPUs 0..nr_cpus-1 ordered
 * by level, first seen first within a level.  False when a cache index
 * cannot be read, as perf leaves the section out then. */
static bool caches(struct blob *b, int nr_cpus)
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
		put_u32(b, 1);
		put_u32(b, (uint32_t)n);
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

/*
 * One BUILD_ID entry, as perf writes it: a record header (misc says user or
 * kernel, and that the size byte is valid), pid -1 (the host), 20 bytes of
 * id, its size, two reserved fields, and the name NUL-padded to 64 bytes.
 */
static void build_id(struct blob *b, const struct pk__data_build_id *e)
{
	static const char zeros[64];
	struct {
		struct perf_event_header h;
		int32_t pid;
		uint8_t data[20];
		uint8_t size, reserved1;
		uint16_t reserved2;
	} __attribute__((packed)) r = { 0 };
	size_t n = strlen(e->name) + 1, padded = (n + 63) & ~(size_t)63;

	_Static_assert(sizeof(r) == 36, "perf_record_header_build_id is 36 bytes");
	r.h.type = 0;
	r.h.misc = (uint16_t)((e->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
			      (1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE */);
	r.h.size = (uint16_t)(sizeof(r) + padded);
	r.pid = -1;
	memcpy(r.data, e->id, e->size);
	r.size = e->size;
	put(b, &r, sizeof(r));
	put(b, e->name, n - 1);
	put(b, zeros, padded - (n - 1));
}

/* BPF_PROG_INFO and BPF_BTF (features-bpf.c), through put(). */
static void put_any(void *b, const void *p, size_t len) { put(b, p, len); }

static bool bpf_feature(const struct pk_data_writer *w, struct blob *b, bool btf)
{
	pk__data_bpf_feature(w->bpf, btf, put_any, b);
	return true;
}

/* What the machine features are written from, read once per file. */
struct machine {
	struct utsname u;
	int nr_cpus;
	struct pk_pmus *pmus;	/* NULL when none could be scanned */
};

/* The payload of a feature about this machine; false for any other. */
static bool machine_feature(int f, struct blob *b, const struct machine *m)
{
	const struct utsname *u = &m->u;
	int nr_cpus = m->nr_cpus;

	char s[512];

	switch (f) {
	case FEAT_HOSTNAME: put_string(b, u->nodename); return true;
	case FEAT_OSRELEASE: put_string(b, u->release); return true;
	case FEAT_VERSION:
		snprintf(s, sizeof(s), "%s (perfkit)", pk_version());
		put_string(b, s);
		return true;
	case FEAT_ARCH: put_string(b, u->machine); return true;
	case FEAT_NRCPUS:
		put_u32(b, (uint32_t)nr_cpus);
		put_u32(b, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
		return true;
	case FEAT_CPUDESC:
		pk__host_cpuinfo("model name", s, sizeof(s));
		put_string(b, s);
		return true;
	case FEAT_CPUID: {
		char vendor[64], family[16], model[16], stepping[16];

		pk__host_cpuinfo("vendor_id", vendor, sizeof(vendor));
		pk__host_cpuinfo("cpu family", family, sizeof(family));
		pk__host_cpuinfo("model\t", model, sizeof(model));
		pk__host_cpuinfo("stepping", stepping, sizeof(stepping));
		snprintf(s, sizeof(s), "%s,%s,%s,%s", vendor, family, model, stepping);
		put_string(b, s);
		return true;
	}
	case FEAT_TOTAL_MEM: put_u64(b, pk__host_mem_total_kb()); return true;
	case FEAT_CPU_TOPOLOGY: cpu_topology(b, nr_cpus); return true;
	case FEAT_PMU_MAPPINGS: pmu_mappings(b, m->pmus); return true;
	case FEAT_NUMA_TOPOLOGY: return numa_topology(b);
	case FEAT_MEM_TOPOLOGY: return mem_topology(b);
	case FEAT_CACHE: return caches(b, nr_cpus);
	case FEAT_PMU_CAPS: pmu_caps(b, m->pmus); return true;
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

/*
 * HEADER_TRACING_DATA when a tracepoint was recorded (tracing.c).  Without
 * tracefs the section is left out rather than the recording lost: perf then
 * refuses the file, but perfkit can still read it.
 */
static bool tracing_data(struct pk_data_writer *w, struct blob *b)
{
	unsigned char *p;
	size_t len;
	int err = pk__data_writer_tracing(NULL, w->ev, w->nr_events, &p, &len);

	if (err == -ENOMEM)
		b->oom = true;
	else if (err < 0)
		pk__error_clear();
	if (err < 0 || !len)
		return false;
	put(b, p, len);
	free(p);
	return true;
}

/* The payload of a feature about what was recorded (the writer's state);
 * the machine's are machine_feature's.  False when perfkit does not write it. */
static bool feature(struct pk_data_writer *w, int f, struct blob *b, const struct machine *m)
{
	switch (f) {
	case FEAT_TRACING_DATA: return tracing_data(w, b);
	case FEAT_BUILD_ID:
		if (!w->nr_build_ids)
			return false;
		for (size_t i = 0; i < w->nr_build_ids; i++)
			build_id(b, &w->build_ids[i]);
		return true;
	case FEAT_CMDLINE:
		put_u32(b, (uint32_t)w->nr_cmdline);
		for (size_t i = 0; i < w->nr_cmdline; i++)
			put_string(b, w->cmdline[i]);
		return true;
	case FEAT_EVENT_DESC: event_desc(w, b); return true;
	case FEAT_BPF_PROG_INFO: return bpf_feature(w, b, false);
	case FEAT_BPF_BTF: return bpf_feature(w, b, true);
	case FEAT_GROUP_DESC:
		if (!w->nr_groups)
			return false;
		put_u32(b, (uint32_t)w->nr_groups);
		for (size_t g = 0; g < w->nr_groups; g++) {
			put_string(b, "{anon_group}");	/* perf 6.1's name for an unnamed {a,b} */
			put_u32(b, (uint32_t)w->groups[g].leader);
			put_u32(b, (uint32_t)w->groups[g].nr_members);
		}
		return true;
	case FEAT_SAMPLE_TIME:
		if (!w->have_sample_time)
			return false;
		put_u64(b, w->first_sample);
		put_u64(b, w->last_sample);
		return true;
	case FEAT_CLOCKID:
		if (!w->have_clock || !w->clock_res_ns)
			return false;
		put_u64(b, w->clock_res_ns);
		return true;
	case FEAT_CLOCK_DATA:
		if (!w->have_clock)
			return false;
		put_u32(b, 1);		/* version */
		put_u32(b, (uint32_t)w->clockid);
		put_u64(b, w->clock_tod_ns);
		put_u64(b, w->clock_ns);
		return true;
	case FEAT_COMPRESSED:
		if (!w->zcs)
			return false;
		put_u32(b, 1);		/* version */
		put_u32(b, 1);		/* type: zstd */
		put_u32(b, (uint32_t)w->comp_level);
		put_u32(b, w->comp_out ? (uint32_t)((w->comp_in + w->comp_out / 2) / w->comp_out) : 1);
		put_u32(b, PK__COMP_MMAP_LEN);	/* what one record may decompress to */
		return true;
	default:
		return machine_feature(f, b, m);
	}
}

int pk__data_writer_features(struct pk_data_writer *w, uint64_t flags[4])
{
	struct blob blobs[FEAT_LAST] = { { 0 } };
	struct pk__file_section table[FEAT_LAST];
	struct machine m = { .nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF) };
	bool pmus_oom = false;
	int err = 0, n = 0;
	uint64_t at;

	uname(&m.u);
	m.pmus = scan_pmus(&pmus_oom);
	for (int f = 1; f < FEAT_LAST; f++)
		if (feature(w, f, &blobs[f], &m)) {
			flags[f / 64] |= 1ULL << (f % 64);
			n++;
		}
	pk_pmus_free(m.pmus);
	if (pmus_oom)
		err = pk__error_nomem("the PMU list for perf.data's PMU features");
	/* A section left out because memory ran out fails the file too. */
	for (int f = 1; f < FEAT_LAST && !err; f++)
		if (blobs[f].oom)
			err = pk__error_nomem("the perf.data %s feature section", feat_name(f));
	/* The table of sections comes right after the data; the payloads follow it. */
	at = pk__data_writer_pos(w) + (uint64_t)n * sizeof(table[0]);
	n = 0;
	for (int f = 1; f < FEAT_LAST; f++) {
		if (!(flags[f / 64] & (1ULL << (f % 64))))
			continue;
		table[n++] = (struct pk__file_section){ at, blobs[f].len };
		at += blobs[f].len;
	}
	if (!err)
		err = pk__data_writer_put(w, table, (size_t)n * sizeof(table[0]));
	for (int f = 1; f < FEAT_LAST; f++) {
		if (!err && blobs[f].len)
			err = pk__data_writer_put(w, blobs[f].p, blobs[f].len);
		free(blobs[f].p);
	}
	return err;
}

int pk__data_writer_feature(struct pk_data_writer *w, int f, unsigned char **p, size_t *len)
{
	struct blob b = { 0 };
	struct machine m = { .nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF) };
	bool has, pmus_oom = false;

	*p = NULL;
	*len = 0;
	uname(&m.u);
	m.pmus = scan_pmus(&pmus_oom);
	has = feature(w, f, &b, &m);
	pk_pmus_free(m.pmus);
	if (pmus_oom || (has && b.oom)) {
		free(b.p);
		return pk__error_nomem("a perf.data feature section");
	}
	if (!has) {
		free(b.p);
		return 0;
	}
	*p = b.p;
	*len = b.len;
	return 1;
}
