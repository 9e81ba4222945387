/* SPDX-License-Identifier: MIT */
/*
 * script-brstackinsn.c - perf script 6.1's -F brstackinsn and
 * brstackinsnlen: a sample's branch stack as the code it ran.  The block
 * between one branch's target and the next branch's source is read from
 * its DSO's file and printed one x86-64 instruction per line (its bytes,
 * lengths from x86-insn.c, as perf's insn decoder finds them), with the
 * function's name where the block enters a new one; each block's last
 * instruction carries the branch's flags, its cycles and the IPC.  Then
 * the oldest branch's source, and the block from the newest branch to
 * the sample's ip (stopped at a branch that does not reach it).  Where
 * perf reads no code (the kernel, a block too long or running backwards,
 * an address no map holds) it prints nothing, and so does this.
 */
#include "script-fields.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAXBB 16384u	/* perf's longest block */
#define MAXINSN 15u	/* the longest x86 instruction */

struct bb_state {
	FILE *f;
	struct script_ctx *c;
	uint32_t pid;
	bool ilen;		/* brstackinsnlen */
	bool srcline;		/* -F srcline: each function's name with its line */
	bool srccode;		/* -F srccode: the source line of each instruction */
	uint32_t tid;		/* whose srccode state (the last line printed) */
	uint8_t mode;		/* of the block read last: PERF_RECORD_MISC_KERNEL or _USER */
	bool have_sym;		/* the function named last, to name each once */
	const struct pk_dso *sym_dso;
	uint64_t sym_start;
	const char *sym;
	int total_cycles;
	uint8_t buf[MAXBB];
};

static bool is_kernel(uint64_t addr)
{
	return addr >= 0xffff800000000000ull;
}

/* perf's grab_bb: the code from start to end and an instruction beyond
 * into st->buf; its length, 0 for none, -ENXIO for a block that crosses
 * between kernel and user (the caller may join it to the next). */
static int grab_bb(struct bb_state *st, uint64_t start, uint64_t end)
{
	bool kernel = is_kernel(start);

	if (!start || !end)
		return 0;
	st->mode = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (kernel != is_kernel(end))
		return -ENXIO;
	if (end - start > MAXBB - MAXINSN)	/* also a block that runs backwards */
		return 0;
	return (int)script_code_read(st->c, st->pid, start, st->buf, end - start + MAXINSN);
}

/* The source line -F srcline prints for a sample, after a tab here (perf
 * passes its map__fprintf_srcline another prefix). */
static void print_srcline(struct bb_state *st, const struct pk_location *loc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	script_print_srcline(m, st->c->res, loc, NULL, !st->c->o->no_inline);
	if (fclose(m) == 0 && len > 3 && !strncmp(text, "\n  ", 3))
		fprintf(st->f, "\t%s", text + 3);
	free(text);
}

/* perf's print_srccode: the source line of the instruction at ip, when
 * -F srccode asks and it is not the line the thread printed last. */
static void print_srccode(struct bb_state *st, uint64_t ip)
{
	struct pk_location loc = { .size = sizeof(loc) };

	if (st->srccode && pk_maps_resolve(pk_resolver_maps(st->c->res), st->pid, ip, st->mode, &loc) == 0 &&
	    loc.dso)
		(void)script_print_srccode(st->f, &st->c->srccode, st->c->res, st->tid, &loc);
}

/* The function's name, "\tname+off:", where addr enters one other than
 * the function named last; nothing where no symbol holds it. */
static void print_sym(struct bb_state *st, uint64_t addr)
{
	struct pk_location loc = { .size = sizeof(loc) };

	if (pk_maps_resolve(pk_resolver_maps(st->c->res), st->pid, addr, st->mode, &loc) < 0 || !loc.sym)
		return;
	if (st->have_sym && loc.dso == st->sym_dso && loc.sym_start == st->sym_start &&
	    !strcmp(loc.sym, st->sym))
		return;
	fprintf(st->f, "\t%s", loc.sym);
	if (loc.symoff)
		fprintf(st->f, "%+d", (int)loc.symoff);
	fputc(':', st->f);
	if (st->srcline)
		print_srcline(st, &loc);
	fputc('\n', st->f);
	st->have_sym = true;
	st->sym_dso = loc.dso;
	st->sym_start = loc.sym_start;
	st->sym = loc.sym;	/* the maps' string: lives as long as they do */
}

