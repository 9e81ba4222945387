/* SPDX-License-Identifier: MIT */
/*
 * test_evlist.c - the evlist against a fake kernel (the sys layer's seam):
 * which perf_event_open calls it makes for groups x CPUs, which ioctls,
 * multiplexing scaling summed over CPUs, skipping events the machine cannot
 * count, closing everything on failure, and pinned counters in error state.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"

#define FD0 1000

static struct {
	int nr_open, nr_close, nr_ioctl;
	struct { uint32_t type; int pid, cpu, group_fd, disabled; uint64_t read_format;
		 unsigned long flags; } open[32];
	int ioctl_fd[32];
	unsigned long ioctl_req[32], ioctl_arg[32];
	uint32_t refuse_type;	/* perf_event_open fails with ENOENT for this type + 1 */
	int refuse_kernel;	/* EACCES unless exclude_kernel */
	int refuse_guest;	/* EINVAL when exclude_guest or exclude_host */
	int refuse_user_too;	/* ENOENT even with exclude_kernel: nothing fixes it */
	int read_zero;		/* read returns 0 (error state) */
} k;

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	if (k.refuse_user_too && a->exclude_kernel) {
		errno = ENOENT;
		return -1;
	}
	if ((k.refuse_kernel && !a->exclude_kernel) ||
	    (k.refuse_guest && (a->exclude_guest || a->exclude_host))) {
		errno = k.refuse_kernel && !a->exclude_kernel ? EACCES : EINVAL;
		return -1;
	}
	if (k.refuse_type && a->type == k.refuse_type - 1) {
		errno = ENOENT;
		return -1;
	}
	k.open[k.nr_open].type = a->type;
	k.open[k.nr_open].pid = pid;
	k.open[k.nr_open].cpu = cpu;
	k.open[k.nr_open].group_fd = group_fd;
	k.open[k.nr_open].disabled = a->disabled;
	k.open[k.nr_open].read_format = a->read_format;
	k.open[k.nr_open].flags = flags;
	return FD0 + k.nr_open++;
}

static int fake_close(int fd)
{
	assert_true(fd >= FD0 && fd < FD0 + k.nr_open);
	k.nr_close++;
	return 0;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	k.ioctl_fd[k.nr_ioctl] = fd;
	k.ioctl_req[k.nr_ioctl] = req;
	k.ioctl_arg[k.nr_ioctl++] = arg;
	return 0;
}

/* Every counter counted 100 while it ran a quarter of the time. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	uint64_t w[4] = { 100, 1000, 250, (uint64_t)fd };	/* value, enabled, running, id */

	if (k.read_zero)
		return 0;
	assert_true(len >= sizeof(w));
	memcpy(buf, w, sizeof(w));
	return sizeof(w);
}

static const struct pk__sys_ops ops = {
	.perf_event_open = fake_open, .close = fake_close, .ioctl = fake_ioctl, .read = fake_read,
};

static int setup(void **state)
{
	(void)state;
	memset(&k, 0, sizeof(k));
	pk__sys_set_ops(&ops);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pk__sys_set_ops(NULL);
	return 0;
}

static struct pk_evlist *make(const char *spec, const int *cpus, size_t nr_cpus, bool skip)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = nr_cpus,
			       .skip_unsupported = skip };

	assert_true(pk_events_parse(spec, NULL, &ev) > 0);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);	/* the evlist keeps its own copy */
	return l;
}

