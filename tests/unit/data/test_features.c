/* SPDX-License-Identifier: MIT */
/*
 * test_features.c - typed feature decoding.  Sections built by hand in
 * both byte orders decode to the same values (table-driven, one case per
 * layout); every truncation of them is an error naming the feature and the
 * byte, never a read past the end; absurd counts fail before allocating.
 * A file the perfkit writer made decodes back to what was written and to
 * what sysfs says of this machine.  With the argument "oracle", a file perf
 * 6.1 records decodes to the values `perf report --header-only -I` prints.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/bpf.h>

#include "perfkit.h"
#include "tmpdir.h"

static char dir[200];
static char path[sizeof(dir) + 16];

/* ---- building sections in either byte order ------------------------------ */

struct buf {
	unsigned char b[4096];
	size_t n;
	bool swap;		/* write big-endian (this machine is little-endian) */
};

static void raw(struct buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->b));
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void num(struct buf *b, uint64_t v, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		size_t shift = b->swap ? size - 1 - i : i;

		b->b[b->n++] = (unsigned char)(v >> (8 * shift));
	}
}

static void u32(struct buf *b, uint32_t v) { num(b, v, 4); }
static void u64(struct buf *b, uint64_t v) { num(b, v, 8); }

static void str(struct buf *b, const char *s)
{
	static const char zeros[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	u32(b, (uint32_t)padded);
	raw(b, s, n - 1);
	raw(b, zeros, padded - (n - 1));
}

/* ---- one case per layout: build, then check what decodes ----------------- */

static void mk_numa(struct buf *b)
{
	u32(b, 2);
	u32(b, 0); u64(b, 9660620); u64(b, 7656792); str(b, "0-1");
	u32(b, 3); u64(b, 1024); u64(b, 512); str(b, "");
}

static void ck_numa(const struct pk_feature *f)
{
	const struct pk_feature_numa_topology *t = pk_feature_numa_topology(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->nodes[0].mem_total_kb, 9660620);
	assert_int_equal(t->nodes[0].mem_free_kb, 7656792);
	assert_string_equal(t->nodes[0].cpus, "0-1");
	assert_int_equal(t->nodes[1].node, 3);
	assert_string_equal(t->nodes[1].cpus, "");
}

static void mk_cache(struct buf *b)
{
	u32(b, 1);
	u32(b, 2);
	u32(b, 1); u32(b, 64); u32(b, 64); u32(b, 8); str(b, "Data"); str(b, "32K"); str(b, "0");
	u32(b, 3); u32(b, 64); u32(b, 32768); u32(b, 16); str(b, "Unified"); str(b, "32768K");
	str(b, "0-1");
}

static void ck_cache(const struct pk_feature *f)
{
	const struct pk_feature_cache *t = pk_feature_cache(f);

	assert_non_null(t);
	assert_int_equal(t->version, 1);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->caches[0].ways, 8);
	assert_string_equal(t->caches[0].type, "Data");
	assert_int_equal(t->caches[1].level, 3);
	assert_int_equal(t->caches[1].sets, 32768);
	assert_string_equal(t->caches[1].size, "32768K");
	assert_string_equal(t->caches[1].map, "0-1");
}

static void mk_mem(struct buf *b)
{
	u64(b, 1); u64(b, 0x8000000); u64(b, 1);
	u64(b, 0); u64(b, 200); u64(b, 200);
	u64(b, 0xffffffff00ffffffULL); u64(b, ~0ULL); u64(b, ~0ULL); u64(b, 0xff);
}

static void ck_mem(const struct pk_feature *f)
{
	const struct pk_feature_mem_topology *t = pk_feature_mem_topology(f);

	assert_non_null(t);
	assert_int_equal(t->block_size, 0x8000000);
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->nodes[0].nr_bits, 200);
	assert_int_equal(t->nodes[0].bits[0], 0xffffffff00ffffffULL);
	assert_int_equal(t->nodes[0].bits[3], 0xff);
}

