/* SPDX-License-Identifier: MIT */
/*
 * cmd-list.c - `perfkit list`: every event the catalogue knows, grouped by
 * source in perf list's layout, filtered by globs and --source, each marked
 * with whether it opens on this machine.  Opening is probed cheaply: once
 * per PMU (or per tracepoint/breakpoint/libpfm4 PMU) with a representative
 * event, and once per event only for the generic hardware, software and
 * cache events, whose support varies event by event.
 */
#include "cli.h"
#include "stat.h"

#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Output sections, in print order, with perf list's tags. */
static const struct section {
	const char *key;		/* --source name */
	const char *heading;
	const char *tag;
	unsigned mask;			/* 1u << enum pk_event_source */
	bool probe_each;		/* support differs event by event */
} sections[] = {
	{ "hw", "Hardware events", "Hardware event", 1u << PK_SRC_HARDWARE, true },
	{ "sw", "Software events", "Software event", 1u << PK_SRC_SOFTWARE, true },
	{ "tool", "Tool events", "Tool event", 1u << PK_SRC_TOOL, false },
	{ "cache", "Hardware cache events", "Hardware cache event", 1u << PK_SRC_HW_CACHE, true },
	{ "pmu", "Kernel PMU events", "Kernel PMU event", 1u << PK_SRC_PMU, false },
	{ "raw", "Raw event descriptors", "Raw hardware event descriptor", 1u << PK_SRC_RAW, false },
	{ "breakpoint", "Hardware breakpoints", "Hardware breakpoint", 1u << PK_SRC_BREAKPOINT, false },
	{ "probe", "Dynamic probes", "Dynamic probe", 1u << PK_SRC_UPROBE | 1u << PK_SRC_KPROBE, false },
	{ "tracepoint", "Tracepoint events", "Tracepoint event", 1u << PK_SRC_TRACEPOINT, false },
	{ "libpfm", "libpfm4 events", "libpfm4 event", 1u << PK_SRC_LIBPFM, false },
};
#define NR_SECTIONS (sizeof(sections) / sizeof(sections[0]))

struct list_opts {
	bool json;
	unsigned sources;	/* --source: mask of 1u << pk_event_source; 0 = all */
	unsigned words;		/* sources named as arguments ("perfkit list sw") */
	bool all_libpfm;
	char **globs;
	int nr_globs;
};

/* One probe result, shared by every event with the same key. */
struct probe {
	char key[160];
	char name[160];		/* the event probed */
	bool opens;
	bool parsed;		/* its string parsed: the result stands for the key */
	int tries;
	char reason[1024];	/* pk_error_format() of the failure */
	char why[768];		/* the failure's why, to group events by cause */
};

/* Representatives that do not parse (a libpfm4 event that needs a umask)
 * give way to the next event of their PMU, this many times. */
#define MAX_TRIES 16

struct prober {
	struct probe *p;
	size_t nr, alloc;
};

static int parse_sources(const char *arg, unsigned *mask)
{
	char *copy = strdup(arg), *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, ",", &save); w && !err; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < NR_SECTIONS; i++)
			if (!strcmp(w, sections[i].key))
				break;
		if (i == NR_SECTIONS) {
			err = cli_usage("list", "unknown source '%s' (known: hw, sw, tool, cache, pmu, raw, "
					"breakpoint, probe, tracepoint, libpfm)", w);
			break;
		}
		*mask |= sections[i].mask;
	}
	free(copy);
	return err;
}

/* A source's name, as --source and perf list's arguments spell it. */
static unsigned category(const char *word)
{
	static const struct { const char *word, *key; } aliases[] = {
		{ "hardware", "hw" }, { "software", "sw" }, { "hwcache", "cache" },
		{ "pfm", "libpfm" }, { "libpfm4", "libpfm" }, { "probes", "probe" },
	};

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(word, aliases[i].word))
			word = aliases[i].key;
	for (size_t i = 0; i < NR_SECTIONS; i++)
		if (!strcmp(word, sections[i].key))
			return sections[i].mask;
	return 0;
}

