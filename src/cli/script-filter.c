/* SPDX-License-Identifier: MIT */
/*
 * script-filter.c - perf script 6.1's sample filters: --time (diff-time.c's
 * parse, shifted by the first sample's time with --reltime, as perf's
 * perf_time__parse_for_ranges_reltime) and -C drop a sample before it is
 * resolved; --comms, --pid, --tid, --dsos and -S (names, or hex addresses
 * matched against the sample's ip, within --addr-range of one) after, as
 * perf's machine__resolve marks it filtered; and the time the TIME field
 * shows under --reltime and --deltatime.
 */
#include "script-filter.h"
#include "script.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* perf's strlist from a comma-separated string; empty words dropped. */
int script_filter_split(const char *arg, char ***out)
{
	return cli_words("script", arg, out);
}

/* perf's setup_addrlist: a -S word that strtoul reads whole as hex (but
 * for trailing spaces) is an address, and leaves the list of names. */
static int split_addrs(struct script_filter *f)
{
	size_t k = 0, n = 0;

	for (; f->syms[n]; n++)
		;
	free(f->addrs);
	f->nr_addrs = 0;
	if (!(f->addrs = calloc(n ? n : 1, sizeof(*f->addrs))))
		return cli_usage("script", "out of memory");
	for (size_t i = 0; i < n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(f->syms[i], &end, 16);
		while (*end && isspace((unsigned char)*end))
			end++;
		if (errno || end == f->syms[i] || *end) {
			f->syms[k++] = f->syms[i];
			continue;
		}
		f->addrs[f->nr_addrs++] = v;
		free(f->syms[i]);
	}
	f->syms[k] = NULL;
	return 0;
}

