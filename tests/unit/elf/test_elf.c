/* SPDX-License-Identifier: MIT */
/*
 * test_elf.c - the elf layer on real files: symbol -> file offset checked
 * against where this test's own code is mapped, the workload's symbols,
 * its build-id against readelf's, the .gnu_debuglink objcopy wrote (name
 * and CRC-32 of the debug file), and truncated and corrupt files, from a
 * path and from memory, which must fail with an error and no crash.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "host/host.h"
#include "tmpdir.h"

static const char *linked_path, *debug_path;

/* A function whose address the test looks up in its own executable. */
__attribute__((noinline, used)) int pk_elf_test_marker(int x);
__attribute__((noinline, used)) int pk_elf_test_marker(int x)
{
	return x * 3 + 1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

struct where {
	uintptr_t addr;
	const char *exe;
	uint64_t offset;
	int found;
};

static int find_addr(void *arg, const struct pk__host_map *m)
{
	struct where *w = arg;

	if (w->addr >= m->start && w->addr < m->end && !strcmp(m->path, w->exe)) {
		w->offset = w->addr - m->start + m->pgoff;
		w->found++;
	}
	return 0;
}

static void test_own_symbol_offset(void **state)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct where w = { (uintptr_t)pk_elf_test_marker, exe, 0, 0 };
	struct pk__elf *e;
	uint64_t off, value;
	unsigned char *file;
	size_t len;

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(pk__host_maps_read(getpid(), find_addr, &w), 0);
	assert_int_equal(w.found, 1);
	assert_int_equal(pk__elf_open(exe, &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, "pk_elf_test_marker", &off, &value), 0);
	/* Where the loader put the function, mapped back to the file. */
	assert_int_equal(off, w.offset);
	file = slurp(exe, &len);
	assert_true(off + 16 <= len);
	assert_memory_equal(file + off, (const void *)w.addr, 16);
	free(file);
	assert_int_equal(pk__elf_symbol_offset(e, "pk_elf_test_markr", &off, NULL), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "pk_elf_test_markr"));
	pk__elf_close(e);
	assert_int_equal(pk_elf_test_marker(1), 4);
}

struct names {
	int main, dynamic, total;
};

static int count_syms(void *arg, const struct pk__elf_sym *s)
{
	struct names *n = arg;

	n->main += !strcmp(s->name, "main");
	n->dynamic += s->dynamic;
	n->total++;
	return 0;
}

static int stop_at_first(void *arg, const struct pk__elf_sym *s)
{
	(void)s;
	++*(int *)arg;
	return 5;
}

static void test_workload_symbols(void **state)
{
	const char *path = getenv("PERFKIT_WORKLOAD");
	struct names n = { 0, 0, 0 };
	struct pk__elf *e;
	uint64_t off;
	int calls = 0;

	(void)state;
	assert_non_null(path);
	assert_int_equal(pk__elf_open(path, &e), 0);
	assert_string_equal(pk__elf_name(e), path);
	assert_int_equal(pk__elf_symbols(e, count_syms, &n), 0);
	assert_int_equal(n.main, 1);		/* .symtab's main; it is not exported */
	assert_true(n.total >= 2);
	assert_int_equal(pk__elf_symbols(e, stop_at_first, &calls), 5);
	assert_int_equal(calls, 1);
	assert_int_equal(pk__elf_symbol_offset(e, "main", &off, NULL), 0);
	assert_true(off > 0);
	assert_int_equal(pk__elf_symbol_offset(e, "printf", &off, NULL), -ENOENT);	/* undefined */
	pk__elf_close(e);
}

/* The build-id as readelf -n prints it, in hex. */
static void readelf_build_id(const char *path, char *hex, size_t len)
{
	char cmd[PATH_MAX + 64], line[256];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	hex[0] = '\0';
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %127s", hex) == 1)
			break;
	pclose(p);
	assert_true(hex[0] && strlen(hex) < len);
}

