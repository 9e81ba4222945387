/* SPDX-License-Identifier: MIT */
/*
 * test_reader_pipe.c - the perf.data reader on pipe-mode streams (perf
 * record -o -).  A stream built here byte by byte, with perf's unpadded
 * HEADER_FEATURE and HEADER_BUILD_ID records, tracing data after its
 * record and header records after the samples, read through a pipe and as
 * a file: the events, features and records it holds, and the header
 * records taken, known when the contract says; tracepoints no record
 * names, named from the tracing data once it has arrived; samples queued
 * before their event's HEADER_ATTR, delivered as that event's.  The same
 * stream cut at every byte: an error naming what is wrong or a clean end,
 * never a hang or a crash.  The header records delivered as records, on
 * request, where the stream has them.  With the argument
 * "oracle", streams perf 6.1 writes, piped straight into the reader and
 * compared with perf's own reading of them and with the same workload
 * recorded to a file.
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

#include "perfkit.h"
#include "data/data.h"
#include "tmpdir.h"

#define EVENTS "-e task-clock/period=100000/ -e sched:sched_process_exit"
#define WORKLOAD "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'"

static char dir[200];
static char path[sizeof(dir) + 16], path2[sizeof(dir) + 16];

struct bytes {
	unsigned char p[16384];
	size_t len;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof(b->p));
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_u32(struct bytes *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct bytes *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A record of `type` whose payload is `n` bytes, no padding added. */
static void put_rec(struct bytes *b, uint32_t type, const void *payload, size_t n)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + n) };

	put(b, &h, sizeof(h));
	put(b, payload, n);
}

/* perf's header string: u32 length (NUL and padding included), the text. */
static void put_string(struct bytes *b, const char *s, uint32_t padded)
{
	char z[64] = { 0 };

	put_u32(b, padded);
	strcpy(z, s);
	put(b, z, padded);
}

static void put_feature(struct bytes *b, uint64_t id, const struct bytes *body)
{
	struct bytes r = { .len = 0 };

	put_u64(&r, id);
	put(&r, body->p, body->len);
	put_rec(b, 80, r.p, r.len);
}

static void put_sample(struct bytes *b, uint64_t id, uint64_t time)
{
	struct { uint64_t id, ip; uint32_t pid, tid; uint64_t time; } s = { id, 0x400000 + time, 42, 43, time };

	put_rec(b, PERF_RECORD_SAMPLE, &s, sizeof(s));
}

static void put_attr_of(struct bytes *b, uint32_t type, uint64_t config, const uint64_t *ids, size_t nr)
{
	struct bytes r = { .len = 0 };
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	put(&r, &a, sizeof(a));
	put(&r, ids, nr * 8);
	put_rec(b, 64, r.p, r.len);
}

static void put_attr(struct bytes *b, uint64_t config, const uint64_t *ids, size_t nr)
{
	put_attr_of(b, PERF_TYPE_SOFTWARE, config, ids, nr);
}

/* Offsets in the stream the tests cut at. */
static size_t tracing_at, samples_at;

/* The stream: two events, HOSTNAME (36 bytes: perf pads no feature
 * record), NRCPUS, CMDLINE, the end mark, 16 bytes of tracing data, an
 * EVENT_UPDATE naming event 1, samples out of time order in two rounds,
 * then a HEADER_BUILD_ID (100 bytes, as perf inject writes it) and a late
 * OSRELEASE. */
