/* SPDX-License-Identifier: MIT */
/*
 * diff-print.c - perf diff 6.1's --stdio table, byte for byte: the
 * "# Event" lines, the columns perf registers for two files (Baseline,
 * Base period with -p, the computed column, Formula with -F, Period with
 * -p) at perf's widths, then the sort keys at the widths of their widest
 * entry, and each row as perf's colour printers write it uncoloured.
 */
#include "diff.h"

#include <inttypes.h>
#include <string.h>

/* perf's MAX_COL_WIDTH: the longest text one of its cells holds (and the Formula's width). */
#define MAX_COL_WIDTH 70

/* The width the printf of an unresolved address takes (perf's BITS_PER_LONG / 4). */
#define ADDR_DIGITS 16

enum col_kind { COL_BASELINE, COL_BASE_PERIOD, COL_COMPUTE, COL_FORMULA, COL_PERIOD, COL_KEY };

struct col {
	enum col_kind kind;
	enum pk_hist_key key;	/* COL_KEY */
	int width;
	const char *header;
};

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
	default: return "Period";
	}
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static const struct pk_hist_entry *key_entry(const struct pk_diff_entry *e)
{
	return e->base ? e->base : e->pair;
}

/* perf prints no row a filter hides. */
static bool shown(const struct pk_diff_entry *e)
{
	return !key_entry(e)->s.filtered;
}

/* perf's sort__setup_elide: a key column a filter of one name fixes is left out. */
static bool elided(const struct diff_opts *o, enum pk_hist_key k)
{
	const char *list = k == PK_HIST_KEY_COMM ? o->comms : k == PK_HIST_KEY_DSO ? o->dsos :
			   k == PK_HIST_KEY_SYM ? o->syms : NULL;

	return list && *list && !strchr(list, ',');
}

/* A key column as wide as its header and its widest entry, by perf's
 * hists__calc_col_len. */
static int key_width(const struct pk_diff *d, enum pk_hist_key k, bool sym_shown)
{
	int w = (int)strlen(key_header(k));

	for (size_t i = 0; i < pk_diff_nr(d); i++) {
		const struct pk_hist_sample *s = &key_entry(pk_diff_get(d, i))->s;
		int comm;

		if (s->filtered)
			continue;
		comm = s->comm ? (int)strlen(s->comm) : 0;

		switch (k) {
		case PK_HIST_KEY_COMM: w = max_int(w, comm); break;
		case PK_HIST_KEY_PID: w = max_int(w, comm + 8); break;
		case PK_HIST_KEY_DSO:
			w = max_int(w, s->dso ? (int)strlen(s->dso) : 0);
			if (!s->sym && sym_shown)
				w = max_int(w, ADDR_DIGITS);
			break;
		case PK_HIST_KEY_SYM:
			w = max_int(w, s->sym ? (int)strlen(s->sym) + 4 : ADDR_DIGITS + 4 + 2);
			break;
		default: break;
		}
	}
	return w;
}

static size_t make_cols(const struct diff_opts *o, const struct pk_diff *d, struct col *cols)
{
	size_t n = 0;
	bool sym_shown = false;
	const char *h = compute_header(o->d.compute);

	for (size_t i = 0; i < o->nr_keys; i++)
		sym_shown |= o->keys[i] == PK_HIST_KEY_SYM;
	cols[n++] = (struct col){ COL_BASELINE, 0, 8, "Baseline" };
	if (o->period)
		cols[n++] = (struct col){ COL_BASE_PERIOD, 0, 14, "Base period" };
	cols[n++] = (struct col){ COL_COMPUTE, 0, max_int(o->d.compute <= PK_DIFF_DELTA ? 7 : 14,
							  (int)strlen(h)), h };
	if (o->formula)
		cols[n++] = (struct col){ COL_FORMULA, 0, MAX_COL_WIDTH, "Formula" };
	if (o->period)
		cols[n++] = (struct col){ COL_PERIOD, 0, 14, "Period" };
	size_t first_key = n;

	for (size_t i = 0; i < o->nr_keys; i++)
		if (!elided(o, o->keys[i]))
			cols[n++] = (struct col){ COL_KEY, o->keys[i], key_width(d, o->keys[i], sym_shown),
						  key_header(o->keys[i]) };
	if (n == first_key)	/* perf: every key elided, none is */
		for (size_t i = 0; i < o->nr_keys; i++)
			cols[n++] = (struct col){ COL_KEY, o->keys[i], key_width(d, o->keys[i], sym_shown),
						  key_header(o->keys[i]) };
	return n;
}

