/* SPDX-License-Identifier: MIT */
/*
 * writer.c - perf.data files, written the way perf 6.1 lays them out: the
 * 104-byte PERFILE2 header, each event's ids, the attrs section (attr plus
 * a section pointing at its ids), the records, then the table of feature
 * sections and their payloads (features.c).  The file is written as
 * "<path>.partial" and renamed into place only once it is whole.
 *
 * Records go through a 1 MiB buffer.  When it fills, its whole 4 KiB
 * blocks are written with O_DIRECT where the file system allows it, and
 * the few bytes after the last block stay at the front of the buffer.  A
 * recording writes gigabytes that nobody reads until it ends; through the
 * page cache each byte costs a second copy into a freshly allocated page,
 * and that copy was three quarters of the recorder's CPU with DWARF stacks
 * (docs/PERFORMANCE.md).  The last bytes, the features and the header go
 * through the page cache as before.
 */
#include "data.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define BUF_SIZE (1 << 20)
#define BLOCK 4096			/* O_DIRECT's alignment: the largest logical block size */
#define STAGE_SIZE (128 * 1024)		/* whole records compressed at a time */
#define PERF_RECORD_COMPRESSED 81	/* a perf.data record: zstd-compressed records */
#define MAX_PAYLOAD (65535 - sizeof(struct perf_event_header))

struct file_header {
	char magic[8];
	uint64_t size;
	uint64_t attr_size;
	struct pk__file_section attrs, data, event_types;
	uint64_t flags[4];
};

_Static_assert(sizeof(struct file_header) == 104, "perf_file_header is 104 bytes");
_Static_assert(sizeof(struct perf_event_attr) == PK__ATTR_SIZE, "the 6.1 attr is 128 bytes");

int pk_data_create(const char *path, struct pk_data_writer **out)
{
	struct pk_data_writer *w;
	void *buf = NULL;

	pk__error_clear();
	w = calloc(1, sizeof(*w));
	if (w && !posix_memalign(&buf, BLOCK, BUF_SIZE))
		w->buf = buf;
	if (!w || !w->buf || asprintf(&w->partial, "%s.partial", path) < 0 ||
	    !(w->path = strdup(path))) {
		if (w)
			free(w->buf);
		free(w);
		return -ENOMEM;
	}
	w->dfd = -1;
	w->fd = open(w->partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int e = errno;

		pk__error(-e, "create perf.data", "cannot create %s: %s", w->partial, strerror(e));
		pk__error_hint("%s", e == EACCES ? "write it somewhere you may write (-o DIR/perf.data)"
						 : "check the directory exists and has space");
		pk__data_free(w);
		return -e;
	}
	/* ramfs and some others refuse O_DIRECT: then everything is buffered. */
	w->dfd = open(w->partial, O_WRONLY | O_DIRECT | O_CLOEXEC);
	*out = w;
	return 0;
}

void pk__data_free(struct pk_data_writer *w)
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
	free(w);
}

void pk__data_mark(struct pk_data_writer *w)
{
	if (w->nr_marks && w->data_size - w->marks[w->nr_marks - 1] < 64 * 1024)
		return;
	if (w->nr_marks == w->cap_marks) {
		size_t cap = w->cap_marks ? w->cap_marks * 2 : 64;
		uint64_t *n = realloc(w->marks, cap * sizeof(*n));

		if (!n)
			return;	/* fewer places to cut back to; nothing worse */
		w->marks = n;
		w->cap_marks = cap;
	}
	w->marks[w->nr_marks++] = w->data_size;
}

void pk_data_abort(struct pk_data_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		unlink(w->partial);
	pk__data_free(w);
}

int pk_data_add_event(struct pk_data_writer *w, const struct perf_event_attr *attr, const char *name,
		      const uint64_t *ids, size_t nr_ids)
{
	struct pk__data_event *n, *e;

	if (w->started)
		return pk__error(-EINVAL, "perf.data", "%s", "events must be added before the first records");
	n = realloc(w->ev, (w->nr_events + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	w->ev = n;
	e = &w->ev[w->nr_events];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, sizeof(e->attr));
	/* perf 6.1 reads 128-byte attrs; config3 (a 6.3 field) does not fit. */
	e->attr.size = PK__ATTR_SIZE;
	e->name = strdup(name ? name : "");
	e->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(*ids));
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	e->nr_ids = nr_ids;
	w->nr_events++;
	return 0;
}

