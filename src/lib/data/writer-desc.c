/* SPDX-License-Identifier: MIT */
/*
 * writer-desc.c - what a perf.data writer is told about the recording
 * before and while it writes, whatever the output (a file or a pipe): the
 * events with their attrs, names and ids, the groups, the build-ids of the
 * DSOs samples hit, the clock, the command line and the sample time span.
 * writer.c and writer-pipe.c lay these out; features.c encodes them.
 */
#include "data.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pk_data_writer_add_event(struct pk_data_writer *w, const struct perf_event_attr *attr, const char *name,
		      const uint64_t *ids, size_t nr_ids)
{
	struct pk__data_event *n, *e;

	if (w->started)
		return pk__error(-EINVAL, "perf.data", "%s", "events must be added before the first records");
	n = pk__realloc(w->ev, (w->nr_events + 1) * sizeof(*n));
	if (!n)
		return pk__error_nomem("the writer's event table");
	w->ev = n;
	e = &w->ev[w->nr_events];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, sizeof(e->attr));
	/* perf 6.1 reads 128-byte attrs; config3 (a 6.3 field) does not fit. */
	e->attr.size = PK__ATTR_SIZE;
	e->name = pk__strdup(name ? name : "");
	e->ids = pk__malloc((nr_ids ? nr_ids : 1) * sizeof(*ids));
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return pk__error_nomem("an event's name and ids");
	}
	memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	e->nr_ids = nr_ids;
	w->nr_events++;
	return 0;
}

int pk_data_writer_add_group(struct pk_data_writer *w, size_t leader, size_t nr_members)
{
	struct pk__data_group *n;

	/* Not leader + nr_members: SIZE_MAX and 2 would wrap to 1 and pass. */
	if (!nr_members || leader >= w->nr_events || nr_members > w->nr_events - leader)
		return pk__error(-EINVAL, "perf.data", "group of %zu events at %zu: only %zu events were added",
				 nr_members, leader, w->nr_events);
	n = pk__realloc(w->groups, (w->nr_groups + 1) * sizeof(*n));
	if (!n)
		return pk__error_nomem("the writer's group table");
	w->groups = n;
	w->groups[w->nr_groups++] = (struct pk__data_group){ leader, nr_members };
	return 0;
}

int pk_data_writer_add_build_id(struct pk_data_writer *w, const char *name, const uint8_t *id, size_t size,
			 bool kernel)
{
	struct pk__data_build_id *n;
	char *copy;

	if (!size || size > 20 || strlen(name) >= 4096)
		return pk__error(-EINVAL, "perf.data", "build-id of %zu bytes for \"%.64s\": it takes 1 to 20 "
				 "bytes and a name shorter than 4096", size, name);
	if (!(copy = pk__strdup(name)))
		return pk__error_nomem("a build-id's name");
	n = pk__realloc(w->build_ids, (w->nr_build_ids + 1) * sizeof(*n));
	if (!n) {
		free(copy);
		return pk__error_nomem("the writer's build-id table");
	}
	w->build_ids = n;
	n = &w->build_ids[w->nr_build_ids++];
	*n = (struct pk__data_build_id){ .name = copy, .size = (uint8_t)size, .kernel = kernel };
	memcpy(n->id, id, size);
	return 0;
}

void pk_data_writer_set_clock(struct pk_data_writer *w, int clockid, uint64_t res_ns, uint64_t tod_ns,
		       uint64_t clock_ns)
{
	w->have_clock = true;
	w->clockid = clockid;
	w->clock_res_ns = res_ns;
	w->clock_tod_ns = tod_ns;
	w->clock_ns = clock_ns;
}

int pk_data_writer_set_cmdline(struct pk_data_writer *w, int argc, char *const argv[])
{
	char **c = pk__calloc((size_t)(argc > 0 ? argc : 1), sizeof(*c));

	if (!c)
		return pk__error_nomem("the command line");
	for (int i = 0; i < argc; i++)
		if (!(c[i] = pk__strdup(argv[i]))) {
			while (i--)
				free(c[i]);
			free(c);
			return pk__error_nomem("the command line");
		}
	for (size_t i = 0; i < w->nr_cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline = c;
	w->nr_cmdline = (size_t)argc;
	return 0;
}

void pk_data_writer_set_sample_time(struct pk_data_writer *w, uint64_t first, uint64_t last)
{
	w->first_sample = first;
	w->last_sample = last;
	w->have_sample_time = true;
}
