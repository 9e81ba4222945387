/* SPDX-License-Identifier: MIT */
/*
 * resolve.c - the resolver shared by report, script and the exporters: it
 * follows a recording's side-band records into its thread table, memory
 * maps and unwinder, and turns a sample into its comm, its location and
 * its call chain, which it builds as perf 6.1's thread__resolve_callchain
 * does in callee order (the kernel's chain with its context markers, its
 * user part rebuilt from the branch stack for --call-graph lbr samples,
 * then the user stack unwound for --call-graph dwarf samples).
 */
#include "perfkit.h"
#include "chain-memo.h"
#include "resolve-procs.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* perf's PERF_MAX_STACK_DEPTH: its --max-stack default for perf script. */
#define DEFAULT_MAX_STACK 127

/* Recently resolved addresses, direct-mapped: a recording's samples
 * repeat their addresses, and a hit skips the map, DSO and symbol look-ups
 * (about a sixth of report's CPU).  An entry is good while `gen` is the
 * resolver's: every side-band record may change the maps, so each one
 * starts a new generation.  The slots hold entries' numbers, and the
 * entries are made one after another as slots are first used: zeroing,
 * or writing at random, all 1024 entries of 136 bytes was a page fault
 * for each of their 34 pages, most of which a recording never needs. */
#define LOC_CACHE_SIZE 1024

struct loc_slot {
	uint64_t ip;
	uint32_t pid;
	uint16_t cpumode;
	uint32_t gen;			/* 0: empty */
	struct pk_location loc;
};

struct pk_resolver {
	struct pk_threads *threads;
	struct pk_maps *maps;
	struct pk_unwinder *unwinder;
	char *buildid_dir;
	unsigned int max_stack;
	struct pk__procs procs;		/* the unwinder's side of the records (resolve-procs.c) */
	struct pk_frame *frames;
	size_t cap_frames;
	uint64_t *ips;			/* the unwinder's output, max_stack of them */
	size_t cap_ips;
	bool no_inline;			/* pk_resolver_set_inline(false) */
	bool no_symbols;		/* pk_resolver_set_symbols(false) */
	bool no_chains;			/* pk_resolver_set_chains(false) */
	bool caller_order;		/* pk_resolver_set_caller_order(true) */
	bool dropped;			/* chain_part dropped the chain in caller order:
					 * perf's unwound frames, added before, go too */
	bool lbr;			/* the chain being built is an LBR call stack's */
	bool unsure;			/* it may resolve otherwise next time (out of memory) */
	uint16_t *loc_index;		/* LOC_CACHE_SIZE: the entry's number + 1, 0 none */
	struct loc_slot *locs;		/* the entries, nr_locs of cap_locs made */
	size_t nr_locs, cap_locs;
	uint32_t gen;			/* the live generation of locs, never 0 */
	/* Recently resolved call chains (chain-memo.h), keyed by (pid, the
	 * raw PERF_SAMPLE_CALLCHAIN entries, the unwound user stack's
	 * addresses): the samples of a hot workload repeat a few chains, and
	 * a hit hands out the frames resolved before (with their inlined
	 * frames) instead of locating and expanding each address again.  LBR
	 * call stacks are not kept.  Forgotten with the locations. */
	struct pk__chain_memo *chains;
};

/* What the maps or the options say now may differ from what the caches
 * hold. */
static void forget_locations(struct pk_resolver *res)
{
	pk__chain_memo_forget(res->chains);
	if (++res->gen == 0) {	/* wrapped: no slot may look current */
		for (size_t i = 0; i < res->nr_locs; i++)
			res->locs[i].gen = 0;
		res->gen = 1;
	}
}

/* Whether `type` may change what an address resolves to: the records the
 * thread table, the maps and the unwinder follow (pk_threads_process,
 * pk_maps_process, pk__procs_follow).  A record type any of them starts to
 * follow must be added here.  The others (FINISHED_ROUND, one per round,
 * THROTTLE, LOST, SWITCH, ...) keep the caches. */
