/* SPDX-License-Identifier: MIT */
/*
 * cmd-script.c - `perfkit script`: every sample of a perf.data file (perf's
 * or perfkit's) as a line of text, in time order, as perf script prints it
 * (script-print.c): the default fields per event type, -F with perf's
 * rules (a list replaces, +field/-field edit, "type:" names one type, a
 * field the samples do not carry is refused when asked for by name and
 * silently dropped otherwise), --ns, and the tracepoint fields through the
 * file's own tracing data.
 */
#include "script.h"
#include "report-header.h"
#include "script-fields.h"
#include "script-out.h"
#include "report-dump.h"
#include "script-stat.h"
#include "pager.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OPT_NS = 0x100, OPT_SHOW_TASK, OPT_SHOW_MMAP, OPT_HEADER, OPT_HEADER_ONLY, OPT_INLINE, OPT_NO_INLINE,
	OPT_SYMFS, OPT_MAX_STACK, OPT_MAX_BLOCKS };

static const struct cli_opt script_options[] = {
	{ "input", 'i', CLI_ARG_REQUIRED, 'i', "FILE", "the perf.data file to read, - for standard input (default perf.data; standard input when it is a pipe)" },
	{ "fields", 'F', CLI_ARG_REQUIRED, 'F', "FIELDS",
	  "[type:]field,... (comm, tid, pid, time, cpu, event, trace, ip, sym, dso, addr, symoff, "
	  "period, misc, weight, iregs, uregs, brstack, brstacksym, brstackoff, phys_addr, "
	  "data_page_size, code_page_size, srcline, data_src, tod, ipc, insn, insnlen, srccode, brstackinsn, "
	  "brstackinsnlen); +field/-field edit the default; type is hw, sw, trace, raw, break or synth; "
	  "a later -F overrides an earlier one's request, with perf's warning" },
	{ "symfs", 0, CLI_ARG_REQUIRED, OPT_SYMFS, "DIR",
	  "look for files with symbols below DIR (perf's --symfs; the kernel's from DIR/vmlinux)" },
	{ "ns", 0, CLI_ARG_NONE, OPT_NS, NULL, "times with nanoseconds" },
	{ "force", 'f', CLI_ARG_NONE, 'f', NULL, "read a file another user owns" },
	{ "show-task-events", 0, CLI_ARG_NONE, OPT_SHOW_TASK, NULL, "also print the COMM, FORK and EXIT records" },
	{ "show-mmap-events", 0, CLI_ARG_NONE, OPT_SHOW_MMAP, NULL, "also print the MMAP and MMAP2 records" },
	{ "header", 0, CLI_ARG_NONE, OPT_HEADER, NULL, "the file's header block (perf's) before the lines" },
	{ "header-only", 0, CLI_ARG_NONE, OPT_HEADER_ONLY, NULL, "the file's header block only" },
	{ "show-info", 'I', CLI_ARG_NONE, 'I', NULL,
	  "the header block in full: CPU and NUMA topology, caches, memory nodes" },
	{ "dump-raw-trace", 'D', CLI_ARG_NONE, 'D', NULL, "every record, raw and decoded, before its lines" },
	{ "inline", 0, CLI_ARG_NONE, OPT_INLINE, NULL,
	  "inlined functions as frames of DWARF-unwound call chains (the default)" },
	{ "no-inline", 0, CLI_ARG_NONE, OPT_NO_INLINE, NULL, "no inlined frames in call chains" },
	{ "max-stack", 0, CLI_ARG_REQUIRED, OPT_MAX_STACK, "N",
	  "use at most N frames of each call chain (default 127)" },
	{ "verbose", 'v', CLI_ARG_NONE, 'v', NULL,
	  "C++ symbols with their parameter lists, as perf -v demangles them; with --list-dlfilters, each filter's long description too" },
	{ "max-blocks", 0, CLI_ARG_REQUIRED, OPT_MAX_BLOCKS, "N",
	  "brstackinsn prints at most N blocks of each branch stack (default 0: all)" },
	{ "pid", 0, CLI_ARG_REQUIRED, SOPT_PID, "PIDS", "only samples of these processes" },
	{ "tid", 0, CLI_ARG_REQUIRED, SOPT_TID, "TIDS", "only samples of these threads" },
	{ "cpu", 'C', CLI_ARG_REQUIRED, 'C', "CPUS", "only samples and records of these CPUs (0-3,8)" },
	{ "comms", 'c', CLI_ARG_REQUIRED, 'c', "COMMS", "only samples of these commands" },
	{ "dsos", 0, CLI_ARG_REQUIRED, SOPT_DSOS, "DSOS", "only samples in these objects" },
	{ "symbols", 'S', CLI_ARG_REQUIRED, 'S', "SYMS",
	  "only samples in these functions, or at these hex addresses" },
	{ "addr-range", 0, CLI_ARG_REQUIRED, SOPT_ADDR_RANGE, "N",
	  "with -S addresses, also samples up to N bytes after each" },
	{ "time", 0, CLI_ARG_REQUIRED, SOPT_TIME, "TIME",
	  "only samples in these time ranges (START,END seconds; 10%/2; 0%-10%,30%-40%)" },
	{ "reltime", 0, CLI_ARG_NONE, SOPT_RELTIME, NULL, "times relative to the first line's" },
	{ "deltatime", 0, CLI_ARG_NONE, SOPT_DELTATIME, NULL, "times relative to the previous line's" },
	{ "hide-call-graph", 'G', CLI_ARG_NONE, 'G', NULL, "no call chains: one line a sample" },
	{ "all-cpus", 'a', CLI_ARG_NONE, 'a', NULL, "accepted, as perf (every CPU is read)" },
	{ "show-switch-events", 0, CLI_ARG_NONE, SOPT_SHOW_SWITCH, NULL, "also print the SWITCH records" },
	{ "show-lost-events", 0, CLI_ARG_NONE, SOPT_SHOW_LOST, NULL, "also print the LOST records" },
	{ "show-namespace-events", 0, CLI_ARG_NONE, SOPT_SHOW_NS, NULL, "also print the NAMESPACES records" },
	{ "show-cgroup-events", 0, CLI_ARG_NONE, SOPT_SHOW_CGROUP, NULL, "also print the CGROUP records" },
	{ "show-bpf-events", 0, CLI_ARG_NONE, SOPT_SHOW_BPF, NULL, "also print the KSYMBOL and BPF_EVENT records" },
	{ "show-round-events", 0, CLI_ARG_NONE, SOPT_SHOW_ROUND, NULL,
	  "also print the FINISHED_ROUND records (the records then come in file order)" },
	{ "show-text-poke-events", 0, CLI_ARG_NONE, SOPT_SHOW_POKE, NULL, "also print the TEXT_POKE records (and the KSYMBOL ones, as perf)" },
	{ "per-event-dump", 0, CLI_ARG_NONE, SOPT_PER_EVENT_DUMP, NULL,
	  "each event's lines into FILE.EVENT.dump (FILE: the -i file)" },
	{ "list", 'l', CLI_ARG_NONE, 'l', NULL, "list the trace scripts perfkit runs (none)" },
	{ "demangle", 0, CLI_ARG_NONE, SOPT_DEMANGLE, NULL, "demangle C++ names (the default)" },
	{ "no-demangle", 0, CLI_ARG_NONE, SOPT_NO_DEMANGLE, NULL, "accepted; names stay demangled" },
	{ "demangle-kernel", 0, CLI_ARG_NONE, SOPT_DEMANGLE_KERNEL, NULL, "accepted, as perf" },
	{ "switch-on", 0, CLI_ARG_REQUIRED, SOPT_SWITCH_ON, "EVENT", "only samples after one of EVENT (and before --switch-off's)" },
	{ "switch-off", 0, CLI_ARG_REQUIRED, SOPT_SWITCH_OFF, "EVENT", "no samples after one of EVENT (until --switch-on's)" },
	{ "show-on-off-events", 0, CLI_ARG_NONE, SOPT_SHOW_ON_OFF, NULL, "also print the --switch-on and --switch-off samples" },
	{ "kallsyms", 0, CLI_ARG_REQUIRED, SOPT_KALLSYMS, "FILE", "the kernel's symbols from FILE (/proc/kallsyms' format)" },
	{ "vmlinux", 'k', CLI_ARG_REQUIRED, 'k', "FILE",
	  "the kernel's symbols from this vmlinux alone (none when it is not the recorded kernel's)" },
	{ "show-kernel-path", 0, CLI_ARG_NONE, SOPT_SHOW_KPATH, NULL, "print a module's file and the kernel's vmlinux where perf does" },
	{ "full-source-path", 0, CLI_ARG_NONE, SOPT_FULL_SRC, NULL, "srcline with the source file's full path" },
	{ "stop-bt", 0, CLI_ARG_REQUIRED, SOPT_STOP_BT, "SYMS", "end each call chain at the first of these functions" },
	{ "graph-function", 0, CLI_ARG_REQUIRED, SOPT_GRAPH_FUNC, "SYMS",
	  "only calls in these functions (needs branch flags from AUX data: without, no sample)" },
	{ "insn-trace", 0, CLI_ARG_OPTIONAL, SOPT_INSN_TRACE, "raw", "-F +insn,-event,-period with --ns (perf's, without AUX data)" },
	{ "xed", 0, CLI_ARG_NONE, SOPT_XED, NULL, "pipe the lines through xed -F insn: -A -64" },
	{ "call-trace", 0, CLI_ARG_NONE, SOPT_CALL_TRACE, NULL, "-F -ip,-addr,-event,-period with --ns (perf's, without AUX data)" },
	{ "call-ret-trace", 0, CLI_ARG_NONE, SOPT_CALLRET_TRACE, NULL,
	  "as --call-trace, with perf's (empty) flags column" },
	{ "list-dlfilters", 0, CLI_ARG_NONE, SOPT_LIST_DLFILTERS, NULL, "list the dlfilters (.so files) in the current directory" },
	{ "dlfilter", 0, CLI_ARG_REQUIRED, SOPT_DLFILTER, "FILE", "filter the samples with a perf dlfilter shared object" },
	{ "dlarg", 0, CLI_ARG_REQUIRED, SOPT_DLARG, "ARG", "an argument for the dlfilter (repeatable)" },
	{ "itrace", 0, CLI_ARG_OPTIONAL, SOPT_ITRACE, "OPTS",
	  "accepted: perfkit decodes no AUX area data (a file's AUX records are reported skipped)" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_script_opts = {
	.cmd = "script",
	.usage = "usage: perfkit script [-i FILE] [-F FIELDS] [--ns] [--show-task-events] [--show-mmap-events]\n"
		 "\n"
		 "Print every sample of a perf.data file (from perf record or perfkit\n"
		 "record) as a line of text, as perf script prints it.\n",
	.opts = script_options,
	.epilogue = "Exit status: 0; 1 for a file that cannot be read or fields its samples\n"
		    "do not carry; 2 for bad usage.",
};

static const struct { const char *name; uint64_t bit; } field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVNAME }, { "trace", SF_TRACE }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "dso", SF_DSO }, { "addr", SF_ADDR }, { "symoff", SF_SYMOFF },
	{ "period", SF_PERIOD }, { "misc", SF_MISC }, { "weight", SF_WEIGHT }, { "iregs", SF_IREGS },
	{ "uregs", SF_UREGS }, { "brstack", SF_BRSTACK }, { "brstacksym", SF_BRSTACKSYM },
	{ "brstackoff", SF_BRSTACKOFF }, { "phys_addr", SF_PHYS_ADDR },
	{ "data_page_size", SF_DATA_PAGE_SIZE }, { "code_page_size", SF_CODE_PAGE_SIZE }, { "srcline", SF_SRCLINE },
	{ "data_src", SF_DATA_SRC }, { "tod", SF_TOD }, { "ipc", SF_IPC }, { "insn", SF_INSN },
	{ "insnlen", SF_INSNLEN }, { "srccode", SF_SRCCODE },
	{ "brstackinsn", SF_BRSTACKINSN }, { "brstackinsnlen", SF_BRSTACKINSNLEN },
	{ "ins_lat", SF_INS_LAT }, { "bpf-output", SF_BPF_OUTPUT },
	/* perf's fields of what perfkit's files never carry (AUX-synthesized
	 * samples, their branch flags, stat metrics, guest samples): perf
	 * prints nothing for them there, and so do these (no bit) */
	{ "callindent", 0 }, { "synth", 0 }, { "metric", 0 }, { "machine_pid", 0 }, { "vcpu", 0 },
};
#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))

