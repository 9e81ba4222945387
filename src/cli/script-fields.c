/* SPDX-License-Identifier: MIT */
/*
 * script-fields.c - the optional -F fields of perf script 6.1 that a
 * sample carries beyond where it ran: misc (the cpumode letters), weight,
 * iregs and uregs (" ABI:2    AX:0x... "), the branch stack as addresses
 * (brstack), as symbols (brstacksym) or as DSO offsets (brstackoff), each
 * entry with perf's "/P/-/-/cycles/TYPE" flags, phys_addr, and the data and
 * code page sizes; and perf's check of each against the samples' layout.
 */
#include "script-fields.h"
#include "mem-src.h"

#include <inttypes.h>
#include <string.h>

#define HAS(t, x) ((t)->fields & SF_##x)

/* The fields perf checks against a sample bit, and how it names them. */
static const struct {
	uint64_t field;
	uint64_t sample_bit;
	const char *what, *name;
	bool strict;	/* perf refuses it by name even with AUXTRACE data */
} checks[] = {
	{ SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC", "data_src", false },
	{ SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", "weight", false },
	{ SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", "ins_lat", false },
	{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS", "iregs", false },
	{ SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS", "uregs", true },
	{ SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", "phys_addr", false },
	{ SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", "data_page_size", true },
	{ SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", "code_page_size", true },
};

int script_fields_check(struct script_type *t, const struct perf_event_attr *a, const char *name)
{
	/* perf ORs every event's filter; one event's is what files have */
	if ((t->fields & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN)) && !(a->branch_sample_type & PERF_SAMPLE_BRANCH_ANY)) {
		cli_message(stderr, "Display of branch stack assembler requested, but non all-branch filter set\n"
			    "Hint: run 'perf record -b ...'\n");
		return CLI_EXIT_EVENT;
	}
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if (!(t->fields & checks[i].field) || (a->sample_type & checks[i].sample_bit))
			continue;
		if (t->user_fields & checks[i].field) {
			cli_message(stderr, "Samples for '%s' event do not have %s attribute set. "
				    "Cannot print '%s' field.\n", name, checks[i].what, checks[i].name);
			return CLI_EXIT_EVENT;
		}
		t->fields &= ~checks[i].field;
	}
	return 0;
}

void script_print_misc(FILE *f, uint16_t misc, uint32_t rec_type)
{
	/* perf tests each cpumode as a bit pattern, so HYPERVISOR (3) also
	 * shows K and U, and GUEST_USER (5) K and G */
	static const struct { uint16_t bits; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	char buf[8];
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].bits) == modes[i].bits)
			buf[n++] = modes[i].c;
	if ((rec_type == PERF_RECORD_MMAP || rec_type == PERF_RECORD_MMAP2) &&
	    (misc & PERF_RECORD_MISC_MMAP_DATA))
		buf[n++] = 'M';
	else if (rec_type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
		buf[n++] = 'E';
	else if ((rec_type == PERF_RECORD_SWITCH || rec_type == PERF_RECORD_SWITCH_CPU_WIDE) &&
		 (misc & PERF_RECORD_MISC_SWITCH_OUT)) {
		buf[n++] = 'S';
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			buf[n++] = 'p';
	}
	/* perf pads with "%*s" of one space to six columns: at least one */
	fprintf(f, "%.*s%*s", n, buf, 6 - n, " ");
}

void script_print_weight(FILE *f, const struct script_type *t, const struct pk_sample *s)
{
	if (HAS(t, WEIGHT))
		fprintf(f, "%16" PRIu64, s->fields & PERF_SAMPLE_WEIGHT_STRUCT ? (uint64_t)s->weight.var1
									     : s->weight.full);
	if (HAS(t, INS_LAT))	/* WEIGHT_STRUCT's var2_w, checked there */
		fprintf(f, "%16u", (unsigned)s->weight.var2);
}

static void print_regs(FILE *f, const struct pk_sample_regs *regs, uint64_t mask)
{
	uint32_t i = 0;

	if (!regs->regs || !regs->nr)
		return;
	fprintf(f, " ABI:%" PRIu64 " ", regs->abi);
	for (int bit = 0; bit < 64 && i < regs->nr; bit++) {
		const char *name;

		if (!(mask & (1ull << bit)))
			continue;
		name = pk_regs_name(bit);
		/* glibc prints a NULL %s as "(null)", which perf shows */
		fprintf(f, "%5s:0x%" PRIx64 " ", name ? name : "(null)", regs->regs[i++]);
	}
}

/* Where a branch end is: the sample's cpumode first, then the mode the
 * address belongs to, as perf's thread__find_map_fb. */
/* perf's thread__find_map_fb, or with `symbols` thread__find_symbol_fb:
 * only brstacksym loads a DSO's symbols (see print_branch_end). */
static bool find_branch(struct script_ctx *c, uint32_t pid, uint64_t addr, uint16_t cpumode,
			bool symbols, struct pk_location *loc)
{
	struct pk_maps *m = pk_resolver_maps(c->res);
	uint16_t other = addr >= 0xffff800000000000ull ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	int (*find)(struct pk_maps *, uint32_t, uint64_t, uint16_t, struct pk_location *) =
		symbols ? pk_maps_resolve : pk_maps_find;

	*loc = (struct pk_location){ .size = sizeof(*loc) };
	if (find(m, pid, addr, cpumode, loc) == 0)
		return true;
	if (other == cpumode)
		return false;
	*loc = (struct pk_location){ .size = sizeof(*loc) };
	return find(m, pid, addr, other, loc) == 0;
}

static const char *branch_type(const struct perf_branch_entry *e)
{
	return e->type == PERF_BR_UNKNOWN ? "" : pk_branch_type_name(e->type, e->new_type);
}

static void print_branch_flags(FILE *f, const struct perf_branch_entry *e)
{
	char pred = !(e->mispred || e->predicted) ? '-' : e->predicted ? 'P' : 'M';

	fprintf(f, "/%c/%c/%c/%d/%s ", pred, e->in_tx ? 'X' : '-', e->abort ? 'A' : '-',
		(int)e->cycles, branch_type(e));
}

/* How perf prints a branch stack: brstack wins over brstacksym, which wins
 * over brstackoff. */
enum br_style { BR_ADDR, BR_SYM, BR_OFF };

/* One end of a branch as brstack, brstacksym or brstackoff print it. */
static void print_branch_end(FILE *f, struct script_ctx *c, const struct script_type *t, uint32_t pid,
			     uint64_t addr, uint16_t cpumode, enum br_style style)
{
	struct pk_location loc;
	bool found = find_branch(c, pid, addr, cpumode, style == BR_SYM, &loc);
	const char *dso = found ? script_dso_name(loc.dso) : "[unknown]";

	if (style == BR_SYM) {
		if (found && loc.sym)
			fprintf(f, "%s+0x%" PRIx64, loc.sym, loc.symoff);
		else
			fputs("[unknown]", f);
	} else {
		/* brstackoff: perf 6.1 prints map_ip in a DSO whose symbols it
		 * does not adjust (dso->adjust_symbols 0): the kernel's, and a
		 * user DSO until it has loaded its symbols from a file, which
		 * happens on the first sample ip (or call-chain or brstacksym
		 * address) there in time order, not on a brstackoff end: so
		 * the same DSO prints as offsets before and as addresses after. */
		bool rel = style == BR_OFF && found && (loc.kernel || !loc.dso->symfile);

		fprintf(f, "0x%" PRIx64, rel ? loc.map_ip : addr);
	}
	if (HAS(t, DSO))
		fprintf(f, "(%s)", dso);
}

static void print_brstack(FILE *f, struct script_ctx *c, const struct script_type *t,
			  const struct pk_sample *s, uint32_t pid, uint16_t cpumode)
{
	enum br_style style = HAS(t, BRSTACK) ? BR_ADDR : HAS(t, BRSTACKSYM) ? BR_SYM : BR_OFF;

	for (uint64_t i = 0; i < s->branch.nr; i++) {
		const struct perf_branch_entry *e = &s->branch.entries[i];

		if (style != BR_SYM)
			fputc(' ', f);
		print_branch_end(f, c, t, pid, e->from, cpumode, style);
		fputc('/', f);
		print_branch_end(f, c, t, pid, e->to, cpumode, style);
		print_branch_flags(f, e);
	}
}

/* perf's page size: B, K, M or G, dividing while the quotient exceeds 1. */
static void print_page_size(FILE *f, uint64_t size)
{
	char name[32];

	fprintf(f, " %s", mem_page_size_name(name, sizeof(name), size));
}

void script_print_tail(FILE *f, struct script_ctx *c, const struct script_type *t,
		       const struct perf_event_attr *a, const struct pk_sample *s, uint32_t pid,
		       uint16_t cpumode)
{
	if (HAS(t, IREGS))
		print_regs(f, &s->regs_intr, a->sample_regs_intr);
	if (HAS(t, UREGS))
		print_regs(f, &s->regs_user, a->sample_regs_user);
	if ((t->fields & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF)) && s->branch.nr)
		print_brstack(f, c, t, s, pid, cpumode);
	if (HAS(t, BPF_OUTPUT) && a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT)
		script_print_bpf_output(f, s);
	script_print_insn(f, c, t, s, pid);
	script_print_brstackinsn(f, c, t, s, pid);
	if (HAS(t, PHYS_ADDR))
		fprintf(f, "%16" PRIx64, s->phys_addr);
	if (HAS(t, DATA_PAGE_SIZE))
		print_page_size(f, s->data_page_size);
	if (HAS(t, CODE_PAGE_SIZE))
		print_page_size(f, s->code_page_size);
}
