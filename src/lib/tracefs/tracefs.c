/* SPDX-License-Identifier: MIT */
/*
 * tracefs.c - finding tracefs (/sys/kernel/tracing, then the older
 * /sys/kernel/debug/tracing), mounting it when and only when a caller asks
 * (pk_tracefs_mount), and listing the tracepoints under events/ that match
 * a pair of fnmatch globs, with the ids the kernel gives them.
 */
#include "tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether <dir>/events is a directory; errno tells why not. */
static bool has_events_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (stat(path, &st) < 0)
		return false;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return false;
	}
	return true;
}

static int use_dir(const char *dir, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s", dir) >= (int)len)
		return pk__error(-ENAMETOOLONG, "find tracefs",
				 "the path %s does not fit the caller's buffer", dir);
	return 0;
}

static int not_readable(void)
{
	pk__error(-EACCES, "find tracefs", "tracefs is mounted but %s is not readable by this user",
		  PK__TRACEFS_PATH);
	pk__error_hint("run as root, or as root: mount -o remount,mode=755 %s", PK__TRACEFS_PATH);
	return -EACCES;
}

int pk__tracefs_find(const char *override, char *buf, size_t len)
{
	static const char *const candidates[] = { PK__TRACEFS_PATH, PK__TRACEFS_DEBUGFS_PATH };
	bool denied = false;

	if (override) {
		if (has_events_dir(override))
			return use_dir(override, buf, len);
		return pk__error(errno == EACCES ? -EACCES : -ENOENT, "find tracefs",
				 "%s/events is not a readable directory: %s",
				 override, strerror(errno));
	}
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		if (has_events_dir(candidates[i]))
			return use_dir(candidates[i], buf, len);
		if (errno == EACCES)
			denied = true;
	}
	if (denied)
		return not_readable();
	pk__error(-ENOENT, "find tracefs", "tracefs is not mounted at %s or %s",
		  PK__TRACEFS_PATH, PK__TRACEFS_DEBUGFS_PATH);
	pk__error_hint("%s%s", geteuid() == 0 ? "mount it with: " : "as root: ",
		       PK__TRACEFS_MOUNT_HINT);
	return -ENOENT;
}

int pk_tracefs_mount(void)
{
	const char *why;
	char dir[PATH_MAX];
	int ret = pk__tracefs_find(NULL, dir, sizeof(dir));

	if (ret != -ENOENT)
		return ret;
	/* The mount point exists on every kernel since 4.1 (sysfs makes it). */
	ret = pk__sys_mount("nodev", PK__TRACEFS_PATH, "tracefs", 0, NULL);
	if (ret == 0 && has_events_dir(PK__TRACEFS_PATH))
		return 0;
	if (ret == 0)
		ret = -errno;	/* mounted, but its events directory is not there */
	why = strerror(-ret);
	if (ret == -EACCES)
		ret = -EPERM;
	pk__error(ret, "mount tracefs", "tracefs is not mounted and mounting it at %s failed: %s",
		  PK__TRACEFS_PATH, why);
	if (ret == -EPERM)
		pk__error_hint("as root: %s", PK__TRACEFS_MOUNT_HINT);
	else
		pk__error_hint("check that the kernel has CONFIG_TRACING, then: %s",
			       PK__TRACEFS_MOUNT_HINT);
	return ret;
}

