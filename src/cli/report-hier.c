/* SPDX-License-Identifier: MIT */
/*
 * report-hier.c - report --hierarchy: perf 6.1's hierarchical --stdio
 * output, one level per sort key (comm, pid, cpu, dso, sym), each entry the sum of
 * the samples below it, indented three spaces a level, siblings by period
 * (largest first) then by their key as the flat table orders them, the
 * leaves in the flat histogram's own order; -n's and --show-total-period's
 * columns after the Overhead.  Built from the flat
 * histogram's entries: its keys are the levels.  perf's column header
 * joins the keys' names with " / "; its cells keep their padding (perf
 * trims nothing in this mode) but for the symbol's; an entry whose
 * children --percent-limit hides all gets perf's "no entry >= N%" line.
 * With call graphs (-g) each leaf's graph follows it as in the flat
 * table, of the leaf's own period: perf has no Children in this mode.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HIER_INDENT 3		/* perf's HIERARCHY_INDENT */
#define OVERHEAD_WIDTH 8	/* "Overhead", and "100.00%" under it */
#define ADDR_DIGITS 16		/* an unresolved address: "0x" and 16 digits */
#define COUNT_WIDTH 12		/* -n's Samples and --show-total-period's Period */

/* Each key's column width, as perf's hists__calc_col_len finds them. */
struct hier_widths {
	int w[PK_HIST_MAX_KEYS];
};

/* One group of leaves at a level: its first leaf, period and where its
 * leaves sit in the level's reordered index array. */
struct hier_group {
	const struct pk_hist_entry *first;
	uint64_t period, nr_samples;
	size_t start, n;
};

struct hier_ctx {
	FILE *f;
	const struct report_opts *o;
	const struct pk_hist *h;
	struct hier_widths wd;
	bool nomem;
	struct pk_threads *threads;	/* the Pid:Command cells' comms */
};

/* A key's header, as perf joins them (trimmed), and its width before that. */
static const char *key_name(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM: return "Command";
	case PK_HIST_KEY_DSO: return "Shared Object";
	case PK_HIST_KEY_PID: return "Pid:Command";
	case PK_HIST_KEY_CPU: return "CPU";
	default: return "Symbol";
	}
}

static int key_min_width(enum pk_hist_key k)
{
	return k == PK_HIST_KEY_PID ? 15 : (int)strlen(key_name(k));
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static struct hier_widths hier_widths(const struct report_opts *o, const struct pk_hist *h,
				      struct pk_threads *threads)
{
	struct hier_widths wd;
	int comm = 0, dso = 0, sym = 0;

	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);
		/* perf sizes by the thread's comm at the end, not the sample's */
		const char *c = pk_threads_comm(threads, e->s.pid, e->s.tid);

		if (e->s.filtered)
			continue;	/* --socket-filter's */
		comm = imax(comm, c ? (int)strlen(c) : 0);
		if (e->s.dso)
			dso = imax(dso, (int)strlen(e->s.dso));
		if (e->s.sym) {
			sym = imax(sym, (int)strlen(e->s.sym) + 4);
		} else {	/* "[.] 0x" and the digits; an object column at least that wide */
			sym = imax(sym, ADDR_DIGITS + 4 + 2);
			dso = imax(dso, ADDR_DIGITS);
		}
	}
	for (size_t k = 0; k < o->nr_keys; k++) {
		enum pk_hist_key key = o->keys[k];
		int v = key == PK_HIST_KEY_COMM ? comm : key == PK_HIST_KEY_DSO ? dso :
			key == PK_HIST_KEY_SYM ? sym : key == PK_HIST_KEY_PID && comm ? comm + 8 : 0;

		wd.w[k] = imax(v, key_min_width(key));
	}
	return wd;
}

/* Key `k` of two entries: equal (0), or their order as the flat table
 * sorts them (names ascending; unresolved symbols by address). */
