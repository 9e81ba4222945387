/* SPDX-License-Identifier: MIT */
/*
 * writer-dir.c - perf's directory format, as perf record --threads writes
 * it: PATH/data, a perf.data file (header, attrs, the synthesized records,
 * the features with DIR_FORMAT version 1, perf 6.1's), and PATH/data.N, the records of
 * ring N with no header and no FINISHED_ROUND.  The directory is written
 * as "PATH.partial.XXXXXX" and renamed into place when whole, after a
 * PATH found there is kept as PATH.old (perf's backup); its data file has
 * its header on disk from the first record and pk_data_writer_tick brings
 * every file up to date at least once a second, so a recorder killed at
 * any moment leaves a directory perf reads.  Each data.N has a buffer of
 * its own, written only by the caller that feeds that file.
 * pk_data_writer_keep_old and pk__data_clear_old, the PATH.old rules of
 * every writer (a file's and a directory's), are here too.
 */
#include "data.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_BUF_SIZE (256 * 1024)	/* each data.N's buffer */

struct pk__data_dir_file {
	int fd;
	unsigned char *buf;
	size_t len;
	uint64_t size;		/* bytes written to the file */
	int err;		/* the first failure writing it, sticky */
};

struct pk__data_dir {
	char *final;		/* PATH */
	char *tmp;		/* PATH.partial.XXXXXX, the directory written */
	struct pk__data_dir_file *files;
	size_t nr;
};

/* Remove what this writer made in the partial directory, then the directory. */
static void remove_partial(struct pk__data_dir *d)
{
	char name[4096];

	for (size_t i = 0; i < d->nr; i++) {
		snprintf(name, sizeof(name), "%s/data.%zu", d->tmp, i);
		unlink(name);
	}
	snprintf(name, sizeof(name), "%s/data", d->tmp);
	unlink(name);
	rmdir(d->tmp);
}

void pk__data_dir_free(struct pk__data_dir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr; i++) {
		if (d->files[i].fd >= 0)
			close(d->files[i].fd);
		free(d->files[i].buf);
	}
	free(d->files);
	free(d->final);
	free(d->tmp);
	free(d);
}

void pk__data_dir_abort(struct pk__data_dir *d)
{
	if (d && d->tmp)
		remove_partial(d);
	pk__data_dir_free(d);
}

/* The partial directory and its data.N files, empty. */
static int make_dir(struct pk__data_dir *d, const char *path, size_t nr)
{
	char name[4096];

	if (pk__asprintf(&d->tmp, "%s.partial.XXXXXX", path) < 0 || !(d->final = pk__strdup(path))) {
		d->tmp = NULL;
		return pk__error_nomem("the name of %s's partial directory", path);
	}
	if (!mkdtemp(d->tmp)) {
		int e = errno;

		free(d->tmp);
		d->tmp = NULL;
		pk__error(-e, "create perf.data", "cannot create the directory %s.partial.XXXXXX: %s", path,
			  strerror(e));
		pk__error_hint("%s", "check the directory exists, has space and may be written");
		return -e;
	}
	if (!(d->files = pk__calloc(nr, sizeof(*d->files))))
		return pk__error_nomem("the data files of %s", path);
	for (d->nr = 0; d->nr < nr; d->nr++) {
		struct pk__data_dir_file *f = &d->files[d->nr];

		snprintf(name, sizeof(name), "%s/data.%zu", d->tmp, d->nr);
		f->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (f->fd < 0)
			return pk__error(-errno, "create perf.data", "cannot create %s: %s", name,
					 strerror(errno));
		if (!(f->buf = pk__malloc(DIR_BUF_SIZE)))
			return pk__error_nomem("the buffer of %s", name);
	}
	return 0;
}

/* The data file written as PATH.partial.XXXXXX/data from its first byte:
 * the writer's own partial file renamed there before anything is in it. */
static int make_data(struct pk_data_writer **out, const struct pk__data_dir *d)
{
	char name[4096];
	struct pk_data_writer *w;
	char *p;
	int err;

	snprintf(name, sizeof(name), "%s/data", d->tmp);
	if ((err = pk_data_writer_create(name, &w)) < 0)
		return err;
	if (!(p = pk__strdup(name))) {
		pk_data_writer_abort(w);
		return pk__error_nomem("the name %s", name);
	}
	if (rename(w->partial, name) < 0) {
		err = pk__error(-errno, "create perf.data", "cannot rename %s to %s: %s", w->partial, name,
				strerror(errno));
		free(p);
		pk_data_writer_abort(w);
		return err;
	}
	free(w->partial);
	w->partial = p;		/* finish renames it onto itself */
	*out = w;
	return 0;
}

