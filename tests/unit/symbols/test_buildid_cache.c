/* SPDX-License-Identifier: MIT */
/*
 * test_buildid_cache.c - the build-id cache: entries land where perf looks
 * for them (DIR/<real path>/<id>/elf and the .build-id link), are found
 * again by lookup, are not written twice, are never a file with another
 * build-id, and no symbolic link planted in the cache sends a write or a
 * lookup outside it.  The files cached are this test's own executable,
 * its vDSO and (where the kernel shows its addresses) /proc/kallsyms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

/* snprintf that fails the test instead of cutting a path short. */
static void pfmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

struct fx {
	char root[PATH_MAX];	/* the test's scratch directory */
	char cache[PATH_MAX];	/* root/cache */
	char outside[PATH_MAX];	/* root/outside: must stay empty */
	char exe[PATH_MAX];	/* this test's executable, its real path */
	uint8_t id[20];
	int id_size;
	char hex[41];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || !tmp_mkdtemp(f->root, sizeof(f->root), "perfkit-bidcache") || !realpath("/proc/self/exe", f->exe))
		return -1;
	pfmt(f->cache, sizeof(f->cache), "%s/cache", f->root);
	pfmt(f->outside, sizeof(f->outside), "%s/outside", f->root);
	if (mkdir(f->outside, 0755) < 0 || (f->id_size = pk_build_id_read(f->exe, f->id)) <= 0)
		return -1;
	for (int i = 0; i < f->id_size; i++)
		sprintf(f->hex + 2 * i, "%02x", f->id[i]);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	int err = tmp_rmtree(f->root);

	free(f);
	return err == 0 ? 0 : -1;
}

/* How many entries directory `path` holds (-1: not a directory). */
static int nr_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void entry_path(const struct fx *f, char *buf, size_t len)
{
	pfmt(buf, len, "%s%s/%s/elf", f->cache, f->exe, f->hex);
}

static void a_file_lands_where_perf_looks(void **state)
{
	struct fx *f = *state;
	char want[PATH_MAX * 2], link[PATH_MAX * 2], target[PATH_MAX], got[PATH_MAX * 2], expect[PATH_MAX * 2];
	uint8_t id[20];
	ssize_t n;

	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), 1);
	entry_path(f, want, sizeof(want));
	assert_int_equal(pk_build_id_read(want, id), f->id_size);
	assert_memory_equal(id, f->id, (size_t)f->id_size);
	pfmt(link, sizeof(link), "%s/.build-id/%.2s/%s", f->cache, f->hex, f->hex + 2);
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	pfmt(expect, sizeof(expect), "../..%s/%s", f->exe, f->hex);
	assert_string_equal(target, expect);
	/* Already there: nothing written. */
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), 0);
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, got, sizeof(got)),
			 (int)strlen(want));
	assert_string_equal(got, want);
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, got, 8), -ENAMETOOLONG);
}

static void another_build_id_is_refused(void **state)
{
	struct fx *f = *state;
	uint8_t wrong[20];
	char leaf[PATH_MAX * 2], hexw[41];

	memcpy(wrong, f->id, sizeof(wrong));
	wrong[0] ^= 0xff;
	for (int i = 0; i < f->id_size; i++)
		sprintf(hexw + 2 * i, "%02x", wrong[i]);
	/* The file is not the one recorded: no entry, no temporary left. */
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, wrong, (size_t)f->id_size), -ESTALE);
	assert_int_equal(pk_last_error()->code, -ESTALE);
	pfmt(leaf, sizeof(leaf), "%s%s/%s", f->cache, f->exe, hexw);
	assert_int_equal(nr_entries(leaf), 0);
	assert_int_equal(pk_buildid_cache_lookup(f->cache, wrong, (size_t)f->id_size, leaf, sizeof(leaf)),
			 -ENOENT);
}

