/* SPDX-License-Identifier: MIT */
/*
 * stat-table.c - perf stat --table: under -r's counts, each run's wall
 * time against the mean, with perf 6.1's indent and bar of '#'.
 */
#include "stat.h"

#include <stdlib.h>

void stat_table_print(FILE *f, const struct stat_summary *s, int p)
{
	double avg = s->wall.mean;
	char tmp[64];
	int indent = 0;

	if (!s->walls)
		return;
	/* perf indents the headings to where the mean's digits start. */
	snprintf(tmp, sizeof(tmp), " %17.*f", p, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (unsigned k = 0; k < s->runs; k++) {
		double run = s->walls[k];
		/* perf's bar: one '#' plus one per 5% off the mean */
		int n = run > 0 ? 1 + abs((int)(100.0 * (run - avg) / run) / 5) : 1;

		fprintf(f, " %17.*f (%+.*f) ", p, run, p, run - avg);
		for (int h = 0; h < n; h++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}
