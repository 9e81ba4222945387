/* SPDX-License-Identifier: MIT */
/*
 * test_reader.c - the perf.data reader: a file the perfkit writer made is
 * read back event by event and record by record exactly (across several
 * refills of the reader's buffer), with the header's layout as its bytes
 * say it and every COMPRESSED record counted; damaged copies (truncated at several
 * points, a wrong or byte-swapped magic, an absurd attr size, records of
 * size 0, unaligned or running past the data) give errors naming the file
 * offset, after every record before the damage.  With the argument
 * "oracle", a file perf 6.1 itself records is read: its event name, its
 * host name and as many samples as perf script prints.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>
#include <malloc.h>

#include "perfkit.h"
#include "tmpdir.h"

#define NR_SAMPLES 12000	/* 40 bytes each: several times the reader's buffer */
#define REC_SIZE 40

static char dir[200];
static char path[sizeof(dir) + 16], copy[sizeof(dir) + 16];
static unsigned char *recs;	/* the records written, in order */
static size_t recs_len;

static struct perf_event_attr attr_of(uint64_t type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = (uint32_t)type;
	a.config = config;
	a.size = sizeof(a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	return a;
}

/* Samples alternating between event 0 (ids 77, 78) and event 1 (id 90). */
static void make_records(void)
{
	static const uint64_t ids[] = { 77, 90, 78 };

	recs_len = (size_t)NR_SAMPLES * REC_SIZE;
	recs = malloc(recs_len);
	assert_non_null(recs);
	for (size_t i = 0; i < NR_SAMPLES; i++) {
		struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid; uint64_t time; } s = {
			{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, REC_SIZE }, ids[i % 3], 0x400000 + i,
			4242, 4243, 1000 + i };

		_Static_assert(sizeof(s) == REC_SIZE, "sample layout");
		memcpy(recs + i * REC_SIZE, &s, REC_SIZE);
	}
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(copy, sizeof(copy), "%s/bad.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(recs);
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

static void write_file(void)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr b = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t ids_a[] = { 77, 78 }, ids_b[] = { 90 };
	char *argv[] = { "perfkit", "record", "--", "true" };

	if (!recs)
		make_records();
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids_a, 2), 0);
	assert_int_equal(pk_data_writer_add_event(w, &b, "page-faults", ids_b, 1), 0);
	assert_int_equal(pk_data_writer_set_cmdline(w, 4, argv), 0);
	assert_int_equal(pk_data_writer_write(w, recs, recs_len), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
}

static uint64_t file_u64(const char *p, long off);	/* defined with the damage tests */

/* The header's layout, as the file's bytes say it (offsets 40 and 48). */
static void check_layout(struct pk_data_reader *r)
{
	struct pk_data_layout l = { .size = sizeof(l) };

	assert_int_equal(pk_data_reader_layout(r, &l), 0);
	assert_int_equal(l.size, sizeof(l));
	assert_int_equal(l.version, 1);
	assert_int_equal(l.data_offset, file_u64(path, 40));
	assert_int_equal(l.data_size, file_u64(path, 48));
	assert_true(l.data_size > 0);
	assert_int_equal(l.feat_offset, l.data_offset + l.data_size);
	l.size = 8;
	assert_int_equal(pk_data_reader_layout(r, &l), -EINVAL);
	assert_int_equal(l.size, 8);	/* untouched */
}

static void test_events_and_features(void **state)
{
	struct pk_data_reader *r;
	const struct perf_event_attr *a;
	const uint64_t *ids;
	const void *raw;
	size_t nr, len;
	uint32_t avail, online;
	struct utsname u;

	(void)state;
	write_file();
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_int_equal(pk_data_reader_nr_events(r), 2);
	a = pk_data_reader_attr(r, 0);
	assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(a->sample_type, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	assert_int_equal(a->sample_period, 100000);
	assert_int_equal(pk_data_reader_attr(r, 1)->config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_null(pk_data_reader_attr(r, 2));
	ids = pk_data_reader_ids(r, 0, &nr);
	assert_int_equal(nr, 2);
	assert_int_equal(ids[0], 77);
	assert_int_equal(ids[1], 78);
	ids = pk_data_reader_ids(r, 1, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(ids[0], 90);
	assert_string_equal(pk_data_reader_name(r, 0), "task-clock");
	assert_string_equal(pk_data_reader_name(r, 1), "page-faults");
	/* The features the writer writes, decoded. */
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_EVENT_DESC));
	assert_false(pk_data_reader_has_feature(r, PK_DATA_FEAT_GROUP_DESC));
	assert_false(pk_data_reader_has_feature(r, PK_DATA_FEAT_TRACING_DATA));
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_CMDLINE), "perfkit record -- true");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_HOSTNAME), u.nodename);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_OSRELEASE), u.release);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_ARCH), u.machine);
	assert_non_null(pk_data_reader_string(r, PK_DATA_FEAT_VERSION));
	assert_null(pk_data_reader_string(r, PK_DATA_FEAT_BUILD_ID));	/* not a string feature */
	assert_int_equal(pk_data_reader_nr_cpus(r, &avail, &online), 0);
	assert_int_equal(online, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(avail >= online);
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_HOSTNAME, &raw, &len), 0);
	assert_true(len >= 4 + strlen(u.nodename) + 1);
	assert_string_equal((const char *)raw + 4, u.nodename);
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_GROUP_DESC, &raw, &len), -ENOENT);
	assert_string_equal(pk_data_reader_feature_name(PK_DATA_FEAT_CPU_TOPOLOGY), "cpu_topology");
	assert_null(pk_data_reader_feature_name(PK_DATA_FEAT_LAST));
	check_layout(r);
	pk_data_reader_free(r);
}

