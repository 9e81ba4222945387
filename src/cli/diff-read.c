/* SPDX-License-Identifier: MIT */
/*
 * diff-read.c - one perf.data file of `perfkit diff` read as perf diff
 * reads it: records in time order, side-band records followed by the
 * resolver, every sample counted into its event's histogram with perf's
 * short DSO names (a path's last component, "[JIT] tid PID" for
 * anonymous code), the histograms keyed by name on one interner shared
 * by the files, so that their entries pair by name; or,
 * for --format, every sample's stack into an exporter.  Samples outside
 * --time's ranges (diff-time.c) are dropped first.
 */
#include "diff.h"
#include "dso-names.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static enum pk_frame_kind kind_of(const struct pk_location *loc)
{
	const char *n = loc->dso ? loc->dso->name : "";

	if (loc->kernel)
		return PK_FRAME_KERNEL;
	if (!strncmp(n, "//anon", 6) || !strncmp(n, "/tmp/perf-", 10) || !strncmp(n, "[JIT]", 5))
		return PK_FRAME_JIT;
	return PK_FRAME_USER;
}

static struct pk_export_frame frame_of(uint64_t ip, const struct pk_location *loc)
{
	return (struct pk_export_frame){ .name = loc->sym, .addr = ip, .dso = loc->dso ? loc->dso->name : NULL,
					 .file_offset = loc->addr, .kind = kind_of(loc) };
}

/* A sample's stack (its call chain, or its ip alone) into the exporter. */
static int export_sample(struct diff_file *f, size_t ev, const struct pk_sample *smp,
			 const struct pk_resolved_sample *rs)
{
	const struct perf_event_attr *a = pk_data_reader_attr(f->r, ev);
	size_t n = rs->nr_frames ? rs->nr_frames : 1;
	struct pk_export_sample s = {
		.size = sizeof(s), .ev = (uint32_t)ev, .pid = rs->pid, .tid = rs->tid, .comm = rs->comm,
		.weight = smp->fields & PERF_SAMPLE_PERIOD ? smp->period : a->sample_period,
		.cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1,
		.has_time = smp->fields & PERF_SAMPLE_TIME, .time = smp->time, .nr_frames = n,
	};

	if (n > f->cap_frames) {
		struct pk_export_frame *fr = realloc(f->frames, n * sizeof(*fr));

		if (!fr)
			return -ENOMEM;
		f->frames = fr;
		f->cap_frames = n;
	}
	if (!rs->nr_frames)
		f->frames[0] = frame_of(smp->ip, &rs->loc);
	for (size_t i = 0; i < rs->nr_frames; i++)
		f->frames[i] = frame_of(rs->frames[i].ip, &rs->frames[i].loc);
	s.frames = f->frames;
	return pk_exporter_add(f->ex, &s);
}

bool diff_in_list(const char *list, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	for (const char *p = list; s && *p; p += *p == ',') {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, s, n))
			return true;
		p += len;
	}
	return false;
}

