/* SPDX-License-Identifier: MIT */
/*
 * test_nomem_kernel.c - the recorder's out-of-memory paths against the real
 * kernel: a recording of the calling thread (task-clock and page-faults,
 * synthesized /proc state, a callback and a perf.data writer) is made with the library's
 * Nth allocation failing, for N = 1, 2, 3, ... until the recording no
 * longer reaches an Nth allocation.  Every failed run returns -ENOMEM with
 * an error record naming what ran out, not the error before it, and (in
 * the ASan build, which checks leaks) frees all it made.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"
#include "sys/sys.h"

static int count_record(void *arg, const struct perf_event_header *h, const struct pk_record *rec)
{
	(void)h;
	(void)rec;
	++*(unsigned long *)arg;
	return 0;
}

/* One whole recording into a file under `dir`; returns the first failure,
 * freeing everything and leaving no file behind. */
static int record_once(const char *dir, unsigned long *records)
{
	struct pk_recorder_opts o = { .size = sizeof(o), .pages = 4 };
	struct pk_data_writer *w = NULL;
	struct pk_recorder *r = NULL;
	char path[600];
	int err;

	snprintf(path, sizeof(path), "%s/nomem.data", dir);
	err = pk_data_writer_create(path, &w);
	if (!err)
		err = pk_recorder_new("task-clock,page-faults", &o, &r);
	if (!err)
		err = pk_recorder_set_writer(r, w);
	if (!err)
		err = pk_recorder_set_callback(r, count_record, records);
	if (!err)
		err = pk_recorder_start(r);
	if (!err)
		err = pk_recorder_finish(r);
	pk_recorder_free(r);
	if (!err) {
		err = pk_data_writer_finish(w);
		unlink(path);
	} else if (w) {
		pk_data_writer_abort(w);
	}
	return err;
}

static void test_recorder_nomem(void **state)
{
	unsigned long n, records = 0;
	char dir[512];

	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "nomem-kernel"));
	for (n = 1;; n++) {
		const struct pk_error *e;
		int ret;

		pk__error(-EINVAL, "an earlier call", "stale text that must not survive");
		pk__alloc_fail_nth(n);
		ret = record_once(dir, &records);
		if (pk__alloc_fail_nth(0) != 0) {
			if (ret < 0)
				fail_msg("recording %lu: failed with %d without a failed allocation: %s",
					 n, ret, pk_last_error()->why);
			break;
		}
		e = pk_last_error();
		if (ret != -ENOMEM || e->code != -ENOMEM)
			fail_msg("allocation %lu: returned %d, recorded %d (%s: %s)", n, ret, e->code,
				 e->what, e->why);
		if (!strstr(e->why, "out of memory"))
			fail_msg("allocation %lu: the record says '%s'", n, e->why);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
	/* The run that got through synthesized this process: it recorded. */
	assert_true(n > 1);
	assert_true(records > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorder_nomem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