static void build_stream(struct bytes *b)
{
	static const uint64_t ids0[] = { 77, 78 }, ids1[] = { 90 };
	struct bytes f = { .len = 0 };
	unsigned char bid[4 + 24 + 64] = { 0 };
	struct { uint64_t type, id; char name[16]; } upd = { 2, 90, "page-faults" };
	struct { uint32_t size, pad; } td = { 16, 0 };
	struct perf_event_header round = { 68, 0, 8 };

	b->len = 0;
	put(b, "PERFILE2", 8);
	put_u64(b, 16);
	put_attr(b, PERF_COUNT_SW_TASK_CLOCK, ids0, 2);
	put_attr(b, PERF_COUNT_SW_PAGE_FAULTS, ids1, 1);
	put_string(&f, "pipehost", 16);
	put_feature(b, PK_DATA_FEAT_HOSTNAME, &f);
	f.len = 0;
	put_u32(&f, 4);
	put_u32(&f, 3);
	put_feature(b, PK_DATA_FEAT_NRCPUS, &f);
	f.len = 0;
	put_u32(&f, 2);
	put_string(&f, "perf", 8);
	put_string(&f, "record", 8);
	put_feature(b, PK_DATA_FEAT_CMDLINE, &f);
	f.len = 0;
	put_feature(b, PK_DATA_FEAT_LAST, &f);	/* perf's end mark */
	tracing_at = b->len;
	put_rec(b, 66, &td, sizeof(td));
	put(b, "tracing-data-16b", 16);
	put_rec(b, 78, &upd, sizeof(upd));
	samples_at = b->len;
	put_sample(b, 77, 300);
	put_sample(b, 90, 100);
	put_sample(b, 78, 200);
	put(b, &round, sizeof(round));
	put_sample(b, 77, 400);
	put(b, &round, sizeof(round));
	memcpy(bid, &(int32_t){ -1 }, 4);
	memset(bid + 4, 0xab, 20);
	bid[24] = 20;
	strcpy((char *)bid + 28, "/usr/bin/true");
	put_rec(b, 67, bid, sizeof(bid));
	f.len = 0;
	put_string(&f, "6.1.0-test", 16);
	put_feature(b, PK_DATA_FEAT_OSRELEASE, &f);
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader-pipe"));
	snprintf(path, sizeof(path), "%s/pipe.data", dir);
	snprintf(path2, sizeof(path2), "%s/file.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

/* A pipe holding `len` bytes of `p`, its write end closed: the stream as
 * a reader of `perf record -o - | ...` sees it.  Returns the read end. */
static int pipe_of(const void *p, size_t len)
{
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_true(len <= 65536);	/* what a pipe holds without a reader */
	assert_int_equal(write(fds[1], p, len), (ssize_t)len);
	close(fds[1]);
	return fds[0];
}

static void write_file(const char *p, const void *data, size_t len)
{
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* What the stream gives before the first record and after the last. */
static void check_stream(struct pk_data_reader *r)
{
	static const uint32_t kinds[] = { 78, 68, 9, 9, 9, 68, 9 };
	static const uint64_t times[] = { 0, 0, 100, 200, 300, 0, 400 };
	const struct perf_event_header *h;
	const uint64_t *ids;
	const void *p;
	size_t nr, len, n = 0;
	uint32_t avail, online;
	int ret;

	assert_int_equal(pk_data_reader_nr_events(r), 2);
	assert_int_equal(pk_data_reader_attr(r, 0)->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(pk_data_reader_attr(r, 1)->config, PERF_COUNT_SW_PAGE_FAULTS);
	ids = pk_data_reader_ids(r, 0, &nr);
	assert_int_equal(nr, 2);
	assert_int_equal(ids[1], 78);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_HOSTNAME), "pipehost");
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_CMDLINE), "perf record");
	assert_int_equal(pk_data_reader_nr_cpus(r, &avail, &online), 0);
	assert_int_equal(avail * 10 + online, 43);
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_TRACING_DATA, &p, &len), 0);
	assert_int_equal(len, 16);
	assert_memory_equal(p, "tracing-data-16b", 16);
	/* The header records taken so far; a stream has no layout. */
	assert_int_equal(pk_data_reader_nr_taken(r, 64), 2);	/* HEADER_ATTR */
	assert_int_equal(pk_data_reader_nr_taken(r, 80), 4);	/* HEADER_FEATURE, the end mark too */
	assert_int_equal(pk_data_reader_nr_taken(r, 66), 1);	/* HEADER_TRACING_DATA */
	assert_int_equal(pk_data_reader_nr_taken(r, 67), 0);
	{
		struct pk_data_layout l = { .size = sizeof(l) };

		assert_int_equal(pk_data_reader_layout(r, &l), 0);
		assert_int_equal(l.data_offset + l.data_size + l.feat_offset, 0);
	}
	/* What comes after the records is not known yet: the name is perf's
	 * for the attr (no exclude bit: perf's H and G modifiers). */
	assert_string_equal(pk_data_reader_name(r, 1), "page-faults:HG");
	assert_null(pk_data_reader_string(r, PK_DATA_FEAT_OSRELEASE));
	assert_false(pk_data_reader_has_feature(r, PK_DATA_FEAT_BUILD_ID));
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		struct pk_sample_peek s = { .size = sizeof(s) };

		assert_true(n < 7);
		assert_int_equal(h->type, kinds[n]);
		if (h->type == PERF_RECORD_SAMPLE) {
			assert_int_equal(pk_sample_peek(h, pk_data_reader_attr_of(r, h), &s), 0);
			assert_int_equal(s.time, times[n]);
			assert_int_equal(pk_data_reader_event_of(r, h), times[n] == 100);
		}
		assert_int_equal(pk_data_reader_last_event(r), pk_data_reader_event_of(r, h));
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 7);
	assert_string_equal(pk_data_reader_name(r, 1), "page-faults");	/* from EVENT_UPDATE */
	assert_int_equal(pk_data_reader_nr_taken(r, 80), 5);	/* the late OSRELEASE */
	assert_int_equal(pk_data_reader_nr_taken(r, 67), 1);	/* the late HEADER_BUILD_ID */
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_OSRELEASE), "6.1.0-test");
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_BUILD_ID, &p, &len), 0);
	assert_int_equal(len, 100);	/* the record as a file's section holds it */
	assert_int_equal(((const struct perf_event_header *)p)->type, 67);
	assert_string_equal((const char *)p + 36, "/usr/bin/true");
}