static const char *field_name(uint64_t bit)
{
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (field_names[i].bit & bit)
			return field_names[i].name;
	return "";
}

static const char *type_name(int type)
{
	static const char *const names[] = { "hardware", "software", "tracepoint", "hardware-cache",
					     "raw", "breakpoint" };

	return type < PERF_TYPE_MAX ? names[type] : "unknown";
}

/* perf script's defaults for each type. */
static void set_defaults(struct script_opts *o)
{
	const uint64_t base = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM |
			      SF_SYMOFF | SF_DSO | SF_PERIOD;

	for (int i = 0; i < SCRIPT_NR_TYPES; i++)
		o->type[i] = (struct script_type){ .fields = base, .invalid = SF_TRACE | SF_BPF_OUTPUT };
	o->type[PERF_TYPE_SOFTWARE] = (struct script_type){ .fields = base | SF_BPF_OUTPUT, .invalid = SF_TRACE };
	o->type[PERF_TYPE_TRACEPOINT] = (struct script_type){
		.fields = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE };
	o->type[PERF_TYPE_RAW].fields |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR | SF_DATA_PAGE_SIZE |
					 SF_CODE_PAGE_SIZE | SF_INS_LAT;
}

/* -F's type words; synth is perf's slot after the attr types (its
 * AUX-synthesized samples, which perfkit's files never carry). */
