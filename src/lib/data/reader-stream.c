/* SPDX-License-Identifier: MIT */
/*
 * reader-stream.c - the records of a perf.data data section in file order:
 * read with plain reads through a bounded buffer, so a file of any size is
 * read in constant memory, each record checked before it is handed out;
 * COMPRESSED records (perf record -z) are expanded with one zstd stream per
 * reader, as perf writes one stream per file, and the records inside them
 * are handed out in their place, whole even when they span two COMPRESSED
 * records.  Memory stays bounded here too: the expansion runs a buffer at
 * a time as the records are taken.  A pipe-mode stream is read the same
 * way, in stream order with plain reads when it is a pipe, its end found
 * when the reads end; its header records go to reader-pipe.c on the way.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* A pipe-mode stream's next bytes at stream offset `off`: what one read
 * gives (pread on a file), 0 at the end. */
static ssize_t stream_read(struct pk_data_reader *r, void *p, size_t len, uint64_t off)
{
	for (;;) {
		ssize_t n = r->seekable ? pread(r->fd, p, len, (off_t)off) : read(r->fd, p, len);

		if (n >= 0 || errno != EINTR)
			return n < 0 ? pk__error(-errno, "read perf.data", "%s: reading at offset %llu: %s",
						 r->path, (unsigned long long)off, strerror(errno)) : n;
	}
}

/* Move (*p)[pos, len) to the front of a buffer: of this one, or of a
 * fresh one when the time-order queue still holds records in this one
 * (they are not copied: they pin it). */
static int to_front(struct pk_data_reader *r, unsigned char **p, size_t pos, size_t len)
{
	unsigned char *nb;

	if (!PK__RD_BUF(*p)->live) {
		memmove(*p, *p + pos, len - pos);
		return 0;
	}
	nb = pk__reader_buf_new(r);
	if (!nb)
		return -ENOMEM;
	memcpy(nb, *p + pos, len - pos);
	pk__reader_buf_leave(r, *p);
	*p = nb;
	return 0;
}

/* Make buf hold at least `want` bytes from the current record on (or all
 * that is left of the data section).  The record moves to buf[0], which
 * keeps it 8-aligned. */
static int fill(struct pk_data_reader *r, size_t want)
{
	uint64_t pos = r->buf_off + r->buf_pos;
	uint64_t left = r->data_end - pos;
	size_t have = r->buf_len - r->buf_pos, get;
	int err;

	if (have >= want || have >= left)
		return 0;
	err = to_front(r, &r->buf, r->buf_pos, r->buf_len);
	if (err)
		return err;
	r->buf_off = pos;
	r->buf_pos = 0;
	r->buf_len = have;
	if (r->pipe) {
		while (r->buf_len < want && !r->eof) {
			ssize_t n = stream_read(r, r->buf + r->buf_len, PK__READER_BUF_SIZE - r->buf_len,
						r->buf_off + r->buf_len);

			if (n < 0)
				return (int)n;
			if (n == 0) {
				r->eof = true;
				r->data_end = r->data_end_said = r->buf_off + r->buf_len;
			}
			r->buf_len += (size_t)n;
		}
		return 0;
	}
	get = PK__READER_BUF_SIZE - have;
	if (get > left - have)
		get = (size_t)(left - have);
	err = pk__reader_read_at(r, r->buf + have, get, pos + have, "the data section");
	if (err)
		return err;
	r->buf_len += get;
	return 0;
}

/* COMPRESSED records are as long as their payload (perf 6.1 does not pad
 * them), so the record after one can start off the 8-byte grid: move what
 * is buffered back onto it, once per such record. */
static int realign(struct pk_data_reader *r)
{
	int err;

	if (!(r->buf_pos % 8))
		return 0;
	err = to_front(r, &r->buf, r->buf_pos, r->buf_len);
	if (err)
		return err;
	r->buf_off += r->buf_pos;
	r->buf_len -= r->buf_pos;
	r->buf_pos = 0;
	return 0;
}

static int damage(struct pk_data_reader *r, uint64_t at, const char *why, unsigned int size)
{
	r->err = pk__error(-EINVAL, "read perf.data", "%s: the record at offset %llu %s (size %u)", r->path,
			   (unsigned long long)at, why, size);
	return r->err;
}

/* Fewer bytes than a header left: where the file (or stream) itself
 * ends, say so; there is no size to name. */
