/* SPDX-License-Identifier: MIT */
/*
 * test_hist_chains.c - a histogram's deferred call chains
 * (pk_hist_defer_chains): each entry's tree, built when pk_hist_chain asks
 * for it, is the tree built sample by sample, node for node (frames, sums,
 * counts, order), before the sort and after it, through a comm rename's
 * merges, with the chains' arrays in temporary files, and when its
 * allocations fail; none given below a period; deferral refused once samples are
 * in and for branch frames.  Without trees (pk_hist_no_trees): the same
 * entries, sums and order, and no tree.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"

#define NR_SYMS 9
#define MAX_DEPTH 12

static const char *const sym_names[NR_SYMS] = { "main", "run", "parse", "eval", "walk",
						"leaf", "alloc", "free", "memcpy" };
static const char *const dsos[2] = { "prog", "libc.so.6" };
static const char *const comms[3] = { "prog", ":12", "worker" };

/* A small generator: the same sequence on every run. */
static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Frame k of a chain: sym's entry, and as a tree frame at `ip` in it. */
static void frame(int sym, uint64_t ip, const char *comm, uint32_t tid, struct pk_hist_sample *s,
		  struct pk_callchain_frame *f)
{
	const char *dso = dsos[sym >= 6];
	uint64_t start = 0x1000 * (uint64_t)(sym + 1);

	*s = (struct pk_hist_sample){ .size = sizeof(*s), .comm = comm, .pid = tid, .tid = tid, .dso = dso,
				      .sym = sym_names[sym], .sym_start = start, .ip = start + ip, .level = '.',
				      .period = 0 };
	*f = (struct pk_callchain_frame){ .sym = sym_names[sym], .dso = dso, .sym_start = start,
					  .ip = start + ip };
}

/* Samples into both histograms alike: chains caller first from main, with
 * recursion (a symbol twice), repeats added at once, an empty chain, ips
 * that differ inside a symbol (one node by the function key), three comms. */
static void add_samples(struct pk_hist *const *h, size_t nr_h, unsigned nr, uint64_t seed)
{
	uint64_t x = seed;

	for (unsigned i = 0; i < nr; i++) {
		struct pk_hist_sample frames[MAX_DEPTH], s;
		struct pk_callchain_frame chain[MAX_DEPTH];
		size_t depth = next(&x) % MAX_DEPTH;	/* 0: an empty chain */
		const char *comm = comms[next(&x) % 3];
		uint32_t tid = comm == comms[0] ? 10 : comm == comms[1] ? 12 : 13;
		uint64_t n = next(&x) % 4 == 0 ? 1 + next(&x) % 5 : 1;

		for (size_t k = 0; k < depth; k++)
			frame(k ? (int)(next(&x) % NR_SYMS) : 0, next(&x) % 3, comm, tid, &frames[k], &chain[k]);
		if (depth)
			s = frames[depth - 1];
		else
			frame(5, 0, comm, tid, &s, &chain[0]);
		s.period = 100 * n + next(&x) % 50;
		for (size_t j = 0; j < nr_h; j++)
			assert_int_equal(pk_hist_add_chain_n(h[j], &s, frames, chain, depth, true, n), 0);
	}
}

/* Node n's frames, sums and children (in the graph order: by their sums,
 * ties in match order), as text. */
static void put_node(FILE *f, const struct pk_callchain_node *n, int depth)
{
	fprintf(f, "%*s%" PRIu64 "/%" PRIu64 " %" PRIu64 "/%" PRIu64 ":", depth, "", pk_callchain_node_self(n),
		pk_callchain_node_cumul(n), pk_callchain_node_count(n), pk_callchain_node_cumul_count(n));
	for (size_t k = 0; k < pk_callchain_node_nr_frames(n); k++) {
		const struct pk_callchain_frame *fr = pk_callchain_node_frame(n, k);

		fprintf(f, " %s@%" PRIx64 "(%s)", fr->sym, fr->ip, fr->dso);
	}
	fputc('\n', f);
	for (size_t i = 0; i < pk_callchain_node_nr_children(n); i++)
		put_node(f, pk_callchain_node_child(n, i), depth + 1);
}

