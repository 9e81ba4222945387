/* SPDX-License-Identifier: MIT */
/*
 * perfkit/resolve.h - the resolver: follows the side-band records of a
 * recording (COMM, FORK, EXIT, MMAP, MMAP2) in the order they are read
 * and turns each sample into what a report or a script shows of it: its
 * thread's comm, its process, where its ip is (DSO, symbol, offset), and
 * its call chain as resolved frames, built as perf 6.1 builds them
 * (PERF_SAMPLE_CALLCHAIN with its context markers, its user part rebuilt
 * from the branch stack for --call-graph lbr samples, and for --call-graph
 * dwarf samples the user stack unwound).  It owns the thread table, the
 * memory maps and the unwinder.  Included by perfkit.h.
 */
#ifndef PERFKIT_RESOLVE_H
#define PERFKIT_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"
#include "perfkit/reader.h"
#include "perfkit/record.h"
#include "perfkit/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of a call chain: its address and where that is. */
struct pk_frame {
	uint64_t ip;
	uint16_t cpumode;		/* the mode it was resolved in (PERF_RECORD_MISC_*) */
	struct pk_location loc;
	bool unwound;			/* found by DWARF unwinding, not in PERF_SAMPLE_CALLCHAIN */
	/* With inline frames on (pk_resolver_set_inline), an unwound frame
	 * whose address has inlined functions is given as one frame per
	 * function, all with the same ip and loc, innermost first: `inl` is
	 * the function's entry of pk_maps_srcline (its name, and the file:line
	 * inside it), NULL for every other frame; `inlined` is set when the
	 * function is not loc.sym (perf's "(inlined)" frames, named inl->func). */
	const struct pk_srcline_frame *inl;
	bool inlined;
};

/* A sample, resolved (see pk_resolver_resolve). */
struct pk_resolved_sample {
	size_t size;			/* caller sets sizeof(struct pk_resolved_sample) */
	const char *comm;		/* the thread's comm, interned as pk_threads_comm's */
	uint32_t pid, tid;		/* pid: the thread's process as the records tell it */
	uint16_t cpumode;		/* the sample's header.misc & CPUMODE_MASK */
	struct pk_location loc;		/* the sample's ip */
	const struct pk_frame *frames;	/* the call chain, innermost first, no markers */
	size_t nr_frames;		/* 0 for a sample without a call chain */
	bool lbr;			/* the frames are an LBR call stack, rebuilt whole
					 * (perf cuts none of them to --max-stack) */
	uint64_t chain_id;		/* not 0: two samples of one resolver with the
					 * same chain_id have the same frames, frame for
					 * frame (a repeat of one call chain of one
					 * process: the same recorded chain and, for
					 * --call-graph dwarf, the same addresses
					 * unwound; nothing remapped, no option changed
					 * between), so what was worked out from one's
					 * frames alone holds for the other's.  0 when
					 * not known (LBR call stacks, out of memory)
					 * and for a sample without a call chain */
};

struct pk_resolver;

/*
 * pk_resolver_new - a resolver for the recording `r` reads (NULL: for
 * records of no file, such as a live recording's): the DSO build-ids of
 * r's BUILD_ID feature are taken now (pk_maps_set_build_id), so that files
 * with other build-ids are not used.  Thread 0 is perf's idle thread,
 * "swapper".  r is not kept.  Returns 0 with
 * *out; -ENOMEM; or the errno of decoding r's BUILD_ID section (-EINVAL
 * with pk_last_error naming where it stops making sense).
 */
PK_API int pk_resolver_new(struct pk_data_reader *r, struct pk_resolver **out);

/* pk_resolver_free - free it and every name and frame it handed out.
 * NULL is a no-op. */
PK_API void pk_resolver_free(struct pk_resolver *res);

/*
 * pk_resolver_set_buildid_dir - look DSOs up by build-id in the build-id
 * cache at `dir` (perf's ~/.debug; the caller finds it) before the
 * system's paths, and as the maps' build-id cache (pk_maps_set_buildid_cache:
 * rebuilt files, the vDSO, another kernel's kallsyms); NULL stops it.
 * Takes effect for DSOs whose symbols are
 * not loaded yet: call it before the first resolve.  The path is copied.
 * Returns 0 or -ENOMEM.
 */
PK_API int pk_resolver_set_buildid_dir(struct pk_resolver *res, const char *dir);

/*
 * pk_resolver_set_symfs - perf's --symfs=DIR: look for every file with
 * symbols below `dir` (pk_maps_set_symfs: DIR/path for each mapped file and
 * DIR/usr/lib/debug; the kernel stays unresolved, no kallsyms is read) and
 * use DIR/.debug as the build-id cache (pk_resolver_set_buildid_dir), as
 * perf 6.1 does; a later pk_resolver_set_buildid_dir overrides that.  A
 * `dir` of "/" (after realpath), "" or NULL removes the root and leaves
 * the cache as it is.  Call it before the first resolve.  The path is
 * copied.  Returns 0 or -ENOMEM.
 */
PK_API int pk_resolver_set_symfs(struct pk_resolver *res, const char *dir);

/*
 * pk_resolver_set_max_stack - keep at most `max` addresses of the
 * PERF_SAMPLE_CALLCHAIN part of a chain, and at most `max` unwound user
 * frames (their inlined functions besides), as perf's --max-stack does
 * (default 127, perf's PERF_MAX_STACK_DEPTH); 0 is taken as 1.  The
 * innermost ones, but in caller order (pk_resolver_set_caller_order) the
 * outermost addresses of the PERF_SAMPLE_CALLCHAIN part, as perf walks it
 * from its end then (a marker that walk never reads drops nothing); the
 * unwound frames are the innermost in either order, where perf's unwinder
 * stops.  It also decides whether an LBR call stack is rebuilt (below).
 */
