/* SPDX-License-Identifier: MIT */
/*
 * sort-names.c - perf 6.1's sort and field key names, in the order its
 * sort_dimension__add and output_field_add try them (util/sort.c: the
 * common keys, the output fields, the branch keys, the memory keys), and
 * its matching rule: a word names the first key it is a prefix of, case
 * ignored.  No key is ambiguous to perf: the table order decides.
 */
#include "sort-names.h"

#include "cli.h"

#include <stdio.h>

#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	enum sort_table table;
} perf_keys[] = {
	{ "pid", SORT_TABLE_COMMON }, { "comm", SORT_TABLE_COMMON }, { "dso", SORT_TABLE_COMMON },
	{ "symbol", SORT_TABLE_COMMON }, { "parent", SORT_TABLE_COMMON }, { "cpu", SORT_TABLE_COMMON },
	{ "socket", SORT_TABLE_COMMON }, { "srcline", SORT_TABLE_COMMON }, { "srcfile", SORT_TABLE_COMMON },
	{ "local_weight", SORT_TABLE_COMMON }, { "weight", SORT_TABLE_COMMON },
	{ "transaction", SORT_TABLE_COMMON }, { "trace", SORT_TABLE_COMMON },
	{ "symbol_size", SORT_TABLE_COMMON }, { "dso_size", SORT_TABLE_COMMON },
	{ "cgroup", SORT_TABLE_COMMON }, { "cgroup_id", SORT_TABLE_COMMON },
	{ "ipc_null", SORT_TABLE_COMMON }, { "time", SORT_TABLE_COMMON },
	{ "code_page_size", SORT_TABLE_COMMON }, { "local_ins_lat", SORT_TABLE_COMMON },
	{ "ins_lat", SORT_TABLE_COMMON }, { "local_p_stage_cyc", SORT_TABLE_COMMON },
	{ "p_stage_cyc", SORT_TABLE_COMMON }, { "addr", SORT_TABLE_COMMON },
	{ "overhead", SORT_TABLE_HPP }, { "overhead_sys", SORT_TABLE_HPP }, { "overhead_us", SORT_TABLE_HPP },
	{ "overhead_guest_sys", SORT_TABLE_HPP }, { "overhead_guest_us", SORT_TABLE_HPP },
	{ "overhead_children", SORT_TABLE_HPP }, { "sample", SORT_TABLE_HPP }, { "period", SORT_TABLE_HPP },
	{ "dso_from", SORT_TABLE_BRANCH }, { "dso_to", SORT_TABLE_BRANCH },
	{ "symbol_from", SORT_TABLE_BRANCH }, { "symbol_to", SORT_TABLE_BRANCH },
	{ "mispredict", SORT_TABLE_BRANCH }, { "in_tx", SORT_TABLE_BRANCH }, { "abort", SORT_TABLE_BRANCH },
	{ "cycles", SORT_TABLE_BRANCH }, { "srcline_from", SORT_TABLE_BRANCH },
	{ "srcline_to", SORT_TABLE_BRANCH }, { "ipc_lbr", SORT_TABLE_BRANCH },
	{ "addr_from", SORT_TABLE_BRANCH }, { "addr_to", SORT_TABLE_BRANCH },
	{ "symbol_daddr", SORT_TABLE_MEMORY }, { "symbol_iaddr", SORT_TABLE_MEMORY },
	{ "dso_daddr", SORT_TABLE_MEMORY }, { "locked", SORT_TABLE_MEMORY }, { "tlb", SORT_TABLE_MEMORY },
	{ "mem", SORT_TABLE_MEMORY }, { "snoop", SORT_TABLE_MEMORY }, { "dcacheline", SORT_TABLE_MEMORY },
	{ "phys_daddr", SORT_TABLE_MEMORY }, { "data_page_size", SORT_TABLE_MEMORY },
	{ "blocked", SORT_TABLE_MEMORY },
};
#define NR_PERF_KEYS (sizeof(perf_keys) / sizeof(perf_keys[0]))

const char *sort_name_match(const char *word, size_t len, enum sort_table *table)
{
	if (!len)
		return NULL;
	for (size_t i = 0; i < NR_PERF_KEYS; i++) {
		/* perf's strncasecmp(tok, name, strlen(tok)): a longer word
		 * meets the name's NUL and differs. */
		if (strlen(perf_keys[i].name) >= len && !strncasecmp(word, perf_keys[i].name, len)) {
			*table = perf_keys[i].table;
			return perf_keys[i].name;
		}
	}
	return NULL;
}

size_t sort_word_next(const char **p, const char **word, int braces)
{
	const char *seps = braces ? ", {}" : ", ";
	size_t len;

	*p += strspn(*p, seps);
	*word = *p;
	len = strcspn(*p, seps);
	*p += len;
	return len;
}

static int exact(const char *word, size_t len, const char *const *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (strlen(names[i]) == len && !strncasecmp(word, names[i], len))
			return (int)i;
	return -1;
}

/* "names: a, b, c" into buf, as much as fits. */
static const char *name_list(char *buf, size_t size, const char *const *names, size_t nr)
{
	size_t used = (size_t)snprintf(buf, size, "names:");

	for (size_t i = 0; i < nr && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s %s", i ? "," : "", names[i]);
	return buf;
}

int sort_name_find(const char *cmd, const char *what, const char *word, size_t len,
		   const char *const *names, size_t nr)
{
	return sort_name_find_mode(cmd, what, word, len, names, nr, false);
}

int sort_name_find_mode(const char *cmd, const char *what, const char *word, size_t len,
			const char *const *names, size_t nr, bool memory)
{
	enum sort_table table;
	const char *perf = sort_name_match(word, len, &table), *near;
	char w[32], list[512];
	int k;

	if (perf && (table == SORT_TABLE_BRANCH || (table == SORT_TABLE_MEMORY && !memory)))
		return -cli_usage(cmd, "Invalid %s: `%.*s' (perf's '%s', a key of its %s mode)", what, (int)len,
				  word, perf, table == SORT_TABLE_BRANCH ? "branch (-b)" : "memory (--mem-mode)");
	if (perf) {
		if ((k = exact(perf, strlen(perf), names, nr)) >= 0)
			return k;
		return -cli_usage(cmd, "%s '%.*s' is perf's '%s', which perfkit does not support", what,
				  (int)len, word, perf);
	}
	if ((k = exact(word, len, names, nr)) >= 0)
		return k;
	snprintf(w, sizeof(w), "%.*s", (int)(len < sizeof(w) ? len : sizeof(w) - 1), word);
	near = len < sizeof(w) ? pk_suggest(w, names, nr) : NULL;
	if (near)
		return -cli_usage(cmd, "unknown %s '%.*s': did you mean '%s'?", what, (int)len, word, near);
	return -cli_usage(cmd, "unknown %s '%.*s' (%s)", what, (int)len, word, name_list(list, sizeof(list), names, nr));
}
