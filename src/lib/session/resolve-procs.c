/* SPDX-License-Identifier: MIT */
/*
 * resolve-procs.c - what the resolver follows of the records for the
 * unwinder (resolve-procs.h): each process's file mappings as the
 * unwinder is told them, a forked child given its parent's, an exec
 * starting afresh, and the processes forked during the recording counted
 * by their live threads, so that an exited one's mappings (the file maps,
 * the unwinder's and the maps' ranges) are let go.
 */
#include "resolve-procs.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What the unwinder is told a mapping of a file without the recorded
 * build-id holds: not a path, so it reads nothing there. */
#define NO_FILE "[build-id mismatch]"

/* A file mapping, kept so that a forked process can be given its
 * parent's: the unwinder has no FORK of its own. */
struct pk__file_map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	char *path;
};

/* A process forked during the recording and its live threads.  When the
 * last one has exited, nothing of it is sampled again but in the moment
 * after (a system-wide recording samples the task on its way out, user
 * stack and all, and perf resolves those samples in the exited thread's
 * maps): a second of the file's time later, its mappings are let go. */
struct pk__born {
	uint32_t pid, threads;
	uint64_t exited;	/* the last thread's EXIT time, 0: live */
};

#define BORN_GRACE_NS 1000000000ull

/* Remember a file mapping of `pid` and tell the unwinder. */
static int add_fmap(struct pk__procs *p, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff, const char *path)
{
	struct pk__file_map *m;
	const char *file;
	int err;

	/* Anonymous memory and special maps hold no CFI; the vDSO's image is
	 * found by its build-id (pk__maps_unwind_file), as perf's. */
	if (!len || !path || (path[0] != '/' && strcmp(path, "[vdso]")))
		return 0;
	if (p->nr_fmaps == p->cap_fmaps) {
		size_t cap = p->cap_fmaps ? 2 * p->cap_fmaps : 64;

		if (!(m = realloc(p->fmaps, cap * sizeof(*m))))
			return pk__error_nomem("pk_resolver_process(mmap %s)", path);
		p->fmaps = m;
		p->cap_fmaps = cap;
	}
	m = &p->fmaps[p->nr_fmaps];
	*m = (struct pk__file_map){ pid, start, start + len, pgoff, strdup(path) };
	if (!m->path)
		return pk__error_nomem("pk_resolver_process(mmap %s)", path);
	/* The unwinder reads the file the recorded build-id names (the cache's
	 * copy of a rebuilt one); with none, a name that is no path keeps the
	 * range mapped to nothing it may read. */
	if ((err = pk__maps_unwind_file(p->maps, path, &file)) == -ENOENT)
		file = NO_FILE;
	else if (err < 0)
		file = NULL;
	if (!file || ((err = pk_unwinder_map(p->unwinder, pid, start, start + len, pgoff, file)) < 0 &&
		      err != -EINVAL)) {
		free(m->path);
		return err;
	}
	p->nr_fmaps++;
	return 0;
}

/* Drop everything `pid` mapped (its exec starts afresh). */
static void forget_pid(struct pk__procs *p, uint32_t pid)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nr_fmaps; i++) {
		if (p->fmaps[i].pid == pid)
			free(p->fmaps[i].path);
		else
			p->fmaps[k++] = p->fmaps[i];
	}
	p->nr_fmaps = k;
	pk_unwinder_forget(p->unwinder, pid);
}

/* A new process starts with its parent's mappings, in their order. */
static int fork_pid(struct pk__procs *p, uint32_t pid, uint32_t ppid)
{
	size_t n;
	int err = 0;

	forget_pid(p, pid);
	n = p->nr_fmaps;
	for (size_t i = 0; i < n && !err; i++) {
		const struct pk__file_map m = p->fmaps[i];

		if (m.pid == ppid)
			err = add_fmap(p, pid, m.start, m.end - m.start, m.pgoff, m.path);
	}
	return err;
}

static struct pk__born *born_of(struct pk__procs *p, uint32_t pid)
{
	for (size_t i = 0; i < p->nr_born; i++)
		if (p->born[i].pid == pid)
			return &p->born[i];
	return NULL;
}

