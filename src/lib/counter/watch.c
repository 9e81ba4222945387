/* SPDX-License-Identifier: MIT */
/*
 * watch.c - watchpoints of the calling thread: a PERF_TYPE_BREAKPOINT
 * event with a period of one that raises a synchronous SIGTRAP (sigtrap,
 * remove_on_exec, sig_data), opened and moved (PERF_EVENT_IOC_MODIFY_
 * ATTRIBUTES) through the sys seam.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

struct pk_watch {
	struct perf_event_attr attr;	/* as opened, or as last moved */
	int fd;
};

static int check_kind(enum pk_watch_kind kind)
{
	if (kind != PK_WATCH_WRITE && kind != PK_WATCH_RW && kind != PK_WATCH_EXEC)
		return pk__error(-EINVAL, "pk_watch_new", "unknown watchpoint kind %d", (int)kind);
	return 0;
}

int pk_watch_new(const void *addr, size_t len, enum pk_watch_kind kind, uint64_t data,
		 struct pk_watch **out)
{
	struct pk_watch *w;
	int fd, err;

	pk__error_clear();
	if (!out)
		return pk__error(-EINVAL, "pk_watch_new", "%s", "out is NULL");
	if ((err = check_kind(kind)) < 0)
		return err;
	if (!(w = pk__calloc(1, sizeof(*w))))
		return pk__error_nomem("a watchpoint");
	w->attr = (struct perf_event_attr){
		.size = sizeof(w->attr), .type = PERF_TYPE_BREAKPOINT,
		.bp_type = (uint32_t)kind, .bp_addr = (uint64_t)(uintptr_t)addr, .bp_len = len,
		/* Every access overflows, and the user's accesses only. */
		.sample_period = 1, .exclude_kernel = 1, .exclude_hv = 1,
		.sigtrap = 1, .remove_on_exec = 1, .sig_data = data,
	};
	/* This thread (pid 0) on whichever CPU it runs (-1). */
	if ((fd = pk__sys_open(&w->attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, "watchpoint")) < 0) {
		free(w);
		return fd;
	}
	w->fd = fd;
	*out = w;
	return 0;
}

int pk_watch_move(struct pk_watch *w, const void *addr, size_t len)
{
	struct perf_event_attr a;
	int err;

	pk__error_clear();
	if (!w)
		return pk__error(-EINVAL, "pk_watch_move", "%s", "no watchpoint");
	/* The kernel takes a whole attr, checks it as perf_event_open would,
	 * and for a breakpoint applies only the address, length, type and
	 * disabled bit, re-arming the debug register in place. */
	a = w->attr;
	a.bp_addr = (uint64_t)(uintptr_t)addr;
	a.bp_len = len;
	if ((err = pk__sys_ioctl(w->fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (unsigned long)&a)) < 0)
		return err;
	w->attr = a;
	return 0;
}

const void *pk_watch_addr(const struct pk_watch *w)
{
	return w ? (const void *)(uintptr_t)w->attr.bp_addr : NULL;
}

int pk_watch_fd(const struct pk_watch *w)
{
	return w ? w->fd : -1;
}

void pk_watch_free(struct pk_watch *w)
{
	if (!w)
		return;
	pk__sys_close(w->fd);
	free(w);
}
