/* SPDX-License-Identifier: MIT */
/*
 * report-hier.c - report --hierarchy: perf 6.1's hierarchical --stdio
 * output, one level per sort key (comm, pid, cpu, dso, sym, parent,
 * period: its cell the entry's sum; srcline, srcfile and trace: perf's
 * lazily made texts, cut to the column; time, symbol_size, socket,
 * weights, transaction, dso_size, code_page_size, addr, cgroup_id,
 * cgroup and perf's ipc_null: the flat table's cells, trimmed as perf's,
 * a weight's of the entry's own samples), each entry the sum of
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
 * The name filters (--comms, --pid, --tid, --dsos, --symbols) work as
 * perf's hierarchy filter marks (replayed by report-hier-marks.c): an
 * entry's period keeps what they hide below it, it shows when its mark
 * is clear (every entry hidden when no level has the filter's key), the
 * columns are sized by the entries shown; --percentage relative takes
 * the shares (of the table and the graphs) of the shown top entries' sum.
 * --show-cpu-utilization's sys and usr columns follow the Overhead; -v
 * puts perf's address and symbol origin before each symbol; -t SEP
 * joins the cells by SEP, perf's way (no indent but the level's); an
 * event group's view has each number column once per member.  An upper
 * level's cells are those of the flat entry perf made it from.
 */
#include "report.h"
#include "report-hier.h"

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
	uint64_t sys, us;	/* --show-cpu-utilization's: the kernel's and user's */
	size_t start, n;
	const struct pk_hist_entry *const *leaves;	/* its n leaves (a group's members' sums) */
};

struct hier_ctx {
	FILE *f;
	const struct report_opts *o;
	const struct pk_hist *h;
	struct hier_widths wd;
	bool nomem;
	struct pk_threads *threads;	/* the Pid:Command cells' comms */
	unsigned active;		/* the filter types given */
	struct hier_marks *marks;	/* perf's filter marks (report-hier-marks.c) */
	uint64_t total;			/* what the percentages are of */
	uint32_t nr_members;		/* the event group's columns (1: no group view) */
};

/* A key's header, as perf joins them (trimmed), and its width before that. */
static const char *key_name(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM: return "Command";
	case PK_HIST_KEY_DSO: return "Shared Object";
	case PK_HIST_KEY_PID: return "Pid:Command";
	case PK_HIST_KEY_CPU: return "CPU";
	case PK_HIST_KEY_PARENT: return "Parent symbol";
	case PK_HIST_KEY_PERIOD: return "Period";
	case PK_HIST_KEY_SYM: return "Symbol";
	case PK_HIST_KEY_TRANSACTION: return "Transaction";	/* the flat header's padding trimmed */
	case PK_HIST_KEY_SRCLINE: return "Source:Line";
	case PK_HIST_KEY_SRCFILE: return "Source File";
	default: return report_sort2_header(k);
	}
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* The keys whose cells the flat table's printer makes (trimmed here). */
static bool flat_cell(enum pk_hist_key k)
{
	return k == PK_HIST_KEY_TIME || k == PK_HIST_KEY_SYM_SIZE || k == PK_HIST_KEY_SOCKET ||
	       k == PK_HIST_KEY_DSO_SIZE || k == PK_HIST_KEY_CODE_PAGE_SIZE || k == PK_HIST_KEY_ADDR ||
	       k == PK_HIST_KEY_CGROUP_ID || k == PK_HIST_KEY_IPC_NULL || k == PK_HIST_KEY_CGROUP ||
	       k == PK_HIST_KEY_WEIGHT || k == PK_HIST_KEY_LOCAL_WEIGHT || k == PK_HIST_KEY_INS_LAT ||
	       k == PK_HIST_KEY_LOCAL_INS_LAT || k == PK_HIST_KEY_TRANSACTION;
}

static int key_min_width(const struct report_opts *o, enum pk_hist_key k)
{
	if (flat_cell(k))	/* perf's fixed widths, at least the header's */
		return imax(report_sort2_width(o, k), (int)strlen(report_sort2_header(k)));
	return k == PK_HIST_KEY_PID ? 15 : k == PK_HIST_KEY_PERIOD ? COUNT_WIDTH : (int)strlen(key_name(k));
}


