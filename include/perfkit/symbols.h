/* SPDX-License-Identifier: MIT */
/*
 * perfkit/symbols.h - what addresses belong to: per-process memory maps
 * built from the MMAP/MMAP2/COMM/FORK/EXIT records of a recording, the
 * DSOs (executables, libraries, the kernel) they map, and their build-ids.
 * Included by perfkit.h.
 */
#ifndef PERFKIT_SYMBOLS_H
#define PERFKIT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_record;

/* One mapped object: an executable, a library, or the kernel. */
struct pk_dso {
	const char *name;	/* the path, or "[kernel.kallsyms]", "[vdso]" */
	bool kernel;		/* the kernel's own text */
	bool hit;		/* a sample landed in it (pk_maps_hit) */
	uint8_t build_id[20];
	size_t build_id_size;	/* 0 when not known yet */
};

struct pk_maps;

/* pk_maps_new - an empty map state.  0 with *out, or -ENOMEM. */
PK_API int pk_maps_new(struct pk_maps **out);

/* pk_maps_free - free it.  NULL is a no-op. */
PK_API void pk_maps_free(struct pk_maps *m);

/*
 * pk_maps_process - follow one decoded record: MMAP and MMAP2 add a mapping
 * to their process (pid -1: the kernel's), FORK copies the parent's maps to
 * the child, COMM with the exec flag starts the process afresh, EXIT drops
 * it; other records are ignored.  An MMAP2 carrying a build-id gives its
 * DSO that build-id.  Returns 0 or -ENOMEM.
 */
PK_API int pk_maps_process(struct pk_maps *m, const struct pk_record *r);

/*
 * pk_maps_hit - mark the DSO that `ip` falls in for process `pid` (or the
 * kernel's, when `kernel`) as hit.  Returns the DSO's index, or -ENOENT
 * when no known mapping holds the address.
 */
PK_API int pk_maps_hit(struct pk_maps *m, uint32_t pid, uint64_t ip, bool kernel);

/* pk_maps_nr_dsos / pk_maps_dso - every DSO seen, in order of first mapping;
 * pk_maps_dso returns NULL out of range. */
PK_API size_t pk_maps_nr_dsos(const struct pk_maps *m);
PK_API const struct pk_dso *pk_maps_dso(const struct pk_maps *m, size_t i);

/*
 * pk_maps_read_build_ids - give every hit DSO, and the vDSO, that has no
 * build-id yet the one its file carries: the kernel's from its notes, the
 * vDSO's from this process's own, a path's from its ELF note.  Anonymous
 * and special maps ("//anon", "[heap]", memfd) and files that are gone or
 * carry no build-id keep build_id_size 0.
 */
PK_API void pk_maps_read_build_ids(struct pk_maps *m);

/*
 * pk_build_id_read - the GNU build-id of the ELF file at `path` (its
 * NT_GNU_BUILD_ID note).  Returns the id's size (up to 20) with the bytes in
 * id, -ENOENT when the file has none or does not exist, or -EINVAL when it
 * is not ELF.
 */
PK_API int pk_build_id_read(const char *path, uint8_t id[20]);

/*
 * pk_build_id_kernel - the running kernel's build-id, from
 * /sys/kernel/notes.  Returns its size, or -ENOENT.
 */
PK_API int pk_build_id_kernel(uint8_t id[20]);

/*
 * pk_build_id_vdso - the build-id of the vDSO the running kernel maps into
 * every process ("[vdso]" in the maps).  Returns its size, or -ENOENT.
 */
PK_API int pk_build_id_vdso(uint8_t id[20]);

/* ---- threads: comm and process of every thread of a recording ----------- */

struct pk_threads;

/* pk_threads_new - an empty thread table.  0 with *out, or -ENOMEM. */
PK_API int pk_threads_new(struct pk_threads **out);

/* pk_threads_free - free it and every name it handed out.  NULL is a no-op. */
PK_API void pk_threads_free(struct pk_threads *t);

/*
 * pk_threads_process - follow one decoded record the way perf does: COMM
 * names its thread (an exec or a prctl rename alike), FORK starts the
 * child afresh (a tid seen before is a new thread now) with the comm of
 * the thread that forked it when that one was named, EXIT marks the
 * thread exited (it keeps its comm: samples may still arrive for it);
 * other records are ignored.  Returns 0 or -ENOMEM.
 */
PK_API int pk_threads_process(struct pk_threads *t, const struct pk_record *r);

/*
 * pk_threads_comm - thread `tid`'s current comm, or perf's ":TID" for a
 * thread no record named (the thread is created then, in process `pid`).
 * Names are interned: equal names are the same pointer, valid until
 * pk_threads_free, so callers may compare and key on the pointer.
 * NULL only when out of memory (pk_last_error says so).
 */
PK_API const char *pk_threads_comm(struct pk_threads *t, uint32_t pid, uint32_t tid);

/*
 * pk_threads_pid - the process thread `tid` belongs to (from its COMM,
 * FORK or first sample), or -ENOENT for a tid never seen.
 */
PK_API int64_t pk_threads_pid(const struct pk_threads *t, uint32_t tid);

/* pk_threads_exited - whether an EXIT was seen for `tid` (and no FORK since). */
PK_API bool pk_threads_exited(const struct pk_threads *t, uint32_t tid);

#ifdef __cplusplus
}
#endif
#endif
