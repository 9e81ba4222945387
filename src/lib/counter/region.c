/* SPDX-License-Identifier: MIT */
/*
 * region.c - pk_region: the events of an event string counting the calling
 * thread, as groups started and stopped with one ioctl each and read from
 * each counter's mmap page (selfmon.c) when the page can give every count
 * of a group, else with one read(2) per group, straight into the caller's
 * counts when they are this version's struct.  The evlist does the
 * opening; this file adds the grouping, the pages and the read path, with
 * every choice a read could make per call (which groups may use the pages,
 * the layout of what read(2) returns, whether one group is all there is)
 * made once at open.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* One group as read: decided at open, so that a read only follows it. */
struct group {
	size_t lead, nr;		/* its first event and how many it has */
	int fd;				/* the leader's, or -1: pk_evlist_read_group */
	bool pages;			/* it may be on hardware registers: try the pages */
	struct pk__count_layout lay;	/* what read(2) on fd returns */
	bool plain;			/* fd reads nr, times, { value, id }: read_direct */
};

struct pk_region {
	struct pk_events *ev;
	struct pk_evlist *l;
	size_t nr;
	struct group *groups;
	size_t nr_groups;
	uint64_t *id;		/* nr: PERF_EVENT_IOC_ID, for reads from the page */
	void **page;		/* nr: the mapped first page, or NULL (read(2) only) */
	size_t page_len;
	pthread_t owner;	/* the thread counted: only it may use the pages */
	bool one_direct;	/* one plain group read with read(2): the fast path */
	bool leader_only;	/* start/stop switch each leader alone: plan_groups */
	uint64_t nr_fast;
};

/* "a,b" -> "{a,b}": a region's events are one group unless the string
 * says otherwise. */
static int group_spec(const char *events, char **out)
{
	if (strchr(events, '{')) {
		*out = pk__strdup(events);
		return *out ? 0 : pk__error_nomem("the region's event string");
	}
	if (pk__asprintf(out, "{%s}", events) < 0)
		return pk__error_nomem("the region's event string");
	return 0;
}

/* Whether an event as opened can ever be on a hardware register: the
 * kernel's software, tracepoint and breakpoint PMUs have no event index,
 * so their pages always say index 0 and a page read could only fail. */
static bool on_registers(const struct pk_evlist *l, size_t i)
{
	const struct perf_event_attr *a = pk_evlist_attr(l, i);

	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
	       a->type != PERF_TYPE_BREAKPOINT;
}

/* Map the first page of each member of a group that may read from the
 * pages; a page that does not map leaves the group to read(2). */
static void map_pages(struct pk_region *r, struct group *g)
{
	for (size_t i = g->lead; i < g->lead + g->nr; i++) {
		int fd = pk__evlist_fd(r->l, i, 0, 0), err;

		r->page[i] = fd < 0 ? NULL : pk__sys_mmap(fd, r->page_len, PROT_READ, 0, &err);
		g->pages = g->pages && r->page[i];
	}
	pk__error_clear();	/* the fallback is silent */
}

/* The groups: each leader's fd and layout, and whether to try the pages. */
static void plan_groups(struct pk_region *r, const struct pk_region_opts *o)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct group *g;

		if (pk_events_desc(r->ev, i)->leader != i) {
			r->groups[r->nr_groups - 1].nr++;
			continue;
		}
		g = &r->groups[r->nr_groups++];
		g->lead = i;
		g->nr = 1;
		g->fd = pk__evlist_fd(r->l, i, 0, 0);
		g->pages = !o->inherit && !o->no_fast_read;
	}
	for (size_t k = 0; k < r->nr_groups; k++) {
		struct group *g = &r->groups[k];

		for (size_t i = g->lead; i < g->lead + g->nr; i++)
			g->pages = g->pages && pk__evlist_fd(r->l, i, 0, 0) >= 0 && on_registers(r->l, i);
		if (g->pages)
			map_pages(r, g);
		/* A tool event leads a group of its own and has no fd to read. */
		pk__count_layout_init(&g->lay, pk__evlist_read_format(r->l, g->lead), g->nr);
		if (!(g->lay.read_format & PERF_FORMAT_GROUP))
			g->fd = -1;
		g->plain = g->fd >= 0 && g->lay.read_format == (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
						  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID);
	}
	r->one_direct = r->nr_groups == 1 && r->groups[0].plain && !r->groups[0].pages;
	/*
	 * Members are opened enabled and follow their leader: while the
	 * leader is off the kernel schedules none of them, so they count
	 * nothing, and a group read(2) gives the leader's times for all.
	 * So start and stop can switch the leader alone, one event per group
	 * instead of every member (PERF_IOC_FLAG_GROUP), which costs the
	 * kernel a context reschedule per member.  Not when a group reads
	 * from the pages (each page has its member's own times, and a
	 * member left enabled would show time enabled but not running while
	 * its leader is off) nor with inherit (kept as it was).
	 */
	r->leader_only = !o->inherit;
	for (size_t k = 0; k < r->nr_groups; k++)
		r->leader_only = r->leader_only && r->groups[k].plain && !r->groups[k].pages;
}

