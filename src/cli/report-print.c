/* SPDX-License-Identifier: MIT */
/*
 * report-print.c - perf report's --stdio table, byte for byte: the header
 * comments, one section per event with "# Samples:" (perf's K/M/G
 * rounding) and "# Event count (approx.):", the column headers and dotted
 * rules with perf's widths (each column as wide as its header and its
 * widest entry, with perf's rules for the Pid:Command and unresolved
 * symbol columns), and the rows in perf's formats.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The columns: perf's output fields first, then the sort keys. */
enum col_kind { COL_CHILDREN, COL_OVERHEAD, COL_SAMPLES, COL_PERIOD, COL_KEY, COL_SYS, COL_US, COL_GUEST_SYS,
		COL_GUEST_US };

struct col {
	enum col_kind kind;
	enum pk_hist_key key;		/* COL_KEY */
	int width;
	bool elide;			/* a one-name filter stands for the column */
	int user;			/* -w's width for it (0: none): a number's cell */
};

/* The width the printf of an unresolved address takes (perf's BITS_PER_LONG / 4). */
#define ADDR_DIGITS 16

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
	case PK_HIST_KEY_PERIOD: return "Period";
	case PK_HIST_KEY_SRCLINE: return "Source:Line";
	case PK_HIST_KEY_SRCFILE: return "Source File";
	default: return report_sort2_header(k);
	}
}

static const char *col_header(const struct report_opts *o, const struct col *c)
{
	switch (c->kind) {
	case COL_CHILDREN: return "Children";
	case COL_OVERHEAD: return (o->nr_out ? o->self_header : o->children) ? "Self" : "Overhead";
	case COL_SAMPLES: return "Samples";
	case COL_PERIOD: return "Period";
	case COL_SYS: return "sys";
	case COL_US: return "usr";
	case COL_GUEST_SYS: return "guest sys";
	case COL_GUEST_US: return "guest usr";
	default: return key_header(c->key);
	}
}

static bool right_aligned(const struct col *c)
{
	return c->kind != COL_KEY || c->key == PK_HIST_KEY_PERIOD;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* A symbol's width: perf sizes an inline symbol by its name, without the
 * " (inlined)" it prints after it. */
static int sym_len(const char *sym)
{
	size_t n = strlen(sym), suffix = strlen(" (inlined)");

	if (n > suffix && !strcmp(sym + n - suffix, " (inlined)"))
		n -= suffix;
	return (int)n;
}

/* The widest entry of each kind, as perf's hists__calc_col_len finds them. */
struct widths {
	int comm, thread, dso, sym, srcline, srcfile, parent;
	int time;	/* perf's fixed width of the time key (report-sort2.c) */
	int trace;	/* the longest trace output: perf's, when it made them all */
	int cgroup;	/* the longest cgroup name, at least perf's 6 */
	int mem[REPORT_MEM_NR_KEYS];	/* the memory keys' (report-mem.c) */
	bool tx;	/* an entry has a transaction (perf's wider column) */
};

/*
 * The longest trace text perf has when it sizes the column: it makes an
 * entry's text only when it compares two samples on the trace key, that
 * is, when more than one sample agrees with the entry on the keys before
 * it (pk_hist_prefix_samples); the others print cut to the header.
 */
static int trace_width(const struct pk_hist *h, const struct report_opts *o)
{
	size_t at = 0, nr = pk_hist_nr(h);
	uint64_t *group;
	int w = 0;

	while (at < o->nr_keys && o->keys[at] != PK_HIST_KEY_TRACE)
		at++;
	if (at == o->nr_keys || !nr || !(group = malloc(nr * sizeof(*group))))
		return 0;
	if (pk_hist_prefix_samples(h, at, group) == 0) {
		for (size_t i = 0; i < nr; i++) {
			const struct pk_hist_entry *e = pk_hist_get(h, i);

			if (!e->s.filtered && e->s.trace && group[i] > 1)
				w = max_int(w, (int)strlen(e->s.trace));
		}
	}
	free(group);
	return w;
}

static struct widths entry_widths(const struct pk_hist *h, const struct report_opts *o,
				  struct pk_threads *threads)
{
	struct widths w = { 0, 0, 0, 0, 0, 0, 0, report_sort2_width(o, PK_HIST_KEY_TIME), 0, 6, { 0 } };
	bool sym_shown = false;

	for (size_t i = 0; i < o->nr_keys; i++)
		sym_shown |= o->keys[i] == PK_HIST_KEY_SYM;
	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);
		/* perf sizes by the thread's comm at the end, not the sample's. */
		const char *comm = e->s.filtered ? NULL : pk_threads_comm(threads, e->s.pid, e->s.tid);
		int len = comm ? (int)strlen(comm) : 0;

		if (e->s.filtered)
			continue;
		if (len > w.comm) {
			w.comm = len;
			w.thread = len + 8;
		}
		if (e->s.dso)
			w.dso = max_int(w.dso, (int)strlen(e->s.dso));
		if (e->s.srcline)
			w.srcline = max_int(w.srcline, (int)strlen(e->s.srcline));
		if (e->s.srcfile)
			w.srcfile = max_int(w.srcfile, (int)strlen(e->s.srcfile));
		if (e->s.parent)
			w.parent = max_int(w.parent, (int)strlen(e->s.parent));
		w.tx |= e->s.transaction != 0;
		if (e->s.cgroup)
			w.cgroup = max_int(w.cgroup, (int)strlen(report_sort2_cgroup_name(o, e->s.cgroup)));
		if (e->s.sym) {
			/* -v: perf's "0x...  o " before it, when resolved */
			w.sym = max_int(w.sym, sym_len(e->s.sym) + 4 + (o->verbose ? ADDR_DIGITS + 2 + 3 : 0));
		} else {
			/* "[.] 0x" and the digits; an object column at least that
			 * wide, as perf makes it for every entry it could not
			 * resolve (a report that reads no symbols still looks up
			 * those of short-named objects: report_width_sym) */
			if (sym_shown)
				w.sym = max_int(w.sym, ADDR_DIGITS + 4 + 2);
			w.dso = max_int(w.dso, !o->dsos && !o->f4.nr_widths ? ADDR_DIGITS : 0);
		}
	}
	w.trace = trace_width(h, o);
	report_mem_widths(h, o, w.mem);
	return w;
}

