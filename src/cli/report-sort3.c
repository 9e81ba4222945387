/* SPDX-License-Identifier: MIT */
/*
 * report-sort3.c - perf 6.1's last common report --sort keys: dso_size
 * (the size of the sample's map, "unknown" without one), cgroup_id (the
 * device and inode of the thread's cgroup namespace, from the file's
 * NAMESPACES records, "dev/0xino"), transaction (the sample's
 * PERF_SAMPLE_TRANSACTION flags as perf names them, and the abort code),
 * code_page_size (PERF_SAMPLE_CODE_PAGE_SIZE as "4K", "2M", "N/A" for
 * none) and addr (the address as sampled): their fields of a sample,
 * their headers, widths and cells (util/sort.c's sort_dso_size,
 * sort_cgroup_id, sort_transaction, sort_code_page_size, sort_addr).  The
 * histogram groups and orders them (hist-keys2.c).  And perf's output
 * fields named in --sort (overhead and its forms, overhead_children,
 * sample): columns and a place in the rows' order, no grouping.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Each thread's cgroup namespace link, the latest NAMESPACES record's
 * (perf's thread__namespaces), by thread id. */
struct report_ns {
	struct {
		uint32_t tid;
		uint64_t dev, ino;
	} *v;
	size_t nr, cap, last;
};

int report_sort3_setup(struct report_opts *o)
{
	bool want = o->fields_arg && strstr(o->fields_arg, "cgroup_");	/* -F's keys come later */

	for (size_t i = 0; i < o->nr_keys; i++)
		want |= o->keys[i] == PK_HIST_KEY_CGROUP_ID;
	if (want && !o->ns && !(o->ns = calloc(1, sizeof(*o->ns)))) {
		cli_message(stderr, "perfkit report: out of memory\n");
		return CLI_EXIT_EVENT;
	}
	return 0;
}

void report_sort3_free(struct report_opts *o)
{
	if (o->ns)
		free(o->ns->v);
	free(o->ns);
	o->ns = NULL;
}

static size_t ns_find(struct report_ns *ns, uint32_t tid)
{
	if (ns->last < ns->nr && ns->v[ns->last].tid == tid)
		return ns->last;
	for (size_t i = 0; i < ns->nr; i++)
		if (ns->v[i].tid == tid)
			return ns->last = i;
	return ns->nr;
}

int report_sort3_namespaces(const struct report_opts *o, const struct pk_rec_namespaces *n)
{
	struct report_ns *ns = o->ns;
	size_t i;

	if (!ns || n->nr <= CGROUP_NS_INDEX || !n->links)
		return 0;	/* perf reads a link past the record's: none here */
	if ((i = ns_find(ns, n->tid)) == ns->nr) {
		if (ns->nr == ns->cap) {
			size_t cap = ns->cap ? 2 * ns->cap : 64;
			void *v = realloc(ns->v, cap * sizeof(*ns->v));

			if (!v)
				return -ENOMEM;
			ns->v = v;
			ns->cap = cap;
		}
		ns->v[ns->nr++].tid = n->tid;
	}
	ns->v[i].dev = n->links[CGROUP_NS_INDEX].dev;
	ns->v[i].ino = n->links[CGROUP_NS_INDEX].ino;
	return 0;
}

void report_sort3_fill(const struct report_opts *o, const struct pk_sample *smp, uint32_t tid,
		       struct pk_hist_sample *s)
{
	size_t i;

	s->cgroup_dev = s->cgroup_ino = 0;	/* perf's: a thread without namespaces */
	if (o->ns && (i = ns_find(o->ns, tid)) < o->ns->nr) {
		s->cgroup_dev = o->ns->v[i].dev;
		s->cgroup_ino = o->ns->v[i].ino;
	}
	s->transaction = smp->fields & PERF_SAMPLE_TRANSACTION ? smp->transaction : 0;
	s->code_page_size = smp->fields & PERF_SAMPLE_CODE_PAGE_SIZE ? smp->code_page_size : 0;
	s->addr = smp->ip;
}

