/* SPDX-License-Identifier: MIT */
/*
 * markers.c - named regions, like PAPI's and LIKWID's markers:
 * begin("parse") / end("parse") on any thread, each thread counting with
 * a region of its own opened at its first begin and left running, the
 * counts between a begin and its end summed per (name, thread) and
 * printed as a table.  Nesting is a per-thread stack; the shared tables
 * (threads, names, rows) are behind one mutex, taken once per call.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A begun region on a thread's stack; its start counts are in slot->starts. */
struct frame {
	const char *name;	/* interned: compared by strcmp, never freed before the markers */
	size_t name_idx;
};

/* One thread: its region, its stack of begun regions, a buffer for reads. */
struct slot {
	pid_t tid;
	size_t idx;		/* in m->slots */
	struct pk_region *r;
	struct frame *stack;
	uint64_t *starts;	/* depth x (1 + nr): time enabled, then each scaled value */
	size_t depth, cap;
	struct pk_count *now;	/* nr */
};

struct row {
	size_t name_idx, slot_idx;
	uint64_t calls, time_ns;
	uint64_t sum[];		/* nr */
};

struct pk_markers {
	char *events;
	size_t nr;
	char **event_names;
	pthread_mutex_t mu;	/* guards slots, names and rows */
	/* Each thread's slot, found without a syscall: a key of this object's
	 * own (a thread that reuses a dead thread's pthread_t starts empty). */
	pthread_key_t key;
	bool has_key;
	struct slot **slots;
	size_t nr_slots;
	char **names;
	size_t nr_names;
	struct row **rows;	/* ordered by (name_idx, slot_idx) */
	size_t nr_rows;
};

int pk_markers_new(const char *events, struct pk_markers **out)
{
	struct pk_markers *m;
	struct pk_events *ev = NULL;
	int err;

	pk__error_clear();
	if (!events || !out)
		return pk__error(-EINVAL, "pk_markers_new", "%s", !events ? "no event string" : "out is NULL");
	if ((err = pk_events_parse(events, NULL, &ev)) < 0)
		return err;
	if (!(m = pk__calloc(1, sizeof(*m)))) {
		pk_events_free(ev);
		return pk__error_nomem("the markers");
	}
	pthread_mutex_init(&m->mu, NULL);
	if ((err = -pthread_key_create(&m->key, NULL)) < 0) {
		pk_events_free(ev);
		pk_markers_free(m);
		return pk__error(err, "pk_markers_new", "%s", "no thread-specific key left (PTHREAD_KEYS_MAX)");
	}
	m->has_key = true;
	m->nr = pk_events_nr(ev);
	m->events = pk__strdup(events);
	m->event_names = pk__calloc(m->nr, sizeof(*m->event_names));
	for (size_t i = 0; m->event_names && i < m->nr; i++)
		if (!(m->event_names[i] = pk__strdup(pk_events_desc(ev, i)->name)))
			break;
	pk_events_free(ev);
	if (!m->events || !m->event_names || (m->nr && !m->event_names[m->nr - 1])) {
		pk_markers_free(m);
		return pk__error_nomem("the markers' event names");
	}
	*out = m;
	return 0;
}

static void slot_free(struct slot *s)
{
	if (!s)
		return;
	pk_region_free(s->r);
	free(s->stack);
	free(s->starts);
	free(s->now);
	free(s);
}

void pk_markers_free(struct pk_markers *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_slots; i++)
		slot_free(m->slots[i]);
	for (size_t i = 0; i < m->nr_names; i++)
		free(m->names[i]);
	for (size_t i = 0; i < m->nr_rows; i++)
		free(m->rows[i]);
	for (size_t i = 0; m->event_names && i < m->nr; i++)
		free(m->event_names[i]);
	free(m->event_names);
	free(m->slots);
	free(m->names);
	free(m->rows);
	free(m->events);
	if (m->has_key)
		pthread_key_delete(m->key);
	pthread_mutex_destroy(&m->mu);
	free(m);
}

/* The calling thread's slot, made (and its counters opened and started) on
 * its first call.  Under m->mu. */
