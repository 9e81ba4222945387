/* SPDX-License-Identifier: MIT */
/*
 * test_unwind.c - DWARF unwinding (unwind/).  Unit: this test's own stack,
 * captured in a chain of functions built without frame pointers, unwinds
 * back through each of them to main; bad input is refused; an unknown
 * process gives no frames; a caller whose code cannot be read ends the
 * chain, kept as its last frame; a module whose CFI is in its
 * .gnu_debuglink file in DIR/.debug/ alone unwinds through that file, not
 * through one of another build-id or CRC-32, and with DEBUGINFOD_URLS
 * unset the search for a debug file that is nowhere never loads
 * libdebuginfod.  With the argument "oracle": perf 6.1 records
 * the unwind-target workload with --call-graph dwarf, and for every sample
 * the frames perfkit unwinds from the file's registers and stack are the
 * frames `perf script -F ip` prints, address for address: once with CFI
 * everywhere (the fast path), once through a frame that has none (libdwfl's
 * frame-pointer fallback, which perfkit hands such samples to).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "perfkit.h"
#include "elf/elf.h"
#include "procmaps.h"
#include "unwind/unwind.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STACK_BYTES 8192
#define MAX_FRAMES 64

/* ---- unit: our own stack -------------------------------------------------- */

/* The registers perf samples for DWARF unwinding, captured here: bits of
 * PERF_REG_X86_{BX,BP,SP,IP,R12..R15}, the ones the CFI of compiled code
 * needs (callee-saved, stack and instruction pointers). */
static const uint64_t captured_mask = (1ull << 1) | (1ull << 6) | (1ull << 7) | (1ull << 8) |
				      (1ull << 20) | (1ull << 21) | (1ull << 22) | (1ull << 23);

struct capture {
	uint64_t regs[8];	/* BX BP SP IP R12 R13 R14 R15: increasing bit order */
	unsigned char stack[STACK_BYTES];
	size_t stack_size;
};

static struct capture cap;
static uint64_t stack_end;	/* the end of the [stack] mapping */

/* Find where the main thread's stack mapping ends, so the copy stops there. */
static void find_stack_end(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end;

		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			stack_end = end;
	}
	fclose(f);
	assert_true(stack_end != 0);
}

/* Copy live stack bytes, redzones of sanitized frames included: a plain
 * loop, which the sanitizers are told to leave alone. */
__attribute__((noinline, no_sanitize("address", "undefined"))) static void copy_stack(uint64_t sp)
{
	const volatile unsigned char *from = (const volatile unsigned char *)(uintptr_t)sp;

	for (size_t i = 0; i < cap.stack_size; i++)
		cap.stack[i] = from[i];
}

__attribute__((noinline)) static void take(void)
{
	uint64_t *r = cap.regs;

	__asm__ volatile("movq %%rbx, 0(%0)\n\t"
			 "movq %%rbp, 8(%0)\n\t"
			 "movq %%rsp, 16(%0)\n\t"
			 "leaq 0(%%rip), %%rax\n\t"
			 "movq %%rax, 24(%0)\n\t"
			 "movq %%r12, 32(%0)\n\t"
			 "movq %%r13, 40(%0)\n\t"
			 "movq %%r14, 48(%0)\n\t"
			 "movq %%r15, 56(%0)\n\t"
			 : : "r"(r) : "rax", "memory");
	/* The stack from SP up to what is mapped, at most STACK_BYTES. */
	cap.stack_size = stack_end - r[2] < STACK_BYTES ? stack_end - r[2] : STACK_BYTES;
	copy_stack(r[2]);
}

__attribute__((noinline)) static int level3(int x) { take(); return x + 3; }
__attribute__((noinline)) static int level2(int x) { return level3(x * 2) + 1; }
__attribute__((noinline)) static int level1(int x) { return level2(x + 1) * 3; }

