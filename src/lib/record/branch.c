/* SPDX-License-Identifier: MIT */
/*
 * branch.c - perf's branch filter words (perf record -j "any_call,u") into
 * a branch_sample_type mask for PERF_SAMPLE_BRANCH_STACK, the way perf's
 * parse_branch_stack() reads them: comma-separated, and privilege words
 * alone meaning any branch at those levels.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *name;
	uint64_t bit;
} words[] = {
	{ "any", PERF_SAMPLE_BRANCH_ANY }, { "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN }, { "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "call", PERF_SAMPLE_BRANCH_CALL }, { "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX }, { "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX }, { "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
};

#define NR_WORDS (sizeof(words) / sizeof(words[0]))
#define PRIV_BITS (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

int pk_branch_filter_parse(const char *list, uint64_t *mask)
{
	const char *p = list;
	uint64_t m = 0;

	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < NR_WORDS; i++)
			if (strlen(words[i].name) == n && !strncmp(words[i].name, p, n))
				break;
		if (i == NR_WORDS) {
			pk__error(-EINVAL, "parse the branch filter", "unknown branch filter '%.*s'", (int)n, p);
			pk__error_column((int)(p - list) + 1);
			pk__error_hint("the filters are any, any_call, any_ret, ind_call, call, cond, ind_jmp, "
				       "call_stack, abort_tx, in_tx, no_tx, save_type, u, k, hv");
			return -EINVAL;
		}
		m |= words[i].bit;
		p += n;
		p += *p == ',';
	}
	/* Only privilege words: perf samples any branch at those levels. */
	if (!(m & ~(uint64_t)PRIV_BITS))
		m |= PERF_SAMPLE_BRANCH_ANY;
	*mask = m;
	return 0;
}
