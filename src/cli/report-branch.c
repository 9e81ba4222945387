/* SPDX-License-Identifier: MIT */
/*
 * report-branch.c - perf report's branch mode (-b, and perf 6.1's default
 * for a file whose header has the BRANCH_STACK feature and whose samples
 * carry no user stack): every entry of a sample's branch stack is a
 * histogram entry of period 1, keyed by perf's default branch sort order
 * (comm, dso_from, symbol_from, symbol_to, cycles), both ends resolved as
 * perf's thread__find_cpumode_addr_location does (user maps, then the
 * kernel's; an address neither holds is level H); the table is printed
 * in perf's --stdio layout with its column widths and order, followed by
 * perf's "Branch Statistics" block (branch_type_count's counts).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit/resolve.h"
#include "perfkit/symbols.h"

#include "cli.h"
#include "report-branch.h"

struct br_end {
	const char *dso;	/* perf's short name; NULL: no map ([unknown]) */
	const char *sym;	/* NULL: unresolved, shown by addr */
	uint64_t start;		/* the symbol's start: two symbols of one name differ */
	uint64_t raw;		/* the branch address (perf's sort compares it) */
	uint64_t addr;		/* what perf shows for an unresolved end: al_addr */
	char level;
};

struct br_entry {
	const char *comm;
	struct br_end from, to;
	uint16_t cycles;
	uint64_t period;
	struct perf_branch_entry first;	/* the branch that made the entry: perf
					 * counts its flags for every later one */
};

struct br_table {
	struct br_entry *e;
	size_t nr, cap;
	size_t *slot;		/* open hash of entry index + 1; 0 = empty */
	size_t nr_slots;
	uint64_t total;
};

struct report_branch {
	struct br_table *ev;
	size_t nr_ev;
	uint64_t counts[16], new_counts[8], cond_fwd, cond_bwd, cross_4k, cross_2m;
};

int report_branch_setup(const struct report_opts *o, struct pk_data_reader *r, struct report_branch **out)
{
	size_t nr_ev = pk_data_reader_nr_events(r);
	uint64_t type = 0;
	struct report_branch *b;

	for (size_t i = 0; i < nr_ev; i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	if (!(type & PERF_SAMPLE_BRANCH_STACK)) {
		cli_message(stderr, "perfkit report: %s: selected -b but no branch data. "
			    "Did you call perf record without -b?\n", o->input);
		return -EINVAL;
	}
	if (o->sort_given || o->fields_arg) {	/* not silently the default columns */
		cli_message(stderr, "perfkit report: branch mode (-b, or the file's BRANCH_STACK feature) "
			    "takes no --sort or -F keys yet; --no-branch-stack for the usual table\n");
		return -EINVAL;
	}
	b = calloc(1, sizeof(*b));

	if (!b || !(b->ev = calloc(nr_ev ? nr_ev : 1, sizeof(*b->ev)))) {
		free(b);
		return -ENOMEM;
	}
	b->nr_ev = nr_ev;
	*out = b;
	return 0;
}

void report_branch_free(struct report_branch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_ev; i++) {
		free(b->ev[i].e);
		free(b->ev[i].slot);
	}
	free(b->ev);
	free(b);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t end_hash(uint64_t h, const struct br_end *e)
{
	h = mix(h, (uintptr_t)e->dso);
	return e->sym ? mix(mix(h, (uintptr_t)e->sym), e->start) : mix(h, e->raw);
}

static bool end_same(const struct br_end *a, const struct br_end *b)
{
	if (a->dso != b->dso || a->sym != b->sym)
		return false;
	return a->sym ? a->start == b->start : a->raw == b->raw;
}

static bool same(const struct br_entry *a, const struct br_entry *b)
{
	return a->comm == b->comm && a->cycles == b->cycles && end_same(&a->from, &b->from) &&
	       end_same(&a->to, &b->to);
}

static uint64_t hash(const struct br_entry *e)
{
	return end_hash(end_hash(mix((uintptr_t)e->comm, e->cycles), &e->from), &e->to);
}

static int grow(struct br_table *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 256;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t k = hash(&t->e[i]) & (n - 1);

		while (slot[k])
			k = (k + 1) & (n - 1);
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

static int table_add(struct br_table *t, const struct br_entry *e, const struct br_entry **at)
{
	size_t k;

	if ((t->nr + 1) * 2 > t->nr_slots && grow(t) < 0)
		return -ENOMEM;
	for (k = hash(e) & (t->nr_slots - 1); t->slot[k]; k = (k + 1) & (t->nr_slots - 1))
		if (same(&t->e[t->slot[k] - 1], e)) {
			t->e[t->slot[k] - 1].period++;
			t->total++;
			*at = &t->e[t->slot[k] - 1];
			return 0;
		}
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct br_entry *n = realloc(t->e, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->e = n;
		t->cap = cap;
	}
	t->e[t->nr] = *e;
	t->e[t->nr].period = 1;
	*at = &t->e[t->nr];
	t->slot[k] = ++t->nr;
	t->total++;
	return 0;
}

/* perf's thread__find_cpumode_addr_location: user maps, then the kernel's. */
static int resolve_end(struct pk_maps *m, struct cli_names *names, uint32_t pid, uint64_t addr,
		       struct br_end *out)
{
	static const uint16_t modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL };
	struct pk_location loc;
	bool nomem = false;

	*out = (struct br_end){ .raw = addr, .addr = addr, .level = 'H' };
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		loc = (struct pk_location){ .size = sizeof(loc) };
		if (pk_maps_resolve(m, pid, addr, modes[i], &loc) != 0 || !loc.dso)
			continue;
		out->level = loc.kernel ? 'k' : '.';
		out->sym = loc.sym;
		out->start = loc.sym_start;
		out->addr = loc.kernel ? loc.addr : loc.map_ip;
		out->dso = cli_dso_short_name(names, loc.dso, pid, &nomem);
		return nomem ? -ENOMEM : 0;
	}
	return 0;
}

