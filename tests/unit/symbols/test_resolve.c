/* SPDX-License-Identifier: MIT */
/*
 * test_resolve.c - pk_maps_resolve on real ELF files built in the test
 * tree (the PIE workload, a non-PIE build of it, a stripped copy whose
 * symbols are found through .gnu_debuglink or a build-id directory, a
 * build-id that does not match), this process's own PIE and libc mapped
 * as /proc/self/maps says, a JIT's perf-PID.map, a fixture kallsyms with
 * a module and a moved kernel, perf's map splitting, and the demangler.
 * argv: workload, non-PIE workload, stripped + debuglink copy, its debug
 * file, a build without build-ids: stripped + debuglink, debug, whole, and
 * a program linked stripped whose .dynsym defines only an object.
 */
#include <elf.h>
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
#include "symbols/symbols.h"
#include "tmpdir.h"

/* workload, nopie, stripped-linked, debug; the same three without build-ids
 * (stripped-linked, debug, unstripped) */
static char **paths;

static void mmap2(struct pk_maps *m, uint32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		  uint32_t prot, const char *file)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };

	r.mmap2 = (struct pk_rec_mmap2){ .pid = pid, .tid = pid, .addr = addr, .len = len,
					 .pgoff = pgoff, .prot = prot, .filename = file };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

static int user(struct pk_maps *m, uint32_t pid, uint64_t ip, struct pk_location *loc)
{
	*loc = (struct pk_location){ .size = sizeof(*loc) };
	return pk_maps_resolve(m, pid, ip, PERF_RECORD_MISC_USER, loc);
}

/* Map the executable segment of `file` at base + its vaddr, the way the
 * loader does (page-aligned, pgoff its file offset), and return the ip of
 * function `fn` in it, with its ELF value in *value. */
/* (symfile: an unstripped build of file, where fn's offset is found.) */
static uint64_t map_text(struct pk_maps *m, uint32_t pid, const char *file, const char *symfile,
			 uint64_t base, const char *fn, uint64_t *value)
{
	struct pk__elf *e;
	struct pk__elf_seg segs[8];
	uint64_t off;
	int nr;

	assert_int_equal(pk__elf_open(symfile, &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, fn, &off, value), 0);
	pk__elf_close(e);
	assert_int_equal(pk__elf_open(file, &e), 0);
	nr = pk__elf_load_segments(e, segs, 8);
	pk__elf_close(e);
	for (int i = 0; i < nr && i < 8; i++) {
		uint64_t start = (base + segs[i].vaddr) & ~0xfffull, pgoff = segs[i].offset & ~0xfffull;

		if (!(segs[i].flags & 1))	/* PF_X */
			continue;
		mmap2(m, pid, start, segs[i].filesz + 0x1000, pgoff, PROT_READ | PROT_EXEC, file);
		return start + (off - pgoff);
	}
	fail_msg("%s has no executable segment", file);
	return 0;
}

static void check_fn(const char *file, const char *symfile, uint64_t base, const char *expect_symfile)
{
	struct pk_maps *m;
	struct pk_location loc;
	struct pk__elf *e;
	uint64_t value, ip, off;

	assert_int_equal(pk__elf_open(symfile, &e), 0);
	assert_int_equal(pk__elf_symbol_offset(e, "hot_a", &off, &value), 0);
	pk__elf_close(e);
	assert_int_equal(pk_maps_new(&m), 0);
	ip = map_text(m, 7, file, symfile, base, "hot_a", &value);
	/* pk_maps_find: the map's part, no symbols loaded (perf's find_map) */
	loc = (struct pk_location){ .size = sizeof(loc) };
	assert_int_equal(pk_maps_find(m, 7, ip + 3, PERF_RECORD_MISC_USER, &loc), 0);
	assert_string_equal(loc.dso->name, file);
	assert_int_equal(loc.map_ip, off + 3);
	assert_null(loc.sym);
	assert_null(loc.dso->symfile);
	assert_int_equal(pk_maps_find(m, 7, 0x10, PERF_RECORD_MISC_USER, &loc), -ENOENT);
	assert_int_equal(user(m, 7, ip + 3, &loc), 0);
	assert_string_equal(loc.dso->name, file);
	/* perf's map_ip is the file offset, PIE or not (a non-PIE
	 * executable's differs from its virtual address) */
	assert_int_equal(loc.map_ip, off + 3);
	assert_non_null(loc.sym);
	assert_string_equal(loc.sym, "hot_a");
	assert_int_equal(loc.sym_start, value);
	assert_int_equal(loc.addr, value + 3);
	assert_int_equal(loc.symoff, 3);
	/* hot_a's ELF size and binding (a global function) */
	assert_true(loc.sym_end > loc.addr);
	assert_int_equal(loc.sym_binding, STB_GLOBAL);
	assert_null(loc.dso->long_name);
	assert_false(loc.kernel);
	assert_string_equal(loc.dso->symfile, expect_symfile);
	/* Shared: another process mapping the same file at another place. */
	ip = map_text(m, 8, file, symfile, 0x7f0000000000, "hot_b", &value);
	assert_int_equal(user(m, 8, ip, &loc), 0);
	assert_string_equal(loc.sym, "hot_b");
	assert_int_equal(pk_maps_nr_dsos(m), 1);
	pk_maps_free(m);
}

