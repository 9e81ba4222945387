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

#include <stddef.h>
#include <string.h>

/* perf.data's user record types (perf's PERF_RECORD_HEADER_* and friends) */
#define PK__RECORD_HEADER_ATTR 64
#define PK__RECORD_HEADER_EVENT_TYPE 65
#define PK__RECORD_HEADER_TRACING_DATA 66
#define PK__RECORD_HEADER_BUILD_ID 67
#define PK__RECORD_FINISHED_ROUND 68
#define PK__RECORD_AUXTRACE_INFO 70
#define PK__RECORD_AUXTRACE 71
#define PK__RECORD_EVENT_UPDATE 78
#define PK__RECORD_HEADER_FEATURE 80
#define PK__RECORD_COMPRESSED 81
#define PK__RECORD_HEADER_MAX 83	/* above perf 6.1's last type, FINISHED_INIT */
#define PK__READER_BUF_SIZE (4 * 65536)	/* perf_event_header.size is a u16 */

/* A pipe-mode header record taken at open, kept to be delivered. */
struct rd_header_rec {
	struct perf_event_header *rec;	/* a copy, rec->size bytes */
	uint64_t at;			/* its offset in the stream */
};

struct rd_event {
	_Alignas(8) unsigned char attr[PK_DATA_READER_ATTR_SIZE];
	uint64_t *ids;
	size_t nr_ids;
	char *name;		/* EVENT_DESC's, or the last EVENT_UPDATE's */
	char **old_names;	/* names replaced, kept for callers holding them */
	size_t nr_old_names;
	char attr_name[128];	/* perf's name from the attr, for a file without one */
};

/* A buffer records are read into (reader-stream.c's buf and dbuf): the
 * pointer the stream holds is mem.  Queued records stay where they were
 * read and pin their buffer; the stream reads on into a fresh one rather
 * than overwrite a pinned one, which is freed (or kept for reuse) when its
 * last record was delivered (reader-order.c).  A buffer left with few
 * queued bytes gives them up to a compact one (its records are copied),
 * so memory stays near what the queue holds. */
struct rd_buf {
	size_t live;		/* records queued in it, not yet delivered and done with */
	size_t bytes;		/* their bytes */
	bool detached;		/* the stream left it: unpinning the last record frees it */
	_Alignas(16) unsigned char mem[];	/* PK__READER_BUF_SIZE bytes */
};
#define PK__RD_BUF(p) ((struct rd_buf *)(void *)((unsigned char *)(p) - offsetof(struct rd_buf, mem)))
/* Unpinned buffers kept for reuse, at most: a buffer freed is one mapped
 * (and faulted in page by page) again for the next read, two thirds of a
 * large DWARF file's report time when each round pinned more than a few
 * (16 at once on a 290 MB recording of 34k samples).  A buffer is
 * allocated only when no spare is left, so the spares are never more than
 * the buffers pinned at once before; kept, they are at most 8 MB. */
#define PK__READER_SPARE 32

/* A record waiting in the time-order queue, in the buffer it was read into. */
struct rd_queued {
	uint64_t time, seq;	/* seq keeps records of equal time in file order */
	const unsigned char *rec;	/* its bytes, in buf */
	struct rd_buf *buf;
	uint32_t file;		/* a directory's (rd_cursor) */
	int32_t ev;		/* its event's index, or PK__EV_UNKNOWN (pk_data_reader_last_event) */
	uint64_t file_off;	/* where the file holds it (pk_data_reader_offset) */
};
/* An event index not known: pk_data_reader_last_event looks it up. */
#define PK__EV_UNKNOWN (-1)

/* A sample's layout for its time, for the sample_type seen last (st 0:
 * none yet): the bytes of the fixed fields, TIME's offset. */
struct rd_layout {
	uint64_t st;
	size_t fixed, at;
};

