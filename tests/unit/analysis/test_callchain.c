/* SPDX-License-Identifier: MIT */
/*
 * test_callchain.c - the call-chain tree and perf report's --stdio call
 * graphs: the chains of a real `perf record -g` run of the workload's
 * `hot` loops (575 cpu-clock samples of 250000 ns, taken from perf script),
 * merged into the trees of the entries perf 6.1 shows, printed in every
 * mode and compared with perf report's own text for that file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "report.h"
#include "analysis/callchain-int.h"
#include "sys/sys.h"

#define PERIOD 250000ull

static const char WL[] = "wl", LIBC[] = "libc.so.6", KERNEL[] = "[kernel.kallsyms]";

/* The symbols of the chains, each with its object and a start of its own. */
enum sym_id {
	L, MAIN, HOT_A, HOT_B, ASM_SYSVEC, IRQEXIT_USER, SYSVEC, IRQ_EXIT_RCU, SOFTIRQS, RCU_CORE,
	SPIN_UNLOCK, RSEQ, SCHEDULE, __SCHEDULE, FINISH_TS, SB_DOMAINS, SB_RQ, SB_FIND, SD_LB, SB_SOFTIRQ,
	SB_UPDATE, NR_SYMS, END = -1,
};

static const struct {
	const char *name, *dso;
	uint64_t start;		/* an address in it: the order perf matches frames in */
} syms[NR_SYMS] = {
	[L] = { "__libc_start_call_main", LIBC, 0x2724aull }, [MAIN] = { "main", WL, 0x174eull }, [HOT_A] = { "hot_a", WL, 0x1459ull },
	[HOT_B] = { "hot_b", WL, 0x147eull }, [ASM_SYSVEC] = { "asm_sysvec_apic_timer_interrupt", KERNEL, 0xffffffff81000e06ull },
	[IRQEXIT_USER] = { "irqentry_exit_to_user_mode", KERNEL, 0xffffffff821f5b65ull },
	[SYSVEC] = { "sysvec_apic_timer_interrupt", KERNEL, 0xffffffff821f46a1ull }, [IRQ_EXIT_RCU] = { "__irq_exit_rcu", KERNEL, 0xffffffff8136238eull },
	[SOFTIRQS] = { "handle_softirqs", KERNEL, 0xffffffff8136213dull }, [RCU_CORE] = { "rcu_core", KERNEL, 0xffffffff8140a54full },
	[SPIN_UNLOCK] = { "_raw_spin_unlock_irqrestore", KERNEL, 0xffffffff82203249ull },
	[RSEQ] = { "__rseq_handle_notify_resume", KERNEL, 0xffffffff81589579ull }, [SCHEDULE] = { "schedule", KERNEL, 0xffffffff821fb643ull },
	[__SCHEDULE] = { "__schedule", KERNEL, 0xffffffff821faa94ull }, [FINISH_TS] = { "finish_task_switch.isra.0", KERNEL, 0xffffffff813a4413ull },
	[SB_DOMAINS] = { "sched_balance_domains", KERNEL, 0xffffffff813bdbdbull }, [SB_RQ] = { "sched_balance_rq", KERNEL, 0xffffffff813bc5bcull },
	[SB_FIND] = { "sched_balance_find_src_group", KERNEL, 0xffffffff813bbe60ull },
	[SD_LB] = { "update_sd_lb_stats.constprop.0", KERNEL, 0xffffffff813bbd1cull },
	[SB_SOFTIRQ] = { "sched_balance_softirq", KERNEL, 0xffffffff813be08full },
	[SB_UPDATE] = { "sched_balance_update_blocked_averages", KERNEL, 0xffffffff813b0840ull },
};

/* The sampled chains, root first, with how many samples took each. */
static const struct {
	unsigned nr;
	int chain[12];
} samples[] = {
	{ 279, { L, MAIN, HOT_B, END } },
	{ 284, { L, MAIN, HOT_A, END } },
	{ 4, { L, MAIN, HOT_B, ASM_SYSVEC, IRQEXIT_USER, END } },
	{ 1, { L, MAIN, HOT_B, ASM_SYSVEC, SYSVEC, IRQ_EXIT_RCU, SOFTIRQS, RCU_CORE, SPIN_UNLOCK, END } },
	{ 1, { L, MAIN, HOT_B, ASM_SYSVEC, SYSVEC, IRQ_EXIT_RCU, SOFTIRQS, END } },
	{ 1, { L, MAIN, HOT_A, ASM_SYSVEC, IRQEXIT_USER, RSEQ, END } },
	{ 1, { L, MAIN, HOT_A, ASM_SYSVEC, SYSVEC, IRQ_EXIT_RCU, SOFTIRQS, SB_DOMAINS, SB_RQ, SB_FIND, SD_LB,
	       END } },
	{ 1, { L, MAIN, HOT_A, ASM_SYSVEC, SYSVEC, IRQ_EXIT_RCU, SOFTIRQS, SB_SOFTIRQ, SB_UPDATE, END } },
	{ 1, { L, MAIN, HOT_A, ASM_SYSVEC, IRQEXIT_USER, SCHEDULE, __SCHEDULE, FINISH_TS, END } },
};

#define TOTAL (575 * PERIOD)	/* two more samples outside these chains */

static size_t chain_of(size_t i, bool caller, struct pk_callchain_frame *out)
{
	size_t n = 0;

	while (samples[i].chain[n] != END)
		n++;
	for (size_t k = 0; k < n; k++) {
		int s = samples[i].chain[caller ? k : n - 1 - k];

		out[k] = (struct pk_callchain_frame){ .sym = syms[s].name, .dso = syms[s].dso,
						      .sym_start = syms[s].start, .ip = 0x10 };
	}
	return n;
}