static size_t nr_names(char *const *list)
{
	size_t n = 0;

	while (list && list[n])
		n++;
	return n;
}

/* perf's elision: a key whose filter names one value loses its column
 * (unless every key would), the value going into the header. */
static void elide(const struct report_opts *o, struct col *cols, size_t n)
{
	bool all = true;

	for (size_t i = 0; i < n; i++) {
		if (cols[i].kind != COL_KEY)
			continue;
		cols[i].elide = (cols[i].key == PK_HIST_KEY_COMM && nr_names(o->comms) == 1) ||
				(cols[i].key == PK_HIST_KEY_DSO && nr_names(o->dsos) == 1) ||
				(cols[i].key == PK_HIST_KEY_SYM && nr_names(o->syms) == 1);
		all &= cols[i].elide;
	}
	for (size_t i = 0; all && i < n; i++)
		cols[i].elide = false;
}

static struct col key_col(enum pk_hist_key key, const struct widths *w)
{
	struct col c = { COL_KEY, key, 0 };

	switch (c.key) {
	case PK_HIST_KEY_COMM: c.width = w->comm; break;
	case PK_HIST_KEY_PID: c.width = w->thread; break;
	case PK_HIST_KEY_DSO: c.width = w->dso; break;
	case PK_HIST_KEY_SYM: c.width = w->sym; break;
	case PK_HIST_KEY_PARENT: c.width = w->parent; break;
	case PK_HIST_KEY_SRCLINE: c.width = w->srcline; break;
	case PK_HIST_KEY_SRCFILE: c.width = w->srcfile; break;
	case PK_HIST_KEY_PERIOD: c.width = 12; break;
	case PK_HIST_KEY_TIME: c.width = w->time; break;
	case PK_HIST_KEY_TRACE: c.width = w->trace; break;
	case PK_HIST_KEY_CGROUP: c.width = w->cgroup; break;
	case PK_HIST_KEY_TRANSACTION: c.width = report_sort3_width(c.key, w->tx); break;
	default:
		c.width = report_mem_key(c.key) ? w->mem[c.key - PK_HIST_KEY_MEM_DADDR_SYM] :
						  report_sort2_width(NULL, c.key);
		break;
	}
	c.width = max_int(c.width, (int)strlen(key_header(c.key)));
	return c;
}

/* -w: each column's width in turn; a key's is exact (its header and
 * entries cut to it), a number's column is at least its header's width,
 * its cells perf's " %*.2f%%" or " %*d" of that width. */
