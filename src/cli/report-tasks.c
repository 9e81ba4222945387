/* SPDX-License-Identifier: MIT */
/*
 * report-tasks.c - perf report 6.1's --tasks and --mmaps: the file's
 * COMM, FORK and EXIT records (and, for --mmaps, its user MMAP and MMAP2
 * records) followed in time order as perf's machine follows them (the idle
 * thread "swapper" first; a FORK replacing a thread of the same tid and
 * setting the child's ppid and comm from its parent; a thread's maps
 * shared with its process's leader; a new map cutting the ones it
 * overlaps), then printed as perf prints them: the threads in perf's hash
 * order, each under its parent, with its maps sorted by start.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct tmap {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags;
	const char *name;		/* interned */
};

struct maps_tab {
	struct tmap *m;			/* sorted by start, none overlapping */
	size_t nr, cap;
};

struct task {
	int32_t pid, tid, ppid;
	const char *comm;		/* interned; NULL: perf's ":TID" */
	bool removed;			/* replaced by a later thread of its tid */
	size_t maps;			/* its maps table */
	/* the print tree */
	bool listed;
	long first_child, last_child, next;
};

struct tasks {
	struct task *t;
	size_t nr, cap;
	struct maps_tab *maps;
	size_t nr_maps, cap_maps;
	struct pk_intern *names;
	bool mmaps;
};

static int grow(void **p, size_t *cap, size_t nr, size_t size)
{
	void *n;

	if (nr < *cap)
		return 0;
	if (!(n = realloc(*p, (*cap ? *cap * 2 : 16) * size)))
		return -ENOMEM;
	*p = n;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static long find(const struct tasks *ts, int32_t tid)
{
	for (size_t i = ts->nr; i-- > 0;)
		if (!ts->t[i].removed && ts->t[i].tid == tid)
			return (long)i;
	return -1;
}

static long new_maps(struct tasks *ts)
{
	if (grow((void **)&ts->maps, &ts->cap_maps, ts->nr_maps, sizeof(*ts->maps)) < 0)
		return -ENOMEM;
	ts->maps[ts->nr_maps] = (struct maps_tab){ NULL, 0, 0 };
	return (long)ts->nr_maps++;
}

static long findnew(struct tasks *ts, int32_t pid, int32_t tid);

/* perf's machine__update_thread_pid: a thread first seen without its
 * process learns it, and shares its leader's maps. */
static int update_pid(struct tasks *ts, long i, int32_t pid)
{
	long leader;

	if (pid == ts->t[i].pid || pid == -1 || ts->t[i].pid != -1)
		return 0;
	ts->t[i].pid = pid;
	if (pid == ts->t[i].tid)
		return 0;
	if ((leader = findnew(ts, pid, pid)) < 0)
		return (int)leader;
	ts->t[i].maps = ts->t[leader].maps;
	return 0;
}

/* perf's machine__findnew_thread: the live thread of `tid`, else a new
 * one (with a new maps table, or its leader's, made too when needed). */
static long findnew(struct tasks *ts, int32_t pid, int32_t tid)
{
	long i = find(ts, tid), m, leader;
	int err;

	if (i >= 0)
		return (err = update_pid(ts, i, pid)) < 0 ? err : i;
	if (grow((void **)&ts->t, &ts->cap, ts->nr, sizeof(*ts->t)) < 0)
		return -ENOMEM;
	i = (long)ts->nr++;
	ts->t[i] = (struct task){ pid, tid, -1, NULL, false, 0, false, -1, -1, -1 };
	if (pid == tid || pid == -1) {
		if ((m = new_maps(ts)) < 0)
			return m;
		ts->t[i].maps = (size_t)m;
	} else {
		if ((leader = findnew(ts, pid, pid)) < 0)
			return leader;
		ts->t[i].maps = ts->t[leader].maps;
	}
	return i;
}

static int set_comm(struct tasks *ts, long i, const char *comm)
{
	return pk_intern_str(ts->names, comm, &ts->t[i].comm);
}

/* perf's maps__clone: every map of table `from` into table `to`. */
static int clone_maps(struct tasks *ts, size_t to, size_t from)
{
	for (size_t k = 0; k < ts->maps[from].nr; k++) {
		struct maps_tab *t = &ts->maps[to];

		if (grow((void **)&t->m, &t->cap, t->nr, sizeof(*t->m)) < 0)
			return -ENOMEM;
		t->m[t->nr++] = ts->maps[from].m[k];
	}
	return 0;
}

/* perf's machine__process_fork_event and thread__fork. */
static int do_fork(struct tasks *ts, const struct pk_record *d)
{
	const struct pk_rec_task *f = &d->task;
	long child = find(ts, (int32_t)f->tid), parent = findnew(ts, (int32_t)f->ppid, (int32_t)f->ptid);

	if (parent >= 0 && ts->t[parent].pid != (int32_t)f->ppid) {	/* an erroneous parent */
		ts->t[parent].removed = true;
		parent = findnew(ts, (int32_t)f->ppid, (int32_t)f->ptid);
	}
	if (parent < 0)
		return (int)parent;
	if (child >= 0)
		ts->t[child].removed = true;
	if ((child = findnew(ts, (int32_t)f->pid, (int32_t)f->tid)) < 0)
		return (int)child;
	if (ts->t[parent].comm)
		ts->t[child].comm = ts->t[parent].comm;
	ts->t[child].ppid = ts->t[parent].tid;
	if (ts->t[child].pid == ts->t[parent].pid || ts->t[child].maps == ts->t[parent].maps ||
	    (d->misc & PERF_RECORD_MISC_FORK_EXEC))
		return 0;
	return clone_maps(ts, ts->t[child].maps, ts->t[parent].maps);
}

/* perf's maps__fixup_overlappings then maps__insert: what `m` overlaps
 * is cut away (the parts before and after it stay), then m goes in by
 * its start. */
static int insert_map(struct maps_tab *t, const struct tmap *m)
{
	size_t at = 0;

	for (size_t k = 0; k < t->nr;) {
		struct tmap old = t->m[k];

		if (old.end <= m->start || old.start >= m->end) {
			k++;
			continue;
		}
		memmove(&t->m[k], &t->m[k + 1], (t->nr - k - 1) * sizeof(*t->m));
		t->nr--;
		if (old.start < m->start) {
			struct tmap before = old;

			before.end = m->start;
			if (insert_map(t, &before) < 0)
				return -ENOMEM;
		}
		if (old.end > m->end) {
			struct tmap after = old;

			after.pgoff += m->end - old.start;
			after.start = m->end;
			if (insert_map(t, &after) < 0)
				return -ENOMEM;
		}
		k = 0;
	}
	if (grow((void **)&t->m, &t->cap, t->nr, sizeof(*t->m)) < 0)
		return -ENOMEM;
	while (at < t->nr && t->m[at].start <= m->start)
		at++;
	memmove(&t->m[at + 1], &t->m[at], (t->nr - at) * sizeof(*t->m));
	t->m[at] = *m;
	t->nr++;
	return 0;
}

static bool is_anon(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) || !strncmp(name, "/anon_hugepage", 14);
}

