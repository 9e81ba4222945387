/* SPDX-License-Identifier: MIT */
/*
 * proc.c - what /proc says about a process: its threads, its thread group,
 * a thread's name, fields of its status file and the lines of its memory
 * maps.  The line parsers are pure functions, tested by table and fuzzed.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(pid_t) == sizeof(int), "pid arrays are built as int arrays");

/* The error record for a process that /proc cannot show us. */
static int no_process(pid_t pid, int e, const char *what_fmt)
{
	char what[64];

	snprintf(what, sizeof(what), what_fmt, (int)pid);
	pk__error(-e, what, "%s", e == ESRCH ? "no such process" : strerror(e));
	pk__error_hint("%s", e == ESRCH ? "check the pid: it may have exited ('ps -p PID')"
			     : e == EMFILE ? "the process reached its limit of open files "
					     "(RLIMIT_NOFILE): raise it with `ulimit -n`"
			     : "reading another user's process needs root or CAP_SYS_PTRACE");
	return -e;
}

int pk_pid_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int *a = NULL;
	size_t n = 0, cap = 0;

	pk__error_clear();
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (pid <= 0 || !(d = opendir(path)))
		return no_process(pid, pid <= 0 || errno == ENOENT ? ESRCH : errno,
				  "threads of process %d");
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (*end || t <= 0 || t > INT_MAX)
			continue;
		if (pk__host_ints_push(&a, &n, &cap, (int)t)) {
			closedir(d);
			free(a);
			return pk__error(-ENOMEM, "threads of process", "out of memory for the "
					 "threads of process %d", (int)pid);
		}
	}
	closedir(d);
	if (!n) {
		free(a);
		pk__error(-ESRCH, "threads of process", "process %d has no threads left: it exited",
			  (int)pid);
		return -ESRCH;
	}
	n = pk__host_ints_sort_unique(a, n);
	/* pid_t is int on Linux; the array is handed over as it is. */
	*tids = (pid_t *)a;
	*nr = n;
	return 0;
}

int pk__host_status_field(const char *status, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	const char *p = status;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			const char *v = p + klen + 1;
			size_t n;

			v += strspn(v, " \t");
			n = strcspn(v, "\n");
			if (n >= len)
				return -ENAMETOOLONG;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -ENOENT;
}

int pk__host_status_long(pid_t pid, const char *key, long *value)
{
	char path[64], buf[4096], field[32], *end;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pid <= 0)
		return -ESRCH;
	err = pk__read_file(path, buf, sizeof(buf));
	if (err < 0)
		return err == -ENOENT ? -ESRCH : err;
	if (pk__host_status_field(buf, key, field, sizeof(field)) < 0)
		return -EINVAL;
	errno = 0;
	*value = strtol(field, &end, 10);
	return field[0] && !*end && !errno ? 0 : -EINVAL;
}

pid_t pk_pid_tgid(pid_t tid)
{
	long tgid;
	int err;

	pk__error_clear();
	err = pk__host_status_long(tid, "Tgid", &tgid);
	if (err == -ESRCH || err == -EACCES || err == -EPERM)
		return no_process(tid, -err, "process of thread %d");
	if (err < 0 || tgid <= 0 || tgid > INT_MAX)
		return pk__error(-EINVAL, "process of thread", "/proc/%d/status has no usable "
				 "Tgid: line", (int)tid);
	return (pid_t)tgid;
}

int pk__host_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (pk__read_file(path, buf, len) < 0)
		return -ESRCH;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* A hex number ending at `stop` (or at a blank when stop is ' '). */
static bool hex_field(char **p, char stop, uint64_t *out)
{
	char *end;

	if (!isxdigit((unsigned char)**p))
		return false;
	errno = 0;
	*out = strtoull(*p, &end, 16);
	if (errno || *end != stop)
		return false;
	*p = end + 1;
	return true;
}

int pk__host_maps_parse(char *line, struct pk__host_map *m)
{
	char *p = line, *end;
	uint64_t maj, min;

	if (!hex_field(&p, '-', &m->start) || !hex_field(&p, ' ', &m->end) || m->end < m->start)
		return -EINVAL;
	if (strspn(p, "rwxsp-") != 4 || p[4] != ' ')
		return -EINVAL;
	memcpy(m->perms, p, 4);
	m->perms[4] = '\0';
	p += 5;
	if (!hex_field(&p, ' ', &m->pgoff) || !hex_field(&p, ':', &maj) || !hex_field(&p, ' ', &min) ||
	    maj > UINT32_MAX || min > UINT32_MAX || !isdigit((unsigned char)*p))
		return -EINVAL;
	m->maj = (unsigned int)maj;
	m->min = (unsigned int)min;
	errno = 0;
	m->ino = strtoull(p, &end, 10);
	if (errno || (*end != ' ' && *end != '\n' && *end != '\0'))
		return -EINVAL;
	p = end + strspn(end, " ");
	p[strcspn(p, "\n")] = '\0';
	m->path = p;
	return 0;
}

int pk__host_maps_read(pid_t pid, pk__host_map_cb cb, void *arg)
{
	/* A path is at most PATH_MAX; the fields before it fit in 256. */
	char path[64], line[PATH_MAX + 256];
	struct pk__host_map m;
	int ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re")))
		return no_process(pid, errno == ENOENT ? ESRCH : errno, "memory maps of process %d");
	while (!ret && fgets(line, sizeof(line), f))
		if (!pk__host_maps_parse(line, &m))
			ret = cb(arg, &m);
	fclose(f);
	return ret;
}
