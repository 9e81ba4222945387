/* SPDX-License-Identifier: MIT */
/*
 * diff-stream.h - the frames perf diff --stream builds of one sample
 * (diff-stream-chain.c), for the hot-stream tree of diff-stream.c.
 */
#ifndef PERFKIT_CLI_DIFF_STREAM_H
#define PERFKIT_CLI_DIFF_STREAM_H

#include "diff.h"

#include <stdbool.h>
#include <stdint.h>

#define STREAM_MAX_STACK 127		/* PERF_MAX_STACK_DEPTH, PERF_MAX_BRANCH_DEPTH */
/* the most frames one sample gives: two per branch, then the call chain's */
#define STREAM_MAX_FRAMES (3 * STREAM_MAX_STACK + 2)

/* One frame of a chain: a branch's target or source, or a call chain's address. */
struct stream_frame {
	const char *srcline;		/* interned; NULL where perf's addr2line finds none */
	const char *sym;		/* interned; NULL unresolved */
	const struct pk_dso *dso;	/* NULL where no map holds ip */
	size_t dso_rank;		/* where perf's struct dso would lie in memory: 0
					 * none, then by creation (see dso_rank) */
	uint64_t ip, sym_start;
	uint64_t branch_from;		/* a target's source (0: a source), as perf's cursor */
	uint64_t cycles;
	bool branch;			/* a branch stack's, with counts; not a call chain's */
};

/* Where a sample's frames are looked up. */
struct stream_src {
	struct pk_resolver *res;
	const struct diff_opts *o;	/* names interned in o->names */
	uint32_t pid;			/* the sample's process */
	struct pk_branch_history *hist;	/* scratch for a branch stack's frames */
};

/*
 * stream_entry_srcline - the srcline sort key of a sample's location loc
 * (dso its short name), perf's hist_entry__srcline: its source line, else
 * sym+offset, DSO[address] or ??:0.  0 with *out interned in c->o->names,
 * or -ENOMEM.
 */
int stream_entry_srcline(const struct stream_src *c, const struct pk_location *loc, const char *dso,
			 const char **out);

/*
 * stream_frames - the chain perf diff --stream gives sample s of event a
 * in process c->pid: its branch stack (targets and sources, loops removed)
 * then the call chain past the branches; or, for an LBR call stack, the
 * kernel part of the call chain then the stack's addresses.  Fills f
 * (room for STREAM_MAX_FRAMES) and *nr (0: no chain).  Returns 0 or -ENOMEM.
 */
int stream_frames(const struct stream_src *c, const struct perf_event_attr *a, const struct pk_sample *s,
		  struct stream_frame *f, size_t *nr);

#endif
