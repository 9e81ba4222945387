/* SPDX-License-Identifier: MIT */
/*
 * catalog-sysfs.c - the catalogue's kernel-described sources: every sysfs
 * PMU's events/ aliases and its raw format terms, and every tracepoint under
 * tracefs with its format fields as attributes (read on first use through
 * tracefs/'s format parser, since the format files are the slowest thing the
 * catalogue touches).
 */
#include "catalog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sysfs PMUs --------------------------------------------------------- */

/* The config an alias selects: each term packed through the PMU's format;
 * terms the format does not know (config=, period=) are taken as written. */
static uint64_t alias_config(const struct pk_pmu *pmu, const char *terms)
{
	uint64_t config[4] = { 0 };
	char term[64];

	for (const char *p = terms; p && *p;) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);
		size_t tl = eq ? (size_t)(eq - p) : n;
		uint64_t val = eq ? strtoull(eq + 1, NULL, 0) : 1;

		if (tl < sizeof(term)) {
			memcpy(term, p, tl);
			term[tl] = '\0';
			if (!strcmp(term, "config"))
				config[0] = val;
			else
				pk_pmu_encode(pmu, term, val, config);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return config[0];
}

static int add_alias(struct pk_catalog *cat, const struct pk_pmu *pmu, const struct pk_pmu_alias *al)
{
	const char *pn = pk_pmu_name(pmu);
	char name[256], desc[512];
	struct pk_attr_info *a;
	struct cat_event *e;
	size_t n;
	int len;

	snprintf(name, sizeof(name), "%s/%s/", pn, al->name);
	len = snprintf(desc, sizeof(desc), "%s", al->terms);
	if (al->unit && al->unit[0] && len >= 0 && (size_t)len < sizeof(desc))
		len += snprintf(desc + len, sizeof(desc) - (size_t)len, " (unit %s, scale %.12g)",
				al->unit, al->scale);
	else if (al->scale != 1.0 && len >= 0 && (size_t)len < sizeof(desc))
		len += snprintf(desc + len, sizeof(desc) - (size_t)len, " (scale %.12g)", al->scale);
	if (al->per_pkg && len >= 0 && (size_t)len < sizeof(desc))
		snprintf(desc + len, sizeof(desc) - (size_t)len, ", counted per package");
	e = pk__cat_add(cat, PK_SRC_PMU, name, pn, desc, NULL);
	if (!e)
		return pk__error_nomem("a catalog entry for a PMU event");
	e->info.equiv = pk__cat_printf(cat, "%s/%s/", pn, al->terms);
	if (!e->info.equiv || pk__cat_format_attrs(cat, pmu, al->terms, &a, &n))
		return pk__error_nomem("a catalog entry for a PMU event");
	e->info.code = alias_config(pmu, al->terms);
	pk__cat_set_own(e, a, n);
	return 0;
}

/* "cpu/raw": the PMU's format terms, for "cpu/event=0x3c,umask=1/". */
static int add_pmu_raw(struct pk_catalog *cat, const struct pk_pmu *pmu)
{
	const char *pn = pk_pmu_name(pmu);
	char name[128], desc[256], canon[160];
	struct pk_attr_info *a;
	struct cat_event *e;
	size_t n;

	snprintf(name, sizeof(name), "%s/raw", pn);
	snprintf(desc, sizeof(desc), "Raw %s event: %s/term=value[,term=value...]/ with the terms below",
		 pn, pn);
	snprintf(canon, sizeof(canon), "%s/config=0/", pn);
	e = pk__cat_add(cat, PK_SRC_RAW, name, pn, desc, canon);
	if (!e || pk__cat_format_attrs(cat, pmu, NULL, &a, &n))
		return pk__error_nomem("a catalog entry for a PMU");
	pk__cat_set_own(e, a, n);
	return 0;
}

/* The PMUs with sources of their own in the catalogue. */
static bool pmu_has_own_source(const struct pk_pmu *pmu)
{
	uint32_t type = pk_pmu_type(pmu);
	const char *name = pk_pmu_name(pmu);

	return type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_TRACEPOINT ||
	       type == PERF_TYPE_BREAKPOINT || !strcmp(name, "uprobe") || !strcmp(name, "kprobe");
}

