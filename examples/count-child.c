/* SPDX-License-Identifier: MIT */
/*
 * count-child.c - count another task: fork a child held before exec, open
 * the counters on its pid with enable_on_exec (so they count the command
 * and nothing of the fork), let it exec, wait, read.  perf stat's core.
 *   ./count-child [command args...]        (default: ls /)
 */
#include <perfkit.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	static char *dflt[] = { "ls", "/", NULL };
	char *const *cmd = argc > 1 ? argv + 1 : dflt;
	struct pk_workload *w = NULL;
	struct pk_events *ev = NULL;
	struct pk_evlist *l = NULL;
	pid_t pid;
	int err, status = 1;

	if ((err = pk_workload_start(cmd, &w)) < 0)	/* fork; the child waits for pk_workload_go */
		goto out;
	pid = pk_workload_pid(w);
	{
		struct pk_target child = { .size = sizeof(child), .threads = &pid, .nr_threads = 1,
					   .inherit = true,		/* and the command's own children */
					   .enable_on_exec = true };	/* start at its exec */

		if ((err = pk_events_parse("task-clock,context-switches,page-faults", NULL, &ev)) < 0 ||
		    (err = pk_evlist_new(ev, &child, &l)) < 0 || (err = pk_evlist_open(l)) < 0)
			goto out;
	}
	if ((err = pk_workload_go(w)) < 0)		/* exec: the counters start now */
		goto out;
	status = pk_workload_wait(w);		/* the exit status, as a shell says it */
	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		struct pk_count c = { .size = sizeof(c) };

		if (pk_evlist_read(l, i, &c) == 0)
			fprintf(stderr, "%12llu  %s\n", (unsigned long long)c.value,
				pk_events_desc(ev, i)->name);
	}
out:
	if (err < 0)
		fprintf(stderr, "%s\n", pk_last_error()->why);
	pk_evlist_free(l);
	pk_events_free(ev);
	pk_workload_free(w);
	return status;
}
