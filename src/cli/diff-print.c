/* SPDX-License-Identifier: MIT */
/*
 * diff-print.c - perf diff 6.1's --stdio table, byte for byte: the
 * "# Event" lines and, for more than two files, the "# Data files:"
 * block; the columns perf registers (Baseline and, with -p, Base period
 * for the first file; for each later one the computed column, Formula
 * with -F, Period with -p; "/N" after each header for more than two
 * files) at perf's widths, then the sort keys at the widths of their
 * widest entry; each row as perf's colour printers write it uncoloured,
 * or with -t as its plain printers write it, cells joined by the
 * separator.
 */
#include "diff.h"
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* perf's MAX_COL_WIDTH: the longest text one of its cells holds (and the Formula's width). */
#define MAX_COL_WIDTH 70

/* The width the printf of an unresolved address takes (perf's BITS_PER_LONG / 4). */
#define ADDR_DIGITS 16

enum col_kind { COL_BASELINE, COL_BASE_PERIOD, COL_COMPUTE, COL_CYCLES_HIST, COL_FORMULA, COL_PERIOD, COL_KEY };

/* -c cycles: a line's block range cell and --cycles-hist's. */
struct cyc_cells {
	const char *range, *hist;
};

struct col {
	enum col_kind kind;
	enum pk_hist_key key;	/* COL_KEY */
	size_t file;		/* the file of a computed, Formula or Period column */
	int width;
	char header[48];
};

/* A key cell's room: a symbol name may be long. */
#define KEY_CELL 4096

static const char *compute_header(enum pk_diff_compute c)
{
	switch (c) {
	case PK_DIFF_DELTA: return "Delta";
	case PK_DIFF_DELTA_ABS: return "Delta Abs";
	case PK_DIFF_RATIO: return "Ratio";
	default: return "Weighted diff";
	}
}

static const char *key_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM: return "Command";
	case PK_HIST_KEY_PID: return "    Pid:Command";
	case PK_HIST_KEY_TID: return "    Tid";
	case PK_HIST_KEY_DSO: return "Shared Object";
	case PK_HIST_KEY_SYM: return "Symbol";
	case PK_HIST_KEY_CPU: return "CPU";
	case PK_HIST_KEY_PARENT: return "Parent symbol";
	case PK_HIST_KEY_SRCLINE: return "Source:Line";
	case PK_HIST_KEY_SRCFILE: return "Source File";
	default: return report_sort2_header(k);	/* report-sort2.c's and report-sort3.c's */
	}
}

/* The width perf gives a key of report-sort2.c or report-sort3.c (0: its
 * header's), the transaction key wider once an entry has one. */
static int later_key_width(const struct diff_opts *o, enum pk_hist_key k, bool any_transaction)
{
	if (k == PK_HIST_KEY_TRANSACTION)
		return report_sort3_width(k, any_transaction);
	return report_sort2_width(o->rep, k);
}

/* Whether k is one of report-sort2.c's or report-sort3.c's keys. */
static bool later_key(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM: case PK_HIST_KEY_PID: case PK_HIST_KEY_TID: case PK_HIST_KEY_DSO:
	case PK_HIST_KEY_SYM: case PK_HIST_KEY_CPU: case PK_HIST_KEY_PARENT: case PK_HIST_KEY_SRCLINE:
	case PK_HIST_KEY_SRCFILE: case PK_HIST_KEY_CGROUP:
		return false;
	default:
		return true;
	}
}