struct rd_order {
	bool file_order, started;
	bool round_first;		/* PK_DATA_ORDER_TIME_ROUND_FIRST */
	uint64_t round_off;		/* the pending FINISHED_ROUND's file offset */
	struct rd_buf *spare[PK__READER_SPARE];	/* unpinned buffers for reuse */
	size_t nr_spare;
	size_t nr_pinned;		/* buffers a queued or held record pins */
	struct rd_buf *held;		/* that of the record delivered last, if queued */
	size_t held_size;
	struct rd_buf *arena;		/* where records of sparse buffers are copied */
	size_t arena_len;
	struct rd_queued *q, *tmp;	/* the queue, and the merge's other half */
	size_t nr_q, cap_q, cap_tmp;
	size_t head;			/* q[head, nr_q) is queued; before it, delivered */
	size_t nr_ready, next_ready;	/* q[next_ready, nr_ready) is sorted, still to deliver */
	uint64_t next_flush, max_time, seq;
	uint64_t nr_unordered;		/* records older than one already delivered */
	uint64_t last_flush;
	bool round_pending;		/* a FINISHED_ROUND to deliver after the ready ones */
	_Alignas(8) struct perf_event_header round;	/* handed out: 8-aligned like every record */
	int src_end;			/* 0 while records come; then 1 (end) or the error */
	struct rd_layout time;		/* pk__reader_record_time's */
};

#define PK__READER_NR_TAKEN 32
/* One file of a directory (reader-dir.c).  Its stream state is parked
 * here and swapped with the reader's while the file is read, so each file
 * is read through its own buffer; DIR/data's state stays in the reader. */
struct rd_cursor {
	int fd;
	char *path;
	bool in_dir;
	uint64_t data_offset, data_end, data_end_said;
	unsigned char *buf;
	size_t buf_len, buf_pos;
	uint64_t buf_off;
	void *zds;
	unsigned char *dbuf;
	size_t dbuf_len, dbuf_pos, dbuf_cap;
	uint64_t dbuf_at;
	const unsigned char *zin;
	size_t zin_len, zin_pos;
	bool zout_full;
	uint64_t rec_off, skip, skip_at;
	/* the merge: the file's next record, not swapped */
	const struct perf_event_header *head;	/* NULL: read the next one */
	uint64_t head_off, time;	/* its offset; its time (0: none) */
	uint64_t chunk, chunk_start;	/* perf's 2 MiB read turn it falls in */
	int end;			/* 1 at the end, or the error */
};

struct pk_data_reader {
	int fd;
	bool own_fd;			/* opened by the reader, closed by pk_data_reader_free */
	bool pipe;			/* a pipe-mode stream: header records in the data */
	bool seekable;			/* pread works; else plain reads in stream order */
	bool eof;			/* a pipe-mode stream ended: data_end is where */
	bool swap;			/* written on the other byte order (reader-swap.c) */
	char *path;
	uint64_t file_size;
	uint64_t data_offset, data_end;	/* data_end clamped to the file */
	uint64_t data_end_said;		/* where the header says the data ends */
	uint64_t flags[4];
	uint64_t flags_said[4];		/* the feature bitmap as the header has it */
	bool unfinished;		/* the header's data size is 0: perf record did not finish */
	uint64_t unfinished_tail;	/* bytes at its end too few for the record they start */
	uint32_t nr_feat_cut;		/* feature sections past the end of a cut file */
	unsigned int feat_cut_first;	/* the first of them */
	struct pk__file_section feat[PK_DATA_FEAT_LAST];
	void *feat_data[PK_DATA_FEAT_LAST];
	char *strings[PK_DATA_FEAT_LAST];
	uint32_t nr_cpus_avail, nr_cpus_online;
	bool have_nr_cpus;
	struct pk_data_compression comp;
	bool have_comp;
	struct rd_event **ev;		/* one allocation each: attr pointers stay valid */
	size_t nr_events, cap_events;
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
	uint64_t nr_taken[PK__READER_NR_TAKEN];	/* user types (from 64) read, not delivered */
	uint64_t rec_off;		/* file offset of the record stream_next handed out */
	uint64_t cur_off;		/* that of the record pk_data_reader_next delivered */
	const struct perf_event_header *cur_rec;	/* that record (NULL: none, or the end) */
	int cur_ev;			/* its event's index, or PK__EV_UNKNOWN */
	/* the id pk__reader_event_of found last and its event's index, while
	 * have_last_id (forgotten when an event is added) */
	bool have_last_id;
	uint64_t last_id;
	int last_id_ev;
	uint64_t skip, skip_at;		/* an AUXTRACE's trace data still to skip, and where it is */
	struct pk_data_reader_stats stats;	/* the AUX area records skipped */
	int err;			/* the damage met, returned again */
	bool err_kept;			/* its error record, told again with it: */
	char err_what[128], err_why[600];	/* decoding in between may replace it */
	struct rd_order order;
	/* a pipe-mode stream's header records (reader-pipe.c): copies of
	 * those taken at open, delivered first when header_records is set,
	 * and the copy of a later one that is delivered */
	struct rd_header_rec *prelude;
	size_t nr_prelude, next_prelude;
	bool header_records;
	struct perf_event_header *hdr_copy;
	size_t hdr_copy_cap;
	bool in_dir;			/* reading a DIR/data.N: its own file's end */
	struct rd_cursor *cur;		/* a directory's files, DIR/data first; none for a file */
	size_t nr_cur, cur_file;	/* how many; that of the record delivered last */
	size_t took;			/* the file whose head pk__reader_dir_next gave last */
};

