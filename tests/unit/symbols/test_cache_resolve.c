/* SPDX-License-Identifier: MIT */
/*
 * test_cache_resolve.c - pk_maps_resolve through the build-id cache
 * (pk_maps_set_buildid_cache), without a kernel or perf: a program
 * rebuilt after it was cached resolves from the cached copy; the vDSO of
 * another kernel from its cached image; another kernel's symbols, its
 * modules' too, from its cached kallsyms; the running kernel's cached
 * kallsyms read in place of /proc/kallsyms only while it is the same; and
 * the entries of a perf.data
 * BUILD_ID section handed to the maps (pk_maps_set_build_ids), damaged
 * ones included.  argv: the workload, its non-PIE build.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "tmpdir.h"

static char **paths;	/* workload, nopie */

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void mmap2(struct pk_maps *m, uint32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		  const char *file)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };

	r.mmap2 = (struct pk_rec_mmap2){ .pid = pid, .tid = pid, .addr = addr, .len = len,
					 .pgoff = pgoff, .prot = PROT_READ | PROT_EXEC,
					 .filename = file };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

static int resolve(struct pk_maps *m, uint32_t pid, uint64_t ip, uint16_t mode,
		   struct pk_location *loc)
{
	*loc = (struct pk_location){ .size = sizeof(*loc) };
	return pk_maps_resolve(m, pid, ip, mode, loc);
}

static void hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
}

/* An entry made by hand in perf's layout: DIR/NAME/HEX/FILE holding a copy
 * of src (or the text), and DIR/.build-id/xx/rest linking to it. */
static void plant(const char *dir, const char *name, const uint8_t *id, size_t n,
		  const char *file, const char *src, const char *text)
{
	char h[41], path[8192], cmd[20000];
	FILE *f;

	hex(id, n, h);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s/%s' '%s/.build-id/%.2s' && "
		 "ln -s '../../%s/%s' '%s/.build-id/%.2s/%s'", dir, name, h, dir, h, name, h, dir,
		 h, h + 2);
	assert_int_equal(run(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s/%s/%s", dir, name, h, file);
	if (src) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, path);
		assert_int_equal(run(cmd), 0);
		return;
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file offset of function fn in file. */
static uint64_t offset_of(const char *file, const char *fn)
{
	struct pk__elf *e;
	uint64_t off;

	assert_int_equal(pk__elf_open(file, &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, fn, &off, NULL), 0);
	pk__elf_close(e);
	return off;
}

/* A program cached with pk_buildid_cache_add, then rebuilt (a new file
 * with another build-id in its place): the recording's build-id finds the
 * cached copy; without the cache the DSO is refused and flagged. */
static void rebuilt_program(void **state)
{
	char dir[4096], prog[4200], cache[4200], cmd[40000];
	uint8_t id[20];
	uint64_t off = offset_of(paths[0], "hot_a");
	struct pk_location loc;
	struct pk_maps *m;
	int n;

	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "rebuilt"));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", paths[0], prog);
	assert_int_equal(run(cmd), 0);
	assert_true((n = pk_build_id_read(prog, id)) > 0);
	assert_int_equal(pk_buildid_cache_add(cache, prog, id, (size_t)n), 1);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s.new' && mv '%s.new' '%s'", paths[1], prog, prog,
		 prog);
	assert_int_equal(run(cmd), 0);

	for (int with_cache = 0; with_cache < 2; with_cache++) {
		assert_int_equal(pk_maps_new(&m), 0);
		assert_int_equal(pk_maps_set_build_id(m, prog, id, (size_t)n), 0);
		if (with_cache)
			assert_int_equal(pk_maps_set_buildid_cache(m, cache), 0);
		mmap2(m, 7, 0x555555554000, 0x100000, 0, prog);
		assert_int_equal(resolve(m, 7, 0x555555554000 + off + 2, PERF_RECORD_MISC_USER, &loc), 0);
		assert_string_equal(loc.dso->name, prog);
		if (with_cache) {
			assert_non_null(loc.sym);
			assert_string_equal(loc.sym, "hot_a");
			assert_int_equal(loc.symoff, 2);
			assert_false(loc.dso->build_id_mismatch);
			assert_non_null(strstr(loc.dso->symfile, "/cache/"));
		} else {
			assert_null(loc.sym);
			assert_true(loc.dso->build_id_mismatch);
		}
		pk_maps_free(m);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
}