static void a_wrong_entry_is_replaced_a_link_left(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX * 2];
	uint8_t id[20];
	struct stat st;
	FILE *o;

	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), 1);
	entry_path(f, path, sizeof(path));
	/* Damaged (another build-id, here none): checked, then replaced. */
	assert_int_equal(unlink(path), 0);
	assert_non_null(o = fopen(path, "w"));
	fputs("not an ELF file\n", o);
	fclose(o);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), 1);
	assert_int_equal(pk_build_id_read(path, id), f->id_size);
	/* A link in the entry's place is nobody's to replace: left alone. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), -EEXIST);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, path, sizeof(path)),
			 -EXDEV);
}

static void links_in_the_cache_are_not_followed_out(void **state)
{
	struct fx *f = *state;
	char first[PATH_MAX], path[PATH_MAX * 2];
	size_t n = strcspn(f->exe + 1, "/");

	/* DIR/<first component of the path> -> outside: the write is refused. */
	assert_int_equal(mkdir(f->cache, 0755), 0);
	pfmt(first, sizeof(first), "%s/%.*s", f->cache, (int)n, f->exe + 1);
	assert_int_equal(symlink(f->outside, first), 0);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), -ELOOP);
	assert_int_equal(nr_entries(f->outside), 0);
	assert_int_equal(unlink(first), 0);
	/* DIR/.build-id -> outside: the entry is made, the link refused. */
	pfmt(path, sizeof(path), "%s/.build-id", f->cache);
	assert_int_equal(symlink(f->outside, path), 0);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), -ELOOP);
	assert_int_equal(nr_entries(f->outside), 0);
	/* A lookup through that link is refused too. */
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, path, sizeof(path)),
			 -EXDEV);
	pfmt(path, sizeof(path), "%s/.build-id", f->cache);
	assert_int_equal(unlink(path), 0);
}

static void an_id_link_leading_out_is_not_followed(void **state)
{
	struct fx *f = *state;
	char dir[PATH_MAX * 2], link[PATH_MAX * 2], target[PATH_MAX * 2], path[PATH_MAX * 2];

	/* A real entry outside, and a planted link to it that climbs out. */
	pfmt(dir, sizeof(dir), "%s/%s", f->outside, f->hex);
	assert_int_equal(mkdir(dir, 0755), 0);
	pfmt(path, sizeof(path), "%s/elf", dir);
	assert_int_equal(symlink(f->exe, path), 0);
	pfmt(link, sizeof(link), "%s/.build-id/%.2s", f->cache, f->hex);
	assert_int_equal(mkdir(f->cache, 0755), 0);
	pfmt(path, sizeof(path), "%s/.build-id", f->cache);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(mkdir(link, 0755), 0);
	pfmt(link + strlen(link), sizeof(link) - strlen(link), "/%s", f->hex + 2);
	pfmt(target, sizeof(target), "../../../outside/%s", f->hex);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, path, sizeof(path)),
			 -EXDEV);
	/* Adding keeps the planted link (perf keeps the first) but writes the
	 * entry inside the cache, and nothing outside changes. */
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, (size_t)f->id_size), 1);
	assert_int_equal(nr_entries(dir), 1);
}

static void a_copy_across_filesystems(void **state)
{
	struct fx *f = *state;
	char shm[] = "/dev/shm/perfkit-bidcache-XXXXXX", path[PATH_MAX * 2];
	struct stat a, b;
	uint8_t id[20];
	int ret;

	/* tmpfs is another filesystem than the build tree: no hard link. */
	if (!mkdtemp(shm))
		skip();
	ret = pk_buildid_cache_add(shm, f->exe, f->id, (size_t)f->id_size);
	if (ret == 1 && pk_buildid_cache_lookup(shm, f->id, (size_t)f->id_size, path, sizeof(path)) > 0 &&
	    stat(path, &a) == 0 && stat(f->exe, &b) == 0)
		ret = (a.st_dev != b.st_dev && a.st_size == b.st_size && pk_build_id_read(path, id) == f->id_size)
		      ? 1 : -1000;
	tmp_rmtree(shm);
	assert_int_equal(ret, 1);
}

