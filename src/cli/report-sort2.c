/* SPDX-License-Identifier: MIT */
/*
 * report-sort2.c - perf 6.1's later report --sort keys: time (the
 * sample's time rounded down to --time-quantum, 100ms by default, shown
 * as perf's "sec.usec" or, with --ns, "sec.nsec", cut to the column),
 * symbol_size (the symbol's end minus its start, "unknown" without one),
 * socket (the socket of the sample's CPU in the file's CPU_TOPOLOGY; -1
 * for a sample without a CPU or a file without the ids), trace (a
 * tracepoint sample's fields as its print fmt renders them, "N/A" for
 * other events), cgroup (the path the CGROUP records gave the sample's
 * cgroup id), the weight keys (weight, ins_lat, p_stage_cyc and their
 * local_ forms); and perf's ipc_null column, which it adds to a --sort
 * naming "symbol" (report_sort2_setup).  Their fields of a sample, their
 * headers and their cells; the histogram groups and orders them
 * (hist-keys2.c).
 */
#include "report.h"
#include "report-branch.h"
#include "sort-names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* report's --sort keys (moved here from cmd-report.c) */
static const struct {
	const char *name;
	enum pk_hist_key key;
} sort_keys[] = {
	{ "comm", PK_HIST_KEY_COMM }, { "pid", PK_HIST_KEY_PID }, { "tid", PK_HIST_KEY_TID },
	{ "dso", PK_HIST_KEY_DSO }, { "sym", PK_HIST_KEY_SYM }, { "symbol", PK_HIST_KEY_SYM },
	{ "cpu", PK_HIST_KEY_CPU }, { "period", PK_HIST_KEY_PERIOD }, { "parent", PK_HIST_KEY_PARENT },
	{ "srcline", PK_HIST_KEY_SRCLINE }, { "srcfile", PK_HIST_KEY_SRCFILE },
	{ "time", PK_HIST_KEY_TIME }, { "symbol_size", PK_HIST_KEY_SYM_SIZE }, { "socket", PK_HIST_KEY_SOCKET },
	{ "trace", PK_HIST_KEY_TRACE }, { "cgroup", PK_HIST_KEY_CGROUP }, { "weight", PK_HIST_KEY_WEIGHT },
	{ "local_weight", PK_HIST_KEY_LOCAL_WEIGHT }, { "ins_lat", PK_HIST_KEY_INS_LAT },
	{ "local_ins_lat", PK_HIST_KEY_LOCAL_INS_LAT }, { "p_stage_cyc", PK_HIST_KEY_P_STAGE_CYC },
	{ "local_p_stage_cyc", PK_HIST_KEY_LOCAL_P_STAGE_CYC },
	/* --mem-mode's (report-mem.c) */
	{ "symbol_daddr", PK_HIST_KEY_MEM_DADDR_SYM }, { "symbol_iaddr", PK_HIST_KEY_MEM_IADDR_SYM },
	{ "dso_daddr", PK_HIST_KEY_MEM_DADDR_DSO }, { "locked", PK_HIST_KEY_MEM_LOCKED },
	{ "tlb", PK_HIST_KEY_MEM_TLB }, { "mem", PK_HIST_KEY_MEM_LVL }, { "snoop", PK_HIST_KEY_MEM_SNOOP },
	{ "dcacheline", PK_HIST_KEY_MEM_DCACHELINE }, { "phys_daddr", PK_HIST_KEY_MEM_PHYS_DADDR },
	{ "data_page_size", PK_HIST_KEY_MEM_DATA_PAGE_SIZE }, { "blocked", PK_HIST_KEY_MEM_BLOCKED },
	{ "dso_size", PK_HIST_KEY_DSO_SIZE }, { "cgroup_id", PK_HIST_KEY_CGROUP_ID },
	{ "transaction", PK_HIST_KEY_TRANSACTION }, { "code_page_size", PK_HIST_KEY_CODE_PAGE_SIZE },
	{ "addr", PK_HIST_KEY_ADDR },	/* report-sort3.c's */
};
#define NR_SORT_KEYS (sizeof(sort_keys) / sizeof(sort_keys[0]))