static int parse_type(const char *s, size_t len)
{
	static const char *const names[] = { "hw", "sw", "trace", "raw", "break", "synth" };
	static const int types[] = { PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT,
				     PERF_TYPE_RAW, PERF_TYPE_BREAKPOINT, PERF_TYPE_MAX };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncmp(s, names[i], len))
			return types[i];
	return -1;
}

/*
 * perf's warning when a -F replaces what an earlier one asked for: a
 * typed -F when that type was set (even to edit it), an untyped one
 * that replaces (no + or -) when any type was.  In perf's event_type()
 * words, given before the fields are read.
 */
static void warn_override(const struct script_opts *o, int type, const char *fields)
{
	bool set = false;

	if (type >= 0) {
		if (o->type[type].user_set)
			cli_message(stderr, "Overriding previous field request for %s events.\n",
				    type <= PERF_TYPE_HW_CACHE ? type_name(type) : "unknown");
		return;
	}
	if (strpbrk(fields, "+-"))
		return;
	for (int j = 0; j < SCRIPT_NR_TYPES; j++)
		set |= o->type[j].user_set;
	if (set)
		cli_message(stderr, "Overriding previous field request for all events.\n");
}

/* One field of a -F list into type `type` (-1: every type it is valid for). */
static int apply_field(struct script_opts *o, int type, uint64_t bit, bool remove, const char *word)
{
	for (int j = type < 0 ? 0 : type; j < (type < 0 ? SCRIPT_NR_TYPES : type + 1); j++) {
		struct script_type *t = &o->type[j];

		if (t->invalid & bit) {
			if (type >= 0)
				return cli_usage("script", "'%s' not valid for %s events", word, type_name(j));
			/* perf's warning, in its event_type() words */
			cli_message(stderr, "'%s' not valid for %s events. Ignoring.\n", word,
				    j <= PERF_TYPE_HW_CACHE ? type_name(j) : "unknown");
			continue;
		}
		t->fields = remove ? t->fields & ~bit : t->fields | bit;
		t->blank |= !bit && !remove;
		if (type < 0)
			t->user_fields = remove ? t->user_fields & ~bit : t->user_fields | bit;
		t->user_set = true;
		t->wildcard |= type < 0;
	}
	return 0;
}

