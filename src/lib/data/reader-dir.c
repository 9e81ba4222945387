/* SPDX-License-Identifier: MIT */
/*
 * reader-dir.c - perf's directory format (perf record --threads writes
 * DIR/data, a perf.data file whose data section holds the synthesized
 * records, and DIR/data.N, the records of each of its threads with no
 * header at all, each file about in time order, with no FINISHED_ROUND).
 * Each file is read through its own buffer and the files are merged as
 * they are read, by the time of each one's next record, so memory stays
 * a buffer per file whatever their size.  perf reads the files in turns
 * of 2 MiB (DIR/data first, then the data.N in the order of N) and sorts
 * all the timed records at the end; records of equal time come in the
 * order of those turns, and so they do here (a record's turn is known
 * from its own file's offsets).  A record without a time is delivered as
 * soon as it is the next of its file, as perf delivers it when read: the
 * same order when a file's untimed records come before its timed ones,
 * which is how perf writes them.  A data.N is not strictly in time order
 * (an EXIT is written after samples taken later), so reader-order.c puts
 * the merged records through its time-order queue, half-flushed at a few
 * MiB.  File order is perf's read order, turn by turn.  Offsets handed
 * out are those of each record's own file.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* N of a "data.N" name, or -1. */
static long data_index(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "data.", 5) || name[5] < '0' || name[5] > '9')
		return -1;
	n = strtol(name + 5, &end, 10);
	return *end ? -1 : n;
}

/* The data.N files of dir, in the order of N: how many in *idx. */
static int list_files(const char *dir, long **idx, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*idx = NULL;
	*nr = 0;
	if (!d)
		return pk__error(-errno, "read perf.data", "cannot read the directory %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		long n = data_index(e->d_name);

		if (n < 0)
			continue;
		if (*nr == cap) {
			long *m = pk__realloc(*idx, (cap = cap ? 2 * cap : 16) * sizeof(*m));

			if (!m) {
				closedir(d);
				return pk__error_nomem("a directory's data files");
			}
			*idx = m;
		}
		(*idx)[(*nr)++] = n;
	}
	closedir(d);
	for (size_t i = 1; i < *nr; i++)	/* a few files: insertion sort */
		for (size_t j = i; j && (*idx)[j - 1] > (*idx)[j]; j--) {
			long t = (*idx)[j];

			(*idx)[j] = (*idx)[j - 1];
			(*idx)[j - 1] = t;
		}
	return 0;
}

static int add_cursor(struct pk_data_reader *r, struct rd_cursor c)
{
	struct rd_cursor *n = pk__realloc(r->cur, (r->nr_cur + 1) * sizeof(*n));

	if (!n)
		return pk__error_nomem("a directory's data files");
	r->cur = n;
	n[r->nr_cur++] = c;
	return 0;
}

static int add_file(struct pk_data_reader *r, const char *dir, long n)
{
	char path[4096];
	struct stat st;
	struct rd_cursor c = { .fd = -1 };
	int fd, err;

	snprintf(path, sizeof(path), "%s/data.%ld", dir, n);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err = fd < 0 ? -errno : -EINVAL;
		if (fd >= 0)
			close(fd);
		return pk__error(err, "read perf.data", "cannot read %s: %s", path,
				 err == -EINVAL ? "not a regular file" : strerror(-err));
	}
	if (!st.st_size) {	/* perf skips the empty ones */
		close(fd);
		return 0;
	}
	c = (struct rd_cursor){ .fd = fd, .in_dir = true, .data_end = (uint64_t)st.st_size,
				.data_end_said = (uint64_t)st.st_size };
	c.path = pk__strdup(path);
	c.buf = pk__reader_buf_new(r);
	err = c.path && c.buf ? add_cursor(r, c) : pk__error_nomem("a directory's data files");
	if (err) {
		free(c.path);
		pk__reader_buf_drop(c.buf);
		close(fd);
	}
	return err;
}

int pk__reader_dir_open(const char *dir, struct pk_data_reader **out)
{
	char path[4096];
	long *idx = NULL;
	size_t nr = 0;
	int err;

	snprintf(path, sizeof(path), "%s/data", dir);
	err = pk_data_reader_open(path, out);
	if (err)
		return err;
	if ((*out)->pipe || (*out)->data_end != (*out)->data_end_said) {
		pk_data_reader_free(*out);
		*out = NULL;
		return pk__error(-EINVAL, "read perf.data", "%s: the data file of a directory must be a whole "
				 "perf.data file", path);
	}
	/* DIR/data's stream state stays in the reader: its cursor parks none */
	err = add_cursor(*out, (struct rd_cursor){ .fd = -1, .chunk_start = (*out)->data_offset });
	(*out)->took = SIZE_MAX;
	if (!err)
		err = list_files(dir, &idx, &nr);
	for (size_t i = 0; !err && i < nr; i++)
		err = add_file(*out, dir, idx[i]);
	free(idx);	/* a data.N refused, or memory out, too */
	if (err) {
		pk_data_reader_free(*out);
		*out = NULL;
	}
	return err;
}

