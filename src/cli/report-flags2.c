/* SPDX-License-Identifier: MIT */
/*
 * report-flags2.c - perf report 6.1's everyday flags: --time (perf's time
 * string, parsed by diff-time.c's parser, the ranges' samples kept and the
 * slices named in each section's header), -U/--hide-unresolved (a sample
 * with no symbol counts nowhere), --switch-on/--switch-off/
 * --show-on-off-events (perf's evswitch: samples count only between a
 * sample of the on event and one of the off event), --ns, and the flags
 * perf takes for its TUI or for annotate alone, accepted as perf accepts
 * them.
 */
#include "report.h"
#include "report-flags2.h"
#include "diff.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_flags2_chain {
	struct pk_resolved_sample rs;
	struct pk_frame *frames;
	size_t cap;
	size_t from;		/* the first frame kept */
};

/* --ignore-callees on the n frames of c: perf's add_callchain_ip resets
 * its cursor at each match in its walk, the match the sample's root.
 * Returns the frames left (from c->from). */
static size_t root_frame(const struct report_opts *o, struct report_flags2_chain *c, size_t n)
{
	long k = -1;

	for (size_t i = 0; i < n; i++) {
		size_t at = o->cg.caller ? n - 1 - i : i;

		/* perf's DWARF-unwound frames pass no such test */
		if (!c->frames[at].unwound && c->frames[at].loc.sym && !regexec(&o->f2.callees_re, c->frames[at].loc.sym, 0, NULL, 0))
			k = (long)at;
	}
	if (k < 0)
		return n;
	c->rs.loc = c->frames[k].loc;
	c->rs.cpumode = c->frames[k].cpumode;
	c->rs.frames = NULL;	/* changed, even when every frame stays */
	if (o->cg.caller)
		return (size_t)k + 1;	/* the walk went inwards: the callers forgotten */
	c->from = (size_t)k;
	return n - (size_t)k;
}

struct report_flags2_totals {
	const struct pk_hist *h;	/* the histogram last summed */
	uint64_t period, nr;
};

static int percent_type(const char *arg);

/* perf's report_parse_ignore_callees_opt: an extended regex. */
static int ignore_callees(struct report_flags2 *f, const char *arg)
{
	char buf[256];
	int err;

	if (f->ignore_callees)
		regfree(&f->callees_re);
	f->ignore_callees = false;
	if ((err = regcomp(&f->callees_re, arg, REG_EXTENDED | REG_NOSUB))) {
		regerror(err, &f->callees_re, buf, sizeof(buf));
		return cli_usage("report", "Invalid --ignore-callees regex: %s: %s", arg, buf);
	}
	f->ignore_callees = true;
	return 0;
}

int report_flags2_option(struct report_opts *o, int id, const char *arg)
{
	struct report_flags2 *f = &o->f2;
	uint64_t v;

	switch (id) {
	case REPORT_OPT_TIME: f->time_str = arg; return 0;
	case REPORT_OPT_NS: f->ns = true; return 0;
	case REPORT_OPT_HIDE_UNRESOLVED: f->hide_unresolved = true; return 0;
	case REPORT_OPT_TASKS: f->tasks = true; return 0;
	case REPORT_OPT_MMAPS: f->mmaps = f->tasks = true; return 0;	/* perf: --mmaps is --tasks with maps */
	case REPORT_OPT_SWITCH_ON: f->switch_on = arg; return 0;
	case REPORT_OPT_SWITCH_OFF: f->switch_off = arg; return 0;
	case REPORT_OPT_SHOW_ON_OFF: f->show_on_off = true; return 0;
	case REPORT_OPT_FIELD_SEP:
		if (!*arg)	/* perf's OPT_STRING_NOEMPTY */
			return cli_usage("report", "-t/--field-separator needs a separator");
		f->field_sep = arg;
		return 0;
	case REPORT_OPT_SAMPLES:	/* perf's TUI's samples to list per entry: a number, unused by --stdio */
		return cli_num_u64("report", "--samples", arg, 0, INT32_MAX, &v) < 0 ? CLI_EXIT_USAGE : 0;
	case REPORT_OPT_PREFIX: f->prefix = true; return 0;
	case REPORT_OPT_PREFIX_STRIP: f->prefix_strip = true; return 0;
	case REPORT_OPT_PERCENT_TYPE: return percent_type(arg);
	case REPORT_OPT_CPU_UTIL: f->cpu_util = true; return 0;
	case REPORT_OPT_REF_CG: f->ref_cg = true; return 0;
	case REPORT_OPT_KALLSYMS: f->kallsyms = arg; return 0;
	case REPORT_OPT_DISABLE_ORDER: f->disable_order = true; return 0;
	case REPORT_OPT_IGNORE_CALLEES: return ignore_callees(f, arg);
	case REPORT_OPT_PERCENTAGE:	/* perf's parse_filter_percentage */
		if (!strcmp(arg, "relative"))
			f->relative = true;
		else if (!strcmp(arg, "absolute"))
			f->relative = false;
		else
			return cli_usage("report", "--percentage takes relative or absolute, not '%s'", arg);
		return 0;
	default: return 0;	/* the TUI and annotate flags: nothing --stdio shows depends on them */
	}
}