static const struct cli_opt list_options[] = {
	{ "json", 0, CLI_ARG_NONE, 'j', NULL,
	  "an array of {name, aliases, source, pmu, desc, opens, reason?}" },
	{ "source", 0, CLI_ARG_REQUIRED, 's', "=LIST",
	  "only these sources: hw, sw, tool, cache, pmu, raw, breakpoint, probe, tracepoint, libpfm" },
	{ "all-libpfm", 0, CLI_ARG_NONE, 'a', NULL,
	  "include every libpfm4 PMU, not only the detected ones" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_list_opts = {
	.cmd = "list",
	.usage = "usage: perfkit list [GLOB...] [--json] [--source=SOURCE[,SOURCE...]]\n"
		 "\n"
		 "List every event this machine offers, grouped by source, each marked\n"
		 "with whether it opens here.  A GLOB (fnmatch syntax, e.g. 'sched:*')\n"
		 "keeps the events whose name matches; a word without * ? or [ keeps the\n"
		 "names that contain it; a source's name (hw, sw, tool, cache, pmu, raw,\n"
		 "breakpoint, probe, tracepoint, libpfm or pfm) keeps that source.\n",
	.opts = list_options,
	.epilogue = "PERFKIT_SYSFS_ROOT=DIR describes the PMUs of another machine's sysfs tree.",
};

static int list_option(void *ctx, int id, const char *arg)
{
	struct list_opts *o = ctx;

	switch (id) {
	case 'j':
		o->json = true;
		break;
	case 's':
		return parse_sources(arg, &o->sources) ? CLI_EXIT_USAGE : 0;
	case 'a':
		o->all_libpfm = true;
		break;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct list_opts *o)
{
	int err = cli_opts_parse(&cmd_list_opts, argc, argv, list_option, o);

	if (err)
		return err;
	/* Like perf list, a source's name as an argument selects that source;
	 * the other arguments are globs. */
	o->globs = argv + optind;
	o->nr_globs = 0;
	for (int i = optind; i < argc; i++) {
		unsigned m = category(argv[i]);

		if (m)
			o->words |= m;
		else
			o->globs[o->nr_globs++] = argv[i];
	}
	return 0;
}

static bool match_one(const char *glob, const char *name)
{
	if (!name || !*name)
		return false;
	if (!strpbrk(glob, "*?["))
		return strstr(name, glob) != NULL;
	return fnmatch(glob, name, 0) == 0;
}

static bool selected(const struct list_opts *o, const struct pk_event_info *in)
{
	if (o->sources && !(o->sources & (1u << in->source)))
		return false;
	if (!o->nr_globs && !o->words)
		return true;
	if (o->words & (1u << in->source))
		return true;
	for (int i = 0; i < o->nr_globs; i++)
		if (match_one(o->globs[i], in->name) || match_one(o->globs[i], in->canonical) ||
		    ((in->source == PK_SRC_HARDWARE || in->source == PK_SRC_SOFTWARE) &&
		     match_one(o->globs[i], in->equiv)))
			return true;
	return false;
}

/* The name people type: libpfm4 events are shown qualified by their PMU. */
static const char *display_name(const struct pk_event_info *in)
{
	return in->source == PK_SRC_LIBPFM ? in->canonical : in->name;
}

static const struct section *section_of(enum pk_event_source src)
{
	for (size_t i = 0; i < NR_SECTIONS; i++)
		if (sections[i].mask & (1u << src))
			return &sections[i];
	return &sections[0];
}

/* Whether an event opens, through the same path `perfkit info` takes:
 * parse its canonical string, then try perf_event_open on it. */
static void probe_event(const struct pk_event_info *in, struct probe *p)
{
	struct pk_events *ev = NULL;
	int n = pk_events_parse(in->canonical, NULL, &ev);

	snprintf(p->name, sizeof(p->name), "%s", display_name(in));
	p->parsed = n > 0;
	p->tries++;
	p->opens = n > 0 && pk_attr_probe(pk_events_attr(ev, 0), in->name) == 0;
	if (!p->opens) {
		pk_error_format(NULL, p->reason, sizeof(p->reason));
		snprintf(p->why, sizeof(p->why), "%s", pk_last_error()->why);
	}
	pk_events_free(ev);
}

static const struct probe *probe_cached(struct prober *pr, const struct pk_event_info *in)
{
	const struct section *s = section_of(in->source);
	char key[160];

	/* libpfm4's "perf" PMU spells the generic events, hardware and software
	 * alike, so its events are probed one by one too. */
	if (s->probe_each || !strcmp(in->pmu, "libpfm4:perf"))
		snprintf(key, sizeof(key), "%s", in->canonical);
	else if (in->source == PK_SRC_TRACEPOINT || in->source == PK_SRC_BREAKPOINT)
		snprintf(key, sizeof(key), "%s", s->key);
	else
		snprintf(key, sizeof(key), "%s:%s", s->key, in->pmu);
	for (size_t i = 0; i < pr->nr; i++) {
		struct probe *p = &pr->p[i];

		if (strcmp(p->key, key))
			continue;
		if (!p->parsed && p->tries < MAX_TRIES)
			probe_event(in, p);
		return p;
	}
	if (pr->nr == pr->alloc) {
		size_t alloc = pr->alloc ? pr->alloc * 2 : 64;
		struct probe *p = realloc(pr->p, alloc * sizeof(*p));

		if (!p)
			return NULL;
		pr->p = p;
		pr->alloc = alloc;
	}
	memset(&pr->p[pr->nr], 0, sizeof(pr->p[0]));
	snprintf(pr->p[pr->nr].key, sizeof(pr->p[pr->nr].key), "%s", key);
	probe_event(in, &pr->p[pr->nr]);
	return &pr->p[pr->nr++];
}

static void print_json_event(struct json *j, const struct pk_event_info *in, const struct probe *p)
{
	json_begin_object(j);
	json_kv_string(j, "name", display_name(in));
	json_key(j, "aliases");
	json_begin_array(j);
	if ((in->source == PK_SRC_HARDWARE || in->source == PK_SRC_SOFTWARE) && in->equiv[0])
		json_string(j, in->equiv);
	json_end_array(j);
	json_kv_string(j, "source", pk_event_source_name(in->source));
	json_kv_string(j, "pmu", in->pmu);
	json_kv_string(j, "desc", in->desc);
	json_kv_bool(j, "opens", p && p->opens);
	if (p && !p->opens)
		json_kv_string(j, "reason", p->reason);
	json_end_object(j);
}

static void print_text_event(const struct section *s, const struct pk_event_info *in,
			     const struct probe *p)
{
	char name[512];

	if ((in->source == PK_SRC_HARDWARE || in->source == PK_SRC_SOFTWARE) && in->equiv[0])
		snprintf(name, sizeof(name), "%s OR %s", in->name, in->equiv);
	else
		snprintf(name, sizeof(name), "%s", display_name(in));
	printf("  %-50s [%s]%s\n", name, s->tag, p && p->opens ? "" : "  (does not open here)");
}

/*
 * What the PMU directory lacks, which would otherwise only show as events
 * missing from the list: the directory itself (a wrong PERFKIT_SYSFS_ROOT),
 * any PMU in it, or a PMU's type number.  Warnings go to stderr now; the
 * snapshot is returned for print_unusable.
 */
static struct pk_pmus *check_pmus(unsigned wanted)
{
	const char *root = getenv("PERFKIT_SYSFS_ROOT");
	struct pk_pmus *pmus = NULL;

	if (!(wanted & (1u << PK_SRC_PMU | 1u << PK_SRC_HARDWARE)))
		return NULL;
	if (pk_pmus_scan(&pmus) < 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit list: warning: %s: %s: only the generic events are listed\n",
			    e->what, e->why);
		if (e->hint[0])
			cli_message(stderr, "  hint: %s\n", e->hint);
		return NULL;
	}
	if (!pk_pmus_nr(pmus)) {
		cli_message(stderr, "perfkit list: warning: no PMUs in %s%s: only the generic events are "
			    "listed\n", pk_pmus_dir(pmus),
			    pk_pmus_nr_unusable(pmus) ? " that can be used" : "");
		if (root && *root)
			cli_message(stderr, "  hint: PERFKIT_SYSFS_ROOT is '%s': point it at a copy of /sys "
				    "that holds bus/event_source/devices/*/type, or unset it\n", root);
	}
	return pmus;
}

/* The PMUs the kernel lists that cannot be used, each with its reason. */
static void print_unusable(const struct list_opts *o, const struct pk_pmus *pmus, struct json *j)
{
	bool heading = false;

	if (o->sources && !(o->sources & (1u << PK_SRC_PMU)))
		return;
	for (size_t i = 0; i < pk_pmus_nr_unusable(pmus); i++) {
		const char *why, *name = pk_pmus_unusable(pmus, i, &why);
		bool match = !o->nr_globs && (!o->words || (o->words & (1u << PK_SRC_PMU)));

		for (int g = 0; g < o->nr_globs && !match; g++)
			match = match_one(o->globs[g], name);
		if (!match)
			continue;
		if (o->json) {
			json_begin_object(j);
			json_kv_string(j, "name", name);
			json_key(j, "aliases");
			json_begin_array(j);
			json_end_array(j);
			json_kv_string(j, "source", "pmu");
			json_kv_string(j, "pmu", name);
			json_kv_string(j, "desc", "unusable PMU");
			json_kv_bool(j, "opens", false);
			json_kv_string(j, "reason", why);
			json_end_object(j);
			continue;
		}
		if (!heading)
			printf("\nUnusable PMUs:\n");
		heading = true;
		printf("  ");
		cli_escape(stdout, name, strlen(name));
		printf("%*s [Kernel PMU]  (unusable: ", (int)(name[0] && strlen(name) < 50 ? 50 - strlen(name) : 0), "");
		cli_escape(stdout, why, strlen(why));
		printf(")\n");
	}
}

/* After the list: why the events marked "does not open here" do not,
 * once per cause, with the first event it was seen on and its hint. */
static void print_reasons(const struct prober *pr)
{
	bool header = false;

	for (size_t i = 0; i < pr->nr; i++) {
		const struct probe *p = &pr->p[i];
		size_t more = 0;
		bool dup = false;

		if (p->opens)
			continue;
		for (size_t k = 0; k < i && !dup; k++)
			dup = !pr->p[k].opens && !strcmp(pr->p[k].why, p->why);
		if (dup)
			continue;
		for (size_t k = i + 1; k < pr->nr; k++)
			more += !pr->p[k].opens && !strcmp(pr->p[k].why, p->why);
		if (!header)
			printf("\nWhy some events do not open here:\n");
		header = true;
		if (more)
			printf("  %s (and %zu more like it):\n", p->name, more);
		else
			printf("  %s:\n", p->name);
		/* pk_error_format puts the hint on its own "  hint:" line. */
		const char *nl = strchr(p->reason, '\n');

		printf("    %.*s\n", nl ? (int)(nl - p->reason) : (int)strlen(p->reason), p->reason);
		if (nl)
			printf("  %s\n", nl + 1);
	}
}

static int run(const struct list_opts *o)
{
	struct pk_catalog_opts co = { .size = sizeof(co), .all_libpfm = o->all_libpfm };
	struct pk_catalog *cat = NULL;
	struct prober pr = { 0 };
	struct pk_pmus *pmus;
	struct json j;
	size_t shown = 0;

	/* Skip the slow sources nothing asked for. */
	unsigned wanted = o->sources ? o->sources : ~0u;

	if (o->words && !o->nr_globs)
		wanted &= o->words;
	co.no_tracepoints = !(wanted & (1u << PK_SRC_TRACEPOINT));
	co.no_libpfm = !(wanted & (1u << PK_SRC_LIBPFM));
	if (!co.no_tracepoints)
		cli_tracefs_need(NULL);
	pmus = check_pmus(wanted);
	if (pk_catalog_new(&co, &cat) < 0) {
		pk_pmus_free(pmus);
		return cli_error("list", NULL);
	}
	json_init(&j, stdout);
	if (o->json)
		json_begin_array(&j);
	else
		printf("List of pre-defined events (to be used in -e or with perfkit info):\n");
	for (size_t s = 0; s < NR_SECTIONS; s++) {
		bool heading = false;

		for (size_t i = 0; i < pk_catalog_nr(cat); i++) {
			const struct pk_event_info *in = pk_catalog_get(cat, i);
			const struct probe *p;

			if (!(sections[s].mask & (1u << in->source)) || !selected(o, in))
				continue;
			p = probe_cached(&pr, in);
			if (o->json) {
				print_json_event(&j, in, p);
			} else {
				if (!heading)
					printf("\n%s:\n", sections[s].heading);
				heading = true;
				print_text_event(&sections[s], in, p);
			}
			shown++;
		}
	}
	print_unusable(o, pmus, &j);
	pk_pmus_free(pmus);
	if (o->json) {
		json_end_array(&j);
		json_finish(&j);
	} else {
		print_reasons(&pr);
	}
	free(pr.p);
	pk_catalog_free(cat);
	if (!shown && (o->nr_globs || o->words) && !o->json) {
		cli_message(stderr, "perfkit list: no event matches '%s'\n"
			    "  hint: globs use fnmatch syntax, e.g. 'sched:*'\n",
			    o->nr_globs ? o->globs[0] : "those sources");
	}
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	int err;

	/* perf list metric / metricgroups: perfkit's metric table (stat -M). */
	if (argc == 2 && (!strcmp(argv[1], "metric") || !strcmp(argv[1], "metricgroups")))
		return stat_metric_list(stdout, argv[1][6] == 'g');
	err = parse_opts(argc, argv, &o);
	if (err)
		return err < 0 ? 0 : err;
	return run(&o);
}
