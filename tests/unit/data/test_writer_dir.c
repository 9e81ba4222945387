/* SPDX-License-Identifier: MIT */
/*
 * test_writer_dir.c - the directory writer (perf record --threads's
 * format): DIR/data takes pk_data_writer_write's records and no rounds,
 * each DIR/data.N pk_data_writer_write_file's; the reader reads every
 * record back, in time order; a second directory keeps the first as
 * DIR.old; an abort leaves no partial directory and the old one alone;
 * a file number out of range, no files, or a FIFO at the path are refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

static char dir[200];

struct sample {
	struct perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
};

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-writer-dir"));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

static struct sample sample_at(uint64_t time)
{
	return (struct sample){ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(struct sample) }, 77,
				0x1000 + time, 42, 43, time };
}

/* A directory at path: `n` samples into data.k for k < 2 (times k, k+2,
 * ...), one into data. */
static void write_dir(const char *path, size_t n)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 1000,
				     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME, .sample_id_all = 1 };
	struct pk_data_writer *w;
	uint64_t id = 77;
	struct sample s = sample_at(1000000);

	assert_int_equal(pk_data_writer_create_dir(path, 2, &w), 0);
	assert_int_equal(pk_data_writer_nr_files(w), 2);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", &id, 1), 0);
	assert_int_equal(pk_data_writer_write(w, &s, sizeof(s)), 0);
	assert_int_equal(pk_data_writer_write_round(w), 0);
	for (size_t i = 0; i < 2 * n; i++) {
		s = sample_at(i + 1);
		assert_int_equal(pk_data_writer_write_file(w, i % 2, &s, sizeof(s)), 0);
	}
	assert_int_equal(pk_data_writer_write_file(w, 2, &s, sizeof(s)), -EINVAL);
	assert_int_equal(pk_data_writer_size(w), (2 * n + 1) * sizeof(s));
	assert_int_equal(pk_data_writer_finish(w), 0);
}

static off_t size_of(const char *d, const char *name)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", d, name);
	return stat(p, &st) == 0 ? st.st_size : -1;
}

/* No "<name>.partial.*" left in dir. */
static bool no_partial(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool none = true;

	while (d && (e = readdir(d)))
		none &= !strstr(e->d_name, ".partial.");
	if (d)
		closedir(d);
	return none;
}

static void test_write_read(void **state)
{
	char p[256];
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	uint64_t last = 0, n = 0;
	int ret;

	(void)state;
	snprintf(p, sizeof(p), "%s/t.data", dir);
	write_dir(p, 500);
	assert_int_equal(size_of(p, "data.0"), 500 * sizeof(struct sample));
	assert_int_equal(size_of(p, "data.1"), 500 * sizeof(struct sample));
	assert_true(no_partial());
	assert_int_equal(pk_data_reader_open(p, &r), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		const struct sample *s = (const void *)h;

		assert_int_equal(h->type, PERF_RECORD_SAMPLE);	/* no FINISHED_ROUND either */
		assert_true(s->time > last);
		last = s->time;
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 1001);
	pk_data_reader_free(r);
}

static void test_old_kept_and_abort(void **state)
{
	char p[256], old[270];
	struct pk_data_writer *w;
	struct sample s = sample_at(1);

	(void)state;
	snprintf(p, sizeof(p), "%s/o.data", dir);
	snprintf(old, sizeof(old), "%s.old", p);
	write_dir(p, 3);
	write_dir(p, 7);
	assert_int_equal(size_of(old, "data.0"), 3 * sizeof(struct sample));
	assert_int_equal(size_of(p, "data.0"), 7 * sizeof(struct sample));
	write_dir(p, 9);	/* a directory written before is replaced as perf's backup */
	assert_int_equal(size_of(old, "data.0"), 7 * sizeof(struct sample));
	assert_int_equal(pk_data_writer_create_dir(p, 2, &w), 0);
	assert_int_equal(pk_data_writer_write_file(w, 1, &s, sizeof(s)), 0);
	pk_data_writer_abort(w);
	assert_true(no_partial());
	assert_int_equal(size_of(p, "data.0"), 9 * sizeof(struct sample));
}

static void test_refused(void **state)
{
	char p[256];
	struct pk_data_writer *w = NULL;

	(void)state;
	snprintf(p, sizeof(p), "%s/r.data", dir);
	assert_int_equal(pk_data_writer_create_dir(p, 0, &w), -EINVAL);
	assert_int_equal(pk_data_writer_create_dir("", 2, &w), -EINVAL);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(pk_data_writer_create_dir(p, 2, &w), -EINVAL);
	assert_null(w);
	snprintf(p, sizeof(p), "%s/missing/r.data", dir);
	assert_int_equal(pk_data_writer_create_dir(p, 2, &w), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "missing/r.data.partial"));
	assert_true(no_partial());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_old_kept_and_abort),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