/* The widest cells so far, by perf's hists__calc_col_len. */
struct hier_lens {
	int comm, dso, sym, parent, cgroup, srcline, srcfile, trace;
	bool tx;	/* an entry with a transaction: perf's column is then its widest */
};

/* Widen lens by an entry shown: perf sizes the columns by every entry it
 * shows, at each level by the flat entry that made it. */
static void widen(const struct hier_ctx *c, struct hier_lens *l, const struct pk_hist_entry *e)
{
	/* perf sizes by the thread's comm at the end, not the sample's */
	const char *comm = pk_threads_comm(c->threads, e->s.pid, e->s.tid);

	l->comm = imax(l->comm, comm ? (int)strlen(comm) : 0);
	if (e->s.parent)
		l->parent = imax(l->parent, (int)strlen(e->s.parent));
	if (e->s.cgroup)	/* perf's cgroup name, sized as the flat table's */
		l->cgroup = imax(l->cgroup, (int)strlen(report_sort2_cgroup_name(c->o, e->s.cgroup)));
	if (e->s.dso)
		l->dso = imax(l->dso, (int)strlen(e->s.dso));
	l->tx |= e->s.transaction != 0;
	if (e->s.sym) {	/* -v: perf's "0x...  o " before it */
		l->sym = imax(l->sym, (int)strlen(e->s.sym) + 4 + (c->o->verbose ? ADDR_DIGITS + 2 + 3 : 0));
	} else {	/* "[.] 0x" and the digits; an object column at least that wide */
		l->sym = imax(l->sym, ADDR_DIGITS + 4 + 2);
		if (!c->o->dsos)	/* perf's hists__set_unres_dso_col_len */
			l->dso = imax(l->dso, ADDR_DIGITS);
	}
}

/* Each key's width; the period's a value per member of a group shown. */
static struct hier_widths hier_widths(const struct report_opts *o, const struct hier_lens *l, uint32_t nr_members)
{
	struct hier_widths wd;

	for (size_t k = 0; k < o->nr_keys; k++) {
		enum pk_hist_key key = o->keys[k];
		int v = key == PK_HIST_KEY_COMM ? l->comm : key == PK_HIST_KEY_DSO ? l->dso :
			key == PK_HIST_KEY_SYM ? l->sym : key == PK_HIST_KEY_PID && l->comm ? l->comm + 8 :
			key == PK_HIST_KEY_PARENT ? l->parent : key == PK_HIST_KEY_CGROUP ? l->cgroup :
			key == PK_HIST_KEY_SRCLINE ? l->srcline : key == PK_HIST_KEY_SRCFILE ? l->srcfile :
			key == PK_HIST_KEY_TRACE ? l->trace :
			key == PK_HIST_KEY_TRANSACTION ? report_sort3_width(key, l->tx) :
			key == PK_HIST_KEY_PERIOD ? COUNT_WIDTH * (int)nr_members : 0;

		wd.w[k] = imax(v, key_min_width(o, key));
	}
	return wd;
}

/* Member `slot`'s sum of field `what` (0 period, 1 samples, 2 sys, 3
 * usr) over g's leaves. */
static uint64_t member_sum(const struct hier_group *g, size_t slot, int what)
{
	uint64_t v = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct pk_hist_pair *p = g->leaves[i]->pairs ? &g->leaves[i]->pairs[slot] : NULL;

		if (p)
			v += what == 0 ? p->period : what == 1 ? p->nr_samples : what == 2 ? p->period_sys : p->period_us;
	}
	return v;
}