static int no_room(struct pk_data_reader *r, uint64_t at)
{
	r->err = pk__error(-EINVAL, "read perf.data", "%s: the record at offset %llu has no room for its header "
			   "before the end of the %s", r->path, (unsigned long long)at,
			   r->pipe ? "stream" : r->data_end < r->data_end_said ? "file (truncated)"
			   : r->in_dir ? "file (one of the directory's)" : "data section");
	pk__error_hint("the records before it are read; the recording was cut short or damaged there");
	return r->err;
}

/* A type above every one perf 6.1 knows (its PERF_RECORD_HEADER_MAX):
 * perf stops there ("failed to process type"), and so does the read. */
static int bad_type(struct pk_data_reader *r, uint64_t at, const struct perf_event_header *h)
{
	r->err = pk__error(-EINVAL, "read perf.data", "%s: the record at offset %llu has type %u, which "
			   "no perf record has (size %u)", r->path, (unsigned long long)at, h->type, h->size);
	pk__error_hint("the records before it are read; a type above %u is damage, or a record of a perf "
		       "newer than 6.1, which perfkit reads as perf 6.1 does: not past it",
		       PK__RECORD_HEADER_MAX - 1);
	return r->err;
}

static int truncated(struct pk_data_reader *r)
{
	r->err = pk__error(-EINVAL, "read perf.data",
			   "%s: the file ends at offset %llu, inside the data section that should end at %llu (truncated)",
			   r->path, (unsigned long long)r->data_end, (unsigned long long)r->data_end_said);
	return r->err;
}

/* Step over the trace data an AUXTRACE record announced: a jump in a
 * file, reads thrown away in a pipe. */
static int skip_payload(struct pk_data_reader *r)
{
	while (r->skip) {
		uint64_t pos = r->buf_off + r->buf_pos, n;
		size_t have;
		int err;

		if (!r->pipe && r->skip > r->buf_len - r->buf_pos && r->skip <= r->data_end - pos) {
			r->buf_off = pos + r->skip;
			r->buf_pos = r->buf_len = 0;
			r->stats.auxtrace_bytes += r->skip;
			r->skip = 0;
			break;
		}
		err = fill(r, r->skip < PK__READER_BUF_SIZE ? (size_t)r->skip : PK__READER_BUF_SIZE);
		if (err)
			return r->err = err;
		have = r->buf_len - r->buf_pos;
		if (!have || (!r->pipe && r->skip > r->data_end - pos)) {
			uint64_t left = r->pipe ? 0 : r->data_end - pos;

			r->err = pk__error(-EINVAL, "read perf.data", "%s: the AUXTRACE record at offset %llu "
					   "announces trace data after it that the %s ends %llu bytes short of",
					   r->path, (unsigned long long)r->skip_at, r->pipe ? "stream" : "data section",
					   (unsigned long long)(r->skip - left));
			return r->err;
		}
		n = have < r->skip ? have : r->skip;
		r->buf_pos += (size_t)n;
		r->skip -= n;
		r->stats.auxtrace_bytes += n;
	}
	return 0;
}

/* An AUXTRACE record (its header `h` in this machine's order, at `p`):
 * the u64 after its header is the size of the trace data after it. */
static void note_auxtrace(struct pk_data_reader *r, const struct perf_event_header *h, const unsigned char *p,
			  uint64_t at)
{
	uint64_t size;

	if (h->type != PK__RECORD_AUXTRACE || h->size < 16)
		return;
	memcpy(&size, p + 8, sizeof(size));
	r->skip = r->swap ? __builtin_bswap64(size) : size;
	r->skip_at = at;
}

/* A record cut by the end of an unfinished file (perf record killed while
 * writing it): the records end before it, as perf's reader stops at a
 * record it cannot map whole; the bytes left are told, not an error. */
static bool unfinished_end(struct pk_data_reader *r, uint64_t at)
{
	if (!r->unfinished || r->pipe || r->in_dir)
		return false;
	r->unfinished_tail = r->data_end - at;
	r->buf_off = r->data_end;
	r->buf_pos = r->buf_len = 0;
	return true;
}

/* raw_next's common case in one test (it showed in report's profile): a
 * file in this machine's byte order, no trace data to step over, on the
 * 8-byte grid, and the next record whole in the buffer and the data
 * section, of a size raw_next's checks pass, of a type it takes and not
 * AUXTRACE.  Returns
 * true with the record taken; false changes nothing. */