static bool in_ids(const pid_t *ids, size_t nr, pid_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Whether -C, -d, -S, --pid or --tid hide the sample, as perf's filters of
 * machine__resolve (a DSO by its short name or its path). */
static bool filtered(const struct diff_opts *o, const struct pk_hist_sample *s, const struct pk_location *loc)
{
	return (o->comms && !diff_in_list(o->comms, s->comm)) ||
	       (o->dsos && !diff_in_list(o->dsos, s->dso) &&
		!(loc->dso && diff_in_list(o->dsos, loc->dso->name))) ||
	       (o->syms && !diff_in_list(o->syms, s->sym)) ||
	       (o->pids && !in_ids(o->pids, o->nr_pids, (pid_t)s->pid)) ||
	       (o->tids && !in_ids(o->tids, o->nr_tids, (pid_t)s->tid));
}

/* --cpu: perf drops the samples of other CPUs before counting them. */
static bool cpu_dropped(const struct diff_opts *o, const struct pk_sample *smp)
{
	for (size_t i = 0; o->cpus && i < o->nr_cpus; i++)
		if ((uint32_t)o->cpus[i] == smp->cpu)
			return false;
	return o->cpus;
}

/* The later keys' fields, by report's fillers (o->rep holds the keys):
 * time, sizes, socket, weights, transaction, page size, address, cgroup
 * namespace; the source line and file.  The parent stays NULL: perf's
 * diff__process_sample_event adds the sample with no parent symbol. */
static int fill_keys(struct diff_file *f, const struct diff_opts *o, const struct pk_sample *smp,
		     const struct pk_resolved_sample *rs, struct pk_hist_sample *s)
{
	if (report_sort2_fill(o->rep, smp, &rs->loc, s) < 0)
		return -ENOMEM;
	if (report_srcline_wanted(o->rep) &&
	    report_srcline_fill(&f->src, o->rep, pk_resolver_maps(f->res), &rs->loc, s) < 0)
		return -ENOMEM;
	return 0;
}

static int add_sample(struct diff_file *f, const struct diff_opts *o, size_t ev, const struct pk_sample *smp,
		      const struct pk_resolved_sample *rs)
{
	const struct perf_event_attr *attr = pk_data_reader_attr(f->r, ev);
	struct pk_hist_sample s = { .size = sizeof(s) };
	bool nomem = false;

	if (cpu_dropped(o, smp))
		return 0;
	if (f->ex)
		return export_sample(f, ev, smp, rs);
	if (o->cycles && diff_cycles_sample(f, o, smp, rs) < 0)
		return -ENOMEM;
	s.cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1;
	s.period = smp->fields & PERF_SAMPLE_PERIOD ? smp->period : attr->sample_period;
	s.comm = rs->comm;
	s.pid = rs->pid;
	s.tid = rs->tid;
	s.level = cli_sample_level(rs->cpumode);
	s.sym = rs->loc.sym;
	s.sym_start = rs->loc.sym_start;
	s.ip = rs->loc.dso ? rs->loc.addr : smp->ip;
	/* -v: the full path, and the origin of its symbols kept (report -v's) */
	if (o->verbose)
		s.dso = report_verbose_dso(o->rep, o->dso_names, rs->loc.dso, s.pid, &nomem);
	else
		s.dso = cli_dso_short_name(o->dso_names, rs->loc.dso, s.pid, &nomem);
	if (nomem || fill_keys(f, o, smp, rs, &s) < 0)
		return -ENOMEM;
	s.filtered = filtered(o, &s, &rs->loc);
	return pk_hist_add(f->hist[ev], &s);
}

/* One record: a sample into its histogram, the rest to the resolver. */
static int add_record(struct diff_file *f, const struct diff_opts *o, const struct perf_event_header *h)
{
	int ev = pk_data_reader_event_of(f->r, h);
	const struct perf_event_attr *attr = ev >= 0 ? pk_data_reader_attr(f->r, (size_t)ev) : NULL;
	struct pk_record d = { .size = sizeof(d) };
	struct pk_resolved_sample rs = { .size = sizeof(rs) };
	int err;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (ev < 0 || (size_t)ev >= f->nr_ev)
			return 0;	/* a sample of no known event: perf drops those too */
		if (pk_record_decode(h, attr, &d) != 0)
			return -EINVAL;
		/* --time: perf drops the sample before anything else (a sample
		 * without a time counts as perf's -1). */
		if (diff_time_skip(&f->ranges, d.sample.fields & PERF_SAMPLE_TIME ? d.sample.time : UINT64_MAX))
			return 0;
		if ((err = pk_resolver_resolve(f->res, &d, &rs)) < 0)
			return err;
		return add_sample(f, o, (size_t)ev, &d.sample, &rs);
	}
	if (pk_record_decode(h, attr ? attr : pk_data_reader_attr(f->r, 0), &d) != 0)
		return 0;
	if (d.type == PERF_RECORD_NAMESPACES && (err = report_sort3_namespaces(o->rep, &d.namespaces)) < 0)
		return err;
	if (d.type == PERF_RECORD_CGROUP && (err = cli_cgroup_add(o->cgroups, &d.cgroup)) < 0)
		return err;
	return pk_resolver_process(f->res, &d);
}

/* A clock event's weights are nanoseconds; any other's are counts. */
static const char *unit_of(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK))
		return "nanoseconds";
	return "count";
}

static int make_exporter(struct diff_file *f, const char *title)
{
	size_t nr = pk_data_reader_nr_events(f->r);
	struct pk_export_event *ev = calloc(nr ? nr : 1, sizeof(*ev));
	struct pk_export_opts eo = { .size = sizeof(eo), .format = PK_EXPORT_FLAMEGRAPH, .events = ev,
				     .nr_events = nr, .title = title };
	int err;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const char *name = pk_data_reader_name(f->r, i);

		ev[i] = (struct pk_export_event){ name ? name : "unknown", unit_of(pk_data_reader_attr(f->r, i)) };
	}
	err = pk_exporter_new(&eo, &f->ex);
	free(ev);
	return err;
}

