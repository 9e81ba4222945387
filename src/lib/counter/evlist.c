/* SPDX-License-Identifier: MIT */
/*
 * evlist.c - counting events x CPUs x threads: open each group on every
 * CPU x thread (leader first, members with its fd), enable, disable and
 * reset whole groups, and read each event summed over its fds with
 * multiplexing scaling applied per fd.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"
#include "event/event.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

struct evsel {
	union pk__attr8 a;		/* as parsed, then as opened; config3 included */
	char *name;
	size_t leader;
	int supported;			/* 0, or the errno that kept it closed */
	char *fallback;			/* what had to change for it to open, or NULL */
	enum pk_tool_event tool;	/* a tool event: measured here, never opened */
	char *cgroup;			/* counted only in this cgroup, or NULL */
	int cgroup_fd;			/* its directory, open while the event is, or -1 */
	bool explicit_gh;		/* G/H given: dropping the guest/host bits is said */
};

struct pk_evlist {
	struct evsel *ev;
	size_t nr;
	pid_t *threads;
	size_t nr_threads;
	int *cpus;
	size_t nr_cpus;
	struct pk_target target;	/* its cgroup names are the events' own copies */
	int *fds;			/* nr x nr_cpus x nr_threads, -1 = closed */
	struct pk__tool_clock clock;	/* for the tool events (tool.c) */
};

static int *fd_at(const struct pk_evlist *l, size_t ev, size_t cpu_idx, size_t thr_idx)
{
	return &l->fds[(ev * l->nr_cpus + cpu_idx) * l->nr_threads + thr_idx];
}

static int copy_ids(const void *src, size_t nr, size_t size, const void *dfl, void **dst)
{
	*dst = pk__malloc((nr ? nr : 1) * size);
	if (!*dst)
		return pk__error_nomem("the event list's CPU or thread ids");
	memcpy(*dst, src ? src : dfl, (nr ? nr : 1) * size);
	return 0;
}

/* The cgroup event i counts in (pk_target.event_cgroups, else .cgroup),
 * or NULL; reads only the fields t->size covers. */
static const char *event_cgroup(const struct pk_target *t, size_t i)
{
	const char *cg = NULL;

	if (t->size >= offsetof(struct pk_target, nr_event_cgroups) + sizeof(size_t) &&
	    i < t->nr_event_cgroups && t->event_cgroups)
		cg = t->event_cgroups[i];
	if ((!cg || !*cg) && t->size >= offsetof(struct pk_target, cgroup) + sizeof(t->cgroup))
		cg = t->cgroup;
	return cg && *cg ? cg : NULL;
}

/* A cgroup is counted per CPU: any event with one needs CPUs and no threads. */
static bool cgroups_fit(const struct pk_target *t, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const char *cg = event_cgroup(t, i);

		if (cg && (!t->nr_cpus || t->nr_threads)) {
			pk__error(-EINVAL, "pk_evlist_new",
				  "cgroup '%s' is counted per CPU: give CPUs and no threads", cg);
			pk__error_hint("%s", "with perfkit stat, add -a or -C");
			return false;
		}
	}
	return true;
}

