/* SPDX-License-Identifier: MIT */
/*
 * report.h - what cmd-report.c (options, reading, resolving) and
 * report-print.c (perf report's --stdio table) share.
 */
#ifndef PK_CLI_REPORT_H
#define PK_CLI_REPORT_H

#include "cgroup-names.h"
#include "cli.h"
#include "pager.h"
#include "report-flags2.h"
#include "report-flags3.h"
#include "report-flags4.h"

#include <regex.h>

/* -g: how call graphs print (perf's print_type, threshold, print_limit, order). */
struct report_cg {
	enum pk_callchain_mode mode;
	double min_percent;		/* the threshold, in percent */
	uint32_t print_limit;		/* 0: no limit */
	bool caller;			/* chains root first (perf's "caller") */
	enum pk_callchain_key key;	/* how frames match and print (function, address, srcline) */
	/* what each chain's number is: its share (perf's percent), its
	 * period or its sample count (-g's value word) */
	enum { REPORT_CG_PERCENT, REPORT_CG_PERIOD, REPORT_CG_COUNT } value;
	bool branch_history;		/* --branch-history: each frame's branch counts (report-brhist.c) */
	/* the escape colouring a percentage (NULL: none), for --stdio-color */
	const char *(*color)(double percent);
};

/* The options of one report run. */
struct report_opts {
	const char *input;		/* -i, default perf.data */
	bool force;			/* -f */
	bool dump;			/* -D: every record, raw (report-dump.c) */
	bool quiet;			/* -q */
	bool show_nr;			/* -n */
	bool show_period;		/* --show-total-period */
	double percent_limit;		/* --percent-limit */
	enum pk_hist_key keys[PK_HIST_MAX_KEYS];
	size_t nr_keys;
	char **comms, **dsos, **syms;	/* --comms, --dsos, --symbols: NULL-terminated lists */
	pid_t *pids, *tids;		/* --pid, --tid */
	size_t nr_pids, nr_tids;
	int *cpus;			/* --cpu */
	size_t nr_cpus;
	int format;			/* --format: -1 stdio, else an enum pk_export_format */
	const char *output;		/* -o, for --format other than stdio */
	bool sort_sym;			/* --sort begins with sym (perf then skips a frame) */
	/* Call graphs: -g, --children, -G, --max-stack. */
	struct report_cg cg;
	bool cg_given, cg_none;		/* -g given; -g none */
	bool order_set, inverted;	/* -g caller/callee given; -G */
	int children_opt;		/* --children 1, --no-children 0, else -1 */
	unsigned int max_stack;		/* --max-stack */
	bool no_inline;			/* --no-inline */
	bool callchain;			/* report_cg_setup: the graphs are shown */
	bool children;			/* report_cg_setup: Children totals are */
	bool header, header_only;	/* --header, --header-only (report-header.c) */
	int branch_mode;		/* -b 1, --no-branch-stack -1, 0: perf's rule (report-branch.c) */
	bool branch_history;		/* --branch-history (report-brhist.c) */
	bool show_info;			/* -I */
	bool stats;			/* --stats (report-stats.c) */
	int group_opt;			/* --group 1, --no-group 0, else -1 (perf's default: groups shown) */
	bool show_threads;		/* -T */
	enum cli_color color_mode;	/* --stdio-color */
	bool sort_given;		/* --sort was given */
	const char *sort_arg;		/* ... its words (branch mode's keys, report-branch2.c) */
	const char *sort_plus;		/* --sort +KEYS: KEYS, after the mode's default order */
	char sort_buf[1024];		/* ... the two joined (report_sort_plus) */
	const char *symbol_filter;	/* --symbol-filter (branch mode only, report-branch.c) */
	const char *fields_arg;		/* -F */
	int out[2 * PK_HIST_MAX_KEYS];	/* report_fields_setup: the columns (pk_hist_set_order items) */
	int sort_items[2 * PK_HIST_MAX_KEYS];	/* --sort's keys and perf's output fields in it, */
	size_t nr_sort_items;		/* ... in order (pk_hist_set_order items) */
	bool sort_hpp;			/* --sort names an output field but period (report-sort3.c) */
	size_t nr_out;
	int sort_by[2 * PK_HIST_MAX_KEYS];	/* ... and the order of the rows */
	size_t nr_sort_by;
	bool self_header;		/* ... Overhead is headed "Self" */
	const char *parent_arg;		/* -p */
	bool exclude_other;		/* -x */
	bool parent_on;			/* report_parent_setup compiled parent_re */
	regex_t parent_re;
	bool color;			/* report(): colour the percentages */

