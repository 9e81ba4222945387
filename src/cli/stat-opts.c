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

void cmd_stat_help(FILE *f)
{
	fprintf(f,
		"usage: perfkit stat [-e EVENTS] [-x SEP] [-o FILE [--append]] [--] COMMAND [ARGS...]\n"
		"       perfkit stat [-e EVENTS] (-p PID | -t TID | -a | -C CPUS) [[--] COMMAND...]\n"
		"\n"
		"Run COMMAND and count events while it runs, like perf stat.  With a target\n"
		"and no command, count until Ctrl-C (or until the processes exit).\n"
		"\n"
		"  -e, --event EVENTS   events to count (perf's syntax; repeatable); default:\n"
		"                       task-clock, context-switches, cpu-migrations, page-faults,\n"
		"                       cycles, instructions, branches, branch-misses (those that\n"
		"                       this machine can count)\n"
		"  -p, --pid PIDS       count these processes (all their threads), comma-separated\n"
		"  -t, --tid TIDS       count these threads only\n"
		"  -a, --all-cpus       count every task on every online CPU\n"
		"  -C, --cpu CPUS       count every task on these CPUs (e.g. 0-3,8)\n"
		"  -G, --cgroup NAME    count only tasks in cgroup NAME (with -a or -C)\n"
		"  -r, --repeat N       run the command N times; print means and their noise\n"
		"  -n, --null-run       open no counters: time the command only\n"
		"  -I, --interval-print MS  print the counts of every MS milliseconds (10 or more)\n"
		"      --interval-count N   stop after N intervals\n"
		"  -D, --delay MS       start counting MS milliseconds after the command starts;\n"
		"                       -1: start disabled, for --control to enable\n"
		"      --control fifo:CTL[,ACK] | fd:N[,M]\n"
		"                       take enable, disable, stop and ping commands, one per\n"
		"                       line, from CTL; answer each with ack on ACK (like perf)\n"
		"  -v, --verbose        show each event's perf_event_attr as opened\n"
		"      --no-inherit     do not count the command's children\n"
		"  -A, --no-aggr        one line per CPU (with -a or -C)\n"
		"      --per-thread     one line per thread\n"
		"      --per-core, --per-die, --per-socket, --per-node\n"
		"                       one line per core, die, socket or NUMA node (with -a or -C)\n"
		"  -x, --field-separator SEP  print perf's CSV with SEP between fields\n"
		"  -j, --json-output    print one JSON object per event, like perf -j\n"
		"  -q, --quiet          print no counts (the exit status still tells)\n"
		"  -o, --output FILE    write the counts to FILE instead of stderr\n"
		"      --append         append to FILE instead of replacing it\n"
		"  -h, --help           this help\n"
		"\n"
		"The exit status is COMMAND's.\n");
}

static int add_events(struct stat_opts *o, const char *spec)
{
	size_t n = o->events ? strlen(o->events) + 1 : 0;
	char *e = realloc(o->events, n + strlen(spec) + 1);

	if (!e)
		return -1;
	if (n)
		e[n - 1] = ',';
	strcpy(e + n, spec);
	o->events = e;
	return 0;
}