/* perf's machine__process_mmap{,2}_event for a user map, and map__new's
 * names: anonymous executable memory is the process's /tmp/perf-PID.map,
 * the vdso's offset 0. */
static int do_mmap(struct tasks *ts, const struct pk_record *d)
{
	bool v2 = d->type == PERF_RECORD_MMAP2;
	uint32_t pid = v2 ? d->mmap2.pid : d->mmap.pid, tid = v2 ? d->mmap2.tid : d->mmap.tid;
	const char *name = v2 ? d->mmap2.filename : d->mmap.filename;
	uint32_t mode = d->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct tmap m = { 0 };
	char buf[64];
	long i;

	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL)
		return 0;	/* the kernel's maps are no task's */
	if ((i = findnew(ts, (int32_t)pid, (int32_t)tid)) < 0)
		return (int)i;
	m.start = v2 ? d->mmap2.addr : d->mmap.addr;
	m.end = m.start + (v2 ? d->mmap2.len : d->mmap.len);
	m.pgoff = v2 ? d->mmap2.pgoff : d->mmap.pgoff;
	m.prot = v2 ? d->mmap2.prot : (d->misc & PERF_RECORD_MISC_MMAP_DATA) ? 0 : PROT_EXEC;
	m.flags = v2 ? d->mmap2.flags : 0;
	m.ino = v2 && !d->mmap2.has_build_id ? d->mmap2.ino : 0;
	if ((is_anon(name) || (m.flags & MAP_HUGETLB)) && (m.prot & PROT_EXEC)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%u.map", pid);
		name = buf;
	}
	if (!strcmp(name, "[vdso]"))
		m.pgoff = 0;
	if (pk_intern_str(ts->names, name, &m.name) < 0)
		return -ENOMEM;
	return insert_map(&ts->maps[ts->t[i].maps], &m);
}

static int tasks_record(struct tasks *ts, const struct pk_record *d)
{
	long i;

	switch (d->type) {
	case PERF_RECORD_COMM:
		if ((i = findnew(ts, (int32_t)d->comm.pid, (int32_t)d->comm.tid)) < 0)
			return (int)i;
		return set_comm(ts, i, d->comm.comm);
	case PERF_RECORD_FORK:
		return do_fork(ts, d);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return ts->mmaps ? do_mmap(ts, d) : 0;
	default:
		return 0;	/* EXIT leaves the thread listed, as in perf */
	}
}