static bool changes_maps(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_KSYMBOL:
		return true;
	default:
		return false;
	}
}

/* ---- construction ----------------------------------------------------------- */

/* The DSO build-ids the file lists, so mismatching files are refused. */
static int take_build_ids(struct pk_resolver *res, struct pk_data_reader *r)
{
	const struct pk_feature_build_ids *ids;
	struct pk_feature *f;
	int err = pk_data_reader_decode(r, PK_DATA_FEAT_BUILD_ID, &f);

	if (err == -ENOENT)
		return 0;
	if (err < 0)
		return err;
	ids = pk_feature_build_ids(f);
	for (uint32_t i = 0; ids && i < ids->nr && err >= 0; i++) {
		const struct pk_feature_build_id *b = &ids->ids[i];

		if (b->filename && b->size > 0 && b->size <= 20)
			err = pk_maps_set_build_id(res->maps, b->filename, b->id, b->size);
	}
	pk_feature_free(f);
	return err < 0 ? err : 0;
}

/* perf's idle thread: pid 0, tid 0, "swapper" (perf_session__register_idle_thread). */
static int register_idle(struct pk_resolver *res)
{
	struct pk_record idle = { .size = sizeof(idle), .type = PERF_RECORD_COMM };

	idle.comm = (struct pk_rec_comm){ .pid = 0, .tid = 0, .comm = "swapper" };
	return pk_threads_process(res->threads, &idle);
}

int pk_resolver_new(struct pk_data_reader *r, struct pk_resolver **out)
{
	struct pk_resolver *res = calloc(1, sizeof(*res));
	int err = -ENOMEM;

	*out = NULL;
	if (!res)
		return pk__error_nomem("pk_resolver_new");
	res->max_stack = DEFAULT_MAX_STACK;
	res->gen = 1;
	if (!(res->loc_index = calloc(LOC_CACHE_SIZE, sizeof(*res->loc_index))) ||
	    pk__chain_memo_new(&res->chains) < 0) {
		free(res->loc_index);
		free(res);
		return pk__error_nomem("pk_resolver_new");
	}
	if ((err = pk_threads_new(&res->threads)) < 0 || (err = pk_maps_new(&res->maps)) < 0 ||
	    (err = pk_unwinder_new(&res->unwinder)) < 0 || (err = register_idle(res)) < 0 ||
	    (r && (err = take_build_ids(res, r)) < 0)) {
		pk_resolver_free(res);
		return err;
	}
	res->procs = (struct pk__procs){ .maps = res->maps, .unwinder = res->unwinder };
	*out = res;
	return 0;
}

void pk_resolver_free(struct pk_resolver *res)
{
	if (!res)
		return;
	pk__procs_free(&res->procs);
	free(res->frames);
	free(res->locs);
	free(res->loc_index);
	pk__chain_memo_free(res->chains);
	free(res->ips);
	free(res->buildid_dir);
	pk_unwinder_free(res->unwinder);
	pk_maps_free(res->maps);
	pk_threads_free(res->threads);
	free(res);
}

/* pk_maps' lookup hook: the build-id cache's file for the DSO's id. */
static int cache_lookup(void *arg, const struct pk_dso *dso, char *path, size_t len)
{
	const struct pk_resolver *res = arg;
	int rc;

	if (!dso->build_id_size)
		return -ENOENT;
	rc = pk_buildid_cache_lookup(res->buildid_dir, dso->build_id, dso->build_id_size, path, len);
	return rc < 0 ? rc : 0;
}