/* Every record back, in order and byte for byte, with the event its id names. */
static void test_records(void **state)
{
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct pk_record d = { .size = sizeof(d) };
	size_t n = 0;
	int ret;

	(void)state;
	write_file();
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(n < NR_SAMPLES);
		assert_int_equal((uintptr_t)h % 8, 0);
		assert_int_equal(h->size, REC_SIZE);
		assert_memory_equal(h, recs + n * REC_SIZE, REC_SIZE);
		assert_int_equal(pk_data_reader_event_of(r, h), n % 3 == 1 ? 1 : 0);
		assert_int_equal(pk_record_decode(h, pk_data_reader_attr_of(r, h), &d), 0);
		assert_int_equal(d.sample.ip, 0x400000 + n);
		assert_int_equal(d.sample.tid, 4243);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, NR_SAMPLES);
	assert_int_equal(pk_data_reader_next(r, &h), 0);	/* the end stays the end */
	/* An id no event has, and perf's own record types, belong to none. */
	{
		uint64_t other[REC_SIZE / 8];
		struct perf_event_header round = { PK_DATA_RECORD_FINISHED_ROUND, 0, 8 };

		memcpy(other, recs, REC_SIZE);
		other[1] = 999;
		assert_int_equal(pk_data_reader_event_of(r, (void *)other), -ENOENT);
		assert_null(pk_data_reader_attr_of(r, (void *)other));
		assert_int_equal(pk_data_reader_event_of(r, &round), -ENOENT);
	}
	pk_data_reader_free(r);
}

/* Records of the largest size (65528 bytes) mixed with small ones come back
 * whole across the refills of the reader's buffer. */
static void test_big_records(void **state)
{
	enum { NR = 24, BIG = 65528 };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	unsigned char *rec = malloc(BIG);
	uint64_t id = 77;
	int ret, n = 0;

	(void)state;
	assert_non_null(rec);
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	for (int i = 0; i < NR; i++) {
		/* 76: perf's STAT, a user type the reader delivers as it is
		 * (70, AUXTRACE_INFO, is skipped since AUX area records are) */
		struct perf_event_header hd = { 76, 0, (uint16_t)(i % 3 ? BIG : 16) };

		memset(rec, i, BIG);
		memcpy(rec, &hd, sizeof(hd));
		assert_int_equal(pk_data_writer_write(w, rec, hd.size), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const unsigned char *b = (const unsigned char *)h;

		assert_int_equal(h->type, 76);
		assert_int_equal(h->size, n % 3 ? BIG : 16);
		assert_int_equal(b[8], n);
		assert_int_equal(b[h->size - 1], n);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, NR);
	pk_data_reader_free(r);
	free(rec);
}

/* A sample of event 0 (id 77) at `time`, ip 0x1000 + time. */
static void put_sample(struct pk_data_writer *w, uint64_t time)
{
	struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid; uint64_t time; } s = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, REC_SIZE }, 77, 0x1000 + time, 4242, 4243, time };

	assert_int_equal(pk_data_writer_write(w, &s, sizeof(s)), 0);
}

/* A COMM with its sample_id_all trailer (TID, TIME, IDENTIFIER) at `time`. */
static void put_comm(struct pk_data_writer *w, uint64_t time)
{
	struct { struct perf_event_header h; uint32_t pid, tid; char comm[8]; uint32_t tpid, ttid;
		 uint64_t time, id; } c = { { PERF_RECORD_COMM, 0, 48 }, 4242, 4243, "worker", 4242, 4243,
					    time, 77 };

	_Static_assert(sizeof(c) == 48, "comm layout");
	assert_int_equal(pk_data_writer_write(w, &c, sizeof(c)), 0);
}

/* Three rounds, out of order inside each, a COMM among the samples, a
 * sample with time 0 (as perf's synthesized records have) and one that
 * comes after a later one was delivered (15 in the last round). */
