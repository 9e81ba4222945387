/* SPDX-License-Identifier: MIT */
/*
 * report-group.c - event groups in `perfkit report`, as perf report 6.1
 * shows them: the groups of the file's GROUP_DESC (or, with --group on a
 * file without any, every event in one group led by the first), the
 * samples of PERF_SAMPLE_READ split into one per member with the growth
 * of its counter since that counter's last reading as the period (what
 * makes `-e '{a,b}:S'` report every member), the members' histograms
 * linked into their leader's for one section per group, and the cells of
 * a group's Overhead/Samples/Period columns: one value per member; and
 * -T's table of the counts PERF_RECORD_READ gives each thread.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int cmp_id(const void *a, const void *b)
{
	const struct report_read_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int report_reads_init(struct report_reads *rd, struct pk_data_reader *r)
{
	size_t n = 0, nr_ev = pk_data_reader_nr_events(r), nr;

	for (size_t i = 0; i < nr_ev; i++) {
		pk_data_reader_ids(r, i, &nr);
		n += nr;
	}
	rd->nr = 0;
	if (!(rd->ids = calloc(n ? n : 1, sizeof(*rd->ids))))
		return -ENOMEM;
	for (size_t i = 0; i < nr_ev; i++) {
		const uint64_t *ids = pk_data_reader_ids(r, i, &nr);

		for (size_t k = 0; k < nr; k++)
			rd->ids[rd->nr++] = (struct report_read_id){ ids[k], 0, i };
	}
	qsort(rd->ids, rd->nr, sizeof(*rd->ids), cmp_id);
	return 0;
}

void report_reads_free(struct report_reads *rd)
{
	free(rd->ids);
	rd->ids = NULL;
	rd->nr = 0;
}

/* One counter's reading: the event its id names and the growth since
 * that id's last reading, as perf's deliver_sample_value takes it.
 * False for an id no event has (perf counts those as unknown ids). */
static bool take(struct report_reads *rd, const struct pk_count *c, struct report_read *out)
{
	struct report_read_id key = { .id = c->id }, *id;

	if (!(id = bsearch(&key, rd->ids, rd->nr, sizeof(*rd->ids), cmp_id)))
		return false;
	out->ev = id->ev;
	out->id = c->id;
	out->period = c->value - id->last;
	id->last = c->value;
	return true;
}

int report_reads_split(struct report_reads *rd, const struct perf_event_attr *attr,
		       const struct pk_read_values *rv, struct report_read *out, size_t max)
{
	struct pk_count stack[8], *c = stack;
	size_t n = 0;
	int nr;

	stack[0].size = sizeof(stack[0]);
	if (!(attr->read_format & PERF_FORMAT_ID))
		return 0;	/* no id: perf cannot tell whose reading it is, and drops it */
	nr = pk_count_parse(attr->read_format, rv->data, rv->len, c, 8);
	if (nr > 8) {
		if (!(c = calloc((size_t)nr, sizeof(*c))))
			return -ENOMEM;
		c[0].size = sizeof(*c);
		nr = pk_count_parse(attr->read_format, rv->data, rv->len, c, (size_t)nr);
	}
	for (int i = 0; i < nr && n < max; i++)
		/* perf delivers nothing for a member whose counter did not move. */
		if (take(rd, &c[i], &out[n]) && out[n].period)
			n++;
	if (c != stack)
		free(c);
	return nr < 0 ? nr : (int)n;
}

/* The name perf gives a group: "anon group { a, b }", or "NAME { a, b }";
 * for the group --group forces, "a, b". */