/* Entry e's tree (sorted to show every node) into f. */
static void put_tree(FILE *f, const struct pk_hist *h, const struct pk_hist_entry *e)
{
	struct pk_callchain *cc;

	assert_int_equal(pk_hist_chain(h, e, 0, &cc), 0);
	if (!cc) {
		fputs("no tree\n", f);
		return;
	}
	assert_int_equal(pk_callchain_sort(cc, PK_CALLCHAIN_GRAPH_ABS, 0, 0), 0);
	put_node(f, pk_callchain_root(cc), 0);
	pk_hist_chain_put(e, cc);
}

/* Entry e's tree as text. */
static char *tree_text(const struct pk_hist *h, const struct pk_hist_entry *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	put_tree(f, h, e);
	fclose(f);
	return text;
}

/* Every entry of h, its sums (its deepest chain among them) and, with
 * `trees`, its tree. */
static char *entries_text(struct pk_hist *h, bool trees)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);

		fprintf(f, "%s %s %s %" PRIu64 " %" PRIu64 " %" PRIu64 " depth %u\n", e->s.comm, e->s.dso,
			e->s.sym, e->period, e->period_acc, e->nr_samples, e->max_depth);
		if (trees)
			put_tree(f, h, e);
	}
	fclose(f);
	return text;
}

static char *text_of(struct pk_hist *h)
{
	return entries_text(h, true);
}

static void new_pair(struct pk_hist **h)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM };

	for (int i = 0; i < 2; i++) {
		assert_int_equal(pk_hist_new(keys, 3, &h[i]), 0);
		pk_hist_set_chain_order(h[i], PK_HIST_CHAIN_CALLER_FIRST);
	}
	assert_int_equal(pk_hist_defer_chains(h[1]), 0);
}

/* The same trees built sample by sample and deferred, before the sort (each
 * entry's tails found by looking through every chain) and after it (each
 * entry's own list); deferred, no entry holds a tree. */
/* The direct histogram's text is the deferred one's, and every entry
 * has a tree. */
static void same_text(struct pk_hist *const *h)
{
	char *direct = text_of(h[0]), *deferred = text_of(h[1]);

	assert_string_equal(deferred, direct);
	assert_null(strstr(direct, "no tree"));
	free(direct);
	free(deferred);
}

static void same_trees(void **state)
{
	struct pk_hist *h[2];

	(void)state;
	new_pair(h);
	add_samples(h, 2, 3000, 0x9e3779b97f4a7c15ull);
	assert_int_equal(pk_hist_nr(h[0]), pk_hist_nr(h[1]));
	for (size_t i = 0; i < pk_hist_nr(h[1]); i++)
		assert_null(pk_hist_get(h[1], i)->chain);
	same_text(h);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pk_hist_sort(h[i]), 0);
	same_text(h);
	for (int i = 0; i < 2; i++)
		pk_hist_free(h[i]);
}

/* Mappings of deleted files: the spilled arrays' temporary files. */
static int deleted_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, " (deleted)") != NULL;
	fclose(f);
	return n;
}

/* The same, the chains' arrays moved to temporary files at 4 KiB (their
 * pages let go at every read or write of a 64 KiB block): the trees do
 * not change, and the files go with the histogram. */
static void same_trees_spilled(void **state)
{
	struct pk_hist *h[2];
	int before = deleted_maps();

	(void)state;
	pk__spill_set_budget(4096);
	new_pair(h);
	add_samples(h, 2, 3000, 0x9e3779b97f4a7c15ull);
	assert_int_equal(deleted_maps(), before + 2);	/* frames and refs */
	for (int i = 0; i < 2; i++)
		assert_int_equal(pk_hist_sort(h[i]), 0);
	assert_int_equal(deleted_maps(), before + 2);	/* frames and uses */
	same_text(h);
	for (int i = 0; i < 2; i++)
		pk_hist_free(h[i]);
	assert_int_equal(deleted_maps(), before);
	pk__spill_set_budget(0);
}

