/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c - `perfkit stat`: count events while a command runs and print
 * them in perf stat's layout (or perf's CSV with -x).  The command is held
 * before exec until its counters are open with enable_on_exec, so the
 * counts are the command's alone.  This first version counts a command;
 * the other targets (-p, -t, -a, -C, -G) and the other outputs follow.
 */
#include "stat.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
		       "cycles,instructions,branches,branch-misses"

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
		"  -D, --delay MS       start counting MS milliseconds after the command starts\n"
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

/* A whole number of at least `min` for option `opt`; reports a bad one. */
static int parse_uint(const char *opt, const char *arg, unsigned min, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || v < min || v > 100000000) {
		cli_usage("stat", "%s needs a whole number%s, not '%s'", opt,
			  min == 10 ? " of milliseconds, at least 10" : min ? " of at least 1" : "", arg);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct stat_opts *o)
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
	while ((c = getopt_long(argc, argv, "+e:p:t:aC:G:Ar:nI:D:x:jqo:h", longopts, NULL)) != -1) {
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
			o->sep = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 0x100:
			o->append = true;
			break;
		case 'r': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !n || n > 100000 || optarg[0] == '-')
				return cli_usage("stat", "-r needs a number of runs from 1 to 100000, not '%s'",
						 optarg);
			o->repeat = (unsigned)n;
			break;
		}
		case 'n':
			o->null_run = true;
			break;
		case 'I':
			if (parse_uint("-I", optarg, 10, &o->interval_ms))
				return CLI_EXIT_USAGE;
			break;
		case 0x101:
			if (parse_uint("--interval-count", optarg, 1, &o->interval_count))
				return CLI_EXIT_USAGE;
			break;
		case 'D':
			if (parse_uint("-D", optarg, 0, &o->delay_ms))
				return CLI_EXIT_USAGE;
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
	if (o->per && o->repeat > 1)
		return cli_usage("stat", "-r with --per-core/die/socket/node is not supported yet");
	if (o->per && o->interval_ms)
		return cli_usage("stat", "-I with --per-core/die/socket/node is not supported yet");
	if ((o->no_aggr || o->per_thread) && o->repeat > 1)
		return cli_usage("stat", "-r with -A or --per-thread is not supported yet");
	if (o->interval_ms && (o->repeat > 1 || o->no_aggr || o->per_thread))
		return cli_usage("stat", "-I with -r, -A or --per-thread is not supported yet");
	if (o->interval_count && !o->interval_ms)
		return cli_usage("stat", "--interval-count needs -I MS");
	if (o->delay_ms && optind >= argc)
		return cli_usage("stat", "-D delays counting after a command starts: give one after --");
	if (o->repeat > 1 && optind >= argc)
		return cli_usage("stat", "-r repeats a command: give one after --");
	if (o->null_run && optind >= argc)
		return cli_usage("stat", "-n times a command: give one after --");
	o->argv = optind < argc ? argv + optind : NULL;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct pk_workload *forward_to;
static volatile sig_atomic_t stop_signal;

/* Ctrl-C stops counting; with a command, the command gets it (like perf). */
static void on_signal(int sig)
{
	if (forward_to)
		pk_workload_kill(forward_to, sig);
	stop_signal = sig;	/* and no further -r runs start */
}

/* Parse "123,456" into pids; a bad list is reported here. */
static int parse_ids(const char *list, pid_t **out, size_t *nr)
{
	size_t n = 1, k = 0;
	const char *p = list;
	pid_t *ids;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	ids = calloc(n, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	while (k < n) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v <= 0 || v > INT32_MAX || (*end && *end != ',')) {
			free(ids);
			cli_usage("stat", "'%s' is not a list of process or thread ids (e.g. 1234,5678)", list);
			return -EINVAL;
		}
		ids[k++] = (pid_t)v;
		p = end + (*end == ',');
	}
	*out = ids;
	*nr = n;
	return 0;
}