	int off_cpu;			/* --off-cpu: 0 no, else an enum report_offcpu_mode */
	int verbose;			/* -v: full DSO paths, symbols' addresses (report-verbose.c) */
	struct report_origins *origins;	/* ... and where each DSO's symbols came from */
	struct report_flags2 f2;	/* --time, -U, --tasks, --switch-on, ... (report-flags2.c) */
	struct report_flags3 f3;	/* -k, --time-quantum, ... (report-flags3.c) */
	struct report_flags4 f4;	/* -w, --pretty, --socket-filter, ... (report-flags4.c) */
	int32_t *cpu_sockets;		/* --sort socket: each CPU's socket (report-sort2.c) */
	uint32_t nr_cpu_sockets;
	struct report_trace *trace;	/* --sort trace: the tracing data, the strings (report-sort2.c) */
	struct cli_cgroups *cgroups;	/* --sort cgroup: the CGROUP records' paths (cgroup-names.c) */
	bool mem_mode;			/* --mem-mode (report-mem.c) */
	unsigned int cacheline;		/* ... the cache line size, for dcacheline */
	struct report_ns *ns;		/* --sort cgroup_id: threads' namespaces (report-sort3.c) */
};

/*
 * report_cg_parse - perf's -g string into o: print type (graph, flat,
 * fractal, folded, none), order (caller, callee), function, percent, then
 * numbers: the threshold and the print limit; each word may be shortened
 * as perf allows.  0, or CLI_EXIT_USAGE after a message.
 */
int report_cg_parse(struct report_opts *o, const char *arg);

/*
 * report_cg_setup - once the file is open, what perf decides from it:
 * call graphs shown when its samples carry call chains (unless -g none),
 * Children totals by default then (-g none too), caller order with them (unless -g
 * named the order) and with -G.  0; -1 (report done, status 0, as perf)
 * after perf's error for -g on a file without call chains (a pipe-mode
 * stream's -g is ignored).
 */
int report_cg_setup(struct report_opts *o, struct pk_data_reader *r);

/* report_is_pipe - whether r reads a pipe-mode stream (no header
 * offsets: perf's data->is_pipe), whose attrs perf learns only as they
 * arrive, after it decided what the file decides. */
bool report_is_pipe(const struct pk_data_reader *r);

/* report-srcline.c: the srcline and srcfile keys' strings, interned. */
struct report_srclines;

/*
 * report_srcline_fill - when o sorts by srcline or srcfile, set
 * s->srcline and s->srcfile for location `loc` (s->dso already set) as
 * perf 6.1 prints them, from a table made on first use in *tp.  0, or
 * -ENOMEM.
 */
int report_srcline_fill(struct report_srclines **tp, const struct report_opts *o,
			struct pk_maps *maps, const struct pk_location *loc, struct pk_hist_sample *s);

/*
 * report_srcline_frame - the same for a call-chain frame's entry, as perf
 * 6.1 makes it: from the frame's address as sampled, not the one in its
 * DSO, so that in a relocated DSO (PIE, a library) no line is found and
 * the offset of the fallback "sym+OFFSET" is the sampled address minus
 * the symbol's start.  0, or -ENOMEM.
 */
int report_srcline_frame(struct report_srclines **tp, const struct report_opts *o,
			 struct pk_maps *maps, const struct pk_frame *f, struct pk_hist_sample *s);

/*
 * report_srcline_chain - the source line perf 6.1 gives call-chain frame f
 * under -g key `key` (its callchain_srcline), in *out: none (NULL) with
 * the function key or outside every map; "file.c:123" where a line is
 * found; else, with the address key, "+OFFSET" (decimal, from the
 * symbol's start).  0, or -ENOMEM.
 */
int report_srcline_chain(struct report_srclines **tp, enum pk_callchain_key key, struct pk_maps *maps,
			 const struct pk_frame *f, const char **out);

/* report_srcline_wanted - whether o sorts by srcline or srcfile: without
 * either, report_srcline_fill does nothing and report_srcline_frame only
 * names inlined frames, so a caller may skip them. */
bool report_srcline_wanted(const struct report_opts *o);

/* report_srcline_full_path - --full-source-path: every source file named
 * by its whole path from now on, as addr2line gives it. */
void report_srcline_full_path(void);

/* report_srclines_free - free the table; NULL is a no-op. */
void report_srclines_free(struct report_srclines *t);

/* Per-sample frame buffers of cmd-report.c's chain hook. */
struct report_chains {
	struct pk_hist_sample *samples;
	struct pk_callchain_frame *frames;
	size_t cap;
};

/* One event's section: its name and histogram, and its group. */
struct report_event {
	const char *name;
	struct pk_hist *hist;
	size_t leader;			/* its group's leader (itself when alone) */
	uint32_t nr_members;		/* a leader's group size (1 alone; members: 1) */
	char *group_desc;		/* a group leader's perf name for the group */
};

