/* SPDX-License-Identifier: MIT */
/*
 * event.h - the event layer's internal interface: the generic tables, the
 * parsed-event list behind pk_events_*, and the resolvers the parser calls
 * for tracepoints, probes and libpfm4 names.
 */
#ifndef PK_EVENT_H
#define PK_EVENT_H

#include "perfkit.h"
#include "../pmu/pmu.h"
#include "../sys/sys.h"
#include "../tracefs/tracefs.h"

/* ---- generic tables (generic.c) ------------------------------------------ */

struct pk__generic {
	const char *name;	/* "cpu-cycles" */
	const char *alias;	/* "cycles", or "" */
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	const char *desc;
};
extern const struct pk__generic pk__generic_events[];
extern const size_t pk__nr_generic_events;

/* pk__generic_find - the entry whose name or alias is `name` (ignoring case), or NULL. */
const struct pk__generic *pk__generic_find(const char *name);

/* Cache names: perf's type, op and result spellings, canonical first. */
#define PK__MAX_CACHE_ALIASES 5
extern const char *const pk__cache_type_names[PERF_COUNT_HW_CACHE_MAX][PK__MAX_CACHE_ALIASES];
extern const char *const pk__cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][PK__MAX_CACHE_ALIASES];
extern const char *const pk__cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][PK__MAX_CACHE_ALIASES];

/* pk__cache_op_valid - whether perf accepts op for cache type (L1I: read and
 * prefetch; iTLB and branch: read only; the rest: all three). */
bool pk__cache_op_valid(int type, int op);

/*
 * pk__cache_parse - parse "TYPE[-OP_OR_RESULT[-OP_OR_RESULT]]" the way perf
 * does (op defaults to load, result to access).  Returns the config, -ENOENT
 * when `name` is not a cache event name, or -EINVAL when it names a
 * combination perf rejects (the error record says which).
 */
int64_t pk__cache_parse(const char *name);

/* pk__cache_name - perf's canonical name for a cache config
 * ("L1-dcache-load-misses", "LLC-loads"); writes into buf. */
int pk__cache_name(uint64_t config, char *buf, size_t len);

/* ---- tool events (tool.c) ------------------------------------------------ */

/* pk__tool_find - the tool event named exactly `name`, or PK_TOOL_NONE.
 * pk__tool_name, pk__tool_desc - its name and description; NULL for
 * PK_TOOL_NONE. */
enum pk_tool_event pk__tool_find(const char *name);
const char *pk__tool_name(enum pk_tool_event t);
const char *pk__tool_desc(enum pk_tool_event t);

/* ---- tracepoints (tracepoint.c) -------------------------------------------- */

/*
 * pk__tp_expand - every tracepoint whose subsystem matches `sys_glob` and
 * whose name matches `ev_glob` (fnmatch globs), sorted by sys then name.
 * On success *out is a malloc'd array of *nr entries (free with
 * pk__tp_free) and returns 0; returns -ENOENT (the error record names the
 * closest existing tracepoint) when nothing matches, or the listing's
 * error (tracefs/).
 */
int pk__tp_expand(const char *tracefs, const char *sys_glob, const char *ev_glob,
		  struct pk__tp **out, size_t *nr);

/* ---- uprobes and kprobes (probe.c) ---------------------------------------- */

/*
 * pk__probe_encode - encode a probe through the uprobe or kprobe PMU
 * (kprobe=false: "PATH:SYMBOL[+OFF]" or "PATH:0xOFFSET"; kprobe=true:
 * "SYMBOL[+OFF]" or "0xADDRESS"), with retprobe selecting the return probe
 * through the PMU's `retprobe` format bit.  For uprobes the symbol's file
 * offset is computed from the ELF file (st_value minus the containing
 * segment's p_vaddr plus p_offset).  Sets attr->type, config (retprobe bit),
 * config1 (a pointer to *owned, the path or function name) and config2 (the
 * offset, or the address with a NULL name).  *owned is a heap string the
 * caller must keep alive as long as attr and free afterwards; *canonical is
 * a heap string like "uprobe:/usr/bin/bash:0x2f410".  Returns 0, -ENODEV
 * when the PMU is missing (message names the kernel option), -ENOENT when
 * the file or symbol does not exist (with a near-miss hint), or -EINVAL.
 * A kprobe symbol is looked up in `kallsyms` (NULL: /proc/kallsyms).
 */
