/* SPDX-License-Identifier: MIT */
/*
 * diff-stream-chain.c - the chain perf diff 6.1's --stream builds of one
 * sample (perf's thread__resolve_callchain_sample with branch_callstack,
 * callee order): the branch stack's entries (each one's target then its
 * source, loops removed) and, when the sample has a call chain, the call
 * chain after the entries the branches overlap and short of as many
 * entries at its end as branches were kept (perf's own arithmetic); for an
 * LBR call stack (branch_sample_type CALL_STACK) the call chain's kernel
 * part, then the first entry's target and every entry's source.  Each
 * frame carries the source line perf's callchain_srcline gives it, its
 * symbol and object, and what the tree counts of a branch.
 */
#include "diff-stream.h"
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* The source line perf's callchain_srcline gives a frame: file:line, or
 * FILE:0 where addr2line names a function but no line; none where it
 * finds nothing or no map holds the address. */
static int frame_srcline(const struct stream_src *c, const struct pk_location *loc, const char **out)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	char buf[4096];
	int err;

	*out = NULL;
	if (!loc->dso)
		return 0;
	err = pk_maps_srcline(pk_resolver_maps(c->res), loc, &sl);
	if (err == 0) {
		const char *slash = strrchr(sl.file_addr2line, '/');

		snprintf(buf, sizeof(buf), "%s:%u", slash ? slash + 1 : sl.file_addr2line, sl.line);
	} else if (err == -ENODATA) {	/* addr2line's "FILE:?" or "??:?" */
		const char *file = sl.file_addr2line ? sl.file_addr2line : "??", *slash = strrchr(file, '/');

		snprintf(buf, sizeof(buf), "%s:0", slash ? slash + 1 : file);
	} else {
		return err == -ENOMEM ? err : 0;	/* addr2line found nothing */
	}
	return pk_intern_str(c->o->names, buf, out);
}

int stream_entry_srcline(const struct stream_src *c, const struct pk_location *loc, const char *dso,
			 const char **out)
{
	char buf[4096];
	int err = frame_srcline(c, loc, out);

	if (err < 0 || *out)
		return err;
	if (!loc->dso)	/* perf's SRCLINE_UNKNOWN */
		return pk_intern_str(c->o->names, "??:0", out);
	if (loc->sym)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, loc->sym, loc->symoff);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso ? dso : "", loc->addr);
	return pk_intern_str(c->o->names, buf, out);
}

/* perf's objects compare by their addresses in memory: none first, then
 * (as a heap that grows up would place them) in the order they were made,
 * which perfkit keeps.  perf's heap has holes: the same file read first or
 * second has its kernel below or above its other objects (seen with perf
 * 6.1), so where that decides a tie of hits, perf's order is not the
 * file's to give and may differ. */
static size_t dso_rank(const struct stream_src *c, const struct pk_dso *d)
{
	struct pk_maps *m = pk_resolver_maps(c->res);
	size_t n = pk_maps_nr_dsos(m);

	if (!d)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (pk_maps_dso(m, i) == d)
			return i + 1;
	return n + 1;
}

/* One frame at ip: a branch's end (cpumode 0: perf's
 * thread__find_cpumode_addr_location, user space then the kernel) or a
 * call chain's address in cpumode's space. */
static int make_frame(const struct stream_src *c, uint16_t cpumode, uint64_t ip, struct stream_frame *f)
{
	struct pk_maps *m = pk_resolver_maps(c->res);
	uint32_t pid = c->pid;
	struct pk_location loc = { .size = sizeof(loc) };
	bool found;
	int err;

	if (cpumode)
		found = pk_maps_resolve(m, pid, ip, cpumode, &loc) == 0;
	else
		found = pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_USER, &loc) == 0 ||
			(loc = (struct pk_location){ .size = sizeof(loc) },
			 pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_KERNEL, &loc) == 0);
	if (!found)
		loc = (struct pk_location){ .size = sizeof(loc) };
	f->ip = ip;
	f->dso = loc.dso;
	f->dso_rank = dso_rank(c, loc.dso);
	f->sym = NULL;
	f->sym_start = loc.sym_start;
	if (loc.sym && (err = pk_intern_str(c->o->names, loc.sym, &f->sym)) < 0)
		return err;
	return frame_srcline(c, &loc, &f->srcline);
}

static int branch_frame(const struct stream_src *c, uint16_t cpumode, uint64_t ip, uint64_t from, uint64_t cycles,
			struct stream_frame *f)
{
	f->branch = true;
	f->branch_from = from;
	f->cycles = cycles;
	return make_frame(c, cpumode, ip, f);
}

