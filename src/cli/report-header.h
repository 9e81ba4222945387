/* SPDX-License-Identifier: MIT */
/*
 * report-header.h - perf's header block of a perf.data file (perf report
 * --header/--header-only/-I, perf script --header), shared by report and
 * script; and perf report --stats.
 */
#ifndef PK_CLI_REPORT_HEADER_H
#define PK_CLI_REPORT_HEADER_H

#include "cli.h"

#include <stdbool.h>

/*
 * report_header_print - perf's "# ========" block for the file `r` reads,
 * opened from `path` ("-" for standard input, whose modification time is
 * the "captured on" line): the header's offsets, one or more lines per
 * feature section in perf's order and words, the ones perf keeps for -I
 * expanded when `full` (else "# NAME info available, use -I to display"),
 * then the features the file lacks.  A pipe-mode stream has no offsets
 * and no missing features; perf prints its features after the block, as
 * they come, and so does this.  Returns 0, or CLI_EXIT_EVENT after a
 * message (from `cmd`, "report" or "script") when the file cannot be
 * stat'ed or a feature section does not decode.
 */
int report_header_print(FILE *f, struct pk_data_reader *r, const char *path, bool full,
			const char *cmd);

/*
 * report_stats - perf report --stats: read every record of `r` and print
 * "Aggregated stats:" (the records of each type perf 6.1 names, with
 * their share of the total), then per event with samples or lost samples
 * their counts.  Returns 0, or CLI_EXIT_EVENT after a message for a file
 * damaged in its data section (the counts so far are printed first).
 */
int report_stats(FILE *f, struct pk_data_reader *r);

#endif
