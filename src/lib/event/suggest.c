/* SPDX-License-Identifier: MIT */
/*
 * suggest.c - near-miss detection for "did you mean ...?" hints: the edit
 * distance between what was typed and the names we know.
 */
#include "event.h"

#include <stdlib.h>
#include <string.h>

size_t pk__edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t small[64], *row = small;

	/* One row of the dynamic-programming table; names are short. */
	if (lb + 1 > sizeof(small) / sizeof(small[0])) {
		row = pk__malloc((lb + 1) * sizeof(*row));
		if (!row)
			return la > lb ? la : lb;
	}
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];

	if (row != small)
		free(row);
	return d;
}