static inline bool buffered_next(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t *at)
{
	size_t have = r->buf_len - r->buf_pos;
	struct perf_event_header h;
	uint64_t pos = r->buf_off + r->buf_pos;

	if (r->skip || r->pipe || r->swap || (r->buf_pos % 8) || have < sizeof(h) || pos >= r->data_end)
		return false;
	memcpy(&h, r->buf + r->buf_pos, sizeof(h));
	if (h.size < sizeof(h) || (h.size % 8) || h.size > have || h.size > r->data_end - pos ||
	    h.type == PK__RECORD_AUXTRACE || h.type >= PK__RECORD_HEADER_MAX)
		return false;
	*at = pos;
	*rec = (const struct perf_event_header *)(const void *)(r->buf + r->buf_pos);
	r->buf_pos += h.size;
	return true;
}

/* The next record as the file holds it, with its file offset in *at. */
static int raw_next(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t *at)
{
	struct perf_event_header h;
	int err;

	if (buffered_next(r, rec, at))
		return 1;
	err = skip_payload(r);
	if (err)
		return err;
	err = realign(r);
	if (err)
		return r->err = err;
	*at = r->buf_off + r->buf_pos;
	err = fill(r, sizeof(h));	/* first: a pipe-mode stream's end is found by reading */
	if (err)
		return r->err = err;
	if (*at >= r->data_end)
		return r->data_end == r->data_end_said ? 0 : truncated(r);
	if (r->data_end - *at < sizeof(h) && unfinished_end(r, *at))
		return 0;
	if (r->data_end - *at < sizeof(h))
		return no_room(r, *at);
	memcpy(&h, r->buf + r->buf_pos, sizeof(h));
	if (r->swap)
		pk__reader_swap_header(&h);	/* the record itself is swapped when taken */
	if (h.size < sizeof(h))
		return damage(r, *at, h.size ? "is shorter than its 8-byte header" : "has size 0", h.size);
	/* perf does not pad COMPRESSED records, nor a pipe's header records
	 * (HEADER_FEATURE, HEADER_BUILD_ID: perf's pipe reader takes any size) */
	if (h.size % 8 && h.type != PK__RECORD_COMPRESSED && !(r->pipe && pk__reader_pipe_header(h.type)))
		return damage(r, *at, "has a size that is not a multiple of 8", h.size);
	if (h.type >= PK__RECORD_HEADER_MAX)
		return bad_type(r, *at, &h);
	err = fill(r, h.size);
	if (err)
		return r->err = err;
	if (h.size > r->data_end - *at && unfinished_end(r, *at))
		return 0;
	if (h.size > r->data_end - *at)
		return damage(r, *at,
			      r->pipe ? "runs past the end of the stream (cut short?)"
			      : r->data_end < r->data_end_said ? "runs past the end of the file (truncated)"
			      : r->in_dir ? "runs past the end of its file (one of the directory's)"
			      : "runs past the end of the data section",
			      h.size);
	*rec = (const struct perf_event_header *)(const void *)(r->buf + r->buf_pos);
	note_auxtrace(r, &h, r->buf + r->buf_pos, *at);
	r->buf_pos += h.size;
	return 1;
}

static int bad_compressed(struct pk_data_reader *r, const char *fmt, ...) PK__PRINTF(2, 3);

static int bad_compressed(struct pk_data_reader *r, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	r->err = pk__error(-EINVAL, "read perf.data", "%s: the COMPRESSED record at offset %llu %s", r->path,
			   (unsigned long long)r->dbuf_at, why);
	return r->err;
}

/* The next whole record expanded from COMPRESSED records: 1, or 0 when
 * dbuf holds none whole yet.  Records inside are kernel records, whole
 * multiples of 8 bytes, so dbuf_pos stays 8-aligned. */
static int inner_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	size_t have = r->dbuf_len - r->dbuf_pos;
	struct perf_event_header h;

	if (have < sizeof(h))
		return 0;
	memcpy(&h, r->dbuf + r->dbuf_pos, sizeof(h));
	if (r->swap)
		pk__reader_swap_header(&h);
	if (h.size < sizeof(h) || h.size % 8 || h.type == PK__RECORD_COMPRESSED)
		return bad_compressed(r, "expands to a record %sof size %u, which no record has",
				      h.type == PK__RECORD_COMPRESSED ? "that is COMPRESSED again, " : "", h.size);
	if (h.size > have)
		return 0;
	*rec = (const struct perf_event_header *)(const void *)(r->dbuf + r->dbuf_pos);
	r->dbuf_pos += h.size;
	if (r->swap)
		pk__reader_swap_record(r, (struct perf_event_header *)(void *)(r->dbuf + r->dbuf_pos - h.size));
	return 1;
}