static void write_rounds(const char *p, int level)
{
	enum { END = 99 };
	static const uint64_t rounds[3][5] = { { 30, 10, 0, 20, END }, { 25, 5, 22, 40, END }, { 35, 15, 50, END } };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct pk_data_writer *w;
	uint64_t id = 77;

	assert_int_equal(pk_data_writer_create(p, &w), 0);
	if (level)
		assert_int_equal(pk_data_writer_set_compression(w, level), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; rounds[i][j] != END; j++) {
			if (rounds[i][j] == 22)
				put_comm(w, 22);
			else
				put_sample(w, rounds[i][j]);
		}
		if (i < 2)
			assert_int_equal(pk_data_writer_write_round(w), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
}

/* The records of `p` in `order` as "S<time>", "C<time>" or "R", joined. */
static void sequence(const char *p, enum pk_data_order order, char *out, size_t len)
{
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	size_t at = 0;
	int ret;

	assert_int_equal(pk_data_reader_open(p, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, order), 0);
	out[0] = 0;
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const uint64_t *u = (const uint64_t *)(const void *)h;

		assert_int_equal((uintptr_t)h % 8, 0);
		assert_int_equal(pk_data_reader_last_event(r), pk_data_reader_event_of(r, h));
		if (h->type == PERF_RECORD_SAMPLE)
			at += (size_t)snprintf(out + at, len - at, "S%llu ", (unsigned long long)u[4]);
		else if (h->type == PERF_RECORD_COMM)
			at += (size_t)snprintf(out + at, len - at, "C%llu ", (unsigned long long)u[4]);
		else
			at += (size_t)snprintf(out + at, len - at, "%s ",
					       h->type == PK_DATA_RECORD_FINISHED_ROUND ? "R" : "?");
		assert_true(at < len);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), -EBUSY);
	assert_int_equal(pk_data_reader_nr_unordered(r), order == PK_DATA_ORDER_TIME ? 1 : 0);
	pk_data_reader_free(r);
}

/* perf's ordered_events: at each round, what is no later than the newest
 * time of the round before; time 0 at once; the rest at the end.  File
 * order gives the records as written. */
static void test_time_order(void **state)
{
	char got[400];

	(void)state;
	write_rounds(path, 0);
	sequence(path, PK_DATA_ORDER_TIME, got, sizeof(got));
	assert_string_equal(got, "S0 R S5 S10 S20 C22 S25 S30 R S15 S35 S40 S50 ");
	sequence(path, PK_DATA_ORDER_FILE, got, sizeof(got));
	assert_string_equal(got, "S30 S10 S0 S20 R S25 S5 C22 S40 R S35 S15 S50 ");
}

/* Rounds of two rings each (two ascending runs per round, the second
 * reaching back into the round before), each round larger than the
 * reader's 256 KiB buffer, 14 MiB in all: time order merges the runs, and
 * the buffers queued records pin are reused round after round without a
 * queued record being overwritten.  Every sample comes once, in time
 * order, its bytes as written. */
static void test_time_order_many_rounds(void **state)
{
	enum { ROUNDS = 12, HALF = 18000 };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t id = 77, last = 0, n = 0;
	int ret;

	(void)state;
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	for (uint64_t i = 1; i <= ROUNDS; i++) {
		for (uint64_t k = 0; k < HALF; k++)	/* one ring: even times of this round */
			put_sample(w, 100000 * i + 2 * k);
		for (uint64_t k = 0; k < HALF; k++)	/* the other: odd, half in the round before */
			put_sample(w, 100000 * i - HALF + 1 + 2 * k);
		assert_int_equal(pk_data_writer_write_round(w), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const uint64_t *u = (const uint64_t *)(const void *)h;

		if (h->type == PK_DATA_RECORD_FINISHED_ROUND)
			continue;
		assert_int_equal(h->type, PERF_RECORD_SAMPLE);
		assert_true(u[4] > last);
		assert_int_equal(u[2], 0x1000 + u[4]);	/* ip, as put_sample wrote it */
		assert_int_equal(u[3], 4242 | (uint64_t)4243 << 32);
		last = u[4];
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, (uint64_t)ROUNDS * 2 * HALF);
	assert_int_equal(pk_data_reader_nr_unordered(r), 0);
	pk_data_reader_free(r);
}

#define RECORD_COMPRESSED 81	/* perf's PERF_RECORD_COMPRESSED */

/* The COMPRESSED records in the data section of file `p`, counted by
 * walking its record headers (perf does not pad them). */
static uint64_t nr_compressed(const char *p)
{
	uint64_t at = file_u64(p, 40), end = at + file_u64(p, 48), n = 0;

	while (at < end) {
		uint64_t h = file_u64(p, (long)at);	/* type u32, misc u16, size u16 */

		n += (uint32_t)h == RECORD_COMPRESSED;
		assert_true(h >> 48 >= 8);
		at += h >> 48;
	}
	return n;
}

/* Heap bytes in use (mallinfo2), 0 where the allocator does not say. */
static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* A file without rounds whose records are mostly of an event without
 * PERF_SAMPLE_TIME (delivered at once), a timed sample every 256 KiB
 * (queued to the end): 40 MiB of records, 160 queued.  The queued ones
 * must not keep the reader's buffers they were read into: the reader's
 * heap stays a few MiB, not the file's size. */
static void test_time_order_sparse(void **state)
{
	enum { CHUNKS = 160, UNTIMED = 31, BIG = 8192 + 32 };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr u = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	static unsigned char big[BIG];
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t ida = 77, idu = 90, last = 0, nr_timed = 0, nr_untimed = 0;
	size_t base, peak = 0;
	int ret;

	(void)state;
	u.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &ida, 1), 0);
	assert_int_equal(pk_data_writer_add_event(w, &u, "page-faults", &idu, 1), 0);
	memcpy(big, &(struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, BIG }, 8);
	memcpy(big + 8, &idu, sizeof(idu));
	for (uint64_t i = 0; i < CHUNKS; i++) {
		for (int k = 0; k < UNTIMED; k++)
			assert_int_equal(pk_data_writer_write(w, big, sizeof(big)), 0);
		put_sample(w, 1000000 - i);	/* later ones first: all wait for the end */
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	base = heap_used();
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const uint64_t *v = (const uint64_t *)(const void *)h;
		size_t used = heap_used();

		peak = used > peak ? used : peak;
		assert_int_equal(h->type, PERF_RECORD_SAMPLE);
		if (v[1] == idu) {
			assert_int_equal(nr_timed, 0);	/* all before the queue's end */
			nr_untimed++;
			continue;
		}
		assert_int_equal(v[1], ida);
		assert_true(v[4] > last);
		assert_int_equal(v[2], 0x1000 + v[4]);
		last = v[4];
		nr_timed++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(nr_untimed, (uint64_t)CHUNKS * UNTIMED);
	assert_int_equal(nr_timed, CHUNKS);
	pk_data_reader_free(r);
	if (!base) {
		print_message("# the allocator does not report its use (mallinfo2): memory not checked\n");
		return;
	}
	/* before, one 256 KiB buffer per queued sample: 40 MiB */
	assert_true(peak < base + (8u << 20));
}

