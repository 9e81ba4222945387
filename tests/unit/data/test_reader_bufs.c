/* SPDX-License-Identifier: MIT */
/*
 * test_reader_bufs.c - the reader's buffers are reused: a file of
 * DWARF-sized samples in rounds of several megabytes (each round pins a
 * dozen of the reader's 256 KiB buffers until the round after it is read)
 * is read in time order with every record whole and in order, and the
 * read faults in a small part of the pages it reads: a buffer given back
 * is kept for the next one, not freed and mapped again.  perfkit's own
 * recordings of a hot loop with --call-graph dwarf have such rounds; each
 * buffer mapped afresh cost two thirds of their report's time.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

static char dir[200];
static char path[sizeof(dir) + 16];

enum { FIXED = 40, BIG = 8192 + FIXED, ROUNDS = 24, PER_ROUND = 400 };

static void put_sample(struct pk_data_writer *w, uint64_t time)
{
	static unsigned char s[BIG];
	struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid; uint64_t time; } f = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, BIG }, 77, 0x1000 + time, 4242, 4243, time };

	memcpy(s, &f, sizeof(f));
	memset(s + sizeof(f), (int)(time & 0xff), sizeof(s) - sizeof(f));
	assert_int_equal(pk_data_writer_write(w, s, sizeof(s)), 0);
}

static long minor_faults(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_minflt;
}

static void test_buffers_reused(void **state)
{
	struct perf_event_attr a;
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t id = 77, last = 0, n = 0;
	long faults;
	int ret;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.size = sizeof(a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	for (uint64_t i = 1; i <= ROUNDS; i++) {
		/* two rings' samples interleaved in time: odd, then even */
		for (uint64_t k = 0; k < PER_ROUND; k += 2)
			put_sample(w, 10000 * i + k + 1);
		for (uint64_t k = 0; k < PER_ROUND; k += 2)
			put_sample(w, 10000 * i + k);
		assert_int_equal(pk_data_writer_write_round(w), 0);
	}
	assert_int_equal(pk_data_writer_finish(w), 0);

	assert_int_equal(pk_data_reader_open(path, &r), 0);
	faults = minor_faults();
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const uint64_t *u = (const uint64_t *)(const void *)h;
		const unsigned char *b = (const unsigned char *)h;

		if (h->type == PK_DATA_RECORD_FINISHED_ROUND)
			continue;
		assert_int_equal(h->size, BIG);
		assert_true(u[4] > last);
		assert_int_equal(b[BIG - 1], u[4] & 0xff);
		last = u[4];
		n++;
	}
	faults = minor_faults() - faults;
	assert_int_equal(ret, 0);
	assert_int_equal(n, (uint64_t)ROUNDS * PER_ROUND);
	pk_data_reader_free(r);
	/* 80 MB read, 19,000 pages: each buffer mapped afresh faulted them
	 * all in; reused, the dozen a round pins fault in once */
	print_message("# %ld minor faults reading %llu pages\n", faults,
		      (unsigned long long)n * BIG / 4096);
	assert_true((unsigned long long)faults < n * BIG / 4096 / 4);
}

static int setup(void **state)
{
	(void)state;
	/* the CLI's setting (main.c): each buffer is a mapping of its own */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader-bufs"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffers_reused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
