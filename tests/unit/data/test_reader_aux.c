/* SPDX-License-Identifier: MIT */
/*
 * test_reader_aux.c - what the reader skips and what it tells of each
 * record: AUX area records (AUXTRACE with the trace data after it,
 * AUXTRACE_INFO, AUX, ITRACE_START) are not delivered, the records around
 * them are, whole, and pk_data_reader_stats counts them, in both orders,
 * from a file and from a pipe-mode stream, and inside COMPRESSED records; trace data cut by the end of
 * the data is damage; pk_data_reader_offset gives each record's offset in
 * the file whichever the order, and PK_DATA_ORDER_TIME_ROUND_FIRST puts a
 * FINISHED_ROUND before the records it releases (perf -D's order).
 * A directory in perf's --threads format (DIR/data and headerless
 * DIR/data.N files) reads as one recording, its records merged in time
 * order, each with its own file and offset; a record cut by the end of
 * its data.N is damage.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

#define PAYLOAD 4096

static char dir[200];
static char path[sizeof(dir) + 64];

struct sample {
	struct perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
};

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-reader-aux"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

static struct pk_data_writer *new_file(bool pipe)
{
	struct perf_event_attr a;
	struct pk_data_writer *w;
	uint64_t id = 77;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	if (pipe) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		assert_true(fd >= 0);
		assert_int_equal(pk_data_writer_create_pipe(fd, &w), 0);
	} else {
		assert_int_equal(pk_data_writer_create(path, &w), 0);
	}
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	return w;
}

static void put_sample(struct pk_data_writer *w, uint64_t time)
{
	struct sample s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 77, 0x1000 + time, 42, 43,
			    time };

	assert_int_equal(pk_data_writer_write(w, &s, sizeof(s)), 0);
}

/* An AUXTRACE record (perf's layout: size, offset, reference, idx, tid,
 * cpu, reserved) and `payload` bytes of trace data that look like samples,
 * so a reader that did not skip them would deliver them. */
static void put_auxtrace(struct pk_data_writer *w, uint64_t payload)
{
	struct {
		struct perf_event_header h;
		uint64_t size, offset, reference;
		uint32_t idx, tid, cpu, reserved;
	} at = { { 71, 0, sizeof(at) }, payload, 0, 0x1234, 0, 43, 0, 0 };
	unsigned char *p = malloc(sizeof(at) + PAYLOAD);

	assert_non_null(p);
	memcpy(p, &at, sizeof(at));
	for (size_t i = 0; i + sizeof(struct sample) <= PAYLOAD; i += sizeof(struct sample)) {
		struct sample s = { { PERF_RECORD_SAMPLE, 0, sizeof(s) }, 77, 0xdead, 1, 1, 999999 };

		memcpy(p + sizeof(at) + i, &s, sizeof(s));
	}
	assert_int_equal(pk_data_writer_write(w, p, sizeof(at) + (payload < PAYLOAD ? payload : PAYLOAD)), 0);
	free(p);
}

static void put_others(struct pk_data_writer *w)
{
	struct { struct perf_event_header h; uint64_t priv[2]; } info = { { 70, 0, sizeof(info) }, { 1, 2 } };
	struct { struct perf_event_header h; uint64_t off, size, flags; struct { uint32_t pid, tid; uint64_t time, id; } sid; }
		aux = { { PERF_RECORD_AUX, 0, sizeof(aux) }, 0, 4096, 0, { 42, 43, 25, 77 } };
	struct { struct perf_event_header h; uint32_t pid, tid; struct { uint32_t pid, tid; uint64_t time, id; } sid; }
		its = { { PERF_RECORD_ITRACE_START, 0, sizeof(its) }, 42, 43, { 42, 43, 26, 77 } };

	assert_int_equal(pk_data_writer_write(w, &info, sizeof(info)), 0);
	assert_int_equal(pk_data_writer_write(w, &aux, sizeof(aux)), 0);
	assert_int_equal(pk_data_writer_write(w, &its, sizeof(its)), 0);
}

