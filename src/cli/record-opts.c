/* SPDX-License-Identifier: MIT */
/*
 * record-opts.c - `perfkit record`'s command line: the option table behind
 * --help and the parsing of every value (call-graph modes, ring sizes,
 * clocks, rates) into struct record_opts, with a usage message naming the
 * option for anything malformed.
 */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* The ids of the long-only options (the others' are their letters). */
enum {
	OPT_SAMPLE_CPU = 0x100, OPT_DURATION, OPT_CALL_GRAPH, OPT_USER_REGS,
	OPT_SWITCH_EVENTS, OPT_NAMESPACES, OPT_OVERWRITE, OPT_FILTER, OPT_CONTROL,
	OPT_ALL_USER, OPT_ALL_KERNEL, OPT_PER_THREAD, OPT_DATA_PAGE_SIZE, OPT_CODE_PAGE_SIZE,
	OPT_USER_CALLCHAINS, OPT_KERNEL_CALLCHAINS, OPT_SWITCH_OUTPUT, OPT_SWITCH_OUTPUT_EVENT, OPT_SWITCH_MAX_FILES,
	OPT_TIMESTAMP_FILENAME, OPT_MAX_SIZE, OPT_MMAP_FLUSH, OPT_OFF_CPU, OPT_STRICT_FREQ,
	OPT_RUNNING_TIME, OPT_TAIL_SYNTHESIZE, OPT_SAMPLE_IDENTIFIER, OPT_NO_BPF_EVENT,
	OPT_DRY_RUN, OPT_GROUP, OPT_PHYS_DATA, OPT_EXCLUDE_PERF, OPT_NO_BUFFERING,
	OPT_TIMESTAMP_BOUNDARY, OPT_THREADS,
};

/* --call-graph fp | dwarf[,STACK_BYTES] | lbr, as perf takes it. */
static int parse_call_graph(struct record_opts *o, const char *arg)
{
	o->r.callgraph = PK_CALLGRAPH_NONE;
	if (!strcmp(arg, "fp")) {
		o->r.callgraph = PK_CALLGRAPH_FP;
	} else if (!strcmp(arg, "lbr")) {
		o->r.callgraph = PK_CALLGRAPH_LBR;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		uint64_t n = 8192;

		/* The kernel takes up to 65528 bytes, a multiple of 8. */
		if (arg[5] && cli_num_u64("record", "--call-graph dwarf,SIZE", arg + 6, 8, 65528, &n) < 0)
			return -1;
		if (n % 8) {
			cli_usage("record", "dwarf stack size must be a multiple of 8 up to 65528, not '%s'",
				  arg + 6);
			return -1;
		}
		o->r.callgraph = PK_CALLGRAPH_DWARF;
		o->r.stack_size = (uint32_t)n;
		/* perf 6.1's --call-graph dwarf turns -d on for good (its
		 * record_parse_callchain_opt): ADDR, DATA_SRC, data mmaps. */
		o->r.data_addr = true;
	} else {
		cli_usage("record", "--call-graph takes fp, dwarf[,SIZE] or lbr, not '%s'", arg);
		return -1;
	}
	return 0;
}

/*
 * -m: a number of pages, or a size with B, K, M or G ("512K", "4M"),
 * rounded up to a power of two pages as perf does (and said).
 */
static int parse_pages(const char *arg, unsigned *pages, unsigned long long *asked)
{
	long page = sysconf(_SC_PAGESIZE);
	const char *sizes = "BKMG";
	size_t len = strlen(arg);
	const char *unit = len > 1 && isalpha((unsigned char)arg[len - 1]) ?
			   strchr(sizes, toupper((unsigned char)arg[len - 1])) : NULL;
	char num[32];
	uint64_t v, n;

	if (strchr(arg, ','))
		return cli_usage("record", "-m '%s': the ',AUX_PAGES' part is for AUX-area events "
				 "(Intel PT, CoreSight), which perfkit record does not open; give the "
				 "ring size alone", arg);
	if ((len > 1 && isalpha((unsigned char)arg[len - 1]) && !unit) || len >= sizeof(num))
		return cli_usage("record", "-m needs a number of pages or a size like 512K or 4M, not '%s'", arg);
	/* A ring holds at most 1 GiB: 2^18 pages of 4 KiB. */
	snprintf(num, sizeof(num), "%.*s", (int)(unit ? len - 1 : len), arg);
	if (unit) {
		unsigned shift = (unsigned)(unit - sizes) * 10;

		if (cli_num_u64("record", "-m", num, 1, UINT64_MAX >> shift, &v) < 0)
			return CLI_EXIT_USAGE;
		if (v > (1ULL << 30) >> shift)
			return cli_usage("record", "-m %s is larger than a ring can be (at most 1G)", arg);
		n = ((v << shift) + (uint64_t)page - 1) / (uint64_t)page;
	} else if (cli_num_u64("record", "-m", num, 1, UINT64_MAX, &n) < 0) {
		return CLI_EXIT_USAGE;
	}
	if (n > (1u << 18))
		return cli_usage("record", "-m %s is %llu pages: a ring takes at most %u pages (1G)", arg,
				 (unsigned long long)n, 1u << 18);
	*pages = 1;
	while (*pages < n)
		*pages <<= 1;
	*asked = n;
	return 0;
}

/* -k: perf's clock names (with or without CLOCK_), or a clock number. */
static int parse_clockid(const char *arg, int *out)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
		{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW }, { "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	const char *name = strncasecmp(arg, "CLOCK_", 6) ? arg : arg + 6;
	struct timespec ts;
	uint64_t v;

	if (isdigit((unsigned char)arg[0])) {
		if (cli_num_u64("record", "-k", arg, 0, 63, &v) < 0)
			return CLI_EXIT_USAGE;
		if (clock_getres((clockid_t)v, &ts) < 0)
			return cli_usage("record", "-k %s: this system has no clock %llu", arg,
					 (unsigned long long)v);
		*out = (int)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(name, clocks[i].name)) {
			*out = clocks[i].id;
			return 0;
		}
	return cli_usage("record", "-k '%s' is not a clock: use monotonic, monotonic_raw, realtime, "
			 "boottime, tai (or mono, raw, real, boot), or a clock number", arg);
}

static const struct cli_opt record_options[] = {
	{ "event", 'e', CLI_ARG_REQUIRED, 'e', "EVENTS",
	  "what to sample (default: cycles, or cpu-clock where the machine cannot count cycles)" },
	{ "filter", 0, CLI_ARG_REQUIRED, OPT_FILTER, "FILTER",
	  "a tracepoint filter (ftrace syntax: 'prev_pid == 1') for the events of the -e before it" },
	{ "exclude-perf", 0, CLI_ARG_NONE, OPT_EXCLUDE_PERF, NULL,
	  "leave out perfkit's own tracepoint hits: the filter 'common_pid != <perfkit's pid>' "
	  "for the tracepoints of the -e before it" },
	{ "group", 0, CLI_ARG_NONE, OPT_GROUP, NULL,
	  "put every -e event into one group, as if they were given as {EVENTS}; groups in the list merge into it" },
	{ "freq", 'F', CLI_ARG_REQUIRED, 'F', "HZ",
	  "samples per second (default 4000; max: kernel.perf_event_max_sample_rate)" },
	{ "strict-freq", 0, CLI_ARG_NONE, OPT_STRICT_FREQ, NULL,
	  "refuse a -F over the kernel's maximum rate instead of recording at that maximum" },
	{ "count", 'c', CLI_ARG_REQUIRED, 'c', "N", "a sample every N events instead of -F" },
	{ NULL, 'g', CLI_ARG_NONE, 'g', NULL, "record call chains (frame pointers)" },
	{ "call-graph", 0, CLI_ARG_REQUIRED, OPT_CALL_GRAPH, "MODE",
	  "fp, dwarf[,STACK_BYTES] (default 8192) or lbr" },
	{ "user-callchains", 0, CLI_ARG_NONE, OPT_USER_CALLCHAINS, NULL,
	  "call chains of user space only" },
	{ "kernel-callchains", 0, CLI_ARG_NONE, OPT_KERNEL_CALLCHAINS, NULL,
	  "call chains of kernel space only" },
	{ "all-user", 0, CLI_ARG_NONE, OPT_ALL_USER, NULL, "every event samples user space only" },
	{ "all-kernel", 0, CLI_ARG_NONE, OPT_ALL_KERNEL, NULL, "every event samples kernel space only" },
	{ "weight", 'W', CLI_ARG_NONE, 'W', NULL, "record each sample's weight (its cost, e.g. latency)" },
	{ "period", 'P', CLI_ARG_NONE, 'P', NULL, "record each sample's period with -c too" },
	{ "data-page-size", 0, CLI_ARG_NONE, OPT_DATA_PAGE_SIZE, NULL,
	  "record the page size of each sample's data address" },
	{ "code-page-size", 0, CLI_ARG_NONE, OPT_CODE_PAGE_SIZE, NULL,
	  "record the page size of each sample's code address" },
	{ "phys-data", 0, CLI_ARG_NONE, OPT_PHYS_DATA, NULL,
	  "record the physical address of each sample's data address" },
	{ "data", 'd', CLI_ARG_NONE, 'd', NULL,
	  "record the data addresses of samples, their data source (and data mmaps)" },
	{ "timestamp", 'T', CLI_ARG_NONE, 'T', NULL, "record sample times (on unless --per-thread)" },
	{ "raw-samples", 'R', CLI_ARG_NONE, 'R', NULL, "record the raw data of tracepoint samples" },
	{ "branch-any", 'b', CLI_ARG_NONE, 'b', NULL, "record the branch stack (any taken branch)" },
	{ "branch-filter", 'j', CLI_ARG_REQUIRED, 'j', "FILTER",
	  "record the branch stack with FILTER (any,u,k,call,...)" },
	{ "user-regs", 0, CLI_ARG_REQUIRED, OPT_USER_REGS, "REGS", NULL, .with_next = true },
	{ "intr-regs", 'I', CLI_ARG_OPTIONAL, 'I', "REGS",
	  "sample these registers (AX,BX,IP,...); --user-regs at user level, -I (attached: -IAX,BX "
	  "or --intr-regs=AX,BX; alone: every register perf takes) at the interrupt" },
	{ "no-samples", 'n', CLI_ARG_NONE, 'n', NULL,
	  "take no samples: the events count and only the side band (processes, maps) is recorded" },
	{ "sample-identifier", 0, CLI_ARG_NONE, OPT_SAMPLE_IDENTIFIER, NULL,
	  "put the event id first in every record (PERF_SAMPLE_IDENTIFIER), even for one event" },
	{ "switch-events", 0, CLI_ARG_NONE, OPT_SWITCH_EVENTS, NULL, "record context switches" },
	{ "no-bpf-event", 0, CLI_ARG_NONE, OPT_NO_BPF_EVENT, NULL,
	  "do not record BPF program loads (nor the programs loaded before)" },
	{ "namespaces", 0, CLI_ARG_NONE, OPT_NAMESPACES, NULL, "record namespace changes" },
	{ "off-cpu", 0, CLI_ARG_NONE, OPT_OFF_CPU, NULL,
	  "also record where threads wait: sched:sched_switch (with -g, their call chains) and "
	  "context switches, for perfkit report --off-cpu (no BPF needed)" },
	{ "compression-level", 'z', CLI_ARG_OPTIONAL, 'z', "N",
	  "compress the records with zstd (level N: 1 to 22, default 1; attached: -z3)" },
	{ "overwrite", 0, CLI_ARG_NONE, OPT_OVERWRITE, NULL,
	  "keep only the newest samples (the rings overwrite the oldest); they are written at the "
	  "end and on each SIGUSR2" },
	{ "tail-synthesize", 0, CLI_ARG_NONE, OPT_TAIL_SYNTHESIZE, NULL,
	  "write the names and maps of what exists at the end of the file, not at its start" },
	{ "output", 'o', CLI_ARG_REQUIRED, 'o', "FILE",
	  "write FILE (default perf.data; an existing one is kept as .old); - streams perf's pipe format to stdout" },
	{ "mmap-pages", 'm', CLI_ARG_REQUIRED, 'm', "N",
	  "ring buffer pages per CPU (default 128; 2048 with DWARF stacks, where they may be "
	  "locked), or a size: 512K, 4M; rounded up to a power of two pages" },
	{ "no-buffering", 0, CLI_ARG_NONE, OPT_NO_BUFFERING, NULL,
	  "wake perfkit at every sample (wakeup_events 1), not when a ring is partly full" },
	{ "mmap-flush", 0, CLI_ARG_REQUIRED, OPT_MMAP_FLUSH, "N",
	  "drain a ring only once it holds N bytes (or B, K, M, G; default 1, at most a quarter "
	  "of a ring)" },
	{ "switch-output", 0, CLI_ARG_OPTIONAL, OPT_SWITCH_OUTPUT, "signal|SIZE|TIME",
	  "end the file and start a new one on SIGUSR2 (signal, the default), at SIZE bytes of "
	  "records (10M) or every TIME (30s, 5m); each file is named FILE.<timestamp>" },
	{ "switch-output-event", 0, CLI_ARG_REQUIRED, OPT_SWITCH_OUTPUT_EVENT, "EVENTS",
	  "switch the file whenever one of EVENTS (perf's -e syntax; counted on the target, not "
	  "recorded) occurs; implies --switch-output=signal, like perf" },
	{ "switch-max-files", 0, CLI_ARG_REQUIRED, OPT_SWITCH_MAX_FILES, "N",
	  "with --switch-output, keep only the N newest files (deletes older ones this run made)" },
	{ "timestamp-filename", 0, CLI_ARG_NONE, OPT_TIMESTAMP_FILENAME, NULL,
	  "name the file FILE.<timestamp> (YYYYmmddHHMMSScc) when it ends" },
	{ "max-size", 0, CLI_ARG_REQUIRED, OPT_MAX_SIZE, "SIZE",
	  "stop when the file holds SIZE bytes of records (or B, K, M, G)" },
	{ "all-cpus", 'a', CLI_ARG_NONE, 'a', NULL, "every task on every CPU" },
	{ "cpu", 'C', CLI_ARG_REQUIRED, 'C', "CPUS", "every task on these CPUs" },
	{ "pid", 'p', CLI_ARG_REQUIRED, 'p', "PIDS", "these processes" },
	{ "tid", 't', CLI_ARG_REQUIRED, 't', "TIDS", "these threads" },
	{ "sample-cpu", 0, CLI_ARG_NONE, OPT_SAMPLE_CPU, NULL, "record the CPU of each sample" },
	{ "no-inherit", 'i', CLI_ARG_NONE, 'i', NULL, "do not follow the command's children" },
	{ "running-time", 0, CLI_ARG_NONE, OPT_RUNNING_TIME, NULL,
	  "the enabled and running times in every read value (the S modifier's samples, -s's counts)" },
	{ "stat", 's', CLI_ARG_NONE, 's', NULL,
	  "per-thread counts: each child's counts are recorded when it exits (inherit_stat)" },
	{ "threads", 0, CLI_ARG_OPTIONAL, OPT_THREADS, "cpu|core|package|numa|MASKS",
	  "perf's parallel streaming mode: write a directory, PATH/data and a PATH/data.N per CPU ring" },
	{ "per-thread", 0, CLI_ARG_NONE, OPT_PER_THREAD, NULL,
	  "one ring per thread, its events on any CPU (not following children)" },
	{ "cgroup", 'G', CLI_ARG_REQUIRED, 'G', "NAME[,NAME...]",
	  "only tasks in this cgroup (with -a or -C; a path under the perf_event or cgroup2 mount); "
	  "several (a list, or -G again) pair the Nth cgroup with the Nth event, like perf" },
	{ "duration", 0, CLI_ARG_REQUIRED, OPT_DURATION, "S", "stop after S seconds" },
	{ "delay", 'D', CLI_ARG_REQUIRED, 'D', "MS",
	  "start sampling MS milliseconds after the start; -1: start disabled, for --control to enable" },
	{ "control", 0, CLI_ARG_REQUIRED, OPT_CONTROL, "fifo:CTL[,ACK] | fd:N[,M]",
	  "take commands there: enable, disable, snapshot (--overwrite), stop, ping; each acked "
	  "with 'ack' on ACK" },
	{ "no-buildid", 'B', CLI_ARG_NONE, 'B', NULL,
	  "write no build-id table (BUILD_ID lists the binaries samples landed in, so perf report "
	  "finds the same ones)" },
	{ "timestamp-boundary", 0, CLI_ARG_NONE, OPT_TIMESTAMP_BOUNDARY, NULL,
	  "record the first and last sample times in the header (always done)" },
	{ "no-buildid-cache", 'N', CLI_ARG_NONE, 'N', NULL,
	  "do not copy the binaries samples landed in into the build-id cache ($PERFKIT_BUILDID_DIR, "
	  "$PERF_BUILDID_DIR, perf's buildid.dir or ~/.debug), which lets a report find them after "
	  "they are rebuilt" },
	{ "clockid", 'k', CLI_ARG_REQUIRED, 'k', "CLOCK",
	  "time samples with CLOCK: monotonic, monotonic_raw, realtime, boottime, tai, or a clock "
	  "number" },
	{ "dry-run", 0, CLI_ARG_NONE, OPT_DRY_RUN, NULL,
	  "check the options and the events, then exit without recording or running COMMAND" },
	{ "uid", 'u', CLI_ARG_REQUIRED, 'u', "USER",
	  "every process USER (a name or uid) has now, each thread's events on every CPU (as -p)" },
	{ "realtime", 'r', CLI_ARG_REQUIRED, 'r', "PRIO",
	  "run perfkit at SCHED_FIFO priority PRIO (1-99) while it records" },
	{ "all-cgroups", 0, CLI_ARG_NONE, RECORD_OPT_ALL_CGROUPS, NULL,
	  "record each sample's cgroup id, and every cgroup (those there at the start, those made "
	  "later) as a PERF_RECORD_CGROUP naming it" },
	{ "transaction", 0, CLI_ARG_NONE, RECORD_OPT_TRANSACTION, NULL,
	  "record each sample's transaction flags (PERF_SAMPLE_TRANSACTION; zero outside TSX events)" },
	{ "buildid-all", 0, CLI_ARG_NONE, RECORD_OPT_BUILDID_ALL, NULL,
	  "list every binary mapped in the build-id table, not only those samples hit" },
	{ "buildid-mmap", 0, CLI_ARG_NONE, RECORD_OPT_BUILDID_MMAP, NULL,
	  "the kernel writes build-ids into the map records (attr build_id); implies -B and -N" },
	{ "synth", 0, CLI_ARG_REQUIRED, RECORD_OPT_SYNTH, "no|all|task|mmap|cgroup",
	  "what to tell of the processes that exist at the start: all (default), task (names, no "
	  "maps), mmap (names and maps), cgroup, or no (the kernel and BPF programs only)" },
	{ "num-thread-synthesize", 0, CLI_ARG_REQUIRED, RECORD_OPT_NUM_THREAD_SYNTH, "N",
	  "perf's synthesis threads; perfkit synthesizes on one thread, the records are the same" },
	{ "proc-map-timeout", 0, CLI_ARG_REQUIRED, RECORD_OPT_PROC_MAP_TIMEOUT, "MS",
	  "perf's time limit to read a process's maps; perfkit reads each /proc/PID/maps whole" },
	{ "affinity", 0, CLI_ARG_REQUIRED, RECORD_OPT_AFFINITY, "node|cpu",
	  "perf moves its reading thread to each ring's CPU or node; perfkit reads from where it "
	  "runs (the file is the same)" },
	{ "aio", 0, CLI_ARG_OPTIONAL, RECORD_OPT_AIO, "N",
	  "perf's asynchronous writing with N (1-4) control blocks; perfkit writes synchronously "
	  "(the file is the same)" },
	{ "vmlinux", 0, CLI_ARG_REQUIRED, RECORD_OPT_VMLINUX, "PATH",
	  "the kernel image for symbols (checked to be a readable file; the build-id table reads "
	  "the running kernel's)" },
	{ "kcore", 0, CLI_ARG_NONE, RECORD_OPT_KCORE, NULL,
	  "copy /proc/kcore (perf's directory output): refused, with perf's message when it is "
	  "not readable" },
	{ "debuginfod", 0, CLI_ARG_OPTIONAL, RECORD_OPT_DEBUGINFOD, "URLS",
	  "fetch debug info from debuginfod: perfkit has no client and says so, as a perf built "
	  "without it does" },
	{ "clang-path", 0, CLI_ARG_REQUIRED, RECORD_OPT_CLANG_PATH, "PATH", NULL, .with_next = true },
	{ "clang-opt", 0, CLI_ARG_REQUIRED, RECORD_OPT_CLANG_OPT, "OPTS",
	  "clang for perf's BPF scriptlet events (-e FILE.c), which perfkit does not build" },
	{ "snapshot", 'S', CLI_ARG_OPTIONAL, 'S', "OPTS", NULL, .with_next = true },
	{ "aux-sample", 0, CLI_ARG_OPTIONAL, RECORD_OPT_AUX_SAMPLE, "OPTS",
	  "AUX-area snapshot mode / AUX-area samples (Intel PT, CoreSight): perfkit opens no AUX "
	  "event and refuses them with perf's message" },
	{ "quiet", 'q', CLI_ARG_NONE, 'q', NULL, "no summary at the end" },
	{ "verbose", 'v', CLI_ARG_NONE, 'v', NULL,
	  "print each event's perf_event_attr as opened, and the ring size" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_record_opts = {
	.cmd = "record",
	.usage = "usage: perfkit record [-e EVENTS] [-F HZ | -c PERIOD] [-g] [-o FILE] [-m PAGES]\n"
		 "                      [-a | -C CPUS | -p PIDS | -t TIDS] [--duration S] [-q]\n"
		 "                      [--] [COMMAND...]\n"
		 "\n"
		 "Sample events into a perf.data file that perf report and perf script read.\n",
	.opts = record_options,
	.stop_at_operand = true,
};

/* The options that shape the samples (struct pk_recorder_opts).  Returns 0,
 * an exit status for a bad value, or 1 when `c` is not one of them. */
/* record's flags that only switch something on: 1 when c is none. */
static int parse_flag(struct record_opts *o, int c)
{
	switch (c) {
	case OPT_SWITCH_EVENTS: o->r.switch_events = true; break;
	case OPT_NAMESPACES: o->r.namespaces = true; break;
	case OPT_OVERWRITE: o->r.overwrite = true; break;
	case OPT_TAIL_SYNTHESIZE: o->r.tail_synthesize = true; break;
	case OPT_SAMPLE_IDENTIFIER: o->r.sample_identifier = true; break;
	case 'n': o->r.no_samples = true; break;
	case OPT_NO_BPF_EVENT: o->r.no_bpf_event = true; break;
	case 'B': o->r.no_build_ids = true; break;
	case 'N': o->no_cache = true; break;
	case 'W': o->r.weight = true; break;
	case 'P': o->r.sample_period = true; break;
	case OPT_ALL_USER: o->r.all_user = true; break;
	case OPT_ALL_KERNEL: o->r.all_kernel = true; break;
	case OPT_DATA_PAGE_SIZE: o->r.data_page_size = true; break;
	case OPT_CODE_PAGE_SIZE: o->r.code_page_size = true; break;
	case OPT_USER_CALLCHAINS: o->r.user_callchains = true; break;
	case OPT_KERNEL_CALLCHAINS: o->r.kernel_callchains = true; break;
	case OPT_PER_THREAD: o->r.per_thread = true; break;
	case OPT_PHYS_DATA: o->r.phys_data = true; break;
	case OPT_NO_BUFFERING: o->r.no_buffering = true; break;
	case OPT_DRY_RUN: o->dry_run = true; break;
	case OPT_GROUP: o->group = o->r.group = true; break;
	case OPT_TIMESTAMP_BOUNDARY: break;	/* SAMPLE_TIME is always written */
	default: return 1;
	}
	return 0;
}

static int parse_sampling(struct record_opts *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'F':
		/* perf's -F is an unsigned int of Hz; the kernel's limit is a sysctl. */
		if (!strcmp(arg, "max")) {
			o->freq_max = true;
			break;
		}
		o->freq_max = false;
		if (cli_num_u64("record", "-F", arg, 1, UINT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		o->r.freq = (unsigned)v;
		break;
	case OPT_STRICT_FREQ:
		o->strict_freq = true;
		break;
	case 'c':
		/* perf_event_open refuses a period with bit 63 set. */
		if (cli_num_u64("record", "-c", arg, 1, INT64_MAX, &o->r.period) < 0)
			return CLI_EXIT_USAGE;
		break;
	case 'g':	/* call chains: frame pointers unless --call-graph says otherwise */
		if (o->r.callgraph == PK_CALLGRAPH_NONE)
			o->r.callgraph = PK_CALLGRAPH_FP;
		break;
	case OPT_SAMPLE_CPU: o->r.sample_cpu = true; break;
	case 'i': o->r.no_inherit = true; break;
	case OPT_RUNNING_TIME: o->r.running_time = true; break;
	case 's': o->r.inherit_stat = true; break;
	case OPT_CALL_GRAPH:
		if (parse_call_graph(o, arg))
			return CLI_EXIT_USAGE;
		break;
	case 'd': o->r.data_addr = true; break;
	case 'T': o->r.timestamp = true; break;	/* times with --per-thread too */
	case 'R': o->r.raw = true; break;
	case 'b': o->r.branch_type = PERF_SAMPLE_BRANCH_ANY; break;
	case 'j':
		if (pk_branch_filter_parse(arg, &o->r.branch_type) < 0)
			return cli_error("record", arg), CLI_EXIT_USAGE;
		break;
	case OPT_USER_REGS:
	case 'I':
		/* -I alone: perf's default set, every register it can sample
		 * (its PERF_REGS_MASK, the DWARF set on x86-64). */
		if (!arg)
			o->r.intr_regs = pk_regs_dwarf_mask();
		else if (pk_regs_parse(arg, c == OPT_USER_REGS ? &o->r.user_regs : &o->r.intr_regs) < 0)
			return cli_error("record", arg), CLI_EXIT_USAGE;
		break;
	case 'z':
		/* -z, -zN or --compression-level[=N], as perf 6.1 takes them:
		 * the level is attached, never the next argument. */
		if (arg && cli_num_u64("record", "-z", arg, 1, 22, &v) < 0)
			return CLI_EXIT_USAGE;
		o->r.compression = arg ? (int)v : 1;
		break;
	case 'k':
		if (parse_clockid(arg, &o->r.clockid))
			return CLI_EXIT_USAGE;
		o->r.use_clockid = true;
		break;
	case 'G': return record_cgroup_add(o, arg);
	default: return parse_flag(o, c);
	}
	return 0;
}

/* What the options say together, after all of them are read. */
static int check_opts(struct record_opts *o, int argc)
{
	if (o->pages && o->pages != o->pages_asked && !o->quiet)
		fprintf(stderr, "perfkit record: rounding the ring size up to %u pages (%lld KiB), a power "
			"of two\n", o->pages, (long long)o->pages * sysconf(_SC_PAGESIZE) / 1024);
	if ((o->r.freq || o->freq_max) && o->r.period)
		return cli_usage("record", "-F and -c both set how often to sample: give one");
	if (o->r.all_user && o->r.all_kernel)
		return cli_usage("record", "--all-user and --all-kernel exclude each other: give one");
	if (o->r.user_callchains && o->r.kernel_callchains)
		return cli_usage("record", "--user-callchains and --kernel-callchains exclude each other "
				 "(give neither for both)");
	if (o->r.start_disabled && !o->delay_ms && !o->control)
		return cli_usage("record", "-D -1 starts disabled: give --control to enable the events");
	if (o->r.per_thread && (o->target.all_cpus || o->target.cpu_list))
		return cli_usage("record", "--per-thread follows threads: it does not go with -a or -C");
	if (record_threads_check(o))
		return CLI_EXIT_USAGE;
	if (o->switch_event) {	/* perf: the events switch, whatever --switch-output said */
		o->switch_signal = true;
		o->switch_size = 0;
		o->switch_secs = 0;
	}
	/* perf's cmd_record: -t's threads are recorded without inherit (-p's
	 * processes keep it: perf sets their tids after this check). */
	if (o->target.tids)
		o->r.no_inherit = true;
	if (o->switch_output)	/* as perf: every file gets its time */
		o->timestamp_filename = true;
	if (o->cgroups && !o->target.all_cpus && !o->target.cpu_list)
		return cli_usage("record", "-G samples a cgroup on CPUs: give -a or -C with it");
	return cli_target_check("record", &o->target, optind < argc);
}

/* -e: joined into one list, and kept as given for --filter. */
static int add_event_arg(struct record_opts *o, const char *arg)
{
	const char **grown = realloc(o->e_args, (o->nr_e + 1) * sizeof(*grown));

	if (!grown)
		return cli_usage("record", "out of memory for the -e list");
	o->e_args = grown;
	o->e_args[o->nr_e++] = arg;
	return cli_events_add("record", &o->events, arg);
}

/* --filter: for the events of the -e just before it, as perf attaches it. */
static int add_filter(struct record_opts *o, const char *arg)
{
	struct record_filter *grown;

	if (!o->nr_e)
		return cli_usage("record", "--filter '%s' follows no -e: give it after the -e of the "
				 "tracepoints it filters", arg);
	if (!(grown = realloc(o->filters, (o->nr_filters + 1) * sizeof(*grown))))
		return cli_usage("record", "out of memory for the filters");
	o->filters = grown;
	o->filters[o->nr_filters++] = (struct record_filter){ o->nr_e - 1, arg };
	return 0;
}

/* --exclude-perf: perf's filter of its own pid, on the -e before it. */
static int add_exclude_perf(struct record_opts *o)
{
	snprintf(o->exclude_perf, sizeof(o->exclude_perf), "common_pid != %d", (int)getpid());
	if (!o->nr_e)	/* perf's words, as for an -e with other events */
		return cli_usage("record", "--exclude-perf option should follow a -e tracepoint option");
	return add_filter(o, o->exclude_perf);
}

/* One option into *o (cli_opt_fn). */
static int record_option(void *ctx, int id, const char *arg)
{
	struct record_opts *o = ctx;
	int err = parse_sampling(o, id, arg);

	if (err == 1)
		err = cli_target_option(&o->target, id, arg);
	if (err == 1)
		err = record_flags2_option(o, id, arg);
	if (err != 1)
		return err;
	switch (id) {
	case 'e':
		return add_event_arg(o, arg);
	case OPT_FILTER:
		return add_filter(o, arg);
	case OPT_EXCLUDE_PERF:
		return add_exclude_perf(o);
	case 'D': {
		int64_t ms;

		/* -1: start disabled (perf's meaning); up to a day otherwise. */
		if (cli_num_i64("record", "-D", arg, -1, 86400000, &ms) < 0)
			return CLI_EXIT_USAGE;
		o->r.start_disabled = ms != 0;
		o->delay_ms = ms > 0 ? (unsigned)ms : 0;
		break;
	}
	case OPT_CONTROL: o->control = arg; break;
	case OPT_SWITCH_OUTPUT:
		return record_parse_switch(o, arg);
	case OPT_THREADS:
		return record_threads_parse(o, arg);
	case OPT_SWITCH_OUTPUT_EVENT:
		return record_swevent_add(o, arg);
	case OPT_SWITCH_MAX_FILES: {
		uint64_t n;

		if (cli_num_u64("record", "--switch-max-files", arg, 0, 1000000, &n) < 0)
			return CLI_EXIT_USAGE;
		o->switch_max_files = (int)n;
		break;
	}
	case OPT_TIMESTAMP_FILENAME: o->timestamp_filename = true; break;
	case OPT_MAX_SIZE:
		return record_parse_size("--max-size", arg, &o->max_size);
	case OPT_MMAP_FLUSH: {
		uint64_t n;

		if (record_parse_size("--mmap-flush", arg, &n))
			return CLI_EXIT_USAGE;
		o->r.mmap_flush = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
		break;
	}
	case 'o': o->output = arg; break;
	case 'm':
		if (parse_pages(arg, &o->pages, &o->pages_asked))
			return CLI_EXIT_USAGE;
		break;
	case OPT_DURATION:
		/* From a millisecond to a year: beyond that it is a typo. */
		if (cli_num_seconds("record", "--duration", arg, 0.001, 31536000, &o->duration) < 0)
			return CLI_EXIT_USAGE;
		break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose++; break;
	case OPT_OFF_CPU: o->off_cpu = true; break;
	}
	return 0;
}

int record_parse_opts(int argc, char **argv, struct record_opts *o)
{
	int err = cli_opts_parse(&cmd_record_opts, argc, argv, record_option, o);

	if (err || (err = record_flags2_check(o)) || (err = check_opts(o, argc)) ||
	    (o->off_cpu && (err = record_offcpu_setup(o))))
		return err;
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}

/* Filter `f` onto *slot, joined to one there as perf joins them:
 * "(old) && (new)".  0 or -ENOMEM. */
static int join_filter(char **slot, const char *f)
{
	char *both;

	if (!*slot)
		return (*slot = strdup(f)) ? 0 : -ENOMEM;
	if (asprintf(&both, "(%s) && (%s)", *slot, f) < 0)
		return -ENOMEM;
	free(*slot);
	*slot = both;
	return 0;
}

/* perf's add_exclude_perf_filter: --exclude-perf after -e `k` needs every
 * event of that -e to be a tracepoint (perf fails on any other). */
static bool exclude_perf_fits(const struct record_opts *o, size_t k, const struct pk_events *ev)
{
	bool after_k = false;

	for (size_t i = 0; i < o->nr_filters; i++)
		after_k |= o->filters[i].e == k && o->filters[i].filter == o->exclude_perf;
	for (size_t j = 0; after_k && j < pk_events_nr(ev); j++)
		if (strcmp(pk_events_desc(ev, j)->pmu, "tracepoint"))
			return false;
	return true;
}

int record_filters(const struct record_opts *o, char ***out, size_t *nr)
{
	size_t first = 0, total = 0;
	char **f = NULL;
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!o->nr_filters)
		return 0;
	/* Each -e's events follow those of the ones before it. */
	for (size_t k = 0; k < o->nr_e && !err; k++, first = total) {
		struct pk_events *ev;
		int n = pk_events_parse(o->e_args[k], NULL, &ev);
		char **grown;

		if (n < 0)	/* pk_recorder_new says what is wrong with it */
			break;
		if (!exclude_perf_fits(o, k, ev)) {
			pk_events_free(ev);
			free(f);
			return cli_usage("record", "--exclude-perf option should follow a -e tracepoint option");
		}
		pk_events_free(ev);
		total += (size_t)n;
		if (!(grown = realloc(f, total * sizeof(*f)))) {
			err = -ENOMEM;
			break;
		}
		f = grown;
		memset(f + first, 0, (size_t)n * sizeof(*f));
		for (size_t i = 0; i < o->nr_filters && !err; i++)
			for (size_t e = first; o->filters[i].e == k && e < total && !err; e++)
				err = join_filter(&f[e], o->filters[i].filter);
	}
	*out = f;
	*nr = f ? total : 0;
	if (err)
		return cli_usage("record", "out of memory for the filters");
	return 0;
}

int record_dry_run(struct record_opts *o)
{
	struct pk_events *ev;
	const char *events = o->events ? o->events : "cycles";
	char **f;
	size_t nr;
	int err;

	cli_tracefs_need(events);
	if (pk_events_parse(events, NULL, &ev) < 0)
		return cli_error("record", events);
	pk_events_free(ev);
	/* The filters as the recording pairs them: --exclude-perf's check. */
	if ((err = record_filters(o, &f, &nr)))
		return err;
	for (size_t i = 0; i < nr; i++)
		free(f[i]);
	free(f);
	return 0;
}

void record_free_opts(struct record_opts *o)
{
	free(o->events);
	free(o->e_args);
	free(o->filters);
	free(o->cgroups);
	free(o->switch_event);
	free(o->uid_pids);
	o->uid_pids = NULL;
	o->cgroups = NULL;
	o->switch_event = NULL;
	o->events = NULL;
	o->e_args = NULL;
	o->filters = NULL;
}
