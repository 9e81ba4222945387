/* SPDX-License-Identifier: MIT */
/*
 * perfkit/catalog.h - every event the machine offers (generic, software,
 * cache, sysfs aliases, tracepoints, libpfm4 tables) with the attributes
 * that refine each one, in libpfm4's model of OS layers.  Included by
 * perfkit.h.
 */
#ifndef PERFKIT_CATALOG_H
#define PERFKIT_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"
#include "perfkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The OS layers whose attributes an event exposes (pfm_os_t's meaning). */
enum pk_os {
	PK_OS_PMU,		/* the PMU's own attributes only */
	PK_OS_PERF,		/* plus perf_events' u, k, h, ... */
	PK_OS_PERF_EXT,		/* plus period, freq, precise, excl, pinned, ... */
};

/* What kind of attribute it is (pfm_attr_t). */
enum pk_attr_type {
	PK_ATTR_UMASK,		/* a unit mask: selects a sub-event */
	PK_ATTR_MOD_BOOL,	/* a boolean modifier: name or name=0|1 */
	PK_ATTR_MOD_INT,	/* an integer modifier: name=N */
	PK_ATTR_MOD_STR,	/* a string modifier: name=TEXT (call-graph=fp) */
};

/* Who applies the attribute (pfm_attr_ctrl_t). */
enum pk_attr_ctrl {
	PK_ATTR_CTRL_PMU,	/* encoded into the PMU's config bits */
	PK_ATTR_CTRL_PERF_EVENT,/* a perf_event_attr field the kernel applies */
};

/* One event of the catalogue (pfm_event_info_t's meaning). */
struct pk_event_info {
	size_t size;
	const char *name;	/* "task-clock", "INST_RETIRED", "sched:sched_switch" */
	const char *pmu;	/* "software", "cpu", "tracepoint", "libpfm4:skx" */
	const char *desc;	/* one sentence, or "" */
	const char *equiv;	/* an equivalent string ("cpu-clock" for "cpu-clock"), or "" */
	const char *canonical;	/* a string pk_events_parse accepts for it */
	enum pk_event_source source;
	uint64_t code;		/* its config (or tracepoint id) */
	size_t nr_attrs[3];	/* attributes per pk_os layer */
	bool is_precise;	/* supports precise sampling */
};

/* One attribute of an event (pfm_event_attr_info_t's meaning). */
struct pk_attr_info {
	size_t size;
	const char *name;	/* "ANY_P", "u", "period", "umask", "prev_pid" */
	const char *desc;
	const char *equiv;	/* equivalent attribute string, or "" */
	uint64_t code;		/* umask code, or the bit mask the term occupies */
	enum pk_attr_type type;
	enum pk_attr_ctrl ctrl;
	bool is_dfl;		/* applied by default */
	uint64_t dfl_val64;	/* the default value when is_dfl */
	bool is_precise;	/* umask supports precise sampling */
	bool is_speculative;	/* counts speculative occurrences */
	int field;		/* PMU term: 0..3 = config..config3; -1 otherwise */
};

struct pk_catalog;	/* every event the machine offers */

/* Options for pk_catalog_new.  Zero-initialise and set size = sizeof. */
struct pk_catalog_opts {
	size_t size;
	bool no_tracepoints;	/* skip tracefs (it is the slowest source) */
	bool no_libpfm;		/* skip libpfm4's tables */
	bool all_libpfm;	/* include every libpfm4 PMU, not only the detected ones */
	const char *tracefs;	/* tracefs directory to use instead of the probed one */
};

/*
 * pk_catalog_new - enumerate every event: generic hardware, software and
 * cache events, sysfs PMU aliases and raw PMU terms, tracepoints and
 * libpfm4's tables.  `opts` may be NULL.  Sources that are unavailable
 * (no tracefs, no libpfm4 PMU) are skipped, not errors.  Returns 0 with the
 * catalogue in *out, or -ENOMEM.
 */
PK_API int pk_catalog_new(const struct pk_catalog_opts *opts, struct pk_catalog **out);

/* pk_catalog_free - free a catalogue.  NULL is a no-op. */
PK_API void pk_catalog_free(struct pk_catalog *cat);

/* pk_catalog_nr - the number of events in the catalogue. */
PK_API size_t pk_catalog_nr(const struct pk_catalog *cat);

/* pk_catalog_get - event i, or NULL when out of range. */
PK_API const struct pk_event_info *pk_catalog_get(const struct pk_catalog *cat, size_t i);

/*
 * pk_catalog_find - the index of the event that `name` names: an exact
 * catalogue name, a perf alias ("cs"), "pmu/alias/", or a libpfm4
 * "pmu::event".  Returns the index, or -ENOENT (with a near-miss hint).
 */
PK_API int pk_catalog_find(const struct pk_catalog *cat, const char *name);

/*
 * pk_catalog_attr - attribute `idx` of event `ev` as seen at OS layer `os`.
 * Attributes are numbered PMU layer first, then perf_events, then the
 * extended layer, so an index valid at PK_OS_PMU means the same attribute at
 * every layer.  Returns 0 and fills *out (strings owned by the catalogue),
 * or -ERANGE when ev or idx is out of range for that layer.
 */
PK_API int pk_catalog_attr(const struct pk_catalog *cat, size_t ev, size_t idx,
			   enum pk_os os, struct pk_attr_info *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_CATALOG_H */
