/* SPDX-License-Identifier: MIT */
/*
 * cmd-diff.c - `perfkit diff [OLD [NEW...]]`: two or more perf.data files
 * (perf's or perfkit's) read into one histogram per event (diff-read.c),
 * each event of the first file paired with each later file's event of the
 * same type and config, the histograms compared by pk_diff as perf diff compares them,
 * and perf diff's --stdio table printed (diff-print.c).  The options,
 * a clear refusal of perf diff's options perfkit does not take, and
 * --format: both files' stacks as folded lines with two weights or as a
 * differential flame graph (pk_diff_export), to --output or stdout.
 */
#include "diff.h"
#include "output.h"
#include "report-dump.h"
#include "report.h"
#include "sort-names.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	OPT_PERCENTAGE = 0x100, OPT_FORMAT, OPT_OUTPUT, OPT_CPU, OPT_PID, OPT_TID, OPT_TIME, OPT_SYMFS,
	OPT_CYCLES_HIST, OPT_STREAM,
};

static const struct cli_opt diff_options[] = {
	{ "compute", 'c', CLI_ARG_REQUIRED, 'c', "METHOD",
	  "what to compute for each pair: delta-abs (the default), delta, ratio, wdiff:W1,W2" },
	{ "sort", 's', CLI_ARG_REQUIRED, 's', "KEYS",
	  "pair and group by these keys, comma-separated: comm, pid, dso, sym, cpu, parent, socket, "
	  "srcline, srcfile, weight, local_weight, ins_lat, local_ins_lat, transaction, symbol_size, "
	  "dso_size, cgroup, cgroup_id, time, code_page_size, addr, trace; p_stage_cyc and local_p_stage_cyc dropped "
	  "as perf on x86 drops them (default dso,sym)" },
	{ "period", 'p', CLI_ARG_NONE, 'p', NULL, "the Base period and Period columns" },
	{ "formula", 'F', CLI_ARG_NONE, 'F', NULL, "a Formula column: how each value was computed" },
	{ "cycles-hist", 0, CLI_ARG_NONE, OPT_CYCLES_HIST, NULL,
	  "with -c cycles only: each block's cycle differences' deviation and sparkline" },
	{ "stream", 0, CLI_ARG_NONE, OPT_STREAM, NULL,
	  "compare the hot streams of the two files' branch stacks (perf's --stream)" },
	{ "baseline-only", 'b', CLI_ARG_NONE, 'b', NULL, "only entries found in both files" },
	{ "order", 'o', CLI_ARG_REQUIRED, 'o', "N",
	  "order by the computed column first (1, the default) or by the baseline (0)" },
	{ "percentage", 0, CLI_ARG_REQUIRED, OPT_PERCENTAGE, "HOW",
	  "with filters, shares of what they show (relative) or of every sample (absolute, the default)" },
	{ "comms", 'C', CLI_ARG_REQUIRED, 'C', "COMMS", "only rows of these commands (comma-separated)" },
	{ "dsos", 'd', CLI_ARG_REQUIRED, 'd', "DSOS", "only rows of these objects (short names or paths)" },
	{ "symbols", 'S', CLI_ARG_REQUIRED, 'S', "SYMS", "only rows of these symbols" },
	{ "pid", 0, CLI_ARG_REQUIRED, OPT_PID, "PIDS", "only rows of these processes" },
	{ "tid", 0, CLI_ARG_REQUIRED, OPT_TID, "TIDS", "only rows of these threads" },
	{ "cpu", 0, CLI_ARG_REQUIRED, OPT_CPU, "CPUS", "only samples of these CPUs, e.g. 0-2,5 (others not counted)" },
	{ "time", 0, CLI_ARG_REQUIRED, OPT_TIME, "TIME",
	  "only samples in these times: START,END in seconds (ranges separated by spaces), or shares "
	  "of each file's span: 10%/2, 0%-10%,30%-40%, 50%; A:B gives each file its own" },
	{ "field-separator", 't', CLI_ARG_REQUIRED, 't', "SEP",
	  "cells joined by SEP, unpadded and without the dots line (any SEP but '.')" },
	{ "quiet", 'q', CLI_ARG_NONE, 'q', NULL, "rows only: no comment lines (and no -v)" },
	{ "verbose", 'v', CLI_ARG_NONE, 'v', NULL,
	  "full DSO paths, each symbol's address and where its symbols came from, the files listed" },
	{ "force", 'f', CLI_ARG_NONE, 'f', NULL, "read files another user owns" },
	{ "dump-raw-trace", 'D', CLI_ARG_NONE, 'D', NULL,
	  "each file's records, raw and decoded, before the table (as perf diff -D)" },
	{ "modules", 'm', CLI_ARG_NONE, 'm', NULL,
	  "load kernel modules' symbols (perf's default already: changes nothing)" },
	{ "format", 0, CLI_ARG_REQUIRED, OPT_FORMAT, "FORMAT",
	  "stdio (the table), folded (each stack with its old and new weight) or flamegraph "
	  "(the new profile's SVG coloured by the change)" },
	{ "symfs", 0, CLI_ARG_REQUIRED, OPT_SYMFS, "DIR",
	  "look for files with symbols below DIR (perf's --symfs; the kernel's from DIR/vmlinux)" },
	{ "output", 0, CLI_ARG_REQUIRED, OPT_OUTPUT, "FILE",
	  "write the --format output to FILE (default stdout; -o is perf's --order)" },
	CLI_OPT_HELP_ENTRY,
	{ 0 },
};

