/* SPDX-License-Identifier: MIT */
/*
 * pager.c - what a subcommand's text output does on a terminal, as perf
 * (and git) do it: the pager (perf's choice of program, LESS=FRSX, not
 * started before there is output, waited for at the end and on a fatal
 * signal so the shell prompt comes back after it), the colour of
 * percentages (--stdio-color), and a progress line on stderr for files
 * that take more than a second to read.
 */
#include "pager.h"

#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The pager's pid, for cli_pager_finish and the signal handler. */
static volatile pid_t pager_pid;

/* perf's order: PERF_PAGER, PAGER, /usr/bin/pager, /usr/bin/less, none. */
static const char *pager_program(void)
{
	const char *p = getenv("PERF_PAGER");

	if (!p)
		p = getenv("PAGER");
	if (!p && !access("/usr/bin/pager", X_OK))
		p = "/usr/bin/pager";
	if (!p && !access("/usr/bin/less", X_OK))
		p = "/usr/bin/less";
	if (!p || !*p || !strcmp(p, "cat"))
		return NULL;
	return p;
}

/* In the child: wait for the first output (less misbehaves when started
 * on an empty pipe, perf's comment says), then run the pager. */
static void run_pager(int in, const char *prog)
{
	fd_set rd;

	dup2(in, 0);
	close(in);
	FD_ZERO(&rd);
	FD_SET(0, &rd);
	select(1, &rd, NULL, NULL, NULL);
	setenv("LESS", "FRSX", 0);
	execl("/bin/sh", "sh", "-c", prog, (char *)NULL);
	_exit(127);
}

/* Only async-signal-safe calls: the output ends, the pager is waited
 * for, and the signal does what it would have. */
static void on_signal(int sig)
{
	pid_t pid = pager_pid;

	close(1);
	close(2);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

bool cli_pager_start(void)
{
	const char *prog;

	if (pager_pid || !isatty(1) || !(prog = pager_program()))
		return false;
	return cli_pager_force(prog);
}

bool cli_pager_force(const char *prog)
{
	int fds[2];
	pid_t pid;

	if (pager_pid)
		return false;
	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) < 0)
		return false;
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (!pid) {
		close(fds[1]);
		run_pager(fds[0], prog);
	}
	close(fds[0]);
	dup2(fds[1], 1);
	if (isatty(2))
		dup2(fds[1], 2);
	close(fds[1]);
	pager_pid = pid;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGQUIT, on_signal);
	signal(SIGPIPE, on_signal);
	return true;
}

void cli_pager_finish(void)
{
	pid_t pid = pager_pid;

	if (!pid)
		return;
	fflush(stdout);
	fflush(stderr);
	close(1);
	close(2);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

bool cli_pager_active(void)
{
	return pager_pid != 0;
}

int cli_color_parse(const char *cmd, const char *arg, enum cli_color *mode)
{
	if (!arg || !strcmp(arg, "always"))
		*mode = CLI_COLOR_ALWAYS;
	else if (!strcmp(arg, "never"))
		*mode = CLI_COLOR_NEVER;
	else if (!strcmp(arg, "auto"))
		*mode = CLI_COLOR_AUTO;
	else
		return cli_usage(cmd, "--stdio-color '%s': use always, never or auto", arg);
	return 0;
}

bool cli_color_use(enum cli_color mode)
{
	if (mode != CLI_COLOR_AUTO)
		return mode == CLI_COLOR_ALWAYS;
	return cli_pager_active() || isatty(1);
}

const char *cli_percent_color(double percent)
{
	double a = percent < 0 ? -percent : percent;

	if (a >= 5.0)
		return "\033[31m";
	return a > 0.5 ? "\033[32m" : NULL;
}

/* ---- progress ----------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(struct cli_progress *p)
{
	*p = (struct cli_progress){ .start = now(), .tty = isatty(2) != 0, .last_pct = -1 };
}

void cli_progress_update(struct cli_progress *p, unsigned long long done, unsigned long long total)
{
	double t;
	int pct;

	if (!p->tty)
		return;
	t = now();
	/* Nothing in the first second; then at most ten redraws a second,
	 * and only when the figure changes. */
	if (t - p->start < 1.0 || t - p->last < 0.1)
		return;
	pct = total ? (int)(done * 100 / total) : 0;
	if (pct == p->last_pct && p->last)
		return;
	p->last = t;
	p->last_pct = pct;
	if (total)
		fprintf(stderr, "\rProcessing events... %3d%%", pct > 100 ? 100 : pct);
	else	/* a stream: how far is not known */
		fputs("\rProcessing events...", stderr);
	fflush(stderr);
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->tty && p->last) {
		fputs("\r\033[K", stderr);	/* the line is erased: the report starts clean */
		fflush(stderr);
	}
	p->last = 0;
}
