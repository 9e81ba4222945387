/* SPDX-License-Identifier: MIT */
/*
 * test_data.c - the perf.data writer: a file written from synthetic records
 * is checked byte by byte against perf's layout (header, ids, attrs, data,
 * feature table), nothing appears at the path until the file is whole, and
 * (with the argument "oracle") perf 6.1 itself reads it back: perf report
 * --header-only shows the event, its id and the command line, and perf
 * script prints every sample with the command's name.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "data/data.h"
#include "tmpdir.h"

#define NR_SAMPLES 25

static const uint8_t kernel_id[20] = { 0xe4, 0xf1, 0x8d, 0x9d, 0xc1, 0xd0, 0xe6, 0xfc, 0x2b, 0x17,
				       0xe9, 0x3e, 0x88, 0x5a, 0x64, 0x7b, 0x3c, 0x0a, 0x6f, 0xc1 };
static const uint8_t user_id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
#define LONG_NAME "/usr/lib/x86_64-linux-gnu/a-library-with-a-name-longer-than-64-bytes.so"

static char dir[200];	/* $TMPDIR/perfkit-data-XXXXXX: short, so paths under it fit */
static char path[sizeof(dir) + 16];

static struct perf_event_attr sample_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.size = sizeof(a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	a.comm = 1;
	return a;
}

/* A COMM record naming pid 4242 "perfkit-test", then samples of it. */
static size_t make_records(unsigned char *buf)
{
	size_t n = 0;
	struct { struct perf_event_header h; uint32_t pid, tid; char comm[16];
		 uint64_t id_tid, id_time, id_identifier; } comm = {
		{ PERF_RECORD_COMM, 0, sizeof(comm) }, 4242, 4242, "perfkit-test",
		4242 | (uint64_t)4242 << 32, 1000, 77 };

	memcpy(buf, &comm, sizeof(comm));
	n += sizeof(comm);
	for (int i = 0; i < NR_SAMPLES; i++) {
		struct { struct perf_event_header h; uint64_t id, ip; uint32_t pid, tid;
			 uint64_t time, period; } s = {
			{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 77, 0x401000 + i,
			4242, 4242, 2000 + (uint64_t)i * 100000, 100000 };

		memcpy(buf + n, &s, sizeof(s));
		n += sizeof(s);
	}
	return n;
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-data"));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	return 0;
}

/* Every file the tests wrote goes, whether they passed or not. */
static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(dir) == 0 ? 0 : -1;
}

