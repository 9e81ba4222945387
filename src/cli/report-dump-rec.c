/* SPDX-License-Identifier: MIT */
/*
 * report-dump-rec.c - the decoded lines of perf report -D / perf script -D
 * beyond a record's header line, for what report-dump.c hands over: a
 * sample's branch stack, registers, user stack, weight, data source,
 * physical address, page sizes and transaction (perf 6.1's dump_sample);
 * the READ, NAMESPACES, CGROUP, BPF_EVENT, THROTTLE, AUX, ITRACE_START,
 * TEXT_POKE and AUX_OUTPUT_HW_ID records; perf stat's STAT_CONFIG, STAT and STAT_ROUND
 * and TIME_CONV, each as the handler perf's report or script installs for
 * it prints it under -D (util/session.c, util/event.c, util/stat.c),
 * written anew here.
 */
#include "report-dump.h"

#include <inttypes.h>
#include <string.h>

/* perf's PERF_STAT_CONFIG_TERM__* and PERF_STAT_ROUND_TYPE__FINAL. */
enum { STAT_TERM_AGGR_MODE, STAT_TERM_INTERVAL, STAT_TERM_SCALE };
enum { T_TIME_CONV = 79, T_STAT_CONFIG = 75, T_STAT = 76, T_STAT_ROUND = 77 };

/* perf_reg_name for x86: the PERF_REG_X86_* names; an XMM register is
 * two 64-bit halves with the one name. */
static const char *reg_name(unsigned int id)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < sizeof(names) / sizeof(names[0]))
		return names[id];
	if (id >= 32 && id < 64)
		return xmm[(id - 32) / 2];
	return "unknown";
}

/* regs__printf: only when the kernel wrote them (ABI not NONE). */
static void print_regs(FILE *f, const char *type, const struct pk_sample_regs *r)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	uint32_t i = 0;

	if (!r->abi || !r->regs)
		return;
	fprintf(f, "... %s regs: mask %#" PRIx64 " ABI %s\n", type, r->mask, r->abi < 3 ? abi[r->abi] : "unknown");
	for (unsigned int id = 0; id < 64 && i < r->nr; id++)
		if (r->mask & (1ULL << id))
			fprintf(f, ".... %-5s 0x%016" PRIx64 "\n", reg_name(id), r->regs[i++]);
}

/* get_branch_type: "" for PERF_BR_UNKNOWN, the new type's name for
 * PERF_BR_EXTEND_ABI, else the type's. */
static const char *branch_type(const struct perf_branch_entry *e)
{
	return e->type == PERF_BR_UNKNOWN ? "" : pk_branch_type_name(e->type, e->new_type);
}

void report_dump_lbr_chain(FILE *f, const struct pk_sample *s, const struct perf_event_attr *a)
{
	uint64_t k = 0, nr = s->callchain.nr;

	if (!(a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		return;
	while (k < nr && s->callchain.ips[k] != PERF_CONTEXT_USER)
		k++;
	if (k == nr || !s->branch.nr)
		return;
	/* the kernel part and PERF_CONTEXT_USER, the first entry's "to" (the
	 * innermost user function), then every entry's "from" (its callers) */
	fprintf(f, "... LBR call chain: nr:%" PRIu64 "\n", k + 1 + s->branch.nr + 1);
	for (uint64_t i = 0; i <= k; i++)
		fprintf(f, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain.ips[i]);
	fprintf(f, "..... %2d: %016" PRIx64 "\n", (int)(k + 1), (uint64_t)s->branch.entries[0].to);
	for (uint64_t i = 0; i < s->branch.nr; i++)
		fprintf(f, "..... %2d: %016" PRIx64 "\n", (int)(i + k + 2), (uint64_t)s->branch.entries[i].from);
}

/* branch_stack__printf: the entries, or with the call-stack mode the
 * call stack they expand to (nr + 1 addresses). */
static void print_branches(FILE *f, const struct pk_sample *s, const struct perf_event_attr *a)
{
	bool callstack = a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;

	fprintf(f, "... branch %s: nr:%" PRIu64 "\n", callstack ? "callstack" : "stack",
		s->branch.nr + (callstack ? 1 : 0));
	for (uint64_t i = 0; i < s->branch.nr; i++) {
		const struct perf_branch_entry *e = &s->branch.entries[i];

		if (!callstack)
			fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n",
				i, (uint64_t)e->from, (uint64_t)e->to, (unsigned short)e->cycles,
				e->mispred ? "M" : " ", e->predicted ? "P" : " ", e->abort ? "A" : " ",
				e->in_tx ? "T" : " ", (unsigned int)e->reserved, branch_type(e));
		else if (i == 0)
			fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 "\n..... %2" PRIu64 ": %016" PRIx64 "\n",
				i, (uint64_t)e->to, i + 1, (uint64_t)e->from);
		else
			fprintf(f, "..... %2" PRIu64 ": %016" PRIx64 "\n", i + 1, (uint64_t)e->from);
	}
}

/* Where the STACK_USER size word is in the record: what perf prints as the
 * user stack's offset.  The fields before it, in the kernel's order. */
