/* SPDX-License-Identifier: MIT */
/*
 * report-mem.c - perf 6.1's report --mem-mode: each sample counted by its
 * weight (its hist_iter_mem), perf's default memory sort order, the data
 * address resolved to an object and a symbol (pk_maps_resolve_data, as
 * perf's sample__resolve_mem), and the memory keys' fields, headers,
 * widths (its hists__calc_col_len) and cells (util/sort.c's sort_mem_*,
 * the data_src words from mem-src.c, shared with script's data_src).  The
 * histogram groups and orders them (analysis/hist-keys-mem.c).
 */
#include "report.h"
#include "dso-names.h"
#include "mem-src.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* perf's default_mem_sort_order (its local_p_stage_cyc is dropped on x86) */
static const char default_order[] = "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,"
				    "blocked,local_ins_lat,local_p_stage_cyc";

const char *report_mem_default_order(void)
{
	return default_order;
}

/* perf's PERF_MEM_DATA_SRC_NONE, a sample's word when it carries none:
 * every field N/A. */
#define DATA_SRC_NONE (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) | \
		       PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA))

/* The width of an address printed by perf's "%-#.*llx" of BITS_PER_LONG / 4. */
#define ADDR_DIGITS 16

bool report_mem_key(enum pk_hist_key k)
{
	return k >= PK_HIST_KEY_MEM_DADDR_SYM && k < PK_HIST_KEY_NR;
}

static bool uses(const struct report_opts *o, enum pk_hist_key k)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == k)
			return true;
	for (size_t i = 0; i < o->nr_out; i++)
		if (o->out[i] == PK_HIST_ORDER_KEY(k))
			return true;
	return false;
}

int report_mem_setup(struct report_opts *o)
{
	long line;
	int rc;

	if (!o->mem_mode)
		return 0;
	if (o->branch_mode > 0)
		return cli_usage("report", "branch and mem mode incompatible");
	if (!o->sort_given && (rc = report_parse_sort(o, default_order)))
		return rc;
	/* perf's cacheline_size(): this machine's, not the recording's */
	line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	o->cacheline = line > 0 ? (unsigned int)line : 0;
	if (!o->cacheline && uses(o, PK_HIST_KEY_MEM_DCACHELINE))
		return cli_usage("report", "Invalid --sort key: `dcacheline' (the cache line size is unknown)");
	return 0;
}

int report_mem_check(const struct report_opts *o, struct pk_data_reader *r)
{
	struct pk_data_layout l = { .size = sizeof(l) };
	uint64_t type = 0;

	/* perf checks a file, not a pipe-mode stream (no header offsets) */
	if (!o->mem_mode || (pk_data_reader_layout(r, &l) == 0 && !l.data_offset))
		return 0;
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	if (type & PERF_SAMPLE_DATA_SRC)
		return 0;
	cli_message(stderr, "Selected --mem-mode but no mem data. Did you call perf record without -d?\n");
	return CLI_EXIT_EVENT;
}

/* The cache line's fields: perf's cl_address of the address in its map,
 * that line's offset from the symbol, and the mark it is shown with. */
static void fill_line(const struct report_opts *o, const struct pk_location *loc, uint64_t daddr,
		      struct pk_hist_sample *s)
{
	uint64_t mask = o->cacheline ? ~(uint64_t)(o->cacheline - 1) : ~(uint64_t)0;

	s->dcacheline = loc->map_ip & mask;
	/* perf prints that map-relative line less the symbol's address in
	 * the process, whatever the difference */
	s->dcl_symoff = s->dcacheline - (daddr - loc->symoff);
	if (!loc->dso)
		s->dcl_level = 'X';
	else if (s->level != 'k' && !(loc->map_prot & PROT_EXEC) && (loc->map_flags & MAP_SHARED) &&
		 (loc->dso->maj || loc->dso->min || loc->dso->ino || loc->dso->ino_generation))
		s->dcl_level = 's';
	else
		s->dcl_level = s->level;
}

/* A data map's object as perf names it: the file's base name, and so
 * "anon" for //anon and "[stack]" (the CLI's names for code there are
 * the JIT's); -v's long name for a file. */
static const char *data_dso_name(const struct report_opts *o, struct cli_names *names, const struct pk_dso *d,
				 uint32_t pid, bool *nomem)
{
	const char *slash, *name;

	if (!cli_dso_is_jit(d))
		return o->verbose ? report_verbose_dso(o, names, d, pid, nomem) : cli_dso_short_name(names, d, pid, nomem);
	slash = d->name[0] == '/' ? strrchr(d->name, '/') : NULL;
	name = cli_names_intern(names, o->verbose || !slash ? d->name : slash + 1);
	*nomem = !name;
	return name;
}