int pk_evlist_new(const struct pk_events *ev, const struct pk_target *t, struct pk_evlist **out)
{
	static const pid_t self = 0, any_task = -1;
	static const int any_cpu = -1;
	struct pk_evlist *l;
	size_t nr = pk_events_nr(ev), nfds;

	pk__error_clear();
	if (!nr || !t || t->size < sizeof(size_t))
		return pk__error(-EINVAL, "pk_evlist_new", "%s",
				 !nr ? "no events to count" : "no target given");
	if ((t->nr_threads && !t->threads) || (t->nr_cpus && !t->cpus))
		return pk__error(-EINVAL, "pk_evlist_new", "%s",
				 "the target gives a count of threads or CPUs but no array");
	if (!cgroups_fit(t, nr))
		return -EINVAL;
	l = pk__calloc(1, sizeof(*l));
	if (!l)
		return pk__error_nomem("the event list");
	memcpy(&l->target, t, t->size < sizeof(*t) ? t->size : sizeof(*t));
	l->target.cgroup = NULL;	/* the events hold their own copies */
	l->target.event_cgroups = NULL;
	l->target.nr_event_cgroups = 0;
	l->nr_threads = t->nr_threads ? t->nr_threads : 1;
	l->nr_cpus = t->nr_cpus ? t->nr_cpus : 1;
	nfds = nr * l->nr_threads * l->nr_cpus;
	l->ev = pk__calloc(nr, sizeof(*l->ev));
	l->fds = pk__malloc(nfds * sizeof(*l->fds));
	if (!l->ev || !l->fds ||
	    copy_ids(t->threads, t->nr_threads, sizeof(pid_t), t->nr_cpus ? &any_task : &self,
		     (void **)&l->threads) ||
	    copy_ids(t->cpus, t->nr_cpus, sizeof(int), &any_cpu, (void **)&l->cpus)) {
		pk_evlist_free(l);
		return pk__error_nomem("the event list's CPU and thread ids");
	}
	for (size_t i = 0; i < nfds; i++)
		l->fds[i] = -1;
	l->nr = nr;
	for (size_t i = 0; i < nr; i++)
		l->ev[i].cgroup_fd = -1;
	for (size_t i = 0; i < nr; i++) {
		const struct pk_event_desc *d = pk_events_desc(ev, i);
		const char *cg = event_cgroup(t, i);

		if (cg && !(l->ev[i].cgroup = pk__strdup(cg))) {
			pk_evlist_free(l);
			return pk__error_nomem("the event list's cgroup name");
		}

		pk__attr8_copy(&l->ev[i].a, pk_events_attr(ev, i));
		l->ev[i].leader = d->leader;
		l->ev[i].tool = d->tool;
		l->ev[i].explicit_gh = ev->ev[i].exclude_GH;
		l->clock.used |= d->tool != PK_TOOL_NONE;
		l->ev[i].name = pk__strdup(d->name ? d->name : "event");
		if (!l->ev[i].name) {
			pk_evlist_free(l);
			return pk__error_nomem("an event name in the event list");
		}
	}
	pk__events_freeze(ev);	/* pk_events_attr_mut now fails loudly */
	*out = l;
	return 0;
}

static void close_all(struct pk_evlist *l)
{
	/* Members before leaders: the kernel keeps a group alive until its last fd closes. */
	for (size_t i = l->nr; i-- > 0;)
		for (size_t c = 0; c < l->nr_cpus; c++)
			for (size_t t = 0; t < l->nr_threads; t++) {
				int *fd = fd_at(l, i, c, t);

				if (*fd >= 0)
					pk__sys_close(*fd);
				*fd = -1;
			}
}

void pk_evlist_free(struct pk_evlist *l)
{
	if (!l)
		return;
	if (l->fds)
		close_all(l);
	for (size_t i = 0; l->ev && i < l->nr; i++) {
		free(l->ev[i].name);
		free(l->ev[i].fallback);
		free(l->ev[i].cgroup);
		if (l->ev[i].cgroup_fd >= 0)
			close(l->ev[i].cgroup_fd);
	}
	free(l->ev);
	free(l->fds);
	free(l->threads);
	free(l->cpus);
	free(l);
}

static bool unsupported_here(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP;
}

/*
 * perf's fallbacks: change what the kernel refused, once, and say so.  The
 * change sticks to the event, so its other CPUs and threads open the same.
 */
