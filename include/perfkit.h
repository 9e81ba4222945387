/* SPDX-License-Identifier: MIT */
/*
 * perfkit.h - the public API of libperfkit.
 *
 * libperfkit turns perf_event_open(2) into a library: event strings in perf's
 * grammar become struct perf_event_attr, PMUs described in sysfs are
 * discovered, every event the machine offers can be enumerated with the
 * attributes that refine it, and every failure of the kernel interface comes
 * back as a negative errno plus a human explanation (pk_last_error()).
 *
 * Conventions, everywhere:
 *  - Fallible functions return int: >= 0 on success, a negative errno on
 *    failure.  Constructors return their object through an out-parameter,
 *    which is left untouched on failure.
 *  - After a failure, pk_last_error() describes it for people: what was
 *    attempted, why it failed, and how to fix it.  The record is per thread.
 *  - Objects are opaque and freed with their pk_<noun>_free(), which accepts
 *    NULL.  Pointers returned by accessors stay valid until the owning object
 *    is freed.
 *  - The library never prints, never exits, and reads the environment only
 *    for PERFKIT_SYSFS_ROOT (a directory standing in for /sys, for tests and
 *    for describing other machines).
 */
#ifndef PERFKIT_H
#define PERFKIT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_API __attribute__((visibility("default")))

/* ------------------------------------------------------------------------ */
/* Version                                                                  */
/* ------------------------------------------------------------------------ */

/*
 * pk_version - the library's version as "MAJOR.MINOR.PATCH".
 * Returns a static string; never fails.
 */
