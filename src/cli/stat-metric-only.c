/* SPDX-License-Identifier: MIT */
/*
 * stat-metric-only.c - perf stat --metric-only: no counts, only the
 * derived figures, one column each on a single line under a line of
 * headings, in perf 6.1's table, CSV and JSON layouts.  perf leaves out the
 * figures that are rates ("/sec") or "CPUs utilized", names a miss ratio
 * after its event ("branch-misses of all branches"), keeps an empty
 * column for an event that did not count, heads each -M metric (by its
 * name alone when it has no value) and leaves plain events unheaded.
 */
#include "stat.h"

#include <string.h>

/* perf's METRIC_ONLY_LEN: the narrowest column. */
#define COLUMN 20

/* perf's valid_only_metric: rates and CPU utilisation are not shown. */
static bool shown_figure(const char *unit)
{
	return unit && !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

/* perf's fixunit: a ratio "of all ..." is named after its event. */
static const char *heading(char *buf, size_t len, const struct result *r, const char *unit)
{
	if (strncmp(unit, "of all", 6))
		return unit;
	snprintf(buf, len, "%s %s", r->shown[0] ? r->shown : r->d->name, unit);
	return buf;
}

/* The number alone, as perf's CSV and JSON take it from the format. */
static const char *bare(char *buf, size_t len, const struct pk_metric *m)
{
	char *v = buf, *end;

	snprintf(buf, len, m->format ? m->format : "", m->value);
	while (*v == ' ')
		v++;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
		;
	*end = '\0';
	return v;
}

/* One column: a heading (`m` NULL: the empty one of an event that did not
 * count) or a figure. */
static void column(FILE *f, const struct stat_opts *o, const struct result *r,
		   const struct pk_metric *m, bool head, bool *first)
{
	char name[256], num[64];
	const char *unit = m ? heading(name, sizeof(name), r, m->unit) : "";

	if (o->json && head) {
		struct json j;

		fprintf(f, "%s\"unit\" : ", *first ? "" : ", ");
		json_init(&j, f);
		json_string(&j, unit);	/* escaped: event names are user input */
	} else if (o->json) {
		fprintf(f, "{\"metric-value\" : \"%s\"}", m ? bare(num, sizeof(num), m) : "");
	} else if (o->sep) {
		fprintf(f, "%s%s", head ? unit : m ? bare(num, sizeof(num), m) : "", o->sep);
	} else if (head) {
		fprintf(f, "%*s ", COLUMN, unit);
	} else {
		int width = strlen(unit) >= COLUMN ? (int)strlen(unit) + 1 : COLUMN;

		snprintf(num, sizeof(num), m && m->format ? m->format : "", m ? m->value : 0);
		fprintf(f, "%*s ", width, num);
	}
	*first = false;
}

/* A -M metric's column on the line of the event holding it: its value
 * under "UNIT  NAME" (or NAME), or, when an event of it did not count or
 * it has no value (perf's parse failure, as on a division by zero), its
 * name over an empty column (perf 6.1's force_header). */
static void metric_column(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			  size_t i, const double *vals, double wall_ns, bool head, bool *first)
{
	struct pk_metric m[2];

	if (!r[i].err && stat_figures(r, nr, i, vals, wall_ns, m) == 1) {
		column(f, o, &r[i], &m[0], head, first);
	} else if (head) {
		m[0] = (struct pk_metric){ sizeof(m[0]), 0, NULL, r[i].metric->name };
		column(f, o, &r[i], &m[0], head, first);
	} else {
		column(f, o, &r[i], NULL, head, first);
	}
}

/*
 * Every event's columns, as perf 6.1 prints them.  The headings line heads
 * only the -M metrics and the topdown figures: perf heads an event's
 * figures only when it is a metric's event (metric_leader), so plain
 * events' figures (insn per cycle, miss ratios) go unheaded.  The values
 * line has each figure shown, and one empty column for an event that did
 * not count.
 */
static void columns(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
		    const double *vals, double wall_ns, bool head)
{
	bool first = true;

	for (size_t i = 0; i < nr; i++) {
		/* --topdown's events keep their columns; a -M metric's topdown
		 * event has a heading only with a figure (perf's full_td). */
		bool headed = r[i].td != TD_NONE && (o->topdown || !r[i].err);
		struct pk_metric m[2];
		int n;

		if (r[i].metric) {
			metric_column(f, o, r, nr, i, vals, wall_ns, head, &first);
			continue;
		}
		if (head && !headed)
			continue;
		if (r[i].err) {
			column(f, o, &r[i], NULL, head, &first);
			continue;
		}
		n = stat_figures(r, nr, i, vals, wall_ns, m);
		for (int k = 0; k < n; k++)
			if (shown_figure(m[k].unit))
				column(f, o, &r[i], &m[k], head, &first);
	}
}

void stat_metric_only_header(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			     const double *vals, double wall_ns, const char *interval)
{
	if (o->quiet)
		return;
	if (o->json)
		fputc('{', f);
	else if (interval && o->sep)
		fputs(" time,", f);	/* perf's " " prefix, then "time," whatever -x says */
	else if (interval)
		fputs("#           time ", f);
	columns(f, o, r, nr, vals, wall_ns, true);
	if (o->json)
		fputc('}', f);
	fputc('\n', f);
}

void stat_metric_only_values(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			     const double *vals, double wall_ns, const char *prefix)
{
	if (o->quiet)
		return;
	if (prefix)
		fputs(prefix, f);
	columns(f, o, r, nr, vals, wall_ns, false);
	fputc('\n', f);
}
