/* SPDX-License-Identifier: MIT */
/*
 * reader-int.h - the perf.data reader's state, shared by its files:
 * reader.c (header, attrs, ids, features), reader-stream.c (records in
 * file order, COMPRESSED records expanded) and reader-order.c (records in
 * time order, round by round, the way perf's ordered_events does it).
 */
#ifndef PK__DATA_READER_INT_H
#define PK__DATA_READER_INT_H

#include "data.h"

#define PK__RECORD_FINISHED_ROUND 68	/* perf.data's user record types */
#define PK__RECORD_COMPRESSED 81
#define PK__READER_BUF_SIZE (4 * 65536)	/* perf_event_header.size is a u16 */

struct rd_event {
	_Alignas(8) unsigned char attr[PK_DATA_READER_ATTR_SIZE];
	uint64_t *ids;
	size_t nr_ids;
	char *name;
};

/* A record waiting in the time-order queue: its bytes are in the arena. */
struct rd_queued {
	uint64_t time, seq;	/* seq keeps records of equal time in file order */
	size_t off;
};

struct rd_order {
	bool file_order, started;
	unsigned char *arena, *spare;	/* the queued records' bytes, and the next arena */
	size_t arena_len, arena_cap, spare_cap;
	struct rd_queued *q;
	size_t nr_q, cap_q;
	size_t nr_ready, next_ready;	/* q[0, nr_ready) is sorted and being delivered */
	uint64_t next_flush, max_time, seq;
	uint64_t nr_unordered;		/* records older than one already delivered */
	uint64_t last_flush;
	bool round_pending;		/* a FINISHED_ROUND to deliver after the ready ones */
	_Alignas(8) struct perf_event_header round;	/* handed out: 8-aligned like every record */
	int src_end;			/* 0 while records come; then 1 (end) or the error */
};

struct pk_data_reader {
	int fd;
	char *path;
	uint64_t file_size;
	uint64_t data_offset, data_end;	/* data_end clamped to the file */
	uint64_t data_end_said;		/* where the header says the data ends */
	uint64_t flags[4];
	struct pk__file_section feat[PK_DATA_FEAT_LAST];
	void *feat_data[PK_DATA_FEAT_LAST];
	char *strings[PK_DATA_FEAT_LAST];
	uint32_t nr_cpus_avail, nr_cpus_online;
	bool have_nr_cpus;
	struct pk_data_compression comp;
	bool have_comp;
	struct rd_event *ev;
	size_t nr_events;
	/* the record stream: buf[0, buf_len) holds the file from buf_off */
	unsigned char *buf;
	size_t buf_len, buf_pos;
	uint64_t buf_off;
	/* COMPRESSED records expanded: dbuf[dbuf_pos, dbuf_len) is what is left */
	void *zds;			/* ZSTD_DStream, made at the first COMPRESSED record */
	unsigned char *dbuf;
	size_t dbuf_len, dbuf_pos, dbuf_cap;
	uint64_t dbuf_at;		/* file offset of the COMPRESSED record last expanded */
	const unsigned char *zin;	/* that record's payload, in buf, not all expanded yet */
	size_t zin_len, zin_pos;
	bool zout_full;			/* zstd may hold more output for the same input */
	int err;			/* the damage met, returned again */
	struct rd_order order;
};

/* reader.c */
int pk__reader_read_at(struct pk_data_reader *r, void *p, size_t len, uint64_t off, const char *what);

/* reader-stream.c: the next record in file order, COMPRESSED ones expanded:
 * 1 with *rec (8-aligned, valid until the next call), 0 at the end, or a
 * negative errno (kept in r->err and returned again). */
int pk__reader_stream_next(struct pk_data_reader *r, const struct perf_event_header **rec);
void pk__reader_stream_free(struct pk_data_reader *r);

/* reader-order.c */
void pk__reader_order_free(struct pk_data_reader *r);

#endif