static uint32_t sort_members;			/* qsort's: the group's size, */
static const struct report_opts *sort_opts;	/* the keys, */
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
	for (uint32_t m = 0; m + 1 < sort_members; m++) {	/* perf's group sort: each member's */
		uint64_t ma = member_sum(a, m, 0), mb = member_sum(b, m, 0);

		if (ma != mb)
			return ma > mb ? -1 : 1;
	}
	for (size_t k = sort_level; k < sort_opts->nr_keys; k++) {
		int c;

		if (sort_opts->keys[k] == PK_HIST_KEY_SYM && !x->s.sym && !y->s.sym)
			continue;
		if ((c = hier_key_cmp(sort_opts->keys[k], x, y)))
			return c;
	}
	return x->s.ip < y->s.ip ? -1 : x->s.ip > y->s.ip;
}

/* The filter types that hide flat entry e (--comms, --pid and --tid are
 * perf's thread filter; --dsos is told by the name the entry shows). */
static unsigned leaf_bits(const struct report_opts *o, const struct pk_hist_entry *e)
{
	unsigned b = 0;

	if ((o->comms && !report_in_list(o->comms, e->s.comm)) ||
	    (o->pids && !report_in_ids(o->pids, o->nr_pids, e->s.pid)) ||
	    (o->tids && !report_in_ids(o->tids, o->nr_tids, e->s.tid)))
		b |= HIER_F_THREAD;
	if (o->syms && !report_in_list(o->syms, e->s.sym))
		b |= HIER_F_SYM;
	if (o->dsos && e->s.filtered && !report_verbose_dso_listed(o, e->s.dso, NULL))
		b |= HIER_F_DSO;
	return b;
}

/* leaf_bits for hier_marks_new. */
static unsigned marks_bits(const void *arg, const struct pk_hist_entry *e)
{
	return leaf_bits(arg, e);
}

/* Whether perf hides the level-`level` entry made of these leaves. */
static bool hidden(const struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	return hier_marks_hidden(c->marks, level, leaves, n);
}

/* The flat entry perf made an entry of these leaves from: the first in
 * its collapse order. */
static const struct pk_hist_entry *maker(const struct hier_ctx *c, const struct pk_hist_entry **leaves, size_t n)
{
	return hier_marks_maker(c->marks, leaves, n);
}

/* Group g's key-k cell, of the flat entry it was made from: padded to
 * the column but the symbol's and the period's (its sum: perf's cell
 * trimmed); the weights' of its own samples (perf's weight times the
 * entry's events). */
static void print_cell(struct hier_ctx *c, size_t k, const struct hier_group *g)
{
	const struct pk_hist_entry *e = g->first;
	struct pk_hist_entry own;
	int w = c->wd.w[k];
	const char *comm;
	char buf[256];
	FILE *m;

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
	case PK_HIST_KEY_PARENT:
		fprintf(c->f, "%-*.*s", w, w, e->s.parent ? e->s.parent : "[other]");
		break;
	case PK_HIST_KEY_SRCLINE:	/* perf's "%-.*s": cut to the column, not padded */
	case PK_HIST_KEY_SRCFILE:
	case PK_HIST_KEY_TRACE:
		fprintf(c->f, "%.*s", w, hier_src_text(c->o->keys[k], e) ? hier_src_text(c->o->keys[k], e) :
					 c->o->keys[k] == PK_HIST_KEY_TRACE ? "N/A" : "");
		break;
	case PK_HIST_KEY_PERIOD:	/* a group's members after it, as its Period column's (-t's after a space) */
		fprintf(c->f, "%" PRIu64, g->period);
		for (uint32_t slot = 0; slot + 1 < c->nr_members; slot++)
			fprintf(c->f, c->o->f2.field_sep ? " %" PRIu64 : "%12" PRIu64, member_sum(g, slot, 0));
		break;
	case PK_HIST_KEY_SYM:
		if (c->o->verbose) {	/* perf's address and the origin of the DSO's symbols */
			fprintf(c->f, "%-#*llx %c ", ADDR_DIGITS + 2, (unsigned long long)e->s.ip,
				report_verbose_origin(c->o, e->s.dso));
			w -= ADDR_DIGITS + 2 + 3;
		}
		fprintf(c->f, "[%c] ", e->s.level);
		if (e->s.sym)
			fprintf(c->f, "%.*s", imax(w - 4, 0), e->s.sym);
		else
			fprintf(c->f, "%-#.*llx", ADDR_DIGITS, (unsigned long long)e->s.ip);
		break;
	default:	/* the flat cell, its leading spaces skipped, no padding added */
		memset(buf, 0, sizeof(buf));
		if (!(m = fmemopen(buf, sizeof(buf) - 1, "w"))) {
			c->nomem = true;
			break;
		}
		own = *e;
		own.nr_samples = g->nr_samples;
		report_sort2_print(m, c->o, c->o->keys[k], w, &own, true);
		fclose(m);
		fputs(buf + strspn(buf, " "), c->f);
		break;
	}
}