/* A sample as big as a DWARF one (8 KiB of user stack after its fixed
 * fields), its stack bytes a pattern of its time. */
enum { BIG_SAMPLE = 8192 + REC_SIZE };

static void put_big_sample(struct pk_data_writer *w, uint64_t time)
{
	static unsigned char s[BIG_SAMPLE];
	struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid; uint64_t time; } f = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, BIG_SAMPLE }, 77, 0x1000 + time, 4242, 4243, time };

	memcpy(s, &f, sizeof(f));
	for (size_t i = sizeof(f); i < sizeof(s); i++)
		s[i] = (unsigned char)(time * 7 + i);
	assert_int_equal(pk_data_writer_write(w, s, sizeof(s)), 0);
}

/* DWARF-sized samples in rounds of two rings (the second reaching back
 * into the round before), each round several of the reader's buffers,
 * plain and zstd-compressed: queued records stay in the buffers they were
 * read into (not copied), so every one must come out in time order with
 * every byte as written, although the reader read on past it many times
 * before delivering it. */
static void test_time_order_big_samples(void **state)
{
	enum { ROUNDS = 8, HALF = 40 };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	(void)state;
	for (int level = 0; level <= 3; level += 3) {
		struct pk_data_writer *w;
		struct pk_data_reader *r;
		const struct perf_event_header *h;
		uint64_t id = 77, last = 0, n = 0;
		int ret;

		assert_int_equal(pk_data_writer_create(path, &w), 0);
		if (level)
			assert_int_equal(pk_data_writer_set_compression(w, level), 0);
		assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
		for (uint64_t i = 1; i <= ROUNDS; i++) {
			for (uint64_t k = 0; k < HALF; k++)
				put_big_sample(w, 1000 * i + 2 * k);
			for (uint64_t k = 0; k < HALF; k++)
				put_big_sample(w, 1000 * i - HALF + 1 + 2 * k);
			assert_int_equal(pk_data_writer_write_round(w), 0);
		}
		assert_int_equal(pk_data_writer_finish(w), 0);
		assert_int_equal(pk_data_reader_open(path, &r), 0);
		while ((ret = pk_data_reader_next(r, &h)) == 1) {
			const unsigned char *b = (const unsigned char *)h;
			const uint64_t *u = (const uint64_t *)(const void *)h;
			size_t bad = 0;

			if (h->type == PK_DATA_RECORD_FINISHED_ROUND)
				continue;
			assert_int_equal(h->type, PERF_RECORD_SAMPLE);
			assert_int_equal(h->size, BIG_SAMPLE);
			assert_true(u[4] > last);
			assert_int_equal(u[2], 0x1000 + u[4]);
			for (size_t i = REC_SIZE; i < BIG_SAMPLE; i++)
				bad += b[i] != (unsigned char)(u[4] * 7 + i);
			assert_int_equal(bad, 0);
			last = u[4];
			n++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(n, (uint64_t)ROUNDS * 2 * HALF);
		if (level)
			assert_true(nr_compressed(path) > 1);
		pk_data_reader_free(r);
	}
}

/* perfkit record -z's files: the COMPRESSED records expand to the same
 * records, in the same orders, and the feature says how they were made. */
static void test_compressed(void **state)
{
	struct pk_data_compression c = { .size = sizeof(c) };
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	char got[400];

	(void)state;
	write_rounds(path, 3);
	sequence(path, PK_DATA_ORDER_TIME, got, sizeof(got));
	assert_string_equal(got, "S0 R S5 S10 S20 C22 S25 S30 R S15 S35 S40 S50 ");
	sequence(path, PK_DATA_ORDER_FILE, got, sizeof(got));
	assert_string_equal(got, "S30 S10 S0 S20 R S25 S5 C22 S40 R S35 S15 S50 ");
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_int_equal(pk_data_reader_compression(r, &c), 0);
	assert_int_equal(c.type, 1);
	assert_int_equal(c.level, 3);
	assert_int_equal(c.size, sizeof(c));
	c.size = 4;
	assert_int_equal(pk_data_reader_compression(r, &c), -EINVAL);
	/* Every COMPRESSED record read is counted, none delivered. */
	while (pk_data_reader_next(r, &h) == 1)
		assert_int_not_equal(h->type, RECORD_COMPRESSED);
	assert_int_equal(pk_data_reader_nr_taken(r, RECORD_COMPRESSED), nr_compressed(path));
	assert_true(pk_data_reader_nr_taken(r, RECORD_COMPRESSED) > 0);
	assert_int_equal(pk_data_reader_nr_taken(r, PERF_RECORD_SAMPLE), 0);	/* not a user type */
	pk_data_reader_free(r);
	write_file();
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	c.size = sizeof(c);
	assert_int_equal(pk_data_reader_compression(r, &c), -ENOENT);
	pk_data_reader_free(r);
}

/* Bytes zstd cannot shrink, the same for the same seed. */
static void noise(unsigned char *p, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		p[i] = (unsigned char)seed;
	}
}

