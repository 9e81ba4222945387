/* SPDX-License-Identifier: MIT */
/*
 * stat-flags2.c - the rest of perf stat 6.1's flags, with perf's meaning
 * and its words for each refusal: -S, --no-scale, --no-merge, --table,
 * -g, --timeout, --log-fd, --interval-clear, --filter, and the ones that
 * need hardware this code only sets up from sysfs (-T, --smi-cost,
 * --iostat, --cputype, --hybrid-merge, --percore-show-thread).
 */
#include "stat.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* perf's -T events, and the shorter set for a CPU without cycles-ct and
 * el-start (builtin-stat.c's transaction_attrs, transaction_limited_attrs). */
#define TX_EVENTS "task-clock,{instructions,cycles,cpu/cycles-t/,cpu/tx-start/,cpu/el-start/," \
		  "cpu/cycles-ct/}"
#define TX_LIMITED "task-clock,{instructions,cycles,cpu/cycles-t/,cpu/tx-start/}"
#define SMI_EVENTS "{msr/aperf/,msr/smi/,cycles}"

/* Remember -e's argument for --filter; the id stays stat-opts.c's. */
static int note_event_arg(struct stat_opts *o, const char *arg)
{
	const char **grown = realloc(o->e_args, (o->nr_e + 1) * sizeof(*grown));

	if (!grown)
		return cli_usage("stat", "out of memory for the -e list");
	o->e_args = grown;
	o->e_args[o->nr_e++] = arg;
	return 1;
}

/* --filter: on the events of the -e just before it, as perf attaches it. */
static int add_filter(struct stat_opts *o, const char *arg)
{
	struct stat_filter *grown;

	if (!o->nr_e)	/* perf's words */
		return cli_usage("stat", "--filter option should follow a -e tracepoint or HW "
				 "tracer option");
	if (!(grown = realloc(o->filters, (o->nr_filters + 1) * sizeof(*grown))))
		return cli_usage("stat", "out of memory for the filters");
	o->filters = grown;
	o->filters[o->nr_filters++] = (struct stat_filter){ o->nr_e - 1, arg };
	return 0;
}

/* The options with a number. */
static int number_option(struct stat_opts *o, int id, const char *arg)
{
	uint64_t v;
	int64_t fd;

	if (id == STAT_OPT_TIMEOUT) {
		if (cli_num_u64("stat", "--timeout", arg, 0, 1000000000, &v) < 0)
			return CLI_EXIT_USAGE;
		o->timeout_ms = (unsigned)v;
		return 0;
	}
	if (cli_num_i64("stat", "--log-fd", arg, INT32_MIN, INT32_MAX, &fd) < 0)
		return CLI_EXIT_USAGE;
	if (fd < 0)	/* perf's words */
		return cli_usage("stat", "argument to --log-fd must be a > 0");
	o->log_fd = (int)fd;
	return 0;
}

int stat_flags2_option(struct stat_opts *o, int id, const char *arg)
{
	switch (id) {
	case 'e': return note_event_arg(o, arg);
	case 'S': o->sync_run = true; break;
	case 'g': o->group = true; break;
	case 'T': o->transaction = true; break;
	case STAT_OPT_SCALE: o->no_scale = false; break;
	case STAT_OPT_NO_SCALE: o->no_scale = true; break;
	case STAT_OPT_NO_MERGE: o->no_merge = true; break;
	case STAT_OPT_HYBRID_MERGE: o->hybrid_merge = true; break;
	case STAT_OPT_PERCORE_SHOW_THREAD: o->percore_show_thread = true; break;
	case STAT_OPT_TABLE: o->table = true; break;
	case STAT_OPT_INTERVAL_CLEAR: o->interval_clear = true; break;
	case STAT_OPT_SMI_COST: o->smi_cost = true; break;
	case STAT_OPT_IOSTAT: o->iostat = true, o->iostat_arg = arg; break;
	case STAT_OPT_FILTER: return add_filter(o, arg);
	case STAT_OPT_TIMEOUT:
	case STAT_OPT_LOG_FD:
		return number_option(o, id, arg);
	case STAT_OPT_CPUTYPE:
		if (o->events || o->metric_arg)	/* perf's words */
			return cli_usage("stat", "Must define cputype before events/metrics");
		o->cputype = arg;
		break;
	default:
		return 1;
	}
	return 0;
}

int stat_flags2_check(const struct stat_opts *o)
{
	/* perf's words for each. */
	if (o->output && o->log_fd)
		return cli_usage("stat", "cannot use both --output and --log-fd");
	if (o->table && o->repeat <= 1)
		return cli_usage("stat", "--table is only supported with -r");
	if (o->timeout_ms && o->timeout_ms < 10)
		return cli_usage("stat", "timeout must be >= 10ms.");
	if (o->timeout_ms && o->interval_ms)
		return cli_usage("stat", "timeout option is not supported with interval-print.");
	if (o->timeout_ms && o->timeout_ms < 100)
		fprintf(stderr, "timeout < 100ms. The overhead percentage could be high in some "
			"cases. Please proceed with caution.\n");
	if (o->group && o->events && strchr(o->events, '{'))
		return cli_usage("stat", "-g puts every event into one group: give the events "
				 "without {...}");
	return 0;
}

/* A PMU of this machine's sysfs (or PERFKIT_SYSFS_ROOT's) has `event`. */
static bool pmu_has_event(const struct pk_pmus *pmus, const char *pmu, const char *event)
{
	const struct pk_pmu *p = pmus ? pk_pmus_find(pmus, pmu) : NULL;

	return p && pk_pmu_find_alias(p, event);
}

/* Append `more` to o->spec (o->spec may be NULL): 0 or -ENOMEM. */
static int spec_append(struct stat_opts *o, const char *more)
{
	char *joined;

	if (o->spec && *o->spec ? asprintf(&joined, "%s,%s", o->spec, more) < 0 :
	    !(joined = strdup(more)))
		return -ENOMEM;
	free(o->spec);
	o->spec = joined;
	return 0;
}

/* Write v to the sysfs file at path: 0, or -1. */
static int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int err = !f || fprintf(f, "%d", v) < 0;

	if (f && fclose(f) != 0)
		err = 1;
	return err ? -1 : 0;
}

