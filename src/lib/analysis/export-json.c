/* SPDX-License-Identifier: MIT */
/*
 * export-json.c - perf report's rows and call-chain trees as one typed
 * JSON document (pk_hist_write_json): per event its totals and its rows,
 * each with its shares, sums, sort-key values and, with call graphs, the
 * tree under it sorted and pruned as the table's -g prints it.  Strings
 * are escaped per RFC 8259; bytes outside valid UTF-8 become \ufffd, so
 * symbol names from any binary give a document every parser accepts.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff)
		return 0;
	return len;
}

static void put_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), len;

	fputc('"', f);
	for (size_t i = 0; i < n; i += len ? len : 1) {
		len = utf8_len(s + i, n - i);
		if (!len)
			fputs("\\ufffd", f);
		else if (s[i] == '"' || s[i] == '\\')
			fprintf(f, "\\%c", s[i]);
		else if (s[i] == '\n')
			fputs("\\n", f);
		else if (s[i] == '\t')
			fputs("\\t", f);
		else if (s[i] < 0x20 || s[i] == 0x7f)
			fprintf(f, "\\u%04x", s[i]);
		else
			fwrite(s + i, 1, len, f);
	}
	fputc('"', f);
}

static void put_key(FILE *f, const char *key, const char *s)
{
	put_string(f, key);
	fputc(':', f);
	if (s)
		put_string(f, s);
	else
		fputs("null", f);
}

/* A symbol's name, or its address as the table prints an unresolved one. */
static void put_sym(FILE *f, const char *key, const char *sym, uint64_t ip)
{
	char addr[24];

	snprintf(addr, sizeof(addr), "0x%016" PRIx64, ip);
	put_key(f, key, sym ? sym : addr);
}

static void put_frame(FILE *f, const struct pk_callchain_frame *fr)
{
	put_sym(f, "name", fr->sym, fr->ip);
	fputc(',', f);
	put_key(f, "dso", fr->dso);
}

/* Node n of a graph-sorted tree: one nested object per frame of its run
 * (each with the node's period), the last holding its own and children. */
static void put_node(FILE *f, const struct pk_callchain_node *n)
{
	size_t nr = pk_callchain_node_nr_frames(n), kids = pk_callchain_node_nr_children(n);

	for (size_t i = 0; i < nr; i++) {
		fputc('{', f);
		put_frame(f, pk_callchain_node_frame(n, i));
		fprintf(f, ",\"period\":%" PRIu64 ",\"self\":%" PRIu64 ",\"samples\":%" PRIu64
			",\"self_samples\":%" PRIu64 ",\"children\":[",
			pk_callchain_node_cumul(n), i + 1 == nr ? pk_callchain_node_self(n) : 0,
			pk_callchain_node_cumul_count(n), i + 1 == nr ? pk_callchain_node_count(n) : 0);
	}
	for (size_t k = 0; k < kids; k++) {
		if (k)
			fputc(',', f);
		put_node(f, pk_callchain_node_child(n, k));
	}
	for (size_t i = 0; i < nr; i++)
		fputs("]}", f);
}

/* The frames from the root down to n, each in print order. */
static void put_path(FILE *f, const struct pk_callchain_node *n, bool *first)
{
	const struct pk_callchain_node *up = pk_callchain_node_parent(n);

	if (up)
		put_path(f, up, first);
	for (size_t i = 0; i < pk_callchain_node_nr_frames(n); i++) {
		fputs(*first ? "{" : ",{", f);
		*first = false;
		put_frame(f, pk_callchain_node_frame(n, i));
		fputc('}', f);
	}
}

/* Entry e's tree cc, as put_chain puts it. */
static int put_tree(FILE *f, const struct pk_hist_json_opts *o, const struct pk_hist *h, struct pk_callchain *cc)
{
	uint64_t min_hit = (uint64_t)((double)pk_hist_total_period(h) * (o->cg_min_percent / 100));
	bool flat = o->cg_mode == PK_CALLCHAIN_FLAT || o->cg_mode == PK_CALLCHAIN_FOLDED;
	const struct pk_callchain_node *root;
	int err;

	if ((err = pk_callchain_sort(cc, o->cg_mode, min_hit, o->cg_min_percent)) < 0)
		return err;
	fputs(",\"callchain\":[", f);
	if (flat) {
		for (size_t i = 0; i < pk_callchain_nr_flat(cc); i++) {
			const struct pk_callchain_node *n = pk_callchain_flat(cc, i);
			bool first = true;

			fprintf(f, "%s{\"period\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"frames\":[",
				i ? "," : "", pk_callchain_node_self(n), pk_callchain_node_count(n));
			put_path(f, n, &first);
			fputs("]}", f);
		}
	} else {
		root = pk_callchain_root(cc);
		for (size_t k = 0; k < pk_callchain_node_nr_children(root); k++) {
			if (k)
				fputc(',', f);
			put_node(f, pk_callchain_node_child(root, k));
		}
	}
	fputc(']', f);
	return 0;
}

