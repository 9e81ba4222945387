/* SPDX-License-Identifier: MIT */
/*
 * reader-names.c - names for the events a file does not name (cut before
 * its EVENT_DESC section) or a pipe-mode stream names in no EVENT_UPDATE:
 * the reader gives each event perf's name for its attr (pk_attr_name) when
 * it is read; this names the tracepoints among them from the file's own
 * tracing data, "system:name" by the attr's config, as perf's
 * evsel__prepare_tracepoint_event does: at open for a file, when the
 * HEADER_TRACING_DATA record arrives for a stream (reader-pipe.c).  Tracing
 * data that does not parse leaves perf's "unknown tracepoint".
 */
#include "reader-int.h"

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