/* Feed this process's file mappings to the unwinder. */
static void map_self(struct pk_unwinder *u)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char path[3000] = "";

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %2999s", &start, &end, &off, path) >= 3 &&
		    path[0] == '/')
			assert_int_equal(pk_unwinder_map(u, (uint32_t)getpid(), start, end, off, path), 0);
	}
	fclose(f);
}

struct range {
	const char *name;
	uint64_t lo, hi;	/* file addresses */
};

static int find_sym(void *arg, const struct pk__elf_sym *s)
{
	struct range *r = arg;

	if (!strcmp(s->name, r->name)) {
		r->lo = s->value;
		r->hi = s->value + s->size;
		return 1;
	}
	return 0;
}

/* Whether runtime address ip lies in function `name` of this executable. */
static bool in_function(const char *name, uint64_t ip, uint64_t load_bias)
{
	struct pk__elf *e;
	struct range r = { .name = name };

	assert_int_equal(pk__elf_open("/proc/self/exe", &e), 0);
	pk__elf_symbols(e, find_sym, &r);
	pk__elf_close(e);
	assert_true(r.hi > r.lo);
	return ip - load_bias >= r.lo && ip - load_bias < r.hi;
}

/* Where this executable was loaded: level1's address less its symbol's. */
static uint64_t load_bias(void)
{
	struct pk__elf *e;
	struct range r = { .name = "level1" };

	assert_int_equal(pk__elf_open("/proc/self/exe", &e), 0);
	pk__elf_symbols(e, find_sym, &r);
	pk__elf_close(e);
	return (uint64_t)(uintptr_t)&level1 - r.lo;
}

/* How many file descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void test_own_stack(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES], bias;
	size_t nr = 0, nr2 = 0;
	int fds;

	(void)state;
	find_stack_end();
	assert_int_equal(level1(1), 3 * (2 * 2 + 3 + 1));
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), cap.regs,
					    captured_mask, cap.stack, cap.stack_size, ips, MAX_FRAMES, &nr), 0);
	/* take, level3, level2, level1, the test function, ... main */
	assert_true(nr >= 5);
	bias = load_bias();
	assert_int_equal(ips[0], cap.regs[3]);
	assert_true(in_function("take", ips[0], bias));
	assert_true(in_function("level3", ips[1], bias));
	assert_true(in_function("level2", ips[2], bias));
	assert_true(in_function("level1", ips[3], bias));
	assert_true(in_function("test_own_stack", ips[4], bias));
	/* Released (as at the process's EXIT): the files its modules held
	 * are closed, and the next unwind opens them again, alike. */
	fds = open_fds();
	pk_unwinder_release(u, (uint32_t)getpid());
	pk_unwinder_release(u, 12345);	/* not known: nothing */
	assert_true(open_fds() < fds);
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), cap.regs,
					    captured_mask, cap.stack, cap.stack_size, again, MAX_FRAMES, &nr2), 0);
	assert_int_equal(nr2, nr);
	assert_memory_equal(again, ips, nr * sizeof(*ips));
	assert_int_equal(open_fds(), fds);
	pk_unwinder_free(u);
}