static bool has_item(const struct report_opts *o, int item)
{
	for (size_t i = 0; i < o->nr_sort_items; i++)
		if (o->sort_items[i] == item)
			return true;
	return false;
}

int report_parse_sort(struct report_opts *o, const char *arg)
{
	const char *names[NR_SORT_KEYS], *p = arg, *word;
	size_t len;
	bool dropped = false;
	int k, item;

	o->nr_keys = 0;
	o->sort_sym = !strncmp(arg, "sym", 3);	/* perf's strstarts(sort_order, "sym") */
	for (size_t i = 0; i < NR_SORT_KEYS; i++)
		names[i] = sort_keys[i].name;
	/* perf's words: split on commas, spaces and braces; each a prefix of a key */
	o->nr_sort_items = 0;
	o->sort_hpp = false;
	while ((len = sort_word_next(&p, &word, 1))) {
		enum sort_table table;
		const char *perf = sort_name_match(word, len, &table);

		if (perf && table == SORT_TABLE_HPP && report_sort3_item(o, perf))
			continue;	/* an output field: no key */
		if ((k = sort_name_find_mode("report", "--sort key", word, len, names, NR_SORT_KEYS, o->mem_mode)) < 0)
			return -k;
		item = sort_keys[k].key == PK_HIST_KEY_PERIOD ? PK_HIST_ORDER_PERIOD : PK_HIST_ORDER_KEY(sort_keys[k].key);
		if (has_item(o, item))
			continue;	/* perf takes a key once (its sort dimension's `taken`) */
		/* (a dropped key still takes its place in the order) */
		if (o->nr_keys == PK_HIST_MAX_KEYS ||
		    o->nr_sort_items == sizeof(o->sort_items) / sizeof(o->sort_items[0]))
			return cli_usage("report", "more than %d --sort keys", PK_HIST_MAX_KEYS);
		if (report_sort2_dropped(sort_keys[k].key))
			dropped = true;
		else
			o->keys[o->nr_keys++] = sort_keys[k].key;
		o->sort_items[o->nr_sort_items++] = item;
	}
	if (!o->nr_keys && !dropped && !o->sort_hpp)
		return cli_usage("report", "--sort needs at least one key");
	return 0;
}

#define DEFAULT_QUANTUM 100000000ull	/* perf's symbol_conf.time_quantum: 100ms */

/* --sort trace: the file's formats, the strings the entries key on. */
struct report_trace {
	struct pk_tracing *tracing;	/* NULL: the file has no tracing data */
	struct pk_intern *names;
	char *buf;
	size_t cap;
	bool damage_said;	/* a damaged sample's warning given */
	const char *cmd;	/* the command its messages name */
};

/* The sample's fields as perf's tep_print_event(TEP_PRINT_INFO) prints
 * them, interned; NULL for a sample of no tracepoint ("N/A"). */
static int trace_of(struct report_trace *tr, const struct pk_sample *smp, const char **out)
{
	int n;

	*out = NULL;
	if (!tr || !tr->tracing || !smp->raw.data)
		return 0;
	n = cli_tracing_text(tr->tracing, smp, &tr->buf, &tr->cap);
	if (n == -EINVAL && !tr->damage_said) {
		tr->damage_said = true;	/* once: such a file has many */
		cli_message(stderr, "perfkit %s: warning: %s: %s; its rows are N/A\n", tr->cmd,
			    pk_last_error()->what, pk_last_error()->why);
	}
	if (n == -ENOMEM)
		return n;
	return n < 0 ? 0 : pk_intern_str(tr->names, tr->buf, out);
}

int report_sort2_fill(const struct report_opts *o, const struct pk_sample *smp, const struct pk_location *loc,
		      struct pk_hist_sample *s)
{
	uint64_t q = o->f3.time_quantum ? o->f3.time_quantum : DEFAULT_QUANTUM;
	uint64_t t = smp->fields & PERF_SAMPLE_TIME ? smp->time : 0;

