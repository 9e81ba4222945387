/* SPDX-License-Identifier: MIT */
/*
 * writer.c - perf.data files, written the way perf 6.1 lays them out: the
 * 104-byte PERFILE2 header, each event's ids, the attrs section (attr plus
 * a section pointing at its ids), the records, then the table of feature
 * sections and their payloads (features.c).  Each writer has its own
 * temporary file, "<path>.partial.XXXXXX", renamed into place only once it
 * is whole, so two recordings to one path never mix.  The header and attrs
 * are on disk from the first record, and pk_data_writer_tick writes the buffered
 * records out at least once a second, then the header with the data size
 * that covers them (perf 6.1 reads nothing of a data size of 0): a
 * recorder killed at any moment leaves a file perf reads, short of about
 * the last second.  A device
 * (/dev/null) is written into directly, as perf does, and never replaced.
 *
 * Records go through a 1 MiB buffer.  When it fills, its whole 4 KiB
 * blocks are written with O_DIRECT where the file system allows it, and
 * the few bytes after the last block stay at the front of the buffer.  A
 * recording writes gigabytes that nobody reads until it ends; through the
 * page cache each byte costs a second copy into a freshly allocated page,
 * and that copy was three quarters of the recorder's CPU with DWARF stacks
 * (docs/PERFORMANCE.md).  The last bytes, the features and the header go
 * through the page cache as before.  Pipe mode, a stream written strictly
 * in order, shares the buffer and the compression and is writer-pipe.c's.
 */
#include "data.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#define BUF_SIZE PK__DATA_BUF_SIZE
#define BLOCK 4096			/* O_DIRECT's alignment: the largest logical block size */
#define STAGE_SIZE (128 * 1024)		/* whole records compressed at a time */
#define PERF_RECORD_COMPRESSED 81	/* a perf.data record: zstd-compressed records */
#define MAX_PAYLOAD (65535 - sizeof(struct perf_event_header))
#define TICK_NS 1000000000ULL		/* pk_data_writer_tick: records reach the file at least this often */

struct file_header {
	char magic[8];
	uint64_t size;
	uint64_t attr_size;
	struct pk__file_section attrs, data, event_types;
	uint64_t flags[4];
};

_Static_assert(sizeof(struct file_header) == 104, "perf_file_header is 104 bytes");
_Static_assert(sizeof(struct perf_event_attr) == PK__ATTR_SIZE, "the 6.1 attr is 128 bytes");