static void mk_topo(struct buf *b)
{
	u32(b, 1); str(b, "0-1");
	u32(b, 2); str(b, "0"); str(b, "1");
	u32(b, 0); u32(b, 0);		/* CPU 0: core 0, socket 0 */
	u32(b, 1); u32(b, 0);		/* CPU 1: core 1, socket 0 */
	u32(b, 1); str(b, "0-1");
	u32(b, 0); u32(b, 0);		/* dies */
}

static void ck_topo(const struct pk_feature *f)
{
	const struct pk_feature_cpu_topology *t = pk_feature_cpu_topology(f);

	assert_non_null(t);
	assert_int_equal(t->nr_sockets, 1);
	assert_string_equal(t->sockets[0], "0-1");
	assert_int_equal(t->nr_threads, 2);
	assert_string_equal(t->threads[1], "1");
	assert_int_equal(t->nr_cpus, 2);
	assert_int_equal(t->cpus[1].core_id, 1);
	assert_true(t->have_dies);
	assert_int_equal(t->cpus[1].die_id, 0);
	assert_string_equal(t->dies[0], "0-1");
}

static void mk_event(struct buf *b)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	u32(b, 1);
	u32(b, 128);
	/* The attr, field by field in the file's order; flags: disabled, inherit. */
	u32(b, PERF_TYPE_SOFTWARE); u32(b, 128); u64(b, PERF_COUNT_SW_CPU_CLOCK); u64(b, 4000);
	u64(b, PERF_SAMPLE_IP | PERF_SAMPLE_TID); u64(b, PERF_FORMAT_ID);
	if (b->swap)
		u64(b, 0xc0ULL << 56);	/* bits 0 and 1 from the other end of the first byte */
	else
		u64(b, 3);
	raw(b, &a, 128 - 48);
	u32(b, 2); str(b, "cpu-clock"); u64(b, 633224); u64(b, 633225);
}