int report_mem_fill(const struct report_opts *o, struct cli_names *names, struct pk_maps *maps,
		    const struct pk_sample *smp, const struct pk_resolved_sample *rs, struct pk_hist_sample *s)
{
	struct pk_location loc;	/* made after the test: zeroing it showed in every sample's cost */
	uint64_t daddr = smp->fields & PERF_SAMPLE_ADDR ? smp->addr : 0;
	bool nomem = false;

	if (!o->mem_mode)
		return 0;
	loc = (struct pk_location){ .size = sizeof(loc) };
	s->period = s->weight ? s->weight : 1;	/* perf's cost: the weight, 1 without one */
	s->data_src = smp->fields & PERF_SAMPLE_DATA_SRC ? smp->data_src : DATA_SRC_NONE;
	s->iaddr = smp->ip;
	s->daddr = daddr;
	s->phys_addr = smp->fields & PERF_SAMPLE_PHYS_ADDR ? smp->phys_addr : 0;
	s->data_page_size = smp->fields & PERF_SAMPLE_DATA_PAGE_SIZE ? smp->data_page_size : 0;
	/* perf's ip__resolve_data looks in the sample's mode alone, unlike
	 * pk_maps_resolve_data (perf's thread__resolve): a kernel sample's
	 * user address is in no map */
	pk_maps_resolve(maps, rs->pid, daddr, rs->cpumode, &loc);
	if (loc.dso) {
		s->daddr_dso = data_dso_name(o, names, loc.dso, rs->pid, &nomem);
		if (nomem)
			return -ENOMEM;
		s->daddr_obj = loc.dso;
		/* perf's test for private anonymous memory: a zero dso id */
		s->daddr_anon = s->level != 'k' && !(loc.map_flags & MAP_SHARED) && !loc.dso->maj && !loc.dso->min &&
				!loc.dso->ino && !loc.dso->ino_generation;
	}
	s->daddr_sym = loc.sym;
	s->daddr_symoff = loc.symoff;
	s->daddr_object = loc.sym_object;
	fill_line(o, &loc, daddr, s);
	return 0;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

void report_mem_widths(const struct pk_hist *h, const struct report_opts *o, int *w)
{
	int *sym = &w[PK_HIST_KEY_MEM_DADDR_SYM - PK_HIST_KEY_MEM_DADDR_SYM];
	int *code = &w[PK_HIST_KEY_MEM_IADDR_SYM - PK_HIST_KEY_MEM_DADDR_SYM];
	int *dso = &w[PK_HIST_KEY_MEM_DADDR_DSO - PK_HIST_KEY_MEM_DADDR_SYM];
	int *line = &w[PK_HIST_KEY_MEM_DCACHELINE - PK_HIST_KEY_MEM_DADDR_SYM];
	/* perf's fixed widths, set by every entry */
	static const struct { enum pk_hist_key k; int w; } fixed[] = {
		{ PK_HIST_KEY_MEM_PHYS_DADDR, ADDR_DIGITS + 6 }, { PK_HIST_KEY_MEM_DATA_PAGE_SIZE, ADDR_DIGITS + 6 },
		{ PK_HIST_KEY_MEM_LOCKED, 6 }, { PK_HIST_KEY_MEM_TLB, 22 }, { PK_HIST_KEY_MEM_SNOOP, 12 },
		{ PK_HIST_KEY_MEM_LVL, 24 }, { PK_HIST_KEY_MEM_BLOCKED, 10 },
	};

	memset(w, 0, REPORT_MEM_NR_KEYS * sizeof(*w));
	for (size_t i = 0; i < pk_hist_nr(h); i++) {
		const struct pk_hist_entry *e = pk_hist_get(h, i);
		int unresolved = ADDR_DIGITS + 4 + 2;

		if (e->s.filtered)
			continue;
		*sym = max_int(*sym, e->s.daddr_sym ? (int)strlen(e->s.daddr_sym) + 4 + unresolved - 4 : unresolved);
		*line = max_int(*line, e->s.daddr_sym ? (int)strlen(e->s.daddr_sym) + 4 + unresolved - 3 : unresolved);
		*code = max_int(*code, e->s.sym ? (int)strlen(e->s.sym) + 4 + unresolved - 4 : unresolved);
		if (e->s.daddr_dso)
			*dso = max_int(*dso, (int)strlen(e->s.daddr_dso));
		else if (*dso < ADDR_DIGITS && !o->dsos && !o->f4.nr_widths && !o->f2.field_sep)
			*dso = ADDR_DIGITS;	/* perf's hists__set_unres_dso_col_len */
		for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
			w[fixed[k].k - PK_HIST_KEY_MEM_DADDR_SYM] = fixed[k].w;
	}
}

const char *report_mem_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_MEM_DADDR_SYM: return "Data Symbol";
	case PK_HIST_KEY_MEM_IADDR_SYM: return "Code Symbol";
	case PK_HIST_KEY_MEM_DADDR_DSO: return "Data Object";
	case PK_HIST_KEY_MEM_LOCKED: return "Locked";
	case PK_HIST_KEY_MEM_TLB: return "TLB access";
	case PK_HIST_KEY_MEM_LVL: return "Memory access";
	case PK_HIST_KEY_MEM_SNOOP: return "Snoop";
	case PK_HIST_KEY_MEM_DCACHELINE: return "Data Cacheline";
	case PK_HIST_KEY_MEM_PHYS_DADDR: return "Data Physical Address";
	case PK_HIST_KEY_MEM_DATA_PAGE_SIZE: return "Data Page Size";
	case PK_HIST_KEY_MEM_BLOCKED: return "Blocked";
	default: return "?";
	}
}