static void test_groups_on_cpus(void **state)
{
	static const int cpus[] = { 0, 3 };
	struct pk_evlist *l = make("{task-clock,page-faults},cs", cpus, 2, false);
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(k.nr_open, 6);
	/* Per CPU: leader (disabled, no group), member (enabled, leader's fd). */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(k.open[2 * i].cpu, cpus[i]);
		assert_int_equal(k.open[2 * i].pid, -1);	/* CPU-wide: every task */
		assert_int_equal(k.open[2 * i].group_fd, -1);
		assert_int_equal(k.open[2 * i].disabled, 1);
		assert_int_equal(k.open[2 * i + 1].group_fd, FD0 + 2 * i);
		assert_int_equal(k.open[2 * i + 1].disabled, 0);
		assert_int_equal(k.open[2 * i + 1].read_format,
				 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID);
	}
	assert_int_equal(k.open[5].group_fd, -1);
	/* Enable goes to each leader once per CPU, for the whole group. */
	assert_int_equal(pk_evlist_enable(l), 0);
	assert_int_equal(k.nr_ioctl, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(k.ioctl_req[i], PERF_EVENT_IOC_ENABLE);
		assert_int_equal(k.ioctl_arg[i], PERF_IOC_FLAG_GROUP);
	}
	assert_int_equal(k.ioctl_fd[0], FD0);
	assert_int_equal(k.ioctl_fd[2], FD0 + 4);
	assert_int_equal(pk_evlist_reset(l), 0);
	assert_int_equal(k.ioctl_req[4], PERF_EVENT_IOC_RESET);
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_int_equal(k.ioctl_req[11], PERF_EVENT_IOC_DISABLE);
	/* 100 counted in a quarter of the time is 400, on each of two CPUs. */
	assert_int_equal(pk_evlist_read(l, 1, &c), 0);
	assert_int_equal(c.value, 800);
	assert_int_equal(c.enabled, 2000);
	assert_int_equal(c.running, 500);
	assert_int_equal(pk_evlist_read(l, 3, &c), -ERANGE);
	/* A count whose size was never set is refused, and left alone. */
	{
		struct pk_count unsized = { .value = 12345 };

		assert_int_equal(pk_evlist_read(l, 1, &unsized), -EINVAL);
		assert_non_null(strstr(pk_last_error()->why, "size"));
		assert_int_equal(pk_evlist_read_one(l, 1, 0, 0, &unsized), -EINVAL);
		assert_int_equal(unsized.value, 12345);
	}
	/* One CPU's reading, scaled on its own. */
	assert_int_equal(pk_evlist_nr_cpus(l), 2);
	assert_int_equal(pk_evlist_cpu(l, 1), 3);
	/* Out of range is an error, distinct from "any". */
	assert_int_equal(pk_evlist_cpu(l, 2), -ERANGE);
	assert_non_null(strstr(pk_last_error()->why, "cpu index 2"));
	assert_int_equal(pk_evlist_nr_threads(l), 1);
	assert_int_equal(pk_evlist_thread(l, 0), PK_THREAD_ANY);
	assert_int_equal(pk_evlist_thread(l, 1), -ERANGE);
	assert_int_equal(pk_evlist_read_one(l, 1, 1, 0, &c), 0);
	assert_int_equal(c.value, 400);
	assert_int_equal(c.enabled, 1000);
	assert_int_equal(c.id, FD0 + 3);	/* the member's fd on the second CPU */
	assert_int_equal(pk_evlist_read_one(l, 1, 2, 0, &c), -ERANGE);
	pk_evlist_free(l);
	assert_int_equal(k.nr_close, 6);
}

/* pk_target.no_scale (perf stat --no-scale): each read gives the count as
 * counted (100 in a quarter of the time), not corrected to 400. */
static void test_no_scale(void **state)
{
	static const int cpus[] = { 0, 3 };
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2, .no_scale = true };
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(pk_evlist_read_one(l, 0, 1, 0, &c), 0);
	assert_int_equal(c.value, 100);
	assert_int_equal(c.enabled, 1000);
	assert_int_equal(c.running, 250);
	assert_int_equal(pk_evlist_read(l, 0, &c), 0);
	assert_int_equal(c.value, 200);
	assert_int_equal(c.enabled, 2000);
	pk_evlist_free(l);
}

static void test_skip_unsupported(void **state)
{
	struct pk_evlist *l = make("{cycles,instructions},task-clock", NULL, 0, true);
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	k.refuse_type = PERF_TYPE_HARDWARE + 1;
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(pk_evlist_supported(l, 0), -ENOENT);
	assert_int_equal(pk_evlist_supported(l, 1), -ENOENT);
	assert_int_equal(pk_evlist_supported(l, 2), 0);
	assert_int_equal(k.open[0].pid, 0);	/* no CPUs given: the calling thread */
	assert_int_equal(k.open[0].cpu, -1);
	assert_int_equal(pk_evlist_read(l, 0, &c), -ENODATA);
	assert_int_equal(pk_evlist_read(l, 2, &c), 0);
	assert_int_equal(c.value, 400);
	pk_evlist_free(l);
	assert_int_equal(k.nr_close, k.nr_open);
}

