/* SPDX-License-Identifier: MIT */
/*
 * test_offcpu.c - off-CPU intervals from synthetic records: a switch-out
 * sample paired with the thread's next switch-in record or sample, the
 * duration and the switch-out stack and state carried over, other
 * threads' switches and switch-outs apart, a lost switch-in, an EXIT, a
 * switch-in before its switch-out, many threads, and prev_state parsing.
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

static const char *const WAITER = "waiter", *const MAIN = "main", *const COMM = "app";

/* A resolved sched_switch sample of tid with a two-frame chain. */
static struct pk_resolved_sample out_sample(uint32_t tid, struct pk_frame f[2])
{
	f[0] = (struct pk_frame){ .ip = 0x1000 + tid, .cpumode = PERF_RECORD_MISC_USER };
	f[0].loc.sym = WAITER;
	f[1] = (struct pk_frame){ .ip = 0x2000, .cpumode = PERF_RECORD_MISC_USER };
	f[1].loc.sym = MAIN;
	return (struct pk_resolved_sample){ .size = sizeof(struct pk_resolved_sample), .comm = COMM,
					    .pid = 10, .tid = tid, .cpumode = PERF_RECORD_MISC_USER,
					    .loc = f[0].loc, .frames = f, .nr_frames = 2 };
}

/* A decoded PERF_RECORD_SWITCH of tid at time, in or out. */
static struct pk_record switch_rec(uint32_t tid, uint64_t time, bool out)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_SWITCH };

	r.switch_.out = out;
	r.id.fields = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	r.id.pid = 10;
	r.id.tid = tid;
	r.id.time = time;
	return r;
}

static void pairs_out_with_next_switch_in(void **state)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	struct pk_offcpu *oc;
	struct pk_frame f[2];
	struct pk_resolved_sample rs = out_sample(7, f);
	struct pk_record r;

	(void)state;
	assert_int_equal(pk_offcpu_new(&oc), 0);
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 1000, 1, 'S'), 0);
	memset(f, 0, sizeof(f));	/* the resolver's frames change: the tracker kept a copy */
	assert_int_equal(pk_offcpu_nr_pending(oc), 1);
	r = switch_rec(7, 1100, true);	/* its own switch-out record ends nothing */
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 0);
	r = switch_rec(8, 1200, false);	/* another thread's switch-in neither */
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 0);
	r = switch_rec(7, 101000, false);
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 1);
	assert_int_equal(iv.tid, 7);
	assert_int_equal(iv.pid, 10);
	assert_ptr_equal(iv.comm, COMM);
	assert_int_equal(iv.cpu, 1);
	assert_int_equal(iv.state, 'S');
	assert_int_equal(iv.start, 1000);
	assert_int_equal(iv.end, 101000);
	assert_int_equal(iv.duration, 100000);
	assert_int_equal(iv.nr_frames, 2);
	assert_ptr_equal(iv.frames[0].loc.sym, WAITER);
	assert_int_equal(iv.frames[0].ip, 0x1007);
	assert_ptr_equal(iv.frames[1].loc.sym, MAIN);
	assert_ptr_equal(iv.loc.sym, WAITER);
	assert_int_equal(pk_offcpu_nr_pending(oc), 0);
	/* Ended once: a second switch-in is on-CPU time, not another interval. */
	r = switch_rec(7, 102000, false);
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 0);
	pk_offcpu_free(oc);
}

static void a_sample_of_the_thread_ends_it(void **state)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	struct pk_offcpu *oc;
	struct pk_frame f[2];
	struct pk_resolved_sample rs = out_sample(3, f);

	(void)state;
	assert_int_equal(pk_offcpu_new(&oc), 0);
	assert_int_equal(pk_offcpu_switch_in(oc, 3, 50, &iv), 0);	/* never left */
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 500, -1, 0), 0);
	/* A record of the same time from another CPU may come first. */
	assert_int_equal(pk_offcpu_switch_in(oc, 3, 499, &iv), 0);
	assert_int_equal(pk_offcpu_nr_pending(oc), 1);
	assert_int_equal(pk_offcpu_switch_in(oc, 3, 800, &iv), 1);
	assert_int_equal(iv.duration, 300);
	assert_int_equal(iv.state, 0);
	assert_int_equal(iv.cpu, -1);
	pk_offcpu_free(oc);
}