int pk__probe_encode(const struct pk_pmus *pmus, const char *kallsyms, bool kprobe, bool retprobe,
		     const char *text, struct perf_event_attr *attr, char **owned,
		     char **canonical);

/* ---- libpfm4 (pfm.c) -------------------------------------------------------- */

/*
 * pk__pfm_encode - encode a libpfm4 event string ("INST_RETIRED:ANY_P:c=1:u",
 * "skx::INST_RETIRED:ANY_P", "perf::PERF_COUNT_SW_CPU_CLOCK") with
 * pfm_get_os_event_encoding(PFM_OS_PERF_EVENT_EXT), honouring
 * LIBPFM_FORCE_PMU (libpfm4 reads it itself).  Fills *attr (type, config,
 * config1, exclude_*, precise_ip, sample_period/freq, pinned, exclusive),
 * *fstr (libpfm4's fully-qualified string, heap) and *pmu (the libpfm4 PMU
 * name, heap).  Returns 0, -ENOENT when libpfm4 does not know the event
 * (the error record names the closest one when libpfm4 has a near miss),
 * -EINVAL for a bad attribute (the error record names it), or -EOPNOTSUPP
 * when libpfm4 cannot initialise.
 */
int pk__pfm_encode(const char *text, struct perf_event_attr *attr, char **fstr, char **pmu);

/* ---- the parsed list (parse.c) ---------------------------------------------- */

/*
 * One parsed event: what pk_events_desc shows, and its attr in the kernel's
 * VER8 layout (sys.h), so config3 sits at byte 128 of the attr
 * pk_events_attr returns whatever UAPI header the caller built against.
 * The parser writes config3 into the attr only; pk_events_parse copies it
 * into desc.config3 when parsing succeeds.
 */
struct pk__event {
	struct pk_event_desc desc;
	union pk__attr8 a;
	bool exclude_GH;	/* a G or H modifier set the guest/host bits (perf's evsel->exclude_GH) */
};

struct pk_events {
	struct pk__event *ev;	/* nr entries */
	size_t nr;
	char **owned;			/* strings referenced by attrs and descs */
	size_t nr_owned;
	bool frozen;			/* given to pk_evlist_new: attrs no longer mutable */
};

/*
 * pk__events_freeze - the evlist has copied the attrs of `ev`: from now on
 * pk_events_attr_mut refuses (NULL, -EBUSY), since a change would no
 * longer take effect.  The list itself is not changed otherwise.
 */
void pk__events_freeze(const struct pk_events *ev);

/* ---- near misses (suggest.c) ---------------------------------------------- */

/* pk__edit_distance - Levenshtein distance between two strings (case-sensitive). */
size_t pk__edit_distance(const char *a, const char *b);

/*
 * pk__edit_distance_max - the same distance when it is at most `max`, else
 * max + 1 (possibly less than the true distance).  Suggestions only care
 * about near misses, and this gives up as soon as one is out of reach
 * (lengths too far apart, or a whole row of the table above max), so
 * comparing a long mistyped string against thousands of names stays cheap.
 */
size_t pk__edit_distance_max(const char *a, const char *b, size_t max);

/* ---- the default event (generic.c) ----------------------------------------- */

/*
 * pk__event_default_cycles_fixup - perf 6.1's fixup of the cycles event
 * record opens when given no -e: on an AMD CPU (/proc/cpuinfo's vendor_id
 * AuthenticAMD) precise cycles go through IBS, which cannot filter the
 * guest, so that event leaves exclude_guest clear.  Elsewhere `a` is left
 * as parsed.  Only for the default: `-e cycles` keeps the bit, as in perf.
 */
void pk__event_default_cycles_fixup(struct perf_event_attr *a);

#endif