static void test_failure_closes_everything(void **state)
{
	static const int cpus[] = { 0, 1, 2 };
	struct pk_evlist *l = make("task-clock,{page-faults,cycles}", cpus, 3, false);

	(void)state;
	k.refuse_type = PERF_TYPE_HARDWARE + 1;
	assert_int_equal(pk_evlist_open(l), -ENOENT);
	assert_non_null(strstr(pk_last_error()->what, "cycles"));
	assert_true(k.nr_open > 0);
	assert_int_equal(k.nr_close, k.nr_open);
	pk_evlist_free(l);
	assert_int_equal(k.nr_close, k.nr_open);
}

static void test_pinned_error_state(void **state)
{
	struct pk_evlist *l = make("task-clock:D", NULL, 0, false);
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	assert_int_equal(pk_evlist_open(l), 0);
	k.read_zero = 1;
	assert_int_equal(pk_evlist_read(l, 0, &c), -EIO);
	assert_non_null(strstr(pk_last_error()->why, "error state"));
	assert_non_null(strstr(pk_last_error()->what, "task-clock:D"));
	pk_evlist_free(l);
}

static void test_bad_targets(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l = NULL;
	struct pk_target t = { .size = sizeof(t), .nr_cpus = 2 };

	(void)state;
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), 1);
	assert_int_equal(pk_evlist_new(ev, &t, &l), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "no array"));
	assert_int_equal(pk_evlist_new(ev, NULL, &l), -EINVAL);
	assert_null(l);
	pk_events_free(ev);
	pk_evlist_free(NULL);
}


static struct pk_evlist *make_fb(const char *spec, bool fallbacks)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .fallbacks = fallbacks };

	assert_true(pk_events_parse(spec, NULL, &ev) > 0);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	return l;
}

static void test_fallbacks(void **state)
{
	struct pk_evlist *l;

	(void)state;
	/* Without fallbacks the refusal stands. */
	k.refuse_kernel = 1;
	l = make_fb("task-clock", false);
	assert_int_equal(pk_evlist_open(l), -EACCES);
	pk_evlist_free(l);
	/* With them: retried as :u, and the user is told why. */
	l = make_fb("task-clock,cs:u", true);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(k.open[0].type, PERF_TYPE_SOFTWARE);
	assert_non_null(pk_evlist_fallback(l, 0));
	assert_non_null(strstr(pk_evlist_fallback(l, 0), "user space only (:u)"));
	assert_non_null(strstr(pk_evlist_fallback(l, 0), "perf_event_paranoid"));
	assert_null(pk_evlist_fallback(l, 1));	/* already :u: opened as asked */
	pk_evlist_free(l);
	/* A PMU that rejects exclude_guest (like msr): dropped and retried. */
	k.refuse_kernel = 0;
	k.refuse_guest = 1;
	l = make_fb("task-clock:H", true);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_non_null(strstr(pk_evlist_fallback(l, 0), "without exclude_guest"));
	pk_evlist_free(l);
	/* The bit every event starts with (no G/H): dropped without a note. */
	l = make_fb("task-clock", true);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_null(pk_evlist_fallback(l, 0));
	assert_int_equal(pk_evlist_attr(l, 0)->exclude_guest, 0);
	pk_evlist_free(l);
	/* Both at once: :u first, then without exclude_guest; both are said. */
	k.refuse_kernel = 1;
	l = make_fb("task-clock:H", true);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_non_null(strstr(pk_evlist_fallback(l, 0), "user space only"));
	assert_non_null(strstr(pk_evlist_fallback(l, 0), "; and counted without exclude_guest"));
	assert_int_equal(pk_evlist_attr(l, 0)->exclude_kernel, 1);
	assert_int_equal(pk_evlist_attr(l, 0)->exclude_guest, 0);
	pk_evlist_free(l);
	/* A fallback that did not help leaves no note on a skipped event. */
	k.refuse_kernel = 1;
	k.refuse_user_too = 1;
	{
		struct pk_events *ev;
		struct pk_target t = { .size = sizeof(t), .fallbacks = true, .skip_unsupported = true };

		assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
		assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
		pk_events_free(ev);
	}
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(pk_evlist_supported(l, 0), -ENOENT);
	assert_null(pk_evlist_fallback(l, 0));
	pk_evlist_free(l);
	k.refuse_user_too = 0;
	/* Something no fallback fixes still fails, with nothing changed. */
	k.refuse_kernel = k.refuse_guest = 0;
	k.refuse_type = PERF_TYPE_SOFTWARE + 1;
	k.nr_open = 0;
	l = make_fb("task-clock", true);
	assert_int_equal(pk_evlist_open(l), -ENOENT);
	assert_int_equal(k.nr_open, 0);
	assert_null(pk_evlist_fallback(l, 0));
	pk_evlist_free(l);
}


