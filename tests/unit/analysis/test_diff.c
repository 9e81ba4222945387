/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c - two histograms compared as perf diff compares them:
 * symbols paired by name whatever their address or string pointer, one
 * file's entries of one name counted as one, entries of one side only
 * (perf's dummies and unpaired rows), the delta, ratio and wdiff, -b's
 * totals, perf diff's order for each computation and -o 0, and the
 * errors; PK_DIFF_BASELINE's ties (perf's -c cycles) in key order; three histograms, each later one's side of a row and -o N;
 * histograms keyed by name on one interner (pk_hist_set_by_name);
 * and two exporters' stacks as folded lines with both weights.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static const enum pk_hist_key keys[] = { PK_HIST_KEY_DSO, PK_HIST_KEY_SYM };

static void add(struct pk_hist *h, const char *dso, const char *sym, uint64_t start, uint64_t period)
{
	struct pk_hist_sample s = { .size = sizeof(s), .comm = "w", .pid = 1, .tid = 1, .dso = dso,
				    .sym = sym, .sym_start = start, .ip = start, .level = '.', .period = period };

	assert_int_equal(pk_hist_add(h, &s), 0);
}

/* Old: a 60, b 30, c 10.  New: a 20, b 60 (in two places), d 20.
 * Names are copies: pairing must compare the strings. */
static void two(struct pk_hist **old, struct pk_hist **new)
{
	static char a2[] = "a", b2[] = "b", w2[] = "w";

	assert_int_equal(pk_hist_new(keys, 2, old), 0);
	assert_int_equal(pk_hist_new(keys, 2, new), 0);
	add(*old, "w", "a", 0x100, 60);
	add(*old, "w", "b", 0x200, 30);
	add(*old, "w", "c", 0x300, 10);
	add(*new, w2, a2, 0x1100, 20);
	add(*new, w2, b2, 0x1200, 40);
	add(*new, w2, b2, 0x1800, 20);	/* another b: counts with the first */
	add(*new, w2, "d", 0x1900, 20);
}

static const struct pk_diff_entry *row(const struct pk_diff *d, size_t i, const char *sym)
{
	const struct pk_diff_entry *e = pk_diff_get(d, i);
	const struct pk_hist_entry *k;

	assert_non_null(e);
	k = e->base ? e->base : e->pair;
	assert_string_equal(k->s.sym, sym);
	return e;
}

static void delta_abs_pairs_by_name(void **state)
{
	struct pk_hist *o, *n;
	struct pk_diff *d;
	const struct pk_diff_entry *e;

	(void)state;
	two(&o, &n);
	assert_int_equal(pk_diff_new(o, n, NULL, &d), 0);
	assert_int_equal(pk_diff_nr(d), 4);
	/* |delta|: a -40, b +30, d +20 (no baseline), then c alone. */
	e = row(d, 0, "a");
	assert_true(e->base && e->pair);
	assert_true(e->delta > -40.0001 && e->delta < -39.9999);
	e = row(d, 1, "b");
	assert_int_equal(e->pair_period, 60);
	assert_int_equal(e->pair_samples, 2);
	assert_true(e->delta > 29.9999 && e->delta < 30.0001);
	e = row(d, 2, "d");
	assert_null(e->base);
	assert_true(pk_diff_base_percent(d, e) == 0.0);
	e = row(d, 3, "c");
	assert_null(e->pair);
	assert_int_equal(pk_diff_base_total(d), 100);
	assert_int_equal(pk_diff_pair_total(d), 100);
	assert_null(pk_diff_get(d, 4));
	pk_diff_free(d);
	pk_hist_free(o);
	pk_hist_free(n);
}

static void each_computation_orders(void **state)
{
	struct pk_diff_opts opts = { .size = sizeof(opts), .w1 = 1, .w2 = 3, .order = 1 };
	struct pk_hist *o, *n;
	struct pk_diff *d;

	(void)state;
	two(&o, &n);
	opts.compute = PK_DIFF_DELTA;	/* growth first: b +30, d +20, a -40 */
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	row(d, 0, "b"), row(d, 1, "d"), row(d, 2, "a"), row(d, 3, "c");
	pk_diff_free(d);
	opts.compute = PK_DIFF_RATIO;	/* b 2.0, a 0.33; d has no baseline: after them */
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	assert_true(row(d, 0, "b")->ratio == 2.0);
	row(d, 1, "a"), row(d, 2, "d"), row(d, 3, "c");
	pk_diff_free(d);
	opts.compute = PK_DIFF_WDIFF;	/* b 60*3-30 = 150, a 20*3-60 = 0 */
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	assert_int_equal(row(d, 0, "b")->wdiff, 150);
	assert_int_equal(row(d, 1, "a")->wdiff, 0);
	pk_diff_free(d);
	opts.compute = PK_DIFF_DELTA_ABS;
	opts.order = 0;	/* by the baseline: a 60, b 30, c 10, d none */
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	row(d, 0, "a"), row(d, 1, "b"), row(d, 2, "c"), row(d, 3, "d");
	pk_diff_free(d);
	pk_hist_free(o);
	pk_hist_free(n);
}