/* perf's dump_insn: "insn: xx xx " for the instruction at b, its length
 * in *ilen; "<bad>" and *ilen left alone where none decodes. */
static const char *dump_insn(const uint8_t *b, int n, int *ilen, char *out)
{
	int len = n > 0 ? script_insn_len(b, (size_t)n) : -1;
	size_t at;

	if (len < 0)
		return "<bad>";
	*ilen = len;
	at = (size_t)sprintf(out, "insn: ");
	for (int i = 0; i < len; i++)
		at += (size_t)sprintf(out + at, "%02x ", b[i]);
	return out;
}

/* One instruction that is not a block's last. */
static int print_insn(struct bb_state *st, uint64_t ip, const uint8_t *b, int n)
{
	char out[64];
	int ilen = 0;

	fprintf(st->f, "\t%016" PRIx64 "\t%s", ip, dump_insn(b, n, &ilen, out));
	if (st->ilen)
		fprintf(st->f, "\tilen: %d", ilen);
	fputc('\n', st->f);
	return ilen;
}

/* A block's last instruction, the branch e leaves from: its flags, and
 * with its cycles the running total and (insn > 0) the block's IPC. */
static void print_jump(struct bb_state *st, uint64_t ip, const struct perf_branch_entry *e, const uint8_t *b,
		       int n, int insn)
{
	char out[64];
	int ilen = 0;
	const char *text = dump_insn(b, n, &ilen, out);

	fprintf(st->f, "\t%016" PRIx64 "\t%-30s\t", ip, text);
	if (st->ilen)
		fprintf(st->f, "ilen: %d\t", ilen);
	fprintf(st->f, "#%s%s%s%s", e->predicted ? " PRED" : "", e->mispred ? " MISPRED" : "",
		e->in_tx ? " INTX" : "", e->abort ? " ABORT" : "");
	if (e->cycles) {
		st->total_cycles += (int)e->cycles;
		fprintf(st->f, " %d cycles [%d]", (int)e->cycles, st->total_cycles);
		if (insn)
			fprintf(st->f, " %.2f IPC", (double)((float)insn / (float)e->cycles));
	}
	fputc('\n', st->f);
}

/* The block from start to end, where branch e leaves: every instruction,
 * and perf's note where they do not end at `end`. */
static void print_block(struct bb_state *st, uint64_t start, uint64_t end, int len,
			const struct perf_branch_entry *e)
{
	unsigned int off;
	int insn = 0, ilen = 0;

	for (off = 0; off < (unsigned int)len; off += (unsigned int)ilen) {
		uint64_t ip = start + off;

		print_sym(st, ip);
		if (ip == end) {
			print_jump(st, ip, e, st->buf + off, len - (int)off, ++insn);
			print_srccode(st, ip);
			break;
		}
		if ((ilen = print_insn(st, ip, st->buf + off, len - (int)off)) == 0)
			break;
		print_srccode(st, ip);
		insn++;
	}
	if (off != end - start)
		fputs("\tmismatch of LBR data and executable\n", st->f);
}

