/* SPDX-License-Identifier: MIT */
/*
 * calls.c - the system calls of libperfkit that are not about one event
 * fd, behind the same per-thread seam as sys.c's: the eventfd a thread the
 * library starts is stopped with and its signal, poll(2) over event fds
 * (the rings' and the BPF side band's waits), mount(2) for
 * pk_tracefs_mount, the open(2) of a directory kept open (a cgroup's), and
 * the small calls about the process and the machine (clock_gettime,
 * sysconf, uname, getrlimit, gettid), so that tests can make each fail.
 * Each turns errno into a negative return; the waits and wake-ups also say
 * in the error record what failed and why.
 */
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mount.h>
#include <unistd.h>

/* ---- waits and wake-ups: eventfd, its signal, poll ------------------------- */

int pk__sys_eventfd(unsigned int initval, int flags, const char *what)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	const char *ename, *why;
	char msg[128];
	int fd, err;

	if (ops && ops->eventfd)
		fd = ops->eventfd(initval, flags);
	else
		fd = eventfd(initval, flags);
	if (fd >= 0)
		return fd;
	err = errno;
	snprintf(msg, sizeof(msg), "eventfd(2) for %s", what ? what : "a wake-up");
	ename = strerrorname_np(err);
	why = err == EMFILE ? ": this process has as many open files as RLIMIT_NOFILE allows" :
	      err == ENFILE ? ": the system's open file table is full (fs.file-max)" :
	      err == ENODEV ? ": the kernel could not mount its anonymous inode file system" : "";
	pk__error(-err, msg, "%s (%s)%s", strerror(err), ename ? ename : "?", why);
	if (err == EMFILE)
		pk__error_hint("%s", "raise the limit with `ulimit -n`, or watch fewer CPUs or threads");
	return -err;
}

int pk__sys_eventfd_signal(int fd)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	uint64_t one = 1;
	char what[64];
	ssize_t n;
	int err;

	do
		n = ops && ops->write ? ops->write(fd, &one, sizeof(one))
					      : write(fd, &one, sizeof(one));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(one))
		return 0;
	/* An eventfd takes all eight bytes or none: a short write is no eventfd. */
	err = n < 0 ? errno : EINVAL;
	snprintf(what, sizeof(what), "signal eventfd %d", fd);
	if (err == EAGAIN)
		return pk__error(-err, what, "%s", "its counter is at its maximum and the fd is non-blocking");
	return pk__error(-err, what, "%s", strerror(err));
}

int pk__sys_poll(struct pollfd *fds, size_t nfds, int timeout_ms, const char *what)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	char msg[128];
	int n, err;

	if (ops && ops->poll)
		n = ops->poll(fds, (nfds_t)nfds, timeout_ms);
	else
		n = poll(fds, (nfds_t)nfds, timeout_ms);
	if (n >= 0)
		return n;
	err = errno;
	if (err == EINTR)
		return -EINTR;
	snprintf(msg, sizeof(msg), "poll %s", what ? what : "fds");
	if (err == EINVAL)
		return pk__error(-err, msg, "%zu fds are more than RLIMIT_NOFILE allows", nfds);
	if (err == ENOMEM)
		return pk__error(-err, msg, "%s", "the kernel could not allocate its poll table");
	return pk__error(-err, msg, "%s", strerror(err));
}

/* ---- mount ------------------------------------------------------------------ */

int pk__sys_mount(const char *source, const char *target, const char *fstype,
		  unsigned long flags, const void *data)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	int ret;

	if (ops && ops->mount)
		ret = ops->mount(source, target, fstype, flags, data);
	else
		ret = mount(source, target, fstype, flags, data);
	return ret == 0 ? 0 : -errno;
}

/* ---- a directory kept open -------------------------------------------------- */

int pk__sys_open_dir(const char *path)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	int fd = ops && ops->open ? ops->open(path, flags) : open(path, flags);

	return fd >= 0 ? fd : -errno;
}

/* ---- the process and the machine ------------------------------------------- */

int pk__sys_clock_gettime(clockid_t clock, struct timespec *ts)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	int ret = ops && ops->clock_gettime ? ops->clock_gettime(clock, ts) : clock_gettime(clock, ts);

	if (ret == 0)
		return 0;
	ret = -errno;
	*ts = (struct timespec){ 0, 0 };
	return ret;
}

long pk__sys_sysconf(int name)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	long v;

	errno = 0;
	v = ops && ops->sysconf ? ops->sysconf(name) : sysconf(name);
	if (v > 0)
		return v;
	/* -1 without errno: no value is known; 0 is no count or size either. */
	return v < 0 && errno ? -errno : -EINVAL;
}

size_t pk__sys_page_size(void)
{
	long v = pk__sys_sysconf(_SC_PAGESIZE);

	return v > 0 ? (size_t)v : 4096;
}

int pk__sys_uname(struct utsname *u)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	int ret = ops && ops->uname ? ops->uname(u) : uname(u);

	if (ret == 0)
		return 0;
	ret = -errno;
	memset(u, 0, sizeof(*u));
	return ret;
}

int pk__sys_getrlimit(int resource, struct rlimit *rl)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();
	int ret = ops && ops->getrlimit ? ops->getrlimit(resource, rl) : getrlimit(resource, rl);

	return ret == 0 ? 0 : -errno;
}

pid_t pk__sys_gettid(void)
{
	const struct pk__sys_ops *ops = pk__sys_get_ops();

	return ops && ops->gettid ? ops->gettid() : gettid();
}
