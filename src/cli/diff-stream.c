/* SPDX-License-Identifier: MIT */
/*
 * diff-stream.c - perf diff 6.1's --stream: each sample --time and --cpu
 * keep made a chain (diff-stream-chain.c: its branch stack as perf's
 * branch call stacks, then its call chain; or its LBR call stack), the
 * chains of each srcline,symbol,dso entry merged into perf's call-chain
 * tree keyed by source line (each node a run of
 * frames every chain through it shares; a node's frames keep their
 * branches' counts and cycles), each event's five nodes of most hits
 * (perf's flat order, 0.5% threshold) kept as its hot streams, the old
 * file's streams paired with the new one's whose source lines match in
 * order, and perf's report: matched pairs side by side, then each file's
 * unmatched streams.  The tree is perf's: the order of siblings and the
 * splits decide which runs become streams.
 */
#include "diff-stream.h"
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NR_STREAMS 5			/* perf's evlist__create_streams(.., 5) */

/* A frame in the tree, with perf's counts of the branches that ran through it. */
struct item {
	struct stream_frame f;
	uint64_t branch_count, cycles_count;
};

struct node {
	struct item *items;
	size_t nr_items;
	struct node **kids;		/* in perf's rb order: the greatest first frame first */
	size_t nr_kids;
	uint64_t hit, children_hit;
};

struct entry {
	const char *srcline, *sym, *dso;	/* the sort keys, interned */
	uint64_t period;
	uint32_t pid, tid;		/* the thread of the entry's first sample */
	size_t max_depth;		/* the most frames one chain gave it */
	struct node root;
};

struct stream {
	const struct node *cnode, *pair;
};

/* One event of one file. */
struct sevent {
	struct entry *e;
	size_t nr, cap;
	uint64_t period;		/* every chain's (perf's callchain_period) */
	struct stream s[NR_STREAMS];
	size_t nr_streams;
	uint64_t hits;			/* perf's total: the kept nodes' hits */
};

struct sfile {
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct sevent *ev;
	size_t nr_ev;
	struct diff_time ranges;	/* --time's, for this file */
	struct pk_branch_history *hist;	/* stream_src's scratch (~20 KB) */
};

/* perf's match_chain_strings: a missing string sorts after any; both
 * missing: no answer (2). */
static int cmp_strings(const char *l, const char *r)
{
	int c;

	if (l && r)
		c = strcmp(l, r);
	else if (r)
		c = 1;
	else if (l)
		c = -1;
	else
		return 2;
	return c < 0 ? -1 : c > 0;
}

/* perf's match_chain_dso_addresses: the object (perf compares where its
 * objects lie in memory: see stream_frame's dso_rank), then the address. */
static int cmp_dso_addr(size_t l, uint64_t la, size_t r, uint64_t ra)
{
	if (l != r)
		return l < r ? -1 : 1;
	return la < ra ? -1 : la > ra;
}

/* perf's match_chain with CCKEY_SRCLINE of tree frame `t` and new frame
 * `n`: by source line; where neither has one, by object and symbol start
 * when both have a symbol, else by object and address. */
static int cmp_frame(const struct stream_frame *t, const struct stream_frame *n)
{
	int c = cmp_strings(t->srcline, n->srcline);

	if (c != 2)
		return c;
	if (t->sym && n->sym)
		return cmp_dso_addr(t->dso_rank, t->sym_start, n->dso_rank, n->sym_start);
	return cmp_dso_addr(t->dso_rank, t->ip, n->dso_rank, n->ip);
}

/* A frame matched: perf counts a branch, and a branch source's cycles. */
static void count(struct item *it, const struct stream_frame *f)
{
	if (!f->branch)
		return;
	it->branch_count++;
	if (!f->branch_from)
		it->cycles_count += f->cycles;
}

static void item_init(struct item *it, const struct stream_frame *f)
{
	*it = (struct item){ .f = *f };
	count(it, f);
}

static uint64_t cumul(const struct node *n)
{
	return n->hit + n->children_hit;
}