static size_t user_widths(const struct report_opts *o, struct col *cols, size_t n, int nr_members)
{
	for (size_t i = 0; i < n; i++) {
		int u = report_flags4_width(o, i);

		if (!u)
			continue;
		cols[i].user = u;
		cols[i].width = cols[i].kind == COL_KEY ? u :
				max_int(max_int(u, nr_members > 1 ? cols[i].width : 0),	/* a group's members */
					(int)strlen(col_header(o, &cols[i])));
	}
	return n;
}

/* -F's columns (report-fields.c), in its order. */
static size_t field_cols(const struct report_opts *o, const struct widths *w, struct col *cols, int nr_members)
{
	static const struct { int item; enum col_kind kind; int width; } kinds[] = {
		{ PK_HIST_ORDER_OVERHEAD, COL_OVERHEAD, 8 }, { PK_HIST_ORDER_OVERHEAD_SYS, COL_SYS, 8 },
		{ PK_HIST_ORDER_OVERHEAD_US, COL_US, 8 }, { PK_HIST_ORDER_OVERHEAD_GUEST_SYS, COL_GUEST_SYS, 9 },
		{ PK_HIST_ORDER_OVERHEAD_GUEST_US, COL_GUEST_US, 9 }, { PK_HIST_ORDER_CHILDREN, COL_CHILDREN, 8 },
		{ PK_HIST_ORDER_SAMPLES, COL_SAMPLES, 12 }, { PK_HIST_ORDER_PERIOD, COL_PERIOD, 12 },
	};
	size_t n = 0;

	for (size_t i = 0; i < o->nr_out; i++) {
		if (o->out[i] >= PK_HIST_ORDER_KEY(0)) {
			cols[n++] = key_col((enum pk_hist_key)(o->out[i] - PK_HIST_ORDER_KEY(0)), w);
			continue;
		}
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (kinds[k].item == o->out[i])
				cols[n++] = (struct col){ kinds[k].kind, 0, kinds[k].width * nr_members };
	}
	elide(o, cols, n);
	return user_widths(o, cols, n, nr_members);
}

static size_t make_cols(const struct pk_hist *h, const struct report_opts *o,
			struct pk_threads *threads, struct col *cols, int nr_members)
{
	struct widths w = entry_widths(h, o, threads);
	bool period_key = false;
	size_t n = 0;

	if (o->nr_out)	/* -F's, or perf's output fields in --sort */
		return field_cols(o, &w, cols, nr_members);
	for (size_t i = 0; i < o->nr_keys; i++)
		period_key |= o->keys[i] == PK_HIST_KEY_PERIOD;
	/* A group's columns hold a value per member, each as wide as one. */
	if (o->children)
		cols[n++] = (struct col){ COL_CHILDREN, 0, 8 * nr_members };
	cols[n++] = (struct col){ COL_OVERHEAD, 0, 8 * nr_members };
	if (o->f2.cpu_util) {	/* --show-cpu-utilization */
		cols[n++] = (struct col){ COL_SYS, 0, 8 * nr_members };
		cols[n++] = (struct col){ COL_US, 0, 8 * nr_members };
	}
	if (o->show_nr)
		cols[n++] = (struct col){ COL_SAMPLES, 0, 12 * nr_members };
	if (o->show_period && !period_key)
		cols[n++] = (struct col){ COL_PERIOD, 0, 12 * nr_members };
	/* perf's period in --sort is its Period output field, a value per
	 * member as --show-total-period's */
	for (size_t i = 0; i < o->nr_keys; i++)
		cols[n++] = o->keys[i] == PK_HIST_KEY_PERIOD ? (struct col){ COL_PERIOD, 0, 12 * nr_members } :
							       key_col(o->keys[i], &w);
	elide(o, cols, n);
	return user_widths(o, cols, n, nr_members);
}