/* A vDSO whose build-id is not this kernel's: its cached image. */
static void vdso_of_another_kernel(void **state)
{
	char dir[4096];
	uint8_t id[20];
	uint64_t off = offset_of(paths[0], "hot_b");
	struct pk_location loc;
	struct pk_maps *m;
	int n = pk_build_id_read(paths[0], id);

	(void)state;
	assert_true(n > 0);
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "vdso"));
	plant(dir, "[vdso]", id, (size_t)n, "vdso", paths[0], NULL);
	for (int with_cache = 0; with_cache < 2; with_cache++) {
		assert_int_equal(pk_maps_new(&m), 0);
		assert_int_equal(pk_maps_set_build_id(m, "[vdso]", id, (size_t)n), 0);
		if (with_cache)
			assert_int_equal(pk_maps_set_buildid_cache(m, dir), 0);
		mmap2(m, 7, 0x7fff00000000, 0x100000, 0, "[vdso]");
		assert_int_equal(resolve(m, 7, 0x7fff00000000 + off, PERF_RECORD_MISC_USER, &loc), 0);
		assert_string_equal(loc.dso->name, "[vdso]");
		if (with_cache) {
			assert_non_null(loc.sym);
			assert_string_equal(loc.sym, "hot_b");
			assert_false(loc.dso->build_id_mismatch);
		} else {
			assert_null(loc.sym);
			assert_true(loc.dso->build_id_mismatch);
		}
		pk_maps_free(m);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
}

/* A recording of another kernel: its kallsyms, modules and all, from the
 * cache (perf's dso__find_kallsyms); without it, no kernel symbols. */
static void another_kernel(void **state)
{
	char dir[4096];
	uint8_t id[20], running[20];
	struct pk_location loc;
	struct pk_maps *m;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };

	(void)state;
	if (pk_build_id_kernel(running) < 0)
		skip();	/* no /sys/kernel/notes: no kernel to differ from */
	for (size_t i = 0; i < sizeof(id); i++)
		id[i] = (uint8_t)(running[i] ^ 0x5a);
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "kcache"));
	plant(dir, "[kernel.kallsyms]", id, sizeof(id), "kallsyms", NULL,
	      "ffffffff81000000 T _text\n"
	      "ffffffff81001000 T old_kernel_fn\n"
	      "ffffffff81002000 T old_kernel_end\n"
	      "ffffffffc0001000 t old_module_fn\t[foo]\n");
	for (int with_cache = 0; with_cache < 2; with_cache++) {
		assert_int_equal(pk_maps_new(&m), 0);
		assert_int_equal(pk_maps_set_build_id(m, "[kernel.kallsyms]", id, sizeof(id)), 0);
		if (with_cache)
			assert_int_equal(pk_maps_set_buildid_cache(m, dir), 0);
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffff81000000,
					       .len = 0x3effffff, .pgoff = 0xffffffff81000000,
					       .filename = "[kernel.kallsyms]_text" };
		assert_int_equal(pk_maps_process(m, &r), 0);
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffffc0000000,
					       .len = 0x10000, .filename = "/lib/modules/x/foo.ko" };
		assert_int_equal(pk_maps_process(m, &r), 0);
		assert_int_equal(resolve(m, 1, 0xffffffff81001010, PERF_RECORD_MISC_KERNEL, &loc), 0);
		assert_string_equal(loc.dso->name, "[kernel.kallsyms]");
		if (with_cache) {
			assert_non_null(loc.sym);
			assert_string_equal(loc.sym, "old_kernel_fn");
			assert_false(loc.dso->build_id_mismatch);
			assert_non_null(strstr(loc.dso->symfile, "/kallsyms"));
			assert_int_equal(resolve(m, 1, 0xffffffffc0001004, PERF_RECORD_MISC_KERNEL,
						 &loc), 0);
			assert_string_equal(loc.dso->name, "[foo]");
			assert_string_equal(loc.sym, "old_module_fn");
		} else {
			assert_null(loc.sym);
			assert_true(loc.dso->build_id_mismatch);
		}
		pk_maps_free(m);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
}