static void test_pipe_stream(void **state)
{
	struct bytes b;
	struct pk_data_reader *r;
	int fd;

	(void)state;
	build_stream(&b);
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	check_stream(r);
	pk_data_reader_free(r);
	assert_int_equal(close(fd), 0);	/* the fd stays the caller's */
	/* "-" is standard input, as perf's -i - */
	fd = dup(STDIN_FILENO);
	assert_true(fd >= 0);
	assert_int_equal(dup2(pipe_of(b.p, b.len), STDIN_FILENO), STDIN_FILENO);
	assert_int_equal(pk_data_reader_open("-", &r), 0);
	check_stream(r);
	pk_data_reader_free(r);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	write_file(path, b.p, b.len);	/* perf record -o - > file */
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	check_stream(r);
	pk_data_reader_free(r);
}

/* The id tracefs file `rel` in the fixture tracefs `fixture` gives. */
static uint64_t fixture_id(const char *fixture, const char *rel)
{
	char p[4400], buf[32] = { 0 };
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", fixture, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	return strtoull(buf, NULL, 10);
}

/* Tracepoints no EVENT_UPDATE names (a stream from a perf that sends no
 * names) take "system:name" from the tracing data once HEADER_TRACING_DATA
 * has arrived, as perf names them; an EVENT_UPDATE name that comes later
 * still wins, and a tracepoint whose HEADER_ATTR comes after the tracing
 * data stays "unknown tracepoint", as in perf 6.1. */
