/* SPDX-License-Identifier: MIT */
/*
 * test_callchain_branch.c - the branch half of report --branch-history:
 * perf 6.1's loop folding of a branch stack, the frames and the call-chain
 * range it adds for a sample, and the counts text perf prints after a
 * frame (the texts below are lines of perf report --branch-history --stdio
 * on files brstack-craft.py made).
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

static struct perf_branch_entry br(uint64_t from, uint64_t to, unsigned int cycles)
{
	return (struct perf_branch_entry){ .from = from, .to = to, .cycles = cycles };
}

/* A-B-A-B-C: the second A,B run repeats the first and folds into C's
 * iteration count, with that run's cycles. */
static void test_remove_loops(void **state)
{
	struct perf_branch_entry e[5] = { br(0x100, 0x200, 1), br(0x300, 0x400, 2), br(0x100, 0x200, 3),
					  br(0x300, 0x400, 4), br(0x500, 0x600, 5) };
	struct pk_branch_iter it[5];

	(void)state;
	assert_int_equal(pk_branch_remove_loops(e, it, 5), 3);
	assert_int_equal(e[0].from, 0x100);
	assert_int_equal(e[1].from, 0x300);
	assert_int_equal(e[2].from, 0x500);
	assert_int_equal(it[2].nr_loop_iter, 1);
	assert_int_equal(it[2].cycles, 3 + 4);
	assert_int_equal(it[0].nr_loop_iter, 0);
}

/* No repeated source: nothing folds; over perf's bound: untouched. */
static void test_no_loop(void **state)
{
	struct perf_branch_entry e[3] = { br(0x100, 0x200, 1), br(0x300, 0x400, 2), br(0x500, 0x100, 3) };
	static struct perf_branch_entry many[PK_BRANCH_MAX_DEPTH + 1];
	static struct pk_branch_iter it[PK_BRANCH_MAX_DEPTH + 1];

	(void)state;
	assert_int_equal(pk_branch_remove_loops(e, it, 3), 3);
	assert_int_equal(pk_branch_remove_loops(many, it, PK_BRANCH_MAX_DEPTH + 1), PK_BRANCH_MAX_DEPTH + 1);
}

/* Callee order: each entry's target then its source; a source a call just
 * before the next chain address (and a context marker) skips that address;
 * the chain's end comes in by the number of entries left. */
static void test_history_callee(void **state)
{
	static struct pk_branch_history h;
	struct perf_branch_entry e[2] = { br(0x1000, 0x2000, 7), br(0x3ffc, 0x1000, 300) };
	uint64_t ips[5] = { PK_CONTEXT_MAX + 3584 /* PERF_CONTEXT_USER */, 0x4000, 0x5000, 0x6000, 0x7000 };

	(void)state;
	e[0].predicted = 1;
	assert_int_equal(pk_branch_history(e, 2, ips, 5, false, 127, &h), 0);
	assert_int_equal(h.nr_frames, 4);
	assert_int_equal(h.frames[0].ip, 0x2000);
	assert_int_equal(h.frames[0].from, 0x1000);
	assert_true(h.frames[0].entry.predicted);
	assert_int_equal(h.frames[1].ip, 0x1000);
	assert_int_equal(h.frames[1].from, 0);
	assert_int_equal(h.frames[2].ip, 0x1000);
	assert_int_equal(h.frames[3].ip, 0x3ffc);
	assert_int_equal(h.first_call, 2);	/* the marker and 0x4000 */
	assert_int_equal(h.chain_end, 3);
	/* caller order: the stack reversed, no chain address skipped */
	assert_int_equal(pk_branch_history(e, 2, ips, 5, true, 127, &h), 0);
	assert_int_equal(h.frames[0].ip, 0x1000);
	assert_int_equal(h.frames[1].ip, 0x3ffc);
	assert_int_equal(h.first_call, 0);
	/* max_stack bounds the entries taken */
	assert_int_equal(pk_branch_history(e, 2, ips, 5, false, 1, &h), 0);
	assert_int_equal(h.nr_frames, 2);
	assert_int_equal(h.chain_end, 4);
	assert_int_equal(pk_branch_history(NULL, 2, ips, 5, false, 127, &h), -EINVAL);
}

static void assert_str(const struct pk_branch_counts *c, const char *want)
{
	char buf[256];

	assert_int_equal(pk_branch_counts_str(c, buf, sizeof(buf)), strlen(want));
	assert_string_equal(buf, want);
}

/* perf's texts: a call target never predicted, a conditional branch
 * backwards, an aborted fault across 2M, sources with cycles and loops,
 * and a call-chain frame. */
static void test_counts_text(void **state)
{
	struct pk_branch_frame call = { .branch = true, .ip = 0x1459, .from = 0x1500 }, cond = call,
			       fault = call, src = { .branch = true, .ip = 0x1459 };
	struct pk_branch_counts c;

	(void)state;
	call.entry.type = PERF_BR_CALL;
	memset(&c, 0, sizeof(c));
	pk_branch_counts_add(&c, &call, true);
	assert_str(&c, " (CALL predicted:0.0%)");

	cond.entry.type = PERF_BR_COND;
	cond.entry.predicted = 1;
	memset(&c, 0, sizeof(c));
	pk_branch_counts_add(&c, &cond, true);
	assert_str(&c, " (COND_BWD)");
	cond.ip = 0x1600;	/* forwards, and one of two mispredicted */
	cond.entry.predicted = 0;
	pk_branch_counts_add(&c, &cond, false);
	assert_str(&c, " (COND_FWD COND_BWD predicted:50.0%)");

	fault.ip = 0x1234;
	fault.from = 0x55555555a000;
	fault.entry.type = PERF_BR_EXTEND_ABI;
	fault.entry.new_type = 1;
	fault.entry.abort = 1;
	memset(&c, 0, sizeof(c));
	pk_branch_counts_add(&c, &fault, true);
	assert_str(&c, " (FAULT_DATA CROSS_2M predicted:0.0% abort:100.0%)");

	src.entry.cycles = 300;
	memset(&c, 0, sizeof(c));
	pk_branch_counts_add(&c, &src, true);
	assert_str(&c, " (cycles:300)");
	src.entry.cycles = 7;
	src.nr_loop_iter = 1;
	pk_branch_counts_add(&c, &src, false);	/* (300 + 7) / 2 cycles, 1 iteration a match */
	assert_str(&c, " (cycles:153 iter:1 avg_cycles:0)");

	src.entry.cycles = 0;
	src.nr_loop_iter = 0;
	memset(&c, 0, sizeof(c));
	pk_branch_counts_add(&c, &src, true);
	assert_str(&c, "");
	memset(&c, 0, sizeof(c));
	assert_str(&c, " (calltrace)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remove_loops),
		cmocka_unit_test(test_no_loop),
		cmocka_unit_test(test_history_callee),
		cmocka_unit_test(test_counts_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