/* A cgroup goes to the kernel as its directory's fd, with PERF_FLAG_PID_CGROUP. */
static void test_cgroup_target(void **state)
{
	static const int cpus[] = { 0, 1 };
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2, .cgroup = "/" };
	char root[512];

	(void)state;
	if (pk_cgroup_root(root, sizeof(root)) < 0)
		skip();	/* no cgroup hierarchy mounted here */
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), 1);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(k.nr_open, 2);
	for (int i = 0; i < 2; i++) {
		assert_true(k.open[i].flags & PERF_FLAG_PID_CGROUP);
		assert_true(k.open[i].flags & PERF_FLAG_FD_CLOEXEC);
		assert_true(k.open[i].pid > 2);	/* an fd, not a pid or -1 */
		assert_int_equal(k.open[i].cpu, cpus[i]);
	}
	pk_evlist_free(l);
	/* A cgroup needs CPUs and no threads. */
	t.nr_cpus = 0;
	t.cpus = NULL;
	assert_int_equal(pk_evlist_new(ev, &t, &l), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "per CPU"));
	/* A missing cgroup is named. */
	t.cpus = cpus;
	t.nr_cpus = 2;
	t.cgroup = "perfkit-no-such-cgroup";
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_evlist_open(l), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "no cgroup 'perfkit-no-such-cgroup'"));
	pk_evlist_free(l);
	pk_events_free(ev);
}

/* The cgroup directory's open(2), faked: fails with dir_err, else opens "/". */
static struct {
	int dir_err, calls, flags;
	char path[1024];
} cg;

static int fake_open_dir(const char *path, int flags)
{
	cg.calls++;
	cg.flags = flags;
	snprintf(cg.path, sizeof(cg.path), "%s", path);
	if (cg.dir_err) {
		errno = cg.dir_err;
		return -1;
	}
	return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Fail, showing both, unless `needle` is in `hay`. */
static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' is not in '%s'", needle, hay);
}

/* A cgroup that cannot be opened fails the list before any event opens,
 * the message naming the cgroup, what is wrong and the errno. */