static void test_pipe_tracepoint_names(void **state)
{
	static const uint64_t id0[] = { 5 }, id1[] = { 6 }, id2[] = { 7 };
	struct { uint64_t type, id; char name[16]; } upd = { 2, 6, "irq:renamed" };
	struct pk__data_event ev[2] = { 0 };
	struct bytes *b = malloc(sizeof(*b));
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct { uint32_t size, pad; } td_rec = { 0, 0 };
	unsigned char *td, zero[8] = { 0 };
	char fixture[4096];
	size_t len, n = 0;
	int fd, ret;

	(void)state;
	assert_non_null(b);
	snprintf(fixture, sizeof(fixture), "%s/tests/unit/catalog/tracefs", getenv("PERFKIT_SRCDIR"));
	ev[0].attr.type = ev[1].attr.type = PERF_TYPE_TRACEPOINT;
	ev[0].attr.config = fixture_id(fixture, "events/sched/sched_switch/id");
	ev[1].attr.config = fixture_id(fixture, "events/irq/irq_handler_entry/id");
	ev[0].name = ev[1].name = (char *)"not-these";	/* the tracing data holds no names of events */
	assert_int_equal(pk__data_writer_tracing(fixture, ev, 2, &td, &len), 0);
	assert_non_null(td);
	b->len = 0;
	put(b, "PERFILE2", 8);
	put_u64(b, 16);
	put_attr_of(b, PERF_TYPE_TRACEPOINT, ev[0].attr.config, id0, 1);
	put_attr_of(b, PERF_TYPE_TRACEPOINT, ev[1].attr.config, id1, 1);
	td_rec.size = (uint32_t)((len + 7) & ~(size_t)7);
	put_rec(b, 66, &td_rec, sizeof(td_rec));
	put(b, td, len);
	put(b, zero, td_rec.size - len);
	free(td);
	put_sample(b, 5, 100);
	put_rec(b, 78, &upd, sizeof(upd));
	put_attr_of(b, PERF_TYPE_TRACEPOINT, ev[0].attr.config, id2, 1);
	put_sample(b, 7, 200);
	fd = pipe_of(b->p, b->len);
	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	assert_int_equal(pk_data_reader_nr_events(r), 2);
	assert_string_equal(pk_data_reader_name(r, 0), "sched:sched_switch");
	assert_string_equal(pk_data_reader_name(r, 1), "irq:irq_handler_entry");
	while ((ret = pk_data_reader_next(r, &h)) == 1)
		n++;
	assert_int_equal(ret, 0);
	assert_int_equal(n, 3);	/* two samples and the EVENT_UPDATE */
	assert_int_equal(pk_data_reader_nr_events(r), 3);
	assert_string_equal(pk_data_reader_name(r, 0), "sched:sched_switch");
	assert_string_equal(pk_data_reader_name(r, 1), "irq:renamed");
	assert_string_equal(pk_data_reader_name(r, 2), "unknown tracepoint");
	pk_data_reader_free(r);
	close(fd);
	free(b);
}

/* Reads a stream cut at `len` through a pipe: the records delivered before
 * the end or the error.  Every error names what is wrong. */
static size_t read_cut(const struct bytes *b, size_t len, int *open_err, int *end)
{
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	int fd = pipe_of(b->p, len);
	size_t n = 0;

	*open_err = pk_data_reader_open_fd(fd, "cut", &r);
	*end = 0;
	if (*open_err == 0) {
		while ((*end = pk_data_reader_next(r, &h)) == 1)
			n++;
		pk_data_reader_free(r);
	}
	if (*open_err || *end)
		assert_true(pk_last_error()->why && strstr(pk_last_error()->why, "cut"));
	close(fd);
	return n;
}

static void test_pipe_cut(void **state)
{
	struct bytes b;
	int open_err, end;

	(void)state;
	build_stream(&b);
	for (size_t len = 0; len <= b.len; len++) {
		size_t n = read_cut(&b, len, &open_err, &end);

		if (len < tracing_at + 16 + 16)
			/* in the header records: no records; a header record cut
			 * after its type fails the open */
			assert_true(open_err == -EINVAL || (open_err == 0 && n == 0));
		else
			assert_true(open_err == 0 && (end == 0 || end == -EINVAL));
		if (len > samples_at && len < b.len)
			assert_true(n <= 7);
	}
	read_cut(&b, 30, &open_err, &end);
	assert_int_equal(open_err, -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "the record at offset 16 runs past the end of the stream"));
	read_cut(&b, tracing_at + 16 + 8, &open_err, &end);
	assert_int_equal(open_err, -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "inside the tracing data"));
	assert_int_equal(read_cut(&b, samples_at + 40 + 20, &open_err, &end), 2);
	assert_int_equal(end, -EINVAL);	/* the EVENT_UPDATE and one sample, then the cut one */
	assert_int_equal(read_cut(&b, b.len, &open_err, &end), 7);
	assert_int_equal(end, 0);
}