static uint64_t ustack_offset(const struct pk_sample *s, uint64_t t)
{
	static const uint64_t u64s[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
		PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
	};
	uint64_t at = sizeof(struct perf_event_header);

	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		at += t & u64s[i] ? 8 : 0;
	if (t & PERF_SAMPLE_READ)
		at += s->read.len;
	if (t & PERF_SAMPLE_CALLCHAIN)
		at += 8 + 8 * s->callchain.nr;
	if (t & PERF_SAMPLE_RAW)
		at += (4 + s->raw.size + 7) / 8 * 8;
	if (t & PERF_SAMPLE_BRANCH_STACK)
		at += 8 + (s->branch.has_hw_idx ? 8 : 0) + s->branch.nr * sizeof(struct perf_branch_entry);
	if (t & PERF_SAMPLE_REGS_USER)
		at += 8 + (s->regs_user.abi ? 8 * (uint64_t)s->regs_user.nr : 0);
	return at;
}

/* get_page_size_name: unit_number__scnprintf, "N/A" for 0. */
static void print_page_size(FILE *f, const char *what, uint64_t n)
{
	int unit = 0;

	if (!n) {
		fprintf(f, " .. %s page size: N/A\n", what);
		return;
	}
	while (n / 1024 > 1 && unit < 3) {
		n /= 1024;
		unit++;
	}
	fprintf(f, " .. %s page size: %" PRIu64 "%c\n", what, n, "BKMG"[unit]);
}