static void baseline_only_keeps_pairs(void **state)
{
	struct pk_diff_opts opts = { .size = sizeof(opts), .compute = PK_DIFF_DELTA_ABS, .order = 1,
				     .baseline_only = true };
	struct pk_hist *o, *n;
	struct pk_diff *d;

	(void)state;
	two(&o, &n);
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	assert_int_equal(pk_diff_nr(d), 2);
	/* The Baseline column takes the rows left (90); the delta took all 100. */
	assert_int_equal(pk_diff_base_total(d), 90);
	assert_true(pk_diff_base_percent(d, row(d, 0, "a")) > 66.66 &&
		    pk_diff_base_percent(d, row(d, 0, "a")) < 66.67);
	assert_true(row(d, 0, "a")->delta > -40.0001 && row(d, 0, "a")->delta < -39.9999);
	pk_diff_free(d);
	pk_hist_free(o);
	pk_hist_free(n);
}

static void errors(void **state)
{
	enum pk_hist_key other[] = { PK_HIST_KEY_COMM };
	struct pk_diff_opts opts = { .size = sizeof(opts), .compute = PK_DIFF_WDIFF, .w1 = 0, .w2 = 1 };
	struct pk_hist *o, *n, *c;
	struct pk_diff *d = NULL;

	(void)state;
	two(&o, &n);
	assert_int_equal(pk_hist_new(other, 1, &c), 0);
	assert_int_equal(pk_diff_new(o, c, NULL, &d), -EINVAL);
	assert_int_equal(pk_diff_new(o, n, &opts, &d), -EINVAL);	/* a zero weight */
	opts.compute = PK_DIFF_DELTA;
	opts.order = 2;
	assert_int_equal(pk_diff_new(o, n, &opts, &d), -EINVAL);
	opts.order = 0;
	opts.size = 4;
	assert_int_equal(pk_diff_new(o, n, &opts, &d), -EINVAL);
	assert_null(d);
	pk_diff_free(NULL);
	pk_hist_free(o);
	pk_hist_free(n);
	pk_hist_free(c);
}

/* perf diff -c cycles: its column sorts nothing, so rows of one baseline
 * period are in key order (a, x, y), whatever their deltas (y +50, x -20,
 * a unpaired) and whatever -o says; -o 0's order puts y, x, a. */
static void baseline_ties_in_key_order(void **state)
{
	struct pk_diff_opts opts = { .size = sizeof(opts), .compute = PK_DIFF_BASELINE, .w1 = 1, .w2 = 1,
				     .order = 1 };
	struct pk_hist *o, *n;
	struct pk_diff *d;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &o), 0);
	assert_int_equal(pk_hist_new(keys, 2, &n), 0);
	add(o, "w", "y", 0x300, 30);
	add(o, "w", "x", 0x200, 30);
	add(o, "w", "a", 0x100, 30);
	add(o, "w", "c", 0x400, 10);
	add(n, "w", "x", 0x200, 10);
	add(n, "w", "y", 0x300, 80);
	add(n, "w", "d", 0x500, 10);
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	assert_int_equal(pk_diff_nr(d), 5);
	row(d, 0, "a"), row(d, 1, "x"), row(d, 2, "y"), row(d, 3, "c"), row(d, 4, "d");
	assert_true(row(d, 2, "y")->delta > 49.9999 && row(d, 2, "y")->delta < 50.0001);
	pk_diff_free(d);
	opts.compute = PK_DIFF_DELTA_ABS;
	opts.order = 0;
	assert_int_equal(pk_diff_new(o, n, &opts, &d), 0);
	row(d, 0, "y"), row(d, 1, "x"), row(d, 2, "a");
	pk_diff_free(d);
	opts.compute = (enum pk_diff_compute)(PK_DIFF_BASELINE + 1);
	assert_int_equal(pk_diff_new(o, n, &opts, &d), -EINVAL);
	pk_hist_free(o);
	pk_hist_free(n);
}

