/* SPDX-License-Identifier: MIT */
/*
 * perfkit/health.h - stack health: of the resolved samples of a
 * recording, how many have a call stack that was cut, and why: a
 * --call-graph dwarf stack copy too small for the stack, frame pointers
 * missing in a DSO, the --max-stack or kernel limit reached, DSOs without
 * symbols or with another build-id than the recording's.  Feed it the
 * resolver's samples (pk_resolver_resolve), then read the figures.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_HEALTH_H
#define PERFKIT_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "perfkit/error.h"
#include "perfkit/record.h"
#include "perfkit/resolve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf's cap on --call-graph dwarf,SIZE (its sample_stack_user limit). */
#define PK_STACK_HEALTH_MAX_DWARF_SIZE 65528u

/* What is wrong with one DSO's part of the stacks (bits of pk_stack_health_dso.problems). */
enum pk_stack_health_problem {
	PK_STACK_HEALTH_NO_SYMBOLS = 1u << 0,	/* addresses in it resolve to no symbol */
	PK_STACK_HEALTH_BUILD_ID = 1u << 1,	/* the file found has another build-id */
	PK_STACK_HEALTH_NO_FRAME_POINTER = 1u << 2,	/* frame-pointer chains end in it */
	PK_STACK_HEALTH_NO_UNWIND_TABLE = 1u << 3,	/* DWARF unwinding stops in it, the copy not full */
};

/* The totals (pk_stack_health_get). */
struct pk_stack_health_figures {
	size_t size;			/* caller sets sizeof(struct pk_stack_health_figures) */
	uint64_t nr_samples;		/* samples fed */
	uint64_t nr_chains;		/* of which with a call chain */
	uint64_t nr_dwarf;		/* of which with a user stack copy (--call-graph dwarf) */
	uint64_t nr_dwarf_cut;		/* copy full, unwinding stopped short of the stack's root */
	uint64_t dwarf_size;		/* the largest copy size seen (bytes) */
	uint64_t dwarf_suggest;		/* a --call-graph dwarf,SIZE to try: the next power of
					 * two above dwarf_size, at most PK_STACK_HEALTH_MAX_DWARF_SIZE;
					 * 0 when no chain was cut so */
	uint64_t nr_fp_cut;		/* frame-pointer chains cut short in user space */
	uint64_t nr_unwind_cut;		/* DWARF chains cut short with the stack all copied */
	uint64_t nr_max_stack;		/* chains as long as the limit */
	unsigned int max_stack;		/* that limit (pk_stack_health_set_max_stack) */
	uint64_t nr_dso_samples;	/* samples with a frame in a DSO of pk_stack_health_dso */
	size_t nr_dsos;			/* DSOs with problems, for pk_stack_health_dso */
};

/* One DSO with problems (pk_stack_health_dso). */
struct pk_stack_health_dso {
	const struct pk_dso *dso;	/* the resolver's, valid while it lives */
	unsigned int problems;		/* enum pk_stack_health_problem bits */
	uint64_t nr_samples;		/* samples with an address in it (the ip or a frame)
					 * that resolves to no symbol */
	uint64_t nr_fp_cut;		/* samples whose frame-pointer chain ended in it */
	uint64_t nr_unwind_cut;		/* samples whose DWARF unwinding stopped in it */
};

struct pk_stack_health;

/* pk_stack_health_new - an empty count, limit 127 (perf's --max-stack
 * default).  0 with *out, or -ENOMEM. */
PK_API int pk_stack_health_new(struct pk_stack_health **out);

/* pk_stack_health_free - free it.  NULL is a no-op. */
PK_API void pk_stack_health_free(struct pk_stack_health *h);

/*
 * pk_stack_health_set_max_stack - the number of call-chain entries at
 * which a chain counts as cut by a limit: the smaller of the report's
 * --max-stack and the kernel's perf_event_max_stack when recorded (the
 * caller finds both).  0 is taken as 1.  Call it before the first add.
 */
PK_API void pk_stack_health_set_max_stack(struct pk_stack_health *h, unsigned int max);

/*
 * pk_stack_health_add - count one sample: `attr` its event's attr, `smp`
 * the decoded sample and `rs` what pk_resolver_resolve made of it.  A
 * sample with a user stack copy (STACK_USER) counts as cut by the copy's
 * size when the copy was full (dyn_size == size == attr.sample_stack_user,
 * or within 1 KiB of perf's cap, where the kernel shrinks it to fit the
 * record; a smaller copy is the whole stack) and its last user frame
 * is not a stack root (_start, __libc_start_main, clone, start_thread, ld.so's _dl_start_user and
 * their kin), and when the copy was not full but the unwinding still
 * stopped short of a root in a file, that file is blamed for lacking
 * unwind tables (CFI) there; a frame-pointer chain (CALLCHAIN without
 * STACK_USER) counts as cut when a user frame maps to nothing (a junk frame pointer; the
 * DSO of the frame before it is blamed) or when its user part ends after
 * one or two frames in a file not at a root (that file is blamed).
 * Every frame (and the ip) in a file or the kernel that resolves to no
 * symbol counts its DSO, once per sample.  Returns 0, or -ENOMEM.
 */
PK_API int pk_stack_health_add(struct pk_stack_health *h, const struct perf_event_attr *attr,
			       const struct pk_sample *smp, const struct pk_resolved_sample *rs);

/*
 * pk_stack_health_add_n - count `nr_samples` samples at once that are
 * alike in all pk_stack_health_add looks at (the same event, attr,
 * location and frames; a caller that remembers repeated samples adds them
 * together): the same figures as that many pk_stack_health_add calls.
 * Returns 0, or -ENOMEM.
 */
PK_API int pk_stack_health_add_n(struct pk_stack_health *h, const struct perf_event_attr *attr,
				 const struct pk_sample *smp, const struct pk_resolved_sample *rs,
				 uint64_t nr_samples);

/* pk_stack_health_get - the totals into *out (out->size set by the
 * caller).  Returns 0, or -EINVAL when out->size is too small. */
PK_API int pk_stack_health_get(const struct pk_stack_health *h, struct pk_stack_health_figures *out);

/*
 * pk_stack_health_dso - the i-th DSO with problems into *out, most
 * samples first (nr_samples + nr_fp_cut + nr_unwind_cut; ties by name).  Returns 0, or -ERANGE when i >= nr_dsos.
 */
PK_API int pk_stack_health_dso(struct pk_stack_health *h, size_t i, struct pk_stack_health_dso *out);

#ifdef __cplusplus
}
#endif
#endif
