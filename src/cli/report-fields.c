/* SPDX-License-Identifier: MIT */
/*
 * report-fields.c - perf report's -F/--fields: which columns print, in
 * which order, and what the rows sort by, with perf 6.1's rules (its
 * setup_sorting): -F FIELDS prints exactly those, then any --sort key
 * they leave out, and sorts by the --sort keys (or by the fields
 * themselves when --sort is not given), then by the other fields; -F
 * +FIELDS adds to perf's default columns and keeps its default order
 * (Children, Overhead, then the keys).
 */
#include "report.h"
#include "sort-names.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int item;
} field_names[] = {
	{ "overhead", PK_HIST_ORDER_OVERHEAD },
	{ "overhead_sys", PK_HIST_ORDER_OVERHEAD_SYS },
	{ "overhead_us", PK_HIST_ORDER_OVERHEAD_US },
	{ "overhead_guest_sys", PK_HIST_ORDER_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", PK_HIST_ORDER_OVERHEAD_GUEST_US },
	{ "overhead_children", PK_HIST_ORDER_CHILDREN },
	{ "sample", PK_HIST_ORDER_SAMPLES },
	{ "period", PK_HIST_ORDER_PERIOD },
	{ "comm", PK_HIST_ORDER_KEY(PK_HIST_KEY_COMM) },
	{ "pid", PK_HIST_ORDER_KEY(PK_HIST_KEY_PID) },
	{ "tid", PK_HIST_ORDER_KEY(PK_HIST_KEY_TID) },
	{ "dso", PK_HIST_ORDER_KEY(PK_HIST_KEY_DSO) },
	{ "sym", PK_HIST_ORDER_KEY(PK_HIST_KEY_SYM) },
	{ "symbol", PK_HIST_ORDER_KEY(PK_HIST_KEY_SYM) },
	{ "cpu", PK_HIST_ORDER_KEY(PK_HIST_KEY_CPU) },
	{ "parent", PK_HIST_ORDER_KEY(PK_HIST_KEY_PARENT) },
	{ "time", PK_HIST_ORDER_KEY(PK_HIST_KEY_TIME) },	/* report-sort2.c's */
	{ "symbol_size", PK_HIST_ORDER_KEY(PK_HIST_KEY_SYM_SIZE) },
	{ "socket", PK_HIST_ORDER_KEY(PK_HIST_KEY_SOCKET) },
	{ "trace", PK_HIST_ORDER_KEY(PK_HIST_KEY_TRACE) },
	{ "cgroup", PK_HIST_ORDER_KEY(PK_HIST_KEY_CGROUP) },
	{ "weight", PK_HIST_ORDER_KEY(PK_HIST_KEY_WEIGHT) },
	{ "local_weight", PK_HIST_ORDER_KEY(PK_HIST_KEY_LOCAL_WEIGHT) },
	{ "ins_lat", PK_HIST_ORDER_KEY(PK_HIST_KEY_INS_LAT) },
	{ "local_ins_lat", PK_HIST_ORDER_KEY(PK_HIST_KEY_LOCAL_INS_LAT) },
	{ "p_stage_cyc", PK_HIST_ORDER_KEY(PK_HIST_KEY_P_STAGE_CYC) },
	{ "local_p_stage_cyc", PK_HIST_ORDER_KEY(PK_HIST_KEY_LOCAL_P_STAGE_CYC) },
	/* --mem-mode's (report-mem.c) */
	{ "symbol_daddr", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_DADDR_SYM) },
	{ "symbol_iaddr", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_IADDR_SYM) },
	{ "dso_daddr", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_DADDR_DSO) },
	{ "locked", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_LOCKED) },
	{ "tlb", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_TLB) },
	{ "mem", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_LVL) },
	{ "snoop", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_SNOOP) },
	{ "dcacheline", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_DCACHELINE) },
	{ "phys_daddr", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_PHYS_DADDR) },
	{ "data_page_size", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_DATA_PAGE_SIZE) },
	{ "blocked", PK_HIST_ORDER_KEY(PK_HIST_KEY_MEM_BLOCKED) },
	{ "dso_size", PK_HIST_ORDER_KEY(PK_HIST_KEY_DSO_SIZE) },	/* report-sort3.c's */
	{ "cgroup_id", PK_HIST_ORDER_KEY(PK_HIST_KEY_CGROUP_ID) },
	{ "transaction", PK_HIST_ORDER_KEY(PK_HIST_KEY_TRANSACTION) },
	{ "code_page_size", PK_HIST_ORDER_KEY(PK_HIST_KEY_CODE_PAGE_SIZE) },
	{ "addr", PK_HIST_ORDER_KEY(PK_HIST_KEY_ADDR) },
};
#define NR_FIELD_NAMES (sizeof(field_names) / sizeof(field_names[0]))
#define MAX_ITEMS (sizeof(((struct report_opts *)0)->out) / sizeof(int))

