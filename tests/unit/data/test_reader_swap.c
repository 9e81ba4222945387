/* SPDX-License-Identifier: MIT */
/*
 * test_reader_swap.c - the perf.data reader on files of the other byte
 * order.  swap_copy() below makes the copy a big-endian machine would
 * have written of a file of this one: header, attrs (perf's bit-field
 * rule), ids, feature table, the features the reader decodes, and every
 * record field by field in its own width, written here independently of
 * the reader's swap (which swaps u64s first and mends the rest, as perf
 * does).  The copy must give the same events, features and records, byte
 * for byte, hence field for field, as the original: a file written here
 * with the perfkit writer; with the argument "oracle", files perf 6.1
 * records (-g, a tracepoint's raw data, --sample-cpu) and perfkit records.
 */
#include <byteswap.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

static char dir[200];
static char path[sizeof(dir) + 16], swapped[sizeof(dir) + 16];

static void s16(unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	v = bswap_16(v);
	memcpy(p, &v, 2);
}

static void s32(unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = bswap_32(v);
	memcpy(p, &v, 4);
}

static uint64_t g64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t g32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Swaps the u64 at p, returning its value before (this machine's). */
static uint64_t s64(unsigned char *p)
{
	uint64_t v = g64(p), w = bswap_64(v);

	memcpy(p, &w, 8);
	return v;
}

static void attr_swap(unsigned char *a)
{
	static const unsigned char u64s[] = { 8, 16, 24, 32, 56, 64, 72, 80, 96, 120, 128 };
	static const unsigned char u32s[] = { 48, 52, 88, 92, 104, 112 };
	uint32_t size = g32(a + 4);

	for (size_t i = 0; i < sizeof(u64s); i++)
		if (u64s[i] + 8u <= size)
			s64(a + u64s[i]);
	for (size_t i = 0; i < sizeof(u32s); i++)
		if (u32s[i] + 4u <= size)
			s32(a + u32s[i]);
	if (size >= 110)
		s16(a + 108);
	for (int i = 40; i < 48; i++) {	/* big-endian bit-fields start at each byte's top bit */
		unsigned char b = a[i], v = 0;

		for (int k = 0; k < 8; k++)
			if (b & (1u << k))
				v |= (unsigned char)(0x80u >> k);
		a[i] = v;
	}
	s32(a);
	s32(a + 4);
}

/* A cursor over a record being swapped. */
struct cur {
	unsigned char *p;
	size_t at, end;
};

static uint64_t u64(struct cur *c)
{
	uint64_t v = 0;

	if (c->at + 8 <= c->end)
		v = s64(c->p + c->at);
	c->at += 8;
	return v;
}

static void u32x2(struct cur *c)
{
	if (c->at + 8 <= c->end) {
		s32(c->p + c->at);
		s32(c->p + c->at + 4);
	}
	c->at += 8;
}

static void u64s(struct cur *c, uint64_t n)
{
	while (n--)
		u64(c);
}

static void regs(struct cur *c, uint64_t mask)
{
	if (u64(c))
		u64s(c, (uint64_t)__builtin_popcountll(mask));
}

static void sample(struct cur *c, const struct perf_event_attr *a)
{
	uint64_t t = a->sample_type, rf = a->read_format, n;

	u64s(c, !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP));
	if (t & PERF_SAMPLE_TID)
		u32x2(c);
	u64s(c, !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
		!!(t & PERF_SAMPLE_STREAM_ID));
	if (t & PERF_SAMPLE_CPU)
		u32x2(c);
	u64s(c, !!(t & PERF_SAMPLE_PERIOD));
	if ((t & PERF_SAMPLE_READ) && (rf & PERF_FORMAT_GROUP)) {
		n = u64(c);
		u64s(c, !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
		u64s(c, n * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST)));
	} else if (t & PERF_SAMPLE_READ) {
		u64s(c, 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
			!!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	}
	if (t & PERF_SAMPLE_CALLCHAIN)
		u64s(c, u64(c));
	if (t & PERF_SAMPLE_RAW) {	/* u32 size, then the tracepoint's bytes as they are */
		n = g32(c->p + c->at);
		s32(c->p + c->at);
		c->at += (4 + n + 7) & ~7ull;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		n = u64(c);
		u64s(c, n * 3 + !!(a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX));
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs(c, a->sample_regs_user);
	if ((t & PERF_SAMPLE_STACK_USER) && (n = u64(c)) != 0) {
		c->at += n;	/* memory: bytes */
		u64(c);
	}
	assert_true(c->at <= c->end);
}

/* The sample_id_all trailer: TID and CPU are u32 pairs. */
static void trailer(struct cur *c, const struct perf_event_attr *a)
{
	static const uint64_t order[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
					  PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER };
	size_t n = 0;

	for (size_t i = 0; i < 6; i++)
		n += !!(a->sample_type & order[i]);
	c->at = c->end - 8 * n;
	for (size_t i = 0; i < 6; i++) {
		if (!(a->sample_type & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_TID || order[i] == PERF_SAMPLE_CPU)
			u32x2(c);
		else
			u64(c);
	}
}

static void cpu_map_swap(unsigned char *p)
{
	uint16_t type, nr;

	memcpy(&type, p, 2);
	memcpy(&nr, p + 2, 2);
	s16(p);
	if (type == 0) {
		for (int i = 0; i <= nr; i++)
			s16(p + 2 + 2 * i);	/* nr, then the cpus */
	} else if (type == 1) {
		uint16_t lsz;

		memcpy(&lsz, p + 4, 2);
		s16(p + 2);
		s16(p + 4);
		for (int i = 0; i < nr; i++)
			lsz == 4 ? s32(p + 6 + 4 * i) : (void)s64(p + 10 + 8 * i);
	} else if (type == 2) {
		s16(p + 4);
		s16(p + 6);
	}
}

/* One record, this machine's order to the other, fields in their widths. */
static void record_swap(unsigned char *p, const struct perf_event_attr *a)
{
	struct perf_event_header *h = (struct perf_event_header *)(void *)p;
	struct cur c = { p, 8, h->size };
	uint32_t type = h->type;

	if (a && a->sample_id_all && type != PERF_RECORD_SAMPLE && type < PERF_RECORD_MAX)
		trailer(&c, a);
	c.at = 8;
	switch (type) {
	case PERF_RECORD_SAMPLE:
		sample(&c, a);
		break;
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2:
		u32x2(&c);
		u64s(&c, 3);
		if (type == PERF_RECORD_MMAP2 && !(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			u32x2(&c);
			u64s(&c, 2);
		}
		if (type == PERF_RECORD_MMAP2)
			u32x2(&c);	/* prot, flags */
		break;
	case PERF_RECORD_COMM: case PERF_RECORD_ITRACE_START: case PERF_RECORD_SWITCH_CPU_WIDE:
		u32x2(&c);
		break;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
		u32x2(&c);
		u32x2(&c);
		u64(&c);
		break;
	case PERF_RECORD_LOST: case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		u64s(&c, type == PERF_RECORD_LOST ? 2 : 3);
		break;
	case PERF_RECORD_KSYMBOL:
		u64(&c);
		s32(p + 16);
		s16(p + 20);
		s16(p + 22);
		break;
	case PERF_RECORD_BPF_EVENT:
		s16(p + 8);
		s16(p + 10);
		s32(p + 12);
		break;
	case 69: case 68: case 82:	/* ID_INDEX: u64s; FINISHED_ROUND/INIT: nothing */
		u64s(&c, (h->size - 8u) / 8 * (type == 69));
		break;
	case 73:			/* THREAD_MAP: nr, then { pid, comm[16] } */
		for (uint64_t i = 0, n = u64(&c); i < n; i++, c.at += 16)
			u64(&c);
		break;
	case 74:
		cpu_map_swap(p + 8);
		break;
	case 78: {			/* EVENT_UPDATE */
		uint64_t t = u64(&c);

		u64(&c);
		if (t == 1)
			u64(&c);
		else if (t == 3)
			cpu_map_swap(p + 24);
		break;
	}
	default:
		fail_msg("record type %u: the test's swap does not know it", type);
	}
	s32(p);
	s16(p + 4);
	s16(p + 6);
}

static unsigned char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	unsigned char *b;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	*len = (size_t)ftell(f);
	rewind(f);
	b = malloc(*len);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, *len, f), *len);
	fclose(f);
	return b;
}

