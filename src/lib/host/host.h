/* SPDX-License-Identifier: MIT */
/*
 * host.h - the host layer's internal interface: facts about the machine
 * and its processes, read from sysfs and /proc, for every layer above.
 * Its public face is pk_cpus_parse, pk_cpus_online, pk_cpu_topology,
 * pk_cgroup_root, pk_pid_threads and pk_pid_tgid (include/perfkit.h).
 * The line parsers are pure, so they are tested with tables and fuzzed
 * (fuzz/fuzz_host.c); the readers around them report through pk__error.
 */
#ifndef PK_HOST_H
#define PK_HOST_H

#include "perfkit.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- int arrays (cpus.c) -------------------------------------------------- */

/* pk__host_ints_push - append v to a malloc'd array; 0 or -ENOMEM. */
int pk__host_ints_push(int **arr, size_t *nr, size_t *cap, int v);

/* pk__host_ints_sort_unique - sort a[0..nr) ascending, drop duplicates;
 * returns the new count. */
size_t pk__host_ints_sort_unique(int *a, size_t nr);

/* ---- topology and machine facts (topology.c) ------------------------------ */

/* pk__host_topology_list - a CPU's sysfs topology list file (for example
 * "core_siblings_list", "0-1") into buf, the newline stripped.
 * Returns 0, or -ENOENT (no error record: absence is normal for offline
 * CPUs and for die_cpus_list before Linux 5.2). */
int pk__host_topology_list(int cpu, const char *file, char *buf, size_t len);

/* pk__host_cpuinfo - the value of the first /proc/cpuinfo line starting with
 * `key` ("model name"), or "unknown"; never fails. */
void pk__host_cpuinfo(const char *key, char *out, size_t len);

/* pk__host_mem_total_kb - MemTotal from /proc/meminfo in KiB, 0 if unknown. */
uint64_t pk__host_mem_total_kb(void);

/* ---- NUMA nodes, memory blocks, caches (nodes.c) --------------------------- */

/* pk__host_nodes - the online NUMA nodes (devices/system/node/online) as a
 * malloc'd sorted array.  Returns 0, -ENOENT (no error record: a kernel
 * without NUMA information), or -ENOMEM. */
int pk__host_nodes(int **nodes, size_t *nr);

/* pk__host_node_mem - a node's MemTotal and MemFree in KiB (nodeN/meminfo).
 * Returns 0, or -ENOENT (no error record) when either is missing. */
int pk__host_node_mem(int node, uint64_t *total_kb, uint64_t *free_kb);

/* pk__host_node_cpulist - a node's cpulist ("0-1", "" for a node without
 * CPUs) into buf.  Returns 0, or -ENOENT (no error record). */
int pk__host_node_cpulist(int node, char *buf, size_t len);

/* pk__host_mem_block_size - devices/system/memory/block_size_bytes.
 * Returns 0, or -ENOENT (no error record) without memory hotplug. */
int pk__host_mem_block_size(uint64_t *bytes);

/* pk__host_node_blocks - the memory blocks (memoryN entries) of a node as a
 * malloc'd bitmap of *nr_bits bits (the largest block number plus one).
 * Returns 0, -ENOENT (no error record) without such a node, or -ENOMEM. */
int pk__host_node_blocks(int node, uint64_t **bits, uint64_t *nr_bits);

/* One cache of one CPU (devices/system/cpu/cpuN/cache/indexM). */
struct pk__host_cache {
	uint32_t level, line_size, sets, ways;
	char type[32];		/* "Data", "Instruction", "Unified" */
	char size[32];		/* as sysfs says it: "32K" */
	char map[256];		/* shared_cpu_list: "0-1" */
};

/* pk__host_cache - CPU cpu's cache index idx.  Returns 0; 1 when the CPU
 * has no such index (the end of its list); -ENOENT (no error record) when
 * a file of the index is missing or malformed. */
int pk__host_cache(int cpu, int idx, struct pk__host_cache *c);

