/* SPDX-License-Identifier: MIT */
/*
 * cmd-record.c - `perfkit record`: sample a command (or -p/-a/-C targets)
 * into a perf.data file perf reads.  The options, the signals, the poll
 * loop and the messages are here; the recording itself (perf record's
 * sample layout, synthesis, the ring -> file pump, build-ids, loss counts)
 * is the library's pk_recorder.  The file is whole whatever ends the run:
 * the command exiting, Ctrl-C or any other terminating signal, --duration,
 * or a full disk; after SIGKILL its partial file still reads.  With -o -
 * the recording streams perf's pipe format to stdout instead.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct record_opts {
	char *events;		/* -e, joined; NULL: cycles, falling back to cpu-clock */
	struct pk_recorder_opts r;	/* the sampling options; the target is set in setup */
	struct cli_target target;	/* -p, -t, -a, -C */
	const char *output;	/* -o, default perf.data */
	unsigned pages;		/* -m */
	unsigned long long pages_asked;	/* before rounding up to a power of two */
	double duration;	/* --duration seconds, 0 = none */
	bool quiet;
	bool no_cache;		/* -N: no build-id cache */
	char cache_dir[4096];	/* the build-id cache, when used */
	int verbose;		/* -v: the attrs as opened and the ring size */
	char **argv;
};

