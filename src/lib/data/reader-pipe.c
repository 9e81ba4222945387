/* SPDX-License-Identifier: MIT */
/*
 * reader-pipe.c - pipe-mode streams (perf record -o -, "Pipe-mode data" in
 * perf's perf.data-file-format.txt): after a 16-byte header, what a file
 * keeps in its header comes as records in the stream.  HEADER_ATTR (an
 * attr and its ids), HEADER_FEATURE (one feature section, perf's
 * HEADER_LAST_FEATURE id as the end mark), HEADER_TRACING_DATA (its payload
 * follows the record, padded to 8 bytes), HEADER_BUILD_ID (one entry of a
 * file's BUILD_ID section) and the obsolete HEADER_EVENT_TYPE are taken
 * here, kept for the accessors, as a pipe cannot be read twice, and not
 * delivered.  The ones before the first other record are taken at open,
 * later ones as the records pass.  EVENT_UPDATE records, which files carry
 * in their data too, are delivered, and the last name they give an event
 * is its name (reader-names.c); a tracepoint none names takes its name
 * from the tracing data, as in a file (reader-names.c).  On request
 * (pk_data_reader_set_header_records, for perf's -D, which prints them)
 * the header records are delivered too, as taken: copies of those taken
 * at open kept for it, a later one copied before it is taken.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int bad(struct pk_data_reader *r, uint64_t at, const char *what, const char *why)
{
	return r->err = pk__error(-EINVAL, "read perf.data", "%s: the %s record at offset %llu %s", r->path, what,
				  (unsigned long long)at, why);
}

static void set_feature(struct pk_data_reader *r, unsigned int id, void *data, uint64_t len, uint64_t at)
{
	r->feat_data[id] = data;
	r->feat[id].offset = at;
	r->feat[id].size = len;
	r->flags[id / 64] |= 1ULL << (id % 64);
	r->flags_said[id / 64] |= 1ULL << (id % 64);
}

/* HEADER_ATTR: the attr, attr.size bytes as perf reads it, then the ids. */
static int take_attr(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	const unsigned char *p = (const unsigned char *)(rec + 1);
	size_t len = rec->size - sizeof(*rec), nr;
	uint64_t *ids = NULL;
	uint32_t asz;
	int err;

	if (len < PERF_ATTR_SIZE_VER0)
		return bad(r, at, "HEADER_ATTR", "is too short for an attr");
	memcpy(&asz, p + offsetof(struct perf_event_attr, size), sizeof(asz));
	if (asz < PERF_ATTR_SIZE_VER0 || asz > len)
		return bad(r, at, "HEADER_ATTR", "gives an attr size that is not between perf's first attr and the record's end");
	nr = (len - asz) / 8;
	if (nr) {
		ids = pk__malloc(nr * 8);
		if (!ids)
			return r->err = pk__error_nomem("%zu event ids", nr);
		memcpy(ids, p + asz, nr * 8);
	}
	err = pk__reader_add_event(r, p, asz, ids, nr);
	return err ? (r->err = err) : 1;
}

/* HEADER_FEATURE: u64 feature id, then the section's bytes.  A repeated
 * feature is left out: the first stays, so what the accessors gave stays
 * valid. */
static int take_feature(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	size_t len = rec->size - sizeof(*rec) - sizeof(uint64_t);
	uint64_t id;
	void *data;
	int err;

	if (rec->size < sizeof(*rec) + sizeof(id))
		return bad(r, at, "HEADER_FEATURE", "is too short for its feature id");
	memcpy(&id, rec + 1, sizeof(id));
	if (id >= PK_DATA_FEAT_LAST || pk_data_reader_has_feature(r, (unsigned int)id))
		return 1;	/* perf's end mark, an id perf 6.1 does not know, or a repeat */
	data = pk__malloc(len ? len : 1);
	if (!data)
		return r->err = pk__error_nomem("the %s feature (%zu bytes)", pk__reader_feature_name((unsigned int)id), len);
	memcpy(data, (const unsigned char *)(rec + 1) + sizeof(id), len);
	set_feature(r, (unsigned int)id, data, len, at + sizeof(*rec) + sizeof(id));
	err = pk__reader_decode_feature(r, (unsigned int)id);
	return err ? (r->err = err) : 1;
}

/* HEADER_TRACING_DATA: u32 size, u32 pad, then `size` bytes after the
 * record.  They are read as they come, so a size the stream does not hold
 * costs no more memory than the stream.  The events taken so far that no
 * name names, tracepoints among them, take "system:name" from it, as perf
 * names them when its tracing data arrives; an EVENT_UPDATE name given
 * later still wins, as it does in perf. */
