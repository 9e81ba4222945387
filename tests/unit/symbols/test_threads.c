/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c - the thread table followed from synthetic COMM, FORK
 * and EXIT records gives each thread the comm perf report shows: renames
 * by exec and prctl, the forking thread's comm for a child, ":TID" for a
 * thread never named (renamed by its first COMM after the fact, as perf's
 * comm override), a reused tid starting afresh, comms kept past EXIT,
 * one pointer per distinct name, and growth past the first tables.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static void comm_(struct pk_threads *t, uint32_t pid, uint32_t tid, const char *comm, bool exec)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_COMM };

	r.comm = (struct pk_rec_comm){ .pid = pid, .tid = tid, .exec = exec, .comm = comm };
	assert_int_equal(pk_threads_process(t, &r), 0);
}

static void task_(struct pk_threads *t, uint32_t type, uint32_t pid, uint32_t tid, uint32_t ppid,
		  uint32_t ptid)
{
	struct pk_record r = { .size = sizeof(r), .type = type };

	r.task = (struct pk_rec_task){ .pid = pid, .tid = tid, .ppid = ppid, .ptid = ptid };
	assert_int_equal(pk_threads_process(t, &r), 0);
}

static void unnamed_and_renamed(void **state)
{
	struct pk_threads *t;

	(void)state;
	assert_int_equal(pk_threads_new(&t), 0);
	assert_string_equal(pk_threads_comm(t, 100, 101), ":101");
	assert_int_equal(pk_threads_pid(t, 101), 100);
	assert_int_equal(pk_threads_pid(t, 999), -ENOENT);
	comm_(t, 100, 100, "perf-exec", false);
	comm_(t, 100, 100, "workload", true);		/* exec */
	assert_string_equal(pk_threads_comm(t, 100, 100), "workload");
	comm_(t, 100, 100, "renamed", false);		/* prctl(PR_SET_NAME) */
	assert_string_equal(pk_threads_comm(t, 100, 100), "renamed");
	pk_threads_free(t);
	pk_threads_free(NULL);
}

/* perf's comm__override: the first COMM of a thread whose ":TID" was
 * handed out renames that ":TID"; a later COMM, or a first COMM of a
 * thread nobody asked about, renames nothing. */
static void first_comm_of_a_shown_thread_renames(void **state)
{
	struct pk_threads *t;
	const char *from, *to, *unnamed;

	(void)state;
	assert_int_equal(pk_threads_new(&t), 0);
	assert_false(pk_threads_rename(t, 0, &from, &to));
	unnamed = pk_threads_comm(t, 200, 201);		/* a sample before any COMM */
	comm_(t, 300, 300, "never-shown", true);	/* named before any sample */
	comm_(t, 200, 201, "worker", false);
	comm_(t, 200, 201, "worker-2", false);		/* named already: no rename */
	assert_true(pk_threads_rename(t, 0, &from, &to));
	assert_ptr_equal(from, unnamed);
	assert_string_equal(from, ":201");
	assert_string_equal(to, "worker");
	comm_(t, 500, 500, "worker", true);
	assert_ptr_equal(to, pk_threads_comm(t, 500, 500));	/* interned: the name's one pointer */
	assert_false(pk_threads_rename(t, 1, &from, &to));
	/* An unnamed forker's child is ":TID" afresh, renamed by its own COMM. */
	task_(t, PERF_RECORD_FORK, 400, 400, 1, 1);
	assert_string_equal(pk_threads_comm(t, 400, 400), ":400");
	comm_(t, 400, 400, "child", true);
	assert_true(pk_threads_rename(t, 1, &from, &to));
	assert_string_equal(from, ":400");
	assert_string_equal(to, "child");
	pk_threads_free(t);
}

static void fork_inherits_from_the_forking_thread(void **state)
{
	struct pk_threads *t;

	(void)state;
	assert_int_equal(pk_threads_new(&t), 0);
	comm_(t, 10, 10, "parent", false);
	comm_(t, 10, 11, "worker", false);
	task_(t, PERF_RECORD_FORK, 20, 20, 10, 11);	/* forked by thread 11 */
	assert_string_equal(pk_threads_comm(t, 20, 20), "worker");
	assert_int_equal(pk_threads_pid(t, 20), 20);
	task_(t, PERF_RECORD_FORK, 30, 30, 77, 77);	/* an unknown parent */
	assert_string_equal(pk_threads_comm(t, 30, 30), ":30");
	/* An unnamed parent passes on nothing: the child is named by its tid. */
	task_(t, PERF_RECORD_FORK, 31, 31, 30, 30);
	assert_string_equal(pk_threads_comm(t, 31, 31), ":31");
	pk_threads_free(t);
}

static void exit_keeps_comm_and_reuse_starts_afresh(void **state)
{
	struct pk_threads *t;

	(void)state;
	assert_int_equal(pk_threads_new(&t), 0);
	comm_(t, 10, 10, "shell", false);
	comm_(t, 40, 40, "old", false);
	task_(t, PERF_RECORD_EXIT, 40, 40, 10, 10);
	assert_true(pk_threads_exited(t, 40));
	assert_string_equal(pk_threads_comm(t, 40, 40), "old");
	task_(t, PERF_RECORD_FORK, 40, 40, 10, 10);	/* the tid is reused */
	assert_false(pk_threads_exited(t, 40));
	assert_string_equal(pk_threads_comm(t, 40, 40), "shell");
	pk_threads_free(t);
}

static void names_interned_and_growth(void **state)
{
	struct pk_threads *t;
	char name[32];

	(void)state;
	assert_int_equal(pk_threads_new(&t), 0);
	for (uint32_t tid = 1; tid <= 5000; tid++) {
		snprintf(name, sizeof(name), "n%u", tid % 700);
		comm_(t, tid, tid, name, false);
	}
	for (uint32_t tid = 1; tid <= 5000; tid++) {
		snprintf(name, sizeof(name), "n%u", tid % 700);
		assert_string_equal(pk_threads_comm(t, tid, tid), name);
	}
	assert_ptr_equal(pk_threads_comm(t, 1, 1), pk_threads_comm(t, 701, 701));
	assert_ptr_not_equal(pk_threads_comm(t, 1, 1), pk_threads_comm(t, 2, 2));
	pk_threads_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unnamed_and_renamed),
		cmocka_unit_test(first_comm_of_a_shown_thread_renames),
		cmocka_unit_test(fork_inherits_from_the_forking_thread),
		cmocka_unit_test(exit_keeps_comm_and_reuse_starts_afresh),
		cmocka_unit_test(names_interned_and_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
