/* SPDX-License-Identifier: MIT */
/*
 * perfkit/symbols.h - what addresses belong to: per-process memory maps
 * built from the MMAP/MMAP2/COMM/FORK/EXIT records of a recording, the
 * DSOs (executables, libraries, the kernel and its modules, the vDSO, JIT
 * code) they map, their build-ids, and the function each address is in.
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
	/* Set once its symbols were looked for (by pk_maps_resolve): */
	bool build_id_mismatch;	/* the only file found has another build-id:
				 * the DSO stays unresolved rather than wrong */
	const char *symfile;	/* the file its symbols came from, or NULL */
	const char *long_name;	/* perf's long name, as script --show-kernel-path
				 * prints it: a module's file as its MMAP record
				 * names it; the vmlinux the kernel's symbols came
				 * from, named as perf names it; NULL: name */
	/* The file's device and inode from its first MMAP2 record (perf's
	 * dso id); all 0 for anonymous memory, an MMAP record or an MMAP2
	 * carrying a build-id instead. */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

/* Where an address is: what pk_maps_resolve fills in. */
struct pk_location {
	size_t size;			/* caller sets sizeof(struct pk_location) */
	const struct pk_dso *dso;	/* NULL when no map holds the address */
	const char *sym;		/* demangled function name, or NULL when unresolved */
	uint64_t sym_start;		/* the symbol's start, in the DSO's address space */
	uint64_t addr;			/* ip in the DSO's address space (what perf prints
					 * as [unknown] 0x...) */
	uint64_t symoff;		/* ip - sym start, for perf's sym+0x1f (symoff) key */
	bool kernel;			/* resolved in kernel space */
	uint64_t map_ip;		/* perf's map_ip: ip - map start + pgoff in a file's
					 * map (the file offset, also for non-PIE
					 * executables: what perf script prints for a user
					 * frame), ip - map start in the kernel's and
					 * modules' maps, ip in JIT and anonymous memory */
	uint64_t sym_end;		/* the symbol's end (one past it), as sym_start; 0
					 * without sym.  A symbol of no size ends where
					 * the next starts, as perf's */
	unsigned char sym_binding;	/* the symbol's ELF binding (STB_LOCAL, STB_GLOBAL,
					 * STB_WEAK; kallsyms' t/T/W), 0 without sym */
	bool sym_object;		/* the symbol is a data object (ELF's STT_OBJECT),
					 * which perf prints as name+0xOFFSET */
	uint32_t map_prot, map_flags;	/* the map's MMAP2 prot and flags (PROT_*, MAP_*),
					 * 0 without a map or from an MMAP record */
	uint64_t map_size;		/* the map's end minus its start (perf's map__size),
					 * 0 without dso; pk_maps_resolve of the kernel read
					 * from kallsyms: its symbols' span, as perf's map
					 * once loaded (map__fixup_start/end) */
};

struct pk_maps;

/* pk_maps_new - an empty map state.  0 with *out, or -ENOMEM. */
PK_API int pk_maps_new(struct pk_maps **out);

/* pk_maps_free - free it.  NULL is a no-op. */
PK_API void pk_maps_free(struct pk_maps *m);

/* Directories and files the symbol loaders read; see pk_maps_set_dir. */
enum pk_maps_dir {
	PK_MAPS_DIR_DEBUG,	/* separate debug files: "/usr/lib/debug" */
	PK_MAPS_DIR_TMP,	/* where JITs write perf-PID.map: "/tmp" */
	PK_MAPS_DIR_KALLSYMS,	/* the kernel's symbols: "/proc/kallsyms" (a file) */
	PK_MAPS_DIR_VMLINUX,	/* the kernel's symbols from this vmlinux alone (perf's
				 * --vmlinux): none when it is not the recorded
				 * kernel's; a KALLSYMS file set wins.  Default unset */
};