int pk_data_add_group(struct pk_data_writer *w, size_t leader, size_t nr_members)
{
	struct pk__data_group *n;

	if (!nr_members || leader + nr_members > w->nr_events)
		return pk__error(-EINVAL, "perf.data", "group of %zu events at %zu: only %zu events were added",
				 nr_members, leader, w->nr_events);
	n = realloc(w->groups, (w->nr_groups + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	w->groups = n;
	w->groups[w->nr_groups++] = (struct pk__data_group){ leader, nr_members };
	return 0;
}

int pk_data_add_build_id(struct pk_data_writer *w, const char *name, const uint8_t *id, size_t size,
			 bool kernel)
{
	struct pk__data_build_id *n;
	char *copy;

	if (!size || size > 20 || strlen(name) >= 4096)
		return pk__error(-EINVAL, "perf.data", "build-id of %zu bytes for \"%.64s\": it takes 1 to 20 "
				 "bytes and a name shorter than 4096", size, name);
	if (!(copy = strdup(name)))
		return -ENOMEM;
	n = realloc(w->build_ids, (w->nr_build_ids + 1) * sizeof(*n));
	if (!n) {
		free(copy);
		return -ENOMEM;
	}
	w->build_ids = n;
	n = &w->build_ids[w->nr_build_ids++];
	*n = (struct pk__data_build_id){ .name = copy, .size = (uint8_t)size, .kernel = kernel };
	memcpy(n->id, id, size);
	return 0;
}

void pk_data_set_clock(struct pk_data_writer *w, int clockid, uint64_t res_ns, uint64_t tod_ns,
		       uint64_t clock_ns)
{
	w->have_clock = true;
	w->clockid = clockid;
	w->clock_res_ns = res_ns;
	w->clock_tod_ns = tod_ns;
	w->clock_ns = clock_ns;
}

int pk_data_set_cmdline(struct pk_data_writer *w, int argc, char *const argv[])
{
	char **c = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		if (!(c[i] = strdup(argv[i]))) {
			while (i--)
				free(c[i]);
			free(c);
			return -ENOMEM;
		}
	for (size_t i = 0; i < w->nr_cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline = c;
	w->nr_cmdline = (size_t)argc;
	return 0;
}

void pk_data_set_sample_time(struct pk_data_writer *w, uint64_t first, uint64_t last)
{
	w->first_sample = first;
	w->last_sample = last;
	w->have_sample_time = true;
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

			pk__error(-e, "write perf.data", "writing %s failed: %s", w->partial, strerror(e));
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

/* Write out everything buffered, through the page cache. */
int pk__data_flush(struct pk_data_writer *w)
{
	int err = write_at(w, w->fd, w->buf, w->buf_len);

	if (!err)
		w->buf_len = 0;
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
		return pk__data_flush(w);
	err = write_at(w, w->dfd, w->buf, blocks);
	if (!err) {
		w->buf_len -= blocks;
		memmove(w->buf, w->buf + blocks, w->buf_len);
	}
	return err;
}

int pk__data_put(struct pk_data_writer *w, const void *p, size_t len)
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
uint64_t pk__data_pos(const struct pk_data_writer *w)
{
	return w->offset + w->buf_len;
}

/*
 * Lay out what comes before the records, as perf does: a placeholder
 * header, each event's ids, then the attrs section.
 */
static int start(struct pk_data_writer *w)
{
	struct file_header zero = { 0 };
	int err = pk__data_put(w, &zero, sizeof(zero));

	for (size_t i = 0; !err && i < w->nr_events; i++) {
		w->ev[i].ids_offset = pk__data_pos(w);
		err = pk__data_put(w, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
	w->attrs_offset = pk__data_pos(w);
	for (size_t i = 0; !err && i < w->nr_events; i++) {
		struct pk__file_section ids = { w->ev[i].ids_offset, w->ev[i].nr_ids * sizeof(uint64_t) };

		err = pk__data_put(w, &w->ev[i].attr, PK__ATTR_SIZE);
		if (!err)
			err = pk__data_put(w, &ids, sizeof(ids));
	}
	w->data_offset = pk__data_pos(w);
	w->started = true;
	return err;
}

int pk_data_set_compression(struct pk_data_writer *w, int level)
{
	if (w->started || level < 1 || level > ZSTD_maxCLevel())
		return pk__error(-EINVAL, "perf.data compression", "%s", w->started ?
				 "compression must be chosen before the first records" :
				 "the zstd level must be 1 to 22");
	if (!w->zcs && !(w->zcs = ZSTD_createCStream()))
		return -ENOMEM;
	if (!w->stage && !(w->stage = malloc(STAGE_SIZE)))
		return -ENOMEM;
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
		err = pk__data_put(w, out, h.size);
		if (err)
			break;
		w->data_size += h.size;
		w->comp_out += h.size;
		pk__data_mark(w);
	} while (!err && (left || in.pos < in.size));
	w->comp_in += w->stage_len;
	w->stage_len = 0;
	return err;
}

int pk_data_write(struct pk_data_writer *w, const void *records, size_t len)
{
	int err = w->started ? 0 : start(w);

	if (err)
		return err;
	if (w->full)
		return pk__error(-ENOSPC, "write perf.data", "%s", "the disk is full: recording stopped");
	if (!w->zcs) {
		err = pk__data_put(w, records, len);
		if (!err) {
			w->data_size += len;
			pk__data_mark(w);
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

int pk_data_write_round(struct pk_data_writer *w)
{
	static const struct perf_event_header round = {
		.type = PK_DATA_RECORD_FINISHED_ROUND, .size = sizeof(round),
	};

	return pk_data_write(w, &round, sizeof(round));
}

uint64_t pk_data_size(const struct pk_data_writer *w)
{
	return w->data_size;
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
	w->buf_len = 0;
	w->stage_len = 0;
	w->offset = w->data_offset + keep;
	w->data_size = keep;
	while (w->nr_marks && w->marks[w->nr_marks - 1] > keep)
		w->nr_marks--;
	return (int64_t)cut;
}

/* The features, the buffer's last bytes and the header, in that order. */
static int finish_file(struct pk_data_writer *w, struct file_header *h)
{
	int err = 0;

	memset(h->flags, 0, sizeof(h->flags));
	if (!w->full && w->zcs)
		err = compress_stage(w);
	if (!err)
		err = pk__data_features(w, h->flags);
	if (!err)
		err = pk__data_flush(w);
	return err;
}

int pk_data_finish(struct pk_data_writer *w)
{
	struct file_header h = { .magic = "PERFILE2", .size = sizeof(h) };
	int err = w->started ? 0 : start(w);
	int64_t dropped = 0;

	if (!err)
		err = finish_file(w, &h);
	/* Out of space: give records back, 256 KiB at a time, until the rest fits. */
	for (int tries = 0; err == -ENOSPC && tries < 16; tries++) {
		int64_t cut = cut_back(w, (uint64_t)(tries + 1) * 256 * 1024);

		if (cut < 0)
			break;
		dropped += cut;
		err = finish_file(w, &h);
	}
	h.attr_size = PK__ATTR_SIZE + sizeof(struct pk__file_section);
	h.attrs = (struct pk__file_section){ w->attrs_offset, w->nr_events * h.attr_size };
	h.data = (struct pk__file_section){ w->data_offset, w->data_size };
	/* The header goes last: until it is written the file is not a perf.data. */
	if (!err && pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		err = pk__error(-errno, "write perf.data", "writing the header of %s failed: %s",
				w->partial, strerror(errno));
	if (!err && fsync(w->fd) < 0)
		err = pk__error(-errno, "write perf.data", "fsync of %s failed: %s", w->partial,
				strerror(errno));
	if (!err && rename(w->partial, w->path) < 0)
		err = pk__error(-errno, "write perf.data", "cannot rename %s to %s: %s", w->partial,
				w->path, strerror(errno));
	if (err) {
		pk_data_abort(w);
		return err;
	}
	pk__data_free(w);
	return (int)(dropped > INT32_MAX ? INT32_MAX : dropped);
}
