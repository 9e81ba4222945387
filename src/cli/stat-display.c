/* SPDX-License-Identifier: MIT */
/*
 * stat-display.c - perfkit stat's output in perf stat's three layouts: the
 * table (same column widths as perf 6.1, derived figures on the right, the
 * running share when multiplexed, "( +- x% )" over -r runs), the CSV of -x
 * and the JSON lines of -j.
 */
#include "stat.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void stat_acc_add(struct stat_acc *a, double v)
{
	double d = v - a->mean;

	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

double stat_acc_noise_pct(const struct stat_acc *a)
{
	double sd;

	if (a->n < 2 || !a->mean)
		return 0;
	sd = sqrt(a->m2 / (a->n - 1) / a->n);
	return 100.0 * sd / a->mean;
}

#define NAME(r) ((r)->shown[0] ? (r)->shown : (r)->d->name)

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The unit column: perf's msec for the clocks, ns for the tool events. */
static const char *unit(const struct result *r)
{
	if (is_clock(r->attr))
		return "msec";
	return r->d->tool != PK_TOOL_NONE ? "ns" : "";
}

static const char *no_count(const struct result *r)
{
	return r->err == -ENODATA ? "<not supported>" : "<not counted>";
}

static double running_pct(const struct result *r)
{
	return r->c.enabled ? 100.0 * r->c.running / r->c.enabled : 100.0;
}

static void table_line(FILE *f, const char *prefix, const struct result *r, const char *cgroup,
		       const struct pk_metric *m, bool pair, unsigned runs, bool big_num)
{
	fputs(prefix, f);
	if (r->err) {
		fprintf(f, "%18s %-4s %-25s", no_count(r), unit(r), NAME(r));
		if (cgroup)
			fprintf(f, " %s", cgroup);
		fprintf(f, "%-35s\n", "");
		return;
	}
	/* -B: the ' flag groups thousands as LC_NUMERIC says (none in C). */
	if (is_clock(r->attr))
		fprintf(f, big_num ? "%'18.2f %-4s %-32s" : "%18.2f %-4s %-32s", r->val.mean / 1e6, "msec",
			NAME(r));
	else
		fprintf(f, big_num ? "%'18.0f %-4s %-32s" : "%18.0f %-4s %-32s", r->val.mean, unit(r),
			NAME(r));
	if (cgroup)	/* perf's cgroup column follows the event's */
		fprintf(f, " %s", cgroup);
	/* m[1] (a level-2 topdown pair's second figure) follows m[0] on the
	 * same line, as perf prints two figures with no new line between. */
	for (int k = 0; k < (m && m[0].format && pair ? 2 : 1); k++) {
		char v[64];
		int n;

		if (!m || !m[k].format) {
			fprintf(f, "%-35s", "");
			continue;
		}
		snprintf(v, sizeof(v), m[k].format, m[k].value);
		n = fprintf(f, " # %s", v);
		fprintf(f, " %-*s", 35 - n - 1, m[k].unit);
	}
	/* perf's table leaves out a noise of exactly 0 (equal counts every run) */
	if (runs > 1 && stat_acc_noise_pct(&r->val) != 0)
		fprintf(f, "  ( +-%6.2f%% )", stat_acc_noise_pct(&r->val));
	if (r->c.running < r->c.enabled && r->c.enabled)
		fprintf(f, "  (%.2f%%)", running_pct(r));
	fputc('\n', f);
}

/* perf's CSV metric: the formatted number without padding or '%'. */
static void csv_metric(FILE *f, const char *sep, const struct pk_metric *m)
{
	char buf[64], *v = buf, *end;

	snprintf(buf, sizeof(buf), m->format ? m->format : "%f", m->value);
	while (*v == ' ')
		v++;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.' || *end == '-'; end++)
		;
	*end = '\0';
	fprintf(f, "%s%s%s%s", sep, v, sep, m->unit);
}

/* perf's CSV: value, unit, event, [noise,] run time, percent running,
 * metric value, metric unit. */
static void csv_line(FILE *f, const char *prefix, const char *sep, const struct result *r,
		     const char *cgroup, const struct pk_metric *m, const struct pk_metric *m2,
		     unsigned runs)
{
	fputs(prefix, f);
	if (r->err)
		fprintf(f, "%s%s%s%s%s", no_count(r), sep, unit(r), sep, NAME(r));
	else if (is_clock(r->attr))
		fprintf(f, "%.2f%smsec%s%s", r->val.mean / 1e6, sep, sep, NAME(r));
	else
		fprintf(f, "%.0f%s%s%s%s", r->val.mean, sep, unit(r), sep, NAME(r));
	if (cgroup)
		fprintf(f, "%s%s", sep, cgroup);
	if (runs > 1)
		fprintf(f, "%s%.2f%%", sep, stat_acc_noise_pct(&r->val));
	fprintf(f, "%s%" PRIu64 "%s%.2f", sep, r->err ? 0 : r->c.running, sep, running_pct(r));
	if (!r->err && m)
		csv_metric(f, sep, m);
	else
		fprintf(f, "%s%s", sep, sep);
	if (!r->err && m2)	/* a topdown pair: perf's second figure follows */
		csv_metric(f, sep, m2);
	fputc('\n', f);
}

/* perf's -j: one JSON object per line, values as perf writes them. */
static void json_line(FILE *f, const char *prefix, const struct result *r, const char *cgroup,
		      const struct pk_metric *m, unsigned runs)
{
	struct json j;

	fprintf(f, "{%s\"counter-value\" : \"", prefix);
	if (r->err)
		fprintf(f, "%s", no_count(r));
	else
		fprintf(f, "%f", is_clock(r->attr) ? r->val.mean / 1e6 : r->val.mean);
	fprintf(f, "\", \"unit\" : \"%s\", \"event\" : ", !r->err || !is_clock(r->attr) ? unit(r) : "");
	json_init(&j, f);
	json_string(&j, NAME(r));	/* escaped: event names are user input */
	if (cgroup) {
		fprintf(f, ", \"cgroup\" : ");
		json_string(&j, cgroup);
	}
	if (runs > 1)
		fprintf(f, ", \"variance\" : %.2f", stat_acc_noise_pct(&r->val));
	fprintf(f, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, "
		"\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n",
		r->err ? 0 : r->c.running, running_pct(r), !r->err && m ? m->value : 0,
		/* perf prints a missing metric's unit with printf's "(null)" */
		r->err ? "" : m ? m->unit : "(null)");
}

static void header(FILE *f, const struct stat_opts *o, unsigned runs)
{
	if (o->target.pids)
		fprintf(f, "\n Performance counter stats for process id '%s'", o->target.pids);
	else if (o->target.tids)
		fprintf(f, "\n Performance counter stats for thread id '%s'", o->target.tids);
	else if (o->target.cpu_list)
		fprintf(f, "\n Performance counter stats for 'CPU(s) %s'", o->target.cpu_list);
	else if (o->target.all_cpus)
		fprintf(f, "\n Performance counter stats for 'system wide'");
	else {
		fprintf(f, "\n Performance counter stats for '");
		for (char **a = o->argv; *a; a++)
			fprintf(f, "%s%s", a == o->argv ? "" : " ", *a);
		fprintf(f, "'");
	}
	if (runs > 1)
		fprintf(f, " (%u runs)", runs);
	fprintf(f, ":\n\n");
}

/*
 * perf's get_precision: enough decimals to show the noise's first digit,
 * plus two.  ceil(-log10(sd)) is the least k with sd * 10^k >= 1; counting
 * it keeps libm (one more shared library to load at every start) out.
 */
static int precision(double sd)
{
	int k = 0;

	if (sd >= 1 || sd <= 0)
		return 2;
	for (double scaled = sd; scaled < 1 && k < 40; k++)
		scaled *= 10;
	return k + 2;
}

static void footer(FILE *f, const struct stat_opts *o, const struct stat_summary *s,
		   bool after_counts)
{
	/* perf leaves one blank line between the header or the counts and this
	 * (none with -n, even after -e's counts). */
	if (after_counts && !o->null_run)
		fputc('\n', f);
	if (s->runs > 1) {
		double sd = sqrt(s->wall.m2 / (s->wall.n - 1) / s->wall.n);
		int p = precision(sd);

		if (o->table)
			stat_table_print(f, s, p);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, s->wall.mean, p, sd);
		if (stat_acc_noise_pct(&s->wall) != 0)
			fprintf(f, "  ( +-%6.2f%% )", stat_acc_noise_pct(&s->wall));
		fputs("\n\n", f);
		return;
	}
	fprintf(f, "%18.9f seconds time elapsed\n\n", s->wall.mean);
	if (!s->have_ru)
		return;
	fprintf(f, "%18.9f seconds user\n", s->ru.ru_utime.tv_sec + s->ru.ru_utime.tv_usec / 1e6);
	/* perf's footer ends "\n\n" after the sys line's own '\n': two blank lines */
	fprintf(f, "%18.9f seconds sys\n\n\n", s->ru.ru_stime.tv_sec + s->ru.ru_stime.tv_usec / 1e6);
}

