/* SPDX-License-Identifier: MIT */
/*
 * cmd-info.c - `perfkit info EVENT...`: for each event string, what
 * perfkit makes of it: the canonical fully-qualified spelling, where the
 * encoding came from, the attributes the catalogue knows for it at the
 * chosen OS layer, the perf_event_attr field by field (perf -vv layout, or
 * kernel UAPI names in JSON), and whether it opens here and, if not, why.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct info_opts {
	bool json;
	enum pk_os os;
	char **events;
	int nr_events;
};

/* State shared by the event strings of one run. */
struct info_run {
	const struct info_opts *o;
	struct pk_catalog *cat;		/* built on first use */
	bool cat_failed;
	struct json j;
};

static const struct cli_opt info_options[] = {
	{ "json", 0, CLI_ARG_NONE, 'j', NULL, "one object per event string, attr fields as numbers" },
	{ "os", 0, CLI_ARG_REQUIRED, 'o', "=LAYER",
	  "attributes of the PMU only (pmu), plus perf_events' modifiers (perf, the default), "
	  "plus its terms (perf-ext)" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_info_opts = {
	.cmd = "info",
	.usage = "usage: perfkit info EVENT... [--json] [--os=pmu|perf|perf-ext]\n"
		 "\n"
		 "For each event string (perf's syntax: 'task-clock:u', 'msr/tsc/',\n"
		 "'{task-clock,page-faults}', 'sched:sched_switch', 'skl::INST_RETIRED:ANY_P'),\n"
		 "show its canonical form, its source and PMU, the attributes that refine\n"
		 "it, the perf_event_attr it becomes, and whether it opens here.\n",
	.opts = info_options,
	.epilogue = "Exit status: 0 when every string parses (even if it does not open here),\n"
		    "1 when one does not, 2 for bad usage.",
};

static int info_option(void *ctx, int id, const char *arg)
{
	struct info_opts *o = ctx;

	if (id == 'j') {
		o->json = true;
	} else if (!strcmp(arg, "pmu")) {
		o->os = PK_OS_PMU;
	} else if (!strcmp(arg, "perf")) {
		o->os = PK_OS_PERF;
	} else if (!strcmp(arg, "perf-ext")) {
		o->os = PK_OS_PERF_EXT;
	} else {
		return cli_usage("info", "unknown OS layer '%s' (use pmu, perf or perf-ext)", arg);
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct info_opts *o)
{
	int err;

	o->os = PK_OS_PERF;
	if ((err = cli_opts_parse(&cmd_info_opts, argc, argv, info_option, o)))
		return err;
	o->events = argv + optind;
	o->nr_events = argc - optind;
	if (!o->nr_events)
		return cli_usage("info", "no event given");
	return 0;
}

static const char *type_name(enum pk_attr_type t)
{
	switch (t) {
	case PK_ATTR_UMASK: return "umask";
	case PK_ATTR_MOD_BOOL: return "bool";
	case PK_ATTR_MOD_INT: return "int";
	case PK_ATTR_MOD_STR: return "str";
	}
	return "?";
}

static const char *ctrl_name(enum pk_attr_ctrl c)
{
	return c == PK_ATTR_CTRL_PMU ? "pmu" : "perf_event";
}

/* The catalogue entry behind a parsed event, or -1. */
static int catalog_index(struct info_run *r, const struct pk_event_desc *d)
{
	int i;

	if (!r->cat && !r->cat_failed) {
		struct pk_catalog_opts co = { .size = sizeof(co) };

		r->cat_failed = pk_catalog_new(&co, &r->cat) < 0;
	}
	if (!r->cat)
		return -1;
	i = pk_catalog_find(r->cat, d->name);
	if (i < 0)
		i = pk_catalog_find(r->cat, d->canonical);
	return i;
}

/* ---- text ------------------------------------------------------------------ */

static void print_attributes_text(struct info_run *r, int ci)
{
	const struct pk_event_info *in = pk_catalog_get(r->cat, (size_t)ci);
	static const char *const layer[] = { "pmu", "perf", "perf-ext" };

	printf("  catalogue    %s%s%s\n", in->source == PK_SRC_LIBPFM ? in->canonical : in->name,
	       in->desc[0] ? ": " : "", in->desc);
	printf("  attributes   %zu at the %s layer\n", in->nr_attrs[r->o->os], layer[r->o->os]);
	for (size_t k = 0; k < in->nr_attrs[r->o->os]; k++) {
		struct pk_attr_info a;
		char dfl[32] = "-";

		if (pk_catalog_attr(r->cat, (size_t)ci, k, r->o->os, &a) < 0)
			break;
		if (a.is_dfl)
			snprintf(dfl, sizeof(dfl), "0x%" PRIx64, a.dfl_val64);
		printf("    %-14s %-5s %-10s default %-6s code 0x%-8" PRIx64 "%s%s %s%s%s\n", a.name,
		       type_name(a.type), ctrl_name(a.ctrl), dfl, a.code, a.is_precise ? " precise" : "",
		       a.is_speculative ? " speculative" : "", a.desc, a.equiv[0] ? " = " : "", a.equiv);
	}
}

static void print_attr_text(const struct perf_event_attr *attr)
{
	char small[4096], *buf = small;
	int n = pk_attr_format(attr, small, sizeof(small));
	size_t len;

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(small) && !(buf = malloc((size_t)n + 1)))
		buf = small;
	else if (buf != small)
		pk_attr_format(attr, buf, (size_t)n + 1);
	len = strlen(buf);
	printf("  perf_event_attr\n%s%s", buf, len && buf[len - 1] != '\n' ? "\n" : "");
	if (buf != small)
		free(buf);
}

static bool info_text(struct info_run *r, const struct pk_events *ev)
{
	bool all_open = true;

	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		const struct pk_event_desc *d = pk_events_desc(ev, i);
		int ci = catalog_index(r, d);
		char why[2048];

		printf("%s\n", d->name);
		printf("  canonical    %s\n", d->canonical);
		printf("  source       %s (pmu %s)\n", pk_event_source_name(d->source), d->pmu);
		if (d->nr_members > 1 || d->leader != i)
			printf("  group        leader #%zu%s\n", d->leader,
			       d->leader == i ? ", leads the group" : "");
		if (ci >= 0)
			print_attributes_text(r, ci);
		else
			printf("  catalogue    no entry\n");
		print_attr_text(pk_events_attr(ev, i));
		if (pk_attr_probe(pk_events_attr(ev, i), d->name) == 0) {
			printf("  opens here   yes\n");
		} else {
			all_open = false;
			pk_error_format(NULL, why, sizeof(why));
			printf("  opens here   no: %s\n", why);
		}
		if (i + 1 < pk_events_nr(ev))
			printf("\n");
	}
	return all_open;
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_error(struct json *j, const struct pk_error *e)
{
	json_key(j, "error");
	json_begin_object(j);
	json_kv_i64(j, "code", e->code);
	json_kv_string(j, "errno", cli_errno_name(e->code));
	json_kv_string(j, "what", e->what);
	json_kv_string(j, "why", e->why);
	json_kv_string(j, "hint", e->hint);
	json_kv_i64(j, "column", e->column);
	json_end_object(j);
}

static void json_attributes(struct info_run *r, int ci)
{
	const struct pk_event_info *in = ci >= 0 ? pk_catalog_get(r->cat, (size_t)ci) : NULL;

	json_key(&r->j, "attributes");
	json_begin_array(&r->j);
	for (size_t k = 0; in && k < in->nr_attrs[r->o->os]; k++) {
		struct pk_attr_info a;

		if (pk_catalog_attr(r->cat, (size_t)ci, k, r->o->os, &a) < 0)
			break;
		json_begin_object(&r->j);
		json_kv_string(&r->j, "name", a.name);
		json_kv_string(&r->j, "desc", a.desc);
		json_kv_string(&r->j, "equiv", a.equiv);
		json_kv_u64(&r->j, "code", a.code);
		json_kv_string(&r->j, "type", type_name(a.type));
		json_kv_string(&r->j, "ctrl", ctrl_name(a.ctrl));
		json_key(&r->j, "default");
		if (a.is_dfl)
			json_u64(&r->j, a.dfl_val64);
		else
			json_null(&r->j);
		json_kv_bool(&r->j, "precise", a.is_precise);
		json_kv_bool(&r->j, "speculative", a.is_speculative);
		json_kv_i64(&r->j, "field", a.field);
		json_end_object(&r->j);
	}
	json_end_array(&r->j);
}

/* Every perf_event_attr field under its kernel UAPI name, as a number. */
static void json_attr(struct json *j, const struct perf_event_attr *a, const struct pk_event_desc *d)
{
#define U(f) json_kv_u64(j, #f, (uint64_t)a->f)
	U(type); U(size); U(config); U(config1); U(config2);
	json_kv_u64(j, "config3", d->config3);
	json_kv_u64(j, "sample_period", a->freq ? 0 : a->sample_period);
	json_kv_u64(j, "sample_freq", a->freq ? a->sample_freq : 0);
	U(sample_type); U(read_format);
	U(disabled); U(inherit); U(pinned); U(exclusive); U(exclude_user); U(exclude_kernel);
	U(exclude_hv); U(exclude_idle); U(mmap); U(comm); U(freq); U(inherit_stat);
	U(enable_on_exec); U(task); U(watermark); U(precise_ip); U(mmap_data); U(sample_id_all);
	U(exclude_host); U(exclude_guest); U(exclude_callchain_kernel); U(exclude_callchain_user);
	U(mmap2); U(comm_exec); U(use_clockid); U(context_switch); U(write_backward);
	U(namespaces); U(ksymbol); U(bpf_event); U(aux_output); U(cgroup); U(text_poke);
	U(build_id); U(inherit_thread); U(remove_on_exec); U(sigtrap);
	U(wakeup_events); U(bp_type); U(bp_addr); U(bp_len); U(branch_sample_type);
	U(sample_regs_user); U(sample_stack_user); json_kv_i64(j, "clockid", a->clockid);
	U(sample_regs_intr); U(aux_watermark); U(sample_max_stack); U(aux_sample_size);
	U(sig_data);
#undef U
}

static bool info_json(struct info_run *r, const struct pk_events *ev)
{
	struct json *j = &r->j;
	const struct pk_event_desc *d0 = pk_events_desc(ev, 0);
	struct pk_error first = { 0 };
	char canon[4096] = "";
	bool all_open = true;
	size_t len = 0;

	for (size_t i = 0; i < pk_events_nr(ev) && len < sizeof(canon); i++)
		len += (size_t)snprintf(canon + len, sizeof(canon) - len, "%s%s", i ? "," : "",
					pk_events_desc(ev, i)->canonical);
	json_kv_string(j, "canonical", canon);
	json_kv_string(j, "source", pk_event_source_name(d0->source));
	json_kv_string(j, "pmu", d0->pmu);
	json_attributes(r, catalog_index(r, d0));
	json_key(j, "attrs");
	json_begin_array(j);
	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		const struct pk_event_desc *d = pk_events_desc(ev, i);
		bool opens = pk_attr_probe(pk_events_attr(ev, i), d->name) == 0;

		if (!opens && all_open) {
			first = *pk_last_error();
			/* The strings live in thread-local storage the next call reuses. */
			first.what = strdup(first.what);
			first.why = strdup(first.why);
			first.hint = strdup(first.hint);
		}
		all_open &= opens;
		json_begin_object(j);
		json_kv_string(j, "name", d->name);
		json_kv_string(j, "canonical", d->canonical);
		json_kv_string(j, "source", pk_event_source_name(d->source));
		json_kv_string(j, "pmu", d->pmu);
		json_attr(j, pk_events_attr(ev, i), d);
		json_kv_u64(j, "group_leader", d->leader);
		json_kv_bool(j, "opens", opens);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_bool(j, "opens", all_open);
	if (!all_open) {
		first.what = first.what ? first.what : "";
		first.why = first.why ? first.why : "";
		first.hint = first.hint ? first.hint : "";
		json_error(j, &first);
		free((char *)first.what);
		free((char *)first.why);
		free((char *)first.hint);
	}
	return all_open;
}

/* One event string: 0, or CLI_EXIT_EVENT when it does not parse. */
static int info_one(struct info_run *r, const char *spec)
{
	struct pk_events *ev = NULL;
	int n, ret = 0;

	cli_tracefs_need(spec);
	n = pk_events_parse(spec, NULL, &ev);

	if (r->o->json) {
		json_begin_object(&r->j);
		json_kv_string(&r->j, "event", spec);
	}
	if (n <= 0) {
		if (r->o->json) {
			json_kv_bool(&r->j, "opens", false);
			json_error(&r->j, pk_last_error());
		}
		ret = cli_error("info", spec);
	} else if (r->o->json) {
		info_json(r, ev);
	} else {
		info_text(r, ev);
	}
	if (r->o->json)
		json_end_object(&r->j);
	pk_events_free(ev);
	return ret;
}

int cmd_info(int argc, char **argv)
{
	struct info_opts o = { 0 };
	struct info_run r = { .o = &o };
	int err = parse_opts(argc, argv, &o), ret = 0;

	if (err)
		return err < 0 ? 0 : err;
	json_init(&r.j, stdout);
	if (o.json)
		json_begin_array(&r.j);
	for (int i = 0; i < o.nr_events; i++) {
		if (!o.json && i)
			printf("\n");
		if (info_one(&r, o.events[i]))
			ret = CLI_EXIT_EVENT;
		fflush(stdout);
	}
	if (o.json) {
		json_end_array(&r.j);
		json_finish(&r.j);
	}
	pk_catalog_free(r.cat);
	return ret;
}
