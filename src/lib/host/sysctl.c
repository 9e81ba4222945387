/* SPDX-License-Identifier: MIT */
/*
 * sysctl.c - kernel settings that decide how perf's tools open events:
 * whether the NMI watchdog holds a hardware counter (kernel.nmi_watchdog),
 * which perf 6.1 consults before it groups the slots events of --topdown
 * or the events of a metric with the NO_NMI_WATCHDOG constraint.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdbool.h>

int pk_nmi_watchdog(bool *on)
{
	long v;
	int err;

	pk__error_clear();
	if (!on)
		return pk__error(-EINVAL, "pk_nmi_watchdog", "no place for the answer: pass a bool");
	err = pk__read_long("/proc/sys/kernel/nmi_watchdog", &v);
	if (err < 0)
		return pk__error(err, "the NMI watchdog setting",
				 "/proc/sys/kernel/nmi_watchdog cannot be read (a kernel without "
				 "the hard lockup detector has none)");
	*on = v > 0;	/* 1: on; 0: off (perf's reading, value > 0) */
	return 0;
}