int stat_figures(const struct result *r, size_t nr, size_t i, const double *vals, double wall_ns,
		 struct pk_metric m[2])
{
	struct pk_metric_input in[64];
	int n;

	if (r[i].metric)
		return stat_metric_figure(r, nr, i, vals, &m[0]);
	if ((n = stat_topdown_figures(r, nr, i, vals, m)) >= 0)
		return n;
	if ((n = stat_tx_figures(r, nr, i, vals, m)) >= 0)
		return n;
	/* Figures need the whole list; lists longer than this show none. */
	if (nr > sizeof(in) / sizeof(in[0]))
		return 0;
	/* perf derives within a cgroup: the others' events count as absent. */
	for (size_t j = 0; j < nr; j++)
		in[j] = (struct pk_metric_input){ sizeof(in[j]), r[j].attr, vals[j],
						  !r[j].err && stat_cgroup_same(&r[i], &r[j]) };
	m[0] = (struct pk_metric){ .size = sizeof(m[0]) };
	n = pk_metric_derive(in, nr, i, wall_ns, m, 2);
	return n < 0 ? 0 : n;
}

/* perf's second figure (stalled cycles per insn; with -j also a topdown
 * pair's, where perf's own output is no JSON) goes on a line of its own,
 * under the first one's column. */