static int find_slot(struct pk_markers *m, struct slot **out)
{
	struct slot *s = pthread_getspecific(m->key), **grown;
	int err;

	if ((*out = s))
		return 0;
	if (!(s = pk__calloc(1, sizeof(*s))) || !(s->now = pk__calloc(m->nr, sizeof(*s->now)))) {
		slot_free(s);
		return pk__error_nomem("a thread's markers");
	}
	s->tid = pk__sys_gettid();
	s->now[0].size = sizeof(s->now[0]);
	if ((err = pk_region_open(m->events, NULL, &s->r)) < 0 || (err = pk_region_start(s->r)) < 0) {
		slot_free(s);
		return err;
	}
	if (!(grown = pk__reallocarray(m->slots, m->nr_slots + 1, sizeof(*grown))) ||
	    (m->slots = grown, pthread_setspecific(m->key, s))) {
		slot_free(s);
		return pk__error_nomem("the markers' thread table");
	}
	s->idx = m->nr_slots;
	m->slots[m->nr_slots++] = s;
	*out = s;
	return 0;
}

/* The index of `name` among the names begun so far, added if new.  Under m->mu. */
static int intern(struct pk_markers *m, const char *name, size_t *idx)
{
	char **grown, *copy;

	for (size_t i = 0; i < m->nr_names; i++)
		if (!strcmp(m->names[i], name)) {
			*idx = i;
			return 0;
		}
	if (!(copy = pk__strdup(name)))
		return pk__error_nomem("a marker name");
	if (!(grown = pk__reallocarray(m->names, m->nr_names + 1, sizeof(*grown)))) {
		free(copy);
		return pk__error_nomem("the markers' name table");
	}
	m->names = grown;
	m->names[m->nr_names] = copy;
	*idx = m->nr_names++;
	return 0;
}

static int push(struct pk_markers *m, struct slot *s, size_t name_idx)
{
	if (s->depth == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct frame *st = pk__reallocarray(s->stack, cap, sizeof(*st));
		uint64_t *starts;

		if (!st)
			return pk__error_nomem("the markers' stack of %zu regions", cap);
		s->stack = st;
		if (!(starts = pk__reallocarray(s->starts, cap * (1 + m->nr), sizeof(*starts))))
			return pk__error_nomem("the markers' stack of %zu regions", cap);
		s->starts = starts;
		s->cap = cap;
	}
	s->stack[s->depth].name = m->names[name_idx];
	s->stack[s->depth].name_idx = name_idx;
	return (int)s->depth++;
}

/* Read the thread's counters into s->now. */
static int read_now(struct pk_markers *m, struct slot *s)
{
	int n = pk_region_read(s->r, s->now, m->nr);

	return n < 0 ? n : 0;
}

int pk_markers_begin(struct pk_markers *m, const char *name)
{
	size_t ni = 0;
	struct slot *s = NULL;
	uint64_t *start;
	int err, d;

	pk__error_clear();
	if (!name)
		return pk__error(-EINVAL, "pk_markers_begin", "%s", "the region name is NULL");
	pthread_mutex_lock(&m->mu);
	err = find_slot(m, &s);
	if (!err)
		err = intern(m, name, &ni);
	pthread_mutex_unlock(&m->mu);
	if (err < 0)
		return err;
	if ((d = push(m, s, ni)) < 0)
		return d;
	/* Read last, so the bookkeeping above is not counted. */
	if ((err = read_now(m, s)) < 0) {
		s->depth--;
		return err;
	}
	start = s->starts + (size_t)d * (1 + m->nr);
	start[0] = s->now[0].enabled;
	for (size_t i = 0; i < m->nr; i++)
		start[1 + i] = s->now[i].value;
	return 0;
}

/* The row of (name_idx, slot_idx), inserted in order if new.  Under m->mu. */
static struct row *find_row(struct pk_markers *m, size_t name_idx, size_t slot_idx)
{
	struct row **grown, *r;
	size_t pos = 0;

	for (; pos < m->nr_rows; pos++) {
		r = m->rows[pos];
		if (r->name_idx == name_idx && r->slot_idx == slot_idx)
			return r;
		if (r->name_idx > name_idx || (r->name_idx == name_idx && r->slot_idx > slot_idx))
			break;
	}
	if (!(r = pk__calloc(1, sizeof(*r) + m->nr * sizeof(r->sum[0]))))
		return NULL;
	if (!(grown = pk__reallocarray(m->rows, m->nr_rows + 1, sizeof(*grown)))) {
		free(r);
		return NULL;
	}
	m->rows = grown;
	memmove(&m->rows[pos + 1], &m->rows[pos], (m->nr_rows - pos) * sizeof(*grown));
	r->name_idx = name_idx;
	r->slot_idx = slot_idx;
	m->rows[pos] = r;
	m->nr_rows++;
	return r;
}

