/* SPDX-License-Identifier: MIT */
/*
 * symfs.c - perf's --symfs=DIR for report, script and diff: the directory
 * every file with symbols is looked for below, kept for the one command
 * the process runs; it moves the build-id cache to DIR/.debug (what
 * cli_buildid_dir answers, as perf's symbol__config_symfs sets it) and is
 * handed to each resolver the command makes (pk_resolver_set_symfs); and
 * the name perf's -v gives a kernel whose symbols came from DIR/vmlinux.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* The option's argument (argv outlives the command), or NULL. */
static const char *symfs_dir;

void cli_symfs_set(const char *dir)
{
	symfs_dir = dir;
}

const char *cli_symfs_cache(char *buf, size_t len)
{
	int n;

	if (!symfs_dir)
		return NULL;
	n = snprintf(buf, len, "%s/.debug", symfs_dir);
	return n > 0 && (size_t)n < len ? buf : NULL;
}

int cli_symfs_apply(struct pk_resolver *res)
{
	return symfs_dir ? pk_resolver_set_symfs(res, symfs_dir) : 0;
}

const char *cli_symfs_long_name(const char *symfile)
{
	size_t n = symfs_dir ? strlen(symfs_dir) : 0;

	if (n && !strncmp(symfile, symfs_dir, n) && !strcmp(symfile + n, "/vmlinux"))
		return "vmlinux";
	return symfile;
}
