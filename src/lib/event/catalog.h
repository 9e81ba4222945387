/* SPDX-License-Identifier: MIT */
/*
 * catalog.h - the catalogue's internals shared by its source files:
 * catalog.c (the object, generic/cache/breakpoint/probe events, find and
 * attribute lookup), catalog-sysfs.c (sysfs PMU aliases, raw PMU terms and
 * tracepoints) and catalog-pfm.c (libpfm4's tables).
 */
#ifndef PK_CATALOG_H
#define PK_CATALOG_H

#include "event.h"

#include <pthread.h>

/* How an event's attributes are laid out (see cat_event). */
enum cat_kind {
	CAT_PLAIN,		/* own PMU-layer attrs + the shared perf/ext tables */
	CAT_TRACEPOINT,		/* like PLAIN, but the fields are read on first use */
	CAT_LIBPFM,		/* libpfm4's own per-layer lists (own + hi) */
};

/*
 * One catalogue entry.  Attribute index i at layer os is:
 *  - PLAIN/TRACEPOINT: own[i] for i < nr_attrs[PMU], then the shared
 *    perf-layer table, then the extended table;
 *  - LIBPFM: own[i] at PK_OS_PMU, hi[i] at the perf layers, where hi lists
 *    the PMU-layer names first (in libpfm4's PFM_OS_NONE order) so that an
 *    index valid at PK_OS_PMU names the same attribute at every layer.
 */
struct cat_event {
	struct pk_event_info info;
	enum cat_kind kind;
	bool loaded;			/* TRACEPOINT: fields read */
	struct pk_attr_info *own;	/* nr_attrs[PK_OS_PMU] entries */
	struct pk_attr_info *hi;	/* LIBPFM: nr_attrs[PK_OS_PERF_EXT] entries */
	const char *tp_tracefs;		/* TRACEPOINT: the tracefs directory (shared) */
	const char *tp_sys, *tp_name;	/* TRACEPOINT: events/<tp_sys>/<tp_name> */
};

/* A bump allocator for the catalogue's strings and attribute arrays. */
struct cat_arena {
	struct cat_block *blocks;
};

struct pk_catalog {
	struct cat_event *ev;
	size_t nr, alloc;
	struct cat_arena arena;
	pthread_mutex_t lock;		/* serialises lazy tracepoint loading */
};

/* Arena helpers: return NULL on allocation failure. */
void *pk__cat_alloc(struct pk_catalog *cat, size_t size);
char *pk__cat_strdup(struct pk_catalog *cat, const char *s);
char *pk__cat_printf(struct pk_catalog *cat, const char *fmt, ...) PK__PRINTF(2, 3);

/*
 * pk__cat_add - append a zeroed entry with name/pmu/desc/canonical/source set
 * (strings copied into the arena; NULL means "") and the shared perf/ext
 * layer counts.  Returns the entry, or NULL on allocation failure.
 */
struct cat_event *pk__cat_add(struct pk_catalog *cat, enum pk_event_source src, const char *name,
			      const char *pmu, const char *desc, const char *canonical);

/* pk__cat_set_own - give a PLAIN entry its PMU-layer attributes (n entries
 * already in the arena) and fix up nr_attrs. */
void pk__cat_set_own(struct cat_event *e, struct pk_attr_info *own, size_t n);

/*
 * pk__cat_format_attrs - the PMU's format terms as attributes (MOD_BOOL for a
 * one-bit term, MOD_INT otherwise; ctrl PMU; code = mask), with the defaults
 * of `terms` ("event=0x3c,umask=1", may be NULL) marked is_dfl.  Stores the
 * array in *out and its length in *n.  Returns 0 or -ENOMEM.
 */
int pk__cat_format_attrs(struct pk_catalog *cat, const struct pk_pmu *pmu, const char *terms,
			 struct pk_attr_info **out, size_t *n);

/* Sources in their own files.  Each returns 0 or -ENOMEM; an unavailable
 * source (no tracefs, libpfm4 failing to initialise) is skipped. */
int pk__cat_add_sysfs(struct pk_catalog *cat, const struct pk_pmus *pmus);
int pk__cat_add_tracepoints(struct pk_catalog *cat, const struct pk_catalog_opts *opts);
int pk__cat_add_libpfm(struct pk_catalog *cat, bool all);

/* pk__cat_load_tracepoint - read a tracepoint's format file into e->own
 * (caller holds cat->lock), parsed by tracefs/.  A missing, unreadable or
 * malformed file leaves no fields. */
void pk__cat_load_tracepoint(struct pk_catalog *cat, struct cat_event *e);

#endif