/*
 * pk_maps_set_dir - read `which` from `path` instead of its default (NULL
 * restores the default); the path is copied.  Takes effect for DSOs whose
 * symbols are not loaded yet.  Returns 0, -EINVAL for an unknown `which`,
 * or -ENOMEM.
 */
PK_API int pk_maps_set_dir(struct pk_maps *m, enum pk_maps_dir which, const char *path);

/*
 * A lookup of a DSO's file by its build-id, consulted before the system
 * paths (this is where the build-id cache, ~/.debug, plugs in): write the
 * path of a file holding the DSO's symbols into path (len bytes) and
 * return 0, or return a negative errno when there is none.
 */
typedef int (*pk_maps_lookup_cb)(void *arg, const struct pk_dso *dso, char *path, size_t len);

/* pk_maps_set_lookup - consult cb (with arg) first when looking for a DSO's
 * file; NULL removes it. */
PK_API void pk_maps_set_lookup(struct pk_maps *m, pk_maps_lookup_cb cb, void *arg);

/*
 * pk_maps_set_buildid_cache - consult the build-id cache at `dir` (perf's
 * layout, as pk_buildid_cache_add writes it; ~/.debug is perf's default,
 * the caller finds it) for every DSO with a known build-id, as perf report
 * does: after the lookup hook and before the system paths, a file or
 * library that was rebuilt or removed since the recording resolves from
 * the cached copy with its build-id; the vDSO from its cached image; and
 * the kernel, when the recording's build-id is not the running kernel's,
 * from that kernel's cached kallsyms (its modules too).  pk_maps_srcline
 * also keeps there, in dir/.perfkit-dwarf/ (made when dir is the
 * caller's), a debug file's DWARF inflated whole when the file's is
 * compressed, and reads it back instead of inflating again (see
 * pk_maps_srcline).  The path is copied; NULL stops consulting it.  Takes
 * effect for DSOs whose symbols are not loaded yet.  Returns 0 or -ENOMEM.
 */
PK_API int pk_maps_set_buildid_cache(struct pk_maps *m, const char *dir);

/*
 * pk_maps_set_symfs - look for every file with symbols below `dir`, as
 * perf's --symfs does: a mapped file /P is read as DIR/P (its symbols,
 * segments, .gnu_debuglink and the unwinder's bytes), the debug directory
 * (PK_MAPS_DIR_DEBUG, default /usr/lib/debug) is taken below DIR, the
 * running vDSO image is not used (only a build-id cache's copy), and no
 * kallsyms is read unless PK_MAPS_DIR_KALLSYMS names one, so kernel
 * addresses stay unresolved.  The build-id cache is left as set
 * (perf moves it to DIR/.debug: the caller does that).  A `dir` that is
 * "/" (after realpath) or "" or NULL removes the root.  The path is
 * copied; takes effect for DSOs whose symbols are not loaded yet.
 * Returns 0 or -ENOMEM.
 */
PK_API int pk_maps_set_symfs(struct pk_maps *m, const char *dir);

/* How C++ symbol names are demangled. */
enum pk_demangle {
	PK_DEMANGLE_NAME,	/* the default: "ns::cls::fn", no parameters (perf) */
	PK_DEMANGLE_PARAMS,	/* "ns::cls::fn(int, char const*)" (perf -v) */
	PK_DEMANGLE_NONE,	/* as the file spells them: "_ZN2ns3cls2fnEv" (perf --no-demangle) */
};

/*
 * pk_maps_set_demangle - demangle C++ names of user-space DSOs (their
 * symbols and PLT entries) as `how` says; Rust names are the same either
 * way, and the kernel's are not demangled.  Takes effect for DSOs whose
 * symbols are not loaded yet.  Returns 0, or -EINVAL for a `how` that is
 * not an enum pk_demangle.
 */
PK_API int pk_maps_set_demangle(struct pk_maps *m, enum pk_demangle how);