PK_API const char *pk_version(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * The detail behind the last failed call on this thread.  Every string is
 * non-NULL (possibly empty).  `column` is the 1-based column of the offending
 * character in an event string, or 0 when the error is not about a position.
 */
struct pk_error {
	int code;		/* the negative errno the call returned */
	int column;		/* 1-based column in the parsed string, or 0 */
	const char *what;	/* what was attempted: "perf_event_open(cycles, pid=0, cpu=-1)" */
	const char *why;	/* why it failed, in a sentence */
	const char *hint;	/* how to fix it, or "" when there is nothing to suggest */
};

/*
 * pk_last_error - the detail of the most recent failure on the calling thread.
 * Returns a pointer to thread-local storage that stays valid until the next
 * libperfkit call on this thread.  Before any failure, code is 0 and the
 * strings are empty.  Never returns NULL.
 */
PK_API const struct pk_error *pk_last_error(void);

/*
 * pk_error_format - render `e` as one message for people:
 *   "<what>: <why>" followed by "\n  hint: <hint>" when there is a hint.
 * Writes at most `len` bytes including the terminating NUL into `buf` and
 * returns the length the full message needs (like snprintf), so a return
 * value >= len means the message was cut.  `e` NULL means pk_last_error().
 */
PK_API int pk_error_format(const struct pk_error *e, char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */
/* ------------------------------------------------------------------------ */

/*
 * pk_num_parse_u64 - the whole string `s` as an unsigned number in
 * [min, max]: decimal ("010" is ten: no octal) or hex after 0x/0X, with no
 * sign, space or anything after the digits.  Returns 0 and sets *out on
 * success.  Returns -EINVAL when `s` is empty, holds something other than
 * digits, or `s`/`out` is NULL or min > max; -ERANGE when `s` is negative,
 * does not fit in 64 bits or lies outside [min, max].  On failure *out is
 * untouched and pk_last_error()->why quotes the value and the allowed range
 * ("'4294967297' is out of range: give a number from 1 to 4294967295"),
 * for the caller to prefix with the option or term it came from.
 */
PK_API int pk_num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * pk_num_parse_i64 - like pk_num_parse_u64 for a signed number in
 * [min, max], with an optional leading '-' ("-1", "-0x10").  Same results.
 */
PK_API int pk_num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/*
 * pk_num_parse_seconds - a duration in seconds written as decimal digits
 * with at most one '.' ("2", "0.5", ".25"), in [min, max].  Returns 0 and
 * sets *out; -EINVAL for anything else (empty, nan, inf, an exponent, a hex
 * float, a sign other than a leading '-', junk), -ERANGE for a negative
 * value or one outside [min, max].  pk_last_error() says which, as for
 * pk_num_parse_u64.  Never depends on the locale.
 */
PK_API int pk_num_parse_seconds(const char *s, double min, double max, double *out);

/* ------------------------------------------------------------------------ */
/* PMUs (sysfs discovery)                                                   */
/* ------------------------------------------------------------------------ */

struct pk_pmus;		/* a snapshot of every PMU under <sysfs>/bus/event_source/devices */
struct pk_pmu;		/* one PMU of a snapshot */

/* One format/ entry: a named term and the attr bits it occupies. */
struct pk_pmu_format {
	const char *name;	/* "event", "umask", "cmask", "inv", ... */
	int field;		/* 0 = config, 1 = config1, 2 = config2, 3 = config3 */
	uint64_t mask;		/* the bits of that field, e.g. 0xff for config:0-7 */
	const char *spec;	/* the file's text as written: "config:0-7,32-35" */
};

/* One events/ entry: an alias and its companion files. */
struct pk_pmu_alias {
	const char *name;	/* "cycles-t", "tsc" */
	const char *terms;	/* the file's text: "event=0x3c,in_tx=1" */
	const char *unit;	/* from .unit, or "" */
	double scale;		/* from .scale, or 1.0 */
	bool per_pkg;		/* .per-pkg holds 1 */
	bool snapshot;		/* .snapshot holds 1 */
};

/*
 * pk_pmus_scan - read every PMU under <root>/bus/event_source/devices, where
 * <root> is $PERFKIT_SYSFS_ROOT when set and "/sys" otherwise.
 * On success stores a new snapshot in *out (free with pk_pmus_free) and
 * returns 0.  A PMU whose directory cannot be read entirely is still listed
 * with what could be read.  Returns -ENOENT when the devices directory does
 * not exist (no perf_events support, or a wrong PERFKIT_SYSFS_ROOT) and
 * -ENOMEM on allocation failure.
 */
PK_API int pk_pmus_scan(struct pk_pmus **out);

/* pk_pmus_free - free a snapshot and every pk_pmu in it.  NULL is a no-op. */
PK_API void pk_pmus_free(struct pk_pmus *pmus);

/* pk_pmus_count - the number of PMUs in the snapshot. */
PK_API size_t pk_pmus_count(const struct pk_pmus *pmus);

/* pk_pmus_get - the i-th PMU, sorted by name; NULL when i is out of range. */
PK_API const struct pk_pmu *pk_pmus_get(const struct pk_pmus *pmus, size_t i);

/* pk_pmus_find - the PMU called `name`, or NULL when there is none. */
PK_API const struct pk_pmu *pk_pmus_find(const struct pk_pmus *pmus, const char *name);

/*
 * pk_pmus_dir - the devices directory the snapshot was read from
 * ("/sys/bus/event_source/devices"), for messages such as "no PMUs under
 * DIR".  Never NULL for a snapshot; "" for NULL.
 */
PK_API const char *pk_pmus_dir(const struct pk_pmus *pmus);

/*
 * pk_pmus_nr_unusable / pk_pmus_unusable - the directories of the devices
 * directory that look like PMUs but cannot be used, because their `type`
 * file is missing, unreadable, empty or not a number: perf_event_open needs
 * that number.  They are not among pk_pmus_get's PMUs.  pk_pmus_unusable
 * returns the i-th one's name and sets *why (when not NULL) to the reason
 * in a sentence ("its type file holds 'abc', not a number"); NULL when i
 * is out of range.  The strings live as long as the snapshot.
 */
PK_API size_t pk_pmus_nr_unusable(const struct pk_pmus *pmus);
PK_API const char *pk_pmus_unusable(const struct pk_pmus *pmus, size_t i, const char **why);

/* pk_pmu_name - the PMU's directory name ("cpu", "software", "uncore_imc_0"). */
PK_API const char *pk_pmu_name(const struct pk_pmu *pmu);

/* pk_pmu_type - the value for perf_event_attr.type, from the PMU's type file. */
PK_API uint32_t pk_pmu_type(const struct pk_pmu *pmu);

/* pk_pmu_nr_formats / pk_pmu_format - the format/ terms, sorted by name;
 * pk_pmu_format returns NULL when i is out of range. */
PK_API size_t pk_pmu_nr_formats(const struct pk_pmu *pmu);
PK_API const struct pk_pmu_format *pk_pmu_format(const struct pk_pmu *pmu, size_t i);

/* pk_pmu_find_format - the format term called `name`, or NULL. */
PK_API const struct pk_pmu_format *pk_pmu_find_format(const struct pk_pmu *pmu, const char *name);

/* pk_pmu_nr_aliases / pk_pmu_alias - the events/ aliases, sorted by name;
 * pk_pmu_alias returns NULL when i is out of range. */
PK_API size_t pk_pmu_nr_aliases(const struct pk_pmu *pmu);
PK_API const struct pk_pmu_alias *pk_pmu_alias(const struct pk_pmu *pmu, size_t i);

/* pk_pmu_find_alias - the alias called `name` (case-insensitive, like perf), or NULL. */
PK_API const struct pk_pmu_alias *pk_pmu_find_alias(const struct pk_pmu *pmu, const char *name);

/* pk_pmu_cpumask - the cpumask (or cpus) file's text, e.g. "0,18", or NULL
 * when the PMU has none (it then counts on any CPU). */
PK_API const char *pk_pmu_cpumask(const struct pk_pmu *pmu);

/* pk_pmu_nr_caps / pk_pmu_cap - the caps/ files as name/value pairs, sorted
 * by name; pk_pmu_cap returns -ERANGE when i is out of range. */
PK_API size_t pk_pmu_nr_caps(const struct pk_pmu *pmu);
PK_API int pk_pmu_cap(const struct pk_pmu *pmu, size_t i, const char **name, const char **value);

/* pk_pmu_mux_interval_ms - perf_event_mux_interval_ms, or -1 when absent. */
PK_API int pk_pmu_mux_interval_ms(const struct pk_pmu *pmu);

/* pk_pmu_rdpmc - the PMU's rdpmc file (0, 1 or 2), or -1 when absent. */
PK_API int pk_pmu_rdpmc(const struct pk_pmu *pmu);

/*
 * pk_pmu_encode - pack `value` into config[field] (config, config1, config2,
 * config3) as the format term `term` describes, scattering its bits over the
 * term's bit ranges the way the kernel gathers them.  Returns 0, -ENOENT when
 * the PMU has no such term, or -ERANGE when value does not fit in the term's
 * bits (pk_last_error names the largest value that fits).
 */
PK_API int pk_pmu_encode(const struct pk_pmu *pmu, const char *term, uint64_t value,
			 uint64_t config[4]);

/* ------------------------------------------------------------------------ */
/* Event strings -> perf_event_attr                                         */
/* ------------------------------------------------------------------------ */

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
};

/* pk_event_source_name - "hardware", "software", "hw-cache", "raw", "pmu",
 * "tracepoint", "breakpoint", "uprobe", "kprobe" or "libpfm4". */
PK_API const char *pk_event_source_name(enum pk_event_source src);

/* Options for pk_events_parse.  Zero-initialise and set size = sizeof. */
struct pk_parse_opts {
	size_t size;
	bool no_libpfm;		/* do not try libpfm4 names */
	const char *tracefs;	/* tracefs directory to use instead of the probed one;
				 * tracefs is never mounted here (pk_tracefs_mount) */
};

struct pk_events;	/* the result of parsing an event list */

/*
 * Everything parsing knows about one event beyond its attr.  Strings are
 * owned by the pk_events object.
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
	 * The attr, followed in memory by config3: the two together are the
	 * kernel's PERF_ATTR_SIZE_VER8 layout (136 bytes), which the 6.1 UAPI
	 * header this builds against does not know.  attr.size is 136 when
	 * config3 is non-zero and PERF_ATTR_SIZE_VER7 (128) otherwise.
	 */
	struct perf_event_attr attr;
	uint64_t config3;
};