const struct cli_optset cmd_diff_opts = {
	.cmd = "diff",
	.usage = "usage: perfkit diff [OPTIONS] [OLD [NEW...]]\n"
		 "\n"
		 "Compare perf.data files (default perf.data.old and perf.data) as\n"
		 "perf diff --stdio does: each symbol's share of the old file (Baseline)\n"
		 "and how it changed in each newer one, symbols paired by name.\n",
	.opts = diff_options,
	.epilogue = "Exit status: 0, 1 for a file that cannot be read, 2 for bad usage.",
};

/* perf diff's options perfkit does not take, refused by name. */
static const char *const refused[] = {
	"--kallsyms",
};

static int check_refused(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			size_t len = strlen(refused[k]);

			if (!strncmp(argv[i], refused[k], len) && (!argv[i][len] || argv[i][len] == '='))
				return cli_usage("diff", "perf diff's %s is not implemented by perfkit diff",
						 refused[k]);
		}
	return 0;
}

static const struct {
	const char *name;
	enum pk_hist_key key;
} sort_keys[] = {
	{ "comm", PK_HIST_KEY_COMM }, { "pid", PK_HIST_KEY_PID },
	{ "dso", PK_HIST_KEY_DSO }, { "sym", PK_HIST_KEY_SYM }, { "symbol", PK_HIST_KEY_SYM },
	{ "cpu", PK_HIST_KEY_CPU }, { "parent", PK_HIST_KEY_PARENT }, { "socket", PK_HIST_KEY_SOCKET },
	{ "srcline", PK_HIST_KEY_SRCLINE }, { "srcfile", PK_HIST_KEY_SRCFILE },
	{ "local_weight", PK_HIST_KEY_LOCAL_WEIGHT }, { "weight", PK_HIST_KEY_WEIGHT },
	{ "transaction", PK_HIST_KEY_TRANSACTION }, { "symbol_size", PK_HIST_KEY_SYM_SIZE },
	{ "dso_size", PK_HIST_KEY_DSO_SIZE }, { "cgroup_id", PK_HIST_KEY_CGROUP_ID },
	{ "time", PK_HIST_KEY_TIME }, { "code_page_size", PK_HIST_KEY_CODE_PAGE_SIZE },
	{ "local_ins_lat", PK_HIST_KEY_LOCAL_INS_LAT }, { "ins_lat", PK_HIST_KEY_INS_LAT },
	{ "addr", PK_HIST_KEY_ADDR }, { "local_p_stage_cyc", PK_HIST_KEY_LOCAL_P_STAGE_CYC },
	{ "p_stage_cyc", PK_HIST_KEY_P_STAGE_CYC }, { "cgroup", PK_HIST_KEY_CGROUP },
	{ "trace", PK_HIST_KEY_TRACE },
};
#define NR_SORT_KEYS (sizeof(sort_keys) / sizeof(sort_keys[0]))

