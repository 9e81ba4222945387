/* SPDX-License-Identifier: MIT */
/*
 * tool.c - the clock behind perf's tool events in an evlist: wall-clock
 * time while the evlist is enabled (duration_time), and the user and system
 * CPU time of the children the process reaped meanwhile (user_time,
 * system_time), which is how perf 6.1 measures the command it ran: from
 * wait4's rusage.  All three are in nanoseconds.
 */
#include "counter.h"
#include "sys/sys.h"

#include <sys/resource.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	pk__sys_clock_gettime(CLOCK_MONOTONIC, &ts);	/* cannot fail; 0 if a fake says so */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* RUSAGE_CHILDREN counts only children already reaped: a command counts
 * once waited for, as in perf, where user_time is 0 until it exits. */
static void children_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		*user = *sys = 0;
		return;
	}
	*user = ((uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec) * 1000u;
	*sys = ((uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

void pk__tool_clock_start(struct pk__tool_clock *c)
{
	/* Without tool events, an enable costs its ioctl and nothing else: no
	 * clock_gettime, no getrusage (a syscall) on every region start. */
	if (c->running || !c->used)
		return;
	c->running = true;
	c->start[0] = now_ns();
	children_ns(&c->start[1], &c->start[2]);
}

/* The three figures now: what accumulated plus the running stretch. */
static void current(const struct pk__tool_clock *c, uint64_t v[3])
{
	uint64_t now[3];

	for (int k = 0; k < 3; k++)
		v[k] = c->acc[k];
	if (!c->running)
		return;
	now[0] = now_ns();
	children_ns(&now[1], &now[2]);
	for (int k = 0; k < 3; k++)
		v[k] += now[k] >= c->start[k] ? now[k] - c->start[k] : 0;
}

void pk__tool_clock_stop(struct pk__tool_clock *c)
{
	if (!c->running)
		return;
	current(c, c->acc);
	c->running = false;
}

void pk__tool_clock_reset(struct pk__tool_clock *c)
{
	bool running = c->running;

	*c = (struct pk__tool_clock){ .used = c->used };
	if (running)
		pk__tool_clock_start(c);
}

uint64_t pk__tool_clock_value(const struct pk__tool_clock *c, enum pk_tool_event t)
{
	uint64_t v[3];

	if (t < PK_TOOL_DURATION_TIME || t > PK_TOOL_SYSTEM_TIME)
		return 0;
	current(c, v);
	return v[t - PK_TOOL_DURATION_TIME];
}
