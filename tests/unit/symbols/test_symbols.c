/* SPDX-License-Identifier: MIT */
/*
 * test_symbols.c - the symbols layer: per-process maps followed from
 * synthetic MMAP/MMAP2/COMM/FORK records answer which DSO an address is in
 * (boundaries, replaced mappings, forked and exec'd processes, the kernel's
 * map, growth past the first tables, BPF programs from KSYMBOL records,
 * resolved to their names as perf names them), and build-ids read from ELF files
 * and the vDSO match what the dynamic loader sees in memory.
 */
#include <errno.h>
#include <link.h>
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
#include "tmpdir.h"

static void mmap_(struct pk_maps *m, uint32_t pid, uint64_t addr, uint64_t len, const char *file)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };

	r.mmap = (struct pk_rec_mmap){ .pid = pid, .tid = pid, .addr = addr, .len = len, .filename = file };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

static void fork_(struct pk_maps *m, uint32_t pid, uint32_t ppid)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_FORK };

	r.task = (struct pk_rec_task){ .pid = pid, .ppid = ppid, .tid = pid, .ptid = ppid };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

static const char *dso_at(struct pk_maps *m, uint32_t pid, uint64_t ip, bool kernel)
{
	int d = pk_maps_hit(m, pid, ip, kernel);

	return d < 0 ? NULL : pk_maps_dso(m, (size_t)d)->name;
}

static void lookup_and_boundaries(void **state)
{
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, 10, 0x400000, 0x1000, "/bin/app");
	mmap_(m, 10, 0x7f0000000000, 0x20000, "/lib/libc.so.6");
	assert_string_equal(dso_at(m, 10, 0x400000, false), "/bin/app");
	assert_string_equal(dso_at(m, 10, 0x400fff, false), "/bin/app");
	assert_null(dso_at(m, 10, 0x401000, false));	/* the end is exclusive */
	assert_null(dso_at(m, 10, 0x3fffff, false));
	assert_string_equal(dso_at(m, 10, 0x7f000001ffff, false), "/lib/libc.so.6");
	assert_null(dso_at(m, 11, 0x400000, false));	/* another process */
	assert_null(dso_at(m, 10, 0x400000, true));	/* no kernel map yet */
	assert_int_equal(pk_maps_nr_dsos(m), 2);
	assert_true(pk_maps_dso(m, 0)->hit);
	assert_true(pk_maps_dso(m, 1)->hit);
	assert_null(pk_maps_dso(m, 2));
	pk_maps_free(m);
}

static void unhit_dsos_stay_unhit(void **state)
{
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, 10, 0x1000, 0x1000, "/a");
	mmap_(m, 10, 0x3000, 0x1000, "/b");
	assert_int_equal(pk_maps_hit(m, 10, 0x2000, false), -ENOENT);	/* the hole between */
	assert_string_equal(dso_at(m, 10, 0x3800, false), "/b");
	assert_false(pk_maps_dso(m, 0)->hit);
	assert_true(pk_maps_dso(m, 1)->hit);
	pk_maps_free(m);
}

static void kernel_map_names_the_kernel(void **state)
{
	struct pk_maps *m;
	const struct pk_dso *d;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, UINT32_MAX, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	assert_string_equal(dso_at(m, 10, 0xffffffff81234567, true), "[kernel.kallsyms]");
	assert_null(dso_at(m, 10, 0xffffffff81234567, false));	/* a user address there: none */
	d = pk_maps_dso(m, 0);
	assert_true(d->kernel);
	pk_maps_free(m);
}

/* A page fault taken in the kernel on a user page (a copy to user space,
 * the loader clearing .bss) names the user map, as perf's thread__resolve;
 * a kernel address in a user sample names the kernel's. */