/* A feature the reader decodes: its u32s and u64s swapped. */
static void feature_swap(unsigned int id, unsigned char *sec)
{
	if (id >= PK_DATA_FEAT_HOSTNAME && id <= PK_DATA_FEAT_CPUID && id != PK_DATA_FEAT_NRCPUS) {
		s32(sec);
	} else if (id == PK_DATA_FEAT_NRCPUS) {
		s32(sec);
		s32(sec + 4);
	} else if (id == PK_DATA_FEAT_CMDLINE) {
		size_t at = 4;

		for (uint32_t i = 0, nr = g32(sec); i < nr; i++) {
			uint32_t n = g32(sec + at);

			s32(sec + at);
			at += 4 + n;
		}
		s32(sec);
	} else if (id == PK_DATA_FEAT_EVENT_DESC) {
		uint32_t nr = g32(sec), asz = g32(sec + 4);
		size_t at = 8;

		for (uint32_t i = 0; i < nr; i++) {
			uint32_t nids, n;

			attr_swap(sec + at);
			at += asz;
			nids = g32(sec + at);
			s32(sec + at);
			n = g32(sec + at + 4);
			s32(sec + at + 4);
			at += 8 + n;
			for (uint32_t j = 0; j < nids; j++, at += 8)
				s64(sec + at);
		}
		s32(sec);
		s32(sec + 4);
	}
}