/* Entry e's call-chain tree, when it has one, as a "callchain" array. */
static int put_chain(FILE *f, const struct pk_hist_json_opts *o, const struct pk_hist *h,
		     const struct pk_hist_entry *e)
{
	struct pk_callchain *cc;
	int err = pk_hist_chain(h, e, 0, &cc);	/* an empty "callchain" is written too */

	if (err < 0 || !cc)
		return err;
	err = put_tree(f, o, h, cc);
	pk_hist_chain_put(e, cc);
	return err;
}

/* A memory key (report --mem-mode) by perf's name: the data symbol, the
 * code symbol and the cache line as the symbol key is, the object, the
 * raw data_src word for its fields, the numbers.  False for other keys. */
static bool put_mem_key(FILE *f, enum pk_hist_key k, const struct pk_hist_entry *e)
{
	static const char *const src[] = { "locked", "tlb", "mem", "snoop" };

	switch (k) {
	case PK_HIST_KEY_MEM_DADDR_SYM: put_sym(f, "symbol_daddr", e->s.daddr_sym, e->s.daddr); break;
	case PK_HIST_KEY_MEM_IADDR_SYM: put_sym(f, "symbol_iaddr", e->s.sym, e->s.iaddr); break;
	case PK_HIST_KEY_MEM_DCACHELINE: put_sym(f, "dcacheline", e->s.daddr_sym, e->s.dcacheline); break;
	case PK_HIST_KEY_MEM_DADDR_DSO: put_key(f, "dso_daddr", e->s.daddr_dso ? e->s.daddr_dso : "[unknown]"); break;
	case PK_HIST_KEY_MEM_PHYS_DADDR: fprintf(f, "\"phys_daddr\":%" PRIu64, e->s.phys_addr); break;
	case PK_HIST_KEY_MEM_DATA_PAGE_SIZE: fprintf(f, "\"data_page_size\":%" PRIu64, e->s.data_page_size); break;
	case PK_HIST_KEY_MEM_BLOCKED: fprintf(f, "\"blocked\":{\"data_src\":%" PRIu64 "}", e->s.data_src); break;
	case PK_HIST_KEY_MEM_LOCKED:
	case PK_HIST_KEY_MEM_TLB:
	case PK_HIST_KEY_MEM_LVL:
	case PK_HIST_KEY_MEM_SNOOP:
		fprintf(f, "\"%s\":{\"data_src\":%" PRIu64 "}", src[k - PK_HIST_KEY_MEM_LOCKED], e->s.data_src);
		break;
	default: return false;
	}
	return true;
}

/* The later keys (hist-keys2.c's and the source-line ones), each a member
 * of its own name; false for a key this does not write. */