const char *report_sort3_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_DSO_SIZE: return "DSO size";
	case PK_HIST_KEY_CGROUP_ID: return "cgroup id (dev/inode)";
	case PK_HIST_KEY_TRANSACTION: return "Transaction                ";
	case PK_HIST_KEY_CODE_PAGE_SIZE: return "Code Page Size";
	case PK_HIST_KEY_ADDR: return "Address";
	default: return "?";
	}
}

/* perf's txbits, and whether hist_entry__transaction_len counts each. */
static const struct {
	uint64_t flag;
	const char *name;
	bool skip_for_len;
} txbits[] = {
	{ PERF_TXN_ELISION, "EL ", false }, { PERF_TXN_TRANSACTION, "TX ", true },
	{ PERF_TXN_SYNC, "SYNC ", true }, { PERF_TXN_ASYNC, "ASYNC ", false },
	{ PERF_TXN_RETRY, "RETRY ", false }, { PERF_TXN_CONFLICT, "CON ", false },
	{ PERF_TXN_CAPACITY_WRITE, "CAP-WRITE ", true }, { PERF_TXN_CAPACITY_READ, "CAP-READ ", false },
};
#define NR_TXBITS (sizeof(txbits) / sizeof(txbits[0]))

int report_sort3_width(enum pk_hist_key k, bool any_transaction)
{
	int len = 4;	/* perf's ":XX<space>" */

	switch (k) {
	case PK_HIST_KEY_CGROUP_ID: return 20;
	case PK_HIST_KEY_ADDR: return 18;	/* BITS_PER_LONG / 4 + 2 */
	case PK_HIST_KEY_CODE_PAGE_SIZE: return 6;
	case PK_HIST_KEY_TRANSACTION:	/* perf's, once an entry has a transaction */
		if (!any_transaction)
			return 0;
		for (size_t i = 0; i < NR_TXBITS; i++)
			len += txbits[i].skip_for_len ? 0 : (int)strlen(txbits[i].name);
		return len;
	default: return 0;
	}
}

/* perf's hist_entry__transaction_snprintf text. */
static void transaction_text(uint64_t t, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NR_TXBITS; i++)
		if (t & txbits[i].flag)
			at += (size_t)snprintf(buf + at, size - at, "%s", txbits[i].name);
	if (t && !(t & (PERF_TXN_SYNC | PERF_TXN_ASYNC)))
		at += (size_t)snprintf(buf + at, size - at, "NEITHER ");
	if (t & PERF_TXN_ABORT_MASK)
		snprintf(buf + at, size - at, ":%" PRIx64, (t & PERF_TXN_ABORT_MASK) >> PERF_TXN_ABORT_SHIFT);
}

/* perf's get_page_size_name: unit_number__scnprintf, "N/A" for 0. */
static void page_size_text(uint64_t n, char *buf, size_t size)
{
	int unit = 0;

	if (!n) {
		snprintf(buf, size, "N/A");
		return;
	}
	while (n / 1024 > 1 && unit < 3) {
		n /= 1024;
		unit++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, "BKMG"[unit]);
}

void report_sort3_print(FILE *f, enum pk_hist_key k, int w, const struct pk_hist_entry *e, bool last)
{
	char t[160];

	switch (k) {
	case PK_HIST_KEY_DSO_SIZE:	/* perf's "%*d" of map__size */
		if (e->s.dso_size)
			fprintf(f, "%*d", w, (int)e->s.dso_size);
		else
			fprintf(f, "%*s", w, "unknown");
		break;
	case PK_HIST_KEY_CGROUP_ID:	/* "%lu/0x%lx", padded but in the last column */
		snprintf(t, sizeof(t), "%" PRIu64 "/0x%" PRIx64, e->s.cgroup_dev, e->s.cgroup_ino);
		fprintf(f, "%-*s", last ? 0 : w, t);
		break;
	case PK_HIST_KEY_TRANSACTION:
		transaction_text(e->s.transaction, t, sizeof(t));
		fprintf(f, "%-*s", w, t);
		break;
	case PK_HIST_KEY_CODE_PAGE_SIZE:
		page_size_text(e->s.code_page_size, t, sizeof(t));
		fprintf(f, "%-*s", w, t);
		break;
	case PK_HIST_KEY_ADDR:	/* perf's "%-#*llx", padded in the last column too */
		fprintf(f, "%-#*" PRIx64, w, e->s.addr);
		break;
	default:
		break;
	}
}