int script_filter_option(struct script_filter *f, int id, const char *arg)
{
	int rc;

	switch (id) {
	case SOPT_PID: return cli_filter_ids("script", arg, &f->pids, &f->nr_pids) ? CLI_EXIT_USAGE : 0;
	case SOPT_TID: return cli_filter_ids("script", arg, &f->tids, &f->nr_tids) ? CLI_EXIT_USAGE : 0;
	case 'c': return script_filter_split(arg, &f->comms);
	case SOPT_DSOS: return script_filter_split(arg, &f->dsos);
	case 'S': return (rc = script_filter_split(arg, &f->syms)) ? rc : split_addrs(f);
	case 'C':
		free(f->cpus);
		f->cpus = NULL;
		if (pk_cpus_parse(arg, &f->cpus, &f->nr_cpus) < 0)
			return cli_error("script", arg);
		return 0;
	case SOPT_ADDR_RANGE: {
		int64_t v;

		if (cli_num_i64("script", "--addr-range", arg, INT32_MIN, INT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		f->addr_range = (int)v;
		return 0;
	}
	case SOPT_TIME: f->time = arg; return 0;
	case SOPT_RELTIME: f->reltime = true; return 0;
	case SOPT_DELTATIME: f->deltatime = true; return 0;
	case 'G': f->hide_callgraph = true; return 0;
	default: return script_events_option(f, id, arg);
	}
}

int script_filter_setup(struct script_filter *f, struct pk_data_reader *r)
{
	uint64_t first = 0, last = 0;
	int err;

	if (f->reltime && f->deltatime) {
		cli_message(stderr, "reltime and deltatime - the two don't get along well. "
			    "Please limit to --reltime or --deltatime.\n");
		return CLI_EXIT_USAGE;
	}
	if ((err = script_switch_setup(f, r)))
		return err;
	for (int type = 0; f->cpus && type < PERF_TYPE_MAX; type++)	/* the first event of each type */
		for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
			const struct perf_event_attr *a = pk_data_reader_attr(r, i);

			if (a->type != (uint32_t)type)
				continue;
			if (!(a->sample_type & PERF_SAMPLE_CPU)) {
				cli_message(stderr, "perfkit script: File does not contain CPU events. "
					    "Remove -C option to proceed.\n");
				return CLI_EXIT_EVENT;
			}
			break;
		}
	if (!f->time)
		return 0;
	report_time_span(r, &first, &last);
	if ((strchr(f->time, '%') || f->reltime) && !first && !last) {
		cli_message(stderr, "perfkit script: --time %s: the file has no first and last sample "
			    "times (perf's SAMPLE_TIME feature)\n", f->time);
		return CLI_EXIT_EVENT;
	}
	err = strchr(f->time, '%') || !f->reltime ? diff_time_parse(f->time, first, last, &f->ranges) :
						     diff_time_parse(f->time, 0, 0, &f->ranges);
	if (err == -EINVAL || err == -ENODATA)
		return cli_usage("script", "invalid --time string '%s'", f->time);
	if (err < 0)
		return cli_error("script", NULL);
	/* perf shifts both ends, an open end too */
	for (size_t i = 0; f->reltime && i < f->ranges.nr; i++) {
		f->ranges.r[i].start += first;
		f->ranges.r[i].end += first;
	}
	return 0;
}

bool script_filter_skip_cpu(const struct script_filter *f, uint32_t cpu)
{
	if (!f->cpus || cpu == (uint32_t)-1)
		return false;
	for (size_t i = 0; i < f->nr_cpus; i++)
		if ((uint32_t)f->cpus[i] == cpu)
			return false;
	return true;
}

bool script_filter_skip(const struct script_filter *f, const struct pk_sample *s)
{
	if (f->time && diff_time_skip(&f->ranges, s->fields & PERF_SAMPLE_TIME ? s->time : UINT64_MAX))
		return true;
	return script_filter_skip_cpu(f, s->fields & PERF_SAMPLE_CPU ? s->cpu : (uint32_t)-1);
}

static bool in_list(char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool in_ids(const pid_t *ids, size_t nr, int64_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* perf's dso_list test: the short name (the file's base name) or the
 * long one; a sample in no map is filtered. */
static bool dso_listed(char *const *list, const struct pk_dso *d)
{
	const char *base;

	if (!d || !d->name)
		return false;
	base = d->name[0] == '/' ? strrchr(d->name, '/') + 1 : d->name;
	return in_list(list, base) || in_list(list, d->name);
}

/* perf's sym_list test: the symbol's name, else (in a map) the ip among
 * the -S addresses, or within --addr-range after one. */
static bool sym_listed(const struct script_filter *f, const struct pk_location *loc, uint64_t ip)
{
	if (loc->sym && in_list(f->syms, loc->sym))
		return true;
	if (!loc->dso)
		return false;
	for (size_t i = 0; i < f->nr_addrs; i++)
		if (ip == f->addrs[i] || (f->addr_range && ip >= f->addrs[i] &&
					  ip < f->addrs[i] + (uint64_t)(int64_t)f->addr_range))
			return true;
	return false;
}

bool script_filter_lists_hide(const struct script_filter *f, const struct pk_resolved_sample *r, uint64_t ip)
{
	return (f->comms && !in_list(f->comms, r->comm)) ||
	       (f->pids && !in_ids(f->pids, f->nr_pids, r->pid)) ||
	       (f->tids && !in_ids(f->tids, f->nr_tids, r->tid)) ||
	       (f->dsos && !dso_listed(f->dsos, r->loc.dso)) ||
	       (f->syms && !sym_listed(f, &r->loc, ip));
}

uint64_t script_filter_rel_time(struct script_filter *f, uint64_t time)
{
	uint64_t t = time;

	if (f->reltime) {
		if (!f->initial_time)
			f->initial_time = time;
		t = time - f->initial_time;
	} else if (f->deltatime) {
		t = f->previous_time ? time - f->previous_time : 0;
		f->previous_time = time;
	}
	return t;
}

void script_filter_free(struct script_filter *f)
{
	cli_words_free(f->comms);
	cli_words_free(f->dsos);
	cli_words_free(f->syms);
	free(f->addrs);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->ranges.r);
	cli_words_free(f->stop_bt);
	script_dlfilter_close(f);
	for (int i = 0; i < f->nr_dlargs; i++)
		free(f->dlargs[i]);
	free(f->dlargs);
	script_events_close(f);
}
