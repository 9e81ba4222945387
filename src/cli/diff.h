/* SPDX-License-Identifier: MIT */
/*
 * diff.h - what the files of `perfkit diff` share: cmd-diff.c (options,
 * pairing the events), diff-read.c (a file into one histogram per event)
 * and diff-print.c (perf diff's --stdio table).
 */
#ifndef PK_CLI_DIFF_H
#define PK_CLI_DIFF_H

#include "cli.h"
#include "cgroup-names.h"
#include "dso-names.h"

struct report_opts;

/* --format: perf's table, or the two files' stacks. */
enum diff_format { DIFF_FORMAT_STDIO, DIFF_FORMAT_FOLDED, DIFF_FORMAT_FLAMEGRAPH };

/* The most files one diff compares. */
#define DIFF_MAX_FILES 64

/* The options of one diff run. */
struct diff_opts {
	const char *const *paths;	/* the files: paths[0] the baseline */
	size_t nr_files;
	struct pk_diff_opts d;		/* -c, -o, -b */
	enum pk_hist_key keys[PK_HIST_MAX_KEYS];	/* -s */
	size_t nr_keys;
	bool quiet;			/* -q */
	bool period;			/* -p */
	bool formula;			/* -F */
	bool force;			/* -f */
	bool dump;			/* -D */
	int verbose;			/* -v: full DSO paths, symbols' addresses */
	struct report_opts *rep;	/* with -v: report -v's table of origins */
	/* Shared by every file: the histograms' interner (one pointer per
	 * name, so pk_hist pairs the files' entries itself) and the DSO names
	 * handed out (each once, as -v's origins are looked up by them). */
	struct pk_intern *names;
	struct cli_names *dso_names;
	bool cycles;			/* -c cycles */
	bool cycles_hist;		/* --cycles-hist */
	bool stream;			/* --stream */
	const char *field_sep;		/* -t: cells joined by it, unpadded */
	/* Filters: a sample of another comm, DSO, symbol, process or thread
	 * counts but its row is hidden (-C, -d, -S, --pid, --tid; lists of
	 * names as given, comma-separated); one of another CPU is dropped. */
	const char *comms, *dsos, *syms;
	pid_t *pids, *tids;
	size_t nr_pids, nr_tids;
	const char *cpu_list;		/* --cpu */
	int *cpus;
	size_t nr_cpus;
	enum diff_format format;	/* --format */
	const char *output;		/* --output, for the folded and flamegraph formats */
	const char *time;		/* --time, as given */
	struct diff_file *files;	/* -c cycles: the files read, for their blocks */
	struct cli_cgroups *cgroups;	/* --sort cgroup: the paths by id (cgroup-names.c) */
};

/* --time's ranges of one file: a sample outside all of them is dropped. */
struct diff_time_range {
	uint64_t start, end;		/* nanoseconds; 0: open */
};
struct diff_time {
	struct diff_time_range *r;
	size_t nr;
};

/*
 * diff_time_parse - perf's time string s for one file whose samples span
 * first..last (its SAMPLE_TIME feature; both 0 when it has none) into *t,
 * freed by the caller.  Returns 0; -EINVAL for a malformed string;
 * -ENODATA for a percentage of a file without sample times; -ENOMEM.
 */
int diff_time_parse(const char *s, uint64_t first, uint64_t last, struct diff_time *t);

/* diff_time_skip - whether a sample at `time` is outside t's ranges, as
 * perf_time__ranges_skip_sample decides (time 0 is kept). */
bool diff_time_skip(const struct diff_time *t, uint64_t time);

/* diff_time_part - file `file`'s part of --time s: all of s, or with
 * `A:B...` its file-th part copied into buf; NULL when there is none. */
const char *diff_time_part(const char *s, size_t file, char *buf, size_t len);

/* One file read: an event list and one histogram per event, or (for
 * --format folded and flamegraph) an exporter of every sample's stack. */
struct diff_file {
	const char *path;
	const char *time;		/* its --time string, or NULL */
	struct diff_time ranges;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct pk_hist **hist;		/* one per event of r */
	size_t nr_ev;
	struct pk_exporter *ex;		/* instead of hist, with a --format */
	struct pk_export_frame *frames;	/* a sample's frames for ex */
	size_t cap_frames;
	struct diff_cycles *cyc;	/* -c cycles: its blocks (diff-cycles.c) */
	struct report_srclines *src;	/* --sort srcline, srcfile: its lines (report-srcline.c) */
};

