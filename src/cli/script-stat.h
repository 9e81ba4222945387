/* SPDX-License-Identifier: MIT */
/*
 * script-stat.h - perf script on a `perf stat record` file (script-stat.c):
 * the counts of every STAT_ROUND, one line per event, CPU and thread.
 */
#ifndef PK_CLI_SCRIPT_STAT_H
#define PK_CLI_SCRIPT_STAT_H

#include "cli.h"

struct script_stat;

/* script_stat_new - the state for reader `r`'s events.  Returns 0 or -ENOMEM. */
int script_stat_new(const struct pk_data_reader *r, struct script_stat **out);

/* script_stat_free - free it; NULL is a no-op. */
void script_stat_free(struct script_stat *st);

/*
 * script_stat_record - take `rec` when it is one of perf stat's records
 * (STAT_CONFIG, THREAD_MAP, CPU_MAP, STAT, STAT_ROUND); at a STAT_ROUND,
 * print to `f` every event's counts as perf script 6.1 prints them (the
 * column header before the first round; in the aggregation modes other
 * than perf's global one, each count less the one of the previous round
 * and scaled by enabled/running when the file's config says so).  A STAT
 * record of no known event, CPU or thread is left out with a warning on
 * stderr (perf stops there).  Returns 1 for a record it took, 0 for any
 * other, -ENOMEM.
 */
int script_stat_record(struct script_stat *st, const struct pk_data_reader *r,
		       const struct perf_event_header *rec, FILE *f);

#endif
