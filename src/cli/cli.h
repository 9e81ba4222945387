/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the perfkit CLI's files share: the subcommand entry points,
 * the error and usage reporters that turn pk_last_error() into one message,
 * and the small JSON writer.
 */
#ifndef PK_CLI_H
#define PK_CLI_H

#include "perfkit.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Exit statuses: 1 for an event the library rejected, 2 for bad usage. */
#define CLI_EXIT_EVENT 1
#define CLI_EXIT_USAGE 2

/* ---- the option table (opts.c) ------------------------------------------- */

enum cli_arg { CLI_ARG_NONE, CLI_ARG_REQUIRED, CLI_ARG_OPTIONAL };	/* getopt's 0, 1, 2 */

/* Descriptions start at this column of --help. */
#define CLI_HELP_COLUMN 23

/* The id of -h/--help, which cli_opts_parse answers itself. */
#define CLI_OPT_HELP 'h'
#define CLI_OPT_HELP_ENTRY { "help", 'h', CLI_ARG_NONE, CLI_OPT_HELP, NULL, "this help" }

/*
 * One option: a long name and/or a short letter, whether it takes a value,
 * the id the handler gets (the letter, or a value from 0x100 for a
 * long-only option), and its --help row.  The metavar names the value
 * ("EVENTS"); one starting with '=' is printed as "--name=VALUE".  help
 * may hold '\n' to break a line; with_next lists the option with the next
 * one in one row (which carries the description); hidden ones are parsed
 * but not shown.  A table ends with an entry of all zeros.
 */
struct cli_opt {
	const char *name;
	int letter;
	enum cli_arg arg;
	int id;
	const char *metavar;
	const char *help;
	bool with_next;
	bool hidden;
};

/* A subcommand's command line: its table and the text around it. */
struct cli_optset {
	const char *cmd;	/* "stat": messages say "perfkit stat: ..." */
	const char *usage;	/* the usage lines and description, printed first */
	const struct cli_opt *opts;
	const char *epilogue;	/* after the options, or NULL */
	bool stop_at_operand;	/* options end at the first operand (the command) */
};

/* The handler: 0 to go on, or an exit status after its own message. */
typedef int cli_opt_fn(void *ctx, int id, const char *arg);

/*
 * cli_opts_parse - run getopt_long over argv with set's table, calling
 * handle for every option.  Returns 0 with optind at the first operand,
 * -1 after printing --help (exit 0), or an exit status: the handler's, or
 * CLI_EXIT_USAGE after one message naming an unknown option (with the
 * nearest known one), an ambiguous or a value-less one, and the hint to run
 * the subcommand's --help.
 */
int cli_opts_parse(const struct cli_optset *set, int argc, char **argv, cli_opt_fn *handle,
		   void *ctx);

/* cli_opts_help - --help: the usage, the options aligned and wrapped to
 * 79 columns, the epilogue. */
void cli_opts_help(const struct cli_optset *set, FILE *f);

/* ---- subcommands ------------------------------------------------------------ */

/* A subcommand: argv[0] is its name; returns the exit status. */
struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	const struct cli_optset *opts;	/* for `perfkit help NAME` */
};

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_diff(int argc, char **argv);
extern const struct cli_optset cmd_list_opts, cmd_info_opts, cmd_stat_opts, cmd_record_opts,
	cmd_report_opts, cmd_script_opts, cmd_diff_opts;

/*
 * cli_error - print pk_last_error() as "perfkit CMD: what: why", then, when
 * the error has a column and `spec` is the string it points into, the
 * string with a caret under that column, then "  hint: ..." when there is
 * one.  Returns CLI_EXIT_EVENT.
 */
int cli_error(const char *cmd, const char *spec);

/*
 * cli_parse_ids - "123,456" into ids (free *out).  A malformed list gets a
 * usage message for `cmd` and -EINVAL.  -ENOMEM otherwise on failure.
 */
int cli_parse_ids(const char *cmd, const char *list, pid_t **out, size_t *nr);