/* --smi-cost: perf's checks in its order.  Like perf, a freeze_on_smi of 0
 * is set to 1 for the run and back to 0 at the end (stat_flags2_free). */
static int smi_setup(struct stat_opts *o, const struct pk_pmus *pmus)
{
	char path[4096], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu/freeze_on_smi", pk_pmus_dir(pmus));
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		fprintf(stderr, "freeze_on_smi is not supported.\n");
		return CLI_EXIT_EVENT;
	}
	fclose(f);
	if (atoi(buf) == 0) {
		if (write_int(path, 1) < 0) {	/* perf's words */
			fprintf(stderr, "Failed to set freeze_on_smi.\n");
			return CLI_EXIT_EVENT;
		}
		if (!(o->smi_reset = strdup(path)))
			return cli_usage("stat", "out of memory");
	}
	if (!pmu_has_event(pmus, "msr", "aperf") || !pmu_has_event(pmus, "msr", "smi")) {
		fprintf(stderr, "To measure SMI cost, it needs msr/aperf/, msr/smi/ and cpu/cycles/ "
			"support\n");
		return CLI_EXIT_EVENT;
	}
	o->metric_only = true;
	return spec_append(o, SMI_EVENTS) < 0 ? cli_usage("stat", "out of memory") : 0;
}