static void print_headers(FILE *f, const struct report_opts *o, const struct col *cols, size_t n)
{
	bool first = true;

	fputs("# ", f);
	for (size_t i = 0; i < n; i++) {
		const char *name = col_header(o, &cols[i]);

		if (cols[i].elide)
			continue;
		if (!first)
			fputs(o->f2.field_sep ? o->f2.field_sep : "  ", f);
		first = false;
		if (right_aligned(&cols[i]))
			fprintf(f, "%*s", cols[i].width, name);
		else
			fprintf(f, "%-*.*s", cols[i].width, cols[i].width, name);
	}
	if (o->f2.field_sep) {	/* -t: perf's header line alone */
		fputc('\n', f);
		return;
	}
	fputs("\n# ", f);
	first = true;
	for (size_t i = 0; i < n; i++) {
		if (cols[i].elide)
			continue;
		if (!first)
			fputs("  ", f);
		first = false;
		for (int k = 0; k < cols[i].width; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/* A data object's symbol as perf shows it, "name+0xOFFSET" from the
 * entry's address, cut at the `room` the column leaves (perf sizes the
 * column by the name alone; a room below 0, perf's unsigned width under
 * -w, is no limit). */
static int put_object(FILE *f, const struct pk_hist_entry *e, int room)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "%s+0x%llx", e->s.sym, (unsigned long long)(e->s.ip - e->s.sym_start));

	if (n < 0)
		return 0;
	if (n >= (int)sizeof(buf))
		n = (int)sizeof(buf) - 1;
	if (room >= 0 && n > room)
		n = room;
	fwrite(buf, 1, (size_t)n, f);
	return n;
}

/* One sort key's cell; `last` leaves a symbol unpadded, as perf does. */
static void print_key(FILE *f, const struct report_opts *o, const struct col *c, const struct pk_hist_entry *e,
		      struct pk_threads *threads, bool last)
{
	int w = c->width, n;
	const char *comm;

	switch (c->key) {
	case PK_HIST_KEY_COMM:
		cli_put_str(f, e->s.comm, w, w, true);
		break;
	case PK_HIST_KEY_PID:
		comm = pk_threads_comm(threads, e->s.pid, e->s.tid);
		w = max_int(7, w) - 8;
		fprintf(f, "%7d:%-*.*s", (int)e->s.tid, w, w, comm ? comm : "");
		break;
	case PK_HIST_KEY_TID:
		fprintf(f, "%*d", w, (int)e->s.tid);
		break;
	case PK_HIST_KEY_DSO:
		cli_put_str(f, e->s.dso ? e->s.dso : "[unknown]", w, w, true);
		break;
	case PK_HIST_KEY_CPU:
		fprintf(f, "%*.*d", w, w, (int)e->s.cpu);
		break;
	case PK_HIST_KEY_PARENT:
		fprintf(f, "%-*.*s", w, w, e->s.parent ? e->s.parent : "[other]");
		break;
	case PK_HIST_KEY_PERIOD:
		fprintf(f, "%*" PRIu64, w, e->period);
		break;
	case PK_HIST_KEY_SRCLINE:
	case PK_HIST_KEY_SRCFILE:
		/* Padded to the column but for the last one, as perf prints them. */
		fprintf(f, "%-*.*s", last ? 0 : w, w,
			c->key == PK_HIST_KEY_SRCLINE ? e->s.srcline : e->s.srcfile);
		break;
	case PK_HIST_KEY_SYM:
		n = 0;
		if (o->verbose)	/* perf's address and the origin of the DSO's symbols */
			n = fprintf(f, "%-#*llx %c ", ADDR_DIGITS + 2, (unsigned long long)e->s.ip,
				    report_verbose_origin(o, e->s.dso));
		fputc('[', f);
		fputc(e->s.level, f);
		fputs("] ", f);
		n += 4;
		if (e->s.sym && e->s.sym_object)
			n += put_object(f, e, w - n);
		else if (e->s.sym)	/* an inline symbol's suffix goes past the width; perf's
					 * unsigned width below the "[.] " is no limit (-w) */
			n += cli_put_str(f, e->s.sym, 0, (w - n < 0 ? (int)strlen(e->s.sym) : w - n) +
					 (int)strlen(e->s.sym) - sym_len(e->s.sym), false);
		else
			n += cli_put_hex(f, e->s.ip, ADDR_DIGITS);
		if (!last && n < w)
			cli_put_spaces(f, w - n);
		break;
	default:
		report_sort2_print(f, o, c->key, w, e, last);
		break;
	}
}

/* An entry's period in one mode, as a share of the event's total. */
static double mode_percent(const struct report_opts *o, const struct pk_hist *h, const struct pk_hist_entry *e,
			   enum col_kind kind)
{
	uint64_t v = kind == COL_SYS ? e->period_sys : kind == COL_US ? e->period_us :
		     kind == COL_GUEST_SYS ? e->period_guest_sys : e->period_guest_us;

	return report_flags2_percent(o, h, v);
}

/* The group cells of number column kind k (not COL_KEY). */
static enum report_cell col_cell(enum col_kind k)
{
	switch (k) {
	case COL_CHILDREN: return REPORT_CELL_CHILDREN;
	case COL_OVERHEAD: return REPORT_CELL_OVERHEAD;
	case COL_SAMPLES: return REPORT_CELL_SAMPLES;
	case COL_PERIOD: return REPORT_CELL_PERIOD;
	default: return (enum report_cell)(REPORT_CELL_SYS + (k - COL_SYS));
	}
}

/* -t SEP: each cell as perf prints it then (numbers after a space, a
 * group's members each after one, padded to the column's width but in the
 * last column), joined by SEP (report_flags2_sep_cell). */
static void print_row_sep(FILE *f, const struct report_opts *o, const struct pk_hist *h,
			  const struct pk_hist_entry *e, const struct col *cols, size_t n,
			  struct pk_threads *threads, uint32_t nr_members)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m;

		if (cols[i].elide)
			continue;
		if (!first)
			fputs(o->f2.field_sep, f);
		first = false;
		if (!(m = open_memstream(&buf, &len)))
			return;
		switch (cols[i].kind) {
		case COL_CHILDREN:
			if (o->children)
				fprintf(m, " %.2f%%", report_flags2_percent(o, h, e->period_acc));
			else
				fputs("N/A", m);
			break;
		case COL_OVERHEAD: fprintf(m, " %.2f%%", report_flags2_percent(o, h, e->period)); break;
		case COL_SAMPLES: fprintf(m, " %" PRIu64, e->nr_samples); break;
		case COL_PERIOD: fprintf(m, " %" PRIu64, e->period); break;
		case COL_KEY: print_key(m, o, &cols[i], e, threads, i + 1 == n); break;
		default: fprintf(m, " %.2f%%", mode_percent(o, h, e, cols[i].kind)); break;
		}
		if (cols[i].kind != COL_KEY && (cols[i].kind != COL_CHILDREN || o->children))
			report_group_sep_cells(m, col_cell(cols[i].kind), h, e, nr_members);
		fclose(m);
		report_flags2_sep_cell(f, o, buf, cols[i].kind == COL_KEY, i + 1 == n ? 0 : cols[i].width);
		free(buf);
	}
	fputc('\n', f);
}

