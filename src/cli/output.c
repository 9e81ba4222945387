/* SPDX-License-Identifier: MIT */
/*
 * output.c - the one place report's and diff's --format output is written
 * (see output.h): nothing perfkit did not create is replaced, and a
 * failed write leaves no file behind.
 */
#include "output.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failed(const char *cmd, const char *path, int err)
{
	cli_message(stderr, "perfkit %s: writing %s failed: %s\n", cmd, path, strerror(-err));
	return CLI_EXIT_EVENT;
}

/* A device or FIFO: written into, as perf and perfkit record do. */
static int write_into(const char *cmd, const char *path, int (*write)(FILE *f, void *ctx), void *ctx)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return failed(cmd, path, err);
	}
	err = write(f, ctx);
	if (fclose(f) && err >= 0)
		err = -EIO;
	return err < 0 ? failed(cmd, path, err) : 0;
}

int cli_output_write(const char *cmd, const char *path, int (*write)(FILE *f, void *ctx), void *ctx)
{
	struct stat st;
	char *tmp = NULL;
	FILE *f = NULL;
	mode_t mask;
	int fd, err;

	if (!path || !strcmp(path, "-"))
		return write(stdout, ctx) < 0 ? cli_error(cmd, NULL) : 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_into(cmd, path, write, ctx);
	if (asprintf(&tmp, "%s.partial.XXXXXX", path) < 0)
		return cli_usage(cmd, "out of memory");
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		cli_message(stderr, "perfkit %s: cannot create %s: %s\n", cmd, path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return CLI_EXIT_EVENT;
	}
	mask = umask(0);	/* mkstemp made it 0600: give it a new file's mode */
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	err = write(f, ctx);
	if (fclose(f) && err >= 0)
		err = -EIO;
	if (err >= 0 && rename(tmp, path) < 0)
		err = -errno;
	if (err < 0)
		unlink(tmp);
	free(tmp);
	return err < 0 ? failed(cmd, path, err) : 0;
}
