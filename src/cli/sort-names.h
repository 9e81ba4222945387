/* SPDX-License-Identifier: MIT */
/*
 * sort-names.h - how perf 6.1 reads the words of --sort and -F (report,
 * diff): split on commas, spaces and braces, each word the first of perf's
 * key names, in perf's table order, that it begins, case ignored.
 */
#ifndef PERFKIT_CLI_SORT_NAMES_H
#define PERFKIT_CLI_SORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* perf's four tables of keys, tried in this order. */
enum sort_table { SORT_TABLE_COMMON, SORT_TABLE_HPP, SORT_TABLE_BRANCH, SORT_TABLE_MEMORY };

/* sort_name_match - perf's full name of the key `len` bytes at `word`
 * name: the first of perf's keys, in its order, that the word begins,
 * case ignored (so "s" is "symbol" and "p" is "pid"), with its table in
 * *table; NULL when no key of perf's begins so (or the word is empty). */
const char *sort_name_match(const char *word, size_t len, enum sort_table *table);

/* sort_word_next - the next non-empty word of `*p` (the separators being
 * ", " plus "{}" when `braces`): its length, with *p at its start and
 * moved past it; 0 at the end of the string. */
size_t sort_word_next(const char **p, const char **word, int braces);

/* sort_name_find - which of `names` (nr of them, a command's own keys by
 * their full names, with any extra names of its own) the word names, read
 * as perf reads it: perf's key the word begins, then that key among
 * `names`; a word no key of perf's begins is looked up whole.  Returns the
 * index, or CLI_EXIT_USAGE negated after a usage message for `cmd` naming
 * `what` ("--sort key"): perf's "Invalid" for a branch or memory key, one
 * perfkit does not support, an unknown word (with the nearest name). */
int sort_name_find(const char *cmd, const char *what, const char *word, size_t len,
		   const char *const *names, size_t nr);

/* sort_name_find_mode - the same, perf's memory keys taken when `memory`
 * (report --mem-mode), as perf's sort__mode allows them. */
int sort_name_find_mode(const char *cmd, const char *what, const char *word, size_t len,
			const char *const *names, size_t nr, bool memory);

#endif