static bool fall_back(struct evsel *e, int err)
{
	struct perf_event_attr *a = &e->a.attr;
	long paranoid = -1;
	char note[300];

	if ((err == -EACCES || err == -EPERM) && !a->exclude_kernel) {
		pk__read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		snprintf(note, sizeof(note), "counted in user space only (:u): the kernel refused "
			 "to count kernel space (kernel.perf_event_paranoid is %ld); set it to 1 or "
			 "grant CAP_PERFMON to count the kernel too", paranoid);
	} else if (err == -EINVAL && (a->exclude_guest || a->exclude_host)) {
		a->exclude_guest = 0;
		a->exclude_host = 0;
		if (!e->explicit_gh)	/* perf's default bit: dropped as quietly as perf does */
			return true;
		snprintf(note, sizeof(note), "counted without exclude_guest/exclude_host: its PMU "
			 "(type %u) does not support them", a->type);
	} else if (err == -EINVAL && (a->read_format & PERF_FORMAT_LOST)) {
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;	/* before Linux 6.0, as perf */
		return true;
	} else {
		return false;
	}
	/* Both changes may be needed, one after the other: keep every note. */
	if (e->fallback) {
		char *both;

		if (pk__asprintf(&both, "%s; and %s", e->fallback, note) < 0)
			return false;
		free(e->fallback);
		e->fallback = both;
	} else if (!(e->fallback = pk__strdup(note))) {
		return false;
	}
	return true;
}

/* What event i's fd returns: a group leader with group_read reads its group,
 * and so does an event whose attr asks for it (a recorder's leader sampling,
 * the S modifier: the kernel reads the whole group from any of its fds). */
static uint64_t read_format(const struct pk_evlist *l, size_t i)
{
	uint64_t own = l->ev[i].a.attr.read_format;

	return (l->target.attr_read_format ? own : READ_FORMAT | (own & PERF_FORMAT_GROUP)) |
	       (l->target.group_read && l->ev[i].leader == i ? PERF_FORMAT_GROUP : 0);
}

/* Whether event i reads its group into its samples (PERF_SAMPLE_READ
 * with PERF_FORMAT_GROUP). */
static bool reads_group(const struct pk_evlist *l, size_t i)
{
	return (l->ev[i].a.attr.sample_type & PERF_SAMPLE_READ) && (read_format(l, i) & PERF_FORMAT_GROUP);
}

/* Whether an event of group `lead` reads the group into its samples. */
static bool group_sample_read(const struct pk_evlist *l, size_t lead)
{
	for (size_t i = lead; i < l->nr && l->ev[i].leader == lead; i++)
		if (reads_group(l, i))
			return true;
	return false;
}

/* Open group `lead` (the leader and its members) on one CPU x thread,
 * disabled unless it is the last_immediate event.  A group read into
 * samples is opened without inherit, as perf does: a child's copies would
 * sample counts of a group the parent's samples never see.  The whole
 * group for a task, where perf 6.1 clears it only on the events that
 * read and the kernel then refuses the group; on a CPU (no task: inherit
 * means nothing there) as perf, on the reading events alone. */
static int open_group(struct pk_evlist *l, size_t lead, size_t c, size_t t)
{
	bool inherit = l->target.inherit && !group_sample_read(l, lead), cpu_wide = l->threads[t] < 0;

	for (size_t i = lead; i < l->nr && l->ev[i].leader == lead; i++) {
		struct evsel *e = &l->ev[i];
		bool immediate = l->target.last_immediate && lead == l->nr - 1;
		int group_fd = i == lead ? -1 : *fd_at(l, lead, c, t);
		union pk__attr8 d;	/* the attr with config3 behind it */
		int fd, tries = 0;

		do {
			d = e->a;
			d.attr.read_format = read_format(l, i);
			d.attr.disabled = i == lead && !immediate;	/* members follow their leader */
			d.attr.inherit = cpu_wide ? l->target.inherit && !reads_group(l, i) : inherit;
			d.attr.enable_on_exec = l->target.enable_on_exec && i == lead && !immediate;
			/* A cgroup is given as its directory fd in place of a pid. */
			fd = pk__sys_open(&d.attr, e->cgroup ? e->cgroup_fd : l->threads[t], l->cpus[c],
					  group_fd, PERF_FLAG_FD_CLOEXEC |
					  (e->cgroup ? PERF_FLAG_PID_CGROUP : 0), e->name);
		} while (fd < 0 && l->target.fallbacks && tries++ < 3 && fall_back(e, fd));
		if (fd < 0)
			return fd;
		*fd_at(l, i, c, t) = fd;
		e->a = d;	/* pk_evlist_attr: what was opened, as perf -vv shows it */
	}
	return 0;
}

