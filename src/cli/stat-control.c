/* SPDX-License-Identifier: MIT */
/*
 * stat-control.c - what perf stat does with the --control commands
 * (enable, disable, stop, ping), read from the channel control.c opens
 * and acknowledged there as perf acknowledges them.
 */
#include "stat.h"

#include <stdio.h>
#include <string.h>

/* Act on one command line; returns true for "stop". */
static bool control_command(const struct stat_opts *o, struct pk_evlist *l, struct cli_control *c,
			    const char *cmd)
{
	bool stop = false, known = true;

	if (!strcmp(cmd, "enable")) {
		if (l)
			pk_evlist_enable(l);
		if (!o->quiet)
			fprintf(stderr, "Events enabled\n");
	} else if (!strcmp(cmd, "disable")) {
		if (l)
			pk_evlist_disable(l);
		if (!o->quiet)
			fprintf(stderr, "Events disabled\n");
	} else if (!strcmp(cmd, "stop")) {
		if (l)
			pk_evlist_disable(l);
		stop = true;
	} else if (strcmp(cmd, "ping")) {
		known = false;
		cli_message(stderr, "perfkit stat: --control: unknown command '%s' (enable, disable, stop, "
			    "ping)\n", cmd);
	}
	if (known)
		cli_control_ack("stat", c);
	return stop;
}

bool stat_control_poll(const struct stat_opts *o, struct pk_evlist *l, struct cli_control *c,
		       int timeout_ms)
{
	bool stop = false;

	for (const char *cmd; (cmd = cli_control_next(c, timeout_ms)); timeout_ms = 0)
		stop |= control_command(o, l, c, cmd);
	return stop;
}