/* -p: every thread of every process given. */
static int pids_threads(const char *list, pid_t **tids, size_t *nr)
{
	pid_t *pids, *all = NULL;
	size_t nr_pids, n = 0;

	if (parse_ids(list, &pids, &nr_pids) < 0)
		return -EINVAL;
	for (size_t i = 0; i < nr_pids; i++) {
		pid_t *t, *grown;
		size_t k;

		if (pk_pid_threads(pids[i], &t, &k) < 0) {
			free(pids);
			free(all);
			return -ESRCH;
		}
		grown = realloc(all, (n + k) * sizeof(*all));
		if (!grown) {
			free(t);
			free(pids);
			free(all);
			return -ENOMEM;
		}
		all = grown;
		memcpy(all + n, t, k * sizeof(*t));
		n += k;
		free(t);
	}
	free(pids);
	*tids = all;
	*nr = n;
	return 0;
}

struct plan {
	struct pk_target t;
	pid_t *threads;
	int *cpus;
	const char *list_for_errors;	/* the option text errors point into */
};

static int make_target(const struct stat_opts *o, pid_t workload, struct plan *pl)
{
	size_t n = 0;

	memset(pl, 0, sizeof(*pl));
	pl->t.size = sizeof(pl->t);
	pl->t.inherit = !o->no_inherit;
	pl->t.skip_unsupported = true;
	pl->t.fallbacks = true;
	if (o->pids) {
		pl->list_for_errors = o->pids;
		int err = pids_threads(o->pids, &pl->threads, &n);

		if (err < 0)
			return err == -EINVAL ? -2 : -1;
		pl->t.threads = pl->threads, pl->t.nr_threads = n;
	} else if (o->tids) {
		pl->list_for_errors = o->tids;
		if (parse_ids(o->tids, &pl->threads, &n) < 0)
			return -2;
		pl->t.threads = pl->threads, pl->t.nr_threads = n;
	} else if (o->all_cpus || o->cpu_list) {
		pl->list_for_errors = o->cpu_list;
		if ((o->cpu_list ? pk_cpus_parse(o->cpu_list, &pl->cpus, &n) : pk_cpus_online(&pl->cpus, &n)) < 0)
			return -1;
		pl->t.cpus = pl->cpus, pl->t.nr_cpus = n;
		pl->t.cgroup = o->cgroup;
	} else {
		pl->threads = malloc(sizeof(*pl->threads));
		if (!pl->threads)
			return -1;
		pl->threads[0] = workload;
		pl->t.threads = pl->threads, pl->t.nr_threads = 1;
		/* Count the command only, from its exec; -D enables later by hand. */
		pl->t.enable_on_exec = !o->delay_ms;
	}
	return 0;
}

/* -A / --per-thread: keep each CPU x thread's count of event i. */
static int read_slots(struct pk_evlist *l, size_t i, struct result *r)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);

	if (!r->per && !(r->per = calloc(nc * nt, sizeof(*r->per))))
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++)
		for (size_t t = 0; t < nt; t++) {
			int err = pk_evlist_read_one(l, i, c, t, &r->per[c * nt + t]);

			if (err < 0)
				return err;
		}
	return 0;
}

/* Remember which CPUs and threads the slots are, and the threads' names. */
static int save_slots(struct pk_evlist *l, struct stat_summary *s, char **argv, bool topology)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);

	if (s->cpus)
		return 0;
	s->cpus = calloc(nc, sizeof(*s->cpus));
	s->tids = calloc(nt, sizeof(*s->tids));
	s->comm = calloc(nt, sizeof(*s->comm));
	if (!s->cpus || !s->tids || !s->comm)
		return -ENOMEM;
	s->nr_cpus = nc;
	s->nr_threads = nt;
	s->topo = calloc(nc, sizeof(*s->topo));
	if (!s->topo)
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++) {
		s->cpus[c] = pk_evlist_cpu(l, c);
		if (topology && pk_cpu_topology(s->cpus[c], &s->topo[c]) < 0) {
			cli_error("stat", NULL);
			return -ENOENT;
		}
	}
	for (size_t t = 0; t < nt; t++) {
		char path[64];
		FILE *f;

		s->tids[t] = pk_evlist_thread(l, t);
		snprintf(s->comm[t], sizeof(s->comm[t]), "%s", "?");
		if (argv) {	/* the held command: name it as it will be after exec */
			const char *b = strrchr(argv[0], '/');

			snprintf(s->comm[t], sizeof(s->comm[t]), "%s", b ? b + 1 : argv[0]);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)s->tids[t]);
		if ((f = fopen(path, "r"))) {
			if (fgets(s->comm[t], sizeof(s->comm[t]), f))
				s->comm[t][strcspn(s->comm[t], "\n")] = '\0';
			fclose(f);
		}
	}
	return 0;
}