/*
 * cli_filter_ids - cli_parse_ids for filters over a recording (--pid and
 * --tid of report, script and diff), where 0 is a real id: the idle task
 * (swapper) perf prints as pid 0.
 */
int cli_filter_ids(const char *cmd, const char *list, pid_t **out, size_t *nr);

/*
 * cli_words - "a,b,c" into a NULL-terminated list of copies, empty words
 * dropped (perf's strlist), replacing *out (freed first).  Returns 0, or
 * CLI_EXIT_USAGE after "out of memory" for `cmd` (and *out unchanged).
 */
int cli_words(const char *cmd, const char *arg, char ***out);

/* cli_words_free - free a cli_words list; NULL is a no-op. */
void cli_words_free(char **list);

/*
 * cli_pids_threads - -p: every thread of every process in `list`, in list
 * order.  -EINVAL for a malformed list (reported), -ESRCH with
 * pk_last_error naming a process that does not exist, or -ENOMEM.
 */
int cli_pids_threads(const char *cmd, const char *list, pid_t **tids, size_t *nr);

/*
 * The target stat and record share: -p, -t, -a, -C as given, and what
 * cli_target_build made of them.  Nothing given: the command is the target.
 */
struct cli_target {
	const char *pids;	/* -p PID[,PID...] */
	const char *tids;	/* -t TID[,TID...] */
	const char *cpu_list;	/* -C LIST */
	bool all_cpus;		/* -a */
	pid_t *threads;		/* built: -p's processes' threads (or their pids), or -t's */
	size_t nr_threads;
	int *cpus;		/* built: -a's online CPUs or -C's */
	size_t nr_cpus;
};

/* cli_target_option - take -p, -t, -a or -C (ids 'p', 't', 'a', 'C') into
 * t.  Returns 0, or 1 when id is none of them. */
int cli_target_option(struct cli_target *t, int id, const char *arg);

/* cli_target_given - whether -p, -t, -a or -C was given. */
bool cli_target_given(const struct cli_target *t);

/*
 * cli_target_check - the target and the command together: one target at
 * most, and a command when there is none.  Returns 0, or CLI_EXIT_USAGE
 * after the message for `cmd`.
 */
int cli_target_check(const char *cmd, const struct cli_target *t, bool have_command);

/*
 * cli_target_build - parse the lists: -p into every thread of its
 * processes (or, without `threads_of_pids`, the pids themselves), -t into
 * its threads, -a or -C into CPUs (only with `cpus`).  Returns 0, or an
 * exit status after the message for `cmd`: CLI_EXIT_USAGE for a malformed
 * -p/-t list, CLI_EXIT_EVENT for one the library rejects (a bad -C, with a
 * caret; a process that does not exist).  cli_target_list is the list an
 * error points into; cli_target_free frees what was built.
 */
int cli_target_build(const char *cmd, struct cli_target *t, bool threads_of_pids, bool cpus);
const char *cli_target_list(const struct cli_target *t);
void cli_target_free(struct cli_target *t);

/* ---- around a run (run.c) ---------------------------------------------------- */

/* cli_now - monotonic seconds. */
double cli_now(void);

/* cli_events_add - -e, given once or more: arg joined to *events with a
 * comma.  Returns 0, or CLI_EXIT_USAGE after a message for `cmd` (an empty
 * list, or out of memory). */
int cli_events_add(const char *cmd, char **events, const char *arg);

/*
 * cli_stop_catch - make `sig` stop the run: cli_stop_signal() returns it
 * from then on, and the command set by cli_stop_forward gets INT, QUIT or
 * HUP as they are and SIGTERM for any other signal.  A SIGHUP that is
 * ignored already (nohup) stays ignored.  cli_stop_reset forgets the
 * signal (before another -r run).
 *
 * cli_stop_forward - pass stop signals on to w from now on (NULL: to no
 * one).  With pass_pending, a stop that arrived before (while a command
 * was being spawned already running) is passed on to w now, once.
 */