static int position(size_t i, int sym)
{
	for (int k = 0; samples[i].chain[k] != END; k++)
		if (samples[i].chain[k] == sym)
			return k;
	return -1;
}

/*
 * The tree of `sym`'s entry: with `self`, the chains of the samples that
 * ended in it; with `children`, as perf's children mode adds them, the
 * part of every chain from `sym` on (caller order) for the samples that
 * passed through it.  Returns the entry's period.
 */
static uint64_t build(struct pk_callchain *cc, int sym, bool caller, bool children)
{
	struct pk_callchain_frame f[12];
	uint64_t period = 0;

	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		size_t n = chain_of(i, caller, f);
		int at = position(i, sym);

		if (at < 0)
			continue;
		if ((size_t)at == n - 1) {
			assert_int_equal(pk_callchain_append(cc, f, n, samples[i].nr * PERIOD), 0);
			period += samples[i].nr * PERIOD;
		} else if (children) {
			assert_true(caller);
			assert_int_equal(pk_callchain_append(cc, f + at, n - (size_t)at, samples[i].nr * PERIOD), 0);
			period += samples[i].nr * PERIOD;
		}
	}
	return period;
}

/* The text of sym's call graph in `mode`, perf's default threshold. */
static char *print(int sym, enum pk_callchain_mode mode, bool caller, bool children)
{
	struct report_cg cg = { .mode = mode, .min_percent = 0.5, .caller = caller };
	struct pk_callchain *cc;
	uint64_t period;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(pk_callchain_new(&cc), 0);
	period = build(cc, sym, caller, children);
	assert_int_equal(pk_callchain_sort(cc, mode, (uint64_t)((double)TOTAL * (cg.min_percent / 100)),
					   cg.min_percent), 0);
	report_callchain_print(f, &cg, cc, TOTAL, period, false);
	fclose(f);
	pk_callchain_free(cc);
	return text;
}

static void expect(char *text, const char *want)
{
	assert_string_equal(text, want);
	free(text);
}

static void graph_single_chain(void **state)
{
	(void)state;
	expect(print(HOT_A, PK_CALLCHAIN_GRAPH_ABS, false, false),
	       "            |\n"
	       "            ---hot_a\n"
	       "               main\n"
	       "               __libc_start_call_main\n\n");
	expect(print(IRQEXIT_USER, PK_CALLCHAIN_GRAPH_ABS, true, false),
	       "            |\n"
	       "            ---__libc_start_call_main\n"
	       "               main\n"
	       "               hot_b\n"
	       "               asm_sysvec_apic_timer_interrupt\n"
	       "               irqentry_exit_to_user_mode\n\n");
}

/* perf report (children, graph,0.5,caller) on the file: the root entry. */
static void graph_children_tree(void **state)
{
	(void)state;
	expect(print(L, PK_CALLCHAIN_GRAPH_ABS, true, true),
	       "            |\n"
	       "            ---__libc_start_call_main\n"
	       "               main\n"
	       "               |          \n"
	       "               |--50.09%--hot_a\n"
	       "               |          |          \n"
	       "               |           --0.70%--asm_sysvec_apic_timer_interrupt\n"
	       "               |          \n"
	       "                --49.57%--hot_b\n"
	       "                          |          \n"
	       "                           --1.04%--asm_sysvec_apic_timer_interrupt\n"
	       "                                     |          \n"
	       "                                      --0.70%--irqentry_exit_to_user_mode\n\n");
}

/* An entry whose period comes from two roots: no "---", a percentage each. */
static void graph_two_roots(void **state)
{
	(void)state;
	expect(print(HOT_A, PK_CALLCHAIN_GRAPH_ABS, true, true),
	       "            |          \n"
	       "            |--49.39%--__libc_start_call_main\n"
	       "            |          main\n"
	       "            |          hot_a\n"
	       "            |          \n"
	       "             --0.70%--hot_a\n"
	       "                       asm_sysvec_apic_timer_interrupt\n\n");
	expect(print(HOT_B, PK_CALLCHAIN_GRAPH_ABS, true, true),
	       "            |          \n"
	       "            |--48.52%--__libc_start_call_main\n"
	       "            |          main\n"
	       "            |          hot_b\n"
	       "            |          \n"
	       "             --1.04%--hot_b\n"
	       "                       asm_sysvec_apic_timer_interrupt\n"
	       "                       |          \n"
	       "                        --0.70%--irqentry_exit_to_user_mode\n\n");
}

/* -g fractal: each level's percentages of its parent, threshold per parent. */
static void fractal(void **state)
{
	(void)state;
	expect(print(L, PK_CALLCHAIN_GRAPH_REL, true, true),
	       "            |\n"
	       "            ---__libc_start_call_main\n"
	       "               main\n"
	       "               |          \n"
	       "               |--50.26%--hot_a\n"
	       "               |          |          \n"
	       "               |           --100.00%--asm_sysvec_apic_timer_interrupt\n"
	       "               |                     |          \n"
	       "               |                     |--50.00%--irqentry_exit_to_user_mode\n"
	       "               |                     |          |          \n"
	       "               |                     |          |--50.00%--schedule\n"
	       "               |                     |          |          __schedule\n"
	       "               |                     |          |          finish_task_switch.isra.0\n"
	       "               |                     |          |          \n"
	       "               |                     |           --50.00%--__rseq_handle_notify_resume\n"
	       "               |                     |          \n"
	       "               |                      --50.00%--sysvec_apic_timer_interrupt\n"
	       "               |                                __irq_exit_rcu\n"
	       "               |                                handle_softirqs\n"
	       "               |                                |          \n"
	       "               |                                |--50.00%--sched_balance_softirq\n"
	       "               |                                |          sched_balance_update_blocked_averages\n"
	       "               |                                |          \n"
	       "               |                                 --50.00%--sched_balance_domains\n"
	       "               |                                           sched_balance_rq\n"
	       "               |                                           sched_balance_find_src_group\n"
	       "               |                                           update_sd_lb_stats.constprop.0\n"
	       "               |          \n"
	       "                --49.74%--hot_b\n"
	       "                          |          \n"
	       "                           --100.00%--asm_sysvec_apic_timer_interrupt\n"
	       "                                     |          \n"
	       "                                     |--66.67%--irqentry_exit_to_user_mode\n"
	       "                                     |          \n"
	       "                                      --33.33%--sysvec_apic_timer_interrupt\n"
	       "                                                __irq_exit_rcu\n"
	       "                                                handle_softirqs\n"
	       "                                                |          \n"
	       "                                                 --100.00%--rcu_core\n"
	       "                                                           _raw_spin_unlock_irqrestore\n\n");
}

