/* SPDX-License-Identifier: MIT */
/*
 * cgroup-names.h - the cgroup sort key's paths by id, for report and diff
 * (cgroup-names.c).
 */
#ifndef PERFKIT_CLI_CGROUP_NAMES_H
#define PERFKIT_CLI_CGROUP_NAMES_H

#include <perfkit.h>
#include <stdint.h>

/* cli_cgroups_new: 0 or -ENOMEM; cli_cgroup_add keeps a CGROUP record's
 * path (an id's first), 0 or -ENOMEM, nothing for a NULL table;
 * cli_cgroup_name is perf's name for an id: "N/A" for 0, its path, or
 * "unknown" (a NULL table knows none); _free of NULL is a no-op. */
struct cli_cgroups;
int cli_cgroups_new(struct cli_cgroups **out);
int cli_cgroup_add(struct cli_cgroups *cg, const struct pk_rec_cgroup *c);
const char *cli_cgroup_name(const struct cli_cgroups *cg, uint64_t id);
void cli_cgroups_free(struct cli_cgroups *cg);

#endif
