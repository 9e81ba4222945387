/* SPDX-License-Identifier: MIT */
/* report-branch.h - perf report's branch mode (report-branch.c). */
#ifndef PERFKIT_CLI_REPORT_BRANCH_H
#define PERFKIT_CLI_REPORT_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfkit/reader.h"
#include "perfkit/record.h"

#include "dso-names.h"
#include "report.h"

struct pk_maps;
struct pk_resolved_sample;
struct report_branch;

/* report_branch_wanted - whether report runs in perf's branch mode: -b,
 * not --no-branch-stack, or (neither given) the file has perf's
 * BRANCH_STACK feature and no user stacks, as perf 6.1 decides. */
bool report_branch_wanted(const struct report_opts *o, struct pk_data_reader *r);

/* report_branch_keys - once the file is open, the --sort and -F keys: in
 * branch mode checked by report-branch2.c, else a branch key (dso_from,
 * ...) is perf's "Invalid --sort key" and -F set up for the usual table
 * (report_fields_setup).  0, or CLI_EXIT_USAGE after a message for keys
 * perf refuses or perfkit's branch mode does not have, or for
 * --symbol-filter outside branch mode. */
int report_branch_keys(struct report_opts *o, struct pk_data_reader *r);

/* report_branch_sort_key - whether --sort's words name a branch key: the
 * usual table's parser leaves those to branch mode. */
bool report_branch_sort_key(const char *arg);

/* report_branch_setup - an empty branch histogram per event of r in *out;
 * perf's error (on stderr) and -EINVAL when the samples of a file (not a
 * pipe) carry no branch stack; -EINVAL for keys report_branch_keys
 * refuses; -ENOMEM.  The keys are
 * perf's (report-branch2.c): --sort's, -F's, else its default branch keys. */
int report_branch_setup(const struct report_opts *o, struct pk_data_reader *r, struct report_branch **out);

/* report_branch_free - free it.  NULL is a no-op. */
void report_branch_free(struct report_branch *b);

/* report_branch_add - each entry of sample smp's branch stack (event ev;
 * rs its resolved thread) as one branch of period 1, both ends resolved in
 * m (names interned in names), and counted in perf's branch statistics.
 * A sample without a branch stack adds nothing.  0, or -ENOMEM. */
int report_branch_add(struct report_branch *b, size_t ev, struct pk_maps *m, struct cli_names *names,
		      const struct pk_sample *smp, const struct pk_resolved_sample *rs);

/* report_branch_print - perf report --stdio's branch-mode output to f
 * (ev: the events, for their names).  1, or 0 when no event had a branch
 * (only the first comment line was printed), or -ENOMEM. */
int report_branch_print(FILE *f, const struct report_opts *o, struct report_branch *b,
			const struct report_event *ev, size_t nr_ev, uint64_t lost_samples);

#endif
