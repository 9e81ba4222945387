/* SPDX-License-Identifier: MIT */
/*
 * report-branch2.c - branch mode's sort keys and tables (perf 6.1's
 * util/sort.c branch keys with the common ones it allows beside them):
 * each key's comparison, header, column width and text as perf has them,
 * and perf's three red-black trees built the way perf builds them (its
 * hists__findnew_entry, hists__collapse_resort and output resort, with the
 * kernel's insertion rebalancing), because some of perf's branch
 * comparisons (mispredict, in_tx, abort) only say "equal" or "not", so
 * which entries merge and the order of rows depend on the trees' shapes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pager.h"
#include "report-branch2.h"
#include "sort-names.h"

enum br_key {
	BRK_OVERHEAD, BRK_PID, BRK_COMM, BRK_DSO, BRK_SYM, BRK_DSO_FROM, BRK_DSO_TO, BRK_SYM_FROM,
	BRK_SYM_TO, BRK_MISPREDICT, BRK_IN_TX, BRK_ABORT, BRK_CYCLES, BRK_ADDR_FROM, BRK_ADDR_TO, BRK_PARENT,
	BRK_CPU, BRK_SAMPLE, BRK_PERIOD, BRK_SRCLINE_FROM, BRK_SRCLINE_TO, BRK_NR
};

static const struct {
	const char *name, *header;
} keys[BRK_NR] = {
	[BRK_OVERHEAD] = { "overhead", "Overhead" },
	[BRK_PID] = { "pid", "    Pid:Command" },
	[BRK_COMM] = { "comm", "Command" },
	[BRK_DSO] = { "dso", "Shared Object" },
	[BRK_SYM] = { "symbol", "Symbol" },
	[BRK_DSO_FROM] = { "dso_from", "Source Shared Object" },
	[BRK_DSO_TO] = { "dso_to", "Target Shared Object" },
	[BRK_SYM_FROM] = { "symbol_from", "Source Symbol" },
	[BRK_SYM_TO] = { "symbol_to", "Target Symbol" },
	[BRK_MISPREDICT] = { "mispredict", "Branch Mispredicted" },
	[BRK_IN_TX] = { "in_tx", "Branch in transaction" },
	[BRK_ABORT] = { "abort", "Transaction abort" },
	[BRK_CYCLES] = { "cycles", "Basic Block Cycles" },
	[BRK_ADDR_FROM] = { "addr_from", "Source Address" },
	[BRK_ADDR_TO] = { "addr_to", "Target Address" },
	[BRK_PARENT] = { "parent", "Parent symbol" },
	[BRK_CPU] = { "cpu", "CPU" },
	[BRK_SAMPLE] = { "sample", "Samples" },
	[BRK_PERIOD] = { "period", "Period" },
	[BRK_SRCLINE_FROM] = { "srcline_from", "From Source:Line" },
	[BRK_SRCLINE_TO] = { "srcline_to", "To Source:Line" },
};

/* perf's hpp columns: right-aligned numbers, compared only when sorting. */
static bool hpp(int key)
{
	return key == BRK_OVERHEAD || key == BRK_SAMPLE || key == BRK_PERIOD;
}

static int find_key(const char *word, size_t len, const char *what)
{
	enum sort_table table;
	const char *name = sort_name_match(word, len, &table);

	for (int i = 0; name && i < BRK_NR; i++)
		if (!strcmp(name, keys[i].name))
			return i;
	if (name && table == SORT_TABLE_MEMORY)
		return -cli_usage("report", "Invalid %s: `%.*s'", what, (int)len, word);
	if (name)
		return -cli_usage("report", "%s '%.*s' (perf's '%s') is not one perfkit's branch mode has", what,
				  (int)len, word, name);
	return -cli_usage("report", "Invalid %s: `%.*s'", what, (int)len, word);
}