	s->time = t / q * q;	/* perf's hist_time */
	report_sort2_frame(loc, s);
	s->socket = -1;	/* perf's al->socket: env->cpu[cpu].socket_id when both are known */
	if (smp->fields & PERF_SAMPLE_CPU && smp->cpu < o->nr_cpu_sockets)
		s->socket = o->cpu_sockets[smp->cpu];
	s->cgroup = smp->fields & PERF_SAMPLE_CGROUP ? smp->cgroup : 0;
	/* perf's x86 reading of the weight word: WEIGHT whole; WEIGHT_STRUCT
	 * var1_dw and var2_w (var3_w, the pipeline stage, only on powerpc) */
	s->weight = smp->fields & PERF_SAMPLE_WEIGHT ? smp->weight.full :
		    smp->fields & PERF_SAMPLE_WEIGHT_STRUCT ? smp->weight.var1 : 0;
	s->ins_lat = smp->fields & PERF_SAMPLE_WEIGHT_STRUCT ? smp->weight.var2 : 0;
	s->p_stage_cyc = 0;
	report_sort3_fill(o, smp, smp->tid, s);
	return trace_of(o->trace, smp, &s->trace);
}

int report_sort2_cgroup(const struct report_opts *o, const struct pk_rec_cgroup *c)
{
	return cli_cgroup_add(o->cgroups, c);
}

const char *report_sort2_cgroup_name(const struct report_opts *o, uint64_t id)
{
	return cli_cgroup_name(o->cgroups, id);
}

static int trace_setup(struct report_opts *o, struct pk_data_reader *r, const char *cmd)
{
	const void *td;
	size_t len;

	if (o->f3.raw_trace)	/* perf's tep_print_fields form: not yet */
		return cli_usage("report", "--raw-trace with the trace key is not supported yet");
	if (!o->trace && (!(o->trace = calloc(1, sizeof(*o->trace))) || pk_intern_new(&o->trace->names) < 0)) {
		cli_message(stderr, "perfkit %s: out of memory\n", cmd);
		return CLI_EXIT_EVENT;
	}
	pk_tracing_free(o->trace->tracing);	/* another file's (diff) */
	o->trace->tracing = NULL;
	o->trace->damage_said = false;
	o->trace->cmd = cmd;
	/* Without formats (or with damaged ones) every row is perf's "N/A". */
	if (pk_data_reader_feature(r, PK_DATA_FEAT_TRACING_DATA, &td, &len) == 0 &&
	    pk_tracing_data_parse(td, len, &o->trace->tracing) < 0) {
		o->trace->tracing = NULL;
		cli_message(stderr, "perfkit %s: warning: %s: %s; the trace key's rows are N/A\n", cmd,
			    pk_last_error()->what, pk_last_error()->why);
	}
	return 0;
}

int report_sort2_trace_file(struct report_opts *o, struct pk_data_reader *r)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == PK_HIST_KEY_TRACE)
			return trace_setup(o, r, "diff");
	return 0;
}

/* perf report 6.1: strstr(sort_order, "symbol") appends "ipc_null" to
 * the --sort keys (before the parent key -p adds); in branch mode
 * "ipc_lbr", which report-branch2.c reads from --sort itself (a level of
 * --hierarchy too).  Not for --format (no such column). */
static int add_ipc_null(struct report_opts *o, struct pk_data_reader *r)
{
	size_t at = o->nr_keys;

	if (!o->sort_arg || !strstr(o->sort_arg, "symbol") || o->format >= 0 ||
	    report_branch_wanted(o, r))
		return 0;
	if (o->nr_keys == PK_HIST_MAX_KEYS)
		return cli_usage("report", "more than %d --sort keys", PK_HIST_MAX_KEYS - 1);
	if (at && o->keys[at - 1] == PK_HIST_KEY_PARENT && o->parent_arg && !strstr(o->sort_arg, "parent"))
		at--;
	memmove(&o->keys[at + 1], &o->keys[at], (o->nr_keys - at) * sizeof(*o->keys));
	o->keys[at] = PK_HIST_KEY_IPC_NULL;
	o->nr_keys++;
	return 0;
}

