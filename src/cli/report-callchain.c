/* SPDX-License-Identifier: MIT */
/*
 * report-callchain.c - perf report's --stdio call graphs under an entry,
 * as perf 6.1 prints them: the graph and fractal trees with their "---"
 * and "|--N%--" art, the pipes that link a level until its last child and
 * the "[...]" line for what fractal's threshold left out; flat chains with
 * their percentage above them; folded lines ("N% a;b;c"); periods or
 * sample counts for percentages with -g period or count; frames with
 * their source line or offset under -g address and srcline; every
 * percentage in perf's colours with --stdio-color.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* A frame as perf's callchain_list__sym_name names it: with the address
 * or srcline key, its source line after the symbol (before an inlined
 * function's " (inlined)"). */
static void frame_name(FILE *f, const struct pk_callchain_frame *fr)
{
	static const char inl[] = " (inlined)";
	size_t len;

	if (!fr->sym) {
		fprintf(f, "%#" PRIx64, fr->ip);
		return;
	}
	if (fr->key == PK_CALLCHAIN_KEY_FUNCTION || !fr->srcline) {
		fputs(fr->sym, f);
		return;
	}
	len = strlen(fr->sym);
	if (fr->inlined && len >= sizeof(inl) - 1 && !strcmp(fr->sym + len - (sizeof(inl) - 1), inl))
		fprintf(f, "%.*s %s%s", (int)(len - (sizeof(inl) - 1)), fr->sym, fr->srcline, inl);
	else
		fprintf(f, "%s %s", fr->sym, fr->srcline);
}

/* perf's callchain_node__fprintf_value: the share in perf's colour with
 * --stdio-color (red from 5%, green above 0.5%, plain below), or with -g
 * period or count the chains' period or number of samples, plain. */
static void value(FILE *f, const struct report_cg *cg, uint64_t period, uint64_t count, uint64_t total)
{
	double pct = total ? (double)period * 100.0 / (double)total : 0.0;
	const char *c = cg->color ? cg->color(pct) : NULL;

	if (cg->value == REPORT_CG_PERIOD)
		fprintf(f, "%" PRIu64, period);
	else if (cg->value == REPORT_CG_COUNT)
		fprintf(f, "%u", (unsigned)count);	/* perf's unsigned */
	else
		fprintf(f, "%s%.2f%%%s", c ? c : "", pct, c ? CLI_COLOR_RESET : "");
}

/* Bit i of a depth mask.  perf's mask is an int shifted by the depth
 * (1 << i): x86 takes a 32-bit shift's count modulo 32, so below depth 32
 * perf's pipes repeat those of the levels 32 above, and so do these. */
static bool bit(uint32_t mask, int i)
{
	return (mask >> (i & 31)) & 1;
}

static uint32_t without(uint32_t mask, int i)
{
	return mask & ~(UINT32_C(1) << (i & 31));
}

static uint32_t with(uint32_t mask, int i)
{
	return mask | (UINT32_C(1) << (i & 31));
}

static void margin(FILE *f, int left)
{
	fprintf(f, "            %*s", left, "");
}

static void graph_line(FILE *f, int depth, uint32_t mask, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++)
		fputs(bit(mask, i) ? "|          " : "           ", f);
	fputc('\n', f);
}

/* --branch-history: frame k of node n's branch counts after its name. */
static void branch_counts(FILE *f, const struct report_cg *cg, const struct pk_callchain_node *n, size_t k)
{
	char buf[256];

	if (!cg->branch_history || !n)
		return;
	pk_branch_counts_str(pk_callchain_node_branch_counts(n, k), buf, sizeof(buf));
	fputs(buf, f);
}

/* One frame in the tree: the first of a node carries its percentage. */
static void graph_frame(FILE *f, const struct report_cg *cg, const char *name, const struct pk_callchain_node *n,
			size_t k, const uint64_t val[2], int depth, uint32_t mask, bool first, uint64_t total, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++) {
		fputc(bit(mask, i) ? '|' : ' ', f);
		if (first && i == depth - 1) {
			fputs("--", f);
			value(f, cg, val[0], val[1], total);
			fputs("--", f);
		} else {
			fputs("          ", f);
		}
	}
	if (name) {
		fputs(name, f);
	} else {
		frame_name(f, pk_callchain_node_frame(n, k));
		branch_counts(f, cg, n, k);
	}
	fputc('\n', f);
}

