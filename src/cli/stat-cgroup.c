/* SPDX-License-Identifier: MIT */
/*
 * stat-cgroup.c - which cgroup each of perfkit stat's events counts in, as
 * perf 6.1 pairs them: -G NAME puts every event in NAME; -G A,B,... puts
 * the Nth event in the Nth cgroup (an empty name leaves that event
 * system-wide, events past the list stay system-wide, more names than
 * events is an error); --for-each-cgroup A,B,... counts the whole list once
 * in each cgroup, cgroup by cgroup.
 */
#include "stat.h"

#include <stdlib.h>
#include <string.h>

/* The entries of a comma-separated list, empty ones included, in *out
 * (pointers into the copy *buf); their number, or -1 out of memory. */
static long split(const char *list, char **buf, char ***out)
{
	size_t n = 1;
	char *p;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	*buf = strdup(list);
	*out = calloc(n, sizeof(**out));
	if (!*buf || !*out)
		return -1;
	p = *buf;
	for (size_t k = 0; k < n; k++) {
		(*out)[k] = p;
		p += strcspn(p, ",");
		if (*p)
			*p++ = '\0';
	}
	return (long)n;
}

int stat_cgroup_spec(struct stat_opts *o)
{
	char *buf = NULL, **names = NULL, *spec = NULL;
	size_t len = 0;
	long n;
	FILE *m;

	if (!o->for_each_cgroup)
		return 0;
	if ((n = split(o->for_each_cgroup, &buf, &names)) < 0 || !(m = open_memstream(&spec, &len))) {
		free(buf);
		free(names);
		return cli_usage("stat", "out of memory");
	}
	/* perf copies the list once per cgroup; the copies are told apart by
	 * the cgroup each event gets (stat_cgroup_assign). */
	for (long k = 0; k < n; k++)
		fprintf(m, "%s%s", k ? "," : "", o->spec);
	free(buf);
	free(names);
	if (fclose(m) != 0)
		return cli_usage("stat", "out of memory");
	free(o->spec);
	o->spec = spec;
	o->nr_copies = (size_t)n;
	return 0;
}

/* --for-each-cgroup: copy k of the list counts in cgroup k. */
static int each(struct stat_opts *o, size_t nr, char **names, size_t n)
{
	size_t per = nr / n;

	o->nr_per_copy = per;

	for (size_t i = 0; i < nr; i++)
		o->ev_cgroups[i] = names[i / per];
	return 0;
}

/* -G: one name for all, or the Nth name for the Nth event. */
static int pair(struct stat_opts *o, size_t nr, char **names, size_t n)
{
	if (n > nr)
		return cli_usage("stat", "-G gives %zu cgroups for %zu events: perf pairs the Nth "
				 "cgroup with the Nth event, so give at most one per event", n, nr);
	for (size_t i = 0; i < nr; i++)
		o->ev_cgroups[i] = n == 1 ? names[0] : i < n && *names[i] ? names[i] : NULL;
	return 0;
}

int stat_cgroup_assign(struct stat_opts *o, size_t nr)
{
	const char *list = o->for_each_cgroup ? o->for_each_cgroup : o->cgroup;
	char **names = NULL;
	long n;
	int err;

	if (!list || !nr)
		return 0;
	if ((n = split(list, &o->cgroup_buf, &names)) < 0 ||
	    !(o->ev_cgroups = calloc(nr, sizeof(*o->ev_cgroups)))) {
		free(names);
		return cli_usage("stat", "out of memory");
	}
	/* The names point into cgroup_buf; only the array of them goes. */
	err = o->for_each_cgroup ? each(o, nr, names, (size_t)n) : pair(o, nr, names, (size_t)n);
	free(names);
	o->nr_ev_cgroups = nr;
	return err;
}

bool stat_cgroup_same(const struct result *a, const struct result *b)
{
	if (!a->cgroup || !b->cgroup)
		return a->cgroup == b->cgroup;
	return !strcmp(a->cgroup, b->cgroup);
}

void stat_cgroup_free(struct stat_opts *o)
{
	free(o->ev_cgroups);
	free(o->cgroup_buf);
}