/* perf's annotate_parse_percent_type: local or global, then period or
 * hits, joined by '-' in either order. */
static int percent_type(const char *arg)
{
	static const char *const ok[] = { "local-period", "global-period", "local-hits", "global-hits",
					  "period-local", "period-global", "hits-local", "hits-global" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(arg, ok[i]))
			return 0;
	return cli_usage("report", "--percent-type takes local-period, global-period, local-hits or "
			 "global-hits, not '%s'", arg);
}

/* perf's evlist__find_evsel_by_str: the event named `name`, or -1 after
 * perf's message naming which switch. */
static int find_event(struct pk_data_reader *r, const char *which, const char *name)
{
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
		const char *ev = pk_data_reader_name(r, i);

		if (ev && !strcmp(ev, name))
			return (int)i;
	}
	cli_message(stderr, "ERROR: switch-%s event not found (%s)\n", which, name);
	cli_message(stderr, "HINT:  'perfkit report --header-only' lists the file's event names\n");
	return -1;
}

static int setup_time(struct report_opts *o, struct pk_data_reader *r)
{
	const struct pk_feature_sample_time *st;
	struct pk_feature *feat = NULL;
	uint64_t first = 0, last = 0;
	int err;

	if (!(o->f2.time = calloc(1, sizeof(*o->f2.time))))
		return -ENOMEM;
	if (pk_data_reader_decode(r, PK_DATA_FEAT_SAMPLE_TIME, &feat) == 0 && (st = pk_feature_sample_time(feat))) {
		first = st->first_ns;
		last = st->last_ns;
	}
	pk_feature_free(feat);
	err = diff_time_parse(o->f2.time_str, first, last, o->f2.time);
	if (err == -ENODATA) {
		cli_message(stderr, "perfkit report: --time %s: %s has no first and last sample times (perf's "
			    "SAMPLE_TIME feature)\n", o->f2.time_str, o->input);
		return CLI_EXIT_EVENT;
	}
	if (err == -EINVAL)
		return cli_usage("report", "invalid --time string '%s'", o->f2.time_str);
	return err;
}

int report_flags2_setup(struct report_opts *o, struct pk_data_reader *r)
{
	struct report_flags2 *f = &o->f2;
	int err;

	f->on_ev = f->off_ev = -1;
	if (f->prefix_strip && !f->prefix)	/* perf's annotate_check_args */
		return cli_usage("report", "--prefix-strip requires --prefix");
	if (f->kallsyms && access(f->kallsyms, R_OK)) {	/* perf's symbol__init */
		cli_message(stderr, "perfkit report: Invalid file: %s\n", f->kallsyms);
		return CLI_EXIT_EVENT;
	}
	if (f->time_str && (err = setup_time(o, r)) != 0)
		return err;
	if (!(f->discarding = calloc(1, sizeof(*f->discarding))) ||
	    ((f->hide_unresolved || f->ignore_callees) && !(f->chain = calloc(1, sizeof(*f->chain)))) ||
	    (f->relative && !(f->totals = calloc(1, sizeof(*f->totals)))))
		return -ENOMEM;
	if (f->switch_on) {
		if ((f->on_ev = find_event(r, "on", f->switch_on)) < 0)
			return CLI_EXIT_EVENT;
		*f->discarding = true;	/* nothing counts before the first on */
	}
	if (f->switch_off && (f->off_ev = find_event(r, "off", f->switch_off)) < 0)
		return CLI_EXIT_EVENT;
	return 0;
}

/* perf's evswitch__discard: the switch turned by its events' samples,
 * which themselves count only with --show-on-off-events. */
static bool switch_discard(const struct report_flags2 *f, size_t ev)
{
	if (f->on_ev >= 0 && *f->discarding) {
		if ((size_t)f->on_ev != ev)
			return true;
		*f->discarding = false;
		return !f->show_on_off;
	}
	if (f->off_ev >= 0 && !*f->discarding) {
		if ((size_t)f->off_ev != ev)
			return false;
		*f->discarding = true;
		return !f->show_on_off;
	}
	return false;
}

bool report_flags2_skip(const struct report_opts *o, size_t ev, const struct pk_sample *s)
{
	const struct report_flags2 *f = &o->f2;

	if (f->time && diff_time_skip(f->time, s->fields & PERF_SAMPLE_TIME ? s->time : 0))
		return true;
	return f->discarding && switch_discard(f, ev);
}