/* An event whose HEADER_ATTR comes after samples of its id were queued:
 * they were read as the one event's, and are delivered as the new one's,
 * as pk_data_reader_event_of finds it then; pk_data_reader_last_event
 * agrees with it, and says -ENOENT before the first record and at the end. */
static void test_pipe_late_attr(void **state)
{
	static const uint64_t ids0[] = { 77 }, ids1[] = { 90 };
	static const uint32_t kinds[] = { 68, 9, 9, 9, 68 };
	static const int evs[] = { -ENOENT, 1, 1, 0, -ENOENT };	/* two events by the first round */
	struct perf_event_header round = { 68, 0, 8 };
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	struct bytes b = { .len = 0 };
	size_t n = 0;
	int fd, ret;

	(void)state;
	put(&b, "PERFILE2", 8);
	put_u64(&b, 16);
	put_attr(&b, PERF_COUNT_SW_TASK_CLOCK, ids0, 1);
	put_sample(&b, 77, 300);
	put_sample(&b, 90, 100);
	put_attr(&b, PERF_COUNT_SW_PAGE_FAULTS, ids1, 1);
	put(&b, &round, sizeof(round));
	put_sample(&b, 90, 200);
	put(&b, &round, sizeof(round));
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	assert_int_equal(pk_data_reader_nr_events(r), 1);
	assert_int_equal(pk_data_reader_last_event(r), -ENOENT);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(n < 5);
		assert_int_equal(h->type, kinds[n]);
		assert_int_equal(pk_data_reader_event_of(r, h), evs[n]);
		assert_int_equal(pk_data_reader_last_event(r), evs[n]);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 5);
	assert_int_equal(pk_data_reader_last_event(r), -ENOENT);
	pk_data_reader_free(r);
	close(fd);
}

/* Read `fd` with the header records delivered: each where the stream has
 * it (those taken at open first, then as read, in time order), none
 * counted as taken, the tracing data's record without its payload. */
static void check_header_records(int fd)
{
	static const uint32_t kinds[] = { 64, 64, 80, 80, 80, 80, 66, 78, 68, 9, 9, 9, 68, 67, 80, 9 };
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	size_t n = 0;
	int ret;

	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	assert_int_equal(pk_data_reader_nr_taken(r, 64), 2);
	assert_int_equal(pk_data_reader_set_header_records(r, true), 0);
	assert_int_equal(pk_data_reader_nr_taken(r, 64) + pk_data_reader_nr_taken(r, 80), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(n < sizeof(kinds) / sizeof(kinds[0]));
		assert_int_equal(h->type, kinds[n]);
		if (n == 0)
			assert_int_equal(pk_data_reader_offset(r), 16);	/* right after the stream's header */
		if (h->type == 66) {
			assert_int_equal(pk_data_reader_offset(r), tracing_at);
			assert_int_equal(h->size, 16);
		}
		if (h->type == 67)
			assert_string_equal((const char *)h + 36, "/usr/bin/true");
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, sizeof(kinds) / sizeof(kinds[0]));
	for (uint32_t t = 64; t <= 80; t++)
		assert_int_equal(pk_data_reader_nr_taken(r, t), 0);
	assert_string_equal(pk_data_reader_string(r, PK_DATA_FEAT_OSRELEASE), "6.1.0-test");
	assert_int_equal(pk_data_reader_set_header_records(r, false), -EBUSY);
	pk_data_reader_free(r);
}

/* pk_data_reader_set_header_records: the stream's header records as
 * records, for perf's -D; turned on and off again before reading, the
 * stream reads as without it. */
static void test_pipe_header_records(void **state)
{
	struct bytes b;
	struct pk_data_reader *r;
	int fd;

	(void)state;
	build_stream(&b);
	fd = pipe_of(b.p, b.len);
	check_header_records(fd);
	close(fd);
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	assert_int_equal(pk_data_reader_set_header_records(r, true), 0);
	assert_int_equal(pk_data_reader_set_header_records(r, false), 0);
	check_stream(r);
	pk_data_reader_free(r);
	close(fd);
}