/*
 * diff_file_filters - --cpu's check that every event of r samples its CPU,
 * then `time` (one file's --time string; NULL for none) parsed into
 * *ranges against r's first and last sample times, as perf's
 * perf_time__parse_for_ranges.  0, or an exit status after the message
 * (path names the file in it).
 */
int diff_file_filters(struct pk_data_reader *r, const char *path, const char *time, const struct diff_opts *o,
		      struct diff_time *ranges);

/*
 * diff_file_read - open f->path (perf's ownership check unless o->force)
 * and count every sample into its event's histogram by o's keys, as perf
 * diff does, or with o->format into an exporter (whose flame graph is
 * titled `title`).  Returns 0, or an exit status after the message; the
 * file is freed by diff_file_free either way.
 */
int diff_file_read(struct diff_file *f, const struct diff_opts *o, const char *title);
void diff_file_free(struct diff_file *f);

/* diff_in_list - whether `s` is one of the comma-separated names of `list`. */
bool diff_in_list(const char *list, const char *s);

/*
 * diff_print_event - one event's section of perf diff --stdio: the
 * "# Event" lines (unless quiet; `first` leaves out the blank line before
 * it), the "# Data files:" block for more than two files, the column
 * headers and the rows of d.
 */
void diff_print_event(FILE *f, const struct diff_opts *o, const char *event, const struct pk_diff *d,
		      bool first);

/*
 * diff_stream - perf diff --stream on o's first two files (every one has
 * branch stacks): their hot streams compared and printed as perf prints
 * them (diff-stream.c), names interned in a new o->names (the caller
 * frees it).  Returns 0 or an exit status after the message.
 */
int diff_stream(struct diff_opts *o);

/* diff_verbose_header - what perf diff -v writes to f as it opens file r:
 * its build ids and empty PMU capability features (diff-verbose.c). */
void diff_verbose_header(FILE *f, struct pk_data_reader *r);

/*
 * diff_brstack_check - perf's check_file_brstack: open the files in turn
 * (with -v, diff_verbose_header for each) until one has no BRANCH_STACK
 * feature; *all tells whether every one has it.  A file that cannot be
 * opened ends the check (diff_file_read reports it).  Returns 0.
 */
int diff_brstack_check(const struct diff_opts *o, bool *all);

/*
 * diff_cycles_sample - -c cycles: the cycles of sample smp's branch stack
 * (resolved as rs) counted into f's blocks, as perf's hist__account_cycles.
 * Returns 0 or -ENOMEM.
 */
int diff_cycles_sample(struct diff_file *f, const struct diff_opts *o, const struct pk_sample *smp,
		       const struct pk_resolved_sample *rs);
void diff_cycles_free(struct diff_cycles *c);

/* diff_cycles_lines - how many lines -c cycles prints for row e: one per
 * block of the row's symbol in the baseline (none without one). */
size_t diff_cycles_lines(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e);

/*
 * diff_cycles_cell - line `line` of row e's "[Program Block Range] Cycles
 * Diff" cell, right-aligned in `width`, into out.  Returns 0; 1 when perf
 * skips the line (no block of the new file's for it); -ENOMEM.
 */
int diff_cycles_cell(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		     size_t line, char *out, size_t len, int width);

/*
 * diff_cycles_hist_cell - --cycles-hist: line `line` of row e's
 * "stddev/Hist" cell, as perf prints it: the differences of the line's
 * block's first (up to eight) cycles from the baseline block's, their
 * relative standard error and sparkline, right-aligned in `width` bytes and
 * padded with a space per missing tick; blank for fewer than two or all
 * zero.  Returns as diff_cycles_cell.
 */
int diff_cycles_hist_cell(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
			  size_t line, char *out, size_t len, int width);


/*
 * diff_lazy_known - whether perf diff 6.1 has made row e's srcline (k
 * PK_HIST_KEY_SRCLINE) or srcfile when it sizes the column: only then
 * does the row's text widen it (diff-lazy.c).
 */
bool diff_lazy_known(const struct diff_opts *o, const struct pk_diff *d, const struct pk_diff_entry *e,
		     enum pk_hist_key k);

#endif