static void close_group(struct pk_evlist *l, size_t lead, int err)
{
	for (size_t i = lead; i < l->nr && l->ev[i].leader == lead; i++) {
		l->ev[i].supported = err;
		/* A fallback that did not make it open is not news for the user. */
		free(l->ev[i].fallback);
		l->ev[i].fallback = NULL;
		for (size_t c = 0; c < l->nr_cpus; c++)
			for (size_t t = 0; t < l->nr_threads; t++) {
				int *fd = fd_at(l, i, c, t);

				if (*fd >= 0)
					pk__sys_close(*fd);
				*fd = -1;
			}
	}
}

/* The error record for cgroup `cg`'s directory `path` under `root` failing
 * to open with err: what is wrong named, and the errno. */
static int cgroup_error(const char *cg, const char *root, int err)
{
	const char *ename = strerrorname_np(-err);

	ename = ename ? ename : "?";
	if (err == -ENOENT || err == -ENOTDIR) {
		pk__error(err, "open cgroup", "no cgroup '%s' under %s: %s (%s)", cg, root,
			  err == -ENOENT ? "no such directory" : "a part of its path is not a directory", ename);
		pk__error_hint("the cgroups are the directories under %s", root);
	} else if (err == -EMFILE || err == -ENFILE) {
		pk__error(err, "open cgroup", "cannot open cgroup '%s': %s (%s)", cg,
			  err == -EMFILE ? "this process has as many open files as RLIMIT_NOFILE allows"
					 : "the system's open file table is full (fs.file-max)", ename);
		pk__error_hint("%s", "raise the limit with `ulimit -n`, or count fewer events or CPUs");
	} else if (err == -EACCES || err == -EPERM) {
		pk__error(err, "open cgroup", "cannot open cgroup '%s' under %s: %s (%s)", cg, root,
			  strerror(-err), ename);
		pk__error_hint("%s", "run as a user who may read the cgroup's directory");
	} else {
		pk__error(err, "open cgroup", "cannot open cgroup '%s' under %s: %s (%s)", cg, root,
			  strerror(-err), ename);
	}
	return err;
}

static int open_cgroup(struct evsel *e)
{
	char root[512], path[1024];
	int err = pk_cgroup_root(root, sizeof(root));

	if (err < 0)
		return err;
	if (snprintf(path, sizeof(path), "%s/%s", root, e->cgroup[0] == '/' ? e->cgroup + 1 : e->cgroup) >=
	    (int)sizeof(path))
		return pk__error(-ENAMETOOLONG, "open cgroup", "the path of cgroup '%.100s...' is too long",
				 e->cgroup);
	e->cgroup_fd = pk__sys_open_dir(path);
	if (e->cgroup_fd >= 0)
		return 0;
	err = e->cgroup_fd;
	e->cgroup_fd = -1;
	return cgroup_error(e->cgroup, root, err);
}

int pk_evlist_open(struct pk_evlist *l)
{
	pk__error_clear();
	for (size_t i = 0; i < l->nr; i++) {
		int err = 0;

		if (l->ev[i].cgroup && l->ev[i].cgroup_fd < 0 && (err = open_cgroup(&l->ev[i])) < 0)
			return err;
	}
	for (size_t lead = 0; lead < l->nr; lead++) {
		int err = 0;

		if (l->ev[lead].leader != lead || l->ev[lead].tool != PK_TOOL_NONE)
			continue;
		for (size_t c = 0; c < l->nr_cpus && !err; c++)
			for (size_t t = 0; t < l->nr_threads && !err; t++)
				err = open_group(l, lead, c, t);
		if (!err)
			continue;
		if (l->target.skip_unsupported && unsupported_here(err)) {
			close_group(l, lead, err);
			continue;
		}
		close_all(l);
		return err;
	}
	/* enable_on_exec needs no pk_evlist_enable: the tool events' clock
	 * starts now, a fork and an exec before the kernel's. */
	if (l->target.enable_on_exec)
		pk__tool_clock_start(&l->clock);
	return 0;
}

const struct perf_event_attr *pk_evlist_attr(const struct pk_evlist *l, size_t i)
{
	return i < l->nr ? &l->ev[i].a.attr : NULL;
}

