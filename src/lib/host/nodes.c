/* SPDX-License-Identifier: MIT */
/*
 * nodes.c - the machine's memory and caches as sysfs describes them: the
 * NUMA nodes (devices/system/node: which are online, each node's MemTotal
 * and MemFree, its CPU list, the memory blocks it holds), the memory block
 * size (devices/system/memory), and each CPU's cache indices
 * (devices/system/cpu/cpuN/cache/indexM).  perf.data's NUMA_TOPOLOGY,
 * MEM_TOPOLOGY and CACHE features are written from these.  Every path goes
 * through pk__sysfs_path, so fixture trees ($PERFKIT_SYSFS_ROOT) stand in
 * for the machine in tests.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read sysfs file `rel` into buf (newline stripped); 0 or a negative errno. */
static int read_rel(const char *rel, char *buf, size_t len)
{
	char path[512];
	int n;

	if (!pk__sysfs_path(path, sizeof(path), rel))
		return -ENAMETOOLONG;
	n = pk__read_file(path, buf, len);
	return n < 0 ? n : 0;
}

int pk__host_nodes(int **nodes, size_t *nr)
{
	char list[4096];
	int err;

	*nodes = NULL;
	*nr = 0;
	if (read_rel("devices/system/node/online", list, sizeof(list)) < 0)
		return -ENOENT;
	err = pk_cpus_parse(list, nodes, nr);
	if (err < 0 && err != -ENOMEM) {
		pk__error_clear();
		return -ENOENT;
	}
	return err;
}

int pk__host_node_mem(int node, uint64_t *total_kb, uint64_t *free_kb)
{
	char rel[96], text[8192];
	int found = 0;

	*total_kb = *free_kb = 0;
	snprintf(rel, sizeof(rel), "devices/system/node/node%d/meminfo", node);
	if (read_rel(rel, text, sizeof(text)) < 0)
		return -ENOENT;
	/* Lines read "Node 0 MemTotal:       9660620 kB". */
	for (char *line = text; line && *line && found != 3; line = strchr(line, '\n')) {
		char field[32];
		unsigned long long kb;

		line += *line == '\n';
		if (sscanf(line, "%*s %*d %31s %llu", field, &kb) != 2)
			continue;
		if (!strcmp(field, "MemTotal:")) {
			*total_kb = kb;
			found |= 1;
		} else if (!strcmp(field, "MemFree:")) {
			*free_kb = kb;
			found |= 2;
		}
	}
	return found == 3 ? 0 : -ENOENT;
}

int pk__host_node_cpulist(int node, char *buf, size_t len)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", node);
	if (read_rel(rel, buf, len) < 0) {
		if (len)
			buf[0] = '\0';
		return -ENOENT;
	}
	return 0;
}

int pk__host_mem_block_size(uint64_t *bytes)
{
	char text[64], *end;
	unsigned long long v;

	if (read_rel("devices/system/memory/block_size_bytes", text, sizeof(text)) < 0)
		return -ENOENT;
	/* The kernel prints it in hex without a 0x. */
	v = strtoull(text, &end, 16);
	if (end == text || v == 0)
		return -ENOENT;
	*bytes = v;
	return 0;
}

/* The memoryN entries of a node's directory, as block numbers; the largest
 * in *max.  Returns the number seen, or -ENOENT. */
static int node_blocks_scan(int node, uint64_t *bits, uint64_t nr_bits, uint64_t *max)
{
	char rel[96], path[512];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(rel, sizeof(rel), "devices/system/node/node%d", node);
	if (!pk__sysfs_path(path, sizeof(path), rel) || !(d = opendir(path)))
		return -ENOENT;
	*max = 0;
	while ((de = readdir(d))) {
		unsigned long long blk;
		char tail;

		if (sscanf(de->d_name, "memory%llu%c", &blk, &tail) != 1)
			continue;
		n++;
		*max = blk > *max ? blk : *max;
		if (bits && blk < nr_bits)
			bits[blk / 64] |= 1ULL << (blk % 64);
	}
	closedir(d);
	return n;
}

int pk__host_node_blocks(int node, uint64_t **bits, uint64_t *nr_bits)
{
	uint64_t max, again;
	int n = node_blocks_scan(node, NULL, 0, &max);

	*bits = NULL;
	*nr_bits = 0;
	if (n < 0)
		return n;
	/* perf's count is the largest block number plus one, blocks or not. */
	*nr_bits = max + 1;
	*bits = pk__calloc((size_t)((*nr_bits + 63) / 64), sizeof(uint64_t));
	if (!*bits)
		return pk__error_nomem("a NUMA node's memory block bitmap");
	/* A block added between the two scans beyond max is left out, as perf does. */
	n = node_blocks_scan(node, *bits, *nr_bits, &again);
	return n < 0 ? n : 0;
}

/* Read one number from cpuN/cache/indexM/<file>. */
static int cache_u32(const char *dir, const char *file, uint32_t *out)
{
	char rel[160], text[32], *end;
	unsigned long v;

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	if (read_rel(rel, text, sizeof(text)) < 0)
		return -ENOENT;
	v = strtoul(text, &end, 10);
	if (end == text)
		return -ENOENT;
	*out = (uint32_t)v;
	return 0;
}

int pk__host_cache(int cpu, int idx, struct pk__host_cache *c)
{
	char dir[96], rel[160], path[512];

	memset(c, 0, sizeof(*c));
	snprintf(dir, sizeof(dir), "devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
	if (!pk__sysfs_path(path, sizeof(path), dir) || access(path, F_OK) < 0)
		return 1;
	if (cache_u32(dir, "level", &c->level) < 0 ||
	    cache_u32(dir, "coherency_line_size", &c->line_size) < 0 ||
	    cache_u32(dir, "number_of_sets", &c->sets) < 0 ||
	    cache_u32(dir, "ways_of_associativity", &c->ways) < 0)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "%s/type", dir);
	if (read_rel(rel, c->type, sizeof(c->type)) < 0)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "%s/size", dir);
	if (read_rel(rel, c->size, sizeof(c->size)) < 0)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "%s/shared_cpu_list", dir);
	if (read_rel(rel, c->map, sizeof(c->map)) < 0)
		return -ENOENT;
	return 0;
}
