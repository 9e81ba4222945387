/* SPDX-License-Identifier: MIT */
/*
 * target.c - what a counter counts, as the perf_event_open pid and cpu
 * arguments: CPU lists ("0-3,8") parsed and read from sysfs, and the
 * threads of a process read from /proc.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(pid_t) == sizeof(int), "pid arrays are built as int arrays");

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int push(int **arr, size_t *nr, size_t *cap, int v)
{
	if (*nr == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		int *n = realloc(*arr, c * sizeof(*n));

		if (!n)
			return -ENOMEM;
		*arr = n;
		*cap = c;
	}
	(*arr)[(*nr)++] = v;
	return 0;
}

static size_t sort_unique(int *a, size_t nr)
{
	size_t k = 0;

	qsort(a, nr, sizeof(*a), cmp_int);
	for (size_t i = 0; i < nr; i++)
		if (!k || a[k - 1] != a[i])
			a[k++] = a[i];
	return k;
}

static int bad_list(const char *list, const char *at, const char *why)
{
	pk__error(-EINVAL, "CPU list", "'%s': %s", list, why);
	pk__error_column((int)(at - list) + 1);
	pk__error_hint("%s", "a CPU list is numbers and ranges separated by commas, e.g. 0-3,8");
	return -EINVAL;
}

int pk_cpus_parse(const char *list, int **cpus, size_t *nr)
{
	const char *p = list;
	int *a = NULL;
	size_t n = 0, cap = 0;

	pk__error_clear();
	if (!list || !*list)
		return bad_list(list ? list : "", list ? list : "", "the list is empty");
	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1])) {
				p = end + 1;
				goto bad;
			}
			hi = strtol(end + 1, &end, 10);
		}
		if (hi < lo || hi > 1 << 20) {
			free(a);
			return bad_list(list, p, hi < lo ? "a range runs backwards" : "CPU number too large");
		}
		for (long c = lo; c <= hi; c++)
			if (push(&a, &n, &cap, (int)c)) {
				free(a);
				return -ENOMEM;
			}
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	*nr = sort_unique(a, n);
	*cpus = a;
	return 0;
bad:
	free(a);
	return bad_list(list, p, "expected a CPU number");
}

int pk_cpus_online(int **cpus, size_t *nr)
{
	char path[512], buf[4096];
	int err;

	pk__error_clear();
	if (!pk__sysfs_path(path, sizeof(path), "devices/system/cpu/online"))
		return -ENAMETOOLONG;
	err = pk__read_file(path, buf, sizeof(buf));
	if (err < 0)
		return pk__error(err, "read the online CPUs", "%s: %s", path, strerror(-err));
	return pk_cpus_parse(buf, cpus, nr);
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
	if (pid <= 0 || !(d = opendir(path))) {
		int e = pid <= 0 ? ESRCH : errno == ENOENT ? ESRCH : errno;
		char what[64];

		snprintf(what, sizeof(what), "threads of process %d", (int)pid);
		pk__error(-e, what, "%s", e == ESRCH ? "no such process" : strerror(e));
		pk__error_hint("%s", e == ESRCH ? "check the pid: it may have exited ('ps -p PID')"
				     : e == EMFILE ? "the process reached its limit of open files "
						     "(RLIMIT_NOFILE): raise it with `ulimit -n`"
				     : "reading another user's process needs root or CAP_SYS_PTRACE");
		return -e;
	}
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (*end || t <= 0 || t > INT_MAX)
			continue;
		if (push(&a, &n, &cap, (int)t)) {
			closedir(d);
			free(a);
			return -ENOMEM;
		}
	}
	closedir(d);
	if (!n) {
		free(a);
		pk__error(-ESRCH, "threads of process", "process %d has no threads left: it exited",
			  (int)pid);
		return -ESRCH;
	}
	n = sort_unique(a, n);
	/* pid_t is int on Linux; the array is handed over as it is. */
	*tids = (pid_t *)a;
	*nr = n;
	return 0;
}

int pk_cgroup_root(char *buf, size_t len)
{
	char dev[256], dir[512], type[64], opts[512];
	char v2[512] = "";
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	pk__error_clear();
	while (f && !found && fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		/* v1 with the perf_event controller wins, as in perf. */
		if (!strcmp(type, "cgroup") && (strstr(opts, "perf_event") == opts ||
						 strstr(opts, ",perf_event"))) {
			snprintf(buf, len, "%s", dir);
			found = true;
		} else if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", dir);
		}
	}
	if (f)
		fclose(f);
	if (found)
		return 0;
	if (v2[0]) {
		snprintf(buf, len, "%s", v2);
		return 0;
	}
	pk__error(-ENOENT, "find the cgroup hierarchy", "%s",
		  "neither a cgroup v1 perf_event mount nor a cgroup2 mount is in /proc/self/mounts");
	pk__error_hint("%s", "mount -t cgroup2 none /sys/fs/cgroup/unified");
	return -ENOENT;
}