static void ck_event(const struct pk_feature *f)
{
	const struct pk_feature_event_desc *t = pk_feature_event_desc(f);
	const struct perf_event_attr *a;

	assert_non_null(t);
	assert_int_equal(t->nr, 1);
	a = t->events[0].attr;
	assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a->size, 128);
	assert_int_equal(a->config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(a->sample_period, 4000);
	assert_int_equal(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	assert_int_equal(a->disabled, 1);
	assert_int_equal(a->inherit, 1);
	assert_int_equal(a->pinned, 0);
	assert_string_equal(t->events[0].name, "cpu-clock");
	assert_int_equal(t->events[0].nr_ids, 2);
	assert_int_equal(t->events[0].ids[1], 633225);
}

static void mk_build_id(struct buf *b)
{
	static const char name[64] = "/usr/bin/true";
	uint8_t id[24] = { 0xde, 0xad, 0xbe, 0xef };

	u32(b, 0);			/* type */
	num(b, PERF_RECORD_MISC_USER | (1u << 15), 2);
	num(b, 36 + 64, 2);
	u32(b, (uint32_t)-1);
	id[20] = 4;
	raw(b, id, 24);
	raw(b, name, 64);
}

static void ck_build_id(const struct pk_feature *f)
{
	const struct pk_feature_build_ids *t = pk_feature_build_ids(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->ids[0].pid, -1);
	assert_int_equal(t->ids[0].size, 4);
	assert_int_equal(t->ids[0].id[3], 0xef);
	assert_int_equal(t->ids[0].misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	assert_string_equal(t->ids[0].filename, "/usr/bin/true");
}

static void mk_small(struct buf *b)
{
	u32(b, 1); str(b, ""); u32(b, 0); u32(b, 2);	/* GROUP_DESC */
}

static void ck_small(const struct pk_feature *f)
{
	const struct pk_feature_group_desc *t = pk_feature_group_desc(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 1);
	assert_string_equal(t->groups[0].name, "");
	assert_int_equal(t->groups[0].nr_members, 2);
}

static void mk_pmu_caps(struct buf *b)
{
	u32(b, 1);
	u32(b, 2); str(b, "branches"); str(b, "32"); str(b, "max_precise"); str(b, "3");
	str(b, "cpu_core");
}

static void ck_pmu_caps(const struct pk_feature *f)
{
	const struct pk_feature_pmu_caps *t = pk_feature_pmu_caps(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 1);
	assert_string_equal(t->pmus[0].pmu, "cpu_core");
	assert_int_equal(t->pmus[0].nr_caps, 2);
	assert_string_equal(t->pmus[0].caps[1].name, "max_precise");
	assert_string_equal(t->pmus[0].caps[1].value, "3");
}

static void mk_bpf(struct buf *b)
{
	static const uint8_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	u32(b, 1);
	u32(b, 16); u32(b, 8); u64(b, 0x5);
	u32(b, 2); u32(b, 42); u64(b, 0);		/* info: type, id, 8 more bytes */
	raw(b, data, 8);
}

static void ck_bpf(const struct pk_feature *f)
{
	const struct pk_feature_bpf_progs *t = pk_feature_bpf_progs(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 1);
	assert_int_equal(t->progs[0].type, 2);
	assert_int_equal(t->progs[0].id, 42);
	assert_int_equal(t->progs[0].arrays, 5);
	assert_int_equal(t->progs[0].data[7], 8);
}

static void mk_aux(struct buf *b)
{
	u64(b, 2); u64(b, 4096); u64(b, 64); u64(b, 8192); u64(b, 128);
}

static void ck_aux(const struct pk_feature *f)
{
	const struct pk_feature_auxtrace *t = pk_feature_auxtrace(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->entries[1].file_offset, 8192);
	assert_int_equal(t->entries[1].size, 128);
}

static void mk_clock(struct buf *b)
{
	u32(b, 1); u32(b, 1); u64(b, 1700000000000000000ULL); u64(b, 10441749009ULL);
}

static void ck_clock(const struct pk_feature *f)
{
	const struct pk_feature_clock_data *t = pk_feature_clock_data(f);

	assert_non_null(t);
	assert_int_equal(t->clockid, 1);
	assert_int_equal(t->tod_ns, 1700000000000000000ULL);
	assert_int_equal(t->clock_ns, 10441749009ULL);
}

static void mk_hybrid(struct buf *b)
{
	u32(b, 2); str(b, "cpu_core"); str(b, "0-15"); str(b, "cpu_atom"); str(b, "16-23");
}

static void ck_hybrid(const struct pk_feature *f)
{
	const struct pk_feature_hybrid_topology *t = pk_feature_hybrid_topology(f);

	assert_non_null(t);
	assert_int_equal(t->nr, 2);
	assert_string_equal(t->pmus[1].pmu, "cpu_atom");
	assert_string_equal(t->pmus[1].cpus, "16-23");
}

static const struct fcase {
	unsigned int id;
	void (*mk)(struct buf *b);
	void (*ck)(const struct pk_feature *f);
	bool every_cut_fails;	/* false: the layout may legally end early */
} cases[] = {
	{ PK_DATA_FEAT_NUMA_TOPOLOGY, mk_numa, ck_numa, true },
	{ PK_DATA_FEAT_CACHE, mk_cache, ck_cache, true },
	{ PK_DATA_FEAT_MEM_TOPOLOGY, mk_mem, ck_mem, true },
	{ PK_DATA_FEAT_CPU_TOPOLOGY, mk_topo, ck_topo, false },
	{ PK_DATA_FEAT_EVENT_DESC, mk_event, ck_event, true },
	{ PK_DATA_FEAT_BUILD_ID, mk_build_id, ck_build_id, false },
	{ PK_DATA_FEAT_GROUP_DESC, mk_small, ck_small, true },
	{ PK_DATA_FEAT_PMU_CAPS, mk_pmu_caps, ck_pmu_caps, true },
	{ PK_DATA_FEAT_BPF_PROG_INFO, mk_bpf, ck_bpf, true },
	{ PK_DATA_FEAT_AUXTRACE, mk_aux, ck_aux, true },
	{ PK_DATA_FEAT_CLOCK_DATA, mk_clock, ck_clock, true },
	{ PK_DATA_FEAT_HYBRID_TOPOLOGY, mk_hybrid, ck_hybrid, true },
};

static void test_both_byte_orders(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int swap = 0; swap < 2; swap++) {
			struct buf b = { .swap = swap };
			struct pk_feature *f;

			cases[i].mk(&b);
			assert_int_equal(pk_feature_decode(cases[i].id, b.b, b.n,
							   swap ? PK_FEATURE_SWAP : 0, 2, &f), 0);
			assert_int_equal(pk_feature_id(f), cases[i].id);
			cases[i].ck(f);
			/* The other views see nothing in it. */
			if (cases[i].id == PK_DATA_FEAT_CACHE)
				assert_null(pk_feature_numa_topology(f));
			else
				assert_null(pk_feature_cache(f));
			pk_feature_free(f);
		}
}

/* Every cut of every case fails cleanly (or, where the layout may end
 * early, decodes what is there); ASan checks that nothing reads past. */
static void test_every_truncation(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = { .swap = false };

		cases[i].mk(&b);
		for (size_t cut = 0; cut < b.n; cut++) {
			unsigned char *copy = malloc(cut ? cut : 1);
			struct pk_feature *f = NULL;
			int err;

			memcpy(copy, b.b, cut);
			err = pk_feature_decode(cases[i].id, copy, cut, 0, 2, &f);
			if (cases[i].every_cut_fails || err) {
				assert_int_equal(err, -EINVAL);
				assert_null(f);
				assert_non_null(strstr(pk_last_error()->why, " at byte "));
			}
			pk_feature_free(f);
			free(copy);
		}
	}
}

