/* SPDX-License-Identifier: MIT */
/*
 * perfkit/pmu.h - the PMUs the kernel describes in sysfs
 * (<sysfs>/bus/event_source/devices): their types, format terms, event
 * aliases, caps and cpumasks, and the encoding of a term's value into the
 * config fields.  Included by perfkit.h.
 */
#ifndef PERFKIT_PMU_H
#define PERFKIT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* pk_pmus_nr - the number of PMUs in the snapshot. */
PK_API size_t pk_pmus_nr(const struct pk_pmus *pmus);

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

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_PMU_H */
