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
	assert_int_equal(h.chain_end, 3);
	/* no call chain: the branch frames alone; a corrupt stack: none */
	assert_int_equal(pk_branch_history(e, 2, NULL, 0, false, 127, &h), 0);
	assert_int_equal(h.nr_frames, 4);
	assert_int_equal(h.chain_end, 0);
	assert_int_equal(pk_branch_history(e, PK_BRANCH_MAX_DEPTH + 1, ips, 5, false, 127, &h), 0);
	assert_int_equal(h.nr_frames, 0);
	assert_int_equal(h.first_call, 0);
	assert_int_equal(h.chain_end, 5);
	/* a folded loop's iterations go to the source frame after it */
	{
		struct perf_branch_entry l[5] = { br(0x100, 0x200, 1), br(0x300, 0x400, 2), br(0x100, 0x200, 3),
						  br(0x300, 0x400, 4), br(0x500, 0x600, 5) };

		assert_int_equal(pk_branch_history(l, 5, NULL, 0, false, 127, &h), 0);
		assert_int_equal(h.nr_frames, 6);
		assert_int_equal(h.frames[5].ip, 0x500);
		assert_int_equal(h.frames[5].nr_loop_iter, 1);
		assert_int_equal(h.frames[5].iter_cycles, 7);
		assert_int_equal(h.frames[4].nr_loop_iter, 0);	/* not the target */
	}
	/* max_stack bounds the entries taken */
	assert_int_equal(pk_branch_history(e, 2, ips, 5, false, 1, &h), 0);
	assert_int_equal(h.nr_frames, 2);
	assert_int_equal(h.chain_end, 4);
	assert_int_equal(pk_branch_history(NULL, 2, ips, 5, false, 127, &h), -EINVAL);
}

/* perf's branch_type_count: a branch's type, its direction when
 * conditional and the page or 2 MB area it leaves; nothing for an unknown
 * type or a source of 0.  And perf's names of the types. */
static void test_type_count(void **state)
{
	struct perf_branch_entry cond = br(0x1100, 0x1010, 0), call = br(0x1ff000, 0x200000, 0),
				 fault = br(0x401000, 0x400ff0, 0), unknown = br(0x1000, 0x900000, 0),
				 nowhere = br(0, 0x900000, 0);
	struct pk_branch_counts c = { 0 };

	(void)state;
	cond.type = PERF_BR_COND;
	call.type = PERF_BR_CALL;
	fault.type = PERF_BR_EXTEND_ABI;
	fault.new_type = PERF_BR_NEW_FAULT_INST;
	nowhere.type = PERF_BR_RET;
	pk_branch_type_count(&c, &cond);
	pk_branch_type_count(&c, &call);
	pk_branch_type_count(&c, &fault);
	pk_branch_type_count(&c, &unknown);
	pk_branch_type_count(&c, &nowhere);
	pk_branch_type_count(NULL, &cond);
	assert_int_equal(c.counts[PERF_BR_COND], 1);
	assert_int_equal(c.counts[PERF_BR_CALL], 1);
	assert_int_equal(c.counts[PERF_BR_EXTEND_ABI], 0);
	assert_int_equal(c.counts[PERF_BR_RET] + c.counts[PERF_BR_UNKNOWN], 0);
	assert_int_equal(c.new_counts[PERF_BR_NEW_FAULT_INST], 1);
	assert_int_equal(c.cond_bwd, 1);
	assert_int_equal(c.cond_fwd, 0);
	assert_int_equal(c.cross_2m, 1);	/* the call */
	assert_int_equal(c.cross_4k, 1);	/* the fault; the backward branch stays in its page */
	assert_int_equal(c.branch_count, 0);	/* only the type counts */
	assert_string_equal(pk_branch_type_name(PERF_BR_UNKNOWN, 0), "N/A");
	assert_string_equal(pk_branch_type_name(PERF_BR_IND_CALL, 3), "IND_CALL");
	assert_string_equal(pk_branch_type_name(PERF_BR_NO_TX, 0), "NO_TX");
	assert_string_equal(pk_branch_type_name(PERF_BR_EXTEND_ABI, PERF_BR_NEW_ARCH_5), "ARCH_5");
	assert_string_equal(pk_branch_type_name(PERF_BR_EXTEND_ABI, 8), "(null)");
	assert_string_equal(pk_branch_type_name(PERF_BR_MAX, 0), "(null)");
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
	assert_str(NULL, " (calltrace)");
}