static void test_absurd_counts(void **state)
{
	static const unsigned int ids[] = {
		PK_DATA_FEAT_NUMA_TOPOLOGY, PK_DATA_FEAT_CACHE, PK_DATA_FEAT_GROUP_DESC,
		PK_DATA_FEAT_PMU_MAPPINGS, PK_DATA_FEAT_EVENT_DESC, PK_DATA_FEAT_AUXTRACE,
		PK_DATA_FEAT_MEM_TOPOLOGY, PK_DATA_FEAT_BPF_BTF, PK_DATA_FEAT_CMDLINE,
	};
	unsigned char ff[24];
	struct pk_feature *f;

	(void)state;
	memset(ff, 0xff, sizeof(ff));
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_int_equal(pk_feature_decode(ids[i], ff, sizeof(ff), 0, 2, &f), -EINVAL);
		assert_non_null(strstr(pk_last_error()->why, " at byte "));
	}
	assert_int_equal(pk_feature_decode(PK_DATA_FEAT_TRACING_DATA, ff, 4, 0, 0, &f), -EOPNOTSUPP);
	assert_int_equal(pk_feature_decode(PK_DATA_FEAT_LAST, ff, 4, 0, 0, &f), -EOPNOTSUPP);
}

/* ---- a file the perfkit writer made --------------------------------------- */

static void write_file(void)
{
	struct pk_data_writer *w;
	struct perf_event_attr a;
	uint64_t ids_a[] = { 77, 78 }, ids_b[] = { 90 };
	static const uint8_t bid[20] = { 0x12, 0x34 };
	char *args[] = { "perfkit", "record", "--", "true" };
	struct perf_event_header round = { .type = PK_DATA_RECORD_FINISHED_ROUND, .size = 8 };

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP;
	a.disabled = 1;
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids_a, 2), 0);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.disabled = 0;
	assert_int_equal(pk_data_writer_add_event(w, &a, "page-faults", ids_b, 1), 0);
	assert_int_equal(pk_data_writer_add_group(w, 0, 2), 0);
	assert_int_equal(pk_data_writer_add_build_id(w, "/usr/bin/true", bid, 20, false), 0);
	assert_int_equal(pk_data_writer_set_cmdline(w, 4, args), 0);
	pk_data_writer_set_sample_time(w, 1000, 5000);
	pk_data_writer_set_clock(w, 1, 1, 1700000000000000000ULL, 123456789);
	/* One record: a file whose data size is 0 reads as one perf never
	 * finished, without its feature sections (as perf warns). */
	assert_int_equal(pk_data_writer_write(w, &round, sizeof(round)), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
}