/* Whether --show-total-period's column shows: not with the period key. */
static bool period_col(const struct report_opts *o)
{
	bool key = false;

	for (size_t k = 0; k < o->nr_keys; k++)
		key |= o->keys[k] == PK_HIST_KEY_PERIOD;
	return o->show_period && !key;
}

/* The columns before the keys: perf's hists__overhead_width. */
static int overhead_width(const struct report_opts *o, uint32_t nm)
{
	return OVERHEAD_WIDTH * nm + (o->f2.cpu_util ? 2 * (OVERHEAD_WIDTH * nm + 2) : 0) +
	       (o->show_nr + period_col(o)) * (COUNT_WIDTH * (int)nm + 2);
}

static double percent(const struct hier_ctx *c, uint64_t period)
{
	return c->total ? 100.0 * (double)period / (double)c->total : 0.0;
}

static bool below(const struct hier_ctx *c, uint64_t period)
{
	return (float)percent(c, period) < (float)c->o->percent_limit;
}

/* A number column's cell with -t: SEP before it, then " " and the
 * leader's v and each member's sum of the same (`what` as print_cells'),
 * padded to the column. */
static void sep_cell(struct hier_ctx *c, const char *sep, const struct hier_group *g, int what, uint64_t v)
{
	char buf[64 * 8];
	int n = 0, width = (what == 1 || what == 4 ? COUNT_WIDTH : OVERHEAD_WIDTH) * (int)c->nr_members;

	for (uint32_t m = 0; m < c->nr_members && n < (int)sizeof(buf) - 64; m++) {
		uint64_t x = m ? member_sum(g, m - 1, what == 4 ? 0 : what) : v;
		uint64_t total = m ? pk_hist_pair_total(c->h, m - 1) : c->total;

		if (what == 1 || what == 4)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %" PRIu64, x);
		else
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %.2f%%",
				      total ? 100.0 * (double)x / (double)total : 0.0);
	}
	fprintf(c->f, "%s%-*s", sep, width, n ? buf : "");
}

/* -t SEP's line: perf's cells of numbers after a space, each padded to
 * its column, joined by SEP; no indent between the numbers and the key. */
static void print_line_sep(struct hier_ctx *c, size_t level, const struct hier_group *g)
{
	const char *sep = c->o->f2.field_sep;

	fprintf(c->f, "%*s", (int)level * HIER_INDENT, "");
	sep_cell(c, "", g, 0, g->period);
	if (c->o->f2.cpu_util) {
		sep_cell(c, sep, g, 2, g->sys);
		sep_cell(c, sep, g, 3, g->us);
	}
	if (c->o->show_nr)
		sep_cell(c, sep, g, 1, g->nr_samples);
	if (period_col(c->o))
		sep_cell(c, sep, g, 4, g->period);
	fputs(sep, c->f);
	print_cell(c, level, g);
	fputc('\n', c->f);
}

/* A number column's cells: "  ", the leader's v, then each member's sum of
 * the same (`what`: 0 Overhead, 1 Samples, 2 sys, 3 usr, 4 Period). */