static int start_inflate(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t at)
{
	r->dbuf_at = at;
	r->stats.nr_compressed++;
	if (r->have_comp && r->comp.type != 1)
		return bad_compressed(r, "uses compression type %u, where perf 6.1 knows only zstd (1)",
				      r->comp.type);
	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		r->dbuf = pk__reader_buf_new(r);
		if (!r->zds || !r->dbuf)
			return r->err = pk__error_nomem("the zstd decompressor");
		r->dbuf_cap = PK__READER_BUF_SIZE;
		if (ZSTD_isError(ZSTD_initDStream(r->zds)))
			return r->err = pk__error_nomem("the zstd decompressor");
	}
	r->zin = (const unsigned char *)(h + 1);
	r->zin_len = h->size - sizeof(*h);
	r->zin_pos = 0;
	return 0;
}

/* Expand as much as dbuf takes.  What is left of a record cut at the end
 * of the last expansion moves to the front first: it is under 64 KiB
 * (sizes are 16 bits), so a quarter of a megabyte always has room. */
static int inflate_some(struct pk_data_reader *r)
{
	ZSTD_inBuffer in = { r->zin, r->zin_len, r->zin_pos };
	ZSTD_outBuffer out;
	size_t ret;

	if (to_front(r, &r->dbuf, r->dbuf_pos, r->dbuf_len))
		return r->err = -ENOMEM;
	r->dbuf_len -= r->dbuf_pos;
	r->dbuf_pos = 0;
	out = (ZSTD_outBuffer){ r->dbuf, r->dbuf_cap, r->dbuf_len };
	ret = ZSTD_decompressStream(r->zds, &out, &in);
	if (ZSTD_isError(ret))
		return bad_compressed(r, "does not decompress (zstd: %s)", ZSTD_getErrorName(ret));
	if (in.pos == r->zin_pos && out.pos == r->dbuf_len && r->zin_pos < r->zin_len)
		return bad_compressed(r, "stalls the zstd decompressor");
	r->zout_full = out.pos == out.size;
	r->zin_pos = in.pos;
	r->dbuf_len = out.pos;
	return 0;
}

void pk__reader_keep(struct pk_data_reader *r)
{
	const struct pk_error *e = pk_last_error();

	if (r->err_kept)
		return;
	r->err_kept = true;
	snprintf(r->err_what, sizeof(r->err_what), "%s", e->what ? e->what : "");
	snprintf(r->err_why, sizeof(r->err_why), "%s", e->why ? e->why : "");
}

int pk__reader_again(struct pk_data_reader *r)
{
	return r->err_kept ? pk__error(r->err, r->err_what, "%s", r->err_why) : r->err;
}

int pk__reader_stream_raw(struct pk_data_reader *r, const struct perf_event_header **rec, uint64_t *at)
{
	int ret;

	if (r->err)
		return pk__reader_again(r);
	ret = raw_next(r, rec, at);
	if (ret < 0)
		pk__reader_keep(r);
	return ret;
}

void pk__reader_stream_unread(struct pk_data_reader *r, size_t size)
{
	if (r->skip && r->skip_at == r->buf_off + r->buf_pos - size)
		r->skip = 0;	/* announced again when read again */
	r->buf_pos -= size;
}

int pk__reader_stream_read(struct pk_data_reader *r, void *p, size_t len, const char *what)
{
	while (len) {
		size_t n = len < PK__READER_BUF_SIZE ? len : PK__READER_BUF_SIZE, have;
		int err = fill(r, n);

		if (err)
			return r->err = err;
		have = r->buf_len - r->buf_pos;
		if (!have)
			return r->err = pk__error(-EINVAL, "read perf.data", "%s ends at offset %llu, inside %s",
						  r->path, (unsigned long long)(r->buf_off + r->buf_pos), what);
		if (n > have)
			n = have;
		memcpy(p, r->buf + r->buf_pos, n);
		r->buf_pos += n;
		p = (char *)p + n;
		len -= n;
	}
	return 0;
}