int report_sort2_setup(struct report_opts *o, struct pk_data_reader *r)
{
	const struct pk_feature_cpu_topology *t;
	struct pk_feature *ft = NULL;
	bool want = false;
	int err;

	if ((err = add_ipc_null(o, r)) || (err = report_sort3_setup(o)))
		return err;
	want = o->fields_arg && strstr(o->fields_arg, "trace");	/* -F's keys come later */
	for (size_t i = 0; i < o->nr_keys; i++)
		want |= o->keys[i] == PK_HIST_KEY_TRACE;
	if (want && (err = trace_setup(o, r, "report")))
		return err;
	want = o->fields_arg && strstr(o->fields_arg, "cgroup");
	for (size_t i = 0; i < o->nr_keys; i++)
		want |= o->keys[i] == PK_HIST_KEY_CGROUP;
	if (want && cli_cgroups_new(&o->cgroups) < 0) {
		cli_message(stderr, "perfkit report: out of memory\n");
		return CLI_EXIT_EVENT;
	}
	want = false;
	for (size_t i = 0; i < o->nr_keys; i++)
		want |= o->keys[i] == PK_HIST_KEY_SOCKET;
	if (!want && !o->fields_arg)	/* -F's keys are known later (report-fields.c) */
		return 0;
	if ((err = pk_data_reader_decode(r, PK_DATA_FEAT_CPU_TOPOLOGY, &ft)) == -ENOMEM)
		return cli_error("report", NULL);
	t = err < 0 ? NULL : pk_feature_cpu_topology(ft);	/* none, or damaged: no topology */
	if (t && t->nr_cpus) {
		if (!(o->cpu_sockets = calloc(t->nr_cpus, sizeof(*o->cpu_sockets)))) {
			pk_feature_free(ft);
			cli_message(stderr, "perfkit report: out of memory\n");
			return CLI_EXIT_EVENT;
		}
		for (uint32_t i = 0; i < t->nr_cpus; i++)
			o->cpu_sockets[i] = t->cpus[i].socket_id;
		o->nr_cpu_sockets = t->nr_cpus;
	}
	pk_feature_free(ft);
	return 0;
}

void report_sort2_free(struct report_opts *o)
{
	report_sort3_free(o);
	cli_cgroups_free(o->cgroups);
	o->cgroups = NULL;
	if (o->trace) {
		pk_tracing_free(o->trace->tracing);
		pk_intern_free(o->trace->names);
		free(o->trace->buf);
		free(o->trace);
		o->trace = NULL;
	}
	free(o->cpu_sockets);
	o->cpu_sockets = NULL;
	o->nr_cpu_sockets = 0;
}

void report_sort2_frame(const struct pk_location *loc, struct pk_hist_sample *s)
{
	s->sym_size = loc->sym ? loc->sym_end - loc->sym_start : 0;
	s->dso_size = loc->dso ? loc->map_size : 0;
}

bool report_sort2_dropped(enum pk_hist_key k)
{
	return k == PK_HIST_KEY_P_STAGE_CYC || k == PK_HIST_KEY_LOCAL_P_STAGE_CYC;
}

const char *report_sort2_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_TIME: return "Time";
	case PK_HIST_KEY_SYM_SIZE: return "Symbol size";
	case PK_HIST_KEY_SOCKET: return "Socket";
	case PK_HIST_KEY_IPC_NULL: return "IPC   [IPC Coverage]";
	case PK_HIST_KEY_TRACE: return "Trace output";
	case PK_HIST_KEY_CGROUP: return "Cgroup";
	case PK_HIST_KEY_WEIGHT: return "Weight";
	case PK_HIST_KEY_LOCAL_WEIGHT: return "Local Weight";
	case PK_HIST_KEY_INS_LAT: return "INSTR Latency";
	case PK_HIST_KEY_LOCAL_INS_LAT: return "Local INSTR Latency";
	case PK_HIST_KEY_P_STAGE_CYC: return "Pipeline Stage Cycle";
	case PK_HIST_KEY_LOCAL_P_STAGE_CYC: return "Local Pipeline Stage Cycle";
	default: return report_mem_key(k) ? report_mem_header(k) : report_sort3_header(k);
	}
}