/* What intel-pt's decoder calls a branch; VEX/EVEX instructions never are. */
bool script_insn_is_branch(const uint8_t *b, int n)
{
	static const uint8_t prefixes[] = { 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0, 0xf2, 0xf3 };
	int i = 0, len = n > 0 ? script_insn_len(b, (size_t)n) : -1;
	uint8_t op, next;

	if (len < 0)
		return true;
	while (i < len && memchr(prefixes, b[i], sizeof(prefixes)))
		i++;
	if (i < len && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i >= len || b[i] == 0xc4 || b[i] == 0xc5 || b[i] == 0x62)
		return false;
	op = b[i];
	next = i + 1 < len ? b[i + 1] : 0;
	if (op == 0x0f) {
		uint8_t modrm = i + 2 < len ? b[i + 2] : 0;

		return (next == 0x01 && (modrm == 0xc2 || modrm == 0xc3)) || next == 0x05 || next == 0x34 ||
		       next == 0x07 || next == 0x35 || (next >= 0x80 && next <= 0x8f);
	}
	if (op == 0xff)
		return ((next >> 3) & 7) >= 2 && ((next >> 3) & 7) <= 5;
	return (op >= 0x70 && op <= 0x7f) || op == 0xc2 || op == 0xc3 || op == 0xca || op == 0xcb ||
	       (op >= 0xcc && op <= 0xcf) || op == 0xe8 || op == 0x9a || (op >= 0xe0 && op <= 0xe3) ||
	       op == 0xe9 || op == 0xeb || op == 0xea;
}

/* The block from the newest branch's target to the sample's ip: up to a
 * branch that is not the ip (one the stack missed), or 128 bytes where
 * the ip is before the target; the ip alone where no code is read. */
static void print_last_block(struct bb_state *st, const struct pk_sample *s)
{
	uint64_t start = s->branch.entries[0].to, end = s->ip < start ? start + 128 : s->ip;
	int len = grab_bb(st, start, end), ilen;

	print_sym(st, start);
	if (len <= 0) {
		if ((len = grab_bb(st, s->ip, s->ip)) > 0) {
			print_insn(st, s->ip, st->buf, len);
			print_srccode(st, s->ip);
		}
		return;
	}
	for (uint64_t off = 0; off <= end - start; off += (unsigned int)ilen) {
		if ((ilen = print_insn(st, start + off, st->buf + off, len - (int)off)) == 0)
			break;
		if (script_insn_is_branch(st->buf + off, len - (int)off) && start + off != s->ip) {
			fputs("\t... not reaching sample ...\n", st->f);
			break;
		}
		print_srccode(st, start + off);
	}
}

/* script_print_brstackinsn's blocks, when there are some to print. */
static void print_blocks(FILE *f, struct script_ctx *c, const struct script_type *t,
			 const struct pk_sample *s, uint32_t pid)
{
	struct bb_state st = { .f = f, .c = c, .pid = pid, .ilen = t->fields & SF_BRSTACKINSNLEN,
			       .srcline = t->fields & SF_SRCLINE, .srccode = t->fields & SF_SRCCODE, .tid = s->tid };
	const struct perf_branch_entry *e = s->branch.entries;
	int nr = (int)s->branch.nr, len;

	if (c->o->max_blocks && (uint64_t)nr > c->o->max_blocks + 1)
		nr = (int)c->o->max_blocks + 1;	/* the blocks between the newest nr branches */
	fputc('\n', f);
	/* the oldest branch: its source alone, the block before it unknown */
	if ((len = grab_bb(&st, e[nr - 1].from, e[nr - 1].from)) > 0) {
		print_sym(&st, e[nr - 1].from);
		print_jump(&st, e[nr - 1].from, &e[nr - 1], st.buf, len, 0);
		print_srccode(&st, e[nr - 1].from);
	}
	for (int i = nr - 2; i >= 0; i--) {
		uint64_t start = e[i + 1].to, end = e[i].from;

		len = grab_bb(&st, start, end);
		if (len == -ENXIO && i > 0) {	/* the kernel's entry filtered out: join */
			end = e[--i].from;
			len = grab_bb(&st, start, end);
		}
		if (len > 0)
			print_block(&st, start, end, len, &e[i]);
	}
	/* the newest branch's source is the ip: its target has not run yet */
	if (e[0].from == s->ip || e[0].abort)
		return;
	print_last_block(&st, s);
}

void script_print_brstackinsn(FILE *f, struct script_ctx *c, const struct script_type *t,
			      const struct pk_sample *s, uint32_t pid)
{
	if (!(t->fields & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN)) || !s->branch.nr)
		return;	/* before st: its 16 KiB zeroed were 82% of every script's instructions */
	print_blocks(f, c, t, s, pid);
}