/* AUX area tracing records are counted and not delivered: nothing here
 * decodes them (an AUXTRACE's trace data is skipped by raw_next). */
static bool skipped(struct pk_data_reader *r, uint32_t type)
{
	switch (type) {
	case PK__RECORD_AUXTRACE: r->stats.nr_auxtrace++; return true;
	case PK__RECORD_AUXTRACE_INFO: r->stats.nr_auxtrace_info++; return true;
	case PERF_RECORD_AUX: r->stats.nr_aux++; return true;
	case PERF_RECORD_ITRACE_START: r->stats.nr_itrace_start++; return true;
	default: return false;
	}
}

static int stream_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	uint64_t at;
	int ret;

	if (r->pipe && (ret = pk__reader_pipe_prelude(r, rec)) != 0)
		return ret;	/* the header records taken at open, first */
	for (;;) {
		if (r->err)
			return r->err;
		ret = inner_next(r, rec);
		if (ret > 0 && skipped(r, (*rec)->type))
			continue;	/* in a COMPRESSED record as anywhere */
		if (ret > 0)
			r->rec_off = r->dbuf_at;
		if (ret)
			return ret;
		if (r->zin_pos < r->zin_len || r->zout_full) {
			ret = inflate_some(r);
			if (ret)
				return ret;
			continue;
		}
		ret = raw_next(r, rec, &at);
		if (ret == 0 && r->dbuf_pos < r->dbuf_len)
			return bad_compressed(r, "expands to a cut record at the end of the data: "
					      "%zu bytes of it, the rest missing", r->dbuf_len - r->dbuf_pos);
		if (ret > 0 && r->swap)
			pk__reader_swap_record(r, (struct perf_event_header *)(uintptr_t)*rec);
		if (ret > 0 && r->pipe && pk__reader_pipe_pass(r, rec, at) <= 0)
			continue;	/* taken, or the damage now in r->err */
		if (ret > 0 && skipped(r, (*rec)->type))
			continue;
		if (ret > 0)
			r->rec_off = at;
		if (ret > 0 && (*rec)->type == PK__RECORD_EVENT_UPDATE) {
			int err = pk__reader_event_update(r, *rec);

			if (err)
				return r->err = err;
		}
		if (ret <= 0 || (*rec)->type != PK__RECORD_COMPRESSED)
			return ret;
		r->nr_taken[PK__RECORD_COMPRESSED - 64]++;
		ret = start_inflate(r, *rec, at);
		if (ret)
			return ret;
	}
}

int pk__reader_stream_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	int ret;

	/* the header records taken at open come first, a damage after them
	 * or not (open succeeded: what came before it is delivered) */
	if (r->pipe && r->err && (ret = pk__reader_pipe_prelude(r, rec)) != 0)
		return ret;
	if (r->err)
		return pk__reader_again(r);
	ret = stream_next(r, rec);
	if (ret < 0) {
		r->err = ret;
		pk__reader_keep(r);
	}
	return ret;
}

bool pk__reader_stream_window(const struct pk_data_reader *r, struct rd_window *w)
{
	uint64_t pos = r->buf_off + r->buf_pos;

	if (r->err || r->swap || pk__reader_pipe_pending(r))
		return false;
	if (r->dbuf_pos < r->dbuf_len) {	/* inner_next's, first */
		*w = (struct rd_window){ r->dbuf + r->dbuf_pos, r->dbuf_len - r->dbuf_pos, r->dbuf_at, true,
					 PK__RD_BUF(r->dbuf) };
		return true;
	}
	/* raw_next's, as buffered_next takes them, in a pipe too */
	if (r->zin_pos < r->zin_len || r->zout_full || r->skip || (r->buf_pos % 8) || pos >= r->data_end)
		return false;
	*w = (struct rd_window){ r->buf + r->buf_pos, r->buf_len - r->buf_pos, pos, false, PK__RD_BUF(r->buf) };
	if (w->len > r->data_end - pos)
		w->len = (size_t)(r->data_end - pos);
	return true;
}

void pk__reader_stream_took(struct pk_data_reader *r, const struct rd_window *w, size_t n, uint64_t at)
{
	if (w->expanded)
		r->dbuf_pos += n;
	else
		r->buf_pos += n;
	r->rec_off = at;
}

void pk__reader_stream_free(struct pk_data_reader *r)
{
	ZSTD_freeDStream(r->zds);
	pk__reader_buf_drop(r->dbuf);
}