static void test_bad_input(void **state)
{
	struct pk_unwinder *u;
	uint64_t regs[2] = { 0x1000, 0x2000 }, ips[4];
	size_t nr = 99;

	(void)state;
	assert_int_equal(pk_unwinder_new(&u), 0);
	/* no SP */
	assert_int_equal(pk_unwinder_unwind(u, 1, 1, regs, 1ull << 8, NULL, 0, ips, 4, &nr), -EINVAL);
	assert_int_equal(nr, 0);
	assert_non_null(strstr(pk_last_error()->why, "IP or SP"));
	/* no room */
	assert_int_equal(pk_unwinder_unwind(u, 1, 1, regs, (1ull << 7) | (1ull << 8), NULL, 0, ips, 0, &nr),
			 -EINVAL);
	/* a process never mapped: nothing to unwind, not an error */
	assert_int_equal(pk_unwinder_unwind(u, 1, 1, regs, (1ull << 7) | (1ull << 8), NULL, 0, ips, 4, &nr), 0);
	assert_int_equal(nr, 0);
	assert_int_equal(pk_unwinder_map(u, 1, 0x2000, 0x1000, 0, "/bin/true"), -EINVAL);
	assert_int_equal(pk_unwinder_map(u, 1, 0x1000, 0x2000, 0, ""), -EINVAL);
	/* an ip in no map of a mapped process: the ip alone, as perf keeps it */
	assert_int_equal(pk_unwinder_map(u, 1, 0x400000, 0x800000, 0, "/bin/true"), 0);
	assert_int_equal(pk_unwinder_unwind(u, 1, 1, regs, (1ull << 7) | (1ull << 8), NULL, 0, ips, 4, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(ips[0], 0x2000);	/* regs: SP (bit 7) then IP (bit 8) */
	/* a mapping with no file to read (a name, not a path): the same */
	assert_int_equal(pk_unwinder_map(u, 1, 0x2000, 0x3000, 0, "[build-id mismatch]"), 0);
	assert_int_equal(pk_unwinder_unwind(u, 1, 1, regs, (1ull << 7) | (1ull << 8), NULL, 0, ips, 4, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(ips[0], 0x2000);
	pk_unwinder_forget(u, 1);
	pk_unwinder_forget(u, 12345);
	pk_unwinder_free(u);
	pk_unwinder_free(NULL);
}

/* A caller in code whose file cannot be read (another build, a removed
 * file): its frame, found by its callee's CFI, is kept, and the chain ends
 * there, as perf's does. */
static void test_stop_after_unknown(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES], bias, lo, hi;
	struct range r = { .name = "level1" };
	struct pk__elf *e;
	size_t nr = 0;

	(void)state;
	find_stack_end();
	level1(3);
	assert_int_equal(pk__elf_open("/proc/self/exe", &e), 0);
	pk__elf_symbols(e, find_sym, &r);
	pk__elf_close(e);
	bias = load_bias();
	lo = r.lo + bias;
	hi = r.hi + bias;
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	assert_int_equal(pk_unwinder_map(u, (uint32_t)getpid(), lo, hi, 0, "[build-id mismatch]"), 0);
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), cap.regs,
					    captured_mask, cap.stack, cap.stack_size, ips, MAX_FRAMES, &nr), 0);
	/* take, level3, level2, then level1's return address less one */
	assert_int_equal(nr, 4);
	assert_true(in_function("level2", ips[2], bias));
	assert_true(ips[3] >= lo && ips[3] < hi);
	pk_unwinder_free(u);
}

/* A frame's rule is remembered per process and only while its maps and
 * modules stay as they were: the same sample unwinds in full, then stops
 * at level1 once its text is another build's, in full again when it is
 * mapped back, and a process that maps nothing there gets no frames from
 * what the first one remembered. */
static void test_memo_follows_maps(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES], bias, full;
	uint32_t pid = (uint32_t)getpid();
	struct range r = { .name = "level1" };
	struct pk__elf *e;
	size_t nr = 0;

	(void)state;
	find_stack_end();
	level1(4);
	assert_int_equal(pk__elf_open("/proc/self/exe", &e), 0);
	pk__elf_symbols(e, find_sym, &r);
	pk__elf_close(e);
	bias = load_bias();
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack,
						    cap.stack_size, ips, MAX_FRAMES, &nr), 0);
		assert_true(nr >= 5);
		assert_true(in_function("level1", ips[3], bias));
	}
	full = nr;
	assert_int_equal(pk_unwinder_map(u, pid, r.lo + bias, r.hi + bias, 0, "[build-id mismatch]"), 0);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, &nr), 0);
	assert_int_equal(nr, 4);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, &nr), 0);
	assert_int_equal(nr, full);
	/* another process with one unrelated file: the ip alone */
	assert_int_equal(pk_unwinder_map(u, pid + 1, 0x1000, 0x2000, 0, "/bin/true"), 0);
	assert_int_equal(pk_unwinder_unwind(u, pid + 1, pid + 1, cap.regs, captured_mask, cap.stack,
					    cap.stack_size, ips, MAX_FRAMES, &nr), 0);
	assert_int_equal(nr, 1);
	pk_unwinder_free(u);
}

