/* SPDX-License-Identifier: MIT */
/*
 * test_reader_dir.c - a big directory in perf's --threads format (DIR/data
 * and headerless DIR/data.N files, several MiB each, their times
 * interleaved and tied across files) reads in the order perf reads it:
 * every record once, in time order, records of equal time in the order
 * of perf's 2 MiB read turns (file by file, DIR/data first), records
 * without a time first, a record written late put in its place; file
 * order is perf's read order.  The expected
 * order is worked out here by replaying perf's reading (turns of 2 MiB
 * over the files, then a stable sort by time), not by the reader's rule.
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
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

#define NR_FILES 4		/* DIR/data, data.0, data.1, data.3 */
#define NR_REC 60000		/* 48-byte records: 2.7 MiB, past one 2 MiB turn */
#define EARLY 20000		/* data.0's records before the tied ones */
#define TURN (2u << 20)

static char dir[200];

struct sample {
	struct perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
};

/* A record as perf queues it: its time (0: none), its turn of reading. */
struct rec {
	uint64_t time, ip;
	size_t seq;
};

static struct rec *files[NR_FILES];
static size_t nr[NR_FILES];

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader-dir"));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NR_FILES; i++)
		free(files[i]);
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

static struct sample sample_of(int file, size_t i, uint64_t time)
{
	return (struct sample){ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(struct sample) }, 77,
				((uint64_t)file << 32) | i, 42, 43, time };
}

/* The time of file f's record i: data.1's fall between the others',
 * data.0 and data.3 tie from data.0's record EARLY on, DIR/data holds an
 * untimed record and one tied with the first of them; one of data.3's
 * comes after ten later ones, as an EXIT after samples in perf's files. */
static uint64_t time_of(int f, size_t i)
{
	if (f == 3 && i == 30000)
		return 100000 + 10 * (i - 10) + 3;
	if (f == 0)
		return i ? 100000 : 0;
	if (f == 1)
		return i < EARLY ? 1 + i : 100000 + 10 * (i - EARLY);
	if (f == 2)
		return 100005 + 10 * i;
	return 100000 + 10 * i;
}

static void write_dir(const char *d)
{
	static const char *name[NR_FILES] = { NULL, "data.0", "data.1", "data.3" };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 1000,
				     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME, .sample_id_all = 1 };
	char p[sizeof(dir) + 32];
	struct pk_data_writer *w;
	uint64_t id = 77;

	snprintf(p, sizeof(p), "%s/data", d);
	assert_int_equal(pk_data_writer_create(p, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	nr[0] = 2;
	files[0] = calloc(2, sizeof(**files));
	for (size_t i = 0; i < 2; i++) {
		struct sample s = sample_of(0, i, time_of(0, i));

		assert_int_equal(pk_data_writer_write(w, &s, sizeof(s)), 0);
		files[0][i] = (struct rec){ s.time, s.ip, 0 };
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	for (int f = 1; f < NR_FILES; f++) {
		FILE *out;

		snprintf(p, sizeof(p), "%s/%s", d, name[f]);
		assert_non_null(out = fopen(p, "wb"));
		nr[f] = f == 1 ? NR_REC + EARLY : NR_REC;
		assert_non_null(files[f] = calloc(nr[f], sizeof(**files)));
		for (size_t i = 0; i < nr[f]; i++) {
			struct sample s = sample_of(f, i, time_of(f, i));

			assert_int_equal(fwrite(&s, sizeof(s), 1, out), 1);
			files[f][i] = (struct rec){ s.time, s.ip, 0 };
		}
		assert_int_equal(fclose(out), 0);
	}
	snprintf(p, sizeof(p), "%s/data.2", d);	/* empty: perf skips it */
	assert_int_equal(fclose(fopen(p, "wb")), 0);
}

/* perf's reading: each file in turn until 2 MiB of it were read (the
 * record that reaches it included), round and round until all ended. */
static struct rec *read_order(size_t *total)
{
	size_t pos[NR_FILES] = { 0 }, n = 0, all = 0;
	struct rec *out;
	bool more = true;

	for (int f = 0; f < NR_FILES; f++)
		all += nr[f];
	assert_non_null(out = calloc(all, sizeof(*out)));
	while (more) {
		more = false;
		for (int f = 0; f < NR_FILES; f++) {
			size_t got = 0;

			while (pos[f] < nr[f] && got < TURN) {
				out[n] = files[f][pos[f]++];
				out[n].seq = n;
				n++;
				got += sizeof(struct sample);
			}
			more |= pos[f] < nr[f];
		}
	}
	*total = n;
	return out;
}

/* perf's order: untimed ones as read, then the rest by time, stable. */
static int by_time(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;

	if (!a->time != !b->time)
		return a->time ? 1 : -1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void check_order(const char *d, enum pk_data_order order, const struct rec *want, size_t n)
{
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	size_t i = 0;
	int ret;

	assert_int_equal(pk_data_reader_open(d, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, order), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const struct sample *s = (const void *)h;

		assert_true(i < n);
		if (s->ip != want[i].ip)
			fail_msg("record %zu: file %u's %u, perf has file %u's %u", i, (unsigned)(s->ip >> 32),
				 (unsigned)s->ip, (unsigned)(want[i].ip >> 32), (unsigned)want[i].ip);
		assert_int_equal(s->time, want[i].time);
		i++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(i, n);	/* every record once */
	assert_int_equal(pk_data_reader_nr_unordered(r), 0);
	pk_data_reader_free(r);
}

static void test_big_directory(void **state)
{
	char d[sizeof(dir) + 16];
	struct rec *want;
	size_t n;

	(void)state;
	snprintf(d, sizeof(d), "%s/t.data", dir);
	assert_int_equal(mkdir(d, 0700), 0);
	write_dir(d);
	want = read_order(&n);
	check_order(d, PK_DATA_ORDER_FILE, want, n);
	qsort(want, n, sizeof(*want), by_time);
	/* the turns matter: data.0's record EARLY + 23691 is in its second
	 * turn, data.3's tied record 23691 in its first, so data.3's first */
	check_order(d, PK_DATA_ORDER_TIME, want, n);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_directory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