int pk__cat_add_sysfs(struct pk_catalog *cat, const struct pk_pmus *pmus)
{
	for (size_t i = 0; i < pk_pmus_nr(pmus); i++) {
		const struct pk_pmu *pmu = pk_pmus_get(pmus, i);

		if (pmu_has_own_source(pmu))
			continue;
		for (size_t j = 0; j < pk_pmu_nr_aliases(pmu); j++)
			if (add_alias(cat, pmu, pk_pmu_alias(pmu, j)))
				return -ENOMEM;
		if (pk_pmu_nr_formats(pmu) && add_pmu_raw(cat, pmu))
			return -ENOMEM;
	}
	return 0;
}

/* ---- tracepoints ------------------------------------------------------------ */

int pk__cat_add_tracepoints(struct pk_catalog *cat, const struct pk_catalog_opts *opts)
{
	char dir[512];
	const char *tracefs;
	struct pk__tp *tps = NULL;
	size_t nr = 0;
	int err = 0;

	/* No tracefs, or none readable, means no tracepoints: not an error.
	 * Nothing is mounted here: the caller asks for that (pk_tracefs_mount). */
	if (pk__tracefs_find(opts->tracefs, dir, sizeof(dir)) < 0)
		return 0;
	/* Out of memory is an error, though, not an unreadable tracefs. */
	err = pk__tracefs_list(dir, "*", "*", 0, "list tracepoints", &tps, &nr);
	if (err < 0)
		return err == -ENOMEM ? err : 0;
	if (!(tracefs = pk__cat_strdup(cat, dir)))
		err = pk__error_nomem("the catalog's tracefs path");
	for (size_t i = 0; i < nr && !err; i++) {
		char name[256];
		struct cat_event *e;

		snprintf(name, sizeof(name), "%s:%s", tps[i].sys, tps[i].name);
		e = pk__cat_add(cat, PK_SRC_TRACEPOINT, name, "tracepoint", "", NULL);
		if (!e || !(e->tp_sys = pk__cat_strdup(cat, tps[i].sys)) ||
		    !(e->tp_name = pk__cat_strdup(cat, tps[i].name))) {
			err = pk__error_nomem("a catalog entry for a tracepoint");
			break;
		}
		e->tp_tracefs = tracefs;
		e->kind = CAT_TRACEPOINT;
		e->info.code = tps[i].id;
	}
	pk__tp_free(tps, nr);
	return err;
}

/* One field of a parsed format as an attribute: its offset is the code. */
static bool field_attr(struct pk_catalog *cat, const struct pk__tp_field *f, struct pk_attr_info *a)
{
	a->size = sizeof(*a);
	a->name = pk__cat_strdup(cat, f->name);
	a->desc = pk__cat_printf(cat, "%s: offset %u, size %u, %s", f->type, f->offset, f->size,
				 f->is_signed ? "signed" : "unsigned");
	if (!a->name || !a->desc)
		return false;
	a->equiv = "";
	a->code = f->offset;
	a->type = f->is_string ? PK_ATTR_MOD_STR : PK_ATTR_MOD_INT;
	a->ctrl = PK_ATTR_CTRL_PMU;
	a->field = -1;
	return true;
}

void pk__cat_load_tracepoint(struct pk_catalog *cat, struct cat_event *e)
{
	struct pk__tp_format *f;
	struct pk_attr_info *a;
	size_t n = 0;

	e->loaded = true;
	if (pk__tracefs_format(e->tp_tracefs, e->tp_sys, e->tp_name, &f) < 0)
		return;
	/* The common_ fields are in every record: not the event's own. */
	a = f->nr_fields ? pk__cat_alloc(cat, f->nr_fields * sizeof(*a)) : NULL;
	if (a) {
		for (size_t i = 0; i < f->nr_fields; i++)
			if (!f->fields[i].is_common && field_attr(cat, &f->fields[i], &a[n]))
				n++;
		pk__cat_set_own(e, a, n);
	}
	pk__tp_format_free(f);
}
