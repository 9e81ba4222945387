/* SPDX-License-Identifier: MIT */
/*
 * stat-opts.c - perfkit stat's command line: perf stat's flags with perf's
 * meaning, parsed into struct stat_opts, with one clear message for each
 * bad or conflicting combination, and the help text.
 */
#include "stat.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The ids of the long-only options (the others' are their letters);
 * --per-core/die/socket/node are OPT_PER + 'c', 'd', 's', 'n'. */
/* perf's default set, and what -d, -dd and -ddd append to any list (perf
 * 6.1's detailed_attrs, very_detailed_attrs, very_very_detailed_attrs). */
#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
		       "cycles,instructions,branches,branch-misses"
#define NR_DEFAULT_EVENTS 8
static const char *const detailed_sets[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

enum { OPT_APPEND = 0x100, OPT_INTERVAL_COUNT, OPT_NO_INHERIT, OPT_CONTROL, OPT_ALL_USER,
       OPT_ALL_KERNEL, OPT_NO_BIG_NUM, OPT_SUMMARY, OPT_NO_CSV_SUMMARY, OPT_METRIC_ONLY, OPT_PRE,
       OPT_POST, OPT_TOPDOWN, OPT_TD_LEVEL, OPT_METRIC_NO_GROUP, OPT_METRIC_NO_MERGE, OPT_FOR_EACH_CGROUP,
       OPT_PER_THREAD,
       OPT_PER = 0x120 };	/* up to 0x17f; stat-flags2.c's from 0x200 (stat.h) */

static const struct cli_opt stat_options[] = {
	{ "event", 'e', CLI_ARG_REQUIRED, 'e', "EVENTS",
	  "events to count (perf's syntax; repeatable); default: task-clock, context-switches, "
	  "cpu-migrations, page-faults, cycles, instructions, branches, branch-misses (those that "
	  "this machine can count)" },
	{ "detailed", 'd', CLI_ARG_NONE, 'd', NULL,
	  "add perf's detailed events: L1 data and last-level cache loads and misses; -dd adds "
	  "L1 instruction cache and TLBs, -ddd L1 data prefetches" },
	{ "pid", 'p', CLI_ARG_REQUIRED, 'p', "PIDS",
	  "count these processes (all their threads), comma-separated" },
	{ "tid", 't', CLI_ARG_REQUIRED, 't', "TIDS", "count these threads only" },
	{ "all-cpus", 'a', CLI_ARG_NONE, 'a', NULL, "count every task on every online CPU" },
	{ "cpu", 'C', CLI_ARG_REQUIRED, 'C', "CPUS", "count every task on these CPUs (e.g. 0-3,8)" },
	{ "cgroup", 'G', CLI_ARG_REQUIRED, 'G', "NAME[,NAME...]",
	  "count only tasks in cgroup NAME (with -a or -C); a list pairs the Nth cgroup with the "
	  "Nth event, like perf (an empty name: that event counts every task)" },
	{ "for-each-cgroup", 0, CLI_ARG_REQUIRED, OPT_FOR_EACH_CGROUP, "NAME[,NAME...]",
	  "count every event once in each cgroup of the list (with -a or -C)" },
	{ "repeat", 'r', CLI_ARG_REQUIRED, 'r', "N",
	  "run the command N times; print means and their noise" },
	{ "null", 'n', CLI_ARG_NONE, 'n', NULL,
	  "no default counters: time the command (-e's events still count, as in perf)" },
	{ "null-run", 0, CLI_ARG_NONE, 'n', NULL, NULL, .hidden = true },
	{ "sync", 'S', CLI_ARG_NONE, 'S', NULL, "call sync() before each run, like perf" },
	{ "table", 0, CLI_ARG_NONE, STAT_OPT_TABLE, NULL,
	  "with -r: a table of each run's wall time before the elapsed line" },
	{ "timeout", 0, CLI_ARG_REQUIRED, STAT_OPT_TIMEOUT, "MS",
	  "stop the command (SIGTERM) and print the counts after MS milliseconds (10 or more)" },
	{ "interval-print", 'I', CLI_ARG_REQUIRED, 'I', "MS",
	  "print the counts of every MS milliseconds (10 or more)" },
	{ "interval-count", 0, CLI_ARG_REQUIRED, OPT_INTERVAL_COUNT, "N", "stop after N intervals" },
	{ "interval-clear", 0, CLI_ARG_NONE, STAT_OPT_INTERVAL_CLEAR, NULL,
	  "clear the screen before each interval (the output must be a terminal)" },
	{ "summary", 0, CLI_ARG_NONE, OPT_SUMMARY, NULL,
	  "with -I: print the totals of the whole run after the intervals" },
	{ "no-csv-summary", 0, CLI_ARG_NONE, OPT_NO_CSV_SUMMARY, NULL,
	  "with --summary and -x or -j: leave out the 'summary' column of the totals" },
	{ "pre", 0, CLI_ARG_REQUIRED, OPT_PRE, "CMD",
	  "run CMD with the shell before each run (-r); a failing CMD stops stat" },
	{ "post", 0, CLI_ARG_REQUIRED, OPT_POST, "CMD",
	  "run CMD with the shell after each run (-r); a failing CMD stops stat" },
	{ "delay", 'D', CLI_ARG_REQUIRED, 'D', "MS",
	  "start counting MS milliseconds after the command starts; -1: start disabled, for "
	  "--control to enable" },
	{ "control", 0, CLI_ARG_REQUIRED, OPT_CONTROL, "fifo:CTL[,ACK] | fd:N[,M]",
	  "take enable, disable, stop and ping commands, one per line, from CTL; answer each with "
	  "ack on ACK (like perf)" },
	{ "group", 'g', CLI_ARG_NONE, 'g', NULL, "count every event in one group" },
	{ "filter", 0, CLI_ARG_REQUIRED, STAT_OPT_FILTER, "FILTER",
	  "a tracepoint filter (ftrace syntax: 'prev_pid == 1') for the events of the -e before it" },
	{ "scale", 0, CLI_ARG_NONE, STAT_OPT_SCALE, NULL, NULL, .with_next = true },
	{ "no-scale", 0, CLI_ARG_NONE, STAT_OPT_NO_SCALE, NULL,
	  "scale counts for multiplexing (the default), or show them as counted" },
	{ "no-merge", 0, CLI_ARG_NONE, STAT_OPT_NO_MERGE, NULL,
	  "do not merge events of one name from several PMUs (perfkit never does)" },
	{ "verbose", 'v', CLI_ARG_NONE, 'v', NULL, "show each event's perf_event_attr as opened" },
	{ "no-inherit", 0, CLI_ARG_NONE, OPT_NO_INHERIT, NULL, "do not count the command's children" },
	{ "all-user", 0, CLI_ARG_NONE, OPT_ALL_USER, NULL,
	  "count every event in user space only (exclude_kernel), like perf" },
	{ "all-kernel", 0, CLI_ARG_NONE, OPT_ALL_KERNEL, NULL,
	  "count every event in kernel space only (exclude_user), like perf" },
	{ "no-aggr", 'A', CLI_ARG_NONE, 'A', NULL, "one line per CPU (with -a or -C)" },
	{ "per-thread", 0, CLI_ARG_NONE, OPT_PER_THREAD, NULL, "one line per thread" },
	{ "per-core", 0, CLI_ARG_NONE, OPT_PER + 'c', NULL, NULL, .with_next = true },
	{ "per-die", 0, CLI_ARG_NONE, OPT_PER + 'd', NULL, NULL, .with_next = true },
	{ "per-socket", 0, CLI_ARG_NONE, OPT_PER + 's', NULL, NULL, .with_next = true },
	{ "per-node", 0, CLI_ARG_NONE, OPT_PER + 'n', NULL,
	  "one line per core, die, socket or NUMA node (with -a or -C)" },
	{ "big-num", 'B', CLI_ARG_NONE, 'B', NULL,
	  "print large counts with the locale's thousands' separators (the default for the "
	  "table; not with -x)" },
	{ "no-big-num", 0, CLI_ARG_NONE, OPT_NO_BIG_NUM, NULL, "print counts without separators" },
	{ "metrics", 'M', CLI_ARG_REQUIRED, 'M', "METRIC[,METRIC|GROUP]",
	  "count the events of the named metrics or metric groups and show each metric's value "
	  "(perfkit list metric lists those known for this CPU)" },
	{ "metric-no-group", 0, CLI_ARG_NONE, OPT_METRIC_NO_GROUP, NULL,
	  "count a metric's events ungrouped rather than as one group" },
	{ "metric-no-merge", 0, CLI_ARG_NONE, OPT_METRIC_NO_MERGE, NULL,
	  "do not share events between metric groups (perfkit never does)" },
	{ "metric-only", 0, CLI_ARG_NONE, OPT_METRIC_ONLY, NULL,
	  "print only the derived figures (insn per cycle, miss ratios, ...), one column each" },
	{ "transaction", 'T', CLI_ARG_NONE, 'T', NULL,
	  "count perf's hardware transaction (TSX) events after the others" },
	{ "smi-cost", 0, CLI_ARG_NONE, STAT_OPT_SMI_COST, NULL,
	  "count SMI cost with msr/aperf/, msr/smi/ and cycles (freeze_on_smi set for the "
	  "run), as --metric-only" },
	{ "iostat", 0, CLI_ARG_OPTIONAL, STAT_OPT_IOSTAT, "=LIST",
	  "perf's I/O metrics from Intel's uncore_iio PMUs (refused without them)" },
	{ "cputype", 0, CLI_ARG_REQUIRED, STAT_OPT_CPUTYPE, "TYPE",
	  "on a hybrid machine, the events of the cpu_TYPE PMU only (core or atom); before -e" },
	{ "hybrid-merge", 0, CLI_ARG_NONE, STAT_OPT_HYBRID_MERGE, NULL,
	  "merge the hybrid PMUs' events of one name (only a hybrid machine has them)" },
	{ "percore-show-thread", 0, CLI_ARG_NONE, STAT_OPT_PERCORE_SHOW_THREAD, NULL,
	  "with percore events: each CPU's line shows its core's sum (perfkit has no percore "
	  "term yet)" },
	{ "topdown", 0, CLI_ARG_NONE, OPT_TOPDOWN, NULL,
	  "Intel's top-down figures from the core PMU's topdown events (-a before Ice Lake), "
	  "as --metric-only" },
	{ "td-level", 0, CLI_ARG_REQUIRED, OPT_TD_LEVEL, "N", "the top-down level for --topdown" },
	{ "field-separator", 'x', CLI_ARG_REQUIRED, 'x', "SEP",
	  "print perf's CSV with SEP between fields" },
	{ "json-output", 'j', CLI_ARG_NONE, 'j', NULL, "print one JSON object per event, like perf -j" },
	{ "quiet", 'q', CLI_ARG_NONE, 'q', NULL, "print no counts (the exit status still tells)" },
	{ "output", 'o', CLI_ARG_REQUIRED, 'o', "FILE", "write the counts to FILE instead of stderr" },
	{ "append", 0, CLI_ARG_NONE, OPT_APPEND, NULL, "append to FILE instead of replacing it" },
	{ "log-fd", 0, CLI_ARG_REQUIRED, STAT_OPT_LOG_FD, "N",
	  "write the counts to file descriptor N instead of stderr (--append: appending)" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_stat_opts = {
	.cmd = "stat",
	.usage = "usage: perfkit stat [-e EVENTS] [-x SEP] [-o FILE [--append]]\n"
		 "                    [--] COMMAND [ARGS...]\n"
		 "       perfkit stat [-e EVENTS] (-p PID | -t TID | -a | -C CPUS)\n"
		 "                    [[--] COMMAND...]\n"
		 "\n"
		 "Run COMMAND and count events while it runs, like perf stat.  With a target\n"
		 "and no command, count until Ctrl-C (or until the processes exit).\n",
	.opts = stat_options,
	.epilogue = "The exit status is COMMAND's.",
	.stop_at_operand = true,
};

/* A whole number in [min, max] for option `opt`; reports a bad one. */
static int parse_uint(const char *opt, const char *arg, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;

	if (cli_num_u64("stat", opt, arg, min, max, &v) < 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* The options with a number: 0, an exit status for a bad value, or 1
 * when `id` is not one of them. */
static int stat_number(struct stat_opts *o, int id, const char *arg)
{
	int64_t ms;

	switch (id) {
	case 'r':
		return parse_uint("-r", arg, 1, 100000, &o->repeat) ? CLI_EXIT_USAGE : 0;
	case 'I':
		return parse_uint("-I", arg, 10, 100000000, &o->interval_ms) ? CLI_EXIT_USAGE : 0;
	case OPT_INTERVAL_COUNT:
		return parse_uint("--interval-count", arg, 1, 100000000, &o->interval_count) ?
		       CLI_EXIT_USAGE : 0;
	case OPT_TD_LEVEL:
		return parse_uint("--td-level", arg, 0, 2, &o->td_level) ? CLI_EXIT_USAGE : 0;
	case 'D':
		/* -1: start disabled, for --control (perf's meaning). */
		if (cli_num_i64("stat", "-D", arg, -1, 100000000, &ms) < 0)
			return CLI_EXIT_USAGE;
		o->start_disabled = ms == -1;
		o->delay_ms = ms > 0 ? (unsigned)ms : 0;
		return 0;
	}
	return 1;
}

/* One option into *o (cli_opt_fn). */
static int stat_option(void *ctx, int id, const char *arg)
{
	struct stat_opts *o = ctx;
	int err = stat_flags2_option(o, id, arg);

	if (err != 1)
		return err;
	err = stat_number(o, id, arg);
	if (err == 1)
		err = cli_target_option(&o->target, id, arg);
	if (err != 1)
		return err;
	switch (id) {
	case 'e':
		return cli_events_add("stat", &o->events, arg);
	case 'x':
		if (!*arg)
			return cli_usage("stat", "-x needs a separator, such as ',' or ';'");
		o->sep = arg;
		break;
	case OPT_PER + 'c':
	case OPT_PER + 'd':
	case OPT_PER + 's':
	case OPT_PER + 'n':
		if (o->per && o->per != id - OPT_PER)
			return cli_usage("stat", "give one of --per-core, --per-die, --per-socket, --per-node");
		o->per = (char)(id - OPT_PER);
		break;
	case 'd':
		if (o->detailed < 3)
			o->detailed++;
		break;
	case 'G': o->cgroup = arg; break;
	case OPT_FOR_EACH_CGROUP: o->for_each_cgroup = arg; break;
	case 'o': o->output = arg; break;
	case OPT_APPEND: o->append = true; break;
	case 'n': o->null_run = true; break;
	case OPT_CONTROL: o->control = arg; break;
	case 'v': o->verbose = true; break;
	case 'B': o->big_num_opt = 1; break;
	case OPT_NO_BIG_NUM: o->big_num_opt = 0; break;
	case OPT_SUMMARY: o->summary = true; break;
	case OPT_NO_CSV_SUMMARY: o->no_csv_summary = true; break;
	case OPT_METRIC_ONLY: o->metric_only = true; break;
	case 'M': return cli_events_add("stat", &o->metric_arg, arg);
	case OPT_METRIC_NO_GROUP: o->metric_no_group = true; break;
	case OPT_METRIC_NO_MERGE: o->metric_no_merge = true; break;
	case OPT_PRE: o->pre_cmd = arg; break;
	case OPT_POST: o->post_cmd = arg; break;
	case OPT_TOPDOWN: o->topdown = true; break;
	case OPT_NO_INHERIT: o->no_inherit = true; break;
	case OPT_ALL_USER: o->all_user = true; break;
	case OPT_ALL_KERNEL: o->all_kernel = true; break;
	case 'A': o->no_aggr = true; break;
	case OPT_PER_THREAD: o->per_thread = true; break;
	case 'j': o->json = true; break;
	case 'q': o->quiet = true; break;
	}
	return 0;
}

/* What the options say together, after all of them are read. */
static int check_opts(const struct stat_opts *o, int argc)
{
	int err = cli_target_check("stat", &o->target, optind < argc);

	if (err || (err = stat_flags2_check(o)))
		return err;
	if (o->append && !o->output && !o->log_fd)
		return cli_usage("stat", "--append needs -o FILE or --log-fd N");
	if (o->all_user && o->all_kernel)
		return cli_usage("stat", "--all-user and --all-kernel exclude each other: give one");
	if (o->sep && o->json)
		return cli_usage("stat", "-x and -j are two output formats: give one");
	/* perf's words for these refusals. */
	if (o->sep && o->big_num_opt == 1)
		return cli_usage("stat", "-B option not supported with -x");
	if (o->metric_only && o->per_thread)
		return cli_usage("stat", "--metric-only is not supported with --per-thread");
	if (o->metric_only && o->repeat > 1)
		return cli_usage("stat", "--metric-only is not supported with -r");
	if (o->no_aggr + o->per_thread + !!o->per > 1)
		return cli_usage("stat", "-A, --per-thread and --per-core/die/socket/node are different "
				 "ways to split the counts: give one");
	/* perf's words for the first. */
	if (o->cgroup && o->for_each_cgroup)
		return cli_usage("stat", "--cgroup and --for-each-cgroup cannot be used together");
	if ((o->cgroup || o->for_each_cgroup) && !o->target.all_cpus && !o->target.cpu_list)
		return cli_usage("stat", "%s counts a cgroup on every CPU: use it with -a or -C",
				 o->cgroup ? "-G" : "--for-each-cgroup");
	if ((o->no_aggr || o->per) && !o->target.all_cpus && !o->target.cpu_list)
		return cli_usage("stat", "%s splits system-wide counts: use it with -a or -C",
				 o->no_aggr ? "-A" : "--per-core/die/socket/node");
	/* Each run is a new process with new threads: per-thread means make no sense. */
	if (o->per_thread && o->repeat > 1)
		return cli_usage("stat", "-r with --per-thread: every run has different threads; "
				 "count one run, or drop --per-thread");
	if ((o->summary || o->no_csv_summary) && !o->interval_ms)
		return cli_usage("stat", "%s is about -I's output: give -I MS",
				 o->summary ? "--summary" : "--no-csv-summary");
	if (o->td_level && !o->topdown)
		return cli_usage("stat", "--td-level sets the level of --topdown: give --topdown");
	if (o->interval_count && !o->interval_ms)
		return cli_usage("stat", "--interval-count needs -I MS");
	if (o->start_disabled && !o->control)
		return cli_usage("stat", "-D -1 starts disabled: give --control to enable the events");
	if (o->delay_ms && optind >= argc)
		return cli_usage("stat", "-D delays counting after a command starts: give one after --");
	if (o->repeat > 1 && optind >= argc)
		return cli_usage("stat", "-r repeats a command: give one after --");
	if (o->null_run && optind >= argc)
		return cli_usage("stat", "-n times a command: give one after --");
	return 0;
}

void stat_apply_space(const struct stat_opts *o, struct pk_events *ev)
{
	for (size_t i = 0; (o->all_user || o->all_kernel) && i < pk_events_nr(ev); i++) {
		struct perf_event_attr *a = pk_events_attr_mut(ev, i);

		a->exclude_kernel = o->all_user;
		a->exclude_user = o->all_kernel;
	}
}

/* The list to count: -e's (or the default set), then -d's sets. */
static int make_spec(struct stat_opts *o)
{
	int err;

	if (stat_metric_expand(o) < 0)
		return cli_usage("stat", "out of memory");
	o->nr_default = o->events ? 0 : NR_DEFAULT_EVENTS;
	o->spec = strdup(o->events ? o->events : DEFAULT_EVENTS);
	for (unsigned k = 0; o->spec && k < o->detailed; k++) {
		char *longer;

		if (asprintf(&longer, "%s,%s", o->spec, detailed_sets[k]) < 0)
			longer = NULL;
		free(o->spec);
		o->spec = longer;
	}
	if (!o->spec)
		return cli_usage("stat", "out of memory");
	err = stat_flags2_spec(o);
	return err ? err : stat_cgroup_spec(o);
}

int stat_parse_opts(int argc, char **argv, struct stat_opts *o)
{
	int err;

	o->big_num_opt = -1;
	err = cli_opts_parse(&cmd_stat_opts, argc, argv, stat_option, o);
	if (err || (err = check_opts(o, argc)) || (err = make_spec(o)))
		return err;
	/* perf: separators in the table unless --no-big-num; never in CSV or JSON. */
	o->big_num = o->big_num_opt != 0 && !o->sep && !o->json;
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}
