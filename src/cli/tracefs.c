/* SPDX-License-Identifier: MIT */
/*
 * tracefs.c - the CLI's one decision about tracefs: as root, when an event
 * list may name a tracepoint (or every event is listed), ask libperfkit to
 * mount tracefs if it is not mounted, as perf does.  The library never
 * mounts on its own; when this does not help, the parse that needed
 * tracefs reports how to mount it.  And a tracepoint sample's fields as
 * text, for script's trace field and report's trace key.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

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

int cli_tracing_text(struct pk_tracing *t, const struct pk_sample *s, char **buf, size_t *cap)
{
	int n = pk_tracing_format(t, s->raw.data, s->raw.size, (int)s->cpu, *buf, *cap);

	if (n >= 0 && (size_t)n >= *cap) {
		char *b = realloc(*buf, (size_t)n + 1);

		if (!b)
			return -ENOMEM;
		*buf = b;
		*cap = (size_t)n + 1;
		n = pk_tracing_format(t, s->raw.data, s->raw.size, (int)s->cpu, b, *cap);
	}
	return n;
}