/* perf's -F: [type:]a,b,c replaces the fields; +a,-b edits them. */
static int parse_fields(struct script_opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':'), *p = colon ? colon + 1 : arg;
	int type = -1, change = 0;	/* 0 none yet, 1 set, 2 edit */

	if (colon && (type = parse_type(arg, (size_t)(colon - arg))) < 0)
		return cli_usage("script", "invalid event type in -F '%s' (hw, sw, trace, raw, break, synth)", arg);
	if (!colon && !*arg)
		return cli_usage("script", "cannot set fields to 'none' for all event types");
	warn_override(o, type, p);
	if (!strpbrk(p, "+-")) {
		for (int j = type < 0 ? 0 : type; j < (type < 0 ? SCRIPT_NR_TYPES : type + 1); j++)
			o->type[j] = (struct script_type){ .invalid = o->type[j].invalid, .user_set = true,
							   .wildcard = type < 0 };
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		bool edit = *p == '+' || *p == '-', remove = *p == '-';
		const char *w = p + edit;
		size_t wl = len - edit, k;
		int err;

		if (!len) {	/* an empty word, skipped as perf's strtok does */
			p++;
			continue;
		}
		if ((change == 1 && edit) || (change == 2 && !edit))
			return cli_usage("script", "cannot mix +-field with overridden fields");
		change = edit ? 2 : 1;
		if (wl == 5 && !strncmp(w, "flags", 5)) {	/* perf's: every type at once, no field bit */
			o->filt.print_flags = !remove;
			p += len + (p[len] == ',');
			continue;
		}
		for (k = 0; k < NR_FIELDS && (strlen(field_names[k].name) != wl ||
					      strncmp(w, field_names[k].name, wl)); k++)
			;
		if (k == NR_FIELDS)
			return cli_usage("script", "invalid field requested: '%.*s'", (int)wl, w);
		if ((err = apply_field(o, type, field_names[k].bit, remove, field_names[k].name)))
			return err;
		p += len + (p[len] == ',');
	}
	return 0;
}