static void node_free(struct node *n)
{
	for (size_t i = 0; i < n->nr_kids; i++) {
		node_free(n->kids[i]);
		free(n->kids[i]);
	}
	free(n->kids);
	free(n->items);
}

/* A child of the chain's rest, placed among p's children in perf's order. */
static int add_child(struct node *p, const struct stream_frame *f, size_t nr, uint64_t period)
{
	struct node *c = calloc(1, sizeof(*c)), **k = realloc(p->kids, (p->nr_kids + 1) * sizeof(*k));
	size_t at = 0;

	if (k)
		p->kids = k;
	if (!c || !k || !(c->items = calloc(nr, sizeof(*c->items)))) {
		free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		item_init(&c->items[i], &f[i]);
	c->nr_items = nr;
	c->hit = period;
	/* perf's rb tree goes left when the sibling's frame is less: the
	 * greatest come first in order */
	while (at < p->nr_kids && cmp_frame(&p->kids[at]->items[0].f, &f[0]) > 0)
		at++;
	memmove(&p->kids[at + 1], &p->kids[at], (p->nr_kids - at) * sizeof(*k));
	p->kids[at] = c;
	p->nr_kids++;
	return 0;
}

/* perf's split_add_child: n keeps its first `matched` frames, a new child
 * takes the rest and n's children, and the chain's rest (if any) is n's
 * second child. */
static int split(struct node *n, const struct stream_frame *rest, size_t nr_rest, size_t matched, uint64_t period)
{
	struct node *tail = calloc(1, sizeof(*tail));

	if (!tail || !(tail->items = malloc((n->nr_items - matched) * sizeof(*tail->items)))) {
		free(tail);
		return -ENOMEM;
	}
	memcpy(tail->items, n->items + matched, (n->nr_items - matched) * sizeof(*tail->items));
	tail->nr_items = n->nr_items - matched;
	n->nr_items = matched;
	tail->kids = n->kids;
	tail->nr_kids = n->nr_kids;
	tail->hit = n->hit;
	tail->children_hit = n->children_hit;
	if (!(n->kids = malloc(sizeof(*n->kids)))) {
		n->kids = tail->kids;	/* as it was, but split: still a tree */
		n->nr_kids = tail->nr_kids;
		free(tail->items);
		free(tail);
		return -ENOMEM;
	}
	n->kids[0] = tail;
	n->nr_kids = 1;
	n->children_hit = cumul(tail);
	if (!nr_rest) {
		n->hit = period;
		return 0;
	}
	n->hit = 0;
	n->children_hit += period;
	return add_child(n, rest, nr_rest, period);
}

static int append_children(struct node *p, const struct stream_frame *f, size_t nr, uint64_t period);

/* perf's append_chain: 0 when the chain went into n (or below), else the
 * comparison of n's first frame with the chain's. */
static int append(struct node *n, const struct stream_frame *f, size_t nr, uint64_t period, int *err)
{
	size_t m = 0;
	int c = 0;

	for (; m < n->nr_items && m < nr; m++) {
		if ((c = cmp_frame(&n->items[m].f, &f[m])))
			break;
		count(&n->items[m], &f[m]);
	}
	if (!m)
		return c;
	if (m < n->nr_items)
		*err = split(n, f + m, nr - m, m, period);
	else if (m == nr)
		n->hit += period;
	else
		*err = append_children(n, f + m, nr - m, period);
	return 0;
}

static int append_children(struct node *p, const struct stream_frame *f, size_t nr, uint64_t period)
{
	int err = 0;

	for (size_t i = 0; i < p->nr_kids; i++)
		if (!append(p->kids[i], f, nr, period, &err)) {
			if (!err)
				p->children_hit += period;
			return err;
		}
	if ((err = add_child(p, f, nr, period)) == 0)
		p->children_hit += period;
	return err;
}

/* The entry of a sample's keys: its ip's source line, symbol and object. */
static struct entry *find_entry(struct sevent *ev, const char *srcline, const char *sym, const char *dso,
			        const struct pk_resolved_sample *rs)
{
	for (size_t i = 0; i < ev->nr; i++)
		if (ev->e[i].srcline == srcline && ev->e[i].sym == sym && ev->e[i].dso == dso)
			return &ev->e[i];
	if (ev->nr == ev->cap) {
		size_t cap = ev->cap ? 2 * ev->cap : 16;
		struct entry *e = realloc(ev->e, cap * sizeof(*e));

		if (!e)
			return NULL;
		ev->e = e;
		ev->cap = cap;
	}
	ev->e[ev->nr] = (struct entry){ srcline, sym, dso, 0, rs->pid, rs->tid, 0, { 0 } };
	return &ev->e[ev->nr++];
}

static int add_sample(struct sfile *sf, const struct diff_opts *o, struct sevent *ev, const struct pk_sample *s,
		      const struct pk_resolved_sample *rs, const struct perf_event_attr *a, uint64_t period)
{
	struct stream_frame f[STREAM_MAX_FRAMES];
	const struct stream_src c = { sf->res, o, rs->pid, sf->hist };
	const char *srcline, *sym = NULL, *dso = NULL;
	struct entry *e;
	bool nomem = false;
	size_t nr;
	int err;

	if (rs->loc.dso && !(dso = cli_dso_short_name(o->dso_names, rs->loc.dso, rs->pid, &nomem)) && nomem)
		return -ENOMEM;
	if ((err = stream_entry_srcline(&c, &rs->loc, dso, &srcline)) < 0 ||
	    (rs->loc.sym && (err = pk_intern_str(o->names, rs->loc.sym, &sym)) < 0))
		return err;
	if (!(e = find_entry(ev, srcline, sym, dso, rs)))
		return -ENOMEM;
	e->period += period;
	ev->period += period;
	if ((err = stream_frames(&c, a, s, f, &nr)) < 0 || !nr)
		return err;
	if (nr > e->max_depth)	/* perf's callchain_append: the cursor's length */
		e->max_depth = nr;
	return append_children(&e->root, f, nr, period);
}

/* perf's evsel_streams__set_hot_cnode: the first five, then each node of
 * more hits than the least takes its place. */
static void consider(struct sevent *ev, const struct node *n)
{
	size_t least = 0;

	if (ev->nr_streams < NR_STREAMS) {
		ev->s[ev->nr_streams++].cnode = n;
		return;
	}
	for (size_t i = 1; i < ev->nr_streams; i++)
		if (ev->s[i].cnode->hit < ev->s[least].cnode->hit)
			least = i;
	if (n->hit > ev->s[least].cnode->hit)
		ev->s[least].cnode = n;
}

/* perf's flat order of one entry: the nodes with hits of at least min_hit,
 * most first, ties in the order of a walk that visits children first. */
static int flat(const struct node *n, uint64_t min_hit, const struct node ***v, size_t *nr, size_t *cap)
{
	int err;

	for (size_t i = 0; i < n->nr_kids; i++)
		if ((err = flat(n->kids[i], min_hit, v, nr, cap)) < 0)
			return err;
	if (!n->hit || n->hit < min_hit)
		return 0;
	if (*nr == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		const struct node **nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	size_t at = *nr;	/* after every node of as many hits or more */

	while (at > 0 && (*v)[at - 1]->hit < n->hit)
		at--;
	memmove(&(*v)[at + 1], &(*v)[at], (*nr - at) * sizeof(**v));
	(*v)[at] = n;
	(*nr)++;
	return 0;
}

/* A key perf sorts by name: none after any. */
static int cmp_name(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* perf's hists__output_resort order. perf diff --stream keeps perf's
 * default of children on (symbol_conf.cumulate_callchain), so the keys are
 * overhead_children (here the entry's own period: the samples are not
 * spread to callers), which between entries of one thread puts the
 * shallower chain first; then overhead (the same period), then srcline,
 * symbol and dso, each by name. */
static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c;

	if (a->period != b->period)
		return a->period < b->period ? 1 : -1;
	if (a->pid == b->pid && a->tid == b->tid && a->max_depth != b->max_depth)
		return a->max_depth < b->max_depth ? -1 : 1;
	if ((c = cmp_name(a->srcline, b->srcline)) || (c = cmp_name(a->sym, b->sym)))
		return c;
	return cmp_name(a->dso, b->dso);
}

static int make_streams(struct sevent *ev)
{
	uint64_t min_hit = (uint64_t)((double)ev->period * (0.5 / 100));
	const struct node **v = NULL;
	size_t cap = 0;
	int err = 0;

	if (ev->nr)	/* --cpu or --time may have left none */
		qsort(ev->e, ev->nr, sizeof(*ev->e), cmp_entry);
	for (size_t i = 0; !err && i < ev->nr; i++) {
		size_t nr = 0;

		/* perf's callchain_total_hits: the hits of the nodes the flat
		 * order keeps, not of those under min_hit (a sample of a small
		 * period, as frequency mode starts with) */
		err = flat(&ev->e[i].root, min_hit, &v, &nr, &cap);
		for (size_t k = 0; !err && k < nr; k++) {
			ev->hits += v[k]->hit;
			consider(ev, v[k]);
		}
	}
	free(v);
	return err;
}

/* perf's callchain_cnode_matched: frames with source lines on both sides
 * equal, in order, and neither stream longer. */
static bool matched(const struct node *b, const struct node *p)
{
	bool match = false;
	size_t i = 0;

	for (; i < b->nr_items; i++) {
		const struct stream_frame *bf = &b->items[i].f, *pf;

		if (i == p->nr_items)
			return false;
		pf = &p->items[i].f;
		if (!bf->srcline || !pf->srcline)
			continue;
		if (!(match = bf->srcline == pf->srcline))
			return false;
	}
	return i >= p->nr_items && match;
}

/* perf's callchain_avg_cycles. */
static int64_t avg_cycles(const struct node *n)
{
	int64_t c = 0;

	for (size_t i = 0; i < n->nr_items; i++)
		if (n->items[i].f.srcline && n->items[i].branch_count)
			c += (int64_t)(n->items[i].cycles_count / n->items[i].branch_count);
	return c;
}

/* perf's callchain_list__sym_name with the source-line key. */
static const char *label(const struct stream_frame *f, char *buf, size_t len)
{
	if (f->sym && f->srcline)
		snprintf(buf, len, "%s %s", f->sym, f->srcline);
	else if (f->sym)
		snprintf(buf, len, "%s", f->sym);
	else
		snprintf(buf, len, "%#" PRIx64, f->ip);
	return buf;
}

static void head(char *buf, size_t len, const struct node *n, const struct sevent *ev)
{
	snprintf(buf, len, "cycles: %" PRId64 ", hits: %.2f%%", avg_cycles(n),
		 (double)n->hit / (double)ev->hits * 100.0);
}

static void print_pair(FILE *out, const struct stream *s, int idx, const struct sevent *b, const struct sevent *p)
{
	char h1[512], h2[512], l1[256], l2[256];

	fprintf(out, "\nhot chain pair %d:\n", idx);
	head(h1, sizeof(h1), s->cnode, b);
	head(h2, sizeof(h2), s->pair, p);
	fprintf(out, "%35s\t%35s\n", h1, h2);
	fprintf(out, "%35s\t%35s\n", "---------------------------", "--------------------------");
	for (size_t i = 0; i < s->cnode->nr_items && i < s->pair->nr_items; i++)
		fprintf(out, "%35s\t%35s\n", label(&s->cnode->items[i].f, l1, sizeof(l1)),
			    label(&s->pair->items[i].f, l2, sizeof(l2)));
}

static void print_one(FILE *out, const struct stream *s, int idx, const struct sevent *ev, bool pair)
{
	char h[512], l[256];

	fprintf(out, "\nhot chain %d:\n", idx);
	head(h, sizeof(h), s->cnode, ev);
	if (pair) {
		fprintf(out, "%35s\t%35s\n", "", h);
		fprintf(out, "%35s\t%35s\n", "", "--------------------------");
	} else {
		fprintf(out, "%35s\n", h);
		fprintf(out, "%35s\n", "--------------------------");
	}
	for (size_t i = 0; i < s->cnode->nr_items; i++)
		if (pair)
			fprintf(out, "%35s\t%35s\n", "", label(&s->cnode->items[i].f, l, sizeof(l)));
		else
			fprintf(out, "%35s\n", label(&s->cnode->items[i].f, l, sizeof(l)));
}

/* perf's evsel_streams__match and callchain_streams_report. */
static void report(FILE *out, struct sevent *b, struct sevent *p)
{
	int idx = 0;

	for (size_t i = 0; i < b->nr_streams; i++)
		for (size_t k = 0; k < p->nr_streams && !b->s[i].pair; k++)
			if (matched(b->s[i].cnode, p->s[k].cnode)) {
				b->s[i].pair = p->s[k].cnode;
				p->s[k].pair = b->s[i].cnode;
			}
	fputs("[ Matched hot streams ]\n", out);
	for (size_t i = 0; i < b->nr_streams; i++)
		if (b->s[i].pair)
			print_pair(out, &b->s[i], ++idx, b, p);
	fputs("\n[ Hot streams in old perf data only ]\n", out);
	idx = 0;
	for (size_t i = 0; i < b->nr_streams; i++)
		if (!b->s[i].pair)
			print_one(out, &b->s[i], ++idx, b, false);
	fputs("\n[ Hot streams in new perf data only ]\n", out);
	idx = 0;
	for (size_t i = 0; i < p->nr_streams; i++)
		if (!p->s[i].pair)
			print_one(out, &p->s[i], ++idx, p, true);
}

/* What this file does not build as perf does: LBR call stacks without
 * call chains (perf reads a chain that is not there).  A DWARF recording's
 * chains are built as any other's, of its branches and its recorded (kernel)
 * call chain: perf diff 6.1 unwinds no user stack (it never sets
 * dwarf_callchain_users, so libunwind is never given the maps and
 * unwind__get_entries adds nothing), and the resolver's unwound frames
 * are not used. */
static const char *unsupported(const struct pk_data_reader *r)
{
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
		const struct perf_event_attr *a = pk_data_reader_attr(r, i);

		if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
		    !(a->sample_type & PERF_SAMPLE_CALLCHAIN))
			return "LBR call stacks without call chains";
	}
	return NULL;
}