bool br_sort_names(const char *arg, const char *name)
{
	const char *p = arg, *word, *full;
	enum sort_table table;
	size_t len;

	while (arg && (len = sort_word_next(&p, &word, 1)))
		if ((full = sort_name_match(word, len, &table)) && !strcmp(full, name))
			return true;
	return false;
}

/* The first word of arg naming a key of perf's branch table: its length
 * (at *word), 0 if none does. */
static size_t branch_word(const char *arg, const char **word)
{
	const char *p = arg;
	enum sort_table table;
	size_t len;

	while (arg && (len = sort_word_next(&p, word, 1)))
		if (sort_name_match(*word, len, &table) && table == SORT_TABLE_BRANCH)
			return len;
	return 0;
}

int br_keys_refuse(const char *arg, const char *what)
{
	const char *word;
	size_t len = branch_word(arg, &word);

	return len ? cli_usage("report", "Invalid %s: `%.*s'", what, (int)len, word) : 0;
}

bool br_sort_has_branch_key(const char *arg)
{
	const char *word;

	return branch_word(arg, &word) != 0;
}

static bool listed(const int *list, size_t nr, int key)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == key)
			return true;
	return false;
}

/* Words of arg into list (each once, as perf takes a key once). */
static int parse_list(const char *arg, int *list, size_t *nr, const char *what)
{
	const char *p = arg, *word;
	size_t len;
	int key;

	while ((len = sort_word_next(&p, &word, 1))) {
		if ((key = find_key(word, len, what)) < 0)
			return -key;
		if (listed(list, *nr, key))
			continue;
		if (*nr == BR_MAX_KEYS)
			return cli_usage("report", "more than %d %ss", BR_MAX_KEYS, what);
		list[(*nr)++] = key;
	}
	return 0;
}

static void add(int *list, size_t *nr, int key)
{
	if (!listed(list, *nr, key) && *nr < BR_MAX_KEYS)
		list[(*nr)++] = key;
}

int br_keys_setup(struct br_keys *k, const char *sort, const char *fields, unsigned int flags)
{
	bool strict = fields && fields[0] != '+';
	int list[BR_MAX_KEYS];
	size_t nr = 0;
	int err;

	memset(k, 0, sizeof(*k));
	k->flag_out[0] = "N/A";
	/* perf's setup_overhead: Overhead first unless -F is strict or
	 * --sort names it; its default branch keys without --sort. */
	if (!strict && !(sort && br_sort_names(sort, "overhead")))
		add(k->sort, &k->nr_sort, BRK_OVERHEAD);
	if (sort || !strict) {
		if ((err = parse_list(sort ? sort : REPORT_SORT_BRANCH, list, &nr,
				      "--sort key")))
			return err;
		for (size_t i = 0; i < nr; i++)
			add(k->sort, &k->nr_sort, list[i]);
	}
	if (flags & BR_KEYS_PARENT)	/* perf's -p: the parent key after the others */
		add(k->sort, &k->nr_sort, BRK_PARENT);
	if (!strict) {	/* perf's output fields: Overhead, -n's, --show-total-period's */
		add(k->col, &k->nr_col, BRK_OVERHEAD);
		if (flags & BR_KEYS_SAMPLES)
			add(k->col, &k->nr_col, BRK_SAMPLE);
		if (flags & BR_KEYS_PERIOD)
			add(k->col, &k->nr_col, BRK_PERIOD);
	}
	nr = 0;
	if (fields && (err = parse_list(fields + !strict, list, &nr, "--fields key")))
		return err;
	for (size_t i = 0; i < nr; i++)
		add(k->col, &k->nr_col, list[i]);
	/* perf copies the sort keys to the columns, then the columns to the keys. */
	for (size_t i = 0; i < k->nr_sort; i++)
		add(k->col, &k->nr_col, k->sort[i]);
	for (size_t i = 0; i < k->nr_col; i++)
		add(k->sort, &k->nr_sort, k->col[i]);
	k->srclines = listed(k->sort, k->nr_sort, BRK_SRCLINE_FROM) || listed(k->sort, k->nr_sort, BRK_SRCLINE_TO);
	k->has_dso = listed(k->sort, k->nr_sort, BRK_DSO);
	k->need_collapse = listed(k->sort, k->nr_sort, BRK_COMM);
	return 0;
}