/*
 * pk_events_parse - parse `spec`, a comma-separated list of events and
 * {groups} in perf's grammar (see docs/EVENTS.md), into attrs.
 * `opts` may be NULL.  Each attr is ready for perf_event_open except for
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

/* pk_events_count - the number of events in the list. */
PK_API size_t pk_events_count(const struct pk_events *ev);

/* pk_events_attr - the attr of event i, or NULL when i is out of range.
 * When attr->size is 136, config3 follows it in memory (see pk_event_desc). */
PK_API const struct perf_event_attr *pk_events_attr(const struct pk_events *ev, size_t i);

/*
 * pk_events_attr_mut - the attr of event i for the caller to complete before
 * opening: sample_type, sample_id_all, write_backward, wakeup_*, the
 * mmap/comm/task sideband bits...  (read_format is the evlist's: see
 * pk_evlist_attr for what an event was opened with.)  The event identity the string gave (type,
 * config*, exclude_*, precise_ip, period/freq terms) should be left alone.
 * NULL when i is out of range.
 */
PK_API struct perf_event_attr *pk_events_attr_mut(struct pk_events *ev, size_t i);

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
 * pk_attr_field - field i of `attr` under its kernel UAPI name ("type",
 * "config", "exclude_user", "bp_addr", ...), in perf's print order, followed
 * by the second names of the unions (config1, config2, sample_freq,
 * wakeup_watermark).  Stores the name (a static string) and the value and
 * returns 0; returns -ERANGE when i is past the last field, so a loop from
 * 0 until -ERANGE visits every field.
 */
