/* SPDX-License-Identifier: MIT */
/*
 * cgroup-names.c - the cgroup key of report and diff: the files'
 * PERF_RECORD_CGROUP paths by id (the first record of an id's, as perf's
 * env keeps them), and the name perf prints for an entry's cgroup id.
 */
#include "cgroup-names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct cli_cgroups {
	struct {
		uint64_t id;
		char *path;
	} *v;
	size_t nr, cap;
};

int cli_cgroups_new(struct cli_cgroups **out)
{
	return (*out = calloc(1, sizeof(**out))) ? 0 : -ENOMEM;
}

int cli_cgroup_add(struct cli_cgroups *cg, const struct pk_rec_cgroup *c)
{
	if (!cg || !c->path)
		return 0;
	for (size_t i = 0; i < cg->nr; i++)
		if (cg->v[i].id == c->id)
			return 0;
	if (cg->nr == cg->cap) {
		size_t cap = cg->cap ? 2 * cg->cap : 8;
		void *v = realloc(cg->v, cap * sizeof(*cg->v));

		if (!v)
			return -ENOMEM;
		cg->v = v;
		cg->cap = cap;
	}
	if (!(cg->v[cg->nr].path = strdup(c->path)))
		return -ENOMEM;
	cg->v[cg->nr++].id = c->id;
	return 0;
}

const char *cli_cgroup_name(const struct cli_cgroups *cg, uint64_t id)
{
	if (!id)
		return "N/A";
	for (size_t i = 0; cg && i < cg->nr; i++)
		if (cg->v[i].id == id)
			return cg->v[i].path;
	return "unknown";
}

void cli_cgroups_free(struct cli_cgroups *cg)
{
	for (size_t i = 0; cg && i < cg->nr; i++)
		free(cg->v[i].path);
	if (cg)
		free(cg->v);
	free(cg);
}
