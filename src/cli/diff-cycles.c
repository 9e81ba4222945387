/* SPDX-License-Identifier: MIT */
/*
 * diff-cycles.c - perf diff's -c cycles: each file's basic blocks, from the
 * cycles its branch stacks carry (perf's hist__account_cycles: the entries
 * walked oldest first, each one's source ending a block of the symbol it
 * is in, which starts at the previous entry's target when that is in the
 * same symbol or is the symbol's start), kept per symbol as perf's
 * cyc_hist (the longest block wins an end offset; every cycle counts in
 * the average, its first eight in perf's cycles_spark); the "[Program
 * Block Range] Cycles Diff" cell of each
 * of a row's lines: the new file's blocks of the row's symbol, ordered by
 * the size of their change of average cycles against the baseline's
 * block with the same start and end, one per baseline block (perf's
 * block_hists_match and hist_entry__block_fprintf), and with --cycles-hist
 * its "stddev/Hist" cell (perf's compute_cycles_diff and
 * hpp__color_cycles_hist: the two blocks' first cycles compared one by
 * one, their differences' relative standard error and sparkline).  perf diff 6.1 itself
 * crashes on such files (hist__account_cycles puts references on maps it
 * never took), so this is perf's code read, not its output matched.
 * Memory: one record per symbol and block end seen, not per sample.
 */
#include "diff.h"
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* perf's NUM_SPARKS: how many of a block's cycles --cycles-hist compares. */
#define NUM_SPARKS 8

/* perf's cyc_hist, for one end offset of a symbol. */
struct block {
	uint64_t end;			/* the offset in the symbol of the branch leaving it */
	uint64_t start;			/* the block's start offset (0 without one) */
	uint64_t cycles_aggr;		/* every cycle ending here */
	uint32_t num, num_aggr;
	bool have_start;
	uint64_t spark[NUM_SPARKS];	/* the first cycles counted since the start last changed */
};

struct csym {
	const char *dso, *sym;		/* the row's keys */
	const struct pk_dso *d;
	struct pk_maps *m;		/* for the source lines */
	uint64_t sym_start;
	struct block *b;		/* sorted by end */
	size_t nr, cap;
};

struct diff_cycles {
	struct csym *s;
	size_t nr, cap;
	size_t *slot;			/* open addressing: index + 1, 0 free */
	size_t nr_slots;
};

/* One end of a branch, resolved as perf's thread__find_cpumode_addr_location. */
struct end {
	uint64_t ip;
	struct pk_location loc;
	bool found;
};

static size_t hash(const char *dso, const char *sym)
{
	size_t h = 1469598103934665603u;

	for (const char *p = dso ? dso : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ 0xff) * 1099511628211u;
	for (const char *p = sym; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return h;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static struct csym *lookup(const struct diff_cycles *c, const char *dso, const char *sym)
{
	if (!c || !c->nr_slots || !sym)
		return NULL;
	for (size_t i = hash(dso, sym) & (c->nr_slots - 1);; i = (i + 1) & (c->nr_slots - 1)) {
		struct csym *s;

		if (!c->slot[i])
			return NULL;
		s = &c->s[c->slot[i] - 1];
		if (same(s->dso, dso) && same(s->sym, sym))
			return s;
	}
}

static int rehash(struct diff_cycles *c)
{
	size_t n = c->nr_slots ? c->nr_slots * 2 : 64;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t k = 0; k < c->nr; k++) {
		size_t i = hash(c->s[k].dso, c->s[k].sym) & (n - 1);

		while (slot[i])
			i = (i + 1) & (n - 1);
		slot[i] = k + 1;
	}
	free(c->slot);
	c->slot = slot;
	c->nr_slots = n;
	return 0;
}

static int sym_get(struct diff_cycles *c, const struct csym *key, struct csym **out)
{
	size_t i;

	if ((*out = lookup(c, key->dso, key->sym)))
		return 0;
	if ((c->nr + 1) * 2 > c->nr_slots && rehash(c) < 0)
		return -ENOMEM;
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		struct csym *s = realloc(c->s, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		c->s = s;
		c->cap = cap;
	}
	c->s[c->nr] = *key;
	for (i = hash(key->dso, key->sym) & (c->nr_slots - 1); c->slot[i]; i = (i + 1) & (c->nr_slots - 1))
		;
	c->slot[i] = ++c->nr;
	*out = &c->s[c->nr - 1];
	return 0;
}

/* The block ending at `end` in s, made (zeroed) on first sight. */
static struct block *block_get(struct csym *s, uint64_t end)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->b[mid].end < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->nr && s->b[lo].end == end)
		return &s->b[lo];
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct block *b = realloc(s->b, cap * sizeof(*b));

		if (!b)
			return NULL;
		s->b = b;
		s->cap = cap;
	}
	memmove(&s->b[lo + 1], &s->b[lo], (s->nr - lo) * sizeof(*s->b));
	s->nr++;
	s->b[lo] = (struct block){ .end = end };
	return &s->b[lo];
}

