/* SPDX-License-Identifier: MIT */
/*
 * stat-metric-show.c - perfkit stat -M after counting: each metric marked
 * on the line of its first event, and its value evaluated on the counts of
 * the events it names, with perf 6.1's format and unit column.
 */
#include "stat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Records the first event name the expression uses, then stops it. */
static int first_event(void *arg, const char *name, size_t len, double *v)
{
	char *first = arg;

	(void)v;
	snprintf(first, 160, "%.*s", (int)len, name);
	return -ECANCELED;
}

void stat_metric_attach(const struct stat_opts *o, struct result *r, size_t nr)
{
	for (size_t k = 0; k < o->nr_mdefs; k++) {
		char first[160] = "";
		double v;

		pk_metric_expr_eval(o->mdefs[k]->expr, first_event, first, &v);
		if (!first[0])
			continue;
		for (size_t i = 0; i < nr; i++) {
			if (!r[i].metric && !strcmp(r[i].d->name, first)) {
				const struct pk_metric_def *d = o->mdefs[k];

				r[i].metric = d;
				/* perf: with a unit, "UNIT  NAME"; without, NAME. */
				snprintf(r[i].metric_unit, sizeof(r[i].metric_unit),
					 d->unit[0] ? "%s  %s" : "%.0s%s", d->unit, d->name);
				break;
			}
		}
	}
}

int stat_metric_literal(const char *name, size_t len, double *v)
{
	bool smt = false;
	FILE *f;

	if (!len || name[0] != '#')
		return 0;
	/* perf's smt_on: the kernel's SMT switch, on when a sibling runs. */
	if ((f = fopen("/sys/devices/system/cpu/smt/active", "r"))) {
		int on = 0;

		smt = fscanf(f, "%d", &on) == 1 && on;
		fclose(f);
	}
	if (len == 7 && !strncasecmp(name, "#SMT_on", len))
		*v = smt;
	else if (len == 10 && !strncasecmp(name, "#core_wide", len))
		*v = !smt;	/* perf: also system-wide on whole cores; perfkit: SMT off only */
	else
		return -ENOENT;
	return 1;
}

struct lookup_ctx {
	const struct result *r;
	size_t nr;
	const double *vals;
};

static int lookup(void *arg, const char *name, size_t len, double *v)
{
	const struct lookup_ctx *c = arg;
	int lit = stat_metric_literal(name, len, v);

	if (lit)
		return lit < 0 ? lit : 0;
	for (size_t i = 0; i < c->nr; i++) {
		if (strlen(c->r[i].d->name) == len && !strncmp(c->r[i].d->name, name, len)) {
			if (c->r[i].err)
				return -ENODATA;
			*v = c->vals[i];
			return 0;
		}
	}
	return -ENOENT;
}

int stat_metric_figure(const struct result *r, size_t nr, size_t i, const double *vals,
		       struct pk_metric *m)
{
	const struct pk_metric_def *def = r[i].metric;
	struct lookup_ctx c = { r, nr, vals };
	double v;

	if (!def || pk_metric_expr_eval(def->expr, lookup, &c, &v) < 0)
		return 0;
	/* perf's formats: "%8.1f" with a unit, "%8.2f" without. */
	*m = (struct pk_metric){ sizeof(*m), v * def->scale, def->unit[0] ? "%8.1f" : "%8.2f",
				 r[i].metric_unit };
	return 1;
}