/* report_comm_override - perf's comm override after the fact (cmd-report.c,
 * for diff too): every ":TID" of h that its thread's first COMM renamed
 * (pk_threads_rename) shows that name, merged with its rows.  Call it
 * once all records are read, before linking and sorting.  0 or -ENOMEM. */
int report_comm_override(struct pk_hist *h, const struct pk_threads *threads);

/* ---- groups (report-group.c) ------------------------------------------------ */

/* PERF_SAMPLE_READ: every counter id of the file, its event and its last reading. */
struct report_read_id {
	uint64_t id, last;
	size_t ev;
};
struct report_reads {
	struct report_read_id *ids;	/* sorted by id */
	size_t nr;
};
/* One member's share of a sample: its event, counter id and period. */
/* perf's default --sort order (its default_sort_order; branch mode's:
 * REPORT_SORT_BRANCH, report-branch2.h). */
#define REPORT_SORT_DEFAULT "comm,dso,sym"

/* The most counters one sample's reads are split into (a group's
 * members past it are not delivered). */
#define REPORT_READS_MAX 64

struct report_read {
	size_t ev;
	uint64_t id;
	uint64_t period;
};

/* report_reads_init / report_reads_free - the ids of every event of r,
 * each with no reading yet.  0 or -ENOMEM. */
int report_reads_init(struct report_reads *rd, struct pk_data_reader *r);
void report_reads_free(struct report_reads *rd);

/*
 * report_reads_split - what one PERF_SAMPLE_READ sample (its event's
 * attr, its read values rv) stands for, as perf delivers it: one sample
 * per counter read whose id an event has, with the counter's growth
 * since that id's last reading as the period, none for a counter that
 * did not grow (nor for values without ids).  At most max into out.
 * Returns the number, or a negative errno for values that do not parse.
 */
int report_reads_split(struct report_reads *rd, const struct perf_event_attr *attr,
		       const struct pk_read_values *rv, struct report_read *out, size_t max);

/*
 * report_group_setup - each event's group (leader, nr_members, group_desc)
 * from the file's GROUP_DESC; with --group on a file without groups, all
 * events in one group led by the first, as perf forces it.  0 or -ENOMEM.
 * The caller frees group_desc.
 */
int report_group_setup(const struct report_opts *o, struct pk_data_reader *r, struct report_event *ev,
		       size_t nr_ev);

/* report_group_view - whether leader ev's section shows its group (one
 * column per member): perf's default for a group, unless --no-group. */
bool report_group_view(const struct report_opts *o, const struct report_event *ev);

/* report_group_link - for each group shown, the members' histograms
 * linked into the leader's (before it is sorted), each member's total its
 * unfiltered period with --percentage relative.  0 or a negative errno. */
int report_group_link(const struct report_opts *o, struct report_event *ev, size_t nr_ev);

/* report_group_totals - the samples and period a section's header counts:
 * the group's when shown as one (ev is its leader), else the event's;
 * with --percentage relative, each member's unfiltered ones. */
void report_group_totals(const struct report_opts *o, const struct report_event *ev, uint64_t *nr_samples,
			 uint64_t *period);

/* The columns that show one value per member. */
enum report_cell {
	REPORT_CELL_CHILDREN, REPORT_CELL_OVERHEAD, REPORT_CELL_SAMPLES, REPORT_CELL_PERIOD,
	REPORT_CELL_SYS, REPORT_CELL_US, REPORT_CELL_GUEST_SYS, REPORT_CELL_GUEST_US,
};

/* report_group_cells - entry e's cells of column `kind` for the members
 * after the leader (nr_members - 1 of them), each `width` wide;
 * percentages in perf's colours with `color`. */
void report_group_cells(FILE *f, enum report_cell kind, int width, const struct pk_hist *h,
			const struct pk_hist_entry *e, uint32_t nr_members, bool color);

/* report_group_sep_cells - the same cells in -t's form: each member's
 * " %.2f%%" or " %lu", unpadded (perf's width of 1 with a field
 * separator). */
void report_group_sep_cells(FILE *f, enum report_cell kind, const struct pk_hist *h,
			    const struct pk_hist_entry *e, uint32_t nr_members);

/* report_percent_cell - a percentage `width` wide (perf's " %*.2f%%" of width - 2:
 * a number too wide for the cell still follows a space), in perf's
 * colour for it (red from 5%, green above 0.5%) with `color`. */
void report_percent_cell(FILE *f, int width, double pct, bool color);