void br_keys_elide(struct br_keys *k, FILE *f, const char *comm, const char *dso, const char *sym)
{
	bool all = true;

	for (size_t i = 0; i < k->nr_col; i++) {
		k->elide[i] = (k->col[i] == BRK_COMM && comm) || (k->col[i] == BRK_DSO && dso) ||
			      (k->col[i] == BRK_SYM && sym);
		all &= k->elide[i];
	}
	for (size_t i = 0; i < k->nr_col; i++) {
		if (all)
			k->elide[i] = false;
		else if (k->elide[i] && f)
			fprintf(f, "# %s: %s\n", keys[k->col[i]].name,
				k->col[i] == BRK_COMM ? comm : k->col[i] == BRK_DSO ? dso : sym);
	}
}

static int64_t cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

/* perf's _sort__dso_cmp(l, r) by short names. */
static int64_t dso_cmp(const char *l, const char *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return strcmp(l, r);
}

/* perf's _sort__sym_cmp: symbols are equal when they start at one place. */
static int64_t sym_cmp(const struct br_end *l, const struct br_end *r)
{
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	return (int64_t)(r->start - l->start);
}

static int64_t end_sym_cmp(const struct br_end *l, const struct br_end *r)
{
	if (!l->sym && !r->sym)
		return (int64_t)(r->raw - l->raw);
	return sym_cmp(l, r);
}

static int64_t addr_cmp(const struct br_end *l, const struct br_end *r)
{
	int64_t c = dso_cmp(l->dso, r->dso);

	return c ? c : (int64_t)(r->raw - l->raw);
}

/* perf's se_cmp of key for entries a (left) and b (right). */
static int64_t key_cmp(const struct br_keys *k, int key, const struct br_entry *a, const struct br_entry *b)
{
	int64_t c;

	switch (key) {
	case BRK_PID: return (int64_t)((int32_t)b->tid - (int32_t)a->tid);
	case BRK_COMM: return strcmp(b->comm, a->comm);
	case BRK_DSO: return dso_cmp(b->to.dso, a->to.dso);
	case BRK_SYM:
		if (!a->to.sym && !b->to.sym)
			return (int64_t)(b->to.raw - a->to.raw);
		if (!k->has_dso && (c = dso_cmp(b->to.dso, a->to.dso)))
			return c;
		return sym_cmp(&a->to, &b->to);
	case BRK_DSO_FROM: return dso_cmp(a->from.dso, b->from.dso);
	case BRK_DSO_TO: return dso_cmp(a->to.dso, b->to.dso);
	case BRK_SYM_FROM: return end_sym_cmp(&a->from, &b->from);
	case BRK_SYM_TO: return end_sym_cmp(&a->to, &b->to);
	case BRK_MISPREDICT:
		return a->first.mispred != b->first.mispred || a->first.predicted != b->first.predicted;
	case BRK_IN_TX: return a->first.in_tx != b->first.in_tx;
	case BRK_ABORT: return a->first.abort != b->first.abort;
	case BRK_CYCLES: return (int)a->first.cycles - (int)b->first.cycles;
	case BRK_ADDR_FROM: return addr_cmp(&a->from, &b->from);
	case BRK_ADDR_TO: return addr_cmp(&a->to, &b->to);
	case BRK_CPU: return (int64_t)b->cpu - a->cpu;
	case BRK_SRCLINE_FROM: return strcmp(b->from.srcline, a->from.srcline);
	case BRK_SRCLINE_TO: return strcmp(b->to.srcline, a->to.srcline);
	case BRK_PARENT:
		if (!a->parent || !b->parent)
			return cmp_null(a->parent, b->parent);
		return strcmp(b->parent, a->parent);
	default: return 0;	/* overhead: perf's hpp__nop_cmp */
	}
}