int report_flags2_chain(const struct report_opts *o, const struct pk_resolved_sample **rs)
{
	const struct pk_resolved_sample *in = *rs;
	struct report_flags2_chain *c = o->f2.chain;
	size_t n = 0;

	if (!c || !in->nr_frames)
		return 0;
	c->rs = *in;
	if (in->nr_frames > c->cap) {
		struct pk_frame *f = realloc(c->frames, in->nr_frames * sizeof(*f));

		if (!f)
			return -ENOMEM;
		c->frames = f;
		c->cap = in->nr_frames;
	}
	for (size_t i = 0; i < in->nr_frames; i++)
		if (in->frames[i].loc.sym || !o->f2.hide_unresolved)
			c->frames[n++] = in->frames[i];
	if (o->f2.ignore_callees && (o->callchain || o->children || o->parent_on))
		n = root_frame(o, c, n);
	if (n == in->nr_frames && c->rs.frames == in->frames)
		return 0;
	c->rs.frames = c->frames + c->from;
	c->rs.nr_frames = n;
	c->from = 0;
	*rs = &c->rs;
	return 0;
}

int report_flags2_resolver(const struct report_opts *o, struct pk_resolver *res)
{
	if (!o->f2.kallsyms)
		return 0;
	return pk_maps_set_dir(pk_resolver_maps(res), PK_MAPS_DIR_KALLSYMS, o->f2.kallsyms);
}

const char *report_flags2_time_note(const struct report_opts *o, const char *name, char *buf, size_t len)
{
	bool ref = o->f2.ref_cg && name && strstr(name, "call-graph=no");

	snprintf(buf, len, "%s%s%s%s", o->f2.time_str ? " (time slices: " : "", o->f2.time_str ? o->f2.time_str : "",
		 o->f2.time_str ? ")" : "", ref ? ", show reference callgraph" : "");
	return buf;
}

void report_flags2_sep_cell(FILE *f, const struct report_opts *o, char *s, bool key, int width)
{
	if (key) {	/* perf's repsep_snprintf */
		for (char *p = s; (p = strchr(p, o->f2.field_sep[0])); p++)
			*p = '.';
		fputs(s, f);
		return;
	}
	fprintf(f, "%-*s", width, s);
}

/* The unfiltered entries' period and samples of h, summed once per histogram. */
static const struct report_flags2_totals *unfiltered(const struct report_opts *o, const struct pk_hist *h)
{
	struct report_flags2_totals *t = o->f2.totals;

	if (t->h != h) {
		t->h = h;
		t->period = t->nr = 0;
		for (size_t i = 0; i < pk_hist_nr(h); i++) {
			const struct pk_hist_entry *e = pk_hist_get(h, i);

			if (!e->s.filtered) {
				t->period += e->period;
				t->nr += e->nr_samples;
			}
		}
	}
	return t;
}

uint64_t report_flags2_total(const struct report_opts *o, const struct pk_hist *h)
{
	return o->f2.relative && o->f2.totals ? unfiltered(o, h)->period : pk_hist_total_period(h);
}

double report_flags2_percent(const struct report_opts *o, const struct pk_hist *h, uint64_t v)
{
	uint64_t total = report_flags2_total(o, h);

	return total ? 100.0 * (double)v / (double)total : 0.0;
}

bool report_flags2_below_limit(const struct report_opts *o, const struct pk_hist *h, const struct pk_hist_entry *e)
{
	uint64_t total = report_flags2_total(o, h);
	uint64_t period = o->children ? e->period_acc : e->period;

	if (!o->f2.relative)
		return pk_hist_below_limit(h, e, o->percent_limit);
	return (total ? (float)((double)period * 100.0 / (double)total) : 0.0f) < (float)o->percent_limit;
}

void report_flags2_totals(const struct report_opts *o, const struct pk_hist *h, uint64_t *nr, uint64_t *period)
{
	if (!o->f2.relative || !o->f2.totals)
		return;
	*nr = unfiltered(o, h)->nr;
	*period = unfiltered(o, h)->period;
}

void report_flags2_free(struct report_opts *o)
{
	if (o->f2.time)
		free(o->f2.time->r);
	free(o->f2.time);
	free(o->f2.discarding);
	if (o->f2.chain)
		free(o->f2.chain->frames);
	free(o->f2.chain);
	free(o->f2.totals);
	if (o->f2.ignore_callees)
		regfree(&o->f2.callees_re);
	o->f2.ignore_callees = false;
	o->f2.totals = NULL;
	o->f2.chain = NULL;
	o->f2.time = NULL;
	o->f2.discarding = NULL;
}