/* CLOCK_MONOTONIC in *t; false when it cannot be read. */
static bool now_ns(uint64_t *t)
{
	struct timespec ts;

	if (pk__sys_clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return false;
	*t = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return true;
}

/* The error record for a file that cannot be created or opened. */
static int cannot_create(const char *name, int e)
{
	struct rlimit rl;

	pk__error(-e, "create perf.data", "cannot create %s: %s", name, strerror(e));
	if (e == EMFILE && pk__sys_getrlimit(RLIMIT_NOFILE, &rl) == 0)
		pk__error_hint("the process has reached its limit of open files (RLIMIT_NOFILE soft %lld, "
			       "hard %lld): raise it with `ulimit -n`, or open fewer events or CPUs",
			       (long long)rl.rlim_cur, (long long)rl.rlim_max);
	else if (e == EMFILE)
		pk__error_hint("%s", "the process has reached its limit of open files: raise it with "
			       "`ulimit -n`, or open fewer events or CPUs");
	else if (e == EACCES || e == EROFS || e == EPERM)
		pk__error_hint("%s", "write it somewhere you may write (-o DIR/perf.data)");
	else
		pk__error_hint("%s", "check the directory exists and has space");
	return -e;
}

/*
 * What is at `path` decides how it is written: nothing or a regular file
 * (or a link to one) gets a temporary file renamed over it at the end; a
 * device is written into; a directory, FIFO or socket is refused, since a
 * perf.data file is written out of order and needs a seekable file.
 */
static int check_target(const char *path, bool *device)
{
	struct stat st;

	*device = false;
	if (!path[0])
		return pk__error(-EINVAL, "create perf.data", "%s", "the file name is empty");
	if (stat(path, &st) < 0)
		return 0;
	/* perf's directory (record --threads) is replaced as a file is. */
	if (S_ISDIR(st.st_mode) && !pk__data_dir_ours(path)) {
		pk__error(-EISDIR, "create perf.data", "%s is a directory, and not one perf record "
			  "--threads wrote (data and data.N files only): it is left alone", path);
		pk__error_hint("name a file in it: -o %s/perf.data", path);
		return -EISDIR;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		pk__error(-ESPIPE, "create perf.data", "%s is a %s: a perf.data file is written out of "
			  "order and needs a seekable file", path, S_ISFIFO(st.st_mode) ? "FIFO" : "socket");
		pk__error_hint("%s", "write a regular file, or stream perf's pipe format to it "
			       "(pk_data_writer_create_pipe; perfkit record -o - > FIFO)");
		return -ESPIPE;
	}
	*device = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
	return 0;
}

/* Open the file the records go to: the device itself, or a new temporary
 * file next to `path` (so the final rename stays on one file system). */
static int open_target(struct pk_data_writer *w)
{
	if (w->device) {
		w->fd = open(w->path, O_WRONLY | O_CLOEXEC);
		return w->fd < 0 ? cannot_create(w->path, errno) : 0;
	}
	if (pk__asprintf(&w->partial, "%s.partial.XXXXXX", w->path) < 0) {
		w->partial = NULL;
		return pk__error_nomem("the name of %s's partial file", w->path);
	}
	/* mkostemp: O_EXCL and mode 0600, as perf creates perf.data. */
	w->fd = mkostemp(w->partial, O_CLOEXEC);
	if (w->fd < 0)
		return cannot_create(w->partial, errno);
	/* ramfs and some others refuse O_DIRECT: then everything is buffered. */
	w->dfd = open(w->partial, O_WRONLY | O_DIRECT | O_CLOEXEC);
	return 0;
}

int pk_data_writer_create(const char *path, struct pk_data_writer **out)
{
	struct pk_data_writer *w;
	void *buf = NULL;
	bool device;
	int err;

	pk__error_clear();
	if ((err = check_target(path, &device)) < 0)
		return err;
	w = pk__calloc(1, sizeof(*w));
	if (w && (buf = pk__memalign(BLOCK, BUF_SIZE)))
		w->buf = buf;
	if (!w || !w->buf || !(w->path = pk__strdup(path))) {
		if (w)
			free(w->buf);
		free(w);
		return pk__error_nomem("the perf.data writer");
	}
	w->fd = w->dfd = -1;
	w->device = device;
	if ((err = open_target(w)) < 0) {
		pk__data_writer_free(w);
		return err;
	}
	*out = w;
	return 0;
}

/* The file being written: the temporary file, or the device. */
static const char *file_name(const struct pk_data_writer *w)
{
	return w->partial ? w->partial : w->path;
}

const char *pk_data_writer_temp_path(const struct pk_data_writer *w)
{
	return w->partial;
}

int pk_data_writer_set_path(struct pk_data_writer *w, const char *path)
{
	char *p;

	if (w->device || w->pipe)
		return pk__error(-EINVAL, "pk_data_writer_set_path", "%s is written in place: it has no "
				 "file to rename", w->pipe ? "a stream" : w->path);
	if (!path || !path[0])
		return pk__error(-EINVAL, "pk_data_writer_set_path", "the new name is empty");
	if (!(p = pk__strdup(path)))
		return pk__error_nomem("the name %s", path);
	free(w->path);
	w->path = p;
	w->keep_old = false;
	w->no_replace = true;
	return 0;
}

void pk__data_writer_free(struct pk_data_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->dfd >= 0)
		close(w->dfd);
	for (size_t i = 0; i < w->nr_events; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	free(w->groups);
	for (size_t i = 0; i < w->nr_build_ids; i++)
		free(w->build_ids[i].name);
	free(w->build_ids);
	for (size_t i = 0; i < w->nr_cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	free(w->buf);
	free(w->partial);
	free(w->path);
	free(w->stage);
	ZSTD_freeCStream(w->zcs);
	free(w->marks);
	pk__data_bpf_free(w->bpf);
	pk__data_dir_free(w->dir);
	free(w);
}

void pk__data_writer_mark(struct pk_data_writer *w)
{
	if (w->nr_marks && w->data_size - w->marks[w->nr_marks - 1] < 64 * 1024)
		return;
	if (w->nr_marks == w->cap_marks) {
		size_t cap = w->cap_marks ? w->cap_marks * 2 : 64;
		/* Plain realloc: failing here costs only a place to cut back to,
		 * so it must not leave an error record behind a call that works. */
		uint64_t *n = realloc(w->marks, cap * sizeof(*n));

		if (!n)
			return;	/* fewer places to cut back to; nothing worse */
		w->marks = n;
		w->cap_marks = cap;
	}
	w->marks[w->nr_marks++] = w->data_size;
}

void pk_data_writer_abort(struct pk_data_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0 && w->partial)
		unlink(w->partial);
	pk__data_dir_abort(w->dir);
	w->dir = NULL;
	pk__data_writer_free(w);
}

/*
 * Write `len` bytes at w->offset through `fd`, retrying short writes.  A
 * direct write that fails (a file system may refuse one it opened), or
 * comes back short and so leaves the rest off a block, is not an error
 * yet: the rest, and everything after it, goes through the page cache,
 * and only a failure there is reported.
 */
static int write_at(struct pk_data_writer *w, int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = pwrite(fd, c, len, (off_t)w->offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (fd == w->dfd && (n < 0 || (size_t)n < len)) {
			close(w->dfd);
			w->dfd = -1;
			fd = w->fd;
			if (n <= 0)
				continue;
		}
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;

			pk__error(-e, "write perf.data", "writing %s failed: %s", file_name(w), strerror(e));
			if (e == ENOSPC) {
				w->full = true;
				pk__error_hint("%s", "the disk is full: free space, or record less (-F, -m, --duration)");
			}
			return -e;
		}
		c += n;
		len -= (size_t)n;
		w->offset += (uint64_t)n;
	}
	return 0;
}