void cli_stop_catch(int sig);
void cli_stop_forward(struct pk_workload *w, bool pass_pending);
int cli_stop_signal(void);
void cli_stop_reset(void);

/*
 * cli_tracefs_need - as root, mount tracefs when it is not mounted and
 * `spec` (an event list) may name a tracepoint, or when spec is NULL (every
 * event is listed).  Does nothing otherwise; never reports.
 */
void cli_tracefs_need(const char *spec);

/*
 * cli_tracing_text - tracepoint sample s's fields as perf prints them
 * (pk_tracing_format) into *buf, grown to *cap as needed (both start
 * NULL and 0; the caller frees *buf).  Returns the text's length, or
 * pk_tracing_format's error (-EINVAL for a damaged sample, its record
 * set), or -ENOMEM.
 */
int cli_tracing_text(struct pk_tracing *t, const struct pk_sample *s, char **buf, size_t *cap);

/* cli_print_attrs - -v: each event's name and the perf_event_attr it was
 * opened with, in perf -vv's layout. */
void cli_print_attrs(FILE *f, const struct pk_evlist *l, const struct pk_events *ev);

/* cli_usage - print "perfkit CMD: <message>" and a hint to run --help.
 * Returns CLI_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_errno_name - "ENOENT" for ENOENT (positive or negative), or "E?". */
const char *cli_errno_name(int err);

/* ---- --control, shared by stat and record (control.c) -------------------- */

/* perf's control channel: commands in, acknowledgements out. */
struct cli_control {
	int fd, ack;		/* -1 when absent */
	size_t len, taken;	/* bytes in buf; of them, already handed out */
	char buf[256];
};

/* cli_control_open - open `spec` (fifo:CTL[,ACK] or fd:N[,M]).  Returns 0,
 * or -1 after a usage message for `cmd`. */
int cli_control_open(const char *cmd, const char *spec, struct cli_control *c);

/* cli_control_next - the next command line (without its newline; valid
 * until the next call), waiting up to timeout_ms for input when none is
 * buffered, or NULL.  Call until NULL to take every command that came. */
const char *cli_control_next(struct cli_control *c, int timeout_ms);

/* cli_control_ack - acknowledge a command as perf does ("ack\n"), when
 * there is an ACK channel.  cli_control_close closes what open opened. */
void cli_control_ack(const char *cmd, struct cli_control *c);
void cli_control_close(struct cli_control *c);

/* ---- settings shared with perf (perfconfig.c) ----------------------------- */

/* cli_buildid_dir - the build-id cache directory: $PERFKIT_BUILDID_DIR,
 * else $PERF_BUILDID_DIR, else perf's buildid.dir setting (perf's config
 * files), else $HOME/.debug; DIR/.debug under --symfs=DIR.  Returns buf,
 * or NULL when it does not fit. */
const char *cli_buildid_dir(char *buf, size_t len);

/* ---- --symfs (symfs.c) ----------------------------------------------------- */

/* cli_symfs_set - the command's --symfs=DIR (kept, not copied). */
void cli_symfs_set(const char *dir);

/* cli_symfs_cache - DIR/.debug into buf when --symfs was given (perf's
 * build-id cache under a symfs), else NULL (also when it does not fit). */
const char *cli_symfs_cache(char *buf, size_t len);

/* cli_symfs_apply - give res the --symfs root (pk_resolver_set_symfs);
 * 0 when none was given, else its return. */
int cli_symfs_apply(struct pk_resolver *res);

/* cli_symfs_long_name - perf's long name for a kernel whose symbols came
 * from the vmlinux at `symfile`: "vmlinux" for DIR/vmlinux under --symfs
 * (perf names it by its vmlinux_path entry), else symfile itself. */
const char *cli_symfs_long_name(const char *symfile);

/* ---- text from outside (text.c) ------------------------------------------ */

/*
 * cli_num_u64, cli_num_i64, cli_num_seconds - `arg` of option `opt` through
 * pk_num_parse_*: 0 with *out set, or -1 after a usage message for `cmd`
 * that names the option, the value and the allowed range.
 */