static void print_cells(struct hier_ctx *c, const struct hier_group *g, int what, uint64_t v)
{
	fputs("  ", c->f);
	for (uint32_t m = 0; m < c->nr_members; m++) {
		uint64_t x = m ? member_sum(g, m - 1, what == 4 ? 0 : what) : v;
		uint64_t total = m ? pk_hist_pair_total(c->h, m - 1) : c->total;

		if (what == 1 || what == 4)
			fprintf(c->f, "%*" PRIu64, COUNT_WIDTH, x);
		else
			report_percent_cell(c->f, OVERHEAD_WIDTH, total ? 100.0 * (double)x / (double)total : 0.0,
					    c->o->color);
	}
}

/* An entry's line: its sums (g's), then its key's cell (of g's first). */
static void print_line(struct hier_ctx *c, size_t level, const struct hier_group *g)
{
	if (c->o->f2.field_sep) {
		print_line_sep(c, level, g);
		return;
	}
	fprintf(c->f, "%*s", (int)level * HIER_INDENT, "");
	print_cells(c, g, 0, g->period);
	if (c->o->f2.cpu_util) {	/* perf's overhead_sys and overhead_us */
		print_cells(c, g, 2, g->sys);
		print_cells(c, g, 3, g->us);
	}
	if (c->o->show_nr)
		print_cells(c, g, 1, g->nr_samples);
	if (period_col(c->o))
		print_cells(c, g, 4, g->period);
	fprintf(c->f, "%*s  ", (int)(c->o->nr_keys - 1) * HIER_INDENT, "");
	print_cell(c, level, g);
	fputc('\n', c->f);
}

static void print_level(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n);

/* A leaf's call graph, as report_print_chain prints it but for its shares:
 * of the hierarchy's total (perf's hists__total_period there, which
 * --percentage relative makes the shown top entries' sum). */
static void print_chain(struct hier_ctx *c, const struct pk_hist_entry *e)
{
	const struct report_opts *o = c->o;
	uint64_t min_hit = (uint64_t)((double)report_flags2_total(o, c->h) * (o->cg.min_percent / 100));
	struct report_cg cg = o->cg;
	struct pk_callchain *cc;

	if (pk_hist_chain(c->h, e, o->cg.mode == PK_CALLCHAIN_GRAPH_REL ? 0 : min_hit, &cc) < 0 ||
	    (cc && pk_callchain_sort(cc, o->cg.mode, min_hit, o->cg.min_percent) < 0)) {
		pk_hist_chain_put(e, cc);
		c->nomem = true;
		return;
	}
	cg.color = o->color ? cli_percent_color : NULL;
	if (cc)
		report_callchain_print(c->f, &cg, cc, c->total, e->period, o->sort_sym);
	pk_hist_chain_put(e, cc);
}

/* A level's entries: the groups and their leaves, each group's together. */
struct hier_split {
	struct hier_group *g;
	const struct pk_hist_entry **order;
	size_t ng;
};

/* The leaves (in flat order) grouped by key `level` into sp, in order of
 * first appearance, with their periods and samples summed, each group's
 * leaves together in sp->order in flat order; -ENOMEM, or 0. */
static int split(const struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n,
		 struct hier_split *sp)
{
	enum pk_hist_key k = c->o->keys[level];
	size_t pos = 0;

	sp->ng = 0;
	sp->g = calloc(n ? n : 1, sizeof(*sp->g));
	sp->order = calloc(n ? n : 1, sizeof(*sp->order));
	if (!sp->g || !sp->order) {
		free(sp->g);
		free(sp->order);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < sp->ng && hier_key_cmp(k, sp->g[j].first, leaves[i]))
			j++;
		if (j == sp->ng)
			sp->g[sp->ng++].first = leaves[i];
		sp->g[j].period += leaves[i]->period;
		sp->g[j].nr_samples += leaves[i]->nr_samples;
		sp->g[j].sys += leaves[i]->period_sys;
		sp->g[j].us += leaves[i]->period_us;
		sp->g[j].n++;
	}
	for (size_t j = 0; j < sp->ng; j++) {
		sp->g[j].start = pos;
		sp->g[j].leaves = sp->order + pos;
		for (size_t i = 0; i < n; i++)
			if (!hier_key_cmp(k, sp->g[j].first, leaves[i]))
				sp->order[pos++] = leaves[i];
	}
	return 0;
}