/* Write out everything buffered, through the page cache (the bytes
 * copy_out wrote already too: they are rewritten, not skipped). */
int pk__data_writer_flush(struct pk_data_writer *w)
{
	int err = w->pipe ? pk__data_writer_pipe_flush(w) : write_at(w, w->fd, w->buf, w->buf_len);

	if (!err)
		w->buf_len = w->flushed = 0;
	return err;
}

/*
 * Copy what the buffer holds beyond what is already there into the file,
 * through the page cache, but keep it buffered: the file offset stays on
 * a block, so the O_DIRECT path goes on, and writes these bytes again as
 * part of its next whole blocks.  That rewrite is at most one buffer a
 * second, and it is what makes a killed recorder's file readable.
 */
static int copy_out(struct pk_data_writer *w)
{
	uint64_t offset = w->offset;
	int err;

	if (w->flushed == w->buf_len)
		return 0;
	w->offset += w->flushed;
	err = write_at(w, w->fd, w->buf + w->flushed, w->buf_len - w->flushed);
	w->offset = offset;
	if (!err)
		w->flushed = w->buf_len;
	return err;
}

/*
 * Make room in a full buffer: its whole blocks go out directly when the
 * file offset is on a block, and the bytes after them move to the front.
 * Otherwise (no O_DIRECT, or an offset moved off a block by cut_back) all
 * of it goes through the page cache.
 */
