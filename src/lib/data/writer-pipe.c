/* SPDX-License-Identifier: MIT */
/*
 * writer-pipe.c - perf.data's pipe mode, for a reader at the other end of
 * a pipe (perf record -o - | perf report -i -): nothing can be written
 * back, so everything a file keeps in its header and sections travels in
 * order as records of perf's user types, the way perf 6.1 sends them
 * (tools/perf/util/synthetic-events.c, perf_event__synthesize_for_pipe):
 * the 16-byte pipe header, one HEADER_ATTR per event (the attr, then its
 * ids), one HEADER_FEATURE per feature perf synthesizes for a pipe, in the
 * order of their bits, closed by a HEADER_FEATURE for HEADER_LAST_FEATURE,
 * then HEADER_TRACING_DATA followed by the tracing data itself, padded to 8
 * bytes, when tracepoints are recorded; an EVENT_UPDATE with each event's
 * name, which a file keeps in EVENT_DESC; and then the records as they
 * come.  At the end perfkit adds a HEADER_BUILD_ID record for each DSO
 * samples hit (perf 6.1 sends none in pipe mode; perf inject -b does, and
 * perf's reader takes them).  Records go through the writer's buffer,
 * written out with write(2) when it fills and at every tick.
 */
#include "data.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* perf's user record types (tools/lib/perf/include/perf/event.h). */
enum {
	HEADER_ATTR = 64,
	HEADER_TRACING_DATA = 66,
	HEADER_BUILD_ID = 67,
	EVENT_UPDATE = 78,
	HEADER_FEATURE = 80,
};

#define EVENT_UPDATE_NAME 2	/* PERF_EVENT_UPDATE__NAME */
#define MAX_RECORD 65535	/* perf_event_header.size is 16 bits */

enum {
#define PK__FEAT(id, NAME, name) FEAT_##NAME = (id),
#include "features.def"
#undef PK__FEAT
	FEAT_LAST = 32,		/* HEADER_LAST_FEATURE in perf 6.1: the end-of-features mark */
};

/*
 * The features perf 6.1 sends down a pipe: those its feat_ops table marks
 * with FEAT_OPR.  Tracing data has a record of its own, build-ids are
 * perfkit's at the end, and the rest are not written to a pipe by perf.
 */
static bool sent_in_pipe(int f)
{
	switch (f) {
	case FEAT_TRACING_DATA: case FEAT_BUILD_ID: case FEAT_BRANCH_STACK: case FEAT_AUXTRACE:
	case FEAT_STAT: case FEAT_CACHE: case FEAT_DIR_FORMAT: case FEAT_HYBRID_TOPOLOGY:
		return false;
	default:
		return true;
	}
}

int pk_data_writer_create_pipe(int fd, struct pk_data_writer **out)
{
	struct pk_data_writer *w;
	struct stat st;

	pk__error_clear();
	if (fd < 0 || fstat(fd, &st) < 0)
		return pk__error(-EBADF, "stream perf.data", "fd %d is not open", fd);
	w = pk__calloc(1, sizeof(*w));
	if (!w || !(w->buf = pk__malloc(PK__DATA_BUF_SIZE))) {
		free(w);
		return pk__error_nomem("the perf.data writer");
	}
	w->fd = fd;
	w->dfd = -1;
	w->pipe = true;
	*out = w;
	return 0;
}

int pk__data_writer_pipe_flush(struct pk_data_writer *w)
{
	const unsigned char *p = w->buf;
	size_t len = w->buf_len;

	while (!w->pipe_err && len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			w->pipe_err = pk__error(-e, "stream perf.data", "writing the stream failed: %s",
						strerror(e));
			if (e == EPIPE)
				pk__error_hint("%s", "the reading end of the pipe was closed: the reader "
					       "exited or stopped reading");
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	/* What could not be written is dropped: a stream cannot be rewound. */
	w->buf_len = w->flushed = 0;
	return w->pipe_err;
}

/* One record: a header of `type`, then `len` bytes of body. */
static int put_record(struct pk_data_writer *w, uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(sizeof(h) + len) };
	int err;

	if (sizeof(h) + len > MAX_RECORD)
		return pk__error(-E2BIG, "stream perf.data", "a record of type %u needs %zu bytes; "
				 "a record holds at most %d", type, sizeof(h) + len, MAX_RECORD);
	err = pk__data_writer_put(w, &h, sizeof(h));
	return err ? err : pk__data_writer_put(w, body, len);
}

/* HEADER_ATTR: the 128-byte attr, then the ids of its fds. */
static int put_attr(struct pk_data_writer *w, const struct pk__data_event *e)
{
	struct perf_event_header h = { .type = HEADER_ATTR };
	size_t len = sizeof(h) + PK__ATTR_SIZE + e->nr_ids * sizeof(uint64_t);
	int err;

	if (len > MAX_RECORD)
		return pk__error(-E2BIG, "stream perf.data", "event %s has %zu ids: more than a "
				 "HEADER_ATTR record holds (%d bytes)", e->name, e->nr_ids, MAX_RECORD);
	h.size = (uint16_t)len;
	err = pk__data_writer_put(w, &h, sizeof(h));
	if (!err)
		err = pk__data_writer_put(w, &e->attr, PK__ATTR_SIZE);
	return err ? err : pk__data_writer_put(w, e->ids, e->nr_ids * sizeof(uint64_t));
}