/*
 * report_hier_print - --hierarchy's column header (unless quiet) and
 * entries of histogram h (sorted), as perf 6.1 prints them; `threads`
 * sizes the Command column; nr_members: the group view's columns (1
 * without).  0 or -ENOMEM.  report_hier_setup - once the
 * file decided call graphs and Children: 0, or CLI_EXIT_USAGE after a
 * message for what --hierarchy does not take yet (report-hier.c).
 */
int report_hier_print(FILE *f, const struct report_opts *o, const struct pk_hist *h, struct pk_threads *threads,
		      uint32_t nr_members);
/* report_hier_totals - with --hierarchy and --percentage relative, set
 * *period to perf's total there (its shown top entries' periods), summed
 * over the nr_members of ev's group, and each member's total in the
 * leader's histogram to its own; returns whether it did (false without
 * those two flags). */
bool report_hier_totals(const struct report_opts *o, const struct report_event *ev, uint32_t nr_members,
			struct pk_threads *threads, uint64_t *period);
int report_hier_setup(struct report_opts *o);

/*
 * report_print - the --stdio output for every event with samples: the
 * header comments perf prints (unless quiet), each section's table, and
 * the closing comment.  `threads` gives each entry's thread's final comm,
 * which perf sizes the Command columns by.  When no event has a sample
 * left (filters such as --cpu can remove them all), only perf's first
 * line is printed and false returned, for the caller to say so.
 */
bool report_print(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		  uint64_t lost_samples, struct pk_threads *threads);

/*
 * report_parse_args - perf report's command line into o (its defaults set
 * by the caller): every option, then --sort, --mem-mode's and -p's keys.
 * 0, or the exit code after a message (CLI_EXIT_USAGE), or -1 after
 * --help.
 */
int report_parse_args(struct report_opts *o, int argc, char **argv);

/*
 * report_default_sort - once file r is open, perf 6.1's default sort
 * order for it: when every event of r is a tracepoint and neither --sort
 * nor a strict -F named the keys, o's keys become `trace` (with -p's
 * parent after it); a pipe-mode stream, a file with any other event, and
 * branch mode keep theirs.  0, or CLI_EXIT_USAGE after a message
 * (--raw-trace, whose order perf makes of every tracepoint field).
 */
int report_default_sort(struct report_opts *o, struct pk_data_reader *r);

/*
 * report_sort_plus - --sort +KEYS as perf's setup_sort_order makes it,
 * once the file tells the mode: the mode's default order (branch mode's,
 * --mem-mode's, "trace" for a file of tracepoints only, else
 * comm,dso,sym), then KEYS, as if given to --sort.  0 (also without a
 * '+'), or CLI_EXIT_USAGE after a message (--raw-trace on a file of
 * tracepoints only, as report_default_sort; a list too long).
 */
int report_sort_plus(struct report_opts *o, struct pk_data_reader *r);

/* report_mem_default_order - perf's default --sort of --mem-mode. */
const char *report_mem_default_order(void);

/*
 * report_print_chain - entry e's call graph under its row, as perf prints
 * it in the flat table and under a --hierarchy leaf: the chain sorted in
 * -g's mode with its threshold, shares of every sample's period.  Returns
 * 0, or -ENOMEM (nothing printed).
 */
int report_print_chain(FILE *f, const struct report_opts *o, const struct pk_hist *h,
		       const struct pk_hist_entry *e);

/*
 * report_callchain_print - the call graph under one entry, in cg's mode,
 * from tree `cc` (sorted for that mode): percentages of `total` (the
 * event's period), or for fractal of `parent_total` (the entry's period,
 * its Children period with --children); a lone chain carrying exactly
 * `parent_total` prints under "---" with no percentage.
 * `skip_first` leaves out a lone chain's first frame (perf does when the
 * sort starts with sym, as the row names it already).
 */
void report_callchain_print(FILE *f, const struct report_cg *cg, const struct pk_callchain *cc,
			    uint64_t total, uint64_t parent_total, bool skip_first);

/*
 * report_fields_setup - with -F (o->fields_arg), once the file decided
 * o->children: the columns (o->out), the rows' order (o->sort_by) and the
 * keys the histogram groups by (o->keys), by perf's rules; nothing
 * without -F.  0, or CLI_EXIT_USAGE after naming an unknown field.
 */
int report_fields_setup(struct report_opts *o);

/*
 * report_fields_order (report-fields.c) - the rows' order to give
 * pk_hist_set_order into order[] (room for 2 * PK_HIST_MAX_KEYS items),
 * its length returned: o->sort_by (0 items: the histogram's default), but
 * when perf elides a key (a --comms, --dsos or --symbols list of one name
 * stands for that column, unless it would stand for every key) that list,
 * or perf's default (Children, Overhead, the keys), without it: perf's
 * output sort skips the key, which changes where ties go.
 */