static int str_len(const char *s)
{
	return s ? (int)strlen(s) : 0;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* perf prints no row a filter hides. */
static bool shown(const struct pk_diff *d, const struct pk_diff_entry *e)
{
	return !pk_diff_key(d, e)->s.filtered;
}

/* perf's sort__setup_elide: a key column a filter of one name fixes is left out. */
static bool elided(const struct diff_opts *o, enum pk_hist_key k)
{
	const char *list = k == PK_HIST_KEY_COMM ? o->comms : k == PK_HIST_KEY_DSO ? o->dsos :
			   k == PK_HIST_KEY_SYM ? o->syms : NULL;

	return list && *list && !strchr(list, ',');
}

/* A key column as wide as its header and its widest entry, by perf's
 * hists__calc_col_len (which, with -t or -d, does not widen the DSO
 * column for unresolved addresses). */
static int key_width(const struct diff_opts *o, const struct pk_diff *d, enum pk_hist_key k)
{
	int w = (int)strlen(key_header(k));
	bool tx = false, any = false;

	for (size_t i = 0; i < pk_diff_nr(d); i++) {
		const struct pk_hist_sample *s = &pk_diff_key(d, pk_diff_get(d, i))->s;
		int comm;

		if (s->filtered)
			continue;
		any = true;
		comm = s->comm ? (int)strlen(s->comm) : 0;

		switch (k) {
		case PK_HIST_KEY_COMM: w = max_int(w, comm); break;
		case PK_HIST_KEY_PID: w = max_int(w, comm + 8); break;
		case PK_HIST_KEY_DSO:
			w = max_int(w, s->dso ? (int)strlen(s->dso) : 0);
			if (!s->sym && !o->field_sep && !o->dsos)
				w = max_int(w, ADDR_DIGITS);
			break;
		case PK_HIST_KEY_SYM:	/* -v: room for the address and origin */
			w = max_int(w, s->sym ? (int)strlen(s->sym) + 4 + (o->verbose ? ADDR_DIGITS + 2 + 3 : 0)
					      : ADDR_DIGITS + 4 + 2);
			break;
		case PK_HIST_KEY_PARENT: w = max_int(w, str_len(s->parent)); break;
		case PK_HIST_KEY_CGROUP: w = max_int(w, str_len(cli_cgroup_name(o->cgroups, s->cgroup))); break;
		/* the ones perf has made by now (diff-lazy.c, a walk of every
		 * row): asked only of a text that would widen the column */
		case PK_HIST_KEY_SRCLINE:
			if (str_len(s->srcline) > w && diff_lazy_known(o, d, pk_diff_get(d, i), k))
				w = str_len(s->srcline);
			break;
		case PK_HIST_KEY_SRCFILE:
			if (str_len(s->srcfile) > w && diff_lazy_known(o, d, pk_diff_get(d, i), k))
				w = str_len(s->srcfile);
			break;
		case PK_HIST_KEY_TRACE:	/* made as a source line is */
			if (str_len(s->trace) > w && diff_lazy_known(o, d, pk_diff_get(d, i), k))
				w = str_len(s->trace);
			break;
		default: tx |= s->transaction != 0; break;
		}
	}
	if (later_key(k) && any)	/* perf's fixed widths come with an entry shown (-b may leave none) */
		w = max_int(w, later_key_width(o, k, tx));
	return w;
}

/* A cell of report-sort2.c's or report-sort3.c's keys, as report prints it
 * in the last column (print_row pads the others).  A row the baseline
 * lacks is perf's dummy entry, whose counts are zero: the weight keys'
 * sums (the weight times the samples) print 0 there. */
static void later_key_cell(char *buf, size_t len, const struct diff_opts *o, enum pk_hist_key k, int w,
			   const struct pk_hist_entry *e, bool dummy)
{
	FILE *f = fmemopen(buf, len, "w");
	struct pk_hist_entry zero = *e;

	buf[0] = '\0';
	if (!f)
		return;
	zero.nr_samples = 0;
	report_sort2_print(f, o->rep, k, w, dummy ? &zero : e, true);
	fclose(f);
}

/* One of perf diff's own columns: its header ("Name/N" for more than two
 * files), as wide as perf's width for it or the header, whichever is wider. */
static struct col diff_col(const struct diff_opts *o, enum col_kind kind, size_t file, const char *name, int width)
{
	struct col c = { .kind = kind, .file = file };

	if (o->nr_files > 2)
		snprintf(c.header, sizeof(c.header), "%s/%zu", name, file);
	else
		snprintf(c.header, sizeof(c.header), "%s", name);
	c.width = max_int(width, (int)strlen(c.header));
	return c;
}

static size_t key_cols(const struct diff_opts *o, const struct pk_diff *d, struct col *cols, size_t n,
		       bool all)
{
	for (size_t i = 0; i < o->nr_keys; i++) {
		if (!all && elided(o, o->keys[i]))
			continue;
		cols[n] = (struct col){ .kind = COL_KEY, .key = o->keys[i],
					.width = key_width(o, d, o->keys[i]) };
		snprintf(cols[n++].header, sizeof(cols[0].header), "%s", key_header(o->keys[i]));
	}
	return n;
}

/* perf's columns: each file's in turn (the baseline's, then each later
 * file's computed, Formula and Period), then the keys. */
static size_t make_cols(const struct diff_opts *o, const struct pk_diff *d, struct col *cols)
{
	size_t n = 0, first_key;
	const char *h = o->cycles ? "[Program Block Range] Cycles Diff" : compute_header(o->d.compute);

	cols[n++] = diff_col(o, COL_BASELINE, 0, "Baseline", 0);
	if (o->period)
		cols[n++] = diff_col(o, COL_BASE_PERIOD, 0, "Base period", 14);
	for (size_t f = 1; f < o->nr_files; f++) {
		cols[n++] = diff_col(o, COL_COMPUTE, f, h,
				     o->cycles ? MAX_COL_WIDTH : o->d.compute <= PK_DIFF_DELTA ? 7 : 14);
		if (o->cycles_hist)	/* perf's NUM_SPARKS + 9 */
			cols[n++] = diff_col(o, COL_CYCLES_HIST, f, "stddev/Hist", 8 + 9);
		if (o->formula)
			cols[n++] = diff_col(o, COL_FORMULA, f, "Formula", MAX_COL_WIDTH);
		if (o->period)
			cols[n++] = diff_col(o, COL_PERIOD, f, "Period", 14);
	}
	first_key = n;
	n = key_cols(o, d, cols, n, false);
	if (n == first_key)	/* perf: every key elided, none is */
		n = key_cols(o, d, cols, n, true);
	return n;
}

/* The headers; without -t, the dots under them and a "#" line. */
static void print_headers(FILE *f, const struct diff_opts *o, const struct col *cols, size_t n)
{
	const char *sep = o->field_sep ? o->field_sep : "  ";

	fputs("# ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? sep : "", f);
		if (cols[i].kind == COL_KEY)
			fprintf(f, "%-*.*s", cols[i].width, cols[i].width, cols[i].header);
		else
			fprintf(f, "%*s", cols[i].width, cols[i].header);
	}
	fputc('\n', f);
	if (o->field_sep)
		return;
	fputs("# ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "  " : "", f);
		for (int k = 0; k < cols[i].width; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/* A computed cell as perf's colour printer writes it (no -t). */
static void compute_color(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff_entry *e,
			  const struct pk_diff_pair *p, int w)
{
	if (!p->entry) {
		snprintf(buf, len, "%*s", w, " ");
		return;
	}
	if (!e->base && o->d.compute != PK_DIFF_DELTA && o->d.compute != PK_DIFF_DELTA_ABS) {
		snprintf(buf, len, "%*s", w, "N/A");	/* no ratio without a baseline */
		return;
	}
	switch (o->d.compute) {
	case PK_DIFF_DELTA:
	case PK_DIFF_DELTA_ABS: snprintf(buf, len, "%+*.2f%%", w - 1, p->delta); break;
	case PK_DIFF_RATIO: snprintf(buf, len, "%*.6f", w, p->ratio); break;
	case PK_DIFF_WDIFF: snprintf(buf, len, "%14" PRId64, p->wdiff); break;
	case PK_DIFF_BASELINE: break;	/* -c cycles: diff-cycles.c's cell */
	}
}

/* A computed cell as perf's plain printer writes it (-t): a zero ratio or
 * wdiff left blank. */
static void compute_plain(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff_entry *e,
			  const struct pk_diff_pair *p)
{
	if (!p->entry)
		return;
	if (!e->base && o->d.compute != PK_DIFF_DELTA && o->d.compute != PK_DIFF_DELTA_ABS) {
		snprintf(buf, len, "N/A");
		return;
	}
	switch (o->d.compute) {
	case PK_DIFF_DELTA:
	case PK_DIFF_DELTA_ABS: snprintf(buf, len, "%+4.2F%%", p->delta); break;
	case PK_DIFF_RATIO:
		if (p->ratio > 0.0)
			snprintf(buf, len, "%14.6F", p->ratio);
		break;
	case PK_DIFF_WDIFF:
		if (p->wdiff)
			snprintf(buf, len, "%14" PRId64, p->wdiff);
		break;
	case PK_DIFF_BASELINE: break;
	}
}

/* -F: how file `file`'s value came about, as perf words it. */
static void formula(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff *d,
		    const struct pk_diff_entry *e, const struct pk_diff_pair *p, size_t file)
{
	switch (o->d.compute) {
	case PK_DIFF_DELTA:
	case PK_DIFF_DELTA_ABS:
		snprintf(buf, len, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 p->period, pk_diff_file_total(d, file), e->base_period, pk_diff_base_total(d));
		break;
	case PK_DIFF_RATIO:
		snprintf(buf, len, "%.0F / %.0F", (double)p->period, (double)e->base_period);
		break;
	case PK_DIFF_WDIFF:
		snprintf(buf, len, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")", p->period,
			 o->d.w2, e->base_period, o->d.w1);
		break;
	case PK_DIFF_BASELINE: break;	/* -c cycles: perf has no formula (its BUG_ON) */
	}
}

/* A key cell (`dummy`: of a row the baseline lacks); with -t, the
 * separator's first character in it made a '.', as perf does. */
static void key_cell(char *buf, size_t len, const struct diff_opts *o, const struct col *c,
		     const struct pk_hist_entry *e, bool dummy)
{
	int w = c->width, n;

	switch (c->key) {
	case PK_HIST_KEY_COMM: snprintf(buf, len, "%-*.*s", w, w, e->s.comm ? e->s.comm : ""); break;
	case PK_HIST_KEY_PID:
		snprintf(buf, len, "%7d:%-*.*s", (int)e->s.tid, w - 8, w - 8, e->s.comm ? e->s.comm : "");
		break;
	case PK_HIST_KEY_TID: snprintf(buf, len, "%*d", w, (int)e->s.tid); break;
	case PK_HIST_KEY_DSO: snprintf(buf, len, "%-*.*s", w, w, e->s.dso ? e->s.dso : "[unknown]"); break;
	case PK_HIST_KEY_CPU: snprintf(buf, len, "%*.*d", w, w, (int)e->s.cpu); break;
	case PK_HIST_KEY_SYM:
		n = 0;
		if (o->verbose)	/* perf's address and the origin of the DSO's symbols */
			n = snprintf(buf, len, "%-#*llx %c ", ADDR_DIGITS + 2, (unsigned long long)e->s.ip,
				     report_verbose_origin(o->rep, e->s.dso ? cli_names_intern(o->dso_names, e->s.dso)
								     : NULL));
		n += snprintf(buf + n, len - (size_t)n, "[%c] ", e->s.level);
		if (e->s.sym)
			snprintf(buf + n, len - (size_t)n, "%.*s", max_int(w - n, 0), e->s.sym);
		else
			snprintf(buf + n, len - (size_t)n, "%-#.*llx", ADDR_DIGITS, (unsigned long long)e->s.ip);
		break;
	case PK_HIST_KEY_PARENT: snprintf(buf, len, "%-*.*s", w, w, e->s.parent ? e->s.parent : "[other]"); break;
	case PK_HIST_KEY_SRCLINE: snprintf(buf, len, "%.*s", w, e->s.srcline ? e->s.srcline : ""); break;
	case PK_HIST_KEY_SRCFILE: snprintf(buf, len, "%.*s", w, e->s.srcfile ? e->s.srcfile : ""); break;
	case PK_HIST_KEY_CGROUP: snprintf(buf, len, "%s", cli_cgroup_name(o->cgroups, e->s.cgroup)); break;
	default: later_key_cell(buf, len, o, c->key, w, e, dummy); break;
	}
	for (char *p = buf; o->field_sep && (p = strchr(p, o->field_sep[0])); p++)
		*p = '.';
}

/* Column c's cell of row e, unaligned: perf's colour printer's text, or
 * with -t its plain one's (a Baseline without its '%'). */
static void cell(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff *d,
		 const struct pk_diff_entry *e, const struct col *c, const struct cyc_cells *cyc)
{
	const struct pk_diff_pair *p = pk_diff_pair_get(d, e, c->file);
	bool plain = o->field_sep;
	char tmp[MAX_COL_WIDTH + 128] = " ";
	int w = plain ? 0 : c->width;

	switch (c->kind) {
	case COL_BASELINE:
		if (e->base && plain)
			snprintf(tmp, sizeof(tmp), "%.2f", pk_diff_base_percent(d, e));
		else if (e->base)
			snprintf(tmp, sizeof(tmp), "%*.2f%%", w - 1, pk_diff_base_percent(d, e));
		break;
	case COL_BASE_PERIOD: snprintf(tmp, sizeof(tmp), "%" PRIu64, e->base_period); break;
	case COL_COMPUTE:
		if (cyc)
			snprintf(tmp, sizeof(tmp), "%s", cyc->range);
		else if (plain)
			compute_plain(tmp, sizeof(tmp), o, e, p);
		else
			compute_color(tmp, sizeof(tmp), o, e, p, w);
		break;
	case COL_CYCLES_HIST: snprintf(tmp, sizeof(tmp), "%s", cyc ? cyc->hist : ""); break;
	case COL_FORMULA:
		if (p->entry)
			formula(tmp, sizeof(tmp), o, d, e, p, c->file);
		break;
	case COL_PERIOD:
		if (p->entry)
			snprintf(tmp, sizeof(tmp), "%" PRIu64, p->period);
		break;
	case COL_KEY: key_cell(buf, len, o, c, pk_diff_key(d, e), !e->base); return;
	}
	/* Without -t, right-aligned, but for the computed cell, as perf's
	 * colour printer wrote it (a 14-wide wdiff padded after it). */
	snprintf(buf, len, "%*s", c->kind == COL_COMPUTE || c->kind == COL_CYCLES_HIST ? 0 : w, tmp);
}

/* A row: each cell after "  " (or -t's separator, none before the
 * first), every one but the last padded on the right to its width. */
static void print_row(FILE *f, const struct diff_opts *o, const struct pk_diff *d,
		      const struct pk_diff_entry *e, const struct col *cols, size_t n, const struct cyc_cells *cyc)
{
	char buf[KEY_CELL];

	for (size_t i = 0; i < n; i++) {
		int len;

		if (!o->field_sep || i)
			fputs(o->field_sep ? o->field_sep : "  ", f);
		cell(buf, sizeof(buf), o, d, e, &cols[i], cyc);
		len = (int)strlen(buf);
		fputs(buf, f);
		if (i + 1 < n && len < cols[i].width)
			fprintf(f, "%*s", cols[i].width - len, "");
	}
	fputc('\n', f);
}

/* -c cycles: a line for each of the row's blocks that perf does not skip. */
static void print_blocks(FILE *f, const struct diff_opts *o, const struct pk_diff *d,
			 const struct pk_diff_entry *e, const struct col *cols, size_t n)
{
	size_t nr = diff_cycles_lines(o, d, e);
	char range[MAX_COL_WIDTH + 128], hist[128] = "";
	struct cyc_cells cyc = { range, hist };

	/* perf skips a line any column skips; both skip the same lines */
	for (size_t line = 0; line < nr; line++)
		if (diff_cycles_cell(o, d, e, line, range, sizeof(range), MAX_COL_WIDTH) == 0 &&
		    (!o->cycles_hist || diff_cycles_hist_cell(o, d, e, line, hist, sizeof(hist), 8 + 9) == 0))
			print_row(f, o, d, e, cols, n, &cyc);
}

void diff_print_event(FILE *f, const struct diff_opts *o, const char *event, const struct pk_diff *d,
		      bool first)
{
	struct col cols[PK_HIST_MAX_KEYS + 2 + 3 * DIFF_MAX_FILES];
	size_t n = make_cols(o, d, cols);

	if (!o->quiet) {
		cli_message(f, "%s# Event '%s'\n#\n", first ? "" : "\n", event);
		if (o->verbose || o->nr_files > 2) {	/* (-q turns -v off) */
			fputs("# Data files:\n", f);
			for (size_t i = 0; i < o->nr_files; i++)
				cli_message(f, "#  [%zu] %s %s\n", i, o->paths[i], i ? "" : "(Baseline)");
			fputs("#\n", f);
		}
		print_headers(f, o, cols, n);
	}
	for (size_t i = 0; i < pk_diff_nr(d); i++)
		if (shown(d, pk_diff_get(d, i)) && o->cycles)
			print_blocks(f, o, d, pk_diff_get(d, i), cols, n);
		else if (shown(d, pk_diff_get(d, i)))
			print_row(f, o, d, pk_diff_get(d, i), cols, n, NULL);
}