/* perf's _hist_entry__sym_snprintf: with -v the address and where the
 * object's symbols came from, "[l] ", then an object as name+0xOFFSET, a
 * function's name cut to the column, or the address.  Returns the
 * characters printed. */
static int print_sym(FILE *f, const struct report_opts *o, const char *dso, char level, const char *sym,
		     bool object, uint64_t off, uint64_t addr, int w)
{
	int n = 0;

	if (o->verbose)
		n = fprintf(f, "%-#*" PRIx64 " %c ", ADDR_DIGITS + 2, addr, report_verbose_origin(o, dso));
	n += fprintf(f, "[%c] ", level);

	if (sym && object)
		n += fprintf(f, "%s+0x%" PRIx64, sym, off);
	else if (sym)
		n += fprintf(f, "%.*s", w - n < 0 ? (int)strlen(sym) : w - n, sym);
	else
		n += fprintf(f, "%-#.*" PRIx64, ADDR_DIGITS, addr);
	return n;
}

/* One data_src field in perf's 64-byte (lock: 10, block: 16) buffer. */
static void src_text(enum pk_hist_key k, uint64_t word, struct mem_line *l)
{
	struct pk_data_src m = pk_record_data_src(word);

	switch (k) {
	case PK_HIST_KEY_MEM_LOCKED: mem_line_init(l, 8); mem_src_lock(l, &m); break;
	case PK_HIST_KEY_MEM_BLOCKED: mem_line_init(l, 14); mem_src_blk(l, &m); break;
	case PK_HIST_KEY_MEM_TLB: mem_line_init(l, 62); mem_src_tlb(l, &m); break;
	case PK_HIST_KEY_MEM_SNOOP: mem_line_init(l, 62); mem_src_snoop(l, &m); break;
	default: mem_line_init(l, 62); mem_src_lvl(l, &m); break;
	}
}

void report_mem_print(FILE *f, const struct report_opts *o, enum pk_hist_key k, int w,
		      const struct pk_hist_entry *e, bool last)
{
	const struct pk_hist_sample *s = &e->s;
	struct mem_line l;
	char name[32];
	int n = w;

	switch (k) {
	case PK_HIST_KEY_MEM_DADDR_SYM:
		n = print_sym(f, o, s->daddr_dso, s->level, s->daddr_sym, s->daddr_object, s->daddr_symoff, s->daddr,
			      w);
		break;
	case PK_HIST_KEY_MEM_IADDR_SYM:
		n = print_sym(f, o, s->dso, s->level, s->sym, false, 0, s->iaddr, w);
		break;
	case PK_HIST_KEY_MEM_DCACHELINE:
		n = print_sym(f, o, s->daddr_dso, s->dcl_level, s->daddr_sym, s->daddr_object, s->dcl_symoff,
			      s->dcacheline, w);
		break;
	case PK_HIST_KEY_MEM_DADDR_DSO:
		fprintf(f, "%-*.*s", w, w, s->daddr_dso ? s->daddr_dso : "[unknown]");
		break;
	case PK_HIST_KEY_MEM_LOCKED:	/* perf's "%.*s": cut, padded but last */
	case PK_HIST_KEY_MEM_BLOCKED:
		src_text(k, s->data_src, &l);
		n = fprintf(f, "%.*s", w, l.buf);
		break;
	case PK_HIST_KEY_MEM_PHYS_DADDR:	/* always the column's width */
		snprintf(l.buf, sizeof(l.buf), "[%c] %-#.*" PRIx64, s->level, ADDR_DIGITS, s->phys_addr);
		fprintf(f, "%-*.*s", w, w, l.buf);
		break;
	case PK_HIST_KEY_MEM_DATA_PAGE_SIZE:
		fprintf(f, "%-*s", w, mem_page_size_name(name, sizeof(name), s->data_page_size));
		break;
	default:	/* tlb, mem, snoop: "%-*s" */
		src_text(k, s->data_src, &l);
		fprintf(f, "%-*s", w, l.buf);
		break;
	}
	if (!last && n < w)
		fprintf(f, "%*s", w - n, "");
}

void report_mem_totals(FILE *f, const struct report_opts *o, uint64_t period)
{
	const char *order = o->sort_given ? o->sort_arg : default_order;

	if (!o->mem_mode) {
		fprintf(f, "# Event count (approx.): %" PRIu64 "\n", period);
		return;
	}
	fprintf(f, "# Total weight : %" PRIu64 "\n", period);
	/* perf's sort_order, with the ipc_null it adds to one naming "symbol" */
	fprintf(f, "# Sort order   : %s%s\n", order, o->sort_given && strstr(order, "symbol") ? ",ipc_null" : "");
}