/* A damaged record right after those taken at open: with header
 * records on, they still come first, then the damage (perf -D prints
 * them before it fails). */
static void test_pipe_header_records_before_damage(void **state)
{
	static const uint32_t kinds[] = { 64, 64, 80, 80, 80, 80, 66 };
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	struct bytes b;
	size_t n = 0;
	int fd, ret;

	(void)state;
	build_stream(&b);
	((struct perf_event_header *)(b.p + tracing_at + 32))->size = 3;	/* the EVENT_UPDATE */
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "the pipe", &r), 0);
	assert_int_equal(pk_data_reader_set_header_records(r, true), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(n < sizeof(kinds) / sizeof(kinds[0]));
		assert_int_equal(h->type, kinds[n++]);
	}
	assert_int_equal(n, sizeof(kinds) / sizeof(kinds[0]));
	assert_int_equal(ret, -EINVAL);
	pk_data_reader_free(r);
	close(fd);
}

/* A damaged header record is named with its offset. */
static void test_pipe_damage(void **state)
{
	struct bytes b = { .len = 0 };
	struct pk_data_reader *r;
	unsigned char attr[PERF_ATTR_SIZE_VER0] = { 0 };
	int fd;

	(void)state;
	put(&b, "PERFILE2", 8);
	put_u64(&b, 16);
	attr[4] = 200;	/* attr.size past the record's end */
	put_rec(&b, 64, attr, sizeof(attr));
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "bad", &r), -EINVAL);
	assert_null(r);
	assert_non_null(strstr(pk_last_error()->why, "the HEADER_ATTR record at offset 16 gives an attr size"));
	close(fd);
	/* A PERFILE2 file cannot come through a pipe: its header points back. */
	b.len = 0;
	put(&b, "PERFILE2", 8);
	put_u64(&b, 104);
	fd = pipe_of(b.p, b.len);
	assert_int_equal(pk_data_reader_open_fd(fd, "piped file", &r), -ESPIPE);
	close(fd);
}

/* `perf report -D` of a stream: how many records of `kind` it shows. */
static size_t perf_dump_count(const char *file, const char *kind)
{
	char cmd[700];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf report -D -i - < %s 2>/dev/null | grep -cE '\\]: PERF_RECORD_%s([ :(]|$)'",
		 file, kind);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%zu", &n), 1);
	pclose(p);
	return n;
}

struct kinds {
	size_t nr[128];
};

/* Reads `r` to the end, counting records by type. */
static void count_kinds(struct pk_data_reader *r, struct kinds *k)
{
	const struct perf_event_header *h;
	int ret;

	memset(k, 0, sizeof(*k));
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(h->type < 128);
		if (h->type == PERF_RECORD_SAMPLE)
			assert_non_null(pk_data_reader_attr_of(r, h));
		k->nr[h->type]++;
	}
	assert_int_equal(ret, 0);
}

/* perf record -o - piped into the reader (and saved by tee for perf to
 * read): every record kind as many times as perf report -D shows it, the
 * header records taken, not delivered. */
