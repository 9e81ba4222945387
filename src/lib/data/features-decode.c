/* SPDX-License-Identifier: MIT */
/*
 * features-decode.c - perf.data feature sections -> typed values
 * (include/perfkit/features.h): a bounds-checked cursor over a section's
 * bytes in either byte order, one small decoder per layout perf 6.1 writes
 * (tools/perf/util/header.c's process_* functions are the reference for
 * what a reader may expect), and an arena that owns everything a decoded
 * section hands out.  Pure: no file, no global state; fuzzed by
 * fuzz/fuzz_features.c.  The machine's features are decoded here, the
 * recording's in features-decode-rec.c.
 */
#include "data/features-decode.h"
#include "sys/sys.h"

#include <byteswap.h>
#include <errno.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The feature names, for error records. */
static const char *const feat_names[PK_DATA_FEAT_LAST] = {
#define PK__FEAT(id, NAME, name) [id] = #NAME,
#include "features.def"
#undef PK__FEAT
};

struct chunk {
	struct chunk *next;
	alignas(max_align_t) unsigned char data[];
};

void *pk__feat_alloc(struct pk__feat_cur *c, size_t size)
{
	struct chunk *ch;

	if (c->err)
		return NULL;
	ch = pk__calloc(1, sizeof(*ch) + (size ? size : 1));
	if (!ch) {
		c->err = pk__error_nomem("the decoded %s feature", feat_names[c->f->id]);
		return NULL;
	}
	ch->next = c->f->chunks;
	c->f->chunks = ch;
	return ch->data;
}

/* The first failure wins: later reads return zeros and change nothing. */
void pk__feat_fail(struct pk__feat_cur *c, const char *why)
{
	if (c->err)
		return;
	c->err = pk__error(-EINVAL, "decoding a perf.data feature section",
			   "%s: %s at byte %zu of %zu", feat_names[c->f->id], why, c->off, c->len);
}

const void *pk__feat_bytes(struct pk__feat_cur *c, size_t n, const char *what)
{
	const void *p;

	if (c->err)
		return NULL;
	if (n > c->len - c->off) {
		pk__feat_fail(c, what);
		return NULL;
	}
	p = c->p + c->off;
	c->off += n;
	return p;
}

uint32_t pk__feat_u32(struct pk__feat_cur *c)
{
	const void *p = pk__feat_bytes(c, 4, "a 32-bit field runs past the end");
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return c->swap ? bswap_32(v) : v;
}

uint64_t pk__feat_u64(struct pk__feat_cur *c)
{
	const void *p = pk__feat_bytes(c, 8, "a 64-bit field runs past the end");
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return c->swap ? bswap_64(v) : v;
}

bool pk__feat_count(struct pk__feat_cur *c, uint64_t nr, size_t min_each, const char *what)
{
	if (c->err)
		return false;
	if (min_each && nr > (c->len - c->off) / min_each) {
		pk__feat_fail(c, what);
		return false;
	}
	return true;
}

void *pk__feat_array(struct pk__feat_cur *c, uint64_t nr, size_t each, size_t min_bytes,
		     const char *what)
{
	if (!pk__feat_count(c, nr, min_bytes, what))
		return NULL;
	return pk__feat_alloc(c, (size_t)nr * each);
}

/* perf_header_string: u32 length, then that many bytes holding the string
 * and its NUL padding.  The copy is cut at the first NUL or the length. */
char *pk__feat_string(struct pk__feat_cur *c)
{
	uint32_t n = pk__feat_u32(c);
	const char *p = pk__feat_bytes(c, n, "a string runs past the end");
	size_t used;
	char *s;

	if (!p)
		return NULL;
	used = strnlen(p, n);
	s = pk__feat_alloc(c, used + 1);
	if (s)
		memcpy(s, p, used);
	return s;
}

char **pk__feat_strings(struct pk__feat_cur *c, uint32_t *nr)
{
	char **v;

	*nr = pk__feat_u32(c);
	v = pk__feat_array(c, *nr, sizeof(char *), 4, "a string list's count exceeds its bytes");
	for (uint32_t i = 0; v && i < *nr; i++)
		v[i] = pk__feat_string(c);
	if (!v)
		*nr = 0;
	return v;
}

/* ---- the machine ---------------------------------------------------------- */