/* ---- processes (proc.c) ---------------------------------------------------- */

/* pk__host_status_field - find field `key` ("Tgid", "PPid") in the text of a
 * /proc/PID/status file and copy its value, leading blanks and the newline
 * stripped, to out.  Returns 0, -ENOENT when the field is absent, or
 * -ENAMETOOLONG when the value does not fit (out then holds nothing). */
int pk__host_status_field(const char *status, const char *key, char *out, size_t len);

/* pk__host_status_long - field `key` of /proc/PID/status as a number.
 * Returns 0 with *value, -ESRCH when the process is gone, -EINVAL when the
 * field is absent or not a number. */
int pk__host_status_long(pid_t pid, const char *key, long *value);

/* pk__host_comm - thread tid of process pid's name (/proc/PID/task/TID/comm,
 * newline stripped).  Returns 0, or -ESRCH when the thread is gone. */
int pk__host_comm(pid_t pid, pid_t tid, char *buf, size_t len);

/* One line of /proc/PID/maps. */
struct pk__host_map {
	uint64_t start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[5];		/* "r-xp": read, write, exec, shared/private */
	const char *path;	/* points into the parsed line; "" when anonymous */
};

/* pk__host_maps_parse - parse one maps line in place (the path is cut at
 * the newline).  Returns 0, or -EINVAL for a line that is not one. */
int pk__host_maps_parse(char *line, struct pk__host_map *m);

/* Called once per mapping; a non-zero return stops the walk and is returned. */
typedef int (*pk__host_map_cb)(void *arg, const struct pk__host_map *m);

/* pk__host_maps_read - every well-formed line of /proc/PID/maps through cb,
 * in the file's order.  Returns 0, the callback's stop value, or -ESRCH
 * when the process is gone (error record set). */
int pk__host_maps_read(pid_t pid, pk__host_map_cb cb, void *arg);

/* ---- /proc/kallsyms (kallsyms.c) ------------------------------------------- */

/* One line of /proc/kallsyms: "ffffffff81000000 T _stext [module]". */
struct pk__host_ksym {
	uint64_t addr;
	char type;		/* nm's letter: 't'/'T' text, 'd' data, ... */
	const char *name;	/* points into the parsed line */
	const char *module;	/* the module without brackets, or NULL */
	bool unchecked;		/* PK__KSYM_QUICK: the name not checked yet
				 * (pk__host_ksym_name_ok says whether the
				 * line is well-formed); never with a module */
	uint32_t name_len;	/* an unchecked name's bytes to the line's end */
};

/* pk__host_ksym_parse - parse one kallsyms line in place.  Returns 0, or
 * -EINVAL for a malformed line. */
int pk__host_ksym_parse(char *line, struct pk__host_ksym *s);

/* Called once per symbol; a non-zero return stops the walk and is returned. */
typedef int (*pk__host_ksym_cb)(void *arg, const struct pk__host_ksym *s);

/* The kallsyms reader's options. */
enum pk__host_ksym_flags {
	/* Fail with -EACCES (kptr_restrict hint) when no line read, up to the
	 * end or to the callback's stop, had an address: the kernel hides them
	 * all from this user. */
	PK__KSYM_NEED_ADDRS = 1u << 0,
	/* Hand over a line of the usual shape (16 hex digits, a blank, a
	 * letter, a blank, then up to the end neither a blank nor a closing
	 * bracket last) without checking its name, marked `unchecked`: the
	 * caller checks the few it needs with pk__host_ksym_name_ok.  Only
	 * with pk__host_kallsyms_load (the names stay NUL-terminated in the
	 * text).  The walk's errors are as without it. */
	PK__KSYM_QUICK = 1u << 1,
};

/* pk__host_ksym_name_ok - whether the line of an unchecked name (from a
 * PK__KSYM_QUICK walk, with its name_len) is well-formed, as a walk
 * without it would have said: its name holds no blank, control character
 * (NUL included) or DEL. */