size_t report_fields_order(const struct report_opts *o, int *order);

/*
 * report_parent_setup - for --sort parent (or -x), once the file is
 * open: perf's parent regex (-p, default "^sys_|^do_page_fault")
 * compiled.  0; CLI_EXIT_EVENT after a message when the file has no call
 * chains, CLI_EXIT_USAGE for a bad regex.
 */
int report_parent_setup(struct report_opts *o, struct pk_data_reader *r);

/*
 * report_needs_symbols (report-symbols.c) - once every option is set up:
 * whether anything the report prints depends on a symbol (a key, the call
 * graphs, --symbols, -p/-x, -v, --hierarchy's widths, an export format).  When not, the resolver
 * reads no symbols and the stack health, which judges stacks by their
 * symbols, is not counted.
 */
bool report_needs_symbols(const struct report_opts *o);

/*
 * report_width_syms (report-symbols.c) - whether a report that reads no
 * symbols still looks up its samples' own (report_width_sym): an object
 * column shows, which perf widens to an address's 16 digits for an entry
 * whose symbol did not resolve (unless --dsos or -w fix it).
 */
bool report_width_syms(const struct report_opts *o);

/*
 * report_width_sym (report-symbols.c) - with report_width_syms: the symbol
 * of the sample's own address, looked up in its map, when its object's
 * name `dso` is shorter than 16 characters (a longer one keeps the column
 * that wide already, kallsyms' among them: it is never read); NULL when
 * it has none or the lookup is not needed.  Only the column's width uses
 * it.
 */
const char *report_width_sym(struct pk_resolver *res, const struct pk_sample *smp,
			     const struct pk_resolved_sample *rs, const char *dso);

/*
 * report_needs_chains (report-symbols.c) - once every option is set up:
 * whether anything the report prints depends on a sample's call chain
 * (graphs, children, the parent key and -x, --branch-history, --off-cpu,
 * -U's and --ignore-callees' cuts, an export format).  When not, perf
 * 6.1 unwinds and resolves no chain (-g none --no-children), nor does the
 * resolver here (the stack health then judges the samples' own places).
 */
bool report_needs_chains(const struct report_opts *o);

/* report_parent_of - a resolved sample's parent: the first frame, in the
 * chains' print order, whose symbol the regex matches; NULL ("[other]"). */
const char *report_parent_of(const struct report_opts *o, const struct pk_resolved_sample *rs);

/* ---- -v (report-verbose.c) ------------------------------------------------ */

struct cli_names;

/* report_verbose_on - -v given: count it and make the table of origins.
 * 0, or CLI_EXIT_USAGE after a message when out of memory. */
int report_verbose_on(struct report_opts *o);

/* report_verbose_dso - the name -v shows for DSO `d` (its full path, as
 * perf's long name; for NULL or JIT code in process `pid`, the short
 * name), interned in `n`, its symbols' origin
 * letter remembered in o->origins.  NULL with *nomem set when out of memory. */
const char *report_verbose_dso(const struct report_opts *o, struct cli_names *n, const struct pk_dso *d,
			       uint32_t pid, bool *nomem);

/* report_verbose_origin - perf's letter for where the symbols of the DSO
 * named `dso` (a report_verbose_dso name, or NULL) came from: 'k'
 * kallsyms, 'v' vmlinux, 'B' the build-id cache, 'd' the file itself, ...,
 * '!' none. */
char report_verbose_origin(const struct report_opts *o, const char *dso);

/* report_ksym_sample - s, a sample in code a KSYMBOL registered (BPF
 * programs, trampolines, dispatchers: DSO d), keyed as perf 6.1 keys it:
 * its symbol at 0 and its ip an offset into that code (perf's map_ip), so
 * two loads of one program share their rows as in perf, and -v shows the
 * offset.  Other samples are left as they are. */
void report_ksym_sample(struct pk_hist_sample *s, const struct pk_dso *d);
/* report_ksym_frame - fs, a call-chain frame in such code: its symbol
 * starts at 0 as the sample's does, so both count in one entry and tree
 * node; its address stays the one sampled (perf's callchain node ip). */
void report_ksym_frame(struct pk_hist_sample *fs, const struct pk_dso *d);
/* report_ksym_start - the start report_ksym_frame gives a frame in DSO d
 * with symbol sym starting at sym_start, for a frame that makes no entry. */
uint64_t report_ksym_start(const struct pk_dso *d, const char *sym, uint64_t sym_start);

/* report_verbose_dso_listed - whether --dsos names the DSO named `dso`
 * (DSO `d`, or NULL): by that name, with -v (where it is the full path) by
 * perf's short name too, and by d's full path with or without -v, as perf
 * matches a short or long name. */