static bool put_later_key(FILE *f, enum pk_hist_key k, const struct pk_hist_entry *e)
{
	switch (k) {
	case PK_HIST_KEY_SRCLINE: put_key(f, "srcline", e->s.srcline); break;
	case PK_HIST_KEY_SRCFILE: put_key(f, "srcfile", e->s.srcfile); break;
	case PK_HIST_KEY_PARENT: put_key(f, "parent", e->s.parent ? e->s.parent : "[other]"); break;
	case PK_HIST_KEY_TIME: fprintf(f, "\"time\":%" PRIu64, e->s.time); break;
	case PK_HIST_KEY_SYM_SIZE: fprintf(f, "\"symbol_size\":%" PRIu64, e->s.sym ? e->s.sym_size : 0); break;
	case PK_HIST_KEY_SOCKET: fprintf(f, "\"socket\":%d", (int)e->s.socket); break;
	case PK_HIST_KEY_TRACE: put_key(f, "trace", e->s.trace); break;
	case PK_HIST_KEY_CGROUP: fprintf(f, "\"cgroup\":%" PRIu64, e->s.cgroup); break;
	case PK_HIST_KEY_WEIGHT: fprintf(f, "\"weight\":%" PRIu64, e->s.weight * e->nr_samples); break;
	case PK_HIST_KEY_LOCAL_WEIGHT: fprintf(f, "\"local_weight\":%" PRIu64, e->s.weight); break;
	case PK_HIST_KEY_INS_LAT: fprintf(f, "\"ins_lat\":%" PRIu64, e->s.ins_lat * e->nr_samples); break;
	case PK_HIST_KEY_LOCAL_INS_LAT: fprintf(f, "\"local_ins_lat\":%u", (unsigned)e->s.ins_lat); break;
	case PK_HIST_KEY_P_STAGE_CYC:
		fprintf(f, "\"p_stage_cyc\":%" PRIu64, e->s.p_stage_cyc * e->nr_samples);
		break;
	case PK_HIST_KEY_LOCAL_P_STAGE_CYC: fprintf(f, "\"local_p_stage_cyc\":%u", (unsigned)e->s.p_stage_cyc); break;
	case PK_HIST_KEY_IPC_NULL: fputs("\"ipc\":null", f); break;	/* perf's column of "-": no IPC */
	case PK_HIST_KEY_DSO_SIZE: fprintf(f, "\"dso_size\":%" PRIu64, e->s.dso_size); break;
	case PK_HIST_KEY_CGROUP_ID:
		fprintf(f, "\"cgroup_id\":{\"dev\":%" PRIu64 ",\"ino\":%" PRIu64 "}", e->s.cgroup_dev, e->s.cgroup_ino);
		break;
	case PK_HIST_KEY_TRANSACTION: fprintf(f, "\"transaction\":%" PRIu64, e->s.transaction); break;
	case PK_HIST_KEY_CODE_PAGE_SIZE: fprintf(f, "\"code_page_size\":%" PRIu64, e->s.code_page_size); break;
	case PK_HIST_KEY_ADDR: fprintf(f, "\"addr\":%" PRIu64, e->s.addr); break;
	default: return false;
	}
	return true;
}

static void put_keys(FILE *f, const struct pk_hist_json_opts *o, const struct pk_hist_entry *e)
{
	fputs("\"keys\":{", f);
	for (size_t i = 0; i < o->nr_keys; i++) {
		if (i)
			fputc(',', f);
		switch (o->keys[i]) {
		case PK_HIST_KEY_COMM: put_key(f, "comm", e->s.comm); break;
		case PK_HIST_KEY_PID: fprintf(f, "\"pid\":%" PRIu32, e->s.tid); break;
		case PK_HIST_KEY_TID: fprintf(f, "\"tid\":%" PRIu32, e->s.tid); break;
		case PK_HIST_KEY_DSO: put_key(f, "dso", e->s.dso ? e->s.dso : "[unknown]"); break;
		case PK_HIST_KEY_CPU: fprintf(f, "\"cpu\":%" PRId32, e->s.cpu); break;
		case PK_HIST_KEY_PERIOD: fprintf(f, "\"period\":%" PRIu64, e->period); break;
		case PK_HIST_KEY_SYM:
			put_sym(f, "sym", e->s.sym, e->s.ip);
			fprintf(f, ",\"level\":\"%c\"", e->s.level);
			break;
		default:
			if (!put_mem_key(f, o->keys[i], e) && !put_later_key(f, o->keys[i], e))
				fputs("\"unknown\":null", f);
			break;
		}
	}
	fputc('}', f);
}

static int put_row(FILE *f, const struct pk_hist_json_opts *o, const struct pk_hist *h,
		   const struct pk_hist_entry *e)
{
	fprintf(f, "{\"overhead\":%.2f,", pk_hist_percent(h, e));
	if (o->children)
		fprintf(f, "\"children\":%.2f,\"children_period\":%" PRIu64 ",", pk_hist_percent_acc(h, e),
			e->period_acc);
	fprintf(f, "\"samples\":%" PRIu64 ",\"period\":%" PRIu64 ",", e->nr_samples, e->period);
	put_keys(f, o, e);
	if (o->callchain) {
		int err = put_chain(f, o, h, e);

		if (err < 0)
			return err;
	}
	fputc('}', f);
	return 0;
}