static int parse_sort(struct diff_opts *o, const char *arg)
{
	const char *names[NR_SORT_KEYS], *p = arg, *word;
	bool dropped = false;
	size_t len;
	int k;

	o->nr_keys = 0;
	for (size_t i = 0; i < NR_SORT_KEYS; i++)
		names[i] = sort_keys[i].name;
	/* perf's words: split on commas, spaces and braces; each a prefix of a key */
	while ((len = sort_word_next(&p, &word, 1))) {
		if ((k = sort_name_find("diff", "--sort key", word, len, names, NR_SORT_KEYS)) < 0)
			return -k;
		if (report_sort2_dropped(sort_keys[k].key)) {	/* perf on x86 skips them */
			dropped = true;
			continue;
		}
		if (o->nr_keys == PK_HIST_MAX_KEYS)
			return cli_usage("diff", "more than %d --sort keys", PK_HIST_MAX_KEYS);
		o->keys[o->nr_keys++] = sort_keys[k].key;
	}
	if (!o->nr_keys && !dropped)	/* every key dropped: perf's one row of all samples */
		return cli_usage("diff", "--sort needs at least one key");
	return 0;
}

/* perf's -c: delta, delta-abs, ratio, wdiff:W1,W2 (non-zero weights). */
static int parse_compute(struct diff_opts *o, const char *arg)
{
	static const char *const names[] = { "delta-abs", "delta", "ratio", "wdiff" };
	size_t len = strcspn(arg, ":");
	const char *opt = arg[len] ? arg + len + 1 : NULL;
	char *end;

	if (!strcmp(arg, "cycles")) {
		o->cycles = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != len || strncmp(arg, names[i], len))
			continue;
		o->d.compute = (enum pk_diff_compute)i;
		if (o->d.compute != PK_DIFF_WDIFF)
			return opt ? cli_usage("diff", "-c %s takes no ':%s'", names[i], opt) : 0;
		if (opt) {
			o->d.w1 = strtoll(opt, &end, 10);
			o->d.w2 = *end == ',' ? strtoll(end + 1, &end, 10) : 0;
		}
		if (!opt || *end || !o->d.w1 || !o->d.w2)
			return cli_usage("diff", "wrong weights in '%s': use wdiff:W1,W2 (non-zero integers)", arg);
		return 0;
	}
	return cli_usage("diff", "'%s' is not a computation (delta, delta-abs, ratio or wdiff:W1,W2)", arg);
}

