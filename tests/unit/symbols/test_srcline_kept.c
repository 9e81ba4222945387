/* SPDX-License-Identifier: MIT */
/*
 * test_srcline_kept.c - a compressed debug file's whole image kept in the
 * build-id cache's directory (srcline-kept.c) and read back.  On a private
 * copy of the perfkit binary with its DWARF zlib-compressed: the image a
 * handle makes whole is kept in DIR/.perfkit-dwarf, and the next handle of
 * the same file maps it, inflates nothing and answers as the plain file's
 * DWARF does; a partial image is not kept; the copy changed since (its
 * time), or a kept file damaged (its header's checksum, size or change
 * time, its length), is not read and is kept again, and one whose image
 * libelf would write into (compressed sections) or which ends before its
 * section headers is not read; a file at the name that is not one of these, or a link,
 * is neither read nor replaced; a cache directory that is not the
 * caller's, or whose .perfkit-dwarf is a link, has nothing written in it.
 * Through pk_maps with a build-id cache, a kept image's answers are the
 * plain file's.
 * argv: the perfkit binary, a copy of it with compressed DWARF.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <elfutils/libdw.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "symbols/symbols.h"
#include "srcline-test.h"
#include "procmaps.h"
#include "tmpdir.h"

static char **paths;

struct fix {
	char dir[PATH_MAX];		/* the test's tree */
	char cache[PATH_MAX + 16];	/* dir/cache: the build-id cache */
	char copy[PATH_MAX + 16];	/* dir/zdebug: the compressed file's copy */
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	char buf[65536];
	ssize_t n;
	int in, out;

	if (!f || !tmp_mkdtemp(f->dir, sizeof(f->dir), "srcline-kept"))
		return -1;
	snprintf(f->cache, sizeof(f->cache), "%s/cache", f->dir);
	snprintf(f->copy, sizeof(f->copy), "%s/zdebug", f->dir);
	if (mkdir(f->cache, 0755) < 0)
		return -1;
	in = open(paths[1], O_RDONLY | O_CLOEXEC);
	out = open(f->copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	close(out);
	*state = f;
	return n;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	tmp_rmtree(f->dir);
	free(f);
	return 0;
}

/* The kept files in the cache (temporary ones would count too): their
 * number, and the path of the last in `path`. */
static int kept_files(const struct fix *f, char *path, size_t len)
{
	char sub[PATH_MAX + 64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(sub, sizeof(sub), "%s/.perfkit-dwarf", f->cache);
	if (!(d = opendir(sub)))
		return 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(path, len, "%s/%s", sub, de->d_name);
			n++;
		}
	closedir(d);
	return n;
}

/* A handle of the copy with the cache, made whole (address 0 is in no
 * unit) when `whole`; whether it came whole from a kept image at once
 * (one build, before any address was asked). */
static bool open_copy(const struct fix *f, bool whole)
{
	int fd = open(f->copy, O_RDONLY | O_CLOEXEC);
	struct pk__zdebug *z;
	bool from_kept;

	assert_true(fd >= 0);
	assert_non_null(z = pk__zdebug_open_kept(fd, f->copy, f->cache));
	from_kept = pk__zdebug_builds(z) == 1;
	if (from_kept)
		assert_false(proc_mapped(f->copy));	/* the file itself not read */
	if (whole)
		assert_non_null(pk__zdebug_dwarf(z, 0));
	pk__zdebug_free(z);
	close(fd);
	return from_kept;
}

/* Every unit's DIE of a handle read back from the kept image is the plain
 * file's, and the kept file is what is mapped. */
static void kept_and_read_back(void **state)
{
	struct fix *f = *state;
	int fd = open(f->copy, O_RDONLY | O_CLOEXEC), pfd = open(paths[0], O_RDONLY | O_CLOEXEC);
	char kept[2 * PATH_MAX];
	struct pk__zdebug *z;
	Dwarf *plain, *dw;

	assert_false(open_copy(f, false));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 0);	/* no partial image */
	assert_false(open_copy(f, true));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);
	assert_true(fd >= 0 && pfd >= 0);
	assert_non_null(plain = dwarf_begin(pfd, DWARF_C_READ));
	assert_non_null(z = pk__zdebug_open_kept(fd, f->copy, f->cache));
	assert_int_equal(pk__zdebug_builds(z), 1);
	assert_true(proc_mapped(kept));
	assert_non_null(dw = pk__zdebug_dwarf(z, 0x1234));
	assert_int_equal(pk__zdebug_builds(z), 1);
	assert_true(same_units(plain, dw) > 10);
	pk__zdebug_free(z);
	assert_false(proc_mapped(kept));
	dwarf_end(plain);
	close(fd);
	close(pfd);
}

