/* SPDX-License-Identifier: MIT */
/*
 * script-fields2.c - perf script 6.1's -F fields decoded from a sample's
 * words: tod (the wall-clock time of a sample, from the file's CLOCK_DATA
 * pair of a wall-clock and a sampling-clock reading, which perf record -k
 * writes) and data_src (the PERF_SAMPLE_DATA_SRC word in hex and decoded
 * as perf's "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK
 * N/A", each line padded to the widest printed so far); bpf-output (a
 * BPF output event's raw data as perf's hex and character dump, and the
 * string it holds when it is one).
 */
#include "script-fields.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

int script_fields2_setup(struct script_ctx *c, struct pk_data_reader *r, const struct script_opts *o)
{
	struct pk_feature *ft = NULL;
	const struct pk_feature_clock_data *cd;
	bool tod = false;

	if (pk_data_reader_decode(r, PK_DATA_FEAT_CLOCK_DATA, &ft) == 0 && (cd = pk_feature_clock_data(ft))) {
		c->clock_on = true;
		c->tod_ns = cd->tod_ns;
		c->clock_ns = cd->clock_ns;
	}
	pk_feature_free(ft);
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		tod |= (o->type[script_type_of(pk_data_reader_attr(r, i)->type)].fields & SF_TOD) != 0;
	if (tod && !c->clock_on) {
		cli_message(stderr, "Can't provide 'tod' time, missing clock data. "
			    "Please record with -k/--clockid option.\n");
		return CLI_EXIT_EVENT;
	}
	return 0;
}

void script_print_tod(FILE *f, const struct script_ctx *c, uint64_t time)
{
	/* perf moves the wall-clock reading by the sample's distance from the
	 * sampling-clock reading taken with it, in unsigned arithmetic. */
	uint64_t ns = time > c->clock_ns ? c->tod_ns + (time - c->clock_ns) : c->tod_ns - (c->clock_ns - time);
	time_t sec = (time_t)(ns / 1000000000u);
	unsigned long nsec = (unsigned long)(ns % 1000000000u);
	struct tm tm;
	char date[64];

	if (!c->clock_on) {
		fputs("disabled ", f);
		return;
	}
	if (!localtime_r(&sec, &tm)) {
		fputs("failed ", f);
		return;
	}
	strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	if (c->o->ns)
		fprintf(f, "%s.%09lu ", date, nsec);
	else
		fprintf(f, "%s.%06lu ", date, nsec / 1000);
}

/* Appending to a bounded line as perf's scnprintf does: what does not fit
 * is cut, the line stays terminated. */
struct line {
	char buf[100];
	size_t len;
};

static void put(struct line *l, const char *s)
{
	size_t room = sizeof(l->buf) - 1 - l->len, n = strlen(s);

	if (n > room)
		n = room;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

/* perf's walk of a bit mask: each set bit's name, joined by " or ". */
static int put_bits(struct line *l, uint64_t m, const char *const *names, size_t nr, int printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			put(l, " or ");
		put(l, names[i]);
	}
	return printed;
}

static void put_op(struct line *l, uint32_t op)
{
	put(l, op & PERF_MEM_OP_NA ? "N/A" : op & PERF_MEM_OP_LOAD ? "LOAD" : op & PERF_MEM_OP_STORE ? "STORE" :
	       op & PERF_MEM_OP_PFETCH ? "PFETCH" : op & PERF_MEM_OP_EXEC ? "EXEC" : "No");
}

static void put_lvl(struct line *l, const struct pk_data_src *m)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_CXL] = "CXL", [PERF_MEM_LVLNUM_IO] = "I/O",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache", [PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM", [PERF_MEM_LVLNUM_NA] = "N/A",
	};
	size_t start = l->len;
	int printed = 0;
	char num[8];

	if (m->mem_remote)
		put(l, "Remote ");
	/* with hops set perf names them instead of the levels, counting nothing */
	if (m->mem_hops) {
		put(l, m->mem_hops < 5 ? hops[m->mem_hops] : "(null)");
		put(l, " ");
	} else {
		printed = put_bits(l, m->mem_lvl & ~(uint32_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS), lvl,
				   sizeof(lvl) / sizeof(lvl[0]), 0);
	}
	if (m->mem_lvl_num) {
		if (printed++)
			put(l, " or ");
		snprintf(num, sizeof(num), "L%u", m->mem_lvl_num & 15);
		put(l, lvlnum[m->mem_lvl_num & 15] ? lvlnum[m->mem_lvl_num & 15] : num);
	}
	if (l->len == start)
		put(l, "N/A");
	if (m->mem_lvl & PERF_MEM_LVL_HIT)
		put(l, " hit");
	if (m->mem_lvl & PERF_MEM_LVL_MISS)
		put(l, " miss");
}