/* Records of the largest size that zstd cannot shrink make COMPRESSED
 * records that each hold part of one: they come back whole, byte for byte. */
static void test_compressed_spanning(void **state)
{
	enum { NR = 12, BIG = 65528 };
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	unsigned char *rec = malloc(BIG);
	uint64_t id = 77;
	int ret, n = 0;

	(void)state;
	assert_non_null(rec);
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_set_compression(w, 1), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	for (int i = 0; i < NR; i++) {
		/* 72, STAT_CONFIG: a user type the reader hands out as it is */
		struct perf_event_header hd = { 72, 0, (uint16_t)(i % 4 ? BIG : 24) };

		noise(rec, BIG, (uint64_t)i + 1);
		memcpy(rec, &hd, sizeof(hd));
		assert_int_equal(pk_data_writer_write(w, rec, hd.size), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(n < NR);
		assert_int_equal(h->type, 72);
		assert_int_equal(h->size, n % 4 ? BIG : 24);
		noise(rec, BIG, (uint64_t)n + 1);
		assert_memory_equal((const unsigned char *)h + 8, rec + 8, h->size - 8);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, NR);
	pk_data_reader_free(r);
	free(rec);
}

static uint64_t file_u64(const char *p, long off)
{
	FILE *f = fopen(p, "rb");
	uint64_t v = 0;

	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fread(&v, sizeof(v), 1, f), 1);
	fclose(f);
	return v;
}

/* copy = the file cut to `len` bytes, with `patch` (if any) written at `at`. */
static void make_copy(off_t len, long at, const void *patch, size_t plen)
{
	char cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "cp %s %s", path, copy);
	assert_int_equal(system(cmd), 0);
	if (len >= 0)
		assert_int_equal(truncate(copy, len), 0);
	if (!patch)
		return;
	f = fopen(copy, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fwrite(patch, 1, plen, f), plen);
	fclose(f);
}

static void expect_open_error(int code, const char *why)
{
	struct pk_data_reader *r = (void *)1;

	assert_int_equal(pk_data_reader_open(copy, &r), code);
	assert_null(r);
	if (!strstr(pk_last_error()->why, why))
		fail_msg("expected \"%s\" in: %s", why, pk_last_error()->why);
}