int pk_resolver_set_buildid_dir(struct pk_resolver *res, const char *dir)
{
	char *copy = NULL;

	if (dir && !(copy = strdup(dir)))
		return pk__error_nomem("pk_resolver_set_buildid_dir(%s)", dir);
	/* the maps' own cache too: what the hook does not look for (another
	 * kernel's kallsyms, a rebuilt file's copy) is found there */
	if (pk_maps_set_buildid_cache(res->maps, copy) < 0) {
		free(copy);
		return -ENOMEM;
	}
	free(res->buildid_dir);
	res->buildid_dir = copy;
	pk_maps_set_lookup(res->maps, copy ? cache_lookup : NULL, copy ? res : NULL);
	forget_locations(res);
	return 0;
}

int pk_resolver_set_symfs(struct pk_resolver *res, const char *dir)
{
	char *cache;
	int err = pk_maps_set_symfs(res->maps, dir);

	if (err < 0 || !dir || !*dir || !pk__maps_symfs(res->maps))
		return err;
	if (asprintf(&cache, "%s/.debug", dir) < 0)
		return pk__error_nomem("pk_resolver_set_symfs(%s)", dir);
	err = pk_resolver_set_buildid_dir(res, cache);
	free(cache);
	return err;
}

void pk_resolver_set_max_stack(struct pk_resolver *res, unsigned int max)
{
	res->max_stack = max ? max : 1;
	forget_locations(res);	/* memoised chains were cut at the old depth */
}

struct pk_maps *pk_resolver_maps(struct pk_resolver *res)
{
	return res->maps;
}

struct pk_threads *pk_resolver_threads(struct pk_resolver *res)
{
	return res->threads;
}

/* ---- side-band records -------------------------------------------------------- */

int pk_resolver_process(struct pk_resolver *res, const struct pk_record *rec)
{
	int err;

	if (changes_maps(rec->type))
		forget_locations(res);
	if ((err = pk_threads_process(res->threads, rec)) < 0 ||
	    (err = pk_maps_process(res->maps, rec)) < 0)
		return err;
	return pk__procs_follow(&res->procs, rec);
}

/* ---- samples ------------------------------------------------------------------ */

/* A new entry for the cache's slot k, or NULL out of memory (then the
 * address is resolved and not kept). */
static struct loc_slot *new_loc(struct pk_resolver *res, size_t k)
{
	if (res->nr_locs == res->cap_locs) {
		size_t cap = res->cap_locs ? 2 * res->cap_locs : 32;
		struct loc_slot *n = realloc(res->locs, cap * sizeof(*n));

		if (!n)
			return NULL;
		res->locs = n;
		res->cap_locs = cap;
	}
	res->loc_index[k] = (uint16_t)++res->nr_locs;	/* at most LOC_CACHE_SIZE */
	return &res->locs[res->nr_locs - 1];
}