/* The copy touched since its image was kept: not read, kept again. */
static void only_for_that_file(void **state)
{
	struct fix *f = *state;
	struct timespec times[2] = { { 0, UTIME_NOW }, { 1000000000, 0 } };

	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
	assert_int_equal(utimensat(AT_FDCWD, f->copy, times, 0), 0);
	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
}

/* Flip every bit of the kept file's byte at `off` (cut: cut it there). */
static void damage(const char *kept, off_t off, bool cut)
{
	int fd = open(kept, O_RDWR | O_CLOEXEC);
	unsigned char b;

	assert_true(fd >= 0);
	if (cut) {
		assert_int_equal(ftruncate(fd, off), 0);
	} else {
		assert_int_equal(pread(fd, &b, 1, off), 1);
		b ^= 0xff;
		assert_int_equal(pwrite(fd, &b, 1, off), 1);
	}
	close(fd);
}

/* A header byte changed (its checksum), the size it says, the file cut:
 * not read (the image is made again), and kept again whole.  (One whose
 * magic is changed is no longer known as one of these: others_left_alone.) */
static void damaged_not_read(void **state)
{
	struct fix *f = *state;
	char kept[2 * PATH_MAX];
	struct stat st;

	assert_false(open_copy(f, true));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);
	damage(kept, 80, false);			/* the checksum */
	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
	damage(kept, 79, false);			/* the image's size */
	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
	damage(kept, 64, false);			/* the file's change time */
	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
	assert_int_equal(stat(kept, &st), 0);
	damage(kept, st.st_size - 1, true);		/* its last byte */
	assert_false(open_copy(f, true));
	assert_true(open_copy(f, false));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);
}

/* A kept file of a sound header whose image libelf would write into (a
 * compressed section's header, inflated in place) or that ends before its
 * section headers: not read (the file's own image is made), no crash. */
static void unsound_image_not_read(void **state)
{
	struct fix *f = *state;
	int fd = open(f->copy, O_RDONLY | O_CLOEXEC), src = open(paths[1], O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *img;

	assert_true(fd >= 0 && src >= 0);
	assert_int_equal(fstat(src, &st), 0);
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, src, 0);
	assert_true(img != MAP_FAILED);
	pk__zkept_write(f->cache, f->copy, fd, img, (size_t)st.st_size);	/* compressed sections */
	assert_false(open_copy(f, false));
	pk__zkept_write(f->cache, f->copy, fd, img, 4096);	/* section headers past its end */
	assert_false(open_copy(f, false));
	munmap(img, (size_t)st.st_size);
	close(src);
	close(fd);
	assert_false(open_copy(f, true));	/* made whole, and kept soundly */
	assert_true(open_copy(f, false));
}

/* At the kept name, a file that is not one of these, or a link: neither
 * read nor replaced, and the link's target untouched. */
static void others_left_alone(void **state)
{
	struct fix *f = *state;
	char kept[2 * PATH_MAX], target[PATH_MAX + 16], buf[8];
	int fd;

	assert_false(open_copy(f, true));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);
	fd = open(kept, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "mine", 4), 4);
	close(fd);
	assert_false(open_copy(f, true));
	assert_false(open_copy(f, false));
	fd = open(kept, O_RDONLY | O_CLOEXEC);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	close(fd);
	assert_memory_equal(buf, "mine", 4);
	snprintf(target, sizeof(target), "%s/target", f->dir);
	assert_int_equal(rename(kept, target), 0);
	assert_int_equal(symlink(target, kept), 0);
	assert_false(open_copy(f, true));
	assert_false(open_copy(f, false));
	fd = open(target, O_RDONLY | O_CLOEXEC);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	close(fd);
	assert_memory_equal(buf, "mine", 4);
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);	/* the link alone */
}

