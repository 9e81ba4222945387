/* SPDX-License-Identifier: MIT */
/*
 * reader-names.c - names for the events a file does not name (cut before
 * its EVENT_DESC section) or a pipe-mode stream names in no EVENT_UPDATE:
 * the reader gives each event perf's name for its attr (pk_attr_name) when
 * it is read; this names the tracepoints among them from the file's own
 * tracing data, "system:name" by the attr's config, as perf's
 * evsel__prepare_tracepoint_event does: at open for a file, when the
 * HEADER_TRACING_DATA record arrives for a stream (reader-pipe.c).  Tracing
 * data that does not parse leaves perf's "unknown tracepoint".  And the
 * names EVENT_UPDATE records give, in a stream or a file's data: each one
 * replaces the event's name, EVENT_DESC's included, as perf 6.1's
 * perf_event__process_event_update does, so the last one wins.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <stdlib.h>
#include <string.h>

#define EVENT_UPDATE_NAME 2	/* perf's PERF_EVENT_UPDATE__NAME */

/* The event whose ids hold `id`, or NULL. */
static struct rd_event *event_of_id(struct pk_data_reader *r, uint64_t id)
{
	for (size_t i = 0; i < r->nr_events; i++)
		for (size_t j = 0; j < r->ev[i]->nr_ids; j++)
			if (r->ev[i]->ids[j] == id)
				return r->ev[i];
	return NULL;
}

/* EVENT_UPDATE: u64 type, u64 id, then for a name the NUL-terminated name.
 * The name it replaces stays allocated until the reader is freed: a caller
 * may hold it (pk_data_reader_name's pointer lives as long as the reader). */
int pk__reader_event_update(struct pk_data_reader *r, const struct perf_event_header *rec)
{
	const unsigned char *p = (const unsigned char *)(rec + 1);
	size_t len = rec->size - sizeof(*rec);
	struct rd_event *e;
	uint64_t type, id;
	char *name, **old;

	if (len <= 16)
		return 0;
	memcpy(&type, p, 8);
	memcpy(&id, p + 8, 8);
	if (type != EVENT_UPDATE_NAME || !memchr(p + 16, 0, len - 16) || !(e = event_of_id(r, id)))
		return 0;
	if (e->name && !strcmp(e->name, (const char *)p + 16))
		return 0;
	name = pk__strdup((const char *)p + 16);
	if (!name)
		return pk__error_nomem("an event name");
	if (e->name) {
		old = pk__realloc(e->old_names, (e->nr_old_names + 1) * sizeof(*old));
		if (!old) {
			free(name);
			return pk__error_nomem("an event's earlier name");
		}
		e->old_names = old;
		old[e->nr_old_names++] = e->name;
	}
	e->name = name;
	return 0;
}

int pk__reader_name_tracepoints(struct pk_data_reader *r)
{
	struct pk_tracing *t = NULL;
	const void *td;
	size_t len;
	bool want = false;

	for (size_t i = 0; i < r->nr_events; i++) {
		const struct perf_event_attr *a = (const struct perf_event_attr *)r->ev[i]->attr;

		want = want || (a->type == PERF_TYPE_TRACEPOINT && !r->ev[i]->name);
	}
	if (!want || pk_data_reader_feature(r, PK_DATA_FEAT_TRACING_DATA, &td, &len) < 0)
		return 0;
	if (pk_tracing_data_parse(td, len, &t) < 0)
		return 0;	/* the names stay perf's "unknown tracepoint" */
	for (size_t i = 0; i < r->nr_events; i++) {
		struct rd_event *e = r->ev[i];
		const struct perf_event_attr *a = (const struct perf_event_attr *)e->attr;

		if (a->type == PERF_TYPE_TRACEPOINT && !e->name &&
		    pk_tracing_event_id_name(t, a->config, e->attr_name, sizeof(e->attr_name)) < 0)
			pk_attr_name(a, e->attr_name, sizeof(e->attr_name));
	}
	pk_tracing_free(t);
	return 0;
}
