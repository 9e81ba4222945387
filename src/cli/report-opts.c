/* SPDX-License-Identifier: MIT */
/*
 * report-opts.c - `perfkit report`'s options: perf report 6.1's table
 * (the -g word perf takes when the next is no option, --sort read once
 * every option is, --mem-mode's and -p's changes to the keys), parsed into
 * the report_opts cmd-report.c runs with.
 */
#include "report.h"
#include "report-branch.h"
#include "report-branch2.h"
#include "report-flags2.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_STDIO = 0x100, OPT_TOTAL_PERIOD, OPT_PERCENT_LIMIT, OPT_CHILDREN, OPT_NO_CHILDREN,
	OPT_PID, OPT_TID, OPT_FORMAT, OPT_MAX_STACK, OPT_HEADER, OPT_HEADER_ONLY, OPT_STATS, OPT_INLINE, OPT_NO_INLINE,
	OPT_GROUP, OPT_NO_GROUP,
	OPT_STDIO_COLOR,
	OPT_OFF_CPU,
	OPT_SYMFS,
	OPT_NO_BRANCH_STACK, OPT_SYMBOL_FILTER, OPT_BRANCH_HISTORY,
	OPT_MEM_MODE,
};

static const struct cli_opt report_options[] = {
	{ "input", 'i', CLI_ARG_REQUIRED, 'i', "FILE", "the perf.data file to read, - for standard input (default perf.data; standard input when it is a pipe)" },
	{ "stdio", 0, CLI_ARG_NONE, OPT_STDIO, NULL, "the text table (the only interface so far)" },
	{ "dump-raw-trace", 'D', CLI_ARG_NONE, 'D', NULL, "every record, raw and decoded, as perf report -D" },
	{ "sort", 's', CLI_ARG_REQUIRED, 's', "KEYS",
	  "group by these keys, comma-separated: comm, pid, tid, dso, sym, cpu, period, parent, "
	  "srcline, srcfile, time (by --time-quantum), symbol_size, socket, trace, cgroup, weight, "
	  "local_weight, ins_lat, local_ins_lat, p_stage_cyc and local_p_stage_cyc (dropped, as perf on x86 "
	  "drops them) (default comm,dso,sym; trace for a file of tracepoints only); with --mem-mode "
	  "also symbol_daddr, symbol_iaddr, dso_daddr, locked, tlb, mem, snoop, dcacheline, phys_daddr, "
	  "data_page_size, blocked; a list naming \"symbol\" gets perf's IPC column; +KEYS adds to the "
	  "default keys" },
	{ "fields", 'F', CLI_ARG_REQUIRED, 'F', "FIELDS",
	  "the columns, comma-separated: overhead, overhead_sys, overhead_us, overhead_children, "
	  "sample, period and sort keys (the rows sort by them unless --sort is given); "
	  "+FIELDS adds to the default ones" },
	{ "show-nr-samples", 'n', CLI_ARG_NONE, 'n', NULL, "a Samples column" },
	{ "show-total-period", 0, CLI_ARG_NONE, OPT_TOTAL_PERIOD, NULL, "a Period column" },
	{ "percent-limit", 0, CLI_ARG_REQUIRED, OPT_PERCENT_LIMIT, "PERCENT",
	  "leave out entries under PERCENT of the total" },
	{ "quiet", 'q', CLI_ARG_NONE, 'q', NULL, "rows only: no comment lines" },
	{ "children", 0, CLI_ARG_NONE, OPT_CHILDREN, NULL,
	  "a Children column: the period of every sample whose call chain passes through the entry "
	  "(the default when the samples carry call chains)" },
	{ "no-children", 0, CLI_ARG_NONE, OPT_NO_CHILDREN, NULL, "self overhead only" },
	{ "call-graph", 'g', CLI_ARG_REQUIRED, 'g', "PARAMS",
	  "call graphs under each entry: print type (graph, fractal, flat, folded, none), "
	  "threshold, print limit, order (caller, callee), key (function, address, srcline), "
	  "value (percent, period, count); "
	  "default graph,0.5,caller "
	  "(callee with --no-children)" },
	{ "inline", 0, CLI_ARG_NONE, OPT_INLINE, NULL,
	  "inlined functions as frames of DWARF-unwound call chains (the default)" },
	{ "no-inline", 0, CLI_ARG_NONE, OPT_NO_INLINE, NULL, "no inlined frames in call chains" },
	{ "inverted", 'G', CLI_ARG_NONE, 'G', NULL, "caller order (perf's inverted call graph)" },
	{ "max-stack", 0, CLI_ARG_REQUIRED, OPT_MAX_STACK, "N",
	  "use at most N frames of each call chain (default 127)" },
	{ "comms", 'c', CLI_ARG_REQUIRED, 'c', "COMMS", "only samples of these commands" },
	{ "pid", 0, CLI_ARG_REQUIRED, OPT_PID, "PIDS", "only samples of these processes" },
	{ "tid", 0, CLI_ARG_REQUIRED, OPT_TID, "TIDS", "only samples of these threads" },
	{ "dsos", 'd', CLI_ARG_REQUIRED, 'd', "DSOS", "only samples in these objects" },
	{ "parent", 'p', CLI_ARG_REQUIRED, 'p', "REGEX",
	  "the parent of a sample (--sort parent, added by -p) is the first frame of its call chain "
	  "whose symbol matches REGEX (default ^sys_|^do_page_fault)" },
	{ "exclude-other", 'x', CLI_ARG_NONE, 'x', NULL, "only samples with a parent" },
	{ "symbols", 'S', CLI_ARG_REQUIRED, 'S', "SYMS", "only samples in these functions (names as the Symbol column shows them)" },
	{ "cpu", 'C', CLI_ARG_REQUIRED, 'C', "CPUS",
	  "only samples taken on these CPUs (the others count nowhere)" },
	{ "force", 'f', CLI_ARG_NONE, 'f', NULL, "read a file another user owns" },
	{ "format", 0, CLI_ARG_REQUIRED, OPT_FORMAT, "FORMAT",
	  "stdio (the table), json (the table's rows and call trees), or an export of the samples "
	  "with their call chains: folded, pprof, speedscope, flamegraph" },
	{ "output", 'o', CLI_ARG_REQUIRED, 'o', "FILE", "write the --format export to FILE (default stdout)" },
	{ "header", 0, CLI_ARG_NONE, OPT_HEADER, NULL, "the file's header block (perf's) before the report" },
	{ "header-only", 0, CLI_ARG_NONE, OPT_HEADER_ONLY, NULL, "the file's header block only" },
	{ "show-info", 'I', CLI_ARG_NONE, 'I', NULL,
	  "the header block in full: CPU and NUMA topology, caches, memory nodes" },
	{ "stats", 0, CLI_ARG_NONE, OPT_STATS, NULL, "the number of records of each type, and of samples per event" },
	{ "group", 0, CLI_ARG_NONE, OPT_GROUP, NULL,
	  "one section per event group, a column per member (the default for a file's groups; "
	  "on a file without groups, all events as one group)" },
	{ "no-group", 0, CLI_ARG_NONE, OPT_NO_GROUP, NULL, "each event of a group in its own section" },
	{ "stdio-color", 0, CLI_ARG_OPTIONAL, OPT_STDIO_COLOR, "MODE",
	  "colour the percentages (red from 5%, green above 0.5%): always (the default for the flag), "
	  "never, or auto (on a terminal or through the pager: the default)" },
	{ "threads", 'T', CLI_ARG_NONE, 'T', NULL,
	  "after the table, the counts each thread's PERF_RECORD_READ gave (perf record -s)" },
	{ "symfs", 0, CLI_ARG_REQUIRED, OPT_SYMFS, "DIR",
	  "look for files with symbols below DIR (perf's --symfs; the kernel's from DIR/vmlinux)" },
	{ "off-cpu", 0, CLI_ARG_REQUIRED, OPT_OFF_CPU, "MODE",
	  "wall-clock time of a perfkit record --off-cpu file: each wait (sched_switch to the next "
	  "switch-in) weighted by its nanoseconds under an [off-cpu: STATE] frame, merge (with the "
	  "on-CPU clock samples) or split (an offcpu-time section)" },
	{ "verbose", 'v', CLI_ARG_NONE, 'v', NULL,
	  "as perf -v: each DSO by its full path, each symbol after its address and the letter for "
	  "where its symbols came from (k kallsyms, B build-id cache, d the file, ! none)" },
	{ "time", 0, CLI_ARG_REQUIRED, REPORT_OPT_TIME, "STR",
	  "only samples in these times: START,END in seconds (either side may be empty; several "
	  "ranges separated by spaces) or percentages of the file's span (10%/2, 0%-10%,30%-40%)" },
	{ "ns", 0, CLI_ARG_NONE, REPORT_OPT_NS, NULL,
	  "times in nanoseconds (the time sort key's column)" },
	{ "hide-unresolved", 'U', CLI_ARG_NONE, REPORT_OPT_HIDE_UNRESOLVED, NULL,
	  "only samples whose address resolved to a symbol (the others count nowhere)" },
	{ "tasks", 0, CLI_ARG_NONE, REPORT_OPT_TASKS, NULL,
	  "instead of the table, the tasks the file saw: pid, tid, ppid and comm, under their parents" },
	{ "mmaps", 0, CLI_ARG_NONE, REPORT_OPT_MMAPS, NULL, "--tasks with each task's memory maps" },
	{ "switch-on", 0, CLI_ARG_REQUIRED, REPORT_OPT_SWITCH_ON, "EVENT",
	  "count no sample until one of EVENT, then all (until --switch-off's event)" },
	{ "switch-off", 0, CLI_ARG_REQUIRED, REPORT_OPT_SWITCH_OFF, "EVENT",
	  "stop counting samples at one of EVENT (until --switch-on's event)" },
	{ "show-on-off-events", 0, CLI_ARG_NONE, REPORT_OPT_SHOW_ON_OFF, NULL,
	  "count the samples of the --switch-on and --switch-off events too" },
	{ "field-separator", 't', CLI_ARG_REQUIRED, REPORT_OPT_FIELD_SEP, "SEP",
	  "columns separated by SEP, not padded (SEP in a name becomes '.')" },
	{ "kallsyms", 0, CLI_ARG_REQUIRED, REPORT_OPT_KALLSYMS, "FILE",
	  "the kernel's symbols from FILE (a copy of /proc/kallsyms)" },
	{ "disable-order", 0, CLI_ARG_NONE, REPORT_OPT_DISABLE_ORDER, NULL,
	  "with -D: the records in the order the file holds them, not in time order (the "
	  "table is always in time order, as perf's)" },
	{ "ignore-callees", 0, CLI_ARG_REQUIRED, REPORT_OPT_IGNORE_CALLEES, "REGEX",
	  "a call-chain frame whose symbol matches REGEX becomes the sample's entry, its callees "
	  "left out of the chain (with call graphs, Children or --sort parent)" },
	{ "percentage", 0, CLI_ARG_REQUIRED, REPORT_OPT_PERCENTAGE, "MODE",
	  "what the filters' percentages are of: absolute (every sample's period: the default) or "
	  "relative (the period of the samples they leave, which the header counts then)" },
	{ "show-cpu-utilization", 0, CLI_ARG_NONE, REPORT_OPT_CPU_UTIL, NULL,
	  "sys and usr columns: each entry's kernel and user share of the total" },
	{ "show-ref-call-graph", 0, CLI_ARG_NONE, REPORT_OPT_REF_CG, NULL,
	  "perf's reference call graphs: the header says so for an event recorded with call-graph=no" },
	{ "skip-empty", 0, CLI_ARG_NONE, REPORT_OPT_SKIP_EMPTY, NULL,
	  "no section for an event without samples (the default)" },
	{ "tui", 0, CLI_ARG_NONE, REPORT_OPT_TUI, NULL,
	  "perf's TUI, which perfkit lacks: the --stdio table, as perf prints off a terminal" },
	{ "source", 0, CLI_ARG_NONE, REPORT_OPT_ANNOTATE_BOOL, NULL,
	  "annotate's: source in the disassembly (the table is the same)" },
	{ "asm-raw", 0, CLI_ARG_NONE, REPORT_OPT_ANNOTATE_BOOL, NULL,
	  "annotate's: raw instruction bytes (the table is the same)" },
	{ "disassembler-style", 'M', CLI_ARG_REQUIRED, REPORT_OPT_DISASM_STYLE, "STYLE",
	  "annotate's: objdump's -M (the table is the same)" },
	{ "objdump", 0, CLI_ARG_REQUIRED, REPORT_OPT_ANNOTATE_STR, "PATH",
	  "annotate's: the objdump to run (the table is the same)" },
	{ "prefix", 0, CLI_ARG_REQUIRED, REPORT_OPT_PREFIX, "PREFIX",
	  "annotate's: a prefix for source file paths (the table is the same)" },
	{ "prefix-strip", 0, CLI_ARG_REQUIRED, REPORT_OPT_PREFIX_STRIP, "N",
	  "annotate's: strip N leading directories before --prefix (which it requires)" },
	{ "percent-type", 0, CLI_ARG_REQUIRED, REPORT_OPT_PERCENT_TYPE, "TYPE",
	  "annotate's: local-period, global-period, local-hits or global-hits (the table is the same)" },
	{ "samples", 0, CLI_ARG_REQUIRED, REPORT_OPT_SAMPLES, "N",
	  "perf's TUI: samples to list per entry (--stdio shows none)" },
	REPORT_FLAGS3_OPTIONS,
	REPORT_FLAGS4_OPTIONS,
	{ "branch-stack", 'b', CLI_ARG_NONE, 'b', NULL,
	  "branch mode: each branch stack entry a row (perf's default for a file with the BRANCH_STACK feature)" },
	{ "no-branch-stack", 0, CLI_ARG_NONE, OPT_NO_BRANCH_STACK, NULL, "no branch mode, though the file has branch stacks" },
	{ "branch-history", 0, CLI_ARG_NONE, OPT_BRANCH_HISTORY, NULL,
	  "branch stacks added to the call graphs, with each frame's branch counts (report-brhist.c)" },
	{ "symbol-filter", 0, CLI_ARG_REQUIRED, OPT_SYMBOL_FILTER, "STR", "only entries whose symbol has STR (branch mode: the target's)" },
	{ "mem-mode", 0, CLI_ARG_NONE, OPT_MEM_MODE, NULL,
	  "memory access profile: samples by their weight, sorted by perf's memory keys (report-mem.c)" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_report_opts = {
	.cmd = "report",
	.usage = "usage: perfkit report [-i FILE] [--stdio] [--sort KEYS] [OPTIONS]\n"
		 "\n"
		 "Read a perf.data file (from perf record or perfkit record) and print\n"
		 "where the samples fell, as perf report --stdio prints it.\n",
	.opts = report_options,
	.epilogue = "Exit status: 0 (also for a file damaged after its header: the rows\n"
		    "before the damage and a warning), 1 for a file that cannot be read,\n"
		    "2 for bad usage.",
};

static bool has_key(const struct report_opts *o, enum pk_hist_key key)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == key)
			return true;
	return false;
}

