/* SPDX-License-Identifier: MIT */
/*
 * targets.c - the target stat and record share: the task lists -p and -t
 * take, the CPUs of -a and -C, and the checks on them together.
 */
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static int parse_ids(const char *cmd, const char *list, uint64_t min, pid_t **out, size_t *nr)
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
		if (len >= sizeof(tok) || pk_num_parse_u64(tok, min, INT32_MAX, &v) < 0) {
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

int cli_parse_ids(const char *cmd, const char *list, pid_t **out, size_t *nr)
{
	return parse_ids(cmd, list, 1, out, nr);
}

int cli_filter_ids(const char *cmd, const char *list, pid_t **out, size_t *nr)
{
	return parse_ids(cmd, list, 0, out, nr);
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

/* ---- the target -p/-t/-a/-C make -------------------------------------------- */

int cli_target_option(struct cli_target *t, int id, const char *arg)
{
	switch (id) {
	case 'p': t->pids = arg; break;
	case 't': t->tids = arg; break;
	case 'a': t->all_cpus = true; break;
	case 'C': t->cpu_list = arg; break;
	default: return 1;
	}
	return 0;
}

bool cli_target_given(const struct cli_target *t)
{
	return t->pids || t->tids || t->all_cpus || t->cpu_list;
}

int cli_target_check(const char *cmd, const struct cli_target *t, bool have_command)
{
	if ((t->pids != NULL) + (t->tids != NULL) + (t->all_cpus || t->cpu_list) > 1)
		return cli_usage(cmd, "-p, -t and -a/-C are different targets: give one of them");
	if (!have_command && !cli_target_given(t))
		return cli_usage(cmd, "no command given: perfkit %s [-e EVENTS] -- COMMAND, "
				 "or a target: -p PID, -t TID, -a, -C CPUS", cmd);
	return 0;
}

/* The lists into ids and CPUs: 0, -EINVAL for a malformed -p/-t list
 * (reported), or another error with pk_last_error set. */
static int build(const char *cmd, struct cli_target *t, bool threads_of_pids, bool cpus)
{
	if (t->pids && threads_of_pids)
		return cli_pids_threads(cmd, t->pids, &t->threads, &t->nr_threads);
	if (t->pids || t->tids)
		return cli_parse_ids(cmd, t->pids ? t->pids : t->tids, &t->threads, &t->nr_threads);
	/* The library's rejection of a CPU list is not a usage error: not -EINVAL. */
	if (cpus && t->cpu_list)
		return pk_cpus_parse(t->cpu_list, &t->cpus, &t->nr_cpus) < 0 ? -ENODEV : 0;
	if (cpus && t->all_cpus)
		return pk_cpus_online(&t->cpus, &t->nr_cpus) < 0 ? -ENODEV : 0;
	return 0;
}

int cli_target_build(const char *cmd, struct cli_target *t, bool threads_of_pids, bool cpus)
{
	int err = build(cmd, t, threads_of_pids, cpus);

	if (err == -EINVAL)
		return CLI_EXIT_USAGE;
	return err < 0 ? cli_error(cmd, cli_target_list(t)) : 0;
}

const char *cli_target_list(const struct cli_target *t)
{
	return t->pids ? t->pids : t->tids ? t->tids : t->cpu_list;
}

void cli_target_free(struct cli_target *t)
{
	free(t->threads);
	free(t->cpus);
	t->threads = NULL;
	t->cpus = NULL;
	t->nr_threads = t->nr_cpus = 0;
}
