/* SPDX-License-Identifier: MIT */
/*
 * report-dump.h - perf report -D / perf script -D: every record of a
 * perf.data file as perf 6.1 dumps it (report-dump.c).
 */
#ifndef PK_CLI_REPORT_DUMP_H
#define PK_CLI_REPORT_DUMP_H

#include <stdio.h>

#include "cli.h"

/*
 * report_dump - print to `f` every record `r` delivers, in the order perf
 * report -D prints them (time order, each FINISHED_ROUND before the records
 * it releases): its file offset in `path` (the name as the user gave it),
 * size and type, the raw bytes in perf's hex dump, then the decoded line
 * (the sample's thread and DSO from a resolver fed with the records so
 * far); then perf's "Aggregated stats" block and each event's sample
 * count.  `o` NULL is perf report's -D, else see struct report_dump_opts.
 * Returns 0, or a negative errno with pk_last_error set (the records
 * before the damage are printed), or the hook's negative return.
 */
/* What perf script -D does differently: no header comment and no stats,
 * its own THREAD_MAP and CPU_MAP handlers (no ": unhandled!"), and its
 * lines for each record after the dump's (the hook, given each record
 * once its dump is printed; a negative return stops the dump). */
struct report_dump_opts {
	bool script;
	int (*hook)(void *ctx, const struct perf_event_header *h);
	void *ctx;
};

int report_dump(FILE *f, struct pk_data_reader *r, const char *path, const struct report_dump_opts *o);

/* report_dump_run - `cmd` -D: report_dump of `r` (read from `path`) to
 * stdout, then the skipped AUX area records' warning; frees r.  Returns
 * the command's exit status. */
int report_dump_run(const char *cmd, const char *path, struct pk_data_reader *r);

/* report_warn_skipped - "Warning: N AUXTRACE records skipped" and the
 * like on `f` for the AUX area records `r` skipped so far (nothing when
 * there were none). */
void report_warn_skipped(FILE *f, const struct pk_data_reader *r);

#endif