/*
 * pk_maps_process - follow one decoded record: MMAP and MMAP2 add a mapping
 * to their process (pid -1: the kernel's), FORK copies the parent's maps to
 * the child, COMM with the exec flag starts the process afresh, EXIT drops
 * it; other records are ignored.  An MMAP2 carrying a build-id gives its
 * DSO that build-id.  Returns 0 or -ENOMEM.
 */
PK_API int pk_maps_process(struct pk_maps *m, const struct pk_record *r);

/*
 * pk_maps_resolve - where `ip`, sampled in process `pid` with `cpumode`
 * (the PERF_RECORD_MISC_CPUMODE_MASK bits of the sample's header.misc),
 * is: the map live for it now (follow records in time order), its DSO,
 * and the function holding it.  Kernel samples look in the kernel's maps,
 * the kernel's own reaching past its MMAP's end (_etext) to the end of its
 * last kallsyms symbol, as perf's does once kallsyms loads (init text:
 * an idle chain's start_kernel); guest and hypervisor samples find none.  A DSO's symbols are loaded on
 * its first resolve and shared by every process mapping it: an ELF file's
 * .symtab (else .dynsym), preferring a separate debug file found by the
 * lookup hook, in the build-id cache (pk_maps_set_buildid_cache), by
 * build-id under the debug directory or by .gnu_debuglink; kallsyms for the kernel and its modules; this process's
 * own vDSO when the build-ids match (else the cached one); perf-PID.map for anonymous
 * executable memory.  A file whose build-id differs from the recorded one
 * is not used (the DSO's build_id_mismatch says so).  C++ and Rust names
 * are demangled, without parameters, as perf prints them; PLT entries are
 * "name@plt", as perf 6.1 makes them up from .rela.plt.
 *
 * Returns 0 when a map holds ip (loc->sym may still be NULL: no symbol
 * covers it), -ENOENT when none does (loc->dso NULL, loc->addr = ip), or
 * -EINVAL when loc->size is smaller than this library's struct.
 * loc->dso and loc->sym stay valid until pk_maps_free.
 */
PK_API int pk_maps_resolve(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
			   struct pk_location *loc);

/*
 * pk_maps_resolve_data - where a sample's data address `addr` (its
 * PERF_SAMPLE_ADDR, as a page fault's) is, perf's thread__resolve: looked
 * up as pk_maps_resolve does with the sample's `cpumode`, then, when no
 * map holds it, with the mode the address itself implies (at or above
 * 2^63 the kernel's, below user space's), so a fault the kernel takes on
 * a user page names that page's map ([stack], [heap], //anon or a DSO)
 * and the object symbol there.  Guest and hypervisor samples get no
 * second look.  Returns what pk_maps_resolve returns for the last lookup.
 */
PK_API int pk_maps_resolve_data(struct pk_maps *m, uint32_t pid, uint64_t addr, uint16_t cpumode,
				struct pk_location *loc);

/*
 * pk_maps_find - the map part of pk_maps_resolve without loading any
 * symbols (perf's thread__find_map), but the kernel's when a kernel ip
 * lies past its map's recorded end (they tell where the map ends, as
 * above): loc->dso, loc->kernel and
 * loc->map_ip as pk_maps_resolve gives them; loc->addr stays ip and
 * loc->sym NULL.  A DSO's symfile is then still NULL when no resolve has
 * loaded it yet, as perf's dso->adjust_symbols is 0 until it loads one.
 * Returns 0, -ENOENT or -EINVAL as pk_maps_resolve does.
 */
PK_API int pk_maps_find(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
			struct pk_location *loc);

/* One function at an address (see pk_maps_srcline). */
struct pk_srcline_frame {
	const char *func;	/* its name, demangled; NULL when the DWARF names none */
	const char *file;	/* the source file's path, as the DWARF names it, or NULL */
	unsigned int line;	/* 0 when not known */
	const char *file_addr2line;	/* file as addr2line names it (see pk_srcline) */
};

