/* SPDX-License-Identifier: MIT */
/*
 * perfkit/export.h - profiles for the tools people look at them with: a
 * stream of resolved stack samples (weight, event, pid/tid/comm, CPU,
 * time, frames innermost first) collected by an exporter and written to a
 * caller's FILE * as folded stacks (FlameGraph, inferno, speedscope),
 * pprof's profile.proto gzipped (pprof, Pyroscope, Parca, Grafana),
 * speedscope's JSON (a timeline per thread when samples carry time) or one
 * self-contained interactive SVG flame graph.  Included by perfkit.h.
 */
#ifndef PERFKIT_EXPORT_H
#define PERFKIT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What kind of code a frame is in; the flame graph colours by it. */
enum pk_frame_kind {
	PK_FRAME_USER,
	PK_FRAME_KERNEL,
	PK_FRAME_JIT,
	PK_FRAME_INLINED,	/* a function inlined into the next frame out */
	PK_FRAME_KIND_NR,
};

/*
 * One resolved frame.  Strings are the caller's and need only stay valid
 * during the pk_exporter_add call (the exporter copies what it keeps).
 * `name` NULL means no symbol: the frame is shown as "[dso]" (or
 * "[unknown]"), as stackcollapse-perf names it.  `dso` is the mapping's
 * path, `build_id` its build-id in hex (NULL when unknown); `map_start`,
 * `map_end` and `map_pgoff` place the mapping, `file_offset` the address
 * in the file.  `file` and `line` are the source position (NULL/0 when
 * unknown).
 */
struct pk_export_frame {
	const char *name;
	uint64_t addr;
	const char *dso;
	const char *build_id;
	uint64_t map_start, map_end, map_pgoff;
	uint64_t file_offset;
	const char *file;
	uint32_t line;
	enum pk_frame_kind kind;
};

/*
 * One sample: `weight` (the period, or 1 per sample), of event `ev` (an
 * index into pk_export_opts.events), thread `tid` of process `pid` named
 * `comm`, on `cpu` (-1 for unknown), at `time` in nanoseconds when
 * `has_time`; `frames[0]` is the innermost (the sample's ip).  `stack`,
 * when nonzero, is what pk_exporter_last_stack returned after an earlier
 * sample of this exporter whose frames were these: `frames` and
 * `nr_frames` are then not read (the caller keeps a memo from its own
 * identity of a chain to the stack).  `size` is sizeof(struct
 * pk_export_sample); a caller built before `stack` existed gives the
 * smaller size and is read without it.
 */
struct pk_export_sample {
	size_t size;
	uint32_t ev;
	uint64_t weight;
	uint32_t pid, tid;
	const char *comm;
	int32_t cpu;
	bool has_time;
	uint64_t time;
	const struct pk_export_frame *frames;
	size_t nr_frames;
	uint32_t stack;
};

/* An event: its name ("cpu-clock") and the unit of its weights
 * ("nanoseconds" for a clock event, "count" for others). */
struct pk_export_event {
	const char *name;
	const char *unit;
};

enum pk_export_format {
	PK_EXPORT_FOLDED,
	PK_EXPORT_PPROF,
	PK_EXPORT_SPEEDSCOPE,
	PK_EXPORT_FLAMEGRAPH,
};

/*
 * How to export.  `events` (at least one; copied) names the events samples
 * refer to.  The flame graph draws `title` (default "Flame Graph"), grows
 * downwards when `icicle`, and merges frames narrower than `min_share` of
 * the total (default 0.0001, i.e. 0.01%) into one "[merged]" box per parent.
 */
struct pk_export_opts {
	size_t size;
	enum pk_export_format format;
	const struct pk_export_event *events;
	size_t nr_events;
	const char *title;
	bool icicle;
	double min_share;
};

struct pk_exporter;

/*
 * Make an exporter for `opts`.  Returns 0 and sets *out (freed with
 * pk_exporter_free); -EINVAL for an unknown format or no events, -ENOMEM.
 */
PK_API int pk_exporter_new(const struct pk_export_opts *opts, struct pk_exporter **out);

/*
 * Add one sample (copying what it needs of its strings).  Returns 0;
 * -EINVAL for an event index out of range or a sample without frames,
 * -ENOMEM.  A failed add adds no sample (strings and frames it interned
 * before failing stay, unused).
 */
PK_API int pk_exporter_add(struct pk_exporter *ex, const struct pk_export_sample *s);

/*
 * Write everything added so far to `f` in the exporter's format (the
 * exporter can go on collecting and write again).  Returns 0; -EIO when
 * writing fails, -ENOMEM.
 */
PK_API int pk_exporter_write(struct pk_exporter *ex, FILE *f);

/*
 * The stack of the last sample pk_exporter_add took, to give as
 * pk_export_sample.stack for later samples with the same frames (the
 * exporter then skips interning them); 0 before the first.
 */
PK_API uint32_t pk_exporter_last_stack(const struct pk_exporter *ex);

/* The number of samples added so far. */
PK_API uint64_t pk_exporter_nr_samples(const struct pk_exporter *ex);

/* The total weight of the samples added so far. */
PK_API uint64_t pk_exporter_total_weight(const struct pk_exporter *ex);

/* Free the exporter; NULL is a no-op. */
PK_API void pk_exporter_free(struct pk_exporter *ex);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_EXPORT_H */
