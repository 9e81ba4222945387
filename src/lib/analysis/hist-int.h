/* SPDX-License-Identifier: MIT */
/*
 * hist-int.h - what hist.c shows the rest of the analysis layer (diff.c).
 */
#ifndef PK_ANALYSIS_HIST_INT_H
#define PK_ANALYSIS_HIST_INT_H

#include "perfkit.h"

/* pk__hist_keys - h's sort keys, *nr of them, in the order they were given. */
const enum pk_hist_key *pk__hist_keys(const struct pk_hist *h, size_t *nr);

#endif
