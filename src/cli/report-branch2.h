/* SPDX-License-Identifier: MIT */
/* report-branch2.h - branch mode's keys and perf's three histogram trees
 * (report-branch2.c), for report-branch.c. */
#ifndef PERFKIT_CLI_REPORT_BRANCH2_H
#define PERFKIT_CLI_REPORT_BRANCH2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfkit/record.h"

/* perf's default --sort order in branch mode (default_branch_sort_order). */
#define REPORT_SORT_BRANCH "comm,dso_from,symbol_from,symbol_to,cycles"

/* One end of a branch, resolved as perf's branch_info holds it. */
struct br_end {
	const char *dso;	/* perf's short name; NULL: no map ([unknown]) */
	const char *sym;	/* NULL: unresolved, shown by addr */
	uint64_t start;		/* the symbol's start: two symbols of one name differ */
	uint64_t raw;		/* the branch address (perf's sort compares it) */
	uint64_t addr;		/* perf's al_addr: what an unresolved end shows */
	uint64_t symoff;	/* al_addr - the symbol's start (addr_from/to) */
	char level;		/* perf's al_level */
	bool kernel;		/* in the kernel's maps: -v shows the address as sampled */
	char origin;		/* -v: perf's dso__symtab_origin letter */
	const char *srcline;	/* srcline_from/to keys: perf's map__srcline text */
};

/* A histogram entry: a branch, as the first one that made it. */
struct br_entry {
	const char *comm;
	uint32_t tid;
	int32_t cpu;		/* the sample's; -1 when not recorded */
	char level;		/* the sample's level (perf's he->level) */
	const char *parent;	/* -p's parent of the sample; NULL: [other] */
	struct br_end from, to;
	struct perf_branch_entry first;
	uint64_t period;
	int32_t link[3][3];	/* per tree: left, right, parent (-1: none) */
	bool red[3];
	bool dead;		/* merged into another in the collapse tree */
	bool filtered;		/* the first sample's --comms/--dsos/... state: not shown */
};

/* One event's table: the entries and perf's three trees' roots. */
struct br_table {
	struct br_entry *e;
	size_t nr, cap;
	int32_t root[3];
	uint64_t total;
};

#define BR_MAX_KEYS 24

/* The sort list and the columns, as perf's hpp lists hold them. */
struct br_keys {
	int sort[BR_MAX_KEYS];	/* enum br_key items, in perf's sort order */
	size_t nr_sort;
	int col[BR_MAX_KEYS];	/* the columns, in order */
	size_t nr_col;
	bool has_dso;		/* perf's hists__has(dso): "symbol" compares no DSO */
	bool need_collapse;	/* a key with perf's se_collapse (comm) */
	bool srclines;		/* srcline_from or srcline_to is a key: ends need their srcline */
	bool elide[BR_MAX_KEYS];	/* a column a one-name filter stands for */
	bool dsos_given;	/* --dsos: no unresolved DSO widens its column */
	const char *symbol_filter;	/* --symbol-filter: perf's hists filter (collapse only) */
	double percent_limit;	/* --percent-limit: rows under it not printed */
	bool color;		/* --stdio-color: percentages coloured as perf */
	bool verbose;		/* -v: symbols' addresses and origins, long DSO names */
	const char *sep;	/* -t: perf's field separator (NULL: columns) */
	const char *flag_out[3];	/* perf's static texts of mispredict, in_tx, abort */
};

/*
 * br_keys_setup - the sort list and columns of branch mode from --sort
 * `sort` and -F `fields` (either NULL), as perf 6.1 builds them: Overhead
 * first unless -F names the columns, perf's default branch keys without
 * --sort; the parent key after them with BR_KEYS_PARENT (perf's -p);
 * Samples and Period columns after Overhead with BR_KEYS_SAMPLES (-n) and
 * BR_KEYS_PERIOD (--show-total-period) unless -F is strict.  0, or
 * CLI_EXIT_USAGE after perf's (or perfkit's) message for a key perf
 * refuses or perfkit does not have in branch mode.
 */
enum { BR_KEYS_PARENT = 1, BR_KEYS_SAMPLES = 2, BR_KEYS_PERIOD = 4 };
int br_keys_setup(struct br_keys *k, const char *sort, const char *fields, unsigned int flags);

/* br_sort_names - whether a word of arg (NULL: none) names perf's key
 * `name` ("parent"). */
bool br_sort_names(const char *arg, const char *name);

/* br_sort_has_branch_key - whether --sort or -F words name a key of perf's
 * branch table (dso_from, ...): only branch mode takes those. */
bool br_sort_has_branch_key(const char *arg);

/* br_keys_refuse - perf's error (CLI_EXIT_USAGE) for a branch key among
 * the words of arg outside branch mode (what: "--sort key"); else 0. */
int br_keys_refuse(const char *arg, const char *what);

/* br_keys_elide - perf's elision: the comm, dso and symbol columns whose
 * filter names one value (comm, dso, sym; NULL: not so) are not shown,
 * unless no column would be left; perf's "# comm: NAME" line for each to
 * f (NULL: none), in column order. */
void br_keys_elide(struct br_keys *k, FILE *f, const char *comm, const char *dso, const char *sym);

/* br_table_init - an empty table. */
void br_table_init(struct br_table *t);

/*
 * br_table_add - add branch e (period 1) to t as perf's hists__add_entry
 * does: merged into the entry perf's sort-list comparison finds equal,
 * else a new node of its first tree.  *at: the entry that holds it.  0,
 * or -ENOMEM.
 */
int br_table_add(struct br_table *t, const struct br_keys *k, const struct br_entry *e,
		 const struct br_entry **at);

/* br_table_print - perf's collapse and output sort of t, then its rows
 * (header block as report-branch.c gives it) to f, but for filtered ones
 * (which count in the total).  quiet: rows only; note: what follows the
 * event's name in its "# Samples" line (perf's time slices).  0, or
 * -ENOMEM (-t's cells need memory), the rows printed so far left. */
int br_table_print(FILE *f, struct br_table *t, struct br_keys *k, bool quiet, const char *event,
		    const char *note);

#endif