/* The ids of the long-only options (the others' are their letters). */
enum {
	OPT_SAMPLE_CPU = 0x100, OPT_NO_INHERIT, OPT_DURATION, OPT_CALL_GRAPH, OPT_USER_REGS,
	OPT_INTR_REGS, OPT_SWITCH_EVENTS, OPT_NAMESPACES, OPT_OVERWRITE,
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
	{ "freq", 'F', CLI_ARG_REQUIRED, 'F', "HZ", "samples per second (default 4000)" },
	{ "count", 'c', CLI_ARG_REQUIRED, 'c', "N", "a sample every N events instead of -F" },
	{ NULL, 'g', CLI_ARG_NONE, 'g', NULL, "record call chains (frame pointers)" },
	{ "call-graph", 0, CLI_ARG_REQUIRED, OPT_CALL_GRAPH, "MODE",
	  "fp, dwarf[,STACK_BYTES] (default 8192) or lbr" },
	{ "data", 'd', CLI_ARG_NONE, 'd', NULL,
	  "record the data addresses of samples (and data mmaps)" },
	{ "timestamp", 'T', CLI_ARG_NONE, 'T', NULL, "record sample times (always on)" },
	{ "raw-samples", 'R', CLI_ARG_NONE, 'R', NULL, "record the raw data of tracepoint samples" },
	{ "branch-any", 'b', CLI_ARG_NONE, 'b', NULL, "record the branch stack (any taken branch)" },
	{ "branch-filter", 'j', CLI_ARG_REQUIRED, 'j', "FILTER",
	  "record the branch stack with FILTER (any,u,k,call,...)" },
	{ "user-regs", 0, CLI_ARG_REQUIRED, OPT_USER_REGS, "REGS", NULL, .with_next = true },
	{ "intr-regs", 0, CLI_ARG_REQUIRED, OPT_INTR_REGS, "REGS", "sample these registers (AX,BX,IP,...)" },
	{ "switch-events", 0, CLI_ARG_NONE, OPT_SWITCH_EVENTS, NULL, "record context switches" },
	{ "namespaces", 0, CLI_ARG_NONE, OPT_NAMESPACES, NULL, "record namespace changes" },
	{ "compression-level", 'z', CLI_ARG_OPTIONAL, 'z', "N",
	  "compress the records with zstd (level N: 1 to 22, default 1; attached: -z3)" },
	{ "overwrite", 0, CLI_ARG_NONE, OPT_OVERWRITE, NULL,
	  "keep only the newest samples (the rings overwrite the oldest); they are written at the "
	  "end and on each SIGUSR2" },
	{ "output", 'o', CLI_ARG_REQUIRED, 'o', "FILE",
	  "write FILE (default perf.data; an existing one is kept as .old); - streams perf's pipe format to stdout" },
	{ "mmap-pages", 'm', CLI_ARG_REQUIRED, 'm', "N",
	  "ring buffer pages per CPU (default 128; 2048 with DWARF stacks, where they may be "
	  "locked), or a size: 512K, 4M; rounded up to a power of two pages" },
	{ "all-cpus", 'a', CLI_ARG_NONE, 'a', NULL, "every task on every CPU" },
	{ "cpu", 'C', CLI_ARG_REQUIRED, 'C', "CPUS", "every task on these CPUs" },
	{ "pid", 'p', CLI_ARG_REQUIRED, 'p', "PIDS", "these processes" },
	{ "tid", 't', CLI_ARG_REQUIRED, 't', "TIDS", "these threads" },
	{ "sample-cpu", 0, CLI_ARG_NONE, OPT_SAMPLE_CPU, NULL, "record the CPU of each sample" },
	{ "no-inherit", 0, CLI_ARG_NONE, OPT_NO_INHERIT, NULL, "do not follow the command's children" },
	{ "duration", 0, CLI_ARG_REQUIRED, OPT_DURATION, "S", "stop after S seconds" },
	{ "no-buildid", 'B', CLI_ARG_NONE, 'B', NULL,
	  "write no build-id table (BUILD_ID lists the binaries samples landed in, so perf report "
	  "finds the same ones)" },
	{ "no-buildid-cache", 'N', CLI_ARG_NONE, 'N', NULL,
	  "do not copy the binaries samples landed in into the build-id cache ($PERFKIT_BUILDID_DIR, "
	  "$PERF_BUILDID_DIR, perf's buildid.dir or ~/.debug), which lets a report find them after "
	  "they are rebuilt" },
	{ "clockid", 'k', CLI_ARG_REQUIRED, 'k', "CLOCK",
	  "time samples with CLOCK: monotonic, monotonic_raw, realtime, boottime, tai, or a clock "
	  "number" },
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
static int parse_sampling(struct record_opts *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'F':
		/* perf's -F is an unsigned int of Hz; the kernel's limit is a sysctl. */
		if (cli_num_u64("record", "-F", arg, 1, UINT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		o->r.freq = (unsigned)v;
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
	case OPT_NO_INHERIT: o->r.no_inherit = true; break;
	case OPT_CALL_GRAPH:
		if (parse_call_graph(o, arg))
			return CLI_EXIT_USAGE;
		break;
	case 'd': o->r.data_addr = true; break;
	case 'T': break;	/* sample times are always recorded */
	case 'R': o->r.raw = true; break;
	case 'b': o->r.branch_type = PERF_SAMPLE_BRANCH_ANY; break;
	case 'j':
		if (pk_branch_filter_parse(arg, &o->r.branch_type) < 0)
			return cli_error("record", arg), CLI_EXIT_USAGE;
		break;
	case OPT_USER_REGS:
	case OPT_INTR_REGS:
		if (pk_regs_parse(arg, c == OPT_USER_REGS ? &o->r.user_regs : &o->r.intr_regs) < 0)
			return cli_error("record", arg), CLI_EXIT_USAGE;
		break;
	case OPT_SWITCH_EVENTS: o->r.switch_events = true; break;
	case OPT_NAMESPACES: o->r.namespaces = true; break;
	case OPT_OVERWRITE: o->r.overwrite = true; break;
	case 'z':
		/* -z, -zN or --compression-level[=N], as perf 6.1 takes them:
		 * the level is attached, never the next argument. */
		if (arg && cli_num_u64("record", "-z", arg, 1, 22, &v) < 0)
			return CLI_EXIT_USAGE;
		o->r.compression = arg ? (int)v : 1;
		break;
	case 'B': o->r.no_build_ids = true; break;
	case 'k':
		if (parse_clockid(arg, &o->r.clockid))
			return CLI_EXIT_USAGE;
		o->r.use_clockid = true;
		break;
	case 'N': o->no_cache = true; break;
	default: return 1;
	}
	return 0;
}

/* What the options say together, after all of them are read. */
static int check_opts(struct record_opts *o, int argc)
{
	if (o->pages && o->pages != o->pages_asked && !o->quiet)
		fprintf(stderr, "perfkit record: rounding the ring size up to %u pages (%lld KiB), a power "
			"of two\n", o->pages, (long long)o->pages * sysconf(_SC_PAGESIZE) / 1024);
	if (o->r.freq && o->r.period)
		return cli_usage("record", "-F and -c both set how often to sample: give one");
	return cli_target_check("record", &o->target, optind < argc);
}

/* One option into *o (cli_opt_fn). */
static int record_option(void *ctx, int id, const char *arg)
{
	struct record_opts *o = ctx;
	int err = parse_sampling(o, id, arg);

	if (err == 1)
		err = cli_target_option(&o->target, id, arg);
	if (err != 1)
		return err;
	switch (id) {
	case 'e':
		return cli_events_add("record", &o->events, arg);
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
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct record_opts *o)
{
	int err = cli_opts_parse(&cmd_record_opts, argc, argv, record_option, o);

	if (err || (err = check_opts(o, argc)))
		return err;
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}

struct session {
	struct record_opts *o;
	struct pk_recorder *rec;
	struct pk_data_writer *w;
	struct pk_workload *wl;
	bool wl_is_target;	/* the command is what is sampled (not -p/-t/-a/-C with a command) */
	bool ended_command;	/* --duration ended the command: its signal is ours */
	int write_err;		/* a flush of the file failed (pk_data_writer_tick) */
};

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
	double t = cli_now() - since;
	int status = pk_workload_try_wait(wl);

	if (status != -EAGAIN || t < 0.25)
		return status;
	pk_workload_kill(wl, t < 1.25 ? SIGTERM : SIGKILL);
	return -EAGAIN;
}

/* Poll and drain until the command ends, Ctrl-C, --duration or an error. */
static int run(struct session *s)
{
	double t0 = cli_now(), stop_at = 0;
	int status = 0;

	for (;;) {
		int err;

		pk_recorder_poll(s->rec, 100);
		err = pk_recorder_drain(s->rec);
		/* Records reach the file at least once a second, so a recorder
		 * killed outright leaves a file that reads. */
		if (err >= 0 && (err = pk_data_writer_tick(s->w)) < 0)
			s->write_err = err;
		if (snapshot_request) {	/* SIGUSR2: write what the overwrite rings hold now */
			snapshot_request = 0;
			err = pk_recorder_snapshot(s->rec);
		}
		if (err < 0)
			break;	/* the file keeps what was written; finish says why */
		if (s->wl && (status = pk_workload_try_wait(s->wl)) != -EAGAIN)
			break;
		if (s->wl && cli_stop_signal()) {
			if (!stop_at)
				stop_at = cli_now();
			if ((status = end_command(s->wl, stop_at)) != -EAGAIN)
				break;
		}
		if (!s->wl && (cli_stop_signal() || pk_recorder_hangup(s->rec)))
			break;
		if (s->o->duration && cli_now() - t0 >= s->o->duration) {
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

/* The target: the command, or -p/-t (parsed here), or -a/-C as given. */
static int set_target(struct session *s, struct pk_recorder_opts *ro)
{
	struct cli_target *t = &s->o->target;
	int err;

	/* With -p/-t/-a/-C a command only says how long to record, as in perf. */
	s->wl_is_target = s->wl && !cli_target_given(t);
	if (s->wl_is_target)
		ro->workload = pk_workload_pid(s->wl);
	/* The recorder reads the processes' threads itself. */
	if ((err = cli_target_build("record", t, false, false)))
		return err;
	ro->pids = t->pids ? t->threads : NULL;
	ro->nr_pids = t->pids ? t->nr_threads : 0;
	ro->tids = t->tids ? t->threads : NULL;
	ro->nr_tids = t->tids ? t->nr_threads : 0;
	ro->all_cpus = t->all_cpus;
	ro->cpu_list = t->cpu_list;
	return 0;
}

/* What the user should know about how the events were opened. */
static void say_opened(const struct session *s)
{
	const struct pk_events *ev = pk_recorder_events(s->rec);
	const struct pk_evlist *l = pk_recorder_evlist(s->rec);

	if (pk_recorder_fell_back(s->rec) && !s->o->quiet)
		fprintf(stderr, "perfkit record: cycles cannot be sampled here (no hardware PMU?); "
			"sampling cpu-clock instead\n");
	if (s->o->verbose) {
		cli_print_attrs(stderr, l, ev);
		fprintf(stderr, "mmap size %zuB, %zu rings\n",
			(pk_recorder_pages(s->rec) + 1) * (size_t)sysconf(_SC_PAGESIZE),
			pk_recorder_nr_rings(s->rec));
	}
	for (size_t i = 0; !s->o->quiet && i < pk_events_nr(ev); i++)
		if (pk_evlist_fallback(l, i))
			fprintf(stderr, "perfkit record: %s: %s\n", pk_events_desc(ev, i)->name,
				pk_evlist_fallback(l, i));
}

static bool streaming(const struct session *s)
{
	return !strcmp(s->o->output, "-");
}

/*
 * -o -: perf's pipe format on stdout, on a descriptor of its own; stdout
 * itself becomes stderr, before the command is forked, so the command's
 * output goes to stderr (as perf does) and nothing but the stream reaches
 * the reader.  A terminal is refused: the stream is binary.
 */
static int open_stream(struct session *s)
{
	int fd;

	if (isatty(STDOUT_FILENO))
		return cli_usage("record", "-o - writes a binary stream to stdout, which is a terminal: "
				 "pipe it (| perf report -i -) or redirect it (> FILE)");
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "perfkit record: -o -: cannot take over stdout: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return CLI_EXIT_EVENT;
	}
	if (pk_data_writer_create_pipe(fd, &s->w) < 0) {
		close(fd);
		return cli_error("record", NULL);
	}
	return 0;
}

static int setup(struct session *s, int argc, char **argv)
{
	struct record_opts *o = s->o;
	struct pk_recorder_opts ro = o->r;
	int err;

	cli_tracefs_need(o->events ? o->events : "cycles");
	if (streaming(s) && (err = open_stream(s)))
		return err;
	ro.pages = o->pages;
	if (!o->no_cache && !(ro.buildid_dir = cli_buildid_dir(o->cache_dir, sizeof(o->cache_dir))) &&
	    !o->quiet)
		fprintf(stderr, "perfkit record: warning: the build-id cache directory's name is too "
			"long; no build-id cache\n");
	if (o->argv && pk_workload_start(o->argv, &s->wl) < 0)
		return cli_error("record", NULL);
	if ((err = set_target(s, &ro)))
		return err;
	if (pk_recorder_new(o->events, &ro, &s->rec) < 0)
		return cli_error("record", o->events);
	say_opened(s);
	/* The file (and the old one, kept as .old at the end as perf does) is
	 * checked here, before anything is recorded. */
	if (!s->w && (pk_data_writer_create(o->output, &s->w) < 0 || pk_data_writer_keep_old(s->w) < 0))
		return cli_error("record", NULL);
	if (pk_data_writer_set_cmdline(s->w, argc, argv) < 0 || pk_recorder_set_writer(s->rec, s->w) < 0)
		return cli_error("record", NULL);
	return 0;
}

static void teardown(struct session *s)
{
	pk_data_writer_abort(s->w);
	pk_recorder_free(s->rec);
	pk_workload_free(s->wl);
	cli_target_free(&s->o->target);
	free(s->o->events);
}

/* Why the recording ended, when it was not the command's own end. */
static void say_ended(const struct session *s)
{
	if (s->o->quiet)
		return;
	if (cli_stop_signal() && streaming(s))
		fprintf(stderr, "perfkit record: stopped by %s; the stream carries everything recorded "
			"until then\n", sig_name(cli_stop_signal()));
	else if (cli_stop_signal())
		fprintf(stderr, "perfkit record: stopped by %s; %s keeps everything recorded until then\n",
			sig_name(cli_stop_signal()), s->o->output);
	else if (s->wl && !s->ended_command && pk_workload_signal(s->wl))
		fprintf(stderr, "perfkit record: the command was killed by %s (%s)\n",
			sig_name(pk_workload_signal(s->wl)), strsignal(pk_workload_signal(s->wl)));
}

/* After pk_recorder_finish: what stopped the writing, or the build-ids. */
static void say_finish_error(const struct session *s, const struct pk_recorder_stats *st, int err)
{
	if (st->sink_error) {	/* say what stopped us; what was captured is still saved */
		fprintf(stderr, "perfkit record: writing %s stopped: %s\n", s->o->output,
			strerror(-st->sink_error));
		if (st->sink_error == -ENOSPC)
			fprintf(stderr, "  hint: the disk is full: free space, or record less "
				"(-F, -m, -z, --duration)\n");
	} else if (err < 0) {
		fprintf(stderr, "perfkit record: out of memory for the build-id table; %s has none\n",
			s->o->output);
	}
}

/* perf's summary, and what was lost on the way. */
static void say_summary(const struct session *s, const struct pk_recorder_stats *st, uint64_t bytes)
{
	fprintf(stderr, "[ perfkit record: Woken up %llu times to write data ]\n",
		(unsigned long long)st->wakeups);
	if (st->lost)
		fprintf(stderr, "perfkit record: %llu samples were lost: the rings filled up; "
			"use a bigger -m or a lower -F\n", (unsigned long long)st->lost);
	if (st->lost_samples)
		fprintf(stderr, "perfkit record: the kernel could not take %llu samples (LOST_SAMPLES)\n",
			(unsigned long long)st->lost_samples);
	if (st->throttled)
		fprintf(stderr, "perfkit record: the kernel throttled sampling %llu times: it was using "
			"too much CPU (kernel.perf_event_max_sample_rate, "
			"kernel.perf_cpu_time_max_percent); use a lower -F\n",
			(unsigned long long)st->throttled);
	if (st->sink_error)
		fprintf(stderr, "[ perfkit record: Captured %llu samples; wrote the %.3f MB of them that "
			"fit in %s ]\n", (unsigned long long)st->samples, bytes / 1048576.0, s->o->output);
	else
		fprintf(stderr, "[ perfkit record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			bytes / 1048576.0, s->o->output, (unsigned long long)st->samples);
}

/* The last drain, the file's end, the messages.  Returns the exit status. */
static int finish(struct session *s, int status)
{
	struct pk_recorder_stats st = { .size = sizeof(st) };
	int err = pk_recorder_finish(s->rec), sig;
	uint64_t bytes = pk_data_writer_size(s->w);

	pk_recorder_stats(s->rec, &st);
	if (!st.sink_error)
		st.sink_error = s->write_err;	/* a flush of the file failed */
	if (st.sink_error != -EPIPE)
		say_finish_error(s, &st, err);
	err = pk_data_writer_finish(s->w);
	s->w = NULL;
	/* -o -: the reader went away.  perf dies of the SIGPIPE; we stop, say
	 * so, and exit with the status that death would give. */
	if (err == -EPIPE || st.sink_error == -EPIPE) {
		if (!s->o->quiet)
			fprintf(stderr, "perfkit record: the reader of the stream went away (broken pipe); "
				"recording stopped after %llu samples\n", (unsigned long long)st.samples);
		return 128 + SIGPIPE;
	}
	if (err > 0)	/* records past the full disk (and a few to make room) were cut */
		bytes -= (uint64_t)err;
	if (err < 0) {
		cli_error("record", NULL);
		return CLI_EXIT_EVENT;
	}
	if (!s->o->quiet)
		say_summary(s, &st, bytes);
	if (st.buildid_cache_failed && !s->o->quiet)
		fprintf(stderr, "perfkit record: warning: %llu of the binaries could not be put into the "
			"build-id cache (the recording is whole); the first: %s\n",
			(unsigned long long)st.buildid_cache_failed, pk_recorder_warning(s->rec));
	if (st.sink_error)
		return status ? status : CLI_EXIT_EVENT;
	/* Stopped by a signal: the file is whole.  As perf, Ctrl-C exits 0 and
	 * any other signal 128+signal, whatever it did to the command. */
	if ((sig = cli_stop_signal()))
		return sig == SIGINT ? 0 : 128 + sig;
	return status;
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
	struct sigaction su = { .sa_handler = on_usr2 };

	cli_stop_reset();
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		cli_stop_catch(stops[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		cli_stop_catch(sig);
	if (overwrite) {
		snapshot_request = 0;
		sigaction(SIGUSR2, &su, NULL);
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .output = "perf.data", .r = { .size = sizeof(o.r) } };
	struct session s = { .o = &o };
	int err, status;

	err = parse_opts(argc, argv, &o);
	if (err) {
		free(o.events);
		return err < 0 ? 0 : err;
	}
	catch_signals(o.r.overwrite);
	if ((err = setup(&s, argc, argv))) {
		teardown(&s);
		return err;
	}
	cli_stop_forward(s.wl, false);
	if (pk_recorder_start(s.rec) < 0 || (s.wl && pk_workload_go(s.wl) < 0)) {
		cli_error("record", NULL);
		teardown(&s);
		return CLI_EXIT_EVENT;
	}
	if (!o.quiet && pk_recorder_warning(s.rec))
		fprintf(stderr, "perfkit record: %s\n", pk_recorder_warning(s.rec));
	status = run(&s);
	cli_stop_forward(NULL, false);
	say_ended(&s);
	status = finish(&s, status);
	teardown(&s);
	return status;
}