static int num_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int key_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	if (k == PK_HIST_KEY_PID)	/* perf's thread: by its tid */
		return num_cmp(a->s.tid, b->s.tid);
	if (k == PK_HIST_KEY_CPU)
		return a->s.cpu < b->s.cpu ? -1 : a->s.cpu > b->s.cpu;
	const char *x = k == PK_HIST_KEY_COMM ? a->s.comm : k == PK_HIST_KEY_DSO ? a->s.dso : a->s.sym;
	const char *y = k == PK_HIST_KEY_COMM ? b->s.comm : k == PK_HIST_KEY_DSO ? b->s.dso : b->s.sym;
	int c;

	if (k == PK_HIST_KEY_SYM && (!x || !y)) {
		if (x || y)
			return x ? -1 : 1;	/* a resolved symbol before an address */
		return a->s.ip < b->s.ip ? -1 : a->s.ip > b->s.ip;
	}
	if (!x || !y)
		return !x - !y;
	if ((c = strcmp(x, y)) || k != PK_HIST_KEY_SYM)
		return c;
	return a->s.sym_start < b->s.sym_start ? -1 : a->s.sym_start > b->s.sym_start;
}

static const struct report_opts *sort_opts;	/* qsort's: the keys, */
static size_t sort_level;			/* and the level sorted */

/*
 * perf's output order of two siblings: period, then each key from the
 * level's on (the later ones of the entries' first samples); two
 * unresolved symbols are equal there, and end in address order.
 */
static int group_cmp(const void *pa, const void *pb)
{
	const struct hier_group *a = pa, *b = pb;
	const struct pk_hist_entry *x = a->first, *y = b->first;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (size_t k = sort_level; k < sort_opts->nr_keys; k++) {
		int c;

		if (sort_opts->keys[k] == PK_HIST_KEY_SYM && !x->s.sym && !y->s.sym)
			continue;
		if ((c = key_cmp(sort_opts->keys[k], x, y)))
			return c;
	}
	return x->s.ip < y->s.ip ? -1 : x->s.ip > y->s.ip;
}

/* Entry e's key-k cell: padded to the column but the symbol's. */
static void print_cell(const struct hier_ctx *c, size_t k, const struct pk_hist_entry *e)
{
	int w = c->wd.w[k];
	const char *comm;

	switch (c->o->keys[k]) {
	case PK_HIST_KEY_PID:	/* perf's "%7d:%-*s", its leading spaces skipped */
		comm = pk_threads_comm(c->threads, e->s.pid, e->s.tid);
		w = imax(7, w) - 8;
		fprintf(c->f, "%d:%-*.*s", (int)e->s.tid, w, w, comm ? comm : "");
		break;
	case PK_HIST_KEY_CPU:
		fprintf(c->f, "%.*d", w, (int)e->s.cpu);
		break;
	case PK_HIST_KEY_COMM:
		fprintf(c->f, "%-*.*s", w, w, e->s.comm ? e->s.comm : "");
		break;
	case PK_HIST_KEY_DSO:
		fprintf(c->f, "%-*.*s", w, w, e->s.dso ? e->s.dso : "[unknown]");
		break;
	default:
		fprintf(c->f, "[%c] ", e->s.level);
		if (e->s.sym)
			fprintf(c->f, "%.*s", imax(w - 4, 0), e->s.sym);
		else
			fprintf(c->f, "%-#.*llx", ADDR_DIGITS, (unsigned long long)e->s.ip);
		break;
	}
}

/* The columns before the keys: perf's hists__overhead_width. */
static int overhead_width(const struct report_opts *o)
{
	return OVERHEAD_WIDTH + (o->show_nr + o->show_period) * (COUNT_WIDTH + 2);
}

static bool below(const struct hier_ctx *c, uint64_t period)
{
	return (float)report_flags2_percent(c->o, c->h, period) < (float)c->o->percent_limit;
}

