/* SPDX-License-Identifier: MIT */
/*
 * stat-metric.c - perfkit stat -M: the metrics and groups named are looked
 * up in perfkit's table for this CPU (its cpuid from /proc/cpuinfo, or
 * PERFKIT_CPUID as perf takes PERF_CPUID), their events added to the
 * counted list (grouped per metric unless --metric-no-group, or unless the
 * metric is NO_NMI_WATCHDOG and the watchdog is on: perf's warning), and after
 * counting each metric's value shown in the comment column of its first
 * event, as perf 6.1 does (stat-metric-show.c); perf list metric and
 * metricgroups.  A name matching nothing, and a metric whose
 * events this kernel does not have, get perf's messages and are left out.
 */
#include "stat.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* perf's x86 cpuid string: vendor-family-MODEL(hex)-stepping. */
static void host_cpuid(char *buf, size_t len)
{
	const char *env = getenv("PERFKIT_CPUID");
	char line[256], vendor[64] = "";
	unsigned fam = 0, model = 0, step = 0;
	FILE *f;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	snprintf(buf, len, "unknown");
	if (!(f = fopen("/proc/cpuinfo", "r")))
		return;
	while (fgets(line, sizeof(line), f) && strcmp(line, "\n")) {
		sscanf(line, "vendor_id : %63s", vendor);
		sscanf(line, "cpu family : %u", &fam);
		sscanf(line, "model : %u", &model);
		sscanf(line, "stepping : %u", &step);
	}
	fclose(f);
	if (vendor[0])
		snprintf(buf, len, "%s-%u-%X-%X", vendor, fam, model, step);
}

static bool in_groups(const char *groups, const char *name)
{
	size_t n = strlen(name);

	for (const char *g = groups; *g;) {
		size_t glen = strcspn(g, ";");

		if (glen == n && !strncasecmp(g, name, n))
			return true;
		g += glen + (g[glen] == ';');
	}
	return false;
}

/* Appends each event name the expression uses, once, to *list, each
 * ended by a newline (a name can hold commas: cpu/event=0xd,cmask=1/). */
static int collect(void *arg, const char *name, size_t len, double *v)
{
	char **list = arg, *longer;
	size_t have = *list ? strlen(*list) : 0;
	int lit = stat_metric_literal(name, len, v);

	if (lit)
		return lit < 0 ? lit : 0;
	*v = 1;
	for (const char *p = *list; p && *p;) {
		size_t n = strcspn(p, "\n");

		if (n == len && !strncmp(p, name, len))
			return 0;
		p += n + 1;
	}
	if (!(longer = realloc(*list, have + len + 2)))
		return -ENOMEM;
	memcpy(longer + have, name, len);
	longer[have + len] = '\n';
	longer[have + len + 1] = 0;
	*list = longer;
	return 0;
}

/* perf 6.1's metricgroup__has_constraint: a NO_NMI_WATCHDOG metric's
 * events go ungrouped while the watchdog is on, with perf's warning. */
static bool constrained(const struct pk_metric_def *m, bool watchdog)
{
	if (!watchdog || m->size <= offsetof(struct pk_metric_def, constraint) || !m->constraint ||
	    strcmp(m->constraint, "NO_NMI_WATCHDOG"))
		return false;
	cli_message(stderr, "Splitting metric group %s into standalone metrics.\n", m->name);
	return true;
}

/* What expanding -M's names knows: whether the NMI watchdog is on, and
 * whether a constraint left some metric's events ungrouped. */
struct expand {
	bool watchdog;
	bool split;
};

/* The metric's events, or NULL after perf's message when one is missing. */
static char *metric_events(const struct stat_opts *o, const struct pk_metric_def *m,
			   struct expand *x)
{
	bool group = !o->metric_no_group;
	char *list = NULL, *spec = NULL;
	struct pk_events *ev = NULL;
	double v;

	if (pk_metric_expr_eval(m->expr, collect, &list, &v) < 0 || !list)
		return free(list), NULL;
	for (char *p = list; *p;) {
		size_t n = strcspn(p, "\n");

		p[n] = 0;
		if (pk_events_parse(p, NULL, &ev) < 0) {
			cli_message(stderr, "event syntax error: '%s'\n"
				    "                     \\___ Cannot find PMU `%s'. "
				    "Missing kernel support?\n", m->expr, p);
			return free(list), NULL;
		}
		pk_events_free(ev);
		p[n] = p[n + 1] ? ',' : 0;	/* the list becomes the spec */
		p += n + (p[n] != 0);
	}
	if (group && constrained(m, x->watchdog))
		group = false, x->split = true;
	if (asprintf(&spec, group ? "{%s}" : "%s", list) < 0)
		spec = NULL;
	free(list);
	return spec;
}