/* pk__reader_u64 - the u64 at p (any alignment) of r's file, brought to
 * this machine's byte order. */
static inline uint64_t pk__reader_u64(const struct pk_data_reader *r, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return r->swap ? __builtin_bswap64(v) : v;
}

/* pk__reader_attr - event i's attr (i < nr_events). */
static inline const struct perf_event_attr *pk__reader_attr(const struct pk_data_reader *r, size_t i)
{
	return (const struct perf_event_attr *)(const void *)r->ev[i]->attr;
}

/* reader.c */
int pk__reader_read_at(struct pk_data_reader *r, void *p, size_t len, uint64_t off, const char *what);
/* pk__reader_name_tracepoints - name the file's unnamed tracepoint events
 * from its TRACING_DATA (reader-names.c).  Returns 0: a name it cannot
 * find stays perf's "unknown tracepoint". */
int pk__reader_name_tracepoints(struct pk_data_reader *r);

/* Add an event: `len` bytes of attr (zero-extended or cut to the reader's
 * size) and its ids; the attr's bytes are copied, the ids taken over. */
int pk__reader_add_event(struct pk_data_reader *r, const void *attr, size_t len, uint64_t *ids, size_t nr_ids);
/* pk__reader_event_of - pk_data_reader_event_of, remembering the id it
 * found and its event: the next record of that id (in most files, most
 * records) skips the search through every event's ids. */
int pk__reader_event_of(struct pk_data_reader *r, const struct perf_event_header *h);
/* Decode what the accessors answer from feature `id` (strings, NRCPUS,
 * COMPRESSED, CMDLINE, EVENT_DESC's names); 0 for the others. */
int pk__reader_decode_feature(struct pk_data_reader *r, unsigned int id);
const char *pk__reader_feature_name(unsigned int id);

/* reader-unfinished.c: a header whose data size is 0.  Marks the file
 * unfinished; true when a whole feature table lies at the data offset (a
 * file finished with no records: read on as usual), false when the
 * records run to the end of the file and no feature is read (done). */
bool pk__reader_size_zero(struct pk_data_reader *r);

/* reader-pipe.c: pipe-mode streams (perf record -o -).  The header records
 * before the first other record are taken at open; later ones as they
 * come.  _take returns 1 when `rec` (at stream offset `at`) was a header
 * record and is taken (not delivered), 0 when it is not one, or a negative
 * errno. */
int pk__reader_pipe_open(struct pk_data_reader *r);
bool pk__reader_pipe_header(uint32_t type);
int pk__reader_pipe_take(struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t at);
/* _pass: a record of the stream after open (swapped already): 1 to
 * deliver *rec (not a header record, or a header record taken and, with
 * header_records, replaced by its copy), 0 when it was taken and is not
 * delivered, or a negative errno (in r->err).  _prelude: with
 * header_records, 1 with the next header record taken at open in *rec
 * (its offset in rec_off), else 0 (the copies are let go). */
int pk__reader_pipe_pass(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t at);
int pk__reader_pipe_prelude(struct pk_data_reader *r, const struct perf_event_header **rec);
static inline bool pk__reader_pipe_pending(const struct pk_data_reader *r)
{
	return r->header_records && r->next_prelude < r->nr_prelude;
}
void pk__reader_pipe_free(struct pk_data_reader *r);

/* pk__reader_event_update - an EVENT_UPDATE record, in either mode: a name
 * it gives replaces the event's name, as perf 6.1 takes the last one
 * (reader-names.c).  0, or -ENOMEM. */
int pk__reader_event_update(struct pk_data_reader *r, const struct perf_event_header *rec);