/* The addresses of _text and schedule in /proc/kallsyms; false when hidden. */
static bool running_syms(uint64_t *text, uint64_t *sched)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[1024], name[512], type;
	unsigned long long a;

	*text = *sched = 0;
	while (f && fgets(line, sizeof(line), f) && !(*text && *sched)) {
		if (sscanf(line, "%llx %c %511s", &a, &type, name) != 3 || strchr(line, '['))
			continue;
		if (!strcmp(name, "_text"))
			*text = a;
		else if (!strcmp(name, "schedule") && (type == 'T' || type == 't'))
			*sched = a;
	}
	if (f)
		fclose(f);
	return *text && *sched;
}

/* The running kernel's kallsyms copy in the cache stands in for
 * /proc/kallsyms (its name wins here, where the copy was altered) only with
 * the running _text (no reboot since: KASLR) and no module in the
 * recording; else /proc/kallsyms is read. */
static void running_kernel_copy(void **state)
{
	char dir[4096], copy[1024];
	uint8_t id[20];
	uint64_t text = 0, sched = 0;
	struct pk_location loc;
	struct pk_maps *m;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };
	int n;

	(void)state;
	if ((n = pk_build_id_kernel(id)) <= 0 || !running_syms(&text, &sched))
		skip();	/* no build-id, or addresses hidden from this user */
	for (int c = 0; c < 3; c++) {	/* same, after a reboot, with a module */
		assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "kcopy"));
		snprintf(copy, sizeof(copy), "%016llx T _text\n%016llx T copy_only_fn\n"
			 "%016llx T copy_only_end\n", (unsigned long long)text + (c == 1 ? 0x200000 : 0),
			 (unsigned long long)sched, (unsigned long long)sched + 0x1000);
		plant(dir, "[kernel.kallsyms]", id, (size_t)n, "kallsyms", NULL, copy);
		assert_int_equal(pk_maps_new(&m), 0);
		assert_int_equal(pk_maps_set_build_id(m, "[kernel.kallsyms]", id, (size_t)n), 0);
		assert_int_equal(pk_maps_set_buildid_cache(m, dir), 0);
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = text, .len = 0x3effffff,
					       .pgoff = text, .filename = "[kernel.kallsyms]_text" };
		assert_int_equal(pk_maps_process(m, &r), 0);
		r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffffc0000000,
					       .len = 0x10000, .filename = "/lib/modules/x/foo.ko" };
		if (c == 2)
			assert_int_equal(pk_maps_process(m, &r), 0);
		assert_int_equal(resolve(m, 1, sched + 4, PERF_RECORD_MISC_KERNEL, &loc), 0);
		assert_non_null(loc.sym);
		if (c == 0) {
			assert_string_equal(loc.sym, "copy_only_fn");
			assert_non_null(strstr(loc.dso->symfile, dir));
		} else {
			assert_string_not_equal(loc.sym, "copy_only_fn");
			assert_string_equal(loc.dso->symfile, "/proc/kallsyms");
		}
		pk_maps_free(m);
		assert_int_equal(tmp_rmtree(dir), 0);
	}
}

/* One BUILD_ID entry as perf writes it: header, pid, 24 bytes of id (the
 * size in byte 20 with misc bit 15), the name padded to 8 bytes. */
static size_t entry(uint8_t *out, uint16_t misc, const uint8_t *id, size_t n, const char *name)
{
	size_t len = 36 + ((strlen(name) + 8) & ~(size_t)7);
	struct perf_event_header h = { .type = 67 /* HEADER_BUILD_ID */, .misc = misc,
				       .size = (uint16_t)len };
	int32_t pid = -1;

	memset(out, 0, len);
	memcpy(out, &h, sizeof(h));
	memcpy(out + 8, &pid, 4);
	memcpy(out + 12, id, n);
	out[32] = (uint8_t)n;
	memcpy(out + 36, name, strlen(name));
	return len;
}