bool report_verbose_dso_listed(const struct report_opts *o, const char *dso, const struct pk_dso *d);

/* report_verbose_free - the table of origins. */
void report_verbose_free(struct report_opts *o);

/* report_parent_free - the regex, if compiled. */
void report_parent_free(struct report_opts *o);

/* ---- stack health (report-health.c) ------------------------------------------ */

/* report_health_new - the stack-health count for a run with options o,
 * its limit the smaller of --max-stack and the kernel's
 * perf_event_max_stack.  0 with *out, or -ENOMEM. */
int report_health_new(const struct report_opts *o, struct pk_stack_health **out);

/* report_health_print - the summary on f, a line per kind of cut stack,
 * when something is wrong and not -q; h NULL prints nothing. */
void report_health_print(FILE *f, struct pk_stack_health *h, const struct report_opts *o);

/* report_health_stats - --stats' part: read o->input again through the
 * resolver and print every figure on stderr (nothing for standard
 * input, read once already).  Returns the exit status. */
int report_health_stats(const struct report_opts *o);

/* ---- exports (report-export.c) -------------------------------------------- */

/* report_in_ids / report_in_list - whether id is one of ids[0..nr), and
 * whether s is one of the NULL-terminated list (s NULL: no): the filters
 * --pid/--tid and --comms/--dsos, shared by the table and the exports. */
bool report_in_ids(const pid_t *ids, size_t nr, int64_t id);
bool report_in_list(char *const *list, const char *s);

/* --format=json: the table's rows as JSON (report-json.c), not an exporter. */
#define REPORT_FORMAT_JSON 1000

/* report_export_format - --format's argument into *format (-1 for stdio).
 * 0, or CLI_EXIT_USAGE after saying why. */
int report_export_format(const char *arg, int *format);

/* report_export - read every record of `r` (which it frees) through the
 * resolver and write o->format to o->output (stdout when NULL or "-").
 * Returns the exit status. */
int report_export(const struct report_opts *o, struct pk_data_reader *r);

/* ---- --header, --header-only, --stats (report-header.c) --------------------- */

/* report_info - what comes before the table or instead of it: --stats
 * (the counts), --header-only (the header block), both ending the run
 * with the reader freed and the exit status returned; --header prints
 * the block (unless -q) and returns -1 for the table to follow. */
int report_info(const struct report_opts *o, struct pk_data_reader *r);
/* report_time_span - the recording's first and last sample times (the
 * SAMPLE_TIME feature), for the progress line; both 0 when unknown. */
void report_time_span(struct pk_data_reader *r, uint64_t *first, uint64_t *last);

/* ---- -T: per-thread counts (report-group.c) ------------------------------------ */

struct report_thread_row {
	uint32_t pid, tid;
	uint64_t *value;		/* by event index */
};
struct report_thread_counts {
	size_t nr_ev;
	struct report_thread_row *rows;	/* in the order threads first came */
	size_t nr_rows;
	bool *seen;			/* by event: has a column */
	size_t *order;			/* the columns' events, in the order they first came */
	size_t nr_cols;
};

/* report_threads_init / report_threads_free - an empty table for nr_ev
 * events.  0 or -ENOMEM. */
int report_threads_init(struct report_thread_counts *tc, size_t nr_ev);
void report_threads_free(struct report_thread_counts *tc);

/* report_threads_add - PERF_RECORD_READ `rd` of event ev (perf report
 * -T): its count added to its thread's row in its event's column.  0 or
 * -ENOMEM. */
int report_threads_add(struct report_thread_counts *tc, size_t ev, const struct pk_rec_read *rd);

/* report_threads_print - perf's -T table: "# PID  TID  EVENT..." and a
 * row per thread, each column as wide as its widest cell.  0 or -ENOMEM. */
int report_threads_print(FILE *f, const struct report_thread_counts *tc, const struct report_event *ev);

/* report_json - the sorted histograms of `ev` as perfkit's JSON report
 * (pk_hist_write_json), with the stack health `health` counted during the
 * read (NULL: none), to o->output, or stdout when NULL or "-"; a file is
 * written under a temporary name renamed into place when whole.
 * Returns the exit status. */
int report_json(const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		uint64_t lost_samples, struct pk_stack_health *health);

/* ---- off-CPU time (report-offcpu.c) --------------------------------------- */

enum report_offcpu_mode { REPORT_OFFCPU_MERGE = 1, REPORT_OFFCPU_SPLIT };