static void test_cgroup_open_fails(void **state)
{
	static const struct pk__sys_ops dir_ops = {
		.perf_event_open = fake_open, .close = fake_close, .open = fake_open_dir,
	};
	static const struct {
		int err;
		const char *why, *ename, *hint;
	} rows[] = {
		{ ENOENT, "no cgroup 'web' under", "(ENOENT)", "the cgroups are the directories under" },
		{ ENOTDIR, "no cgroup 'web' under", "(ENOTDIR)", "the cgroups are the directories under" },
		{ EMFILE, "cannot open cgroup 'web': this process has as many open files", "(EMFILE)",
		  "ulimit -n" },
		{ ENFILE, "cannot open cgroup 'web': the system's open file table is full", "(ENFILE)",
		  "ulimit -n" },
		{ EACCES, "cannot open cgroup 'web' under", "(EACCES)", "may read the cgroup's directory" },
		{ EIO, "cannot open cgroup 'web' under", "(EIO)", "" },
	};
	static const int cpus[] = { 0, 1 };
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2, .cgroup = "web" };
	struct pk_events *ev;
	struct pk_evlist *l;
	char root[512];

	(void)state;
	if (pk_cgroup_root(root, sizeof(root)) < 0)
		skip();	/* no cgroup hierarchy mounted here */
	pk__sys_set_ops(&dir_ops);
	assert_int_equal(pk_events_parse("task-clock", NULL, &ev), 1);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cg.dir_err = rows[i].err;
		assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
		assert_int_equal(pk_evlist_open(l), -rows[i].err);
		assert_int_equal(k.nr_open, 0);	/* nothing opened before the cgroup */
		assert_string_equal(pk_last_error()->what, "open cgroup");
		contains(pk_last_error()->why, rows[i].why);
		contains(pk_last_error()->why, rows[i].ename);
		contains(pk_last_error()->hint, rows[i].hint);
		pk_evlist_free(l);
	}
	/* The directory asked for is the cgroup's under the root, kept open
	 * (not inherited by an exec) and given to every CPU's event. */
	cg.dir_err = 0;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_non_null(strstr(cg.path, "/web"));
	assert_int_equal(strncmp(cg.path, root, strlen(root)), 0);
	assert_true((cg.flags & O_DIRECTORY) && (cg.flags & O_CLOEXEC));
	assert_int_equal(k.nr_open, 2);
	assert_int_equal(k.open[0].pid, k.open[1].pid);
	assert_true(k.open[0].flags & PERF_FLAG_PID_CGROUP);
	pk_evlist_free(l);
	pk_events_free(ev);
}

/* One cgroup per event: event 0 in "/", event 1's empty name and event 2
 * (past the array) in none, so those two open on every task of the CPU. */
static void test_event_cgroups(void **state)
{
	static const int cpus[] = { 0, 1 };
	static const char *const cgs[] = { "/", "" };
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t), .cpus = cpus, .nr_cpus = 2,
			       .event_cgroups = cgs, .nr_event_cgroups = 2 };
	char root[512];

	(void)state;
	if (pk_cgroup_root(root, sizeof(root)) < 0)
		skip();	/* no cgroup hierarchy mounted here */
	assert_int_equal(pk_events_parse("task-clock,cs,page-faults", NULL, &ev), 3);
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_evlist_open(l), 0);
	assert_int_equal(k.nr_open, 6);
	for (int i = 0; i < 6; i++) {
		bool in_cgroup = i < 2;	/* event-major: event 0 on both CPUs first */

		assert_int_equal(!!(k.open[i].flags & PERF_FLAG_PID_CGROUP), in_cgroup);
		if (in_cgroup)
			assert_true(k.open[i].pid > 2);	/* the cgroup's fd */
		else
			assert_int_equal(k.open[i].pid, -1);
		assert_int_equal(k.open[i].cpu, cpus[i % 2]);
	}
	pk_evlist_free(l);
	/* Any event's cgroup needs CPUs and no threads. */
	t.nr_cpus = 0;
	t.cpus = NULL;
	assert_int_equal(pk_evlist_new(ev, &t, &l), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "cgroup '/' is counted per CPU"));
	pk_events_free(ev);
}

/* pk_events_attr_mut takes effect before pk_evlist_new and fails loudly after. */
static void test_attr_mut_after_new_fails(void **state)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t) };

	(void)state;
	assert_true(pk_events_parse("task-clock", NULL, &ev) > 0);
	pk_events_attr_mut(ev, 0)->sample_type = PERF_SAMPLE_TIME;
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	assert_int_equal(pk_evlist_attr(l, 0)->sample_type, PERF_SAMPLE_TIME);
	assert_null(pk_events_attr_mut(ev, 0));
	assert_int_equal(pk_last_error()->code, -EBUSY);
	assert_non_null(strstr(pk_last_error()->why, "pk_evlist_new"));
	/* Reading the list stays allowed, and shows the attr the evlist copied. */
	assert_int_equal(pk_events_attr(ev, 0)->sample_type, PERF_SAMPLE_TIME);
	pk_evlist_free(l);
	pk_events_free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_groups_on_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_scale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skip_unsupported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_closes_everything, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pinned_error_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallbacks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_cgroups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_open_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attr_mut_after_new_fails, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