static int script_option(void *ctx, int id, const char *arg)
{
	struct script_opts *o = ctx;

	switch (id) {
	case 'i': o->input = arg; return 0;
	case 'F': return parse_fields(o, arg);
	case 'f': o->force = true; return 0;
	case 'D': o->dump = true; return 0;
	case OPT_NS: o->ns = true; return 0;
	case OPT_SYMFS: cli_symfs_set(arg); return 0;
	case OPT_SHOW_TASK: o->show_task = true; return 0;
	case OPT_SHOW_MMAP: o->show_mmap = true; return 0;
	case OPT_HEADER: o->header = true; return 0;
	case OPT_HEADER_ONLY: o->header_only = true; return 0;
	case 'I': o->show_info = true; return 0;
	case 'v': o->verbose = true; return script_filter_option(&o->filt, id, arg);
	case OPT_INLINE: o->no_inline = false; return 0;
	case OPT_NO_INLINE: o->no_inline = true; return 0;
	case OPT_MAX_STACK: {
		uint64_t v;

		if (cli_num_u64("script", "--max-stack", arg, 0, UINT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		o->max_stack = (unsigned int)v;
		o->max_stack_given = true;
		return 0;
	}
	case OPT_MAX_BLOCKS:
		return cli_num_u64("script", "--max-blocks", arg, 0, INT32_MAX, &o->max_blocks) < 0 ? CLI_EXIT_USAGE : 0;
	case SOPT_INSN_TRACE: case SOPT_CALL_TRACE: case SOPT_CALLRET_TRACE: {	/* perf's -F edits */
		const char *edit = script_switch_fields(id, arg);

		o->ns = true;
		return !edit ? CLI_EXIT_USAGE : parse_fields(o, edit) ? CLI_EXIT_USAGE :
		       script_filter_option(&o->filt, id, arg);
	}
	default: return script_filter_option(&o->filt, id, arg);
	}
}

/* ---- checking the fields against the file ------------------------------------ */

/* perf's check of one field against the samples' layout: refused when
 * asked for by name, dropped from the defaults otherwise. */
static int check_stype(struct script_type *t, const struct perf_event_attr *a, const char *name,
		       uint64_t sample_bit, const char *what, uint64_t field)
{
	if (!(t->fields & field) || (a->sample_type & sample_bit))
		return 0;
	if (t->user_fields & field) {
		cli_message(stderr, "Samples for '%s' event do not have %s attribute set. "
			    "Cannot print '%s' field.\n", name, what, field_name(field));
		return CLI_EXIT_EVENT;
	}
	t->fields &= ~field;
	return 0;
}

static int check_event(struct script_opts *o, const struct perf_event_attr *a, const char *name,
		       bool has_tracing)
{
	struct script_type *t = &o->type[script_type_of(a->type)];
	int rc;

	if (!t->fields)
		return 0;
	if ((t->fields & SF_TRACE) && !has_tracing) {
		cli_message(stderr, "perfkit script: %s has no tracing data: 'trace' cannot be printed\n",
			    o->input);
		return CLI_EXIT_EVENT;
	}
	if ((rc = check_stype(t, a, name, PERF_SAMPLE_IP, "IP", SF_IP)) ||
	    (rc = check_stype(t, a, name, PERF_SAMPLE_ADDR, "ADDR", SF_ADDR)))
		return rc;
	if ((t->fields & (SF_SYM | SF_DSO)) && !(a->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		cli_message(stderr, "perfkit script: symbols or DSOs requested but the samples of '%s' "
			    "carry neither IP nor address\n", name);
		return CLI_EXIT_EVENT;
	}
	if ((t->fields & SF_SYMOFF) && !(t->fields & SF_SYM)) {
		cli_message(stderr, "Display of offsets requested but symbol is not selected.\n");
		return CLI_EXIT_EVENT;
	}
	if ((t->fields & (SF_SRCLINE | SF_SRCCODE)) && !(t->fields & SF_IP)) {
		cli_message(stderr, "Display of source line number requested but sample IP is not\n"
			    "selected. Hence, no address to lookup the source line number.\n");
		return CLI_EXIT_EVENT;
	}
	if ((rc = check_stype(t, a, name, PERF_SAMPLE_TID, "TID", SF_TID | SF_PID)) ||
	    (rc = check_stype(t, a, name, PERF_SAMPLE_TIME, "TIME", SF_TIME)) ||
	    (rc = check_stype(t, a, name, PERF_SAMPLE_CPU, "CPU", SF_CPU)))
		return rc;
	return script_fields_check(t, a, name);
}

/* ---- reading ------------------------------------------------------------------ */

struct script_run {
	struct script_opts *o;
	struct pk_data_reader *r;
	struct script_ctx c;
	struct script_stat *stat;	/* perf stat's records (script-stat.c) */
};

static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* perf's check of the fields: type by type, against the first event of
 * each type only (a dummy is none). */
static int check_types(struct script_run *run)
{
	size_t nr = pk_data_reader_nr_events(run->r);
	int rc;

	for (int j = 0; j < SCRIPT_NR_TYPES; j++) {
		size_t i = 0;
		const char *name;

		while (i < nr && (is_dummy(pk_data_reader_attr(run->r, i)) ||
				  script_type_of(pk_data_reader_attr(run->r, i)->type) != j))
			i++;
		if (i == nr)	/* (perf 6.1 names none missing, whatever -F named) */
			continue;
		name = pk_data_reader_name(run->r, i);
		if ((rc = check_event(run->o, pk_data_reader_attr(run->r, i), name ? name : "[unknown]",
				      run->c.tracing != NULL)))
			return rc;
	}
	return 0;
}

/* The fields a map alone gives (its DSO), or the sample itself. */
#define SF_NO_SYMBOL (SF_COMM | SF_TID | SF_PID | SF_TIME | SF_CPU | SF_EVNAME | SF_IP | SF_DSO | SF_PERIOD | \
		      SF_MISC | SF_WEIGHT | SF_IREGS | SF_UREGS | SF_BRSTACK | SF_PHYS_ADDR | SF_DATA_PAGE_SIZE | \
		      SF_CODE_PAGE_SIZE | SF_DATA_SRC | SF_TOD | SF_INS_LAT)

/* Whether nothing script prints or filters by needs a symbol: every
 * event's fields are ones a map alone gives, no flag looks a symbol up
 * (--symbols, --stop-bt, --graph-function, a dlfilter, the flags column,
 * --xed), and no inlined frame is made (perf tells one by comparing its
 * name with the symbol's).  Then no symbol table need be loaded: half
 * of `script -F ip --no-inline` on a small DWARF recording. */
static bool symbols_unused(const struct script_run *run)
{
	const struct script_filter *f = &run->o->filt;

	if (f->syms || f->stop_bt || f->graph_function || f->dlfilter_path || f->print_flags || f->xed ||
	    (!run->o->no_inline && run->c.callchains))
		return false;
	for (size_t i = 0; i < pk_data_reader_nr_events(run->r); i++) {
		int t = script_type_of(pk_data_reader_attr(run->r, i)->type);

		if (run->o->type[t].fields & ~SF_NO_SYMBOL)
			return false;
	}
	return true;
}

static int setup(struct script_run *run)
{
	size_t nr = pk_data_reader_nr_events(run->r);
	const void *td;
	size_t td_len;
	struct pk_record swapper = { .size = sizeof(swapper), .type = PERF_RECORD_COMM,
				     .comm = { .comm = "swapper" } };
	int rc;
	char dir[4096];

	if (pk_resolver_new(run->r, &run->c.res) < 0 || script_reads_new(run->r, &run->c.reads) < 0 ||
	    script_stat_new(run->r, &run->stat) < 0)
		return cli_error("script", NULL);
	/* perf's machine starts with thread 0 named "swapper" */
	if (pk_resolver_process(run->c.res, &swapper) < 0)
		return cli_error("script", NULL);
	pk_resolver_set_inline(run->c.res, !run->o->no_inline);
	if (run->o->max_stack_given)
		pk_resolver_set_max_stack(run->c.res, run->o->max_stack);
	/* perf script finds the binaries in the build-id cache first */
	if ((cli_buildid_dir(dir, sizeof(dir)) && pk_resolver_set_buildid_dir(run->c.res, dir) < 0) ||
	    cli_symfs_apply(run->c.res) < 0 ||
	    pk_maps_set_demangle(pk_resolver_maps(run->c.res),
				 run->o->verbose ? PK_DEMANGLE_PARAMS : PK_DEMANGLE_NAME) < 0)
		return cli_error("script", NULL);
	if ((rc = script_switch_resolver(&run->o->filt, run->c.res)))
		return rc;
	if (pk_data_reader_feature(run->r, PK_DATA_FEAT_TRACING_DATA, &td, &td_len) == 0 &&
	    pk_tracing_data_parse(td, td_len, &run->c.tracing) < 0)
		cli_message(stderr, "perfkit script: warning: %s: %s; tracepoint fields are left out\n",
			    pk_last_error()->what, pk_last_error()->why);
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *a = pk_data_reader_attr(run->r, i);
		const char *name = pk_data_reader_name(run->r, i);
		int len = (int)strlen(name ? name : "[unknown]");

		if (len > run->c.name_width)
			run->c.name_width = len;
		if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
			run->c.callchains = true;
	}
	if (run->o->filt.hide_callgraph)
		run->c.callchains = false;	/* -G: perf's use_callchain off */
	/* perf shows a tracepoint's ip, sym and dso when it has call chains. */
	if (run->c.callchains && !run->o->type[PERF_TYPE_TRACEPOINT].user_set)
		run->o->type[PERF_TYPE_TRACEPOINT].fields |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
	/* perf checks no fields against a perf stat record file */
	if (!pk_data_reader_has_feature(run->r, PK_DATA_FEAT_STAT) && (rc = check_types(run)))
		return rc;
	if (symbols_unused(run))
		pk_resolver_set_symbols(run->c.res, false);
	return script_fields2_setup(&run->c, run->r, run->o);
}

static int sample(struct script_run *run, const struct perf_event_header *rec)
{
	int ev = pk_data_reader_last_event(run->r);	/* rec is the record just read */
	struct pk_record d;	/* not zeroed: pk_record_decode zeroes what a sample leaves */
	const struct perf_event_attr *a;
	const char *name;
	int err;

	d.size = sizeof(d);
	if (ev < 0)
		return 0;
	a = pk_data_reader_attr(run->r, (size_t)ev);
	name = pk_data_reader_name(run->r, (size_t)ev);
	if ((err = pk_record_decode(rec, a, &d)) != 0)
		return err < 0 ? err : -EINVAL;
	if ((err = script_filter_early(&run->o->filt, run->c.res, a, ev, name, &d)) <= 0)
		return err;	/* 0, or -ECANCELED: the dlfilter failed */
	if (a->sample_type & PERF_SAMPLE_READ)
		return script_print_read(stdout, &run->c, run->c.reads, run->r, a, &d);
	return script_print_sample(script_events_file(&run->o->filt, ev), &run->c, a, name, &d);
}

static int side_record(struct script_run *run, const struct perf_event_header *rec)
{
	struct pk_record d = { .size = sizeof(d) };
	const struct perf_event_attr *a = pk_data_reader_attr_of(run->r, rec);
	bool task = rec->type == PERF_RECORD_COMM || rec->type == PERF_RECORD_FORK ||
		    rec->type == PERF_RECORD_EXIT;
	bool mmap = rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2;
	bool show = (task && run->o->show_task) || (mmap && run->o->show_mmap) ||
		    script_events_shows(&run->o->filt, rec->type);
	int err;

	if (rec->type == SCRIPT_FINISHED_ROUND && run->o->filt.show_round)
		script_events_round(stdout);
	if (pk_record_decode(rec, a ? a : pk_data_reader_attr(run->r, 0), &d) != 0)
		return 0;
	/* perf takes the first event for a record of id 0 (perf's synthesized
	 * ones) or of a file with one event */
	if (!a && (pk_data_reader_nr_events(run->r) == 1 || !d.id.id))
		a = pk_data_reader_attr(run->r, 0);
	if (show && rec->type == PERF_RECORD_EXIT && (err = script_print_side(stdout, &run->c, a, &d)) < 0)
		return err;
	if ((err = pk_resolver_process(run->c.res, &d)) < 0)
		return err;
	return show && rec->type != PERF_RECORD_EXIT ? script_print_side(stdout, &run->c, a, &d) : 0;
}

/* One record: perf stat's, a sample or a side-band record. */
static int one_record(struct script_run *run, const struct perf_event_header *rec)
{
	int rc;

	if (rec->type == PERF_RECORD_SAMPLE)
		return sample(run, rec);	/* (none of perf stat's records) */
	script_out_sync();	/* the samples' lines first */
	rc = script_stat_record(run->stat, run->r, rec, stdout);
	if (rc)
		return rc < 0 ? rc : 0;
	return side_record(run, rec);
}

static int read_records(struct script_run *run)
{
	const struct perf_event_header *rec;
	int rc, err = 0;

	while (!err && (rc = pk_data_reader_next(run->r, &rec)) > 0)
		err = one_record(run, rec);
	script_out_sync();
	fflush(stdout);
	if (err == -ECANCELED)
		return CLI_EXIT_EVENT;	/* the dlfilter failed: its message is out */
	if (err < 0)
		return cli_error("script", NULL);
	report_warn_skipped(stderr, run->r);
	if (rc < 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit script: warning: %s: %s; the lines above cover the records "
			    "before it\n", e->what, e->why);
	}
	return 0;
}