/* Say what had to change for events to count here: each cause once, with
 * the events it applied to. */
static void report_fallbacks(struct pk_evlist *l, struct pk_events *ev)
{
	size_t nr = pk_events_count(ev);

	for (size_t i = 0; i < nr; i++) {
		const char *note = pk_evlist_fallback(l, i);
		bool seen = false;

		for (size_t j = 0; note && j < i; j++)
			seen |= pk_evlist_fallback(l, j) && !strcmp(pk_evlist_fallback(l, j), note);
		if (!note || seen)
			continue;
		fprintf(stderr, "perfkit stat: ");
		for (size_t j = i, n = 0; j < nr; j++)
			if (pk_evlist_fallback(l, j) && !strcmp(pk_evlist_fallback(l, j), note))
				fprintf(stderr, "%s%s", n++ ? ", " : "", pk_events_desc(ev, j)->name);
		fprintf(stderr, ": %s\n", note);
	}
}

/* perf names an event it fell back to user space for "NAME:u"; buf is left
 * empty when the event shows under its own name. */
static void shown_name(const struct pk_evlist *l, size_t i, const struct pk_event_desc *d,
		       char *buf, size_t len)
{
	const struct perf_event_attr *a = pk_evlist_attr(l, i);

	buf[0] = '\0';
	if (a->exclude_kernel && !d->attr.exclude_kernel && !strchr(d->name, ':') &&
	    !strchr(d->name, '/'))
		snprintf(buf, len, "%s:u", d->name);
}

/* Whether counting should end: the command exited (its status in *status),
 * a signal arrived, or every -p/-t task is gone. */
static bool finished(struct pk_workload *w, const struct plan *pl, int *status)
{
	if (w) {
		int st = pk_workload_try_wait(w);

		if (st == -EAGAIN)
			return false;
		*status = st;
		return true;
	}
	if (stop_signal)
		return true;
	for (size_t i = 0; i < pl->t.nr_threads; i++)
		if (kill(pl->t.threads[i], 0) == 0 || errno == EPERM)
			return false;
	return pl->t.nr_threads > 0;
}

static void nap_until(double when)
{
	double left = when - now();
	struct timespec ts;

	if (left <= 0)
		return;
	if (left > 0.005)
		left = 0.005;	/* wake often enough to notice the command exit */
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(left * 1e9);
	nanosleep(&ts, NULL);
}

/* Without a command: count until a signal, or until every -p/-t task is gone. */
static void wait_for_stop(const struct plan *pl)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	int st;

	while (!finished(NULL, pl, &st))
		nanosleep(&tick, NULL);
}

/* -D: let time pass uncounted, unless the command ends first. */
static void pause_until(double when, struct pk_workload *w, const struct plan *pl)
{
	int st;

	while (now() < when && !finished(w, pl, &st) && !stop_signal)
		nap_until(when);
}

/* -I: print each interval's counts until the end (or --interval-count, after
 * which a command still running is sent SIGTERM, like perf).  Returns the
 * command's exit status, or 0. */
static int intervals(const struct stat_opts *o, struct pk_events *ev, struct pk_evlist *l,
		     struct pk_workload *w, const struct plan *pl, double t0)
{
	size_t nr = pk_events_count(ev);
	struct pk_count *prev = calloc(nr ? nr : 1, sizeof(*prev));
	struct result *cur = calloc(nr ? nr : 1, sizeof(*cur));
	double tick = o->interval_ms / 1000.0, next = t0 + tick;
	unsigned n = 0;
	int status = 0;
	bool done = false;

