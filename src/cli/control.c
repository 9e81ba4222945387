/* SPDX-License-Identifier: MIT */
/*
 * control.c - perf's --control channel, shared by stat and record: a FIFO
 * pair (fifo:CTL[,ACK]) or inherited descriptors (fd:N[,M]) opened and
 * checked, commands read a line at a time without blocking, and perf's
 * acknowledgement written back.  What each command does is the caller's.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* fifo:CTL[,ACK]: both opened O_RDWR|O_NONBLOCK, so neither end needs a
 * writer or a reader yet, as in perf. */
static int open_fifos(const char *cmd, const char *spec, struct cli_control *c)
{
	const char *names = spec + 5, *comma = strchr(names, ',');
	char ctl[PATH_MAX], ack[PATH_MAX];
	size_t n = comma ? (size_t)(comma - names) : strlen(names);

	if (n >= sizeof(ctl) || (comma && strlen(comma + 1) >= sizeof(ack)))
		return cli_usage(cmd, "--control %s: a name is too long", spec), -1;
	memcpy(ctl, names, n);
	ctl[n] = '\0';
	snprintf(ack, sizeof(ack), "%s", comma ? comma + 1 : "");
	c->fd = ctl[0] ? open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC) : -1;
	c->ack = ack[0] ? open(ack, O_RDWR | O_NONBLOCK | O_CLOEXEC) : -1;
	if (c->fd < 0 || (ack[0] && c->ack < 0)) {
		cli_usage(cmd, "--control: cannot open %s: %s (make it with mkfifo)",
			  c->fd < 0 ? (ctl[0] ? ctl : "(no file)") : ack, strerror(errno));
		cli_control_close(c);
		return -1;
	}
	return 0;
}

int cli_control_open(const char *cmd, const char *spec, struct cli_control *c)
{
	const char *comma = strchr(spec, ',');
	uint64_t v[2] = { 0, UINT64_MAX };
	char num[32];

	c->fd = c->ack = -1;
	c->len = c->taken = 0;
	if (!strncmp(spec, "fifo:", 5))
		return open_fifos(cmd, spec, c);
	if (strncmp(spec, "fd:", 3)) {
		cli_usage(cmd, "--control takes fifo:CTL[,ACK] or fd:N[,M], not '%s'", spec);
		return -1;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(comma ? comma - spec - 3 : (long)strlen(spec + 3)),
		 spec + 3);
	if (cli_num_u64(cmd, "--control fd:N", num, 0, INT_MAX, &v[0]) < 0 ||
	    (comma && cli_num_u64(cmd, "--control fd:N,M", comma + 1, 0, INT_MAX, &v[1]) < 0))
		return -1;
	/* perf ignores a descriptor that is not open; commands would never
	 * arrive, so say so now. */
	for (int k = 0; k < 2; k++)
		if (v[k] != UINT64_MAX && fcntl((int)v[k], F_GETFD) < 0) {
			cli_usage(cmd, "--control %s: file descriptor %d is not open (%s)", spec, (int)v[k],
				  strerror(errno));
			return -1;
		}
	c->fd = (int)v[0];
	c->ack = comma ? (int)v[1] : -1;
	return 0;
}

void cli_control_close(struct cli_control *c)
{
	if (c->fd > 2)
		close(c->fd);
	if (c->ack > 2)
		close(c->ack);
	c->fd = c->ack = -1;
}

/* The first complete line in the buffer, cut out, or NULL. */
static const char *take_line(struct cli_control *c)
{
	char *nl;

	memmove(c->buf, c->buf + c->taken, c->len - c->taken);
	c->len -= c->taken;
	c->taken = 0;
	while ((nl = memchr(c->buf + c->taken, '\n', c->len - c->taken))) {
		char *line = c->buf + c->taken;

		*nl = '\0';
		c->taken = (size_t)(nl + 1 - c->buf);
		if (line[0])
			return line;
	}
	return NULL;
}

const char *cli_control_next(struct cli_control *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	const char *line = take_line(c);
	ssize_t n;

	if (line || c->fd < 0)
		return line;
	if (poll(&p, 1, timeout_ms) <= 0 || !(p.revents & POLLIN))
		return NULL;
	n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	if (n <= 0)
		return NULL;
	c->len += (size_t)n;
	if ((line = take_line(c)))
		return line;
	if (c->len == sizeof(c->buf) - 1)
		c->len = c->taken = 0;	/* a line longer than any command: drop it */
	return NULL;
}

void cli_control_ack(const char *cmd, struct cli_control *c)
{
	/* perf acknowledges with "ack\n" and its terminating NUL. */
	if (c->ack >= 0 && write(c->ack, "ack\n", 5) < 0)
		fprintf(stderr, "perfkit %s: --control: cannot write the ack: %s\n", cmd, strerror(errno));
}