int report_sort2_width(const struct report_opts *o, enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_TIME: return o && o->f2.ns ? 16 : 12;	/* perf's HISTC_TIME */
	case PK_HIST_KEY_SOCKET: return 6;
	case PK_HIST_KEY_WEIGHT: case PK_HIST_KEY_LOCAL_WEIGHT: return 12;	/* perf's HISTC_*_WEIGHT */
	default: return report_sort3_width(k, false);	/* else the header's */
	}
}

void report_sort2_print(FILE *f, const struct report_opts *o, enum pk_hist_key k, int w,
			const struct pk_hist_entry *e, bool last)
{
	char t[48];

	switch (k) {
	case PK_HIST_KEY_TIME:
		if (o->f2.ns)
			snprintf(t, sizeof(t), "%" PRIu64 ".%09" PRIu64, e->s.time / 1000000000,
				 e->s.time % 1000000000);
		else
			snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->s.time / 1000000000,
				 e->s.time % 1000000000 / 1000);
		/* perf's: cut to the width, padded to it but in the last column */
		fprintf(f, "%-*.*s", last ? 0 : w, w, t);
		break;
	case PK_HIST_KEY_SYM_SIZE:
		if (e->s.sym)
			fprintf(f, "%*d", w, (int)e->s.sym_size);
		else
			fprintf(f, "%*s", w, "unknown");
		break;
	case PK_HIST_KEY_SOCKET:
		fprintf(f, "%*.*d", w, w - 3, (int)e->s.socket);
		break;
	case PK_HIST_KEY_WEIGHT:	/* the entry's samples times their one value */
		fprintf(f, "%-*" PRIu64, w, e->s.weight * e->nr_samples);
		break;
	case PK_HIST_KEY_LOCAL_WEIGHT:
		fprintf(f, "%-*" PRIu64, w, e->s.weight);
		break;
	case PK_HIST_KEY_INS_LAT:	/* perf's "%-*u" of a u16 times a u64 */
		fprintf(f, "%-*u", w, (unsigned)(e->s.ins_lat * e->nr_samples));
		break;
	case PK_HIST_KEY_LOCAL_INS_LAT:
		fprintf(f, "%-*u", w, (unsigned)e->s.ins_lat);
		break;
	case PK_HIST_KEY_P_STAGE_CYC:
		fprintf(f, "%-*u", w, (unsigned)(e->s.p_stage_cyc * e->nr_samples));
		break;
	case PK_HIST_KEY_LOCAL_P_STAGE_CYC:
		fprintf(f, "%-*u", w, (unsigned)e->s.p_stage_cyc);
		break;
	case PK_HIST_KEY_CGROUP:	/* perf's "%s", padded but in the last column */
		fprintf(f, "%-*s", last ? 0 : w, report_sort2_cgroup_name(o, e->s.cgroup));
		break;
	case PK_HIST_KEY_TRACE:	/* as the time key: cut to the width, padded but last */
		fprintf(f, "%-*.*s", last ? 0 : w, w, e->s.trace ? e->s.trace : "N/A");
		break;
	case PK_HIST_KEY_IPC_NULL:	/* no branch stacks, no IPC: perf's "%-5s %2s" of "-" */
		fprintf(f, "%-*s", w, "-      -");
		break;
	default:
		if (report_mem_key(k))
			report_mem_print(f, o, k, w, e, last);
		else
			report_sort3_print(f, k, w, e, last);
		break;
	}
}