/* A percentage of -w's width u, coloured with --stdio-color: its length
 * counts the escapes, as perf's padding does. */
static int user_percent(FILE *f, int u, double pct, bool color)
{
	const char *c = color ? cli_percent_color(pct) : NULL;

	return fprintf(f, "%s %*.2f%%%s", c ? c : "", u - 2, pct, c ? CLI_COLOR_RESET : "");
}

/* -w's cell of a number column: perf's own format at that width, for
 * the leader and then each member of a group shown (m: slot m - 1),
 * padded to the column's but in the last one. */
static void print_user_cell(FILE *f, const struct report_opts *o, const struct pk_hist *h,
			    const struct pk_hist_entry *e, const struct col *c, bool last, uint32_t nr_members)
{
	int u = c->user, len = 0;

	for (uint32_t m = 0; m < nr_members; m++) {
		const struct pk_hist_pair none = { 0 }, *p = m && e->pairs ? &e->pairs[m - 1] : &none;

		switch (c->kind) {
		case COL_CHILDREN:
			len += !o->children ? fprintf(f, " %*s", u - 1, "N/A") :
			       user_percent(f, u, m ? pk_hist_pair_percent_acc(h, e, m - 1) :
						 report_flags2_percent(o, h, e->period_acc), o->color);
			break;
		case COL_OVERHEAD:
			len += user_percent(f, u, m ? pk_hist_pair_percent(h, e, m - 1) :
						  report_flags2_percent(o, h, e->period), o->color);
			break;
		case COL_SAMPLES: len += fprintf(f, " %*" PRIu64, u - 1, m ? p->nr_samples : e->nr_samples); break;
		case COL_PERIOD: len += fprintf(f, " %*" PRIu64, u - 1, m ? p->period : e->period); break;
		default: len += user_percent(f, u, mode_percent(o, h, e, c->kind), o->color); break;
		}
	}
	if (!last && len < c->width)
		fprintf(f, "%*s", c->width - len, "");
}

