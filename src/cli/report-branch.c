/* SPDX-License-Identifier: MIT */
/*
 * report-branch.c - perf report's branch mode (-b, and perf 6.1's default
 * for a file whose header has the BRANCH_STACK feature and whose samples
 * carry no user stack): every entry of a sample's branch stack is a
 * histogram entry of period 1, keyed by perf's default branch sort order
 * (comm, dso_from, symbol_from, symbol_to, cycles), both ends resolved as
 * perf's thread__find_cpumode_addr_location does (user maps, then the
 * kernel's; an address neither holds is level H); the table is printed
 * in perf's --stdio layout with its column widths and order, followed by
 * perf's "Branch Statistics" block (branch_type_count's counts).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit/resolve.h"
#include "perfkit/symbols.h"

#include "cli.h"
#include "report-branch.h"
#include "report-branch2.h"

struct report_branch {
	const struct report_opts *o;
	struct report_opts src_o;	/* srcline keys: report-srcline.c's want (keys = srcline) */
	struct report_srclines *src;	/* ... its strings */
	struct br_keys keys;
	struct br_table *ev;
	size_t nr_ev;
	struct pk_branch_counts stats;	/* the type counts of "Branch Statistics" */
};

static unsigned int keys_flags(const struct report_opts *o)
{
	return (o->parent_arg ? BR_KEYS_PARENT : 0) | (o->show_nr ? BR_KEYS_SAMPLES : 0) |
	       (o->show_period ? BR_KEYS_PERIOD : 0);
}

int report_branch_setup(const struct report_opts *o, struct pk_data_reader *r, struct report_branch **out)
{
	size_t nr_ev = pk_data_reader_nr_events(r);
	struct report_branch *b = calloc(1, sizeof(*b));

	if (!b || !(b->ev = calloc(nr_ev ? nr_ev : 1, sizeof(*b->ev)))) {
		free(b);
		return -ENOMEM;
	}
	if (br_keys_setup(&b->keys, o->sort_arg, o->fields_arg, keys_flags(o)) != 0) {
		free(b->ev);	/* not reached: report_branch_keys refused these keys first */
		free(b);
		return -EINVAL;
	}
	for (size_t i = 0; i < nr_ev; i++)
		br_table_init(&b->ev[i]);
	b->o = o;
	b->keys.dsos_given = o->dsos != NULL;
	b->keys.symbol_filter = o->symbol_filter;
	b->src_o.keys[0] = PK_HIST_KEY_SRCLINE;
	b->src_o.nr_keys = 1;
	b->keys.percent_limit = o->percent_limit;
	b->keys.sep = o->f2.field_sep;
	b->nr_ev = nr_ev;
	*out = b;
	return 0;
}

void report_branch_free(struct report_branch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_ev; i++)
		free(b->ev[i].e);
	report_srclines_free(b->src);
	free(b->ev);
	free(b);
}

/* perf's thread__find_cpumode_addr_location: user maps, then the kernel's. */
static int resolve_end(struct report_branch *b, struct pk_maps *m, struct cli_names *names, uint32_t pid,
		       uint64_t addr, struct br_end *out)
{
	static const uint16_t modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL };
	const struct report_opts *o = b->o;
	struct pk_location loc = { .size = sizeof(loc) };
	bool nomem = false;

	*out = (struct br_end){ .raw = addr, .addr = addr, .level = 'H' };
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		loc = (struct pk_location){ .size = sizeof(loc) };
		if (pk_maps_resolve(m, pid, addr, modes[i], &loc) != 0 || !loc.dso) {
			loc = (struct pk_location){ .size = sizeof(loc) };	/* no map: "??:0" */
			continue;
		}
		out->level = loc.kernel ? 'k' : '.';
		out->sym = loc.sym;
		out->start = loc.sym_start;
		out->symoff = loc.symoff;
		out->addr = loc.kernel ? loc.addr : loc.map_ip;
		out->kernel = loc.kernel;
		out->dso = o->verbose ? report_verbose_dso(o, names, loc.dso, pid, &nomem) :	/* -v: long names */
					cli_dso_short_name(names, loc.dso, pid, &nomem);
		if (nomem)
			return -ENOMEM;
		break;
	}
	if (b->keys.srclines) {	/* perf's map__srcline(map, al_addr, sym); "??:0" for no map */
		struct pk_hist_sample s = { .size = sizeof(s), .dso = out->dso };

		if (report_srcline_fill(&b->src, &b->src_o, m, &loc, &s) < 0)
			return -ENOMEM;
		out->srcline = s.srcline;
	}
	return 0;
}

