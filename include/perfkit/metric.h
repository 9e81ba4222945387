/* SPDX-License-Identifier: MIT */
/*
 * perfkit/metric.h - the derived figures perf stat prints to the right of
 * a count (CPUs utilized, insn per cycle, miss ratios, rates), computed from
 * the counts of one list.  Included by perfkit.h.
 */
#ifndef PERFKIT_METRIC_H
#define PERFKIT_METRIC_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One event's count, as input to pk_metric_derive.  Set size =
 * sizeof(struct pk_metric_input) in every element. */
struct pk_metric_input {
	size_t size;
	const struct perf_event_attr *attr;
	double value;		/* the scaled count (a mean over runs is fine) */
	bool counted;		/* false: not supported or not counted here */
};

/* A derived figure: printf(format, value) then the unit, as perf prints it.
 * The caller sets size = sizeof(struct pk_metric) in the first element of
 * the array it hands in; the library writes the rest. */
struct pk_metric {
	size_t size;
	double value;
	const char *format;	/* perf's: "%8.3f", "%7.2f ", "%7.2f%%", "%8.3f %%" */
	const char *unit;	/* "CPUs utilized", "insn per cycle", "of all branches", "GHz", "M/sec" */
};

/* The sizes of the first versions: smaller `size` fields are refused. */
#define PK_METRIC_INPUT_SIZE_VER0 (offsetof(struct pk_metric_input, counted) + sizeof(bool))
#define PK_METRIC_SIZE_VER0 (offsetof(struct pk_metric, unit) + sizeof(const char *))

/*
 * pk_metric_derive - perf stat's figures for event i of a list of `nr`
 * counts, `wall_ns` being the elapsed time: CPUs utilized for task-clock
 * and cpu-clock; insn per cycle (and, when stalled cycles are counted, a
 * second figure: stalled cycles per insn); GHz for cycles; branch, cache,
 * L1, LLC and TLB miss ratios against the matching accesses;
 * frontend/backend cycles idle; otherwise a rate per second of the counted
 * clock (K/M/G scaled).  Denominators come from the same list.  Fills at
 * most `max` entries of out and returns how many figures there are (0 when
 * perf shows none: a denominator was not counted, or event i was not), or
 * -ERANGE when i >= nr.  Both arrays stride by their first element's
 * size, so a caller built against a later, larger struct still works; a
 * size below PK_METRIC_INPUT_SIZE_VER0 / PK_METRIC_SIZE_VER0 (when max > 0)
 * is refused with -EINVAL.  -ENOMEM when the inputs cannot be copied.
 */
PK_API int pk_metric_derive(const struct pk_metric_input *in, size_t nr, size_t i, double wall_ns,
			    struct pk_metric *out, size_t max);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_METRIC_H */