static bool cross(uint64_t a, uint64_t b, uint64_t size)
{
	return (a & ~(size - 1)) != (b & ~(size - 1));
}

/* perf's branch_type_count. */
static void count_type(struct report_branch *b, const struct perf_branch_entry *e)
{
	if (e->type == PERF_BR_UNKNOWN || !e->from)
		return;
	if (e->type == PERF_BR_EXTEND_ABI)
		b->new_counts[e->new_type & 7]++;
	else
		b->counts[e->type & 15]++;
	if (e->type == PERF_BR_COND) {
		if (e->to > e->from)
			b->cond_fwd++;
		else
			b->cond_bwd++;
	}
	if (cross(e->from, e->to, 2u << 20))
		b->cross_2m++;
	else if (cross(e->from, e->to, 4096))
		b->cross_4k++;
}

int report_branch_add(struct report_branch *b, size_t ev, struct pk_maps *m, struct cli_names *names,
		      const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	struct br_entry e = { 0 };
	const struct br_entry *at;
	int err;

	if (ev >= b->nr_ev || !(smp->fields & PERF_SAMPLE_BRANCH_STACK))
		return 0;	/* perf: a sample without a branch stack counts nowhere */
	if (!(e.comm = cli_names_intern(names, rs->comm ? rs->comm : ":-1")))
		return -ENOMEM;
	for (uint64_t i = 0; i < smp->branch.nr; i++) {
		const struct perf_branch_entry *be = &smp->branch.entries[i];

		if ((err = resolve_end(m, names, rs->pid, be->from, &e.from)) < 0 ||
		    (err = resolve_end(m, names, rs->pid, be->to, &e.to)) < 0)
			return err;
		e.cycles = (uint16_t)be->cycles;
		e.first = *be;
		if ((err = table_add(&b->ev[ev], &e, &at)) < 0)
			return err;
		count_type(b, &at->first);	/* perf's hist_iter__branch_callback */
	}
	return 0;
}

static int sign(int64_t v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* perf's sort__dso_from_cmp / sort__sym_from_cmp, > 0: a first. */
static int dso_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? 1 : -1;
	return sign(strcmp(a, b));
}

static int sym_cmp(const struct br_end *a, const struct br_end *b)
{
	if (!a->sym && !b->sym)
		return sign((int64_t)(b->raw - a->raw));
	if (!a->sym || !b->sym)
		return a->sym ? 1 : -1;
	if (a->sym == b->sym && a->start == b->start)
		return 0;
	return sign((int64_t)(b->start - a->start));
}

/* qsort order: perf's output order (period, then its sort keys' order). */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct br_entry *a = pa, *b = pb;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if ((c = sign(strcmp(b->comm, a->comm))) || (c = dso_cmp(a->from.dso, b->from.dso)) ||
	    (c = sym_cmp(&a->from, &b->from)) || (c = sym_cmp(&a->to, &b->to)))
		return -c;
	return a->cycles == b->cycles ? 0 : a->cycles > b->cycles ? -1 : 1;
}

static const char *const headers[] = {
	"Overhead", "Command", "Source Shared Object", "Source Symbol", "Target Symbol",
	"Basic Block Cycles",
};

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void sym_text(const struct br_end *e, char *buf, size_t size)
{
	if (e->sym)
		snprintf(buf, size, "[%c] %s", e->level, e->sym);
	else
		snprintf(buf, size, "[%c] %-#.*" PRIx64, e->level, 16, e->addr);
}