/* -g flat and -g folded: the chains that end somewhere, largest first. */
static void flat_and_folded(void **state)
{
	(void)state;
	expect(print(IRQEXIT_USER, PK_CALLCHAIN_FLAT, false, false),
	       "           0.70%\n"
	       "                irqentry_exit_to_user_mode\n"
	       "                asm_sysvec_apic_timer_interrupt\n"
	       "                hot_b\n"
	       "                main\n"
	       "                __libc_start_call_main\n\n");
	expect(print(L, PK_CALLCHAIN_FLAT, true, true),
	       "           50.09%\n"
	       "                __libc_start_call_main\n                main\n                hot_a\n\n"
	       "           49.57%\n"
	       "                __libc_start_call_main\n                main\n                hot_b\n\n"
	       "           0.70%\n"
	       "                __libc_start_call_main\n                main\n                hot_b\n"
	       "                asm_sysvec_apic_timer_interrupt\n                irqentry_exit_to_user_mode\n\n");
	expect(print(HOT_B, PK_CALLCHAIN_FOLDED, false, false), "48.52% hot_b;main;__libc_start_call_main\n");
}

static struct pk_hist_sample hsample(int sym)
{
	return (struct pk_hist_sample){ .size = sizeof(struct pk_hist_sample), .comm = WL, .pid = 1, .tid = 1,
					.dso = syms[sym].dso, .sym = syms[sym].name, .sym_start = syms[sym].start,
					.ip = syms[sym].start, .level = syms[sym].dso == KERNEL ? 'k' : '.',
					.period = PERIOD };
}

/* --children through the histogram: perf's Children and Self, its order,
 * its trees.  With `batched`, each chain's first sample is added alone and
 * its other ones at the end in one pk_hist_add_chain_n (as report's memo
 * of repeated samples adds them): the same sums and trees. */
static char *children_in_hist_as(bool batched)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM };
	static const struct { int sym; const char *children, *self; } want[] = {
		{ L, "99.65", "0.00" }, { MAIN, "99.65", "0.00" }, { HOT_A, "50.09", "49.39" },
		{ HOT_B, "49.57", "48.52" }, { ASM_SYSVEC, "1.74", "0.00" }, { IRQEXIT_USER, "1.04", "0.70" },
	};
	struct report_cg cg = { .mode = PK_CALLCHAIN_GRAPH_ABS, .min_percent = 0.5, .caller = true };
	struct pk_hist *h;
	char buf[32], *text = NULL, *want_text;
	size_t len = 0;
	FILE *f;

	assert_int_equal(pk_hist_new(keys, 3, &h), 0);
	/* Caller first, as the chains below come: __libc_start_call_main then
	 * sits above main at their equal Children, as in perf. */
	pk_hist_set_chain_order(h, PK_HIST_CHAIN_CALLER_FIRST);
	for (int pass = 0; pass < (batched ? 2 : 1); pass++)
		for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
			struct pk_callchain_frame chain[12];
			struct pk_hist_sample frames[12], s;
			size_t n = chain_of(i, true, chain);
			unsigned rest = samples[i].nr - 1;

			for (size_t k = 0; k < n; k++)
				frames[k] = hsample(samples[i].chain[k]);
			s = frames[n - 1];
			if (pass == 0)
				for (unsigned r = 0; r < (batched ? 1 : samples[i].nr); r++)
					assert_int_equal(pk_hist_add_chain(h, &s, frames, chain, n, true), 0);
			if (pass == 1 && rest) {
				s.period = rest * (uint64_t)PERIOD;
				assert_int_equal(pk_hist_add_chain_n(h, &s, frames, chain, n, true, rest), 0);
			}
		}
	for (int i = 0; i < 2; i++) {	/* the two samples outside these chains */
		struct pk_hist_sample s = hsample(SB_UPDATE);

		s.sym = NULL;
		s.ip = (uint64_t)i;
		assert_int_equal(pk_hist_add(h, &s), 0);
	}
	assert_int_equal(pk_hist_total_period(h), TOTAL);
	assert_int_equal(pk_hist_sort(h), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);

		assert_string_equal(e->s.sym, syms[want[i].sym].name);
		snprintf(buf, sizeof(buf), "%.2f", pk_hist_percent_acc(h, e));
		assert_string_equal(buf, want[i].children);
		snprintf(buf, sizeof(buf), "%.2f", pk_hist_percent(h, e));
		assert_string_equal(buf, want[i].self);
	}
	/* The root's tree is perf's, built by the histogram this time. */
	assert_int_equal(pk_callchain_sort(pk_hist_get(h, 0)->chain, cg.mode, TOTAL / 200, 0.5), 0);
	assert_non_null(f = open_memstream(&text, &len));
	report_callchain_print(f, &cg, pk_hist_get(h, 0)->chain, TOTAL, pk_hist_get(h, 0)->period_acc, false);
	fclose(f);
	want_text = print(L, PK_CALLCHAIN_GRAPH_ABS, true, true);
	expect(text, want_text);
	free(want_text);
	assert_int_equal(pk_hist_nr_samples(h), TOTAL / PERIOD);
	/* What the two ways must agree on beyond that: each entry's samples,
	 * and the tree's sample counts (-g ...,count). */
	text = NULL;
	assert_non_null(f = open_memstream(&text, &len));
	for (size_t i = 0; i < pk_hist_nr(h); i++)
		fprintf(f, "%s %" PRIu64 "\n", pk_hist_get(h, i)->s.sym ? pk_hist_get(h, i)->s.sym : "-",
			pk_hist_get(h, i)->nr_samples);
	cg.value = REPORT_CG_COUNT;
	report_callchain_print(f, &cg, pk_hist_get(h, 0)->chain, TOTAL, pk_hist_get(h, 0)->period_acc, false);
	fclose(f);
	pk_hist_free(h);
	return text;
}

