/* SPDX-License-Identifier: MIT */
/*
 * perf-open-shim.c - an LD_PRELOAD shim for generating golden vectors with
 * `perf stat -vv` on a machine that lacks the PMUs the strings name.  perf
 * prints each perf_event_attr before it calls perf_event_open(2), but stops
 * at the first event the kernel refuses, so on a VM without a `cpu` PMU it
 * would never print the second event of "{cycles,instructions}".  The shim
 * lets the real syscall run and, only when it fails, opens a software dummy
 * event in the failed event's place (same group_fd, same read_format), so
 * perf carries on and prints every attr exactly as its parser built it.
 * It changes nothing perf encodes; it only hides the refusal, which also
 * means perf never retries with features switched off.  Used by
 * gen-vectors.sh only, never linked into perfkit.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

long syscall(long nr, ...);

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	va_list ap;
	long a[6];
	long ret;
	int i;

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ret = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret >= 0 || nr != SYS_perf_event_open)
		return ret;
	{
		const struct perf_event_attr *orig = (const struct perf_event_attr *)a[0];
		struct perf_event_attr d;
		int saved = errno;

		memset(&d, 0, sizeof(d));
		d.size = sizeof(d);
		d.type = PERF_TYPE_SOFTWARE;
		d.config = PERF_COUNT_SW_DUMMY;
		d.read_format = orig->read_format;
		d.sample_type = orig->sample_type;
		d.disabled = orig->disabled;
		d.inherit = orig->inherit;
		d.enable_on_exec = orig->enable_on_exec;
		ret = real(nr, &d, a[1], a[2], a[3], a[4]);
		if (ret < 0)
			errno = saved;
	}
	return ret;
}