static void extra_line(FILE *f, const struct stat_opts *o, const char *prefix,
		       const struct pk_metric *m)
{
	char v[64];

	snprintf(v, sizeof(v), m->format ? m->format : "%f", m->value);
	if (o->json) {
		fprintf(f, "{%s\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", prefix, m->value,
			m->unit);
	} else if (o->sep) {
		fputs(prefix, f);
		for (int k = 0; k < 3 + (o->ev_cgroups != NULL); k++)
			fputs(o->sep, f);
		csv_metric(f, o->sep, m);
		fputc('\n', f);
	} else {
		fprintf(f, "%s%*s # %s %s\n", prefix, 49 + (o->no_aggr ? 8 : 0), "", v, m->unit);
	}
}

/* Print result r[i], whose figures are derived from vals[] (the values of
 * the whole list in the same context: totals, one CPU, one aggregate). */
static void line(FILE *f, const struct stat_opts *o, const char *prefix, const struct result *r,
		 size_t nr, size_t i, const struct result *shown, const double *vals, double wall_ns,
		 unsigned runs)
{
	struct pk_metric m[2];
	int n = shown->err ? 0 : stat_figures(r, nr, i, vals, wall_ns, m);
	/* A topdown pair (Heavy/Light Operations, ...) shares perf's line;
	 * stalled cycles per insn gets its own (perf's new_line). */
	bool pair = n > 1 && r[i].td != TD_NONE;
	/* perf's cgroup column: on every line once any event has a cgroup. */
	const char *cg = o->ev_cgroups ? shown->cgroup ? shown->cgroup : "" : NULL;

	if (o->json)
		json_line(f, prefix, shown, cg, n ? &m[0] : NULL, runs);
	else if (o->sep)
		csv_line(f, prefix, o->sep, shown, cg, n ? &m[0] : NULL, pair ? &m[1] : NULL, runs);
	else
		table_line(f, prefix, shown, cg, n ? &m[0] : NULL, pair, runs, o->big_num);
	if (n > 1 && !(pair && !o->json))
		extra_line(f, o, prefix, &m[1]);
}

/* "thread" : "comm-tid", with the name escaped: any process can name itself. */
static void thread_json(char *buf, size_t len, const char *comm, pid_t tid)
{
	char name[64], esc[400] = "\"\"";
	FILE *m = fmemopen(esc, sizeof(esc), "w");

	snprintf(name, sizeof(name), "%s-%d", comm, (int)tid);
	if (m) {
		json_escape(m, name);
		fclose(m);
	}
	snprintf(buf, len, "\"thread\" : %s, ", esc);
}