PK_API int pk_attr_field(const struct perf_event_attr *attr, size_t i, const char **name,
			 uint64_t *value);

/* ------------------------------------------------------------------------ */
/* Event and attribute information (the libpfm4 model)                      */
/* ------------------------------------------------------------------------ */

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

/* pk_catalog_count - the number of events in the catalogue. */
PK_API size_t pk_catalog_count(const struct pk_catalog *cat);

/* pk_catalog_event - event i, or NULL when out of range. */
PK_API const struct pk_event_info *pk_catalog_event(const struct pk_catalog *cat, size_t i);

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

/* ------------------------------------------------------------------------ */
/* Counts: what read(2) on an event fd returns                              */
/* ------------------------------------------------------------------------ */

/* One counter's reading.  Fields the read_format did not ask for are 0. */
struct pk_count {
	uint64_t value;		/* raw count, not scaled */
	uint64_t enabled;	/* PERF_FORMAT_TOTAL_TIME_ENABLED, ns */
	uint64_t running;	/* PERF_FORMAT_TOTAL_TIME_RUNNING, ns */
	uint64_t id;		/* PERF_FORMAT_ID */
	uint64_t lost;		/* PERF_FORMAT_LOST (Linux 6.0+) */
};

/*
 * pk_count_parse - decode the bytes read(2) returned from an event fd opened
 * with `read_format`: one counter, or with PERF_FORMAT_GROUP the leader and
 * every member (group times are copied into each count).  Fills at most
 * `max` entries of `out` and returns the number of counters the buffer holds,
 * which may exceed max (then only max were filled, like snprintf).  Returns
 * -EINVAL, with the error naming the offset, when `len` is not exactly the
 * size the layout needs, or read_format has bits this library does not know.
 */
PK_API int pk_count_parse(uint64_t read_format, const void *buf, size_t len,
			  struct pk_count *out, size_t max);

/*
 * pk_count_scaled - the count corrected for multiplexing: value * enabled /
 * running, computed in 128 bits so it cannot overflow, rounded down, and
 * saturated at UINT64_MAX.  Returns value unchanged when the times were not
 * read (both 0) or the counter ran the whole time, and 0 when it was
 * enabled but never ran (check pk_count_ran()).
 */
PK_API uint64_t pk_count_scaled(const struct pk_count *c);

/*
 * pk_count_ran - whether the counter was ever scheduled on the PMU: false
 * when it was enabled but running is 0 (perf prints <not counted>), true
 * otherwise, including when the times were not read.
 */
PK_API bool pk_count_ran(const struct pk_count *c);

/* ------------------------------------------------------------------------ */
/* Counting: an evlist is events x CPUs x threads                           */
/* ------------------------------------------------------------------------ */

/*
 * What to count.  Zero-initialise and set size = sizeof.  threads and cpus
 * are the perf_event_open pid and cpu arguments: NULL threads means the
 * calling thread (pid 0) unless cpus are given, then every task on them
 * (pid -1); NULL cpus means any CPU (cpu -1).  The arrays are copied.
 */
struct pk_target {
	size_t size;
	const pid_t *threads;
	size_t nr_threads;
	const int *cpus;
	size_t nr_cpus;
	bool inherit;		/* also count children created after opening */
	bool enable_on_exec;	/* start counting at the target's next exec */
	bool skip_unsupported;	/* open the rest when an event cannot count here */
	bool fallbacks;		/* adjust and retry like perf (see pk_evlist_fallback) */
	bool group_read;	/* leaders read their whole group at once (PERF_FORMAT_GROUP) */
	/*
	 * Count only tasks in this cgroup (PERF_FLAG_PID_CGROUP), a path in the
	 * perf_event hierarchy ("/" for the root, "system.slice/ssh.service"):
	 * the cgroup v1 perf_event mount or else the cgroup2 mount.  Counted
	 * per CPU, so cpus must be given and threads must not.
	 */
	const char *cgroup;
};

/*
 * pk_cpus_parse - parse a CPU list like "0-3,8,10-11" (sysfs's and perf -C's
 * syntax) into a sorted, duplicate-free malloc'd array.  Returns 0 with
 * *cpus (free it) and *nr, or -EINVAL with the column of the bad character.
 */