static void write_file(void)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77, 78 };
	unsigned char recs[8192];
	size_t n = make_records(recs);
	char *argv[] = { "perfkit", "record", "--", "true" };
	char partial[300];
	struct stat st;

	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 2), 0);
	assert_int_equal(pk_data_writer_add_group(w, 0, 2), -EINVAL);	/* only one event */
	/* Found by fuzz_writer: a range whose end wraps to within the events. */
	assert_int_equal(pk_data_writer_add_group(w, SIZE_MAX, 2), -EINVAL);
	assert_int_equal(pk_data_writer_add_group(w, 1, SIZE_MAX), -EINVAL);
	assert_int_equal(pk_data_writer_set_cmdline(w, 4, argv), 0);
	assert_int_equal(pk_data_writer_add_build_id(w, "[kernel.kallsyms]", kernel_id, 20, true), 0);
	assert_int_equal(pk_data_writer_add_build_id(w, LONG_NAME, user_id, 8, false), 0);
	assert_int_equal(pk_data_writer_add_build_id(w, "/x", user_id, 0, false), -EINVAL);
	assert_int_equal(pk_data_writer_add_build_id(w, "/x", kernel_id, 21, false), -EINVAL);
	pk_data_writer_set_sample_time(w, 2000, 2000 + (NR_SAMPLES - 1) * 100000ULL);
	assert_int_equal(pk_data_writer_write(w, recs, n), 0);
	assert_int_equal(pk_data_writer_size(w), n);
	/* Too late to add events once records are written. */
	assert_int_equal(pk_data_writer_add_event(w, &a, "x", ids, 1), -EINVAL);
	/* Until finish, only the writer's own partial file exists. */
	snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
	assert_int_equal(strncmp(partial, path, strlen(path)), 0);
	assert_int_equal(strncmp(partial + strlen(path), ".partial.", 9), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(stat(partial, &st), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(stat(partial, &st), -1);
	assert_int_equal(stat(path, &st), 0);
}

static uint64_t u64_at(const unsigned char *d, size_t off)
{
	uint64_t v;

	memcpy(&v, d + off, sizeof(v));
	return v;
}

/* The layout, checked from the bytes as perf's documentation gives it. */
static void test_layout(void **state)
{
	unsigned char d[65536];
	unsigned char recs[8192];
	size_t n = make_records(recs), len;
	FILE *f;
	uint64_t attrs_off, attrs_size, data_off, data_size, ids_off, flags;

	(void)state;
	write_file();
	f = fopen(path, "rb");
	assert_non_null(f);
	len = fread(d, 1, sizeof(d), f);
	fclose(f);
	assert_memory_equal(d, "PERFILE2", 8);
	assert_int_equal(u64_at(d, 8), 104);			/* header size */
	assert_int_equal(u64_at(d, 16), 128 + 16);		/* attr + its ids section */
	attrs_off = u64_at(d, 24);
	attrs_size = u64_at(d, 32);
	data_off = u64_at(d, 40);
	data_size = u64_at(d, 48);
	flags = u64_at(d, 72);
	assert_int_equal(attrs_size, 144);
	assert_int_equal(data_size, n);
	assert_memory_equal(d + data_off, recs, n);		/* the records, unchanged */
	assert_int_equal(u64_at(d, attrs_off + 8), PERF_COUNT_SW_TASK_CLOCK);	/* attr.config */
	ids_off = u64_at(d, attrs_off + 128);
	assert_int_equal(u64_at(d, attrs_off + 136), 16);	/* two ids */
	assert_int_equal(u64_at(d, ids_off), 77);
	assert_int_equal(u64_at(d, ids_off + 8), 78);
	/* BUILD_ID, HOSTNAME..EVENT_DESC, CPU_TOPOLOGY, PMU_MAPPINGS, SAMPLE_TIME;
	 * no GROUP_DESC. */
	for (int bit = 2; bit <= 13; bit++)
		assert_true(flags & (1ULL << bit));
	assert_true(flags & (1ULL << 16));
	assert_true(flags & (1ULL << 21));
	assert_false(flags & (1ULL << 17));
	/* The feature table follows the data; the last section ends the file. */
	{
		size_t nr = (size_t)__builtin_popcountll(flags), last = data_off + data_size + (nr - 1) * 16;

		assert_int_equal(u64_at(d, last) + u64_at(d, last + 8), len);
	}
	/* BUILD_ID comes first: 36-byte entries, names NUL-padded to 64. */
	{
		size_t at = (size_t)u64_at(d, data_off + data_size), size = (size_t)u64_at(d, data_off + data_size + 8);
		struct perf_event_header h;
		int32_t pid;

		assert_int_equal(size, (36 + 64) + (36 + 128));
		memcpy(&h, d + at, sizeof(h));
		memcpy(&pid, d + at + 8, sizeof(pid));
		assert_int_equal(h.type, 0);
		assert_int_equal(h.misc, PERF_RECORD_MISC_KERNEL | (1 << 15));
		assert_int_equal(h.size, 36 + 64);
		assert_int_equal(pid, -1);
		assert_memory_equal(d + at + 12, kernel_id, 20);
		assert_int_equal(d[at + 32], 20);
		assert_string_equal((const char *)d + at + 36, "[kernel.kallsyms]");
		at += h.size;
		memcpy(&h, d + at, sizeof(h));
		assert_int_equal(h.misc, PERF_RECORD_MISC_USER | (1 << 15));
		assert_int_equal(h.size, 36 + 128);
		assert_memory_equal(d + at + 12, user_id, 8);
		assert_int_equal(d[at + 20], 0);	/* the rest of the 20 bytes is zero */
		assert_int_equal(d[at + 32], 8);
		assert_string_equal((const char *)d + at + 36, LONG_NAME);
		assert_int_equal(d[at + 36 + 127], 0);
	}
}

static void test_errors(void **state)
{
	struct pk_data_writer *w;
	char bad[300], partial[400];
	FILE *f;

	(void)state;
	snprintf(bad, sizeof(bad), "%s/no/such/dir/perf.data", dir);
	assert_true(pk_data_writer_create(bad, &w) < 0);
	assert_non_null(strstr(pk_last_error()->why, "no/such/dir/perf.data.partial."));
	/* Abort leaves nothing behind. */
	snprintf(bad, sizeof(bad), "%s/aborted.data", dir);
	assert_int_equal(pk_data_writer_create(bad, &w), 0);
	snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
	pk_data_writer_abort(w);
	assert_int_equal(access(bad, F_OK), -1);
	assert_int_equal(access(partial, F_OK), -1);
	/* Nothing to write to: an empty name, a directory. */
	assert_int_equal(pk_data_writer_create("", &w), -EINVAL);
	assert_int_equal(pk_data_writer_create(dir, &w), -EISDIR);
	/* A directory where the old file would be kept: said before writing. */
	snprintf(bad, sizeof(bad), "%s/kept.data", dir);
	f = fopen(bad, "w");
	assert_non_null(f);
	fclose(f);
	strcat(bad, ".old");
	assert_int_equal(mkdir(bad, 0700), 0);
	bad[strlen(bad) - 4] = 0;
	assert_int_equal(pk_data_writer_create(bad, &w), 0);
	assert_int_equal(pk_data_writer_keep_old(w), -EISDIR);
	pk_data_writer_abort(w);
	strcat(bad, ".old");
	assert_int_equal(rmdir(bad), 0);
	bad[strlen(bad) - 4] = 0;
	assert_int_equal(unlink(bad), 0);
	pk_data_writer_abort(NULL);
}


/* -z: the records come back through zstd exactly, in COMPRESSED records. */
static void test_compressed(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	unsigned char recs[8192], d[65536];
	size_t n = make_records(recs), len;
	char zpath[300];
	FILE *f;

	(void)state;
	snprintf(zpath, sizeof(zpath), "%s/z.data", dir);
	assert_int_equal(pk_data_writer_create(zpath, &w), 0);
	assert_int_equal(pk_data_writer_set_compression(w, 0), -EINVAL);
	assert_int_equal(pk_data_writer_set_compression(w, 3), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(pk_data_writer_write(w, recs, n), 0);
	assert_int_equal(pk_data_writer_set_compression(w, 1), -EINVAL);	/* too late */
	assert_int_equal(pk_data_writer_finish(w), 0);
	f = fopen(zpath, "rb");
	assert_non_null(f);
	len = fread(d, 1, sizeof(d), f);
	fclose(f);
	{
		uint64_t data_off = u64_at(d, 40), data_size = u64_at(d, 48), flags = u64_at(d, 72);
		const struct perf_event_header *h = (const void *)(d + data_off);

		assert_true(data_size < 20 * n / 4);	/* repetitive records compress well */
		assert_int_equal(h->type, 81);		/* PERF_RECORD_COMPRESSED */
		assert_true(flags & (1ULL << 27));	/* the COMPRESSED feature */
		assert_true(data_off + data_size < len);
	}
}

/*
 * A recording several buffers long: records of uneven sizes, so the buffer
 * never ends on a block, written to `file`.  `hook`, when given, runs on
 * the writer before the first record.  Returns the records, which the
 * caller frees; their length in *len.
 */
static unsigned char *write_big(const char *file, void (*hook)(struct pk_data_writer *), size_t *len)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	size_t cap = 3500 * 1024, n = 0;
	unsigned char *all = malloc(cap);

	assert_non_null(all);
	assert_int_equal(pk_data_writer_create(file, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
	if (hook)
		hook(w);
	for (uint32_t i = 0;; i++) {
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(48 + (i % 301) * 8) };

		if (n + h.size > cap)
			break;
		memcpy(all + n, &h, sizeof(h));
		for (size_t k = sizeof(h); k < h.size; k++)
			all[n + k] = (unsigned char)(i * 7 + k);
		assert_int_equal(pk_data_writer_write(w, all + n, h.size), 0);
		n += h.size;
	}
	assert_int_equal(pk_data_writer_finish(w), 0);
	*len = n;
	return all;
}

/* The file's data section is exactly `recs`. */
static void check_data(const char *file, const unsigned char *recs, size_t len)
{
	int fd = open(file, O_RDONLY);
	unsigned char hdr[104], *d = malloc(len);
	uint64_t off, size;

	assert_true(fd >= 0);
	assert_non_null(d);
	assert_int_equal(pread(fd, hdr, sizeof(hdr), 0), sizeof(hdr));
	off = u64_at(hdr, 40);
	size = u64_at(hdr, 48);
	assert_int_equal(size, len);
	assert_int_equal(pread(fd, d, len, (off_t)off), (ssize_t)len);
	assert_memory_equal(d, recs, len);
	close(fd);
	free(d);
}

/*
 * A finish that fails once the records are out (here the file may not grow
 * past them, RLIMIT_FSIZE, so the feature sections cannot be written)
 * keeps the temporary file with every record, names it in the error, and
 * puts nothing at the path: a failed finish never loses the recording.
 */
static void test_finish_fails(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	unsigned char recs[8192];
	size_t n = make_records(recs);
	char file[300], partial[400];
	struct rlimit old, lim;
	struct stat st;
	void (*oldh)(int);
	int err;

	(void)state;
	snprintf(file, sizeof(file), "%s/fsize.data", dir);
	assert_int_equal(pk_data_writer_create(file, &w), 0);
	snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
	assert_int_equal(pk_data_writer_write(w, recs, n), 0);
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(stat(partial, &st), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)st.st_size;
	oldh = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	err = pk_data_writer_finish(w);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, oldh);
	assert_int_equal(err, -EFBIG);
	assert_non_null(strstr(pk_last_error()->hint, partial));
	check_data(partial, recs, n);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(unlink(partial), 0);
}

/* A device is written into, never replaced: no temporary file, and
 * /dev/null is still /dev/null after a whole file went into it. */
static void test_device(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	unsigned char recs[8192];
	size_t n = make_records(recs);
	struct stat st;

	(void)state;
	assert_int_equal(pk_data_writer_create("/dev/null", &w), 0);
	assert_null(pk_data_writer_temp_path(w));
	assert_int_equal(pk_data_writer_keep_old(w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
	assert_int_equal(pk_data_writer_write(w, recs, n), 0);
	assert_int_equal(pk_data_writer_tick(w), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(access("/dev/null.old", F_OK), -1);
}

/*
 * pk_data_writer_set_path: the file ends under the new name (the name it
 * was created with stays free), never over a file already there (the
 * recording then stays in the temporary file, which the error names), and
 * a device has no name to change.
 */
static void test_set_path(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	unsigned char recs[8192];
	size_t n = make_records(recs);
	char file[300], named[320], partial[400], keep[8] = "";
	int fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/sp.data", dir);
	snprintf(named, sizeof(named), "%s.2026112521234567", file);
	for (int taken = 0; taken < 2; taken++) {
		if (taken) {	/* someone else's file at the new name */
			assert_true((fd = open(named, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0);
			assert_int_equal(write(fd, "mine", 4), 4);
			close(fd);
		}
		assert_int_equal(pk_data_writer_create(file, &w), 0);
		snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
		assert_int_equal(pk_data_writer_set_path(w, named), 0);
		assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
		assert_int_equal(pk_data_writer_write(w, recs, n), 0);
		assert_int_equal(pk_data_writer_finish(w), taken ? -EEXIST : 0);
		assert_int_equal(access(file, F_OK), -1);
		if (!taken) {
			check_data(named, recs, n);
			assert_int_equal(access(partial, F_OK), -1);
			continue;
		}
		assert_true((fd = open(named, O_RDONLY)) >= 0);
		assert_int_equal(read(fd, keep, sizeof(keep)), 4);
		close(fd);
		assert_string_equal(keep, "mine");
		check_data(partial, recs, n);
		assert_int_equal(unlink(partial), 0);
	}
	assert_int_equal(unlink(named), 0);
	assert_int_equal(pk_data_writer_create("/dev/null", &w), 0);
	assert_int_equal(pk_data_writer_set_path(w, named), -EINVAL);
	pk_data_writer_abort(w);
	assert_int_equal(access(named, F_OK), -1);
}

/*
 * A recording cut short: the first pk_data_writer_tick puts the records so far in
 * the temporary file with a header whose data size covers them (what a
 * killed recorder leaves), and the records written after it, through the
 * O_DIRECT blocks that write those bytes again, still make exactly the
 * records in the finished file.
 */
static void test_tick(void **state)
{
	struct pk_data_writer *w;
	struct perf_event_attr a = sample_attr();
	uint64_t ids[] = { 77 };
	size_t cap = 3500 * 1024, n = 0, at_tick = 0;
	unsigned char *all = malloc(cap);
	char file[300], partial[400];

	(void)state;
	assert_non_null(all);
	snprintf(file, sizeof(file), "%s/tick.data", dir);
	assert_int_equal(pk_data_writer_create(file, &w), 0);
	snprintf(partial, sizeof(partial), "%s", pk_data_writer_temp_path(w));
	assert_int_equal(pk_data_writer_add_event(w, &a, "task-clock", ids, 1), 0);
	for (uint32_t i = 0;; i++) {
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(48 + (i % 301) * 8) };

		if (n + h.size > cap)
			break;
		memcpy(all + n, &h, sizeof(h));
		for (size_t k = sizeof(h); k < h.size; k++)
			all[n + k] = (unsigned char)(i * 5 + k);
		assert_int_equal(pk_data_writer_write(w, all + n, h.size), 0);
		n += h.size;
		if (i == 1000) {	/* still inside the first buffer */
			assert_int_equal(pk_data_writer_tick(w), 0);
			at_tick = n;
			check_data(partial, all, at_tick);
		}
	}
	assert_true(at_tick > 0 && n > 3 * at_tick);
	/* What the tick wrote is still readable after the buffer drained. */
	check_data(partial, all, at_tick);
	assert_int_equal(pk_data_writer_finish(w), 0);
	check_data(file, all, n);
	assert_int_equal(access(partial, F_OK), -1);
	free(all);
}

/*
 * Past the page cache: the whole blocks of a full buffer go out with
 * O_DIRECT, so after a recording of several MiB most of the file is not
 * in the page cache, and the bytes are still exactly the records.
 */
static void test_direct(void **state)
{
	char file[300];
	size_t len, pages, resident = 0;
	unsigned char *recs, *vec;
	struct statfs fs;
	void *m;
	int fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/big.data", dir);
	recs = write_big(file, NULL, &len);
	/* tmpfs takes O_DIRECT but keeps every page in memory all the same. */
	assert_int_equal(statfs(dir, &fs), 0);
	if (fs.f_type == 0x01021994 /* TMPFS_MAGIC */) {
		printf("# %s is on tmpfs: page-cache residency not checked\n", dir);
		check_data(file, recs, len);
		free(recs);
		return;
	}
	/* Before anything reads the file back into the cache. */
	fd = open(file, O_RDONLY);
	assert_true(fd >= 0);
	pages = (len + 4095) / 4096;
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(m != MAP_FAILED);
	vec = malloc(pages);
	assert_int_equal(mincore(m, len, vec), 0);
	for (size_t i = 0; i < pages; i++)
		resident += vec[i] & 1;
	/* The header page and the last buffer's worth went through the cache. */
	if (resident > pages / 3)
		fail_msg("%zu of %zu pages of %s are in the page cache", resident, pages, file);
	munmap(m, len);
	free(vec);
	close(fd);
	check_data(file, recs, len);
	free(recs);
}

/* A direct write that fails: the rest goes through the page cache. */
static void break_direct(struct pk_data_writer *w)
{
	int ro = open(w->partial, O_RDONLY | O_CLOEXEC);

	assert_true(ro >= 0 && w->dfd >= 0);
	assert_true(dup2(ro, w->dfd) >= 0);	/* writes through it now fail with EBADF */
	close(ro);
}

static void test_direct_fails(void **state)
{
	char file[300];
	size_t len;
	unsigned char *recs;

	(void)state;
	snprintf(file, sizeof(file), "%s/broken.data", dir);
	recs = write_big(file, break_direct, &len);
	check_data(file, recs, len);
	free(recs);
}

/*
 * A file system that refuses O_DIRECT (ramfs): everything is buffered and
 * the file is whole.  Needs a private mount, so it runs in a child as root.
 */
static void test_no_direct(void **state)
{
	char mnt[300];
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() != 0)
		skip();	/* mounting ramfs needs root; CI runs as root */
	snprintf(mnt, sizeof(mnt), "%s/ramfs", dir);
	assert_int_equal(mkdir(mnt, 0700), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char file[400];
		size_t len;
		unsigned char *recs;
		int probe;

		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("none", mnt, "ramfs", 0, NULL))
			_exit(2);
		snprintf(file, sizeof(file), "%s/perf.data", mnt);
		probe = open(file, O_WRONLY | O_CREAT | O_DIRECT, 0600);
		if (probe >= 0 || errno != EINVAL)
			_exit(3);	/* ramfs took O_DIRECT: the test proves nothing */
		recs = write_big(file, NULL, &len);
		check_data(file, recs, len);
		free(recs);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	rmdir(mnt);
}

/* perf 6.1 reads what perfkit wrote. */
static void test_perf_reads_it(void **state)
{
	char cmd[600], out[8192];
	FILE *p;
	size_t n;
	int lines = 0;

	(void)state;
	if (system("perf --version >/dev/null 2>&1") != 0)
		skip();
	write_file();
	snprintf(cmd, sizeof(cmd), "perf report -i %s --header-only 2>&1", path);
	p = popen(cmd, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	if (!strstr(out, "# event : name = task-clock, , id = { 77, 78 }") ||
	    !strstr(out, "# cmdline : perfkit record -- true"))
		fail_msg("perf report --header-only said:\n%s", out);
	snprintf(cmd, sizeof(cmd), "perf script -i %s -F comm,pid,ip,period 2>&1", path);
	p = popen(cmd, "r");
	while (fgets(out, sizeof(out), p))
		if (strstr(out, "perfkit-test") && strstr(out, "4242") && strstr(out, "100000"))
			lines++;
		else
			fail_msg("perf script printed an unexpected line: %s", out);
	pclose(p);
	assert_int_equal(lines, NR_SAMPLES);
	/* perf buildid-list reads the BUILD_ID table back. */
	snprintf(cmd, sizeof(cmd), "perf buildid-list -i %s 2>&1", path);
	p = popen(cmd, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	if (!strstr(out, "e4f18d9dc1d0e6fc2b17e93e885a647b3c0a6fc1 [kernel.kallsyms]") ||
	    !strstr(out, "0102030405060708 ") || !strstr(out, LONG_NAME))
		fail_msg("perf buildid-list said:\n%s", out);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_direct_fails),
		cmocka_unit_test(test_no_direct),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_set_path),
		cmocka_unit_test(test_finish_fails),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_perf_reads_it),
	};

	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(oracle, setup, teardown);
	return cmocka_run_group_tests(unit, setup, teardown);
}