static void features_swap(unsigned char *f, uint64_t flags0, size_t len, unsigned char *file)
{
	for (unsigned int id = 0, k = 0; id < 64; id++) {
		uint64_t off, size;

		if (!(flags0 & (1ull << id)))
			continue;
		off = s64(f + 16 * k);
		size = s64(f + 16 * k + 8);
		k++;
		assert_true(off + size <= len);
		feature_swap(id, file + off);
	}
}

/* Writes the other byte order's copy of `src` to `dst`. */
static void swap_copy(const char *src, const char *dst)
{
	size_t len, at;
	unsigned char *b = slurp(src, &len);
	uint64_t attr_size = g64(b + 16), attrs = g64(b + 24), nr = g64(b + 32) / attr_size;
	uint64_t data = g64(b + 40), data_size = g64(b + 48), flags0 = g64(b + 72);
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	FILE *f;

	assert_int_equal(pk_data_reader_open(src, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), 0);
	for (at = data; pk_data_reader_next(r, &h) == 1; at += h->size) {
		assert_memory_equal(b + at, h, h->size);	/* no COMPRESSED records */
		record_swap(b + at, pk_data_reader_attr_of(r, h));
	}
	assert_int_equal(at, data + data_size);
	for (uint64_t i = 0; i < nr; i++) {
		unsigned char *e = b + attrs + i * attr_size, *ids = e + attr_size - 16;
		uint64_t ids_off = s64(ids), ids_size = s64(ids + 8);

		for (uint64_t j = 0; j < ids_size / 8; j++)
			s64(b + ids_off + 8 * j);
		attr_swap(e);
	}
	features_swap(b + data + data_size, flags0, len, b);
	for (int i = 1; i < 13; i++)	/* the magic; header, attr and section sizes; the flags */
		s64(b + 8 * i);
	memcpy(b, "2ELIFREP", 8);
	f = fopen(dst, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	pk_data_reader_free(r);
	free(b);
}

/* The copy reads as the original: events, features, every record. */
static void compare_readers(struct pk_data_reader *x, struct pk_data_reader *y, size_t *nr_samples)
{
	const struct perf_event_header *hx, *hy;
	uint32_t ax, ox, ay, oy;
	int rx, ry;

	assert_false(pk_data_reader_swapped(x));
	assert_true(pk_data_reader_swapped(y));
	assert_int_equal(pk_data_reader_nr_events(x), pk_data_reader_nr_events(y));
	for (size_t i = 0; i < pk_data_reader_nr_events(x); i++) {
		size_t nx, ny;
		const uint64_t *ix = pk_data_reader_ids(x, i, &nx), *iy = pk_data_reader_ids(y, i, &ny);

		assert_memory_equal(pk_data_reader_attr(x, i), pk_data_reader_attr(y, i), PK_DATA_READER_ATTR_SIZE);
		assert_int_equal(nx, ny);
		assert_memory_equal(ix, iy, nx * 8);
		assert_string_equal(pk_data_reader_name(x, i), pk_data_reader_name(y, i));
	}
	for (unsigned int id = PK_DATA_FEAT_HOSTNAME; id <= PK_DATA_FEAT_CMDLINE; id++)
		if (pk_data_reader_string(x, id))
			assert_string_equal(pk_data_reader_string(x, id), pk_data_reader_string(y, id));
	assert_int_equal(pk_data_reader_nr_cpus(x, &ax, &ox), pk_data_reader_nr_cpus(y, &ay, &oy));
	assert_int_equal(ax * 1000 + ox, ay * 1000 + oy);
	*nr_samples = 0;
	while ((rx = pk_data_reader_next(x, &hx)) == 1) {
		struct pk_record dx = { .size = sizeof(dx) }, dy = { .size = sizeof(dy) };

		assert_int_equal(pk_data_reader_next(y, &hy), 1);
		if (hx->size != hy->size || memcmp(hx, hy, hx->size))
			fail_msg("a record of type %u differs in the swapped copy", hx->type);
		rx = pk_record_decode(hx, pk_data_reader_attr_of(x, hx), &dx);
		assert_true(rx >= 0);	/* 1: a record the decoder leaves to its reader */
		assert_int_equal(pk_record_decode(hy, pk_data_reader_attr_of(y, hy), &dy), rx);
		*nr_samples += hx->type == PERF_RECORD_SAMPLE;
	}
	ry = pk_data_reader_next(y, &hy);
	assert_int_equal(rx, 0);
	assert_int_equal(ry, 0);
	pk_data_reader_free(x);
	pk_data_reader_free(y);
}

static void compare(const char *a, const char *b, size_t *nr_samples)
{
	struct pk_data_reader *x, *y;

	swap_copy(a, b);
	assert_int_equal(pk_data_reader_open(a, &x), 0);
	assert_int_equal(pk_data_reader_open(b, &y), 0);
	compare_readers(x, y, nr_samples);
}

/* A pipe-mode stream's header records, this machine's order to the other. */
static size_t header_record_swap(unsigned char *p)
{
	struct perf_event_header h;
	size_t skip = 0;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case 64: {		/* HEADER_ATTR: the attr, then u64 ids after attr.size */
		uint32_t asz = g32(p + 8 + 4);

		for (size_t at = 8 + asz; at + 8 <= h.size; at += 8)
			s64(p + at);
		attr_swap(p + 8);
		break;
	}
	case 80:		/* HEADER_FEATURE: u64 id, the section */
		feature_swap((unsigned int)g64(p + 8), p + 16);
		s64(p + 8);
		break;
	case 66:		/* HEADER_TRACING_DATA: u32 size of the bytes after it */
		skip = g32(p + 8);
		s32(p + 8);
		break;
	case 67:		/* HEADER_BUILD_ID: pid, bytes */
		s32(p + 8);
		break;
	default:
		fail_msg("header record type %u: the test's swap does not know it", h.type);
	}
	s32(p);
	s16(p + 4);
	s16(p + 6);
	return h.size + skip;
}

