/* SPDX-License-Identifier: MIT */
/*
 * perfkit/unwind.h - DWARF unwinding of user stacks sampled with
 * `--call-graph dwarf` (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER):
 * the caller describes each process's file mappings, then hands in a
 * sample's registers and stack copy and gets its call chain back.  Built
 * on elfutils libdw; every file is opened once per process, never per
 * sample.  x86_64 only.  Included by perfkit.h.
 */
#ifndef PERFKIT_UNWIND_H
#define PERFKIT_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_unwinder;

/* pk_unwinder_new - an unwinder that knows no process yet.  0 with *out,
 * or -ENOMEM. */
PK_API int pk_unwinder_new(struct pk_unwinder **out);

/* pk_unwinder_free - free it, its processes and the files they opened.
 * NULL is a no-op. */
PK_API void pk_unwinder_free(struct pk_unwinder *u);

/*
 * pk_unwinder_map - process `pid` maps the file at `path` over [start,
 * end) from file offset `pgoff` (a PERF_RECORD_MMAP2 of a file).  A
 * mapping overlapping earlier ones replaces the parts it covers, as the
 * kernel does; what the process's unwinding built (its modules, their
 * open files and CFI) is let go only when the mapping covers one of its
 * modules or a map looked up already.  Files are opened when an unwind
 * first needs them; a `path` that does not start with '/' maps memory
 * with no file to read (unwinding stops in it).
 * Returns 0, -EINVAL for an empty range or path, or -ENOMEM.
 */
PK_API int pk_unwinder_map(struct pk_unwinder *u, uint32_t pid, uint64_t start, uint64_t end,
			   uint64_t pgoff, const char *path);

/* pk_unwinder_forget - drop process `pid`'s mappings and state (at its
 * EXIT, or at an exec before the new image's mappings). */
PK_API void pk_unwinder_forget(struct pk_unwinder *u, uint32_t pid);

/* pk_unwinder_release - what unwinding process `pid` opened and built
 * (libdwfl's modules, their files and CFI, the files read outside the
 * stack copy) released, its mappings kept: for when the process has
 * exited, so that memory follows the processes alive, not every process
 * the recording saw.  A later unwind of `pid` opens them again, with the
 * same answers.  A pid not known: nothing to do. */
PK_API void pk_unwinder_release(struct pk_unwinder *u, uint32_t pid);

/*
 * pk_unwinder_unwind - unwind one sample of thread `tid` of process `pid`.
 * `regs` are the sample's user registers as PERF_SAMPLE_REGS_USER
 * delivers them: one value per bit of `regs_mask` (attr.sample_regs_user,
 * perf's x86_64 PERF_REG_X86_* bits), in increasing bit order; IP and SP
 * must be among them.  `stack` is the sample's copy of `stack_size` bytes
 * of user stack starting at SP (use its dyn_size).  Fills ips with up to
 * `max` addresses, innermost first, as perf reports them: the sample's ip,
 * then each caller's return address minus one; *nr gets their number.
 * The sample's ip is the first whenever the process has a mapping (perf
 * 6.1's libunwind unwinder keeps it, unwound or not); unwinding stops at the first frame it cannot unwind (no
 * map, no CFI, a read outside the stack copy that no mapped file can
 * answer); what was found before is kept and 0 is returned.  Memory is read only from the
 * stack copy and from the mapped files.  Returns 0; -EINVAL when IP or SP
 * is not in regs_mask or max is 0; -ENOMEM.
 */
PK_API int pk_unwinder_unwind(struct pk_unwinder *u, uint32_t pid, uint32_t tid, const uint64_t *regs,
			      uint64_t regs_mask, const void *stack, size_t stack_size, uint64_t *ips,
			      size_t max, size_t *nr);

#ifdef __cplusplus
}
#endif
#endif
