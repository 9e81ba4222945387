/* SPDX-License-Identifier: MIT */
/*
 * report-brhist.h - report --branch-history (report-brhist.c): each
 * sample's chain rebuilt from its branch stack and call chain as perf 6.1
 * builds it, with the branch each frame comes from for the tree's counts.
 */
#ifndef PERFKIT_CLI_REPORT_BRHIST_H
#define PERFKIT_CLI_REPORT_BRHIST_H

#include "report.h"

struct report_brhist;

/* After report_cg_setup: perf's settings for --branch-history (call
 * graphs by address, no branch mode, the branch counts printed for a
 * file with the BRANCH_STACK feature and no user stacks).
 * Always 0 (perf's own checks of -g apply as without it). */
int report_brhist_opts(struct report_opts *o, struct pk_data_reader *r);

/* A state for the run's samples (*out NULL without --branch-history).
 * 0 or -ENOMEM. */
int report_brhist_new(const struct report_opts *o, struct report_brhist **out);
void report_brhist_free(struct report_brhist *b);

/* Sample s's chain for --branch-history: *rs replaced by a resolved
 * sample whose frames are perf's (valid until the next call).  0 or
 * -ENOMEM. */
int report_brhist_chain(struct report_brhist *b, struct pk_resolver *res, const struct pk_sample *s,
			const struct pk_resolved_sample **rs);

/* The branch frame rs frame idx comes from (NULL: a call-chain frame or
 * no --branch-history). */
const struct pk_branch_frame *report_brhist_branch(const struct report_brhist *b, size_t idx);

/* Whether rs is a chain report_brhist_chain made (branches and call
 * chain whole: --max-stack is the caller's to apply), not the resolver's
 * (cut to it already). */
bool report_brhist_made(const struct report_brhist *b, const struct pk_resolved_sample *rs);

#endif