static void data_address_finds_its_own_side(void **state)
{
	struct pk_location loc = { .size = sizeof(loc) };
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, UINT32_MAX, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	{	/* a data map: MMAP with misc saying so, as perf writes it */
		struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP,
				       .misc = PERF_RECORD_MISC_MMAP_DATA };

		r.mmap = (struct pk_rec_mmap){ .pid = 10, .tid = 10, .addr = 0x7ffff0000000,
					       .len = 0x21000, .filename = "[stack]" };
		assert_int_equal(pk_maps_process(m, &r), 0);
	}
	assert_int_equal(pk_maps_resolve(m, 10, 0x7ffff0000010, PERF_RECORD_MISC_KERNEL, &loc), -ENOENT);
	assert_int_equal(pk_maps_resolve_data(m, 10, 0x7ffff0000010, PERF_RECORD_MISC_KERNEL, &loc), 0);
	assert_string_equal(loc.dso->name, "[stack]");
	assert_null(loc.sym);
	assert_int_equal(pk_maps_resolve_data(m, 10, 0xffffffff81000010, PERF_RECORD_MISC_USER, &loc), 0);
	assert_string_equal(loc.dso->name, "[kernel.kallsyms]");
	/* Guests have no maps here: no second look. */
	assert_int_equal(pk_maps_resolve_data(m, 10, 0x7ffff0000010, PERF_RECORD_MISC_GUEST_KERNEL, &loc),
			 -ENOENT);
	assert_int_equal(pk_maps_resolve_data(m, 10, 0x1000, PERF_RECORD_MISC_KERNEL, &loc), -ENOENT);
	pk_maps_free(m);
}

static void new_mapping_replaces_what_it_covers(void **state)
{
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, 10, 0x10000, 0x1000, "/old");
	mmap_(m, 10, 0x10000, 0x4000, "/new");
	assert_string_equal(dso_at(m, 10, 0x10800, false), "/new");
	assert_string_equal(dso_at(m, 10, 0x13fff, false), "/new");
	/* the same file mapped again is the same DSO */
	mmap_(m, 10, 0x20000, 0x1000, "/old");
	assert_int_equal(pk_maps_nr_dsos(m), 2);
	pk_maps_free(m);
}

static void fork_copies_and_exec_keeps(void **state)
{
	struct pk_maps *m;
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_COMM };

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, 10, 0x400000, 0x1000, "/bin/sh");
	fork_(m, 20, 10);
	fork_(m, 10, 10);	/* a thread: shares its process's maps */
	assert_string_equal(dso_at(m, 20, 0x400010, false), "/bin/sh");
	/* the child's own mapping does not show up in the parent */
	mmap_(m, 20, 0x500000, 0x1000, "/lib/child.so");
	assert_null(dso_at(m, 10, 0x500000, false));
	/* the child execs: as in perf 6.1, its old maps stay (a sample inside
	 * execve still has the old program's stack) until the new program's
	 * mappings replace what they overlap */
	r.comm = (struct pk_rec_comm){ .pid = 20, .tid = 20, .exec = true, .comm = "ls" };
	assert_int_equal(pk_maps_process(m, &r), 0);
	assert_string_equal(dso_at(m, 20, 0x400010, false), "/bin/sh");
	assert_string_equal(dso_at(m, 20, 0x500000, false), "/lib/child.so");
	mmap_(m, 20, 0x400000, 0x2000, "/bin/ls");
	assert_string_equal(dso_at(m, 20, 0x400010, false), "/bin/ls");
	assert_string_equal(dso_at(m, 20, 0x401000, false), "/bin/ls");
	assert_string_equal(dso_at(m, 10, 0x400010, false), "/bin/sh");
	/* a fork of an unknown parent, and an exit, change nothing */
	fork_(m, 30, 99);
	assert_null(dso_at(m, 30, 0x400010, false));
	pk_maps_free(m);
}

static void ksymbol_(struct pk_maps *m, uint64_t addr, uint32_t len, uint16_t flags,
		     const char *name)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_KSYMBOL };

	r.ksymbol = (struct pk_rec_ksymbol){ .addr = addr, .len = len, .flags = flags,
					     .ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF, .name = name };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