/* Where `ip` is for `cpumode` in process `pid`. */
static void locate(struct pk_resolver *res, uint32_t pid, uint64_t ip, uint16_t cpumode,
		   struct pk_location *loc)
{
	uint64_t h = (ip ^ (ip >> 13) ^ ((uint64_t)pid * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
	size_t k = (h >> 40) & (LOC_CACHE_SIZE - 1);
	struct loc_slot *e = res->loc_index[k] ? &res->locs[res->loc_index[k] - 1] : NULL;

	if (e && e->gen == res->gen && e->ip == ip && e->pid == pid && e->cpumode == cpumode) {
		*loc = e->loc;
		return;
	}
	*loc = (struct pk_location){ .size = sizeof(*loc) };
	if (res->no_symbols)
		pk_maps_find(res->maps, pid, ip, cpumode, loc);
	else
		pk_maps_resolve(res->maps, pid, ip, cpumode, loc);
	if (e || (e = new_loc(res, k)))
		*e = (struct loc_slot){ .ip = ip, .pid = pid, .cpumode = cpumode, .gen = res->gen, .loc = *loc };
}

static int push_frame(struct pk_resolver *res, size_t *nr, uint32_t pid, uint64_t ip, uint16_t cpumode)
{
	struct pk_frame *f;

	if (*nr == res->cap_frames) {
		size_t cap = res->cap_frames ? 2 * res->cap_frames : 64;

		if (!(f = realloc(res->frames, cap * sizeof(*f))))
			return pk__error_nomem("pk_resolver_resolve(%zu frames)", cap);
		res->frames = f;
		res->cap_frames = cap;
	}
	f = &res->frames[(*nr)++];
	*f = (struct pk_frame){ .ip = ip, .cpumode = cpumode };
	locate(res, pid, ip, cpumode, &f->loc);
	return 0;
}

/* Room for `more` frames past nr. */
static int reserve_frames(struct pk_resolver *res, size_t nr, size_t more)
{
	struct pk_frame *f;
	size_t cap = res->cap_frames ? res->cap_frames : 64;

	while (cap < nr + more)
		cap *= 2;
	if (cap == res->cap_frames)
		return 0;
	if (!(f = realloc(res->frames, cap * sizeof(*f))))
		return pk__error_nomem("pk_resolver_resolve(%zu frames)", cap);
	res->frames = f;
	res->cap_frames = cap;
	return 0;
}

/*
 * The unwound frame at res->frames[*nr - 1] as perf's append_inlines
 * gives it: one frame per function addr2line -i lists at its address,
 * innermost first, a function whose name is not the symbol's marked
 * inlined (perf compares the names, so a DWARF name that differs from the
 * ELF symbol's, such as an alias, is an "(inlined)" frame too).
 */
static int expand_inlines(struct pk_resolver *res, size_t *nr)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	struct pk_frame base = res->frames[*nr - 1];
	int err;

	if (res->no_inline || !base.loc.sym)
		return 0;
	if ((err = pk_maps_srcline(res->maps, &base.loc, &sl)) == -ENOMEM)
		res->unsure = true;	/* not expanded this time only: not to be memoised */
	if (err < 0 || !sl.nr_frames)
		return 0;
	if ((err = reserve_frames(res, *nr, sl.nr_frames)) < 0)
		return err;
	*nr -= 1;
	for (size_t i = 0; i < sl.nr_frames; i++) {
		struct pk_frame *f = &res->frames[(*nr)++];
		const char *name = sl.frames[i].func ? sl.frames[i].func : "??";

		*f = base;
		f->inl = &sl.frames[i];
		if (strcmp(name, base.loc.sym)) {
			f->inlined = true;
			f->loc.sym = name;
		}
	}
	return 0;
}

/* Whether the marker perf's find_prev_cpumode finds before entry `ent`
 * (the last one before it, if any) is one it takes. */
static bool prev_marker_ok(const uint64_t *ips, uint64_t ent)
{
	while (ent-- > 0)
		if (ips[ent] >= PERF_CONTEXT_MAX)
			return pk_callchain_context_mode(ips[ent]) != 0;
	return true;
}

/*
 * Where perf's caller-order walk of the chain's first `end` entries stops:
 * it walks from the outermost entry in, up to max_stack addresses, the
 * innermost of them at *lo (end: none).  Returns false when the walk
 * meets a marker it cannot take (perf drops the chain as corrupt): it
 * reads the last marker first, then at each marker it walks the one
 * before it (find_prev_cpumode), and no other.
 */
static bool caller_walk(const struct pk_resolver *res, const struct pk_sample *s, uint64_t end, uint64_t *lo)
{
	const uint64_t *ips = s->callchain.ips;
	unsigned int taken = 0;

	*lo = end;
	if (!prev_marker_ok(ips, end))
		return false;
	for (uint64_t j = end; taken < res->max_stack && j > 0; j--) {
		if (ips[j - 1] < PERF_CONTEXT_MAX) {
			taken++;
			*lo = j - 1;
		} else if (!prev_marker_ok(ips, j - 1)) {
			return false;
		}
	}
	return true;
}

/*
 * PERF_SAMPLE_CALLCHAIN as perf's thread__resolve_callchain_sample walks
 * it, its first `end` entries: the mode starts as user, kernel/user/
 * hypervisor markers switch it, any other marker discards the chain (perf
 * takes it as corrupt), and at most max_stack addresses are taken: the
 * innermost in callee order, the outermost in caller order (perf walks the
 * chain from its end then).  Frames are given innermost first either way.
 */
static int chain_part(struct pk_resolver *res, const struct pk_sample *s, uint64_t end, size_t *nr)
{
	uint16_t mode = PERF_RECORD_MISC_USER;
	unsigned int taken = 0;
	uint64_t lo = 0;
	int err;

	res->dropped = false;
	if (res->caller_order && !caller_walk(res, s, end, &lo)) {
		*nr = 0;
		res->dropped = true;
		return 0;
	}
	for (uint64_t i = 0; i < end && taken < res->max_stack; i++) {
		uint64_t ip = s->callchain.ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			/* caller order: a marker the walk never read discards nothing */
			if (!(mode = pk_callchain_context_mode(ip)) && !res->caller_order) {
				*nr = 0;
				return 0;
			}
		} else if (i >= lo) {
			taken++;
			if ((err = push_frame(res, nr, s->pid, ip, mode)) < 0)
				return err;
		}
	}
	return 0;
}

