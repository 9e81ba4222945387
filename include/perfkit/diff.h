/* SPDX-License-Identifier: MIT */
/*
 * perfkit/diff.h - two or more histograms compared as perf diff compares them:
 * entries paired by their sort keys' names (a symbol by its name, not its
 * address, so two builds of one program pair up), perf's delta, ratio and
 * weighted difference for each pair, and perf diff's output order.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_DIFF_H
#define PERFKIT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "perfkit/error.h"
#include "perfkit/export.h"
#include "perfkit/hist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is computed for each pair (perf diff's -c). */
enum pk_diff_compute {
	PK_DIFF_DELTA_ABS,	/* the default: the change in percent, ordered by its size */
	PK_DIFF_DELTA,		/* the change in percent, largest growth first */
	PK_DIFF_RATIO,		/* new period / old period */
	PK_DIFF_WDIFF,		/* new period * w2 - old period * w1 */
	/* Nothing ordered by a computed value (perf diff -c cycles, whose
	 * column sorts nothing): the rows in the baseline period's order,
	 * then the keys', whatever the pairs' deltas; -o is not consulted.
	 * The pairs' delta, ratio and wdiff are still set. */
	PK_DIFF_BASELINE,
};

/* How to compare; a caller sets size to sizeof(struct pk_diff_opts). */
struct pk_diff_opts {
	size_t size;
	enum pk_diff_compute compute;
	int64_t w1, w2;		/* PK_DIFF_WDIFF's weights, both non-zero */
	/* perf's -o: N (1, the default) orders by file N's computed value
	 * first, 0 by the baseline; below the number of histograms. */
	unsigned int order;
	bool baseline_only;	/* perf's -b: only entries found in both */
	/* perf's --percentage relative: shares of what no filter hid (the
	 * samples and entries whose `filtered` is false), not of every sample. */
	bool relative;
};

/*
 * One row.  `base` is the old histogram's entry (NULL: only the new file
 * has it, perf's "dummy"), `pair` the new one's (NULL: only the old file
 * has it).  When one histogram has several entries of one key (a symbol
 * name in two places), they count as one: the periods and sample counts
 * are their sums, and `base`/`pair` the first of them.  `delta` is in
 * percentage points; `ratio` and `wdiff` are perf's (old period 0 counts
 * as 1 for the ratio).  The computed fields are set only with a pair.
 */
struct pk_diff_entry {
	const struct pk_hist_entry *base, *pair;
	uint64_t base_period, pair_period;
	uint64_t base_samples, pair_samples;
	double delta, ratio;
	int64_t wdiff;
};

/*
 * One later file's side of a row (pk_diff_pair_get): its entry (NULL: the
 * file has none of the row's key), period and sample sums, and the values
 * computed against the row's baseline, set only with an entry.
 */
struct pk_diff_pair {
	const struct pk_hist_entry *entry;
	uint64_t period, samples;
	double delta, ratio;
	int64_t wdiff;
};

struct pk_diff;

/*
 * pk_diff_new - compare histogram `base` (the old file) with `other` (the
 * new one), both made with the same keys and sorted or not, as perf diff
 * does with options `o` (NULL: the defaults).  The histograms must outlive
 * the result and stay unchanged.  Returns 0 with *out; -EINVAL for
 * histograms of different keys, a short o->size, an unknown compute, a
 * zero weight or an order above 1; -ENOMEM.
 */
PK_API int pk_diff_new(const struct pk_hist *base, const struct pk_hist *other,
		       const struct pk_diff_opts *o, struct pk_diff **out);

/*
 * pk_diff_new_files - compare hists[0] (the baseline) with each of
 * hists[1] .. hists[nr - 1], as perf diff compares three or more files:
 * one row per key any of them has, each later file's side of it from
 * pk_diff_pair_get, the rows ordered by file o->order's computed value,
 * the baseline, then each file's value in turn.  pk_diff_new is this with
 * two histograms; a row's pk_diff_entry holds hists[1]'s side.  Returns
 * 0 with *out; -EINVAL for fewer than two histograms, as pk_diff_new, or
 * an order not below nr; -ENOMEM.
 */
PK_API int pk_diff_new_files(const struct pk_hist *const *hists, size_t nr, const struct pk_diff_opts *o,
			     struct pk_diff **out);

/* pk_diff_nr_files - how many histograms d compares. */
PK_API size_t pk_diff_nr_files(const struct pk_diff *d);

/* pk_diff_pair_get - row e's side in file `file` (1 .. nr_files - 1);
 * NULL for another file.  e must be one of d's rows.  Owned by the diff. */
PK_API const struct pk_diff_pair *pk_diff_pair_get(const struct pk_diff *d, const struct pk_diff_entry *e,
						   size_t file);

/* pk_diff_key - the entry whose keys name row e: its base, else its first
 * later file's entry.  Never NULL for one of d's rows. */
PK_API const struct pk_hist_entry *pk_diff_key(const struct pk_diff *d, const struct pk_diff_entry *e);

/* pk_diff_free - free it.  NULL is a no-op. */
PK_API void pk_diff_free(struct pk_diff *d);

/* pk_diff_nr / pk_diff_get - the rows, in perf diff's order; pk_diff_get
 * returns NULL out of range.  Owned by the diff. */
PK_API size_t pk_diff_nr(const struct pk_diff *d);
PK_API const struct pk_diff_entry *pk_diff_get(const struct pk_diff *d, size_t idx);

/*
 * pk_diff_base_total / pk_diff_pair_total - the periods percentages are
 * taken of: the new file's every sample, and the old file's rows (every
 * sample but those of rows -b left out, as perf diff prints its Baseline
 * column).  The deltas were computed with the old file's every sample.
 * With `relative`, only what no filter hid: the new file's samples, the
 * old file's rows whose entry is not filtered.  A row is filtered (and
 * perf diff does not print it) when its entry, `base` or else `pair`, is.
 */
PK_API uint64_t pk_diff_base_total(const struct pk_diff *d);
PK_API uint64_t pk_diff_pair_total(const struct pk_diff *d);

/* pk_diff_file_total - pk_diff_base_total for file 0, else the total
 * file `file`'s percentages are taken of (0 out of range). */
PK_API uint64_t pk_diff_file_total(const struct pk_diff *d, size_t file);

/* pk_diff_base_percent - row e's Baseline percentage (0 without a base). */
PK_API double pk_diff_base_percent(const struct pk_diff *d, const struct pk_diff_entry *e);

/*
 * pk_diff_export - profile `old_prof` compared with `new_prof` (two
 * exporters, their formats not used) written to f: PK_EXPORT_FOLDED as
 * folded stacks with both weights, `comm;a;b;c OLD NEW` (each stack of
 * either, sorted; the lines FlameGraph's difffolded.pl writes), or
 * PK_EXPORT_FLAMEGRAPH as new_prof's interactive flame graph (its title and
 * unit) with each box's old total, coloured by the change of its share of
 * all samples: red grew, blue shrank, white unchanged; its details show
 * both totals and the change.  Returns 0; -EINVAL for another format;
 * -EIO when writing fails; -ENOMEM.
 */
PK_API int pk_diff_export(const struct pk_exporter *old_prof, const struct pk_exporter *new_prof,
			  enum pk_export_format format, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