/* What report_offcpu_sample and report_offcpu_record return (or'ed). */
enum {
	REPORT_OFFCPU_CONSUMED = 1,	/* a switch-out: it counts only as off-CPU time */
	REPORT_OFFCPU_EMIT = 2,		/* an interval ended: *out is its sample */
};

/* An off-CPU interval as a sample of event `ev` (valid until the next call). */
struct report_offcpu_out {
	size_t ev;
	struct pk_sample smp;
	struct pk_resolved_sample rs;
};

struct report_offcpu;

/* report_offcpu_parse - --off-cpu's argument (merge, split) into *mode.
 * 0, or CLI_EXIT_USAGE after a message. */
int report_offcpu_parse(const char *arg, int *mode);

/*
 * report_offcpu_new - for o->off_cpu, the tracker of `r`'s switches in
 * *out (NULL without --off-cpu).  0; CLI_EXIT_EVENT after a message when
 * the file has no sched:sched_switch event (or, to merge, no clock event);
 * -ENOMEM.
 */
int report_offcpu_new(const struct report_opts *o, struct pk_data_reader *r, struct report_offcpu **out);

/* report_offcpu_free - free it; NULL is a no-op. */
void report_offcpu_free(struct report_offcpu *ro);

/* report_offcpu_name - the name event `ev` (named `name` in the file) is
 * shown under: the section intervals count in is renamed. */
const char *report_offcpu_name(const struct report_offcpu *ro, size_t ev, const char *name);

/*
 * report_offcpu_sample - one resolved sample `d` of event `ev`: a
 * sched_switch sample starts an interval (CONSUMED: not counted itself),
 * another sample of a thread off CPU ends its interval (EMIT, *out).
 * Returns those bits, 0, or a negative errno.
 */
int report_offcpu_sample(struct report_offcpu *ro, size_t ev, const struct pk_record *d,
			 const struct pk_resolved_sample *rs, struct report_offcpu_out *out);

/* report_offcpu_record - one decoded non-sample record: a switch-in ends
 * its thread's interval (EMIT, *out), an EXIT drops it.  0, EMIT, or a
 * negative errno. */
int report_offcpu_record(struct report_offcpu *ro, const struct pk_record *d, struct report_offcpu_out *out);

/* ---- --sort time, symbol_size, socket (report-sort2.c) ----------------------- */

/* report_parse_sort - --sort's words (perf's prefixes, sort-names.c) into
 * o's keys.  0, or CLI_EXIT_USAGE after a message. */
int report_parse_sort(struct report_opts *o, const char *arg);

/* report_sort2_fill - sample smp's fields of those keys into s: its time
 * by o's --time-quantum, the size of loc's symbol, its socket, its
 * tracepoint fields.  0, or -ENOMEM. */
int report_sort2_fill(const struct report_opts *o, const struct pk_sample *smp, const struct pk_location *loc,
		      struct pk_hist_sample *s);

/* report_sort2_setup - perf's ipc_null key added to a --sort naming
 * "symbol"; with a socket key, each CPU's socket from r's CPU_TOPOLOGY
 * (none: every sample's is -1).  0, or CLI_EXIT_USAGE (too many keys) or
 * CLI_EXIT_EVENT (out of memory) after a message; report_sort2_free frees what it took. */
int report_sort2_setup(struct report_opts *o, struct pk_data_reader *r);
/* report_sort2_trace_file - with the trace key, r's tracing data for the
 * samples that follow (diff: each file's own, the texts interned in one
 * table across files).  0, or CLI_EXIT_EVENT after a message. */
int report_sort2_trace_file(struct report_opts *o, struct pk_data_reader *r);
void report_sort2_free(struct report_opts *o);

/* report_sort2_cgroup - a PERF_RECORD_CGROUP's path for its id (the
 * first one's, as perf's env keeps it), when the cgroup key wants them.
 * 0, or -ENOMEM. */
int report_sort2_cgroup(const struct report_opts *o, const struct pk_rec_cgroup *c);

/* report_sort2_cgroup_name - what perf prints for cgroup id `id`: "N/A"
 * for 0, the path a CGROUP record gave it, or "unknown". */
const char *report_sort2_cgroup_name(const struct report_opts *o, uint64_t id);

/* report_sort2_dropped - whether perf 6.1 on x86 drops --sort key k
 * (the pipeline stage keys: its arch_support_sort_key, powerpc's alone). */
bool report_sort2_dropped(enum pk_hist_key k);

/* report_sort2_frame - a call-chain frame's own symbol size (loc) into s. */
void report_sort2_frame(const struct pk_location *loc, struct pk_hist_sample *s);

/* report_sort2_header / report_sort2_width - a key's column header, and
 * the width perf gives it (0: its header's; o may be NULL but for TIME). */