/*
 * The kernel part (entries before the user marker at `u`) of an LBR
 * chain in perf 6.1's caller order: lbr_callchain_add_kernel_ip walks it
 * backwards from the user marker, so each address resolves in the mode of
 * the marker after it (the kernel's addresses in user mode, which finds
 * none of them).  Frames are still given innermost first.
 */
static int chain_part_backwards(struct pk_resolver *res, const struct pk_sample *s, uint64_t u,
				size_t *nr)
{
	uint16_t mode = 0;
	int err;

	for (uint64_t i = 0; i < u; i++) {
		uint64_t ip = s->callchain.ips[i], j = i;

		if (ip >= PERF_CONTEXT_MAX) {
			mode = 0;
			continue;
		}
		while (!mode && ++j <= u)
			if (s->callchain.ips[j] >= PERF_CONTEXT_MAX)
				mode = pk_callchain_context_mode(s->callchain.ips[j]);
		if (!mode) {
			*nr = 0;
			return 0;
		}
		if ((err = push_frame(res, nr, s->pid, ip, mode)) < 0)
			return err;
	}
	return 0;
}

/*
 * The chain of a sample of an LBR call stack (branch_sample_type
 * CALL_STACK with a branch stack) as perf's resolve_lbr_callchain_sample
 * builds it in callee order: the call chain up to its user marker (the
 * kernel part), then, in user mode, the first entry's target (where the
 * innermost recorded call went) and every entry's source (the call sites,
 * innermost first).  Returns 1 when built, 0 when the first max_stack
 * entries of the call chain have no user marker (perf then walks the
 * chain as any other).  perf 6.1 adds the first entry's target even for an
 * empty branch stack, reading past the record; an empty stack adds
 * nothing here, as in perf's caller order.
 */
static int lbr_frames(struct pk_resolver *res, const struct pk_sample *s, size_t *nr)
{
	const struct perf_branch_entry *e = s->branch.entries;
	uint64_t end = s->callchain.nr < res->max_stack ? s->callchain.nr : res->max_stack, u = 0;
	int err;

	while (u < end && s->callchain.ips[u] != PERF_CONTEXT_USER)
		u++;
	if (u == end)
		return 0;
	err = res->caller_order ? chain_part_backwards(res, s, u, nr) : chain_part(res, s, u, nr);
	if (err < 0)
		return err;
	if (s->branch.nr && (err = push_frame(res, nr, s->pid, e[0].to, PERF_RECORD_MISC_USER)) < 0)
		return err;
	for (uint64_t i = 0; i < s->branch.nr; i++)
		if ((err = push_frame(res, nr, s->pid, e[i].from, PERF_RECORD_MISC_USER)) < 0)
			return err;
	return 1;
}