static int drain(struct pk_data_writer *w)
{
	size_t blocks = w->buf_len & ~(size_t)(BLOCK - 1);
	int err;

	if (w->dfd < 0 || w->offset % BLOCK || !blocks)
		return pk__data_writer_flush(w);
	err = write_at(w, w->dfd, w->buf, blocks);
	if (!err) {
		w->buf_len -= blocks;
		w->flushed = w->flushed > blocks ? w->flushed - blocks : 0;
		memmove(w->buf, w->buf + blocks, w->buf_len);
	}
	return err;
}

int pk__data_writer_put(struct pk_data_writer *w, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len) {
		size_t n = BUF_SIZE - w->buf_len;
		int err;

		if (!n && (err = drain(w)))
			return err;
		n = BUF_SIZE - w->buf_len;
		if (n > len)
			n = len;
		memcpy(w->buf + w->buf_len, c, n);
		w->buf_len += n;
		c += n;
		len -= n;
	}
	return 0;
}

/* The position the next byte put will have in the file. */
uint64_t pk__data_writer_pos(const struct pk_data_writer *w)
{
	return w->offset + w->buf_len;
}

/*
 * The header as it stands: attrs, and the data section with its size so
 * far; feature bits come only with pk_data_writer_finish.  With a data size of 0
 * perf reads the records to the end of the file (and warns).
 */
static void fill_header(const struct pk_data_writer *w, struct file_header *h, uint64_t data_size)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, "PERFILE2", sizeof(h->magic));
	h->size = sizeof(*h);
	h->attr_size = PK__ATTR_SIZE + sizeof(struct pk__file_section);
	h->attrs = (struct pk__file_section){ w->attrs_offset, w->nr_events * h->attr_size };
	h->data = (struct pk__file_section){ w->data_offset, data_size };
}

/* Write the header at the start of the file, through the page cache. */
static int write_header(struct pk_data_writer *w, const struct file_header *h)
{
	if (pwrite(w->fd, h, sizeof(*h), 0) == (ssize_t)sizeof(*h))
		return 0;
	return pk__error(errno ? -errno : -EIO, "write perf.data", "writing the header of %s failed: %s",
			 file_name(w), strerror(errno ? errno : EIO));
}

/*
 * Lay out what comes before the records, as perf does: the header, each
 * event's ids, then the attrs section; and put them in the file at once,
 * so a recording cut short at any moment leaves a file perf reads.
 */
