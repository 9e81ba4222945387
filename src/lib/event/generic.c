/* SPDX-License-Identifier: MIT */
/*
 * generic.c - perf's generic events as data: the hardware and software names
 * (generic.def) and the hw-cache type/op/result spellings with the rules for
 * which combinations perf accepts, plus the parser and namer for cache names,
 * and the CPU-dependent fixup of record's default cycles event.
 */
#include "event.h"
#include "../host/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct pk__generic pk__generic_events[] = {
#define X(name, alias, type, config, desc) { name, alias, type, config, desc },
#include "generic.def"
#undef X
};
const size_t pk__nr_generic_events = sizeof(pk__generic_events) / sizeof(pk__generic_events[0]);

const struct pk__generic *pk__generic_find(const char *name)
{
	for (size_t i = 0; i < pk__nr_generic_events; i++) {
		const struct pk__generic *g = &pk__generic_events[i];

		/* perf 6.1 is case-sensitive here; "CYCLES" and "Task-Clock" are
		 * still unambiguous, so perfkit accepts them. */
		if (!strcasecmp(g->name, name) || (g->alias[0] && !strcasecmp(g->alias, name)))
			return g;
	}
	return NULL;
}

/* The spellings perf 6.1's lexer accepts; the first of each row is canonical. */
const char *const pk__cache_type_names[PERF_COUNT_HW_CACHE_MAX][PK__MAX_CACHE_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

const char *const pk__cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][PK__MAX_CACHE_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

const char *const pk__cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][PK__MAX_CACHE_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define OPS(r, w, p) ((r) << PERF_COUNT_HW_CACHE_OP_READ | (w) << PERF_COUNT_HW_CACHE_OP_WRITE | \
		      (p) << PERF_COUNT_HW_CACHE_OP_PREFETCH)

/* Which ops each cache type supports: the instruction cache is never written,
 * and the iTLB and branch predictor are only read. */
static const unsigned cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_L1I] = OPS(1, 0, 1),
	[PERF_COUNT_HW_CACHE_LL] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_DTLB] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_ITLB] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_BPU] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_NODE] = OPS(1, 1, 1),
};

bool pk__cache_op_valid(int type, int op)
{
	if (type < 0 || type >= PERF_COUNT_HW_CACHE_MAX || op < 0 || op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return false;
	return cache_ops[type] & (1u << op);
}

/* Match a whole word against a row table; returns the row or -1. */
static int match_row(const char *word, size_t n, const char *const (*rows)[PK__MAX_CACHE_ALIASES],
		     int nr_rows)
{
	for (int i = 0; i < nr_rows; i++)
		for (int j = 0; j < PK__MAX_CACHE_ALIASES && rows[i][j]; j++)
			if (strlen(rows[i][j]) == n &&
			    (!strncmp(rows[i][j], word, n) ||
			     /* Other cases are accepted for all-lowercase spellings;
			      * perf's one mixed-case word, "Reference", is exact. */
			     (!strncasecmp(rows[i][j], word, n) && !strpbrk(rows[i][j], "R"))))
				return i;
	return -1;
}

/*
 * The type name itself may contain '-' ("L1-dcache", "d-tlb"), so try every
 * type spelling as a prefix and parse the remaining "-word" parts.
 */
int64_t pk__cache_parse(const char *name)
{
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (int j = 0; j < PK__MAX_CACHE_ALIASES && pk__cache_type_names[t][j]; j++) {
			const char *tn = pk__cache_type_names[t][j];
			size_t tl = strlen(tn);
			const char *p = name + tl;
			int op = -1, res = -1, nwords = 0;
			bool ok = true;

			if (strncasecmp(name, tn, tl) || (*p && *p != '-'))
				continue;
			while (*p) {
				const char *w = p + 1;
				size_t n = strcspn(w, "-");
				int r;

				/* "speculative-read" is one word with a dash in it. */
				if (op < 0 && !strncasecmp(w, "speculative-", 12))
					n = 12 + strcspn(w + 12, "-");
				if (op < 0 && (r = match_row(w, n, pk__cache_op_names,
							     PERF_COUNT_HW_CACHE_OP_MAX)) >= 0)
					op = r;
				else if (res < 0 && (r = match_row(w, n, pk__cache_result_names,
								   PERF_COUNT_HW_CACHE_RESULT_MAX)) >= 0)
					res = r;
				else
					ok = false;
				if (!ok || !n)
					break;
				p = w + n;
				nwords++;
			}
			if (!ok || nwords > 2)
				continue;
			if (op < 0)
				op = PERF_COUNT_HW_CACHE_OP_READ;
			if (res < 0)
				res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
			if (!pk__cache_op_valid(t, op))
				return pk__error(-EINVAL, name, "perf does not count %s operations on %s",
						 pk__cache_op_names[op][0], pk__cache_type_names[t][0]);
			return (int64_t)t | (int64_t)op << 8 | (int64_t)res << 16;
		}
	}
	return -ENOENT;
}

int pk__cache_name(uint64_t config, char *buf, size_t len)
{
	unsigned t = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (t >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    res >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return snprintf(buf, len, "hw-cache 0x%llx", (unsigned long long)config);
	/* perf's naming: "-loads"/"-stores" for accesses, "-load-misses" for misses. */
	if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return snprintf(buf, len, "%s-%s", pk__cache_type_names[t][0], pk__cache_op_names[op][1]);
	return snprintf(buf, len, "%s-%s-%s", pk__cache_type_names[t][0], pk__cache_op_names[op][0],
			pk__cache_result_names[res][0]);
}

void pk__event_default_cycles_fixup(struct perf_event_attr *a)
{
	char vendor[64];

	pk__host_cpuinfo("vendor_id", vendor, sizeof(vendor));
	if (!strcmp(vendor, "AuthenticAMD"))
		a->exclude_guest = 0;
}