static int diff_option(void *ctx, int id, const char *arg)
{
	struct diff_opts *o = ctx;
	uint64_t v;

	switch (id) {
	case 'c': return parse_compute(o, arg);
	case 's': return parse_sort(o, arg);
	case 'p': o->period = true; return 0;
	case 'F': o->formula = true; return 0;
	case 'b': o->d.baseline_only = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'v': return report_verbose_on(o->rep);
	case 't':
		if (!strcmp(arg, ".") || !*arg)
			return cli_usage("diff", "'%s' is not a valid --field-separator (perf refuses '.')", arg);
		o->field_sep = arg;
		return 0;
	case 'f': o->force = true; return 0;
	case 'D': o->dump = true; return 0;
	case 'm': return 0;	/* perf's symbol_conf.use_modules is already true */
	case 'o':
		if (cli_num_u64("diff", "--order", arg, 0, UINT32_MAX, &v) < 0)
			return CLI_EXIT_USAGE;
		o->d.order = (unsigned int)v;
		return 0;
	case OPT_CYCLES_HIST: o->cycles_hist = true; return 0;
	case OPT_STREAM: o->stream = true; return 0;
	case OPT_OUTPUT: o->output = arg; return 0;
	case OPT_TIME: o->time = arg; return 0;
	case OPT_SYMFS: cli_symfs_set(arg); return 0;
	case 'C': o->comms = arg; return 0;
	case 'd': o->dsos = arg; return 0;
	case 'S': o->syms = arg; return 0;
	case OPT_PID:
		free(o->pids);
		return cli_filter_ids("diff", arg, &o->pids, &o->nr_pids) ? CLI_EXIT_USAGE : 0;
	case OPT_TID:
		free(o->tids);
		return cli_filter_ids("diff", arg, &o->tids, &o->nr_tids) ? CLI_EXIT_USAGE : 0;
	case OPT_CPU:
		free(o->cpus);
		o->cpus = NULL;
		if (pk_cpus_parse(arg, &o->cpus, &o->nr_cpus) < 0)
			return cli_usage("diff", "invalid --cpu list '%s'", arg);
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "stdio"))
			o->format = DIFF_FORMAT_STDIO;
		else if (!strcmp(arg, "folded"))
			o->format = DIFF_FORMAT_FOLDED;
		else if (!strcmp(arg, "flamegraph"))
			o->format = DIFF_FORMAT_FLAMEGRAPH;
		else
			return cli_usage("diff", "unknown --format '%s' (stdio, folded, flamegraph)", arg);
		return 0;
	case OPT_PERCENTAGE:
		if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
			return cli_usage("diff", "invalid --percentage '%s' (relative or absolute)", arg);
		o->d.relative = !strcmp(arg, "relative");
		return 0;
	default: return 0;
	}
}

/* The new file's event perf pairs with old event `attr`: the same type and config. */
static int match_event(const struct diff_file *nf, const struct perf_event_attr *attr)
{
	for (size_t i = 0; i < nf->nr_ev; i++) {
		const struct perf_event_attr *a = pk_data_reader_attr(nf->r, i);

		if (a->type == attr->type && a->config == attr->config)
			return (int)i;
	}
	return -1;
}

/* Each event of the first file compared with the later files' events of
 * its type and config (an empty histogram where a file has none). */
static int compare(const struct diff_opts *o, struct diff_file *files)
{
	const struct pk_hist *hists[DIFF_MAX_FILES];
	struct pk_hist *none = NULL;
	int err = pk_hist_new(o->keys, o->nr_keys, &none);

	if (!err)
		err = pk_hist_set_by_name(none, o->names);

	for (size_t i = 0; !err && i < files[0].nr_ev; i++) {
		const char *name = pk_data_reader_name(files[0].r, i);
		struct pk_diff *d = NULL;

		hists[0] = files[0].hist[i];
		for (size_t f = 1; f < o->nr_files; f++) {
			int k = match_event(&files[f], pk_data_reader_attr(files[0].r, i));

			hists[f] = k >= 0 ? files[f].hist[k] : none;
		}
		if ((err = pk_diff_new_files(hists, o->nr_files, &o->d, &d)) < 0)
			break;
		diff_print_event(stdout, o, name ? name : "unknown", d, i == 0);
		pk_diff_free(d);
	}
	pk_hist_free(none);
	return err < 0 ? cli_error("diff", NULL) : 0;
}

struct diff_out {
	const struct diff_file *of, *nf;
	enum pk_export_format fmt;
};

static int write_cb(FILE *f, void *ctx)
{
	const struct diff_out *d = ctx;

	return pk_diff_export(d->of->ex, d->nf->ex, d->fmt, f);
}

