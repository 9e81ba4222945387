/* SPDX-License-Identifier: MIT */
/*
 * dso-names.c - the short DSO names and level letters report and diff
 * show, as perf shows them (see dso-names.h).
 */
#include "dso-names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_names_intern(struct cli_names *n, const char *name)
{
	char **u;

	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], name))
			return n->v[i];
	if (!(u = realloc(n->v, (n->nr + 1) * sizeof(*u))))
		return NULL;
	n->v = u;
	if (!(u[n->nr] = strdup(name)))
		return NULL;
	return u[n->nr++];
}

void cli_names_free(struct cli_names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->nr = 0;
}

/* Memory perf gives no object: anonymous, stack, heap, SysV shared. */
static bool anon_name(const char *n)
{
	return !strcmp(n, "//anon") || !strncmp(n, "/dev/zero", 9) || !strncmp(n, "/anon_hugepage", 14) ||
	       !strncmp(n, "[stack", 6) || !strncmp(n, "/SYSV", 5) || !strcmp(n, "[heap]");
}

bool cli_dso_is_jit(const struct pk_dso *d)
{
	return anon_name(d->name);
}

const char *cli_dso_short_name(struct cli_names *n, const struct pk_dso *d, uint32_t pid, bool *nomem)
{
	const char *slash, *name;
	char jit[32], *end;
	long tid;

	*nomem = false;
	if (!d)
		return NULL;
	if (anon_name(d->name)) {
		snprintf(jit, sizeof(jit), "[JIT] tid %d", (int)pid);
		name = cli_names_intern(n, jit);
	} else if (!strncmp(d->name, "/tmp/perf-", 10) && (tid = strtol(d->name + 10, &end, 10), end > d->name + 10)) {
		/* perf's dso__set_basename: a perf map's code is the JIT of the tid in its name */
		snprintf(jit, sizeof(jit), "[JIT] tid %ld", tid);
		name = cli_names_intern(n, jit);
	} else {
		slash = d->name[0] == '/' ? strrchr(d->name, '/') : NULL;
		name = cli_names_intern(n, slash ? slash + 1 : d->name);
	}
	*nomem = !name;
	return name;
}

char cli_sample_level(uint16_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL: return 'k';
	case PERF_RECORD_MISC_USER: return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL: return 'g';
	case PERF_RECORD_MISC_GUEST_USER: return 'u';
	default: return 'H';
	}
}