static bool has(const int *list, size_t nr, int item)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == item)
			return true;
	return false;
}

/* Append item to list unless there (perf's lists hold each field once). */
static void add(int *list, size_t *nr, int item)
{
	if (!has(list, *nr, item) && *nr < MAX_ITEMS)
		list[(*nr)++] = item;
}

/* -F's words into o->out (after what is there), read as perf reads them:
 * split on commas and spaces, each a prefix of a field or key name. */
static int parse_fields(struct report_opts *o, const char *arg)
{
	const char *names[NR_FIELD_NAMES], *p = arg, *word;
	size_t len;
	int k;

	for (size_t i = 0; i < NR_FIELD_NAMES; i++)
		names[i] = field_names[i].name;
	while ((len = sort_word_next(&p, &word, 0))) {
		if ((k = sort_name_find_mode("report", "-F field", word, len, names, NR_FIELD_NAMES, o->mem_mode)) < 0)
			return -k;
		add(o->out, &o->nr_out, field_names[k].item);
	}
	return 0;
}

/* A --sort key as an item: perfkit's `period` key is perf's period field. */
static int key_item(enum pk_hist_key k)
{
	return k == PK_HIST_KEY_PERIOD ? PK_HIST_ORDER_PERIOD : PK_HIST_ORDER_KEY(k);
}

int report_fields_setup(struct report_opts *o)
{
	bool strict = o->fields_arg && o->fields_arg[0] != '+';
	int sort[MAX_ITEMS];
	size_t nr_sort = 0;
	int err;

	if (!o->fields_arg) {
		report_sort3_fields(o);	/* perf's output fields in --sort */
		return 0;
	}
	o->nr_out = 0;
	/* perf's sort order: Children and Overhead first, unless -F is strict;
	 * with a strict -F and no --sort, nothing yet. */
	if (!strict) {
		if (o->children)
			add(sort, &nr_sort, PK_HIST_ORDER_CHILDREN);
		add(sort, &nr_sort, PK_HIST_ORDER_OVERHEAD);
	}
	if (!strict || o->sort_given)
		for (size_t i = 0; i < o->nr_keys; i++)
			add(sort, &nr_sort, key_item(o->keys[i]));
	/* The columns: perf's defaults unless strict, then -F's. */
	if (!strict) {
		if (o->children)
			add(o->out, &o->nr_out, PK_HIST_ORDER_CHILDREN);
		add(o->out, &o->nr_out, PK_HIST_ORDER_OVERHEAD);
		if (o->show_nr)
			add(o->out, &o->nr_out, PK_HIST_ORDER_SAMPLES);
		if (o->show_period)
			add(o->out, &o->nr_out, PK_HIST_ORDER_PERIOD);
	}
	if ((err = parse_fields(o, o->fields_arg + !strict)))
		return err;
	/* perf copies the sort keys to the columns, then the columns to the
	 * sort keys; the histogram groups by the keys among them. */
	for (size_t i = 0; i < nr_sort; i++)
		add(o->out, &o->nr_out, sort[i]);
	for (size_t i = 0; i < o->nr_out; i++)
		add(sort, &nr_sort, o->out[i]);
	o->nr_keys = 0;
	for (size_t i = 0; i < nr_sort; i++)
		if (sort[i] >= PK_HIST_ORDER_KEY(0) && o->nr_keys < PK_HIST_MAX_KEYS)
			o->keys[o->nr_keys++] = (enum pk_hist_key)(sort[i] - PK_HIST_ORDER_KEY(0));
	memcpy(o->sort_by, sort, nr_sort * sizeof(*sort));
	o->nr_sort_by = nr_sort;
	/* perf names the Overhead column Self beside Children only by default. */
	o->self_header = o->children && !strict;
	return 0;
}