/* The PERF_SAMPLE_CALLCHAIN part of a sample's chain, or its LBR call
 * stack's (perf's evsel__has_branch_callstack). */
static int chain_frames(struct pk_resolver *res, const struct pk_sample *s, size_t *nr)
{
	int err;

	if (s->branch.call_stack && (s->fields & PERF_SAMPLE_BRANCH_STACK) &&
	    (s->fields & PERF_SAMPLE_CALLCHAIN)) {
		if ((err = lbr_frames(res, s, nr)) != 0) {
			res->lbr = err > 0;
			return err < 0 ? err : 0;
		}
	}
	return chain_part(res, s, s->callchain.nr, nr);
}

/* Whether the sample has a user stack to unwind (perf's
 * thread__resolve_callchain_unwind: only with registers and a stack; the
 * size perf checks is the dyn_size, 0 when the kernel copied none). */
static bool has_user_stack(const struct pk_sample *s)
{
	return (s->fields & PERF_SAMPLE_REGS_USER) && (s->fields & PERF_SAMPLE_STACK_USER) &&
	       s->regs_user.nr && s->stack.dyn_size;
}

/* Whether the sample's chain may be an LBR call stack, which the chain
 * memo does not keep (chain_frames decides whether it is one). */
static bool lbr_stack(const struct pk_sample *s)
{
	return s->branch.call_stack && (s->fields & PERF_SAMPLE_BRANCH_STACK);
}

bool pk_resolver_chain_key(const struct pk_sample *s, uint64_t *hash)
{
	struct pk__chain_key k;

	if (!s || !(s->fields & PERF_SAMPLE_CALLCHAIN) || !s->callchain.nr || lbr_stack(s) ||
	    has_user_stack(s))
		return false;
	k = (struct pk__chain_key){ .pid = s->pid, .chain = s->callchain.ips, .nr_chain = s->callchain.nr };
	*hash = pk__chain_memo_hash(&k);
	return true;
}

/* The unwinder's addresses for the user stack of a --call-graph dwarf
 * sample, in res->ips, *n of them (0 for a sample with no stack to
 * unwind, or without IP or SP among its registers). */
static int unwind_ips(struct pk_resolver *res, const struct pk_sample *s, size_t *n)
{
	unsigned int max = res->max_stack;	/* the innermost frames in either order, as perf's */
	int err;

	*n = 0;
	if (!has_user_stack(s))
		return 0;
	if (res->cap_ips < max) {
		uint64_t *ips = realloc(res->ips, max * sizeof(*ips));

		if (!ips)
			return pk__error_nomem("pk_resolver_resolve(unwind %u)", max);
		res->ips = ips;
		res->cap_ips = max;
	}
	err = pk_unwinder_unwind(res->unwinder, s->pid, s->tid, s->regs_user.regs, s->regs_user.mask,
				 s->stack.data, s->stack.dyn_size, res->ips, max, n);
	if (err < 0)
		*n = 0;
	return err == -EINVAL ? 0 : err;	/* -EINVAL: nothing to unwind */
}

/* The unwound addresses res->ips[0, n) as frames after the *nr of
 * res->frames: resolved in user mode, each expanded into its inlined
 * functions. */
static int push_unwound(struct pk_resolver *res, uint32_t pid, size_t n, size_t *nr)
{
	int err;

	for (size_t i = 0; i < n; i++) {
		if ((err = push_frame(res, nr, pid, res->ips[i], PERF_RECORD_MISC_USER)) < 0)
			return err;
		res->frames[*nr - 1].unwound = true;
		if ((err = expand_inlines(res, nr)) < 0)
			return err;
	}
	return 0;
}

/*
 * The frames of a sample whose chain is no LBR call stack: its
 * PERF_SAMPLE_CALLCHAIN part, then the `n` unwound addresses in res->ips.
 * The memo's when it holds the same (pid, chain, unwound addresses) in
 * this generation, else resolved and kept under a new chain id (0: not
 * kept, out of memory or no frames).  The unwound addresses are the key,
 * not the stack they came from: the stacks of one call path differ in
 * their locals, and still unwind alike.
 */