static void print_row(FILE *f, const struct report_opts *o, const struct pk_hist *h,
		      const struct pk_hist_entry *e, const struct col *cols, size_t n,
		      struct pk_threads *threads, uint32_t nr_members)
{
	if (o->f2.field_sep)
		return print_row_sep(f, o, h, e, cols, n, threads, nr_members);
	for (size_t i = 0; i < n; i++) {
		int w = cols[i].width / (int)nr_members;

		if (cols[i].elide)
			continue;
		fputs("  ", f);
		if (cols[i].user && cols[i].kind != COL_KEY &&
		    (nr_members == 1 || cols[i].kind < COL_KEY)) {	/* (not a group's sys/usr) */
			print_user_cell(f, o, h, e, &cols[i], i + 1 == n, nr_members);
			continue;
		}
		switch (cols[i].kind) {
		case COL_CHILDREN:
			if (!o->children) {	/* -F asked for it on a file without chains */
				fprintf(f, "%*s%*s", w, "N/A", cols[i].width - w, "");
				break;
			}
			report_percent_cell(f, w, report_flags2_percent(o, h, e->period_acc), o->color);
			report_group_cells(f, REPORT_CELL_CHILDREN, w, h, e, nr_members, o->color);
			break;
		case COL_OVERHEAD:
			report_percent_cell(f, w, report_flags2_percent(o, h, e->period), o->color);
			report_group_cells(f, REPORT_CELL_OVERHEAD, w, h, e, nr_members, o->color);
			break;
		case COL_SYS:
		case COL_US:
		case COL_GUEST_SYS:
		case COL_GUEST_US:
			report_percent_cell(f, w, mode_percent(o, h, e, cols[i].kind), o->color);
			report_group_cells(f, (enum report_cell)(REPORT_CELL_SYS + (cols[i].kind - COL_SYS)), w, h, e,
					   nr_members, o->color);
			break;
		case COL_SAMPLES:
			fprintf(f, "%*" PRIu64, w, e->nr_samples);
			report_group_cells(f, REPORT_CELL_SAMPLES, w, h, e, nr_members, false);
			break;
		case COL_PERIOD:
			fprintf(f, "%*" PRIu64, w, e->period);
			report_group_cells(f, REPORT_CELL_PERIOD, w, h, e, nr_members, false);
			break;
		case COL_KEY:
			print_key(f, o, &cols[i], e, threads, i + 1 == n);
			break;
		}
	}
	fputc('\n', f);
}

/*
 * The call graph under entry e, as perf sorts and prints it: graph, flat
 * and folded keep what reaches min_percent of the event's period (rounded
 * down, as perf's u64 does), fractal of each parent's; percentages of the
 * event's period, and a lone chain is measured against the entry's own
 * (Children) period.
 */
int report_print_chain(FILE *f, const struct report_opts *o, const struct pk_hist *h,
		       const struct pk_hist_entry *e)
{
	uint64_t total = pk_hist_total_period(h);	/* perf prints shares of every sample, */
	uint64_t min_hit = (uint64_t)((double)report_flags2_total(o, h) * (o->cg.min_percent / 100));	/* cuts by --percentage's */
	uint64_t parent = o->children ? e->period_acc : e->period;
	struct report_cg cg = o->cg;
	struct pk_callchain *cc;

	/* below the threshold as a whole, nothing of it prints (but fractal's
	 * threshold is each parent's) */
	if (pk_hist_chain(h, e, o->cg.mode == PK_CALLCHAIN_GRAPH_REL ? 0 : min_hit, &cc) < 0)
		return -ENOMEM;
	if (!cc)
		return 0;
	if (pk_callchain_sort(cc, o->cg.mode, min_hit, o->cg.min_percent) < 0) {
		pk_hist_chain_put(e, cc);
		return -ENOMEM;
	}
	cg.color = o->color ? cli_percent_color : NULL;	/* perf colours the graph as the table */
	report_callchain_print(f, &cg, cc, total, parent, o->sort_sym);
	pk_hist_chain_put(e, cc);
	return 0;
}

/* perf's convert_unit: the count in thousands (K), millions (M), billions
 * (G) once above 1000, truncated; ' ' for none. */
static uint64_t short_count(uint64_t n, char *unit)
{
	double v = (double)n;

	*unit = ' ';
	for (const char *u = "KMG"; *u && v > 1000.0; u++) {
		v /= 1000.0;
		*unit = *u;
	}
	return (uint64_t)v;
}