/* ---- perf's output fields in --sort ------------------------------------------------ */

static const struct {
	const char *name;
	int item;
} hpp_items[] = {
	{ "overhead", PK_HIST_ORDER_OVERHEAD }, { "overhead_sys", PK_HIST_ORDER_OVERHEAD_SYS },
	{ "overhead_us", PK_HIST_ORDER_OVERHEAD_US }, { "overhead_guest_sys", PK_HIST_ORDER_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", PK_HIST_ORDER_OVERHEAD_GUEST_US }, { "overhead_children", PK_HIST_ORDER_CHILDREN },
	{ "sample", PK_HIST_ORDER_SAMPLES },
};

static void add_item(int *list, size_t *nr, size_t cap, int item)
{
	for (size_t i = 0; i < *nr; i++)
		if (list[i] == item)
			return;
	if (*nr < cap)
		list[(*nr)++] = item;
}

bool report_sort3_item(struct report_opts *o, const char *perf)
{
	size_t cap = sizeof(o->sort_items) / sizeof(o->sort_items[0]);

	for (size_t i = 0; i < sizeof(hpp_items) / sizeof(hpp_items[0]); i++) {
		if (strcmp(perf, hpp_items[i].name))
			continue;
		add_item(o->sort_items, &o->nr_sort_items, cap, hpp_items[i].item);
		o->sort_hpp = true;
		return true;
	}
	return false;	/* period: perfkit's key */
}

void report_sort3_fields(struct report_opts *o)
{
	size_t cap = sizeof(o->out) / sizeof(o->out[0]), nr_sort = 0;
	int sort[sizeof(o->sort_by) / sizeof(o->sort_by[0])];

	if (o->fields_arg || !o->sort_hpp)
		return;
	/* perf's setup_overhead: prefix_if_not_in("overhead"), then
	 * ("overhead_children") before it, each by strstr of --sort */
	if (o->children && !strstr(o->sort_arg, "overhead_children"))
		add_item(sort, &nr_sort, cap, PK_HIST_ORDER_CHILDREN);
	if (!strstr(o->sort_arg, "overhead"))
		add_item(sort, &nr_sort, cap, PK_HIST_ORDER_OVERHEAD);
	for (size_t i = 0; i < o->nr_sort_items; i++)
		add_item(sort, &nr_sort, cap, o->sort_items[i]);
	/* perf_hpp__init's columns, then the sort list's others */
	o->nr_out = 0;
	if (o->children)
		add_item(o->out, &o->nr_out, cap, PK_HIST_ORDER_CHILDREN);
	add_item(o->out, &o->nr_out, cap, PK_HIST_ORDER_OVERHEAD);
	if (o->show_nr)
		add_item(o->out, &o->nr_out, cap, PK_HIST_ORDER_SAMPLES);
	if (o->show_period)
		add_item(o->out, &o->nr_out, cap, PK_HIST_ORDER_PERIOD);
	for (size_t i = 0; i < nr_sort; i++)
		add_item(o->out, &o->nr_out, cap, sort[i]);
	for (size_t i = 0; i < o->nr_out; i++)	/* perf_hpp__append_sort_keys */
		add_item(sort, &nr_sort, cap, o->out[i]);
	/* perf_hpp__cancel_cumulate: Children on by default but the file
	 * has no chains, every Children column goes (not the sort field) */
	for (size_t i = 0; !o->children && o->children_opt != 0 && i < o->nr_out; i++)
		if (o->out[i] == PK_HIST_ORDER_CHILDREN)
			memmove(&o->out[i], &o->out[i + 1], (--o->nr_out - i) * sizeof(*o->out));
	memcpy(o->sort_by, sort, nr_sort * sizeof(*sort));
	o->nr_sort_by = nr_sort;
	o->self_header = o->children;
}
