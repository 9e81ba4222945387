/* SPDX-License-Identifier: MIT */
/*
 * fuzz_lists.c - libFuzzer target for the option-list parsers the library
 * owns: pk_regs_parse (--user-regs/--intr-regs) and pk_branch_filter_parse
 * (-j/--branch-filter).  The first byte picks the parser ('r' or 'b', any
 * other byte both), the rest is the list, NUL-terminated on the heap.  A
 * register mask must name only registers pk_regs_name knows and parse back
 * from those names to the same mask; a branch mask must hold only
 * PERF_SAMPLE_BRANCH_* bits and be non-zero; a failure must be -EINVAL with
 * an error record whose column lies inside the list.  CPU lists are
 * fuzz_host's ('c').  The CLI's -m, --call-graph and --control parsers are
 * fuzz_cli's (see README.md).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* A failure is -EINVAL, described, pointing inside the list. */
static void check_failure(int ret, const char *list)
{
	const struct pk_error *e = pk_last_error();

	if (ret != -EINVAL || e->code != ret || !e->why || !*e->why || !e->hint)
		abort();
	if (*list && (e->column < 1 || (size_t)e->column > strlen(list) + 1))
		abort();
}

static void regs(const char *list)
{
	char names[64 * 8] = "";
	uint64_t mask = 0, again = 0;
	int ret = pk_regs_parse(list, &mask);

	if (ret < 0) {
		check_failure(ret, list);
		return;
	}
	if (ret != 0 || !mask)
		abort();	/* a list that parses names at least one register */
	for (int bit = 0; bit < 64; bit++) {
		const char *name;

		if (!(mask & (1ULL << bit)))
			continue;
		if (!(name = pk_regs_name(bit)))
			abort();	/* a bit no register name stands for */
		if (*names)
			strcat(names, ",");
		strncat(names, name, 7);
	}
	if (pk_regs_parse(names, &again) != 0 || again != mask)
		abort();	/* the names of the mask give the mask back */
}

static void branch(const char *list)
{
	/* Every PERF_SAMPLE_BRANCH_* bit below PERF_SAMPLE_BRANCH_MAX. */
	const uint64_t known = PERF_SAMPLE_BRANCH_MAX - 1;
	uint64_t mask = 0;
	int ret = pk_branch_filter_parse(list, &mask);

	if (ret < 0) {
		check_failure(ret, list);
		return;
	}
	if (ret != 0 || !mask || (mask & ~known))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *list;

	if (size < 1)
		return 0;
	list = malloc(size);
	if (!list)
		return 0;
	memcpy(list, data + 1, size - 1);
	list[size - 1] = '\0';
	if (data[0] != 'b')
		regs(list);
	if (data[0] != 'r')
		branch(list);
	free(list);
	return 0;
}