PK_API int pk_cpus_parse(const char *list, int **cpus, size_t *nr);

/*
 * pk_cpus_online - the online CPUs, from <sysfs>/devices/system/cpu/online
 * (PERFKIT_SYSFS_ROOT applies).  Same result convention as pk_cpus_parse.
 */
PK_API int pk_cpus_online(int **cpus, size_t *nr);

/* Where a CPU sits, from sysfs: -1 for what the kernel does not report. */
struct pk_cpu_topology {
	int cpu;
	int socket;		/* topology/physical_package_id */
	int die;		/* topology/die_id (0 on kernels without dies) */
	int core;		/* topology/core_id */
	int node;		/* the NUMA node whose cpulist has it */
};

/*
 * pk_cpu_topology - read CPU `cpu`'s place from <sysfs>/devices/system
 * (PERFKIT_SYSFS_ROOT applies).  Returns 0, or -ENOENT (the error names the
 * file) when the CPU has no topology directory, or -ENOMEM.
 */
PK_API int pk_cpu_topology(int cpu, struct pk_cpu_topology *t);

/*
 * pk_cgroup_root - where the perf_event cgroup hierarchy is mounted: the
 * cgroup v1 mount with the perf_event controller, or else the cgroup2 mount,
 * from /proc/self/mounts.  Writes it to buf; 0, or -ENOENT when neither is
 * mounted (the hint says how to mount cgroup2).
 */
PK_API int pk_cgroup_root(char *buf, size_t len);

/*
 * pk_pid_threads - every thread of process `pid`, from /proc/PID/task, in
 * ascending order.  Returns 0 with *tids (free it) and *nr, -ESRCH when no
 * such process exists (the error says so), or -EACCES.
 */
PK_API int pk_pid_threads(pid_t pid, pid_t **tids, size_t *nr);

/*
 * pk_pid_tgid - the process (thread group) that thread `tid` belongs to,
 * from the Tgid: line of /proc/TID/status.  Returns the tgid (> 0), -ESRCH
 * when no such thread exists (the error says so), or -EACCES.
 */
PK_API pid_t pk_pid_tgid(pid_t tid);

struct pk_evlist;

/*
 * pk_evlist_new - prepare to count the events of `ev` on target `t`.
 * Copies what it needs of both (ev may be freed afterwards).  Opens nothing
 * yet.  Returns 0 with the evlist in *out, -EINVAL for an empty or
 * inconsistent target (the error says which), or -ENOMEM.
 */
PK_API int pk_evlist_new(const struct pk_events *ev, const struct pk_target *t,
			 struct pk_evlist **out);

/* pk_evlist_free - close every fd and free the evlist.  NULL is a no-op. */
PK_API void pk_evlist_free(struct pk_evlist *l);

/*
 * pk_evlist_open - open every event on every CPU x thread, disabled, group
 * members with their leader's fd, all close-on-exec.  With
 * skip_unsupported, a group that the machine cannot count (the kernel
 * says ENOENT, ENODEV or EOPNOTSUPP) is left closed and
 * reported by pk_evlist_supported while the rest open.  Returns 0, or the
 * first negative errno with pk_last_error explaining it; on failure nothing
 * stays open.
 */
PK_API int pk_evlist_open(struct pk_evlist *l);

/*
 * pk_evlist_fallback - with pk_target.fallbacks, what pk_evlist_open had to
 * change for event i to open, as a sentence for the user that does not name
 * the event (so identical notes can be shown once), or NULL when it opened
 * as asked.  pk_evlist_attr gives the attr it opened with.  The changes perf makes too: counting user space only
 * (exclude_kernel and exclude_hv) when the kernel refuses kernel counting
 * (EACCES/EPERM), and dropping exclude_guest/exclude_host for a PMU that
 * rejects them (EINVAL).  The string lives as long as the evlist.
 */
PK_API const char *pk_evlist_fallback(const struct pk_evlist *l, size_t i);

/* pk_evlist_attr - the attr event i is (or will be) opened with, after any
 * fallback; NULL when i is out of range. */
PK_API const struct perf_event_attr *pk_evlist_attr(const struct pk_evlist *l, size_t i);

/* pk_evlist_supported - 0 when event i opened, else the negative errno that
 * kept it closed; -ERANGE when i is out of range. */
PK_API int pk_evlist_supported(const struct pk_evlist *l, size_t i);

/* pk_evlist_enable / disable / reset - start, stop or zero every open group
 * (ioctl with PERF_IOC_FLAG_GROUP on each leader).  0 or a negative errno. */