	while (prev && cur && !done) {
		size_t k = 0;

		double at;

		while (now() < next && !(done = finished(w, pl, &status)))
			nap_until(next);
		/* Like perf, the last interval may be short: the command ended. */
		at = now();
		for (size_t i = 0; l && i < nr; i++) {
			struct pk_count c;
			int err = pk_evlist_read(l, i, &c);

			/* The default set leaves out what cannot count here. */
			if (err == -ENODATA && !o->events)
				continue;
			cur[k] = (struct result){ .d = pk_events_desc(ev, i), .err = err };
			shown_name(l, i, cur[k].d, cur[k].shown, sizeof(cur[k].shown));
			cur[k].c = (struct pk_count){ c.value - prev[i].value, c.enabled - prev[i].enabled,
						      c.running - prev[i].running, c.id, 0 };
			if (!err && !cur[k].c.running)
				cur[k].err = -EAGAIN;	/* did not run this interval */
			cur[k].val = (struct stat_acc){ 1, (double)cur[k].c.value, 0 };
			if (!err)
				prev[i] = c;
			k++;
		}
		stat_print_interval(o->out, o, cur, k, at - t0, (at - (next - tick)) * 1e9, n++ == 0);
		next += tick;
		if (o->interval_count && n >= o->interval_count) {
			if (w && !done) {
				/* We stopped it, as asked: not the command's failure. */
				pk_workload_kill(w, SIGTERM);
				pk_workload_wait(w);
				status = 0;
			}
			break;
		}
	}
	free(prev);
	free(cur);
	return status;
}

/* Count; fills results and returns the command's exit status (0 without
 * one), or -1 after reporting an error (-2 for a usage error).  *have_ru says whether a command ran. */
static int count(const struct stat_opts *o, struct pk_events *ev, struct result *r,
		 double *wall_s, struct stat_summary *sum)
{
	struct rusage *ru = &sum->ru;
	bool *have_ru = &sum->have_ru;
	struct pk_workload *w = NULL;
	struct pk_evlist *l = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	struct plan pl;
	double t0;
	int status = 0;

	if (o->argv && pk_workload_start(o->argv, &w) < 0)
		return cli_error("stat", NULL), -1;
	status = make_target(o, w ? pk_workload_pid(w) : 0, &pl);
	if (status < 0) {
		if (status == -1)	/* -2: already reported as a usage error */
			cli_error("stat", pl.list_for_errors);
		goto out;
	}
	if (ev && (pk_evlist_new(ev, &pl.t, &l) < 0 || pk_evlist_open(l) < 0)) {
		cli_error("stat", o->events);
		status = -1;
		goto out;
	}
	if (l && !o->quiet && sum->runs == 0)
		report_fallbacks(l, ev);
	/* Thread names now, while the threads exist (the command is still held). */
	if (l && (o->no_aggr || o->per_thread || o->per) && save_slots(l, sum, o->argv, o->per) < 0) {
		status = -1;
		goto out;
	}
	forward_to = w;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t0 = now();
	if (w && pk_workload_go(w) < 0) {
		cli_error("stat", NULL);
		status = -1;
		goto out;
	}
	if (o->delay_ms && l) {
		/* Like perf -D: the command runs uncounted for the delay. */
		if (!o->quiet)
			fprintf(stderr, "Events disabled\n");
		pause_until(t0 + o->delay_ms / 1000.0, w, &pl);
		if (!o->quiet)
			fprintf(stderr, "Events enabled\n");
		t0 = now();
	}
	if (l && !pl.t.enable_on_exec && pk_evlist_enable(l) < 0) {
		cli_error("stat", NULL);
		status = -1;
		goto out;
	}
	if (o->interval_ms)
		status = intervals(o, ev, l, w, &pl, t0);
	else if (w)
		status = pk_workload_wait(w);
	else
		wait_for_stop(&pl);
	if (w) {
		getrusage(RUSAGE_CHILDREN, ru);
		/* perf shows user and sys time only when the command is what it counted. */
		*have_ru = !o->pids && !o->tids && !o->all_cpus && !o->cpu_list;
	}
	if (l)
		pk_evlist_disable(l);
	*wall_s = now() - t0;
	for (size_t i = 0; l && i < pk_events_count(ev); i++) {
		r[i].d = pk_events_desc(ev, i);
		shown_name(l, i, r[i].d, r[i].shown, sizeof(r[i].shown));
		r[i].err = pk_evlist_read(l, i, &r[i].c);
		if (!r[i].err && !pk_count_ran(&r[i].c))
			r[i].err = -EAGAIN;	/* enabled but never scheduled: <not counted> */
		if (!r[i].err && (o->no_aggr || o->per_thread || o->per) && read_slots(l, i, &r[i]) < 0) {
			cli_error("stat", NULL);
			status = -1;
			goto out;
		}
	}

out:
	forward_to = NULL;
	pk_evlist_free(l);
	pk_workload_free(w);
	free(pl.threads);
	free(pl.cpus);
	return status;
}

