/* SPDX-License-Identifier: MIT */
/*
 * region.c - pk_region: the events of an event string counting the calling
 * thread, as groups started and stopped with one ioctl each and read from
 * each counter's mmap page (selfmon.c) when the page can give every count
 * of a group, else with one read(2) per group.  The evlist does the
 * opening; this file adds the grouping, the pages and the read path.
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

struct pk_region {
	struct pk_events *ev;
	struct pk_evlist *l;
	size_t nr;
	size_t *leader;		/* nr: the index of each event's group leader */
	uint64_t *id;		/* nr: PERF_EVENT_IOC_ID, for reads from the page */
	void **page;		/* nr: the mapped first page, or NULL (read(2) only) */
	size_t page_len;
	pthread_t owner;	/* the thread counted: only it may use the pages */
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

/* Map each counter's first page; a page that does not map is left to read(2). */
static void map_pages(struct pk_region *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		int fd = pk__evlist_fd(r->l, i, 0, 0), err;

		r->page[i] = fd < 0 ? NULL : pk__sys_mmap(fd, r->page_len, PROT_READ, 0, &err);
	}
	pk__error_clear();	/* the fallback is silent */
}

static int prepare(struct pk_region *r, const struct pk_region_opts *o)
{
	r->nr = pk_events_nr(r->ev);
	r->leader = pk__calloc(r->nr, sizeof(*r->leader));
	r->id = pk__calloc(r->nr, sizeof(*r->id));
	r->page = pk__calloc(r->nr, sizeof(*r->page));
	if (!r->leader || !r->id || !r->page)
		return pk__error_nomem("the region's %zu counters", r->nr);
	for (size_t i = 0; i < r->nr; i++) {
		int err = pk_evlist_id(r->l, i, 0, 0, &r->id[i]);

		if (err < 0)
			return err;
		r->leader[i] = pk_events_desc(r->ev, i)->leader;
	}
	r->page_len = (size_t)sysconf(_SC_PAGESIZE);
	if (!o->inherit && !o->no_fast_read)
		map_pages(r);
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
	free(r->leader);
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

int pk_region_start(struct pk_region *r)
{
	return pk_evlist_enable(r->l);
}

int pk_region_stop(struct pk_region *r)
{
	return pk_evlist_disable(r->l);
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

/* The group that `lead` leads, from the pages: false unless every member's
 * page gave its count (then the group is read with read(2)). */
static bool read_pages(struct pk_region *r, size_t lead, struct pk_count *out, size_t max)
{
	struct pk__page_reading pr[64];
	size_t n = 0;

	if (!pthread_equal(r->owner, pthread_self()))
		return false;
	for (size_t i = lead; i < r->nr && r->leader[i] == lead; i++, n++)
		if (n == 64 || !r->page[i] || pk__page_read(r->page[i], &pr[n]) < 0)
			return false;
	for (size_t k = 0; k < n; k++) {
		struct pk_count c = { .size = sizeof(c), .value = pr[k].value,
				      .enabled = pr[k].enabled, .running = pr[k].running,
				      .id = r->id[lead + k] };

		c.value = pk_count_scaled(&c);
		if (lead + k < max) {
			struct pk_count *o = pk__count_at(out, lead + k);

			o->size = out->size;
			pk__count_put(o, &c);
		}
	}
	return true;
}

int pk_region_read(struct pk_region *r, struct pk_count *out, size_t max)
{
	pk__error_clear();
	if (max && pk__count_check(out, "pk_region_read") < 0)
		return -EINVAL;
	for (size_t lead = 0; lead < r->nr && lead < max; lead++) {
		struct pk_count *o;
		int got;

		if (r->leader[lead] != lead)
			continue;
		if (read_pages(r, lead, out, max)) {
			r->nr_fast++;
			continue;
		}
		o = pk__count_at(out, lead);
		o->size = out->size;
		got = pk_evlist_read_group(r->l, lead, 0, 0, o, max - lead);
		if (got < 0)
			return got;
	}
	return (int)r->nr;
}