static void test_build_id(void **state)
{
	const char *path = getenv("PERFKIT_WORKLOAD");
	char want[128], got[41] = "";
	uint8_t id[20];
	struct pk__elf *e;
	int n;

	(void)state;
	assert_non_null(path);
	readelf_build_id(path, want, sizeof(want));
	assert_int_equal(pk__elf_open(path, &e), 0);
	n = pk__elf_build_id(e, id);
	pk__elf_close(e);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		snprintf(got + 2 * i, 3, "%02x", id[i]);
	assert_string_equal(got, want);
	assert_int_equal(pk_build_id_read(path, id), n);
	assert_int_equal(pk_build_id_read("/nonexistent/file", id), -ENOENT);
}

/* CRC-32 (IEEE, reflected), as gdb and objcopy compute it for debuglinks. */
static uint32_t crc32_of(const unsigned char *p, size_t len)
{
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static void test_debuglink(void **state)
{
	struct pk__elf *e;
	char name[64];
	unsigned char *debug;
	size_t len;
	uint32_t crc = 0;

	(void)state;
	assert_non_null(getenv("PERFKIT_WORKLOAD"));
	assert_int_equal(pk__elf_open(linked_path, &e), 0);
	assert_int_equal(pk__elf_debuglink(e, name, sizeof(name), &crc), 0);
	assert_string_equal(name, "perfkit-workload.debug");
	debug = slurp(debug_path, &len);
	assert_int_equal(crc, crc32_of(debug, len));
	free(debug);
	assert_int_equal(pk__elf_debuglink(e, name, 8, &crc), -ENAMETOOLONG);
	pk__elf_close(e);
	assert_int_equal(pk__elf_open(getenv("PERFKIT_WORKLOAD"), &e), 0);
	assert_int_equal(pk__elf_debuglink(e, name, sizeof(name), &crc), -ENOENT);
	pk__elf_close(e);
}

/* Every query on a damaged image fails or answers; none crashes. */
static void query_all(struct pk__elf *e)
{
	uint8_t id[20];
	uint64_t off;
	char name[64];
	uint32_t crc;
	struct names n = { 0, 0, 0 };

	assert_true(pk__elf_symbol_offset(e, "main", &off, NULL) <= 0);
	assert_true(pk__elf_build_id(e, id) <= 20);
	assert_true(pk__elf_debuglink(e, name, sizeof(name), &crc) <= 0);
	assert_true(pk__elf_symbols(e, count_syms, &n) == 0);
}

static void test_damaged(void **state)
{
	char dir[4096], path[4200];
	size_t len;
	unsigned char *good = slurp(linked_path, &len);
	static const size_t cuts[] = { 0, 4, 40, 64, 1000, 4096 };
	struct pk__elf *e;

	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-elf"));
	snprintf(path, sizeof(path), "%s/elf", dir);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		FILE *f = fopen(path, "wb");
		int err;

		assert_non_null(f);
		assert_int_equal(fwrite(good, 1, cuts[i], f), cuts[i]);
		fclose(f);
		/* Cut inside the 64-byte header it is not ELF; later cuts lose the section
		 * headers at the end of the file, which libelf refuses or we survive. */
		err = pk__elf_open(path, &e);
		if (cuts[i] <= 64) {
			assert_int_equal(err, -EINVAL);
			assert_non_null(strstr(pk_last_error()->why, "not an ELF file"));
		} else if (err == 0) {
			query_all(e);
			pk__elf_close(e);
		} else {
			assert_int_equal(err, -EINVAL);
		}
		err = pk__elf_open_mem(good, cuts[i], "cut", &e);
		if (!err) {
			assert_true(cuts[i] > 64);
			query_all(e);
			pk__elf_close(e);
		}
	}
	/* Section headers said to lie far past the end. */
	{
		unsigned char *bad = malloc(len);

		memcpy(bad, good, len);
		memset(bad + 0x28, 0x7f, 8);	/* e_shoff of ELF64 */
		if (!pk__elf_open_mem(bad, len, "bad shoff", &e)) {
			query_all(e);
			pk__elf_close(e);
		}
		free(bad);
	}
	assert_int_equal(pk__elf_open_mem("hello, world\n", 13, "text", &e), -EINVAL);
	assert_int_equal(pk__elf_open("/nonexistent/elf", &e), -ENOENT);
	free(good);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_symbol_offset),
		cmocka_unit_test(test_workload_symbols),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_damaged),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s WORKLOAD-WITH-DEBUGLINK DEBUG-FILE\n", argv[0]);
		return 2;
	}
	linked_path = argv[1];
	debug_path = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