int pk_markers_end(struct pk_markers *m, const char *name)
{
	struct slot *s = pthread_getspecific(m->key);	/* only this thread writes it */
	const uint64_t *start;
	struct row *r;
	int err;

	pk__error_clear();
	if (!name || !s || !s->depth || strcmp(s->stack[s->depth - 1].name, name))
		return pk__error(-EINVAL, "pk_markers_end", "end(\"%s\") but the innermost region "
				 "this thread has begun is %s%s%s", name ? name : "(null)",
				 s && s->depth ? "\"" : "", s && s->depth ?
				 s->stack[s->depth - 1].name : "none", s && s->depth ? "\"" : "");
	if ((err = read_now(m, s)) < 0)
		return err;
	start = s->starts + (s->depth - 1) * (1 + m->nr);
	pthread_mutex_lock(&m->mu);
	r = find_row(m, s->stack[s->depth - 1].name_idx, s->idx);
	if (r) {
		r->calls++;
		r->time_ns += s->now[0].enabled - start[0];
		for (size_t i = 0; i < m->nr; i++)
			r->sum[i] += s->now[i].value - start[1 + i];
	}
	pthread_mutex_unlock(&m->mu);
	if (!r)
		return pk__error_nomem("a row of the markers' table");
	s->depth--;
	return 0;
}

size_t pk_markers_nr(const struct pk_markers *m)
{
	return m->nr_rows;
}

size_t pk_markers_nr_events(const struct pk_markers *m)
{
	return m->nr;
}

const char *pk_markers_event(const struct pk_markers *m, size_t i)
{
	return i < m->nr ? m->event_names[i] : NULL;
}

int pk_markers_get(const struct pk_markers *m, size_t idx, struct pk_marker_row *row,
		   uint64_t *values, size_t max)
{
	struct pk_markers *mm = (struct pk_markers *)m;	/* the lock, not the contents */
	const struct row *r;

	pk__error_clear();
	if (!row || row->size < sizeof(*row))
		return pk__error(-EINVAL, "pk_markers_get", "%s", "struct pk_marker_row.size is too small");
	pthread_mutex_lock(&mm->mu);
	if (idx >= m->nr_rows) {
		pthread_mutex_unlock(&mm->mu);
		return pk__error(-ERANGE, "pk_markers_get", "no row %zu: there are %zu", idx, m->nr_rows);
	}
	r = m->rows[idx];
	row->name = m->names[r->name_idx];
	row->tid = m->slots[r->slot_idx]->tid;
	row->calls = r->calls;
	row->time_ns = r->time_ns;
	for (size_t i = 0; values && i < max && i < m->nr; i++)
		values[i] = r->sum[i];
	pthread_mutex_unlock(&mm->mu);
	return 0;
}

int pk_markers_print(const struct pk_markers *m, FILE *f)
{
	int bad = fprintf(f, "%-24s %8s %10s %14s", "region", "tid", "calls", "time ms") < 0;

	for (size_t i = 0; i < m->nr; i++)
		bad |= fprintf(f, " %16s", m->event_names[i]) < 0;
	bad |= fputc('\n', f) == EOF;
	for (size_t k = 0; k < pk_markers_nr(m); k++) {
		struct pk_marker_row row = { .size = sizeof(row) };
		uint64_t v[64] = { 0 };

		if (pk_markers_get(m, k, &row, v, 64) < 0)
			break;
		bad |= fprintf(f, "%-24s %8d %10llu %14.3f", row.name, (int)row.tid,
			       (unsigned long long)row.calls, (double)row.time_ns / 1e6) < 0;
		for (size_t i = 0; i < m->nr; i++)
			bad |= fprintf(f, " %16llu", (unsigned long long)(i < 64 ? v[i] : 0)) < 0;
		bad |= fputc('\n', f) == EOF;
	}
	if (bad)
		return pk__error(-EIO, "pk_markers_print", "%s", "writing the table failed");
	return 0;
}