/* Reads the copy: `good` records exactly as written, then error `why`. */
static void expect_records_then(size_t good, const char *why)
{
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	size_t n = 0;
	int ret;

	assert_int_equal(pk_data_reader_open(copy, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_memory_equal(h, recs + n * REC_SIZE, REC_SIZE);
		n++;
	}
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(n, good);
	if (!strstr(pk_last_error()->why, why))
		fail_msg("expected \"%s\" in: %s", why, pk_last_error()->why);
	assert_int_equal(pk_data_reader_next(r, &h), -EINVAL);	/* it stays damaged */
	pk_data_reader_free(r);
}

/* A COMPRESSED record zstd cannot read is damage at its offset, in both
 * orders; in time order after the records read before it. */
static void test_compressed_damage(void **state)
{
	static const unsigned char junk[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	char want[100];
	long data;

	(void)state;
	write_rounds(path, 3);
	data = (long)file_u64(path, 40);
	make_copy(-1, data + 8, junk, sizeof(junk));	/* the zstd frame's magic */
	snprintf(want, sizeof(want), "the COMPRESSED record at offset %ld does not decompress", data);
	for (int order = PK_DATA_ORDER_TIME; order <= PK_DATA_ORDER_FILE; order++) {
		assert_int_equal(pk_data_reader_open(copy, &r), 0);
		assert_int_equal(pk_data_reader_set_order(r, (enum pk_data_order)order), 0);
		assert_int_equal(pk_data_reader_next(r, &h), -EINVAL);
		if (!strstr(pk_last_error()->why, want))
			fail_msg("expected \"%s\" in: %s", want, pk_last_error()->why);
		assert_int_equal(pk_data_reader_next(r, &h), -EINVAL);
		pk_data_reader_free(r);
	}
}

static void test_header_damage(void **state)
{
	uint64_t swapped = __builtin_bswap64(file_u64(path, 0)), huge = 1ULL << 40, data_off;
	char at[64];

	(void)state;
	write_file();
	data_off = file_u64(path, 40);
	assert_int_equal(unlink(copy) == 0 || errno == ENOENT, 1);
	expect_open_error(-ENOENT, "cannot open");
	make_copy(0, 0, NULL, 0);
	expect_open_error(-EINVAL, "shorter than perf.data's 104-byte header");
	make_copy(60, 0, NULL, 0);
	expect_open_error(-EINVAL, "is 60 bytes, shorter");
	make_copy(-1, 0, "PERFILE3", 8);
	expect_open_error(-EINVAL, "no \"PERFILE2\" magic at offset 0");
	/* The magic of the other byte order alone: the rest reads swapped. */
	make_copy(-1, 0, &swapped, 8);
	expect_open_error(-EINVAL, "the header size at offset 8 is 7493989779944505344");
	/* A header size of 16 makes it a pipe-mode stream, whose first record
	 * (the attr size and nothing) has size 0: no records. */
	make_copy(-1, 8, &(uint64_t){ 16 }, 8);
	expect_records_then(0, "the record at offset 16 has size 0");
	make_copy(-1, 8, &(uint64_t){ 112 }, 8);
	expect_open_error(-EINVAL, "header size at offset 8 is 112");
	make_copy(-1, 16, &huge, 8);
	expect_open_error(-EINVAL, "attr size at offset 16 is 1099511627776");
	/* Cut inside the attrs and ids, which come before the data. */
	make_copy((off_t)data_off - 8, 0, NULL, 0);
	expect_open_error(-EINVAL, "lies outside the file");
	/* The data section placed past the end of the file. */
	make_copy(-1, 40, &huge, 8);
	snprintf(at, sizeof(at), "offset %llu", (unsigned long long)huge);
	expect_open_error(-EINVAL, at);
	/* Cut inside the feature table after complete data. */
	make_copy((off_t)(data_off + recs_len + 8), 0, NULL, 0);
	expect_open_error(-EINVAL, "inside the feature section table");
}

/* Cut inside the feature sections after a whole table: read as perf reads
 * it, every record there, the sections the file lacks absent and told. */
static void test_features_cut(void **state)
{
	struct stat st;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	unsigned int first = 0;
	size_t n = 0;

	(void)state;
	write_file();
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_CMDLINE));
	assert_int_equal(pk_data_reader_features_cut(r, &first), 0);
	pk_data_reader_free(r);
	make_copy(st.st_size - 4, 0, NULL, 0);
	assert_int_equal(pk_data_reader_open(copy, &r), 0);
	assert_int_equal(pk_data_reader_features_cut(r, &first), 1);
	assert_false(pk_data_reader_has_feature(r, first));
	while (pk_data_reader_next(r, &h) == 1)
		assert_memory_equal(h, recs + n++ * REC_SIZE, REC_SIZE);
	assert_int_equal(n, NR_SAMPLES);
	pk_data_reader_free(r);
}

/* A file whose header says data size 0 (perf record never finished it):
 * perf's warning is the caller's; the reader takes the records from the
 * data offset to the end of the file, the last one cut by it left out
 * and told, and lists the features the header has but reads none. */
static void test_unfinished(void **state)
{
	struct pk_data_layout l = { .size = sizeof(l) };
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t data_off, tail = 0;
	unsigned int first = 99;
	size_t n = 0;

	(void)state;
	write_file();
	data_off = file_u64(path, 40);
	make_copy((off_t)(data_off + 100 * REC_SIZE + 20), 48, &(uint64_t){ 0 }, 8);
	assert_int_equal(pk_data_reader_open(copy, &r), 0);
	assert_true(pk_data_reader_unfinished(r, NULL));
	assert_true(pk_data_reader_features_cut(r, &first) > 0);
	assert_true(pk_data_reader_feature_listed(r, first));
	assert_true(pk_data_reader_feature_listed(r, PK_DATA_FEAT_CMDLINE));
	assert_false(pk_data_reader_has_feature(r, PK_DATA_FEAT_CMDLINE));
	assert_null(pk_data_reader_string(r, PK_DATA_FEAT_CMDLINE));
	assert_int_equal(pk_data_reader_layout(r, &l), 0);
	assert_int_equal(l.data_size, 0);
	assert_int_equal(l.feat_offset, data_off);
	while (pk_data_reader_next(r, &h) == 1)
		assert_memory_equal(h, recs + n++ * REC_SIZE, REC_SIZE);
	assert_int_equal(n, 100);
	assert_int_equal(pk_data_reader_next(r, &h), 0);
	assert_true(pk_data_reader_unfinished(r, &tail));
	assert_int_equal(tail, 20);
	pk_data_reader_free(r);
	/* Nothing after the data offset: no records, no error. */
	make_copy((off_t)data_off, 48, &(uint64_t){ 0 }, 8);
	assert_int_equal(pk_data_reader_open(copy, &r), 0);
	assert_true(pk_data_reader_unfinished(r, &tail));
	assert_int_equal(pk_data_reader_next(r, &h), 0);
	assert_int_equal(tail, 0);
	pk_data_reader_free(r);
	/* A finished file is not unfinished. */
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_false(pk_data_reader_unfinished(r, &tail));
	pk_data_reader_free(r);
}

