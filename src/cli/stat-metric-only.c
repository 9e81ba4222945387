/* SPDX-License-Identifier: MIT */
/*
 * stat-metric-only.c - perf stat --metric-only: no counts, only the
 * derived figures, one column each on a single line under a line of
 * headings, in perf 6.1's table, CSV and JSON layouts.  perf leaves out the
 * figures that are rates ("/sec") or "CPUs utilized", names a miss ratio
 * after its event ("branch-misses of all branches"), keeps an empty
 * column for an event that did not count, heads each -M metric (by its
 * name alone when it has no value) and leaves plain events unheaded,
 * --topdown's included (except with -A, where perf heads every event's
 * figures).  With
 * --per-core/die/socket/node and -A the headings are indented over the
 * lines' prefix (stat-display.c prints a line per aggregate or CPU).
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

/* -A's headings: perf's shadow stats run with the event's own value 0
 * (a rate's unit is then "/sec"), the others' as the first CPU counted. */
static int own_zero(const struct result *r, size_t nr, size_t i, const double *vals, double wall_ns,
		    struct pk_metric m[2])
{
	double v[64];
	int n;

	if (nr > sizeof(v) / sizeof(v[0]))
		return 0;	/* stat_figures derives none for longer lists either */
	memcpy(v, vals, nr * sizeof(v[0]));
	v[i] = 0;
	n = stat_figures(r, nr, i, v, wall_ns, m);
	/* perf's heading for cycles with no clock counted, spelt so. */
	if (!n && r[i].attr->type == PERF_TYPE_HARDWARE && r[i].attr->config == PERF_COUNT_HW_CPU_CYCLES) {
		m[0] = (struct pk_metric){ sizeof(m[0]), 0, NULL, "Ghz" };
		n = 1;
	}
	return n;
}

/*
 * Every event's columns, as perf 6.1 prints them.  The headings line heads
 * only the -M metrics: outside -A perf heads an event's figures only when
 * it leads a metric (print_metric_headers skips every counter whose
 * metric_leader is not itself, and only -M sets one), so plain events'
 * figures (insn per cycle, miss ratios) and --topdown's (its events are
 * plain events to perf) go unheaded.  The values line has each figure
 * shown, and one empty column for an event that did not count.
 */
static void columns(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
		    const double *vals, double wall_ns, bool head)
{
	/* -A (perf's AGGR_NONE) heads every event's figures, counted or not,
	 * and -j's headings keep the rates the values line leaves out. */
	bool all = head && o->no_aggr && !o->per;
	bool first = true;

	for (size_t i = 0; i < nr; i++) {
		struct pk_metric m[2];
		int n;

		/* perf's CSV totals after -I: "summary" before each event's figures */
		if (!head && o->summary_now && o->sep && !o->no_csv_summary)
			fprintf(f, "%16s%s", "summary", o->sep);
		if (r[i].metric) {
			metric_column(f, o, r, nr, i, vals, wall_ns, head, &first);
			continue;
		}
		if (head && !all)
			continue;
		if (r[i].err && !all) {
			column(f, o, &r[i], NULL, head, &first);
			continue;
		}
		n = all ? own_zero(r, nr, i, vals, wall_ns, m) : stat_figures(r, nr, i, vals, wall_ns, m);
		for (int k = 0; k < n; k++)
			if (shown_figure(m[k].unit) || (all && o->json))
				column(f, o, &r[i], &m[k], head, &first);
	}
}

/* perf's aggr_header_lens: the headings' indent over the line prefix of
 * --per-core/die/socket/node and -A. */
static int indent(const struct stat_opts *o)
{
	switch (o->per) {
	case 'c': return 24;
	case 'd': return 18;
	case 's': return 12;
	case 'n': return 6;
	}
	return o->no_aggr ? 6 : 0;
}

/* perf's aggr_header_csv, as perf 6.1 writes it (whatever -x says; no
 * trailing comma after die's and socket's "cpus"). */
static const char *csv_names(const struct stat_opts *o)
{
	switch (o->per) {
	case 'c': return "core,cpus,";
	case 'd': return "die,cpus";
	case 's': return "socket,cpus";
	case 'n': return "node,";
	}
	return o->no_aggr ? "cpu," : "";
}

/* perf's first -I line's start, before the headings. */
static const char *interval_names(const struct stat_opts *o)
{
	switch (o->per) {
	case 'c': return "#           time core            cpus";
	case 'd': return "#           time die          cpus";
	case 's': return "#           time socket cpus";
	case 'n': return "#           time node   cpus";
	}
	return o->no_aggr ? "#           time CPU    " : "#           time";
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
		fprintf(f, "%s ", interval_names(o));
	if (o->sep)
		fputs(csv_names(o), f);
	else if (!interval)	/* perf indents -j's headings too */
		fprintf(f, "%*s", indent(o), "");
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
