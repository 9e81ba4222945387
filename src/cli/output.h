/* SPDX-License-Identifier: MIT */
/*
 * output.h - where report's and diff's --format output goes: stdout, a
 * device or FIFO written into (never replaced), or a file written under a
 * temporary name and renamed into place when whole.
 */
#ifndef PERFKIT_CLI_OUTPUT_H
#define PERFKIT_CLI_OUTPUT_H

#include <stdio.h>

/*
 * cli_output_write - call write(f, ctx) with f open on `path`: stdout
 * when path is NULL or "-"; the path itself when it names something that
 * is not a regular file (a device, a FIFO: written into, never renamed
 * over, as record treats them); otherwise PATH.partial.XXXXXX, renamed
 * to path when write returned >= 0 and every byte reached it, removed
 * otherwise.  write returns >= 0 or a negative errno.  Returns 0, or the
 * exit status after a message naming `cmd` and the path.
 */
int cli_output_write(const char *cmd, const char *path, int (*write)(FILE *f, void *ctx), void *ctx);

#endif