/* A call chain's address in *cpumode's space (perf's add_callchain_ip
 * with a cpumode): a context marker switches the space and adds nothing
 * (1: an unknown one, after which perf drops the whole chain). */
static int chain_frame(const struct stream_src *c, uint16_t *cpumode, uint64_t ip, struct stream_frame *f,
		       size_t *nr)
{
	int err;

	if (ip >= (uint64_t)PERF_CONTEXT_MAX)
		return (*cpumode = pk_callchain_context_mode(ip)) ? 0 : 1;
	f[*nr] = (struct stream_frame){ 0 };
	if ((err = make_frame(c, *cpumode, ip, &f[*nr])) < 0)
		return err;
	(*nr)++;
	return 0;
}

/* perf's resolve_lbr_callchain_sample, callee order, without stitching:
 * 1 when the chain has a user part (the stack took its place), 0 when
 * perf goes on with the branch-stack chain (*nr 0 again). */
static int lbr_frames(const struct stream_src *c, const struct pk_sample *s, struct stream_frame *f, size_t *nr)
{
	const struct perf_branch_entry *be = s->branch.entries;
	size_t chain_nr = s->callchain.nr < STREAM_MAX_STACK ? s->callchain.nr : STREAM_MAX_STACK, u = 0;
	uint16_t cpumode = PERF_RECORD_MISC_USER;
	int err;

	while (u < chain_nr && s->callchain.ips[u] != (uint64_t)PERF_CONTEXT_USER)
		u++;
	if (u == chain_nr)
		return 0;
	for (size_t i = 0; i <= u; i++)
		if ((err = chain_frame(c, &cpumode, s->callchain.ips[i], f, nr)) != 0) {
			*nr = 0;	/* perf resets the chain and goes on as without LBR */
			return err < 0 ? err : 0;
		}
	if (!s->branch.nr)	/* perf reads an entry past the stack here */
		return 1;
	if ((err = branch_frame(c, PERF_RECORD_MISC_USER, be[0].to, be[0].from, be[0].cycles, &f[(*nr)++])) < 0)
		return err;
	for (size_t i = 0; i < s->branch.nr && i < STREAM_MAX_STACK; i++)
		if ((err = branch_frame(c, PERF_RECORD_MISC_USER, be[i].from, be[0].from, be[i].cycles,
					&f[(*nr)++])) < 0)
			return err;
	return 1;
}

/* The branch stack's part (pk_branch_history in callee order): each kept
 * entry's target then its source, resolved as branch ends, and in
 * c->hist where the call chain goes on and ends. */
static int branch_frames(const struct stream_src *c, const struct pk_sample *s, size_t chain_nr,
			 struct stream_frame *f, size_t *nr)
{
	const struct pk_branch_history *h = c->hist;
	int err;

	if ((err = pk_branch_history(s->branch.entries, s->branch.nr, s->callchain.ips, chain_nr, false,
				     STREAM_MAX_STACK, c->hist)) < 0)
		return err;
	for (size_t i = 0; i < h->nr_frames; i++) {
		const struct pk_branch_frame *b = &h->frames[i];

		if ((err = branch_frame(c, 0, b->ip, b->from, b->entry.cycles, &f[(*nr)++])) < 0)
			return err;
	}
	return 0;
}

int stream_frames(const struct stream_src *c, const struct perf_event_attr *a, const struct pk_sample *s,
		  struct stream_frame *f, size_t *nr)
{
	size_t first = 0, chain_nr = s->fields & PERF_SAMPLE_CALLCHAIN ? s->callchain.nr : 0;
	uint16_t cpumode = PERF_RECORD_MISC_USER;
	int err;

	*nr = 0;
	if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) && chain_nr &&
	    (s->fields & PERF_SAMPLE_BRANCH_STACK) && (err = lbr_frames(c, s, f, nr)) != 0)
		return err < 0 ? err : 0;
	if (s->fields & PERF_SAMPLE_BRANCH_STACK) {	/* over 127 entries: the call chain alone */
		if ((err = branch_frames(c, s, chain_nr, f, nr)) < 0)
			return err;
		first = c->hist->first_call;
		chain_nr = c->hist->chain_end;
	}
	for (size_t i = first, entries = 0; i < chain_nr && entries < STREAM_MAX_STACK; i++) {
		if (s->callchain.ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			entries++;
		if ((err = chain_frame(c, &cpumode, s->callchain.ips[i], f, nr)) != 0) {
			*nr = 0;	/* an unknown context: perf drops the chain */
			return err < 0 ? err : 0;
		}
	}
	return 0;
}
