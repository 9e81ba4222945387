/* SPDX-License-Identifier: MIT */
/*
 * catalog-pfm.c - libpfm4's event tables as catalogue entries: every event
 * of every PMU libpfm4 detects (or of all its PMUs on request), with its
 * attributes at the three OS layers mapped one to one from
 * pfm_get_event_attr_info(PFM_OS_NONE / PERF_EVENT / PERF_EVENT_EXT).
 * LIBPFM_FORCE_PMU is honoured because libpfm4 reads it in pfm_initialize().
 */
#include "catalog.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpfm4's attribute types and controllers, in ours. */
static enum pk_attr_type map_type(pfm_attr_t t)
{
	switch (t) {
	case PFM_ATTR_MOD_BOOL:
		return PK_ATTR_MOD_BOOL;
	case PFM_ATTR_MOD_INTEGER:
		return PK_ATTR_MOD_INT;
	default:
		return PK_ATTR_UMASK;
	}
}

static int copy_attr(struct pk_catalog *cat, const pfm_event_attr_info_t *in, struct pk_attr_info *a)
{
	a->size = sizeof(*a);
	a->name = pk__cat_strdup(cat, in->name);
	a->desc = pk__cat_strdup(cat, in->desc);
	a->equiv = pk__cat_strdup(cat, in->equiv);
	if (!a->name || !a->desc || !a->equiv)
		return pk__error_nomem("a libpfm4 attribute");
	a->code = in->code;
	a->type = map_type(in->type);
	a->ctrl = in->ctrl == PFM_ATTR_CTRL_PERF_EVENT ? PK_ATTR_CTRL_PERF_EVENT : PK_ATTR_CTRL_PMU;
	a->is_dfl = in->is_dfl;
	a->dfl_val64 = in->dfl_val64;
	a->is_precise = in->is_precise;
	a->is_speculative = in->is_speculative == PFM_EVENT_INFO_SPEC_TRUE;
	a->field = -1;
	return 0;
}

#define MAX_PFM_ATTRS 128

/* One layer's attributes, as libpfm4 returns them. */
struct layer {
	pfm_event_attr_info_t a[MAX_PFM_ATTRS];
	int n;
};

static void read_layer(int idx, pfm_os_t os, struct layer *l)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };

	l->n = 0;
	if (pfm_get_event_info(idx, os, &ei) != PFM_SUCCESS)
		return;
	for (int i = 0; i < ei.nattrs && l->n < MAX_PFM_ATTRS; i++) {
		pfm_event_attr_info_t *a = &l->a[l->n];

		memset(a, 0, sizeof(*a));
		a->size = sizeof(*a);
		if (pfm_get_event_attr_info(idx, i, os, a) == PFM_SUCCESS)
			l->n++;
	}
}

static const pfm_event_attr_info_t *layer_find(const struct layer *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->a[i].name, name))
			return &l->a[i];
	return NULL;
}

/*
 * libpfm4 renumbers at each layer (the PMU's own u/k give way to
 * perf_events' u/k), so the perf-layer view is rebuilt name by name: the
 * PMU layer's names first, each as the highest layer describes it, then the
 * names the perf layer adds, then those the extended layer adds.
 */
static int build_attrs(struct pk_catalog *cat, struct cat_event *e, int idx, struct layer *l)
{
	struct layer *l0 = &l[0], *l1 = &l[1], *l2 = &l[2];
	size_t n0, n1, n2 = 0;

	read_layer(idx, PFM_OS_NONE, l0);
	read_layer(idx, PFM_OS_PERF_EVENT, l1);
	read_layer(idx, PFM_OS_PERF_EVENT_EXT, l2);
	n0 = (size_t)l0->n;
	e->own = n0 ? pk__cat_alloc(cat, n0 * sizeof(*e->own)) : NULL;
	e->hi = pk__cat_alloc(cat, (size_t)(l0->n + l1->n + l2->n + 1) * sizeof(*e->hi));
	if ((n0 && !e->own) || !e->hi)
		return pk__error_nomem("a libpfm4 event's attributes");
	for (size_t i = 0; i < n0; i++) {
		const pfm_event_attr_info_t *hi = layer_find(l2, l0->a[i].name);

		if (!hi)
			hi = layer_find(l1, l0->a[i].name);
		if (copy_attr(cat, &l0->a[i], &e->own[i]) ||
		    copy_attr(cat, hi ? hi : &l0->a[i], &e->hi[n2++]))
			return pk__error_nomem("a libpfm4 attribute");
	}
	for (int i = 0; i < l1->n; i++) {
		const pfm_event_attr_info_t *hi = layer_find(l2, l1->a[i].name);

		if (layer_find(l0, l1->a[i].name))
			continue;
		if (copy_attr(cat, hi ? hi : &l1->a[i], &e->hi[n2++]))
			return pk__error_nomem("a libpfm4 attribute");
	}
	n1 = n2;
	for (int i = 0; i < l2->n; i++) {
		if (layer_find(l0, l2->a[i].name) || layer_find(l1, l2->a[i].name))
			continue;
		if (copy_attr(cat, &l2->a[i], &e->hi[n2++]))
			return pk__error_nomem("a libpfm4 attribute");
	}
	e->info.nr_attrs[PK_OS_PMU] = n0;
	e->info.nr_attrs[PK_OS_PERF] = n1;
	e->info.nr_attrs[PK_OS_PERF_EXT] = n2;
	return 0;
}

static int add_event(struct pk_catalog *cat, const pfm_pmu_info_t *pi, int idx, struct layer *l)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	char pmu[96], canon[512];
	struct cat_event *e;

	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return 0;
	snprintf(pmu, sizeof(pmu), "libpfm4:%s", pi->name);
	snprintf(canon, sizeof(canon), "%s::%s", pi->name, ei.name);
	e = pk__cat_add(cat, PK_SRC_LIBPFM, ei.name, pmu, ei.desc, canon);
	if (!e || !(e->info.equiv = pk__cat_strdup(cat, ei.equiv)))
		return pk__error_nomem("a libpfm4 catalog entry");
	e->kind = CAT_LIBPFM;
	e->info.code = ei.code;
	e->info.is_precise = ei.is_precise;
	return build_attrs(cat, e, idx, l);
}

int pk__cat_add_libpfm(struct pk_catalog *cat, bool all)
{
	struct layer *l;
	pfm_pmu_t p;
	int err = 0;

	/* libpfm4 keeps its tables in process-wide state; initialising again
	 * is a no-op that returns the first result. */
	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	l = pk__calloc(3, sizeof(*l));
	if (!l)
		return pk__error_nomem("libpfm4 attribute layers");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || (!pi.is_present && !all))
			continue;
		for (int idx = pi.first_event; idx != -1 && !err; idx = pfm_get_event_next(idx))
			err = add_event(cat, &pi, idx, l);
		if (err)
			break;
	}
	free(l);
	return err;
}