static bool one_name(char *const *list)
{
	return list && list[0] && !list[1];
}

/* Whether perf elides key k's column: its filter names one value. */
static bool elided(const struct report_opts *o, enum pk_hist_key k)
{
	return (k == PK_HIST_KEY_COMM && one_name(o->comms)) || (k == PK_HIST_KEY_DSO && one_name(o->dsos)) ||
	       (k == PK_HIST_KEY_SYM && one_name(o->syms));
}

size_t report_fields_order(const struct report_opts *o, int *order)
{
	int all[2 * PK_HIST_MAX_KEYS];
	size_t nr = 0, n = 0, kept = 0;

	if (o->nr_sort_by) {
		memcpy(all, o->sort_by, o->nr_sort_by * sizeof(*all));
		nr = o->nr_sort_by;
	} else {
		if (o->children)
			all[nr++] = PK_HIST_ORDER_CHILDREN;
		all[nr++] = PK_HIST_ORDER_OVERHEAD;
		for (size_t i = 0; i < o->nr_keys && nr < 2 * PK_HIST_MAX_KEYS; i++)
			all[nr++] = PK_HIST_ORDER_KEY(o->keys[i]);
	}
	for (size_t i = 0; i < nr; i++) {
		bool key = all[i] >= PK_HIST_ORDER_KEY(0);

		if (key && elided(o, (enum pk_hist_key)(all[i] - PK_HIST_ORDER_KEY(0))))
			continue;
		kept += key;
		order[n++] = all[i];
	}
	if (n < nr && kept)
		return n;
	/* nothing elided (or every key, and so none): o->sort_by as it is */
	memcpy(order, o->sort_by, o->nr_sort_by * sizeof(*order));
	return o->nr_sort_by;
}

/* ---- --sort parent, -p, -x ------------------------------------------------------ */

int report_parent_setup(struct report_opts *o, struct pk_data_reader *r)
{
	bool want = false, chains = false;
	int err;

	for (size_t i = 0; i < o->nr_keys; i++)
		want |= o->keys[i] == PK_HIST_KEY_PARENT;
	if (!want)	/* perf finds parents for the key only (-x alone hides all) */
		return 0;
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		chains |= (pk_data_reader_attr(r, i)->sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
	if (!chains) {
		cli_message(stderr, "perfkit report: --sort parent needs call chains, and %s has none "
			    "(record with -g)\n", o->input);
		return CLI_EXIT_EVENT;
	}
	if ((err = regcomp(&o->parent_re, o->parent_arg ? o->parent_arg : "^sys_|^do_page_fault",
			   REG_EXTENDED | REG_NOSUB))) {
		char why[128];

		regerror(err, &o->parent_re, why, sizeof(why));
		return cli_usage("report", "-p '%s' is not a regular expression: %s",
				 o->parent_arg ? o->parent_arg : "", why);
	}
	o->parent_on = true;
	return 0;
}

const char *report_parent_of(const struct report_opts *o, const struct pk_resolved_sample *rs)
{
	for (size_t k = 0; o->parent_on && k < rs->nr_frames; k++) {
		/* perf looks in the order the chains print: callers first in caller order. */
		const struct pk_frame *f = &rs->frames[o->cg.caller ? rs->nr_frames - 1 - k : k];

		if (f->loc.sym && !regexec(&o->parent_re, f->loc.sym, 0, NULL, 0))
			return f->loc.sym;
	}
	return NULL;
}

void report_parent_free(struct report_opts *o)
{
	if (o->parent_on)
		regfree(&o->parent_re);
	o->parent_on = false;
}