static void children_in_hist(void **state)
{
	(void)state;
	free(children_in_hist_as(false));
}

static void children_in_hist_batched(void **state)
{
	char *one = children_in_hist_as(false), *batched = children_in_hist_as(true);

	(void)state;
	assert_string_equal(batched, one);
	free(one);
	free(batched);
}

/* The node frame naming `sym` first met under n (depth first), or NULL. */
static const struct pk_callchain_frame *find_frame(const struct pk_callchain_node *n, const char *sym)
{
	const struct pk_callchain_frame *f = NULL;

	for (size_t k = 0; k < pk_callchain_node_nr_frames(n) && !f; k++)
		if (!strcmp(pk_callchain_node_frame(n, k)->sym, sym))
			f = pk_callchain_node_frame(n, k);
	for (size_t i = 0; i < pk_callchain_node_nr_children(n) && !f; i++)
		f = find_frame(pk_callchain_node_child(n, i), sym);
	return f;
}

/* A histogram's trees keep each frame once: the same frame in two
 * entries' trees (children mode) and in the two halves of a split node is
 * one frame, field for field what was appended, without its branch. */
static void frames_kept_once(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM };
	const struct pk_callchain_frame *in_l, *in_main, *hot_a, *hot_b;
	const struct pk_callchain_node *root;
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	pk_hist_set_chain_order(h, PK_HIST_CHAIN_CALLER_FIRST);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct pk_callchain_frame chain[12];
		struct pk_hist_sample frames[12];
		size_t n = chain_of(i, true, chain);

		for (size_t k = 0; k < n; k++)
			frames[k] = hsample(samples[i].chain[k]);
		assert_int_equal(pk_hist_add_chain(h, &frames[n - 1], frames, chain, n, true), 0);
	}
	assert_int_equal(pk_hist_sort(h), 0);
	assert_string_equal(pk_hist_get(h, 0)->s.sym, syms[L].name);
	assert_string_equal(pk_hist_get(h, 1)->s.sym, syms[MAIN].name);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(pk_callchain_sort(pk_hist_get(h, i)->chain, PK_CALLCHAIN_GRAPH_ABS, 0, 0), 0);
	/* L's tree: L -> main, then split into hot_b and hot_a below main */
	root = pk_callchain_root(pk_hist_get(h, 0)->chain);
	in_l = find_frame(root, syms[MAIN].name);
	in_main = find_frame(pk_callchain_root(pk_hist_get(h, 1)->chain), syms[MAIN].name);
	assert_non_null(in_l);
	assert_ptr_equal(in_l, in_main);
	assert_string_equal(in_l->dso, WL);
	assert_int_equal(in_l->sym_start, syms[MAIN].start);
	assert_int_equal(in_l->ip, 0x10);
	assert_null(in_l->branch);
	hot_a = find_frame(root, syms[HOT_A].name);
	hot_b = find_frame(root, syms[HOT_B].name);
	assert_non_null(hot_a);
	assert_non_null(hot_b);
	assert_ptr_not_equal(hot_a, hot_b);
	assert_ptr_equal(hot_a, find_frame(pk_callchain_root(pk_hist_get(h, 1)->chain), syms[HOT_A].name));
	pk_hist_free(h);
}

/* A graph order is made only where it can be reached: under a child below
 * the threshold (50 nodes of its own) nothing is ordered, so the sort
 * allocates the root's order alone (it also ordered the hidden child's),
 * and its answer is the one child shown. */
static void order_only_where_shown(void **state)
{
	struct pk_callchain_frame f[3] = {
		{ .sym = "big", .dso = WL, .sym_start = 0x100, .ip = 0x100 },
	};
	struct pk_callchain *cc;
	const struct pk_callchain_node *root;

	(void)state;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, f, 1, 1000), 0);
	for (uint64_t i = 0; i < 50; i++) {	/* small: 50 chains of 1 under "small" */
		f[0] = (struct pk_callchain_frame){ .sym = "small", .dso = WL, .sym_start = 0x200, .ip = 0x200 };
		f[1] = (struct pk_callchain_frame){ .sym = "mid", .dso = WL, .sym_start = 0x300 + i, .ip = 0x300 + i };
		f[2] = (struct pk_callchain_frame){ .sym = "leaf", .dso = WL, .sym_start = 0x400, .ip = 0x400 };
		assert_int_equal(pk_callchain_append(cc, f, 3, 1), 0);
	}
	pk__alloc_fail_nth(2);	/* the root's order, then one more would fail */
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 100, 0.5), 0);
	assert_int_not_equal(pk__alloc_fail_nth(0), 0);	/* the failure was never reached */
	root = pk_callchain_root(cc);
	assert_int_equal(pk_callchain_node_nr_children(root), 1);
	assert_string_equal(pk_callchain_node_frame(pk_callchain_node_child(root, 0), 0)->sym, "big");
	/* a lower threshold reaches them: every one ordered then */
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 1, 0.0), 0);
	assert_int_equal(pk_callchain_node_nr_children(root), 2);
	assert_int_equal(pk_callchain_node_nr_children(pk_callchain_node_child(root, 1)), 50);
	pk_callchain_free(cc);
}