/* The other byte order's copy of the pipe-mode stream in `src`. */
static void swap_stream(const char *src, const char *dst)
{
	size_t len, at = 16;
	unsigned char *b = slurp(src, &len);
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	FILE *f;

	assert_int_equal(pk_data_reader_open(src, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), 0);
	while (at < len) {
		struct perf_event_header rh;

		memcpy(&rh, b + at, sizeof(rh));
		if ((rh.type >= 64 && rh.type <= 67) || rh.type == 80) {
			at += header_record_swap(b + at);
			continue;
		}
		assert_int_equal(pk_data_reader_next(r, &h), 1);
		assert_memory_equal(b + at, h, h->size);
		record_swap(b + at, pk_data_reader_attr_of(r, h));
		at += rh.size;
	}
	assert_int_equal(pk_data_reader_next(r, &h), 0);
	memcpy(b, "2ELIFREP", 8);
	s64(b + 8);
	f = fopen(dst, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	pk_data_reader_free(r);
	free(b);
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader-swap"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(swapped, sizeof(swapped), "%s/swapped.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

/* A file the perfkit writer makes: samples with TID, CPU, a callchain and
 * raw data, and MMAP2, COMM and EXIT records with their trailers. */
static void test_swapped_writer_file(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a;
	uint64_t ids[] = { 5, 6 };
	size_t n;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 4000;
	a.freq = 1;
	a.sample_id_all = 1;
	a.mmap2 = a.comm = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 2), 0);
	for (uint64_t i = 0; i < 50; i++) {
		struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid; uint64_t time;
			 uint32_t cpu, res; uint64_t period, nr, cc[2]; uint32_t rsize; char raw[12]; } s = {
			{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, ids[i % 2], 0x401000 + i, 100 + (uint32_t)i,
			200 + (uint32_t)i, 1000 + i, (uint32_t)i % 2, 0, 4000, 2, { 0xffffffffffffff80ull, 0x401000 + i },
			12, "rawbytes-abc" };
		struct { struct perf_event_header h; uint32_t pid, tid; uint64_t start, len, pgoff;
			 uint32_t maj, min; uint64_t ino, gen; uint32_t prot, flags; char name[16];
			 uint32_t id_pid, id_tid; uint64_t id_time; uint32_t id_cpu, id_res; uint64_t id; } m = {
			{ PERF_RECORD_MMAP2, 0, sizeof(m) }, 100, 200 + (uint32_t)i, 0x400000, 0x1000, 0, 8, 1, 77, 0,
			5, 2, "/bin/true", 100, 200 + (uint32_t)i, 999 + i, 1, 0, ids[0] };

		_Static_assert(sizeof(s) == 96, "layout");
		assert_int_equal(pk_data_writer_write(w, &s, sizeof(s)), 0);
		assert_int_equal(pk_data_writer_write(w, &m, sizeof(m)), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	compare(path, swapped, &n);
	assert_int_equal(n, 50);
}

static void record_and_compare(const char *cmd)
{
	size_t n;

	if (system(cmd) != 0)
		fail_msg("%s failed", cmd);
	compare(path, swapped, &n);
	assert_true(n > 0);
}

static void test_swapped_perf_files(void **state)
{
	char cmd[800];

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "perf record -q -g --sample-cpu -e task-clock/period=100000/ "
		 "-e sched:sched_process_exec -e sched:sched_process_exit -o %s -- sh -c "
		 "'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; /bin/true' >/dev/null 2>&1", path);
	record_and_compare(cmd);
	snprintf(cmd, sizeof(cmd), "%s record -q -g -e task-clock -o %s -- sh -c "
		 "'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1", getenv("PERFKIT"), path);
	record_and_compare(cmd);
}

/* perf record -o -: the swapped stream, read through a pipe, gives what
 * the original gives. */
static void test_swapped_perf_stream(void **state)
{
	struct pk_data_reader *x, *y;
	char cmd[800];
	size_t n;
	FILE *p;

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "perf record -q -g --sample-cpu -e task-clock/period=100000/ "
		 "-e sched:sched_process_exec -e sched:sched_process_exit -o - -- sh -c "
		 "'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; /bin/true' 2>/dev/null > %s", path);
	assert_int_equal(system(cmd), 0);
	swap_stream(path, swapped);
	snprintf(cmd, sizeof(cmd), "cat %s", swapped);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(pk_data_reader_open(path, &x), 0);
	assert_int_equal(pk_data_reader_open_fd(fileno(p), "swapped stream", &y), 0);
	assert_true(pk_data_reader_has_feature(y, PK_DATA_FEAT_TRACING_DATA));
	compare_readers(x, y, &n);
	assert_int_equal(pclose(p), 0);
	assert_true(n > 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_swapped_writer_file),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_swapped_perf_files),
		cmocka_unit_test(test_swapped_perf_stream),
	};

	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(oracle, setup, teardown);
	return cmocka_run_group_tests(unit, setup, teardown);
}