const char *pk_evlist_fallback(const struct pk_evlist *l, size_t i)
{
	return i < l->nr ? l->ev[i].fallback : NULL;
}

int pk_evlist_supported(const struct pk_evlist *l, size_t i)
{
	return i < l->nr ? l->ev[i].supported : -ERANGE;
}

static int group_ioctl(struct pk_evlist *l, unsigned long request)
{
	pk__error_clear();
	for (size_t i = 0; i < l->nr; i++) {
		if (l->ev[i].leader != i || l->ev[i].supported)
			continue;
		for (size_t c = 0; c < l->nr_cpus; c++)
			for (size_t t = 0; t < l->nr_threads; t++) {
				int fd = *fd_at(l, i, c, t), err;

				if (fd < 0)
					continue;
				err = pk__sys_ioctl(fd, request, PERF_IOC_FLAG_GROUP);
				if (err < 0)
					return err;
			}
	}
	return 0;
}

int pk_evlist_enable(struct pk_evlist *l)
{
	pk__tool_clock_start(&l->clock);
	return group_ioctl(l, PERF_EVENT_IOC_ENABLE);
}

int pk_evlist_disable(struct pk_evlist *l)
{
	int err = group_ioctl(l, PERF_EVENT_IOC_DISABLE);

	pk__tool_clock_stop(&l->clock);
	return err;
}

int pk_evlist_reset(struct pk_evlist *l)
{
	pk__tool_clock_reset(&l->clock);
	return group_ioctl(l, PERF_EVENT_IOC_RESET);
}

static bool bad_index(const struct pk_evlist *l, size_t i, size_t c, size_t t, const char *what)
{
	if (i < l->nr && c < l->nr_cpus && t < l->nr_threads)
		return false;
	pk__error(-ERANGE, what, "no event %zu on cpu index %zu, thread index %zu: the evlist has "
		  "%zu x %zu x %zu", i, c, t, l->nr, l->nr_cpus, l->nr_threads);
	return true;
}

int pk_evlist_read_group(struct pk_evlist *l, size_t lead, size_t c, size_t t, struct pk_count *out,
			 size_t max)
{
	uint64_t buf[3 + 2 * 64];
	ssize_t n;
	int nr, fd;

	pk__error_clear();
	if (max && pk__count_check(out, "pk_evlist_read_group") < 0)
		return -EINVAL;
	if (bad_index(l, lead, c, t, "pk_evlist_read_group"))
		return -ERANGE;
	if (l->ev[lead].tool != PK_TOOL_NONE && max)	/* always alone in its group */
		return pk_evlist_read_one(l, lead, c, t, out) < 0 ? pk_last_error()->code : 1;
	if (!l->target.group_read || l->ev[lead].leader != lead)
		return pk__error(-EINVAL, l->ev[lead].name, "%s", !l->target.group_read ?
				 "group reads need pk_target.group_read" : "the event does not lead a group");
	fd = *fd_at(l, lead, c, t);
	if (l->ev[lead].supported || fd < 0)
		return pk__error(-ENODATA, l->ev[lead].name, "%s", "the group is not open");
	n = pk__sys_read(fd, buf, sizeof(buf));
	if (n <= 0)
		return n == 0 ? pk__error(-EIO, l->ev[lead].name, "%s", "the group is in error state") : (int)n;
	nr = pk_count_parse(read_format(l, lead), buf, (size_t)n, out, max);
	for (int k = 0; k < nr && (size_t)k < max; k++) {
		struct pk_count *o = pk__count_at(out, (size_t)k);

		if (!l->target.no_scale)
			o->value = pk_count_scaled(o);
	}
	return nr;
}

int pk_evlist_id(struct pk_evlist *l, size_t i, size_t c, size_t t, uint64_t *id)
{
	pk__error_clear();
	if (bad_index(l, i, c, t, "pk_evlist_id"))
		return -ERANGE;
	if (*fd_at(l, i, c, t) < 0)
		return pk__error(-ENODATA, l->ev[i].name, "%s", "the event is not open");
	return pk__sys_ioctl(*fd_at(l, i, c, t), PERF_EVENT_IOC_ID, (unsigned long)id) < 0 ?
	       pk_last_error()->code : 0;
}