static void put_snoop(struct line *l, const struct pk_data_src *m)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	int printed = put_bits(l, m->mem_snoop, snoop, 5, 0);

	if (!put_bits(l, m->mem_snoopx, snoopx, 2, printed))
		put(l, "N/A");
}

static void put_tlb(struct line *l, uint32_t m)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

	if (!put_bits(l, m & ~(uint32_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS), tlb, 7, 0))
		put(l, "N/A");
	if (m & PERF_MEM_TLB_HIT)
		put(l, " hit");
	if (m & PERF_MEM_TLB_MISS)
		put(l, " miss");
}

static void put_blk(struct line *l, uint32_t m)
{
	if (!m || (m & PERF_MEM_BLK_NA)) {
		put(l, " N/A");
		return;
	}
	if (m & PERF_MEM_BLK_DATA)
		put(l, " Data");
	if (m & PERF_MEM_BLK_ADDR)
		put(l, " Addr");
}

void script_print_data_src(FILE *f, struct script_ctx *c, uint64_t data_src)
{
	struct pk_data_src m = pk_record_data_src(data_src);
	struct line d = { .len = 0 }, out = { .len = 0 };
	char hex[24];

	put(&d, "|OP ");
	put_op(&d, m.mem_op);
	put(&d, "|LVL ");
	put_lvl(&d, &m);
	put(&d, "|SNP ");
	put_snoop(&d, &m);
	put(&d, "|TLB ");
	put_tlb(&d, m.mem_dtlb);
	put(&d, "|LCK ");
	put(&d, m.mem_lock & PERF_MEM_LOCK_NA ? "N/A" : m.mem_lock & PERF_MEM_LOCK_LOCKED ? "Yes" : "No");
	put(&d, "|BLK ");
	put_blk(&d, m.mem_blk);
	snprintf(hex, sizeof(hex), "%16" PRIx64 " ", data_src);
	put(&out, hex);
	put(&out, d.buf);
	/* perf pads each line to the widest it has printed */
	if ((int)out.len > c->data_src_width)
		c->data_src_width = (int)out.len;
	fprintf(f, "%-*s", c->data_src_width, out.buf);
}

/* The kernel's isprint, which perf's tools copy: ASCII and Latin-1's
 * printable bytes (160 to 255), not the C locale's. */
static bool kernel_isprint(unsigned char ch)
{
	return (ch >= 32 && ch < 127) || ch >= 160;
}

/* One line of up to 8 bytes: " %04x:", " %02x" each, padded, then the
 * bytes as characters.  *printable and *nul follow perf's rule: a string
 * is printable bytes, a NUL, then only NULs. */
static void bpf_dump_line(FILE *f, const unsigned char *b, size_t at, size_t n, bool *printable, bool *nul)
{
	fprintf(f, "%17s %04x:", at ? "" : "BPF output:", (unsigned)at);
	for (size_t j = 0; j < 8; j++)
		fprintf(f, j < n ? " %02x" : "   ", j < n ? b[j] : 0);
	fputs("  ", f);
	for (size_t j = 0; j < n; j++) {
		if (*nul && b[j])
			*printable = false;
		if (kernel_isprint(b[j])) {
			fputc(b[j], f);
			continue;
		}
		fputc('.', f);
		if (*printable) {
			if (b[j])
				*printable = false;
			else
				*nul = true;
		}
	}
	fprintf(f, "%*s\n", (int)(8 - n), "");
}

void script_print_bpf_output(FILE *f, const struct pk_sample *s)
{
	const unsigned char *b = s->raw.data;
	size_t size = s->fields & PERF_SAMPLE_RAW ? s->raw.size : 0;
	bool printable = true, nul = false;

	fputc('\n', f);
	for (size_t at = 0; at < size; at += 8)
		bpf_dump_line(f, b + at, at, size - at < 8 ? size - at : 8, &printable, &nul);
	/* nul: a NUL inside the data, so the string ends there */
	if (printable && nul)
		fprintf(f, "%17s \"%s\"\n", "BPF string:", (const char *)b);
}