/* A branch is counted per sample: two samples with one at once are refused. */
static void batched_branches_refused(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM };
	struct pk_branch_frame br = { .branch = true };
	struct pk_callchain_frame f = { .sym = "x", .dso = WL, .sym_start = 1, .branch = &br };
	struct pk_hist_sample s = hsample(HOT_A);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	assert_int_equal(pk_hist_add_chain_n(h, &s, &s, &f, 1, false, 2), -EINVAL);
	assert_int_equal(pk_hist_add_chain_n(h, &s, &s, &f, 1, false, 1), 0);
	assert_int_equal(pk_hist_nr_samples(h), 1);
	pk_hist_free(h);
}

static void append_after_sort_refused(void **state)
{
	struct pk_callchain *cc;
	struct pk_callchain_frame f = { .sym = "x", .dso = WL, .sym_start = 1 };

	(void)state;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, &f, 0, 5), 0);	/* an empty chain: nothing */
	assert_int_equal(pk_callchain_node_cumul(pk_callchain_root(cc)), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_FLAT, 0, 0.5), 0);
	assert_int_equal(pk_callchain_append(cc, &f, 1, 5), -EINVAL);
	pk_callchain_free(cc);
	pk_callchain_free(NULL);
}

/* The child of n whose first frame is `sym`. */
static const struct pk_callchain_node *child_named(const struct pk_callchain_node *n, const char *sym)
{
	for (size_t i = 0; i < pk_callchain_node_nr_children(n); i++)
		if (!strcmp(pk_callchain_node_frame(pk_callchain_node_child(n, i), 0)->sym, sym))
			return pk_callchain_node_child(n, i);
	fail_msg("no child %s", sym);
	return NULL;
}

/* A chain appended again and again (the memo's case) between chains that
 * split the nodes it passed, each of those twice too: every period lands
 * where a match puts it. */
static void same_chain_across_splits(void **state)
{
	struct pk_callchain *cc;
	struct pk_callchain_frame x = { .sym = "x", .dso = WL, .sym_start = 3 },
				  y = { .sym = "y", .dso = WL, .sym_start = 2 },
				  z = { .sym = "z", .dso = WL, .sym_start = 1 },
				  w = { .sym = "w", .dso = WL, .sym_start = 5 };
	struct pk_callchain_frame a[] = { x, y, z }, b[] = { x, y, w }, c[] = { x };
	const struct pk_callchain_node *nx, *ny, *nz;

	(void)state;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_append(cc, b, 3, 1), 0);	/* splits x,y,z */
	assert_int_equal(pk_callchain_append(cc, b, 3, 1), 0);	/* and again */
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_append(cc, c, 1, 100), 0);	/* splits x,y */
	assert_int_equal(pk_callchain_append(cc, c, 1, 100), 0);
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_append(cc, a, 2, 1000), 0);	/* ends in y */
	assert_int_equal(pk_callchain_append(cc, a, 3, 10), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	assert_int_equal(pk_callchain_node_cumul(pk_callchain_root(cc)), 60 + 2 + 200 + 1000);
	assert_int_equal(pk_callchain_node_nr_children(pk_callchain_root(cc)), 1);
	nx = child_named(pk_callchain_root(cc), "x");
	assert_int_equal(pk_callchain_node_nr_frames(nx), 1);
	assert_int_equal(pk_callchain_node_self(nx), 200);
	assert_int_equal(pk_callchain_node_count(nx), 2);
	ny = child_named(nx, "y");
	assert_int_equal(pk_callchain_node_self(ny), 1000);
	assert_int_equal(pk_callchain_node_cumul(ny), 1062);
	nz = child_named(ny, "z");
	assert_int_equal(pk_callchain_node_self(nz), 60);
	assert_int_equal(pk_callchain_node_count(nz), 6);
	assert_int_equal(pk_callchain_node_self(child_named(ny, "w")), 2);
	assert_int_equal(pk_callchain_node_cumul_count(pk_callchain_root(cc)), 11);
	pk_callchain_free(cc);
}

/* perf's comm override after the fact (pk_hist_rename_comm): the ":7"
 * entry becomes "w"'s and merges into it, sums and trees, each node with
 * samples of its own appended once (a count of one, as perf's
 * callchain_merge); an entry of another comm is left alone. */