void report_dump_sample_extra(FILE *f, const struct pk_sample *s, const struct perf_event_attr *a)
{
	uint64_t t = a->sample_type;

	if (t & PERF_SAMPLE_BRANCH_STACK)
		print_branches(f, s, a);
	if (t & PERF_SAMPLE_REGS_USER)
		print_regs(f, "user", &s->regs_user);
	if (t & PERF_SAMPLE_REGS_INTR)
		print_regs(f, "intr", &s->regs_intr);
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf(f, "... ustack: size %" PRIu64 ", offset %#" PRIx64 "\n", s->stack.size ? s->stack.dyn_size : 0,
			ustack_offset(s, t));
	if (t & PERF_SAMPLE_WEIGHT_TYPE) {
		/* x86's arch_perf_parse_sample_weight: the struct's var1 and
		 * var2 (ins_lat); p_stage_cyc stays 0 */
		if (t & PERF_SAMPLE_WEIGHT)
			fprintf(f, "... weight: %" PRIu64 "", s->weight.full);
		else
			fprintf(f, "... weight: %" PRIu32 ",0x%x,0x0", s->weight.var1, s->weight.var2);
		fputc('\n', f);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(f, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(f, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		print_page_size(f, "data", s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		print_page_size(f, "code", s->code_page_size);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(f, "... transaction: %" PRIx64 "\n", s->transaction);
}

/* The u64 at byte `off` of the record, 0 past its end. */
static uint64_t u64_in(const struct perf_event_header *h, size_t off)
{
	return off + 8 <= h->size ? cli_u64_at((const unsigned char *)h + off) : 0;
}

void report_dump_read(FILE *f, const struct perf_event_header *h, const char *name,
		      const struct perf_event_attr *a)
{
	const unsigned char *p = (const unsigned char *)h;
	uint32_t pid = 0, tid = 0;

	if (h->size >= 16) {
		memcpy(&pid, p + 8, sizeof(pid));
		memcpy(&tid, p + 12, sizeof(tid));
	}
	fprintf(f, ": %d %d %s %" PRIu64 "\n", (int)pid, (int)tid, name ? name : "unknown", u64_in(h, 16));
	if (!a)
		return;
	/* perf 6.1 reads its struct perf_record_read, whose fields sit where a
	 * read_format with all four puts them, whatever the event's read_format
	 * (perf record -s asks for all four) */
	if (a->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(f, "... time enabled : %" PRIu64 "\n", u64_in(h, 24));
	if (a->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(f, "... time running : %" PRIu64 "\n", u64_in(h, 32));
	if (a->read_format & PERF_FORMAT_ID)
		fprintf(f, "... id           : %" PRIu64 "\n", u64_in(h, 40));
	if (a->read_format & PERF_FORMAT_LOST)
		fprintf(f, "... lost         : %" PRIu64 "\n", u64_in(h, 48));
}

/* perf_event__fprintf_namespaces: four to a line. */
static void print_namespaces(FILE *f, const struct pk_rec_namespaces *n)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

	fprintf(f, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid, (unsigned int)n->nr);
	for (uint64_t i = 0; i < n->nr; i++) {
		if (i && i % 4 == 0)
			fputs("\n\t\t ", f);
		fprintf(f, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i, i < 7 ? names[i] : "UNKNOWN",
			(uint64_t)n->links[i].dev, (uint64_t)n->links[i].ino, i + 1 != n->nr ? ", " : "]\n");
	}
}

/* binary__fprintf with perf's text_poke_printer: 16 bytes a line. */
static void print_poke_bytes(FILE *f, const char *which, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (i % 16 == 0)
			fprintf(f, "            %s bytes:", which);
		fprintf(f, " %02x", b[i]);
		if (i % 16 == 15 || i == len - 1)
			fputc('\n', f);
	}
}

void report_dump_text_poke(FILE *f, const struct pk_record *d, struct pk_resolver *res)
{
	struct pk_location loc = { .size = sizeof(loc) };

	fprintf(f, " %" PRIx64 " ", d->text_poke.addr);
	/* perf_event__fprintf_text_poke: the kernel map's symbol, sym+0xoff */
	if (res && pk_maps_resolve(pk_resolver_maps(res), 0, d->text_poke.addr, PERF_RECORD_MISC_KERNEL,
				   &loc) == 0 && loc.sym)
		fprintf(f, "%s+0x%" PRIx64, loc.sym, loc.symoff);
	fprintf(f, " old len %u new len %u\n", d->text_poke.old_len, d->text_poke.new_len);
	print_poke_bytes(f, "Old", d->text_poke.old_bytes, d->text_poke.old_len);
	print_poke_bytes(f, "New", d->text_poke.new_bytes, d->text_poke.new_len);
}

bool report_dump_kernel_rec(FILE *f, const struct pk_record *d, bool script)
{
	switch (d->type) {
	case PERF_RECORD_NAMESPACES:
		print_namespaces(f, &d->namespaces);
		return true;
	case PERF_RECORD_CGROUP:
		fprintf(f, " cgroup: %" PRIu64 " %s\n", d->cgroup.id, d->cgroup.path);
		return true;
	case PERF_RECORD_BPF_EVENT:
		fprintf(f, " type %u, flags %u, id %u\n", d->bpf_event.type, d->bpf_event.flags, d->bpf_event.id);
		return true;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* report has no handler (perf's stub); script's prints nothing,
		 * so the next record's dump continues the line */
		fputs(script ? "" : ": unhandled!\n", f);
		return true;
	case PERF_RECORD_AUX:
		fprintf(f, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			d->aux.aux_offset, d->aux.aux_size, d->aux.flags,
			d->aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			d->aux.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			d->aux.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		return true;
	case PERF_RECORD_ITRACE_START:
		fprintf(f, " pid: %u tid: %u\n", d->itrace_start.pid, d->itrace_start.tid);
		return true;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(f, " hw_id: %#" PRIx64 "\n", d->aux_output_hw_id.hw_id);
		return true;
	default:
		return false;
	}
}

/* perf_event__fprintf_stat_config: nr (tag, value) pairs after the
 * header; perf prints the three terms it knows. */
static void print_stat_config(FILE *f, const unsigned char *p, size_t len)
{
	uint64_t nr = len >= 16 ? cli_u64_at(p + 8) : 0, v[3] = { 0, 0, 0 };

	for (uint64_t i = 0; i < nr && 16 + (i + 1) * 16 <= len; i++) {
		uint64_t tag = cli_u64_at(p + 16 + i * 16);

		if (tag <= STAT_TERM_SCALE)
			v[tag] = cli_u64_at(p + 24 + i * 16);
	}
	fprintf(f, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n", (int)v[STAT_TERM_AGGR_MODE],
		v[STAT_TERM_SCALE] != 0, (unsigned int)v[STAT_TERM_INTERVAL]);
}

bool report_dump_user_rec(FILE *f, const struct perf_event_header *h, bool script)
{
	const unsigned char *p = (const unsigned char *)h;
	int32_t cpu, thread;

	switch (h->type) {
	case T_STAT_CONFIG:
		if (!script)
			print_stat_config(f, p, h->size);
		break;
	case T_STAT:
		if (script || h->size < 48)
			break;
		memcpy(&cpu, p + 16, 4);
		memcpy(&thread, p + 20, 4);
		fprintf(f, "\n... id %" PRIu64 ", cpu %d, thread %d\n", cli_u64_at(p + 8), (int)cpu, (int)thread);
		fprintf(f, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n", cli_u64_at(p + 24),
			cli_u64_at(p + 32), cli_u64_at(p + 40));
		break;
	case T_STAT_ROUND:
		if (!script && h->size >= 24)
			fprintf(f, "\n... time %" PRIu64 ", type %s\n", cli_u64_at(p + 16),
				cli_u64_at(p + 8) == 1 ? "FINAL" : "INTERVAL");
		break;
	case T_TIME_CONV:
		if (h->size < 32)
			break;
		fprintf(f, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
			"\n... Time Zero       %" PRIu64 "\n", cli_u64_at(p + 8), cli_u64_at(p + 16), cli_u64_at(p + 24));
		/* perf's event_contains: the fields from time_cycles on, when the
		 * record is long enough for time_cycles */
		if (h->size >= 40)
			fprintf(f, "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64
				"\n... Cap Time Zero   %d\n... Cap Time Short  %d\n", cli_u64_at(p + 32),
				h->size >= 48 ? cli_u64_at(p + 40) : 0, h->size >= 50 ? p[48] : 0, h->size >= 50 ? p[49] : 0);
		fputs(": unhandled!\n", f);
		return true;
	default:
		return false;
	}
	/* script's stat handlers print nothing here; report's are perf's stubs */
	fputs(script ? "" : ": unhandled!\n", f);
	return true;
}