static struct capture kept[2];
static int nr_kept;

__attribute__((noinline)) static void keep(void)
{
	take();
	kept[nr_kept++ % 2] = cap;
}

/* Two calls from one function with nothing between them that moves its
 * stack pointer: one row of its CFI. */
__attribute__((noinline)) static int two_sites(int x)
{
	keep();
	x = level2(x) + x;
	keep();
	return x + 1;
}

/* The rules of a row of .eh_frame are read once: two samples whose
 * caller is at two call sites of one row (the later site second) unwind
 * each in full, to two_sites, and the second makes no new rule: its
 * other frames are at the first one's pcs, and its caller's pc is in the
 * row part the first one indexed. */
static void test_row_rules_shared(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[2][MAX_FRAMES], bias;
	uint32_t pid = (uint32_t)getpid();
	size_t nr[2] = { 0, 0 }, rules;
	volatile int one = 1;	/* not a constant: no clone of two_sites for it */

	(void)state;
	find_stack_end();
	nr_kept = 0;
	assert_int_equal(two_sites(one), (2 * 1 + 4) + 1 + 1);	/* level2(x) is 2x + 4 */
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	bias = load_bias();
	for (int i = 0; i < 2; i++) {
		rules = u->nr_rules;
		assert_int_equal(pk_unwinder_unwind(u, pid, pid, kept[i].regs, captured_mask, kept[i].stack,
						    kept[i].stack_size, ips[i], MAX_FRAMES, &nr[i]), 0);
		assert_true(nr[i] >= 4);
		assert_true(in_function("take", ips[i][0], bias));
		assert_true(in_function("keep", ips[i][1], bias));
		assert_true(in_function("two_sites", ips[i][2], bias));
		assert_true(in_function("test_row_rules_shared", ips[i][3], bias));
	}
	assert_true(ips[1][2] > ips[0][2]);
	assert_int_equal(nr[1], nr[0]);
	assert_memory_equal(&ips[1][3], &ips[0][3], (nr[0] - 3) * sizeof(ips[0][0]));
	print_message("# rules made: %zu, then %zu\n", rules, (size_t)u->nr_rules - rules);
	assert_int_equal(u->nr_rules, rules);
	pk_unwinder_free(u);
}

/* A sample that repeats the last one's ip and stack pointer is given the
 * frames kept from it only while the stack words its unwinding read are
 * the same: with level1's return address in the copy changed to an
 * address no map holds, the chain ends there (that address less one, as
 * the frame of a caller whose code cannot be read), and with the word put
 * back it is whole again. */
static void test_repeat_reads_stack(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES], bias, ret, bad = 0x11;
	uint32_t pid = (uint32_t)getpid();
	size_t nr = 0, full, at = 0;

	(void)state;
	find_stack_end();
	level1(5);
	bias = load_bias();
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack,
						    cap.stack_size, ips, MAX_FRAMES, &nr), 0);
		assert_true(nr >= 5);
		assert_true(in_function("level1", ips[3], bias));
	}
	full = nr;
	ret = ips[3] + 1;	/* level2's return address, into level1 */
	while (at + 8 <= cap.stack_size && memcmp(cap.stack + at, &ret, 8))
		at += 8;
	assert_true(at + 8 <= cap.stack_size);
	memcpy(cap.stack + at, &bad, 8);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, &nr), 0);
	assert_int_equal(nr, 4);
	assert_int_equal(ips[3], bad - 1);
	memcpy(cap.stack + at, &ret, 8);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, &nr), 0);
	assert_int_equal(nr, full);
	assert_true(in_function("level1", ips[3], bias));
	pk_unwinder_free(u);
}