static void *nrcpus(struct pk__feat_cur *c)
{
	struct pk_feature_nrcpus *v = pk__feat_alloc(c, sizeof(*v));

	if (v) {
		v->available = pk__feat_u32(c);
		v->online = pk__feat_u32(c);
	}
	return v;
}

/* The ids of nr_cpus CPUs (core, socket), then dies: both optional, as
 * files from older perfs end after the sibling lists. */
static void cpu_ids(struct pk__feat_cur *c, struct pk_feature_cpu_topology *t, uint32_t nr_cpus)
{
	if (!nr_cpus || c->off == c->len)
		return;
	t->cpus = pk__feat_array(c, nr_cpus, sizeof(*t->cpus), 8,
				 "the CPU ids (NRCPUS of them) run past the end");
	if (!t->cpus)
		return;
	t->nr_cpus = nr_cpus;
	for (uint32_t i = 0; i < nr_cpus; i++) {
		t->cpus[i].core_id = (int32_t)pk__feat_u32(c);
		t->cpus[i].socket_id = (int32_t)pk__feat_u32(c);
		t->cpus[i].die_id = -1;
	}
	if (c->off == c->len)
		return;
	t->dies = pk__feat_strings(c, &t->nr_dies);
	if (!pk__feat_count(c, nr_cpus, 4, "the die ids (NRCPUS of them) run past the end"))
		return;
	t->have_dies = true;
	for (uint32_t i = 0; i < nr_cpus; i++)
		t->cpus[i].die_id = (int32_t)pk__feat_u32(c);
}

static void *cpu_topology(struct pk__feat_cur *c, uint32_t nr_cpus)
{
	struct pk_feature_cpu_topology *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->sockets = pk__feat_strings(c, &t->nr_sockets);
	t->threads = pk__feat_strings(c, &t->nr_threads);
	cpu_ids(c, t, nr_cpus);
	return t;
}

static void *numa_topology(struct pk__feat_cur *c)
{
	struct pk_feature_numa_topology *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->nodes = pk__feat_array(c, t->nr, sizeof(*t->nodes), 24,
				  "the node count exceeds the section");
	for (uint32_t i = 0; t->nodes && i < t->nr; i++) {
		t->nodes[i].node = pk__feat_u32(c);
		t->nodes[i].mem_total_kb = pk__feat_u64(c);
		t->nodes[i].mem_free_kb = pk__feat_u64(c);
		t->nodes[i].cpus = pk__feat_string(c);
	}
	return t;
}

static void *cache(struct pk__feat_cur *c)
{
	struct pk_feature_cache *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->version = pk__feat_u32(c);
	t->nr = pk__feat_u32(c);
	t->caches = pk__feat_array(c, t->nr, sizeof(*t->caches), 28,
				   "the cache count exceeds the section");
	for (uint32_t i = 0; t->caches && i < t->nr; i++) {
		struct pk_feature_cache_level *l = &t->caches[i];

		l->level = pk__feat_u32(c);
		l->line_size = pk__feat_u32(c);
		l->sets = pk__feat_u32(c);
		l->ways = pk__feat_u32(c);
		l->type = pk__feat_string(c);
		l->size = pk__feat_string(c);
		l->map = pk__feat_string(c);
	}
	return t;
}

static void *mem_topology(struct pk__feat_cur *c)
{
	struct pk_feature_mem_topology *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->version = pk__feat_u64(c);
	t->block_size = pk__feat_u64(c);
	t->nr = pk__feat_u64(c);
	t->nodes = pk__feat_array(c, t->nr, sizeof(*t->nodes), 24,
				  "the node count exceeds the section");
	for (uint64_t i = 0; t->nodes && i < t->nr; i++) {
		struct pk_feature_mem_node *n = &t->nodes[i];
		uint64_t words;

		n->node = pk__feat_u64(c);
		pk__feat_u64(c);	/* the node's size; the bitmap's own count follows */
		n->nr_bits = pk__feat_u64(c);
		words = n->nr_bits / 64 + (n->nr_bits % 64 != 0);
		n->bits = pk__feat_array(c, words, 8, 8, "a memory block bitmap runs past the end");
		for (uint64_t w = 0; n->bits && w < words; w++)
			n->bits[w] = pk__feat_u64(c);
	}
	return t;
}