static struct pk_feature *decode(struct pk_data_reader *r, unsigned int id)
{
	struct pk_feature *f = NULL;

	assert_int_equal(pk_data_reader_decode(r, id, &f), 0);
	return f;
}

/* What the writer was given comes back. */
static void check_recording(struct pk_data_reader *r)
{
	struct pk_feature *f = decode(r, PK_DATA_FEAT_EVENT_DESC);
	const struct pk_feature_event_desc *e = pk_feature_event_desc(f);
	const struct pk_feature_group_desc *g;
	const struct pk_feature_build_ids *b;
	char *const *argv;
	uint32_t argc;

	assert_int_equal(e->nr, 2);
	assert_string_equal(e->events[1].name, "page-faults");
	assert_int_equal(e->events[1].attr->config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(e->events[0].attr->disabled, 1);
	assert_int_equal(e->events[0].ids[1], 78);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_GROUP_DESC);
	g = pk_feature_group_desc(f);
	assert_int_equal(g->nr, 1);
	assert_int_equal(g->groups[0].nr_members, 2);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_BUILD_ID);
	b = pk_feature_build_ids(f);
	assert_int_equal(b->nr, 1);
	assert_string_equal(b->ids[0].filename, "/usr/bin/true");
	assert_int_equal(b->ids[0].id[1], 0x34);
	assert_int_equal(b->ids[0].size, 20);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_CMDLINE);
	argv = pk_feature_cmdline(f, &argc);
	assert_int_equal(argc, 4);
	assert_string_equal(argv[3], "true");
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_SAMPLE_TIME);
	assert_int_equal(pk_feature_sample_time(f)->last_ns, 5000);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_CLOCK_DATA);
	assert_int_equal(pk_feature_clock_data(f)->clock_ns, 123456789);
	pk_feature_free(f);
}

/* A small sysfs file's first line, or "" when it is not there. */
static void sysfs_line(const char *p, char *out, size_t len)
{
	FILE *fp = fopen(p, "re");

	out[0] = '\0';
	if (fp && fgets(out, (int)len, fp))
		out[strcspn(out, "\n")] = '\0';
	if (fp)
		fclose(fp);
}

