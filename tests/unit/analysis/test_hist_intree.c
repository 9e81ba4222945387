/* SPDX-License-Identifier: MIT */
/*
 * test_hist_intree.c - a histogram finds its entries through perf's input
 * tree once perf's comparison of them is no order (hist-intree.c): an
 * inlined function's symbol, which perf compares by name, beside symbols
 * it compares by start.  The sequence below was found with a model of
 * perf 6.1's hists__findnew_entry (the kernel's red-black insertion, the
 * sym key's _sort__sym_cmp): its last `z` passes the first one's node by
 * and perf makes a second entry of it, two rows under --sort sym; with a
 * key that perf collapses (comm) the two are merged again, and the merged
 * entry keeps the first one's deepest chain.  Until the first inlined
 * symbol comes (and without one at all) entries are found by key; two
 * names at one start stay two entries.
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

static const char *const COMM = "prog", *const DSO = "prog";

/* The lookups: symbols by start, " (inlined)" ones by name. */
static const struct {
	const char *sym;
	uint64_t start;
} SEQ[] = {
	{ "z", 300 }, { "b", 400 }, { "w", 500 }, { "q (inlined)", 120 }, { "m (inlined)", 250 },
	{ "a", 100 }, { "c", 200 }, { "k (inlined)", 150 }, { "z", 300 },
};
#define NR_SEQ (sizeof(SEQ) / sizeof(SEQ[0]))

/* Lookup i of SEQ as a sample whose chain has `depth` frames (no
 * Children: each frame's own symbol, the sample's own entry alone). */
static int add(struct pk_hist *h, size_t i, size_t depth)
{
	struct pk_hist_sample s = { .size = sizeof(s), .comm = COMM, .pid = 1, .tid = 1, .dso = DSO,
				    .sym = SEQ[i].sym, .sym_start = SEQ[i].start, .ip = SEQ[i].start + 4,
				    .level = '.', .period = 10 };
	struct pk_callchain_frame chain[4] = { { 0 } };

	for (size_t k = 0; k < depth; k++)
		chain[k] = (struct pk_callchain_frame){ .sym = SEQ[i].sym, .dso = DSO, .sym_start = SEQ[i].start,
							.ip = SEQ[i].start + 4 + k };
	return pk_hist_add_chain(h, &s, NULL, chain, depth, false);
}

/* The entries of symbol sym in sorted h: their number, *samples theirs. */
static size_t rows_of(const struct pk_hist *h, const char *sym, uint64_t *samples, uint32_t *depth)
{
	size_t n = 0;

	*samples = 0;
	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);

		if (e->s.sym && !strcmp(e->s.sym, sym)) {
			n++;
			*samples += e->nr_samples;
			*depth = e->max_depth;
		}
	}
	return n;
}

/* A histogram keyed by symbol alone (no key perf collapses). */
static struct pk_hist *by_sym(void)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_SYM };
	struct pk_hist *h;

	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	return h;
}

static void split_like_perf(void **state)
{
	struct pk_hist *h = by_sym();
	uint64_t samples;
	uint32_t depth;

	(void)state;
	for (size_t i = 0; i < NR_SEQ; i++) {
		assert_int_equal(add(h, i, 1), 0);
		/* by key while the comparison is an order: up to the first inlined */
		assert_int_equal(pk_hist_in_order(h), i >= 3);
	}
	assert_int_equal(pk_hist_nr(h), NR_SEQ);	/* z twice */
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(rows_of(h, "z", &samples, &depth), 2);
	assert_int_equal(samples, 2);
	assert_int_equal(rows_of(h, "k (inlined)", &samples, &depth), 1);
	pk_hist_free(h);
}

static void collapse_merges(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_SYM };
	struct pk_hist *h;
	uint64_t samples;
	uint32_t depth = 0;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	for (size_t i = 0; i < NR_SEQ; i++)	/* the second z's chain the deepest */
		assert_int_equal(add(h, i, i == NR_SEQ - 1 ? 3 : 1), 0);
	assert_int_equal(pk_hist_nr(h), NR_SEQ);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_nr(h), NR_SEQ - 1);
	assert_int_equal(rows_of(h, "z", &samples, &depth), 1);
	assert_int_equal(samples, 2);
	assert_int_equal(depth, 1);	/* perf's merge keeps the first entry's */
	pk_hist_free(h);
}

static void order_found_by_key(void **state)
{
	struct pk_hist *h = by_sym();	/* every symbol by start: an order, one entry of each key */
	uint64_t samples;
	uint32_t depth;

	(void)state;
	for (size_t i = 0; i < NR_SEQ; i++)
		if (!strstr(SEQ[i].sym, "inlined"))
			assert_int_equal(add(h, i, 1), 0);
	assert_false(pk_hist_in_order(h));
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(rows_of(h, "z", &samples, &depth), 1);
	assert_int_equal(samples, 2);
	pk_hist_free(h);
}

/* Two names at one start (report's own off-CPU frames; two binaries'
 * symbols) are one to perf's comparison, two keys here: the tree keeps
 * them two, as the table does. */
static void one_start_two_names(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_SYM };
	const char *const syms[] = { "q (inlined)", "[off-cpu: R]", "a", "[off-cpu: S]", "[off-cpu: R]",
				     "[off-cpu: S]" };
	const uint64_t starts[] = { 120, 0, 100, 0, 0, 0 };
	struct pk_hist *h;
	uint64_t samples;
	uint32_t depth;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	for (size_t i = 0; i < 6; i++) {
		struct pk_hist_sample s = { .size = sizeof(s), .comm = COMM, .dso = DSO, .sym = syms[i],
					    .sym_start = starts[i], .level = 'k', .period = 1 };

		assert_int_equal(pk_hist_add(h, &s), 0);
	}
	assert_true(pk_hist_in_order(h));
	assert_int_equal(pk_hist_nr(h), 4);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(rows_of(h, "[off-cpu: S]", &samples, &depth), 1);
	assert_int_equal(samples, 2);
	assert_int_equal(rows_of(h, "[off-cpu: R]", &samples, &depth), 1);
	assert_int_equal(samples, 2);
	pk_hist_free(h);
}

/* Unresolved addresses compare by their difference's sign: an order for
 * user space's and the kernel's together, none with one between. */
static void unresolved_addresses(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_DSO, PK_HIST_KEY_SYM };
	const uint64_t ips[] = { 0x401000, 0xffffffff81000000ull, 0x7f0000001000ull, 0x4242424242424242ull };
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	for (size_t i = 0; i < 4; i++) {
		struct pk_hist_sample s = { .size = sizeof(s), .comm = COMM, .dso = NULL, .ip = ips[i],
					    .level = '.', .period = 1 };

		assert_int_equal(pk_hist_add(h, &s), 0);
		assert_int_equal(pk_hist_in_order(h), i == 3);
	}
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_nr(h), 4);
	pk_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_like_perf),
		cmocka_unit_test(collapse_merges),
		cmocka_unit_test(order_found_by_key),
		cmocka_unit_test(one_start_two_names),
		cmocka_unit_test(unresolved_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