static int prepare(struct pk_region *r, const struct pk_region_opts *o)
{
	r->nr = pk_events_nr(r->ev);
	r->groups = pk__calloc(r->nr, sizeof(*r->groups));
	r->id = pk__calloc(r->nr, sizeof(*r->id));
	r->page = pk__calloc(r->nr, sizeof(*r->page));
	if (!r->groups || !r->id || !r->page)
		return pk__error_nomem("the region's %zu counters", r->nr);
	for (size_t i = 0; i < r->nr; i++) {
		int err = pk_evlist_id(r->l, i, 0, 0, &r->id[i]);

		if (err < 0)
			return err;
	}
	r->page_len = pk__sys_page_size();
	plan_groups(r, o);
	return 0;
}

int pk_region_open(const char *events, const struct pk_region_opts *opts, struct pk_region **out)
{
	struct pk_region_opts o = { .size = sizeof(o) };
	struct pk_target t = { .size = sizeof(t), .fallbacks = true, .group_read = true };
	struct pk_region *r;
	char *spec = NULL;
	int err;

	pk__error_clear();
	if (!events || !out)
		return pk__error(-EINVAL, "pk_region_open", "%s", !events ? "no event string" : "out is NULL");
	if (opts)
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	t.inherit = o.inherit;
	if (!(r = pk__calloc(1, sizeof(*r))))
		return pk__error_nomem("the region");
	r->owner = pthread_self();
	err = group_spec(events, &spec);
	if (!err && (err = pk_events_parse(spec, NULL, &r->ev)) > 0)
		err = 0;
	if (!err && !(err = pk_evlist_new(r->ev, &t, &r->l)) && !(err = pk_evlist_open(r->l)))
		err = prepare(r, &o);
	free(spec);
	if (err < 0) {
		pk_region_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void pk_region_free(struct pk_region *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->page && i < r->nr; i++)
		if (r->page[i])
			pk__sys_munmap(r->page[i], r->page_len);
	pk_evlist_free(r->l);
	pk_events_free(r->ev);
	free(r->page);
	free(r->id);
	free(r->groups);
	free(r);
}

size_t pk_region_nr(const struct pk_region *r)
{
	return r->nr;
}

const char *pk_region_name(const struct pk_region *r, size_t i)
{
	return i < r->nr ? pk_events_desc(r->ev, i)->name : NULL;
}

/* `request` on each group's leader alone (plan_groups says when that
 * stops or starts the whole group). */
static int leaders_ioctl(struct pk_region *r, unsigned long request)
{
	for (size_t k = 0; k < r->nr_groups; k++) {
		int err = pk__sys_ioctl(r->groups[k].fd, request, 0);

		if (err < 0)
			return err;
	}
	return 0;
}

int pk_region_start(struct pk_region *r)
{
	return r->leader_only ? leaders_ioctl(r, PERF_EVENT_IOC_ENABLE) : pk_evlist_enable(r->l);
}

int pk_region_stop(struct pk_region *r)
{
	return r->leader_only ? leaders_ioctl(r, PERF_EVENT_IOC_DISABLE) : pk_evlist_disable(r->l);
}

int pk_region_reset(struct pk_region *r)
{
	return pk_evlist_reset(r->l);
}

uint64_t pk_region_fast_reads(const struct pk_region *r)
{
	return r->nr_fast;
}

struct pk_evlist *pk_region_evlist(struct pk_region *r)
{
	return r->l;
}

/* Group g from the pages: false unless every member's page gave its count
 * (then the group is read with read(2)). */
static bool read_pages(struct pk_region *r, const struct group *g, struct pk_count *out, size_t max)
{
	struct pk__page_reading pr[64];

	if (g->nr > 64 || !pthread_equal(r->owner, pthread_self()))
		return false;
	for (size_t k = 0; k < g->nr; k++)
		if (pk__page_read(r->page[g->lead + k], &pr[k]) < 0)
			return false;
	for (size_t k = 0; k < g->nr && g->lead + k < max; k++) {
		struct pk_count c = { .size = sizeof(c), .value = pr[k].value,
				      .enabled = pr[k].enabled, .running = pr[k].running,
				      .id = r->id[g->lead + k] };
		struct pk_count *o = pk__count_at(out, g->lead + k);

		c.value = pk_count_scaled(&c);
		o->size = out->size;
		pk__count_put(o, &c);
	}
	return true;
}

/* The rare outcomes of a direct read (got holds the n bytes it gave):
 * the kernel's error, a pinned group in error state, or bytes that are not
 * the layout, which pk__count_decode_scaled decodes or names.  Cold: kept
 * out of the hot path, with its copy of the bytes. */
static __attribute__((cold, noinline)) int read_odd(struct pk_region *r, const struct group *g,
						    const void *got, ssize_t n,
						    struct pk_count *o, size_t max)
{
	uint64_t *copy;
	int ret;

	if (n <= 0)
		return n == 0 ? pk__error(-EIO, pk_events_desc(r->ev, g->lead)->name, "%s",
					  "the group is in error state") : (int)n;
	if (!(copy = pk__malloc((size_t)n)))
		return pk__error_nomem("a group read of %zd bytes", n);
	memcpy(copy, got, (size_t)n);
	ret = pk__count_decode_scaled(&g->lay, copy, (size_t)n, o, max - g->lead);
	free(copy);
	return ret;
}

/* Multiplexed counts (the rare case): each value scaled. */
static __attribute__((cold, noinline)) void scale(struct pk_count *o, size_t nr)
{
	for (size_t k = 0; k < nr; k++)
		o[k].value = pk_count_scaled(&o[k]);
}

/*
 * Group g, whose layout is plain (nr, enabled, running, then { value, id }
 * per counter), read straight into the caller's counts: out holds the
 * whole group and is an array of this version's struct.  read(2) fills
 * the tail of the group's part of out (3 + 2 x nr words of the 6 x nr),
 * then each count is made in place, first to last: count k is written
 * below the words of count k + 1 (its last word is 6k + 5, theirs start
 * at 4nr + 2k + 2), and its own words are loaded before it is written.
 * No buffer, no copy.
 */
_Static_assert(sizeof(struct pk_count) == 6 * sizeof(uint64_t), "a count is 6 words");

static inline __attribute__((always_inline)) int read_direct(struct pk_region *r,
							    const struct group *g,
							    struct pk_count *o)
{
	uint64_t *buf = (uint64_t *)(o + g->nr) - (3 + 2 * g->nr);
	ssize_t n = pk__sys_read(g->fd, buf, (3 + 2 * g->nr) * sizeof(uint64_t));
	/* Taken again after the call, not kept across it: fewer registers to
	 * save, and the hot path is a handful of instructions shorter. */
	size_t nr = g->nr;
	uint64_t enabled, running;

	buf = (uint64_t *)(o + nr) - (3 + 2 * nr);
	if ((size_t)n != (3 + 2 * nr) * sizeof(uint64_t) || buf[0] != nr)
		return read_odd(r, g, buf, n, o, g->lead + nr);
	enabled = buf[1];
	running = buf[2];
	for (size_t k = 0; k < nr; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		o[k] = (struct pk_count){ .size = sizeof(*o), .value = value, .enabled = enabled,
					  .running = running, .id = id };
	}
	if (running != enabled)
		scale(o, nr);
	return (int)nr;
}

/* Group g with one read(2) of its leader into a buffer, decoded with the
 * layout made at open, for a caller whose out is another version's struct
 * or too short for the group; a group without a leader fd (a tool event,
 * one not open) goes through pk_evlist_read_group, which reads it or names
 * why not. */
static __attribute__((noinline)) int read_group(struct pk_region *r, const struct group *g,
						struct pk_count *out, size_t max)
{
	uint64_t buf[3 + 2 * 64];
	struct pk_count *o = pk__count_at(out, g->lead);
	ssize_t n;

	o->size = out->size;
	if (g->fd < 0)
		return pk_evlist_read_group(r->l, g->lead, 0, 0, o, max - g->lead);
	n = pk__sys_read(g->fd, buf, sizeof(buf));
	if (n <= 0)
		return read_odd(r, g, buf, n, o, max);
	return pk__count_decode_scaled(&g->lay, buf, (size_t)n, o, max - g->lead);
}

/* Every group in turn, each from its pages, straight into out or through
 * a buffer, whichever its plan and the caller's out allow. */
static __attribute__((noinline)) int read_groups(struct pk_region *r, struct pk_count *out, size_t max)
{
	bool direct;

	if (max && (!out || out->size < PK_COUNT_SIZE_VER0))
		return pk__count_check(out, "pk_region_read");
	direct = max && out->size == sizeof(*out);
	for (size_t k = 0; k < r->nr_groups && r->groups[k].lead < max; k++) {
		const struct group *g = &r->groups[k];
		int got;

		if (g->pages && read_pages(r, g, out, max)) {
			r->nr_fast++;
			continue;
		}
		if (direct && g->plain && g->lead + g->nr <= max)
			got = read_direct(r, g, out + g->lead);
		else
			got = read_group(r, g, out, max);
		if (got < 0)
			return got;
	}
	return (int)r->nr;
}

/* The error record is written only when the read fails: a successful read
 * leaves it as it was (pk_last_error describes the last failure).  The
 * common case, one group that reads with read(2) (decided at open) into
 * an out of this version's struct with room for it, goes straight there. */
int pk_region_read(struct pk_region *r, struct pk_count *out, size_t max)
{
	if (r->one_direct && max >= r->nr && out && out->size == sizeof(*out))
		return read_direct(r, r->groups, out);
	return read_groups(r, out, max);
}