/* The machine's features say what sysfs says. */
static void check_machine(struct pk_data_reader *r)
{
	char want[256];
	struct pk_feature *f = decode(r, PK_DATA_FEAT_NRCPUS);
	uint64_t kb;

	assert_int_equal(pk_feature_nrcpus(f)->available, (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_TOTAL_MEM);
	assert_int_equal(pk_feature_u64(f, &kb), 0);
	assert_true(kb > 0);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_CPU_TOPOLOGY);
	assert_int_equal(pk_feature_cpu_topology(f)->nr_cpus, (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
	pk_feature_free(f);
	sysfs_line("/sys/devices/system/node/node0/cpulist", want, sizeof(want));
	if (want[0]) {
		f = decode(r, PK_DATA_FEAT_NUMA_TOPOLOGY);
		assert_string_equal(pk_feature_numa_topology(f)->nodes[0].cpus, want);
		pk_feature_free(f);
	}
	sysfs_line("/sys/devices/system/cpu/cpu0/cache/index0/size", want, sizeof(want));
	if (want[0]) {
		f = decode(r, PK_DATA_FEAT_CACHE);
		assert_string_equal(pk_feature_cache(f)->caches[0].size, want);
		pk_feature_free(f);
	}
	sysfs_line("/sys/devices/system/memory/block_size_bytes", want, sizeof(want));
	if (want[0]) {
		f = decode(r, PK_DATA_FEAT_MEM_TOPOLOGY);
		assert_int_equal(pk_feature_mem_topology(f)->block_size, strtoull(want, NULL, 16));
		pk_feature_free(f);
	}
}

static void test_writer_round_trip(void **state)
{
	struct pk_data_reader *r;

	(void)state;
	write_file();
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	/* Every section the writer wrote decodes, but the tracing data. */
	for (unsigned int id = 1; id < PK_DATA_FEAT_LAST; id++) {
		struct pk_feature *f = NULL;
		int err = pk_data_reader_decode(r, id, &f);

		assert_int_equal(err, pk_data_reader_has_feature(r, id) ? 0 : -ENOENT);
		pk_feature_free(f);
	}
	check_recording(r);
	check_machine(r);
	pk_data_reader_free(r);
	assert_int_equal(unlink(path), 0);
}

/* A machine with two NUMA nodes, from the fixture tree sysfs/numa. */
static void test_fixture_machine(void **state)
{
	char root[512];
	const char *fixtures = getenv("PERFKIT_FIXTURES");
	struct pk_data_reader *r;
	struct pk_feature *f;
	const struct pk_feature_numa_topology *n;
	const struct pk_feature_mem_topology *m;
	const struct pk_feature_cache *c;
	bool two_cpus = sysconf(_SC_NPROCESSORS_CONF) >= 2;

	(void)state;
	if (!fixtures)
		skip();
	snprintf(root, sizeof(root), "%s/sysfs/numa", fixtures);
	assert_int_equal(setenv("PERFKIT_SYSFS_ROOT", root, 1), 0);
	write_file();
	unsetenv("PERFKIT_SYSFS_ROOT");
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	f = decode(r, PK_DATA_FEAT_NUMA_TOPOLOGY);
	n = pk_feature_numa_topology(f);
	assert_int_equal(n->nr, 2);
	assert_int_equal(n->nodes[0].mem_total_kb, 1000);
	assert_int_equal(n->nodes[0].mem_free_kb, 400);
	assert_int_equal(n->nodes[1].node, 2);
	assert_int_equal(n->nodes[1].mem_total_kb, 2048);
	assert_string_equal(n->nodes[1].cpus, "2-3");
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_MEM_TOPOLOGY);
	m = pk_feature_mem_topology(f);
	assert_int_equal(m->block_size, 0x8000000);
	assert_int_equal(m->nr, 2);
	assert_int_equal(m->nodes[0].nr_bits, 71);
	assert_int_equal(m->nodes[0].bits[0], 3);
	assert_int_equal(m->nodes[0].bits[1], 1ULL << 6);
	assert_int_equal(m->nodes[1].node, 2);
	assert_int_equal(m->nodes[1].bits[0], 1ULL << 3);
	pk_feature_free(f);
	/* Ordered by level, the shared L2 once. */
	f = decode(r, PK_DATA_FEAT_CACHE);
	c = pk_feature_cache(f);
	assert_int_equal(c->nr, two_cpus ? 3 : 2);
	assert_int_equal(c->caches[0].level, 1);
	assert_string_equal(c->caches[0].map, "0");
	if (two_cpus)
		assert_string_equal(c->caches[1].map, "1");
	assert_int_equal(c->caches[c->nr - 1].level, 2);
	assert_int_equal(c->caches[c->nr - 1].sets, 2048);
	assert_string_equal(c->caches[c->nr - 1].size, "1024K");
	pk_feature_free(f);
	pk_data_reader_free(r);
	assert_int_equal(unlink(path), 0);
}

/* ---- a file perf 6.1 records ------------------------------------------------ */

static char *perf_header(void)
{
	char cmd[512], *text = calloc(1, 1 << 20);
	size_t n = 0, got;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf report --header-only -I -i %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((got = fread(text + n, 1, (1 << 20) - 1 - n, p)) > 0)
		n += got;
	pclose(p);
	return text;
}

/* `line` is in perf's header view. */
static void shows(const char *text, const char *line)
{
	if (!strstr(text, line))
		fail_msg("perf's header does not show \"%s\"", line);
}

static void check_perf_machine(struct pk_data_reader *r, const char *text)
{
	char line[512];
	struct pk_feature *f = decode(r, PK_DATA_FEAT_NRCPUS);
	const struct pk_feature_cpu_topology *t;

	snprintf(line, sizeof(line), "# nrcpus online : %u\n# nrcpus avail : %u\n",
		 pk_feature_nrcpus(f)->online, pk_feature_nrcpus(f)->available);
	shows(text, line);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_CPU_TOPOLOGY);
	t = pk_feature_cpu_topology(f);
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		snprintf(line, sizeof(line), "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
			 t->cpus[i].core_id, t->cpus[i].die_id, t->cpus[i].socket_id);
		shows(text, line);
	}
	assert_true(t->nr_cpus > 0);
	pk_feature_free(f);
	if (pk_data_reader_has_feature(r, PK_DATA_FEAT_CACHE)) {
		const struct pk_feature_cache *c;

		f = decode(r, PK_DATA_FEAT_CACHE);
		c = pk_feature_cache(f);
		for (uint32_t i = 0; i < c->nr; i++) {
			snprintf(line, sizeof(line), "#  L%u %-15s %8s [%s]\n", c->caches[i].level,
				 c->caches[i].type, c->caches[i].size, c->caches[i].map);
			shows(text, line);
		}
		pk_feature_free(f);
	}
	if (pk_data_reader_has_feature(r, PK_DATA_FEAT_NUMA_TOPOLOGY)) {
		const struct pk_feature_numa_topology *n;

		f = decode(r, PK_DATA_FEAT_NUMA_TOPOLOGY);
		n = pk_feature_numa_topology(f);
		for (uint32_t i = 0; i < n->nr; i++) {
			snprintf(line, sizeof(line), "# node%u meminfo  : total = %llu kB, free = %llu kB\n"
				 "# node%u cpu list : %s\n", n->nodes[i].node,
				 (unsigned long long)n->nodes[i].mem_total_kb,
				 (unsigned long long)n->nodes[i].mem_free_kb, n->nodes[i].node,
				 n->nodes[i].cpus);
			shows(text, line);
		}
		pk_feature_free(f);
	}
}