static int setup(struct diff_file *f, const struct diff_opts *o, const char *title)
{
	size_t nr = pk_data_reader_nr_events(f->r);
	char dir[4096];
	int err;

	if ((err = pk_resolver_new(f->r, &f->res)) < 0)
		return err;
	if ((cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(f->res, dir)) < 0) ||
	    (err = cli_symfs_apply(f->res)) < 0)
		return err;
	if (o->format != DIFF_FORMAT_STDIO) {
		f->nr_ev = nr;
		return make_exporter(f, title);
	}
	if (!(f->hist = calloc(nr ? nr : 1, sizeof(*f->hist))))
		return -ENOMEM;
	for (; f->nr_ev < nr; f->nr_ev++)
		if ((err = pk_hist_new(o->keys, o->nr_keys, &f->hist[f->nr_ev])) < 0 ||
		    (err = pk_hist_set_by_name(f->hist[f->nr_ev], o->names)) < 0)
			return err;
	return 0;
}

int diff_file_filters(struct pk_data_reader *r, const char *path, const char *time, const struct diff_opts *o,
		      struct diff_time *ranges)
{
	const struct pk_feature_sample_time *st;
	struct pk_feature *feat = NULL;
	uint64_t first = 0, last = 0;
	int err;

	for (size_t i = 0; o->cpus && i < pk_data_reader_nr_events(r); i++)
		if (!(pk_data_reader_attr(r, i)->sample_type & PERF_SAMPLE_CPU)) {
			cli_message(stderr, "perfkit diff: %s does not contain CPU events: remove --cpu to "
				    "proceed\n", path);
			return CLI_EXIT_EVENT;
		}
	if (!time)
		return 0;
	if (pk_data_reader_decode(r, PK_DATA_FEAT_SAMPLE_TIME, &feat) == 0 && (st = pk_feature_sample_time(feat))) {
		first = st->first_ns;
		last = st->last_ns;
	}
	pk_feature_free(feat);
	if ((err = diff_time_parse(time, first, last, ranges)) == -ENODATA) {
		cli_message(stderr, "perfkit diff: --time %s: %s has no first and last sample times (perf's "
			    "SAMPLE_TIME feature)\n", time, path);
		return CLI_EXIT_EVENT;
	}
	if (err == -EINVAL)
		return cli_usage("diff", "invalid --time string '%s'", time);
	return err < 0 ? cli_error("diff", NULL) : 0;
}

int diff_file_read(struct diff_file *f, const struct diff_opts *o, const char *title)
{
	const struct perf_event_header *rec;
	int rc, err = 0;

	if ((rc = cli_check_input("diff", f->path, o->force, false)))
		return rc;
	if (pk_data_reader_open(f->path, &f->r) < 0)
		return cli_error("diff", NULL);
	if (o->verbose > 0)
		diff_verbose_header(stderr, f->r);
	if (setup(f, o, title) < 0)
		return cli_error("diff", NULL);
	if ((rc = report_sort2_trace_file(o->rep, f->r)))
		return rc;
	if ((rc = diff_file_filters(f->r, f->path, f->time, o, &f->ranges)))
		return rc;
	while (!err && (rc = pk_data_reader_next(f->r, &rec)) > 0)
		err = add_record(f, o, rec);
	for (size_t i = 0; err >= 0 && f->hist && i < f->nr_ev; i++)	/* as report's */
		if (report_comm_override(f->hist[i], pk_resolver_threads(f->res)) < 0)
			return cli_error("diff", NULL);
	if (err < 0 && err != -EINVAL)
		return cli_error("diff", NULL);
	if (err == -EINVAL || rc < 0) {	/* the samples before the damage stand, as in report */
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit diff: warning: %s: %s: %s; the comparison covers the records "
			    "before it\n", f->path, e->what, e->why);
	}
	return 0;
}

void diff_file_free(struct diff_file *f)
{
	for (size_t i = 0; f->hist && i < f->nr_ev; i++)
		pk_hist_free(f->hist[i]);
	pk_exporter_free(f->ex);
	diff_cycles_free(f->cyc);
	report_srclines_free(f->src);
	free(f->frames);
	free(f->hist);
	free(f->ranges.r);
	pk_resolver_free(f->res);
	pk_data_reader_free(f->r);
}