/* perf's hist_entry__cmp (and __collapse: comm's se_collapse is its se_cmp). */
static int64_t entry_cmp(const struct br_keys *k, const struct br_entry *a, const struct br_entry *b)
{
	int64_t c = 0;

	for (size_t i = 0; i < k->nr_sort && !c; i++)
		c = key_cmp(k, k->sort[i], a, b);
	return c;
}

/* perf's hist_entry__sort: period for overhead, se_sort where a key has one. */
static int64_t entry_sort(const struct br_keys *k, const struct br_entry *a, const struct br_entry *b)
{
	int64_t c = 0;

	for (size_t i = 0; i < k->nr_sort && !c; i++) {
		if (hpp(k->sort[i]))	/* a branch's period and sample count are 1 */
			c = a->period > b->period ? 1 : a->period < b->period ? -1 : 0;
		else if (k->sort[i] == BRK_SYM && (!a->to.sym || !b->to.sym))
			c = cmp_null(a->to.sym, b->to.sym);	/* perf's sort__sym_sort */
		else if (k->sort[i] == BRK_SYM)
			c = strcmp(b->to.sym, a->to.sym);
		else
			c = key_cmp(k, k->sort[i], a, b);
	}
	return c;
}

void br_table_init(struct br_table *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < 3; i++)
		t->root[i] = -1;
}

#define LINK(t, tr, i, d) ((t)->e[i].link[tr][d])
#define PARENT(t, tr, i) LINK(t, tr, i, 2)

/* Rotate about x: d 0 lifts its right child (a left rotation), d 1 its left. */
static void rotate(struct br_table *t, int tr, int32_t x, int d)
{
	int32_t y = LINK(t, tr, x, !d), p = PARENT(t, tr, x), b = LINK(t, tr, y, d);

	LINK(t, tr, x, !d) = b;
	if (b >= 0)
		PARENT(t, tr, b) = x;
	PARENT(t, tr, y) = p;
	if (p < 0)
		t->root[tr] = y;
	else
		LINK(t, tr, p, LINK(t, tr, p, 1) == x) = y;
	LINK(t, tr, y, d) = x;
	PARENT(t, tr, x) = y;
}

/* The kernel's __rb_insert (the textbook insertion fix-up). */
static void fixup(struct br_table *t, int tr, int32_t z)
{
	int32_t p, g, u;

	while ((p = PARENT(t, tr, z)) >= 0 && t->e[p].red[tr]) {
		int d;

		g = PARENT(t, tr, p);
		d = LINK(t, tr, g, 1) == p;
		u = LINK(t, tr, g, !d);
		if (u >= 0 && t->e[u].red[tr]) {
			t->e[p].red[tr] = t->e[u].red[tr] = false;
			t->e[g].red[tr] = true;
			z = g;
			continue;
		}
		if (z == LINK(t, tr, p, !d)) {
			z = p;
			rotate(t, tr, z, d);
			p = PARENT(t, tr, z);
		}
		t->e[p].red[tr] = false;
		t->e[g].red[tr] = true;
		rotate(t, tr, g, !d);
	}
	t->e[t->root[tr]].red[tr] = false;
}

/* Link node i under parent at side d of tree tr. */
static void attach(struct br_table *t, int tr, int32_t parent, int d, int32_t i)
{
	LINK(t, tr, i, 0) = LINK(t, tr, i, 1) = -1;
	PARENT(t, tr, i) = parent;
	t->e[i].red[tr] = true;
	if (parent < 0)
		t->root[tr] = i;
	else
		LINK(t, tr, parent, d) = i;
	fixup(t, tr, i);
}

/* Where tree tr has an entry equal to i (its index), else -1 after i is
 * linked in: perf's walk, smaller (cmp(node, i) < 0) to the left. */
