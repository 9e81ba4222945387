/* SPDX-License-Identifier: MIT */
/*
 * export-flamegraph.c - one self-contained interactive SVG flame graph:
 * the call tree merged by label (comm at the bottom), frames narrower than
 * opts.min_share of the total merged into one "[merged]" box per parent so
 * a million samples stay a small file, written as compact JSON inside the
 * SVG with a script of ours that lays it out and gives it hover details
 * (name, source line when the profile has lines, weight, share), click-to-zoom, search with the matches' total
 * share, reset, and the icicle orientation; colours by kind: user warm,
 * kernel orange, JIT green, inlined blue, comm grey.  The differential
 * graph of `perfkit diff` (export-diff.c) is the same SVG with each box's
 * total in the old profile beside it: the script then colours by the
 * change and shows both totals.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_COMM = PK_FRAME_KIND_NR, KIND_MERGED };

struct fg {
	const struct pk_exporter *ex;
	const struct pk__ltree *t;
	FILE *f;
	uint32_t *name_ix;	/* label id -> index in the names array + 1 */
	uint32_t nr_out, nr_names, max_depth;
	uint64_t min_total;
	uint64_t scale;		/* every total's common divisor: written divided by it */
	/* The differential graph: each tree node's old total, and each box's
	 * as written (nr_out of them); NULL for a plain graph. */
	const uint64_t *old;
	uint64_t *old_out;
	/* Each box's source line as written: its file (an index into the
	 * files array + 1, 0 for none) and line; file_ix maps string ids. */
	uint32_t *src_out, *file_ix, nr_files;
};

/* A JSON string that is also safe inside CDATA and HTML. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_names(struct fg *g, uint32_t i)
{
	const struct pk__tnode *n = &g->t->n[i];

	if (i && n->total >= g->min_total && !g->name_ix[n->label]) {
		g->name_ix[n->label] = ++g->nr_names;
		fputc(g->nr_names > 1 ? ',' : '[', g->f);
		put_str(g->f, pk__export_str(g->ex, n->label));
	}
	for (uint32_t c = n->first_child; c; c = g->t->n[c].next_sibling)
		put_names(g, c);
}

/* Node `i` as [up, name, kind, rest] (up: how many boxes back its parent
 * was written, 0 for the root "all"; rest: its total less its children's,
 * in units of g->scale, from which the script adds the totals up), then
 * its children, the narrow ones as one merged box.  Both numbers are small
 * for most boxes (1 and 0 along a chain): a deep tree's file stays small. */
static void put_node(struct fg *g, uint32_t i, uint32_t parent_out, uint32_t depth)
{
	const struct pk__tnode *n = &g->t->n[i];
	uint32_t me = g->nr_out++;
	uint64_t merged = 0, merged_old = 0, kids = 0;

	if (depth > g->max_depth)
		g->max_depth = depth;
	if (g->old)
		g->old_out[me] = g->old[i];
	g->src_out[2 * me] = n->line ? n->file : 0;
	g->src_out[2 * me + 1] = n->line;
	for (uint32_t c = n->first_child; c; c = g->t->n[c].next_sibling)
		kids += g->t->n[c].total;
	fprintf(g->f, "%s%u,%u,%d,%lld", me ? "," : "", i ? me - parent_out : 0, i ? g->name_ix[n->label] : 0,
		i ? (int)n->kind : KIND_COMM, (long long)(n->total - kids) / (long long)g->scale);
	for (uint32_t c = n->first_child; c; c = g->t->n[c].next_sibling) {
		if (g->t->n[c].total >= g->min_total) {
			put_node(g, c, me, depth + 1);
		} else {
			merged += g->t->n[c].total;
			merged_old += g->old ? g->old[c] : 0;
		}
	}
	if (merged) {
		if (g->old)
			g->old_out[g->nr_out] = merged_old;
		g->src_out[2 * g->nr_out] = g->src_out[2 * g->nr_out + 1] = 0;
		fprintf(g->f, ",%u,%u,%d,%llu", g->nr_out - me, g->nr_names + 1, KIND_MERGED,
			(unsigned long long)(merged / g->scale));
		g->nr_out++;
		if (depth + 1 > g->max_depth)
			g->max_depth = depth + 1;
	}
}

/* The differential graph's extra data: each box's old total and the old
 * profile's whole. */
static void put_old(const struct fg *g, uint64_t old_all)
{
	fputs(",old:[", g->f);
	for (uint32_t i = 0; i < g->nr_out; i++)
		fprintf(g->f, "%s%llu", i ? "," : "", (unsigned long long)g->old_out[i]);
	fprintf(g->f, "],oldTotal:%llu", (unsigned long long)old_all);
}