static void write_aux_file(bool pipe)
{
	struct pk_data_writer *w = new_file(pipe);

	put_sample(w, 10);
	put_others(w);
	put_auxtrace(w, PAYLOAD);
	put_sample(w, 30);
	put_auxtrace(w, 0);
	put_sample(w, 20);
	assert_int_equal(pk_data_writer_write_round(w), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
}

/* The samples' times in delivery order, in want[], then the round. */
static void expect_times(struct pk_data_reader *r, const uint64_t *want, size_t nr)
{
	const struct perf_event_header *h;
	struct pk_data_reader_stats st = { .size = sizeof(st) };
	size_t n = 0;
	int ret;

	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const struct sample *s = (const void *)h;

		/* no AUX area record comes; perf's own records (the round, a
		 * stream's EVENT_UPDATE naming the event) do */
		assert_true(h->type != 70 && h->type != 71 && h->type != PERF_RECORD_AUX &&
			    h->type != PERF_RECORD_ITRACE_START);
		if (h->type >= PERF_RECORD_MAX)
			continue;
		assert_int_equal(h->type, PERF_RECORD_SAMPLE);
		assert_true(n < nr);
		assert_int_equal(s->time, want[n]);
		assert_int_equal(s->ip, 0x1000 + want[n]);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, nr);
	assert_int_equal(pk_data_reader_stats(r, &st), 0);
	assert_int_equal(st.nr_auxtrace, 2);
	assert_int_equal(st.auxtrace_bytes, PAYLOAD);
	assert_int_equal(st.nr_auxtrace_info, 1);
	assert_int_equal(st.nr_aux, 1);
	assert_int_equal(st.nr_itrace_start, 1);
	assert_int_equal(st.nr_compressed, 0);
}

static void test_auxtrace_skipped(void **state)
{
	static const uint64_t file[] = { 10, 30, 20 }, timed[] = { 10, 20, 30 };

	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pk_data_reader *r;

		write_aux_file(pipe);
		assert_int_equal(pk_data_reader_open(path, &r), 0);
		expect_times(r, timed, 3);
		pk_data_reader_free(r);
		assert_int_equal(pk_data_reader_open(path, &r), 0);
		assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), 0);
		expect_times(r, file, 3);
		pk_data_reader_free(r);
	}
}

/* AUX area records inside COMPRESSED records (perf record -z) are skipped
 * and counted as they are outside them (a fuzzer's find: they were handed
 * out). */
static void test_aux_in_compressed(void **state)
{
	struct pk_data_writer *w = new_file(false);
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct pk_data_reader_stats st = { .size = sizeof(st) };
	int ret, samples = 0;

	(void)state;
	assert_int_equal(pk_data_writer_set_compression(w, 1), 0);
	put_sample(w, 10);
	put_others(w);
	put_sample(w, 20);
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		assert_true(h->type != 70 && h->type != PERF_RECORD_AUX && h->type != PERF_RECORD_ITRACE_START);
		samples += h->type == PERF_RECORD_SAMPLE;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(samples, 2);
	assert_int_equal(pk_data_reader_stats(r, &st), 0);
	assert_true(st.nr_compressed > 0);
	assert_int_equal(st.nr_auxtrace_info, 1);
	assert_int_equal(st.nr_aux, 1);
	assert_int_equal(st.nr_itrace_start, 1);
	pk_data_reader_free(r);
}

/* Trace data that runs past the data section is damage, named. */
static void test_auxtrace_cut(void **state)
{
	struct pk_data_writer *w = new_file(false);
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct pk_data_reader_stats small = { .size = 8 };

	(void)state;
	put_sample(w, 10);
	put_auxtrace(w, 1 << 20);	/* says a MiB follows; 4 KiB do */
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), 0);
	assert_int_equal(pk_data_reader_next(r, &h), 1);
	assert_int_equal(pk_data_reader_next(r, &h), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "AUXTRACE record at offset"));
	assert_int_equal(pk_data_reader_next(r, &h), -EINVAL);
	assert_int_equal(pk_data_reader_stats(r, &small), -EINVAL);
	pk_data_reader_free(r);
}

/* Offsets in file order, then the same records' offsets in both time
 * orders, and where the rounds come. */