/* One ioctl on every fd of event i. */
static int event_ioctl(struct pk_evlist *l, size_t i, unsigned long req, unsigned long arg)
{
	pk__error_clear();
	if (i >= l->nr)
		return pk__error(-ERANGE, "pk_evlist ioctl", "no event %zu: the evlist has %zu", i, l->nr);
	for (size_t c = 0; c < l->nr_cpus; c++)
		for (size_t t = 0; t < l->nr_threads; t++) {
			int fd = *fd_at(l, i, c, t), err;

			if (fd < 0)
				return pk__error(-ENODATA, l->ev[i].name, "%s", "the event is not open");
			err = pk__sys_ioctl(fd, req, arg);
			if (err < 0)
				return err;
		}
	return 0;
}

int pk_evlist_period(struct pk_evlist *l, size_t i, uint64_t period)
{
	return event_ioctl(l, i, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

int pk_evlist_refresh(struct pk_evlist *l, size_t i, int n)
{
	return event_ioctl(l, i, PERF_EVENT_IOC_REFRESH, (unsigned long)n);
}

int pk_evlist_filter(struct pk_evlist *l, size_t i, const char *filter)
{
	if (!filter)
		return pk__error(-EINVAL, "pk_evlist_filter", "%s", "the filter is NULL");
	int err = event_ioctl(l, i, PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter);

	/* The kernel keeps the first filter a perf event is given (Linux 6.1's
	 * ftrace_profile_set_filter): say so rather than "File exists". */
	if (err == -EEXIST) {
		pk__error(-EEXIST, l->ev[i].name, "%s", "the event already has a filter, and the "
			  "kernel does not replace a perf event's filter");
		pk__error_hint("%s", "give the filter once; for another one, open the event again");
	}
	return err;
}

int pk_task_counters_enable(bool enable)
{
	pk__error_clear();
	return pk__sys_prctl(enable ? PR_TASK_PERF_EVENTS_ENABLE : PR_TASK_PERF_EVENTS_DISABLE);
}

size_t pk_evlist_nr_cpus(const struct pk_evlist *l)
{
	return l->nr_cpus;
}

int pk_evlist_cpu(const struct pk_evlist *l, size_t cpu_idx)
{
	pk__error_clear();
	if (cpu_idx >= l->nr_cpus)
		return pk__error(-ERANGE, "pk_evlist_cpu", "no cpu index %zu: the evlist has %zu",
				 cpu_idx, l->nr_cpus);
	return l->cpus[cpu_idx];
}

size_t pk_evlist_nr_threads(const struct pk_evlist *l)
{
	return l->nr_threads;
}

pid_t pk_evlist_thread(const struct pk_evlist *l, size_t thread_idx)
{
	pk__error_clear();
	if (thread_idx >= l->nr_threads)
		return pk__error(-ERANGE, "pk_evlist_thread", "no thread index %zu: the evlist has %zu",
				 thread_idx, l->nr_threads);
	return l->threads[thread_idx];
}

/* Event i's count from what its fd returned: a member that reads its
 * group (leader sampling) finds its own entry, which is its place in the
 * group, after the leader's. */
static int read_one_count(const struct pk_evlist *l, size_t i, const uint64_t *buf, size_t len,
			  struct pk_count *out)
{
	struct pk_count all[64] = { { .size = sizeof(all[0]) } };
	uint64_t rf = read_format(l, i);
	size_t k = rf & PERF_FORMAT_GROUP ? i - l->ev[i].leader : 0;

	if (!k)
		return pk_count_parse(rf, buf, len, out, 1) < 1 ? -EIO : 0;
	if (k >= 64 || pk_count_parse(rf, buf, len, all, k + 1) <= (int)k)
		return pk__error(-EIO, l->ev[i].name, "the group read has no count for member %zu", k);
	pk__count_put(out, &all[k]);
	return 0;
}

int pk_evlist_read_one(struct pk_evlist *l, size_t i, size_t c, size_t t, struct pk_count *out)
{
	uint64_t buf[3 + 2 * 64];	/* a group read of up to 64 members */
	ssize_t n;
	int fd;

	pk__error_clear();
	if (pk__count_check(out, "pk_evlist_read_one") < 0)
		return -EINVAL;
	if (i >= l->nr || c >= l->nr_cpus || t >= l->nr_threads)
		return pk__error(-ERANGE, "pk_evlist_read_one",
				 "no event %zu on cpu index %zu, thread index %zu: the evlist has "
				 "%zu x %zu x %zu", i, c, t, l->nr, l->nr_cpus, l->nr_threads);
	if (l->ev[i].supported)
		return pk__error(-ENODATA, l->ev[i].name, "%s",
				 "the event is not counting: it could not be opened here");
	if (l->ev[i].tool != PK_TOOL_NONE) {
		/* Like perf, a tool event has one figure, on the first CPU x thread;
		 * enabled and running equal it, so 0 reads as not counted. */
		uint64_t v = c || t ? 0 : pk__tool_clock_value(&l->clock, l->ev[i].tool);

		pk__count_put(out, &(struct pk_count){ sizeof(*out), v, v, v, 0, 0 });
		return 0;
	}
	fd = *fd_at(l, i, c, t);
	if (fd < 0)
		return pk__error(-ENODATA, l->ev[i].name, "%s",
				 "the event is not open: call pk_evlist_open first");
	n = pk__sys_read(fd, buf, sizeof(buf));
	if (n == 0) {
		char what[300];

		snprintf(what, sizeof(what), "read(%s, cpu=%d)", l->ev[i].name, l->cpus[c]);
		pk__error(-EIO, what, "%s", "the counter is in error state: it was pinned "
			  "and could not be kept on the PMU, so it stopped counting");
		pk__error_hint("%s", "count fewer pinned events at once, or drop the D modifier");
		return -EIO;
	}
	if (n < 0)
		return (int)n;
	if (read_one_count(l, i, buf, (size_t)n, out) < 0)
		return pk_last_error()->code;
	if (!l->target.no_scale)	/* perf stat --no-scale: as counted */
		out->value = pk_count_scaled(out);
	return 0;
}

int pk_evlist_read(struct pk_evlist *l, size_t i, struct pk_count *sum)
{
	struct pk_count total = { .size = sizeof(total) };

	pk__error_clear();
	if (pk__count_check(sum, "pk_evlist_read") < 0)
		return -EINVAL;
	if (i >= l->nr)
		return pk__error(-ERANGE, "pk_evlist_read", "no event %zu: the evlist has %zu", i, l->nr);
	for (size_t c = 0; c < l->nr_cpus; c++)
		for (size_t t = 0; t < l->nr_threads; t++) {
			struct pk_count one = { .size = sizeof(one) };
			int err = pk_evlist_read_one(l, i, c, t, &one);

			if (err < 0)
				return err;
			total.value += one.value;
			total.enabled += one.enabled;
			total.running += one.running;
			total.id = one.id;
		}
	pk__count_put(sum, &total);
	return 0;
}

int pk_evlist_fd(const struct pk_evlist *l, size_t i, size_t c, size_t t)
{
	pk__error_clear();
	if (bad_index(l, i, c, t, "pk_evlist_fd"))
		return -ERANGE;
	if (*fd_at(l, i, c, t) < 0)
		return pk__error(-ENODATA, l->ev[i].name, "%s", l->ev[i].supported ?
				 "the event could not be opened here" : "the event is not open: call pk_evlist_open first");
	return *fd_at(l, i, c, t);
}

uint64_t pk__evlist_read_format(const struct pk_evlist *l, size_t i)
{
	return read_format(l, i);
}

int pk__evlist_fd(const struct pk_evlist *l, size_t i, size_t c, size_t t)
{
	if (i >= l->nr || c >= l->nr_cpus || t >= l->nr_threads)
		return -1;
	return *fd_at(l, i, c, t);
}

size_t pk__evlist_nr_events(const struct pk_evlist *l)
{
	return l->nr;
}
