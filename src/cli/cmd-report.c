/* SPDX-License-Identifier: MIT */
/*
 * cmd-report.c - `perfkit report`: read a perf.data file (perf's or
 * perfkit's), follow its threads and maps, count every sample into one
 * histogram per event by the --sort keys, and print perf report's --stdio
 * table (report-print.c).  The options, perf's ownership check, the
 * filters, and what a damaged file gets: the rows before the damage and a
 * warning naming the offset.
 */
#include "report.h"
#include "report-header.h"
#include "report-dump.h"
#include "report-branch.h"
#include "report-brhist.h"
#include "dso-names.h"
#include "report-flags2.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	OPT_STDIO = 0x100, OPT_TOTAL_PERIOD, OPT_PERCENT_LIMIT, OPT_CHILDREN, OPT_NO_CHILDREN,
	OPT_PID, OPT_TID, OPT_FORMAT, OPT_MAX_STACK, OPT_HEADER, OPT_HEADER_ONLY, OPT_STATS, OPT_INLINE, OPT_NO_INLINE,
	OPT_GROUP, OPT_NO_GROUP,
	OPT_STDIO_COLOR,
	OPT_OFF_CPU,
	OPT_SYMFS,
	OPT_NO_BRANCH_STACK, OPT_SYMBOL_FILTER, OPT_BRANCH_HISTORY,
};

static const struct cli_opt report_options[] = {
	{ "input", 'i', CLI_ARG_REQUIRED, 'i', "FILE", "the perf.data file to read, - for standard input (default perf.data; standard input when it is a pipe)" },
	{ "stdio", 0, CLI_ARG_NONE, OPT_STDIO, NULL, "the text table (the only interface so far)" },
	{ "dump-raw-trace", 'D', CLI_ARG_NONE, 'D', NULL, "every record, raw and decoded, as perf report -D" },
	{ "sort", 's', CLI_ARG_REQUIRED, 's', "KEYS",
	  "group by these keys, comma-separated: comm, pid, tid, dso, sym, cpu, period, parent, "
	  "srcline, srcfile, time (by --time-quantum), symbol_size, socket, trace, cgroup, weight, "
	  "local_weight, ins_lat, local_ins_lat, p_stage_cyc and local_p_stage_cyc (dropped, as perf on x86 "
	  "drops them) (default comm,dso,sym); a "
	  "list naming \"symbol\" gets perf's IPC column" },
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
	  "the records in the order the file holds them, not in time order" },
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
	case 's': o->sort_given = true; o->sort_arg = arg;	/* branch keys: report-branch2.c */
		return report_branch_sort_key(arg) ? 0 : report_parse_sort(o, arg);
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

/* ---- reading ---------------------------------------------------------------- */

/* Everything one run follows while it reads the file. */
struct report_run {
	const struct report_opts *o;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct report_event *ev;
	size_t nr_ev;
	struct cli_names names;	/* every DSO short name handed out, each once */
	const struct pk_dso *last_dso;	/* the last DSO named, and its name */
	const char *last_name;
	uint64_t lost_samples;
	struct report_chains chains;	/* add_chain's buffers */
	struct report_srclines *src;	/* --sort srcline/srcfile strings */
	struct report_reads reads;	/* PERF_SAMPLE_READ's last readings */
	struct report_thread_counts thread_counts;	/* -T */
	struct cli_progress progress;	/* on a terminal, for a slow file */
	uint64_t first_time, last_time, time;	/* SAMPLE_TIME's span, the last sample's time */
	struct report_offcpu *offcpu;	/* --off-cpu */
	struct pk_stack_health *health;	/* report-health.c's count */
	bool srclines;			/* a srcline or srcfile key: report-srcline.c per sample */
	bool socket_out;		/* report_flags4_socket_out, the same for every sample */
	/* A zeroed sample with its size, copied to start each one: zeroing
	 * in place took a `rep stos`, its start-up a tenth of report_sample */
	struct pk_hist_sample blank;
	struct pk_resolved_sample blank_rs;	/* the same for the resolver's answer */
	struct report_branch *branch;	/* branch mode's table (report-branch.c), else NULL */
	struct report_brhist *brhist;	/* --branch-history's chains (report-brhist.c), else NULL */
};