static char *describe(const struct report_event *ev, size_t leader, const char *name, bool forced)
{
	size_t len = strlen(name) + 8;
	char *s, *p;

	for (size_t i = 0; i < ev[leader].nr_members; i++)
		len += strlen(ev[leader + i].name) + 2;
	if (!(p = s = malloc(len)))
		return NULL;
	if (!forced)
		p += sprintf(p, "%s { ", name);
	for (size_t i = 0; i < ev[leader].nr_members; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", ev[leader + i].name);
	if (!forced)
		strcpy(p, " }");
	return s;
}

/* Make events [leader, leader + nr) one group. */
static int set_group(struct report_event *ev, size_t leader, size_t nr, const char *name, bool forced)
{
	for (size_t i = 0; i < nr; i++)
		ev[leader + i].leader = leader;
	ev[leader].nr_members = (uint32_t)nr;
	if (!(ev[leader].group_desc = describe(ev, leader, name, forced)))
		return -ENOMEM;
	return 0;
}

int report_group_setup(const struct report_opts *o, struct pk_data_reader *r, struct report_event *ev,
		       size_t nr_ev)
{
	const struct pk_feature_group_desc *gd;
	struct pk_feature *f = NULL;
	size_t nr_groups = 0;
	int err = 0;

	for (size_t i = 0; i < nr_ev; i++) {
		ev[i].leader = i;
		ev[i].nr_members = 1;
	}
	if (pk_data_reader_decode(r, PK_DATA_FEAT_GROUP_DESC, &f) == 0 && (gd = pk_feature_group_desc(f))) {
		nr_groups = gd->nr;
		for (uint32_t g = 0; g < gd->nr && !err; g++) {
			const struct pk_feature_group *grp = &gd->groups[g];
			const char *name = grp->name ? grp->name : "";

			/* A group that names events the file lacks is left out. */
			if (grp->nr_members < 2 || grp->leader_idx >= nr_ev ||
			    grp->nr_members > nr_ev - grp->leader_idx)
				continue;
			/* perf's name for an unnamed group is "{anon_group}"; any
			 * other, even "", is the group's name. */
			err = set_group(ev, grp->leader_idx, grp->nr_members,
					strcmp(name, "{anon_group}") ? name : "anon group", false);
		}
	}
	pk_feature_free(f);
	/* perf's --group (and --no-group: its "events" in the first header
	 * tells) on a file without groups: all events under the first. */
	if (!err && o->group_opt >= 0 && !nr_groups && nr_ev > 1)
		err = set_group(ev, 0, nr_ev, "", true);
	return err;
}

bool report_group_view(const struct report_opts *o, const struct report_event *ev)
{
	return o->group_opt != 0 && ev->nr_members > 1;
}

int report_group_link(const struct report_opts *o, struct report_event *ev, size_t nr_ev)
{
	int err = 0;

	for (size_t i = 0; i < nr_ev && !err; i++) {
		size_t l = ev[i].leader;

		if (l == i || !report_group_view(o, &ev[l]))
			continue;
		err = pk_hist_link(ev[l].hist, ev[i].hist, i - l - 1, ev[l].nr_members - 1);
		/* --percentage relative: a member's shares are of its own
		 * unfiltered period, as the leader's are */
		if (!err && o->f2.relative && !o->f3.hierarchy)	/* hierarchy's: report_hier_totals */
			err = pk_hist_pair_set_total(ev[l].hist, i - l - 1, report_flags2_total(o, ev[i].hist));
	}
	return err;
}

void report_group_totals(const struct report_opts *o, const struct report_event *ev, uint64_t *nr_samples,
			 uint64_t *period)
{
	size_t n = report_group_view(o, ev) ? ev->nr_members : 1;

	*nr_samples = *period = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t nr = pk_hist_nr_samples(ev[i].hist), p = pk_hist_total_period(ev[i].hist);

		report_flags2_totals(o, ev[i].hist, &nr, &p);	/* --percentage relative */
		*nr_samples += nr;
		*period += p;
	}
}

void report_percent_cell(FILE *f, int width, double pct, bool color)
{
	const char *c = color ? cli_percent_color(pct) : NULL;

	/* perf colours the whole cell, its padding included. */
	if (c)
		fputs(c, f);
	fputc(' ', f);	/* perf's " %*.2f%%": a number wider than the cell keeps the space */
	cli_put_fixed2(f, width - 2, pct);
	fputc('%', f);
	if (c)
		fputs(CLI_COLOR_RESET, f);
}

