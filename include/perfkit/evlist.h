/* SPDX-License-Identifier: MIT */
/*
 * perfkit/evlist.h - counting: an evlist is the events of a parsed list
 * opened on every CPU x thread of a target (struct pk_target), enabled,
 * disabled and read together, with perf's fallbacks when the kernel refuses
 * an event.  Included by perfkit.h.
 */
#ifndef PERFKIT_EVLIST_H
#define PERFKIT_EVLIST_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfkit/error.h"
#include "perfkit/event.h"
#include "perfkit/count.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What to count.  Zero-initialise and set size = sizeof.  threads and cpus
 * are the perf_event_open pid and cpu arguments: NULL threads means the
 * calling thread (pid 0) unless cpus are given, then every task on them
 * (pid -1); NULL cpus means any CPU (cpu -1).  The arrays are copied.
 */
struct pk_target {
	size_t size;
	const pid_t *threads;
	size_t nr_threads;
	const int *cpus;
	size_t nr_cpus;
	bool inherit;		/* also count children created after opening */
	bool enable_on_exec;	/* start counting at the target's next exec */
	bool skip_unsupported;	/* open the rest when an event cannot count here */
	bool fallbacks;		/* adjust and retry like perf (see pk_evlist_fallback) */
	bool group_read;	/* leaders read their whole group at once (PERF_FORMAT_GROUP) */
	/*
	 * Count only tasks in this cgroup (PERF_FLAG_PID_CGROUP), a path in the
	 * perf_event hierarchy ("/" for the root, "system.slice/ssh.service"):
	 * the cgroup v1 perf_event mount or else the cgroup2 mount.  Counted
	 * per CPU, so cpus must be given and threads must not.
	 */
	const char *cgroup;
	/*
	 * One cgroup per event, as perf pairs -G's list with -e's events:
	 * event i (i < nr_event_cgroups) counts only tasks in event_cgroups[i];
	 * a NULL or empty entry, and every event past the array, takes cgroup
	 * above (or none).  Same rules as cgroup: cpus given, no threads.
	 * The names are copied.
	 */
	const char *const *event_cgroups;
	size_t nr_event_cgroups;
	/*
	 * Open each event with its attr's own read_format (a recorder's, as
	 * perf record sets it) instead of the counting one the evlist reads,
	 * TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID; with fallbacks, a kernel
	 * before 6.0 that refuses PERF_FORMAT_LOST gets the event without it.
	 */
	bool attr_read_format;
	/*
	 * The last event opens enabled and stays so (not on exec, not waiting
	 * for pk_evlist_enable), as perf record opens the side-band dummy of a
	 * CPU target: it takes the mmaps and tasks from its open on.
	 */
	bool last_immediate;
	/*
	 * Reads give the counts as the kernel keeps them, not scaled for
	 * multiplexing (perf stat --no-scale): value is what the counter
	 * counted while it ran; enabled and running still say for how long.
	 */
	bool no_scale;
};

struct pk_evlist;

/*
 * pk_evlist_new - prepare to count the events of `ev` on target `t`.
 * Copies what it needs of both (ev may be freed afterwards), so from then on
 * pk_events_attr_mut(ev, ...) refuses with -EBUSY.  Opens nothing yet.  Returns 0 with the evlist in *out, -EINVAL for an empty or
 * inconsistent target (the error says which), or -ENOMEM.
 * Tool events (PK_SRC_TOOL) are never opened: the evlist measures them, in
 * ns, from pk_evlist_enable (or pk_evlist_open with enable_on_exec) to
 * pk_evlist_disable; user and system time are those of the children the
 * process reaps meanwhile (getrusage RUSAGE_CHILDREN, process-wide).  A
 * read gives their figure on cpu_idx 0, thread_idx 0 (zeros elsewhere),
 * with enabled and running equal to the value.
 */
PK_API int pk_evlist_new(const struct pk_events *ev, const struct pk_target *t,
			 struct pk_evlist **out);

/* pk_evlist_free - close every fd and free the evlist.  NULL is a no-op. */
PK_API void pk_evlist_free(struct pk_evlist *l);

/*
 * pk_evlist_open - open every event on every CPU x thread, disabled (but
 * see last_immediate), group members with their leader's fd, all
 * close-on-exec.  With
 * skip_unsupported, a group that the machine cannot count (the kernel
 * says ENOENT, ENODEV or EOPNOTSUPP) is left closed and
 * reported by pk_evlist_supported while the rest open.  Returns 0, or the
 * first negative errno with pk_last_error explaining it; on failure nothing
 * stays open.
 */
PK_API int pk_evlist_open(struct pk_evlist *l);

/*
 * pk_evlist_fallback - with pk_target.fallbacks, what pk_evlist_open had to
 * change for event i to open, as a sentence for the user that does not name
 * the event (so identical notes can be shown once), or NULL when it opened
 * as asked.  pk_evlist_attr gives the attr it opened with.  The changes perf makes too: counting user space only
 * (exclude_kernel and exclude_hv) when the kernel refuses kernel counting
 * (EACCES/EPERM), and dropping exclude_guest/exclude_host for a PMU that
 * rejects them (EINVAL).  The string lives as long as the evlist.
 */
PK_API const char *pk_evlist_fallback(const struct pk_evlist *l, size_t i);

/* pk_evlist_attr - the attr event i is (or will be) opened with, after any
 * fallback; NULL when i is out of range. */
PK_API const struct perf_event_attr *pk_evlist_attr(const struct pk_evlist *l, size_t i);

/* pk_evlist_supported - 0 when event i opened, else the negative errno that
 * kept it closed; -ERANGE when i is out of range. */
PK_API int pk_evlist_supported(const struct pk_evlist *l, size_t i);