/* The prefix perf puts before a per-CPU or per-thread line. */
static void slot_prefix(char *buf, size_t len, const struct stat_opts *o, const struct stat_summary *s,
			size_t c, size_t t)
{
	if (o->no_aggr && o->json)
		snprintf(buf, len, "\"cpu\" : \"%d\", ", s->cpus[c]);
	else if (o->no_aggr)
		snprintf(buf, len, o->sep ? "CPU%d%s" : "CPU%-7d%s", s->cpus[c], o->sep ? o->sep : " ");
	else if (o->json)
		thread_json(buf, len, s->comm[t], s->tids[t]);
	else if (o->sep)
		snprintf(buf, len, "%s-%d%s", s->comm[t], (int)s->tids[t], o->sep);
	else
		snprintf(buf, len, "%16s-%-8d ", s->comm[t], (int)s->tids[t]);
}

/* Slot `slot` of event r as one result: <not counted> when it never ran. */
static struct result slot_result(const struct result *r, struct pk_count c)
{
	struct result one = *r;

	if (!r->err) {
		one.c = c;
		one.val = (struct stat_acc){ 1, (double)c.value, 0 };
		if (!c.running || !c.enabled)
			one.err = -EAGAIN;
	}
	return one;
}

/* Thread t of event r, summed over the CPUs (there is one unless -a). */
static struct pk_count thread_sum(const struct result *r, const struct stat_summary *s, size_t t)
{
	struct pk_count sum = { .size = sizeof(sum) };

	for (size_t c = 0; r->per && c < s->nr_cpus; c++) {
		const struct pk_count *one = &r->per[c * s->nr_threads + t];

		sum.value += one->value;
		sum.enabled += one->enabled;
		sum.running += one->running;
	}
	return sum;
}

/* Threads by count (`counts`), largest first; ties keep thread order. */
static int by_count(const void *a, const void *b, void *counts)
{
	const uint64_t *c = counts;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (c[x] != c[y])
		return c[x] < c[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

/*
 * --per-thread, as perf 6.1 prints it: for each event, its threads from the
 * largest count down (ties in thread order); system-wide (-a), threads that
 * counted nothing are left out.
 */
static void print_threads(FILE *f, const struct stat_opts *o, const char *ts, const struct result *r,
			  size_t nr, const struct stat_summary *s, double wall_ns, double *vals)
{
	size_t nt = s->nr_threads ? s->nr_threads : 1;
	size_t *order = calloc(nt, sizeof(*order));
	uint64_t *counts = calloc(nt, sizeof(*counts));

	for (size_t i = 0; order && counts && i < nr; i++) {
		size_t n = 0;

		for (size_t t = 0; t < s->nr_threads; t++) {
			counts[t] = thread_sum(&r[i], s, t).value;
			if (counts[t] || !o->target.all_cpus)
				order[n++] = t;
		}
		qsort_r(order, n, sizeof(*order), by_count, counts);
		for (size_t k = 0; k < n; k++) {
			struct result one = slot_result(&r[i], thread_sum(&r[i], s, order[k]));
			char prefix[192];
			size_t len;

			if (r[i].d->tool != PK_TOOL_NONE && order[k])
				continue;	/* a tool event's one figure is on the first thread */
			for (size_t j = 0; j < nr; j++)
				vals[j] = r[j].err ? 0 : (double)thread_sum(&r[j], s, order[k]).value;
			len = (size_t)snprintf(prefix, sizeof(prefix), "%s", ts);
			slot_prefix(prefix + len, sizeof(prefix) - len, o, s, 0, order[k]);
			line(f, o, prefix, r, nr, i, &one, vals, wall_ns, 1);
		}
	}
	free(order);
	free(counts);
}

/* -A: each event, then each CPU, like perf. */
static void print_cpus(FILE *f, const struct stat_opts *o, const char *ts, const struct result *r,
		       size_t nr, const struct stat_summary *s, double wall_ns, double *vals)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t c = 0; c < s->nr_cpus; c++)
			for (size_t t = 0; t < s->nr_threads; t++) {
				size_t slot = c * s->nr_threads + t;
				struct result one = slot_result(&r[i], r[i].per ? r[i].per[slot] : r[i].c);
				char prefix[192];
				size_t len;

				/* Like perf, a tool event shows on the first CPU only. */
				if (r[i].d->tool != PK_TOOL_NONE && slot)
					continue;
				for (size_t j = 0; j < nr; j++)
					vals[j] = r[j].err || !r[j].per ? 0 : (double)r[j].per[slot].value;
				len = (size_t)snprintf(prefix, sizeof(prefix), "%s", ts);
				slot_prefix(prefix + len, sizeof(prefix) - len, o, s, c, t);
				line(f, o, prefix, r, nr, i, &one, vals, wall_ns, 1);
			}
}