/* Two exporters: folded lines of both, sorted, with 0 where a side has none. */
static int add_stack(struct pk_exporter *ex, const char *leaf, uint64_t weight)
{
	struct pk_export_frame f[] = { { .name = leaf, .dso = "/bin/w" }, { .name = "main", .dso = "/bin/w" } };
	struct pk_export_sample s = { .size = sizeof(s), .weight = weight, .pid = 1, .tid = 1, .comm = "w",
				      .cpu = -1, .frames = f, .nr_frames = 2 };

	return pk_exporter_add(ex, &s);
}

static void export_folded_both_weights(void **state)
{
	struct pk_export_event ev = { "cpu-clock", "nanoseconds" };
	struct pk_export_opts eo = { .size = sizeof(eo), .format = PK_EXPORT_FOLDED, .events = &ev, .nr_events = 1 };
	struct pk_exporter *o, *n;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(pk_exporter_new(&eo, &o), 0);
	assert_int_equal(pk_exporter_new(&eo, &n), 0);
	assert_int_equal(add_stack(o, "a", 10), 0);
	assert_int_equal(add_stack(o, "c", 5), 0);
	assert_int_equal(add_stack(o, "a", 10), 0);
	assert_int_equal(add_stack(n, "b", 7), 0);
	assert_int_equal(add_stack(n, "a", 3), 0);
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(pk_diff_export(o, n, PK_EXPORT_FOLDED, f), 0);
	fclose(f);
	assert_string_equal(buf, "w;main;a 20 3\nw;main;b 0 7\nw;main;c 5 0\n");
	free(buf);
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(pk_diff_export(o, n, PK_EXPORT_PPROF, f), -EINVAL);
	fclose(f);
	free(buf);
	pk_exporter_free(o);
	pk_exporter_free(n);
}

/* A third file: c 50, d 25, e 25.  Every key of any file has a row; each
 * later file's side has its own delta; -o N orders by file N's column. */