static void *pmu_mappings(struct pk__feat_cur *c)
{
	struct pk_feature_pmu_mappings *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->pmus = pk__feat_array(c, t->nr, sizeof(*t->pmus), 8, "the PMU count exceeds the section");
	for (uint32_t i = 0; t->pmus && i < t->nr; i++) {
		t->pmus[i].type = pk__feat_u32(c);
		t->pmus[i].name = pk__feat_string(c);
	}
	return t;
}

/* One PMU's caps: a count, name/value pairs, then (PMU_CAPS) the PMU's name. */
static void caps_of(struct pk__feat_cur *c, struct pk_feature_pmu_caps_of *p, bool named)
{
	p->nr_caps = pk__feat_u32(c);
	p->caps = pk__feat_array(c, p->nr_caps, sizeof(*p->caps), 8,
				 "the caps count exceeds the section");
	for (uint32_t i = 0; p->caps && i < p->nr_caps; i++) {
		p->caps[i].name = pk__feat_string(c);
		p->caps[i].value = pk__feat_string(c);
	}
	if (named)
		p->pmu = pk__feat_string(c);
}

static void *pmu_caps(struct pk__feat_cur *c, bool cpu_only)
{
	struct pk_feature_pmu_caps *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = cpu_only ? 1 : pk__feat_u32(c);
	t->pmus = pk__feat_array(c, t->nr, sizeof(*t->pmus), cpu_only ? 4 : 8,
				 "the PMU count exceeds the section");
	for (uint32_t i = 0; t->pmus && i < t->nr; i++)
		caps_of(c, &t->pmus[i], !cpu_only);
	return t;
}

static void *hybrid_topology(struct pk__feat_cur *c)
{
	struct pk_feature_hybrid_topology *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->pmus = pk__feat_array(c, t->nr, sizeof(*t->pmus), 8, "the PMU count exceeds the section");
	for (uint32_t i = 0; t->pmus && i < t->nr; i++) {
		t->pmus[i].pmu = pk__feat_string(c);
		t->pmus[i].cpus = pk__feat_string(c);
	}
	return t;
}

/* A feature of one string, or CMDLINE's list, or one u64. */
static void scalar(struct pk__feat_cur *c, struct pk_feature *f)
{
	switch (f->id) {
	case PK_DATA_FEAT_CMDLINE:
		f->argv = pk__feat_strings(c, &f->argc);
		break;
	case PK_DATA_FEAT_TOTAL_MEM:
	case PK_DATA_FEAT_CLOCKID:
	case PK_DATA_FEAT_DIR_FORMAT:
		f->u64 = pk__feat_u64(c);
		f->have_u64 = !c->err;
		break;
	case PK_DATA_FEAT_STAT:
	case PK_DATA_FEAT_BRANCH_STACK:
		break;		/* flags: no data */
	default:
		f->string = pk__feat_string(c);
		break;
	}
}

static void *machine(struct pk__feat_cur *c, uint32_t nr_cpus)
{
	switch (c->f->id) {
	case PK_DATA_FEAT_NRCPUS: return nrcpus(c);
	case PK_DATA_FEAT_CPU_TOPOLOGY: return cpu_topology(c, nr_cpus);
	case PK_DATA_FEAT_NUMA_TOPOLOGY: return numa_topology(c);
	case PK_DATA_FEAT_CACHE: return cache(c);
	case PK_DATA_FEAT_MEM_TOPOLOGY: return mem_topology(c);
	case PK_DATA_FEAT_PMU_MAPPINGS: return pmu_mappings(c);
	case PK_DATA_FEAT_PMU_CAPS: return pmu_caps(c, false);
	case PK_DATA_FEAT_CPU_PMU_CAPS: return pmu_caps(c, true);
	case PK_DATA_FEAT_HYBRID_TOPOLOGY: return hybrid_topology(c);
	default:
		scalar(c, c->f);
		return NULL;
	}
}