/* A FORK: a new process is counted with its first thread (a pid used
 * again starts again), a new thread of a live counted one adds to it.  Out
 * of memory, the process is not counted (its mappings are then kept to
 * the end, as a process's that began before the file). */
static void born_fork(struct pk__procs *p, const struct pk_record *rec)
{
	struct pk__born *b = born_of(p, rec->task.pid);

	if (rec->task.pid == rec->task.ppid) {
		if (b && !b->exited && rec->task.tid != rec->task.ptid)
			b->threads++;
		return;
	}
	if (!b && p->nr_born == p->cap_born) {
		size_t cap = p->cap_born ? 2 * p->cap_born : 16;

		if (!(b = pk__reallocarray(p->born, cap, sizeof(*b))))
			return;
		p->born = b;
		p->cap_born = cap;
		b = NULL;
	}
	if (!b)
		b = &p->born[p->nr_born++];
	*b = (struct pk__born){ rec->task.pid, 1, 0 };
}

/* The processes whose last thread exited a grace period before `now`
 * let their mappings go: the file maps, the unwinder's and the maps'
 * ranges (their DSOs, threads and names stay: entries name them). */
static void born_settle(struct pk__procs *p, uint64_t now)
{
	for (size_t i = 0; i < p->nr_born;) {
		const struct pk__born *b = &p->born[i];
		uint32_t pid = b->pid;

		if (!b->exited || now < b->exited || now - b->exited < BORN_GRACE_NS) {
			i++;
			continue;
		}
		p->born[i] = p->born[--p->nr_born];
		forget_pid(p, pid);
		pk__maps_forget(p->maps, pid);
	}
}

/* An EXIT: a counted process's last thread starts its grace period (a
 * file without times has none to end it). */
static void born_exit(struct pk__procs *p, const struct pk_record *rec)
{
	struct pk__born *b = born_of(p, rec->task.pid);

	if (b && !b->exited && !--b->threads)
		b->exited = rec->task.time ? rec->task.time : UINT64_MAX;
}

int pk__procs_follow(struct pk__procs *p, const struct pk_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP:
		if (rec->mmap.pid == (uint32_t)-1)
			return 0;
		return add_fmap(p, rec->mmap.pid, rec->mmap.addr, rec->mmap.len, rec->mmap.pgoff,
				rec->mmap.filename);
	case PERF_RECORD_MMAP2:
		if (rec->mmap2.pid == (uint32_t)-1)
			return 0;
		return add_fmap(p, rec->mmap2.pid, rec->mmap2.addr, rec->mmap2.len, rec->mmap2.pgoff,
				rec->mmap2.filename);
	case PERF_RECORD_COMM:
		if (rec->comm.exec && rec->comm.pid == rec->comm.tid)
			forget_pid(p, rec->comm.pid);
		return 0;
	case PERF_RECORD_FORK:
		born_settle(p, rec->task.time);
		born_fork(p, rec);
		if (rec->task.pid != rec->task.ppid)
			return fork_pid(p, rec->task.pid, rec->task.ppid);
		return 0;
	case PERF_RECORD_EXIT:
		/* The process's libdwfl state (each DSO's file mapped and
		 * its CFI, per process) let go: a 12-process DWARF profile
		 * of gcc held them all to the end.  Its maps stay, for a
		 * thread still sampled after the main one's exit, until the
		 * last one's (a 123-process profile's maps were 4.7 MB). */
		if (rec->task.pid == rec->task.tid)
			pk_unwinder_release(p->unwinder, rec->task.pid);
		born_settle(p, rec->task.time);
		born_exit(p, rec);
		return 0;
	default:
		return 0;
	}
}

void pk__procs_free(struct pk__procs *p)
{
	for (size_t i = 0; i < p->nr_fmaps; i++)
		free(p->fmaps[i].path);
	free(p->fmaps);
	free(p->born);
	p->fmaps = NULL;
	p->born = NULL;
	p->nr_fmaps = p->cap_fmaps = p->nr_born = p->cap_born = 0;
}