/* --iostat: perf 6.1 measures it from Intel's uncore_iio_N PMUs (x86 only). */
static int iostat_setup(const struct pk_pmus *pmus)
{
	bool iio = false;

	for (size_t i = 0; pmus && i < pk_pmus_nr(pmus); i++)
		iio |= !strncmp(pk_pmu_name(pk_pmus_get(pmus, i)), "uncore_iio_", 11);
	if (!iio)	/* perf's words */
		return cli_usage("stat", "Unsupported uncore pmu configuration");
	return cli_usage("stat", "--iostat: this machine has uncore_iio PMUs, but perfkit does "
			 "not map their root ports to PCIe buses yet");
}

/* --cputype: the hybrid PMU cpu_TYPE must exist, as perf asks (perfkit
 * does not yet narrow hybrid events to it: it has no hybrid expansion). */
static int cputype_setup(const struct stat_opts *o, const struct pk_pmus *pmus)
{
	char name[64];

	snprintf(name, sizeof(name), "cpu_%s", o->cputype);
	if (!pmus || !pk_pmus_find(pmus, name))	/* perf's words */
		return cli_usage("stat", "--cputype %s is not supported!", o->cputype);
	return 0;
}

/* -T: perf's transaction events after the others (its limited set without
 * cycles-ct and el-start); the cpu PMU must have them. */
static int transaction_setup(struct stat_opts *o, const struct pk_pmus *pmus)
{
	bool full = pmu_has_event(pmus, "cpu", "cycles-ct") && pmu_has_event(pmus, "cpu", "el-start");

	if (!pmu_has_event(pmus, "cpu", "cycles-t") || !pmu_has_event(pmus, "cpu", "tx-start")) {
		fprintf(stderr, "Cannot set up transaction events\n");
		cli_message(stderr, "perfkit stat: the cpu PMU has no cycles-t and tx-start "
			    "events: this CPU has no TSX to count\n");
		return CLI_EXIT_EVENT;
	}
	/* Like perf: -T's events follow -e's; without -e they replace the default set. */
	if (!o->events) {
		free(o->spec);
		o->spec = NULL;
		o->nr_default = 0;
	}
	return spec_append(o, full ? TX_EVENTS : TX_LIMITED) < 0 ? cli_usage("stat", "out of memory") : 0;
}

/* -g: every event into one group, as perf's evlist__set_leader. */
static int group_setup(struct stat_opts *o)
{
	char *g;

	if (asprintf(&g, "{%s}", o->spec) < 0)
		return cli_usage("stat", "out of memory");
	free(o->spec);
	o->spec = g;
	/* One group stands or falls whole: perf lists every event of it, the
	 * default set's too, rather than leaving out what cannot count. */
	o->nr_default = 0;
	return 0;
}

int stat_flags2_spec(struct stat_opts *o)
{
	struct pk_pmus *pmus = NULL;
	int err = 0;

	/* -n: -e's events alone, as perf adds no default or -d events then */
	if (o->null_run && o->events) {
		free(o->spec);
		if (!(o->spec = strdup(o->events)))
			return cli_usage("stat", "out of memory");
		o->nr_default = 0;
	}
	if (!o->transaction && !o->smi_cost && !o->iostat && !o->cputype)
		return o->group && !o->null_run ? group_setup(o) : 0;
	if (pk_pmus_scan(&pmus) < 0)
		pmus = NULL;
	if (o->cputype)
		err = cputype_setup(o, pmus);
	if (!err && o->iostat)
		err = iostat_setup(pmus);
	if (!err && o->transaction && !o->null_run)
		err = transaction_setup(o, pmus);
	else if (!err && o->smi_cost && !o->null_run)
		err = smi_setup(o, pmus);
	pk_pmus_free(pmus);
	if (!err && o->group && !o->null_run)
		err = group_setup(o);
	return err;
}

