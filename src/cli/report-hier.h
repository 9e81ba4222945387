/* SPDX-License-Identifier: MIT */
/*
 * report-hier.h - perf's hierarchy filter marks for report --hierarchy
 * (report-hier-marks.c) and its entries' order (report-hier-keys.c),
 * used by report-hier.c.
 */
#ifndef PERFKIT_CLI_REPORT_HIER_H
#define PERFKIT_CLI_REPORT_HIER_H

#include <perfkit/hist.h>

#include <stddef.h>

/* The filter types perf's hierarchy tracks level by level. */
enum { HIER_F_THREAD = 1, HIER_F_DSO = 2, HIER_F_SYM = 4 };

/* Which types key k is of (perf's thread entry: comm and pid). */
unsigned hier_key_types(enum pk_hist_key k);

struct hier_marks;

/* Key k of two flat entries in perf's collapse order, and the filter
 * types that hide flat entry e: given by report-hier.c. */
typedef int (*hier_collapse_fn)(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b);
typedef unsigned (*hier_bits_fn)(const void *arg, const struct pk_hist_entry *e);

/*
 * hier_marks_new - perf's marks of the hierarchy made of leaves[0..n)
 * by keys[0..nk): the leaves taken in collapse order (lexicographic by
 * `collapse`), each entry made by the first leaf of its key prefix and
 * marked as perf's hist_entry__check_and_remove_filter does for each of
 * the `active` types (a level of the type: the leaf's own mark, an
 * unmarked one clearing its ancestors'; another level: the leaf's own
 * and the top's set, below the parent's as it stood).  NULL out of memory.
 */
struct hier_marks *hier_marks_new(const enum pk_hist_key *keys, size_t nk, const struct pk_hist_entry **leaves,
				  size_t n, unsigned active, hier_collapse_fn collapse, hier_bits_fn bits,
				  const void *arg);

/* hier_marks_maker - of these leaves (n > 0, all in the hierarchy), the
 * one perf made their entry from: the first in collapse order of those
 * with samples of their own (a group leader's own entries), else of all
 * (an entry only a member had: perf's dummy copy of the member's). */
const struct pk_hist_entry *hier_marks_maker(const struct hier_marks *m, const struct pk_hist_entry **leaves,
					     size_t n);

/* hier_marks_hidden - whether the level-`level` entry of these leaves
 * (n > 0) keeps a mark, which hides it. */
bool hier_marks_hidden(const struct hier_marks *m, size_t level, const struct pk_hist_entry **leaves, size_t n);

void hier_marks_free(struct hier_marks *m);

/* report-hier-keys.c: */

/* hier_key_cmp - key k of two flat entries in the flat table's order:
 * 0 equal, < 0 when a comes first. */
int hier_key_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* hier_collapse_cmp - key k of two flat entries in perf's collapse order
 * (its symbols: by object, then resolved ones by start, then addresses). */
int hier_collapse_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b);

/* hier_src_text - the text of a key perf makes lazily (srcline, srcfile,
 * trace) of entry e; NULL when it has none. */
const char *hier_src_text(enum pk_hist_key k, const struct pk_hist_entry *e);

#endif
