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
 * histogram groups and orders them (hist-keys2.c).
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