/* perf's machine__resolve filters of the sample (--comms, --dsos,
 * --symbols, --pid, --tid): its branches count, but are not shown. */
static int sample_filtered(const struct report_opts *o, struct cli_names *names, const struct pk_resolved_sample *rs,
			   bool *out)
{
	const char *dso = NULL;
	bool nomem = false;

	if (o->dsos && rs->loc.dso && !(dso = cli_dso_short_name(names, rs->loc.dso, rs->pid, &nomem)) && nomem)
		return -ENOMEM;
	*out = (o->comms && !report_in_list(o->comms, rs->comm)) ||
	       (o->dsos && !report_verbose_dso_listed(o, dso, rs->loc.dso)) ||
	       (o->syms && !report_in_list(o->syms, rs->loc.sym)) ||
	       (o->pids && !report_in_ids(o->pids, o->nr_pids, rs->pid)) ||
	       (o->tids && !report_in_ids(o->tids, o->nr_tids, rs->tid));
	return 0;
}

int report_branch_add(struct report_branch *b, size_t ev, struct pk_maps *m, struct cli_names *names,
		      const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	const struct report_opts *o = b->o;
	struct br_entry e = { 0 };
	const struct br_entry *at;
	int err;

	if (ev >= b->nr_ev || !(smp->fields & PERF_SAMPLE_BRANCH_STACK))
		return 0;	/* perf: a sample without a branch stack counts nowhere */
	if (o->cpus && !report_in_ids(o->cpus, o->nr_cpus, smp->fields & PERF_SAMPLE_CPU ? (int64_t)smp->cpu : -1))
		return 0;	/* perf's --cpu drops the sample before its branches */
	if ((err = sample_filtered(o, names, rs, &e.filtered)) < 0)
		return err;
	e.parent = report_parent_of(o, rs);	/* NULL unless the parent key is on */
	e.filtered |= o->exclude_other && !e.parent;	/* perf's symbol__parent_filter (-x) */
	if (!(e.comm = cli_names_intern(names, rs->comm ? rs->comm : ":-1")))
		return -ENOMEM;
	e.tid = rs->tid;
	e.cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1;
	e.level = cli_sample_level(rs->cpumode);
	for (uint64_t i = 0; i < smp->branch.nr; i++) {
		const struct perf_branch_entry *be = &smp->branch.entries[i];

		if ((err = resolve_end(b, m, names, rs->pid, be->from, &e.from)) < 0 ||
		    (err = resolve_end(b, m, names, rs->pid, be->to, &e.to)) < 0)
			return err;
		e.first = *be;
		if ((err = br_table_add(&b->ev[ev], &b->keys, &e, &at)) < 0)
			return err;
		pk_branch_type_count(&b->stats, &at->first);	/* perf's hist_iter__branch_callback */
	}
	return 0;
}

static void print_stat(FILE *f, const char *name, uint64_t n, uint64_t total)
{
	if (n)
		fprintf(f, "\n%8s: %5.1f%%", name, 100.0 * (double)n / (double)total);
}

/* perf's branch_type_stat_display (no newline after the last line, as perf). */
static void print_stats(FILE *f, const struct report_branch *b)
{
	const struct pk_branch_counts *c = &b->stats;
	uint64_t total = 0;

	for (size_t i = 0; i < PERF_BR_MAX; i++)
		total += c->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", f);
	print_stat(f, "COND_FWD", c->cond_fwd, total);
	print_stat(f, "COND_BWD", c->cond_bwd, total);
	print_stat(f, "CROSS_4K", c->cross_4k, total);
	print_stat(f, "CROSS_2M", c->cross_2m, total);
	for (unsigned int i = 0; i < PERF_BR_EXTEND_ABI; i++)	/* extended ones count below */
		print_stat(f, pk_branch_type_name(i, 0), c->counts[i], total);
	for (unsigned int i = 0; i < PK_BR_NEW_MAX; i++)
		print_stat(f, pk_branch_type_name(PERF_BR_EXTEND_ABI, i), c->new_counts[i], total);
}