/* Mappings that overlap replace what they cover: the stack of this
 * process still unwinds after its text map is split by an unrelated
 * mapping placed over a part of it and then restored. */
static void test_overlapping_maps(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES];
	size_t nr;

	(void)state;
	find_stack_end();
	level1(2);
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	/* a file over the middle of everything, then everything again */
	assert_int_equal(pk_unwinder_map(u, (uint32_t)getpid(), 0x1000, UINT64_MAX - 0x1000, 0, "/bin/true"),
			 0);
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), 0, cap.regs, captured_mask, cap.stack,
					    cap.stack_size, ips, MAX_FRAMES, &nr), 0);
	assert_true(nr <= 1);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), 0, cap.regs, captured_mask, cap.stack,
					    cap.stack_size, ips, MAX_FRAMES, &nr), 0);
	assert_true(nr >= 5);
	/* max frames is honoured */
	assert_int_equal(pk_unwinder_unwind(u, (uint32_t)getpid(), 0, cap.regs, captured_mask, cap.stack,
					    cap.stack_size, ips, 2, &nr), 0);
	assert_int_equal(nr, 2);
	pk_unwinder_free(u);
}

/* A file mapped where no module and no map looked up lies (ld.so mapping
 * a library while the process is sampled) keeps the process's libdwfl
 * state, the files its modules hold open among it; one mapped over a
 * module's range lets that state go, and the frames stay right both
 * times. */
static void test_unrelated_map_keeps_modules(void **state)
{
	struct pk_unwinder *u;
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES], bias;
	uint32_t pid = (uint32_t)getpid();
	size_t nr, nr2;
	int fds;

	(void)state;
	find_stack_end();
	level1(6);
	bias = load_bias();
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, &nr), 0);
	assert_true(nr >= 5);
	fds = open_fds();
	/* below mmap_min_addr: no map of this process is there */
	assert_int_equal(pk_unwinder_map(u, pid, 0x1000, 0x2000, 0, "/bin/true"), 0);
	assert_int_equal(open_fds(), fds);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    again, MAX_FRAMES, &nr2), 0);
	assert_int_equal(nr2, nr);
	assert_memory_equal(again, ips, nr * sizeof(*ips));
	assert_int_equal(open_fds(), fds);
	/* over the executable's level1: its module goes, with its file */
	assert_int_equal(pk_unwinder_map(u, pid, (uint64_t)(uintptr_t)&level1, (uint64_t)(uintptr_t)&level1 + 16, 0,
					 "/bin/true"), 0);
	assert_true(open_fds() < fds);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    again, MAX_FRAMES, &nr2), 0);
	assert_int_equal(nr2, nr);
	assert_memory_equal(again, ips, nr * sizeof(*ips));
	assert_true(in_function("level1", again[3], bias));
	pk_unwinder_free(u);
}

/* ---- unit: a module whose CFI is in a separate debug file ------------- */