PK_API int pk_evlist_enable(struct pk_evlist *l);
PK_API int pk_evlist_disable(struct pk_evlist *l);
PK_API int pk_evlist_reset(struct pk_evlist *l);

/*
 * pk_evlist_read - event i summed over every CPU x thread: each fd's count
 * is scaled for multiplexing first (pk_count_scaled), then value, enabled
 * and running are added up, so the sum's value is already scaled.  Returns
 * 0; -ENODATA when the event is not open (unsupported), -EIO when a pinned
 * counter fell into error state (the error names the event), -ERANGE when i
 * is out of range, or the read's negative errno.
 */
PK_API int pk_evlist_read(struct pk_evlist *l, size_t i, struct pk_count *sum);

/* pk_evlist_nr_cpus / pk_evlist_cpu - the CPUs counted on: cpu index ->
 * CPU number, -1 meaning any CPU.  pk_evlist_cpu returns -1 out of range. */
PK_API size_t pk_evlist_nr_cpus(const struct pk_evlist *l);
PK_API int pk_evlist_cpu(const struct pk_evlist *l, size_t cpu_idx);

/* pk_evlist_nr_threads / pk_evlist_thread - the threads counted: thread
 * index -> tid, -1 meaning every task on the CPU.  Returns -1 out of range. */
PK_API size_t pk_evlist_nr_threads(const struct pk_evlist *l);
PK_API pid_t pk_evlist_thread(const struct pk_evlist *l, size_t thread_idx);

/*
 * pk_evlist_read_one - event i on one CPU x thread, scaled for multiplexing
 * (value is pk_count_scaled; enabled and running as read).  Same returns as
 * pk_evlist_read, and -ERANGE for an index out of range.
 */
PK_API int pk_evlist_read_one(struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx,
			      struct pk_count *c);

/*
 * pk_evlist_read_group - with pk_target.group_read, the counts of the group
 * that event `lead` leads, on one CPU x thread, in one read(2): the kernel
 * reads them together, so they cover exactly the same time.  Fills at most
 * `max` counts (each scaled), in group order, and returns how many the group
 * has; -EINVAL when `lead` is not a group leader or group_read is off, plus
 * pk_evlist_read_one's errors.
 */
PK_API int pk_evlist_read_group(struct pk_evlist *l, size_t lead, size_t cpu_idx, size_t thread_idx,
				struct pk_count *out, size_t max);

/*
 * pk_evlist_id - the kernel's id of event i on one CPU x thread
 * (PERF_EVENT_IOC_ID), which samples and group reads carry.  0 or -errno.
 */
PK_API int pk_evlist_id(struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx,
			uint64_t *id);

/*
 * pk_evlist_period - set the sampling period of event i on every CPU x
 * thread (PERF_EVENT_IOC_PERIOD).  The event must be a sampling one
 * (period= or freq=); otherwise the kernel says EINVAL and so does this.
 */
PK_API int pk_evlist_period(struct pk_evlist *l, size_t i, uint64_t period);

/*
 * pk_evlist_refresh - let event i overflow `n` more times before it disables
 * itself (PERF_EVENT_IOC_REFRESH), on every CPU x thread.  The kernel
 * refuses it for inherited events (EINVAL).
 */
PK_API int pk_evlist_refresh(struct pk_evlist *l, size_t i, int n);

/*
 * pk_task_counters_enable - enable (true) or disable every counter attached
 * to the calling process, whoever opened it: prctl(PR_TASK_PERF_EVENTS_*).
 * 0 or a negative errno.
 */
PK_API int pk_task_counters_enable(bool enable);

/* ------------------------------------------------------------------------ */
/* Sampling: the mmap ring buffers                                          */
/* ------------------------------------------------------------------------ */

struct pk_ring;		/* one kernel ring buffer, read from user space */
struct pk_rings;	/* the rings of an evlist */

/*
 * pk_rings_map - map one ring buffer of `pages` data pages (a power of
 * two) plus the control page for each CPU x thread of an open evlist, and
 * route every other event of that CPU x thread into it
 * (PERF_EVENT_IOC_SET_OUTPUT), as perf record does; overwrite
 * (write_backward) events get a second ring of their own per CPU x thread,
 * since the kernel does not mix the two in one ring.  Returns 0 with the
 * rings in *out (free them with pk_rings_free before the evlist); -EINVAL
 * when pages is not a power of two or an event is not open; or the mmap's
 * error, explained with perf_event_mlock_kb and RLIMIT_MEMLOCK when the
 * kernel refuses the size.
 */