/* The aggregation key of a CPU for --per-core/die/socket/node. */
static long long agg_key(const struct stat_opts *o, const struct pk_cpu_topology *t)
{
	switch (o->per) {
	case 'c': return ((long long)t->socket << 40) | ((long long)t->die << 20) | t->core;
	case 'd': return ((long long)t->socket << 40) | ((long long)t->die << 20);
	case 's': return (long long)t->socket << 40;
	default: return t->node;
	}
}

/* perf's prefix for one aggregate: its id and how many CPUs it sums. */
static void agg_prefix(char *buf, size_t len, const struct stat_opts *o,
		       const struct pk_cpu_topology *t, int nr)
{
	const char *sep = o->sep ? o->sep : " ";
	static const char *const key[] = { ['c'] = "core", ['d'] = "die", ['s'] = "socket", ['n'] = "node" };
	char id[64];

	switch (o->per) {
	case 'c': snprintf(id, sizeof(id), o->sep || o->json ? "S%d-D%d-C%d" : "S%d-D%d-C%-8d",
			   t->socket, t->die, t->core); break;
	case 'd': snprintf(id, sizeof(id), o->sep || o->json ? "S%d-D%d" : "S%d-D%-8d", t->socket, t->die); break;
	case 's': snprintf(id, sizeof(id), o->sep || o->json ? "S%d" : "S%-5d", t->socket); break;
	default: snprintf(id, sizeof(id), o->sep || o->json ? "N%d" : "N%-5d", t->node); break;
	}
	if (o->json)
		snprintf(buf, len, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", key[(int)o->per], id, nr);
	else
		snprintf(buf, len, o->sep ? "%s%s%d%s" : "%s%s%4d%s", id, sep, nr, sep);
}

/* Sum the slots of the CPUs whose key is `k` (all threads). */
static struct pk_count agg_sum(const struct result *r, const struct stat_summary *s,
			       const struct stat_opts *o, long long k, int *nr_cpus)
{
	struct pk_count sum = { .size = sizeof(sum) };

	*nr_cpus = 0;
	for (size_t c = 0; c < s->nr_cpus; c++) {
		if (agg_key(o, &s->topo[c]) != k)
			continue;
		++*nr_cpus;
		for (size_t t = 0; r->per && t < s->nr_threads; t++) {
			const struct pk_count *one = &r->per[c * s->nr_threads + t];

			sum.value += one->value;
			sum.enabled += one->enabled;
			sum.running += one->running;
		}
	}
	return sum;
}

/* The least aggregate key above `last` (aggregates come out sorted) and
 * its first CPU; -2 when none is left. */
static long long next_agg(const struct stat_opts *o, const struct stat_summary *s, long long last,
			  size_t *first)
{
	long long k = -2;

	for (size_t c = 0; c < s->nr_cpus; c++) {
		long long kc = agg_key(o, &s->topo[c]);

		if (kc > last && (k == -2 || kc < k))
			k = kc, *first = c;
	}
	return k;
}

/*
 * --per-core/die/socket/node, as perf 6.1 prints them: each aggregate in
 * key order, and within it each event; with --metric-only, one line of
 * figures per aggregate (`one`: room for nr results), derived from the
 * aggregate's own counts.
 */
static void print_aggregates(FILE *f, const struct stat_opts *o, const char *ts, const struct result *r,
			     size_t nr, const struct stat_summary *s, double wall_ns, double *vals,
			     struct result *one)
{
	size_t first = 0;

	for (long long k = next_agg(o, s, -2, &first); k != -2; k = next_agg(o, s, k, &first)) {
		char prefix[192];
		size_t len;
		int n = 0;

		/* n: the aggregate's CPUs, whether or not its events counted. */
		for (size_t j = 0; j < nr; j++) {
			struct pk_count sum = agg_sum(&r[j], s, o, k, &n);

			vals[j] = r[j].err ? 0 : (double)sum.value;
		}
		/* perf opens each -j object itself outside -I. */
		len = (size_t)snprintf(prefix, sizeof(prefix), "%s%s", ts,
				       o->metric_only && o->json && !ts[0] ? "{" : "");
		agg_prefix(prefix + len, sizeof(prefix) - len, o, &s->topo[first], n);
		for (size_t i = 0; i < nr; i++) {
			one[i] = slot_result(&r[i], agg_sum(&r[i], s, o, k, &n));
			if (!o->metric_only)
				line(f, o, prefix, r, nr, i, &one[i], vals, wall_ns, 1);
		}
		if (o->metric_only)
			stat_metric_only_values(f, o, one, nr, vals, wall_ns, prefix);
	}
}

/* -A --metric-only: a line of figures per CPU, from its counts alone (the
 * first thread's, as perf reads them). */
static void print_cpus_metric_only(FILE *f, const struct stat_opts *o, const char *ts,
				   const struct result *r, size_t nr, const struct stat_summary *s,
				   double wall_ns, double *vals, struct result *one)
{
	for (size_t c = 0; c < s->nr_cpus; c++) {
		size_t slot = c * s->nr_threads;
		char prefix[192];
		size_t len;

		for (size_t j = 0; j < nr; j++) {
			one[j] = slot_result(&r[j], r[j].per ? r[j].per[slot] : r[j].c);
			vals[j] = one[j].err ? 0 : (double)one[j].c.value;
		}
		len = (size_t)snprintf(prefix, sizeof(prefix), "%s%s", ts, o->json && !ts[0] ? "{" : "");
		slot_prefix(prefix + len, sizeof(prefix) - len, o, s, c, 0);
		stat_metric_only_values(f, o, one, nr, vals, wall_ns, prefix);
	}
}

/* --metric-only split per aggregate or CPU: perf's headings when `head`
 * (over the first aggregate's or CPU's counts, as perf's shadow stats
 * hold them; `interval`: -I's first), then a line each. */
static void print_split_metric_only(FILE *f, const struct stat_opts *o, const char *ts,
				    const struct result *r, size_t nr, const struct stat_summary *s,
				    double wall_ns, double *vals, bool head, bool interval)
{
	struct result *one = calloc(nr ? nr : 1, sizeof(*one));
	size_t first = 0;
	long long k;
	int n;

	if (!one)
		return;
	for (size_t j = 0; j < nr; j++)
		vals[j] = 0;
	if (o->per && (k = next_agg(o, s, -2, &first)) != -2)
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err ? 0 : (double)agg_sum(&r[j], s, o, k, &n).value;
	else if (!o->per && s->nr_cpus)
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err || !r[j].per ? 0 : (double)r[j].per[0].value;
	/* perf heads -A's figures whether or not the event counted. */
	for (size_t j = 0; j < nr; j++) {
		one[j] = r[j];
		if (!o->per)
			one[j].err = 0;
	}
	if (head)
		stat_metric_only_header(f, o, one, nr, vals, wall_ns, interval ? "" : NULL);
	if (o->per)
		print_aggregates(f, o, interval ? ts : "", r, nr, s, wall_ns, vals, one);
	else
		print_cpus_metric_only(f, o, interval ? ts : "", r, nr, s, wall_ns, vals, one);
	free(one);
}

/* The counts, split the way the options ask, each line after `ts`. */
static void print_split(FILE *f, const struct stat_opts *o, const char *ts, const struct result *r,
			size_t nr, const struct stat_summary *s, double wall_ns, double *vals)
{
	struct result *one;

	if (o->per) {
		if ((one = calloc(nr ? nr : 1, sizeof(*one))))
			print_aggregates(f, o, ts, r, nr, s, wall_ns, vals, one);
		free(one);
	} else if (o->per_thread)
		print_threads(f, o, ts, r, nr, s, wall_ns, vals);
	else
		print_cpus(f, o, ts, r, nr, s, wall_ns, vals);
}

void stat_print(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
		const struct stat_summary *s)
{
	double wall_ns = s->wall.mean * 1e9;
	double *vals = calloc(nr ? nr : 1, sizeof(*vals));
	char prefix[64] = "";
	struct stat_opts totals = *o;

	totals.summary_now = o->interval_ms != 0;	/* --summary's, after the intervals */
	o = &totals;

	if (o->quiet || !vals) {
		free(vals);
		return;
	}
	/* --summary's totals after -I: perf's CSV marks each line (JSON not). */
	if (o->interval_ms && o->sep && !o->no_csv_summary)
		snprintf(prefix, sizeof(prefix), "%16s%s", "summary", o->sep);
	if (!o->sep && !o->json)
		header(f, o, s->runs);
	if (o->metric_only && (o->per || o->no_aggr)) {
		/* perf heads the totals only without intervals before them */
		print_split_metric_only(f, o, prefix, r, nr, s, wall_ns, vals, !o->summary_now, false);
	} else if (o->metric_only) {
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err ? 0 : r[j].val.mean;
		if (!o->summary_now)
			stat_metric_only_header(f, o, r, nr, vals, wall_ns, NULL);
		stat_metric_only_values(f, o, r, nr, vals, wall_ns, NULL);
	} else if (o->per || o->no_aggr || o->per_thread) {
		print_split(f, o, prefix, r, nr, s, wall_ns, vals);
	} else {
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err ? 0 : r[j].val.mean;
		for (size_t i = 0; i < nr; i++)
			line(f, o, prefix, r, nr, i, &r[i], vals, wall_ns, s->runs);
	}
	if (!o->sep && !o->json)
		footer(f, o, s, nr > 0);
	free(vals);
}

/* perf 6.1's header over -I output, by how the counts are split. */
static const char *interval_header(const struct stat_opts *o)
{
	switch (o->per) {
	case 'n': return "#           time node   cpus             counts unit events\n";
	case 's': return "#           time socket cpus             counts unit events\n";
	case 'd': return "#           time die          cpus             counts unit events\n";
	case 'c': return "#           time core            cpus             counts unit events\n";
	}
	if (o->no_aggr)
		return "#           time CPU                    counts unit events\n";
	if (o->per_thread)
		return "#           time             comm-pid                  counts unit events\n";
	return "#           time             counts unit events\n";
}

void stat_print_interval(FILE *f, const struct stat_opts *o, const struct result *r, size_t nr,
			 const struct stat_summary *s, double ts, double wall_ns, bool head)
{
	char prefix[64];
	unsigned long long ns = (unsigned long long)(ts * 1e9 + 0.5);
	unsigned long sec = (unsigned long)(ns / 1000000000ULL);
	double *vals = calloc(nr ? nr : 1, sizeof(*vals));

	if (o->quiet || !vals) {
		free(vals);
		return;
	}
	if (o->interval_clear) {	/* perf puts its clear to stdout */
		fputs("\033[H\033[2J\n", stdout);
		fflush(stdout);
	}
	/* perf repeats the heading after each clear, in every layout */
	if (((head && !o->sep && !o->json) || o->interval_clear) && !o->metric_only)
		fputs(interval_header(o), f);
	snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s", sec, (unsigned long)(ns % 1000000000ULL),
		 o->sep ? o->sep : " ");
	if (o->json)
		snprintf(prefix, sizeof(prefix), "\"interval\" : %lu.%09lu, ", sec,
			 (unsigned long)(ns % 1000000000ULL));
	if (o->metric_only && o->json)	/* perf's -j -I --metric-only stamps the line so */
		snprintf(prefix, sizeof(prefix), "{\"interval\" : %lu.%09lu}", sec,
			 (unsigned long)(ns % 1000000000ULL));
	if (o->metric_only && (o->per || o->no_aggr)) {
		print_split_metric_only(f, o, prefix, r, nr, s, wall_ns, vals, head || o->interval_clear,
					true);
	} else if (o->metric_only) {
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err ? 0 : r[j].val.mean;
		if (head || o->interval_clear)
			stat_metric_only_header(f, o, r, nr, vals, wall_ns, "");
		stat_metric_only_values(f, o, r, nr, vals, wall_ns, prefix);
	} else if (o->per || o->no_aggr || o->per_thread) {
		print_split(f, o, prefix, r, nr, s, wall_ns, vals);
	} else {
		for (size_t j = 0; j < nr; j++)
			vals[j] = r[j].err ? 0 : r[j].val.mean;
		for (size_t i = 0; i < nr; i++)
			line(f, o, prefix, r, nr, i, &r[i], vals, wall_ns, 1);
	}
	free(vals);
	fflush(f);
}