/* Run a shell command; the test fails when it does. */
static void run(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

__attribute__((noinline)) static int dbg_next(int x) { take(); return x + 1; }

/* Calls the module's pk_dbg_mid, which calls dbg_next, which takes the
 * stack: take, dbg_next, pk_dbg_mid, then this. */
__attribute__((noinline)) static int through_module(int (*mid)(int (*)(int), int))
{
	return mid(dbg_next, 1) + 1;
}

/* The library the build made in `env` (PERFKIT_UNWIND_DBG*), copied into
 * a new directory DIR as DIR/libm.so without its debug sections and with
 * a .gnu_debuglink to DIR/.debug/m.debug, where its own debug file is
 * left.  DIR into dir. */
static void split_module(const char *env, char *dir, size_t len)
{
	const char *lib = getenv(env), *tmp = getenv("TMPDIR");
	char cmd[4096];

	assert_non_null(lib);
	snprintf(dir, len, "%s/unwind-dbg.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir .debug && objcopy --only-keep-debug '%s' .debug/m.debug && "
		 "objcopy --strip-debug --add-gnu-debuglink=.debug/m.debug '%s' libm.so", dir, lib, lib);
	run(cmd);
}

/* Unwind this process's stack taken through DIR/libm.so: the frames into
 * ips (*nr of them), and whether the unwinder held DIR/.debug/m.debug
 * (mapped while its Dwfl lives) into *held. */
static void unwind_through(const char *dir, uint64_t *ips, size_t *nr, bool *held)
{
	char path[600], real[PATH_MAX];
	struct pk_unwinder *u;
	void *h;
	int (*mid)(int (*)(int), int);
	uint32_t pid = (uint32_t)getpid();

	snprintf(path, sizeof(path), "%s/libm.so", dir);
	assert_non_null(h = dlopen(path, RTLD_NOW | RTLD_LOCAL));
	assert_non_null(mid = (int (*)(int (*)(int), int))dlsym(h, "pk_dbg_mid"));
	find_stack_end();
	assert_int_equal(through_module(mid), 2 + 1 + 1 + 1);
	assert_int_equal(pk_unwinder_new(&u), 0);
	map_self(u);
	assert_int_equal(pk_unwinder_unwind(u, pid, pid, cap.regs, captured_mask, cap.stack, cap.stack_size,
					    ips, MAX_FRAMES, nr), 0);
	snprintf(path, sizeof(path), "%s/.debug/m.debug", dir);
	*held = realpath(path, real) && proc_mapped(real);
	pk_unwinder_free(u);
	dlclose(h);
}

static void remove_dir(const char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	run(cmd);
}

/* With DEBUGINFOD_URLS unset, libdwfl's debug file search for a module
 * with a build-id and no debug file anywhere (its .gnu_debuglink leads
 * nowhere) must not reach libdwfl's debuginfod client, whose first use
 * dlopens libdebuginfod (and with it libcurl and the rest) whatever the
 * variable says.  The chain ends in the module: it has no CFI, and no
 * frame pointer. */
static void test_no_debuginfod(void **state)
{
	char dir[512], cmd[700];
	uint64_t ips[MAX_FRAMES];
	size_t nr = 0;
	bool held;

	(void)state;
	assert_null(getenv("DEBUGINFOD_URLS"));
	split_module("PERFKIT_UNWIND_DBG", dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "rm '%s/.debug/m.debug'", dir);
	run(cmd);
	unwind_through(dir, ips, &nr, &held);
	remove_dir(dir);
	assert_int_equal(nr, 3);
	assert_false(proc_mapped("libdebuginfod"));
}

/* The module's CFI is in its .gnu_debuglink file in DIR/.debug/ alone:
 * found there, the chain goes on past the module to its caller, for a
 * module with a build-id (which the file's must match) and for one
 * without (the link's CRC-32 decides).  A file there with another
 * build-id, or with another CRC-32, is not taken: the chain ends in the
 * module. */
static void test_debuglink_frame(void **state)
{
	static const struct {
		const char *env;
		const char *spoil;	/* shell run in DIR after the split, or NULL */
		bool taken;
	} cases[] = {
		{ "PERFKIT_UNWIND_DBG", NULL, true },
		{ "PERFKIT_UNWIND_DBG_NOID", NULL, true },
		/* the same code, linked with another build-id */
		{ "PERFKIT_UNWIND_DBG", "objcopy --only-keep-debug \"$PERFKIT_UNWIND_DBG_OTHER\" .debug/m.debug",
		  false },
		/* a byte more: still an ELF file, another CRC-32 */
		{ "PERFKIT_UNWIND_DBG_NOID", "printf x >> .debug/m.debug", false },
	};
	uint64_t ips[MAX_FRAMES], bias;
	char dir[512], cmd[1024];
	size_t nr;
	bool held;

	(void)state;
	bias = load_bias();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		split_module(cases[i].env, dir, sizeof(dir));
		if (cases[i].spoil) {
			snprintf(cmd, sizeof(cmd), "cd '%s' && %s", dir, cases[i].spoil);
			run(cmd);
		}
		nr = 0;
		unwind_through(dir, ips, &nr, &held);
		remove_dir(dir);
		assert_true(nr >= 3);
		assert_true(in_function("dbg_next", ips[1], bias));
		if (held != cases[i].taken)
			fail_msg("case %zu: the debug file was%s taken", i, held ? "" : " not");
		if (cases[i].taken) {
			assert_true(nr >= 5);
			assert_true(in_function("through_module", ips[3], bias));
		} else {
			assert_int_equal(nr, 3);
		}
	}
}

