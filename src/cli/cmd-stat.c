/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c - `perfkit stat`: the counting itself.  It builds the target
 * (a command held before exec so that enable_on_exec counts it alone, or
 * -p/-t/-a/-C/-G), opens the events with perf's fallbacks, then waits:
 * for the command, for Ctrl-C, through -D, -I intervals or --control
 * commands.  Finally it reads every event, over -r runs.  Options are in
 * stat-opts.c, output in stat-display.c.
 */
#include "stat.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct plan {
	struct pk_target t;
	struct cli_target tg;	/* -p/-t/-a/-C, built for this run */
	pid_t *threads;		/* the command's pid, when it is the target */
};

/* The command is what is counted (no -p, -t, -a or -C: it only times them). */
static bool counts_command(const struct stat_opts *o)
{
	return !cli_target_given(&o->target);
}

/* The run's target: 0, or an exit status after the message. */
static int make_target(const struct stat_opts *o, pid_t workload, struct plan *pl)
{
	int err;

	memset(pl, 0, sizeof(*pl));
	pl->t.size = sizeof(pl->t);
	pl->t.inherit = !o->no_inherit;
	pl->t.skip_unsupported = true;
	pl->t.fallbacks = true;
	pl->t.no_scale = o->no_scale;
	pl->tg = o->target;
	if (counts_command(o)) {
		pl->threads = malloc(sizeof(*pl->threads));
		if (!pl->threads)
			return cli_usage("stat", "out of memory");
		pl->threads[0] = workload;
		pl->t.threads = pl->threads, pl->t.nr_threads = 1;
		/* Count the command only, from its exec; -D enables later by hand. */
		pl->t.enable_on_exec = !o->delay_ms && !o->start_disabled;
		return 0;
	}
	if ((err = cli_target_build("stat", &pl->tg, true, true)))
		return err;
	pl->t.threads = pl->tg.threads, pl->t.nr_threads = pl->tg.nr_threads;
	pl->t.cpus = pl->tg.cpus, pl->t.nr_cpus = pl->tg.nr_cpus;
	if (pl->tg.cpus) {
		pl->t.event_cgroups = o->ev_cgroups;
		pl->t.nr_event_cgroups = o->nr_ev_cgroups;
	}
	return 0;
}

/* -A / --per-thread: keep each CPU x thread's count of event i. */
static int read_slots(struct pk_evlist *l, size_t i, struct result *r)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);

	if (!r->per && !(r->per = calloc(nc * nt, sizeof(*r->per))))
		return -ENOMEM;
	if (!r->per_sum && !(r->per_sum = calloc(nc * nt, sizeof(*r->per_sum))))
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++)
		for (size_t t = 0; t < nt; t++) {
			int err;

			r->per[c * nt + t].size = sizeof(r->per[0]);
			err = pk_evlist_read_one(l, i, c, t, &r->per[c * nt + t]);

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
		s->topo[c].size = sizeof(s->topo[c]);
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
	size_t nr = pk_events_nr(ev);

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
				cli_message(stderr, "%s%s", n++ ? ", " : "", pk_events_desc(ev, j)->name);
		cli_message(stderr, ": %s\n", note);
	}
}

/* perf names an event it fell back to user space for "NAME:u"; buf is left
 * empty when the event shows under its own name. */