static void the_vdso_from_memory(void **state)
{
	struct fx *f = *state;
	uint8_t id[20], got[20];
	char path[PATH_MAX * 2];
	int n = pk_build_id_vdso(id);

	if (n <= 0)
		skip();
	assert_int_equal(pk_buildid_cache_add(f->cache, "[vdso]", id, (size_t)n), 1);
	assert_true(pk_buildid_cache_lookup(f->cache, id, (size_t)n, path, sizeof(path)) > 0);
	assert_non_null(strstr(path, "/[vdso]/"));
	assert_string_equal(path + strlen(path) - 5, "/vdso");
	assert_int_equal(pk_build_id_read(path, got), n);
	assert_memory_equal(got, id, (size_t)n);
	id[1] ^= 1;	/* another kernel's vDSO: not ours to write */
	assert_int_equal(pk_buildid_cache_add(f->cache, "[vdso]", id, (size_t)n), -ESTALE);
}

static void kallsyms_with_addresses(void **state)
{
	struct fx *f = *state;
	uint8_t id[20];
	char path[PATH_MAX * 2], line[512];
	unsigned long long addr = 0;
	int n = pk_build_id_kernel(id), ret;
	FILE *k;

	if (n <= 0)
		skip();
	ret = pk_buildid_cache_add(f->cache, "[kernel.kallsyms]", id, (size_t)n);
	if (ret == -EACCES)	/* kptr_restrict hides the addresses from this user */
		skip();
	assert_int_equal(ret, 1);
	assert_true(pk_buildid_cache_lookup(f->cache, id, (size_t)n, path, sizeof(path)) > 0);
	assert_string_equal(path + strlen(path) - 9, "/kallsyms");
	assert_non_null(k = fopen(path, "r"));
	while (!addr && fgets(line, sizeof(line), k))
		addr = strtoull(line, NULL, 16);
	fclose(k);
	assert_true(addr != 0);
	assert_int_equal(pk_buildid_cache_add(f->cache, "[kernel.kallsyms]", id, (size_t)n), 0);
	/* A copy from an earlier boot (KASLR moved _text) is replaced. */
	assert_non_null(k = fopen(path, "w"));
	fputs("ffffffff10000000 T _text\nffffffff10001000 T old_boot_fn\n", k);
	assert_int_equal(fclose(k), 0);
	assert_int_equal(pk_buildid_cache_add(f->cache, "[kernel.kallsyms]", id, (size_t)n), 1);
	assert_non_null(k = fopen(path, "r"));
	addr = 0;
	while (fgets(line, sizeof(line), k))
		if (strstr(line, " T _text\n"))
			addr = strtoull(line, NULL, 16);
	fclose(k);
	assert_true(addr != 0 && addr != 0xffffffff10000000ull);
}

static void bad_input_and_unwritable_dirs(void **state)
{
	struct fx *f = *state;
	char file[PATH_MAX * 2], path[64];
	FILE *o;

	assert_int_equal(pk_buildid_cache_add(f->cache, "[heap]", f->id, (size_t)f->id_size), -EINVAL);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, 0), -EINVAL);
	assert_int_equal(pk_buildid_cache_add(f->cache, f->exe, f->id, 21), -EINVAL);
	assert_int_equal(pk_buildid_cache_add("", f->exe, f->id, (size_t)f->id_size), -EINVAL);
	assert_int_equal(pk_buildid_cache_add(f->cache, "/nonexistent/perfkit", f->id, (size_t)f->id_size),
			 -ENOENT);
	assert_int_equal(pk_buildid_cache_lookup(f->cache, f->id, (size_t)f->id_size, path, sizeof(path)),
			 -ENOENT);
	/* A cache under a regular file cannot be made, even by root. */
	pfmt(file, sizeof(file), "%s/file", f->root);
	assert_non_null(o = fopen(file, "w"));
	fclose(o);
	strcat(file, "/cache");
	assert_int_equal(pk_buildid_cache_add(file, f->exe, f->id, (size_t)f->id_size), -ENOTDIR);
	assert_non_null(strstr(pk_last_error()->why, file));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_file_lands_where_perf_looks, setup, teardown),
		cmocka_unit_test_setup_teardown(another_build_id_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(a_wrong_entry_is_replaced_a_link_left, setup, teardown),
		cmocka_unit_test_setup_teardown(links_in_the_cache_are_not_followed_out, setup, teardown),
		cmocka_unit_test_setup_teardown(an_id_link_leading_out_is_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(a_copy_across_filesystems, setup, teardown),
		cmocka_unit_test_setup_teardown(the_vdso_from_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(kallsyms_with_addresses, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_input_and_unwritable_dirs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