static int take_tracing(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	unsigned char *data = NULL;
	uint32_t size;
	size_t have = 0, cap = 0;
	int err = 0;

	if (rec->size < sizeof(*rec) + 8)
		return bad(r, at, "HEADER_TRACING_DATA", "is too short for its size");
	memcpy(&size, rec + 1, sizeof(size));	/* rec is gone after the reads below */
	while (have < size && !err) {
		size_t n = size - have < PK__READER_BUF_SIZE ? size - have : PK__READER_BUF_SIZE;

		if (have + n > cap) {
			unsigned char *d = pk__realloc(data, cap = cap ? 2 * cap : PK__READER_BUF_SIZE);

			if (!d) {
				free(data);
				return r->err = pk__error_nomem("the tracing data (%u bytes)", size);
			}
			data = d;
		}
		err = pk__reader_stream_read(r, data + have, n, "the tracing data that follows HEADER_TRACING_DATA");
		have += n;
	}
	if (err || pk_data_reader_has_feature(r, PK_DATA_FEAT_TRACING_DATA)) {
		free(data);
		return err ? err : 1;
	}
	if (!data && !(data = pk__malloc(1)))
		return r->err = pk__error_nomem("the tracing data");
	set_feature(r, PK_DATA_FEAT_TRACING_DATA, data, size, at + sizeof(*rec) + 8);
	/* perf's perf_event__process_tracing_data names the tracepoints
	 * already there; an attr that comes later stays "unknown tracepoint" */
	pk__reader_name_tracepoints(r);	/* 0: a name not found stays perf's */
	return 1;
}

/* HEADER_BUILD_ID: the record as a file's BUILD_ID section holds it, so
 * the section is these records one after the other. */
static int take_build_id(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	struct pk__file_section *s = &r->feat[PK_DATA_FEAT_BUILD_ID];
	bool had = pk_data_reader_has_feature(r, PK_DATA_FEAT_BUILD_ID);
	uint64_t len = had ? s->size : 0;
	unsigned char *d = pk__realloc(r->feat_data[PK_DATA_FEAT_BUILD_ID], (size_t)len + rec->size);

	if (!d)
		return r->err = pk__error_nomem("the build-ids (%llu bytes)", (unsigned long long)len + rec->size);
	memcpy(d + len, rec, rec->size);
	if (r->swap) {		/* the section's bytes stay the file's, as a file's do */
		struct perf_event_header h;	/* len need not be aligned: copy */
		uint32_t pid;

		memcpy(&h, d + len, sizeof(h));
		pk__reader_swap_header(&h);
		memcpy(d + len, &h, sizeof(h));
		if (rec->size >= sizeof(*rec) + sizeof(pid)) {	/* a record too short has none */
			memcpy(&pid, d + len + sizeof(*rec), sizeof(pid));
			pid = __builtin_bswap32(pid);
			memcpy(d + len + sizeof(*rec), &pid, sizeof(pid));
		}
	}
	set_feature(r, PK_DATA_FEAT_BUILD_ID, d, len + rec->size, had ? s->offset : at);
	return 1;
}

bool pk__reader_pipe_header(uint32_t type)
{
	return (type >= PK__RECORD_HEADER_ATTR && type <= PK__RECORD_HEADER_BUILD_ID) ||
	       type == PK__RECORD_HEADER_FEATURE;
}

static int take(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	switch (rec->type) {
	case PK__RECORD_HEADER_ATTR:
		return take_attr(r, rec, at);
	case PK__RECORD_HEADER_FEATURE:
		return take_feature(r, rec, at);
	case PK__RECORD_HEADER_TRACING_DATA:
		return take_tracing(r, rec, at);
	case PK__RECORD_HEADER_BUILD_ID:
		return take_build_id(r, rec, at);
	case PK__RECORD_HEADER_EVENT_TYPE:
		return 1;	/* perf's old event-type names; perf 6.1 ignores them too */
	default:
		return 0;
	}
}

int pk__reader_pipe_take(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	uint32_t type = rec->type;	/* taking TRACING_DATA reads on: rec may not survive */
	int ret = take(r, rec, at);

	if (ret > 0)	/* for pk_data_reader_nr_taken: take() knows types 64 to 68 only */
		r->nr_taken[type - 64]++;
	return ret;
}

/* A copy of `rec` in *out (grown to *cap bytes as needed; NULL cap: a
 * new allocation of its own).  0 or -ENOMEM. */
