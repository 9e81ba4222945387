/* SPDX-License-Identifier: MIT */
/*
 * topology.c - where each CPU sits (socket, die, core, NUMA node, sibling
 * lists), read from sysfs, for counts aggregated per core, die, socket or
 * node and for perf.data's CPU_TOPOLOGY; plus the machine's CPU description
 * and memory size from /proc/cpuinfo and /proc/meminfo.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_id(int cpu, const char *file, int *out)
{
	char rel[128], path[512];
	long v;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (!pk__sysfs_path(path, sizeof(path), rel))
		return -ENAMETOOLONG;
	if (pk__read_long(path, &v) < 0)
		return -ENOENT;
	*out = (int)v;
	return 0;
}

/* The node whose cpulist holds `cpu`, -1 (no NUMA information), or
 * -ENOMEM (recorded). */
static int find_node(int cpu)
{
	char path[512], list[4096];
	struct dirent *de;
	int node = -1;
	DIR *d;

	if (!pk__sysfs_path(path, sizeof(path), "devices/system/node") || !(d = opendir(path)))
		return -1;
	while (node < 0 && (de = readdir(d))) {
		char rel[300];
		int *cpus, n, err;
		size_t nr;

		if (sscanf(de->d_name, "node%d", &n) != 1)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/node/%s/cpulist", de->d_name);
		if (!pk__sysfs_path(path, sizeof(path), rel) || pk__read_file(path, list, sizeof(list)) <= 0)
			continue;
		err = pk_cpus_parse(list, &cpus, &nr);
		if (err == -ENOMEM) {
			node = err;
			break;
		}
		if (err < 0)
			continue;
		for (size_t i = 0; i < nr; i++)
			if (cpus[i] == cpu)
				node = n;
		free(cpus);
	}
	closedir(d);
	if (node != -ENOMEM)
		pk__error_clear();	/* an empty node's cpulist is not an error */
	return node;
}

int pk_cpu_topology(int cpu, struct pk_cpu_topology *t)
{
	char what[64];

	pk__error_clear();
	if (t->size < sizeof(*t))
		return pk__error(-EINVAL, "pk_cpu_topology", "struct pk_cpu_topology.size is %zu, less "
				 "than the %zu bytes this library fills: set size = "
				 "sizeof(struct pk_cpu_topology)", t->size, sizeof(*t));
	t->cpu = cpu;
	t->die = 0;
	if (read_id(cpu, "physical_package_id", &t->socket) < 0 ||
	    read_id(cpu, "core_id", &t->core) < 0) {
		snprintf(what, sizeof(what), "topology of CPU %d", cpu);
		return pk__error(-ENOENT, what, "devices/system/cpu/cpu%d/topology is missing or "
				 "incomplete in sysfs", cpu);
	}
	read_id(cpu, "die_id", &t->die);	/* absent before Linux 5.2: one die */
	t->node = find_node(cpu);
	if (t->node == -ENOMEM) {
		t->node = -1;
		return -ENOMEM;
	}
	return 0;
}

int pk__host_topology_list(int cpu, const char *file, char *buf, size_t len)
{
	char rel[128], path[512];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (!pk__sysfs_path(path, sizeof(path), rel) || pk__read_file(path, buf, len) < 0) {
		if (len)
			buf[0] = '\0';
		return -ENOENT;
	}
	return 0;
}

void pk__host_cpuinfo(const char *key, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(out, len, "%s", "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, strlen(key)) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

uint64_t pk__host_mem_total_kb(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}