FILE *stat_flags2_out(const struct stat_opts *o)
{
	FILE *out = stderr;

	if (o->output && !(out = fopen(o->output, o->append ? "a" : "w")))
		cli_message(stderr, "perfkit stat: cannot write %s: %s\n", o->output, strerror(errno));
	else if (o->log_fd && !(out = fdopen(o->log_fd, o->append ? "a" : "w")))
		cli_message(stderr, "perfkit stat: Failed opening logfd %d: %s\n", o->log_fd,
			    strerror(errno));
	/* perf's words: the screen is cleared only on a terminal. */
	if (out && o->interval_clear && !isatty(fileno(out))) {
		cli_usage("stat", "--interval-clear does not work with output");
		if (out != stderr)
			fclose(out);
		return NULL;
	}
	return out;
}

/* perf joins a second --filter on the same events to the first. */
static int join_filter(char **have, const char *more)
{
	char *joined;

	if (!*have)
		return (*have = strdup(more)) ? 0 : -ENOMEM;
	if (asprintf(&joined, "(%s) && (%s)", *have, more) < 0)
		return -ENOMEM;
	free(*have);
	*have = joined;
	return 0;
}

/* The events -e number k gave: [*first, *first + return).  Negative when
 * it does not parse (it did, to be open). */
static int events_of_arg(const struct stat_opts *o, size_t k, size_t *first)
{
	*first = 0;
	for (size_t j = 0; j <= k; j++) {
		struct pk_events *ev;
		int n = pk_events_parse(o->e_args[j], NULL, &ev);

		if (n < 0)
			return n;
		pk_events_free(ev);
		if (j < k)
			*first += (size_t)n;
		else
			return n;
	}
	return 0;
}

/* Event i's filter (joined), or NULL; -ENOMEM in *err. */
static char *filter_of(const struct stat_opts *o, size_t i, int *err)
{
	char *f = NULL;

	for (size_t k = 0; k < o->nr_filters && !*err; k++) {
		size_t first;
		int n = events_of_arg(o, o->filters[k].e, &first);

		if (n > 0 && i >= first && i < first + (size_t)n)
			*err = join_filter(&f, o->filters[k].text);
	}
	return f;
}

int stat_filters_apply(const struct stat_opts *o, struct pk_evlist *l, size_t nr)
{
	int err = 0;

	for (size_t i = 0; o->nr_filters && i < nr && !err; i++) {
		/* each --for-each-cgroup copy of the list filters the same */
		char *f = filter_of(o, o->nr_per_copy ? i % o->nr_per_copy : i, &err);

		if (f && pk_evlist_filter(l, i, f) < 0) {
			cli_error("stat", NULL);
			err = -1;
		}
		free(f);
	}
	if (err == -ENOMEM)
		cli_message(stderr, "perfkit stat: out of memory for the filters\n");
	return err ? -1 : 0;
}

int stat_timeout_wait(const struct stat_opts *o, struct pk_workload *w, double t0)
{
	double end = t0 + o->timeout_ms / 1000.0;
	int st;

	while (cli_now() < end && !cli_stop_signal()) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };
		double left = end - cli_now();

		if ((st = pk_workload_try_wait(w)) != -EAGAIN)
			return st;
		if (left < 0.002)
			ts.tv_nsec = left > 0 ? (long)(left * 1e9) : 0;
		nanosleep(&ts, NULL);
	}
	/* perf: SIGTERM at the timeout, then its psignal line; its exit status
	 * is then WEXITSTATUS of a killed child, 0. */
	pk_workload_kill(w, SIGTERM);
	st = pk_workload_wait(w);
	if (pk_workload_signal(w)) {
		const char *b = strrchr(o->argv[0], '/');

		fprintf(stderr, "%s: %s\n", b ? b + 1 : o->argv[0], strsignal(pk_workload_signal(w)));
		return 0;
	}
	return st;
}

void stat_flags2_free(struct stat_opts *o)
{
	if (o->smi_reset && write_int(o->smi_reset, 0) < 0)
		cli_message(stderr, "perfkit stat: cannot set %s back to 0: %s\n", o->smi_reset,
			    strerror(errno));
	free(o->smi_reset);
	o->smi_reset = NULL;
	free(o->e_args);
	free(o->filters);
}