/* perf's hists__calc_col_len for the branch columns. */
static void widths(const struct br_table *t, size_t w[6])
{
	for (size_t i = 0; i < 6; i++)
		w[i] = strlen(headers[i]);
	for (size_t i = 0; i < t->nr; i++) {
		const struct br_entry *e = &t->e[i];

		w[1] = max_sz(w[1], strlen(e->comm));
		if (e->from.sym) {
			w[3] = max_sz(w[3], strlen(e->from.sym) + 4);
			w[2] = max_sz(w[2], e->from.dso ? strlen(e->from.dso) : 0);
		} else {
			w[3] = max_sz(w[3], 16 + 4 + 2);
			w[2] = max_sz(w[2], 16);
		}
		w[4] = max_sz(w[4], e->to.sym ? strlen(e->to.sym) + 4 : 16 + 4 + 2);
	}
}

static void print_rule(FILE *f, const size_t w[6])
{
	fputs("#", f);
	for (size_t i = 0; i < 6; i++) {
		fputs(i ? "  " : " ", f);
		for (size_t k = 0; k < w[i]; k++)
			fputc('.', f);
	}
	fputs("\n", f);
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

static void print_table(FILE *f, const struct report_opts *o, struct br_table *t, const char *name)
{
	size_t w[6];
	char from[512], to[512], cyc[16], unit;

	qsort(t->e, t->nr, sizeof(*t->e), entry_cmp);
	widths(t, w);
	if (!o->quiet) {
		uint64_t nr = short_count(t->total, &unit);

		fprintf(f, "# Samples: %" PRIu64 "%c of event '%s'\n", nr, unit, name);
		fprintf(f, "# Event count (approx.): %" PRIu64 "\n#\n", t->total);
		fprintf(f, "# %-*s", (int)w[0], headers[0]);
		for (size_t i = 1; i < 6; i++)
			fprintf(f, "  %-*s", (int)w[i], headers[i]);
		fputs("\n", f);
		print_rule(f, w);
		fputs("#\n", f);
	}
	for (size_t i = 0; i < t->nr; i++) {
		const struct br_entry *e = &t->e[i];

		sym_text(&e->from, from, sizeof(from));
		sym_text(&e->to, to, sizeof(to));
		if (e->cycles)
			snprintf(cyc, sizeof(cyc), "%d", e->cycles);
		else
			snprintf(cyc, sizeof(cyc), "-");
		fprintf(f, "  %*.2f%%  %-*.*s  %-*.*s  %-*s  %-*s  %-*s\n", (int)w[0] - 1,
			100.0 * (double)e->period / (double)t->total, (int)w[1], (int)w[1], e->comm,
			(int)w[2], (int)w[2], e->from.dso ? e->from.dso : "[unknown]", (int)w[3], from,
			(int)w[4], to, (int)w[5], cyc);
	}
	fputs("\n\n", f);
}

static void print_stat(FILE *f, const char *name, uint64_t n, uint64_t total)
{
	if (n)
		fprintf(f, "\n%8s: %5.1f%%", name, 100.0 * (double)n / (double)total);
}

/* perf's branch_type_stat_display (no newline after the last line, as perf). */
static void print_stats(FILE *f, const struct report_branch *b)
{
	static const char *const types[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
	};
	uint64_t total = 0;

	for (size_t i = 0; i < 16; i++)
		total += b->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", f);
	print_stat(f, "COND_FWD", b->cond_fwd, total);
	print_stat(f, "COND_BWD", b->cond_bwd, total);
	print_stat(f, "CROSS_4K", b->cross_4k, total);
	print_stat(f, "CROSS_2M", b->cross_2m, total);
	for (size_t i = 0; i < 16; i++)
		print_stat(f, types[i], b->counts[i], total);
	for (size_t i = 0; i < 8; i++)
		print_stat(f, new_types[i], b->new_counts[i], total);
}

bool report_branch_print(FILE *f, const struct report_opts *o, struct report_branch *b,
			 const struct report_event *ev, size_t nr_ev, uint64_t lost_samples)
{
	bool any = false;

	for (size_t i = 0; i < b->nr_ev && i < nr_ev; i++)
		any |= b->ev[i].total != 0;
	if (!o->quiet && !o->header)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", f);
	if (!any)
		return false;
	if (!o->quiet)
		fprintf(f, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
	for (size_t i = 0; i < b->nr_ev && i < nr_ev; i++)
		if (b->ev[i].total)
			print_table(f, o, &b->ev[i], ev[i].name);
	if (!o->quiet)
		fputs("#\n# (Tip: perfkit report -b shows where the branches went)\n#\n", f);
	print_stats(f, b);
	return true;
}

bool report_branch_wanted(const struct report_opts *o, struct pk_data_reader *r)
{
	uint64_t type = 0;

	if (o->branch_mode != 0)
		return o->branch_mode > 0;
	if (o->sort_given || o->fields_arg || o->format >= 0)
		return false;	/* keys or a --format branch mode has not yet: the usual table */
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	/* perf 6.1: the BRANCH_STACK feature turns -b on, unless the samples
	 * carry a user stack (a --call-graph dwarf recording). */
	return pk_data_reader_has_feature(r, PK_DATA_FEAT_BRANCH_STACK) && !(type & PERF_SAMPLE_STACK_USER);
}