static void renamed_comm_merges(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO };
	const char *unnamed = ":7", *name = "w", *other = "o";
	struct pk_callchain_frame x = { .sym = "x", .dso = WL, .sym_start = 3 },
				  y = { .sym = "y", .dso = WL, .sym_start = 2 },
				  z = { .sym = "z", .dso = WL, .sym_start = 1 };
	struct pk_callchain_frame a[] = { x, y }, b[] = { x, z };
	struct pk_hist_sample fr[2];
	struct pk_hist *h;
	const struct pk_hist_entry *e;
	const struct pk_callchain_node *nx;
	const char *comms[] = { unnamed, unnamed, unnamed, name, other };
	const struct pk_callchain_frame *chains[] = { a, a, b, a, a };

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	for (size_t i = 0; i < 5; i++) {
		struct pk_hist_sample s = { .size = sizeof(s), .comm = comms[i], .tid = 7, .dso = WL,
					    .level = '.', .period = 10 * (i + 1) };

		fr[0] = fr[1] = s;
		assert_int_equal(pk_hist_add_chain(h, &s, fr, chains[i], 2, false), 0);
	}
	assert_int_equal(pk_hist_nr(h), 3);
	assert_int_equal(pk_hist_rename_comm(h, unnamed, name), 0);
	assert_int_equal(pk_hist_nr(h), 2);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_rename_comm(h, other, name), -EINVAL);	/* sorted */
	e = pk_hist_get(h, 0);
	assert_ptr_equal(e->s.comm, name);
	assert_int_equal(e->period, 10 + 20 + 30 + 40);
	assert_int_equal(e->nr_samples, 4);
	assert_int_equal(e->period_us, 100);
	assert_int_equal(pk_callchain_sort(e->chain, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	nx = child_named(pk_callchain_root(e->chain), "x");
	assert_int_equal(pk_callchain_node_self(child_named(nx, "y")), 10 + 20 + 40);
	/* the first entry (":7"'s, two samples there) keeps its tree; w's
	 * node is appended to it once */
	assert_int_equal(pk_callchain_node_count(child_named(nx, "y")), 3);
	assert_int_equal(pk_callchain_node_self(child_named(nx, "z")), 30);
	assert_ptr_equal(pk_hist_get(h, 1)->s.comm, other);
	assert_int_equal(pk_hist_get(h, 1)->period, 50);
	pk_hist_free(h);
}

/* Two copies of one program shown by one short name: frames of the same
 * symbol stay apart when each copy is its own object, and merge when only
 * the name tells them (perf's match_chain compares dso pointers). */
static void copies_apart_by_object(void **state)
{
	static const int one = 1, two = 2;
	const struct pk_callchain_frame a = { .sym = "hot_a", .dso = WL, .sym_start = 0x1459, .ip = 0x1460,
					      .object = &one };
	struct pk_callchain_frame b = a;
	struct pk_callchain *cc;

	(void)state;
	b.object = &two;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, &a, 1, 3), 0);
	assert_int_equal(pk_callchain_append(cc, &b, 1, 5), 0);
	assert_int_equal(pk_callchain_append(cc, &a, 1, 2), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	assert_int_equal(pk_callchain_node_nr_children(pk_callchain_root(cc)), 2);
	assert_int_equal(pk_callchain_node_cumul(pk_callchain_node_child(pk_callchain_root(cc), 0)), 5);
	assert_ptr_not_equal(pk_callchain_node_frame(pk_callchain_node_child(pk_callchain_root(cc), 0), 0)->object,
			     pk_callchain_node_frame(pk_callchain_node_child(pk_callchain_root(cc), 1), 0)->object);
	assert_int_equal(pk_callchain_node_cumul(pk_callchain_node_child(pk_callchain_root(cc), 1)), 5);
	pk_callchain_free(cc);

	/* Without objects, one name is one object. */
	b.object = NULL;
	assert_int_equal(pk_callchain_new(&cc), 0);
	assert_int_equal(pk_callchain_append(cc, &b, 1, 3), 0);
	assert_int_equal(pk_callchain_append(cc, &b, 1, 5), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	assert_int_equal(pk_callchain_node_nr_children(pk_callchain_root(cc)), 1);
	assert_int_equal(pk_callchain_node_cumul(pk_callchain_node_child(pk_callchain_root(cc), 0)), 8);
	pk_callchain_free(cc);
}

/* The roots' periods, largest first, after a graph sort of `frames`
 * appended one chain each with periods 1, 2, 4, ... */
static size_t roots(const struct pk_callchain_frame *frames, size_t nr, uint64_t *cumul)
{
	struct pk_callchain *cc;
	size_t n;

	assert_int_equal(pk_callchain_new(&cc), 0);
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(pk_callchain_append(cc, &frames[i], 1, 1ull << i), 0);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0.0), 0);
	n = pk_callchain_node_nr_children(pk_callchain_root(cc));
	for (size_t i = 0; i < n; i++)
		cumul[i] = pk_callchain_node_cumul(pk_callchain_node_child(pk_callchain_root(cc), i));
	pk_callchain_free(cc);
	return n;
}

/* perf's -g keys: function merges two addresses of one symbol, address
 * keeps them apart, srcline merges by line text across addresses and
 * keeps two lines of one symbol apart, and falls back to the function
 * where neither frame has a line. */
static void keys(void **state)
{
	struct pk_callchain_frame f[3] = {
		{ .sym = "hot_a", .dso = WL, .sym_start = 0x1459, .ip = 0x1460, .srcline = "w.c:85" },
		{ .sym = "hot_a", .dso = WL, .sym_start = 0x1459, .ip = 0x1470, .srcline = "w.c:85" },
		{ .sym = "hot_a", .dso = WL, .sym_start = 0x1459, .ip = 0x1480, .srcline = "w.c:84" },
	};
	uint64_t c[3];

	(void)state;
	assert_int_equal(roots(f, 3, c), 1);
	assert_int_equal(c[0], 7);
	for (size_t i = 0; i < 3; i++)
		f[i].key = PK_CALLCHAIN_KEY_ADDRESS;
	assert_int_equal(roots(f, 3, c), 3);
	assert_int_equal(c[0], 4);
	for (size_t i = 0; i < 3; i++)
		f[i].key = PK_CALLCHAIN_KEY_SRCLINE;
	assert_int_equal(roots(f, 3, c), 2);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[1], 3);
	for (size_t i = 0; i < 3; i++)
		f[i].srcline = NULL;
	assert_int_equal(roots(f, 3, c), 1);
	assert_int_equal(c[0], 7);
}

