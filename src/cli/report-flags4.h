/* SPDX-License-Identifier: MIT */
/*
 * report-flags4.h - the last of perf report 6.1's flags (report-flags4.c):
 * -w/--column-widths, --pretty, --group-sort-idx, --socket-filter,
 * --no-demangle and --full-source-path.
 */
#ifndef PK_CLI_REPORT_FLAGS4_H
#define PK_CLI_REPORT_FLAGS4_H

#include "cli.h"

#include <stdio.h>

/* The option ids of these flags (after report-flags3.h's). */
enum {
	REPORT_OPT_COLUMN_WIDTHS = 'w',
	REPORT_OPT_PRETTY = 0x400, REPORT_OPT_GROUP_SORT_IDX, REPORT_OPT_SOCKET_FILTER,
	REPORT_OPT_NO_DEMANGLE, REPORT_OPT_FULL_SOURCE_PATH,
};

#define REPORT_FLAGS4_MAX_WIDTHS 32

/* What these flags set. */
struct report_flags4 {
	int widths[REPORT_FLAGS4_MAX_WIDTHS];	/* -w: each column's width, in perf's column order */
	size_t nr_widths;		/* ... how many were given (0: none, the widths perf finds) */
	bool raw;			/* --pretty raw: -T's table in perf's raw style */
	int group_sort_idx;		/* --group-sort-idx: the member to sort a group by (0: none) */
	bool socket_set;		/* --socket-filter given, */
	int socket;			/* ... its socket */
	bool no_demangle;		/* --no-demangle: C++ names as the file spells them */
	bool full_path;			/* --full-source-path: srcline keys with the whole path */
};

/* Their rows of report's option table (cmd-report.c). */
#define REPORT_FLAGS4_OPTIONS \
	{ "column-widths", 'w', CLI_ARG_REQUIRED, REPORT_OPT_COLUMN_WIDTHS, "W1,W2,...", \
	  "each column this wide, in the table's order (0: as wide as its widest entry); a key's " \
	  "entries and header are cut to it" }, \
	{ "pretty", 0, CLI_ARG_REQUIRED, REPORT_OPT_PRETTY, "STYLE", \
	  "-T's table: normal (a column per event) or raw (a PID TID Name Raw Count row per thread " \
	  "and event, as perf prints it)" }, \
	{ "group-sort-idx", 0, CLI_ARG_REQUIRED, REPORT_OPT_GROUP_SORT_IDX, "N", \
	  "with groups shown, sort the rows by member N's column (0 the leader; a file without " \
	  "groups is refused)" }, \
	{ "socket-filter", 0, CLI_ARG_REQUIRED, REPORT_OPT_SOCKET_FILTER, "N", \
	  "only samples of processor socket N (perf 6.1 reads no socket of a recorded file: " \
	  "no rows for any N from 0)" }, \
	{ "no-demangle", 0, CLI_ARG_NONE, REPORT_OPT_NO_DEMANGLE, NULL, \
	  "C++ symbols as the file spells them (_Z...)" }, \
	{ "full-source-path", 0, CLI_ARG_NONE, REPORT_OPT_FULL_SOURCE_PATH, NULL, \
	  "the srcline and srcfile keys with the source file's whole path" }

struct report_opts;
struct report_event;
struct report_thread_counts;
struct pk_hist_entry;

/* report_flags4_option - option `id` with `arg` into o: these flags', or
 * else report_flags3_option's.  0, or an exit status after perf's message. */
int report_flags4_option(struct report_opts *o, int id, const char *arg);

/* report_flags4_setup - once file r is open: perf's refusal of
 * --group-sort-idx on a file without groups (CLI_EXIT_USAGE after its
 * message), 0 otherwise. */
struct pk_data_reader;
int report_flags4_setup(const struct report_opts *o, struct pk_data_reader *r);

/* report_flags4_socket_out - whether --socket-filter leaves a sample out
 * (perf's entries keep socket -1 when it reads a file: every one then,
 * when perf applies the filter: with the comm key or --hierarchy). */
bool report_flags4_socket_out(const struct report_opts *o);

/* report_flags4_socket_line - --socket-filter's "# Processor Socket: N"
 * header line, when given with N >= 0. */
void report_flags4_socket_line(FILE *f, const struct report_opts *o);

/*
 * report_flags4_order - with --group-sort-idx and a group shown (leader
 * ev, nr_members columns), ev's entries in perf's order then: member N's
 * period first, the other members', the leader's, then the order they
 * had; NULL when the order is the histogram's (the caller frees it).
 * *nomem set when out of memory.
 */
const struct pk_hist_entry **report_flags4_order(const struct report_opts *o, const struct report_event *ev,
						 uint32_t nr_members, bool *nomem);

/* report_flags4_width - -w's width for column `i` (in perf's order), 0
 * when none was given for it. */
int report_flags4_width(const struct report_opts *o, size_t i);

/* report_flags4_threads_raw - -T's table in --pretty raw: perf's header
 * line, then each thread's count of each event with no line break
 * between them, as perf 6.1 prints it. */
void report_flags4_threads_raw(FILE *f, const struct report_thread_counts *tc, const struct report_event *ev);

#endif