/* -D: report-dump.c prints each record, then the lines above print its
 * own; a sample that reads counters has had them, member by member. */
static int dump_hook(void *ctx, const struct perf_event_header *rec)
{
	struct script_run *run = ctx;
	const struct perf_event_attr *a = pk_data_reader_attr_of(run->r, rec);
	int err;

	if (rec->type == PERF_RECORD_SAMPLE && a && (a->sample_type & PERF_SAMPLE_READ))
		return 0;
	err = one_record(run, rec);
	script_out_sync();	/* before the next record's dump */
	return err;
}

/* -D: one counter of a PERF_SAMPLE_READ sample, after the dump's thread
 * and DSO lines for it (perf delivers the sample once per counter that
 * grew, each printing both): its line, as sample() would print it. */
static int dump_member(void *ctx, const struct perf_event_header *rec, size_t ev, uint64_t id, uint64_t period)
{
	struct script_run *run = ctx;
	int lead = pk_data_reader_event_of(run->r, rec);
	struct pk_record d = { .size = sizeof(d) };
	const struct perf_event_attr *a;
	int err;

	if (lead < 0)
		return 0;
	a = pk_data_reader_attr(run->r, (size_t)lead);
	if ((err = pk_record_decode(rec, a, &d)) != 0)
		return err < 0 ? err : -EINVAL;
	err = script_filter_early(&run->o->filt, run->c.res, a, lead, pk_data_reader_name(run->r, (size_t)lead), &d);
	if (err > 0)
		err = script_print_member(stdout, &run->c, run->r, &d, ev, id, period);
	script_out_sync();	/* before the dump's next lines */
	return err < 0 ? err : 0;
}

