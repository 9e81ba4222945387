/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c - where the perf_event cgroup hierarchy is mounted, from
 * /proc/self/mounts: the cgroup v1 perf_event mount, else cgroup2.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