static const struct pk_dso *dso_named(const struct pk_maps *m, const char *name)
{
	for (size_t i = 0; i < pk_maps_nr_dsos(m); i++)
		if (!strcmp(pk_maps_dso(m, i)->name, name))
			return pk_maps_dso(m, i);
	return NULL;
}

static void build_id_section(void **state)
{
	uint8_t buf[1024], id[20];
	const uint16_t sized = 1u << 15;
	const struct pk_dso *d;
	struct pk_maps *m;
	size_t len = 0, e;

	(void)state;
	for (size_t i = 0; i < sizeof(id); i++)
		id[i] = (uint8_t)(0xa0 + i);
	len += entry(buf + len, PERF_RECORD_MISC_KERNEL | sized, id, 20, "[kernel.kallsyms]");
	len += entry(buf + len, PERF_RECORD_MISC_USER | sized, id, 16, "/usr/bin/prog");
	len += entry(buf + len, PERF_RECORD_MISC_USER, id, 20, "[vdso]");	/* no size: 20 */
	len += entry(buf + len, PERF_RECORD_MISC_GUEST_KERNEL | sized, id, 20,
		     "[guest.kernel.kallsyms]");
	len += entry(buf + len, PERF_RECORD_MISC_KERNEL | sized, id, 20, "/lib/modules/x/foo.ko");
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_build_ids(m, buf, len), 3);
	assert_non_null(d = dso_named(m, "[kernel.kallsyms]"));
	assert_true(d->kernel);
	assert_int_equal(d->build_id_size, 20);
	assert_memory_equal(d->build_id, id, 20);
	assert_non_null(d = dso_named(m, "/usr/bin/prog"));
	assert_int_equal(d->build_id_size, 16);
	assert_non_null(d = dso_named(m, "[vdso]"));
	assert_int_equal(d->build_id_size, 20);
	assert_int_equal(pk_maps_nr_dsos(m), 3);	/* the guest and the module passed over */
	pk_maps_free(m);

	/* Damage: an entry running past the section; those before it stay. */
	assert_int_equal(pk_maps_new(&m), 0);
	len = entry(buf, PERF_RECORD_MISC_USER | sized, id, 20, "/usr/bin/a");
	len += entry(buf + len, PERF_RECORD_MISC_USER | sized, id, 20, "/usr/bin/b");
	assert_int_equal(pk_maps_set_build_ids(m, buf, len - 8), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "byte"));
	assert_non_null(dso_named(m, "/usr/bin/a"));
	assert_null(dso_named(m, "/usr/bin/b"));
	/* A name without its NUL inside the entry, a size over 20: passed over. */
	len = entry(buf, PERF_RECORD_MISC_USER | sized, id, 20, "/usr/bin/c");
	memset(buf + 36, 'x', len - 36);
	len += entry(buf + len, PERF_RECORD_MISC_USER | sized, id, 20, "/usr/bin/d");
	e = len;
	len += entry(buf + len, PERF_RECORD_MISC_USER | sized, id, 20, "/usr/bin/e");
	buf[e + 32] = 21;
	assert_int_equal(pk_maps_set_build_ids(m, buf, len), 1);
	assert_non_null(dso_named(m, "/usr/bin/d"));
	assert_null(dso_named(m, "/usr/bin/e"));
	/* A header of size 0 would never end: refused. */
	memset(buf, 0, 16);
	assert_int_equal(pk_maps_set_build_ids(m, buf, 16), -EINVAL);
	pk_maps_free(m);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rebuilt_program),
		cmocka_unit_test(vdso_of_another_kernel),
		cmocka_unit_test(another_kernel),
		cmocka_unit_test(running_kernel_copy),
		cmocka_unit_test(build_id_section),
	};

	if (argc < 3) {
		fprintf(stderr, "usage: %s WORKLOAD NOPIE\n", argv[0]);
		return 2;
	}
	paths = argv + 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