int pk_data_writer_create_dir(const char *path, size_t nr_files, struct pk_data_writer **out)
{
	struct pk__data_dir *d;
	struct stat st;
	int err;

	pk__error_clear();
	if (!path[0] || !nr_files)
		return pk__error(-EINVAL, "create perf.data", "%s", !path[0] ? "the directory name is empty"
				 : "a perf.data directory needs at least one data file");
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		pk__error(-EINVAL, "create perf.data", "%s is neither a file nor a directory: a perf.data "
			  "directory is renamed into place and cannot replace it", path);
		pk__error_hint("%s", "write a directory elsewhere (-o DIR)");
		return -EINVAL;
	}
	if (!(d = pk__calloc(1, sizeof(*d))))
		return pk__error_nomem("the perf.data directory writer");
	if ((err = make_dir(d, path, nr_files)) < 0 || (err = make_data(out, d)) < 0) {
		pk__data_dir_abort(d);
		return err;
	}
	(*out)->dir = d;
	(*out)->dir_format = true;
	return 0;
}

size_t pk_data_writer_nr_files(const struct pk_data_writer *w)
{
	return w->dir ? w->dir->nr : 0;
}

/* Write out file f's buffer; its error is sticky. */
static int flush_file(struct pk__data_dir_file *f, const char *dir, size_t i)
{
	size_t done = 0;

	while (!f->err && done < f->len) {
		ssize_t n = write(f->fd, f->buf + done, f->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			f->err = pk__error(n < 0 ? -errno : -EIO, "write perf.data",
					   "cannot write %s/data.%zu: %s", dir, i,
					   n < 0 ? strerror(errno) : "nothing was written");
		else
			done += (size_t)n;
	}
	f->size += done;
	f->len = 0;
	return f->err;
}

int pk_data_writer_write_file(struct pk_data_writer *w, size_t k, const void *records, size_t len)
{
	struct pk__data_dir_file *f;
	int err;

	if (!w->dir)
		return pk_data_writer_write(w, records, len);
	if (k >= w->dir->nr)
		return pk__error(-EINVAL, "write perf.data", "no data file %zu: the directory has %zu", k,
				 w->dir->nr);
	/* The header is on disk before any data.N holds a record. */
	if ((err = pk__data_writer_begin(w)) < 0 || (err = pk__data_bpf_note(w->bpf, records, len)) < 0)
		return err;
	f = &w->dir->files[k];
	if (f->err)
		return f->err;
	if (f->len + len > DIR_BUF_SIZE && (err = flush_file(f, w->dir->tmp, k)) < 0)
		return err;
	if (len > DIR_BUF_SIZE) {
		unsigned char *saved = f->buf;

		f->len = len;	/* written straight from the caller's bytes */
		f->buf = (unsigned char *)(uintptr_t)records;
		err = flush_file(f, w->dir->tmp, k);
		f->buf = saved;
		return err;
	}
	memcpy(f->buf + f->len, records, len);
	f->len += len;
	return 0;
}

int pk__data_dir_flush(struct pk_data_writer *w)
{
	int err = 0, e;

	for (size_t i = 0; w->dir && i < w->dir->nr; i++)
		if ((e = flush_file(&w->dir->files[i], w->dir->tmp, i)) < 0 && !err)
			err = e;
	return err;
}

uint64_t pk__data_dir_bytes(const struct pk_data_writer *w)
{
	uint64_t n = 0;

	for (size_t i = 0; w->dir && i < w->dir->nr; i++)
		n += w->dir->files[i].size + w->dir->files[i].len;
	return n;
}

int pk__data_dir_features(struct pk_data_writer *w, uint64_t at, uint64_t flags[4])
{
	/* perf's feature table (a section per bit set), then the payload. */
	uint64_t table[3] = { at + 2 * sizeof(uint64_t), sizeof(uint64_t), 1 /* PERF_DIR_VERSION */ };

	if (pwrite(w->fd, table, sizeof(table), (off_t)at) != (ssize_t)sizeof(table))
		return pk__error(errno ? -errno : -EIO, "write perf.data", "writing the DIR_FORMAT feature "
				 "of %s/data failed: %s", w->dir->tmp, strerror(errno ? errno : EIO));
	flags[PK_DATA_FEAT_DIR_FORMAT / 64] |= 1ULL << (PK_DATA_FEAT_DIR_FORMAT % 64);
	return 0;
}

/* A name perf's directory holds: "data" or "data.N". */
static bool perf_name(const char *n)
{
	return !strcmp(n, "data") || (!strncmp(n, "data.", 5) && n[5] &&
				      strspn(n + 5, "0123456789") == strlen(n + 5));
}

bool pk__data_dir_ours(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	bool ours = dir != NULL, data = false;

	while (ours && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ours = perf_name(e->d_name);
		data |= !strcmp(e->d_name, "data");
	}
	if (dir)
		closedir(dir);
	return ours && data;
}

int pk__data_dir_clear(const char *path)
{
	char name[4096];
	DIR *dir;
	struct dirent *e;

	if (!pk__data_dir_ours(path) || !(dir = opendir(path)))
		return -1;
	while ((e = readdir(dir)))
		if (perf_name(e->d_name) &&
		    snprintf(name, sizeof(name), "%s/%s", path, e->d_name) < (int)sizeof(name))
			unlink(name);
	closedir(dir);
	return rmdir(path) == 0 ? 0 : -1;
}

/* The whole directory at PATH, what was there kept as PATH.old. */
static int place_dir(struct pk__data_dir *d)
{
	char old[4096];
	struct stat st;
	int e;

	if (snprintf(old, sizeof(old), "%s.old", d->final) >= (int)sizeof(old))
		return pk__error(-ENAMETOOLONG, "write perf.data", "%s.old is too long a name; the "
				 "recording is in %s", d->final, d->tmp);
	if (lstat(d->final, &st) == 0) {
		if (lstat(old, &st) == 0 && S_ISDIR(st.st_mode))
			pk__data_dir_clear(old);
		if (rename(d->final, old) < 0) {
			e = errno;
			pk__error(-e, "write perf.data", "cannot keep the old %s as %s: %s; the recording is "
				  "in %s", d->final, old, strerror(e), d->tmp);
			return -e;
		}
	}
	if (rename(d->tmp, d->final) < 0) {
		e = errno;
		pk__error(-e, "write perf.data", "cannot rename %s to %s: %s", d->tmp, d->final, strerror(e));
		return -e;
	}
	return 0;
}

int pk__data_dir_finish(struct pk_data_writer *w)
{
	struct pk__data_dir *d = w->dir;
	int err = pk__data_dir_flush(w);

	for (size_t i = 0; !err && i < d->nr; i++)
		if (fsync(d->files[i].fd) < 0)
			err = pk__error(-errno, "write perf.data", "fsync of %s/data.%zu failed: %s", d->tmp, i,
					strerror(errno));
	w->dir = NULL;		/* the data file finishes as any file */
	{
		int e = pk_data_writer_finish(w);

		if (!err)
			err = e;
	}
	if (err >= 0) {
		int e = place_dir(d);

		if (e < 0)
			err = e;
	} else {
		pk__error_hint("what was recorded until then is kept in %s, which perf reads", d->tmp);
	}
	pk__data_dir_free(d);
	return err;
}

/* `path` is a directory with nothing in it (rename replaces such a one). */
static bool is_empty_dir(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	bool empty = dir != NULL;

	while (empty && (e = readdir(dir)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	if (dir)
		closedir(dir);
	return empty;
}

int pk_data_writer_keep_old(struct pk_data_writer *w)
{
	char old[4096];
	struct stat st;

	if (w->device || w->pipe)
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", w->path) >= (int)sizeof(old))
		return pk__error(-ENAMETOOLONG, "keep the old perf.data", "%s.old is too long a name", w->path);
	if (stat(w->path, &st) == 0 && (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) &&
	    !is_empty_dir(old))) && stat(old, &st) == 0 && S_ISDIR(st.st_mode) &&
	    !pk__data_dir_ours(old)) {
		pk__error(-EISDIR, "keep the old perf.data", "%s is a directory: the existing %s cannot be "
			  "kept there", old, w->path);
		pk__error_hint("remove or rename %s, or write another file (-o)", old);
		return -EISDIR;
	}
	w->keep_old = true;
	return 0;
}

/* Make room for PATH as PATH.old, as perf does: a directory perf wrote
 * there is removed, and a file when PATH is a directory (a rename of a
 * file over a file replaces it anyway).  Anything else stays, and the
 * rename that follows fails and says so. */
void pk__data_clear_old(const char *old, bool path_is_dir)
{
	struct stat st;

	if (lstat(old, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode))
		pk__data_dir_clear(old);
	else if (path_is_dir && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
		unlink(old);
}