static int add_metric(struct stat_opts *o, const struct pk_metric_def *m, struct expand *x)
{
	char *spec, *joined;

	for (size_t k = 0; k < o->nr_mdefs; k++)
		if (o->mdefs[k] == m)
			return 0;
	if (!(spec = metric_events(o, m, x)))
		return 0;
	if (o->events ? asprintf(&joined, "%s,%s", o->events, spec) < 0 : !(joined = strdup(spec))) {
		free(spec);
		return -ENOMEM;
	}
	free(spec);
	free(o->events);
	o->events = joined;
	o->mdefs[o->nr_mdefs++] = m;
	return 0;
}

/* One -M name: every metric of that name or in that group, for this CPU. */
static int expand_one(struct stat_opts *o, const char *name, const char *cpuid, struct expand *x)
{
	const struct pk_metric_def *m;
	bool found = false;
	int err;

	for (size_t i = 0; (m = pk_metric_def_get(i)); i++) {
		if (pk_metric_def_matches(m, cpuid) != 1 ||
		    (strcasecmp(m->name, name) && !in_groups(m->groups, name)))
			continue;
		found = true;
		if ((err = add_metric(o, m, x)) < 0)
			return err;
	}
	if (!found)
		cli_message(stderr, "Cannot find metric or group `%s'\n", name);
	return 0;
}

int stat_metric_expand(struct stat_opts *o)
{
	bool on;

	if (pk_nmi_watchdog(&on) < 0)
		on = false;	/* perf's reading: unreadable is off */
	return stat_metric_expand_nmi(o, on);
}

int stat_metric_expand_nmi(struct stat_opts *o, bool watchdog)
{
	char cpuid[128], *names, *save = NULL;
	struct expand x = { .watchdog = watchdog };
	size_t nr = 0;
	int err = 0;

	if (!o->metric_arg)
		return 0;
	while (pk_metric_def_get(nr))
		nr++;
	if (!(o->mdefs = calloc(nr ? nr : 1, sizeof(*o->mdefs))) || !(names = strdup(o->metric_arg)))
		return -ENOMEM;
	host_cpuid(cpuid, sizeof(cpuid));
	for (char *n = strtok_r(names, ",", &save); n && !err; n = strtok_r(NULL, ",", &save))
		err = expand_one(o, n, cpuid, &x);
	free(names);
	if (!err && x.split)	/* perf's hint, once, after the metrics */
		cli_message(stderr, "Try disabling the NMI watchdog to comply NO_NMI_WATCHDOG metric "
			    "constraint:\n    echo 0 > /proc/sys/kernel/nmi_watchdog\n    perf stat ...\n"
			    "    echo 1 > /proc/sys/kernel/nmi_watchdog\n");
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds each of the row's groups to names[] unless there already. */
static void add_groups(const char **names, char (*store)[64], size_t *nr, size_t max,
		       const char *groups)
{
	for (const char *g = groups; *g && *nr < max;) {
		size_t n = strcspn(g, ";"), k;

		snprintf(store[*nr], sizeof(store[0]), "%.*s", (int)n, g);
		for (k = 0; k < *nr && strcmp(names[k], store[*nr]); k++)
			;
		if (k == *nr) {
			names[*nr] = store[*nr];
			(*nr)++;
		}
		g += n + (g[n] == ';');
	}
}

int stat_metric_list(FILE *f, bool groups)
{
	char cpuid[128], (*store)[64];
	const struct pk_metric_def *m;
	const char **names;
	size_t nr = 0, max = 0;

	while (pk_metric_def_get(max))
		max++;
	max *= 4;	/* room for several groups per row */
	names = calloc(max ? max : 1, sizeof(*names));
	store = calloc(max ? max : 1, sizeof(*store));
	if (!names || !store)
		return free(names), free(store), CLI_EXIT_EVENT;
	host_cpuid(cpuid, sizeof(cpuid));
	for (size_t i = 0; (m = pk_metric_def_get(i)); i++) {
		if (pk_metric_def_matches(m, cpuid) != 1)
			continue;
		if (groups)
			add_groups(names, store, &nr, max, m->groups);
		else if (nr < max)
			names[nr++] = m->name;
	}
	qsort(names, nr, sizeof(*names), by_name);
	/* perf list's layout: a heading, then names (metrics with their
	 * description under them). */
	fprintf(f, "\n%s:\n\n", groups ? "Metric Groups" : "Metrics");
	for (size_t i = 0; i < nr; i++) {
		if (groups) {
			fprintf(f, "%s\n", names[i]);
			continue;
		}
		/* names[i] is the row's own string, which another model's row
		 * of the same name may share: only this CPU's rows. */
		for (size_t j = 0; (m = pk_metric_def_get(j)); j++)
			if (m->name == names[i] && pk_metric_def_matches(m, cpuid) == 1)
				fprintf(f, "  %s\n       [%s]\n", m->name, m->desc);
	}
	free(names);
	free(store);
	return 0;
}