static void three_files(void **state)
{
	struct pk_hist *h[3];
	struct pk_diff_opts o = { .size = sizeof(o), .compute = PK_DIFF_DELTA_ABS, .w1 = 1, .w2 = 1, .order = 1 };
	const char *by1[] = { "a", "b", "d", "c", "e" }, *by2[] = { "c", "d", "e", "a", "b" };
	const struct pk_hist *const *hc = (const struct pk_hist *const *)h;
	struct pk_diff *d;
	const struct pk_diff_pair *p;

	(void)state;
	two(&h[0], &h[1]);
	assert_int_equal(pk_hist_new(keys, 2, &h[2]), 0);
	add(h[2], "w", "c", 0x300, 50);
	add(h[2], "w", "d", 0x400, 25);
	add(h[2], "w", "e", 0x500, 25);
	assert_int_equal(pk_diff_new_files(hc, 3, &o, &d), 0);
	assert_int_equal(pk_diff_nr_files(d), 3);
	assert_int_equal(pk_diff_nr(d), 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(pk_diff_key(d, pk_diff_get(d, i))->s.sym, by1[i]);
	p = pk_diff_pair_get(d, pk_diff_get(d, 3), 2);	/* c: 10% then 50% */
	assert_non_null(p->entry);
	assert_true(p->delta > 39.9999 && p->delta < 40.0001);
	assert_null(pk_diff_get(d, 3)->pair);		/* not in file 1 */
	assert_null(pk_diff_pair_get(d, pk_diff_get(d, 0), 2)->entry);
	assert_null(pk_diff_pair_get(d, pk_diff_get(d, 0), 3));
	assert_int_equal(pk_diff_file_total(d, 2), 100);
	pk_diff_free(d);

	o.order = 2;
	assert_int_equal(pk_diff_new_files(hc, 3, &o, &d), 0);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(pk_diff_key(d, pk_diff_get(d, i))->s.sym, by2[i]);
	pk_diff_free(d);

	o.baseline_only = true;		/* a, b, c: old keys found in a later file */
	assert_int_equal(pk_diff_new_files(hc, 3, &o, &d), 0);
	assert_int_equal(pk_diff_nr(d), 3);
	pk_diff_free(d);

	o.order = 3;
	assert_int_equal(pk_diff_new_files(hc, 3, &o, &d), -EINVAL);
	o.order = 0;
	assert_int_equal(pk_diff_new_files(hc, 1, &o, &d), -EINVAL);
	for (size_t i = 0; i < 3; i++)
		pk_hist_free(h[i]);
}

/* Histograms keyed by name on one interner: one entry per name in each
 * (a symbol's start and an unresolved address do not split it), the
 * copies shared across histograms, and the same rows as by names. */
static void by_name_on_one_interner(void **state)
{
	struct pk_intern *t;
	struct pk_hist *o, *n, *po, *pn;
	struct pk_diff *d, *ref;
	char a2[] = "a", w2[] = "w";
	const char *c1, *c2;

	(void)state;
	assert_int_equal(pk_intern_new(&t), 0);
	assert_int_equal(pk_intern_str(t, "x", &c1), 0);
	assert_int_equal(pk_intern_str(t, a2, &c2), 0);
	assert_ptr_not_equal(c2, a2);
	assert_int_equal(pk_intern_str(t, "a", &c1), 0);
	assert_ptr_equal(c1, c2);
	assert_int_equal(pk_intern_str(t, NULL, &c1), 0);
	assert_null(c1);
	assert_int_equal(pk_intern_nr(t), 2);

	two(&po, &pn);
	assert_int_equal(pk_hist_new(keys, 2, &o), 0);
	assert_int_equal(pk_hist_new(keys, 2, &n), 0);
	assert_int_equal(pk_hist_set_by_name(o, t), 0);
	assert_int_equal(pk_hist_set_by_name(n, t), 0);
	add(o, "w", "a", 0x100, 60);
	add(o, "w", "b", 0x200, 30);
	add(o, "w", "c", 0x300, 10);
	add(o, "w", NULL, 0x500, 5);
	add(o, "w", NULL, 0x400, 5);	/* unresolved: one entry, of the lowest address */
	add(n, w2, a2, 0x1100, 20);
	add(n, w2, "b", 0x1200, 40);
	add(n, w2, "b", 0x1800, 20);	/* another start: the same entry */
	add(n, w2, "d", 0x1900, 20);
	assert_int_equal(pk_hist_nr(o), 4);
	assert_int_equal(pk_hist_nr(n), 3);
	assert_int_equal(pk_hist_get(n, 1)->nr_samples, 2);
	assert_int_equal(pk_hist_get(o, 3)->nr_samples, 2);
	assert_int_equal(pk_hist_get(o, 3)->s.ip, 0x400);
	assert_ptr_equal(pk_hist_get(o, 0)->s.sym, pk_hist_get(n, 0)->s.sym);
	assert_ptr_equal(pk_hist_get(o, 0)->s.dso, pk_hist_get(n, 0)->s.dso);
	assert_int_equal(pk_hist_set_by_name(o, t), -EINVAL);	/* after samples */

	assert_int_equal(pk_diff_new(o, n, NULL, &d), 0);
	add(po, "w", NULL, 0x500, 5);
	add(po, "w", NULL, 0x400, 5);
	assert_int_equal(pk_diff_new(po, pn, NULL, &ref), 0);
	assert_int_equal(pk_diff_nr(d), 5);
	assert_int_equal(pk_diff_nr(d), pk_diff_nr(ref));
	for (size_t i = 0; i < pk_diff_nr(d); i++) {
		const struct pk_diff_entry *e = pk_diff_get(d, i), *r = pk_diff_get(ref, i);
		const char *s1 = pk_diff_key(d, e)->s.sym, *s2 = pk_diff_key(ref, r)->s.sym;

		assert_true(s1 == s2 || (s1 && s2 && !strcmp(s1, s2)));
		assert_int_equal(pk_diff_key(d, e)->s.ip, pk_diff_key(ref, r)->s.ip);
		assert_int_equal(e->base_period, r->base_period);
		assert_int_equal(e->pair_period, r->pair_period);
		assert_int_equal(e->pair_samples, r->pair_samples);
	}
	pk_diff_free(d);
	pk_diff_free(ref);
	pk_hist_free(o);
	pk_hist_free(n);
	pk_hist_free(po);
	pk_hist_free(pn);
	pk_intern_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delta_abs_pairs_by_name),
		cmocka_unit_test(each_computation_orders),
		cmocka_unit_test(baseline_only_keeps_pairs),
		cmocka_unit_test(errors),
		cmocka_unit_test(baseline_ties_in_key_order),
		cmocka_unit_test(three_files),
		cmocka_unit_test(export_folded_both_weights),
		cmocka_unit_test(by_name_on_one_interner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