static void pie_executable(void **state)
{
	(void)state;
	check_fn(paths[0], paths[0], 0x555555554000, paths[0]);
}

static void non_pie_executable(void **state)
{
	(void)state;
	check_fn(paths[1], paths[1], 0, paths[1]);
}

static void stripped_with_debuglink(void **state)
{
	(void)state;
	check_fn(paths[2], paths[0], 0x555555554000, paths[3]);
}

/* PLT entries: every "<name@plt>" objdump names in .plt resolves to
 * name@plt at its start, as perf 6.1 names them, both in the file itself
 * and in the stripped copy whose symbols come from its debug file (the
 * PLT is taken from the file that runs: the debug file's is NOBITS). */
static void check_plt(const char *file)
{
	char cmd[8192], line[1024];
	struct pk_maps *m;
	struct pk_location loc;
	size_t nr = 0;
	FILE *f;

	assert_int_equal(pk_maps_new(&m), 0);
	map_text(m, 7, file, paths[0], 0x555555554000, "hot_a", NULL);
	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt '%s'", file);
	assert_non_null(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char name[512];

		if (sscanf(line, "%llx <%511[^>]>:", &addr, name) != 2 || !strstr(name, "@plt") ||
		    strstr(name, "@plt-"))
			continue;
		assert_int_equal(user(m, 7, 0x555555554000 + addr + 4, &loc), 0);
		assert_non_null(loc.sym);
		assert_string_equal(loc.sym, name);
		assert_int_equal(loc.sym_start, addr);
		assert_int_equal(loc.symoff, 4);
		nr++;
	}
	assert_int_equal(pclose(f), 0);
	assert_true(nr > 5);	/* free, write, clock_gettime, ... */
	pk_maps_free(m);
}

static void plt_entries(void **state)
{
	(void)state;
	check_plt(paths[0]);
	check_plt(paths[2]);
	/* Linked stripped, with only an object (environ) defined in .dynsym:
	 * perf 6.1 still names the PLT entries, as in /bin/dash. */
	check_plt(paths[7]);
}

/* The stripped copy's debug file found under <debug>/.build-id/xx/yyyy.debug. */
static void debug_file_by_build_id(void **state)
{
	char dir[4096], path[8192], cmd[16384];
	uint8_t id[20];
	int n = pk_build_id_read(paths[3], id);
	struct pk_maps *m;
	struct pk_location loc;
	uint64_t value, ip;

	(void)state;
	assert_true(n > 1);
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "debugdir"));
	snprintf(path, sizeof(path), "%s/.build-id/%02x/", dir, id[0]);
	for (int i = 1; i < n; i++)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "%02x", id[i]);
	strcat(path, ".debug");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%02x && cp %s %s && cp %s %s/stripped", dir,
		 id[0], paths[3], path, paths[2], dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_dir(m, PK_MAPS_DIR_DEBUG, dir), 0);
	snprintf(cmd, sizeof(cmd), "%s/stripped", dir);	/* its debuglink leads nowhere here */
	ip = map_text(m, 7, cmd, paths[0], 0x555555554000, "hot_a", &value);
	assert_int_equal(user(m, 7, ip, &loc), 0);
	assert_string_equal(loc.sym, "hot_a");
	assert_string_equal(loc.dso->symfile, path);
	pk_maps_free(m);
	assert_int_equal(tmp_rmtree(dir), 0);
}

/* No build-id on either side: .gnu_debuglink's CRC-32 decides.  The
 * right debug file next to the stripped copy gives its symbols; a stale
 * one of the same name (another build) is passed over, as gdb does, and
 * so is a FIFO there. */
