/* SPDX-License-Identifier: MIT */
/*
 * script-fields2.c - perf script 6.1's -F fields decoded from a sample's
 * words: tod (the wall-clock time of a sample, from the file's CLOCK_DATA
 * pair of a wall-clock and a sampling-clock reading, which perf record -k
 * writes) and data_src (the PERF_SAMPLE_DATA_SRC word in hex and decoded
 * as perf's "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK
 * N/A", each line padded to the widest printed so far; the words are
 * mem-src.c's, shared with report's memory keys); bpf-output (a BPF
 * output event's raw data as perf's hex and character dump, and the
 * string it holds when it is one).
 */
#include "script-fields.h"
#include "mem-src.h"

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

void script_print_data_src(FILE *f, struct script_ctx *c, uint64_t data_src)
{
	struct pk_data_src m = pk_record_data_src(data_src);
	struct mem_line d, out;
	char hex[24];

	/* perf's perf_script__meminfo_scnprintf: one 100-byte buffer */
	mem_line_init(&d, 99);
	mem_line_init(&out, 99);
	mem_line_put(&d, "|OP ");
	mem_src_op(&d, &m);
	mem_line_put(&d, "|LVL ");
	mem_src_lvl(&d, &m);
	mem_line_put(&d, "|SNP ");
	mem_src_snoop(&d, &m);
	mem_line_put(&d, "|TLB ");
	mem_src_tlb(&d, &m);
	mem_line_put(&d, "|LCK ");
	mem_src_lock(&d, &m);
	mem_line_put(&d, "|BLK ");
	mem_src_blk(&d, &m);
	snprintf(hex, sizeof(hex), "%16" PRIx64 " ", data_src);
	mem_line_put(&out, hex);
	mem_line_put(&out, d.buf);
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
