/* SPDX-License-Identifier: MIT */
/*
 * forkexec.c - the least any "run a command and wait" tool can do: fork,
 * exec the command, wait.  bench/stat-startup.sh times it beside perfkit
 * stat and perf stat to show how much of their cost is this floor.
 */
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid ? 0 : 1;
}