static void test_offsets_and_rounds(void **state)
{
	struct pk_data_writer *w = new_file(false);
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t off[6], prev = 0;
	/* records: s30, s10, ROUND, s40, ROUND, s35 (file order) */
	static const int round_first[] = { 2, 4, 1, 0, 5, 3 }, plain[] = { 2, 1, 0, 4, 5, 3 };

	(void)state;
	put_sample(w, 30);
	put_sample(w, 10);
	assert_int_equal(pk_data_writer_write_round(w), 0);
	put_sample(w, 40);
	assert_int_equal(pk_data_writer_write_round(w), 0);
	put_sample(w, 35);
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_int_equal(pk_data_reader_offset(r), 0);
	assert_int_equal(pk_data_reader_set_order(r, PK_DATA_ORDER_FILE), 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(pk_data_reader_next(r, &h), 1);
		off[i] = pk_data_reader_offset(r);
		assert_true(!i || off[i] == prev);
		prev = off[i] + h->size;
	}
	assert_int_equal(pk_data_reader_next(r, &h), 0);
	pk_data_reader_free(r);
	for (int k = 0; k < 2; k++) {
		const int *want = k ? plain : round_first;

		assert_int_equal(pk_data_reader_open(path, &r), 0);
		assert_int_equal(pk_data_reader_set_order(r, k ? PK_DATA_ORDER_TIME : PK_DATA_ORDER_TIME_ROUND_FIRST), 0);
		/* the second round releases s10 and s30; s40 and s35 come at the end */
		for (int i = 0; i < 6; i++) {
			assert_int_equal(pk_data_reader_next(r, &h), 1);
			assert_int_equal(pk_data_reader_offset(r), off[want[i]]);
		}
		assert_int_equal(pk_data_reader_next(r, &h), 0);
		pk_data_reader_free(r);
	}
}

/* DIR/data.N: raw samples at these times. */
static void write_raw(const char *name, const uint64_t *times, size_t nr, size_t cut)
{
	char p[sizeof(dir) + 32];
	FILE *f;

	snprintf(p, sizeof(p), "%s/d.data/%s", dir, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < nr; i++) {
		struct sample s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 77, 0x1000 + times[i],
				    42, 43, times[i] };

		assert_int_equal(fwrite(&s, 1, i + 1 == nr ? sizeof(s) - cut : sizeof(s), f),
				 i + 1 == nr ? sizeof(s) - cut : sizeof(s));
	}
	assert_int_equal(fclose(f), 0);
}

static void test_directory(void **state)
{
	static const uint64_t t0[] = { 15, 35 }, t2[] = { 5, 25, 45 }, want[] = { 5, 10, 15, 25, 35, 45 };
	char d[sizeof(dir) + 16], main_path[sizeof(dir) + 32];
	struct pk_data_writer *w;
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	size_t n = 0;
	int ret;

	(void)state;
	snprintf(d, sizeof(d), "%s/d.data", dir);
	snprintf(main_path, sizeof(main_path), "%s/data", d);
	assert_int_equal(mkdir(d, 0700), 0);
	snprintf(path, sizeof(path), "%s", main_path);
	w = new_file(false);
	put_sample(w, 10);
	assert_int_equal(pk_data_writer_finish(w), 0);
	write_raw("data.0", t0, 2, 0);
	write_raw("data.1", t0, 0, 0);	/* empty: skipped, as perf does */
	write_raw("data.2", t2, 3, 0);
	assert_int_equal(pk_data_reader_open(d, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const struct sample *s = (const void *)h;
		const char *file = pk_data_reader_file(r);

		assert_int_equal(s->time, want[n]);
		/* data.N records sit at multiples of 32 in their own file */
		if (s->time == 10) {
			assert_string_equal(file, main_path);
		} else {
			bool in2 = s->time == 5 || s->time == 25 || s->time == 45;

			assert_non_null(strstr(file, in2 ? "d.data/data.2" : "d.data/data.0"));
			assert_int_equal(pk_data_reader_offset(r) % sizeof(*s), 0);
		}
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 6);
	pk_data_reader_free(r);
	write_raw("data.0", t0, 2, 8);	/* its last sample cut: not made whole by data.2's bytes */
	assert_int_equal(pk_data_reader_open(d, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1)
		;
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "runs past the end of its file"));
	pk_data_reader_free(r);
	snprintf(path, sizeof(path), "%s/perf.data", dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auxtrace_skipped),
		cmocka_unit_test(test_auxtrace_cut),
		cmocka_unit_test(test_aux_in_compressed),
		cmocka_unit_test(test_offsets_and_rounds),
		cmocka_unit_test(test_directory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