static int copy_rec(struct perf_event_header **out, size_t *cap, const struct perf_event_header *rec)
{
	if (!cap || *cap < rec->size) {
		struct perf_event_header *p = cap ? pk__realloc(*out, rec->size) : pk__malloc(rec->size);

		if (!p)
			return pk__error_nomem("a copy of a %u-byte header record", (unsigned int)rec->size);
		*out = p;
		if (cap)
			*cap = rec->size;
	}
	memcpy(*out, rec, rec->size);
	return 0;
}

/* A header record met at open: its copy kept for the prelude, then taken. */
static int take_at_open(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at)
{
	struct rd_header_rec *kept = r->prelude;
	int err;

	if (!(r->nr_prelude & (r->nr_prelude - 1))) {	/* 0, 1, 2, 4, 8...: full */
		kept = pk__realloc(r->prelude, (r->nr_prelude ? 2 * r->nr_prelude : 1) * sizeof(*kept));
		if (!kept)
			return r->err = pk__error_nomem("the stream's first %zu header records", r->nr_prelude + 1);
		r->prelude = kept;
	}
	kept[r->nr_prelude].at = at;
	if ((err = copy_rec(&kept[r->nr_prelude].rec, NULL, rec)) < 0)
		return r->err = err;
	r->nr_prelude++;
	return pk__reader_pipe_take(r, rec, at);
}

int pk__reader_pipe_pass(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t at)
{
	uint32_t type = (*rec)->type;
	int err;

	if (!pk__reader_pipe_header(type))
		return 1;
	/* before it is taken: taking TRACING_DATA reads on, over the record */
	if (r->header_records && (err = copy_rec(&r->hdr_copy, &r->hdr_copy_cap, *rec)) < 0)
		return r->err = err;
	if ((err = pk__reader_pipe_take(r, *rec, at)) <= 0)
		return err < 0 ? err : 1;	/* (not one after all) */
	if (!r->header_records)
		return 0;
	r->nr_taken[type - 64]--;	/* delivered, after all */
	*rec = r->hdr_copy;
	return 1;
}

int pk__reader_pipe_prelude(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	if (pk__reader_pipe_pending(r)) {
		const struct rd_header_rec *k = &r->prelude[r->next_prelude++];

		*rec = k->rec;
		r->rec_off = k->at;
		return 1;
	}
	if (r->prelude && !r->header_records)
		pk__reader_pipe_free(r);
	return 0;
}

void pk__reader_pipe_free(struct pk_data_reader *r)
{
	for (size_t i = 0; i < r->nr_prelude; i++)
		free(r->prelude[i].rec);
	free(r->prelude);
	free(r->hdr_copy);
	r->prelude = NULL;
	r->hdr_copy = NULL;
	r->nr_prelude = r->next_prelude = r->hdr_copy_cap = 0;
}

int pk_data_reader_set_header_records(struct pk_data_reader *r, bool on)
{
	if (r->order.started)
		return pk__error(-EBUSY, "pk_data_reader_set_header_records", "%s: records were read already: "
				 "choose before the first pk_data_reader_next", r->path);
	if (on == r->header_records)
		return 0;
	/* those taken at open are counted as taken, or as delivered */
	for (size_t i = 0; i < r->nr_prelude; i++)
		r->nr_taken[r->prelude[i].rec->type - 64] += on ? (uint64_t)-1 : 1;
	r->header_records = on;
	return 0;
}

/* The header records before the first other record.  Damage in one of
 * them fails the open; damage in a record that is not one, or whose type
 * the stream ends before, is the records' damage: pk_data_reader_next
 * reports it (r->err keeps it). */
int pk__reader_pipe_open(struct pk_data_reader *r)
{
	for (;;) {
		const struct perf_event_header *rec;
		struct perf_event_header h;
		uint64_t at;
		int ret = pk__reader_stream_raw(r, &rec, &at);

		if (ret < 0 && r->buf_len - r->buf_pos >= sizeof(h)) {
			memcpy(&h, r->buf + r->buf_pos, sizeof(h));	/* the damaged record is still there */
			if (r->swap)
				pk__reader_swap_header(&h);
			return pk__reader_pipe_header(h.type) ? ret : 0;
		}
		if (ret <= 0)
			return ret < 0 ? 0 : ret;
		h = *rec;
		if (r->swap)
			pk__reader_swap_header(&h);
		if (!pk__reader_pipe_header(h.type)) {
			pk__reader_stream_unread(r, h.size);	/* the first record to deliver, as it is */
			return 0;
		}
		if (r->swap)
			pk__reader_swap_record(r, (struct perf_event_header *)(uintptr_t)rec);
		ret = take_at_open(r, rec, at);
		if (ret < 0)
			return ret;
	}
}