/* reader-swap.c: a record of the other byte order, header and all, made
 * this machine's in place (its events must be known for the layout of
 * samples and of the sample_id_all trailer); a header alone; an attr of
 * `len` bytes, fields within its own size only. */
void pk__reader_swap_record(struct pk_data_reader *r, struct perf_event_header *h);
void pk__reader_swap_header(struct perf_event_header *h);
void pk__reader_swap_attr(void *attr, size_t len);

/* reader-stream.c: keep the error record of the damage just met (the
 * first one only); tell it again, returning r->err. */
void pk__reader_keep(struct pk_data_reader *r);
int pk__reader_again(struct pk_data_reader *r);

/* reader-stream.c: the next record in file order, COMPRESSED ones expanded:
 * 1 with *rec (8-aligned, valid until the next call), 0 at the end, or a
 * negative errno (kept in r->err and returned again). */
int pk__reader_stream_next(struct pk_data_reader *r, const struct perf_event_header **rec);
void pk__reader_stream_free(struct pk_data_reader *r);

/* Records the stream would hand out next as they lie, one after the
 * other, in one of its buffers: in a file of this machine's byte order
 * (or such a pipe-mode stream) with no trace data to skip and no
 * COMPRESSED record's expansion to go on with, its next bytes in buf; or
 * the bytes dbuf holds expanded. */
struct rd_window {
	const unsigned char *p;	/* the next record, 8-aligned */
	size_t len;		/* the bytes from p on, read and in the data section */
	uint64_t off;		/* p's file offset, or the COMPRESSED record's (expanded) */
	bool expanded;		/* every record of it has the offset off */
	struct rd_buf *buf;	/* the buffer p lies in */
};
/* pk__reader_stream_window - false when the stream is in no such state (or
 * met damage), else true with *w.  The caller may take only whole
 * PERF_RECORD_SAMPLE records from w's start on, of a size that is a
 * multiple of 8 and at least 8: pk__reader_stream_next would hand those
 * out as they are, each with its offset as rec_off.  Then
 * pk__reader_stream_took says how many bytes it took, the last record's
 * offset `at`. */
bool pk__reader_stream_window(const struct pk_data_reader *r, struct rd_window *w);
void pk__reader_stream_took(struct pk_data_reader *r, const struct rd_window *w, size_t n, uint64_t at);
/* The record last handed out by pk__reader_stream_raw, of `size` bytes,
 * read again by the next call: how pipe-mode open looks ahead. */
void pk__reader_stream_unread(struct pk_data_reader *r, size_t size);
/* The next `len` bytes of a stream after the record last handed out (a
 * pipe-mode TRACING_DATA's payload) into p; -EINVAL when the stream ends. */
int pk__reader_stream_read(struct pk_data_reader *r, void *p, size_t len, const char *what);
/* One record of the raw stream in file order (COMPRESSED not expanded,
 * pipe header records not taken), with its offset in *at. */
int pk__reader_stream_raw(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t *at);

/* reader-dir.c: perf's directory format.  _open reads DIR/data and
 * opens each DIR/data.N; _next is the record stream of a directory, as
 * pk__reader_stream_next is a file's: the files merged by time (in
 * perf's read order for file order), its file and offset in cur_file and
 * cur_off. */
int pk__reader_dir_open(const char *dir, struct pk_data_reader **out);
int pk__reader_dir_next(struct pk_data_reader *r, const struct perf_event_header **rec);
void pk__reader_dir_free(struct pk_data_reader *r);

/* reader-order.c: _record_time is the time perf orders a record by,
 * false when it has none (delivered as soon as read), with in *ev the
 * index of its event when it looked the event up and found it, else
 * PK__EV_UNKNOWN.  _forget_events: an event is being added, so the
 * indexes kept for queued records may no longer be
 * pk_data_reader_event_of's (they are looked up again when asked). */
void pk__reader_order_free(struct pk_data_reader *r);
void pk__reader_order_forget_events(struct pk_data_reader *r);
/* A new rd_buf's mem (NULL: out of memory, said); let one go: freed now,
 * or when its last queued record is done with; the stream moving off
 * one (a drop that first copies out the records of a sparse one). */
unsigned char *pk__reader_buf_new(struct pk_data_reader *r);
void pk__reader_buf_drop(unsigned char *mem);
void pk__reader_buf_leave(struct pk_data_reader *r, unsigned char *mem);
bool pk__reader_record_time(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t *t, int *ev);

#endif