bool pk__tracefs_is_system(const char *tracefs, const char *sys)
{
	char path[PATH_MAX];
	struct stat st;

	if (!sys[0] || strchr(sys, '/') || !strcmp(sys, ".") || !strcmp(sys, ".."))
		return false;
	if (snprintf(path, sizeof(path), "%s/events/%s", tracefs, sys) >= (int)sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void pk__tp_free(struct pk__tp *tps, size_t nr)
{
	if (!tps)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(tps[i].sys);
		free(tps[i].name);
	}
	free(tps);
}

/* ---- listing -------------------------------------------------------------- */

/* The state of one listing: the globs and the matches so far. */
struct scan {
	const char *tracefs;
	const char *sys_glob;
	const char *ev_glob;
	unsigned flags;
	struct pk__tp *tps;
	size_t nr, cap;
};

/* Subdirectories only: events/ and events/<sys>/ also hold control files
 * (enable, filter, header_page, header_event) that are not tracepoints. */
static bool is_subdir(int dfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_name[0] == '.')
		return false;
	if (d->d_type == DT_DIR)
		return true;
	if (d->d_type != DT_UNKNOWN)
		return false;
	return fstatat(dfd, d->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

static int add_match(struct scan *s, const char *sys, const char *ev, uint64_t id)
{
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct pk__tp *n = pk__realloc(s->tps, cap * sizeof(*n));

		if (!n)
			return pk__error_nomem("the tracepoint list");
		s->tps = n;
		s->cap = cap;
	}
	s->tps[s->nr].sys = pk__strdup(sys);
	s->tps[s->nr].name = pk__strdup(ev);
	s->tps[s->nr].id = id;
	if (!s->tps[s->nr].sys || !s->tps[s->nr].name) {
		free(s->tps[s->nr].sys);
		free(s->tps[s->nr].name);
		return pk__error_nomem("a tracepoint name");
	}
	s->nr++;
	return 0;
}

/* Read events/<sys>/<ev>/id.  A tracepoint without a readable id (being
 * removed, or a kernel that hides it) is skipped, except for EACCES, which
 * the caller must hear about. */
static int read_id(struct scan *s, const char *sys, const char *ev, uint64_t *id)
{
	char path[PATH_MAX];
	long val;
	int ret;

	if (snprintf(path, sizeof(path), "%s/events/%s/%s/id", s->tracefs, sys, ev) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = pk__read_long(path, &val);
	if (ret < 0)
		return ret;
	if (val < 0)
		return -EINVAL;
	*id = (uint64_t)val;
	return 0;
}

static int scan_system(struct scan *s, int events_fd, const char *sys)
{
	int fd = openat(events_fd, sys, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	if (fd < 0)
		return errno == EACCES ? -EACCES : 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return pk__error_nomem("reading the tracepoints of %s", sys);
	}
	while (ret >= 0 && (d = readdir(dir))) {
		uint64_t id = 0;

		if (!is_subdir(fd, d) || fnmatch(s->ev_glob, d->d_name, 0) != 0)
			continue;
		if (!(s->flags & PK__TRACEFS_NO_ID)) {
			ret = read_id(s, sys, d->d_name, &id);
			if (ret < 0 && ret != -EACCES && ret != -ENOMEM) {
				ret = 0;
				continue;
			}
		}
		if (ret >= 0)
			ret = add_match(s, sys, d->d_name, id);
	}
	closedir(dir);
	return ret;
}

static int cmp_tp(const void *a, const void *b)
{
	const struct pk__tp *x = a, *y = b;
	int c = strcmp(x->sys, y->sys);

	return c ? c : strcmp(x->name, y->name);
}

static int open_events(const char *tracefs, const char *what, DIR **out)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/events", tracefs) >= (int)sizeof(path))
		return pk__error(-ENAMETOOLONG, what, "the tracefs path %s is too long", tracefs);
	*out = opendir(path);
	if (*out)
		return 0;
	if (errno == EACCES) {
		pk__error(-EACCES, what, "%s is not readable by this user", path);
		pk__error_hint("run as root, or as root: mount -o remount,mode=755 %s", tracefs);
		return -EACCES;
	}
	pk__error(-ENOENT, what, "cannot open %s: %s", path, strerror(errno));
	pk__error_hint("is tracefs mounted? as root: %s", PK__TRACEFS_MOUNT_HINT);
	return -ENOENT;
}

static int scan_all(struct scan *s, DIR *events)
{
	int events_fd = dirfd(events);
	struct dirent *d;

	while ((d = readdir(events))) {
		int ret;

		if (!is_subdir(events_fd, d) || fnmatch(s->sys_glob, d->d_name, 0) != 0)
			continue;
		ret = scan_system(s, events_fd, d->d_name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int pk__tracefs_list(const char *tracefs, const char *sys_glob, const char *ev_glob,
		     unsigned flags, const char *what, struct pk__tp **out, size_t *nr)
{
	struct scan s = {
		.tracefs = tracefs, .sys_glob = sys_glob, .ev_glob = ev_glob, .flags = flags,
	};
	DIR *events = NULL;
	int ret;

	*out = NULL;
	*nr = 0;
	ret = open_events(tracefs, what, &events);
	if (ret < 0)
		return ret;
	ret = scan_all(&s, events);
	closedir(events);
	if (ret < 0) {
		pk__tp_free(s.tps, s.nr);
		if (ret == -ENOMEM)
			return ret;	/* the record says what ran out */
		if (ret != -EACCES)
			return pk__error(ret, what, "scanning %s/events failed: %s", tracefs,
					 strerror(-ret));
		pk__error(-EACCES, what, "the tracepoints under %s/events are not readable by this user",
			  tracefs);
		pk__error_hint("run as root, or as root: mount -o remount,mode=755 %s", tracefs);
		return -EACCES;
	}
	if (s.nr)
		qsort(s.tps, s.nr, sizeof(*s.tps), cmp_tp);
	*out = s.tps;
	*nr = s.nr;
	return 0;
}