static void ksymbol_names_a_bpf_program(void **state)
{
	const char *prog = "bpf_prog_59f4a931744dcdc6_pk_plain";
	struct pk_location loc = { .size = sizeof(loc) };
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, (uint32_t)-1, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	ksymbol_(m, 0xffffffffc0022064, 0x20, 0, prog);
	ksymbol_(m, 0xffffffffc0022088, 0x10, 0, "bpf_prog_0123456789abcdef_F");
	/* A kernel sample in the program: its own DSO, named after it. */
	assert_int_equal(pk_maps_resolve(m, 10, 0xffffffffc0022068, PERF_RECORD_MISC_KERNEL, &loc), 0);
	assert_non_null(loc.dso);
	assert_string_equal(loc.dso->name, prog);
	assert_true(loc.dso->kernel);
	assert_string_equal(loc.sym, prog);
	assert_int_equal(loc.symoff, 4);
	assert_int_equal(loc.map_ip, 4);	/* perf's map_ip: from the map's start */
	assert_string_equal(dso_at(m, 10, 0xffffffffc0022090, true), "bpf_prog_0123456789abcdef_F");
	assert_null(dso_at(m, 10, 0xffffffffc0022084, true));	/* between the two */
	assert_null(dso_at(m, 10, 0xffffffffc0022068, false));	/* not a user address */
	/* Unregistered: its map goes, as in perf (a later sample there finds
	 * none), the other program's stays; code loaded there later names it. */
	ksymbol_(m, 0xffffffffc0022064, 0x20, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, prog);
	assert_null(dso_at(m, 10, 0xffffffffc0022064, true));
	assert_string_equal(dso_at(m, 10, 0xffffffffc0022090, true), "bpf_prog_0123456789abcdef_F");
	/* an unregister inside the kernel's own text leaves it */
	ksymbol_(m, 0xffffffff81000010, 0x20, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, prog);
	ksymbol_(m, 0xffffffffc0022060, 0x28, 0, "bpf_prog_1111111111111111_next");
	assert_int_equal(pk_maps_resolve(m, 10, 0xffffffffc0022070, PERF_RECORD_MISC_KERNEL, &loc), 0);
	assert_string_equal(loc.sym, "bpf_prog_1111111111111111_next");
	assert_int_equal(loc.symoff, 0x10);
	/* The kernel's own text is untouched. */
	assert_string_equal(dso_at(m, 10, 0xffffffff81000010, true), "[kernel.kallsyms]");
	pk_maps_free(m);
}

static void mmap2_build_id_is_kept(void **state)
{
	static const uint8_t id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };
	struct pk_maps *m;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	r.mmap2 = (struct pk_rec_mmap2){ .pid = 5, .tid = 5, .addr = 0x1000, .len = 0x1000,
					 .has_build_id = true, .build_id_size = 20, .build_id = id,
					 .filename = "/usr/bin/x" };
	assert_int_equal(pk_maps_process(m, &r), 0);
	assert_int_equal(pk_maps_dso(m, 0)->build_id_size, 20);
	assert_memory_equal(pk_maps_dso(m, 0)->build_id, id, 20);
	pk_maps_free(m);
}

static void many_processes_and_dsos(void **state)
{
	struct pk_maps *m;
	char name[64];

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	for (uint32_t pid = 1; pid <= 500; pid++) {
		snprintf(name, sizeof(name), "/lib/lib%u.so", pid % 100);
		for (uint64_t k = 0; k < 20; k++)
			mmap_(m, pid, 0x100000 * (40 - k), 0x1000, name);	/* inserted in reverse */
	}
	assert_int_equal(pk_maps_nr_dsos(m), 100);
	for (uint32_t pid = 1; pid <= 500; pid++) {
		snprintf(name, sizeof(name), "/lib/lib%u.so", pid % 100);
		for (uint64_t k = 0; k < 20; k++)
			assert_string_equal(dso_at(m, pid, 0x100000 * (40 - k) + 0x10, false), name);
		assert_null(dso_at(m, pid, 0x100000 * 10, false));
	}
	pk_maps_free(m);
}

/* The build-id note of a loaded object, found through its program headers. */
struct want {
	const char *name;	/* "" for the main program */
	uint8_t id[20];
	int size;
};

static int find_note(struct dl_phdr_info *info, size_t sz, void *arg)
{
	struct want *w = arg;

	(void)sz;
	if (strcmp(info->dlpi_name, w->name))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + 12 <= ph->p_memsz) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(p + off);
			const char *name = (const char *)(n + 1);
			const uint8_t *desc = (const uint8_t *)name + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !strcmp(name, "GNU")) {
				w->size = (int)n->n_descsz;
				memcpy(w->id, desc, n->n_descsz);
				return 1;
			}
			off += sizeof(*n) + ((n->n_namesz + 3) & ~3u) + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

static void build_id_of_a_file(void **state)
{
	struct want w = { .name = "" };
	uint8_t id[20];

	(void)state;
	dl_iterate_phdr(find_note, &w);
	assert_int_equal(w.size, 20);	/* Debian links with --build-id */
	assert_int_equal(pk_build_id_read("/proc/self/exe", id), 20);
	assert_memory_equal(id, w.id, 20);
}