/* Each box's source line, as [file, line] pairs into a files array of
 * base names ("app.c"), when any box has one: the hover shows it. */
static void put_src(struct fg *g)
{
	bool any = false;

	for (uint32_t i = 0; i < g->nr_out; i++) {
		uint32_t *f = &g->src_out[2 * i];
		const char *path, *base;

		if (!*f)
			continue;
		if (!g->file_ix[*f]) {
			path = pk__export_str(g->ex, *f);
			base = strrchr(path, '/');
			fputs(g->nr_files ? "," : ",files:[", g->f);
			put_str(g->f, base && base[1] ? base + 1 : path);
			g->file_ix[*f] = ++g->nr_files;
		}
		*f = g->file_ix[*f];
		any = true;
	}
	if (!any)
		return;
	fputs("],src:[", g->f);
	for (uint32_t i = 0; i < 2 * g->nr_out; i++)
		fprintf(g->f, "%s%u", i ? "," : "", g->src_out[i]);
	fputc(']', g->f);
}

/* The greatest common divisor of every node's total (a cpu-clock
 * profile's period, 500000 ns at 2 kHz), 1 when there is none: each
 * node's rest is a difference of such totals, so it divides them too. */
static uint64_t totals_gcd(const struct pk__ltree *t)
{
	uint64_t g = 0;

	for (uint32_t i = 0; i < t->nr && g != 1; i++)
		for (uint64_t a = t->n[i].total, r; a; g = a, a = r)
			r = g % a;
	return g ? g : 1;
}

int pk__flamegraph_write(const struct pk_exporter *ex, const struct pk__ltree *t, const uint64_t *old,
			 uint64_t old_all, FILE *f)
{
	struct fg g = { .ex = ex, .t = t, .f = f, .old = old };
	double share = ex->opts.min_share > 0 ? ex->opts.min_share : 0.0001;

	if (!(g.name_ix = pk__calloc(ex->nr_strs, sizeof(*g.name_ix))) ||
	    !(g.file_ix = pk__calloc(ex->nr_strs, sizeof(*g.file_ix))) ||
	    !(g.src_out = pk__calloc(4 * t->nr, sizeof(*g.src_out))) ||
	    (old && !(g.old_out = pk__calloc(2 * t->nr, sizeof(*g.old_out))))) {
		free(g.name_ix);
		free(g.file_ix);
		free(g.src_out);
		return pk__error_nomem("a flame graph");
	}
	g.min_total = (uint64_t)((double)t->n[0].total * share);
	g.min_total = g.min_total ? g.min_total : 1;
	g.scale = totals_gcd(t);
	fputs("<?xml version=\"1.0\" standalone=\"no\"?>\n"
	      "<svg version=\"1.1\" width=\"1200\" height=\"400\" onload=\"pkInit(evt)\" "
	      "viewBox=\"0 0 1200 400\" xmlns=\"http://www.w3.org/2000/svg\" "
	      "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
	      "<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
	      "#frames text{font-size:11px;pointer-events:none}#frames rect{stroke:none}"
	      "#frames g:hover rect{stroke:#000;stroke-width:0.5}.btn{cursor:pointer;fill:#336}</style>\n"
	      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f0\"/>\n"
	      "<script type=\"text/ecmascript\"><![CDATA[\nvar PK = {title:", f);
	put_str(f, ex->opts.title);
	fprintf(f, ",icicle:%s,unit:", ex->opts.icicle ? "true" : "false");
	put_str(f, ex->events[0].unit);
	fputs(",names:", f);
	put_names(&g, 0);
	fputs(g.nr_names ? ",\"[merged]\"]" : "[\"[merged]\"]", f);
	fprintf(f, ",scale:%llu,nodes:[", (unsigned long long)g.scale);
	put_node(&g, 0, 0, 0);
	fprintf(f, "],depth:%u", g.max_depth);
	put_src(&g);
	if (old)
		put_old(&g, old_all);
	fputs("};\n", f);
	fputs(pk__flamegraph_js, f);
	fputs("]]></script>\n<g id=\"frames\"></g>\n</svg>\n", f);
	free(g.name_ix);
	free(g.file_ix);
	free(g.src_out);
	free(g.old_out);
	return 0;
}

int pk__export_flamegraph(const struct pk_exporter *ex, FILE *f)
{
	struct pk__ltree t;
	int err;

	if ((err = pk__ltree_build(ex, &t)) < 0)
		return err;
	err = pk__flamegraph_write(ex, &t, NULL, 0, f);
	pk__ltree_free(&t);
	return err;
}