/* An entry's line: its sums (period, nr samples), then its key's cell. */
static void print_line(const struct hier_ctx *c, size_t level, const struct pk_hist_entry *e, uint64_t period,
		       uint64_t nr)
{
	fprintf(c->f, "%*s  ", (int)level * HIER_INDENT, "");
	report_percent_cell(c->f, OVERHEAD_WIDTH, report_flags2_percent(c->o, c->h, period), c->o->color);
	if (c->o->show_nr)
		fprintf(c->f, "  %*" PRIu64, COUNT_WIDTH, nr);
	if (c->o->show_period)
		fprintf(c->f, "  %*" PRIu64, COUNT_WIDTH, period);
	fprintf(c->f, "%*s  ", (int)(c->o->nr_keys - 1) * HIER_INDENT, "");
	print_cell(c, level, e);
	fputc('\n', c->f);
}

static void print_level(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n);

/* The leaves grouped by key `level` into g (n slots), in order of first
 * appearance, with their periods, samples and counts summed; how many. */
static size_t group_leaves(const struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves,
			   size_t n, struct hier_group *g)
{
	size_t ng = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < ng && key_cmp(c->o->keys[level], g[j].first, leaves[i]))
			j++;
		if (j == ng)
			g[ng++].first = leaves[i];
		g[j].period += leaves[i]->period;
		g[j].nr_samples += leaves[i]->nr_samples;
		g[j].n++;
	}
	return ng;
}

/* Whether any entry at `level` made of these leaves is over --percent-limit
 * (*nomem set when out of memory). */
static bool any_shown(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	struct hier_group *g;
	size_t ng = 0;
	bool shown = false;

	if (level + 1 == c->o->nr_keys) {
		for (size_t i = 0; i < n; i++)
			shown |= !below(c, leaves[i]->period);
		return shown;
	}
	if (!(g = calloc(n ? n : 1, sizeof(*g)))) {
		c->nomem = true;
		return false;
	}
	ng = group_leaves(c, level, leaves, n, g);
	for (size_t j = 0; j < ng; j++)
		shown |= !below(c, g[j].period);
	free(g);
	return shown;
}

/* The leaves (in flat order) grouped by key `level`, the groups sorted,
 * each printed with what lies under it. */
static void print_groups(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	struct hier_group *g = calloc(n, sizeof(*g));
	const struct pk_hist_entry **order = calloc(n, sizeof(*order));
	size_t ng = 0, pos = 0;

	if (!g || !order) {
		c->nomem = true;
		goto out;
	}
	ng = group_leaves(c, level, leaves, n, g);
	for (size_t j = 0; j < ng; j++) {	/* each group's leaves together, in flat order */
		g[j].start = pos;
		for (size_t i = 0; i < n; i++)
			if (!key_cmp(c->o->keys[level], g[j].first, leaves[i]))
				order[pos++] = leaves[i];
	}
	sort_opts = c->o;
	sort_level = level;
	qsort(g, ng, sizeof(*g), group_cmp);
	for (size_t j = 0; j < ng && !c->nomem; j++) {
		bool shown = false;

		if (below(c, g[j].period))
			continue;
		print_line(c, level, g[j].first, g[j].period, g[j].nr_samples);
		if (!(shown = any_shown(c, level + 1, order + g[j].start, g[j].n)))
			fprintf(c->f, "%*s%*sno entry >= %.2f%%\n", (int)(c->o->nr_keys + level) * HIER_INDENT, "",
				overhead_width(c->o) + 4, "", c->o->percent_limit);
		else
			print_level(c, level + 1, order + g[j].start, g[j].n);
	}
out:
	free(g);
	free(order);
}

