/* SPDX-License-Identifier: MIT */
/*
 * targets.c - the task lists -p and -t take, shared by stat and record.
 */
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

int cli_parse_ids(const char *cmd, const char *list, pid_t **out, size_t *nr)
{
	size_t n = 1, k = 0;
	const char *p = list;
	pid_t *ids;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	ids = calloc(n, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	while (k < n) {
		size_t len = strcspn(p, ",");
		char tok[24];
		uint64_t v;

		/* Each id through the checked parser: no sign, space or junk. */
		snprintf(tok, sizeof(tok), "%.*s", (int)(len < sizeof(tok) ? len : sizeof(tok) - 1), p);
		if (len >= sizeof(tok) || pk_num_parse_u64(tok, 1, INT32_MAX, &v) < 0) {
			free(ids);
			cli_usage(cmd, "'%s' is not a list of process or thread ids (e.g. 1234,5678): %s", list,
				  len >= sizeof(tok) ? "an id is too long" : pk_last_error()->why);
			return -EINVAL;
		}
		ids[k++] = (pid_t)v;
		p += len + (p[len] == ',');
	}
	*out = ids;
	*nr = n;
	return 0;
}

int cli_pids_threads(const char *cmd, const char *list, pid_t **tids, size_t *nr)
{
	pid_t *pids, *all = NULL;
	size_t nr_pids, n = 0;

	if (cli_parse_ids(cmd, list, &pids, &nr_pids) < 0)
		return -EINVAL;
	for (size_t i = 0; i < nr_pids; i++) {
		pid_t *t, *grown;
		size_t k;

		if (pk_pid_threads(pids[i], &t, &k) < 0) {
			free(pids);
			free(all);
			return -ESRCH;
		}
		grown = realloc(all, (n + k) * sizeof(*all));
		if (!grown) {
			free(t);
			free(pids);
			free(all);
			return -ENOMEM;
		}
		all = grown;
		memcpy(all + n, t, k * sizeof(*t));
		n += k;
		free(t);
	}
	free(pids);
	*tids = all;
	*nr = n;
	return 0;
}