/* --cpu's check and file `idx`'s part of --time, as the table's files
 * take them (diff_file_filters).  0, or an exit status after the message. */
static int filters(struct sfile *sf, const struct diff_opts *o, const char *path, size_t idx)
{
	const char *t = NULL;
	char part[4096];

	if (o->time && !(t = diff_time_part(o->time, idx, part, sizeof(part))))
		return cli_usage("diff", "--time '%s' has no part for file %zu (A:B gives one to each)", o->time,
				 idx);
	return diff_file_filters(sf->r, path, t, o, &sf->ranges);
}

/* perf diff drops a sample outside --time's ranges before anything, and
 * one of a CPU --cpu does not name before counting it. */
static bool dropped(const struct sfile *sf, const struct diff_opts *o, const struct pk_sample *s)
{
	if (diff_time_skip(&sf->ranges, s->fields & PERF_SAMPLE_TIME ? s->time : UINT64_MAX))
		return true;
	for (size_t i = 0; o->cpus && i < o->nr_cpus; i++)
		if ((uint32_t)o->cpus[i] == s->cpu)
			return false;
	return o->cpus;
}

/* File `idx` read into sf: 0, a negative errno (-ENOTSUP after the
 * message), or an exit status after the message. */
static int read_file(struct sfile *sf, const struct diff_opts *o, const char *path, size_t idx)
{
	const struct perf_event_header *h;
	char dir[4096];
	const char *why;
	int err = 0, rc;

	if ((err = pk_data_reader_open(path, &sf->r)) < 0)
		return err;
	if (o->verbose > 0)
		diff_verbose_header(stderr, sf->r);
	if ((why = unsupported(sf->r))) {
		cli_message(stderr, "perfkit diff: --stream: %s has %s, which perfkit does not compare yet\n",
			    path, why);
		return -ENOTSUP;
	}
	if ((rc = filters(sf, o, path, idx)))
		return rc;
	sf->nr_ev = pk_data_reader_nr_events(sf->r);
	if (!(sf->ev = calloc(sf->nr_ev ? sf->nr_ev : 1, sizeof(*sf->ev))) ||
	    !(sf->hist = malloc(sizeof(*sf->hist))) ||
	    (err = pk_resolver_new(sf->r, &sf->res)) < 0)
		return err < 0 ? err : -ENOMEM;
	if ((cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(sf->res, dir)) < 0) ||
	    (err = cli_symfs_apply(sf->res)) < 0)
		return err;
	while (err >= 0 && (rc = pk_data_reader_next(sf->r, &h)) > 0) {
		int ev = pk_data_reader_event_of(sf->r, h);
		const struct perf_event_attr *a = pk_data_reader_attr(sf->r, ev >= 0 ? (size_t)ev : 0);
		struct pk_record d = { .size = sizeof(d) };
		struct pk_resolved_sample rs = { .size = sizeof(rs) };

		if (pk_record_decode(h, a, &d) != 0)
			continue;
		if (h->type != PERF_RECORD_SAMPLE) {
			err = pk_resolver_process(sf->res, &d);
			continue;
		}
		if (ev < 0 || (size_t)ev >= sf->nr_ev || dropped(sf, o, &d.sample) ||
		    (err = pk_resolver_resolve(sf->res, &d, &rs)) < 0)
			continue;
		err = add_sample(sf, o, &sf->ev[ev], &d.sample, &rs, a,
				 d.sample.fields & PERF_SAMPLE_PERIOD ? d.sample.period : a->sample_period);
	}
	for (size_t i = 0; err >= 0 && i < sf->nr_ev; i++)
		err = make_streams(&sf->ev[i]);
	return err < 0 ? err : rc < 0 ? rc : 0;
}

