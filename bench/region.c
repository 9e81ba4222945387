/* SPDX-License-Identifier: MIT */
/*
 * region.c - 1000 pk_region_read calls on a region of two software events
 * of the calling thread (task-clock, context-switches), for counting the
 * user-space instructions of one read under callgrind (bench/region.sh);
 * the read(2) it makes is the floor.  Prints the last task-clock count.
 */
#include "perfkit.h"

#include <stdio.h>

int main(void)
{
	struct pk_region *r;
	struct pk_count c[2] = { { .size = sizeof(c[0]) }, { .size = sizeof(c[0]) } };

	if (pk_region_open("task-clock,context-switches", NULL, &r) < 0 || pk_region_start(r) < 0) {
		fprintf(stderr, "%s: %s\n", pk_last_error()->what, pk_last_error()->why);
		return 1;
	}
	for (int i = 0; i < 1000; i++)
		if (pk_region_read(r, c, 2) != 2)
			return 1;
	printf("%llu\n", (unsigned long long)c[0].value);
	pk_region_free(r);
	return 0;
}