static const char *node_text(const struct pk_callchain_node *n, size_t idx, char *buf, size_t size)
{
	pk_branch_counts_str(pk_callchain_node_branch_counts(n, idx), buf, size);
	return buf;
}

/* Two samples' branch frames through one tree: the frames they share
 * count both (a source's iterations divided by its matches, as perf does),
 * the split keeps each frame's counts, and a call-chain frame prints as
 * calltrace. */
static void test_tree_counts(void **state)
{
	static const char WL[] = "wl";
	struct pk_branch_frame to = { .branch = true, .ip = 0x1459, .from = 0x1500 },
			       src1 = { .branch = true, .ip = 0x1500 }, src2 = src1;
	struct pk_callchain_frame c1[3] = {
		{ .sym = "hot_a", .dso = WL, .sym_start = 0x1440, .ip = 0x1459, .branch = &to },
		{ .sym = "hot_b", .dso = WL, .sym_start = 0x14f0, .ip = 0x1500, .branch = &src1 },
		{ .sym = "main", .dso = WL, .sym_start = 0x1700, .ip = 0x1750 },
	}, c2[3];
	const struct pk_callchain_node *n, *tail;
	struct pk_callchain *cc;
	char buf[128];

	(void)state;
	to.entry.type = PERF_BR_CALL;
	src1.entry.cycles = 300;
	src2.entry.cycles = 7;
	src2.nr_loop_iter = 2;
	src2.iter_cycles = 20;
	memcpy(c2, c1, sizeof(c2));
	c2[1].branch = &src2;
	c2[2].sym = "other";
	c2[2].sym_start = 0x1800;
	c2[2].ip = 0x1810;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, c1, 3, 100), 0);
	assert_int_equal(pk_callchain_append(cc, c2, 3, 100), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	n = pk_callchain_node_child(pk_callchain_root(cc), 0);
	assert_non_null(n);
	assert_int_equal(pk_callchain_node_nr_frames(n), 2);
	assert_null(pk_callchain_node_frame(n, 0)->branch);
	assert_string_equal(node_text(n, 0, buf, sizeof(buf)), " (CALL predicted:0.0%)");
	assert_string_equal(node_text(n, 1, buf, sizeof(buf)), " (cycles:153 iter:2 avg_cycles:10)");
	assert_int_equal(pk_callchain_node_nr_children(n), 2);
	for (size_t i = 0; i < 2; i++) {	/* main's, split off, and other's, new */
		tail = pk_callchain_node_child(n, i);
		assert_int_equal(pk_callchain_node_nr_frames(tail), 1);
		assert_string_equal(node_text(tail, 0, buf, sizeof(buf)), " (calltrace)");
		assert_null(pk_callchain_node_branch_counts(tail, 1));
		if (!strcmp(pk_callchain_node_frame(tail, 0)->sym, "main"))	/* the split kept its counts */
			assert_non_null(pk_callchain_node_branch_counts(tail, 0));
		else
			assert_null(pk_callchain_node_branch_counts(tail, 0));
	}
	pk_callchain_free(cc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remove_loops),
		cmocka_unit_test(test_no_loop),
		cmocka_unit_test(test_history_callee),
		cmocka_unit_test(test_type_count),
		cmocka_unit_test(test_counts_text),
		cmocka_unit_test(test_tree_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