/* A cache directory of another user, or a .perfkit-dwarf that is a link:
 * nothing is written. */
static void other_directories_untouched(void **state)
{
	struct fix *f = *state;
	char kept[2 * PATH_MAX], sub[PATH_MAX + 64], elsewhere[PATH_MAX + 16];
	DIR *d;

	if (geteuid())
		skip();		/* giving the directory to another user needs root */
	assert_int_equal(chown(f->cache, 12345, 12345), 0);
	assert_false(open_copy(f, true));
	assert_int_equal(kept_files(f, kept, sizeof(kept)), 0);
	assert_int_equal(chown(f->cache, geteuid(), getegid()), 0);
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", f->dir);
	snprintf(sub, sizeof(sub), "%s/.perfkit-dwarf", f->cache);
	assert_int_equal(mkdir(elsewhere, 0755), 0);
	assert_int_equal(symlink(elsewhere, sub), 0);
	assert_false(open_copy(f, true));
	assert_non_null(d = opendir(elsewhere));
	for (struct dirent *de; (de = readdir(d));)
		assert_true(!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."));
	closedir(d);
}

#define ASKED 600

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Three maps with the cache ask the copy the same addresses as the plain
 * binary: the first makes the image whole (an address without lines reads
 * every unit) and keeps it, the others read it back; every answer is the
 * plain file's. */
static void maps_answer_from_kept(void **state)
{
	struct fix *f = *state;
	char kept[2 * PATH_MAX];
	struct pk_maps *m;
	uint64_t start, len, zstart, zlen;
	size_t lines = 0;

	assert_int_equal(pk_maps_new(&m), 0);
	map_exec(m, 7, paths[0], &start, &len);
	kept[0] = 0;
	for (int round = 0; round < 3; round++) {
		struct pk_maps *z;

		assert_int_equal(pk_maps_new(&z), 0);
		assert_int_equal(pk_maps_set_buildid_cache(z, f->cache), 0);
		map_exec(z, 8, f->copy, &zstart, &zlen);
		assert_true(start == zstart && len == zlen);
		for (size_t i = 0; i < ASKED; i++) {
			struct pk_location loc = { .size = sizeof(loc) }, zloc = { .size = sizeof(zloc) };
			struct pk_srcline a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
			uint64_t ip = start + i * (len / ASKED);
			int rc;

			assert_int_equal(pk_maps_resolve(m, 7, ip, PERF_RECORD_MISC_USER, &loc), 0);
			assert_int_equal(pk_maps_resolve(z, 8, ip, PERF_RECORD_MISC_USER, &zloc), 0);
			rc = pk_maps_srcline(m, &loc, &a);
			assert_int_equal(pk_maps_srcline(z, &zloc, &b), rc);
			lines += !rc;
			assert_int_equal(a.line, b.line);
			assert_int_equal(a.nr_frames, b.nr_frames);
			assert_true(same_str(a.file, b.file));
			assert_true(same_str(a.file_addr2line, b.file_addr2line));
			for (size_t k = 0; k < a.nr_frames; k++) {
				assert_true(same_str(a.frames[k].func, b.frames[k].func));
				assert_true(same_str(a.frames[k].file, b.frames[k].file));
				assert_int_equal(a.frames[k].line, b.frames[k].line);
			}
		}
		if (round)	/* read back from the kept file */
			assert_true(proc_mapped(kept));
		pk_maps_free(z);
		assert_int_equal(kept_files(f, kept, sizeof(kept)), 1);
	}
	assert_true(lines > ASKED / 30);
	pk_maps_free(m);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(kept_and_read_back, setup, teardown),
		cmocka_unit_test_setup_teardown(only_for_that_file, setup, teardown),
		cmocka_unit_test_setup_teardown(damaged_not_read, setup, teardown),
		cmocka_unit_test_setup_teardown(unsound_image_not_read, setup, teardown),
		cmocka_unit_test_setup_teardown(others_left_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(other_directories_untouched, setup, teardown),
		cmocka_unit_test_setup_teardown(maps_answer_from_kept, setup, teardown),
	};

	if (argc < 3) {
		fprintf(stderr, "usage: %s PERFKIT COMPRESSED-COPY\n", argv[0]);
		return 2;
	}
	paths = argv + 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