/* The default set shows only what counts here, and says what it dropped. */
static size_t drop_unsupported(struct result *r, size_t nr)
{
	char dropped[256] = "";
	size_t k = 0, n = 0;

	for (size_t i = 0; i < nr; i++) {
		if (r[i].err == -ENODATA) {
			n += (size_t)snprintf(dropped + n, n < sizeof(dropped) ? sizeof(dropped) - n : 0,
					      "%s%s", n ? ", " : "", r[i].d->name);
			continue;
		}
		r[k++] = r[i];
	}
	if (k < nr)
		fprintf(stderr, "perfkit stat: not counting %s: this machine cannot count them "
			"(no hardware PMU?); ask with -e to see them as <not supported>\n", dropped);
	return k;
}

/* Run the command o->repeat times (or count the target once), accumulating
 * each event's scaled value and the wall time.  Returns the last exit status
 * or a negative error (-1 event error, -2 usage error), already reported. */
static int runs(const struct stat_opts *o, struct pk_events *ev, struct result *r, size_t nr,
		struct stat_summary *sum)
{
	unsigned n = o->repeat ? o->repeat : 1;
	int status = 0;

	stop_signal = 0;
	for (unsigned run = 0; run < n && !stop_signal; run++) {
		double wall_s = 0;

		status = count(o, ev, r, &wall_s, sum);
		if (status < 0)
			return status;
		stat_acc_add(&sum->wall, wall_s);
		for (size_t i = 0; i < nr; i++)
			if (!r[i].err)
				stat_acc_add(&r[i].val, (double)r[i].c.value);	/* already scaled */
		sum->runs++;
	}
	return status;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_summary sum = { 0 };
	struct pk_events *ev = NULL;
	struct result *r = NULL;
	FILE *out = stderr;
	int err, status = CLI_EXIT_EVENT;
	size_t nr = 0;

	err = parse_opts(argc, argv, &o);
	if (err)
		goto done_opts;
	if (!o.null_run && pk_events_parse(o.events ? o.events : DEFAULT_EVENTS, NULL, &ev) < 0) {
		cli_error("stat", o.events);
		goto done;
	}
	nr = pk_events_count(ev);
	r = calloc(nr ? nr : 1, sizeof(*r));
	if (!r)
		goto done;
	if (o.output && !(out = fopen(o.output, o.append ? "a" : "w"))) {
		fprintf(stderr, "perfkit stat: cannot write %s: %s\n", o.output, strerror(errno));
		goto done;
	}
	o.out = out;
	status = runs(&o, ev, r, nr, &sum);
	if (status < 0) {
		status = status == -2 ? CLI_EXIT_USAGE : CLI_EXIT_EVENT;
		goto done;
	}
	if (!o.events)
		nr = drop_unsupported(r, nr);
	if (!o.interval_ms)	/* like perf 6.1: -I prints the intervals only */
		stat_print(out, &o, r, nr, &sum);
done:
	if (out != stderr && out && fclose(out) != 0) {
		fprintf(stderr, "perfkit stat: writing %s failed: %s\n", o.output, strerror(errno));
		status = CLI_EXIT_EVENT;
	}
	/* After drop_unsupported only the first nr hold their own per arrays. */
	for (size_t i = 0; r && i < nr; i++)
		free(r[i].per);
	free(r);
	free(sum.cpus);
	free(sum.tids);
	free(sum.comm);
	free(sum.topo);
	pk_events_free(ev);
	free(o.events);
	return status;
done_opts:
	free(o.events);
	return err < 0 ? 0 : err;
}
