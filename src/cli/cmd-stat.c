/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c - `perfkit stat`: count events while a command runs and print
 * them in perf stat's layout (or perf's CSV with -x).  The command is held
 * before exec until its counters are open with enable_on_exec, so the
 * counts are the command's alone.  This first version counts a command;
 * the other targets (-p, -t, -a, -C, -G) and the other outputs follow.
 */
#include "cli.h"

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

struct stat_opts {
	char *events;		/* joined -e arguments, or NULL for the default set */
	const char *sep;	/* -x: CSV separator, or NULL for the table */
	const char *output;	/* -o FILE */
	bool append;
	char **argv;		/* the command */
};

struct result {
	const struct pk_event_desc *d;
	struct pk_count c;
	int err;		/* 0, or why it has no count */
};

void cmd_stat_help(FILE *f)
{
	fprintf(f,
		"usage: perfkit stat [-e EVENTS] [-x SEP] [-o FILE [--append]] [--] COMMAND [ARGS...]\n"
		"\n"
		"Run COMMAND and count events while it runs, like perf stat.\n"
		"\n"
		"  -e, --event EVENTS   events to count (perf's syntax; repeatable); default:\n"
		"                       task-clock, context-switches, cpu-migrations, page-faults,\n"
		"                       cycles, instructions, branches, branch-misses (those that\n"
		"                       this machine can count)\n"
		"  -x, --field-separator SEP  print perf's CSV with SEP between fields\n"
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

static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the command, so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+e:x:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!*optarg)
				return cli_usage("stat", "-e needs an event list");
			if (add_events(o, optarg))
				return cli_usage("stat", "out of memory");
			break;
		case 'x':
			o->sep = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'A':
			o->append = true;
			break;
		case 'h':
			cmd_stat_help(stdout);
			return -1;
		default:
			return cli_unknown_option("stat", argc, argv, c);
		}
	}
	if (optind >= argc)
		return cli_usage("stat", "no command given: perfkit stat [-e EVENTS] -- COMMAND "
				 "(-p, -t, -a and -C are not implemented yet)");
	if (o->append && !o->output)
		return cli_usage("stat", "--append needs -o FILE");
	o->argv = argv + optind;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool is_clock(const struct pk_event_desc *d)
{
	return d->attr.type == PERF_TYPE_SOFTWARE &&
	       (d->attr.config == PERF_COUNT_SW_TASK_CLOCK || d->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The derived figure perf prints to the right: CPUs utilized, or a rate. */
static bool metric(const struct result *r, double task_ns, double wall_ns, double *val,
		   char *unit, size_t len)
{
	double v = (double)r->c.value;

	if (is_clock(r->d)) {
		if (!wall_ns)
			return false;
		*val = v / wall_ns;
		snprintf(unit, len, "CPUs utilized");
		return true;
	}
	if (r->d->attr.type != PERF_TYPE_SOFTWARE || !task_ns)
		return false;
	/* perf's convert_unit_double: the largest of K, M, G that keeps it above 1. */
	v = 1e9 * v / task_ns;
	snprintf(unit, len, "/sec");
	if (v > 1e9)
		v /= 1e9, snprintf(unit, len, "G/sec");
	else if (v > 1e6)
		v /= 1e6, snprintf(unit, len, "M/sec");
	else if (v > 1e3)
		v /= 1e3, snprintf(unit, len, "K/sec");
	*val = v;
	return true;
}

static void print_table_line(FILE *f, const struct result *r, double task_ns, double wall_ns)
{
	char unit[16];
	double val;
	bool clock = is_clock(r->d);

	if (r->err) {
		fprintf(f, "%18s %-4s %-25s%-35s\n", r->err == -ENODATA ? "<not supported>" : "<not counted>",
			"", r->d->name, "");
		return;
	}
	if (clock)
		fprintf(f, "%18.2f %-4s %-32s", r->c.value / 1e6, "msec", r->d->name);
	else
		fprintf(f, "%18.0f %-4s %-32s", (double)r->c.value, "", r->d->name);
	if (metric(r, task_ns, wall_ns, &val, unit, sizeof(unit))) {
		int n = fprintf(f, " # %8.3f", val);

		fprintf(f, " %-*s", 35 - n - 1, unit);
	} else {
		fprintf(f, "%-35s", "");
	}
	if (r->c.running < r->c.enabled && r->c.enabled)
		fprintf(f, "  (%.2f%%)", 100.0 * r->c.running / r->c.enabled);
	fputc('\n', f);
}

/* perf's CSV: value, unit, event, run time, percent running, metric, metric unit. */
static void print_csv_line(FILE *f, const char *sep, const struct result *r, double task_ns,
			   double wall_ns)
{
	double pct = r->c.enabled ? 100.0 * r->c.running / r->c.enabled : 100.0;
	char unit[16];
	double val;

	if (r->err) {
		fprintf(f, "%s%s%s%s%s%s0%s100.00%s%s\n",
			r->err == -ENODATA ? "<not supported>" : "<not counted>", sep, sep, r->d->name,
			sep, "", sep, sep, sep);
		return;
	}
	if (is_clock(r->d))
		fprintf(f, "%.2f%smsec%s", r->c.value / 1e6, sep, sep);
	else
		fprintf(f, "%" PRIu64 "%s%s", r->c.value, sep, sep);
	fprintf(f, "%s%s%" PRIu64 "%s%.2f", r->d->name, sep, r->c.running, sep, pct);
	if (metric(r, task_ns, wall_ns, &val, unit, sizeof(unit)))
		fprintf(f, "%s%.3f%s%s\n", sep, val, sep, unit);
	else
		fprintf(f, "%s%s\n", sep, sep);
}

static void print_results(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			  double wall_s, const struct rusage *ru)
{
	double task_ns = 0;

	for (size_t i = 0; i < nr; i++)
		if (!r[i].err && r[i].d->attr.type == PERF_TYPE_SOFTWARE &&
		    r[i].d->attr.config == PERF_COUNT_SW_TASK_CLOCK)
			task_ns = (double)r[i].c.value;
	if (o->sep) {
		for (size_t i = 0; i < nr; i++)
			print_csv_line(f, o->sep, &r[i], task_ns, wall_s * 1e9);
		return;
	}
	fprintf(f, "\n Performance counter stats for '");
	for (char **a = o->argv; *a; a++)
		fprintf(f, "%s%s", a == o->argv ? "" : " ", *a);
	fprintf(f, "':\n\n");
	for (size_t i = 0; i < nr; i++)
		print_table_line(f, &r[i], task_ns, wall_s * 1e9);
	fprintf(f, "\n%18.9f seconds time elapsed\n\n", wall_s);
	fprintf(f, "%18.9f seconds user\n", ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6);
	fprintf(f, "%18.9f seconds sys\n\n", ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
}

static struct pk_workload *forward_to;

static void forward(int sig)
{
	if (forward_to)
		pk_workload_kill(forward_to, sig);
}

/* Count o->argv; fills results and returns the command's exit status or -1. */
static int count_command(const struct stat_opts *o, struct pk_events *ev, struct result *r,
			 double *wall_s, struct rusage *ru, bool dflt)
{
	struct pk_workload *w = NULL;
	struct pk_evlist *l = NULL;
	struct sigaction sa = { .sa_handler = forward };
	pid_t pid;
	double t0;
	int status;

	if (pk_workload_start(o->argv, &w) < 0)
		return cli_error("stat", NULL), -1;
	pid = pk_workload_pid(w);
	struct pk_target t = { .size = sizeof(t), .threads = &pid, .nr_threads = 1, .inherit = true,
			       .enable_on_exec = true, .skip_unsupported = true };
	if (pk_evlist_new(ev, &t, &l) < 0 || pk_evlist_open(l) < 0) {
		cli_error("stat", dflt ? NULL : o->events);
		pk_evlist_free(l);
		pk_workload_free(w);
		return -1;
	}
	/* Like perf: the command gets SIGINT/SIGTERM, we print what it counted. */
	forward_to = w;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t0 = now();
	if (pk_workload_go(w) < 0) {
		cli_error("stat", NULL);
		pk_evlist_free(l);
		pk_workload_free(w);
		forward_to = NULL;
		return -1;
	}
	status = pk_workload_wait(w);
	*wall_s = now() - t0;
	forward_to = NULL;
	getrusage(RUSAGE_CHILDREN, ru);
	for (size_t i = 0; i < pk_events_count(ev); i++) {
		r[i].d = pk_events_desc(ev, i);
		r[i].err = pk_evlist_read(l, i, &r[i].c);
		if (!r[i].err && !pk_count_ran(&r[i].c))
			r[i].err = -EAGAIN;	/* enabled but never scheduled: <not counted> */
	}
	pk_evlist_free(l);
	pk_workload_free(w);
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

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct pk_events *ev = NULL;
	struct result *r = NULL;
	struct rusage ru;
	double wall_s = 0;
	FILE *out = stderr;
	int err, status = CLI_EXIT_EVENT;
	size_t nr;

	err = parse_opts(argc, argv, &o);
	if (err)
		goto done_opts;
	if (pk_events_parse(o.events ? o.events : DEFAULT_EVENTS, NULL, &ev) < 0) {
		cli_error("stat", o.events);
		goto done;
	}
	nr = pk_events_count(ev);
	r = calloc(nr, sizeof(*r));
	if (!r)
		goto done;
	if (o.output && !(out = fopen(o.output, o.append ? "a" : "w"))) {
		fprintf(stderr, "perfkit stat: cannot write %s: %s\n", o.output, strerror(errno));
		goto done;
	}
	status = count_command(&o, ev, r, &wall_s, &ru, !o.events);
	if (status < 0) {
		status = CLI_EXIT_EVENT;
		goto done;
	}
	if (!o.events)
		nr = drop_unsupported(r, nr);
	print_results(out, &o, r, nr, wall_s, &ru);
done:
	if (out != stderr && out && fclose(out) != 0) {
		fprintf(stderr, "perfkit stat: writing %s failed: %s\n", o.output, strerror(errno));
		status = CLI_EXIT_EVENT;
	}
	free(r);
	pk_events_free(ev);
	free(o.events);
	return status;
done_opts:
	free(o.events);
	return err < 0 ? 0 : err;
}
