/* SPDX-License-Identifier: MIT */
/*
 * suggest.c - near-miss detection for "did you mean ...?" hints: the edit
 * distance between what was typed and the names we know (optionally given
 * up once it exceeds a bound), and pk_suggest, the nearest of a caller's
 * names (the CLI's commands and options).
 */
#include "event.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t pk__edit_distance(const char *a, const char *b)
{
	return pk__edit_distance_max(a, b, SIZE_MAX - 1);
}

size_t pk__edit_distance_max(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t small[64], *row = small;

	if (max == SIZE_MAX)
		max = SIZE_MAX - 1;	/* so that max + 1 cannot wrap */
	/* Every length difference costs one insertion or deletion. */
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;

	/* One row of the dynamic-programming table; names are short. */
	if (lb + 1 > sizeof(small) / sizeof(small[0])) {
		row = pk__malloc((lb + 1) * sizeof(*row));
		if (!row)
			return la > lb ? la : lb;
	}
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], row_min;

		row[0] = i;
		row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
			if (best < row_min)
				row_min = best;
		}
		/* Distances never shrink from one row to the next. */
		if (row_min > max) {
			row[lb] = max + 1;
			break;
		}
	}
	size_t d = row[lb] > max ? max + 1 : row[lb];

	if (row != small)
		free(row);
	return d;
}

const char *pk_suggest(const char *word, const char *const *candidates, size_t n)
{
	size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2;
	size_t best_d = SIZE_MAX;
	const char *best = NULL;

	/* A word replaced letter by letter is another word, not a typo. */
	if (limit >= len)
		limit = len ? len - 1 : 0;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!candidates[i])
			continue;
		d = pk__edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