static void test_record_damage(void **state)
{
	uint64_t data_off;
	uint16_t size;
	uint32_t type;
	char why[200];

	(void)state;
	write_file();
	data_off = file_u64(path, 40);
	/* Truncated on a record boundary, and inside a record. */
	make_copy((off_t)(data_off + 100 * REC_SIZE), 0, NULL, 0);
	snprintf(why, sizeof(why), "the file ends at offset %llu, inside the data section that should end at %llu",
		 (unsigned long long)(data_off + 100 * REC_SIZE), (unsigned long long)(data_off + recs_len));
	expect_records_then(100, why);
	make_copy((off_t)(data_off + 7000 * REC_SIZE + 20), 0, NULL, 0);
	snprintf(why, sizeof(why), "record at offset %llu runs past the end of the file",
		 (unsigned long long)(data_off + 7000 * REC_SIZE));
	expect_records_then(7000, why);
	/* where the file itself ends, that it ends: no size to name */
	make_copy((off_t)(data_off + 5 * REC_SIZE + 4), 0, NULL, 0);
	snprintf(why, sizeof(why), "record at offset %llu has no room for its header before the end of the "
		 "file (truncated)", (unsigned long long)(data_off + 5 * REC_SIZE));
	expect_records_then(5, why);
	assert_null(strstr(pk_last_error()->why, "(size"));
	/* A type above perf's last (perf: "failed to process type: 200"). */
	type = 200;
	make_copy(-1, (long)(data_off + 50 * REC_SIZE), &type, 4);
	snprintf(why, sizeof(why), "record at offset %llu has type 200, which no perf record has (size %u)",
		 (unsigned long long)(data_off + 50 * REC_SIZE), (unsigned)REC_SIZE);
	expect_records_then(50, why);
	/* A record of size 0, one of 12 bytes, one running past the data. */
	size = 0;
	make_copy(-1, (long)(data_off + 3 * REC_SIZE + 6), &size, 2);
	snprintf(why, sizeof(why), "record at offset %llu has size 0", (unsigned long long)(data_off + 3 * REC_SIZE));
	expect_records_then(3, why);
	size = 12;
	make_copy(-1, (long)(data_off + 9000 * REC_SIZE + 6), &size, 2);
	expect_records_then(9000, "not a multiple of 8 (size 12)");
	size = 4;
	make_copy(-1, (long)(data_off + 6), &size, 2);
	expect_records_then(0, "shorter than its 8-byte header (size 4)");
	size = 2 * REC_SIZE;
	make_copy(-1, (long)(data_off + (NR_SAMPLES - 1) * REC_SIZE + 6), &size, 2);
	expect_records_then(NR_SAMPLES - 1, "runs past the end of the data section");
}

/* A file perf 6.1 recorded: its event, its host, all its samples. */
static void test_perf_file(void **state)
{
	char cmd[800], line[512];
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct pk_record d = { .size = sizeof(d) };
	size_t samples = 0, script = 0, task_clock = SIZE_MAX;
	struct utsname u;
	FILE *p;
	int ret;

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -N -e task-clock -c 100000 -o %s -- "
		 "sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1", path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "perf script -i %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		script++;
	pclose(p);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		if (pk_data_reader_name(r, i) && !strcmp(pk_data_reader_name(r, i), "task-clock"))
			task_clock = i;
	assert_true(task_clock != SIZE_MAX);
	assert_int_equal(pk_data_reader_attr(r, task_clock)->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(pk_data_reader_attr(r, task_clock)->sample_period, 100000);	/* -c */
	assert_int_equal(uname(&u), 0);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_HOSTNAME), u.nodename);
	assert_non_null(strstr(pk_data_reader_string(r, PK_DATA_FEAT_CMDLINE), "-e task-clock"));
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		assert_int_equal(pk_data_reader_event_of(r, h), (int)task_clock);
		assert_int_equal(pk_record_decode(h, pk_data_reader_attr_of(r, h), &d), 0);
		assert_true(d.sample.pid > 0);
		samples++;
	}
	assert_int_equal(ret, 0);
	assert_true(samples > 0);
	assert_int_equal(samples, script);
	pk_data_reader_free(r);
	assert_int_equal(unlink(path), 0);
}

struct cti { unsigned int cpu; unsigned long long time, ip; };

/* perf script's samples of `file`, in its order; NULL (said why) if a line
 * is not one, or perf script failed. */
