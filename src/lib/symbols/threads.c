/* SPDX-License-Identifier: MIT */
/*
 * threads.c - the threads of a recording as perf follows them: each
 * thread's comm from COMM records (exec and prctl renames), inherited from
 * the forking thread on FORK, kept after EXIT, and perf's ":TID" for a
 * thread nothing named; its process id.  Comms are interned, so a report
 * can key its entries on a pointer and never copy a name per sample.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct thread {
	uint32_t tid, pid;
	bool used, named, exited;
	bool shown;		/* its ":TID" was handed out (pk_threads_comm) */
	const char *comm;	/* interned */
};

/* A thread's ":TID" that its first COMM renamed, as perf's comm__override
 * renames a thread's unnamed comm in place. */
struct rename {
	const char *from, *to;
};

struct pk_threads {
	struct thread *slots;	/* open addressing on tid, at most half full */
	size_t cap, nr;
	struct rename *renames;	/* in the order the COMMs came */
	size_t nr_renames, cap_renames;
	char **names;		/* the interned names, open addressing on their hash */
	size_t names_cap, nr_names;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static char **name_slot(char **names, size_t cap, const char *s)
{
	size_t i = (size_t)str_hash(s) & (cap - 1);

	while (names[i] && strcmp(names[i], s))
		i = (i + 1) & (cap - 1);
	return &names[i];
}

/* The interned copy of `s`, made on first sight; NULL when out of memory. */
static const char *intern(struct pk_threads *t, const char *s)
{
	char **slot = name_slot(t->names, t->names_cap, s);

	if (*slot)
		return *slot;
	if ((t->nr_names + 1) * 2 > t->names_cap) {
		size_t cap = t->names_cap * 2;
		char **n = pk__calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t i = 0; i < t->names_cap; i++)
			if (t->names[i])
				*name_slot(n, cap, t->names[i]) = t->names[i];
		free(t->names);
		t->names = n;
		t->names_cap = cap;
		slot = name_slot(n, cap, s);
	}
	if (!(*slot = pk__strdup(s)))
		return NULL;
	t->nr_names++;
	return *slot;
}

int pk_threads_new(struct pk_threads **out)
{
	struct pk_threads *t = pk__calloc(1, sizeof(*t));

	if (!t || !(t->slots = pk__calloc(64, sizeof(*t->slots))) ||
	    !(t->names = pk__calloc(64, sizeof(*t->names)))) {
		pk_threads_free(t);
		return pk__error_nomem("the thread table");
	}
	t->cap = 64;
	t->names_cap = 64;
	*out = t;
	return 0;
}

void pk_threads_free(struct pk_threads *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->names && i < t->names_cap; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	free(t->renames);
	free(t);
}

static struct thread *slot(struct thread *slots, size_t cap, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (cap - 1);

	while (slots[i].used && slots[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static struct thread *find(const struct pk_threads *t, uint32_t tid)
{
	struct thread *th = slot(t->slots, t->cap, tid);

	return th->used ? th : NULL;
}

/* Thread `tid`, made unnamed (":TID") when new; NULL when out of memory. */
static struct thread *get(struct pk_threads *t, uint32_t pid, uint32_t tid)
{
	struct thread *th;
	char unnamed[16];

	if ((th = find(t, tid)))
		return th;
	if ((t->nr + 1) * 2 > t->cap) {
		size_t cap = t->cap * 2;
		struct thread *n = pk__calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i].used)
				*slot(n, cap, t->slots[i].tid) = t->slots[i];
		free(t->slots);
		t->slots = n;
		t->cap = cap;
	}
	/* perf names a thread it has not seen a COMM for by its tid. */
	snprintf(unnamed, sizeof(unnamed), ":%d", (int)tid);
	th = slot(t->slots, t->cap, tid);
	*th = (struct thread){ .tid = tid, .pid = pid, .used = true, .comm = intern(t, unnamed) };
	if (!th->comm) {
		th->used = false;
		return NULL;
	}
	t->nr++;
	return th;
}

static int fork_record(struct pk_threads *t, const struct pk_rec_task *f)
{
	/* The comm comes from the forking thread (ptid), as in perf. */
	struct thread *parent = find(t, f->ptid), *child;
	const char *comm = parent && parent->named ? parent->comm : NULL;

	if (!(child = get(t, f->pid, f->tid)))
		return pk__error_nomem("a thread in the thread table");
	/* A tid seen before belongs to a new thread now: start it afresh. */
	child->pid = f->pid;
	child->exited = false;
	child->shown = false;
	child->named = comm != NULL;
	if (comm)
		child->comm = comm;
	else {
		char unnamed[16];

		snprintf(unnamed, sizeof(unnamed), ":%d", (int)f->tid);
		if (!(child->comm = intern(t, unnamed)))
			return pk__error_nomem("a thread's name");
	}
	return 0;
}

/* The first name of thread th, whose ":TID" samples were given: kept as
 * that ":TID"'s new name, once for each ":TID" (the first renames it). */
static int keep_rename(struct pk_threads *t, const struct thread *th, const char *to)
{
	for (size_t i = 0; i < t->nr_renames; i++)
		if (t->renames[i].from == th->comm)
			return 0;
	if (t->nr_renames == t->cap_renames) {
		size_t cap = t->cap_renames ? 2 * t->cap_renames : 16;
		struct rename *n = pk__reallocarray(t->renames, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->renames = n;
		t->cap_renames = cap;
	}
	t->renames[t->nr_renames++] = (struct rename){ th->comm, to };
	return 0;
}

static int comm_record(struct pk_threads *t, const struct pk_rec_comm *c)
{
	struct thread *th = get(t, c->pid, c->tid);
	const char *comm = th ? intern(t, c->comm) : NULL;

	if (!comm || (!th->named && th->shown && th->comm != comm && keep_rename(t, th, comm) < 0))
		return pk__error_nomem("a thread's name");
	th->comm = comm;
	th->pid = c->pid;
	th->named = true;
	return 0;
}

int pk_threads_process(struct pk_threads *t, const struct pk_record *r)
{
	struct thread *th;

	switch (r->type) {
	case PERF_RECORD_COMM:
		return comm_record(t, &r->comm);
	case PERF_RECORD_FORK:
		return fork_record(t, &r->task);
	case PERF_RECORD_EXIT:
		if ((th = find(t, r->task.tid)))
			th->exited = true;
		return 0;
	default:
		return 0;
	}
}

const char *pk_threads_comm(struct pk_threads *t, uint32_t pid, uint32_t tid)
{
	struct thread *th = get(t, pid, tid);

	if (!th) {
		pk__error_nomem("a thread in the thread table");
		return NULL;
	}
	th->shown |= !th->named;
	return th->comm;
}

bool pk_threads_rename(const struct pk_threads *t, size_t idx, const char **from, const char **to)
{
	if (idx >= t->nr_renames)
		return false;
	*from = t->renames[idx].from;
	*to = t->renames[idx].to;
	return true;
}

int64_t pk_threads_pid(const struct pk_threads *t, uint32_t tid)
{
	struct thread *th = find(t, tid);

	return th ? (int64_t)th->pid : -ENOENT;
}

bool pk_threads_exited(const struct pk_threads *t, uint32_t tid)
{
	struct thread *th = find(t, tid);

	return th && th->exited;
}
