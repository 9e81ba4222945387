/* SPDX-License-Identifier: MIT */
/*
 * tmpdir.h - temporary files and trees for the C tests.  Everything is made
 * under $TMPDIR (meson points it at the build's own tests-tmp/ directory,
 * which the 'hygiene' test requires to be empty when a run ends; /tmp when
 * a test is run by hand) and is removed with tmp_rmtree() from a cmocka
 * teardown, so an assertion that fails half-way leaves nothing behind.
 * Header-only: each test program includes it once.
 */
#ifndef PERFKIT_TESTS_TMPDIR_H
#define PERFKIT_TESTS_TMPDIR_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "$TMPDIR/STEM-XXXXXX" into buf; false when it does not fit. */
static inline bool tmp_template(char *buf, size_t len, const char *stem)
{
	const char *dir = getenv("TMPDIR");
	int n;

	if (!dir || !*dir)
		dir = "/tmp";
	n = snprintf(buf, len, "%s/%s-XXXXXX", dir, stem);
	return n > 0 && (size_t)n < len;
}

/* A fresh directory $TMPDIR/STEM-XXXXXX; its path in buf, or NULL. */
static inline char *tmp_mkdtemp(char *buf, size_t len, const char *stem)
{
	return tmp_template(buf, len, stem) ? mkdtemp(buf) : NULL;
}

/* A fresh file $TMPDIR/STEM-XXXXXX opened read-write; its fd, or -1. */
static inline int tmp_mkstemp(char *buf, size_t len, const char *stem)
{
	return tmp_template(buf, len, stem) ? mkstemp(buf) : -1;
}

/*
 * Remove the file or tree at at/name without following symbolic links.
 * Directories are emptied first; the depth is that of the trees the tests
 * build (a dozen levels at most), so recursion is fine.
 */
static inline int tmp_rmtree_at(int at, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd, err = 0;

	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (tmp_rmtree_at(dirfd(d), de->d_name) < 0)
			err = -EIO;
	}
	closedir(d);
	if (unlinkat(at, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		err = -errno;
	return err;
}

/* Remove PATH (a file or a whole tree); 0, or a negative errno. */
static inline int tmp_rmtree(const char *path)
{
	if (!path || !*path)
		return 0;
	return tmp_rmtree_at(AT_FDCWD, path);
}

#endif