/* --format's output to o->output (output.c), or to stdout. */
static int export(const struct diff_opts *o, const struct diff_file *of, const struct diff_file *nf)
{
	struct diff_out d = { of, nf, o->format == DIFF_FORMAT_FOLDED ? PK_EXPORT_FOLDED : PK_EXPORT_FLAMEGRAPH };

	return cli_output_write("diff", o->output, write_cb, &d);
}

static int diff(struct diff_opts *o);

/*
 * -c cycles and --stream read branch stacks: perf 6.1 gives up, printing
 * nothing, unless every file has the BRANCH_STACK feature; perfkit does
 * the same with a message.  -c cycles then goes on to diff's table with
 * perf's block cycles column (diff-cycles.c; perf 6.1 itself crashes on
 * every file whose branch stacks carry cycles, docs/CLI.md); --stream to
 * diff_stream.
 */
static int check_branch(struct diff_opts *o, bool all)
{
	const char *what = o->stream ? "--stream" : "-c cycles";

	for (size_t i = 0; !all && i < o->nr_files; i++) {
		struct pk_data_reader *r = NULL;
		bool has;

		if (pk_data_reader_open(o->paths[i], &r) < 0)
			return cli_error("diff", NULL);
		has = pk_data_reader_has_feature(r, PK_DATA_FEAT_BRANCH_STACK);
		pk_data_reader_free(r);
		if (!has) {
			cli_message(stderr, "perfkit diff: %s: %s has no branch stacks (record with "
				    "-b or -j)\n", what, o->paths[i]);
			return CLI_EXIT_EVENT;
		}
	}
	if (o->stream)	/* perf's --stream takes the place of -c */
		return diff_stream(o);
	if (o->nr_files != 2)
		return cli_usage("diff", "-c cycles compares two files, not %zu", o->nr_files);
	o->d.compute = PK_DIFF_BASELINE;	/* perf's cycles column sorts nothing: the baseline orders */
	return diff(o);
}

/* -D: perf diff dumps each file's records as it reads it, with its own
 * tool's handlers (report_dump's diff flavour; a sample --time drops is
 * not resolved); the tables follow. */
static bool dropped(void *ctx, const struct pk_sample *s)
{
	const struct diff_file *f = ctx;

	return diff_time_skip(&f->ranges, s->fields & PERF_SAMPLE_TIME ? s->time : UINT64_MAX);
}

static int dump(const struct diff_file *f)
{
	const char *path = f->path;
	struct report_dump_opts d = { .diff = true, .dropped = dropped, .ctx = (void *)f };
	struct pk_data_reader *r = NULL;
	int err = pk_data_reader_open(path, &r);

	if (err == 0)
		err = report_dump(stdout, r, path, &d);
	pk_data_reader_free(r);
	return err < 0 ? cli_error("diff", NULL) : 0;
}

static int diff(struct diff_opts *o)
{
	struct diff_file files[DIFF_MAX_FILES] = { 0 };
	char *title = NULL;
	int rc = 0;

	if (pk_intern_new(&o->names) < 0)
		return cli_error("diff", NULL);
	o->files = files;
	if (asprintf(&title, "%s against %s", o->paths[1], o->paths[0]) < 0)
		return cli_message(stderr, "perfkit diff: out of memory\n"), CLI_EXIT_EVENT;
	for (size_t f = 0; !rc && f < o->nr_files; f++) {
		char part[4096];

		files[f].path = o->paths[f];
		if (o->time && !(files[f].time = diff_time_part(o->time, f, part, sizeof(part))))
			rc = cli_usage("diff", "--time '%s' has no part for file %zu (A:B gives one to each)",
				       o->time, f);
		if (!rc)
			rc = diff_file_read(&files[f], o, title);
		if (!rc && o->dump)
			rc = dump(&files[f]);
	}
	if (!rc)
		rc = o->format == DIFF_FORMAT_STDIO ? compare(o, files) : export(o, &files[0], &files[1]);
	free(title);
	for (size_t f = 0; f < o->nr_files; f++)
		diff_file_free(&files[f]);
	return rc;
}