static void check_perf_recording(struct pk_data_reader *r, const char *text)
{
	char line[512];
	struct pk_feature *f = decode(r, PK_DATA_FEAT_PMU_MAPPINGS);
	const struct pk_feature_pmu_mappings *m = pk_feature_pmu_mappings(f);
	const struct pk_feature_event_desc *e;

	for (uint32_t i = 0; i < m->nr; i++) {
		snprintf(line, sizeof(line), "%s = %u", m->pmus[i].name, m->pmus[i].type);
		shows(text, line);
	}
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_EVENT_DESC);
	e = pk_feature_event_desc(f);
	for (uint32_t i = 0; i < e->nr; i++) {
		snprintf(line, sizeof(line), "# event : name = %s, , id = { %llu", e->events[i].name,
			 (unsigned long long)e->events[i].ids[0]);
		shows(text, line);
	}
	pk_feature_free(f);
	if (pk_data_reader_has_feature(r, PK_DATA_FEAT_MEM_TOPOLOGY)) {
		const struct pk_feature_mem_topology *t;

		f = decode(r, PK_DATA_FEAT_MEM_TOPOLOGY);
		t = pk_feature_mem_topology(f);
		snprintf(line, sizeof(line), "# memory nodes (nr %llu, block size 0x%llx):\n",
			 (unsigned long long)t->nr, (unsigned long long)t->block_size);
		shows(text, line);
		pk_feature_free(f);
	}
}

