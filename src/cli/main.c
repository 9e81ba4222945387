/* SPDX-License-Identifier: MIT */
/*
 * main.c - the perfkit command: a table of subcommands, `--version`,
 * `help [CMD]`, and the shared reporters that turn the library's error
 * record into one message (with a caret under the offending column of an
 * event string) and a non-zero exit status.
 */
#include "cli.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_cmd commands[] = {
	{ "list", cmd_list, "List the events this machine offers", &cmd_list_opts },
	{ "info", cmd_info, "Show how event strings are encoded and whether they open", &cmd_info_opts },
	{ "stat", cmd_stat, "Run a command and count events, like perf stat", &cmd_stat_opts },
	{ "record", cmd_record, "Sample a command into a perf.data file, like perf record", &cmd_record_opts },
	{ "report", cmd_report, "Show where the samples of a perf.data file fell, like perf report", &cmd_report_opts },
	{ "script", cmd_script, "Print every sample of a perf.data file, like perf script", &cmd_script_opts },
	{ "diff", cmd_diff, "Compare the profiles of two perf.data files, like perf diff", &cmd_diff_opts },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: perfkit [--version] [--help] [--no-pager] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perfkit COMMAND --help' describes a command.\n");
}

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const char *names[NR_COMMANDS], *best;

	for (size_t i = 0; i < NR_COMMANDS; i++)
		names[i] = commands[i].name;
	best = pk_suggest(name, names, NR_COMMANDS);
	cli_message(stderr, "perfkit: '%s' is not a perfkit command\n", name);
	if (best)
		fprintf(stderr, "  hint: did you mean 'perfkit %s'?\n", best);
	else
		fprintf(stderr, "  hint: 'perfkit help' lists the commands\n");
	return CLI_EXIT_USAGE;
}

static int help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	cli_opts_help(c->opts, stdout);
	return 0;
}

/*
 * Whatever a command printed on stdout must have reached it: a full disk or
 * a closed pipe is a failure even when the command itself went well.
 */
static int finish(const char *cmd, int rc)
{
	if (cli_output_check(cmd, stdout, "the output") < 0 && rc == 0)
		return 1;
	return rc;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;

	/* Large blocks from mmap(2) at a fixed size: glibc's own threshold
	 * rises to the size of each large block freed, after which the
	 * arrays that grow with a profile (histogram entries, kept chains)
	 * grow inside the heap by copying and leave the old space behind;
	 * from mmap they grow in place (mremap) and go back when freed.  A
	 * 48-process DWARF profile's report peaked 3 MB higher without. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	/* perf's --no-pager: what the commands' pager (pager.c) reads as none. */
	if (argc > 1 && !strcmp(argv[1], "--no-pager")) {
		setenv("PERF_PAGER", "cat", 1);
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("perfkit %s\n", pk_version());
		return finish("--version", 0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish("help", help(1, argv));
	if (!strcmp(argv[1], "help"))
		return finish("help", help(argc - 1, argv + 1));
	if (argv[1][0] == '-') {
		cli_message(stderr, "perfkit: unknown option '%s'\n  hint: 'perfkit --help' shows the usage\n",
			    argv[1]);
		return CLI_EXIT_USAGE;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	return finish(c->name, c->run(argc - 1, argv + 1));
}

/* ---- reporters shared by the subcommands --------------------------------- */

static const struct {
	int err;
	const char *name;
} errno_names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
	{ EIO, "EIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { EMFILE, "EMFILE" },
	{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { EOVERFLOW, "EOVERFLOW" },
};

const char *cli_errno_name(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return "E?";
}

void cli_print_attrs(FILE *f, const struct pk_evlist *l, const struct pk_events *ev)
{
	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		char buf[4096];

		pk_attr_format(pk_evlist_attr(l, i), buf, sizeof(buf));
		fprintf(f, "%s\n------------------------------------------------------------\n"
			"perf_event_attr:\n%s", pk_events_desc(ev, i)->name, buf);
	}
}

int cli_error(const char *cmd, const char *spec)
{
	const struct pk_error *e = pk_last_error();

	cli_message(stderr, "perfkit %s: %s%s%s\n", cmd, e->what, e->what[0] ? ": " : "",
		    e->why[0] ? e->why : strerror(e->code < 0 ? -e->code : EINVAL));
	if (spec && e->column > 0 && (size_t)e->column <= strlen(spec) + 1) {
		/* The caret goes under the escaped form of the string. */
		fputs("    ", stderr);
		cli_escape(stderr, spec, strlen(spec));
		fprintf(stderr, "\n    %*s^\n", (int)cli_escaped_width(spec, (size_t)e->column - 1), "");
	}
	if (e->hint[0])
		cli_message(stderr, "  hint: %s\n", e->hint);
	return CLI_EXIT_EVENT;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfkit %s: ", cmd);
	va_start(ap, fmt);
	cli_vmessage(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  hint: 'perfkit %s --help' shows the usage\n", cmd);
	return CLI_EXIT_USAGE;
}