/* What report's fillers need for the keys (diff-read.c): the keys in
 * report's options, the namespace table for cgroup_id, the paths for cgroup.  (No parent
 * regex: perf diff adds its samples without a parent, so that every
 * entry's is "[other]".)  0, or an exit status after the message. */
static int keys_setup(struct diff_opts *o)
{
	struct report_opts *r = o->rep;

	memcpy(r->keys, o->keys, o->nr_keys * sizeof(o->keys[0]));
	r->nr_keys = o->nr_keys;
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == PK_HIST_KEY_CGROUP && !o->cgroups && cli_cgroups_new(&o->cgroups) < 0)
			return cli_message(stderr, "perfkit diff: out of memory\n"), CLI_EXIT_EVENT;
	return report_sort3_setup(r);
}

static int run(struct diff_opts *o, int argc, char **argv, const char **one)
{
	int rc = check_refused(argc, argv);
	bool all;

	if (!rc)
		rc = parse_sort(o, "dso,sym");
	if (!rc)
		rc = cli_opts_parse(&cmd_diff_opts, argc, argv, diff_option, o);
	if (!rc)
		rc = keys_setup(o);
	if (rc)
		return rc < 0 ? 0 : rc;
	/* perf: no file, perf.data.old and perf.data; one, perf.data.old and it. */
	if (argc - optind == 1) {
		one[1] = argv[optind];
		o->paths = one;
	} else if (argc - optind > 1) {
		o->paths = (const char *const *)argv + optind;
		o->nr_files = (size_t)(argc - optind);
	}
	if (o->nr_files > DIFF_MAX_FILES)
		return cli_usage("diff", "perfkit diff compares at most %d files, not %zu", DIFF_MAX_FILES,
				 o->nr_files);
	if (o->format != DIFF_FORMAT_STDIO && o->nr_files > 2)
		return cli_usage("diff", "--format compares two files, not %zu", o->nr_files);
	if (o->cycles_hist && !o->cycles)	/* perf prints its usage */
		return cli_usage("diff", "--cycles-hist needs -c cycles");
	/* perf 6.1 reaches a BUG_ON for both: formula_fprintf and
	 * hpp__entry_pair have no case for the cycles columns. */
	if (o->cycles && o->formula)
		return cli_usage("diff", "-F (--formula) has no formula for -c cycles: use -c delta, "
				 "delta-abs, ratio or wdiff");
	if (o->cycles && o->field_sep)
		return cli_usage("diff", "-t (--field-separator) does not go with -c cycles: its block "
				 "columns are only printed padded");
	if (o->quiet)	/* perf_quiet_option: verbose -1 */
		o->rep->verbose = 0;
	o->verbose = o->rep->verbose;
	if (o->d.order >= o->nr_files)
		return cli_usage("diff", "Order option out of limit: -o %u (%zu files: 0 to %zu)", o->d.order,
				 o->nr_files, o->nr_files - 1);
	if (diff_brstack_check(o, &all) < 0)
		return CLI_EXIT_EVENT;
	return o->cycles || o->stream ? check_branch(o, all) : diff(o);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = {
		.paths = (const char *const[]){ "perf.data.old", "perf.data" },
		.nr_files = 2,
		.d = { .size = sizeof(o.d), .compute = PK_DIFF_DELTA_ABS, .w1 = 1, .w2 = 1, .order = 1 },
	};
	const char *one[] = { "perf.data.old", NULL };
	struct report_opts rep = { 0 };
	struct cli_names dso_names = { 0 };
	int rc;

	o.rep = &rep;
	o.dso_names = &dso_names;
	rc = run(&o, argc, argv, one);
	report_verbose_free(&rep);
	report_sort2_free(&rep);
	cli_cgroups_free(o.cgroups);
	cli_names_free(&dso_names);
	pk_intern_free(o.names);

	free(o.pids);
	free(o.tids);
	free(o.cpus);
	return rc;
}
