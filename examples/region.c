/* SPDX-License-Identifier: MIT */
/* region.c - count a region of this program: the ten lines in main. */
#include <perfkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	struct pk_region *r;
	struct pk_count c[2] = { { .size = sizeof(c[0]) } };
	char *work;

	if (pk_region_open("task-clock,page-faults", NULL, &r) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	pk_region_start(r);
	if ((work = malloc(1 << 24)))		/* the work measured: 4096 fresh pages */
		memset(work, 1, 1 << 24);
	pk_region_stop(r);
	pk_region_read(r, c, 2);
	printf("%s %llu\n%s %llu\nwork %d\n", pk_region_name(r, 0), (unsigned long long)c[0].value,
	       pk_region_name(r, 1), (unsigned long long)c[1].value, work ? work[4096] : -1);
	pk_region_free(r);
	free(work);
	return 0;
}