bool pk__host_ksym_name_ok(const char *name, size_t name_len);

/*
 * pk__host_kallsyms_read - every well-formed line of `path` (NULL:
 * /proc/kallsyms) through cb; malformed lines are skipped.  Returns 0, the
 * callback's stop value, or a negative errno with the error record set:
 * -ENOENT (no such file: a kernel without CONFIG_KALLSYMS), -EACCES (not
 * readable, or with PK__KSYM_NEED_ADDRS every address hidden), -EMFILE /
 * -ENFILE (out of file descriptors), -ENOMEM.
 */
int pk__host_kallsyms_read(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg);

/*
 * pk__host_kallsyms_load - as pk__host_kallsyms_read, the whole file read
 * first into one buffer handed to the caller in *text (to free(3), also
 * when the walk failed or stopped; NULL when it could not be read): the
 * names and modules cb sees stay valid, NUL-terminated in place, as long
 * as it.  One allocation for 100k+ lines instead of a copy of each name.
 */
int pk__host_kallsyms_load(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg,
			   char **text);

/*
 * pk__host_populate - the whole pages inside [mem, mem + len) of fresh
 * anonymous memory faulted in at once (MADV_POPULATE_WRITE), before a
 * buffer of megabytes is written: one call instead of a page fault per
 * page.  Only a hint: a kernel before 5.14 faults them one by one.
 */
void pk__host_populate(void *mem, size_t len);

/* Which file a text was mapped from, as fstat(2) saw it when mapped. */
struct pk__host_file_id {
	uint64_t size, mtime_sec, mtime_nsec, ino, dev;
};

/* The loaded text of pk__host_kallsyms_whole: from malloc, or (map_len
 * not 0) a read-only private mapping of the file, `id` then the file's
 * (all zero otherwise). */
struct pk__host_ktext {
	char *text;
	size_t map_len;
	struct pk__host_file_id id;
};

/*
 * pk__host_kallsyms_whole - the whole kallsyms at `path` (NULL:
 * /proc/kallsyms) in *kt, not parsed, its length in *len: mapped
 * read-only and private (map true and a plain file ending in a newline:
 * no copy, no page zeroed, a page mapped when first read; the caller
 * never writes into it), else read into memory and NUL-terminated.  Returns 0,
 * or a negative errno with the error record set as
 * pk__host_kallsyms_read's (*kt then empty).
 */
int pk__host_kallsyms_whole(const char *path, bool map, struct pk__host_ktext *kt, size_t *len);

/* pk__host_ksym_parse_n - pk__host_ksym_parse on a line of n bytes
 * (line[n] NUL): a NUL inside makes it malformed, as in a walk. */
int pk__host_ksym_parse_n(char *line, size_t n, struct pk__host_ksym *s);

/* pk__host_kallsyms_hidden - the error record of a kallsyms walk of path
 * that saw no address (any_line: it saw lines, their addresses hidden by
 * kptr_restrict, and the hint says how to show them; else no symbol at
 * all).  Returns -EACCES. */
int pk__host_kallsyms_hidden(const char *path, bool any_line);

/* The longest kallsyms line a walk takes: KSYM_NAME_LEN is 512 since
 * Linux 6.1, a module name at most 56 bytes. */
#define PK__KSYM_LINE_MAX 1024

/* pk__host_ktext_free - release a loaded text; an empty one is a no-op. */
void pk__host_ktext_free(struct pk__host_ktext *kt);

/* pk__host_ktext_drop - a mapped text's pages let go of the process's
 * memory (read again from the page cache when next touched); a text in
 * memory is kept. */
void pk__host_ktext_drop(struct pk__host_ktext *kt);

/* pk__host_kallsyms_text - the kernel's _text address in the kallsyms at
 * `path` (NULL: /proc/kallsyms), from its first lines (the kernel formats
 * only what is read: cheap).  0 when there is none, it is hidden, or the
 * file cannot be read (with the error record set). */
uint64_t pk__host_kallsyms_text(const char *path);

#endif