static int put_event(FILE *f, const struct pk_hist_json_opts *o, const struct pk_hist_json_event *ev)
{
	bool first = true;
	int err;

	fputs("{", f);
	put_key(f, "name", ev->name ? ev->name : "unknown");
	fprintf(f, ",\"samples\":%" PRIu64 ",\"event_count\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"rows\":[",
		pk_hist_nr_samples(ev->hist), pk_hist_total_period(ev->hist), ev->lost);
	for (size_t i = 0; i < pk_hist_nr(ev->hist); i++) {
		const struct pk_hist_entry *e = pk_hist_get(ev->hist, i);

		if (e->s.filtered || pk_hist_below_limit(ev->hist, e, o->percent_limit))
			continue;
		fputs(first ? "\n" : ",\n", f);
		first = false;
		if ((err = put_row(f, o, ev->hist, e)) < 0)
			return err;
	}
	fputs("]}", f);
	return 0;
}

/* "stack_health": health.h's figures, and the DSOs with problems. */
static int put_health(FILE *f, struct pk_stack_health *h)
{
	static const char *const problems[] = { "no_symbols", "build_id", "no_frame_pointer", "no_unwind_table" };
	struct pk_stack_health_figures s = { .size = sizeof(s) };
	int err;

	if ((err = pk_stack_health_get(h, &s)) < 0)
		return err;
	fprintf(f, ",\n\"stack_health\":{\"samples\":%" PRIu64 ",\"chains\":%" PRIu64 ",\"dwarf\":%" PRIu64
		",\"dwarf_cut\":%" PRIu64 ",\"dwarf_size\":%" PRIu64 ",\"dwarf_suggest\":%" PRIu64
		",\"fp_cut\":%" PRIu64 ",\"unwind_cut\":%" PRIu64 ",\"max_stack_reached\":%" PRIu64
		",\"max_stack\":%u,\"dso_samples\":%" PRIu64 ",\"dsos\":[",
		s.nr_samples, s.nr_chains, s.nr_dwarf, s.nr_dwarf_cut, s.dwarf_size, s.dwarf_suggest, s.nr_fp_cut,
		s.nr_unwind_cut, s.nr_max_stack, s.max_stack, s.nr_dso_samples);
	for (size_t i = 0; i < s.nr_dsos; i++) {
		struct pk_stack_health_dso d;
		bool first = true;

		if ((err = pk_stack_health_dso(h, i, &d)) < 0)
			return err;
		fputs(i ? ",{" : "{", f);
		put_key(f, "dso", d.dso ? d.dso->name : NULL);
		fputs(",\"problems\":[", f);
		for (size_t b = 0; b < sizeof(problems) / sizeof(problems[0]); b++)
			if (d.problems & (1u << b)) {
				fprintf(f, "%s\"%s\"", first ? "" : ",", problems[b]);
				first = false;
			}
		fprintf(f, "],\"samples\":%" PRIu64 ",\"fp_cut\":%" PRIu64 ",\"unwind_cut\":%" PRIu64 "}",
			d.nr_samples, d.nr_fp_cut, d.nr_unwind_cut);
	}
	fputs("]}", f);
	return 0;
}

int pk_hist_write_json(FILE *f, const struct pk_hist_json_opts *opts, const struct pk_hist_json_event *ev,
		       size_t nr_ev)
{
	bool first = true;
	int err;

	if (!f || !opts || (nr_ev && !ev) || opts->size < sizeof(*opts) || (opts->nr_keys && !opts->keys))
		return pk__error(-EINVAL, "JSON report", "a NULL argument or a short opts->size");
	fputs("{\"perfkit_report\":1,", f);
	put_key(f, "file", opts->file);
	fputs(",\"events\":[", f);
	for (size_t i = 0; i < nr_ev; i++) {
		if (!pk_hist_nr_samples(ev[i].hist))
			continue;	/* as the table, which skips events without samples */
		fputs(first ? "\n" : ",\n", f);
		first = false;
		if ((err = put_event(f, opts, &ev[i])) < 0)
			return pk__error(err, "JSON report", "sorting a call graph");
	}
	fputc(']', f);
	if (opts->health && (err = put_health(f, opts->health)) < 0)
		return pk__error(err, "JSON report", "reading the stack health");
	fputs("}\n", f);
	if (ferror(f))
		return pk__error(-EIO, "JSON report", "writing failed");
	return 0;
}