static void split_free(struct hier_split *sp)
{
	free(sp->g);
	free(sp->order);
}

/* Whether any entry at `level` made of these leaves is shown: not hidden
 * by a filter, not under --percent-limit (*nomem set when out of memory). */
static bool any_shown(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	struct hier_split sp;
	bool shown = false;

	if (level + 1 == c->o->nr_keys) {
		for (size_t i = 0; i < n; i++)
			shown |= !below(c, leaves[i]->period) && !hidden(c, level, leaves + i, 1);
		return shown;
	}
	if (split(c, level, leaves, n, &sp) < 0) {
		c->nomem = true;
		return false;
	}
	for (size_t j = 0; j < sp.ng; j++)
		shown |= !below(c, sp.g[j].period) && !hidden(c, level, sp.order + sp.g[j].start, sp.g[j].n);
	split_free(&sp);
	return shown;
}

/* The leaves (in flat order) grouped by key `level`, the groups sorted,
 * each printed with what lies under it. */
static void print_groups(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	struct hier_split sp;

	if (split(c, level, leaves, n, &sp) < 0) {
		c->nomem = true;
		return;
	}
	sort_opts = c->o;
	sort_level = level;
	sort_members = c->nr_members;
	qsort(sp.g, sp.ng, sizeof(*sp.g), group_cmp);
	for (size_t j = 0; j < sp.ng && !c->nomem; j++) {
		const struct pk_hist_entry **under = sp.order + sp.g[j].start;

		if (below(c, sp.g[j].period) || hidden(c, level, under, sp.g[j].n))
			continue;
		sp.g[j].first = maker(c, under, sp.g[j].n);	/* its cells: perf's copy of it */
		print_line(c, level, &sp.g[j]);
		if (!any_shown(c, level + 1, under, sp.g[j].n))
			fprintf(c->f, "%*s%*sno entry >= %.2f%%\n",	/* -t: no indent */
				c->o->f2.field_sep ? 0 : (int)(c->o->nr_keys + level) * HIER_INDENT, "",
				overhead_width(c->o, c->nr_members) + 4, "", c->o->percent_limit);
		else
			print_level(c, level + 1, under, sp.g[j].n);
	}
	split_free(&sp);
}

static void print_level(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n)
{
	if (level + 1 < c->o->nr_keys) {
		print_groups(c, level, leaves, n);
		return;
	}
	for (size_t i = 0; i < n && level < c->o->nr_keys; i++) {	/* the leaves: the flat order */
		if (below(c, leaves[i]->period) || hidden(c, level, leaves + i, 1))
			continue;
		const struct hier_group leaf = { leaves[i], leaves[i]->period, leaves[i]->nr_samples,
						 leaves[i]->period_sys, leaves[i]->period_us, 0, 1, leaves + i };

		print_line(c, level, &leaf);
		if (c->o->callchain)
			print_chain(c, leaves[i]);
	}
}

/* Size the columns by the entries shown at `level` and below (perf's
 * hists__calc_col_len of each unfiltered entry); with level 0, also sum
 * the shown top entries' periods into *top (perf's non-filtered total). */
/* perf makes an entry's source line or file when it compares it with
 * another of the same keys before it (sort__srcline_cmp), so the column
 * is sized by those of groups with two samples or more: the others are
 * made when printed, cut to the column. */
static void widen_src(const struct hier_ctx *c, size_t level, struct hier_lens *l,
		      const struct pk_hist_entry **leaves, size_t n)
{
	enum pk_hist_key k = c->o->keys[level];
	uint64_t samples = 0;

	if (k != PK_HIST_KEY_SRCLINE && k != PK_HIST_KEY_SRCFILE && k != PK_HIST_KEY_TRACE)
		return;
	for (size_t i = 0; i < n && samples < 2; i++)
		samples += leaves[i]->nr_samples;
	for (size_t i = 0; i < n && samples >= 2; i++) {
		const char *s = hier_src_text(k, leaves[i]);
		int *w = k == PK_HIST_KEY_SRCLINE ? &l->srcline : k == PK_HIST_KEY_SRCFILE ? &l->srcfile : &l->trace;

		if (s && !hidden(c, level, leaves + i, 1))
			*w = imax(*w, (int)strlen(s));
	}
}

