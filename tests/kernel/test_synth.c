/* SPDX-License-Identifier: MIT */
/*
 * test_synth.c - synthesized records decode like the kernel's: the kernel
 * map matches /proc/kallsyms, this process gets a COMM per thread with its
 * name and an executable MMAP2 for its own binary, every record carries
 * the trailer its attr asks for, and -a's synthesis puts a FORK before each
 * thread's COMM with perf's parents; --all-cgroups' walk names the root
 * first and this process's cgroup with the id stat gives its directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

struct seen {
	const struct perf_event_attr *attr;
	int comm, mmap2_self, mmap2, kernel, bad, ns, ns_right;
	char exe[4096];
};

static int sink(void *arg, const struct perf_event_header *h)
{
	struct seen *s = arg;
	struct pk_record r = { .size = sizeof(r) };

	if (pk_record_decode(h, s->attr, &r) != 0) {
		s->bad++;
		return 0;
	}
	/* every synthesized record carries the trailer, with our id */
	if (r.id.id != 99 || r.id.time != 0)
		s->bad++;
	switch (r.type) {
	case PERF_RECORD_COMM:
		if (r.comm.pid == (uint32_t)getpid() && !strcmp(r.comm.comm, "synth-test"))
			s->comm++;
		break;
	case PERF_RECORD_MMAP2:
		s->mmap2++;
		if (!strcmp(r.mmap2.filename, s->exe) && (r.mmap2.prot & PROT_EXEC))
			s->mmap2_self++;
		break;
	case PERF_RECORD_NAMESPACES:
		if (r.namespaces.pid == (uint32_t)getpid() && r.namespaces.tid == (uint32_t)getpid()) {
			static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
			bool right = r.namespaces.nr == NR_NAMESPACES;

			for (uint64_t i = 0; right && i < NR_NAMESPACES; i++) {
				char path[64];
				struct stat st;

				snprintf(path, sizeof(path), "/proc/self/ns/%s", names[i]);
				right = stat(path, &st) == 0 && r.namespaces.links[i].dev == st.st_dev &&
					r.namespaces.links[i].ino == st.st_ino;
			}
			s->ns++;
			s->ns_right += right;
		}
		break;
	case PERF_RECORD_MMAP:
		if (r.mmap.pid == (uint32_t)-1 && !strcmp(r.mmap.filename, "[kernel.kallsyms]_text") &&
		    (r.misc & PERF_RECORD_MISC_KERNEL))
			s->kernel++;
		break;
	}
	return 0;
}

static struct perf_event_attr attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	return a;
}