/* The source of an address: what pk_maps_srcline fills in. */
struct pk_srcline {
	size_t size;		/* caller sets sizeof(struct pk_srcline) */
	const char *file;	/* the line table's file for the address (a path) */
	unsigned int line;	/* its line, 0 when the row has none */
	/* Every function the address is in, innermost first, as addr2line -i
	 * lists them: inlined instances, then the function they were inlined
	 * into (the last).  frames[0] has file and line above; each next one
	 * the call site of the one before it.  0 frames when the DWARF has no
	 * function around the address. */
	const struct pk_srcline_frame *frames;
	size_t nr_frames;
	/* `file` as GNU addr2line 2.40 (and so perf 6.1) names it: the same,
	 * but for a DWARF 5 row whose file is still the sequence's initial
	 * one, which addr2line takes as file 0 rather than file 1 (gcc
	 * writes the two alike; a table rewritten afterwards, as in Debian's
	 * glibc debug files, may not).  For output that matches perf. */
	const char *file_addr2line;
};

/*
 * pk_maps_srcline - the source file, line and inlined frames of the
 * resolved location `loc` (from pk_maps_resolve on the same maps), read
 * from the DWARF of the file its DSO's symbols came from (a separate
 * debug file when one was found, so the same search as for symbols:
 * build-id cache, debug directory by build-id, .gnu_debuglink).  Each
 * DSO's DWARF is opened once, its line tables read once by libdw, and
 * every address's answer kept, so a lookup repeated is a hash probe.
 * A debug file whose DWARF is zlib-compressed (Debian's -dbg packages) is
 * inflated only as far as the addresses asked need; once that is all of
 * it, and the maps have a build-id cache (pk_maps_set_buildid_cache)
 * whose directory the caller owns, the inflated sections are kept in
 * DIR/.perfkit-dwarf/ (one file per debug file's path, about its
 * uncompressed DWARF's size: 8.5 MB for libc's) and the next maps read
 * that very file's from there; a file changed since, or a kept one that
 * is damaged, is inflated and kept again.
 * Only ELF files have lines: the kernel, its modules, the vDSO and JIT
 * code have none here, as in perf 6.1 without a vmlinux.
 *
 * Returns 0 with *out filled (out->size set by the caller); -ENODATA
 * when no line covers the address but GNU addr2line still names a
 * function there (DWARF's, or the ELF symbol table's at or before it),
 * with out->file_addr2line the file it then names ("FILE:?": the
 * STT_FILE symbol before a local function, "" for an unnamed one) or
 * NULL ("??:?"), and no frames; -ENOENT when there is no file to read
 * (no DSO, the kernel, the vDSO, JIT code, a file not found) or nothing
 * in it covers the address (addr2line's "??:0");
 * -EINVAL when loc->size or out->size is smaller than this library's
 * struct; -ENOMEM.  The strings and frames stay valid until pk_maps_free.
 */
PK_API int pk_maps_srcline(struct pk_maps *m, const struct pk_location *loc, struct pk_srcline *out);

/*
 * pk_maps_hit - mark the DSO that `ip` falls in for process `pid` (or the
 * kernel's, when `kernel`) as hit.  Returns the DSO's index, or -ENOENT
 * when no known mapping holds the address.
 */
PK_API int pk_maps_hit(struct pk_maps *m, uint32_t pid, uint64_t ip, bool kernel);

/*
 * pk_maps_set_build_id - give the DSO called `name` (a path,
 * "[kernel.kallsyms]", "[vdso]", a module "[name]"; made when not seen
 * yet) the build-id recorded for it, as perf.data's HEADER_BUILD_ID lists
 * them, so its files are checked against it.  Returns 0, -EINVAL for a
 * size of 0 or over 20, or -ENOMEM.
 */
PK_API int pk_maps_set_build_id(struct pk_maps *m, const char *name, const uint8_t *id, size_t size);