static void measure(struct hier_ctx *c, size_t level, const struct pk_hist_entry **leaves, size_t n,
		    struct hier_lens *l, uint64_t *top)
{
	struct hier_split sp;

	widen_src(c, level, l, leaves, n);

	if (level + 1 == c->o->nr_keys) {
		for (size_t i = 0; i < n; i++)
			if (!hidden(c, level, leaves + i, 1)) {
				widen(c, l, leaves[i]);
				*top += level ? 0 : leaves[i]->period;
			}
		return;
	}
	if (split(c, level, leaves, n, &sp) < 0) {
		c->nomem = true;
		return;
	}
	for (size_t j = 0; j < sp.ng; j++) {
		const struct pk_hist_entry **under = sp.order + sp.g[j].start;

		if (hidden(c, level, under, sp.g[j].n))
			continue;
		widen(c, l, maker(c, under, sp.g[j].n));
		*top += level ? 0 : sp.g[j].period;
		measure(c, level + 1, under, sp.g[j].n, l, top);
	}
	split_free(&sp);
}

static void dots(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', f);
}

/* The header: the number columns' names, the keys' joined by " / ", and
 * perf's dotted line under them (-t: the columns joined by SEP, no indent). */
static void print_header(const struct hier_ctx *c)
{
	size_t nk = c->o->nr_keys, ncol = 0;
	const char *sep = c->o->f2.field_sep;
	int pw = OVERHEAD_WIDTH * (int)c->nr_members, cw = COUNT_WIDTH * (int)c->nr_members;
	struct { const char *name; int width; } col[5] = { { "Overhead", pw } };
	int names = 0, keys;

	ncol = 1;
	if (c->o->f2.cpu_util) {
		col[ncol++] = (typeof(col[0])){ "sys", pw };
		col[ncol++] = (typeof(col[0])){ "usr", pw };
	}
	if (c->o->show_nr)
		col[ncol++] = (typeof(col[0])){ "Samples", cw };
	if (period_col(c->o))
		col[ncol++] = (typeof(col[0])){ "Period", cw };
	fprintf(c->f, "# %*s", sep ? 0 : (int)(nk - 1) * HIER_INDENT, "");
	for (size_t i = 0; i < ncol; i++)
		fprintf(c->f, "%*s%s", col[i].width, col[i].name, sep ? sep : "  ");
	for (size_t k = 0; k < nk; k++)
		names += fprintf(c->f, "%s%s", k ? " / " : "", key_name(c->o->keys[k]));
	keys = names;
	for (size_t k = 0; k < nk; k++)
		keys = imax(keys, (int)k * HIER_INDENT + c->wd.w[k]);
	fputs("\n# ", c->f);
	if (!sep) {	/* perf joins the number columns' dots with ".." */
		dots(c->f, (int)(nk - 1) * HIER_INDENT + overhead_width(c->o, c->nr_members));
	} else {
		for (size_t i = 0; i < ncol; i++) {
			fputs(i ? sep : "", c->f);
			dots(c->f, col[i].width);
		}
	}
	fputs(sep ? sep : "  ", c->f);
	dots(c->f, keys);
	fputs("\n#\n", c->f);
}

/*
 * Fill c's filter types, widths and total for h, and return its entries
 * the hierarchy is made of (*np of them; NULL out of memory): the ones
 * perf's name filters hide too, as perf sums them into the levels above
 * (and shows none of them), but not those other filters (--socket-filter,
 * -x) leave out.
 */