/* ---- oracle: perf's own recording --------------------------------------- */

struct fmap {
	uint32_t pid;
	uint64_t start, end, pgoff;
};

struct oracle {
	struct pk_unwinder *u;
	struct fmap maps[256];
	size_t nr_maps;
	FILE *out;		/* our frames, in perf script -F ip's layout */
	int samples, deep;	/* samples, and those unwound 4 frames or more */
};

/* perf script prints an address inside a file mapping as the file offset. */
static uint64_t relative(const struct oracle *o, uint32_t pid, uint64_t ip)
{
	for (size_t i = o->nr_maps; i-- > 0;)
		if (o->maps[i].pid == pid && ip >= o->maps[i].start && ip < o->maps[i].end)
			return ip - o->maps[i].start + o->maps[i].pgoff;
	return ip;
}

static void oracle_record(struct oracle *o, const struct pk_record *rec)
{
	if (rec->type == PERF_RECORD_MMAP2 && rec->mmap2.filename[0] == '/') {
		const struct pk_rec_mmap2 *m = &rec->mmap2;

		assert_int_equal(pk_unwinder_map(o->u, m->pid, m->addr, m->addr + m->len, m->pgoff, m->filename), 0);
		assert_true(o->nr_maps < 256);
		o->maps[o->nr_maps++] = (struct fmap){ m->pid, m->addr, m->addr + m->len, m->pgoff };
	} else if (rec->type == PERF_RECORD_SAMPLE) {
		const struct pk_sample *s = &rec->sample;
		uint64_t ips[MAX_FRAMES];
		size_t nr;

		assert_int_equal(pk_unwinder_unwind(o->u, s->pid, s->tid, s->regs_user.regs, s->regs_user.mask,
						    s->stack.data, s->stack.dyn_size, ips, MAX_FRAMES, &nr), 0);
		o->samples++;
		o->deep += nr >= 4;
		fputc('\n', o->out);
		for (size_t i = 0; i < nr; i++)
			fprintf(o->out, "\t%16" PRIx64 "\n", relative(o, s->pid, ips[i]));
		fputc('\n', o->out);
	}
}

/* Compare two files of frames, after dropping perf's " (inlined)" marks. */
static void compare(const char *ours, const char *perfs)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "sed 's/ (inlined)$//' %s | diff -q - %s >/dev/null", perfs, ours);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "sed 's/ (inlined)$//' %s | diff - %s | head -40 >&2", perfs, ours);
		(void)system(cmd);
		fail_msg("perfkit's frames differ from perf script's");
	}
}

/* perf records the target in `mode` ("cfi", or "nocfi": one frame has no
 * CFI and unwinds by its frame pointer); perfkit's frames must be perf's. */