static const char *one(char *const *list)
{
	return list && list[0] && !list[1] ? list[0] : NULL;
}

int report_branch_print(FILE *f, const struct report_opts *o, struct report_branch *b,
			const struct report_event *ev, size_t nr_ev, uint64_t lost_samples)
{
	char note[512];
	bool any = false;
	int err;

	b->keys.color = o->color;	/* --stdio-color, known once the pager is */
	b->keys.verbose = o->verbose > 0;
	for (size_t i = 0; o->verbose && i < b->nr_ev; i++)	/* perf asks at print time */
		for (size_t k = 0; k < b->ev[i].nr; k++) {
			b->ev[i].e[k].from.origin = report_verbose_origin(o, b->ev[i].e[k].from.dso);
			b->ev[i].e[k].to.origin = report_verbose_origin(o, b->ev[i].e[k].to.dso);
		}
	for (size_t i = 0; i < b->nr_ev && i < nr_ev; i++)
		any |= b->ev[i].total != 0;
	if (!o->quiet && !o->header)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", f);
	br_keys_elide(&b->keys, f, one(o->comms), one(o->dsos), one(o->syms));
	if (!any)
		return 0;
	if (!o->quiet)
		fprintf(f, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost_samples);
	for (size_t i = 0; i < b->nr_ev && i < nr_ev; i++)
		if (b->ev[i].total &&
		    (err = br_table_print(f, &b->ev[i], &b->keys, o->quiet, ev[i].name,
					  report_flags2_time_note(o, ev[i].name, note, sizeof(note)))) < 0)
			return err;
	if (!o->quiet)
		fputs("#\n# (Tip: perfkit report -b shows where the branches went)\n#\n", f);
	print_stats(f, b);
	return 1;
}

/* The sample_type bits of any event of r. */
static uint64_t type_of(struct pk_data_reader *r)
{
	uint64_t type = 0;

	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	return type;
}

bool report_branch_wanted(const struct report_opts *o, struct pk_data_reader *r)
{
	uint64_t type = type_of(r);

	if (o->branch_mode != 0)
		return o->branch_mode > 0;
	if (o->format >= 0)
		return false;	/* --format branch mode has not yet: the usual table */
	/* perf 6.1: the BRANCH_STACK feature turns -b on, unless the samples
	 * carry a user stack (a --call-graph dwarf recording). */
	return pk_data_reader_has_feature(r, PK_DATA_FEAT_BRANCH_STACK) && !(type & PERF_SAMPLE_STACK_USER);
}

static bool has_parent(const struct report_opts *o)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == PK_HIST_KEY_PARENT)
			return true;
	return false;
}

int report_branch_keys(struct report_opts *o, struct pk_data_reader *r)
{
	struct br_keys k;
	int err;

	if (report_branch_wanted(o, r)) {
		if (!(type_of(r) & PERF_SAMPLE_BRANCH_STACK)) {
			cli_message(stderr, "perfkit report: %s: selected -b but no branch data. "
				    "Did you call perf record without -b?\n", o->input);
			return CLI_EXIT_EVENT;
		}
		/* a parent key among branch keys: report_parent_setup's regex and
		 * its check for call chains, as for the usual table's */
		if ((br_sort_names(o->sort_arg, "parent") || br_sort_names(o->fields_arg, "parent")) &&
		    !has_parent(o) && o->nr_keys < PK_HIST_MAX_KEYS)
			o->keys[o->nr_keys++] = PK_HIST_KEY_PARENT;
		return br_keys_setup(&k, o->sort_arg, o->fields_arg, keys_flags(o));	/* its messages before the reading */
	}
	if (o->symbol_filter)
		return cli_usage("report", "--symbol-filter is only in branch mode yet");
	if ((err = br_keys_refuse(o->sort_arg, "--sort key")) || (err = br_keys_refuse(o->fields_arg, "--fields key")))
		return err;
	return report_fields_setup(o);	/* the usual table's -F */
}

bool report_branch_sort_key(const char *arg)
{
	return br_sort_has_branch_key(arg);
}