static void sfile_free(struct sfile *sf)
{
	for (size_t i = 0; sf->ev && i < sf->nr_ev; i++) {
		for (size_t k = 0; k < sf->ev[i].nr; k++)
			node_free(&sf->ev[i].e[k].root);
		free(sf->ev[i].e);
	}
	free(sf->ev);
	free(sf->ranges.r);
	free(sf->hist);
	pk_resolver_free(sf->res);
	pk_data_reader_free(sf->r);
}

int diff_stream(struct diff_opts *o)
{
	struct sfile f[2] = { 0 };
	int rc = 0, err = 0;

	if (pk_intern_new(&o->names) < 0)
		return cli_error("diff", NULL);
	for (size_t i = 0; !err && i < 2; i++)
		err = read_file(&f[i], o, o->paths[i], i);
	if (err == -ENOTSUP)
		rc = CLI_EXIT_USAGE;
	else if (err < 0)
		rc = cli_error("diff", NULL);
	else
		rc = err;
	/* each old event with the new file's of its type and config */
	for (size_t i = 0; !err && i < f[0].nr_ev; i++) {
		const struct perf_event_attr *a = pk_data_reader_attr(f[0].r, i);

		for (size_t k = 0; k < f[1].nr_ev; k++) {
			const struct perf_event_attr *b = pk_data_reader_attr(f[1].r, k);

			if (a->type == b->type && a->config == b->config) {
				report(stdout, &f[0].ev[i], &f[1].ev[k]);
				break;
			}
		}
	}
	sfile_free(&f[0]);
	sfile_free(&f[1]);
	return rc;
}