PK_API int pk_rings_map(struct pk_evlist *l, size_t pages, struct pk_rings **out);

/* pk_rings_free - unmap every ring.  NULL is a no-op. */
PK_API void pk_rings_free(struct pk_rings *rs);

/* pk_rings_count / pk_rings_get - the rings, in CPU x thread order; when
 * some events write backward (overwrite mode), their rings follow, in the
 * same order, after the normal ones (whose slots are then empty rings where
 * no normal event exists).  pk_rings_get returns NULL out of range. */
PK_API size_t pk_rings_count(const struct pk_rings *rs);
PK_API struct pk_ring *pk_rings_get(struct pk_rings *rs, size_t idx);

/*
 * pk_rings_poll - wait up to timeout_ms (-1: forever) until a ring has data
 * to read (the kernel's wakeup_events / wakeup_watermark decide when it
 * wakes us) or every monitored task has exited.  Returns the number of
 * rings with data, 0 on timeout, or a negative errno (-EINTR when a signal
 * arrived).  After it, pk_rings_hangup says whether the tasks are all gone.
 */
PK_API int pk_rings_poll(struct pk_rings *rs, int timeout_ms);

/* pk_rings_hangup - true once every ring reported POLLHUP: no monitored task
 * is left, so no more data will come after what the rings hold. */
PK_API bool pk_rings_hangup(const struct pk_rings *rs);

/*
 * pk_ring_pause - stop (true) or restart (false) the kernel's writing into
 * the ring (PERF_EVENT_IOC_PAUSE_OUTPUT).  Records that arrive while it is
 * paused are lost and counted by the kernel.  0 or a negative errno.
 */
PK_API int pk_ring_pause(struct pk_ring *r, bool pause);

/*
 * pk_ring_is_overwrite - whether the ring is an overwrite ring: its events
 * were opened with attr.write_backward, the kernel keeps writing over the
 * oldest records and never waits for us, and the ring is read as a
 * snapshot: pause it, read every record from the newest to the oldest
 * still whole with pk_ring_next (which then returns them newest first),
 * and restart it.
 */
PK_API bool pk_ring_is_overwrite(const struct pk_ring *r);

/*
 * pk_ring_next - the next record the kernel wrote, in order.  Returns 1 and
 * points *rec at it (a record that wraps the end of the buffer is copied to
 * a scratch area first, so it is always contiguous), 0 when no record is
 * left, or -EINVAL when the buffer holds something that is not a valid
 * record (a size of less than a header, or more than the kernel published);
 * the error names the offset.  *rec stays valid until the next call or
 * pk_ring_consume.  The head is read with acquire ordering, so everything
 * the kernel wrote before publishing it is visible.
 */
PK_API int pk_ring_next(struct pk_ring *r, const struct perf_event_header **rec);

/*
 * pk_ring_consume - give the space of every record returned so far back to
 * the kernel (a release store of data_tail, after our reads of it).
 */
PK_API void pk_ring_consume(struct pk_ring *r);

/*
 * pk_rings_map_aux - map the AUX area of ring `idx`: `pages` pages (a power
 * of two) after the data area, for PMUs that write bulk trace data there
 * (Intel PT, ARM SPE, CoreSight).  Returns 0; -EINVAL for a bad page count
 * or index; the kernel's refusal (EOPNOTSUPP or EINVAL when the ring's
 * events are not on such a PMU) with the error saying so.  Unmapped by
 * pk_rings_free.
 */
PK_API int pk_rings_map_aux(struct pk_rings *rs, size_t idx, size_t pages);

/*
 * pk_ring_aux_next - the next unread AUX bytes, as one contiguous chunk up
 * to the end of the area (call again for the part after a wrap).  Returns 1
 * with *data and *len set, 0 when nothing is unread or no AUX area is
 * mapped.  aux_head is read with acquire ordering.
 */
PK_API int pk_ring_aux_next(struct pk_ring *r, const void **data, size_t *len);

/* pk_ring_aux_consume - give the AUX bytes returned so far back to the
 * kernel (a release store of aux_tail). */
PK_API void pk_ring_aux_consume(struct pk_ring *r);

/* pk_ring_size - the data area's size in bytes. */
PK_API size_t pk_ring_size(const struct pk_ring *r);

/* ------------------------------------------------------------------------ */
/* Derived figures: what perf stat prints to the right of a count           */
/* ------------------------------------------------------------------------ */

/* One event's count, as input to pk_metric_derive. */
struct pk_metric_input {
	const struct perf_event_attr *attr;
	double value;		/* the scaled count (a mean over runs is fine) */
	bool counted;		/* false: not supported or not counted here */
};