/* A temporary file per test (its path in *state), removed even when an
 * assertion fails. */
static int make_tmp_file(void **state)
{
	static char path[PATH_MAX];
	int fd = tmp_mkstemp(path, sizeof(path), "perfkit-elf");

	if (fd < 0)
		return -1;
	close(fd);
	*state = path;
	return 0;
}

static int remove_tmp_file(void **state)
{
	return tmp_rmtree(*state) == 0 ? 0 : -1;
}

static void build_id_errors(void **state)
{
	const char *path = *state;
	uint8_t id[20];
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	assert_int_equal(pk_build_id_read("/nonexistent/perfkit", id), -ENOENT);
	assert_int_equal(pk_build_id_read("/etc/passwd", id), -EINVAL);	/* not ELF */
	/* an ELF header cut short is not ELF either; it must not crash */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\177ELF\2\1\1", 7), 7);
	close(fd);
	assert_true(pk_build_id_read(path, id) < 0);
}

static void build_id_of_vdso_and_kernel(void **state)
{
	struct want w = { .name = "linux-vdso.so.1" };
	uint8_t id[20];
	int n;

	(void)state;
	dl_iterate_phdr(find_note, &w);
	n = pk_build_id_vdso(id);
	if (w.size > 0) {
		assert_int_equal(n, w.size);
		assert_memory_equal(id, w.id, (size_t)n);
	} else {
		assert_int_equal(n, -ENOENT);
	}
	/* Debian's kernels carry a build-id note; the CLI tests compare it
	 * with perf buildid-list -k. */
	n = pk_build_id_kernel(id);
	assert_true(n == 20 || (n == -ENOENT && access("/sys/kernel/notes", R_OK)));
}

/* Build-ids are read for the DSOs that were hit, from where each kind keeps one. */
static void read_build_ids_of_hit_dsos(void **state)
{
	struct want w = { .name = "" };
	struct pk_maps *m;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	dl_iterate_phdr(find_note, &w);
	assert_int_equal(pk_maps_new(&m), 0);
	mmap_(m, 10, 0x400000, 0x1000, exe);
	mmap_(m, 10, 0x500000, 0x1000, "//anon");
	mmap_(m, 10, 0x600000, 0x1000, "/bin/sh");			/* not hit */
	mmap_(m, 10, 0x700000, 0x1000, "/nonexistent/lib.so");
	mmap_(m, UINT32_MAX, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	pk_maps_hit(m, 10, 0x400010, false);
	pk_maps_hit(m, 10, 0x500010, false);
	pk_maps_hit(m, 10, 0x700010, false);
	pk_maps_hit(m, 10, 0xffffffff81000010, true);
	pk_maps_read_build_ids(m);
	assert_int_equal(pk_maps_dso(m, 0)->build_id_size, (size_t)w.size);
	assert_memory_equal(pk_maps_dso(m, 0)->build_id, w.id, (size_t)w.size);
	assert_int_equal(pk_maps_dso(m, 1)->build_id_size, 0);	/* anonymous */
	assert_int_equal(pk_maps_dso(m, 2)->build_id_size, 0);	/* not hit: not read */
	assert_int_equal(pk_maps_dso(m, 3)->build_id_size, 0);	/* gone */
	if (!access("/sys/kernel/notes", R_OK))
		assert_int_equal(pk_maps_dso(m, 4)->build_id_size, 20);
	pk_maps_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_and_boundaries),
		cmocka_unit_test(unhit_dsos_stay_unhit),
		cmocka_unit_test(kernel_map_names_the_kernel),
		cmocka_unit_test(data_address_finds_its_own_side),
		cmocka_unit_test(new_mapping_replaces_what_it_covers),
		cmocka_unit_test(fork_copies_and_exec_keeps),
		cmocka_unit_test(mmap2_build_id_is_kept),
		cmocka_unit_test(ksymbol_names_a_bpf_program),
		cmocka_unit_test(many_processes_and_dsos),
		cmocka_unit_test(build_id_of_a_file),
		cmocka_unit_test_setup_teardown(build_id_errors, make_tmp_file, remove_tmp_file),
		cmocka_unit_test(build_id_of_vdso_and_kernel),
		cmocka_unit_test(read_build_ids_of_hit_dsos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