/* perf's __symbol__account_cycles: every cycle counts in the average; the
 * block's start is the lowest one seen with a start (a longer block
 * replaces a shorter one's count), a block without a start counting only
 * until one with a start is seen. */
static void account(struct block *b, uint64_t start, uint64_t cycles, bool have_start)
{
	b->num_aggr++;
	b->cycles_aggr += cycles;
	if (!have_start && b->have_start)
		return;
	if (b->num) {
		if (have_start && (!b->have_start || b->start > start))
			b->num = 0;
		else if (have_start && b->start < start)
			return;
	}
	if (b->num < NUM_SPARKS)	/* after a reset, written over from the first */
		b->spark[b->num] = cycles;
	b->have_start = have_start;
	b->start = start;
	b->num++;
}

/* perf's addr_map_symbol__account_cycles for the source `from` of a
 * branch of `cycles`, the block starting at `start` (the previous entry's
 * target, NULL for the oldest).  perf's test for a jump to the symbol's
 * start compares with the symbol's start plus its map's; here with the
 * address the symbol starts at in the process, the same for every map
 * whose file offset is its address (what the linker makes). */
static int account_from(struct diff_cycles *c, const struct diff_opts *o, struct pk_maps *m,
			const struct end *from, const struct end *start, uint64_t cycles, uint32_t pid)
{
	const struct pk_location *l = &from->loc;
	struct csym key = { .d = l->dso, .m = m, .sym_start = l->sym_start }, *s;
	uint64_t saddr = 0;
	bool nomem = false;
	struct block *b;
	int err;

	if (!cycles || !from->found || !l->sym)
		return 0;
	if (start && start->found && start->loc.sym && start->loc.dso == l->dso &&
	    start->loc.sym_start == l->sym_start)
		saddr = start->loc.addr;
	else if (start && start->ip == from->ip - l->symoff)
		saddr = l->sym_start;
	if (saddr && saddr < l->sym_start)
		return 0;	/* perf's -ERANGE */
	if (saddr >= l->addr)
		saddr = 0;
	key.dso = o->verbose ? report_verbose_dso(o->rep, o->dso_names, l->dso, pid, &nomem)
			     : cli_dso_short_name(o->dso_names, l->dso, pid, &nomem);
	if (nomem || (err = pk_intern_str(o->names, l->sym, &key.sym)) < 0 || (err = sym_get(c, &key, &s)) < 0)
		return -ENOMEM;
	if (!(b = block_get(s, l->addr - l->sym_start)))
		return -ENOMEM;
	account(b, saddr ? saddr - l->sym_start : 0, cycles, saddr != 0);
	return 0;
}

static void resolve_end(struct pk_maps *m, uint32_t pid, uint64_t ip, struct end *e)
{
	e->ip = ip;
	e->loc = (struct pk_location){ .size = sizeof(e->loc) };
	e->found = pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_USER, &e->loc) == 0;
	if (!e->found) {
		e->loc = (struct pk_location){ .size = sizeof(e->loc) };
		e->found = pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_KERNEL, &e->loc) == 0;
	}
}

int diff_cycles_sample(struct diff_file *f, const struct diff_opts *o, const struct pk_sample *smp,
		       const struct pk_resolved_sample *rs)
{
	const struct perf_branch_entry *be = smp->branch.entries;
	struct pk_maps *m = pk_resolver_maps(f->res);
	struct end from, to, prev;
	bool have_prev = false;
	int err;

	if (!(smp->fields & PERF_SAMPLE_BRANCH_STACK) || !smp->branch.nr || !be[0].cycles)
		return 0;
	if (!f->cyc && !(f->cyc = calloc(1, sizeof(*f->cyc))))
		return -ENOMEM;
	/* perf keeps branches newest first: the walk is in program order */
	for (size_t i = smp->branch.nr; i-- > 0;) {
		resolve_end(m, rs->pid, be[i].from, &from);
		err = account_from(f->cyc, o, m, &from, have_prev ? &prev : NULL, be[i].cycles, rs->pid);
		if (err < 0)
			return err;
		resolve_end(m, rs->pid, be[i].to, &to);
		prev = to;
		have_prev = true;
	}
	return 0;
}