static int32_t find_insert(struct br_table *t, const struct br_keys *k, int tr, int32_t i)
{
	int32_t cur = t->root[tr], parent = -1;
	int d = 0;

	while (cur >= 0) {
		int64_t c = entry_cmp(k, &t->e[cur], &t->e[i]);

		if (!c)
			return cur;
		parent = cur;
		d = c < 0 ? 0 : 1;
		cur = LINK(t, tr, cur, d);
	}
	attach(t, tr, parent, d, i);
	return -1;
}

int br_table_add(struct br_table *t, const struct br_keys *k, const struct br_entry *e,
		 const struct br_entry **at)
{
	int32_t same;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct br_entry *n = cap < INT32_MAX ? realloc(t->e, cap * sizeof(*n)) : NULL;

		if (!n)
			return -ENOMEM;
		t->e = n;
		t->cap = cap;
	}
	t->e[t->nr] = *e;
	t->e[t->nr].period = 1;
	t->e[t->nr].dead = false;	/* filtered: the caller's, kept by the entry's first branch */
	t->total++;
	if ((same = find_insert(t, k, 0, (int32_t)t->nr)) >= 0) {
		t->e[same].period++;
		*at = &t->e[same];
		return 0;
	}
	*at = &t->e[t->nr++];
	return 0;
}

static int32_t first(const struct br_table *t, int tr)
{
	int32_t i = t->root[tr];

	while (i >= 0 && LINK(t, tr, i, 0) >= 0)
		i = LINK(t, tr, i, 0);
	return i;
}

static int32_t next(const struct br_table *t, int tr, int32_t i)
{
	int32_t p;

	if (LINK(t, tr, i, 1) >= 0) {
		for (i = LINK(t, tr, i, 1); LINK(t, tr, i, 0) >= 0;)
			i = LINK(t, tr, i, 0);
		return i;
	}
	while ((p = PARENT(t, tr, i)) >= 0 && LINK(t, tr, p, 1) == i)
		i = p;
	return p;
}

/* perf's collapse (when a key has se_collapse) and output resort;
 * --symbol-filter marks an entry the collapse adds (not one it merges),
 * by the entry's symbol (the target's), as perf's does. */