static void debuglink_crc(void **state)
{
	char dir[4096], prog[4200], dbg[4200], cmd[20000];
	const char *base = strrchr(paths[5], '/') + 1;
	struct pk_location loc;
	struct pk_maps *m;
	uint8_t id[20];

	(void)state;
	assert_int_equal(pk_build_id_read(paths[4], id), -ENOENT);
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "crc"));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(dbg, sizeof(dbg), "%s/%s", dir, base);
	for (int stale = 0; stale < 3; stale++) {
		/* The stale one: the debug file with a section dropped, as another
		 * build of the same program would differ.  Then a FIFO of that name
		 * (fuzz_srcline: a link to a pipe): passed over, not read, which
		 * would block for ever. */
		if (stale == 2)
			snprintf(cmd, sizeof(cmd), "rm -f '%s' && mkfifo '%s'", dbg, dbg);
		else if (stale)
			snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && objcopy --remove-section=.comment "
				 "'%s' '%s'", paths[4], prog, paths[5], dbg);
		else
			snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && cp '%s' '%s'", paths[4], prog,
				 paths[5], dbg);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(pk_maps_new(&m), 0);
		assert_int_equal(pk_maps_set_dir(m, PK_MAPS_DIR_DEBUG, "/nonexistent"), 0);
		assert_int_equal(user(m, 7, map_text(m, 7, prog, paths[6], 0x555555554000, "hot_a",
						     NULL) + 1, &loc), 0);
		if (stale) {
			assert_true(!loc.sym || strcmp(loc.sym, "hot_a"));
			assert_string_equal(loc.dso->symfile, prog);	/* its .dynsym */
		} else {
			assert_non_null(loc.sym);
			assert_string_equal(loc.sym, "hot_a");
			assert_string_equal(loc.dso->symfile, dbg);
		}
		pk_maps_free(m);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
}

static void build_id_mismatch_is_refused(void **state)
{
	uint8_t wrong[20];
	struct pk_maps *m;
	struct pk_location loc;
	uint64_t value, ip;

	(void)state;
	assert_true(pk_build_id_read(paths[0], wrong) > 0);
	wrong[0] ^= 0xff;
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_build_id(m, paths[0], wrong, 20), 0);
	ip = map_text(m, 7, paths[0], paths[0], 0x555555554000, "hot_a", &value);
	assert_int_equal(user(m, 7, ip, &loc), 0);
	assert_non_null(loc.dso);
	assert_null(loc.sym);	/* never the symbols of another build */
	assert_true(loc.dso->build_id_mismatch);
	assert_null(loc.dso->symfile);
	assert_int_equal(loc.addr, value);	/* perf's [unknown] address */
	pk_maps_free(m);
}

__attribute__((noinline)) static int local_function(int x)
{
	return x * 3 + 1;
}

/* This process as /proc/self/maps shows it: its own PIE and libc. */
static void this_process(void **state)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[8192], file[4096];
	struct pk_maps *m;
	struct pk_location loc;
	uint32_t pid = (uint32_t)getpid();

	(void)state;
	assert_non_null(f);
	assert_int_equal(pk_maps_new(&m), 0);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8];

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perms, &pgoff, file) < 4)
			continue;
		mmap2(m, pid, start, end - start, pgoff,
		      (perms[0] == 'r' ? PROT_READ : 0) | (perms[2] == 'x' ? PROT_EXEC : 0),
		      file[0] ? file : "//anon");
	}
	fclose(f);
	assert_int_equal(user(m, pid, (uint64_t)(uintptr_t)&local_function + 1, &loc), 0);
	assert_string_equal(loc.sym, "local_function");
	assert_int_equal(loc.symoff, 1);
	assert_int_equal(local_function(1), 4);
	assert_int_equal(user(m, pid, (uint64_t)(uintptr_t)&getpid, &loc), 0);
	assert_non_null(strstr(loc.dso->name, "libc.so"));
	assert_non_null(loc.sym);
	assert_non_null(strstr(loc.sym, "getpid"));
	assert_int_equal(loc.symoff, 0);
	pk_maps_free(m);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void jit_perf_map(void **state)
{
	char dir[4096], path[8192];
	struct pk_maps *m;
	struct pk_location loc;

	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "jit"));
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	write_file(path, "7f0000001000 40 LazyCompile:*fib /app.js:3\n"
			 "not a line\n"
			 "0x7f0000001040 0x20 Builtin: ArgumentsAdaptor\n");
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_dir(m, PK_MAPS_DIR_TMP, dir), 0);
	mmap2(m, 4242, 0x7f0000000000, 0x10000, 0, PROT_READ | PROT_EXEC, "//anon");
	mmap2(m, 4242, 0x7f0000100000, 0x10000, 0, PROT_READ | PROT_WRITE, "//anon");
	assert_int_equal(user(m, 4242, 0x7f0000001010, &loc), 0);
	assert_string_equal(loc.dso->name, "/tmp/perf-4242.map");
	assert_string_equal(loc.sym, "LazyCompile:*fib /app.js:3");
	assert_int_equal(loc.addr, 0x7f0000001010);
	assert_int_equal(loc.map_ip, 0x7f0000001010);	/* an identity map, as perf's */
	assert_int_equal(user(m, 4242, 0x7f0000001050, &loc), 0);
	assert_string_equal(loc.sym, "Builtin: ArgumentsAdaptor");
	assert_int_equal(user(m, 4242, 0x7f0000001060, &loc), 0);
	assert_null(loc.sym);	/* past the last function: a gap */
	assert_int_equal(user(m, 4242, 0x7f0000100010, &loc), 0);
	assert_string_equal(loc.dso->name, "//anon");	/* data: no JIT symbols */
	assert_null(loc.sym);
	pk_maps_free(m);
	unlink(path);
	assert_int_equal(tmp_rmtree(dir), 0);
}