/* A whole number in [min, max] for option `opt`; reports a bad one. */
static int parse_uint(const char *opt, const char *arg, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;

	if (cli_num_u64("stat", opt, arg, min, max, &v) < 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int stat_parse_opts(int argc, char **argv, struct stat_opts *o)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, 0x100 },
		{ "repeat", required_argument, NULL, 'r' },
		{ "null-run", no_argument, NULL, 'n' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "interval-count", required_argument, NULL, 0x101 },
		{ "delay", required_argument, NULL, 'D' },
		{ "control", required_argument, NULL, 0x103 },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-inherit", no_argument, NULL, 0x102 },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-thread", no_argument, NULL, 'T' },
		{ "per-core", no_argument, NULL, 0x110 + 'c' },
		{ "per-die", no_argument, NULL, 0x110 + 'd' },
		{ "per-socket", no_argument, NULL, 0x110 + 's' },
		{ "per-node", no_argument, NULL, 0x110 + 'n' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the command, so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+e:p:t:aC:G:Ar:nI:D:x:jqvo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!*optarg)
				return cli_usage("stat", "-e needs an event list");
			if (add_events(o, optarg))
				return cli_usage("stat", "out of memory");
			break;
		case 'p':
			o->pids = optarg;
			break;
		case 't':
			o->tids = optarg;
			break;
		case 'a':
			o->all_cpus = true;
			break;
		case 'C':
			o->cpu_list = optarg;
			break;
		case 'G':
			o->cgroup = optarg;
			break;
		case 'x':
			if (!*optarg)
				return cli_usage("stat", "-x needs a separator, such as ',' or ';'");
			o->sep = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 0x100:
			o->append = true;
			break;
		case 'r':
			if (parse_uint("-r", optarg, 1, 100000, &o->repeat))
				return CLI_EXIT_USAGE;
			break;
		case 'n':
			o->null_run = true;
			break;
		case 'I':
			if (parse_uint("-I", optarg, 10, 100000000, &o->interval_ms))
				return CLI_EXIT_USAGE;
			break;
		case 0x101:
			if (parse_uint("--interval-count", optarg, 1, 100000000, &o->interval_count))
				return CLI_EXIT_USAGE;
			break;
		case 'D': {
			int64_t ms;

			/* -1: start disabled, for --control (perf's meaning). */
			if (cli_num_i64("stat", "-D", optarg, -1, 100000000, &ms) < 0)
				return CLI_EXIT_USAGE;
			o->start_disabled = ms == -1;
			o->delay_ms = ms > 0 ? (unsigned)ms : 0;
			break;
		}
		case 0x103:
			o->control = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 0x102:
			o->no_inherit = true;
			break;
		case 'A':
			o->no_aggr = true;
			break;
		case 'T':
			o->per_thread = true;
			break;
		case 0x110 + 'c':
		case 0x110 + 'd':
		case 0x110 + 's':
		case 0x110 + 'n':
			if (o->per && o->per != c - 0x110)
				return cli_usage("stat", "give one of --per-core, --per-die, --per-socket, --per-node");
			o->per = (char)(c - 0x110);
			break;
		case 'j':
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			cmd_stat_help(stdout);
			return -1;
		default:
			return cli_unknown_option("stat", argc, argv, c);
		}
	}
	if ((o->pids != NULL) + (o->tids != NULL) + (o->all_cpus || o->cpu_list) > 1)
		return cli_usage("stat", "-p, -t and -a/-C are different targets: give one of them");
	if (optind >= argc && !o->pids && !o->tids && !o->all_cpus && !o->cpu_list)
		return cli_usage("stat", "no command given: perfkit stat [-e EVENTS] -- COMMAND, "
				 "or a target: -p PID, -t TID, -a, -C CPUS");
	if (o->append && !o->output)
		return cli_usage("stat", "--append needs -o FILE");
	if (o->sep && o->json)
		return cli_usage("stat", "-x and -j are two output formats: give one");
	if (o->no_aggr + o->per_thread + !!o->per > 1)
		return cli_usage("stat", "-A, --per-thread and --per-core/die/socket/node are different "
				 "ways to split the counts: give one");
	if (o->cgroup && !o->all_cpus && !o->cpu_list)
		return cli_usage("stat", "-G counts a cgroup on every CPU: use it with -a or -C");
	if ((o->no_aggr || o->per) && !o->all_cpus && !o->cpu_list)
		return cli_usage("stat", "%s splits system-wide counts: use it with -a or -C",
				 o->no_aggr ? "-A" : "--per-core/die/socket/node");
	/* Each run is a new process with new threads: per-thread means make no sense. */
	if (o->per_thread && o->repeat > 1)
		return cli_usage("stat", "-r with --per-thread: every run has different threads; "
				 "count one run, or drop --per-thread");
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
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}
