/* SPDX-License-Identifier: MIT */
/*
 * run.c - what stat and record both do around a run: the monotonic clock,
 * joining several -e into one event list, and the signals that stop a run
 * (passed on to the command being measured).
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_events_add(const char *cmd, char **events, const char *arg)
{
	size_t n = *events ? strlen(*events) + 1 : 0;
	char *e;

	if (!*arg)
		return cli_usage(cmd, "-e needs an event list");
	e = realloc(*events, n + strlen(arg) + 1);
	if (!e)
		return cli_usage(cmd, "out of memory");
	if (n)
		e[n - 1] = ',';
	strcpy(e + n, arg);
	*events = e;
	return 0;
}

/* ---- stopping signals ------------------------------------------------------- */

/* Written by the handler, read by the loops: the only state shared with it. */
static volatile sig_atomic_t stop_signal;
static struct pk_workload *volatile forward_to;

/*
 * The command gets the signals a terminal or a session sends it (INT,
 * QUIT, HUP, TERM) as they are; for the others (USR1, ALRM, PIPE, XCPU...),
 * which were meant for perfkit, a SIGTERM.
 */
static int passed_on(int sig)
{
	return sig == SIGINT || sig == SIGQUIT || sig == SIGHUP ? sig : SIGTERM;
}

static void on_stop(int sig)
{
	struct pk_workload *w = forward_to;

	if (w)
		pk_workload_kill(w, passed_on(sig));
	stop_signal = sig;
}

void cli_stop_catch(int sig)
{
	struct sigaction sa = { .sa_handler = on_stop }, old;

	/* A SIGHUP ignored already (nohup) stays ignored. */
	if (sig == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	sigaction(sig, &sa, NULL);
}

void cli_stop_forward(struct pk_workload *w, bool pass_pending)
{
	sigset_t all, old;

	/* With every signal held, a stop seen here came before w was set:
	 * the handler passed it to no one, or to another command. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (pass_pending && w && w != forward_to && stop_signal)
		pk_workload_kill(w, passed_on(stop_signal));
	forward_to = w;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int cli_stop_signal(void)
{
	return stop_signal;
}

void cli_stop_reset(void)
{
	stop_signal = 0;
}

const char *cli_default_input(void)
{
	struct stat st;

	/* perf report and script read a pipe on standard input without -i */
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

int cli_check_input(const char *cmd, const char *path, bool force, bool defaulted)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;	/* standard input (perf record -o -): nothing to check */
	if (stat(path, &st) < 0) {
		cli_message(stderr, "perfkit %s: failed to open %s: %s%s\n", cmd, path, strerror(errno),
			    defaulted && errno == ENOENT ? "  (try 'perfkit record' first)" : "");
		return CLI_EXIT_EVENT;
	}
	if (!force && st.st_uid && st.st_uid != geteuid()) {
		cli_message(stderr, "perfkit %s: File %s not owned by current user or root "
			    "(use -f to override)\n", cmd, path);
		return CLI_EXIT_EVENT;
	}
	return 0;
}