/*
 * The short name perf shows for DSO `d` in process `pid` (dso-names.c),
 * the last one remembered: samples come in runs of one DSO.  *nomem is set
 * when out of memory.
 */
static const char *dso_name(struct report_run *run, const struct pk_dso *d, uint32_t pid, bool *nomem)
{
	const char *name;

	if (d && d == run->last_dso)
		return run->last_name;
	name = run->o->verbose ? report_verbose_dso(run->o, &run->names, d, pid, nomem) :
				 cli_dso_short_name(&run->names, d, pid, nomem);
	if (d && !cli_dso_is_jit(d)) {
		run->last_dso = name ? d : NULL;
		run->last_name = name;
	}
	return name;
}

bool report_in_ids(const pid_t *ids, size_t nr, int64_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool report_in_list(char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

/* Whether --comms, --pid, --tid, --dsos or --symbols hide the sample (perf still
 * counts it, in the totals and in its entry). */
static bool filtered(const struct report_opts *o, const struct pk_hist_sample *s, const struct pk_dso *d)
{
	return (o->comms && !report_in_list(o->comms, s->comm)) ||
	       (o->dsos && !report_verbose_dso_listed(o, s->dso, d)) ||
	       (o->syms && !report_in_list(o->syms, s->sym)) ||
	       (o->pids && !report_in_ids(o->pids, o->nr_pids, s->pid)) ||
	       (o->tids && !report_in_ids(o->tids, o->nr_tids, s->tid));
}

/*
 * Sample `s` with its call chain: each frame as the entry it counts in
 * (for Children) and as a frame of the tree, in the order the graphs
 * print (callee first, or caller first), into pk_hist_add_chain.
 */
static int add_chain(struct report_run *run, size_t ev, const struct pk_hist_sample *s,
		     const struct pk_resolved_sample *rs)
{
	struct report_chains *c = &run->chains;
	size_t nr = rs->nr_frames, from = 0;
	bool nomem = false;
	char level = s->level;

	/* perf's --max-stack keeps the outermost frames in caller order, and
	 * an LBR call stack whole. */
	if (run->o->cg.caller && nr > run->o->max_stack && !rs->lbr) {
		from = nr - run->o->max_stack;
		nr = run->o->max_stack;
	}
	if (nr > c->cap) {
		struct pk_hist_sample *hs = realloc(c->samples, nr * sizeof(*hs));
		struct pk_callchain_frame *cf = hs ? realloc(c->frames, nr * sizeof(*cf)) : NULL;

		if (hs)
			c->samples = hs;
		if (!cf)
			return -ENOMEM;
		c->frames = cf;
		c->cap = nr;
	}
	for (size_t k = 0; k < nr; k++) {
		size_t idx = run->o->cg.caller ? from + nr - 1 - k : k;
		const struct pk_frame *f = &rs->frames[idx];
		struct pk_hist_sample *fs = &c->samples[k];
		const char *sym = f->loc.sym, *dso = dso_name(run, f->loc.dso, s->pid, &nomem);
		bool src = run->srclines || f->inlined;

		*fs = *s;
		/* perf fills one addr_location frame after frame: a frame no map
		 * holds keeps the level of the frame before it (or the sample's) */
		if (f->loc.dso)
			level = cli_sample_level(f->cpumode);
		fs->level = level;
		fs->sym = sym;
		fs->sym_start = f->loc.sym_start;
		report_sort2_frame(&f->loc, fs);
		fs->ip = f->ip;	/* perf keys a frame's entry by its address as sampled */
		/* perf's frame entries unmap the address twice (the frame's
		 * al->addr is the ip, not its map_ip): but in the kernel's map */
		fs->addr = !f->loc.dso || f->loc.kernel ? f->ip : 2 * f->ip - f->loc.map_ip;
		fs->dso = dso;
		report_ksym_frame(fs, f->loc.dso);
		if (nomem || (src && report_srcline_frame(&run->src, run->o, pk_resolver_maps(run->res), f, fs) < 0))
			return -ENOMEM;
		/* perf's frame entries carry the sample's filter state: its
		 * addr_location, with the frame's symbol and map filled in. */
		fs->filtered = s->filtered;
		/* The frame from the values in hand unless srcline changed them:
		 * reading fs's sym and dso back (one 16-byte load over their two
		 * 8-byte stores, a store-forwarding stall) was a third of this
		 * function's time. */
		if (src) {
			sym = fs->sym;
			dso = fs->dso;
		}
		c->frames[k] = (struct pk_callchain_frame){ sym, dso, fs->sym_start, f->ip,
							    f->inlined, f->loc.dso, run->o->cg.key, NULL,
							    report_brhist_branch(run->brhist, idx) };
		if (run->o->cg.key != PK_CALLCHAIN_KEY_FUNCTION &&	/* no string to make */
		    report_srcline_chain(&run->src, run->o->cg.key, pk_resolver_maps(run->res), f,
					 &c->frames[k].srcline) < 0)
			return -ENOMEM;
		/* perf's frame entry takes its chain node's srcline when the
		 * -g key made one (machine.c's callchain_srcline) */
		if (run->o->cg.key != PK_CALLCHAIN_KEY_FUNCTION && fs->srcline && !f->inlined &&
		    c->frames[k].srcline)
			fs->srcline = c->frames[k].srcline;
	}
	return pk_hist_add_chain(run->ev[ev].hist, s, c->samples, c->frames, nr, run->o->children);
}

/*
 * One sample of event `ev`, resolved: into its event's histogram.  This
 * is the one place a report sees a sample with its location and frames in
 * hand (rs->frames), where per-sample additions hook in.
 */
static int report_sample(struct report_run *run, size_t ev, const struct pk_sample *smp,
			 const struct pk_resolved_sample *rs, uint64_t period)
{
	struct pk_hist_sample s;
	bool nomem = false;
	int32_t cpu;

	if (run->o->f2.hide_unresolved && !rs->loc.sym)
		return 0;	/* perf's -U: the sample counts nowhere, */
	if (report_flags2_chain(run->o, &rs) < 0 ||	/* ... nor a frame without a symbol */
	    report_brhist_chain(run->brhist, run->res, smp, &rs) < 0)
		return -ENOMEM;
	cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1;
	if (run->o->cpus && !report_in_ids(run->o->cpus, run->o->nr_cpus, (uint32_t)cpu))
		return 0;	/* perf's --cpu drops the sample altogether */
	s = run->blank;
	s.cpu = cpu;
	s.period = period;
	s.comm = rs->comm;
	s.pid = rs->pid;
	s.tid = rs->tid;
	s.level = cli_sample_level(rs->cpumode);
	s.sym = rs->loc.sym;
	s.sym_start = rs->loc.sym_start;
	if (report_sort2_fill(run->o, smp, &rs->loc, &s) < 0)
		return -ENOMEM;
	/* perf shows an address relative to its map, when there is one: in a
	 * user file's map its map_ip, the offset into the file (for a non-PIE
	 * executable not its ELF address), in the kernel's the address. */
	s.ip = !rs->loc.dso ? smp->ip : rs->loc.kernel ? rs->loc.addr : rs->loc.map_ip;
	s.dso = dso_name(run, rs->loc.dso, s.pid, &nomem);
	report_ksym_sample(&s, rs->loc.dso);
	if (nomem || (run->srclines &&
		      report_srcline_fill(&run->src, run->o, pk_resolver_maps(run->res), &rs->loc, &s) < 0))
		return -ENOMEM;
	if (run->o->parent_on) {
		const char *parent = report_parent_of(run->o, rs);

		if (parent && !(s.parent = cli_names_intern(&run->names, parent)))
			return -ENOMEM;
	}
	s.filtered = filtered(run->o, &s, rs->loc.dso) || (run->o->exclude_other && !s.parent) || run->socket_out;
	if (run->o->callchain || run->o->children)
		return add_chain(run, ev, &s, rs);
	return pk_hist_add(run->ev[ev].hist, &s);
}

/* A sample with its counters read (PERF_SAMPLE_READ): one sample per
 * counter that grew, each of its own event (report-group.c). */
static int split_sample(struct report_run *run, const struct perf_event_attr *attr,
			const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	struct report_read out[64];
	int n = report_reads_split(&run->reads, attr, &smp->read, out, 64), err = 0;

	if (n == -ENOMEM)
		return n;
	for (int i = 0; i < n && !err; i++)
		if (out[i].ev < run->nr_ev)
			err = report_sample(run, out[i].ev, smp, rs, out[i].period);
	return n < 0 ? -EINVAL : err;
}

/* --off-cpu (report-offcpu.c): a switch-out waits for its thread to run
 * again; an interval that ends is a sample of its own.  Returns 1 when
 * the record counts only that way, 0, or a negative errno. */
static int offcpu(struct report_run *run, int ev, const struct pk_record *d,
		  const struct pk_resolved_sample *rs)
{
	struct report_offcpu_out out;
	int rc = rs ? report_offcpu_sample(run->offcpu, (size_t)ev, d, rs, &out)
		    : report_offcpu_record(run->offcpu, d, &out);
	int err;

	if (rc > 0 && (rc & REPORT_OFFCPU_EMIT) &&
	    (err = report_sample(run, out.ev, &out.smp, &out.rs, out.smp.period)) < 0)
		return err;
	return rc < 0 ? rc : rc & REPORT_OFFCPU_CONSUMED;
}

/* One record, in time order: samples into the histograms, the rest to
 * the resolver (and LOST_SAMPLES counted).  A record that does not
 * decode changes nothing, as in perf; a sample that does not is damage. */
static int report_record(struct report_run *run, const struct perf_event_header *h)
{
	int ev = pk_data_reader_event_of(run->r, h);
	const struct perf_event_attr *attr = ev >= 0 ? pk_data_reader_attr(run->r, (size_t)ev) : NULL;
	struct pk_record d;	/* not zeroed: pk_record_decode writes all of it */
	struct pk_resolved_sample rs;
	int err;

	d.size = sizeof(d);
	if (h->type == PERF_RECORD_SAMPLE) {
		rs = run->blank_rs;	/* copied: zeroing in place is a rep stos (see blank) */
		if (ev < 0 || (size_t)ev >= run->nr_ev)
			return 0;	/* a sample of no known event: perf drops those too */
		if (pk_record_decode(h, attr, &d) != 0)
			return -EINVAL;
		if (report_flags2_skip(run->o, (size_t)ev, &d.sample))
			return 0;	/* --time, --switch-on/off (report-flags2.c) */
		if ((err = pk_resolver_resolve(run->res, &d, &rs)) < 0 ||
		    (run->health && (err = pk_stack_health_add(run->health, attr, &d.sample, &rs)) < 0))
			return err;
		if (d.sample.fields & PERF_SAMPLE_TIME)
			run->time = d.sample.time;
		if (run->offcpu && (err = offcpu(run, ev, &d, &rs)) != 0)
			return err < 0 ? err : 0;
		if (run->branch)	/* report-branch.c */
			return report_branch_add(run->branch, (size_t)ev, pk_resolver_maps(run->res), &run->names,
						 &d.sample, &rs);
		if (attr->sample_type & PERF_SAMPLE_READ)
			return split_sample(run, attr, &d.sample, &rs);
		return report_sample(run, (size_t)ev, &d.sample, &rs,
				     d.sample.fields & PERF_SAMPLE_PERIOD ? d.sample.period : attr->sample_period);
	}
	if (pk_record_decode(h, attr ? attr : pk_data_reader_attr(run->r, 0), &d) != 0)
		return 0;
	if (run->offcpu && (err = offcpu(run, ev, &d, NULL)) < 0)
		return err;
	if (d.type == PERF_RECORD_LOST_SAMPLES)
		run->lost_samples += d.lost_samples.lost;
	if (d.type == PERF_RECORD_CGROUP && (err = report_sort2_cgroup(run->o, &d.cgroup)) < 0)
		return err;
	if (d.type == PERF_RECORD_NAMESPACES && (err = report_sort3_namespaces(run->o, &d.namespaces)) < 0)
		return err;
	if (d.type == PERF_RECORD_READ && run->o->show_threads &&
	    (err = report_threads_add(&run->thread_counts, ev >= 0 ? (size_t)ev : 0, &d.read)) < 0)
		return err;
	return pk_resolver_process(run->res, &d);
}

/* Read every record.  Returns 0, 1 after a warning about damage in the
 * data section (the rows before it stand), or a negative errno. */
static int read_records(struct report_run *run)
{
	const struct perf_event_header *rec;
	int rc, err = 0;

	run->socket_out = report_flags4_socket_out(run->o);
	run->blank = (struct pk_hist_sample){ .size = sizeof(run->blank) };
	run->blank_rs = (struct pk_resolved_sample){ .size = sizeof(run->blank_rs) };
	cli_progress_init(&run->progress);
	report_time_span(run->r, &run->first_time, &run->last_time);
	while (!err && (rc = pk_data_reader_next(run->r, &rec)) > 0) {
		err = report_record(run, rec);
		/* How far through the recording's time the samples are. */
		cli_progress_update(&run->progress, run->time > run->first_time ? run->time - run->first_time : 0,
				    run->last_time - run->first_time);
	}
	cli_progress_done(&run->progress);
	for (size_t i = 0; i < run->nr_ev; i++)	/* an EVENT_UPDATE on the way renames, as in perf */
		if (pk_data_reader_name(run->r, i))
			run->ev[i].name = report_offcpu_name(run->offcpu, i, pk_data_reader_name(run->r, i));
	if (err == -EINVAL) {	/* what came before a bad sample still counts */
		cli_error("report", NULL);
		return 1;
	}
	if (err < 0)
		return err;
	if (rc < 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit report: warning: %s: %s; the report covers the records "
			    "before it\n", e->what, e->why);
		return 1;
	}
	return 0;
}

/* ---- the command -------------------------------------------------------------- */

/* perf's check for --cpu: every event must record the CPU. */
static int check_cpus(const struct report_run *run)
{
	for (size_t i = 0; run->o->cpus && i < pk_data_reader_nr_events(run->r); i++)
		if (!(pk_data_reader_attr(run->r, i)->sample_type & PERF_SAMPLE_CPU)) {
			cli_message(stderr, "perfkit report: %s does not contain CPU events: remove --cpu "
				    "to proceed\n", run->o->input);
			return CLI_EXIT_EVENT;
		}
	return 0;
}

static int setup(struct report_run *run)
{
	size_t nr = pk_data_reader_nr_events(run->r);
	int err;

	char dir[4096];

	if ((err = pk_resolver_new(run->r, &run->res)) < 0)
		return err;
	run->srclines = report_srcline_wanted(run->o);
	if (!report_needs_symbols(run->o))
		pk_resolver_set_symbols(run->res, false);	/* nor stack health: it judges by symbols */
	else if ((err = report_health_new(run->o, &run->health)) < 0)
		return err;
	/* (in caller order the resolver gives whole chains: add_chain cuts) */
	pk_resolver_set_max_stack(run->res, run->o->max_stack);
	pk_resolver_set_inline(run->res, !run->o->no_inline);
	pk_resolver_set_caller_order(run->res, run->o->cg.caller);
	/* perf reads the binaries that ran from the build-id cache first. */
	if ((cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(run->res, dir)) < 0) ||
	    (err = cli_symfs_apply(run->res)) < 0 ||
	    (err = pk_maps_set_demangle(pk_resolver_maps(run->res),
					run->o->f4.no_demangle ? PK_DEMANGLE_NONE :
					run->o->verbose ? PK_DEMANGLE_PARAMS : PK_DEMANGLE_NAME)) < 0 ||
	    (err = report_flags2_resolver(run->o, run->res)) < 0 ||
	    (err = report_flags3_resolver(run->o, run->res)) < 0)
		return err;
	if (!(run->ev = calloc(nr ? nr : 1, sizeof(*run->ev))))
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const char *name = pk_data_reader_name(run->r, i);

		run->ev[i].name = report_offcpu_name(run->offcpu, i, name ? name : "unknown");
		if ((err = pk_hist_new(run->o->keys, run->o->nr_keys, &run->ev[i].hist)) < 0 ||
		    (err = pk_hist_set_order(run->ev[i].hist, run->o->sort_by, run->o->nr_sort_by)) < 0)
			return err;
		/* perf's tie rule holds while call graphs are shown. */
		if (run->o->callchain)
			pk_hist_set_chain_order(run->ev[i].hist, run->o->cg.caller ? PK_HIST_CHAIN_CALLER_FIRST
										 : PK_HIST_CHAIN_CALLEE_FIRST);
		run->nr_ev++;
	}
	if ((err = report_reads_init(&run->reads, run->r)) < 0 ||
	    (err = report_threads_init(&run->thread_counts, nr)) < 0)
		return err;
	if ((report_branch_wanted(run->o, run->r) && (err = report_branch_setup(run->o, run->r, &run->branch)) != 0) ||
	    (err = report_brhist_new(run->o, &run->brhist)) < 0)
		return err;
	return report_group_setup(run->o, run->r, run->ev, run->nr_ev);
}