static int read_tasks(struct tasks *ts, struct pk_data_reader *r)
{
	const struct perf_event_header *h;
	struct pk_record d;
	long idle;
	int rc, err = 0;

	/* perf's idle thread, before any record */
	if ((idle = findnew(ts, 0, 0)) < 0 || set_comm(ts, idle, "swapper") < 0)
		return -ENOMEM;
	while (!err && (rc = pk_data_reader_next(r, &h)) > 0) {
		int ev = pk_data_reader_event_of(r, h);
		const struct perf_event_attr *attr = pk_data_reader_attr(r, ev >= 0 ? (size_t)ev : 0);

		d.size = sizeof(d);
		if (h->type == PERF_RECORD_SAMPLE || pk_record_decode(h, attr, &d) != 0)
			continue;
		err = tasks_record(ts, &d);
	}
	return err < 0 ? err : rc < 0 ? 1 : 0;
}

/* perf's order: its 256 hash buckets (tid modulo 256), each by tid. */
static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct task *x = &((const struct tasks *)arg)->t[*(const long *)a];
	const struct task *y = &((const struct tasks *)arg)->t[*(const long *)b];
	uint32_t bx = (uint32_t)x->tid % 256, by = (uint32_t)y->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void add_child(struct tasks *ts, long parent, long child)
{
	ts->t[child].listed = true;
	if (ts->t[parent].last_child >= 0)
		ts->t[ts->t[parent].last_child].next = child;
	else
		ts->t[parent].first_child = child;
	ts->t[parent].last_child = child;
}

/* perf's tasks_list: task i under its parent, and so on up to a task
 * without one, which is the root to list (-1: none new). */
static long link_up(struct tasks *ts, long i, long *root)
{
	*root = -1;
	while (!ts->t[i].listed) {
		long p;

		if (ts->t[i].ppid == -1) {
			ts->t[i].listed = true;
			*root = i;
			return 0;
		}
		if ((p = find(ts, ts->t[i].ppid)) < 0)
			return -ENOENT;
		add_child(ts, p, i);
		i = p;
	}
	return 0;
}

static void print_task(FILE *f, const struct tasks *ts, long i, int level)
{
	const struct task *t = &ts->t[i];
	const struct maps_tab *mt = &ts->maps[t->maps];
	int indent = fprintf(f, "  %8d %8d %8d |%*s", t->pid, t->tid, t->ppid, level, "");

	if (t->comm)
		fprintf(f, "%s\n", t->comm);
	else
		fprintf(f, ":%d\n", t->tid);
	for (size_t k = 0; ts->mmaps && k < mt->nr; k++) {
		const struct tmap *m = &mt->m[k];

		fprintf(f, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n", indent, "",
			m->start, m->end, m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
			m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, m->ino,
			m->name);
	}
	for (long c = t->first_child; c >= 0; c = ts->t[c].next)
		print_task(f, ts, c, level + 1);
}

static int print_tasks(FILE *f, struct tasks *ts)
{
	long *order = calloc(ts->nr ? ts->nr : 1, sizeof(*order)), *roots, nr = 0, nr_roots = 0, root;

	roots = order ? calloc(ts->nr ? ts->nr : 1, sizeof(*roots)) : NULL;
	if (!roots) {
		free(order);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ts->nr; i++)
		if (!ts->t[i].removed)
			order[nr++] = (long)i;
	qsort_r(order, (size_t)nr, sizeof(*order), cmp_order, ts);
	for (long k = 0; k < nr; k++) {
		if (link_up(ts, order[k], &root) < 0) {
			free(order);
			free(roots);
			cli_message(stderr, "perfkit report: Error: failed to process tasks\n");
			return CLI_EXIT_EVENT;
		}
		if (root >= 0)
			roots[nr_roots++] = root;
	}
	fprintf(f, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (long k = 0; k < nr_roots; k++)
		print_task(f, ts, roots[k], 0);
	free(order);
	free(roots);
	return 0;
}

int report_tasks(const struct report_opts *o, struct pk_data_reader *r)
{
	struct tasks ts = { .mmaps = o->f2.mmaps };
	int rc = pk_intern_new(&ts.names);

	if (!rc && (rc = read_tasks(&ts, r)) > 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit report: warning: %s: %s; the tasks are those of the records "
			    "before it\n", e->what, e->why);
		rc = 0;
	}
	if (!rc) {
		cli_pager_start();
		rc = print_tasks(stdout, &ts);
		cli_pager_finish();
	}
	if (rc < 0)
		rc = cli_error("report", NULL);
	for (size_t i = 0; i < ts.nr_maps; i++)
		free(ts.maps[i].m);
	free(ts.maps);
	free(ts.t);
	pk_intern_free(ts.names);
	pk_data_reader_free(r);
	return rc;
}