static void shown_name(const struct pk_evlist *l, size_t i, const struct pk_events *ev,
		       char *buf, size_t len)
{
	const struct pk_event_desc *d = pk_events_desc(ev, i);
	const struct perf_event_attr *a = pk_evlist_attr(l, i);

	buf[0] = '\0';
	if (a->exclude_kernel && !pk_events_attr(ev, i)->exclude_kernel && !strchr(d->name, ':') &&
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
	if (cli_stop_signal())
		return true;
	for (size_t i = 0; i < pl->t.nr_threads; i++)
		if (kill(pl->t.threads[i], 0) == 0 || errno == EPERM)
			return false;
	return pl->t.nr_threads > 0;
}

/* Wait for the end while taking --control commands.  "stop" ends the
 * counting at once for -p/-t/-a/-C; with a command it waits for it. */
static int control_loop(const struct stat_opts *o, struct pk_evlist *l, struct pk_workload *w,
			const struct plan *pl, struct cli_control *c)
{
	int status = 0;
	bool stopped = false;

	while (!finished(w, pl, &status) && !(stopped && !w))
		stopped |= stat_control_poll(o, l, c, 10);
	return status;
}

static void nap_until(double when)
{
	double left = when - cli_now();
	struct timespec ts;

	if (left <= 0)
		return;
	if (left > 0.005)
		left = 0.005;	/* wake often enough to notice the command exit */
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(left * 1e9);
	nanosleep(&ts, NULL);
}

/* Without a command: count until a signal, until every -p/-t task is gone,
 * or until `deadline` (--timeout; 0: none). */
static void wait_for_stop(const struct plan *pl, double deadline)
{
	int st;

	while (!finished(NULL, pl, &st) && (!deadline || cli_now() < deadline)) {
		double left = deadline ? deadline - cli_now() : 0.1;
		struct timespec tick = { 0, (long)((left > 0.1 ? 0.1 : left > 0 ? left : 0) * 1e9) };

		nanosleep(&tick, NULL);
	}
}

/* -D: let time pass uncounted, unless the command ends first. */
static void pause_until(double when, struct pk_workload *w, const struct plan *pl)
{
	int st;

	while (cli_now() < when && !finished(w, pl, &st) && !cli_stop_signal())
		nap_until(when);
}

/* One interval's counts of a split event: each slot's since the last, in
 * cur->per; last[] moves on to now. */
static int slot_deltas(struct pk_evlist *l, size_t i, struct result *cur, struct pk_count *last)
{
	size_t nc = pk_evlist_nr_cpus(l), nt = pk_evlist_nr_threads(l);

	if (!cur->per && !(cur->per = calloc(nc * nt, sizeof(*cur->per))))
		return -ENOMEM;
	for (size_t k = 0; k < nc * nt; k++) {
		struct pk_count c = { .size = sizeof(c) };
		int err = pk_evlist_read_one(l, i, k / nt, k % nt, &c);

		if (err < 0)
			return err;
		cur->per[k] = (struct pk_count){ sizeof(c), c.value - last[k].value, c.enabled - last[k].enabled,
						 c.running - last[k].running, c.id, 0 };
		last[k] = c;
	}
	return 0;
}

/* -I: print each interval's counts until the end (or --interval-count, after
 * which a command still running is sent SIGTERM, like perf).  Returns the
 * command's exit status, or 0. */
static int intervals(const struct stat_opts *o, struct pk_events *ev, struct pk_evlist *l,
		     struct pk_workload *w, const struct plan *pl, double t0, struct cli_control *ctl,
		     const struct stat_summary *sum)
{
	size_t nr = pk_events_nr(ev);
	bool split = o->no_aggr || o->per_thread || o->per;
	size_t slots = l && split ? pk_evlist_nr_cpus(l) * pk_evlist_nr_threads(l) : 0;
	struct pk_count *prev = calloc(nr ? nr : 1, sizeof(*prev));
	struct pk_count *prev_per = calloc((nr ? nr : 1) * (slots ? slots : 1), sizeof(*prev_per));
	struct result *cur = calloc(nr ? nr : 1, sizeof(*cur));
	double tick = o->interval_ms / 1000.0, next = t0 + tick;
	unsigned n = 0;
	int status = 0;
	bool done = false;

	while (prev && prev_per && cur && !done) {
		size_t k = 0;

		double at;

		while (cli_now() < next && !(done = finished(w, pl, &status))) {
			int ms = (int)((next - cli_now()) * 1000);

			if (ctl->fd < 0) {
				nap_until(next);
				continue;
			}
			/* --control during -I: take commands while the interval runs. */
			if (stat_control_poll(o, l, ctl, ms < 1 ? 1 : ms > 10 ? 10 : ms) && !w) {
				done = true;
				break;
			}
		}
		/* Like perf, the last interval may be short: the command ended. */
		at = cli_now();
		for (size_t i = 0; l && i < nr; i++) {
			struct pk_count c = { .size = sizeof(c) };
			int err = pk_evlist_read(l, i, &c);

			/* The default set leaves out what cannot count here. */
			if (err == -ENODATA && stat_in_default(o, i))
				continue;
			cur[k] = (struct result){ .d = pk_events_desc(ev, i), .attr = pk_events_attr(ev, i),
						  .err = err, .per = cur[k].per,
						  .cgroup = o->ev_cgroups ? o->ev_cgroups[i] : NULL };
			shown_name(l, i, ev, cur[k].shown, sizeof(cur[k].shown));
			if (!err && slots && slot_deltas(l, i, &cur[k], prev_per + i * slots) < 0)
				cur[k].err = -EIO;
			cur[k].c = (struct pk_count){ sizeof(c), c.value - prev[i].value, c.enabled - prev[i].enabled,
						      c.running - prev[i].running, c.id, 0 };
			if (!err && !cur[k].c.running)
				cur[k].err = -EAGAIN;	/* did not run this interval */
			cur[k].val = (struct stat_acc){ 1, (double)cur[k].c.value, 0 };
			if (!err)
				prev[i] = c;
			k++;
		}
		/* perf's figures (CPUs utilized) divide by the nominal interval,
		 * the last, short one too (its process_interval). */
		/* perf heads the first interval and every 25th after it */
		stat_print_interval(o->out, o, cur, k, sum, at - t0, o->interval_ms * 1e6,
				    n++ % 25 == 0);
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
	for (size_t i = 0; cur && i < nr; i++)
		free(cur[i].per);
	free(prev);
	free(prev_per);
	free(cur);
	return status;
}

/* Open the events on the plan's target and say what the user should know
 * about them; 0, or -1 after the message. */
static int open_events(const struct stat_opts *o, struct pk_events *ev, struct plan *pl,
		       struct pk_evlist **l, struct stat_summary *sum)
{
	if (pk_evlist_new(ev, &pl->t, l) < 0 || pk_evlist_open(*l) < 0)
		return cli_error("stat", o->spec), -1;
	if (stat_filters_apply(o, *l, pk_events_nr(ev)) < 0)
		return -1;
	if (!o->quiet && sum->runs == 0)
		report_fallbacks(*l, ev);
	if (o->verbose && sum->runs == 0)
		cli_print_attrs(stderr, *l, ev);
	/* Thread names now, while the threads exist (the command is still held). */
	if ((o->no_aggr || o->per_thread || o->per) &&
	    save_slots(*l, sum, counts_command(o) ? o->argv : NULL, o->per) < 0)
		return -1;
	return 0;
}

/* Like perf -D: the command runs uncounted for the delay.  Returns when
 * counting starts. */
static double delay(const struct stat_opts *o, struct pk_workload *w, const struct plan *pl,
		    double t0)
{
	if (!o->quiet)
		fprintf(stderr, "Events disabled\n");
	pause_until(t0 + o->delay_ms / 1000.0, w, pl);
	if (!o->quiet)
		fprintf(stderr, "Events enabled\n");
	return cli_now();
}

/* Every event's count into r (and each slot's, when the output splits
 * them); 0, or -1 after the message. */
static int read_results(const struct stat_opts *o, struct pk_events *ev, struct pk_evlist *l,
			struct result *r)
{
	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		r[i].d = pk_events_desc(ev, i);
		r[i].attr = pk_events_attr(ev, i);
		r[i].cgroup = o->ev_cgroups ? o->ev_cgroups[i] : NULL;
		shown_name(l, i, ev, r[i].shown, sizeof(r[i].shown));
		r[i].c.size = sizeof(r[i].c);
		r[i].err = pk_evlist_read(l, i, &r[i].c);
		/* Never scheduled, or its tasks never ran while it was enabled:
		 * perf's <not counted> (stat always reads both times). */
		if (!r[i].err && (!pk_count_ran(&r[i].c) || !r[i].c.running))
			r[i].err = -EAGAIN;
		if (!r[i].err && (o->no_aggr || o->per_thread || o->per) && read_slots(l, i, &r[i]) < 0)
			return cli_error("stat", NULL), -1;
	}
	return 0;
}

/* Wait for the end of the counting as the options say: -I's intervals,
 * --control's commands, --timeout, the command, or a signal (or every
 * -p/-t task gone).  The command's exit status, or 0. */
static int wait_end(const struct stat_opts *o, struct pk_events *ev, struct pk_evlist *l,
		    struct pk_workload *w, const struct plan *pl, double t0,
		    struct cli_control *ctl, const struct stat_summary *sum)
{
	if (o->interval_ms)
		return intervals(o, ev, l, w, pl, t0, ctl, sum);
	if (ctl->fd >= 0)
		return control_loop(o, l, w, pl, ctl);
	if (o->timeout_ms && w)
		return stat_timeout_wait(o, w, t0);
	if (w)
		return pk_workload_wait(w);
	wait_for_stop(pl, o->timeout_ms ? t0 + o->timeout_ms / 1000.0 : 0);
	return 0;
}

/* Count; fills results and returns the command's exit status (0 without
 * one), or -1 after reporting an error (-2 for a usage error).
 * sum->have_ru says whether a command ran. */
static int count(const struct stat_opts *o, struct pk_events *ev, struct result *r,
		 double *wall_s, struct stat_summary *sum)
{
	struct pk_workload *w = NULL;
	struct pk_evlist *l = NULL;
	struct cli_control ctl = { .fd = -1, .ack = -1 };
	struct plan pl;
	double t0;
	int status = 0;

	/*
	 * The cheap way to count a command alone: events on ourselves with
	 * inherit + enable_on_exec, then spawn it (no held fork).  Whatever
	 * enables events by hand (-D, --control) or names threads needs the
	 * held child instead, as does --no-inherit.
	 */
	bool spawn = o->argv && counts_command(o) && !o->no_inherit && !o->delay_ms &&
		     !o->start_disabled && !o->control && !o->per_thread;

	if (o->argv && !spawn && pk_workload_start(o->argv, &w) < 0)
		return cli_error("stat", NULL), -1;
	status = make_target(o, w ? pk_workload_pid(w) : 0, &pl);
	if (status) {	/* reported */
		status = status == CLI_EXIT_USAGE ? -2 : -1;
		goto out;
	}
	if (o->control && cli_control_open("stat", o->control, &ctl) < 0) {
		status = -2;
		goto out;
	}
	if (ev && open_events(o, ev, &pl, &l, sum) < 0) {
		status = -1;
		goto out;
	}
	/* Ctrl-C stops counting; with a command, the command gets it (like perf). */
	cli_stop_forward(w, false);
	cli_stop_catch(SIGINT);
	cli_stop_catch(SIGTERM);
	t0 = cli_now();
	if (spawn ? pk_workload_spawn(o->argv, &w) < 0 : w && pk_workload_go(w) < 0) {
		cli_error("stat", NULL);
		status = -1;
		goto out;
	}
	cli_stop_forward(w, true);
	if (o->delay_ms && l)
		t0 = delay(o, w, &pl, t0);
	if (l && !pl.t.enable_on_exec && !o->start_disabled && pk_evlist_enable(l) < 0) {
		cli_error("stat", NULL);
		status = -1;
		goto out;
	}
	if (o->start_disabled && !o->quiet)
		fprintf(stderr, "Events disabled\n");
	status = wait_end(o, ev, l, w, &pl, t0, &ctl, sum);
	if (w) {
		getrusage(RUSAGE_CHILDREN, &sum->ru);
		/* perf shows user and sys time only when the command is what it counted. */
		sum->have_ru = counts_command(o);
	}
	if (l)
		pk_evlist_disable(l);
	*wall_s = cli_now() - t0;
	if (l && read_results(o, ev, l, r) < 0)
		status = -1;
out:
	cli_control_close(&ctl);
	cli_stop_forward(NULL, false);
	pk_evlist_free(l);
	pk_workload_free(w);
	free(pl.threads);
	cli_target_free(&pl.tg);
	return status;
}

/* The default set (the first nr_default) shows only what counts here, and
 * says what it dropped. */
static size_t drop_unsupported(const struct stat_opts *o, struct result *r, size_t nr)
{
	char dropped[256] = "";
	size_t k = 0, n = 0;

	for (size_t i = 0; i < nr; i++) {
		if (r[i].err == -ENODATA && stat_in_default(o, i)) {
			/* Each name once, not once per --for-each-cgroup copy. */
			if (!o->nr_per_copy || i < o->nr_per_copy)
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

/* --pre / --post: CMD through the shell, as perf runs them (system(3));
 * 0, or -1 after saying how it failed. */
static int shell(const char *opt, const char *cmd)
{
	int st;

	fflush(NULL);	/* what stat printed comes before what CMD prints */
	st = system(cmd);
	if (st == 0)
		return 0;
	if (st == -1)
		cli_message(stderr, "perfkit stat: %s '%s': cannot run the shell: %s\n", opt, cmd,
			    strerror(errno));
	else if (WIFEXITED(st))
		cli_message(stderr, "perfkit stat: %s '%s' failed (exit status %d): stopping\n", opt,
			    cmd, WEXITSTATUS(st));
	else
		cli_message(stderr, "perfkit stat: %s '%s' was killed by signal %d: stopping\n", opt,
			    cmd, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return -1;
}

/* Run the command o->repeat times (or count the target once), accumulating
 * each event's scaled value and the wall time.  Returns the last exit status
 * or a negative error (-1 event error, -2 usage error), already reported;
 * -3 when --pre or --post failed after some runs were counted (they are
 * printed, and the exit status is 1). */
static int runs(const struct stat_opts *o, struct pk_events *ev, struct result *r, size_t nr,
		struct stat_summary *sum)
{
	unsigned n = o->repeat ? o->repeat : 1;
	int status = 0;

	cli_stop_reset();
	if (o->table && !sum->walls && !(sum->walls = calloc(n, sizeof(*sum->walls))))
		return cli_error("stat", NULL), -1;
	for (unsigned run = 0; run < n && !cli_stop_signal(); run++) {
		double wall_s = 0;

		if (o->pre_cmd && shell("--pre", o->pre_cmd) < 0)
			return sum->runs ? -3 : -1;
		if (o->sync_run)
			sync();	/* -S, as perf: after --pre */
		status = count(o, ev, r, &wall_s, sum);
		if (status < 0)
			return status;
		stat_acc_add(&sum->wall, wall_s);
		if (sum->walls)
			sum->walls[sum->runs] = wall_s;
		for (size_t i = 0; i < nr; i++) {
			if (r[i].err)
				continue;
			stat_acc_add(&r[i].val, (double)r[i].c.value);	/* already scaled */
			for (size_t k = 0; r[i].per && k < sum->nr_cpus * sum->nr_threads; k++)
				r[i].per_sum[k] += (double)r[i].per[k].value;
		}
		sum->runs++;
		if (o->post_cmd && shell("--post", o->post_cmd) < 0) {
			status = -3;
			break;
		}
	}
	/* -r with -A or --per-*: each CPU's count is its mean over the runs. */
	for (size_t i = 0; sum->runs > 1 && i < nr; i++)
		for (size_t k = 0; r[i].per && k < sum->nr_cpus * sum->nr_threads; k++)
			r[i].per[k].value = (uint64_t)(r[i].per_sum[k] / sum->runs + 0.5);
	return status;
}

/*
 * The counts are the point of stat: a table, CSV or JSON that did not reach
 * its file (a full disk) or stderr fails the run even when the command
 * succeeded.  Closes `out` when it is the -o file.
 */
static int finish_output(const struct stat_opts *o, FILE *out, int status)
{
	int bad;

	if (out == stderr || !out)
		return ferror(stderr) && !status ? CLI_EXIT_EVENT : status;
	bad = cli_output_check("stat", out, o->output ? o->output : "--log-fd's file");
	if (fclose(out) != 0 && !bad) {
		cli_message(stderr, "perfkit stat: writing %s failed: %s\n",
			    o->output ? o->output : "--log-fd's file", strerror(errno));
		bad = -1;
	}
	return bad && !status ? CLI_EXIT_EVENT : status;
}

/* What parsing and stat_cgroup_assign allocated in o. */
static void free_opts(struct stat_opts *o)
{
	stat_cgroup_free(o);
	stat_flags2_free(o);
	free(o->events);
	free(o->metric_arg);
	free(o->mdefs);
	free(o->spec);
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

	err = stat_parse_opts(argc, argv, &o);
	if (err || (err = stat_topdown_setup(&o)))
		goto done_opts;
	/* perf takes the thousands' separator from the locale (LC_NUMERIC);
	 * only the table uses it, so CSV and JSON keep C's numbers. */
	if (o.big_num)
		setlocale(LC_NUMERIC, "");
	cli_tracefs_need(o.spec);
	/* -n leaves out perf's default set only: -e's events still count */
	if ((!o.null_run || o.events) && pk_events_parse(o.spec, NULL, &ev) < 0) {
		cli_error("stat", o.spec);
		goto done;
	}
	stat_apply_space(&o, ev);
	nr = pk_events_nr(ev);
	if ((err = stat_cgroup_assign(&o, nr))) {
		status = err;
		goto done;
	}
	r = calloc(nr ? nr : 1, sizeof(*r));
	if (!r)
		goto done;
	if (!(out = stat_flags2_out(&o)))
		goto done;
	o.out = out;
	status = runs(&o, ev, r, nr, &sum);
	if (status == -3) {
		status = CLI_EXIT_EVENT;	/* --pre/--post failed: show what was counted */
	} else if (status < 0) {
		status = status == -2 ? CLI_EXIT_USAGE : CLI_EXIT_EVENT;
		goto done;
	}
	nr = drop_unsupported(&o, r, nr);
	stat_metric_attach(&o, r, nr);
	stat_topdown_attach(r, nr);
	/* like perf 6.1: -I prints the intervals only, unless --summary */
	if (!o.interval_ms || o.summary) {
		/* stderr is unbuffered: compose the table, then write it at once. */
		char *text = NULL;
		size_t len = 0;
		FILE *m = out == stderr ? open_memstream(&text, &len) : NULL;

		stat_print(m ? m : out, &o, r, nr, &sum);
		if (m && fclose(m) == 0 && fwrite(text, 1, len, stderr) != len && !status)
			status = CLI_EXIT_EVENT;	/* the counts never reached stderr */
		free(text);
	}
done:
	status = finish_output(&o, out, status);
	/* After drop_unsupported only the first nr hold their own per arrays. */
	for (size_t i = 0; r && i < nr; i++) {
		free(r[i].per);
		free(r[i].per_sum);
	}
	free(r);
	free(sum.cpus);
	free(sum.tids);
	free(sum.comm);
	free(sum.topo);
	free(sum.walls);
	pk_events_free(ev);
	free_opts(&o);
	return status;
done_opts:
	free_opts(&o);
	return err < 0 ? 0 : err;
}
