/* SPDX-License-Identifier: MIT */
/*
 * tracepoint.c - resolve "sys:event" tracepoint names (with fnmatch globs on
 * either side) to the tracepoints tracefs lists (tracefs/), and answer a
 * miss with the nearest existing tracepoint, so a typo costs one retry,
 * not a search.
 */
#include "event.h"

#include <errno.h>
#include <stdio.h>

/* The existing tracepoint nearest (by edit distance) to sys:ev. */
static void nearest(const char *tracefs, const char *sys, const char *ev, char *best, size_t len)
{
	struct pk__tp *all;
	size_t nr, best_dist = (size_t)-1;

	best[0] = '\0';
	if (pk__tracefs_list(tracefs, "*", "*", PK__TRACEFS_NO_ID, "list tracepoints", &all, &nr) < 0)
		return;
	for (size_t i = 0; i < nr; i++) {
		size_t d = pk__edit_distance(all[i].sys, sys) + pk__edit_distance(all[i].name, ev);

		if (d < best_dist &&
		    snprintf(best, len, "%s:%s", all[i].sys, all[i].name) < (int)len)
			best_dist = d;
	}
	pk__tp_free(all, nr);
}

int pk__tp_expand(const char *tracefs, const char *sys_glob, const char *ev_glob,
		  struct pk__tp **out, size_t *nr)
{
	char what[160], best[256];
	int ret;

	snprintf(what, sizeof(what), "tracepoint %s:%s", sys_glob, ev_glob);
	ret = pk__tracefs_list(tracefs, sys_glob, ev_glob, 0, what, out, nr);
	if (ret < 0 || *nr)
		return ret;
	nearest(tracefs, sys_glob, ev_glob, best, sizeof(best));
	pk__error(-ENOENT, what, "no tracepoint matches %s:%s", sys_glob, ev_glob);
	if (best[0])
		pk__error_hint("did you mean '%s'? ('perfkit list tracepoint' lists them all)", best);
	return -ENOENT;
}