static int memo_frames(struct pk_resolver *res, const struct pk_sample *s, size_t n,
		       struct pk_resolved_sample *out)
{
	struct pk__chain_key k = { .pid = s->pid, .chain = s->callchain.ips, .nr_chain = s->callchain.nr,
				   .unwound = res->ips, .nr_unwound = n };
	size_t nr = 0;
	int err;

	out->frames = res->frames;
	out->nr_frames = 0;
	res->unsure = false;
	if (!k.nr_chain && !n)
		return 0;	/* no call chain */
	k.hash = pk__chain_memo_hash(&k);
	if (pk__chain_memo_get(res->chains, &k, &out->frames, &out->nr_frames, &out->chain_id))
		return 0;
	if ((err = chain_part(res, s, k.nr_chain, &nr)) < 0 ||
	    (!res->dropped && (err = push_unwound(res, s->pid, n, &nr)) < 0))
		return err;
	out->frames = res->frames;
	out->nr_frames = nr;
	out->chain_id = res->unsure ? 0 : pk__chain_memo_put(res->chains, &k, res->frames, nr);
	return 0;
}

void pk_resolver_set_inline(struct pk_resolver *res, bool on)
{
	res->no_inline = !on;
	forget_locations(res);	/* memoised unwound chains were expanded as before */
}

void pk_resolver_set_caller_order(struct pk_resolver *res, bool on)
{
	res->caller_order = on;
	forget_locations(res);	/* memoised chains were cut to max_stack as before */
}

void pk_resolver_set_symbols(struct pk_resolver *res, bool on)
{
	res->no_symbols = !on;
	forget_locations(res);
}

void pk_resolver_set_chains(struct pk_resolver *res, bool on)
{
	res->no_chains = !on;
}

int pk_resolver_resolve(struct pk_resolver *res, const struct pk_record *rec,
			struct pk_resolved_sample *out)
{
	const struct pk_sample *s = &rec->sample;
	size_t nr = 0, n;
	int64_t pid;
	int err;

	if (rec->type != PERF_RECORD_SAMPLE || out->size < sizeof(*out))
		return pk__error(-EINVAL, "pk_resolver_resolve",
				 rec->type != PERF_RECORD_SAMPLE ? "the record is not a sample"
								 : "out->size is too small");
	out->comm = pk_threads_comm(res->threads, s->pid, s->tid);
	if (!out->comm)
		return -ENOMEM;
	pid = pk_threads_pid(res->threads, s->tid);
	out->pid = pid >= 0 ? (uint32_t)pid : s->pid;
	out->tid = s->tid;
	out->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	locate(res, s->pid, s->ip, out->cpumode, &out->loc);
	/* A user-mode ip no process map holds is looked for in the kernel's. */
	if (!out->loc.dso && out->cpumode == PERF_RECORD_MISC_USER && s->ip >= 0xffff800000000000ull)
		locate(res, s->pid, s->ip, PERF_RECORD_MISC_KERNEL, &out->loc);
	out->lbr = res->lbr = false;
	out->chain_id = 0;
	if (res->no_chains) {
		out->frames = res->frames;
		out->nr_frames = 0;
		return 0;
	}
	/* unwound first: the memo's key has the unwound addresses */
	if ((err = unwind_ips(res, s, &n)) < 0)
		return err;
	if (!lbr_stack(s))
		return memo_frames(res, s, n, out);
	res->dropped = false;
	if ((err = chain_frames(res, s, &nr)) < 0 ||
	    (!res->dropped && (err = push_unwound(res, s->pid, n, &nr)) < 0))
		return err;
	out->frames = res->frames;
	out->nr_frames = nr;
	out->lbr = res->lbr;
	return 0;
}