static void teardown(struct report_run *run)
{
	for (size_t i = 0; i < run->nr_ev; i++) {
		pk_hist_free(run->ev[i].hist);
		free(run->ev[i].group_desc);
	}
	free(run->ev);
	report_branch_free(run->branch);
	report_brhist_free(run->brhist);
	report_reads_free(&run->reads);
	report_threads_free(&run->thread_counts);
	cli_names_free(&run->names);
	free(run->chains.samples);
	free(run->chains.frames);
	report_srclines_free(run->src);
	pk_resolver_free(run->res);
	report_offcpu_free(run->offcpu);
	pk_stack_health_free(run->health);
	pk_data_reader_free(run->r);
}

static int report(struct report_opts *o, bool defaulted)
{
	struct report_run run = { .o = o };
	int rc;

	if ((rc = cli_check_input("report", o->input, o->force, defaulted)))
		return rc;
	if (pk_data_reader_open(o->input, &run.r) < 0)
		return cli_error("report", NULL);
	report_warn_unfinished(stderr, run.r, o->input);
	if (o->stats || o->header || o->header_only) {
		if ((rc = report_info(o, run.r)) != -1)
			return !rc && o->stats ? report_health_stats(o) : rc;	/* --stats, --header-only: done, the reader freed */
	}
	if (o->f2.tasks)
		return report_tasks(o, run.r);
	if ((rc = check_cpus(&run)) || (rc = report_flags2_setup(o, run.r)) ||
	    (rc = report_cg_setup(o, run.r)) || (rc = report_brhist_opts(o, run.r)) ||
	    (rc = report_sort2_setup(o, run.r)) || (rc = report_branch_keys(o, run.r)) ||
	    (rc = report_hier_setup(o)) || (rc = report_parent_setup(o, run.r)) || (rc = report_flags4_setup(o, run.r))) {
		pk_data_reader_free(run.r);
		return rc;
	}
	if (o->format >= 0 && o->format != REPORT_FORMAT_JSON)
		return report_export(o, run.r);
	if (o->dump)
		return report_dump_run("report", o->input, run.r);
	if ((rc = report_offcpu_new(o, run.r, &run.offcpu)) > 0) {
		pk_data_reader_free(run.r);
		return rc;
	}
	if (!rc && (rc = setup(&run)) >= 0)
		rc = read_records(&run);
	if (rc >= 0)
		report_warn_skipped(stderr, run.r);
	if (rc >= 0)
		rc = report_group_link(o, run.ev, run.nr_ev);
	if (rc >= 0) {
		for (size_t i = 0; i < run.nr_ev; i++)
			pk_hist_sort(run.ev[i].hist);
		if (o->format == REPORT_FORMAT_JSON) {
			rc = report_json(o, run.ev, run.nr_ev, run.lost_samples, run.health);
		} else {
			cli_pager_start();	/* on a terminal, as perf does */
			o->color = cli_color_use(o->color_mode);
			if (run.branch ? !report_branch_print(stdout, o, run.branch, run.ev, run.nr_ev, run.lost_samples) :
			    !report_print(stdout, o, run.ev, run.nr_ev, run.lost_samples,
					  pk_resolver_threads(run.res)))
				cli_message(stderr, "perfkit report: %s has no samples (after the filters)\n", o->input);
			else if (o->show_threads && o->f4.raw)
				report_flags4_threads_raw(stdout, &run.thread_counts, run.ev);
			else if (o->show_threads && report_threads_print(stdout, &run.thread_counts, run.ev) < 0)
				rc = cli_usage("report", "out of memory");
			rc = rc > 0 ? rc : 0;
		}
		report_health_print(stderr, run.health, o);
	} else {
		rc = cli_error("report", NULL);
	}
	teardown(&run);
	cli_pager_finish();
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {
		.cg = { .mode = PK_CALLCHAIN_GRAPH_ABS, .min_percent = 0.5 },
		.children_opt = -1,
		.max_stack = 127,
		.format = -1,	/* perf's PERF_MAX_STACK_DEPTH */
		.group_opt = -1,
	};
	bool defaulted;
	int rc;

	/* perf's -g takes the next word, and its defaults when last or when
	 * the next word is an option (perf's PARSE_OPT_OPTARG). */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if ((!strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph")) &&
		    (i == argc - 1 || argv[i + 1][0] == '-')) {
			report_cg_parse(&o, "graph,0.5,caller,function,percent");	/* perf's default */
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof(*argv));
			argc--, i--;
		}
	rc = report_parse_sort(&o, "comm,dso,sym");
	if (!rc)
		rc = cli_opts_parse(&cmd_report_opts, argc, argv, report_option, &o);
	/* perf's -p adds the parent key when --sort lacks it. */
	if (!rc && o.parent_arg && !has_key(&o, PK_HIST_KEY_PARENT)) {
		if (o.nr_keys == PK_HIST_MAX_KEYS)
			rc = cli_usage("report", "more than %d --sort keys", PK_HIST_MAX_KEYS);
		else
			o.keys[o.nr_keys++] = PK_HIST_KEY_PARENT;
	}
	if (!rc && optind < argc)
		rc = cli_usage("report", "unexpected argument '%s'", argv[optind]);
	if (!rc) {
		defaulted = !o.input;
		if (defaulted)
			o.input = cli_default_input();
		rc = report(&o, defaulted);
	}
	cli_words_free(o.comms), cli_words_free(o.dsos), cli_words_free(o.syms);
	free(o.pids), free(o.tids), free(o.cpus);
	report_parent_free(&o);
	report_verbose_free(&o);
	report_flags2_free(&o);
	report_sort2_free(&o);
	return rc < 0 ? 0 : rc;
}