/* A tree's chains summing below min_period: none, built or kept, before
 * the sort and after it; at the sum, the tree. */
static void check_min_period(const struct pk_hist *h)
{
	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);
		struct pk_callchain *cc, *below;
		uint64_t sum;

		assert_int_equal(pk_hist_chain(h, e, 0, &cc), 0);
		assert_non_null(cc);
		sum = pk_callchain_node_cumul(pk_callchain_root(cc));
		pk_hist_chain_put(e, cc);
		assert_int_equal(pk_hist_chain(h, e, sum + 1, &below), 0);
		assert_null(below);
		assert_int_equal(pk_hist_chain(h, e, sum, &cc), 0);
		assert_non_null(cc);
		assert_int_equal(pk_callchain_node_cumul(pk_callchain_root(cc)), sum);
		pk_hist_chain_put(e, cc);
	}
}

static void min_period(void **state)
{
	struct pk_hist *h[2];

	(void)state;
	new_pair(h);
	add_samples(h, 2, 400, 11);
	for (int i = 0; i < 2; i++) {
		check_min_period(h[i]);
		assert_int_equal(pk_hist_sort(h[i]), 0);
		check_min_period(h[i]);
		pk_hist_free(h[i]);
	}
}

/* A comm renamed (":12" -> "prog") merges entries and their trees: with
 * deferred chains the trees are made first and merged as perf merges them. */
static void same_trees_renamed(void **state)
{
	struct pk_hist *h[2];
	char *direct, *deferred;

	(void)state;
	new_pair(h);
	add_samples(h, 2, 1500, 0x2545f4914f6cdd1dull);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pk_hist_rename_comm(h[i], ":12", "prog"), 0);
		assert_int_equal(pk_hist_sort(h[i]), 0);
	}
	direct = text_of(h[0]);
	deferred = text_of(h[1]);
	assert_string_equal(deferred, direct);
	assert_null(strstr(direct, ":12"));
	free(direct);
	free(deferred);
	for (int i = 0; i < 2; i++)
		pk_hist_free(h[i]);
}

/* A deferred histogram of the test's keys, or NULL out of memory. */
static struct pk_hist *new_deferred(void)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM };
	struct pk_hist *h;

	assert_int_equal(pk_hist_new(keys, 3, &h), 0);
	pk_hist_set_chain_order(h, PK_HIST_CHAIN_CALLER_FIRST);
	assert_int_equal(pk_hist_defer_chains(h), 0);
	return h;
}

/* Out of memory at each allocation of an add and of a tree's build: an
 * error, never a wrong tree (ASan: nothing leaks); then all is whole. */
static void out_of_memory(void **state)
{
	struct pk_hist *ref, *h;
	char *want, *want0, *got;
	unsigned long n, nr_failed = 0;

	(void)state;
	for (n = 1;; n++) {	/* an add: the entries, the pool, the chain table */
		struct pk_hist_sample frames[3], s;
		struct pk_callchain_frame chain[3];
		int err;

		h = new_deferred();
		for (int k = 0; k < 3; k++)
			frame(k, 0, "prog", 10, &frames[k], &chain[k]);
		s = frames[2];
		s.period = 1;
		pk__alloc_fail_nth(n);
		err = pk_hist_add_chain(h, &s, frames, chain, 3, true);
		if (pk__alloc_fail_nth(0)) {	/* no failure left to make */
			assert_int_equal(err, 0);
			pk_hist_free(h);
			break;
		}
		assert_int_equal(err, -ENOMEM);
		pk_hist_free(h);
	}
	assert_true(n > 3);
	assert_int_equal(pk_hist_new((enum pk_hist_key[]){ PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM },
				     3, &ref), 0);
	pk_hist_set_chain_order(ref, PK_HIST_CHAIN_CALLER_FIRST);
	add_samples(&ref, 1, 200, 7);
	assert_int_equal(pk_hist_sort(ref), 0);
	want = text_of(ref);
	h = new_deferred();
	add_samples(&h, 1, 200, 7);
	assert_int_equal(pk_hist_sort(h), 0);
	want0 = tree_text(ref, pk_hist_get(ref, 0));
	for (n = 1;; n++) {	/* a build: -ENOMEM, or the tree whole (a memo's copy failed) */
		const struct pk_hist_entry *e = pk_hist_get(h, 0);
		struct pk_callchain *cc = (struct pk_callchain *)&n;
		bool failed;
		int err;

		pk__alloc_fail_nth(n);
		err = pk_hist_chain(h, e, 0, &cc);
		failed = !pk__alloc_fail_nth(0);
		if (err < 0) {
			assert_true(failed);
			assert_int_equal(err, -ENOMEM);
			assert_null(cc);
			nr_failed++;
			continue;
		}
		assert_int_equal(err, 0);
		pk_hist_chain_put(e, cc);
		got = tree_text(h, e);
		assert_string_equal(got, want0);
		free(got);
		if (!failed)
			break;
	}
	assert_true(nr_failed > 1);
	free(want0);
	got = text_of(h);
	assert_string_equal(got, want);
	free(want);
	free(got);
	pk_hist_free(ref);
	pk_hist_free(h);
}

