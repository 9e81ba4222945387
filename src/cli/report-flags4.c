/* SPDX-License-Identifier: MIT */
/*
 * report-flags4.c - the last of perf report 6.1's flags: -w/--column-widths
 * (perf's strtol list, each number a column's width in perf's order, the
 * list ending at the first number not followed by a comma; report-print.c
 * lays the columns out with them), --pretty raw (-T's table in perf's raw
 * style), --group-sort-idx (a shown group's rows sorted by one member's
 * period first, perf refusing it on a file without groups),
 * --socket-filter (perf 6.1 gives the host machine no environment when it
 * reads a file, so every entry's socket is -1 and any filter from 0 hides
 * every row under a "# Processor Socket: N" line; perf applies it as it
 * collapses entries, which only the comm key and --hierarchy make it do),
 * --no-demangle and --full-source-path.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* perf's perf_hpp__set_user_width: strtol after strtol while a comma follows. */
static void parse_widths(struct report_flags4 *f, const char *arg)
{
	const char *p = arg;

	f->nr_widths = 0;
	while (f->nr_widths < REPORT_FLAGS4_MAX_WIDTHS) {
		char *end;
		long v = strtol(p, &end, 10);

		f->widths[f->nr_widths++] = v < 0 ? 0 : v > 4096 ? 4096 : (int)v;
		if (*end != ',')
			break;
		p = end + 1;
	}
}

/* perf's OPT_INTEGER: a whole number, else its usage error. */
static int integer(const char *name, const char *arg, int *out)
{
	char *end;
	long v = strtol(arg, &end, 0);

	if (!*arg || *end || v < INT32_MIN || v > INT32_MAX)
		return cli_usage("report", "option `%s' expects a numerical value", name);
	*out = (int)v;
	return 0;
}

int report_flags4_option(struct report_opts *o, int id, const char *arg)
{
	switch (id) {
	case REPORT_OPT_COLUMN_WIDTHS: parse_widths(&o->f4, arg); return 0;
	case REPORT_OPT_PRETTY: o->f4.raw = !strcmp(arg, "raw"); return 0;	/* perf: anything else is normal */
	case REPORT_OPT_GROUP_SORT_IDX: return integer("group-sort-idx", arg, &o->f4.group_sort_idx);
	case REPORT_OPT_SOCKET_FILTER:
		o->f4.socket_set = true;
		return integer("socket-filter", arg, &o->f4.socket);
	case REPORT_OPT_NO_DEMANGLE: o->f4.no_demangle = true; return 0;
	case REPORT_OPT_DEMANGLE:	/* perf's one boolean: the last of the two wins */
		o->f4.no_demangle = false;
		return report_flags3_option(o, id, arg);
	case REPORT_OPT_FULL_SOURCE_PATH:
		o->f4.full_path = true;
		report_srcline_full_path();
		return 0;
	default:
		return report_flags3_option(o, id, arg);
	}
}

int report_flags4_setup(const struct report_opts *o, struct pk_data_reader *r)
{
	const struct pk_feature_group_desc *gd;
	struct pk_feature *f = NULL;
	uint32_t nr_groups = 0;

	if (!o->f4.group_sort_idx)
		return 0;
	if (pk_data_reader_decode(r, PK_DATA_FEAT_GROUP_DESC, &f) == 0 && (gd = pk_feature_group_desc(f)))
		nr_groups = gd->nr;
	pk_feature_free(f);
	/* the file's groups, or the one perf forces on several events */
	if (nr_groups || (o->group_opt >= 0 && pk_data_reader_nr_events(r) > 1))
		return 0;
	cli_message(stderr, "        --group-sort-idx <n>\n                          Sort the output by the "
		    "event at the index n in group. If n is invalid, sort by the first event. WARNING: "
		    "should be used on grouped events.\n");
	return CLI_EXIT_USAGE;
}

bool report_flags4_socket_out(const struct report_opts *o)
{
	bool collapse = o->f3.hierarchy;	/* perf filters entries as it collapses them: */

	for (size_t k = 0; k < o->nr_keys; k++)	/* only the comm key (or --hierarchy) collapses */
		collapse |= o->keys[k] == PK_HIST_KEY_COMM;
	return o->f4.socket_set && o->f4.socket > -1 && collapse;
}

void report_flags4_socket_line(FILE *f, const struct report_opts *o)
{
	if (o->f4.socket_set && o->f4.socket > -1)
		fprintf(f, "# Processor Socket: %d\n", o->f4.socket);
}

int report_flags4_width(const struct report_opts *o, size_t i)
{
	return i < o->f4.nr_widths ? o->f4.widths[i] : 0;
}

/* ---- --group-sort-idx ---------------------------------------------------------- */

/* What one qsort_r compares by: the histogram, perf's sort fields before
 * its first key (their order), the member sorted by and the group's size. */
struct order_ctx {
	const struct pk_hist *h;
	const int *fields;
	size_t nr_fields;
	int idx;
	uint32_t nr_members;
};