static void oracle_mode(const char *mode, const char *env, const char *rounds, const char *period)
{
	const char *target = getenv("PERFKIT_UNWIND_TARGET"), *tmp = getenv("TMPDIR");
	char dir[512], cmd[2048], data[600], ours[600], perfs[600];
	struct pk_data_reader *r;
	const struct perf_event_header *h;
	struct oracle o = { 0 };
	int n;

	assert_non_null(target);
	snprintf(dir, sizeof(dir), "%s/unwind.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(data, sizeof(data), "%s/u.data", dir);
	snprintf(ours, sizeof(ours), "%s/ours", dir);
	snprintf(perfs, sizeof(perfs), "%s/perfs", dir);
	snprintf(cmd, sizeof(cmd), "%s perf record -q --call-graph dwarf -e task-clock:u -c %s -o %s -- %s "
		 "%s %s 2>&1 && perf script -F ip --no-inline -i %s > %s 2>/dev/null", env, period, data, target,
		 rounds, mode, data, perfs);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pk_unwinder_new(&o.u), 0);
	assert_non_null(o.out = fopen(ours, "w"));
	assert_int_equal(pk_data_reader_open(data, &r), 0);
	while ((n = pk_data_reader_next(r, &h)) == 1) {
		struct pk_record rec = { .size = sizeof(rec) };
		const struct perf_event_attr *attr = pk_data_reader_attr_of(r, h);

		if (h->type >= 64)	/* PERF_RECORD_USER_TYPE_START */
			continue;	/* perf's own records */
		assert_int_equal(pk_record_decode(h, attr ? attr : pk_data_reader_attr(r, 0), &rec), 0);
		oracle_record(&o, &rec);
	}
	assert_int_equal(n, 0);
	fclose(o.out);
	/* inner, middle, outer, main at least, for nearly every sample */
	assert_true(o.samples > 5);
	assert_true(o.deep >= o.samples * 9 / 10);
	compare(ours, perfs);
	pk_data_reader_free(r);
	pk_unwinder_free(o.u);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_oracle_perf_dwarf(void **state)
{
	(void)state;
	oracle_mode("cfi", "", "30000000", "1000000");
}

static void test_oracle_perf_dwarf_no_cfi(void **state)
{
	(void)state;
	oracle_mode("nocfi", "", "30000000", "1000000");
}

/* Every round through ld.so's lazy resolver (LD_BIND_NOT=1 binds and never
 * keeps the binding): samples in _dl_runtime_resolve_xsave*, _dl_fixup
 * and the symbol lookup unwind through the resolver to inner, as perf's.
 * The frames perfkit used to cut (inside _dl_fixup's first instructions,
 * before it saves rbx, the resolver's CFA register) are about one sample
 * in 300: a few thousand samples hold some. */
static void test_oracle_perf_dwarf_lazy(void **state)
{
	(void)state;
	oracle_mode("lazy", "LD_BIND_NOW= LD_BIND_NOT=1", "2000000", "100000");
}

/* Every sample in a leaf under a frame whose CFA is in rbx, under a frame
 * with no CFI: the unwinding goes past the rbx frame only with rbx as the
 * sample has it (perf's libunwind keeps a register the CFI does not
 * mention), and past the frame without CFI only with libdwfl's frame
 * pointer fallback.  perfkit once handed such a sample to libdwfl from its
 * start, which lost rbx and cut every chain after pk_via_rbx. */
static void test_oracle_perf_dwarf_rbx_cfa(void **state)
{
	(void)state;
	oracle_mode("rbx", "", "30000000", "1000000");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_own_stack),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_overlapping_maps),
		cmocka_unit_test(test_stop_after_unknown),
		cmocka_unit_test(test_memo_follows_maps),
		cmocka_unit_test(test_repeat_reads_stack),
		cmocka_unit_test(test_row_rules_shared),
		cmocka_unit_test(test_unrelated_map_keeps_modules),
		cmocka_unit_test(test_no_debuginfod),
		cmocka_unit_test(test_debuglink_frame),
	};
	const struct CMUnitTest oracle[] = {
		cmocka_unit_test(test_oracle_perf_dwarf),
		cmocka_unit_test(test_oracle_perf_dwarf_no_cfi),
		cmocka_unit_test(test_oracle_perf_dwarf_lazy),
		cmocka_unit_test(test_oracle_perf_dwarf_rbx_cfa),
	};

	/* The unit tests are about a search that must not reach debuginfod
	 * when it is not configured; a caller's setting would hide that. */
	unsetenv("DEBUGINFOD_URLS");
	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(oracle, NULL, NULL);
	return cmocka_run_group_tests(unit, NULL, NULL);
}
