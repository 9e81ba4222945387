/* SPDX-License-Identifier: MIT */
/*
 * report-brhist.c - perf report 6.1's --branch-history: its settings (call
 * graphs on, frames matched by address, no branch mode) and each sample's
 * chain as perf's thread__resolve_callchain_sample builds it with
 * branch_callstack: the branch stack's frames (pk_branch_history: targets
 * and sources, loops folded, in the graph's order), then the call chain
 * between perf's first_call and its shortened end, context markers
 * setting the mode.  Each branch frame carries its entry, which the
 * call-chain tree counts and report-callchain.c prints after the name.
 */
#include "report-brhist.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct report_brhist {
	bool caller;				/* the graph's order */
	struct pk_branch_history h;
	struct pk_frame *frames;		/* innermost first, as the resolver's */
	const struct pk_branch_frame **branch;	/* per frame */
	size_t cap;
	struct pk_resolved_sample rs;
};

int report_brhist_opts(struct report_opts *o, struct pk_data_reader *r)
{
	uint64_t type = 0;

	if (!o->branch_history)
		return 0;
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	o->branch_mode = -1;	/* perf: branch history is no branch mode */
	o->cg.key = PK_CALLCHAIN_KEY_ADDRESS;
	/* perf's sort order for it, when --sort names none (its ipc_null
	 * follows from "symbol": report_sort2_setup) */
	if (!o->sort_given) {
		int err = report_parse_sort(o, "srcline,symbol,dso");

		if (err)
			return err;
		o->sort_arg = "srcline,symbol,dso";
	}
	/* perf prints the counts for a file with the BRANCH_STACK feature and
	 * no user stacks; the branches join the chains either way. */
	o->cg.branch_history = pk_data_reader_has_feature(r, PK_DATA_FEAT_BRANCH_STACK) &&
			       !(type & PERF_SAMPLE_STACK_USER);
	return 0;
}

int report_brhist_new(const struct report_opts *o, struct report_brhist **out)
{
	*out = NULL;
	if (!o->branch_history)
		return 0;
	if (!(*out = calloc(1, sizeof(**out))))
		return -ENOMEM;
	(*out)->caller = o->cg.caller;
	return 0;
}

void report_brhist_free(struct report_brhist *b)
{
	if (!b)
		return;
	free(b->frames);
	free(b->branch);
	free(b);
}

static int reserve(struct report_brhist *b, size_t nr)
{
	struct pk_frame *f;
	const struct pk_branch_frame **br;

	if (nr <= b->cap)
		return 0;
	if (!(f = realloc(b->frames, nr * sizeof(*f))))
		return -ENOMEM;
	b->frames = f;
	if (!(br = realloc(b->branch, nr * sizeof(*br))))
		return -ENOMEM;
	b->branch = br;
	b->cap = nr;
	return 0;
}

/* An address where perf's add_callchain_ip looks: in `cpumode`, or with
 * none (a branch's ends) in user space, then the kernel's. */
static void locate(struct pk_resolver *res, uint32_t pid, uint64_t ip, uint16_t cpumode, struct pk_frame *f)
{
	struct pk_maps *m = pk_resolver_maps(res);

	*f = (struct pk_frame){ .ip = ip, .cpumode = cpumode ? cpumode : PERF_RECORD_MISC_USER };
	f->loc.size = sizeof(f->loc);
	if (pk_maps_resolve(m, pid, ip, f->cpumode, &f->loc) == 0)
		return;
	f->loc = (struct pk_location){ .size = sizeof(f->loc) };
	if (!cpumode && pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_KERNEL, &f->loc) == 0) {
		f->cpumode = PERF_RECORD_MISC_KERNEL;
		return;
	}
	f->loc = (struct pk_location){ .size = sizeof(f->loc) };
}

/* The call chain's part after the branches, in the graph's order: 0, or
 * 1 when an unknown context marker makes perf drop the chain. */
static int chain_part(struct report_brhist *b, struct pk_resolver *res, const struct pk_sample *s,
		      size_t *nr)
{
	uint16_t cpumode = PERF_RECORD_MISC_USER;
	size_t n = s->callchain.nr;

	for (size_t i = b->h.first_call; i < b->h.chain_end; i++) {
		uint64_t ip = s->callchain.ips[b->caller ? n - i - 1 : i];

		if (ip >= PK_CONTEXT_MAX) {
			if (!(cpumode = pk_callchain_context_mode(ip)))
				return 1;
			continue;
		}
		locate(res, s->pid, ip, cpumode, &b->frames[*nr]);
		b->branch[(*nr)++] = NULL;
	}
	return 0;
}

/* Frames [0, nr) in the graph's order turned innermost first, as the
 * report's chain code takes the resolver's frames. */
static void innermost_first(struct report_brhist *b, size_t nr)
{
	for (size_t i = 0, j = nr; i + 1 < j--; i++) {
		struct pk_frame f = b->frames[i];
		const struct pk_branch_frame *br = b->branch[i];

		b->frames[i] = b->frames[j];
		b->frames[j] = f;
		b->branch[i] = b->branch[j];
		b->branch[j] = br;
	}
}

int report_brhist_chain(struct report_brhist *b, struct pk_resolver *res, const struct pk_sample *s,
			const struct pk_resolved_sample **rs)
{
	bool chain = s->fields & PERF_SAMPLE_CALLCHAIN, branches = s->fields & PERF_SAMPLE_BRANCH_STACK;
	size_t nr_ips = chain ? s->callchain.nr : 0, nr = 0;
	int err;

	if (!b || !branches)
		return 0;	/* perf: the usual chain without a branch stack */
	if ((err = pk_branch_history(s->branch.entries, s->branch.nr, chain ? s->callchain.ips : NULL, nr_ips,
				     b->caller, PK_BRANCH_MAX_DEPTH, &b->h)) < 0)
		return err;
	if ((err = reserve(b, b->h.nr_frames + nr_ips + 1)) < 0)
		return err;
	for (size_t i = 0; i < b->h.nr_frames; i++) {
		locate(res, s->pid, b->h.frames[i].ip, 0, &b->frames[nr]);
		b->branch[nr++] = &b->h.frames[i];
	}
	if (chain_part(b, res, s, &nr) > 0)
		nr = 0;
	if (b->caller)
		innermost_first(b, nr);
	b->rs = **rs;
	b->rs.frames = b->frames;
	b->rs.nr_frames = nr;
	b->rs.lbr = false;
	*rs = &b->rs;
	return 0;
}

bool report_brhist_made(const struct report_brhist *b, const struct pk_resolved_sample *rs)
{
	return b && rs == &b->rs;
}

const struct pk_branch_frame *report_brhist_branch(const struct report_brhist *b, size_t idx)
{
	return b && b->rs.frames == b->frames && idx < b->rs.nr_frames ? b->branch[idx] : NULL;
}
