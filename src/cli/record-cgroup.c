/* SPDX-License-Identifier: MIT */
/*
 * record-cgroup.c - perfkit record's -G as perf 6.1 pairs it with the
 * events: every -G's names make one list; a single name puts every event
 * in that cgroup, several put the Nth event in the Nth cgroup (an empty
 * name leaves its event sampling every task; events past the list sample
 * every task; more names than events is an error).
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>

int record_cgroup_add(struct record_opts *o, const char *arg)
{
	size_t n = o->cgroups ? strlen(o->cgroups) + 1 : 0;
	char *grown = realloc(o->cgroups, n + strlen(arg) + 1);

	if (!grown)
		return cli_usage("record", "out of memory");
	if (n)
		grown[n - 1] = ',';
	strcpy(grown + n, arg);
	o->cgroups = grown;
	return 0;
}

/* How many events o's -e lists (and the default cycles) make; -1 when they
 * do not parse (pk_recorder_new then says why). */
static long nr_events(const struct record_opts *o)
{
	struct pk_events *ev;
	int n = pk_events_parse(o->events ? o->events : "cycles", NULL, &ev);

	if (n < 0)
		return -1;
	pk_events_free(ev);
	return n + (o->events && o->r.default_event);	/* --off-cpu's default event */
}

int record_cgroups(const struct record_opts *o, struct pk_recorder_opts *ro, char **buf,
		   const char ***names)
{
	size_t n = 1, k = 0;
	long nr;
	char *p;

	*buf = NULL;
	*names = NULL;
	if (!o->cgroups)
		return 0;
	if (!strchr(o->cgroups, ',')) {	/* one cgroup for every event */
		ro->cgroup = o->cgroups;
		return 0;
	}
	for (p = o->cgroups; *p; p++)
		n += *p == ',';
	if ((nr = nr_events(o)) < 0)
		return 0;
	if (n > (size_t)nr)
		return cli_usage("record", "-G gives %zu cgroups for %ld events: perf pairs the Nth "
				 "cgroup with the Nth event, so give at most one per event", n, nr);
	if (!(*buf = strdup(o->cgroups)) || !(*names = calloc(n, sizeof(**names))))
		return cli_usage("record", "out of memory");
	for (p = *buf; k < n; k++) {
		(*names)[k] = p;
		p += strcspn(p, ",");
		if (*p)
			*p++ = '\0';
	}
	ro->event_cgroups = *names;
	ro->nr_event_cgroups = n;
	return 0;
}