static void resort(struct br_table *t, const struct br_keys *k)
{
	int src = 0;

	if (k->need_collapse) {
		for (int32_t i = first(t, 0); i >= 0; i = next(t, 0, i)) {
			int32_t same = find_insert(t, k, 1, i);

			if (same >= 0) {
				t->e[same].period += t->e[i].period;
				t->e[i].dead = true;
			} else if (k->symbol_filter &&	/* perf's hists__apply_filters */
				   (!t->e[i].to.sym || !strstr(t->e[i].to.sym, k->symbol_filter))) {
				t->e[i].filtered = true;
			}
		}
		src = 1;
	}
	for (int32_t i = first(t, src); i >= 0; i = next(t, src, i)) {
		int32_t cur = t->root[2], parent = -1;
		int d = 0;

		if (t->e[i].dead)
			continue;
		while (cur >= 0) {	/* perf: hist_entry__sort(he, iter) > 0 to the left */
			parent = cur;
			d = entry_sort(k, &t->e[i], &t->e[cur]) > 0 ? 0 : 1;
			cur = LINK(t, 2, cur, d);
		}
		attach(t, 2, parent, d, i);
	}
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static size_t unres(size_t w, bool off)
{
	return off ? w : max_sz(w, 16);	/* perf's hists__set_unres_dso_col_len (not with --dsos, -t) */
}

/* The symbol, DSO and address widths of one end of a branch (keys k:
 * its symbol, DSO and address columns), as perf's hists__calc_col_len. */
static void end_len(const struct br_end *end, size_t w[BRK_NR], const int k[3], bool dsos, size_t v)
{
	if (end->sym) {
		w[k[0]] = max_sz(w[k[0]], strlen(end->sym) + 4 + v);
		w[k[1]] = max_sz(w[k[1]], end->dso ? strlen(end->dso) : 0);
	} else {
		w[k[0]] = max_sz(w[k[0]], 16 + 4 + 2);
		w[k[2]] = max_sz(w[k[2]], 16 + 4 + 2);
		w[k[1]] = unres(w[k[1]], dsos);
	}
}

/* perf's hists__calc_col_len for one entry, into w (by key). */
static void col_len(const struct br_entry *e, size_t w[BRK_NR], bool dsos, bool verbose)
{
	size_t comm = strlen(e->comm), v = verbose ? 16 + 2 + 3 : 0;	/* -v's address and origin */

	if (comm > w[BRK_COMM]) {
		w[BRK_COMM] = comm;
		w[BRK_PID] = comm + 8;
	}
	w[BRK_SYM] = max_sz(w[BRK_SYM], e->to.sym ? strlen(e->to.sym) + 4 + v : 16 + 4 + 2);
	if (e->to.dso)
		w[BRK_DSO] = max_sz(w[BRK_DSO], strlen(e->to.dso));
	if (!e->to.sym)
		w[BRK_DSO] = unres(w[BRK_DSO], dsos);
	w[BRK_CPU] = max_sz(w[BRK_CPU], 3);
	if (e->from.srcline)
		w[BRK_SRCLINE_FROM] = max_sz(w[BRK_SRCLINE_FROM], strlen(e->from.srcline));
	if (e->to.srcline)
		w[BRK_SRCLINE_TO] = max_sz(w[BRK_SRCLINE_TO], strlen(e->to.srcline));
	w[BRK_SAMPLE] = w[BRK_PERIOD] = 12;	/* perf's hpp widths */
	if (e->parent)
		w[BRK_PARENT] = max_sz(w[BRK_PARENT], strlen(e->parent));
	end_len(&e->from, w, (const int[3]){ BRK_SYM_FROM, BRK_DSO_FROM, BRK_ADDR_FROM }, dsos, v);
	end_len(&e->to, w, (const int[3]){ BRK_SYM_TO, BRK_DSO_TO, BRK_ADDR_TO }, dsos, v);
}

/* The bytes an fprintf wrote (none on an error, which the stream keeps). */
static int wrote(int n)
{
	return n > 0 ? n : 0;
}

/* perf's -v prefix of a branch end's symbol to f: its address (as sampled
 * in the kernel, or always for the symbol key: perf's he->ip) and its
 * DSO's symtab origin.  Returns the bytes printed. */
static int verbose_prefix(FILE *f, const struct br_end *e, bool raw)
{
	return wrote(fprintf(f, "%-#*" PRIx64 " %c ", 16 + 2, e->kernel || raw ? e->raw : e->addr,
			     e->dso ? e->origin : '!'));
}

/* perf's _hist_entry__sym_snprintf (addr: _hist_entry__addr_snprintf) to
 * f, after `pre` bytes already printed (-v's prefix); the symbol cut to
 * what is left of w, as perf's precision does, however long it is.
 * Returns the bytes of the cell printed, pre's included. */
static int sym_text(FILE *f, char level, const char *sym, uint64_t ip, uint64_t off, size_t w, bool addr,
		    int pre)
{
	int n = pre + wrote(fprintf(f, "[%c] ", level));
	int room = (int)w > n ? (int)w - n : 0;

	if (!sym)
		return n + wrote(fprintf(f, "%-#.*" PRIx64, 16, ip));
	if (addr && off)
		return n + wrote(fprintf(f, "%.*s+0x%" PRIx64, room, sym, off));
	return n + wrote(fprintf(f, "%.*s", room, sym));
}

static const char *dso_text(const char *dso)
{
	return dso ? dso : "[unknown]";
}

/* A cell of a flag or a number (perf's texts pad themselves); false for
 * the other keys. */
static bool flag_cell(FILE *f, struct br_keys *k, int key, const struct br_entry *e, int iw, uint64_t total)
{
	switch (key) {
	case BRK_OVERHEAD: {
		double pct = 100.0 * (double)e->period / (double)total;
		const char *c = k->color ? cli_percent_color(pct) : NULL;

		/* perf colours the whole cell, its padding included */
		fprintf(f, "%s%*.2f%%%s", c ? c : "", iw - 1, pct, c ? CLI_COLOR_RESET : "");
		return true;
	}
	case BRK_SAMPLE:
	case BRK_PERIOD: fprintf(f, "%*" PRIu64, iw, e->period); return true;
	case BRK_CPU: fprintf(f, "%*.*d", iw, iw, (int)e->cpu); return true;
	case BRK_MISPREDICT:	/* perf's static text: kept when neither flag is set */
		if (e->first.predicted)
			k->flag_out[0] = "N";
		else if (e->first.mispred)
			k->flag_out[0] = "Y";
		fprintf(f, "%-*.*s", iw, iw, k->flag_out[0]);
		return true;
	case BRK_IN_TX: fprintf(f, "%-*s", iw, e->first.in_tx ? "T" : "."); return true;
	case BRK_ABORT: fprintf(f, "%-*s", iw, e->first.abort ? "A" : "."); return true;
	case BRK_CYCLES:
		if (e->first.cycles)
			fprintf(f, "%-*hd", iw, (short)e->first.cycles);
		else
			fprintf(f, "%-*s", iw, "-");
		return true;
	default: return false;
	}
}

/* One cell: key's text for e, padded to w as perf pads it (a symbol's
 * text not in the last column). */
static void cell(FILE *f, struct br_keys *k, int key, const struct br_entry *e, size_t w, uint64_t total,
		 bool last)
{
	int iw = (int)w, len;

	if (flag_cell(f, k, key, e, iw, total))
		return;
	switch (key) {
	case BRK_PID:
		iw = (int)max_sz(7, w) - 8;
		fprintf(f, "%7d:%-*.*s", (int)e->tid, iw, iw, e->comm);
		return;
	case BRK_COMM: fprintf(f, "%-*.*s", iw, iw, e->comm); return;
	case BRK_DSO: fprintf(f, "%-*.*s", iw, iw, dso_text(e->to.dso)); return;
	case BRK_DSO_FROM: fprintf(f, "%-*.*s", iw, iw, dso_text(e->from.dso)); return;
	case BRK_DSO_TO: fprintf(f, "%-*.*s", iw, iw, dso_text(e->to.dso)); return;
	case BRK_SRCLINE_FROM: fprintf(f, "%-*.*s", iw, iw, e->from.srcline); return;
	case BRK_SRCLINE_TO: fprintf(f, "%-*.*s", iw, iw, e->to.srcline); return;
	case BRK_PARENT: fprintf(f, "%-*.*s", iw, iw, e->parent ? e->parent : "[other]"); return;
	case BRK_SYM: {
		int pre = k->verbose ? verbose_prefix(f, &e->to, true) : 0;

		len = sym_text(f, e->level, e->to.sym, e->to.raw, 0, w, false, pre);
		break;
	}
	case BRK_SYM_FROM:
	case BRK_SYM_TO: {
		const struct br_end *end = key == BRK_SYM_FROM ? &e->from : &e->to;
		int pre = k->verbose ? verbose_prefix(f, end, false) : 0;

		len = sym_text(f, end->level, end->sym, end->addr, 0, w, false, pre);
		break;
	}
	case BRK_ADDR_FROM:
		len = sym_text(f, e->level, e->from.sym, e->from.addr, e->from.symoff, w, true, 0);
		break;
	case BRK_ADDR_TO:
		len = sym_text(f, e->level, e->to.sym, e->to.addr, e->to.symoff, w, true, 0);
		break;
	default: return;
	}
	if (!last && len < iw)	/* perf's hist_entry__snprintf_alignment */
		fprintf(f, "%*s", iw - len, "");
}

/* perf's convert_unit: thousands (K), millions (M), billions (G). */
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

static void print_head(FILE *f, const struct br_table *t, const struct br_keys *k, const size_t *w,
		       const char *event, const char *note)
{
	const char *sep = k->sep ? k->sep : "  ";
	char unit;
	uint64_t nr = short_count(t->total, &unit);

	fprintf(f, "# Samples: %" PRIu64 "%c of event '%s'%s\n", nr, unit, event, note);
	fprintf(f, "# Event count (approx.): %" PRIu64 "\n#\n", t->total);
	for (size_t i = 0, shown = 0; i < k->nr_col; i++) {
		int iw = (int)w[i];

		if (k->elide[i])
			continue;
		if (hpp(k->col[i]))
			fprintf(f, "%s%*s", shown++ ? sep : "# ", iw, keys[k->col[i]].header);
		else	/* perf formats each header in a 1024-byte buffer: a wide one is cut */
			fprintf(f, "%s%-*.*s", shown++ ? sep : "# ", iw < 1023 ? iw : 1023, iw < 1023 ? iw : 1023,
				keys[k->col[i]].header);
	}
	if (k->sep) {	/* -t: perf's header line alone */
		fputs("\n", f);
		return;
	}
	fputs("\n#", f);
	for (size_t i = 0, shown = 0; i < k->nr_col; i++) {
		if (k->elide[i])
			continue;
		fputs(shown++ ? "  " : " ", f);
		for (size_t n = 0; n < w[i]; n++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/* A cell under -t: perf's hpp numbers as " %.2f%%" padded to the width
 * (but in the last column),
 * a key's text (padded as without -t) with the separator's character
 * made '.', as perf's repsep_snprintf does; the separator before all but
 * the first.  0, or -ENOMEM when there is no memory for the cell's text. */
static int sep_cell(FILE *f, struct br_keys *k, int key, const struct br_entry *e, size_t w, uint64_t total,
		    bool first_cell, bool last)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -ENOMEM;
	if (!first_cell)
		fputs(k->sep, f);
	if (key == BRK_OVERHEAD)
		fprintf(m, " %.2f%%", 100.0 * (double)e->period / (double)total);
	else if (hpp(key))
		fprintf(m, " %" PRIu64, e->period);
	else
		cell(m, k, key, e, w, total, last);
	if (fclose(m) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	if (!hpp(key))
		for (char *p = buf; k->sep[0] && (p = strchr(p, k->sep[0])); p++)
			*p = '.';
	fprintf(f, "%-*s", hpp(key) && !last ? (int)w : 0, buf);
	free(buf);
	return 0;
}

int br_table_print(FILE *f, struct br_table *t, struct br_keys *k, bool quiet, const char *event,
		    const char *note)
{
	size_t len[BRK_NR] = { 0 }, w[BR_MAX_KEYS], last = 0;
	int err;

	resort(t, k);
	for (int32_t i = first(t, 2); i >= 0; i = next(t, 2, i))
		if (!t->e[i].filtered)
			col_len(&t->e[i], len, k->dsos_given || k->sep, k->verbose);
	for (size_t i = 0; i < k->nr_col; i++)
		if (!k->elide[i])
			last = i;
	for (size_t i = 0; i < k->nr_col; i++)
		w[i] = max_sz(strlen(keys[k->col[i]].header), len[k->col[i]]);
	if (!quiet)
		print_head(f, t, k, w, event, note);
	for (int32_t i = first(t, 2); i >= 0; i = next(t, 2, i)) {
		if (t->e[i].filtered ||	/* perf's hists__fprintf: --percent-limit */
		    (float)(100.0 * (double)t->e[i].period / (double)t->total) < (float)k->percent_limit)
			continue;
		for (size_t c = 0, shown = 0; c < k->nr_col; c++) {
			if (k->elide[c])
				continue;
			if (k->sep && (err = sep_cell(f, k, k->col[c], &t->e[i], w[c], t->total, shown++ == 0,
						      c == last)) < 0)
				return err;
			if (!k->sep) {
				fputs("  ", f);
				cell(f, k, k->col[c], &t->e[i], w[c], t->total, c == last);
			}
		}
		fputs("\n", f);
	}
	fputs("\n\n", f);
	return 0;
}