/*
 * pk_maps_set_build_ids - every build-id of a perf.data file's BUILD_ID
 * feature section (the bytes pk_data_reader_feature gives for
 * PK_DATA_FEAT_BUILD_ID, in this machine's byte order) through
 * pk_maps_set_build_id: the kernel's, the vDSO's and each file's, so
 * resolving checks files against them and finds cached copies by them.
 * Entries of guests and of kernel modules by path are passed over (module
 * symbols come from kallsyms).  Returns how many were set, -EINVAL when
 * an entry runs past the section (those before it are set), or -ENOMEM.
 */
PK_API int pk_maps_set_build_ids(struct pk_maps *m, const void *section, size_t len);

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

/* ---- the build-id cache (buildid-cache.c) -------------------------------- */

/*
 * The build-id cache keeps a copy of every binary a recording sampled,
 * under its build-id, in perf's layout, so a report made after the binary
 * was rebuilt or removed still finds the one that ran, and perf and
 * perfkit share the cache: DIR/<real path>/<id hex>/elf,
 * DIR/[kernel.kallsyms]/<id>/kallsyms (a copy of /proc/kallsyms with its
 * addresses), DIR/[vdso]/<id>/vdso, and DIR/.build-id/<2 hex>/<rest> a
 * relative link to the entry's directory.  DIR is the caller's (perf's
 * default is ~/.debug; the CLI finds it): the library reads no variable
 * for it.  Nothing below DIR is reached through a symbolic link.
 */

/*
 * pk_buildid_cache_add - put DSO `name` with build-id `id` (id_size bytes,
 * 1 to 20) into the cache at `dir`, creating dir if it is missing.  `name`
 * is a file path (the file is hard-linked when the kernel allows it, else
 * copied), "[kernel.kallsyms]" (a copy of /proc/kallsyms, only when the
 * running kernel has that build-id and shows its addresses) or "[vdso]"
 * (this process's own vDSO image, only when it has that build-id).  The
 * file is written under a temporary name, checked to carry `id`, and
 * renamed into place.  An entry already there is kept when its build-id
 * is `id` (a kallsyms entry always) and replaced when not; one that is
 * not a regular file is left alone.  Returns 1 when something was added,
 * 0 when all was there already, or a negative errno with pk_last_error
 * set: -EINVAL for another kind of name, -ENOENT for a file that is gone,
 * -ESTALE when the file (or kernel, or vDSO) no longer has that build-id,
 * -ELOOP when a directory in the cache is a symbolic link, -EEXIST for an
 * entry that is not a regular file, -EACCES and the like from the file
 * system.  What is in the cache is never left half-written.
 */
PK_API int pk_buildid_cache_add(const char *dir, const char *name, const uint8_t *id, size_t id_size);

/*
 * pk_buildid_cache_lookup - the cached file for build-id `id` in the cache
 * at `dir` (the elf, kallsyms or vdso file of its entry, whoever wrote
 * it), written to path (len bytes, NUL-terminated).  Returns the path's
 * length, or a negative errno with pk_last_error set: -ENOENT when there is
 * no entry, -EXDEV when the entry's link or a directory leads out of the
 * cache (it is not followed), -ENAMETOOLONG when the path does not fit,
 * -EINVAL for bad arguments.
 */
PK_API int pk_buildid_cache_lookup(const char *dir, const uint8_t *id, size_t id_size, char *path,
				   size_t len);

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
 * pk_threads_rename - the idx'th rename perf makes after the fact: a
 * thread's first COMM, when the thread was still unnamed (":TID", as
 * pk_threads_comm gave it to samples before), renames that ":TID" in
 * place in perf (comm__override), so every entry already counted under it
 * shows the new name and merges with that name's entries.  In *from the
 * ":TID" pointer, in *to the name (both interned), in the order the COMMs
 * came; a ":TID" is renamed once, by the first such COMM.  Returns false
 * past the last one.  A report applies them (pk_hist_rename_comm) before
 * sorting.
 */
PK_API bool pk_threads_rename(const struct pk_threads *t, size_t idx, const char **from, const char **to);

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