void diff_cycles_free(struct diff_cycles *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		free(c->s[i].b);
	free(c->s);
	free(c->slot);
	free(c);
}

/* The rows' blocks: the baseline's symbol (the new file's for a row only
 * it has, as perf's dummy entry points at the new file's symbol). */
static void row_syms(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		     const struct csym **base, const struct csym **pair)
{
	const struct pk_hist_entry *k = pk_diff_key(d, e);
	const struct pk_diff_pair *p = pk_diff_pair_get(d, e, 1);

	*pair = p->entry ? lookup(o->files[1].cyc, k->s.dso, k->s.sym) : NULL;
	*base = e->base ? lookup(o->files[0].cyc, k->s.dso, k->s.sym) : *pair;
}

size_t diff_cycles_lines(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e)
{
	const struct csym *base, *pair;

	row_syms(o, d, e, &base, &pair);
	return base ? base->nr : 0;
}

/* perf's average: integer cycles per branch; 0 without a block. */
static int64_t diff_of(const struct csym *base, const struct block *b)
{
	for (size_t i = 0; base && i < base->nr; i++)
		if (base->b[i].end == b->end && base->b[i].start == b->start)
			return base->b[i].num && b->num ? (int64_t)(b->cycles_aggr / b->num_aggr) -
				(int64_t)(base->b[i].cycles_aggr / base->b[i].num_aggr) : 0;
	return 0;
}

struct ranked {
	const struct block *b;
	int64_t diff;
};

/* perf's block_sort: the largest change first; ties in key order. */
static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	uint64_t la = (uint64_t)llabs(a->diff), lb = (uint64_t)llabs(b->diff);

	if (la != lb)
		return la > lb ? -1 : 1;
	if (a->b->start != b->b->start)
		return a->b->start < b->b->start ? -1 : 1;
	return a->b->end < b->b->end ? -1 : a->b->end > b->b->end;
}

/* perf's map__srcline of offset `off` in s: the line, else "sym+off". */
static void srcline(const struct csym *s, uint64_t off, char *buf, size_t len)
{
	struct pk_location loc = { .size = sizeof(loc), .dso = s->d, .sym = s->sym, .sym_start = s->sym_start,
				   .addr = s->sym_start + off, .symoff = off };
	struct pk_srcline sl = { .size = sizeof(sl) };
	int err = pk_maps_srcline(s->m, &loc, &sl);
	const char *file = err == 0 ? sl.file_addr2line : err == -ENODATA && sl.file_addr2line ? sl.file_addr2line
											: "??";
	const char *slash = strrchr(file, '/');

	if (err == 0 || err == -ENODATA)
		snprintf(buf, len, "%s:%u", slash ? slash + 1 : file, err == 0 ? sl.line : 0);
	else
		snprintf(buf, len, "%s+%" PRIu64, s->sym, off);
}

/* What line_block finds for a line (LINE_SKIP is diff_cycles_cell's 1). */
enum line_kind {
	LINE_BLOCK,		/* a block of the new file's */
	LINE_SKIP,		/* perf skips the line */
	LINE_BLANK,		/* a row the new file lacks: its first line, cells blank */
};

/* Line `line` of row e: its block of the new file (*out, ranked as perf
 * ranks them) and the baseline's symbol.  An enum line_kind, or -ENOMEM. */
static int line_block(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		      size_t line, const struct csym **base, struct ranked *out)
{
	const struct csym *pair;
	struct ranked *r;

	row_syms(o, d, e, base, &pair);
	if (!pk_diff_pair_get(d, e, 1)->entry)
		return line ? LINE_SKIP : LINE_BLANK;
	if (!pair || line >= pair->nr)
		return LINE_SKIP;
	if (!(r = malloc(pair->nr * sizeof(*r))))
		return -ENOMEM;
	for (size_t i = 0; i < pair->nr; i++)
		r[i] = (struct ranked){ &pair->b[i], diff_of(*base, &pair->b[i]) };
	qsort(r, pair->nr, sizeof(*r), cmp_ranked);
	*out = r[line];
	free(r);
	return LINE_BLOCK;
}