static void test_perf_file(void **state)
{
	struct pk_data_reader *r;
	char cmd[512], *text;

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "perf record -q -o %s -- true >/dev/null 2>&1", path);
	assert_int_equal(system(cmd), 0);
	text = perf_header();
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	/* Every section perf wrote decodes. */
	for (unsigned int id = 2; id < PK_DATA_FEAT_LAST; id++)
		if (pk_data_reader_has_feature(r, id))
			pk_feature_free(decode(r, id));
	check_perf_machine(r, text);
	check_perf_recording(r, text);
	pk_data_reader_free(r);
	free(text);
	assert_int_equal(unlink(path), 0);
}

/* A program of two jited functions in BPF_PROG_INFO's framing: the info
 * with its array pointers as offsets into the data that follows. */
struct bpf_fixture {
	struct bpf_prog_info info;
	struct {
		uint64_t addrs[2];
		uint32_t lens[2];
		uint8_t tags[2][8];
	} data;
	struct pk_feature_bpf_prog p;
};

static void bpf_fixture(struct bpf_fixture *x, uint32_t nr)
{
	memset(x, 0, sizeof(*x));
	x->info.id = 7;
	x->info.nr_jited_ksyms = x->info.nr_jited_func_lens = x->info.nr_prog_tags = nr;
	x->info.jited_ksyms = offsetof(typeof(x->data), addrs);
	x->info.jited_func_lens = offsetof(typeof(x->data), lens);
	x->info.prog_tags = offsetof(typeof(x->data), tags);
	memcpy(x->info.name, "pk_prog", 8);
	x->data.addrs[0] = 0xffffffffc0001000ull;
	x->data.addrs[1] = 0xffffffffc0002000ull;
	x->data.lens[0] = 20;
	x->data.lens[1] = 44;
	for (int i = 0; i < 8; i++) {
		x->data.tags[0][i] = (uint8_t)(0x10 + i);
		x->data.tags[1][i] = (uint8_t)(0xa0 + i);
	}
	x->p = (struct pk_feature_bpf_prog){ .info_len = sizeof(x->info), .data_len = sizeof(x->data),
					     .id = 7, .info = (const uint8_t *)&x->info,
					     .data = (const uint8_t *)&x->data };
}

/* perf's names for a program's functions: its own name for a lone
 * function, "F" for each of several; none when the counts disagree. */
static void test_bpf_func_names(void **state)
{
	struct bpf_fixture x;
	struct pk_feature_bpf_func fn = { .size = sizeof(fn) };

	(void)state;
	bpf_fixture(&x, 1);
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 0, &fn), 1);
	assert_string_equal(fn.name, "bpf_prog_1011121314151617_pk_prog");
	assert_int_equal(fn.addr, 0xffffffffc0001000ull);
	assert_int_equal(fn.len, 20);
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 1, &fn), -ENOENT);

	bpf_fixture(&x, 2);
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 1, &fn), 2);
	assert_string_equal(fn.name, "bpf_prog_a0a1a2a3a4a5a6a7_F");
	assert_int_equal(fn.addr, 0xffffffffc0002000ull);
	assert_int_equal(fn.len, 44);

	x.info.nr_prog_tags = 1;
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 0, &fn), 0);

	bpf_fixture(&x, 2);
	x.p.data_len = 8;	/* the lengths and tags cut off */
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 0, &fn), -EINVAL);
	fn.size = 8;
	bpf_fixture(&x, 1);
	assert_int_equal(pk_feature_bpf_prog_func(&x.p, NULL, 0, &fn), -EINVAL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_both_byte_orders),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_absurd_counts),
		cmocka_unit_test(test_writer_round_trip),
		cmocka_unit_test(test_fixture_machine),
		cmocka_unit_test(test_bpf_func_names),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_perf_file),
	};

	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-features"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	int ret = argc > 1 && !strcmp(argv[1], "oracle") ? cmocka_run_group_tests(oracle, NULL, NULL)
							 : cmocka_run_group_tests(unit, NULL, NULL);
	tmp_rmtree(dir);
	return ret;
}
