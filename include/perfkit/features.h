/* SPDX-License-Identifier: MIT */
/*
 * perfkit/features.h - perf.data feature sections decoded into typed
 * values: the machine (CPUs, topology, NUMA nodes, caches, memory blocks,
 * PMUs and their caps), the recording (events, groups, build-ids, sample
 * times, clocks, compression, AUX area index) and the BPF programs, in the
 * layouts perf 6.1 writes (tools/perf/Documentation/perf.data-file-format.txt).
 * The decoder is a pure function of a section's bytes, in either byte
 * order.  Included by perfkit.h.
 */
#ifndef PERFKIT_FEATURES_H
#define PERFKIT_FEATURES_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"
#include "perfkit/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One decoded feature section; every pointer it hands out is owned by it. */
struct pk_feature;

/* Options of pk_feature_decode. */
enum pk_feature_flags {
	/* The bytes were written on the other byte order: swap every number
	 * (and an EVENT_DESC attr the way perf swaps attrs). */
	PK_FEATURE_SWAP = 1u << 0,
};

/* NRCPUS. */
struct pk_feature_nrcpus {
	uint32_t available, online;
};

/* A CPU's place in CPU_TOPOLOGY; die_id is -1 when the file has no dies. */
struct pk_feature_cpu {
	int32_t core_id, socket_id, die_id;
};

/* CPU_TOPOLOGY: the sibling lists, then (files since Linux 4.x's perf) the
 * ids of each of NRCPUS' available CPUs, then (since 5.2) the dies. */
struct pk_feature_cpu_topology {
	uint32_t nr_sockets;		/* core_siblings lists: "0-1" */
	char **sockets;
	uint32_t nr_threads;		/* thread_siblings lists */
	char **threads;
	uint32_t nr_cpus;		/* 0 when the file has no ids */
	struct pk_feature_cpu *cpus;
	bool have_dies;
	uint32_t nr_dies;		/* die_cpus lists */
	char **dies;
};

/* NUMA_TOPOLOGY. */
struct pk_feature_numa_node {
	uint32_t node;
	uint64_t mem_total_kb, mem_free_kb;
	char *cpus;			/* "0-1" */
};
struct pk_feature_numa_topology {
	uint32_t nr;
	struct pk_feature_numa_node *nodes;
};

/* CACHE. */
struct pk_feature_cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;	/* "Data", "32K", "0-1" */
};
struct pk_feature_cache {
	uint32_t version, nr;
	struct pk_feature_cache_level *caches;
};

/* MEM_TOPOLOGY: per node, a bitmap of its memory blocks. */
struct pk_feature_mem_node {
	uint64_t node, nr_bits;
	uint64_t *bits;			/* (nr_bits + 63) / 64 words */
};
struct pk_feature_mem_topology {
	uint64_t version, block_size, nr;
	struct pk_feature_mem_node *nodes;
};

/* GROUP_DESC. */
struct pk_feature_group {
	char *name;			/* "" for an unnamed {a,b} */
	uint32_t leader_idx, nr_members;
};
struct pk_feature_group_desc {
	uint32_t nr;
	struct pk_feature_group *groups;
};

/* PMU_MAPPINGS. */
struct pk_feature_pmu_map {
	uint32_t type;
	char *name;
};
struct pk_feature_pmu_mappings {
	uint32_t nr;
	struct pk_feature_pmu_map *pmus;
};

/* BUILD_ID: one entry per DSO. */
struct pk_feature_build_id {
	uint16_t misc;			/* PERF_RECORD_MISC_KERNEL/USER, ... */
	int32_t pid;
	uint8_t id[20];
	uint8_t size;			/* of id; 20 when the file does not say */
	char *filename;
};
struct pk_feature_build_ids {
	uint32_t nr;
	struct pk_feature_build_id *ids;
};

/* SAMPLE_TIME. */
struct pk_feature_sample_time {
	uint64_t first_ns, last_ns;
};

/* CLOCK_DATA. */
struct pk_feature_clock_data {
	uint32_t version;
	int32_t clockid;
	uint64_t tod_ns, clock_ns;
};

