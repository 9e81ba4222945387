/* SPDX-License-Identifier: MIT */
/*
 * export-int.h - what the exporters share (export.c): interned strings,
 * frames and the address trie of stacks every sample points into, the
 * samples themselves, and the call tree merged by frame label that the
 * folded and flame graph writers draw.
 */
#ifndef PK_ANALYSIS_EXPORT_INT_H
#define PK_ANALYSIS_EXPORT_INT_H

#include "perfkit/export.h"

#include <stdint.h>
#include <stdio.h>

/* An open-addressing table of ids (0 = empty slot, ids stored + 1). */
struct pk__idtab {
	uint32_t *slots;
	size_t cap;	/* a power of two */
};

struct pk__xframe {
	uint32_t name, dso, build_id, file, label;	/* string ids; 0 = none */
	uint32_t line;
	enum pk_frame_kind kind;
	uint64_t addr, map_start, map_end, map_pgoff, file_offset;
};

/* A node of the address trie: the stack from the root down to `frame`. */
struct pk__xnode {
	uint32_t parent;	/* 0 = root (node 0 itself is the root) */
	uint32_t frame;
	uint32_t depth;
};

struct pk__xsample {
	uint32_t node, ev, pid, tid, comm;
	int32_t cpu;
	uint64_t weight, time;
	bool has_time;
};

/* A node of the label tree: comm at depth 1, then frames root first. */
struct pk__tnode {
	uint32_t parent, label, first_child, next_sibling, depth;
	enum pk_frame_kind kind;	/* PK_FRAME_KIND_NR for a comm */
	uint32_t file, line;	/* the hottest source line under it (0: none) */
	uint64_t self, total;
};

struct pk__ltree {
	struct pk__tnode *n;	/* n[0] is the root */
	size_t nr, cap;
	struct pk__idtab tab;
};

struct pk_exporter {
	struct pk_export_opts opts;
	struct pk_export_event *events;
	char **strs;		/* strs[0] is "" */
	size_t nr_strs, cap_strs;
	struct pk__idtab str_tab;
	struct pk__xframe *frames;	/* frames[0] unused */
	size_t nr_frames, cap_frames;
	struct pk__idtab frame_tab;
	struct pk__xnode *nodes;
	size_t nr_nodes, cap_nodes;
	struct pk__idtab node_tab;
	struct pk__xsample *samples;
	size_t nr_samples, cap_samples;
	uint64_t total;
	uint32_t label_key[4];	/* "pid", "tid", "comm", "cpu" */
	/* Frames recently added, direct-mapped by address: a frame seen
	 * again is checked field by field against it instead of hashed. */
	uint32_t *recent;	/* PK__EXPORT_RECENT frame ids, 0 = none */
	uint32_t *ev_name, *ev_unit;	/* each event's strings */
	uint32_t last_comm;	/* the comm of the last sample added (0: "") */
	uint32_t last_stack;	/* the node of the last sample added (0: none) */
};

#define PK__EXPORT_RECENT 4096u

/* String `id`'s text. */
static inline const char *pk__export_str(const struct pk_exporter *ex, uint32_t id)
{
	return ex->strs[id];
}

/* The frames of `node`, root first, into *out (caller frees); their count. */
int pk__export_path(const struct pk_exporter *ex, uint32_t node, uint32_t **out, size_t *nr);

/* The label tree of every sample (comm, then frames by label), children
 * in label order.  Free with pk__ltree_free. */
int pk__ltree_build(const struct pk_exporter *ex, struct pk__ltree *t);
void pk__ltree_free(struct pk__ltree *t);

/* The writers.  Each returns 0, -EIO or -ENOMEM. */
int pk__export_folded(const struct pk_exporter *ex, FILE *f);
int pk__export_pprof(const struct pk_exporter *ex, FILE *f);
int pk__export_speedscope(const struct pk_exporter *ex, FILE *f);
int pk__export_flamegraph(const struct pk_exporter *ex, FILE *f);

/* The flame graph of tree t (built from ex); with `old` (each node of t's
 * total in another profile whose whole is old_all) the differential one
 * perfkit diff draws.  0 or -ENOMEM. */
int pk__flamegraph_write(const struct pk_exporter *ex, const struct pk__ltree *t, const uint64_t *old,
			 uint64_t old_all, FILE *f);

/* The flame graph's script (flamegraph.js, made a C string at build time). */
extern const char pk__flamegraph_js[];

/* JSON string `s` with its quotes, escaped, to `f`. */
void pk__export_json_str(FILE *f, const char *s);

#endif