static void print_level(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	if (level + 1 < c->o->nr_keys) {
		print_groups(c, level, leaves, n);
		return;
	}
	for (size_t i = 0; i < n && level < c->o->nr_keys; i++) {	/* the leaves: the flat order */
		if (below(c, leaves[i]->period))
			continue;
		print_line(c, level, leaves[i], leaves[i]->period, leaves[i]->nr_samples);
		if (c->o->callchain && leaves[i]->chain)
			c->nomem |= report_print_chain(c->f, c->o, c->h, leaves[i]) < 0;
	}
}

static void print_header(const struct hier_ctx *c)
{
	size_t nk = c->o->nr_keys;
	int names = 0, dots;

	int over = overhead_width(c->o);

	fprintf(c->f, "# %*s%*s  ", (int)(nk - 1) * HIER_INDENT, "", OVERHEAD_WIDTH, "Overhead");
	if (c->o->show_nr)
		fprintf(c->f, "%*s  ", COUNT_WIDTH, "Samples");
	if (c->o->show_period)
		fprintf(c->f, "%*s  ", COUNT_WIDTH, "Period");
	for (size_t k = 0; k < nk; k++)
		names += fprintf(c->f, "%s%s", k ? " / " : "", key_name(c->o->keys[k]));
	dots = names;
	for (size_t k = 0; k < nk; k++)
		dots = imax(dots, (int)k * HIER_INDENT + c->wd.w[k]);
	fputs("\n# ", c->f);
	for (int i = 0; i < (int)(nk - 1) * HIER_INDENT + over; i++)	/* perf joins them with ".." */
		fputc('.', c->f);
	fputs("  ", c->f);
	for (int i = 0; i < dots; i++)
		fputc('.', c->f);
	fputs("\n#\n", c->f);
}

int report_hier_print(FILE *f, const struct report_opts *o, const struct pk_hist *h, struct pk_threads *threads)
{
	struct hier_ctx c = { f, o, h, hier_widths(o, h, threads), false, threads };
	size_t n = pk_hist_nr(h);
	const struct pk_hist_entry **leaves = calloc(n ? n : 1, sizeof(*leaves));

	if (!leaves)
		return -ENOMEM;
	for (size_t i = 0, all = n; i < all; i++)	/* perf leaves filtered entries out */
		if (pk_hist_get(h, i)->s.filtered)
			n--;
		else
			leaves[i - (all - n)] = pk_hist_get(h, i);
	if (!o->quiet)
		print_header(&c);
	print_level(&c, 0, leaves, n);
	free(leaves);
	return c.nomem ? -ENOMEM : 0;
}

int report_hier_setup(struct report_opts *o)
{
	const struct { bool given; const char *name; } not_yet[] = {
		{ o->fields_arg != NULL, "-F" }, { o->verbose > 0, "-v" }, { o->comms != NULL, "--comms" },
		{ o->dsos != NULL, "--dsos" }, { o->syms != NULL, "--symbols" }, { o->pids != NULL, "--pid" },
		{ o->tids != NULL, "--tid" }, { o->f2.field_sep != NULL, "-t" },
		{ o->f2.relative, "--percentage relative" }, { o->f2.cpu_util, "--show-cpu-utilization" },
		{ o->group_opt > 0, "--group" },
	};

	if (!o->f3.hierarchy)
		return 0;
	for (size_t k = 0; k < o->nr_keys; k++)
		if (o->keys[k] != PK_HIST_KEY_COMM && o->keys[k] != PK_HIST_KEY_DSO &&
		    o->keys[k] != PK_HIST_KEY_SYM && o->keys[k] != PK_HIST_KEY_PID &&
		    o->keys[k] != PK_HIST_KEY_CPU)
			return cli_usage("report", "--hierarchy takes the sort keys comm, pid, cpu, dso and sym "
					 "so far");
	o->children = false;	/* perf: no Children in the hierarchy, even with --children */
	for (size_t i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++)
		if (not_yet[i].given)
			return cli_usage("report", "--hierarchy does not take %s yet: leave out one of the two",
					 not_yet[i].name);
	return 0;
}
