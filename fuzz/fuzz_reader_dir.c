/* SPDX-License-Identifier: MIT */
/*
 * fuzz_reader_dir.c - libFuzzer target for perf's directory format (perf
 * record --threads: DIR/data, a whole perf.data file, and DIR/data.N, the
 * threads' records with no header; src/lib/data/reader-dir.c).  The input
 * is split into files in a fresh temporary directory: a first byte whose
 * low two bits give the number of data.N files (0 reads as 1, so 1-3) and
 * whose bit 2 numbers them 0, 2, 10 instead of 0, 1, 2 (the reader must
 * take them in the order of N, not of the names), whose bit 3 makes the
 * first data.N an empty directory (its length is read and ignored: a name
 * the reader must refuse, freeing what it had made); then DIR/data and each
 * data.N but the last as a little-endian u32 length and that many bytes
 * (a length past the end takes what is left); the last data.N is the
 * rest.  pk_data_reader_open on the directory either fails with an error
 * record or gives a reader whose accessors hold what they promise, and
 * every record it delivers, in time order and again in file order, is
 * whole and 8-aligned, decodes with its attr, and lies at an offset inside
 * the file pk_data_reader_file names (the one written with that name);
 * outside COMPRESSED records no more record bytes come out than the files
 * hold.  The seeds are perf 6.1's own --threads directories packed this
 * way (fuzz/seed-reader-dir.py).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

#define MAX_FILES 4	/* DIR/data and up to three data.N */

struct dir {
	char path[256];	/* TMPDIR may be a test's scratch dir deep in a build tree */
	char names[MAX_FILES][288];
	size_t sizes[MAX_FILES];
	size_t nr, total;
	bool first_is_dir;	/* data.N number one is a directory */
};

static volatile unsigned char sink;	/* makes the reads below happen */

static void write_file(const char *path, const uint8_t *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (len && write(fd, p, len) != (ssize_t)len))
		abort();
	close(fd);
}

/* Lays the input out as a directory (see the header comment). */
static void make_dir(struct dir *d, const uint8_t *data, size_t size)
{
	static const int spread[] = { 0, 2, 10 };
	size_t nr_data = (data[0] & 3) ? (data[0] & 3) : 1;
	bool gaps = data[0] & 4;
	char base[sizeof(d->path)];

	d->first_is_dir = data[0] & 8;

	data++;
	size--;
	snprintf(d->path, sizeof(d->path), "%s/fuzz-dir.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(d->path))
		abort();
	memcpy(base, d->path, sizeof(base));	/* names are made from a copy: no overlap */
	d->nr = nr_data + 1;
	d->total = 0;
	for (size_t i = 0; i < d->nr; i++) {
		size_t len = size;

		if (i)
			snprintf(d->names[i], sizeof(d->names[i]), "%s/data.%d", base,
				 gaps ? spread[i - 1] : (int)i - 1);
		else
			snprintf(d->names[i], sizeof(d->names[i]), "%s/data", base);
		if (i + 1 < d->nr) {
			uint32_t n = 0;

			memcpy(&n, data, size < 4 ? size : 4);
			data += size < 4 ? size : 4;
			size -= size < 4 ? size : 4;
			len = n < size ? n : size;
		}
		if (i == 1 && d->first_is_dir) {
			if (mkdir(d->names[i], 0700) < 0)
				abort();
			len = 0;	/* its bytes go to the next file */
		} else {
			write_file(d->names[i], data, len);
		}
		d->sizes[i] = len;
		d->total += len;
		data += len;
		size -= len;
	}
}

static void remove_dir(const struct dir *d)
{
	for (size_t i = 0; i < d->nr; i++)
		if (i == 1 && d->first_is_dir)
			rmdir(d->names[i]);
		else
			unlink(d->names[i]);
	rmdir(d->path);
}

/* The size of the file the reader says a record is in. */
static size_t file_size(const struct dir *d, const char *file)
{
	for (size_t i = 0; i < d->nr; i++)
		if (file && !strcmp(file, d->names[i]))
			return d->sizes[i];
	abort();	/* a file the directory does not have */
}

static void check_events(struct pk_data_reader *r, size_t size)
{
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
		const struct perf_event_attr *a = pk_data_reader_attr(r, i);
		const char *name = pk_data_reader_name(r, i);
		size_t nr;
		const uint64_t *ids = pk_data_reader_ids(r, i, &nr);

		if (!a || (nr && !ids) || nr > size / 8 || (name && strlen(name) >= size))
			abort();
		for (size_t j = 0; j < nr; j++)
			sink ^= (unsigned char)ids[j];
	}
}

static void check_records(struct pk_data_reader *r, const struct dir *d, bool compressed)
{
	const struct perf_event_header *h;
	struct pk_record rec = { .size = sizeof(rec) };
	size_t total = 0;
	int ret;

	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		if ((uintptr_t)h % 8 || h->size < 8 || h->size % 8 || h->type == 81)
			abort();	/* COMPRESSED records are never handed out */
		total += h->size;
		if (!compressed && total > d->total)
			abort();	/* more record bytes than the files have */
		if (pk_data_reader_offset(r) + (compressed ? 8 : h->size) >
		    file_size(d, pk_data_reader_file(r)))
			abort();	/* an offset outside the file it names */
		(void)pk_record_decode(h, pk_data_reader_attr_of(r, h), &rec);
		if (pk_data_reader_last_event(r) != pk_data_reader_event_of(r, h))
			abort();	/* the event kept is the one looked up */
	}
	if (ret < 0 && (!pk_last_error()->why || !*pk_last_error()->why))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_data_reader *r;
	struct dir d;
	bool compressed;

	if (!size)
		return 0;
	make_dir(&d, data, size);
	/* A COMPRESSED type anywhere in the input may be a record. */
	compressed = memmem(data, size, "\x51\0\0\0", 4) != NULL;
	if (pk_data_reader_open(d.path, &r) < 0) {
		if (r || !pk_last_error()->why || !*pk_last_error()->why)
			abort();
	} else {
		check_events(r, d.total);
		check_records(r, &d, compressed);
		pk_data_reader_free(r);
		if (pk_data_reader_open(d.path, &r) < 0 || pk_data_reader_set_order(r, PK_DATA_ORDER_FILE) < 0)
			abort();	/* it opened once */
		check_records(r, &d, compressed);
		pk_data_reader_free(r);
	}
	remove_dir(&d);
	return 0;
}
