/* SPDX-License-Identifier: MIT */
/*
 * perfkit/event.h - event strings in perf's grammar turned into
 * struct perf_event_attr (pk_events_parse), what parsing learned about each
 * event (struct pk_event_desc), attrs printed the way perf stat -vv prints
 * them, and probing whether an attr opens here.  Included by perfkit.h.
 */
#ifndef PERFKIT_EVENT_H
#define PERFKIT_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an event's encoding came from. */
enum pk_event_source {
	PK_SRC_HARDWARE,	/* generic hardware event: cycles, instructions, ... */
	PK_SRC_SOFTWARE,	/* software event: task-clock, page-faults, ... */
	PK_SRC_HW_CACHE,	/* generic cache event: L1-dcache-load-misses, ... */
	PK_SRC_RAW,		/* rNNNN */
	PK_SRC_PMU,		/* pmu/term=value,.../ or a sysfs alias */
	PK_SRC_TRACEPOINT,	/* subsys:event */
	PK_SRC_BREAKPOINT,	/* mem:ADDR[/LEN][:rwx] */
	PK_SRC_UPROBE,		/* uprobe:/path:symbol[+off], uretprobe:... */
	PK_SRC_KPROBE,		/* kprobe:symbol[+off], kretprobe:... */
	PK_SRC_LIBPFM,		/* a libpfm4 name: INST_RETIRED:ANY_P:u */
	PK_SRC_TOOL,		/* perf's tool events: duration_time, user_time, system_time */
};

/*
 * perf's tool events: figures the tool measures itself rather than the
 * kernel, counted in nanoseconds.  Their attr is a software dummy event
 * (what perf 6.1 puts there), which the evlist never opens.
 */
enum pk_tool_event {
	PK_TOOL_NONE,			/* a kernel event */
	PK_TOOL_DURATION_TIME,		/* wall-clock time while the evlist is enabled */
	PK_TOOL_USER_TIME,		/* user CPU time of the children reaped meanwhile */
	PK_TOOL_SYSTEM_TIME,		/* system CPU time of the children reaped meanwhile */
};

/* pk_event_source_name - "hardware", "software", "hw-cache", "raw", "pmu",
 * "tracepoint", "breakpoint", "uprobe", "kprobe", "libpfm4" or "tool". */
PK_API const char *pk_event_source_name(enum pk_event_source src);

/* Options for pk_events_parse.  Zero-initialise and set size = sizeof. */
struct pk_parse_opts {
	size_t size;
	bool no_libpfm;		/* do not try libpfm4 names */
	const char *tracefs;	/* tracefs directory to use instead of the probed one;
				 * tracefs is never mounted here (pk_tracefs_mount) */
	const char *kallsyms;	/* file in /proc/kallsyms' format to check kprobe
				 * symbols against instead of /proc/kallsyms */
	const struct pk_pmus *pmus;	/* a snapshot from pk_pmus_scan to parse against
				 * instead of scanning sysfs on each call; still the
				 * caller's, and must outlive the call only */
};

struct pk_events;	/* the result of parsing an event list */

/*
 * Everything parsing knows about one event beyond its attr (for which see
 * pk_events_attr).  Strings are owned by the pk_events object.
 */
struct pk_event_desc {
	size_t size;
	const char *name;	/* perf's name: the text as written, or name= */
	const char *canonical;	/* fully qualified: "software/task-clock/u" */
	const char *pmu;	/* the PMU that counts it: "cpu", "software", "tracepoint" */
	enum pk_event_source source;
	size_t leader;		/* index of its group leader (itself when alone or leading) */
	size_t nr_members;	/* events in its group when it leads one, else 1 */
	int column;		/* 1-based column where the event starts in the spec */
	const char *call_graph;	/* call-graph= term, or NULL */
	uint32_t stack_size;	/* stack-size= term, or 0 */
	int max_stack;		/* max-stack= term, or -1 */
	bool weak;		/* W modifier: reopen the group's events alone if it fails */
	bool sample_read;	/* S modifier */
	bool precise_max;	/* P modifier: highest precise level the PMU accepts */
	bool bpf_counter;	/* b modifier: perf would count through BPF; the attr is the same */
	bool no_inherit_set;	/* inherit/no-inherit term present */
	int time;		/* time= term: 1 or 0, or -1 when absent */
	int overwrite;		/* overwrite/no-overwrite term: 1 or 0, or -1 when absent */
	/*
	 * config3= (Linux 6.3+), or 0.  The attr itself is pk_events_attr's:
	 * this struct carries none, so its layout does not depend on the
	 * caller's kernel headers.
	 */
	uint64_t config3;
	enum pk_tool_event tool;	/* PK_TOOL_NONE unless source is PK_SRC_TOOL */
	bool rate_set;		/* period= or freq= term present */
};

/*
 * pk_events_parse - parse `spec`, a comma-separated list of events and
 * {groups} in perf's grammar (see docs/EVENTS.md), into attrs.
 * `opts` may be NULL.  PMU names, aliases and formats come from
 * opts->pmus when set (the snapshot is only read, and may be shared by
 * threads parsing at once), else from one sysfs scan made for this call.
 * Each attr is ready for perf_event_open except for
 * read_format, sample_type and disabled, which are the caller's choice; its
 * size is PERF_ATTR_SIZE_VER7 (128, what perf 6.1 uses) unless config3 is set.
 * On success stores the list in *out and returns the number of events (> 0).
 * On failure returns -EINVAL (malformed: the error's column points at the
 * offending character), -ENOENT (unknown event; the hint names the closest
 * known event when one is near), -ENODEV (the PMU is missing on this
 * machine), -EOPNOTSUPP (the syntax needs a feature this build or kernel
 * lacks) or -ENOMEM.
 * Thread safety: parsing is reentrant, except that the first libpfm4 name
 * in a process initialises libpfm4, which is not thread-safe: parse one
 * before starting threads that parse libpfm4 names, or set no_libpfm.
 */
