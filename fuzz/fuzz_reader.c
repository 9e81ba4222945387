/* SPDX-License-Identifier: MIT */
/*
 * fuzz_reader.c - libFuzzer target for the perf.data reader: the input is a
 * byte choosing how the rest comes, then a whole file or pipe-mode stream.
 * An even first byte hands it to pk_data_reader_open as a file (a memfd),
 * where a stream is read with pread; an odd one writes it into a pipe
 * whose read end goes to pk_data_reader_open_fd, read as perf record -o -
 * | ... is (inputs too large for a pipe's buffer go as files); its bit 1
 * has a stream's header records delivered in the time-order pass
 * (pk_data_reader_set_header_records, unpadded sizes then allowed for
 * them).  Files and streams of the other byte order come from their
 * magic, as in a real file; the corpus has seeds of both (swapped copies
 * of perf 6.1's, made as tests/unit/data/test_reader_swap.c makes them).
 * Whatever the
 * bytes, opening either fails with an error record or gives a reader whose
 * accessors hold what they promise (names NUL-terminated, ids in range),
 * and pk_data_reader_next delivers only whole, 8-aligned records, each
 * decoded with the attr its id names (pk_data_reader_last_event naming
 * the same event), until it ends or reports damage: in
 * time order (the queue, the rounds, the final flush) and again in file
 * order, COMPRESSED records expanded in both.  Outside COMPRESSED records
 * no more record bytes come out than the file holds; zstd can expand a
 * few bytes to many, so inside them only the framing is checked.  Each
 * record's offset (pk_data_reader_offset) lies inside the file, no AUX
 * area record is delivered, and the AUXTRACE trace data skipped is no
 * more than the file holds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
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

static volatile unsigned char sink;	/* makes the reads below happen */

/* Everything the reader hands out comes from the file: no name or string
 * is longer than the input, and all the bytes promised are readable. */
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
		sink ^= ((const unsigned char *)a)[PK_DATA_READER_ATTR_SIZE - 1];
	}
	for (unsigned int id = 0; id < PK_DATA_FEAT_LAST; id++) {
		const char *s = pk_data_reader_string(r, id);
		const void *p;
		size_t len;

		if (s && strlen(s) >= size)
			abort();
		if (pk_data_reader_feature(r, id, &p, &len) == 0 && len) {
			if (len > size)
				abort();
			sink ^= ((const unsigned char *)p)[len - 1];
		}
	}
}

/* A header record of a stream, which perf does not pad (types 64 to 67
 * and HEADER_FEATURE), delivered with pk_data_reader_set_header_records. */
static bool header_record(uint32_t type, bool headers)
{
	return headers && ((type >= 64 && type <= 67) || type == 80);
}

static void check_records(struct pk_data_reader *r, size_t size, bool compressed, bool headers)
{
	const struct perf_event_header *h;
	struct pk_record d = { .size = sizeof(d) };
	struct pk_data_reader_stats st;
	size_t total = 0;
	int ret;

	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		if ((uintptr_t)h % 8 || h->size < 8 || (h->size % 8 && !header_record(h->type, headers)) ||
		    h->type == 81)
			abort();	/* COMPRESSED records are never handed out */
		total += h->size;
		if (!compressed && total > size)
			abort();	/* more record bytes than the file has */
		if (pk_data_reader_offset(r) + (compressed ? 8 : h->size) > size)
			abort();	/* an offset outside the file */
		if (h->type == 70 || h->type == 71 || h->type == PERF_RECORD_AUX ||
		    h->type == PERF_RECORD_ITRACE_START)
			abort();	/* AUX area records are skipped */
		(void)pk_record_decode(h, pk_data_reader_attr_of(r, h), &d);
		if (pk_data_reader_last_event(r) != pk_data_reader_event_of(r, h))
			abort();	/* the event kept is the one looked up */
	}
	st.size = sizeof(st);
	if (pk_data_reader_stats(r, &st) != 0 || (!compressed && st.auxtrace_bytes > size))
		abort();	/* trace data skipped that the file does not hold */
	if (ret < 0 && (!pk_last_error()->why || !*pk_last_error()->why))
		abort();
}

/* Opens the input as a file at `path`, or when `pipe_fd` is not NULL from
 * a pipe holding it (its read end in *pipe_fd, to close after). */
static int open_input(const char *path, const uint8_t *data, size_t size, int *pipe_fd,
		      struct pk_data_reader **r)
{
	int fds[2];

	if (!pipe_fd)
		return pk_data_reader_open(path, r);
	if (pipe2(fds, O_CLOEXEC) < 0)
		abort();
	if (size && write(fds[1], data, size) != (ssize_t)size)
		abort();	/* the caller keeps size within the pipe's buffer */
	close(fds[1]);
	*pipe_fd = fds[0];
	return pk_data_reader_open_fd(fds[0], "fuzz pipe", r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_data_reader *r;
	char path[64];
	int fd, ret, pfd = -1, *pipe_fd;
	bool headers;

	if (!size)
		return 0;
	pipe_fd = (data[0] & 1) && size - 1 <= 65536 ? &pfd : NULL;
	headers = data[0] & 2;
	data++;
	size--;
	fd = memfd_create("fuzz_reader", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = open_input(path, data, size, pipe_fd, &r);
	if (pfd >= 0 && ret < 0)
		close(pfd);
	if (ret < 0) {
		if (r || !pk_last_error()->why || !*pk_last_error()->why)
			abort();
	} else {
		/* A COMPRESSED type anywhere in the input may be a record. */
		bool compressed = memmem(data, size, "\x51\0\0\0", 4) != NULL;

		check_events(r, size);
		if (headers && pk_data_reader_set_header_records(r, true) < 0)
			abort();	/* before the first record: never refused */
		check_records(r, size, compressed, headers);
		check_events(r, size);	/* a stream's late header records */
		pk_data_reader_free(r);
		if (pfd >= 0)
			close(pfd);
		if (open_input(path, data, size, pipe_fd, &r) < 0 || pk_data_reader_set_order(r, PK_DATA_ORDER_FILE) < 0)
			abort();	/* it opened once */
		check_records(r, size, compressed, false);
		pk_data_reader_free(r);
		if (pfd >= 0)
			close(pfd);
	}
	close(fd);
	return 0;
}