/* Field `item` (a pk_hist_order) of member m of entry e (0: the leader). */
static uint64_t field(const struct pk_hist_entry *e, int item, uint32_t m)
{
	const struct pk_hist_pair none = { 0 }, *p = !m ? NULL : e->pairs ? &e->pairs[m - 1] : &none;

	switch (item) {
	case PK_HIST_ORDER_SAMPLES: return p ? p->nr_samples : e->nr_samples;
	case PK_HIST_ORDER_OVERHEAD_SYS: return p ? p->period_sys : e->period_sys;
	case PK_HIST_ORDER_OVERHEAD_US: return p ? p->period_us : e->period_us;
	case PK_HIST_ORDER_OVERHEAD_GUEST_SYS: return p ? p->period_guest_sys : e->period_guest_sys;
	case PK_HIST_ORDER_OVERHEAD_GUEST_US: return p ? p->period_guest_us : e->period_guest_us;
	default: return p ? p->period : e->period;	/* Overhead, Period */
	}
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's __hpp__group_sort_idx for one field: member idx's value, then
 * every other member's but the leader's (an index out of the group's
 * range: the leader's value alone). */
static int cmp_field(const struct order_ctx *c, int item, const struct pk_hist_entry *a,
		     const struct pk_hist_entry *b)
{
	int r;

	if (c->idx < 1 || (uint32_t)c->idx >= c->nr_members)
		return cmp_u64(field(a, item, 0), field(b, item, 0));
	r = cmp_u64(field(a, item, (uint32_t)c->idx), field(b, item, (uint32_t)c->idx));
	for (uint32_t m = 1; !r && m < c->nr_members; m++)
		if ((int)m != c->idx)
			r = cmp_u64(field(a, item, m), field(b, item, m));
	return r;
}

/* Each field in turn; equal rows go by the keys: the array's order, the
 * histogram sorted by its keys. */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct order_ctx *c = arg;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct pk_hist_entry *a = pk_hist_get(c->h, ia), *b = pk_hist_get(c->h, ib);
	int r = 0;

	for (size_t i = 0; !r && i < c->nr_fields; i++)
		r = cmp_field(c, c->fields[i], a, b);
	return r ? r : ia < ib ? -1 : ia > ib;
}

const struct pk_hist_entry **report_flags4_order(const struct report_opts *o, const struct report_event *ev,
						 uint32_t nr_members, bool *nomem)
{
	static const int overhead = PK_HIST_ORDER_OVERHEAD;
	struct order_ctx c = { ev->hist, &overhead, 1, o->f4.group_sort_idx, nr_members };
	int keys[2 * PK_HIST_MAX_KEYS];
	size_t n = pk_hist_nr(ev->hist), nr_keys = 0, *idx;
	const struct pk_hist_entry **out;

	if (!o->f4.group_sort_idx || o->children || nr_members < 2)
		return NULL;
	if (o->fields_arg) {	/* -F: perf's sort fields up to the first key */
		for (c.fields = o->sort_by, c.nr_fields = 0;
		     c.nr_fields < o->nr_sort_by && o->sort_by[c.nr_fields] < PK_HIST_ORDER_KEY(0); c.nr_fields++)
			;
		for (size_t i = c.nr_fields; i < o->nr_sort_by; i++)
			if (o->sort_by[i] >= PK_HIST_ORDER_KEY(0))
				keys[nr_keys++] = o->sort_by[i];
	} else {
		for (size_t k = 0; k < o->nr_keys; k++)
			keys[nr_keys++] = PK_HIST_ORDER_KEY(o->keys[k]);
	}
	if (!c.nr_fields)
		return NULL;	/* a key first: the histogram's order */
	idx = malloc((n ? n : 1) * sizeof(*idx));
	out = malloc((n ? n : 1) * sizeof(*out));
	if (!idx || !out || pk_hist_set_order(ev->hist, keys, nr_keys) < 0 || pk_hist_sort(ev->hist) < 0) {
		free(idx);
		free(out);
		*nomem = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_rows, &c);
	for (size_t i = 0; i < n; i++)
		out[i] = pk_hist_get(ev->hist, idx[i]);
	free(idx);
	return out;
}

/* ---- --pretty raw ---------------------------------------------------------------- */

static int width_of(const char *fmt, uint64_t v)
{
	return snprintf(NULL, 0, fmt, v);
}

static int widest(int a, int b)
{
	return a > b ? a : b;
}

void report_flags4_threads_raw(FILE *f, const struct report_thread_counts *tc, const struct report_event *ev)
{
	int pidw = 3, tidw = 3, namew = 4, raww = 3, countw = 5;

	for (size_t r = 0; r < tc->nr_rows; r++) {
		pidw = widest(pidw, snprintf(NULL, 0, "%d", (int)tc->rows[r].pid));
		tidw = widest(tidw, snprintf(NULL, 0, "%d", (int)tc->rows[r].tid));
		for (size_t c = 0; c < tc->nr_cols; c++)
			countw = widest(countw, width_of("%" PRIu64, tc->rows[r].value[tc->order[c]]));
	}
	for (size_t c = 0; c < tc->nr_cols; c++) {
		namew = widest(namew, (int)strlen(ev[tc->order[c]].name));
		raww = widest(raww, width_of("%" PRIx64, tc->order[c]));	/* perf's evsel index */
	}
	fprintf(f, "# %*s  %*s  %*s  %*s  %*s\n", pidw, "PID", tidw, "TID", namew, "Name", raww, "Raw", countw,
		"Count");
	for (size_t r = 0; r < tc->nr_rows; r++)	/* perf ends no row */
		for (size_t c = 0; c < tc->nr_cols; c++)
			cli_message(f, "  %*d  %*d  %*s  %*" PRIx64 "  %*" PRIu64, pidw, (int)tc->rows[r].pid, tidw,
				    (int)tc->rows[r].tid, namew, ev[tc->order[c]].name, raww, (uint64_t)tc->order[c],
				    countw, tc->rows[r].value[tc->order[c]]);
}