/* The cpumode each context marker switches a call chain to; none for a
 * guest marker (perf drops such a chain) or an address. */
static void context_mode(void **state)
{
	(void)state;
	assert_int_equal(pk_callchain_context_mode(PERF_CONTEXT_KERNEL), PERF_RECORD_MISC_KERNEL);
	assert_int_equal(pk_callchain_context_mode(PERF_CONTEXT_USER), PERF_RECORD_MISC_USER);
	assert_int_equal(pk_callchain_context_mode(PERF_CONTEXT_HV), PERF_RECORD_MISC_HYPERVISOR);
	assert_int_equal(pk_callchain_context_mode(PERF_CONTEXT_GUEST_KERNEL), 0);
	assert_int_equal(pk_callchain_context_mode((uint64_t)PERF_CONTEXT_MAX + 1), 0);
	assert_int_equal(pk_callchain_context_mode(0x401000), 0);
}

/* ---- kept appends (pk__callchain_append_kept) ---------------------------- */

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* n and its children (by their sums, ties in match order), frames and sums. */
static void put_tree(FILE *f, const struct pk_callchain_node *n, int depth)
{
	fprintf(f, "%*s%" PRIu64 "/%" PRIu64 " %" PRIu64 ":", depth, "", pk_callchain_node_self(n),
		pk_callchain_node_cumul(n), pk_callchain_node_count(n));
	for (size_t k = 0; k < pk_callchain_node_nr_frames(n); k++) {
		const struct pk_callchain_frame *fr = pk_callchain_node_frame(n, k);

		fprintf(f, " %s@%" PRIx64 "(%s%s)", fr->sym, fr->ip, fr->dso, fr->inlined ? " inlined" : "");
	}
	fputc('\n', f);
	for (size_t i = 0; i < pk_callchain_node_nr_children(n); i++)
		put_tree(f, pk_callchain_node_child(n, i), depth + 1);
}

/* cc's tree as text, sorted to show every node (no append after it). */
static char *tree_text(struct pk_callchain *cc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0), 0);
	put_tree(f, pk_callchain_root(cc), 0);
	fclose(f);
	return text;
}

/* The two trees print alike (the whole one's root with `kids` children
 * shown, 0: any); both and the pool let go. */
static void same_then_free(struct pk_callchain *whole, struct pk_callchain *fast, struct pk__frame_pool *pool,
			   size_t kids)
{
	char *a = tree_text(whole), *b = tree_text(fast);

	if (kids)
		assert_int_equal(pk_callchain_node_nr_children(pk_callchain_root(whole)), kids);
	assert_string_equal(b, a);
	free(a);
	free(b);
	pk_callchain_free(whole);
	pk_callchain_free(fast);
	pk__frame_pool_put(pool);
}

/*
 * Chains appended whole and as kept chains (the pool's frames, matched from
 * where each parts from the last) make the same tree, node for node, in
 * the same order of appends: runs of chains that share their first frames,
 * repeats, chains that are a prefix of the last one or go past it, and
 * frames perf's match puts in no one order (an inlined copy of a function
 * matches it by name, other frames by object first), so that a search of
 * siblings depends on the path it takes.
 */
static void kept_appends_as_whole(void **state)
{
	static const char *const names[6] = { "main", "run", "parse", "eval", "walk", "leaf" };
	static const char *const objs[2] = { "prog", "libc.so.6" };
	struct pk_callchain_frame chain[16], last[16];
	const struct pk_callchain_frame *kept[16];
	struct pk__frame_pool *pool = pk__frame_pool_new();
	struct pk_callchain *whole, *fast;
	size_t nr_last = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	assert_non_null(pool);
	assert_int_equal(pk_callchain_new(&whole), 0);
	assert_int_equal(pk__callchain_new_pooled(&fast, pool), 0);
	for (int i = 0; i < 4000; i++) {
		size_t keep = nr_last ? xorshift(&x) % (nr_last + 1) : 0;	/* the last chain's first frames */
		size_t nr = 1 + xorshift(&x) % 15;
		uint64_t period = 1 + xorshift(&x) % 7;

		if (xorshift(&x) % 5 == 0)	/* the last chain again */
			keep = nr = nr_last ? nr_last : 1;
		for (size_t k = 0; k < nr; k++) {
			int s = (int)(xorshift(&x) % 6);
			bool in = xorshift(&x) % 4 == 0;

			chain[k] = k < keep && k < nr_last ? last[k] :
				   (struct pk_callchain_frame){ .sym = names[s], .dso = objs[in ^ (s > 3)],
								.sym_start = 0x1000u * (unsigned)(s + 1),
								.ip = 0x1000u * (unsigned)(s + 1) + xorshift(&x) % 3,
								.inlined = in };
			assert_non_null(kept[k] = pk__frame_pool_intern(pool, &chain[k]));
		}
		assert_int_equal(pk__callchain_append(whole, chain, nr, period, 1, false), 0);
		assert_int_equal(pk__callchain_append_kept(fast, kept, nr, period, 1), 0);
		memcpy(last, chain, nr * sizeof(*chain));
		nr_last = nr;
	}
	same_then_free(whole, fast, pool, 0);
}