static void kernel_and_modules(void **state)
{
	char dir[4096], path[8192];
	struct pk_maps *m;
	struct pk_location loc = { .size = sizeof(loc) };
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP };
	/* The recording saw _text 0x200000 higher than this kallsyms (KASLR). */
	const uint64_t moved = 0x200000;

	(void)state;
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "kallsyms"));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	write_file(path, "ffffffff81000000 T _text\n"
			 "ffffffff81000000 T startup_64\n"
			 "ffffffff81001000 T do_syscall_64\n"
			 "ffffffff81001000 t __do_syscall_64\n"
			 "ffffffff81002000 r some_rodata\n"
			 "ffffffff81003000 T last_text\n"
			 "ffffffffc0001000 t foo_rx\t[foo_bar]\n"
			 "ffffffffc0001100 T foo_tx\t[foo_bar]\n"
			 "ffffffffc0100000 t other_fn\t[not_mapped]\n");
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_dir(m, PK_MAPS_DIR_KALLSYMS, path), 0);
	r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffff81000000 + moved,
				       .len = 0x3effffff, .pgoff = 0xffffffff81000000 + moved,
				       .filename = "[kernel.kallsyms]_text" };
	assert_int_equal(pk_maps_process(m, &r), 0);
	r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffffc0000000, .len = 0x10000,
				       .filename = "/lib/modules/6.1.0/kernel/drivers/foo-bar.ko" };
	assert_int_equal(pk_maps_process(m, &r), 0);
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffff81001010 + moved, PERF_RECORD_MISC_KERNEL,
					 &loc), 0);
	assert_string_equal(loc.dso->name, "[kernel.kallsyms]");
	assert_true(loc.kernel);
	/* Same address: perf keeps the last kallsyms lists (it sizes them first). */
	assert_string_equal(loc.sym, "__do_syscall_64");
	assert_int_equal(loc.sym_start, 0xffffffff81001000 + moved);
	assert_int_equal(loc.symoff, 0x10);
	/* kallsyms' symbols end where the next kept one starts; 't' is local */
	assert_int_equal(loc.sym_end, 0xffffffff81003000 + moved);
	assert_int_equal(loc.sym_binding, STB_LOCAL);
	/* the kernel's long name stays its name with kallsyms' symbols */
	assert_null(loc.dso->long_name);
	/* perf's kernel map counts from its start (pgoff is _text's address) */
	assert_int_equal(loc.map_ip, 0x1010);
	/* Read-only data is not a kernel symbol perf keeps: the text before it reaches on. */
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffff81002010 + moved, PERF_RECORD_MISC_KERNEL,
					 &loc), 0);
	assert_string_equal(loc.sym, "__do_syscall_64");
	/* The last symbol reaches one page past its (page-aligned) start. */
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffff81003fff + moved, PERF_RECORD_MISC_KERNEL,
					 &loc), 0);
	assert_string_equal(loc.sym, "last_text");
	assert_int_equal(loc.sym_end, 0xffffffff81004000 + moved);
	assert_int_equal(loc.sym_binding, STB_GLOBAL);
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffff81004000 + moved, PERF_RECORD_MISC_KERNEL,
					 &loc), 0);
	assert_null(loc.sym);
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffffc0001080, PERF_RECORD_MISC_KERNEL, &loc), 0);
	assert_string_equal(loc.dso->name, "[foo_bar]");
	/* perf's long name: the file the module's MMAP names */
	assert_string_equal(loc.dso->long_name, "/lib/modules/6.1.0/kernel/drivers/foo-bar.ko");
	assert_string_equal(loc.sym, "foo_rx");
	assert_int_equal(loc.sym_end, 0xffffffffc0001100);
	assert_int_equal(loc.map_ip, 0x1080);
	assert_string_equal(loc.dso->symfile, path);
	/* A module mapped after kallsyms was read gets its symbols too. */
	r.mmap = (struct pk_rec_mmap){ .pid = UINT32_MAX, .addr = 0xffffffffc0100000, .len = 0x1000,
				       .filename = "/lib/modules/6.1.0/kernel/not_mapped.ko.xz" };
	assert_int_equal(pk_maps_process(m, &r), 0);
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffffc0100010, PERF_RECORD_MISC_KERNEL, &loc), 0);
	assert_string_equal(loc.dso->name, "[not_mapped]");
	assert_string_equal(loc.sym, "other_fn");
	/* A user-mode sample at a kernel address finds no map. */
	assert_int_equal(pk_maps_resolve(m, 99, 0xffffffffc0001080, PERF_RECORD_MISC_USER, &loc), -ENOENT);
	assert_null(loc.dso);
	assert_int_equal(loc.addr, 0xffffffffc0001080);
	pk_maps_free(m);
	unlink(path);
	assert_int_equal(tmp_rmtree(dir), 0);
}