static void graph(FILE *f, const struct report_cg *cg, const struct pk_callchain_node *n, uint64_t total,
		  int depth, uint32_t mask, int left)
{
	bool rel = cg->mode == PK_CALLCHAIN_GRAPH_REL;
	size_t nr = pk_callchain_node_nr_children(n), printed = 0;
	uint64_t remaining = total;
	uint32_t new_mask = mask;
	/* the samples below n that no printed child took (perf's rem_node.count) */
	uint64_t rem_count = pk_callchain_node_cumul_count(n) - pk_callchain_node_count(n);

	for (size_t i = 0; i < nr; i++) {
		const struct pk_callchain_node *c = pk_callchain_node_child(n, i);
		const uint64_t val[2] = { pk_callchain_node_cumul(c), pk_callchain_node_cumul_count(c) };

		remaining -= val[0];
		rem_count -= val[1];
		/* The last child ends its level's pipe, unless a "[...]" line follows. */
		if (i + 1 == nr && (!rel || !remaining))
			new_mask = without(new_mask, depth - 1);
		graph_line(f, depth, mask, left);
		for (size_t k = 0; k < pk_callchain_node_nr_frames(c); k++)
			graph_frame(f, cg, NULL, c, k, val, depth, new_mask, k == 0, total, left);
		graph(f, cg, c, rel ? pk_callchain_node_cumul(c) - pk_callchain_node_self(c) : total, depth + 1,
		      with(new_mask, depth), left);
		if (++printed == cg->print_limit)
			break;
	}
	/* perf leaves the "[...]" line out when counting and no sample is left */
	if (rel && remaining && remaining != total && (cg->value != REPORT_CG_COUNT || rem_count)) {
		const uint64_t val[2] = { remaining, rem_count };

		graph_frame(f, cg, "[...]", NULL, 0, val, depth, without(new_mask, depth - 1), true, total, left);
	}
}

static void print_graph(FILE *f, const struct report_cg *cg, const struct pk_callchain *cc, uint64_t total,
			uint64_t parent_total, bool skip_first)
{
	const struct pk_callchain_node *n = pk_callchain_root(cc), *only = pk_callchain_node_child(n, 0);
	int left = 0;
	bool printed = false;
	size_t nr_printed = 0;

	/* A single chain carrying the entry's whole period prints without a
	 * percentage, its frames under "---". */
	if (only && pk_callchain_node_nr_children(n) == 1 && pk_callchain_node_cumul(only) == parent_total) {
		for (size_t k = 0; k < pk_callchain_node_nr_frames(only); k++) {
			if (!k && skip_first)
				continue;
			margin(f, left);
			if (!printed) {
				fputs("|\n", f);
				margin(f, left);
				fputs("---", f);
				left += 3;
				printed = true;
			}
			frame_name(f, pk_callchain_node_frame(only, k));
			branch_counts(f, cg, only, k);
			fputc('\n', f);
			if (++nr_printed == cg->print_limit)
				break;
		}
		n = only;
	}
	if (cg->mode == PK_CALLCHAIN_GRAPH_REL)
		total = parent_total;
	graph(f, cg, n, total, 1, 1, left);
	if (printed || pk_callchain_node_nr_children(n))	/* no blank line for nothing */
		fputc('\n', f);
}

/* A flat or folded chain: its nodes' frames from the root down. */
static void chain_frames(FILE *f, const struct pk_callchain_node *n, const char *before, const char *sep,
			 bool *first)
{
	if (!pk_callchain_node_parent(n))
		return;
	chain_frames(f, pk_callchain_node_parent(n), before, sep, first);
	for (size_t k = 0; k < pk_callchain_node_nr_frames(n); k++) {
		fputs(*first ? before : sep, f);
		frame_name(f, pk_callchain_node_frame(n, k));
		*first = false;
	}
}

void report_callchain_print(FILE *f, const struct report_cg *cg, const struct pk_callchain *cc,
			    uint64_t total, uint64_t parent_total, bool skip_first)
{
	size_t nr = pk_callchain_nr_flat(cc);

	switch (cg->mode) {
	case PK_CALLCHAIN_GRAPH_ABS:
	case PK_CALLCHAIN_GRAPH_REL:
		print_graph(f, cg, cc, total, parent_total, skip_first);
		return;
	case PK_CALLCHAIN_FLAT:
		for (size_t i = 0; i < nr && (!cg->print_limit || i < cg->print_limit); i++) {
			bool first = true;

			fputs("           ", f);
			value(f, cg, pk_callchain_node_cumul(pk_callchain_flat(cc, i)),
			      pk_callchain_node_cumul_count(pk_callchain_flat(cc, i)), total);
			fputc('\n', f);
			chain_frames(f, pk_callchain_flat(cc, i), "                ", "\n                ", &first);
			fputs(first ? "\n" : "\n\n", f);
		}
		return;
	case PK_CALLCHAIN_FOLDED:
		for (size_t i = 0; i < nr && (!cg->print_limit || i < cg->print_limit); i++) {
			bool first = true;

			value(f, cg, pk_callchain_node_self(pk_callchain_flat(cc, i)),
			      pk_callchain_node_count(pk_callchain_flat(cc, i)), total);
			fputc(' ', f);
			chain_frames(f, pk_callchain_flat(cc, i), "", ";", &first);
			fputc('\n', f);
		}
		return;
	}
}