PK_API void pk_resolver_set_max_stack(struct pk_resolver *res, unsigned int max);

/*
 * pk_resolver_set_inline - give the DWARF-unwound frames of a call chain
 * their inlined functions as perf 6.1 does (on by default, perf's
 * --inline; off: --no-inline): each unwound address whose DWARF puts it in
 * inlined functions becomes one frame per function, innermost first (see
 * struct pk_frame), from pk_maps_srcline.  PERF_SAMPLE_CALLCHAIN frames
 * are never expanded, as in perf.
 */
PK_API void pk_resolver_set_inline(struct pk_resolver *res, bool on);

/*
 * pk_resolver_set_caller_order - resolve call chains as perf 6.1 does for
 * a caller-order graph (-g caller, and report's children default): the
 * frames are still given innermost first, but an LBR call stack's kernel
 * part (see pk_resolver_resolve) is resolved as perf walks it then,
 * backwards from the user marker, each address in the mode of the marker
 * after it (the kernel's addresses in user mode, so they stay unknown),
 * and --max-stack keeps other chains' outermost addresses (see
 * pk_resolver_set_max_stack).  Off by default.
 */
PK_API void pk_resolver_set_caller_order(struct pk_resolver *res, bool on);

/*
 * pk_resolver_set_symbols - with `on` false, locations (the sample's and
 * every frame's) get their map, DSO and map_ip but no symbol: loc.sym is
 * NULL, loc.addr the ip, and no symbol table, kallsyms or debug
 * information is read (kallsyms only for a kernel address past the
 * kernel map's recorded end: pk_maps_find), for callers that show only
 * DSOs, threads or CPUs (report --sort comm,dso).  On by default.  DWARF unwinding is
 * unaffected; its frames get no inlined functions while off.
 */
PK_API void pk_resolver_set_symbols(struct pk_resolver *res, bool on);

/*
 * pk_resolver_set_chains - with `on` false, samples are resolved without
 * their call chains: no frames (nr_frames 0, chain_id 0), nothing
 * unwound, as perf reads a file whose call graphs nothing shows (report's
 * -g none without children).  On by default.
 */
PK_API void pk_resolver_set_chains(struct pk_resolver *res, bool on);

/*
 * pk_resolver_process - follow one decoded record, in the order the
 * reader delivers them (time order): COMM, FORK and EXIT for the threads
 * and maps, MMAP and MMAP2 for the maps and, when they map a file, the
 * unwinder (a FORK of a new process gives it its parent's, an exec starts
 * it afresh).  Other records are ignored.  Returns 0 or -ENOMEM.
 */
PK_API int pk_resolver_process(struct pk_resolver *res, const struct pk_record *rec);

/*
 * pk_resolver_resolve - resolve the decoded SAMPLE `rec` into *out
 * (out->size set by the caller).  comm and pid come from the records
 * followed so far (perf's ":TID" for a thread none named); loc is where
 * the ip is for the sample's cpumode, a user-mode ip no map holds being
 * looked up in the kernel's maps, as perf's report finds it.
 *
 * The frames are perf's callee-order chain: the PERF_SAMPLE_CALLCHAIN
 * entries in order, up to max_stack of them, each context marker
 * switching the mode the following entries resolve in (the chain starts
 * in user mode; kernel, user and hypervisor markers switch; any other
 * marker makes perf discard the chain, and so it is here), markers left
 * out; for a sample of an LBR call stack (a branch stack and CALLCHAIN,
 * attr.branch_sample_type CALL_STACK) whose chain has a user marker among
 * its first max_stack entries, perf's rebuilt chain instead: the chain up
 * to that marker, then in user mode the first branch entry's target and
 * every entry's source in order (none for an empty stack; perf 6.1 reads
 * past the record there); then, when the sample has REGS_USER and a
 * non-empty STACK_USER, the user frames pk_unwinder_unwind finds (the user ip first, callers'
 * return addresses minus one), resolved in user mode.  A sample with
 * neither has no frames.
 *
 * Returns 0; -EINVAL when rec is not a sample or out->size is smaller
 * than this library's struct; -ENOMEM.  The comm, locations' names and
 * the frames stay valid until the next pk_resolver_resolve (the names
 * until pk_resolver_free).
 */
PK_API int pk_resolver_resolve(struct pk_resolver *res, const struct pk_record *rec,
			       struct pk_resolved_sample *out);

/*
 * pk_resolver_chain_key - whether the frames pk_resolver_resolve gives
 * sample `s` follow from its recorded call chain alone (PERF_SAMPLE_CALLCHAIN
 * with entries, no LBR call stack, no user stack to unwind), so that a
 * caller may keep its own work per chain as the resolver does.  When they
 * do, *hash is set to a hash of the sample's pid and chain: equal chains of
 * one pid hash alike (compare the addresses to be sure).  Two such samples
 * resolve alike until a record that can move a map (MMAP, MMAP2, COMM,
 * FORK, EXIT, KSYMBOL) reaches the resolver.  Returns false, *hash
 * untouched, otherwise: in particular for a --call-graph dwarf sample, whose
 * frames depend on its unwinding too (the resolver memoises those by their
 * unwound addresses as well; out->chain_id tells their repeats).
 */
PK_API bool pk_resolver_chain_key(const struct pk_sample *s, uint64_t *hash);

/* pk_resolver_maps / pk_resolver_threads - the resolver's own map and
 * thread state, for questions the resolved sample does not answer (every
 * DSO seen, whether a thread exited).  Owned by the resolver. */
PK_API struct pk_maps *pk_resolver_maps(struct pk_resolver *res);
PK_API struct pk_threads *pk_resolver_threads(struct pk_resolver *res);

#ifdef __cplusplus
}
#endif
#endif
