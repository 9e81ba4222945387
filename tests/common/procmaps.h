/* SPDX-License-Identifier: MIT */
/*
 * procmaps.h - whether this process maps a file, for the C tests that
 * check a file (a debug file, a shared library) is mapped or let go.
 * Header-only; include it after cmocka.h.
 */
#ifndef PERFKIT_TESTS_PROCMAPS_H
#define PERFKIT_TESTS_PROCMAPS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Whether a line of /proc/self/maps names a path containing `what`. */
static inline bool proc_mapped(const char *what)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, what) != NULL;
	fclose(f);
	return found;
}

#endif