/* perf's maps__fixup_overlappings: the pieces of a split map keep their
 * place in the file. */
static void overlapping_map_splits(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap2(m, 5, 0x10000, 0x5000, 0x3000, PROT_EXEC, "/nonexistent/a");
	mmap2(m, 5, 0x12000, 0x1000, 0, PROT_EXEC, "/nonexistent/b");
	assert_int_equal(user(m, 5, 0x11800, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/a");
	assert_int_equal(loc.addr, 0x4800);
	assert_int_equal(user(m, 5, 0x12800, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/b");
	assert_int_equal(loc.addr, 0x800);
	assert_int_equal(user(m, 5, 0x13800, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/a");
	assert_int_equal(loc.addr, 0x6800);	/* the right piece's pgoff moved with it */
	assert_int_equal(user(m, 5, 0x15000, &loc), -ENOENT);
	/* One covering both replaces them. */
	mmap2(m, 5, 0x10000, 0x8000, 0, PROT_EXEC, "/nonexistent/c");
	assert_int_equal(user(m, 5, 0x13800, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/c");
	loc.size = 8;
	assert_int_equal(pk_maps_resolve(m, 5, 0x13800, PERF_RECORD_MISC_USER, &loc), -EINVAL);
	pk_maps_free(m);
}

static void fork_rec(struct pk_maps *m, uint32_t pid, uint32_t ppid, uint16_t misc)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_FORK, .misc = misc };

	r.task = (struct pk_rec_task){ .pid = pid, .ppid = ppid, .tid = pid, .ptid = ppid };
	assert_int_equal(pk_maps_process(m, &r), 0);
}

/* A kernel FORK copies the parent's maps; one perf synthesizes for a
 * running process (FORK_EXEC) copies nothing, as perf: the child's own
 * MMAPs follow, and until then its addresses have no map. */
static void fork_exec_copies_no_maps(void **state)
{
	struct pk_maps *m;
	struct pk_location loc;

	(void)state;
	assert_int_equal(pk_maps_new(&m), 0);
	mmap2(m, 40, 0x240000, 0x10000, 0, PROT_EXEC, "/nonexistent/python3");
	fork_rec(m, 41, 40, 0);
	assert_int_equal(user(m, 41, 0x240cf8, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/python3");
	fork_rec(m, 42, 40, PERF_RECORD_MISC_FORK_EXEC);
	assert_int_equal(user(m, 42, 0x240cf8, &loc), -ENOENT);
	assert_null(loc.dso);
	mmap2(m, 42, 0x640000, 0x10000, 0, PROT_EXEC, "/nonexistent/sleep");
	assert_int_equal(user(m, 42, 0x240cf8, &loc), -ENOENT);
	assert_int_equal(user(m, 42, 0x640cf8, &loc), 0);
	assert_string_equal(loc.dso->name, "/nonexistent/sleep");
	/* the parent keeps its own */
	assert_int_equal(user(m, 40, 0x240cf8, &loc), 0);
	pk_maps_free(m);
}

static void demangling(void **state)
{
	static const char *const cases[][2] = {
		{ "_ZN2ns1WIlE4spinEl", "ns::W<long>::spin" },	/* perf: no parameters */
		{ "_Z4workli", "work" },
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },	/* Rust legacy */
		{ "_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example" },	/* Rust v0 */
	};
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = pk__demangle(cases[i][0], buf, sizeof(buf));

		assert_non_null(got);
		assert_string_equal(got, cases[i][1]);
	}
	assert_null(pk__demangle("main", buf, sizeof(buf)));
	assert_null(pk__demangle("_Znot mangled", buf, sizeof(buf)));
	assert_null(pk__demangle("_ZN2ns1WIlE4spinEl", buf, 8));	/* does not fit */
}

/* perf -v's names: C++ with parameter lists, Rust as without; the maps'
 * setting refuses a value that is no enum pk_demangle. */
static void demangling_params(void **state)
{
	static const char *const cases[][2] = {
		{ "_ZN2ns1WIlE4spinEl", "ns::W<long>::spin(long)" },
		{ "_Z4workdj", "work(double, unsigned int)" },
		{ "_ZN3geo5Shape4areaEiPKc", "geo::Shape::area(int, char const*)" },
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },
	};
	struct pk_maps *m;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = pk__demangle_params(cases[i][0], buf, sizeof(buf));

		assert_non_null(got);
		assert_string_equal(got, cases[i][1]);
	}
	assert_null(pk__demangle_params("main", buf, sizeof(buf)));
	assert_int_equal(pk_maps_new(&m), 0);
	assert_int_equal(pk_maps_set_demangle(m, PK_DEMANGLE_PARAMS), 0);
	assert_int_equal(pk_maps_set_demangle(m, PK_DEMANGLE_NONE), 0);
	assert_int_equal(pk_maps_set_demangle(m, (enum pk_demangle)7), -EINVAL);
	pk_maps_free(m);
}

/* perf --no-demangle's names: a symbol table set to PK_DEMANGLE_NONE
 * answers with each name as the file spells it, C++ and Rust alike; the
 * other settings demangle the same names. */
static void demangling_none(void **state)
{
	static const char *const names[] = { "_ZN2ns1WIlE4spinEl", "_Z4workli",
					     "_RNvCs15kBYyAo9fc_7mycrate7example", "main" };
	static const char *const demangled[] = { "ns::W<long>::spin", "work", "mycrate::example", "main" };

	(void)state;
	for (int how = PK_DEMANGLE_NAME; how <= PK_DEMANGLE_NONE; how += PK_DEMANGLE_NONE - PK_DEMANGLE_NAME) {
		struct pk__symtab *t;

		assert_int_equal(pk__symtab_new(&t), 0);
		pk__symtab_set_demangle(t, (enum pk_demangle)how);
		for (size_t i = 0; i < 4; i++)
			assert_int_equal(pk__symtab_add(t, 0x1000 * (i + 1), 0x100, names[i], 1), 0);
		pk__symtab_finish(t, false);
		for (size_t i = 0; i < 4; i++) {
			const struct pk__sym *s = pk__symtab_find(t, 0x1000 * (i + 1) + 8);

			assert_non_null(s);
			assert_string_equal(s->name, how == PK_DEMANGLE_NONE ? names[i] : demangled[i]);
		}
		pk__symtab_free(t);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pie_executable),
		cmocka_unit_test(non_pie_executable),
		cmocka_unit_test(stripped_with_debuglink),
		cmocka_unit_test(plt_entries),
		cmocka_unit_test(debug_file_by_build_id),
		cmocka_unit_test(debuglink_crc),
		cmocka_unit_test(build_id_mismatch_is_refused),
		cmocka_unit_test(this_process),
		cmocka_unit_test(jit_perf_map),
		cmocka_unit_test(kernel_and_modules),
		cmocka_unit_test(overlapping_map_splits),
		cmocka_unit_test(fork_exec_copies_no_maps),
		cmocka_unit_test(demangling),
		cmocka_unit_test(demangling_params),
		cmocka_unit_test(demangling_none),
	};

	if (argc != 9) {
		fprintf(stderr, "usage: %s WORKLOAD NOPIE STRIPPED-LINKED DEBUG NOBID-STRIPPED-LINKED "
			"NOBID-DEBUG NOBID PLT-STRIPPED\n", argv[0]);
		return 2;
	}
	paths = argv + 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