/* Without trees (pk_hist_no_trees, after a deferral or before one) the
 * entries, their sums, their deepest chains and their order are those of a
 * histogram with trees, and no entry has a tree; chosen before samples
 * come. */
static void no_trees(void **state)
{
	struct pk_hist *h[4];
	char *with, *without;

	(void)state;
	new_pair(h);
	new_pair(h + 2);
	assert_int_equal(pk_hist_no_trees(h[1]), 0);	/* after pk_hist_defer_chains */
	assert_int_equal(pk_hist_no_trees(h[2]), 0);
	assert_int_equal(pk_hist_defer_chains(h[2]), 0);	/* no_trees outlasts it */
	add_samples(h, 3, 3000, 0x2545f4914f6cdd1dull);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pk_hist_sort(h[i]), 0);
	with = entries_text(h[0], false);
	for (int j = 1; j < 3; j++) {
		assert_int_equal(pk_hist_nr(h[j]), pk_hist_nr(h[0]));
		without = entries_text(h[j], false);
		assert_string_equal(without, with);
		free(without);
		for (size_t i = 0; i < pk_hist_nr(h[j]); i++) {
			struct pk_callchain *cc = (struct pk_callchain *)1;

			assert_int_equal(pk_hist_chain(h[j], pk_hist_get(h[j], i), 0, &cc), 0);
			assert_null(cc);
			assert_null(pk_hist_get(h[j], i)->chain);
		}
	}
	free(with);
	add_samples(h + 3, 1, 5, 3);
	assert_int_equal(pk_hist_no_trees(h[3]), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "trees given up after samples were added"));
	for (int i = 0; i < 4; i++)
		pk_hist_free(h[i]);
}

/* Deferral is chosen before samples come, and holds no branch counts. */
static void refusals(void **state)
{
	struct pk_hist *h[2];
	struct pk_hist_sample frames[2], s;
	struct pk_callchain_frame chain[2];
	struct pk_branch_frame br = { .branch = true };

	(void)state;
	new_pair(h);
	add_samples(h, 1, 5, 3);
	assert_int_equal(pk_hist_defer_chains(h[0]), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "deferred after samples were added"));
	for (int k = 0; k < 2; k++)
		frame(k, 0, "prog", 10, &frames[k], &chain[k]);
	chain[1].branch = &br;
	s = frames[1];
	s.period = 1;
	assert_int_equal(pk_hist_add_chain(h[1], &s, frames, chain, 2, true), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "a chain with branches, its trees deferred"));
	assert_int_equal(pk_hist_add_chain(h[0], &s, frames, chain, 2, true), 0);
	for (int i = 0; i < 2; i++)
		pk_hist_free(h[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_trees),
		cmocka_unit_test(same_trees_spilled),
		cmocka_unit_test(min_period),
		cmocka_unit_test(same_trees_renamed),
		cmocka_unit_test(out_of_memory),
		cmocka_unit_test(no_trees),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
