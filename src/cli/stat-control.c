/* SPDX-License-Identifier: MIT */
/*
 * stat-control.c - perf stat's --control protocol: a FIFO pair or
 * inherited descriptors carrying enable, disable, stop and ping, one per
 * line, each acknowledged with perf's "ack\n" and its NUL.
 */
#include "stat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int stat_control_open(const char *spec, struct stat_control *c)
{
	char ctl[256] = "", ack[256] = "";

	if (!strncmp(spec, "fifo:", 5)) {
		const char *comma = strchr(spec + 5, ',');

		snprintf(ctl, sizeof(ctl), "%.*s", (int)(comma ? comma - spec - 5 : (long)strlen(spec + 5)),
			 spec + 5);
		if (comma)
			snprintf(ack, sizeof(ack), "%s", comma + 1);
		/* O_RDWR|O_NONBLOCK: neither end needs a writer or reader yet, as in perf. */
		c->fd = ctl[0] ? open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC) : -1;
		c->ack = ack[0] ? open(ack, O_RDWR | O_NONBLOCK | O_CLOEXEC) : -1;
		if (c->fd < 0 || (ack[0] && c->ack < 0)) {
			cli_usage("stat", "--control: cannot open %s: %s (make it with mkfifo)",
				  c->fd < 0 ? (ctl[0] ? ctl : "(no file)") : ack, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!strncmp(spec, "fd:", 3)) {
		const char *comma = strchr(spec + 3, ',');
		uint64_t v[2] = { 0, UINT64_MAX };

		snprintf(ctl, sizeof(ctl), "%.*s", (int)(comma ? comma - spec - 3 : (long)strlen(spec + 3)),
			 spec + 3);
		if (cli_num_u64("stat", "--control fd:N", ctl, 0, INT_MAX, &v[0]) < 0 ||
		    (comma && cli_num_u64("stat", "--control fd:N,M", comma + 1, 0, INT_MAX, &v[1]) < 0))
			return -1;
		/* perf ignores a descriptor that is not open; commands would
		 * never arrive, so say so now. */
		for (int k = 0; k < 2; k++)
			if (v[k] != UINT64_MAX && fcntl((int)v[k], F_GETFD) < 0) {
				cli_usage("stat", "--control %s: file descriptor %d is not open (%s)", spec,
					  (int)v[k], strerror(errno));
				return -1;
			}
		c->fd = (int)v[0];
		c->ack = comma ? (int)v[1] : -1;
		return 0;
	}
	cli_usage("stat", "--control takes fifo:CTL[,ACK] or fd:N[,M], not '%s'", spec);
	return -1;
}

void stat_control_close(struct stat_control *c)
{
	if (c->fd > 2)
		close(c->fd);
	if (c->ack > 2)
		close(c->ack);
	c->fd = c->ack = -1;
}

/* Act on one command line; returns true for "stop". */
static bool control_command(const struct stat_opts *o, struct pk_evlist *l, struct stat_control *c,
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
	/* perf acknowledges with "ack\n" and its terminating NUL. */
	if (known && c->ack >= 0 && write(c->ack, "ack\n", 5) < 0)
		fprintf(stderr, "perfkit stat: --control: cannot write the ack: %s\n", strerror(errno));
	return stop;
}

/* Wait up to timeout_ms for --control input and act on every complete
 * line; returns true when a "stop" came. */
bool stat_control_poll(const struct stat_opts *o, struct pk_evlist *l, struct stat_control *c,
			 int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	bool stop = false;
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0 || !(p.revents & POLLIN))
		return false;
	n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	if (n <= 0)
		return false;
	c->len += (size_t)n;
	c->buf[c->len] = '\0';
	for (char *nl; (nl = memchr(c->buf, '\n', c->len));) {
		*nl = '\0';
		if (c->buf[0])
			stop |= control_command(o, l, c, c->buf);
		c->len -= (size_t)(nl + 1 - c->buf);
		memmove(c->buf, nl + 1, c->len);
	}
	if (c->len == sizeof(c->buf) - 1)
		c->len = 0;	/* a line longer than any command: drop it */
	return stop;
}
