/* SPDX-License-Identifier: MIT */
/*
 * test_spill.c - spill.c's arrays: on the heap up to the budget, moved to
 * an unlinked temporary file past it with every byte kept, through growth
 * (the mapping moving) and drops (the pages leave the process's memory,
 * the bytes stay); touches, counted in the 64 KiB blocks a read fault
 * maps (a block touched again in turn once) or in bytes
 * (pk__spill_count), dropping every page past a quarter of the budget; a
 * temporary directory that cannot be used keeps the array on the heap, a
 * full one moves it back there; an array made at its size, zeroed, in a
 * file past the budget; a failed allocation is -ENOMEM with a record;
 * $PERFKIT_SPILL_BUDGET read as a positive number only; no file left open
 * after pk__spill_free; a file's own mapping adopted (pk__spill_adopt)
 * counted and let go the same, unmapped and its fd closed at the free.
 */
#include <dirent.h>
#include <limits.h>
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
#include <sys/mount.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "tmpdir.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The resident kB of the mapping that starts at p, from smaps; -1: none. */
static long resident_kb(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;
	long kb = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = lo == (unsigned long)(uintptr_t)p;
		else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static void fill(struct pk__spill *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		s->p[i] = (unsigned char)(i * 7 + i / 4096);
}

static void check(const struct pk__spill *s, size_t to)
{
	for (size_t i = 0; i < to; i++)
		if (s->p[i] != (unsigned char)(i * 7 + i / 4096))
			fail_msg("byte %zu changed", i);
}

/* $TMPDIR made dir; its value before, to give tmpdir_restore. */
static char *tmpdir_set(const char *dir)
{
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	setenv("TMPDIR", dir, 1);
	return old;
}

static void tmpdir_restore(char *old)
{
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

static void heap_below_budget(void **state)
{
	struct pk__spill s;

	(void)state;
	pk__spill_set_budget(64 << 10);
	pk__spill_init(&s);
	assert_int_equal(pk__spill_reserve(&s, 10000), 0);
	assert_true(s.cap >= 10000);
	fill(&s, 0, 10000);
	assert_int_equal(pk__spill_reserve(&s, 40000), 0);
	assert_false(pk__spill_in_file(&s));
	check(&s, 10000);
	pk__spill_drop(&s, 0, s.cap);	/* on the heap: nothing */
	check(&s, 10000);
	pk__spill_free(&s);
	assert_null(s.p);
	pk__spill_set_budget(0);
}

static void moves_to_file(void **state)
{
	struct pk__spill s;
	int fds = open_fds();

	(void)state;
	pk__spill_set_budget(8192);
	pk__spill_init(&s);
	assert_int_equal(pk__spill_reserve(&s, 8192), 0);
	assert_false(pk__spill_in_file(&s));
	fill(&s, 0, 8192);
	assert_int_equal(pk__spill_reserve(&s, 100000), 0);
	assert_true(pk__spill_in_file(&s));
	assert_int_equal(open_fds(), fds + 1);
	check(&s, 8192);
	fill(&s, 8192, 100000);
	assert_int_equal(pk__spill_reserve(&s, 1 << 20), 0);	/* the mapping grows (and may move) */
	check(&s, 100000);
	fill(&s, 100000, 1 << 20);
	assert_true(resident_kb(s.p) >= 1000);
	pk__spill_drop(&s, 0, s.cap);
	assert_int_equal(resident_kb(s.p), 0);
	check(&s, 1 << 20);	/* read back from the file */
	pk__spill_drop(&s, 4095, 3 * 4096 + 1);	/* only the whole pages inside */
	assert_int_equal(resident_kb(s.p), 4 * (1 << 20) / 4096 - 8);
	pk__spill_free(&s);
	assert_int_equal(open_fds(), fds);
	pk__spill_set_budget(0);
}

static void touches_drop(void **state)
{
	struct pk__spill s;

	(void)state;
	pk__spill_set_budget(1 << 20);	/* drops past 256 KiB: four 64 KiB blocks */
	pk__spill_init(&s);
	assert_int_equal(pk__spill_reserve(&s, 2 << 20), 0);
	assert_true(pk__spill_in_file(&s));
	fill(&s, 0, 1 << 20);
	pk__spill_touch(&s, 0, 64 << 10);	/* block 0 */
	pk__spill_touch(&s, 100, 10);		/* block 0 again: not counted */
	pk__spill_touch(&s, 64 << 10, 128 << 10);	/* blocks 1 and 2 */
	pk__spill_touch(&s, 0, 0);		/* nothing */
	pk__spill_touch(&s, 5 << 16, 1);	/* block 5: four counted, kept */
	assert_true(resident_kb(s.p) >= 1000);
	pk__spill_touch(&s, 7 << 16, 1);	/* a fifth: every page let go */
	assert_int_equal(resident_kb(s.p), 0);
	check(&s, 1 << 20);
	pk__spill_touch(&s, (64 << 10) - 1, 2);	/* a span counts every block it reaches */
	pk__spill_touch(&s, (192 << 10) - 1, 2);	/* blocks 2 and 3: four again, kept */
	assert_true(resident_kb(s.p) >= 1000);
	pk__spill_touch(&s, 9 << 16, 1);
	assert_int_equal(resident_kb(s.p), 0);
	check(&s, 1 << 20);
	pk__spill_count(&s, 256 << 10);		/* bytes at no place told: a quarter, kept */
	assert_true(resident_kb(s.p) >= 1000);
	pk__spill_count(&s, 1);
	assert_int_equal(resident_kb(s.p), 0);
	pk__spill_free(&s);
	pk__spill_set_budget(0);
}

static void no_temp_dir(void **state)
{
	struct pk__spill s;
	char *old = tmpdir_set("/nonexistent/perfkit");

	(void)state;
	pk__spill_set_budget(4096);
	pk__spill_init(&s);
	assert_int_equal(pk__spill_reserve(&s, 4096), 0);
	fill(&s, 0, 4096);
	assert_int_equal(pk__spill_reserve(&s, 65536), 0);
	assert_false(pk__spill_in_file(&s));
	check(&s, 4096);
	pk__spill_free(&s);
	tmpdir_restore(old);
	pk__spill_set_budget(0);
}

/* A 64 KiB tmpfs for full_disk, mounted under $TMPDIR (root only). */
static char small_dir[PATH_MAX];

static int mount_small(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;	/* full_disk skips */
	if (!tmp_mkdtemp(small_dir, sizeof(small_dir), "spill-full"))
		return -1;
	if (mount("tmpfs", small_dir, "tmpfs", 0, "size=64k") != 0) {
		rmdir(small_dir);
		small_dir[0] = 0;
		return -1;
	}
	return 0;
}

static int unmount_small(void **state)
{
	(void)state;
	if (small_dir[0] && (umount(small_dir) != 0 || rmdir(small_dir) != 0))
		return -1;
	small_dir[0] = 0;
	return 0;
}

/* A file that cannot grow (a full 64 KiB tmpfs) moves the array back to
 * the heap, every byte kept. */
static void full_disk(void **state)
{
	struct pk__spill s;
	char *old;

	(void)state;
	if (!small_dir[0])
		skip();	/* mounting a tmpfs takes root */
	old = tmpdir_set(small_dir);
	pk__spill_set_budget(8192);
	pk__spill_init(&s);
	assert_int_equal(pk__spill_reserve(&s, 16384), 0);
	assert_true(pk__spill_in_file(&s));
	fill(&s, 0, 16384);
	assert_int_equal(pk__spill_reserve(&s, 1 << 20), 0);
	assert_false(pk__spill_in_file(&s));
	check(&s, 16384);
	fill(&s, 16384, 1 << 20);
	check(&s, 1 << 20);
	pk__spill_free(&s);
	tmpdir_restore(old);
	pk__spill_set_budget(0);
}

/* s (empty) made `bytes` at its size: in a file or not, cap bytes, all 0. */
static void alloc_zeroed(struct pk__spill *s, size_t bytes, bool in_file, size_t cap)
{
	assert_int_equal(pk__spill_alloc(s, bytes), 0);
	assert_int_equal(pk__spill_in_file(s), in_file);
	assert_int_equal(s->cap, cap);
	for (size_t i = 0; i < s->cap; i++)
		assert_int_equal(s->p[i], 0);
}

static void made_at_size(void **state)
{
	struct pk__spill s;

	(void)state;
	pk__spill_set_budget(8192);
	pk__spill_init(&s);
	alloc_zeroed(&s, 5000, false, 8192);	/* under the budget: the heap's */
	pk__spill_free(&s);
	alloc_zeroed(&s, 100000, true, 102400);	/* past it: a file's */
	fill(&s, 0, 100000);
	pk__spill_drop(&s, 0, s.cap);
	check(&s, 100000);
	pk__spill_free(&s);
	pk__spill_set_budget(0);
}

static void out_of_memory(void **state)
{
	struct pk__spill s;

	(void)state;
	pk__spill_set_budget(1 << 20);
	pk__spill_init(&s);
	pk__alloc_fail_nth(1);
	assert_int_equal(pk__spill_reserve(&s, 100), -ENOMEM);
	assert_int_equal(pk__alloc_fail_nth(0), 0);
	assert_int_equal(pk_last_error()->code, -ENOMEM);
	assert_non_null(strstr(pk_last_error()->why, "out of memory for an array of 4096 bytes"));
	assert_null(s.p);
	assert_int_equal(s.cap, 0);
	pk__spill_free(&s);
	pk__spill_set_budget(0);
}

/* A file's own mapping adopted: counted and let go like a moved array's,
 * never grown, and unmapped with its fd closed by pk__spill_free. */
static void adopted_mapping(void **state)
{
	char path[PATH_MAX];
	struct pk__spill s;
	unsigned char *p;
	int fd = tmp_mkstemp(path, sizeof(path), "spill-adopt");

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	p = mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	pk__spill_set_budget(1 << 20);
	pk__spill_adopt(&s, fd, p, 1 << 20);
	assert_ptr_equal(s.p, p);
	assert_true(pk__spill_in_file(&s));
	for (size_t i = 0; i < (1 << 20); i += 4096)
		assert_int_equal(p[i], 0);
	assert_true(resident_kb(p) >= 1000);
	pk__spill_count(&s, 256 << 10);		/* a quarter of the budget: kept */
	assert_true(resident_kb(p) >= 1000);
	pk__spill_count(&s, 1);
	assert_int_equal(resident_kb(p), 0);
	pk__spill_free(&s);
	assert_int_equal(resident_kb(p), -1);	/* unmapped */
	assert_int_equal(fcntl(fd, F_GETFD), -1);	/* closed */
	assert_int_equal(errno, EBADF);
	pk__spill_set_budget(0);
}

static void budget_from_env(void **state)
{
	(void)state;
	pk__spill_set_budget(0);
	unsetenv("PERFKIT_SPILL_BUDGET");
	assert_int_equal(pk__spill_budget(), PK__SPILL_BUDGET);
	setenv("PERFKIT_SPILL_BUDGET", "12345", 1);
	assert_int_equal(pk__spill_budget(), 12345);
	pk__spill_set_budget(77);	/* a test's own comes first */
	assert_int_equal(pk__spill_budget(), 77);
	pk__spill_set_budget(0);
	for (const char *const *v = (const char *const[]){ "0", "-1", "12k", "", " 5", NULL }; *v; v++) {
		setenv("PERFKIT_SPILL_BUDGET", *v, 1);
		assert_int_equal(pk__spill_budget(), PK__SPILL_BUDGET);
	}
	unsetenv("PERFKIT_SPILL_BUDGET");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heap_below_budget),
		cmocka_unit_test(moves_to_file),
		cmocka_unit_test(touches_drop),
		cmocka_unit_test(no_temp_dir),
		cmocka_unit_test_setup_teardown(full_disk, mount_small, unmount_small),
		cmocka_unit_test(made_at_size),
		cmocka_unit_test(out_of_memory),
		cmocka_unit_test(budget_from_env),
		cmocka_unit_test(adopted_mapping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
