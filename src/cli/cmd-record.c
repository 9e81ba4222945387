/* SPDX-License-Identifier: MIT */
/*
 * cmd-record.c - `perfkit record`: sample a command (or -p/-a/-C targets)
 * into a perf.data file perf reads.  Events get perf record's sample
 * layout (IDENTIFIER, IP, TID, TIME, PERIOD; CALLCHAIN with -g; CPU for
 * CPU-wide targets) and the first event carries the sideband (mmap, comm,
 * task); every ring is drained after each wake-up into the writer with a
 * FINISHED_ROUND marker.  The file is whole whatever ends the run: the
 * command exiting, Ctrl-C or any other terminating signal, --duration, or
 * a full disk; after SIGKILL its partial file still reads.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PERF_RECORD_FINISHED_ROUND 68	/* a perf.data record: no record before it is newer */

struct record_opts {
	char *events;		/* -e, joined; NULL: cycles, falling back to cpu-clock */
	unsigned freq;		/* -F */
	uint64_t period;	/* -c */
	bool callgraph;		/* -g, or --call-graph fp */
	bool dwarf;		/* --call-graph dwarf[,size] */
	uint32_t stack_size;	/* its user stack bytes per sample */
	bool lbr;		/* --call-graph lbr */
	bool data_addr;		/* -d */
	bool raw;		/* -R */
	uint64_t branch_type;	/* -b / -j: branch_sample_type, 0 = no branch stack */
	uint64_t user_regs, intr_regs;	/* --user-regs / --intr-regs */
	bool switch_events, namespaces;
	bool overwrite;		/* --overwrite: keep the newest data, written on SIGUSR2 and at the end */
	int comp_level;		/* -z / --compression-level: zstd level, 0 = none */
	bool sample_cpu;	/* --sample-cpu */
	bool all_cpus;		/* -a */
	const char *cpu_list;	/* -C */
	const char *pids;	/* -p */
	const char *tids;	/* -t */
	bool no_inherit;
	const char *output;	/* -o, default perf.data */
	unsigned pages;		/* -m */
	unsigned long long pages_asked;	/* before rounding up to a power of two */
	double duration;	/* --duration seconds, 0 = none */
	bool quiet;
	int verbose;		/* -v: the attrs as opened and the ring size */
	bool no_buildid;	/* -B: no BUILD_ID feature */
	int clockid;		/* -k: the clock of sample times, -1 = perf's default */
	char **argv;
};

struct stats {
	uint64_t samples, lost, wakeups;
	uint64_t lost_samples;	/* LOST_SAMPLES: samples the kernel could not take (e.g. PEBS) */
	uint64_t throttled;	/* THROTTLE records: the kernel slowed sampling down */
	int write_err;		/* the first write error: recording stops, the file is kept */
};

void cmd_record_help(FILE *f)
{
	fprintf(f,
		"usage: perfkit record [-e EVENTS] [-F HZ | -c PERIOD] [-g] [-o FILE] [-m PAGES]\n"
		"                      [-a | -C CPUS | -p PIDS | -t TIDS] [--duration S] [-q] [--] [COMMAND...]\n"
		"\n"
		"Sample events into a perf.data file that perf report and perf script read.\n"
		"\n"
		"  -e, --event EVENTS   what to sample (default: cycles, or cpu-clock where the\n"
		"                       machine cannot count cycles)\n"
		"  -F, --freq HZ        samples per second (default 4000)\n"
		"  -c, --count N        a sample every N events instead of -F\n"
		"  -g                   record call chains (frame pointers)\n"
		"      --call-graph MODE  fp, dwarf[,STACK_BYTES] (default 8192) or lbr\n"
		"  -d, --data           record the data addresses of samples (and data mmaps)\n"
		"  -T, --timestamp      record sample times (always on)\n"
		"  -R, --raw-samples    record the raw data of tracepoint samples\n"
		"  -b, --branch-any     record the branch stack (any taken branch)\n"
		"  -j, --branch-filter FILTER  record the branch stack with FILTER (any,u,k,call,...)\n"
		"      --user-regs REGS, --intr-regs REGS  sample these registers (AX,BX,IP,...)\n"
		"      --switch-events  record context switches\n"
		"      --namespaces     record namespace changes\n"
		"  -z, --compression-level[=N]  compress the records with zstd (level N, default 1)\n"
		"      --overwrite      keep only the newest samples (the rings overwrite the oldest);\n"
		"                       they are written at the end and on each SIGUSR2\n"
		"  -o, --output FILE    write FILE (default perf.data; an existing one is kept as .old)\n"
		"  -m, --mmap-pages N   ring buffer pages per CPU (default 128; 2048 with DWARF stacks,\n"
		"                       where they may be locked), or a size: 512K, 4M;\n"
		"                       rounded up to a power of two pages\n"
		"  -a, --all-cpus       every task on every CPU   -C, --cpu CPUS  these CPUs\n"
		"  -p, --pid PIDS       these processes   -t, --tid TIDS  these threads\n"
		"      --sample-cpu     record the CPU of each sample\n"
		"      --no-inherit     do not follow the command's children\n"
		"      --duration S     stop after S seconds\n"
		"  -B, --no-buildid     write no build-id table (BUILD_ID lists the binaries\n"
		"                       samples landed in, so perf report finds the same ones)\n"
		"  -k, --clockid CLOCK  time samples with CLOCK: monotonic, monotonic_raw, realtime,\n"
		"                       boottime, tai, or a clock number\n"
		"  -q, --quiet          no summary at the end\n"
		"  -v, --verbose        print each event's perf_event_attr as opened, and the ring size\n");
}