static int report_option(void *ctx, int id, const char *arg)
{
	struct report_opts *o = ctx;

	switch (id) {
	case 'i': o->input = arg; return 0;
	case 'D': o->dump = true; return 0;
	case 'b': o->branch_mode = 1; return 0;
	case OPT_NO_BRANCH_STACK: o->branch_mode = -1; return 0;
	case OPT_BRANCH_HISTORY: o->branch_history = true; return 0;
	case OPT_SYMBOL_FILTER: o->symbol_filter = arg; return 0;	/* report-branch.c */
	case OPT_MEM_MODE: o->mem_mode = true; return 0;	/* report-mem.c */
	case 's':	/* read once every option is; +KEYS once the file is open */
		if (!strcmp(arg, "+"))
			return cli_usage("report", "Invalid --sort key: `+' (name keys to add after it: "
					 "--sort +pid)");
		o->sort_plus = arg[0] == '+' ? arg + 1 : NULL;
		o->sort_given = !o->sort_plus;
		o->sort_arg = o->sort_plus ? NULL : arg;
		return 0;
	case 'F': o->fields_arg = arg; return 0;
	case 'p': o->parent_arg = arg; return 0;
	case 'x': o->exclude_other = true; return 0;
	case 'v': return report_verbose_on(o);
	case 'n': o->show_nr = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'f': o->force = true; return 0;
	case 'o': o->output = arg; return 0;
	case OPT_FORMAT: return report_export_format(arg, &o->format);
	case OPT_OFF_CPU: return report_offcpu_parse(arg, &o->off_cpu);
	case OPT_SYMFS: cli_symfs_set(arg); return 0;
	case OPT_STDIO: return 0;
	case OPT_HEADER: o->header = true; return 0;
	case OPT_HEADER_ONLY: o->header_only = true; return 0;
	case 'I': o->show_info = true; return 0;
	case OPT_STATS: o->stats = true; return 0;
	case OPT_GROUP: o->group_opt = 1; return 0;
	case 'T': o->show_threads = true; return 0;
	case OPT_STDIO_COLOR: return cli_color_parse("report", arg, &o->color_mode);
	case OPT_NO_GROUP: o->group_opt = 0; return 0;
	case OPT_CHILDREN: o->children_opt = 1; return 0;
	case OPT_NO_CHILDREN: o->children_opt = 0; return 0;
	case OPT_INLINE: o->no_inline = false; return 0;
	case OPT_NO_INLINE: o->no_inline = true; return 0;
	case 'g': return report_cg_parse(o, arg);
	case 'G': o->inverted = true; return 0;
	case OPT_MAX_STACK: {
		uint64_t v;

		if (cli_num_u64("report", "--max-stack", arg, 0, UINT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		o->max_stack = (unsigned int)v;
		return 0;
	}
	case OPT_TOTAL_PERIOD: o->show_period = true; return 0;
	case OPT_PERCENT_LIMIT:
		if (cli_num_seconds("report", "--percent-limit", arg, 0, 100, &o->percent_limit) < 0)
			return CLI_EXIT_USAGE;
		o->cg.min_percent = (float)o->percent_limit;	/* perf's limit is the graphs' threshold too */
		return 0;
	case 'c': return cli_words("report", arg, &o->comms);
	case 'd': return cli_words("report", arg, &o->dsos);
	case 'S': return cli_words("report", arg, &o->syms);
	case OPT_PID: return cli_filter_ids("report", arg, &o->pids, &o->nr_pids) ? CLI_EXIT_USAGE : 0;
	case OPT_TID: return cli_filter_ids("report", arg, &o->tids, &o->nr_tids) ? CLI_EXIT_USAGE : 0;
	case 'C':
		if (pk_cpus_parse(arg, &o->cpus, &o->nr_cpus) < 0)
			return cli_error("report", arg);
		return 0;
	default: return report_flags4_option(o, id, arg);	/* then report_flags3/2_option */
	}
}

/* perf's -p adds the parent key when --sort lacks it (its setup_sorting,
 * after the sort order's keys). */
static int add_parent(struct report_opts *o)
{
	if (!o->parent_arg || has_key(o, PK_HIST_KEY_PARENT))
		return 0;
	if (o->nr_keys == PK_HIST_MAX_KEYS)
		return cli_usage("report", "more than %d --sort keys", PK_HIST_MAX_KEYS);
	o->keys[o->nr_keys++] = PK_HIST_KEY_PARENT;
	return 0;
}

int report_parse_args(struct report_opts *o, int argc, char **argv)
{
	int rc;

	/* perf's -g takes the next word, and its defaults when last or when
	 * the next word is an option (perf's PARSE_OPT_OPTARG). */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if ((!strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph")) &&
		    (i == argc - 1 || argv[i + 1][0] == '-')) {
			report_cg_parse(o, "graph,0.5,caller,function,percent");	/* perf's default */
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof(*argv));
			argc--, i--;
		}
	rc = report_parse_sort(o, REPORT_SORT_DEFAULT);
	if (!rc)
		rc = cli_opts_parse(&cmd_report_opts, argc, argv, report_option, o);
	/* --sort's words, once --mem-mode is known (branch keys: report-branch2.c) */
	if (!rc && o->sort_given && !report_branch_sort_key(o->sort_arg))
		rc = report_parse_sort(o, o->sort_arg);
	if (!rc)
		rc = report_mem_setup(o);
	if (!rc)
		rc = add_parent(o);
	if (!rc && optind < argc)
		rc = cli_usage("report", "unexpected argument '%s'", argv[optind]);
	return rc;
}

/* Whether r's events are tracepoints only, for perf's default order: a
 * pipe-mode stream's arrive after perf sets its sorting up. */
static bool tracepoints_only(struct pk_data_reader *r)
{
	size_t nr = pk_data_reader_nr_events(r);

	for (size_t i = 0; i < nr; i++)
		if (pk_data_reader_attr(r, i)->type != PERF_TYPE_TRACEPOINT)
			return false;
	return nr && !report_is_pipe(r);
}

/* perf's default order for a file of tracepoints only is trace, but with
 * --raw-trace its trace_fields, a column per field of each tracepoint,
 * which perfkit does not make yet.  0, or CLI_EXIT_USAGE after a message. */
static int tracepoint_order(const struct report_opts *o)
{
	if (o->f3.raw_trace)
		return cli_usage("report", "--raw-trace on a file of tracepoints only (perf's trace_fields "
				 "sort order) is not supported yet");
	return 0;
}

int report_sort_plus(struct report_opts *o, struct pk_data_reader *r)
{
	const char *order = REPORT_SORT_DEFAULT;
	int rc, n;

	if (!o->sort_plus)
		return 0;
	if (report_branch_wanted(o, r)) {
		order = REPORT_SORT_BRANCH;
	} else if (o->mem_mode) {
		order = report_mem_default_order();
	} else if (tracepoints_only(r)) {
		if ((rc = tracepoint_order(o)))
			return rc;
		order = "trace";
	}
	n = snprintf(o->sort_buf, sizeof(o->sort_buf), "%s,%s", order, o->sort_plus);
	if (n < 0 || (size_t)n >= sizeof(o->sort_buf))
		return cli_usage("report", "--sort +KEYS is too long: %zu characters after the default keys, "
				 "at most %zu (name fewer keys)", strlen(o->sort_plus),
				 sizeof(o->sort_buf) - strlen(order) - 2);
	o->sort_given = true;
	o->sort_arg = o->sort_buf;
	if (report_branch_sort_key(o->sort_arg))
		return 0;	/* branch mode's keys: report-branch2.c reads them */
	if ((rc = report_parse_sort(o, o->sort_arg)))
		return rc;
	return add_parent(o);
}

int report_default_sort(struct report_opts *o, struct pk_data_reader *r)
{
	int rc;

	/* perf asks for its default order only when neither --sort (nor
	 * --branch-history's order) nor a strict -F names the keys */
	if (o->sort_arg || (o->fields_arg && o->fields_arg[0] != '+') || !tracepoints_only(r) ||
	    report_branch_wanted(o, r))
		return 0;
	if ((rc = tracepoint_order(o)) || (rc = report_parse_sort(o, "trace")))
		return rc;
	return add_parent(o);
}