static void test_process(void **state)
{
	struct perf_event_attr a = attr();
	struct seen s = { .attr = &a };
	ssize_t n = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);

	(void)state;
	assert_true(n > 0);
	s.exe[n] = '\0';
	prctl(PR_SET_NAME, "synth-test");
	assert_int_equal(pk_record_synth_process(getpid(), &a, 99, false, sink, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.comm, 1);
	assert_true(s.mmap2_self >= 1);
	/* without data maps, every mapping is executable */
	assert_int_equal(pk_record_synth_process(2147483646, &a, 99, false, sink, &s), -ESRCH);
	assert_int_equal(s.ns, 0);
	/* --namespaces: one NAMESPACES for the thread, as stat(2) sees its links */
	assert_int_equal(pk_record_synth_process(getpid(), &a, 99, PK_SYNTH_NAMESPACES, sink, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ns, 1);
	assert_int_equal(s.ns_right, 1);
}

static void test_kernel(void **state)
{
	struct perf_event_attr a = attr();
	struct seen s = { .attr = &a };
	int err = pk_record_synth_kernel(&a, 99, sink, &s);

	(void)state;
	if (err == -EACCES) {
		assert_non_null(strstr(pk_last_error()->hint, "kptr_restrict"));
		skip();	/* addresses hidden here: the message is what we can check */
	}
	assert_int_equal(err, 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.kernel, 1);
}

/* -a: what pk_record_synth_all says of this process and one more thread. */
struct forks {
	const struct perf_event_attr *attr;
	pid_t thread;
	int leader, other, wrong, comm_before_fork, bad;
	bool seen_fork[2];
};

static int fork_sink(void *arg, const struct perf_event_header *h)
{
	struct forks *f = arg;
	struct pk_record r = { .size = sizeof(r) };
	pid_t me = getpid();

	if (pk_record_decode(h, f->attr, &r) != 0) {
		f->bad++;
		return 0;
	}
	if (r.type == PERF_RECORD_FORK && r.task.pid == (uint32_t)me) {
		bool lead = r.task.tid == (uint32_t)me;

		if (!(r.misc & PERF_RECORD_MISC_FORK_EXEC) || r.task.time || r.id.id != 7 ||
		    r.task.ppid != r.task.ptid)
			f->wrong++;
		if (lead && r.task.ppid == (uint32_t)getppid())
			f->leader++, f->seen_fork[0] = true;
		else if (r.task.tid == (uint32_t)f->thread && r.task.ppid == (uint32_t)me)
			f->other++, f->seen_fork[1] = true;
		else
			f->wrong++;
	}
	if (r.type == PERF_RECORD_COMM && r.comm.pid == (uint32_t)me &&
	    !f->seen_fork[r.comm.tid == (uint32_t)me ? 0 : 1])
		f->comm_before_fork++;
	return 0;
}

static int ready[2], go[2];

/* A second thread that exists until the test lets it go. */
static void *waiter(void *arg)
{
	char c;

	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

static void test_all_forks(void **state)
{
	struct perf_event_attr a = attr();
	struct forks f = { .attr = &a };
	pthread_t t;
	char c;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pthread_create(&t, NULL, waiter, &f.thread), 0);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(pk_record_synth_all(&a, 7, false, fork_sink, &f), 0);
	assert_int_equal(write(go[1], "x", 1), 1);
	pthread_join(t, NULL);
	assert_int_equal(f.bad, 0);
	assert_int_equal(f.wrong, 0);
	assert_int_equal(f.leader, 1);		/* from the parent process */
	assert_int_equal(f.other, 1);		/* the thread, from the leader */
	assert_int_equal(f.comm_before_fork, 0);
	/* -p's synthesis writes no FORK, as perf's does not. */
	f = (struct forks){ .attr = &a };
	assert_int_equal(pk_record_synth_process(getpid(), &a, 7, false, fork_sink, &f), 0);
	assert_int_equal(f.leader + f.other + f.wrong, 0);
}

static int stop_after_one(void *arg, const struct perf_event_header *h)
{
	(void)h;
	++*(int *)arg;
	return -ECANCELED;
}

static void test_sink_stops(void **state)
{
	struct perf_event_attr a = attr();
	int calls = 0;

	(void)state;
	assert_int_equal(pk_record_synth_all(&a, 1, false, stop_after_one, &calls), -ECANCELED);
	assert_int_equal(calls, 1);
}

/* --all-cgroups: the records of the cgroup tree. */
struct cgroups {
	const struct perf_event_attr *attr;
	char mine[4096];	/* this process's cgroup2 path, "" on v1 */
	uint64_t mine_id;
	int nr, root_first, mine_seen, bad;
};

static int cgroup_sink(void *arg, const struct perf_event_header *h)
{
	struct cgroups *c = arg;
	struct pk_record r = { .size = sizeof(r) };

	if (pk_record_decode(h, c->attr, &r) != 0 || r.type != PERF_RECORD_CGROUP || r.id.id != 99) {
		c->bad++;
		return 0;
	}
	if (!c->nr++ && !strcmp(r.cgroup.path, "/"))
		c->root_first = 1;
	if (c->mine[0] && !strcmp(r.cgroup.path, c->mine))
		c->mine_seen += r.cgroup.id == c->mine_id ? 1 : 100;
	return 0;
}

static void test_cgroups(void **state)
{
	struct perf_event_attr a = attr();
	struct cgroups c = { .attr = &a };
	char root[4096], line[4096], dir[8192];
	FILE *f = fopen("/proc/self/cgroup", "r");
	struct stat st = { 0 };
	int err;

	(void)state;
	if (pk_cgroup_root(root, sizeof(root)) < 0)
		skip();	/* no cgroup hierarchy mounted here */
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(c.mine, sizeof(c.mine), "%s", line + 3);
		}
	if (f)
		fclose(f);
	snprintf(dir, sizeof(dir), "%s%s", root, c.mine);
	if (!c.mine[0] || stat(dir, &st) < 0)
		c.mine[0] = '\0';	/* v1 perf_event mount: its paths differ */
	c.mine_id = st.st_ino;
	err = pk_record_synth_cgroups(&a, 99, cgroup_sink, &c);
	assert_int_equal(err, 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.root_first, 1);
	if (c.mine[0])
		assert_int_equal(c.mine_seen, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_sink_stops),
		cmocka_unit_test(test_all_forks),
		cmocka_unit_test(test_cgroups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