PK_API int pk_events_parse(const char *spec, const struct pk_parse_opts *opts,
			   struct pk_events **out);

/* pk_events_free - free a parsed list.  NULL is a no-op. */
PK_API void pk_events_free(struct pk_events *ev);

/* pk_events_nr - the number of events in the list. */
PK_API size_t pk_events_nr(const struct pk_events *ev);

/*
 * pk_events_attr - the attr of event i, or NULL when i is out of range.  Its
 * size is PERF_ATTR_SIZE_VER7 (128) unless the event sets config3; then it
 * is 136 (PERF_ATTR_SIZE_VER8) and the library's buffer holds config3 in
 * the 8 bytes after the 6.1 struct, where kernels 6.3+ read it, so the attr
 * can be passed to perf_event_open as it is.  Copying it into a 128-byte
 * struct perf_event_attr drops config3 (pk_event_desc.config3 has it).
 */
PK_API const struct perf_event_attr *pk_events_attr(const struct pk_events *ev, size_t i);

/*
 * pk_events_attr_mut - the attr of event i for the caller to complete before
 * opening: sample_type, sample_id_all, write_backward, wakeup_*, the
 * mmap/comm/task sideband bits...  (read_format is the evlist's: see
 * pk_evlist_attr for what an event was opened with.)  The event identity the string gave (type,
 * config*, exclude_*, precise_ip, period/freq terms) should be left alone.
 * NULL when i is out of range, and NULL with pk_last_error() saying -EBUSY
 * once the list has been given to pk_evlist_new: the evlist copied the
 * attrs, so a change would silently not take effect (complete the attrs
 * first, or parse the list again for a differently laid out evlist).
 */
PK_API struct perf_event_attr *pk_events_attr_mut(struct pk_events *ev, size_t i);

/*
 * pk_events_group - make events first .. first+n-1 one group led by event
 * `first`, the groups they were in merged into it (their modifiers stay
 * on their members), as perf record --group's evlist__set_leader does
 * after parsing.  Returns 0; -EINVAL for a range outside the list, one
 * that splits a group, or n of 0; -EBUSY once the list has been given to
 * pk_evlist_new.
 */
PK_API int pk_events_group(struct pk_events *ev, size_t first, size_t n);

/* pk_events_desc - everything known about event i, or NULL when out of range. */
PK_API const struct pk_event_desc *pk_events_desc(const struct pk_events *ev, size_t i);

/*
 * pk_attr_format - write `attr` in the layout of `perf stat -vv`: one
 * "  name  value" line per non-zero field, in perf's field order and with
 * perf's spellings (sample_type and read_format as flag lists, bp_addr shown
 * as "{ bp_addr, config1 }").  Returns the length needed, like snprintf.
 */
PK_API int pk_attr_format(const struct perf_event_attr *attr, char *buf, size_t len);

/*
 * pk_attr_name - the name perf 6.1 gives an event known only by `attr`
 * (evsel__name without a parsed name): "cycles", "page-faults",
 * "L1-dcache-load-misses", "raw 0x1c2", "mem:0x1000:rw", each followed by
 * perf's modifiers from the exclude bits and precise_ip (":u", ":ppp",
 * ":H"); "unknown tracepoint" for a tracepoint (its name is in the
 * recording's tracing data) and "unknown attr type: N" for a dynamic PMU.
 * Writes at most `len` bytes including the NUL, cutting a longer name.
 * Returns 0; -EINVAL for a NULL attr or buf or a len of 0 (no error record).
 */
PK_API int pk_attr_name(const struct perf_event_attr *attr, char *buf, size_t len);

/*
 * pk_attr_field - field i of `attr` under its kernel UAPI name ("type",
 * "config", "exclude_user", "bp_addr", ...), in perf's print order, followed
 * by the second names of the unions (config1, config2, sample_freq,
 * wakeup_watermark).  Stores the name (a static string) and the value and
 * returns 0; returns -ERANGE when i is past the last field, so a loop from
 * 0 until -ERANGE visits every field.
 */
PK_API int pk_attr_field(const struct perf_event_attr *attr, size_t i, const char **name,
			 uint64_t *value);

/*
 * pk_attr_probe - whether `attr` opens here: opens it for the calling thread
 * on any CPU (cpu = -1) and closes it at once.  Returns 0 when it opens, or
 * the negative errno with pk_last_error explaining why and how to fix it
 * (privilege, paranoid level, a missing PMU with the software event to use
 * instead, a field this kernel lacks, ...).  `name` is used in messages and
 * may be NULL.
 */
PK_API int pk_attr_probe(const struct perf_event_attr *attr, const char *name);

/*
 * pk_suggest - the candidate nearest to `word` by edit distance (one
 * insertion, deletion or substitution each, case-sensitive), for a "did
 * you mean" hint: one of candidates[0..n), or NULL when none is close
 * enough to be a typo of it (at most 2 edits, or a third of word's length
 * when that is more, and always fewer edits than word has characters).
 * Among equally near candidates the first wins.  A NULL entry is skipped.
 * Reads only its arguments; never fails, never touches pk_last_error().
 */
PK_API const char *pk_suggest(const char *word, const char *const *candidates, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_EVENT_H */