static struct cti *script_samples(const char *file, size_t *nr)
{
	char cmd[600], line[512];
	struct cti *v = NULL;
	size_t cap = 0;
	bool bad = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf script -i %s -F cpu,time,ip --ns 2>/dev/null", file);
	p = popen(cmd, "r");
	assert_non_null(p);
	*nr = 0;
	while (!bad && fgets(line, sizeof(line), p)) {
		unsigned long long sec, ns;
		struct cti c;

		if (sscanf(line, " [%u] %llu.%llu: %llx", &c.cpu, &sec, &ns, &c.ip) != 4) {
			print_message("perf script's line %zu is not a sample: %s", *nr + 1, line);
			bad = true;
			break;
		}
		c.time = sec * 1000000000ULL + ns;
		if (*nr == cap) {
			struct cti *w = realloc(v, (cap = cap ? 2 * cap : 1024) * sizeof(*v));

			if (!w) {
				bad = true;
				break;
			}
			v = w;
		}
		v[(*nr)++] = c;
	}
	if (pclose(p) != 0 || bad) {
		print_message("perf script -i %s failed or was cut (%zu samples read)\n", file, *nr);
		free(v);
		return NULL;
	}
	return v;
}

/* The reader's samples of `file` in `order`: as many as perf script's and,
 * in time order, the same ones in the same order.  Returns how many came
 * before one of an earlier time, or SIZE_MAX (said why) if they differ. */
static size_t compare_with_script(const char *file, enum pk_data_order order, const struct cti *want, size_t nr)
{
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	size_t n = 0, inversions = 0;
	uint64_t last = 0;
	int ret;

	assert_int_equal(pk_data_reader_open(file, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, order), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		struct pk_sample_peek s = { .size = sizeof(s) };

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (pk_sample_peek(h, pk_data_reader_attr_of(r, h), &s) != 0 || !(s.fields & PERF_SAMPLE_CPU) ||
		    n >= nr) {
			print_message("sample %zu: not read, or past perf script's %zu\n", n, nr);
			break;
		}
		if (order == PK_DATA_ORDER_TIME &&
		    (s.time != want[n].time || s.cpu != want[n].cpu || s.ip != want[n].ip)) {
			print_message("sample %zu in time order: cpu %u time %llu ip %#llx where perf script "
				      "has cpu %u time %llu ip %#llx\n", n, (unsigned)s.cpu,
				      (unsigned long long)s.time, (unsigned long long)s.ip, want[n].cpu,
				      want[n].time, want[n].ip);
			break;
		}
		inversions += s.time < last;
		last = s.time;
		n++;
	}
	pk_data_reader_free(r);
	if (ret != 0 || n != nr) {
		print_message("the reader gave %zu samples where perf script gave %zu (%d)\n", n, nr, ret);
		return SIZE_MAX;
	}
	return inversions;
}

/* perf record -a over every CPU, each of them busy, plain and with -z: the
 * reader's samples in time order are perf script's, one for one; in file
 * order they are not (the rings are drained one CPU after the other),
 * which is the point. */
static void test_perf_time_order(void **state)
{
	static const char *const opts[] = { "", "-z" };
	char cmd[800];

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	for (size_t i = 0; i < 2; i++) {
		struct pk_data_compression c = { .size = sizeof(c) };
		struct pk_data_reader *r;
		struct cti *want;
		size_t nr, in_time, in_file = 1;

		/* A spinner on each CPU: an idle CPU takes no cpu-clock samples. */
		snprintf(cmd, sizeof(cmd), "perf record -q %s -a -e cpu-clock -F 2000 -o %s -- sh -c 'for c in "
			 "$(seq 0 $(($(nproc) - 1))); do taskset -c $c timeout 0.3 sh -c \"while :; do :; done\" & "
			 "done; wait' >/dev/null 2>&1", opts[i], path);
		assert_int_equal(system(cmd), 0);
		want = script_samples(path, &nr);
		assert_non_null(want);
		in_time = nr > 100 ? compare_with_script(path, PK_DATA_ORDER_TIME, want, nr) : SIZE_MAX;
		if (nr > 100 && sysconf(_SC_NPROCESSORS_ONLN) > 1)
			in_file = compare_with_script(path, PK_DATA_ORDER_FILE, want, nr);
		free(want);
		if (nr <= 100)
			print_message("perf script: %zu samples, more than 100 expected\n", nr);
		assert_int_equal(in_time, 0);
		assert_true(in_file > 0 && in_file != SIZE_MAX);
		assert_int_equal(pk_data_reader_open(path, &r), 0);
		assert_int_equal(pk_data_reader_compression(r, &c), i ? 0 : -ENOENT);
		if (i)
			assert_int_equal(c.type, 1);
		pk_data_reader_free(r);
		assert_int_equal(unlink(path), 0);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_events_and_features),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_big_records),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_time_order_many_rounds),
		cmocka_unit_test(test_time_order_big_samples),
		cmocka_unit_test(test_time_order_sparse),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_spanning),
		cmocka_unit_test(test_header_damage),
		cmocka_unit_test(test_features_cut),
		cmocka_unit_test(test_unfinished),
		cmocka_unit_test(test_record_damage),
		cmocka_unit_test(test_compressed_damage),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_perf_file),
		cmocka_unit_test(test_perf_time_order),
	};

	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(oracle, setup, teardown);
	return cmocka_run_group_tests(unit, setup, teardown);
}
