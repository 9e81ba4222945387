/* SPDX-License-Identifier: MIT */
/*
 * tracefs.c - the CLI's one decision about tracefs: as root, when an event
 * list may name a tracepoint (or every event is listed), ask libperfkit to
 * mount tracefs if it is not mounted, as perf does.  The library never
 * mounts on its own; when this does not help, the parse that needed
 * tracefs reports how to mount it.
 */
#include "cli.h"

#include <string.h>
#include <unistd.h>

void cli_tracefs_need(const char *spec)
{
	/* Tracepoints are "sys:event"; a list without a colon names none. */
	if (spec && !strchr(spec, ':'))
		return;
	if (geteuid() != 0)
		return;
	/* A failure is left to the parse, whose message says how to mount. */
	(void)pk_tracefs_mount();
}