static void print_section(FILE *f, const struct report_opts *o, const struct report_event *ev,
			  struct pk_threads *threads)
{
	struct col cols[3 * PK_HIST_MAX_KEYS];
	uint32_t nr_members = report_group_view(o, ev) ? ev->nr_members : 1;
	uint64_t nr, period, hier_period;
	/* before the widths: it sets the members' totals */
	bool hier = report_hier_totals(o, ev, nr_members, threads, &hier_period);
	size_t n = make_cols(ev->hist, o, threads, cols, (int)nr_members);
	char unit, note[256];
	const struct pk_hist_entry **order;
	bool nomem = false;

	if (!o->quiet) {
		report_group_totals(o, ev, &nr, &period);	/* --percentage relative's too */
		if (hier)
			period = hier_period;
		nr = short_count(nr, &unit);
		/* perf says "events" for a group's leader, shown as a group or not. */
		cli_message(f, "# Samples: %" PRIu64 "%c of event%s '%s'%s\n", nr, unit,
			    ev->nr_members > 1 ? "s" : "", nr_members > 1 ? ev->group_desc : ev->name,
			    report_flags2_time_note(o, nr_members > 1 ? ev->group_desc : ev->name, note, sizeof(note)));
		report_mem_totals(f, o, period);
		report_flags4_socket_line(f, o);
		fputs("#\n", f);
		if (!o->f3.hierarchy)
			print_headers(f, o, cols, n);
	}
	if (o->f3.hierarchy) {	/* report-hier.c */
		if (report_hier_print(f, o, ev->hist, threads, nr_members) < 0)
			cli_message(stderr, "perfkit report: out of memory\n");
		fputs("\n\n", f);
		return;
	}
	order = report_flags4_order(o, ev, nr_members, &nomem);	/* --group-sort-idx */
	for (size_t i = 0; i < pk_hist_nr(ev->hist) && !nomem; i++) {
		const struct pk_hist_entry *e = order ? order[i] : pk_hist_get(ev->hist, i);

		if (e->s.filtered || report_flags2_below_limit(o, ev->hist, e))
			continue;
		print_row(f, o, ev->hist, e, cols, n, threads, nr_members);
		if (o->callchain)
			(void)report_print_chain(f, o, ev->hist, e);	/* out of memory: the row without its graph */
	}
	free(order);
	if (nomem)
		cli_message(stderr, "perfkit report: out of memory\n");
	fputs("\n\n", f);
}

/* perf's sort__setup_elide: a key column that one --comms, --dsos or
 * --symbols name fills is left out and named on a line of its own. */
static void print_elided(FILE *f, const struct report_opts *o)
{
	for (size_t i = 0; i < o->nr_keys; i++) {
		if (o->keys[i] == PK_HIST_KEY_COMM && nr_names(o->comms) == 1)
			cli_message(f, "# comm: %s\n", o->comms[0]);
		if (o->keys[i] == PK_HIST_KEY_DSO && nr_names(o->dsos) == 1)
			cli_message(f, "# dso: %s\n", o->dsos[0]);
		if (o->keys[i] == PK_HIST_KEY_SYM && nr_names(o->syms) == 1)
			cli_message(f, "# symbol: %s\n", o->syms[0]);
	}
}

bool report_print(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		  uint64_t lost_samples, struct pk_threads *threads)
{
	bool any = false;

	for (size_t i = 0; i < nr_ev; i++)
		any |= pk_hist_nr_samples(ev[i].hist) != 0;
	if (!any) {	/* perf prints its first line only, and says so on stderr */
		if (!o->quiet && !o->header)
			fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", f);
		return false;
	}
	if (!o->quiet && !o->header)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", f);
	print_elided(f, o);	/* with -q too: perf prints them as it sets up */
	if (!o->quiet)
		fprintf(f, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
	for (size_t i = 0; i < nr_ev; i++)
		/* perf skips events with no samples, and a shown group's members. */
		if (pk_hist_nr_samples(ev[i].hist) && (ev[i].leader == i || !report_group_view(o, &ev[ev[i].leader])))
			print_section(f, o, &ev[i], threads);
	if (!o->quiet)
		fputs("#\n# (Tip: perfkit report --sort comm,dso gives a higher-level overview)\n#\n", f);
	return true;
}
