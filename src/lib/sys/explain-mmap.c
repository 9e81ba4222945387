/* SPDX-License-Identifier: MIT */
/*
 * explain-mmap.c - the ring buffer's failures for people: why mmap of an
 * event fd failed (locked-memory limits, a length that is not 1 + 2^n
 * pages, a second mapping), and the check made before mapping that a set
 * of rings fits in what this user may lock, counted the way the kernel
 * counts it.  Pure functions of the probed facts, like explain.c.
 */
#include "explain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define WHY(...) snprintf(why, sizeof(why), __VA_ARGS__)
#define HINT(...) snprintf(hint, sizeof(hint), __VA_ARGS__)

int pk__sys_explain_mmap_facts(int err, const struct pk__sys_facts *f, int fd, size_t len)
{
	char what[96], why[700] = "", hint[700] = "";
	size_t kb = len >> 10, pages = f->page_size > 0 ? len / (size_t)f->page_size : 0;

	snprintf(what, sizeof(what), "mmap(fd %d, %zu KiB)", fd, kb);
	if ((err == -EPERM || err == -ENOMEM) && f->mlock_kb != PK__FACT_UNKNOWN &&
	    !(f->caps_known && f->cap_ipc_lock)) {
		long total = f->mlock_kb * (f->online_cpus > 0 ? f->online_cpus : 1);
		long want = (long)kb > 2 * f->mlock_kb ? (long)kb : 2 * f->mlock_kb;
		char lim[32];

		if (f->memlock_soft_kb < 0)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%ld KiB", f->memlock_soft_kb);
		WHY("the ring buffer (%zu KiB) does not fit in the memory this user may lock: "
		    "kernel.perf_event_mlock_kb is %ld KiB per CPU (%ld KiB for %ld online CPUs, shared by "
		    "all of the user's ring buffers) plus RLIMIT_MEMLOCK (%s), and the process lacks "
		    "CAP_IPC_LOCK", kb, f->mlock_kb, total, f->online_cpus, lim);
		HINT("map fewer pages (-m), run `sysctl -w kernel.perf_event_mlock_kb=%ld`, or raise "
		     "`ulimit -l`", want);
	} else if (err == -EINVAL && (len % (size_t)f->page_size || (pages > 1 &&
					((pages - 1) & (pages - 2))))) {
		WHY("the length %zu is not 1 + 2^n pages of %ld bytes", len, f->page_size);
		HINT("map 1 + 2^n pages, e.g. %ld bytes for 8 data pages", 9 * f->page_size);
	} else if (err == -EINVAL) {
		WHY("the event is already mapped with another size, or cannot be mapped (an "
		    "inherited per-task event with a ring buffer on a CPU-wide event)");
		HINT("map each event once, or redirect it with PERF_EVENT_IOC_SET_OUTPUT");
	} else if (err == -ENODEV || err == -EBADF || err == -EACCES) {
		WHY("fd %d is not an open perf event fd (or not opened for reading)", fd);
		HINT("map the fd perf_event_open returned");
	} else {
		WHY("%s", strerror(-err));
	}
	pk__error(err, what, "%s (%s)", why, strerrorname_np(-err) ? strerrorname_np(-err) : "?");
	if (hint[0])
		pk__error_hint("%s", hint);
	return err;
}

int pk__sys_lock_check_facts(const struct pk__sys_facts *f, size_t nr_maps, size_t map_len)
{
	long cpus = f->online_cpus > 0 ? f->online_cpus : 1, page = f->page_size > 0 ? f->page_size : 4096;
	unsigned long long need_kb = (unsigned long long)nr_maps * (map_len >> 10), allow_kb;
	size_t fit = 0;
	char lim[32];

	/* The kernel only counts locked pages against a paranoid, uncapable user. */
	if (f->paranoid == PK__FACT_UNKNOWN || f->paranoid <= -1 || f->mlock_kb == PK__FACT_UNKNOWN ||
	    f->mlock_kb < 0 || !f->caps_known || f->cap_ipc_lock || f->memlock_soft_kb == PK__FACT_UNKNOWN ||
	    f->memlock_soft_kb < 0 || !nr_maps)
		return 0;
	allow_kb = (unsigned long long)f->mlock_kb * (unsigned long long)cpus +
		   (unsigned long long)f->memlock_soft_kb;
	if (need_kb <= allow_kb)
		return 0;
	/* The largest power of two data pages that would fit. */
	for (size_t p = 1; p <= (1u << 20) && (unsigned long long)nr_maps * (p + 1) * (unsigned long long)page / 1024 <= allow_kb; p <<= 1)
		fit = p;
	snprintf(lim, sizeof(lim), "%ld KiB", f->memlock_soft_kb);
	pk__error(-EPERM, "map ring buffers", "%zu ring buffers of %zu KiB need %llu KiB of locked memory; "
		  "this user may lock %llu KiB: kernel.perf_event_mlock_kb (%ld KiB) x %ld online CPUs, "
		  "plus RLIMIT_MEMLOCK (%s), and the process lacks CAP_IPC_LOCK",
		  nr_maps, map_len >> 10, need_kb, allow_kb, f->mlock_kb, cpus, lim);
	if (fit)
		pk__error_hint("use smaller rings: %zu data pages each (-m %zu) fit; or raise the limit: "
			       "sysctl -w kernel.perf_event_mlock_kb=%llu", fit, fit,
			       (need_kb + (unsigned long long)cpus - 1) / (unsigned long long)cpus);
	else
		pk__error_hint("even 1-page rings do not fit: sysctl -w kernel.perf_event_mlock_kb=%llu, "
			       "or `ulimit -l` higher", (need_kb + (unsigned long long)cpus - 1) / (unsigned long long)cpus);
	return -EPERM;
}