static int dump_records(struct script_run *run)
{
	struct report_dump_opts d = { .script = true, .hook = dump_hook, .member = dump_member, .ctx = run };
	int err = report_dump(stdout, run->r, run->o->input, &d);

	fflush(stdout);
	report_warn_skipped(stderr, run->r);
	return err < 0 ? cli_error("script", NULL) : 0;
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = { .input = NULL };
	struct script_run run = { .o = &o, .c = { .o = &o } };
	bool defaulted;
	int rc;

	set_defaults(&o);
	run.c.filt = &o.filt;
	rc = cli_opts_parse(&cmd_script_opts, argc, argv, script_option, &o);
	if (!rc && optind < argc)
		rc = cli_usage("script", "unexpected argument '%s'", argv[optind]);
	if (rc) {
		script_filter_free(&o.filt);
		return rc < 0 ? 0 : rc;
	}
	defaulted = !o.input;
	if (defaulted)
		o.input = cli_default_input();
	if ((rc = cli_check_input("script", o.input, o.force, defaulted))) {
		script_filter_free(&o.filt);
		return rc;
	}
	if (pk_data_reader_open(o.input, &run.r) < 0) {
		script_filter_free(&o.filt);
		return cli_error("script", NULL);
	}
	report_warn_unfinished(stderr, run.r, o.input);
	/* --show-round-events: perf turns its ordering off to see the rounds */
	if (o.filt.show_round && pk_data_reader_set_order(run.r, PK_DATA_ORDER_FILE) < 0)
		rc = cli_error("script", NULL);
	if (!rc && !o.header_only)
		rc = script_filter_setup(&o.filt, run.r);
	if (o.header || o.header_only)
		rc = report_header_print(stdout, run.r, o.input, o.show_info, "script");
	if (!rc && !o.header_only && !(rc = setup(&run)) &&
	    !(rc = script_events_open(&o.filt, run.r, o.input)))
		rc = o.dump ? dump_records(&run) : read_records(&run);
	script_out_sync();	/* before the dump files close */
	script_filter_free(&o.filt);
	free(run.c.trace_buf);
	pk_tracing_free(run.c.tracing);
	pk_resolver_free(run.c.res);
	script_reads_free(run.c.reads);
	script_srccode_free(run.c.srccode);
	script_kept_free(run.c.kept);
	script_stat_free(run.stat);
	pk_data_reader_free(run.r);
	cli_pager_finish();	/* --xed's */
	return rc;
}