#define SWAP(f) do { __typeof__(r->f) t_ = r->f; r->f = c->f; c->f = t_; } while (0)

/* Exchange the reader's stream state with the parked one of c. */
static void swap_state(struct pk_data_reader *r, struct rd_cursor *c)
{
	SWAP(fd); SWAP(path); SWAP(in_dir);
	SWAP(data_offset); SWAP(data_end); SWAP(data_end_said);
	SWAP(buf); SWAP(buf_len); SWAP(buf_pos); SWAP(buf_off);
	SWAP(zds); SWAP(dbuf); SWAP(dbuf_len); SWAP(dbuf_pos); SWAP(dbuf_cap); SWAP(dbuf_at);
	SWAP(zin); SWAP(zin_len); SWAP(zin_pos); SWAP(zout_full);
	SWAP(rec_off); SWAP(skip); SWAP(skip_at);
}

#define READ_TURN (2u << 20)	/* perf reads a file 2 MiB at a time, then the next */

/* Read file i's next record into its head (or its end). */
static void advance(struct pk_data_reader *r, size_t i)
{
	struct rd_cursor *c = &r->cur[i];
	const struct perf_event_header *h;
	int ret, ev;

	if (i)
		swap_state(r, c);
	ret = pk__reader_stream_next(r, &h);
	c->head_off = r->rec_off;
	if (i)
		swap_state(r, c);
	if (ret <= 0) {
		c->head = NULL;
		c->end = ret ? ret : 1;
		return;
	}
	/* perf's turn ends after the record that reaches 2 MiB: a record of a
	 * COMPRESSED one has that record's offset, so it stays in its turn */
	if (c->head_off - c->chunk_start >= READ_TURN) {
		c->chunk++;
		c->chunk_start = c->head_off;
	}
	c->head = h;
	if (!pk__reader_record_time(r, h, &c->time, &ev))
		c->time = 0;
}

/* Whether file i's head goes before file j's (j's may be none). */
static bool goes_first(const struct pk_data_reader *r, size_t i, size_t j)
{
	const struct rd_cursor *a = &r->cur[i], *b = &r->cur[j];

	if (!b->head)
		return true;
	if (!r->order.file_order && (!a->time || !b->time)) {
		if (!a->time != !b->time)
			return !a->time;	/* no time: delivered as soon as read */
	} else if (!r->order.file_order && a->time != b->time) {
		return a->time < b->time;
	}
	return a->chunk < b->chunk || (a->chunk == b->chunk && i < j);
}

int pk__reader_dir_next(struct pk_data_reader *r, const struct perf_event_header **rec)
{
	size_t best = SIZE_MAX;
	int err = 1;

	if (r->took < r->nr_cur)
		r->cur[r->took].head = NULL;	/* handed out last time */
	for (size_t i = 0; i < r->nr_cur; i++) {
		struct rd_cursor *c = &r->cur[i];

		if (!c->head && !c->end)
			advance(r, i);
		if (c->end < 0 && err > 0)
			err = c->end;
		if (c->head && (best == SIZE_MAX || goes_first(r, i, best)))
			best = i;
	}
	r->took = best;
	if (err <= 0 || best == SIZE_MAX)
		return err > 0 ? 0 : pk__reader_again(r);	/* damage ends the read */
	r->cur_file = best;
	r->cur_off = r->cur[best].head_off;
	*rec = r->cur[best].head;
	return 1;
}

void pk__reader_dir_free(struct pk_data_reader *r)
{
	for (size_t i = 1; i < r->nr_cur; i++) {
		struct rd_cursor *c = &r->cur[i];

		swap_state(r, c);
		pk__reader_stream_free(r);
		swap_state(r, c);
		close(c->fd);
		free(c->path);
		pk__reader_buf_drop(c->buf);
	}
	free(r->cur);
}

uint64_t pk_data_reader_offset(const struct pk_data_reader *r)
{
	return r->cur_off;
}

const char *pk_data_reader_file(const struct pk_data_reader *r)
{
	return r->cur_file && r->cur_file < r->nr_cur ? r->cur[r->cur_file].path : r->path;
}