/* --call-graph fp | dwarf[,STACK_BYTES] | lbr, as perf takes it. */
static int parse_call_graph(struct record_opts *o, const char *arg)
{
	char *end;

	o->callgraph = o->dwarf = o->lbr = false;
	if (!strcmp(arg, "fp")) {
		o->callgraph = true;
	} else if (!strcmp(arg, "lbr")) {
		o->lbr = true;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		unsigned long n = arg[5] ? strtoul(arg + 6, &end, 0) : 8192;

		/* The kernel takes up to 65528 bytes, a multiple of 8. */
		if ((arg[5] && (*end || end == arg + 6)) || !n || n > 65528 || n % 8) {
			cli_usage("record", "dwarf stack size must be a multiple of 8 up to 65528, not '%s'",
				  arg + 6);
			return -1;
		}
		o->dwarf = true;
		o->stack_size = (uint32_t)n;
	} else {
		cli_usage("record", "--call-graph takes fp, dwarf[,SIZE] or lbr, not '%s'", arg);
		return -1;
	}
	return 0;
}

/* -j: perf's branch filter words, comma-separated. */
static int parse_branch_filter(const char *arg, uint64_t *out)
{
	static const struct { const char *name; uint64_t bit; } words[] = {
		{ "any", PERF_SAMPLE_BRANCH_ANY }, { "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
		{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN }, { "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
		{ "call", PERF_SAMPLE_BRANCH_CALL }, { "cond", PERF_SAMPLE_BRANCH_COND },
		{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
		{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX }, { "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
		{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX }, { "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
		{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
		{ "hv", PERF_SAMPLE_BRANCH_HV },
	};
	const char *p = arg;

	*out = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == n && !strncmp(words[i].name, p, n))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			cli_usage("record", "unknown branch filter '%.*s' (any, any_call, any_ret, ind_call, "
				  "call, cond, ind_jmp, call_stack, u, k, hv, ...)", (int)n, p);
			return -1;
		}
		*out |= words[i].bit;
		p += n;
		p += *p == ',';
	}
	/* Only privilege words: perf samples any branch at those levels. */
	if (!(*out & ~(uint64_t)(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)))
		*out |= PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/*
 * -m: a number of pages, or a size with B, K, M or G ("512K", "4M"),
 * rounded up to a power of two pages as perf does (and said).
 */
static int parse_pages(const char *arg, unsigned *pages, unsigned long long *asked)
{
	long page = sysconf(_SC_PAGESIZE);
	char *end;
	unsigned long long v = strtoull(arg, &end, 10), n;
	const char *sizes = "BKMG";
	const char *unit = *end ? strchr(sizes, toupper((unsigned char)*end)) : NULL;

	if (end == arg || arg[0] == '-' || (*end && (!unit || end[1])) || !v) {
		if (*end == ',')
			return cli_usage("record", "-m '%s': the ',AUX_PAGES' part is for AUX-area events "
					 "(Intel PT, CoreSight), which perfkit record does not open; give the "
					 "ring size alone", arg);
		return cli_usage("record", "-m needs a number of pages or a size like 512K or 4M, not '%s'", arg);
	}
	if (unit) {
		unsigned shift = (unsigned)(unit - sizes) * 10;

		if (v > (1ULL << 40) >> shift)
			return cli_usage("record", "-m %s is larger than a ring can be (at most 1G)", arg);
		n = ((v << shift) + (unsigned long long)page - 1) / (unsigned long long)page;
	} else {
		n = v;
	}
	if (n > (1u << 18))
		return cli_usage("record", "-m %s is %llu pages: a ring takes at most %u pages (1G)", arg, n,
				 1u << 18);
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
	char *end;
	long v = strtol(arg, &end, 10);

	if (end != arg && !*end && v >= 0 && v < 64) {
		if (clock_getres((clockid_t)v, &ts) < 0)
			return cli_usage("record", "-k %s: this system has no clock %ld", arg, v);
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

static int parse_opts(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' }, { "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' }, { "output", required_argument, NULL, 'o' },
		{ "mmap-pages", required_argument, NULL, 'm' }, { "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' }, { "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "sample-cpu", no_argument, NULL, 0x100 }, { "no-inherit", no_argument, NULL, 0x101 },
		{ "duration", required_argument, NULL, 0x102 }, { "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "call-graph", required_argument, NULL, 0x103 }, { "data", no_argument, NULL, 'd' },
		{ "timestamp", no_argument, NULL, 'T' }, { "raw-samples", no_argument, NULL, 'R' },
		{ "branch-any", no_argument, NULL, 'b' }, { "branch-filter", required_argument, NULL, 'j' },
		{ "user-regs", required_argument, NULL, 0x104 }, { "intr-regs", required_argument, NULL, 0x105 },
		{ "switch-events", no_argument, NULL, 0x106 }, { "namespaces", no_argument, NULL, 0x107 },
		{ "overwrite", no_argument, NULL, 0x108 },
		{ "compression-level", optional_argument, NULL, 'z' },
		{ "clockid", required_argument, NULL, 'k' },
		{ "no-buildid", no_argument, NULL, 'B' }, { "no-buildid-cache", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+e:F:c:go:m:aC:p:t:qvdTRbj:zBNk:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			size_t n = o->events ? strlen(o->events) + 1 : 0;
			char *e = realloc(o->events, n + strlen(optarg) + 1);

			if (!e)
				return cli_usage("record", "out of memory");
			if (n)
				e[n - 1] = ',';
			strcpy(e + n, optarg);
			o->events = e;
			break;
		}
		case 'F':
			o->freq = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !o->freq)
				return cli_usage("record", "-F needs a frequency in Hz, not '%s'", optarg);
			break;
		case 'c':
			o->period = strtoull(optarg, &end, 0);
			if (*end || !o->period)
				return cli_usage("record", "-c needs a period (events per sample), not '%s'", optarg);
			break;
		case 'g': o->callgraph = true; break;
		case 'o': o->output = optarg; break;
		case 'm':
			if (parse_pages(optarg, &o->pages, &o->pages_asked))
				return CLI_EXIT_USAGE;
			break;
		case 'a': o->all_cpus = true; break;
		case 'C': o->cpu_list = optarg; break;
		case 'p': o->pids = optarg; break;
		case 't': o->tids = optarg; break;
		case 0x100: o->sample_cpu = true; break;
		case 0x101: o->no_inherit = true; break;
		case 0x102:
			o->duration = strtod(optarg, &end);
			if (*end || o->duration <= 0)
				return cli_usage("record", "--duration needs seconds, not '%s'", optarg);
			break;
		case 'q': o->quiet = true; break;
		case 'v': o->verbose++; break;
		case 0x103:
			if (parse_call_graph(o, optarg))
				return CLI_EXIT_USAGE;
			break;
		case 'd': o->data_addr = true; break;
		case 'T': break;	/* sample times are always recorded */
		case 'R': o->raw = true; break;
		case 'b': o->branch_type = PERF_SAMPLE_BRANCH_ANY; break;
		case 'j':
			if (parse_branch_filter(optarg, &o->branch_type))
				return CLI_EXIT_USAGE;
			break;
		case 0x104:
		case 0x105:
			if (pk_regs_parse(optarg, c == 0x104 ? &o->user_regs : &o->intr_regs) < 0)
				return cli_error("record", optarg), CLI_EXIT_USAGE;
			break;
		case 0x106: o->switch_events = true; break;
		case 0x107: o->namespaces = true; break;
		case 0x108: o->overwrite = true; break;
		case 'z':
			o->comp_level = optarg ? (int)strtol(optarg, &end, 10) : 1;
			if ((optarg && *end) || o->comp_level < 1 || o->comp_level > 22)
				return cli_usage("record", "the compression level is 1 to 22, not '%s'", optarg);
			break;
		case 'B': o->no_buildid = true; break;
		case 'k':
			if (parse_clockid(optarg, &o->clockid))
				return CLI_EXIT_USAGE;
			break;
		case 'N': break;	/* perfkit keeps no build-id cache */
		case 'h': cmd_record_help(stdout); return -1;
		default: return cli_unknown_option("record", argc, argv, c);
		}
	}
	if (o->pages && o->pages != o->pages_asked && !o->quiet)
		fprintf(stderr, "perfkit record: rounding the ring size up to %u pages (%lld KiB), a power "
			"of two\n", o->pages, (long long)o->pages * sysconf(_SC_PAGESIZE) / 1024);
	if (o->freq && o->period)
		return cli_usage("record", "-F and -c both set how often to sample: give one");
	if ((o->pids != NULL) + (o->tids != NULL) + (o->all_cpus || o->cpu_list) > 1)
		return cli_usage("record", "-p, -t and -a/-C are different targets: give one");
	if (optind >= argc && !o->pids && !o->tids && !o->all_cpus && !o->cpu_list)
		return cli_usage("record", "no command given: perfkit record [-e EVENTS] -- COMMAND, "
				 "or a target: -p PID, -t TID, -a, -C CPUS");
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}

/* perf record's sample layout and sideband on every event. */
static void setup_attrs(const struct record_opts *o, struct pk_events *ev, bool cpu_wide)
{
	/* With --overwrite the sideband goes to the dummy event added last, in a
	 * ring of its own that is never overwritten; otherwise to the first. */
	size_t tracking = o->overwrite ? pk_events_count(ev) - 1 : 0;

	for (size_t i = 0; i < pk_events_count(ev); i++) {
		struct perf_event_attr *a = pk_events_attr_mut(ev, i);

		a->sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				  PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		if (o->callgraph || o->dwarf || o->lbr)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (o->dwarf) {
			/* perf's DWARF mode: kernel chain from the kernel, user chain
			 * unwound later from the registers and a copy of the stack. */
			a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = pk_regs_dwarf_mask();
			a->sample_stack_user = o->stack_size;
			a->exclude_callchain_user = 1;
		}
		if (o->lbr) {
			a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
						PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
						PERF_SAMPLE_BRANCH_HW_INDEX;
		}
		if (o->branch_type) {
			a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = o->branch_type;
		}
		if (o->data_addr)
			a->sample_type |= PERF_SAMPLE_ADDR;
		if (o->raw)
			a->sample_type |= PERF_SAMPLE_RAW;
		if (o->user_regs) {
			a->sample_type |= PERF_SAMPLE_REGS_USER;
			a->sample_regs_user |= o->user_regs;
		}
		if (o->intr_regs) {
			a->sample_type |= PERF_SAMPLE_REGS_INTR;
			a->sample_regs_intr = o->intr_regs;
		}
		if (cpu_wide || o->sample_cpu)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (o->period) {
			a->freq = 0;
			a->sample_period = o->period;
		} else if (o->freq || (!a->sample_period && !a->freq)) {
			/* perf's default: 4000 samples a second, unless the event set its own */
			a->freq = 1;
			a->sample_freq = o->freq ? o->freq : 4000;
		}
		a->sample_id_all = 1;
		a->write_backward = o->overwrite && i != tracking;
		if (i == tracking) {	/* the tracking event: process sideband, as in perf */
			a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
			/* DWARF unwinding needs the [stack] map and the read-only
			 * segments that hold .eh_frame: data mmaps, as perf asks. */
			a->mmap_data = o->data_addr || o->dwarf;
			a->context_switch = o->switch_events;
			a->namespaces = o->namespaces;
		}
		if (o->clockid >= 0) {
			a->use_clockid = 1;
			a->clockid = o->clockid;
		}
	}
}

struct session {
	const struct record_opts *o;
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_rings *rs;
	struct pk_data_writer *w;
	struct pk_workload *wl;
	pid_t *threads;
	size_t nr_threads;
	int *cpus;
	struct stats st;
	uint64_t first_time, last_time;
	bool default_event;
	bool wl_is_target;	/* the command is what is sampled (not -p/-t/-a/-C with a command) */
	size_t pages;		/* data pages per ring */
	void *trim;		/* DWARF: room for a sample with its stack cut to dyn_size */
	struct pk_maps *maps;	/* which DSOs samples hit, for BUILD_ID; NULL with -B */
	bool ended_command;	/* --duration ended the command: its signal is ours */
};

static volatile sig_atomic_t stop_signal;
static struct pk_workload *forward_to;

/*
 * A terminating signal stops the recording and the file is finalized.
 * The command gets the signals a terminal or a session sends it (INT,
 * QUIT, HUP, TERM) as they are; for the others (USR1, ALRM, PIPE, XCPU...),
 * which were meant for the recorder, a SIGTERM.
 */
static void on_signal(int sig)
{
	if (forward_to)
		pk_workload_kill(forward_to, sig == SIGINT || sig == SIGQUIT || sig == SIGHUP ? sig : SIGTERM);
	stop_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The events to open: with --overwrite, a dummy tracking event after them. */
static const char *events_spec(const struct record_opts *o, const char *events)
{
	static char buf[4096];

	if (!o->overwrite)
		return events;
	snprintf(buf, sizeof(buf), "%s,dummy", events);
	return buf;
}

/* Open the events; the default cycles falls back to cpu-clock, said once. */
static int open_events(struct session *s, bool cpu_wide)
{
	struct pk_target t = { .size = sizeof(t), .threads = s->threads, .nr_threads = s->nr_threads,
			       .inherit = !s->o->no_inherit && !cpu_wide, .enable_on_exec = s->wl_is_target,
			       .fallbacks = true };
	size_t nr_cpus = 0;
	int err;

	if (pk_cpus_online(&s->cpus, &nr_cpus) < 0)
		return -1;
	if (s->o->cpu_list) {
		free(s->cpus);
		if (pk_cpus_parse(s->o->cpu_list, &s->cpus, &nr_cpus) < 0)
			return -1;
	}
	/* Per CPU even for a task: the kernel maps inherited events only per CPU. */
	t.cpus = s->cpus;
	t.nr_cpus = nr_cpus;
	for (int attempt = 0; attempt < 2; attempt++) {
		setup_attrs(s->o, s->ev, cpu_wide);
		if ((err = pk_evlist_new(s->ev, &t, &s->l)) < 0)
			return err;
		err = pk_evlist_open(s->l);
		if (err != -ENOENT && err != -EOPNOTSUPP && err != -ENODEV)
			return err;
		if (!s->default_event || attempt)
			return err;
		/* perf's fallback where the machine has no hardware PMU. */
		if (!s->o->quiet)
			fprintf(stderr, "perfkit record: cycles cannot be sampled here (no hardware PMU?); "
				"sampling cpu-clock instead\n");
		pk_evlist_free(s->l);
		s->l = NULL;
		pk_events_free(s->ev);
		s->ev = NULL;
		if ((err = pk_events_parse(events_spec(s->o, "cpu-clock"), NULL, &s->ev)) < 0)
			return err;
	}
	return err;
}

/* Describe every event with the ids of all its fds, before any record. */
static int add_events(struct session *s)
{
	size_t nc = pk_evlist_nr_cpus(s->l), nt = pk_evlist_nr_threads(s->l);
	uint64_t *ids = calloc(nc * nt, sizeof(*ids));
	int err = ids ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < pk_events_count(s->ev); i++) {
		size_t n = 0;

		for (size_t c = 0; c < nc; c++)
			for (size_t t = 0; t < nt; t++)
				if (pk_evlist_id(s->l, i, c, t, &ids[n]) == 0)
					n++;
		err = pk_data_add_event(s->w, pk_evlist_attr(s->l, i), pk_events_desc(s->ev, i)->name,
					ids, n);
	}
	for (size_t i = 0; !err && i < pk_events_count(s->ev); i++) {
		const struct pk_event_desc *d = pk_events_desc(s->ev, i);

		if (d->leader == i && d->nr_members > 1)
			err = pk_data_add_group(s->w, i, d->nr_members);
	}
	free(ids);
	return err;
}

/* The sample's time: right after IDENTIFIER, IP and TID in our layout. */
static void note_sample(struct session *s, const struct perf_event_header *h)
{
	uint64_t time;

	s->st.samples++;
	if (h->size < 40)
		return;
	memcpy(&time, (const char *)h + 32, sizeof(time));
	if (!s->first_time || time < s->first_time)
		s->first_time = time;
	if (time > s->last_time)
		s->last_time = time;
}

/*
 * Follow the maps and mark the DSOs samples land in, as perf does for its
 * BUILD_ID table.  A sample's IP and PID sit at fixed offsets in our
 * layout (IDENTIFIER, IP, TID first); sideband is decoded in full.
 */
static void track(struct session *s, const struct perf_event_header *h)
{
	struct pk_record r;

	if (h->type == PERF_RECORD_SAMPLE) {
		uint64_t ip;
		uint32_t pid;

		if (h->size < 32)
			return;
		memcpy(&ip, (const char *)h + 16, sizeof(ip));
		memcpy(&pid, (const char *)h + 24, sizeof(pid));
		pk_maps_hit(s->maps, pid, ip,
			    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
		return;
	}
	if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2 && h->type != PERF_RECORD_COMM &&
	    h->type != PERF_RECORD_FORK)
		return;
	if (pk_record_decode(h, pk_evlist_attr(s->l, 0), &r) == 0 && pk_maps_process(s->maps, &r) < 0) {
		pk_maps_free(s->maps);	/* out of memory: go on recording, without build-ids */
		s->maps = NULL;
	}
}

/* Move everything the normal rings hold into the file (or, with
 * snapshot, the overwrite rings, paused while read); a FINISHED_ROUND
 * after it. */
static size_t drain_rings(struct session *s, bool snapshot)
{
	static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };
	size_t moved = 0;

	for (size_t k = 0; k < pk_rings_count(s->rs); k++) {
		struct pk_ring *r = pk_rings_get(s->rs, k);
		const struct perf_event_header *h;
		/* At most a ring's worth per pass: the kernel keeps writing while
		 * we read, and a busy ring must not keep us from the others, the
		 * command's exit or Ctrl-C. */
		size_t budget = pk_ring_size(r);
		int n = 0;

		if (pk_ring_is_overwrite(r) != snapshot)
			continue;	/* overwrite rings are read only as snapshots */
		if (snapshot && pk_ring_pause(r, true) < 0 && !s->st.write_err)
			s->st.write_err = pk_last_error()->code;
		while (budget && (n = pk_ring_next(r, &h)) == 1) {
			budget -= h->size < budget ? h->size : budget;
			if (h->type == PERF_RECORD_SAMPLE)
				note_sample(s, h);
			else if (h->type == PERF_RECORD_LOST && h->size >= 24) {
				uint64_t lost;

				memcpy(&lost, (const char *)h + 16, sizeof(lost));
				s->st.lost += lost;
			} else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= 16) {
				uint64_t lost;

				memcpy(&lost, (const char *)h + 8, sizeof(lost));
				s->st.lost_samples += lost;
			} else if (h->type == PERF_RECORD_THROTTLE) {
				s->st.throttled++;
			}
			if (s->maps)
				track(s, h);
			if (s->trim && h->type == PERF_RECORD_SAMPLE &&
			    pk_sample_trim_stack(h, pk_evlist_attr(s->l, 0), s->trim) > 0)
				h = s->trim;
			if (!s->st.write_err)
				s->st.write_err = pk_data_write(s->w, h, h->size);
			/* Give the space back at once: a write of the buffer can take
			 * milliseconds, long enough for a busy ring to fill up. */
			if (!snapshot)
				pk_ring_consume(r);
			moved++;
		}
		pk_ring_consume(r);
		if (snapshot)
			pk_ring_pause(r, false);
		if (n < 0 && !s->st.write_err)
			s->st.write_err = n;	/* a corrupt ring: stop, keep what we have */
	}
	/* Overwrite snapshots come out newest first and after newer sideband:
	 * no round markers, so perf sorts the whole file by time. */
	if (moved && !s->st.write_err && !s->o->overwrite)
		s->st.write_err = pk_data_write(s->w, &round, sizeof(round));
	return moved;
}

static size_t drain(struct session *s)
{
	return drain_rings(s, false);
}

static volatile sig_atomic_t snapshot_request;

static void on_usr2(int sig)
{
	(void)sig;
	snapshot_request = 1;
}

/* "SIGINT", or "signal 40" for one without an abbreviation.  Static buffer. */
static const char *sig_name(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/*
 * After SIGINT/SIGTERM the command got the signal too; one that has not
 * ended a moment later is ended as perf ends it, with SIGTERM, and then
 * with SIGKILL, so the recording stops when the user asked.
 */
static int end_command(struct pk_workload *wl, double since)
{
	double t = now() - since;
	int status = pk_workload_try_wait(wl);

	if (status != -EAGAIN || t < 0.25)
		return status;
	pk_workload_kill(wl, t < 1.25 ? SIGTERM : SIGKILL);
	return -EAGAIN;
}

/* Poll and drain until the command ends, Ctrl-C, --duration or an error. */
static int run(struct session *s)
{
	double t0 = now(), stop_at = 0;
	int status = 0;

	for (;;) {
		int n = pk_rings_poll(s->rs, 100);

		if (n > 0)
			s->st.wakeups++;
		drain(s);
		if (!s->st.write_err)	/* records reach the file at least once a second */
			s->st.write_err = pk_data_tick(s->w);
		if (snapshot_request) {	/* SIGUSR2: write what the overwrite rings hold now */
			snapshot_request = 0;
			drain_rings(s, true);
		}
		if (s->st.write_err)
			break;
		if (s->wl && (status = pk_workload_try_wait(s->wl)) != -EAGAIN)
			break;
		if (s->wl && stop_signal) {
			if (!stop_at)
				stop_at = now();
			if ((status = end_command(s->wl, stop_at)) != -EAGAIN)
				break;
		}
		if (!s->wl && (stop_signal || pk_rings_hangup(s->rs)))
			break;
		if (s->o->duration && now() - t0 >= s->o->duration) {
			if (s->wl) {
				/* Stopped as asked: not the command's failure. */
				pk_workload_kill(s->wl, SIGTERM);
				pk_workload_wait(s->wl);
				s->ended_command = true;
				status = 0;
			}
			break;
		}
	}
	return status < 0 ? 0 : status;
}

static int sink_to_file(void *arg, const struct perf_event_header *rec)
{
	struct session *s = arg;

	if (s->maps)
		track(s, rec);
	return pk_data_write(s->w, rec, rec->size);
}

/* The BUILD_ID table, as perf writes it: every DSO a sample landed in,
 * plus the vDSO, that has a build-id. */
static int add_build_ids(struct session *s)
{
	int err = 0;

	if (!s->maps)
		return 0;
	pk_maps_read_build_ids(s->maps);
	for (size_t i = 0; !err && i < pk_maps_nr_dsos(s->maps); i++) {
		const struct pk_dso *d = pk_maps_dso(s->maps, i);

		if (d->build_id_size && (d->hit || !strcmp(d->name, "[vdso]")))
			err = pk_data_add_build_id(s->w, d->name, d->build_id, d->build_id_size, d->kernel);
	}
	return err;
}

/* The process a thread belongs to (Tgid in /proc/TID/status), or -1. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/*
 * What existed before recording: the kernel's map (so kernel samples get
 * symbols), and for -p/-a the processes' names and executable maps; a
 * command starts after us, so the kernel reports its own as it execs.
 */
static int synthesize(struct session *s)
{
	const struct perf_event_attr *a = pk_evlist_attr(s->l, 0);
	uint64_t id = 0;
	unsigned flags = (s->o->data_addr ? PK_SYNTH_DATA : 0) | (s->o->namespaces ? PK_SYNTH_NAMESPACES : 0);
	int err;

	for (size_t c = 0; c < pk_evlist_nr_cpus(s->l) && !id; c++)
		pk_evlist_id(s->l, 0, c, 0, &id);
	err = pk_record_synth_kernel(a, id, sink_to_file, s);
	if (err == -EACCES) {
		if (!s->o->quiet)
			fprintf(stderr, "perfkit record: %s; %s\n", pk_last_error()->why, pk_last_error()->hint);
		err = 0;
	}
	if (!err && s->o->pids) {
		for (const char *p = s->o->pids; *p && !err;) {
			err = pk_record_synth_process((pid_t)atoi(p), a, id, flags, sink_to_file, s);
			p += strcspn(p, ",");
			p += *p == ',';
		}
	} else if (!err && s->o->tids) {
		/* Each thread's process once: its name and maps. */
		for (size_t i = 0; i < s->nr_threads && !err; i++) {
			pid_t tgid = tgid_of(s->threads[i]);
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = tgid_of(s->threads[j]) == tgid;
			if (!seen && tgid > 0)
				err = pk_record_synth_process(tgid, a, id, flags, sink_to_file, s);
		}
	} else if (!err && (s->o->all_cpus || s->o->cpu_list)) {
		err = pk_record_synth_all(a, id, flags, sink_to_file, s);
	}
	return err;
}

/* -k: the clock's resolution and a reference pair of wall-clock and clock
 * time, so perf can show sample times as wall-clock time. */
static void set_clock(struct pk_data_writer *w, int clockid)
{
	struct timespec res = { 0, 0 }, ref;
	struct timeval tod;

	clock_getres(clockid, &res);
	gettimeofday(&tod, NULL);
	clock_gettime(clockid, &ref);
	pk_data_set_clock(w, clockid, (uint64_t)res.tv_sec * 1000000000 + (uint64_t)res.tv_nsec,
			  (uint64_t)tod.tv_sec * 1000000000 + (uint64_t)tod.tv_usec * 1000,
			  (uint64_t)ref.tv_sec * 1000000000 + (uint64_t)ref.tv_nsec);
}

/*
 * DWARF samples carry sample_stack_user bytes of stack, of which only
 * dyn_size are stack: the rest is cut before writing (often half of every
 * sample).  The samples are decoded with the first event's attr, so only
 * when every event lays samples out the same way.
 */
static bool same_layout(const struct session *s)
{
	const struct perf_event_attr *a = pk_evlist_attr(s->l, 0);

	for (size_t i = 1; i < pk_events_count(s->ev); i++) {
		const struct perf_event_attr *b = pk_evlist_attr(s->l, i);

		if (b->sample_type != a->sample_type || b->read_format != a->read_format ||
		    b->sample_regs_user != a->sample_regs_user || b->sample_regs_intr != a->sample_regs_intr ||
		    b->branch_sample_type != a->branch_sample_type)
			return false;
	}
	return true;
}

/*
 * The rings: -m, or 128 pages (512 KiB) per CPU as perf.  DWARF stacks make
 * every sample ~8 KiB, so a 512 KiB ring fills within a millisecond at high
 * rates and a late wake-up loses samples; there the default is 2048 pages
 * (8 MiB), where the locked-memory limit allows it.
 */
static int map_rings(struct session *s)
{
	if (s->o->pages)
		return pk_rings_map(s->l, s->pages = s->o->pages, &s->rs);
	if (s->o->dwarf && pk_rings_map(s->l, s->pages = 2048, &s->rs) == 0)
		return 0;
	return pk_rings_map(s->l, s->pages = 128, &s->rs);
}

static int setup(struct session *s, int argc, char **argv)
{
	const struct record_opts *o = s->o;
	bool cpu_wide = o->all_cpus || o->cpu_list;

	s->default_event = !o->events;
	if (pk_events_parse(events_spec(o, o->events ? o->events : "cycles"), NULL, &s->ev) < 0)
		return cli_error("record", o->events);
	if (o->argv && pk_workload_start(o->argv, &s->wl) < 0)
		return cli_error("record", NULL);
	/* With -p/-t/-a/-C a command only says how long to record, as in perf. */
	s->wl_is_target = s->wl && !o->pids && !o->tids && !cpu_wide;
	if (s->wl_is_target) {
		if (!(s->threads = malloc(sizeof(*s->threads))))
			return CLI_EXIT_EVENT;
		s->threads[0] = pk_workload_pid(s->wl);
		s->nr_threads = 1;
	} else if (o->pids || o->tids) {
		int err = o->pids ? cli_pids_threads("record", o->pids, &s->threads, &s->nr_threads)
				  : cli_parse_ids("record", o->tids, &s->threads, &s->nr_threads);

		if (err == -EINVAL)
			return CLI_EXIT_USAGE;
		if (err < 0)
			return cli_error("record", NULL);
	}
	if (open_events(s, cpu_wide) < 0 || map_rings(s) < 0)
		return cli_error("record", o->events);
	if (o->verbose) {
		cli_print_attrs(stderr, s->l, s->ev);
		fprintf(stderr, "mmap size %zuB, %zu rings\n", (s->pages + 1) * (size_t)sysconf(_SC_PAGESIZE),
			pk_rings_count(s->rs));
	}
	for (size_t i = 0; !o->quiet && i < pk_events_count(s->ev); i++)
		if (pk_evlist_fallback(s->l, i))
			fprintf(stderr, "perfkit record: %s: %s\n", pk_events_desc(s->ev, i)->name,
				pk_evlist_fallback(s->l, i));
	if (o->dwarf && same_layout(s) && !(s->trim = malloc(65536)))
		return cli_error("record", NULL);
	if (!o->no_buildid && pk_maps_new(&s->maps) < 0)
		return cli_error("record", NULL);
	if (!strcmp(o->output, "-"))
		return cli_usage("record", "-o -: pipe mode (perf.data to a pipe) is not supported yet; "
				 "give a file");
	/* The file (and the old one, kept as .old at the end as perf does) is
	 * checked here, before anything is recorded. */
	if (pk_data_create(o->output, &s->w) < 0 || pk_data_keep_old(s->w) < 0)
		return cli_error("record", NULL);
	if (o->clockid >= 0)
		set_clock(s->w, o->clockid);
	if ((o->comp_level && pk_data_set_compression(s->w, o->comp_level) < 0) || add_events(s) < 0 ||
	    pk_data_set_cmdline(s->w, argc, argv) < 0 || synthesize(s) < 0)
		return cli_error("record", NULL);
	return 0;
}

static void teardown(struct session *s)
{
	pk_data_abort(s->w);
	pk_maps_free(s->maps);
	free(s->trim);
	pk_rings_free(s->rs);
	pk_evlist_free(s->l);
	pk_events_free(s->ev);
	pk_workload_free(s->wl);
	free(s->threads);
	free(s->cpus);
}

/*
 * Every signal whose default would kill the recorder and lose the file
 * (the hang-up of an ssh session, a timeout's SIGALRM, a closed pipe...)
 * stops the recording as Ctrl-C does; with --overwrite, SIGUSR2 writes a
 * snapshot instead.  A SIGHUP ignored already (nohup) stays ignored.
 * Installed before setup, so a signal while the events open or the
 * processes are read stops the recording before it starts.
 */
static void catch_signals(bool overwrite)
{
	static const int stops[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
				     SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT };
	struct sigaction sa = { .sa_handler = on_signal }, su = { .sa_handler = on_usr2 }, old;

	stop_signal = 0;
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (stops[i] != SIGHUP || sigaction(SIGHUP, NULL, &old) < 0 || old.sa_handler != SIG_IGN)
			sigaction(stops[i], &sa, NULL);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	if (overwrite) {
		snapshot_request = 0;
		sigaction(SIGUSR2, &su, NULL);
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .output = "perf.data", .clockid = -1 };
	struct session s = { .o = &o };
	uint64_t bytes;
	int err, status;

	err = parse_opts(argc, argv, &o);
	if (err) {
		free(o.events);
		return err < 0 ? 0 : err;
	}
	catch_signals(o.overwrite);
	if ((err = setup(&s, argc, argv))) {
		teardown(&s);
		free(o.events);
		return err;
	}
	forward_to = s.wl;
	if ((!s.wl_is_target && pk_evlist_enable(s.l) < 0) || (s.wl && pk_workload_go(s.wl) < 0)) {
		cli_error("record", NULL);
		teardown(&s);
		free(o.events);
		return CLI_EXIT_EVENT;
	}
	status = run(&s);
	forward_to = NULL;
	if (!o.quiet && stop_signal)
		fprintf(stderr, "perfkit record: stopped by %s; %s keeps everything recorded until then\n",
			sig_name(stop_signal), o.output);
	else if (!o.quiet && s.wl && !s.ended_command && pk_workload_signal(s.wl))
		fprintf(stderr, "perfkit record: the command was killed by %s (%s)\n",
			sig_name(pk_workload_signal(s.wl)), strsignal(pk_workload_signal(s.wl)));
	pk_evlist_disable(s.l);
	drain(&s);
	if (o.overwrite)
		drain_rings(&s, true);	/* the newest data, kept to the end */
	bytes = pk_data_size(s.w);
	if (s.first_time)
		pk_data_set_sample_time(s.w, s.first_time, s.last_time);
	if (s.st.write_err) {	/* say what stopped us; what was captured is still saved */
		fprintf(stderr, "perfkit record: writing %s stopped: %s\n", o.output,
			strerror(-s.st.write_err));
		if (s.st.write_err == -ENOSPC)
			fprintf(stderr, "  hint: the disk is full: free space, or record less "
				"(-F, -m, -z, --duration)\n");
	}
	if (add_build_ids(&s) < 0)
		fprintf(stderr, "perfkit record: out of memory for the build-id table; %s has none\n",
			o.output);
	err = pk_data_finish(s.w);
	s.w = NULL;
	if (err > 0)	/* records past the full disk (and a few to make room) were cut */
		bytes -= (uint64_t)err;
	if (err < 0) {
		cli_error("record", NULL);
		status = CLI_EXIT_EVENT;
	} else if (!o.quiet) {
		fprintf(stderr, "[ perfkit record: Woken up %llu times to write data ]\n",
			(unsigned long long)s.st.wakeups);
		if (s.st.lost)
			fprintf(stderr, "perfkit record: %llu samples were lost: the rings filled up; "
				"use a bigger -m or a lower -F\n", (unsigned long long)s.st.lost);
		if (s.st.lost_samples)
			fprintf(stderr, "perfkit record: the kernel could not take %llu samples (LOST_SAMPLES)\n",
				(unsigned long long)s.st.lost_samples);
		if (s.st.throttled)
			fprintf(stderr, "perfkit record: the kernel throttled sampling %llu times: it was using "
				"too much CPU (kernel.perf_event_max_sample_rate, "
				"kernel.perf_cpu_time_max_percent); use a lower -F\n",
				(unsigned long long)s.st.throttled);
		if (s.st.write_err)
			fprintf(stderr, "[ perfkit record: Captured %llu samples; wrote the %.3f MB of them that "
				"fit in %s ]\n", (unsigned long long)s.st.samples, bytes / 1048576.0, o.output);
		else
			fprintf(stderr, "[ perfkit record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
				bytes / 1048576.0, o.output, (unsigned long long)s.st.samples);
	}
	if (s.st.write_err && !status)
		status = CLI_EXIT_EVENT;
	/* Stopped by a signal: the file is whole.  As perf, Ctrl-C exits 0 and
	 * any other signal 128+signal, whatever it did to the command. */
	if (stop_signal && err >= 0 && !s.st.write_err)
		status = stop_signal == SIGINT ? 0 : 128 + stop_signal;
	teardown(&s);
	free(o.events);
	return status;
}
