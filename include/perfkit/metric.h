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

/* One named metric of perfkit's table (perfkit stat -M NAME). */
struct pk_metric_def {
	size_t size;
	const char *name;	/* "branch_misprediction_ratio" */
	const char *groups;	/* ';'-separated groups: "branch_prediction" */
	const char *expr;	/* over event names: "d_ratio(ex_ret_brn_misp, ex_ret_brn)" */
	double scale;		/* the value shown is expr * scale ... */
	const char *unit;	/* ... followed by this ("%", or "") */
	const char *cpuid;	/* extended regex over the whole cpuid string */
	const char *desc;
	/* Since this field (check size): perf's MetricConstraint, or NULL.
	 * "NO_NMI_WATCHDOG": perf 6.1 leaves the events ungrouped while the
	 * NMI watchdog is on (pk_nmi_watchdog), as it would hold a counter. */
	const char *constraint;
};

/*
 * pk_metric_def_get - row idx of perfkit's metric table, or NULL past its
 * end.  The rows are static: never freed.  Which models are covered is in
 * docs/EVENTS.md.
 */
PK_API const struct pk_metric_def *pk_metric_def_get(size_t idx);

/*
 * pk_metric_def_matches - 1 when metric m applies to the CPU whose cpuid
 * string (perf's form, "AuthenticAMD-25-11-1" or "GenuineIntel-6-5E-3") is
 * `cpuid`, as perf matches: the row's regex must cover the whole string,
 * less its stepping when the regex names none (a regex that names one needs
 * a cpuid with one); 0 when not; -EINVAL when either is NULL.
 */
PK_API int pk_metric_def_matches(const struct pk_metric_def *m, const char *cpuid);

/*
 * pk_metric_expr_eval - evaluate a metric expression: numbers, event names
 * (letters, digits, '_', '.', ':' for modifiers; perf's escapes: '\\'
 * takes the next character into the name, '@' stands for '/', and the
 * lookup gets the name with them undone), + - * / with the usual
 * precedence, parentheses, unary minus and d_ratio(a, b) (a / b, 0 when b
 * is 0).  lookup(arg, name, len, &value) is called for every event name in
 * the order it appears (name is not NUL-terminated) and returns 0 or a
 * negative errno, which is passed back as is; a caller can use it to
 * collect the names.  On success *out holds the value and 0 is returned;
 * -EINVAL for a malformed expression or NULL argument, -E2BIG when nested
 * deeper than 64, -EDOM on division by zero ('/', not d_ratio).
 */
PK_API int pk_metric_expr_eval(const char *expr,
			       int (*lookup)(void *arg, const char *name, size_t len, double *value),
			       void *arg, double *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_METRIC_H */