static void lost_switch_in_and_exit(void **state)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_EXIT };
	struct pk_offcpu *oc;
	struct pk_frame f[2];
	struct pk_resolved_sample rs = out_sample(5, f);

	(void)state;
	assert_int_equal(pk_offcpu_new(&oc), 0);
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 100, 0, 'S'), 0);
	/* A second switch-out without a switch-in between starts over. */
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 300, 0, 'D'), 0);
	assert_int_equal(pk_offcpu_nr_pending(oc), 1);
	assert_int_equal(pk_offcpu_switch_in(oc, 5, 400, &iv), 1);
	assert_int_equal(iv.duration, 100);
	assert_int_equal(iv.state, 'D');
	/* A thread that exits while off CPU never gives an interval. */
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 500, 0, 'S'), 0);
	r.task.pid = 10;
	r.task.tid = 5;
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 0);
	assert_int_equal(pk_offcpu_nr_pending(oc), 0);
	assert_int_equal(pk_offcpu_switch_in(oc, 5, 600, &iv), 0);
	/* A switch record without TID and TIME says nothing. */
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 700, 0, 'S'), 0);
	r = switch_rec(5, 800, false);
	r.id.fields = PERF_SAMPLE_TID;
	assert_int_equal(pk_offcpu_record(oc, &r, &iv), 0);
	assert_int_equal(pk_offcpu_nr_pending(oc), 1);
	/* The idle threads share tid 0 across CPUs: they give no intervals. */
	rs.tid = 0;
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 900, 0, 'R'), 0);
	assert_int_equal(pk_offcpu_nr_pending(oc), 1);
	assert_int_equal(pk_offcpu_switch_in(oc, 0, 950, &iv), 0);
	pk_offcpu_free(oc);
}

static void many_threads(void **state)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	struct pk_offcpu *oc;
	struct pk_frame f[2];
	uint64_t total = 0;

	(void)state;
	assert_int_equal(pk_offcpu_new(&oc), 0);
	for (uint32_t t = 1; t <= 1000; t++) {
		struct pk_resolved_sample rs = out_sample(t * 977, f);

		assert_int_equal(pk_offcpu_switch_out(oc, &rs, t, 0, 'S'), 0);
	}
	assert_int_equal(pk_offcpu_nr_pending(oc), 1000);
	for (uint32_t t = 1000; t >= 1; t--) {
		struct pk_record r = switch_rec(t * 977, 2000, false);

		r.type = PERF_RECORD_SWITCH_CPU_WIDE;
		assert_int_equal(pk_offcpu_record(oc, &r, &iv), 1);
		assert_int_equal(iv.tid, t * 977);
		assert_int_equal(iv.frames[0].ip, 0x1000 + t * 977);
		total += iv.duration;
	}
	assert_int_equal(total, 1000 * 2000 - 1000 * 1001 / 2);
	assert_int_equal(pk_offcpu_nr_pending(oc), 0);
	pk_offcpu_free(oc);
}

static void errors(void **state)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) - 1 };
	struct pk_resolved_sample rs = { .size = 8 };
	struct pk_offcpu *oc;

	(void)state;
	assert_int_equal(pk_offcpu_new(&oc), 0);
	assert_int_equal(pk_offcpu_switch_out(oc, NULL, 1, 0, 0), -EINVAL);
	assert_int_equal(pk_offcpu_switch_out(oc, &rs, 1, 0, 0), -EINVAL);
	assert_int_equal(pk_offcpu_switch_in(oc, 1, 1, &iv), -EINVAL);
	pk_offcpu_free(oc);
	pk_offcpu_free(NULL);
}

static void state_letters(void **state)
{
	(void)state;
	assert_int_equal(pk_offcpu_state("prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> "
					  "next_comm=b"), 'S');
	assert_int_equal(pk_offcpu_state("prev_state=R+ ==> next_comm=b"), 'R');
	assert_int_equal(pk_offcpu_state("prev_state=D|K ==>"), 'D');
	assert_int_equal(pk_offcpu_state("prev_state=+ ==>"), 0);
	assert_int_equal(pk_offcpu_state("next_comm=b"), 0);
	assert_int_equal(pk_offcpu_state(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairs_out_with_next_switch_in),
		cmocka_unit_test(a_sample_of_the_thread_ends_it),
		cmocka_unit_test(lost_switch_in_and_exit),
		cmocka_unit_test(many_threads),
		cmocka_unit_test(errors),
		cmocka_unit_test(state_letters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