/* HEADER_FEATURE for feature `f`: u64 feature id, then the section's
 * payload.  One too big for a record is left out: a reader does without. */
static int put_feature(struct pk_data_writer *w, const struct pk__data_host *h, int f)
{
	uint64_t fid = (uint64_t)f;
	unsigned char *p, *rec = NULL;
	size_t len;
	int err = pk__data_writer_feature(w, h, f, &p, &len);

	if (err <= 0)
		return err;
	err = 0;
	if (len && len <= MAX_RECORD - sizeof(struct perf_event_header) - sizeof(fid)) {
		rec = pk__malloc(sizeof(fid) + len);
		if (!rec)
			err = pk__error_nomem("a feature record");
	}
	if (rec) {
		memcpy(rec, &fid, sizeof(fid));
		memcpy(rec + sizeof(fid), p, len);
		err = put_record(w, HEADER_FEATURE, rec, sizeof(fid) + len);
	}
	free(rec);
	free(p);
	return err;
}

/* The features in the order of their bits, then the mark that ends them,
 * on which perf's reader sets up the session.  The machine's description
 * is taken once for them all: its key is read once a stream. */
static int put_features(struct pk_data_writer *w)
{
	uint64_t last = FEAT_LAST;
	struct pk__data_host *h;
	int err = pk__data_host_get(&h);

	for (int f = 1; !err && f < FEAT_LAST; f++)
		if (sent_in_pipe(f))
			err = put_feature(w, h, f);
	pk__data_host_put(h);
	return err ? err : put_record(w, HEADER_FEATURE, &last, sizeof(last));
}

/*
 * HEADER_TRACING_DATA: a 16-byte record whose u32 says how many bytes
 * follow it in the stream outside any record, the tracing data padded to
 * 8 bytes.  Without tracefs the record is left out, as in a file.
 */
static int put_tracing(struct pk_data_writer *w)
{
	static const unsigned char zeros[8];
	struct { uint32_t size, pad; } r = { 0, 0 };
	unsigned char *p;
	size_t len;
	int err = pk__data_writer_tracing(NULL, w->ev, w->nr_events, &p, &len);

	if (err < 0 && err != -ENOMEM) {
		pk__error_clear();
		return 0;
	}
	if (err < 0 || !len)
		return err;
	r.size = (uint32_t)((len + 7) & ~(size_t)7);
	err = put_record(w, HEADER_TRACING_DATA, &r, sizeof(r));
	if (!err)
		err = pk__data_writer_put(w, p, len);
	if (!err)
		err = pk__data_writer_put(w, zeros, r.size - len);
	free(p);
	return err;
}

/*
 * EVENT_UPDATE of type NAME for an event, by its first id: u64 type, u64
 * id, the name with its NUL.  perf sizes it as its struct (a 16-byte union
 * after the id) plus the name, rounded up to 8; the same size is sent here.
 */
static int put_name(struct pk_data_writer *w, const struct pk__data_event *e)
{
	size_t n = strlen(e->name) + 1;
	size_t len = ((sizeof(struct perf_event_header) + 32 + n + 7) & ~(size_t)7) -
		     sizeof(struct perf_event_header);
	unsigned char *body;
	uint64_t head[2] = { EVENT_UPDATE_NAME, 0 };
	int err;

	/* No id to name it by, or a name too long for a record: perf's reader
	 * then names the event from its attr. */
	if (!e->nr_ids || !e->name[0] || sizeof(struct perf_event_header) + len > MAX_RECORD)
		return 0;
	head[1] = e->ids[0];
	if (!(body = pk__calloc(1, len)))
		return pk__error_nomem("an event's name record");
	memcpy(body, head, sizeof(head));
	memcpy(body + sizeof(head), e->name, n);
	err = put_record(w, EVENT_UPDATE, body, len);
	free(body);
	return err;
}

int pk__data_writer_pipe_start(struct pk_data_writer *w)
{
	struct { char magic[8]; uint64_t size; } h = { { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' }, sizeof(h) };
	int err = pk__data_writer_put(w, &h, sizeof(h));

	for (size_t i = 0; !err && i < w->nr_events; i++)
		err = put_attr(w, &w->ev[i]);
	if (!err)
		err = put_features(w);
	if (!err)
		err = put_tracing(w);
	for (size_t i = 0; !err && i < w->nr_events; i++)
		err = put_name(w, &w->ev[i]);
	w->started = true;
	w->last_tick = 0;	/* the first tick sends all this and the records before it */
	return err;
}

/* The BUILD_ID feature's entries are whole records already: sent with
 * the record type HEADER_BUILD_ID, one by one. */
static int put_build_ids(struct pk_data_writer *w)
{
	unsigned char *p;
	size_t len, at = 0;
	int err = w->nr_build_ids ? pk__data_writer_feature(w, NULL, FEAT_BUILD_ID, &p, &len) : 0;

	if (err <= 0)
		return err;
	err = 0;
	while (!err && at + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, p + at, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - at)
			break;
		h.type = HEADER_BUILD_ID;
		memcpy(p + at, &h, sizeof(h));
		err = pk__data_writer_put(w, p + at, h.size);
		at += h.size;
	}
	free(p);
	return err;
}

int pk__data_writer_pipe_end(struct pk_data_writer *w)
{
	int err = w->pipe_err ? w->pipe_err : put_build_ids(w);

	return err ? err : pk__data_writer_flush(w);
}