static void test_perf_pipe(void **state)
{
	static const struct { const char *name; uint32_t type; } dump[] = {
		{ "SAMPLE", 9 }, { "COMM", 3 }, { "MMAP", 1 }, { "MMAP2", 10 }, { "EXIT", 4 },
		{ "FINISHED_ROUND", 68 }, { "FINISHED_INIT", 82 }, { "ID_INDEX", 69 },
		{ "THREAD_MAP", 73 }, { "CPU_MAP", 74 }, { "EVENT_UPDATE", 78 },
	};
	struct pk_data_reader *r, *f;
	struct kinds kp, kf;
	char cmd[800];
	struct perf_event_attr ap, af;
	const void *td;
	size_t len;
	FILE *p;

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "perf record -q " EVENTS " -o - -- " WORKLOAD " 2>/dev/null | tee %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(pk_data_reader_open_fd(fileno(p), "perf's pipe", &r), 0);
	assert_int_equal(pk_data_reader_nr_events(r), 2);
	assert_string_equal(pk_data_reader_name(r, 0), "task-clock/period=100000/");
	assert_string_equal(pk_data_reader_name(r, 1), "sched:sched_process_exit");
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_TRACING_DATA, &td, &len), 0);
	assert_true(len > 100);
	assert_memory_equal(td, "\x17\x08\x44tracing", 10);	/* perf's tracing data magic */
	assert_non_null(strstr(pk_data_reader_string(r, PK_DATA_FEAT_CMDLINE), "-o -"));
	count_kinds(r, &kp);
	assert_int_equal(pclose(p), 0);
	assert_true(kp.nr[PERF_RECORD_SAMPLE] > 10);
	for (size_t i = 0; i < sizeof(dump) / sizeof(dump[0]); i++)
		if (kp.nr[dump[i].type] != perf_dump_count(path, dump[i].name))
			fail_msg("%zu %s records, perf report -D shows %zu", kp.nr[dump[i].type], dump[i].name,
				 perf_dump_count(path, dump[i].name));
	for (uint32_t t = 64; t <= 67; t++)
		assert_int_equal(kp.nr[t], 0);
	assert_int_equal(kp.nr[80], 0);
	/* The same workload recorded to a file: the same events and kinds. */
	snprintf(cmd, sizeof(cmd), "perf record -q " EVENTS " -o %s -- " WORKLOAD " >/dev/null 2>&1", path2);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pk_data_reader_open(path2, &f), 0);
	assert_int_equal(pk_data_reader_nr_events(f), 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(pk_data_reader_name(f, i), pk_data_reader_name(r, i));
		memcpy(&ap, pk_data_reader_attr(r, i), sizeof(ap));
		memcpy(&af, pk_data_reader_attr(f, i), sizeof(af));
		/* perf adds PERF_SAMPLE_ID in pipe mode */
		ap.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
		af.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
		assert_memory_equal(&ap, &af, sizeof(ap));
	}
	count_kinds(f, &kf);
	for (uint32_t t = 0; t < 128; t++)
		if (!kp.nr[t] != !kf.nr[t])
			fail_msg("record type %u: %zu in the stream, %zu in the file", t, kp.nr[t], kf.nr[t]);
	assert_int_equal(kp.nr[PERF_RECORD_SAMPLE] > 0, kf.nr[PERF_RECORD_SAMPLE] > 0);
	pk_data_reader_free(f);
	pk_data_reader_free(r);
}

/* perf's stream cut at every 8 bytes of its first 16 KiB: opening and
 * reading end cleanly or with an error, never hang or crash. */
static void test_perf_pipe_cut(void **state)
{
	struct bytes *b = malloc(sizeof(*b));
	char cmd[700];
	FILE *f;
	size_t got;

	(void)state;
	assert_non_null(b);
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "perf record -q " EVENTS " -o - -- " WORKLOAD " 2>/dev/null > %s", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	got = fread(b->p, 1, sizeof(b->p), f);
	fclose(f);
	b->len = got;
	assert_true(got > 1024);
	for (size_t len = 0; len <= got; len += 8) {
		int open_err, end;

		read_cut(b, len, &open_err, &end);
		assert_true(open_err == 0 || open_err == -EINVAL);
		assert_true(end == 0 || end == -EINVAL);
	}
	free(b);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_pipe_stream),
		cmocka_unit_test(test_pipe_cut),
		cmocka_unit_test(test_pipe_damage),
		cmocka_unit_test(test_pipe_tracepoint_names),
		cmocka_unit_test(test_pipe_late_attr),
		cmocka_unit_test(test_pipe_header_records),
		cmocka_unit_test(test_pipe_header_records_before_damage),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_perf_pipe),
		cmocka_unit_test(test_perf_pipe_cut),
	};

	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(oracle, setup, teardown);
	return cmocka_run_group_tests(unit, setup, teardown);
}