int pk_feature_decode(unsigned int id, const void *buf, size_t len, unsigned int flags,
		      uint32_t nr_cpus, struct pk_feature **out)
{
	struct pk__feat_cur c = { .p = buf, .len = buf ? len : 0, .swap = flags & PK_FEATURE_SWAP };
	struct pk_feature *f;

	pk__error_clear();
	*out = NULL;
	if (id == 0 || id >= PK_DATA_FEAT_LAST || id == PK_DATA_FEAT_TRACING_DATA)
		return pk__error(-EOPNOTSUPP, "decoding a perf.data feature section",
				 "feature %u has no typed decoding", id);
	f = pk__calloc(1, sizeof(*f));
	if (!f)
		return pk__error_nomem("a decoded feature section");
	f->id = id;
	c.f = f;
	f->value = pk__feat_recording(&c);
	if (!f->value && !c.err && !c.handled)
		f->value = machine(&c, nr_cpus);
	if (c.err) {
		pk_feature_free(f);
		return c.err;
	}
	*out = f;
	return 0;
}

void pk_feature_free(struct pk_feature *f)
{
	if (!f)
		return;
	for (struct chunk *ch = f->chunks, *next; ch; ch = next) {
		next = ch->next;
		free(ch);
	}
	free(f);
}

int pk_data_reader_decode(struct pk_data_reader *r, unsigned int id, struct pk_feature **out)
{
	uint32_t avail = 0, online;
	const void *p;
	size_t len;
	int err;

	*out = NULL;
	err = pk_data_reader_feature(r, id, &p, &len);
	if (err < 0)
		return err;
	if (pk_data_reader_nr_cpus(r, &avail, &online) < 0)
		avail = 0;
	/* The reader takes files of this machine's byte order only, so far. */
	return pk_feature_decode(id, p, len, 0, avail, out);
}

/* ---- the views ------------------------------------------------------------- */

unsigned int pk_feature_id(const struct pk_feature *f)
{
	return f->id;
}

#define VIEW(fn, type, ID)							\
	const struct type *fn(const struct pk_feature *f)			\
	{									\
		return f && f->id == PK_DATA_FEAT_##ID ? f->value : NULL;	\
	}

VIEW(pk_feature_nrcpus, pk_feature_nrcpus, NRCPUS)
VIEW(pk_feature_cpu_topology, pk_feature_cpu_topology, CPU_TOPOLOGY)
VIEW(pk_feature_numa_topology, pk_feature_numa_topology, NUMA_TOPOLOGY)
VIEW(pk_feature_cache, pk_feature_cache, CACHE)
VIEW(pk_feature_mem_topology, pk_feature_mem_topology, MEM_TOPOLOGY)
VIEW(pk_feature_group_desc, pk_feature_group_desc, GROUP_DESC)
VIEW(pk_feature_pmu_mappings, pk_feature_pmu_mappings, PMU_MAPPINGS)
VIEW(pk_feature_build_ids, pk_feature_build_ids, BUILD_ID)
VIEW(pk_feature_sample_time, pk_feature_sample_time, SAMPLE_TIME)
VIEW(pk_feature_clock_data, pk_feature_clock_data, CLOCK_DATA)
VIEW(pk_feature_compressed, pk_feature_compressed, COMPRESSED)
VIEW(pk_feature_auxtrace, pk_feature_auxtrace, AUXTRACE)
VIEW(pk_feature_hybrid_topology, pk_feature_hybrid_topology, HYBRID_TOPOLOGY)
VIEW(pk_feature_bpf_progs, pk_feature_bpf_progs, BPF_PROG_INFO)
VIEW(pk_feature_btfs, pk_feature_btfs, BPF_BTF)
VIEW(pk_feature_event_desc, pk_feature_event_desc, EVENT_DESC)

const struct pk_feature_pmu_caps *pk_feature_pmu_caps(const struct pk_feature *f)
{
	bool caps = f && (f->id == PK_DATA_FEAT_PMU_CAPS || f->id == PK_DATA_FEAT_CPU_PMU_CAPS);

	return caps ? f->value : NULL;
}

const char *pk_feature_string(const struct pk_feature *f)
{
	return f ? f->string : NULL;
}

char *const *pk_feature_cmdline(const struct pk_feature *f, uint32_t *nr)
{
	bool cmdline = f && f->id == PK_DATA_FEAT_CMDLINE;

	*nr = cmdline ? f->argc : 0;
	return cmdline ? f->argv : NULL;
}

int pk_feature_u64(const struct pk_feature *f, uint64_t *value)
{
	if (!f || !f->have_u64)
		return -ENOENT;
	*value = f->u64;
	return 0;
}