/* A derived figure: printf(format, value) then the unit, as perf prints it. */
struct pk_metric {
	double value;
	const char *format;	/* perf's: "%8.3f", "%7.2f ", "%7.2f%%", "%8.3f %%" */
	const char *unit;	/* "CPUs utilized", "insn per cycle", "of all branches", "GHz", "M/sec" */
};

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
 * -ERANGE when i >= nr.
 */
PK_API int pk_metric_derive(const struct pk_metric_input *in, size_t nr, size_t i, double wall_ns,
			    struct pk_metric *out, size_t max);

/* ------------------------------------------------------------------------ */
/* Workloads: a command started for counting                                */
/* ------------------------------------------------------------------------ */

struct pk_workload;

/*
 * pk_workload_start - fork a child that will run argv (argv[0] searched in
 * PATH) but is held before exec until pk_workload_go, so counters can be
 * opened on its pid with enable_on_exec first and count only the command.
 * The child is killed (SIGKILL) when the thread that started it dies.
 * Returns 0 with the workload in *out, -EINVAL for an empty argv, or the
 * negative errno of pipe/fork.
 */
PK_API int pk_workload_start(char *const argv[], struct pk_workload **out);

/*
 * pk_workload_spawn - run argv at once (posix_spawnp: no copy of the
 * caller's page tables, so cheaper than pk_workload_start).  To count it,
 * open the events on the calling thread (pid 0) with inherit and
 * enable_on_exec *before* spawning: the child inherits them and the kernel
 * enables them at its exec, while the caller, which never execs, is not
 * counted; reads of the caller's events then include the child's counts.
 * Returns 0 with the running workload in *out (pk_workload_go is then a
 * no-op), or the exec's negative errno with pk_last_error saying which
 * command could not run.
 */
PK_API int pk_workload_spawn(char *const argv[], struct pk_workload **out);

/* pk_workload_pid - the child's pid, for pk_target.threads. */
PK_API pid_t pk_workload_pid(const struct pk_workload *w);

/*
 * pk_workload_go - release the child to exec the command.  Returns 0 once
 * the exec has happened, or the exec's negative errno (-ENOENT: no such
 * command, -EACCES: not executable) with pk_last_error saying which command
 * could not run; the child has then exited and been reaped.
 */
PK_API int pk_workload_go(struct pk_workload *w);

/*
 * pk_workload_wait - wait for the command to end.  Returns its exit status
 * as a shell reports it (0-255, or 128 + N when killed by signal N), or a
 * negative errno when waiting fails.  EINTR is retried.
 */
PK_API int pk_workload_wait(struct pk_workload *w);

/* pk_workload_try_wait - like pk_workload_wait, but returns -EAGAIN at once
 * when the command is still running. */
PK_API int pk_workload_try_wait(struct pk_workload *w);

/*
 * pk_workload_signal - the signal that ended the command, once it has been
 * waited for; 0 when it exited (even with status 128 + N) or is still
 * running.
 */
PK_API int pk_workload_signal(const struct pk_workload *w);

/* pk_workload_kill - send `sig` to the child (to forward SIGINT/SIGTERM).
 * Returns 0 or a negative errno (-ESRCH once it has been reaped). */
PK_API int pk_workload_kill(struct pk_workload *w, int sig);

/* pk_workload_free - free the handle.  A child still held before exec is
 * killed and reaped; a running one is left alone.  NULL is a no-op. */
PK_API void pk_workload_free(struct pk_workload *w);

/* ------------------------------------------------------------------------ */
/* Opening                                                                  */
/* ------------------------------------------------------------------------ */

/*
 * pk_attr_probe - whether `attr` opens here: opens it for the calling thread
 * on any CPU (cpu = -1) and closes it at once.  Returns 0 when it opens, or
 * the negative errno with pk_last_error explaining why and how to fix it
 * (privilege, paranoid level, a missing PMU with the software event to use
 * instead, a field this kernel lacks, ...).  `name` is used in messages and
 * may be NULL.
 */
PK_API int pk_attr_probe(const struct perf_event_attr *attr, const char *name);

/* ------------------------------------------------------------------------ */
/* Near misses                                                              */
/* ------------------------------------------------------------------------ */

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

#include "perfkit/record.h"
#include "perfkit/data.h"
#include "perfkit/symbols.h"
#include "perfkit/recorder.h"
#include "perfkit/tracefs.h"

#endif /* PERFKIT_H */