int diff_cycles_cell(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		     size_t line, char *out, size_t len, int width)
{
	const struct csym *base;
	char buf[128], from[4096], to[4096];
	struct ranked r;
	int n = line_block(o, d, e, line, &base, &r);

	if (n == LINE_BLANK)	/* the first line's cell blank, perf's " " */
		snprintf(out, len, "%*s", width, " ");
	if (n != LINE_BLOCK)
		return n == LINE_BLANK ? 0 : n;
	srcline(base, r.b->start, from, sizeof(from));
	srcline(base, r.b->end, to, sizeof(to));
	/* perf's char[128]: a longer cell is cut short, as perf's */
	if (strncmp(from, "??:0", 4) && strncmp(to, "??:0", 4))
		n = snprintf(buf, sizeof(buf), "[%s -> %s] %4" PRId64, from, to, r.diff);
	else
		n = snprintf(buf, sizeof(buf), "[%7" PRIx64 " -> %7" PRIx64 "] %4" PRId64, r.b->start, r.b->end,
			     r.diff);
	if (n < 0)
		return -EINVAL;
	snprintf(out, len, "%*s", width, buf);
	return 0;
}

/* perf's print_spark: each value a tick of eight, scaled between the
 * smallest and the largest (fixed point, 8 bits of fraction). */
static void spark(char *buf, size_t len, const uint64_t *v, size_t n)
{
	static const char *const ticks[NUM_SPARKS] = { "\u2581", "\u2582", "\u2583", "\u2584",
						       "\u2585", "\u2586", "\u2587", "\u2588" };
	uint64_t min = UINT64_MAX, max = 0, f;
	int k = 0;

	for (size_t i = 0; i < n; i++) {
		min = v[i] < min ? v[i] : min;
		max = v[i] > max ? v[i] : max;
	}
	f = ((max - min) << 8) / (NUM_SPARKS - 1);
	f = f < 1 ? 1 : f;
	for (size_t i = 0; i < n && (size_t)k < len; i++) {
		uint64_t t = ((v[i] - min) << 8) / f;

		k += snprintf(buf + k, len - (size_t)k, "%s", ticks[t < NUM_SPARKS ? t : NUM_SPARKS - 1]);
	}
}

/* The differences of block b's first cycles from the baseline's twin's
 * (none without one) into v; how many. */
static size_t spark_diffs(const struct csym *base, const struct block *b, uint64_t *v)
{
	size_t n = 0;

	for (size_t i = 0; base && i < base->nr; i++) {
		const struct block *t = &base->b[i];

		if (t->end != b->end || t->start != b->start || !t->num || !b->num)
			continue;
		for (; n < b->num && n < t->num && n < NUM_SPARKS; n++)
			v[n] = b->spark[n] > t->spark[n] ? b->spark[n] - t->spark[n] : t->spark[n] - b->spark[n];
		break;
	}
	return n;
}

int diff_cycles_hist_cell(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
			  size_t line, char *out, size_t len, int width)
{
	const struct csym *base;
	uint64_t v[NUM_SPARKS];
	double mean = 0, m2 = 0, rel;
	char ticks[NUM_SPARKS * 4 + 1], buf[128];
	struct ranked r;
	size_t n;
	int err = line_block(o, d, e, line, &base, &r);

	snprintf(out, len, "%*s", width, " ");
	if (err != LINE_BLOCK)
		return err == LINE_BLANK ? 0 : err;
	n = spark_diffs(base, r.b, v);
	for (size_t i = 0; i < n; i++) {	/* perf's update_stats (Welford) */
		double delta = (double)v[i] - mean;

		mean += delta / (double)(i + 1);
		m2 += delta * ((double)v[i] - mean);
	}
	if (n <= 1 || mean == 0.0)	/* perf prints no sparkline of one value or of zeros */
		return 0;
	/* perf's rel_stddev_stats of stddev_stats: the standard error of the
	 * mean, in percent of the mean */
	rel = 100.0 * sqrt(m2 / (double)(n - 1) / (double)n) / mean;
	spark(ticks, sizeof(ticks), v, n);
	snprintf(buf, sizeof(buf), "\u00b1%5.1f%% %s ", rel, ticks);
	/* perf pads by bytes, then with a space for each missing tick */
	snprintf(out, len, "%*s%*s", width, buf, (int)(NUM_SPARKS - n), "");
	return 0;
}