/* A member's period in one mode (-F overhead_sys...), as a share of its total. */
static double mode_share(const struct pk_hist *h, const struct pk_hist_pair *p, enum report_cell kind,
			 size_t slot)
{
	uint64_t total = pk_hist_pair_total(h, slot);
	uint64_t v = kind == REPORT_CELL_SYS ? p->period_sys : kind == REPORT_CELL_US ? p->period_us :
		     kind == REPORT_CELL_GUEST_SYS ? p->period_guest_sys : p->period_guest_us;

	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* Member slot's value in column `kind` of entry e: a count (false), or a
 * percentage (true, in *pct). */
static bool member_cell(enum report_cell kind, const struct pk_hist *h, const struct pk_hist_entry *e,
			size_t slot, uint64_t *count, double *pct)
{
	const struct pk_hist_pair none = { 0 }, *p = e->pairs ? &e->pairs[slot] : &none;

	switch (kind) {
	case REPORT_CELL_CHILDREN: *pct = pk_hist_pair_percent_acc(h, e, slot); return true;
	case REPORT_CELL_OVERHEAD: *pct = pk_hist_pair_percent(h, e, slot); return true;
	case REPORT_CELL_SAMPLES: *count = p->nr_samples; return false;
	case REPORT_CELL_PERIOD: *count = p->period; return false;
	default: *pct = mode_share(h, p, kind, slot); return true;
	}
}

void report_group_cells(FILE *f, enum report_cell kind, int width, const struct pk_hist *h,
			const struct pk_hist_entry *e, uint32_t nr_members, bool color)
{
	for (uint32_t i = 0; i + 1 < nr_members; i++) {
		uint64_t count;
		double pct;

		if (member_cell(kind, h, e, i, &count, &pct))
			report_percent_cell(f, width, pct, color);
		else
			fprintf(f, "%*" PRIu64, width, count);
	}
}

void report_group_sep_cells(FILE *f, enum report_cell kind, const struct pk_hist *h,
			    const struct pk_hist_entry *e, uint32_t nr_members)
{
	for (uint32_t i = 0; i + 1 < nr_members; i++) {
		uint64_t count;
		double pct;

		if (member_cell(kind, h, e, i, &count, &pct))
			fprintf(f, " %.2f%%", pct);
		else
			fprintf(f, " %" PRIu64, count);
	}
}

void report_time_span(struct pk_data_reader *r, uint64_t *first, uint64_t *last)
{
	const struct pk_feature_sample_time *st;
	struct pk_feature *f = NULL;

	*first = *last = 0;
	if (pk_data_reader_decode(r, PK_DATA_FEAT_SAMPLE_TIME, &f) == 0 && (st = pk_feature_sample_time(f)) &&
	    st->last_ns >= st->first_ns) {
		*first = st->first_ns;
		*last = st->last_ns;
	}
	pk_feature_free(f);
}

/* ---- -T: the counts PERF_RECORD_READ gives per thread ------------------------ */

/* The row of thread pid/tid, made (all zero) on first sight. */
static int thread_row(struct report_thread_counts *tc, uint32_t pid, uint32_t tid, size_t *row)
{
	uint64_t *v;
	struct report_thread_row *t;

	for (*row = 0; *row < tc->nr_rows; (*row)++)
		if (tc->rows[*row].pid == pid && tc->rows[*row].tid == tid)
			return 0;
	if (!(t = realloc(tc->rows, (tc->nr_rows + 1) * sizeof(*t))))
		return -ENOMEM;
	tc->rows = t;
	if (!(v = calloc(tc->nr_ev ? tc->nr_ev : 1, sizeof(*v))))
		return -ENOMEM;
	t[tc->nr_rows++] = (struct report_thread_row){ pid, tid, v };
	return 0;
}

int report_threads_add(struct report_thread_counts *tc, size_t ev, const struct pk_rec_read *rd)
{
	uint64_t value = 0;
	size_t row;
	int err;

	if (ev >= tc->nr_ev)
		return 0;
	/* perf takes the record's first u64: the count, for one counter. */
	if (rd->values.len >= sizeof(value))
		memcpy(&value, rd->values.data, sizeof(value));
	if ((err = thread_row(tc, rd->pid, rd->tid, &row)) < 0)
		return err;
	if (!tc->seen[ev]) {
		tc->seen[ev] = true;
		tc->order[tc->nr_cols++] = ev;
	}
	tc->rows[row].value[ev] += value;
	return 0;
}

static int digits(int64_t v, bool is_signed)
{
	return is_signed ? snprintf(NULL, 0, "%" PRId64, v) : snprintf(NULL, 0, "%" PRIu64, (uint64_t)v);
}

static int widest(int w, int v)
{
	return v > w ? v : w;
}

int report_threads_print(FILE *f, const struct report_thread_counts *tc, const struct report_event *ev)
{
	int pidw = 3, tidw = 3, *w = calloc(tc->nr_cols ? tc->nr_cols : 1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	for (size_t c = 0; c < tc->nr_cols; c++)
		w[c] = (int)strlen(ev[tc->order[c]].name);
	for (size_t r = 0; r < tc->nr_rows; r++) {
		pidw = widest(pidw, digits((int32_t)tc->rows[r].pid, true));
		tidw = widest(tidw, digits((int32_t)tc->rows[r].tid, true));
		for (size_t c = 0; c < tc->nr_cols; c++)
			w[c] = widest(w[c], digits((int64_t)tc->rows[r].value[tc->order[c]], false));
	}
	fprintf(f, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t c = 0; c < tc->nr_cols; c++)
		cli_message(f, "  %*s", w[c], ev[tc->order[c]].name);
	fputc('\n', f);
	for (size_t r = 0; r < tc->nr_rows; r++) {
		fprintf(f, "  %*d  %*d", pidw, (int)tc->rows[r].pid, tidw, (int)tc->rows[r].tid);
		for (size_t c = 0; c < tc->nr_cols; c++)
			fprintf(f, "  %*" PRIu64, w[c], tc->rows[r].value[tc->order[c]]);
		fputc('\n', f);
	}
	free(w);
	return 0;
}

int report_threads_init(struct report_thread_counts *tc, size_t nr_ev)
{
	*tc = (struct report_thread_counts){ .nr_ev = nr_ev };
	tc->seen = calloc(nr_ev ? nr_ev : 1, sizeof(*tc->seen));
	tc->order = calloc(nr_ev ? nr_ev : 1, sizeof(*tc->order));
	return tc->seen && tc->order ? 0 : -ENOMEM;
}

void report_threads_free(struct report_thread_counts *tc)
{
	for (size_t r = 0; r < tc->nr_rows; r++)
		free(tc->rows[r].value);
	free(tc->rows);
	free(tc->seen);
	free(tc->order);
	*tc = (struct report_thread_counts){ 0 };
}
