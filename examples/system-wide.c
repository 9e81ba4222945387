/* SPDX-License-Identifier: MIT */
/*
 * system-wide.c - count every task on every online CPU, one row per CPU,
 * for the time a command takes (here: sleep 0.1 by default, or argv[1..]):
 * context switches and CPU time, as `perf stat -a -A` shows them.  Needs
 * CAP_PERFMON or perf_event_paranoid <= 0.
 */
#include <perfkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char *dflt[] = { "sleep", "0.1", NULL };
	char **cmd = argc > 1 ? argv + 1 : dflt;
	int *cpus;
	size_t nr_cpus;
	char msg[512];
	struct pk_events *ev;
	struct pk_evlist *l;
	pid_t pid;

	if (pk_cpus_online(&cpus, &nr_cpus) < 0 ||
	    pk_events_parse("context-switches,cpu-clock", NULL, &ev) < 0)
		return pk_error_format(NULL, msg, sizeof(msg)), fprintf(stderr, "%s\n", msg), 1;
	{
		struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = nr_cpus };

		if (pk_evlist_new(ev, &t, &l) < 0 || pk_evlist_open(l) < 0)
			return pk_error_format(NULL, msg, sizeof(msg)), fprintf(stderr, "%s\n", msg), 1;
	}
	pk_evlist_enable(l);
	if ((pid = fork()) == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	pk_evlist_disable(l);
	for (size_t c = 0; c < pk_evlist_nr_cpus(l); c++) {
		printf("CPU%d", pk_evlist_cpu(l, c));
		for (size_t i = 0; i < 2; i++) {
			struct pk_count n = { .size = sizeof(n) };

			pk_evlist_read_one(l, i, c, 0, &n);
			printf(" %s %llu", pk_events_desc(ev, i)->name, (unsigned long long)n.value);
		}
		printf("\n");
	}
	pk_evlist_free(l);
	pk_events_free(ev);
	free(cpus);
	return 0;
}