/* COMPRESSED. */
struct pk_feature_compressed {
	uint32_t version, type, level, ratio, mmap_len;
};

/* AUXTRACE: the index of AUX area records in the file. */
struct pk_feature_auxtrace_entry {
	uint64_t file_offset, size;
};
struct pk_feature_auxtrace {
	uint64_t nr;
	struct pk_feature_auxtrace_entry *entries;
};

/* PMU_CAPS (pmu set) and CPU_PMU_CAPS (one entry, pmu NULL). */
struct pk_feature_pmu_cap {
	char *name, *value;
};
struct pk_feature_pmu_caps_of {
	char *pmu;
	uint32_t nr_caps;
	struct pk_feature_pmu_cap *caps;
};
struct pk_feature_pmu_caps {
	uint32_t nr;
	struct pk_feature_pmu_caps_of *pmus;
};

/* HYBRID_TOPOLOGY. */
struct pk_feature_hybrid_pmu {
	char *pmu, *cpus;
};
struct pk_feature_hybrid_topology {
	uint32_t nr;
	struct pk_feature_hybrid_pmu *pmus;
};

/* BPF_PROG_INFO: perf's framing of each program's struct bpf_prog_info
 * (info_len bytes) and its arrays (data_len bytes); type and id are the
 * info's first two fields. */
struct pk_feature_bpf_prog {
	uint32_t info_len, data_len;
	uint64_t arrays;
	uint32_t type, id;
	const uint8_t *info, *data;
};
struct pk_feature_bpf_progs {
	uint32_t nr;
	struct pk_feature_bpf_prog *progs;
};

/* BPF_BTF. */
struct pk_feature_btf {
	uint32_t id, data_size;
	const uint8_t *data;
};
struct pk_feature_btfs {
	uint32_t nr;
	struct pk_feature_btf *btfs;
};

/* EVENT_DESC: attr points at PK_DATA_READER_ATTR_SIZE readable bytes (the
 * file's attr_size bytes, zero-extended); attr->size keeps the file's. */
struct pk_feature_event {
	const struct perf_event_attr *attr;
	char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};
struct pk_feature_event_desc {
	uint32_t nr, attr_size;
	struct pk_feature_event *events;
};

/*
 * pk_feature_decode - decode the `len` bytes at `buf` of feature section
 * `id` (enum pk_data_feature) as perf 6.1 writes it.  `flags` is
 * PK_FEATURE_SWAP for a file of the other byte order, or 0.  `nr_cpus` is
 * the NRCPUS feature's available count, which CPU_TOPOLOGY's per-CPU ids
 * are counted by (0: the ids are not decoded); other features ignore it.
 * Every count is checked against the bytes there before anything is
 * allocated, and every string is NUL-terminated inside the section.
 * Returns 0 with the decoded section in *out (free it with
 * pk_feature_free); -EINVAL with pk_last_error naming the feature and the
 * byte offset in the section where it stops making sense (a count or
 * string running past its end, a size out of range); -EOPNOTSUPP for an id
 * perf 6.1 does not define or TRACING_DATA (tracing.c's format, not a
 * typed value); -ENOMEM.  `buf` is not kept.
 */
PK_API int pk_feature_decode(unsigned int id, const void *buf, size_t len, unsigned int flags,
			     uint32_t nr_cpus, struct pk_feature **out);

/*
 * pk_data_reader_decode - feature section `id` of the file `r` reads,
 * decoded (pk_feature_decode with the file's NRCPUS for CPU_TOPOLOGY).
 * Returns 0 with the section in *out (the caller frees it with
 * pk_feature_free; it does not depend on r); -ENOENT when the file has no
 * such section; the errors of pk_data_reader_feature and pk_feature_decode.
 */
PK_API int pk_data_reader_decode(struct pk_data_reader *r, unsigned int id,
				 struct pk_feature **out);

/* pk_feature_free - free a decoded section and all it handed out; NULL is a no-op. */
PK_API void pk_feature_free(struct pk_feature *f);

/* pk_feature_id - the feature id the section was decoded as. */
PK_API unsigned int pk_feature_id(const struct pk_feature *f);