static const struct pk_hist_entry **prepare(struct hier_ctx *c, size_t *np)
{
	const struct report_opts *o = c->o;
	size_t n = 0;
	const struct pk_hist_entry **leaves = calloc(pk_hist_nr(c->h) ? pk_hist_nr(c->h) : 1, sizeof(*leaves));
	struct hier_lens l = { 0, 0, 0, 0, 0 };
	uint64_t top = 0;

	if (!leaves)
		return NULL;
	c->active = (o->comms || o->pids || o->tids ? HIER_F_THREAD : 0) | (o->dsos ? HIER_F_DSO : 0) |
		    (o->syms ? HIER_F_SYM : 0);
	for (size_t i = 0; i < pk_hist_nr(c->h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(c->h, i);

		if (!e->s.filtered || leaf_bits(o, e))
			leaves[n++] = e;
	}
	if (!(c->marks = hier_marks_new(o->keys, o->nr_keys, leaves, n, c->active, hier_collapse_cmp, marks_bits, o))) {
		free(leaves);
		return NULL;
	}
	measure(c, 0, leaves, n, &l, &top);
	c->wd = hier_widths(o, &l, c->nr_members);
	c->total = o->f2.relative ? top : pk_hist_total_period(c->h);
	*np = n;
	return leaves;
}

bool report_hier_totals(const struct report_opts *o, const struct report_event *ev, uint32_t nr_members,
			struct pk_threads *threads, uint64_t *period)
{
	if (!o->f3.hierarchy || !o->f2.relative)
		return false;
	*period = 0;
	for (uint32_t i = 0; i < nr_members; i++) {
		struct hier_ctx c = { .o = o, .h = ev[i].hist, .threads = threads, .nr_members = 1 };
		size_t n;
		const struct pk_hist_entry **leaves = prepare(&c, &n);

		if (!leaves)
			return false;
		*period += c.total;
		if (i)
			pk_hist_pair_set_total(ev->hist, i - 1, c.total);
		hier_marks_free(c.marks);
		free(leaves);
	}
	return true;
}

int report_hier_print(FILE *f, const struct report_opts *o, const struct pk_hist *h, struct pk_threads *threads,
		      uint32_t nr_members)
{
	struct hier_ctx c = { .f = f, .o = o, .h = h, .threads = threads, .nr_members = nr_members };
	size_t n;
	const struct pk_hist_entry **leaves = prepare(&c, &n);

	if (!leaves)
		return -ENOMEM;
	if (!o->quiet)
		print_header(&c);
	print_level(&c, 0, leaves, n);
	hier_marks_free(c.marks);
	free(leaves);
	return c.nomem ? -ENOMEM : 0;
}

int report_hier_setup(struct report_opts *o)
{
	const struct { bool given; const char *name; } not_yet[] = {
		{ o->fields_arg != NULL, "-F" },
	};

	if (!o->f3.hierarchy)
		return 0;
	for (size_t k = 0; k < o->nr_keys; k++)
		if (o->keys[k] != PK_HIST_KEY_COMM && o->keys[k] != PK_HIST_KEY_DSO &&
		    o->keys[k] != PK_HIST_KEY_SYM && o->keys[k] != PK_HIST_KEY_PID &&
		    o->keys[k] != PK_HIST_KEY_CPU && o->keys[k] != PK_HIST_KEY_PARENT &&
		    o->keys[k] != PK_HIST_KEY_PERIOD && o->keys[k] != PK_HIST_KEY_SRCLINE &&
		    o->keys[k] != PK_HIST_KEY_SRCFILE && o->keys[k] != PK_HIST_KEY_TRACE && !flat_cell(o->keys[k]))
			return cli_usage("report", "--hierarchy takes the sort keys comm, pid, cpu, dso, sym, "
					 "parent, period, srcline, srcfile, trace, time, symbol_size, socket, "
					 "weight, local_weight, ins_lat, local_ins_lat, transaction, dso_size, "
					 "code_page_size, addr, cgroup_id and cgroup so far");
	o->children = false;	/* perf: no Children in the hierarchy, even with --children */
	for (size_t i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++)
		if (not_yet[i].given)
			return cli_usage("report", "--hierarchy does not take %s yet: leave out one of the two",
					 not_yet[i].name);
	return 0;
}