int cli_num_u64(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max,
		uint64_t *out);
int cli_num_i64(const char *cmd, const char *opt, const char *arg, int64_t min, int64_t max,
		int64_t *out);
int cli_num_seconds(const char *cmd, const char *opt, const char *arg, double min, double max,
		    double *out);

/* cli_utf8_len - the length of the valid UTF-8 character at p (1 for
 * ASCII, NUL included), or 0 when p does not start one. */
size_t cli_utf8_len(const unsigned char *p);

/* cli_escape - write len bytes of s with control bytes, DEL, C1 controls
 * and invalid UTF-8 shown as \xNN, so no user string drives the terminal. */
void cli_escape(FILE *f, const char *s, size_t len);

/* cli_escaped_width - the columns cli_escape takes for the same bytes. */
size_t cli_escaped_width(const char *s, size_t len);

/* cli_message - printf to f with every line escaped as cli_escape does
 * (newlines in the format stay newlines).  Every message carrying user
 * text goes through it. */
void cli_message(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_vmessage(FILE *f, const char *fmt, va_list ap);

/*
 * cli_output_check - flush f and check that everything written to it got
 * there.  Returns 0, or -1 after saying "perfkit CMD: cannot write NAME:
 * <reason>" on stderr (nothing is said when f is stderr itself).
 */
int cli_output_check(const char *cmd, FILE *f, const char *name);

/* ---- table cells without printf (table-put.c) ---------------------------- */

/* cli_put_fixed2 - v as printf's "%*.2f" of `width` would write it, the
 * same bytes (printf itself where the rounding is in doubt).  Returns the
 * bytes written. */
int cli_put_fixed2(FILE *f, int width, double v);

/* cli_put_str - s as printf's "%-*.*s" (left) or "%*.*s" would write it,
 * width and precision as printf takes them (prec < 0: none).  Returns the
 * bytes written. */
int cli_put_str(FILE *f, const char *s, int width, int prec, bool left);

/* cli_put_hex - v as printf's "%#.*llx" of `digits` (no width).  Returns
 * the bytes written. */
int cli_put_hex(FILE *f, uint64_t v, int digits);

/* cli_put_spaces - n spaces (none for n <= 0); returns how many. */
int cli_put_spaces(FILE *f, int n);

/* ---- JSON writer (json.c) ------------------------------------------------- */

#define JSON_MAX_DEPTH 32

/* Pretty-printed JSON to a stream; commas and indentation are automatic. */
struct json {
	FILE *f;
	int depth;
	bool has_items[JSON_MAX_DEPTH];	/* an element was written at this depth */
	bool after_key;			/* the next value completes a "key": */
};

void json_init(struct json *j, FILE *f);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* json_finish - end the document with a newline. */
void json_finish(struct json *j);

/* Shorthands for "key": value. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_i64(struct json *j, const char *key, int64_t v);
void json_kv_bool(struct json *j, const char *key, bool v);

/* json_escape - write `s` as a JSON string literal (quotes included):
 * control characters escaped, UTF-8 passed through, any other byte
 * written as \ufffd (the replacement character), so the JSON is valid. */
void json_escape(FILE *f, const char *s);

/* cli_default_input - the file report and script read without -i, as
 * perf chooses it: "-" when standard input is a pipe, else "perf.data". */
const char *cli_default_input(void);

/* cli_check_input - perf's checks before reading a perf.data file for
 * command `cmd`: the file is there ("-", standard input, is not checked)
 * and owned by the user or root unless `force` (-f).  `defaulted`: the
 * name was not given, so a missing file gets a hint to record first.  0,
 * or CLI_EXIT_EVENT after perf's message. */
int cli_check_input(const char *cmd, const char *path, bool force, bool defaulted);

/* cli_u64_at / cli_u16_at - a value of a record's bytes at p, which may be
 * unaligned (records are read as bytes; a field's alignment is not known). */
static inline uint64_t cli_u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t cli_u16_at(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