static int start(struct pk_data_writer *w)
{
	struct file_header h = { 0 };
	int err;

	/* perf reads the BPF programs loaded as its recording begins: one
	 * unloaded before the end can no longer be read then. */
	if ((err = pk__data_bpf_snapshot(&w->bpf)) < 0)
		return err;
	if (w->pipe)
		return pk__data_writer_pipe_start(w);
	err = pk__data_writer_put(w, &h, sizeof(h));

	for (size_t i = 0; !err && i < w->nr_events; i++) {
		w->ev[i].ids_offset = pk__data_writer_pos(w);
		err = pk__data_writer_put(w, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
	w->attrs_offset = pk__data_writer_pos(w);
	for (size_t i = 0; !err && i < w->nr_events; i++) {
		struct pk__file_section ids = { w->ev[i].ids_offset, w->ev[i].nr_ids * sizeof(uint64_t) };

		err = pk__data_writer_put(w, &w->ev[i].attr, PK__ATTR_SIZE);
		if (!err)
			err = pk__data_writer_put(w, &ids, sizeof(ids));
	}
	w->data_offset = pk__data_writer_pos(w);
	w->started = true;
	w->last_tick = 0;	/* the first tick writes the records synthesized before it */
	if (err)
		return err;
	fill_header(w, &h, 0);
	if (w->offset)		/* the ids outgrew the buffer: the header is already out */
		err = write_header(w, &h);
	else
		memcpy(w->buf, &h, sizeof(h));
	return err ? err : copy_out(w);
}

int pk__data_writer_begin(struct pk_data_writer *w)
{
	return w->started ? 0 : start(w);
}

int pk_data_writer_keep_bpf(struct pk_data_writer *w, const struct pk_data_writer *from)
{
	return pk__data_bpf_merge(&w->bpf, from->bpf);
}

int pk__data_writer_add_bpf(struct pk_data_writer *w, const struct pk__data_bpf *s)
{
	return pk__data_bpf_merge(&w->bpf, s);
}

int pk_data_writer_set_compression(struct pk_data_writer *w, int level)
{
	if (w->started || level < 1 || level > ZSTD_maxCLevel())
		return pk__error(-EINVAL, "perf.data compression", "%s", w->started ?
				 "compression must be chosen before the first records" :
				 "the zstd level must be 1 to 22");
	if (!w->zcs && !(w->zcs = ZSTD_createCStream()))
		return pk__error_nomem("the zstd compressor");
	if (!w->stage && !(w->stage = pk__malloc(STAGE_SIZE)))
		return pk__error_nomem("the compression buffer");
	if (ZSTD_isError(ZSTD_initCStream(w->zcs, level)))
		return pk__error(-EINVAL, "perf.data compression", "zstd refused level %d", level);
	w->comp_level = level;
	return 0;
}

/*
 * Compress the staged records with a zstd flush, so everything so far can
 * be decompressed, and emit the output as COMPRESSED records of at most
 * 64 KiB (their size is 16 bits).  perf keeps one decompression stream over
 * the whole file, so the stream is never ended.
 */
static int compress_stage(struct pk_data_writer *w)
{
	ZSTD_inBuffer in = { w->stage, w->stage_len, 0 };
	unsigned char out[65535];
	size_t left;
	int err = 0;

	if (!w->stage_len)
		return 0;
	do {
		ZSTD_outBuffer o = { out + sizeof(struct perf_event_header), MAX_PAYLOAD, 0 };
		struct perf_event_header h = { PERF_RECORD_COMPRESSED, 0, 0 };

		left = ZSTD_compressStream2(w->zcs, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return pk__error(-EIO, "compress perf.data", "zstd: %s", ZSTD_getErrorName(left));
		if (!o.pos)
			continue;
		h.size = (uint16_t)(sizeof(h) + o.pos);
		memcpy(out, &h, sizeof(h));
		err = pk__data_writer_put(w, out, h.size);
		if (err)
			break;
		w->data_size += h.size;
		w->comp_out += h.size;
		pk__data_writer_mark(w);
	} while (!err && (left || in.pos < in.size));
	w->comp_in += w->stage_len;
	w->stage_len = 0;
	return err;
}

int pk_data_writer_write(struct pk_data_writer *w, const void *records, size_t len)
{
	int err = w->started ? 0 : start(w);

	if (err || (err = w->pipe_err))
		return err;
	/* A program loaded since: read its info while it is there (perf's side band). */
	if ((err = pk__data_bpf_note(w->bpf, records, len)) < 0)
		return err;
	if (w->full)
		return pk__error(-ENOSPC, "write perf.data", "%s", "the disk is full: recording stopped");
	if (!w->zcs) {
		err = pk__data_writer_put(w, records, len);
		if (!err) {
			w->data_size += len;
			pk__data_writer_mark(w);
		}
		return err;
	}
	/* Records bigger than the stage go through it in one compression each. */
	if (w->stage_len + len > STAGE_SIZE && (err = compress_stage(w)))
		return err;
	if (len > STAGE_SIZE) {
		const unsigned char *saved = w->stage;

		w->stage = (unsigned char *)(uintptr_t)records;
		w->stage_len = len;
		err = compress_stage(w);
		w->stage = (unsigned char *)(uintptr_t)saved;
		return err;
	}
	memcpy(w->stage + w->stage_len, records, len);
	w->stage_len += len;
	return 0;
}

int pk_data_writer_write_round(struct pk_data_writer *w)
{
	static const struct perf_event_header round = {
		.type = PK_DATA_RECORD_FINISHED_ROUND, .size = sizeof(round),
	};

	/* perf record --threads writes no rounds: its reader sorts by time. */
	return w->dir_format ? 0 : pk_data_writer_write(w, &round, sizeof(round));
}

int pk_data_writer_tick(struct pk_data_writer *w)
{
	struct file_header h;
	uint64_t t = 0;
	int err = 0;

	if (!w->started || w->full)
		return 0;
	/* Without a clock every tick writes: the records still reach the file. */
	if (now_ns(&t) && t - w->last_tick < TICK_NS)
		return 0;
	w->last_tick = t;
	if (w->zcs)
		err = compress_stage(w);
	/* A pipe: the reader gets the records now; there is no header to update. */
	if (!err)
		err = w->pipe ? pk__data_writer_flush(w) : copy_out(w);
	if (!err)
		err = pk__data_dir_flush(w);
	if (err || w->pipe)
		return err;
	/* Every record put is in the file now: the header can say so.  While
	 * the buffer still holds the start of the file, its copy too, or the
	 * next O_DIRECT block would put the old header back. */
	fill_header(w, &h, w->data_size);
	/* A directory's data file says DIR_FORMAT from here on (writer-dir.c). */
	if (w->dir && (err = pk__data_dir_features(w, w->data_offset + w->data_size, h.flags)) < 0)
		return err;
	if (!w->offset)
		memcpy(w->buf, &h, sizeof(h));
	return write_header(w, &h);
}

uint64_t pk_data_writer_size(const struct pk_data_writer *w)
{
	return w->data_size + pk__data_dir_bytes(w);
}

/*
 * A full disk: drop what was not written, cut the data back to a record
 * boundary at least `room` bytes below what is on disk (freeing that space),
 * and carry on from there.  Returns the bytes cut, or -ENOSPC when there is
 * nothing left to cut.
 */
static int64_t cut_back(struct pk_data_writer *w, uint64_t room)
{
	uint64_t on_disk = w->offset > w->data_offset ? w->offset - w->data_offset : 0;
	uint64_t keep = 0, cut;

	for (size_t i = w->nr_marks; i-- > 0;)
		if (w->marks[i] + room <= on_disk && w->marks[i] <= w->data_size) {
			keep = w->marks[i];
			break;
		}
	if (!w->started || keep >= w->data_size || ftruncate(w->fd, (off_t)(w->data_offset + keep)) < 0)
		return -ENOSPC;
	cut = w->data_size - keep;
	w->buf_len = w->flushed = 0;
	w->stage_len = 0;
	w->offset = w->data_offset + keep;
	w->data_size = keep;
	while (w->nr_marks && w->marks[w->nr_marks - 1] > keep)
		w->nr_marks--;
	return (int64_t)cut;
}

/*
 * The records still buffered, a header that covers them (so a recorder
 * killed while writing the features leaves a file whose data ends where
 * the records do), then the features.  flags[] gets the feature bits.
 */
static int finish_file(struct pk_data_writer *w, uint64_t flags[4])
{
	struct file_header h;
	int err = 0;

	memset(flags, 0, 4 * sizeof(*flags));
	if (!w->full && w->zcs)
		err = compress_stage(w);
	if (!err)
		err = pk__data_writer_flush(w);
	fill_header(w, &h, w->data_size);
	if (!err)
		err = write_header(w, &h);
	if (!err)
		err = pk__data_writer_features(w, flags);
	if (!err)
		err = pk__data_writer_flush(w);
	return err;
}

/*
 * Put the whole file at its path: keep a regular file found there as
 * "<path>.old" when asked, then rename over it.  A failure keeps the
 * temporary file and says where the recording is.
 */
static int place(struct pk_data_writer *w)
{
	char old[4096];
	struct stat st;
	int e;

	if (w->device)
		return 0;
	if (stat(w->path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !(S_ISDIR(st.st_mode) && w->keep_old && !w->no_replace && pk__data_dir_ours(w->path))) {
		pk__error(-EEXIST, "write perf.data", "%s is no longer a regular file: it was left alone, "
			  "and the recording is in %s", w->path, w->partial);
		return -EEXIST;
	}
	/* A name chosen by set_path never replaces a file found there. */
	if (w->no_replace && renameat2(AT_FDCWD, w->partial, AT_FDCWD, w->path, RENAME_NOREPLACE) < 0) {
		e = errno;
		pk__error(-e, "write perf.data", "cannot rename %s to %s: %s", w->partial, w->path,
			  e == EEXIST ? "a file of that name appeared" : strerror(e));
		return -e;
	}
	if (w->no_replace)
		return 0;
	snprintf(old, sizeof(old), "%s.old", w->path);
	if (w->keep_old && stat(w->path, &st) == 0)
		pk__data_clear_old(old, S_ISDIR(st.st_mode));
	if (w->keep_old && stat(w->path, &st) == 0 && rename(w->path, old) < 0) {
		e = errno;
		pk__error(-e, "write perf.data", "cannot keep the old %s as %s: %s; the recording is in %s",
			  w->path, old, strerror(e), w->partial);
		return -e;
	}
	if (rename(w->partial, w->path) < 0) {
		e = errno;
		pk__error(-e, "write perf.data", "cannot rename %s to %s: %s", w->partial, w->path,
			  strerror(e));
		return -e;
	}
	return 0;
}

/* The end of a stream: what is staged and buffered, then the build-ids. */
static int finish_pipe(struct pk_data_writer *w)
{
	int err = w->started ? 0 : start(w);

	if (!err && w->zcs)
		err = compress_stage(w);
	if (!err)
		err = pk__data_writer_pipe_end(w);
	pk__data_writer_free(w);
	return err;
}

int pk_data_writer_finish(struct pk_data_writer *w)
{
	struct file_header h;
	uint64_t flags[4];
	int err;
	int64_t dropped = 0;

	if (w->pipe)
		return finish_pipe(w);
	if (w->dir)
		return pk__data_dir_finish(w);
	err = w->started ? 0 : start(w);
	if (!err)
		err = finish_file(w, flags);
	/* Out of space: give records back, 256 KiB at a time, until the rest fits. */
	for (int tries = 0; err == -ENOSPC && tries < 16; tries++) {
		int64_t cut = cut_back(w, (uint64_t)(tries + 1) * 256 * 1024);

		if (cut < 0)
			break;
		dropped += cut;
		err = finish_file(w, flags);
	}
	fill_header(w, &h, w->data_size);
	memcpy(h.flags, flags, sizeof(h.flags));
	/* The features' bits go last: until then the file reads without them. */
	if (!err)
		err = write_header(w, &h);
	/* A device (/dev/null) has nothing to sync, and may refuse. */
	if (!err && !w->device && fsync(w->fd) < 0)
		err = pk__error(-errno, "write perf.data", "fsync of %s failed: %s", file_name(w),
				strerror(errno));
	if (err && (!w->started || w->device || !w->partial)) {
		pk_data_writer_abort(w);
		return err;
	}
	if (err) {
		/* The header and attrs are out, and the header counts every record
		 * up to the last flush: what was recorded stays readable. */
		pk__error_hint("what was recorded until then is kept in %s, which perf reads",
			       w->partial);
		pk__data_writer_free(w);
		return err;
	}
	err = place(w);
	pk__data_writer_free(w);
	return err < 0 ? err : (int)(dropped > INT32_MAX ? INT32_MAX : dropped);
}