static void print_headers(FILE *f, const struct col *cols, size_t n)
{
	fputs("# ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "  " : "", f);
		if (cols[i].kind == COL_KEY)
			fprintf(f, "%-*.*s", cols[i].width, cols[i].width, cols[i].header);
		else
			fprintf(f, "%*s", cols[i].width, cols[i].header);
	}
	fputs("\n# ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "  " : "", f);
		for (int k = 0; k < cols[i].width; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/* The computed column, as perf's colour printer writes it. */
static void compute_cell(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff_entry *e, int w)
{
	if (!e->pair) {
		snprintf(buf, len, "%*s", w, " ");
		return;
	}
	if (!e->base && o->d.compute != PK_DIFF_DELTA && o->d.compute != PK_DIFF_DELTA_ABS) {
		snprintf(buf, len, "%*s", w, "N/A");	/* no ratio without a baseline */
		return;
	}
	switch (o->d.compute) {
	case PK_DIFF_DELTA:
	case PK_DIFF_DELTA_ABS: snprintf(buf, len, "%+*.2f%%", w - 1, e->delta); break;
	case PK_DIFF_RATIO: snprintf(buf, len, "%*.6f", w, e->ratio); break;
	case PK_DIFF_WDIFF: snprintf(buf, len, "%14" PRId64, e->wdiff); break;
	}
}

/* -F: how the computed value came about, as perf words it. */
static void formula(char *buf, size_t len, const struct diff_opts *o, const struct pk_diff *d,
		    const struct pk_diff_entry *e)
{
	switch (o->d.compute) {
	case PK_DIFF_DELTA:
	case PK_DIFF_DELTA_ABS:
		snprintf(buf, len, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 e->pair_period, pk_diff_pair_total(d), e->base_period, pk_diff_base_total(d));
		break;
	case PK_DIFF_RATIO:
		snprintf(buf, len, "%.0F / %.0F", (double)e->pair_period, (double)e->base_period);
		break;
	case PK_DIFF_WDIFF:
		snprintf(buf, len, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")", e->pair_period,
			 o->d.w2, e->base_period, o->d.w1);
		break;
	}
}

static void print_key(FILE *f, const struct col *c, const struct pk_hist_entry *e, bool last)
{
	int w = c->width, n;

	switch (c->key) {
	case PK_HIST_KEY_COMM: fprintf(f, "%-*.*s", w, w, e->s.comm ? e->s.comm : ""); break;
	case PK_HIST_KEY_PID:
		fprintf(f, "%7d:%-*.*s", (int)e->s.tid, w - 8, w - 8, e->s.comm ? e->s.comm : "");
		break;
	case PK_HIST_KEY_TID: fprintf(f, "%*d", w, (int)e->s.tid); break;
	case PK_HIST_KEY_DSO: fprintf(f, "%-*.*s", w, w, e->s.dso ? e->s.dso : "[unknown]"); break;
	case PK_HIST_KEY_CPU: fprintf(f, "%*.*d", w, w, (int)e->s.cpu); break;
	case PK_HIST_KEY_SYM:
		n = fprintf(f, "[%c] ", e->s.level);
		if (e->s.sym)
			n += fprintf(f, "%.*s", max_int(w - n, 0), e->s.sym);
		else
			n += fprintf(f, "%-#.*llx", ADDR_DIGITS, (unsigned long long)e->s.ip);
		if (!last && n < w)
			fprintf(f, "%*s", w - n, "");
		break;
	default: break;
	}
}

static void print_row(FILE *f, const struct diff_opts *o, const struct pk_diff *d,
		      const struct pk_diff_entry *e, const struct col *cols, size_t n)
{
	char buf[MAX_COL_WIDTH];

	for (size_t i = 0; i < n; i++) {
		int w = cols[i].width;

		fputs("  ", f);
		switch (cols[i].kind) {
		case COL_BASELINE:
			if (e->base)
				fprintf(f, "%*.2f%%", w - 1, pk_diff_base_percent(d, e));
			else
				fprintf(f, "%*s", w, " ");
			break;
		case COL_BASE_PERIOD: fprintf(f, "%*" PRIu64, w, e->base_period); break;
		case COL_COMPUTE:
			compute_cell(buf, sizeof(buf), o, e, w);
			fputs(buf, f);
			break;
		case COL_FORMULA:
			buf[0] = ' ', buf[1] = '\0';
			if (e->pair)
				formula(buf, sizeof(buf), o, d, e);
			fprintf(f, "%*s", w, buf);
			break;
		case COL_PERIOD:
			if (e->pair)
				fprintf(f, "%*" PRIu64, w, e->pair_period);
			else
				fprintf(f, "%*s", w, " ");
			break;
		case COL_KEY: print_key(f, &cols[i], key_entry(e), i + 1 == n); break;
		}
	}
	fputc('\n', f);
}

void diff_print_event(FILE *f, const struct diff_opts *o, const char *event, const struct pk_diff *d,
		      bool first)
{
	struct col cols[PK_HIST_MAX_KEYS + 5];
	size_t n = make_cols(o, d, cols);

	if (!o->quiet) {
		cli_message(f, "%s# Event '%s'\n#\n", first ? "" : "\n", event);
		print_headers(f, cols, n);
	}
	for (size_t i = 0; i < pk_diff_nr(d); i++)
		if (shown(pk_diff_get(d, i)))
			print_row(f, o, d, pk_diff_get(d, i), cols, n);
}
