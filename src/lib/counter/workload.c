/* SPDX-License-Identifier: MIT */
/*
 * workload.c - starting the command a counter measures: fork, hold the child
 * before exec until the counters are open (they use enable_on_exec, so only
 * the command itself is counted, not perfkit's fork or the wait), exec, tell
 * an exec failure from the command's own exit, wait, and forward signals.
 * A command started here dies with the process that started it
 * (PR_SET_PDEATHSIG), so a recorder killed by SIGKILL or the OOM killer
 * leaves no workload running on its own.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct pk_workload {
	pid_t pid;
	int go_fd;		/* our end of a socket pair: one byte releases the child */
	int err_fd;		/* read end: the exec's errno, or EOF when exec worked */
	bool released, reaped;
	char *name;
	int status;
	int signal;		/* the signal that ended it, or 0 */
};

/* In the child: wait for the go byte, exec, report a failed exec's errno. */
static void __attribute__((noreturn)) child(char *const argv[], int go_fd, int err_fd, pid_t parent)
{
	char c;
	int e;

	/* Die with the parent; if it died before this took effect, the
	 * parent is no longer ours (getppid changed): give up now. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	prctl(PR_SET_NAME, PK_WORKLOAD_COMM);
	/* EOF without the byte means the parent gave up: do not run the command. */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int pk_workload_start(char *const argv[], struct pk_workload **out)
{
	struct pk_workload *w;
	int go[2], err[2], e;
	pid_t parent;

	pk__error_clear();
	if (!argv || !argv[0] || !argv[0][0])
		return pk__error(-EINVAL, "start workload", "%s", "no command given");
	w = pk__calloc(1, sizeof(*w));
	if (!w || !(w->name = pk__strdup(argv[0]))) {
		free(w);
		return pk__error_nomem("the workload");
	}
	/* A socket pair, not a pipe, so releasing a child that already died is
	 * an EPIPE we can report (send with MSG_NOSIGNAL) instead of a SIGPIPE
	 * that would kill the caller. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0) {
		e = errno;
		goto fail;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	parent = getpid();
	w->pid = fork();
	if (w->pid < 0) {
		e = errno;
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		goto fail;
	}
	if (w->pid == 0) {
		close(go[1]);
		close(err[0]);
		child(argv, go[0], err[1], parent);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	*out = w;
	return 0;
fail:
	free(w->name);
	free(w);
	pk__error(-e, "start workload", "cannot fork a child for '%s': %s", argv[0], strerror(e));
	if (e == EMFILE)
		pk__error_hint("%s", "the process reached its limit of open files (RLIMIT_NOFILE): "
			       "raise it with `ulimit -n`");
	return -e;
}

/*
 * Whether exec's EACCES came from a directory: `name` itself when it holds a
 * '/', else the first PATH entry holding it, the one execvp stopped at.
 */
static bool names_directory(const char *name)
{
	const char *path = getenv("PATH");
	struct stat st;
	char buf[4096];

	if (strchr(name, '/'))
		return stat(name, &st) == 0 && S_ISDIR(st.st_mode);
	for (const char *p = path ? path : "/bin:/usr/bin"; ; p++) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, p, n ? "/" : "", name);
		if (stat(buf, &st) == 0)
			return S_ISDIR(st.st_mode);
		p += n;
		if (!*p)
			return false;
	}
}

/* Explain an exec failure, as pk_workload_go does. */
static int cannot_run(const char *name, int e)
{
	if (e == EACCES && names_directory(name)) {
		pk__error(-e, "run workload", "cannot run '%s': it is a directory", name);
		pk__error_hint("%s", "give the program to run, such as a file inside it");
		return -e;
	}
	pk__error(-e, "run workload", "cannot run '%s': %s", name, strerror(e));
	if (e == ENOENT)
		pk__error_hint("%s", "check the command's spelling, or give its full path");
	else if (e == EACCES)
		pk__error_hint("%s", "the file is not executable: chmod +x it, or run it through its interpreter");
	return -e;
}

int pk_workload_spawn(char *const argv[], struct pk_workload **out)
{
	struct pk_workload *w;
	int e;

	pk__error_clear();
	if (!argv || !argv[0] || !argv[0][0])
		return pk__error(-EINVAL, "start workload", "%s", "no command given");
	w = pk__calloc(1, sizeof(*w));
	if (!w || !(w->name = pk__strdup(argv[0]))) {
		free(w);
		return pk__error_nomem("the workload");
	}
	w->go_fd = w->err_fd = -1;
	w->released = true;
	/* glibc's posix_spawn reports a failed exec as its return value. */
	e = posix_spawnp(&w->pid, argv[0], NULL, NULL, argv, environ);
	if (e) {
		char *name = w->name;

		free(w);
		e = cannot_run(name, e);
		free(name);
		return e;
	}
	*out = w;
	return 0;
}

pid_t pk_workload_pid(const struct pk_workload *w)
{
	return w->pid;
}

/* waitpid with `flags` (0 or WNOHANG): the shell-style status, or -EAGAIN
 * when WNOHANG finds it still running. */
static int reap(struct pk_workload *w, int flags)
{
	int st;
	pid_t r;

	if (w->reaped)
		return w->status;
	do
		r = waitpid(w->pid, &st, flags);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return -EAGAIN;
	if (r < 0)
		return pk__error(-errno, "wait for the workload", "waitpid(%d): %s", (int)w->pid,
				 strerror(errno));
	w->reaped = true;
	w->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
	w->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	return w->status;
}

int pk_workload_signal(const struct pk_workload *w)
{
	return w->reaped ? w->signal : 0;
}

int pk_workload_go(struct pk_workload *w)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	pk__error_clear();
	if (w->released)
		return 0;
	w->released = true;
	if (send(w->go_fd, &c, 1, MSG_NOSIGNAL) != 1) {
		e = errno;
		reap(w, 0);
		return pk__error(-e, "start workload", "cannot release '%s': %s (it was killed "
				 "before it could run?)", w->name, strerror(e));
	}
	close(w->go_fd);
	w->go_fd = -1;
	/* The error pipe closes on a successful exec; otherwise it carries errno. */
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n != (ssize_t)sizeof(e))
		return 0;
	reap(w, 0);
	return cannot_run(w->name, e);
}

int pk_workload_try_wait(struct pk_workload *w)
{
	pk__error_clear();
	return reap(w, WNOHANG);
}

int pk_workload_wait(struct pk_workload *w)
{
	pk__error_clear();
	return reap(w, 0);
}

int pk_workload_kill(struct pk_workload *w, int sig)
{
	/* Called from signal handlers (the CLI forwards SIGINT): no error
	 * record here, since formatting one is not async-signal-safe. */
	if (w->reaped)
		return -ESRCH;
	return kill(w->pid, sig) < 0 ? -errno : 0;
}

void pk_workload_free(struct pk_workload *w)
{
	if (!w)
		return;
	if (!w->released && !w->reaped) {
		/* Never released: closing the go pipe makes the child exit without
		 * running the command; reap it so no zombie is left behind. */
		close(w->go_fd);
		w->go_fd = -1;
		reap(w, 0);
	}
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	free(w->name);
	free(w);
}