/*
 * A kept chain that goes on past the node the last append made searches
 * that node's parent again, as a whole append does: five siblings in
 * perf's match order (by object) whose names put an inlined frame "m"
 * right of all but the fourth, so "m" is added last and a search with it
 * there misses it (the fourth sends it left): both appends then give
 * "m" a second node.
 */
static void kept_append_searches_again(void **state)
{
	static const char objs[5] = { 0 };
	static const char *const names[5] = { "z0", "z1", "z2", "a3", "z4" };
	struct pk_callchain_frame f[8];
	const struct pk_callchain_frame *kept[8];
	struct pk__frame_pool *pool = pk__frame_pool_new();
	struct pk_callchain *whole, *fast;

	(void)state;
	assert_non_null(pool);
	assert_int_equal(pk_callchain_new(&whole), 0);
	assert_int_equal(pk__callchain_new_pooled(&fast, pool), 0);
	for (int i = 0; i < 5; i++)	/* the first the greatest: objects in falling order */
		f[i] = (struct pk_callchain_frame){ .sym = names[i], .dso = "prog", .object = &objs[4 - i],
						    .sym_start = 0x100, .ip = 0x100 };
	f[5] = (struct pk_callchain_frame){ .sym = "m", .dso = "prog", .object = &objs[0], .inlined = true };
	f[6] = (struct pk_callchain_frame){ .sym = "y", .dso = "prog", .object = &objs[0], .ip = 0x200 };
	f[7] = (struct pk_callchain_frame){ .sym = "x", .dso = "prog", .object = &objs[0], .ip = 0x300 };
	for (int i = 0; i < 8; i++)
		assert_non_null(kept[i] = pk__frame_pool_intern(pool, &f[i]));
	for (int i = 0; i < 5; i++) {
		assert_int_equal(pk__callchain_append(whole, &f[i], 1, 1, 1, false), 0);
		assert_int_equal(pk__callchain_append_kept(fast, &kept[i], 1, 1, 1), 0);
	}
	for (size_t nr = 2; nr <= 3; nr++) {	/* m y, then m y x */
		assert_int_equal(pk__callchain_append(whole, &f[5], nr, 1, 1, false), 0);
		assert_int_equal(pk__callchain_append_kept(fast, &kept[5], nr, 1, 1), 0);
	}
	same_then_free(whole, fast, pool, 7);
}

/* A tree built to print (its nodes in an arena) takes the same chains as
 * any tree, merges included, and refuses one with branch frames (whose
 * counts would be freed node by node). */
static void arena_tree(void **state)
{
	struct pk_branch_frame br = { .branch = true };
	struct pk_callchain_frame f[3] = {
		{ .sym = "main", .dso = "prog", .sym_start = 0x100, .ip = 0x100 },
		{ .sym = "run", .dso = "prog", .sym_start = 0x200, .ip = 0x200 },
		{ .sym = "leaf", .dso = "prog", .sym_start = 0x300, .ip = 0x300 },
	};
	struct pk__frame_pool *pool = pk__frame_pool_new();
	struct pk_callchain *plain, *arena, *merged, *merged_plain;
	char *a, *b, *c, *d;

	(void)state;
	assert_non_null(pool);
	assert_int_equal(pk__callchain_new_pooled(&plain, pool), 0);
	assert_int_equal(pk__callchain_new_arena(&arena, pool), 0);
	assert_int_equal(pk__callchain_new_arena(&merged, pool), 0);
	assert_int_equal(pk__callchain_new_pooled(&merged_plain, pool), 0);
	for (int i = 0; i < 300; i++) {	/* splits, new children, list growth */
		size_t nr = 1 + (size_t)(i % 3);
		struct pk_callchain_frame g[3];

		memcpy(g, f, sizeof(f));
		g[nr - 1].ip += (uint64_t)(i % 7);
		g[nr - 1].sym_start = g[nr - 1].ip;
		assert_int_equal(pk__callchain_append(plain, g, nr, 1 + (uint64_t)i, 1, false), 0);
		assert_int_equal(pk__callchain_append(arena, g, nr, 1 + (uint64_t)i, 1, false), 0);
	}
	assert_int_equal(pk__callchain_merge(merged, arena), 0);	/* (a count of one a node, as perf's) */
	assert_int_equal(pk__callchain_merge(merged_plain, plain), 0);
	f[1].branch = &br;
	assert_int_equal(pk__callchain_append(arena, f, 3, 1, 1, true), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "branches in a tree built to print"));
	a = tree_text(plain);
	b = tree_text(arena);
	c = tree_text(merged);
	d = tree_text(merged_plain);
	assert_string_equal(b, a);
	assert_string_equal(c, d);
	free(a);
	free(b);
	free(c);
	free(d);
	pk_callchain_free(plain);
	pk_callchain_free(arena);
	pk_callchain_free(merged);
	pk_callchain_free(merged_plain);
	pk__frame_pool_put(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(graph_single_chain), cmocka_unit_test(graph_children_tree),
		cmocka_unit_test(graph_two_roots),    cmocka_unit_test(fractal),
		cmocka_unit_test(flat_and_folded),    cmocka_unit_test(append_after_sort_refused),
		cmocka_unit_test(children_in_hist),   cmocka_unit_test(copies_apart_by_object),
		cmocka_unit_test(children_in_hist_batched), cmocka_unit_test(batched_branches_refused),
		cmocka_unit_test(keys),               cmocka_unit_test(same_chain_across_splits),
		cmocka_unit_test(context_mode),       cmocka_unit_test(renamed_comm_merges),
		cmocka_unit_test(frames_kept_once),   cmocka_unit_test(order_only_where_shown),
		cmocka_unit_test(kept_appends_as_whole), cmocka_unit_test(kept_append_searches_again),
		cmocka_unit_test(arena_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
