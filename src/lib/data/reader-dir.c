/* SPDX-License-Identifier: MIT */
/*
 * reader-dir.c - perf's directory format (perf record --threads writes
 * DIR/data, a perf.data file whose data section holds the synthesized
 * records, and DIR/data.N, the records of each of its threads with no
 * header at all).  The reader reads DIR/data as usual and then lays the
 * data.N files after its data section, in the order of N, as one run of
 * records: the data section grows by their sizes and reads past the end
 * of DIR/data go to the file holding that stretch.  Time order then
 * merges them as perf's ordered_events does (a record never spans two
 * files: one that would is damage).  Offsets handed out are turned back
 * into the file and its own offset, as perf -D prints them.
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

static int add_seg(struct pk_data_reader *r, int fd, const char *path, uint64_t vstart, uint64_t size,
		   uint64_t foff)
{
	struct rd_seg *n = pk__realloc(r->segs, (r->nr_segs + 1) * sizeof(*n));

	if (!n)
		return pk__error_nomem("a directory's data files");
	r->segs = n;
	n[r->nr_segs] = (struct rd_seg){ fd, vstart, vstart + size, foff, pk__strdup(path) };
	if (!n[r->nr_segs].path)
		return pk__error_nomem("a directory's data files");
	r->nr_segs++;
	return 0;
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

static int add_file(struct pk_data_reader *r, const char *dir, long n)
{
	char path[4096];
	struct stat st;
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
	err = add_seg(r, fd, path, r->data_end, (uint64_t)st.st_size, 0);
	if (err) {
		close(fd);
		return err;
	}
	r->data_end = r->data_end_said = r->data_end + (uint64_t)st.st_size;
	return 0;
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
	err = add_seg(*out, -1, path, (*out)->data_offset, (*out)->data_end - (*out)->data_offset,
		      (*out)->data_offset);
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

/* The segment holding virtual offset `at` (the last one for its end). */
const struct rd_seg *pk__reader_seg(const struct pk_data_reader *r, uint64_t at)
{
	for (size_t i = 0; i < r->nr_segs; i++)
		if (at < r->segs[i].vend || i + 1 == r->nr_segs)
			return &r->segs[i];
	return NULL;
}

int pk__reader_seg_read(struct pk_data_reader *r, void *p, size_t len, uint64_t at)
{
	while (len) {
		const struct rd_seg *s = pk__reader_seg(r, at);
		uint64_t n = s->vend - at < len ? s->vend - at : len;
		int fd = r->fd, err;

		if (!n)
			return pk__error(-EINVAL, "read perf.data", "%s: reading past the last data file", r->path);
		if (s->fd >= 0)
			r->fd = s->fd;	/* pk__reader_read_at reads r->fd */
		err = pk__reader_read_at(r, p, (size_t)n, at - s->vstart + s->foff, s->path);
		r->fd = fd;
		if (err)
			return err;
		p = (char *)p + n;
		len -= (size_t)n;
		at += n;
	}
	return 0;
}

void pk__reader_dir_free(struct pk_data_reader *r)
{
	for (size_t i = 0; i < r->nr_segs; i++) {
		if (r->segs[i].fd >= 0)
			close(r->segs[i].fd);
		free(r->segs[i].path);
	}
	free(r->segs);
}

uint64_t pk_data_reader_offset(const struct pk_data_reader *r)
{
	const struct rd_seg *s = r->nr_segs ? pk__reader_seg(r, r->cur_off) : NULL;

	return s ? r->cur_off - s->vstart + s->foff : r->cur_off;
}

const char *pk_data_reader_file(const struct pk_data_reader *r)
{
	const struct rd_seg *s = r->nr_segs ? pk__reader_seg(r, r->cur_off) : NULL;

	return s ? s->path : r->path;
}