const char *report_sort2_header(enum pk_hist_key k);
int report_sort2_width(const struct report_opts *o, enum pk_hist_key k);

/* report_sort2_print - entry e's cell of key k, width w, as perf prints it
 * (`last`: in the last column). */
void report_sort2_print(FILE *f, const struct report_opts *o, enum pk_hist_key k, int w,
			const struct pk_hist_entry *e, bool last);

/* ---- --mem-mode (report-mem.c) ---------------------------------------------- */

/* How many memory keys there are (PK_HIST_KEY_MEM_DADDR_SYM on). */
#define REPORT_MEM_NR_KEYS (PK_HIST_KEY_NR - PK_HIST_KEY_MEM_DADDR_SYM)

/* report_mem_key - whether k is one of the memory keys. */
bool report_mem_key(enum pk_hist_key k);

/*
 * report_mem_setup - once the options are read: with --mem-mode, perf's
 * default memory sort order unless --sort was given, and its refusal of
 * -b with it; the cache line size for dcacheline (refused where unknown,
 * as perf).  0, or CLI_EXIT_USAGE after a message.
 */
int report_mem_setup(struct report_opts *o);

/* report_mem_check - once the file is open: perf's error for --mem-mode
 * on a file whose samples carry no DATA_SRC.  0, or CLI_EXIT_EVENT after
 * the message. */
int report_mem_check(const struct report_opts *o, struct pk_data_reader *r);

/*
 * report_mem_fill - in --mem-mode, sample smp (resolved as rs) as perf's
 * mem iterator counts it: its weight as its period (1 for none), its
 * data_src word, its data address resolved in `maps` to an object (its
 * name from `names`, as the dso key's) and symbol, the cache line, the
 * physical address and page size.  Nothing outside --mem-mode.  0, or
 * -ENOMEM.
 */
int report_mem_fill(const struct report_opts *o, struct cli_names *names, struct pk_maps *maps,
		    const struct pk_sample *smp, const struct pk_resolved_sample *rs, struct pk_hist_sample *s);

/* report_mem_widths - each memory key's column width (w[k - first key])
 * over h's shown entries, as perf's hists__calc_col_len. */
void report_mem_widths(const struct pk_hist *h, const struct report_opts *o, int *w);

/* report_mem_header / report_mem_print - a memory key's header, and
 * entry e's cell of it, width w, as perf prints it (`last`: the last
 * column, not padded). */
const char *report_mem_header(enum pk_hist_key k);
void report_mem_print(FILE *f, const struct report_opts *o, enum pk_hist_key k, int w,
		      const struct pk_hist_entry *e, bool last);

/* report_mem_totals - the section's total line: perf's "# Event count
 * (approx.)", or in --mem-mode its "# Total weight" and "# Sort order". */
void report_mem_totals(FILE *f, const struct report_opts *o, uint64_t period);
/* ---- --sort dso_size, cgroup_id, transaction, code_page_size, addr (report-sort3.c) -- */

/* report_sort3_setup - the namespace table when a key is cgroup_id: 0,
 * or CLI_EXIT_EVENT (out of memory) after a message.  report_sort3_free
 * frees it (report_sort2_setup and _free call them). */
int report_sort3_setup(struct report_opts *o);
void report_sort3_free(struct report_opts *o);

/* report_sort3_namespaces - a NAMESPACES record's cgroup link for its
 * thread: 0, or -ENOMEM. */
int report_sort3_namespaces(const struct report_opts *o, const struct pk_rec_namespaces *n);

/* report_sort3_fill - smp's cgroup_id (thread tid's), transaction, code
 * page size and address into s. */
void report_sort3_fill(const struct report_opts *o, const struct pk_sample *smp, uint32_t tid,
		       struct pk_hist_sample *s);

/* report_sort3_header / report_sort3_width / report_sort3_print - as
 * report_sort2's, for these keys; the transaction key is wider once an
 * entry has a transaction (any_transaction). */
const char *report_sort3_header(enum pk_hist_key k);
int report_sort3_width(enum pk_hist_key k, bool any_transaction);
void report_sort3_print(FILE *f, enum pk_hist_key k, int w, const struct pk_hist_entry *e, bool last);

/* report_sort3_item - --sort's word (perf's name `perf`) as one of perf's
 * output fields (overhead, its sys/us/guest forms, overhead_children,
 * sample) noted in o->sort_items: true, or false for another word. */
bool report_sort3_item(struct report_opts *o, const char *perf);

/* report_sort3_fields - with such a field in --sort and no -F, the
 * columns and the rows' order as perf sets them up (its overhead prefix
 * unless --sort names "overhead", the output fields, then the rest). */
void report_sort3_fields(struct report_opts *o);

#endif
