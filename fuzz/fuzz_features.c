/* SPDX-License-Identifier: MIT */
/*
 * fuzz_features.c - libFuzzer target for the typed feature decoders
 * (pk_feature_decode): the first byte picks the feature id, the second the
 * byte order (its low bit) and the NRCPUS count CPU_TOPOLOGY is read with
 * (the rest), and the remaining bytes are the section.  Whatever the bytes,
 * decoding either fails with -EINVAL and an error record or gives values
 * whose strings are NUL-terminated and whose arrays hold the counts they
 * claim; every byte handed out is read here so ASan sees a bad pointer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static volatile size_t sink;

static void touch(const char *s)
{
	if (!s)
		abort();
	sink += strlen(s);
}

static void strings(char **v, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		touch(v[i]);
}

static void machine(const struct pk_feature *f)
{
	const struct pk_feature_cpu_topology *t = pk_feature_cpu_topology(f);
	const struct pk_feature_cache *c = pk_feature_cache(f);
	const struct pk_feature_mem_topology *m = pk_feature_mem_topology(f);
	const struct pk_feature_pmu_caps *p = pk_feature_pmu_caps(f);
	const struct pk_feature_numa_topology *n = pk_feature_numa_topology(f);

	if (t) {
		strings(t->sockets, t->nr_sockets);
		strings(t->threads, t->nr_threads);
		strings(t->dies, t->nr_dies);
		for (uint32_t i = 0; i < t->nr_cpus; i++)
			sink += (size_t)t->cpus[i].die_id;
	}
	for (uint32_t i = 0; c && i < c->nr; i++) {
		touch(c->caches[i].type);
		touch(c->caches[i].map);
	}
	for (uint64_t i = 0; m && i < m->nr; i++)
		for (uint64_t w = 0; w < (m->nodes[i].nr_bits + 63) / 64; w++)
			sink += m->nodes[i].bits[w];
	for (uint32_t i = 0; p && i < p->nr; i++)
		for (uint32_t k = 0; k < p->pmus[i].nr_caps; k++)
			touch(p->pmus[i].caps[k].value);
	for (uint32_t i = 0; n && i < n->nr; i++)
		touch(n->nodes[i].cpus);
}

/* Each function perf's header would name: a name within its buffer, or
 * one of the documented errors. */
static void bpf_funcs(const struct pk_feature_bpf_prog *p)
{
	struct pk_feature_bpf_func fn = { .size = sizeof(fn) };
	int n;

	for (uint32_t sub = 0; p->info && sub < 64; sub++) {
		n = pk_feature_bpf_prog_func(p, NULL, sub, &fn);
		if (n <= 0) {
			if (n != 0 && n != -ENOENT && n != -EINVAL && n != -ENOMEM)
				abort();
			return;
		}
		if ((uint32_t)n <= sub || !memchr(fn.name, '\0', sizeof(fn.name)))
			abort();
		sink += fn.addr + fn.len + (unsigned char)fn.name[0];
	}
}

static void recording(const struct pk_feature *f)
{
	const struct pk_feature_event_desc *e = pk_feature_event_desc(f);
	const struct pk_feature_build_ids *b = pk_feature_build_ids(f);
	const struct pk_feature_bpf_progs *p = pk_feature_bpf_progs(f);
	const struct pk_feature_btfs *t = pk_feature_btfs(f);

	for (uint32_t i = 0; e && i < e->nr; i++) {
		touch(e->events[i].name);
		sink += ((const unsigned char *)e->events[i].attr)[PK_DATA_READER_ATTR_SIZE - 1];
		for (uint32_t k = 0; k < e->events[i].nr_ids; k++)
			sink += e->events[i].ids[k];
	}
	for (uint32_t i = 0; b && i < b->nr; i++)
		touch(b->ids[i].filename);
	for (uint32_t i = 0; p && i < p->nr; i++)
		if (p->progs[i].data_len)
			sink += p->progs[i].data[p->progs[i].data_len - 1];
	for (uint32_t i = 0; p && i < p->nr; i++)
		bpf_funcs(&p->progs[i]);
	for (uint32_t i = 0; t && i < t->nr; i++)
		if (t->btfs[i].data_size)
			sink += t->btfs[i].data[t->btfs[i].data_size - 1];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_feature *f;
	int err;

	if (size < 2)
		return 0;
	err = pk_feature_decode(data[0] % PK_DATA_FEAT_LAST, data + 2, size - 2,
				(data[1] & 1) ? PK_FEATURE_SWAP : 0, data[1] >> 1, &f);
	if (err < 0) {
		if ((err != -EINVAL && err != -EOPNOTSUPP && err != -ENOMEM) || f ||
		    pk_last_error()->code != err)
			abort();
		return 0;
	}
	machine(f);
	recording(f);
	pk_feature_free(f);
	return 0;
}