/*
 * The typed views: each returns the section's value when it holds that
 * feature and NULL otherwise.  pk_feature_string serves HOSTNAME,
 * OSRELEASE, VERSION, ARCH, CPUDESC and CPUID; pk_feature_cmdline CMDLINE
 * (its arguments, *nr of them); pk_feature_u64 TOTAL_MEM (KiB), CLOCKID
 * (resolution in ns) and DIR_FORMAT (version), returning 0 with *value or
 * -ENOENT for any other feature; pk_feature_pmu_caps PMU_CAPS and
 * CPU_PMU_CAPS.  STAT and BRANCH_STACK carry no data: they decode to a
 * section with only an id.
 */
PK_API const char *pk_feature_string(const struct pk_feature *f);
PK_API char *const *pk_feature_cmdline(const struct pk_feature *f, uint32_t *nr);
PK_API int pk_feature_u64(const struct pk_feature *f, uint64_t *value);
PK_API const struct pk_feature_nrcpus *pk_feature_nrcpus(const struct pk_feature *f);
PK_API const struct pk_feature_cpu_topology *pk_feature_cpu_topology(const struct pk_feature *f);
PK_API const struct pk_feature_numa_topology *pk_feature_numa_topology(const struct pk_feature *f);
PK_API const struct pk_feature_cache *pk_feature_cache(const struct pk_feature *f);
PK_API const struct pk_feature_mem_topology *pk_feature_mem_topology(const struct pk_feature *f);
PK_API const struct pk_feature_group_desc *pk_feature_group_desc(const struct pk_feature *f);
PK_API const struct pk_feature_pmu_mappings *pk_feature_pmu_mappings(const struct pk_feature *f);
PK_API const struct pk_feature_build_ids *pk_feature_build_ids(const struct pk_feature *f);
PK_API const struct pk_feature_sample_time *pk_feature_sample_time(const struct pk_feature *f);
PK_API const struct pk_feature_clock_data *pk_feature_clock_data(const struct pk_feature *f);
PK_API const struct pk_feature_compressed *pk_feature_compressed(const struct pk_feature *f);
PK_API const struct pk_feature_auxtrace *pk_feature_auxtrace(const struct pk_feature *f);
PK_API const struct pk_feature_pmu_caps *pk_feature_pmu_caps(const struct pk_feature *f);
PK_API const struct pk_feature_hybrid_topology *pk_feature_hybrid_topology(const struct pk_feature *f);
PK_API const struct pk_feature_bpf_progs *pk_feature_bpf_progs(const struct pk_feature *f);
PK_API const struct pk_feature_btfs *pk_feature_btfs(const struct pk_feature *f);
PK_API const struct pk_feature_event_desc *pk_feature_event_desc(const struct pk_feature *f);

/* One jited function of a BPF_PROG_INFO program. */
struct pk_feature_bpf_func {
	size_t size;		/* caller sets sizeof(struct pk_feature_bpf_func) */
	uint64_t addr;		/* where the kernel put its code */
	uint32_t len;		/* its size in bytes */
	char name[512];		/* perf's "bpf_prog_<tag>_<name>" */
};

/*
 * pk_feature_bpf_prog_func - function `sub` of program `p` (from a
 * BPF_PROG_INFO section of this machine's byte order) in *out, named as
 * perf 6.1 names it: "bpf_prog_<tag>_<name>", the name from the program's
 * BTF function info when `btfs` (the file's BPF_BTF, or NULL) holds its
 * BTF, else the program's own name when it is one function, else "F".
 * Returns the program's number of functions (> sub); 0 when its symbol,
 * length and tag counts disagree (perf describes no function then);
 * -ENOENT when sub is not below that number; -EINVAL when out->size is too
 * small, an array runs out of the program's data or its BTF lacks the
 * function (in pk_last_error); -ENOMEM.  *out is filled only on success.
 */
PK_API int pk_feature_bpf_prog_func(const struct pk_feature_bpf_prog *p, const struct pk_feature_btfs *btfs,
				    uint32_t sub, struct pk_feature_bpf_func *out);

#ifdef __cplusplus
}
#endif
#endif