/* pk_evlist_enable / disable / reset - start, stop or zero every open group
 * (ioctl with PERF_IOC_FLAG_GROUP on each leader).  0 or a negative errno. */
PK_API int pk_evlist_enable(struct pk_evlist *l);
PK_API int pk_evlist_disable(struct pk_evlist *l);
PK_API int pk_evlist_reset(struct pk_evlist *l);

/*
 * pk_evlist_read - event i summed over every CPU x thread: each fd's count
 * is scaled for multiplexing first (pk_count_scaled), then value, enabled
 * and running are added up, so the sum's value is already scaled.  Returns
 * 0; -ENODATA when the event is not open (unsupported), -EIO when a pinned
 * counter fell into error state (the error names the event), -ERANGE when i
 * is out of range, or the read's negative errno.
 */
PK_API int pk_evlist_read(struct pk_evlist *l, size_t i, struct pk_count *sum);

/* What pk_evlist_cpu and pk_evlist_thread return for "any CPU" and "every
 * task on the CPU": the -1 perf_event_open takes.  -1 is never an errno the
 * two return (out of range is -ERANGE), so the cases stay apart. */
#define PK_CPU_ANY (-1)
#define PK_THREAD_ANY (-1)

/*
 * pk_evlist_nr_cpus / pk_evlist_cpu - the CPUs counted on: cpu index ->
 * CPU number (>= 0), or PK_CPU_ANY when the events count on any CPU.
 * pk_evlist_cpu returns -ERANGE (and sets the error) when cpu_idx is out of
 * range.
 */
PK_API size_t pk_evlist_nr_cpus(const struct pk_evlist *l);
PK_API int pk_evlist_cpu(const struct pk_evlist *l, size_t cpu_idx);

/*
 * pk_evlist_nr_threads / pk_evlist_thread - the threads counted: thread
 * index -> tid (>= 0; 0 is the calling thread), or PK_THREAD_ANY when the
 * events count every task on their CPUs.  pk_evlist_thread returns -ERANGE
 * (and sets the error) when thread_idx is out of range.
 */
PK_API size_t pk_evlist_nr_threads(const struct pk_evlist *l);
PK_API pid_t pk_evlist_thread(const struct pk_evlist *l, size_t thread_idx);

/*
 * pk_evlist_read_one - event i on one CPU x thread, scaled for multiplexing
 * (value is pk_count_scaled; enabled and running as read).  Same returns as
 * pk_evlist_read, and -ERANGE for an index out of range.
 */
PK_API int pk_evlist_read_one(struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx,
			      struct pk_count *c);

/*
 * pk_evlist_read_group - with pk_target.group_read, the counts of the group
 * that event `lead` leads, on one CPU x thread, in one read(2): the kernel
 * reads them together, so they cover exactly the same time.  Fills at most
 * `max` counts (each scaled), in group order, and returns how many the group
 * has; -EINVAL when `lead` is not a group leader or group_read is off, plus
 * pk_evlist_read_one's errors.
 */
PK_API int pk_evlist_read_group(struct pk_evlist *l, size_t lead, size_t cpu_idx, size_t thread_idx,
				struct pk_count *out, size_t max);

/*
 * pk_evlist_id - the kernel's id of event i on one CPU x thread
 * (PERF_EVENT_IOC_ID), which samples and group reads carry.  0 or -errno.
 */
PK_API int pk_evlist_id(struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx,
			uint64_t *id);

/*
 * pk_evlist_period - set the sampling period of event i on every CPU x
 * thread (PERF_EVENT_IOC_PERIOD).  The event must be a sampling one
 * (period= or freq=); otherwise the kernel says EINVAL and so does this.
 */
PK_API int pk_evlist_period(struct pk_evlist *l, size_t i, uint64_t period);

/*
 * pk_evlist_refresh - let event i overflow `n` more times before it disables
 * itself (PERF_EVENT_IOC_REFRESH), on every CPU x thread.  The kernel
 * refuses it for inherited events (EINVAL).
 */
PK_API int pk_evlist_refresh(struct pk_evlist *l, size_t i, int n);

/*
 * pk_evlist_filter - set the tracepoint filter of event i on every CPU x
 * thread (PERF_EVENT_IOC_SET_FILTER), in ftrace's filter syntax over the
 * tracepoint's fields ("count == 7 && fd > 2").  The event must be open and
 * a tracepoint, and the kernel takes one filter per event: a second one is
 * refused with -EEXIST (open the event again to change it).  0, -EINVAL
 * when the filter does not parse for this tracepoint or the event is not
 * one (the error says so), -ENODATA when not open, -ERANGE for i.
 */
PK_API int pk_evlist_filter(struct pk_evlist *l, size_t i, const char *filter);

/*
 * pk_evlist_fd - the file descriptor of event i on one CPU x thread, for
 * callers who poll, epoll, fcntl or ioctl it themselves (overflow signals,
 * tracepoint filters, an event loop of their own).  The evlist keeps owning
 * it: do not close it or dup2 over it, and stop using it before
 * pk_evlist_free closes it (its number may then name another file).  Flags
 * and owners the caller sets with fcntl stay until then.  Returns the fd
 * (>= 0); -ENODATA when the event is not open (before pk_evlist_open, or
 * unsupported); -ERANGE for an index out of range.
 */
PK_API int pk_evlist_fd(const struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx);

/*
 * pk_task_counters_enable - enable (true) or disable every counter attached
 * to the calling process, whoever opened it: prctl(PR_TASK_PERF_EVENTS_*).
 * 0 or a negative errno.
 */
PK_API int pk_task_counters_enable(bool enable);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_EVLIST_H */
