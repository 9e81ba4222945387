/* SPDX-License-Identifier: MIT */
/*
 * dso-names.h - the names report and diff give a sample's DSO and level,
 * as perf shows them: a path's last component, "[JIT] tid PID" for code in
 * anonymous memory, and perf's one-letter level ([k], [.], ...).
 */
#ifndef PERFKIT_CLI_DSO_NAMES_H
#define PERFKIT_CLI_DSO_NAMES_H

#include <perfkit.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every name handed out, one shared copy each (entries key on the pointer). */
struct cli_names {
	char **v;
	size_t nr;
};

/* cli_names_intern - the shared copy of `name`; NULL when out of memory. */
const char *cli_names_intern(struct cli_names *n, const char *name);

/* cli_names_free - free every copy; the set is empty again. */
void cli_names_free(struct cli_names *n);

/* cli_dso_short_name - perf's short name of DSO `d` in process `pid`,
 * shared through `n`: perf tells DSOs apart by this name, so two builds of
 * one program in different directories are one entry.  NULL for a NULL
 * `d`, or with *nomem set when out of memory. */
const char *cli_dso_short_name(struct cli_names *n, const struct pk_dso *d, uint32_t pid, bool *nomem);

/* cli_dso_is_jit - whether `d` is memory perf gives no object (anonymous,
 * stack, heap, SysV shared), named "[JIT] tid PID" after its process. */
bool cli_dso_is_jit(const struct pk_dso *d);

/* cli_sample_level - perf's level letter for a sample's cpumode: k, .,
 * g, u, or H for anything else. */
char cli_sample_level(uint16_t cpumode);

#endif
