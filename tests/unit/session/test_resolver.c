/* SPDX-License-Identifier: MIT */
/*
 * test_resolver.c - pk_resolver: call chains built from this process's
 * own maps (context markers switch the mode and are left out, max_stack
 * cuts, a guest marker discards the chain, comms and processes follow
 * the records, an exited process's maps go a second after, LBR call
 * stacks rebuild the user part), and, with the
 * argument "oracle", against perf 6.1: per sample of a `perf record -g` and a `--call-graph dwarf` recording of
 * the workload, the frames' (symbol, dso) are the lines `perf script -F
 * ip,sym,dso` prints for it (skipped without perf or root).
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
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "session/chain-memo.h"
#include "tmpdir.h"

__attribute__((noinline)) int resolver_fn_a(int x);
__attribute__((noinline)) int resolver_fn_b(int x);

__attribute__((noinline)) int resolver_fn_a(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int resolver_fn_b(int x)
{
	return resolver_fn_a(x) + 2;
}

static void process(struct pk_resolver *res, struct pk_record *r)
{
	r->size = sizeof(*r);
	assert_int_equal(pk_resolver_process(res, r), 0);
}

/* A resolver that knows this process's maps, as /proc/self/maps has them. */
static struct pk_resolver *this_process(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[8192], file[4096];
	struct pk_resolver *res;
	uint32_t pid = (uint32_t)getpid();

	assert_non_null(f);
	assert_int_equal(pk_resolver_new(NULL, &res), 0);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8];
		struct pk_record r = { .type = PERF_RECORD_MMAP2 };

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perms, &pgoff, file) < 4)
			continue;
		r.mmap2 = (struct pk_rec_mmap2){ .pid = pid, .tid = pid, .addr = start, .len = end - start,
						 .pgoff = pgoff, .filename = file[0] ? file : "//anon",
						 .prot = (perms[0] == 'r' ? PROT_READ : 0) |
							 (perms[2] == 'x' ? PROT_EXEC : 0) };
		process(res, &r);
	}
	fclose(f);
	return res;
}

static struct pk_record sample_with(const uint64_t *chain, size_t nr, uint16_t misc)
{
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_SAMPLE, .misc = misc };

	r.sample.fields = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	r.sample.pid = r.sample.tid = (uint32_t)getpid();
	for (size_t i = nr; i-- > 0;)	/* the innermost address */
		if (chain[i] < PERF_CONTEXT_MAX)
			r.sample.ip = chain[i];
	r.sample.callchain.nr = nr;
	r.sample.callchain.ips = chain;
	return r;
}

static void markers_switch_modes_and_are_left_out(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ull, PERF_CONTEXT_USER,
				   a + 1, b + 4 };
	struct pk_record r = sample_with(chain, 5, PERF_RECORD_MISC_KERNEL);
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	assert_int_equal(resolver_fn_b(1), 6);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(s.pid, getpid());
	assert_int_equal(s.nr_frames, 3);
	assert_int_equal(s.frames[0].ip, 0xffffffff81000010ull);
	assert_int_equal(s.frames[0].cpumode, PERF_RECORD_MISC_KERNEL);
	assert_null(s.frames[0].loc.dso);	/* no kernel map was given */
	assert_int_equal(s.frames[1].cpumode, PERF_RECORD_MISC_USER);
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_a");
	assert_int_equal(s.frames[1].loc.symoff, 1);
	assert_string_equal(s.frames[2].loc.sym, "resolver_fn_b");
	assert_non_null(s.frames[2].loc.dso);
	assert_false(s.frames[2].loc.dso->kernel);
	/* A chain without a leading marker starts in user mode. */
	r = sample_with(chain + 3, 2, PERF_RECORD_MISC_USER);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_string_equal(s.loc.sym, "resolver_fn_a");
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_b");
	pk_resolver_free(res);
}

static void max_stack_cuts_and_guest_marker_discards(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t chain[] = { PERF_CONTEXT_USER, a, b, b + 1, b + 2 };
	const uint64_t guest[] = { PERF_CONTEXT_USER, a, PERF_CONTEXT_GUEST, b };
	struct pk_record r = sample_with(chain, 5, PERF_RECORD_MISC_USER);
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	pk_resolver_set_max_stack(res, 2);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_b");
	pk_resolver_set_max_stack(res, 127);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 4);
	r = sample_with(guest, 4, PERF_RECORD_MISC_USER);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 0);
	assert_string_equal(s.loc.sym, "resolver_fn_a");
	pk_resolver_free(res);
}

static struct pk_record dwarf_sample(const uint64_t *chain, size_t nr, uint64_t regs[2], uint64_t *stack,
				     uint64_t ip);

/* In caller order perf walks the chain from its end: --max-stack keeps
 * the outermost addresses, and only the markers that walk reads (the
 * last one, and the one before each marker walked) can discard it. */
static void max_stack_in_caller_order_keeps_the_outermost(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t chain[] = { PERF_CONTEXT_USER, a, b, b + 1, b + 2 };
	const uint64_t guest_early[] = { PERF_CONTEXT_GUEST, 0x10, PERF_CONTEXT_USER, a, b };
	const uint64_t guest_late[] = { PERF_CONTEXT_USER, a, PERF_CONTEXT_GUEST, b, b + 1 };
	const uint64_t guest[] = { PERF_CONTEXT_GUEST };
	uint64_t regs[2], stack[8] = { 0 };
	struct pk_record r = sample_with(chain, 5, PERF_RECORD_MISC_USER);
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	pk_resolver_set_caller_order(res, true);
	pk_resolver_set_max_stack(res, 2);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);	/* innermost first still */
	assert_int_equal(s.frames[0].ip, b + 1);
	assert_int_equal(s.frames[1].ip, b + 2);
	/* the walk reaching the user marker reads the guest one before it:
	 * the chain goes; stopping short of it, nothing is dropped */
	r = sample_with(guest_early, 5, PERF_RECORD_MISC_USER);
	pk_resolver_set_max_stack(res, 3);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 0);
	pk_resolver_set_max_stack(res, 2);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_string_equal(s.frames[0].loc.sym, "resolver_fn_a");
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_b");
	/* the last marker is read first: a guest one there drops the chain */
	r = sample_with(guest_late, 5, PERF_RECORD_MISC_USER);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 0);
	/* ... and a DWARF sample's unwound frames with it, which perf adds
	 * first in caller order (in callee order they come after and stay) */
	r = dwarf_sample(guest, 1, regs, stack, a + 1);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 0);
	pk_resolver_set_caller_order(res, false);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_true(s.nr_frames >= 1 && s.frames[0].unwound);
	pk_resolver_free(res);
}

/* Without chains (pk_resolver_set_chains): the sample's place alone, no
 * frames and no chain id; with them again, the chain as before. */
static void chains_off_gives_the_place_alone(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t chain[] = { PERF_CONTEXT_USER, a + 1, b + 4 };
	struct pk_record r = sample_with(chain, 3, PERF_RECORD_MISC_USER);
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	pk_resolver_set_chains(res, false);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
		assert_int_equal(s.nr_frames, 0);
		assert_int_equal(s.chain_id, 0);
		assert_string_equal(s.loc.sym, "resolver_fn_a");
		assert_int_equal(s.pid, getpid());
	}
	pk_resolver_set_chains(res, true);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_b");
	pk_resolver_free(res);
}

static void comm_and_process_follow_records(void **state)
{
	struct pk_resolver *res;
	struct pk_record r = { .type = PERF_RECORD_COMM };
	struct pk_record smp = { .size = sizeof(smp), .type = PERF_RECORD_SAMPLE,
				 .misc = PERF_RECORD_MISC_USER };
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	assert_int_equal(pk_resolver_new(NULL, &res), 0);
	r.comm = (struct pk_rec_comm){ .pid = 100, .tid = 100, .exec = true, .comm = "worker" };
	process(res, &r);
	r = (struct pk_record){ .type = PERF_RECORD_FORK };
	r.task = (struct pk_rec_task){ .pid = 100, .ppid = 100, .tid = 101, .ptid = 100 };
	process(res, &r);
	smp.sample.fields = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	smp.sample.pid = 100;
	smp.sample.tid = 101;
	smp.sample.ip = 0x1000;
	assert_int_equal(pk_resolver_resolve(res, &smp, &s), 0);
	assert_string_equal(s.comm, "worker");
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.tid, 101);
	assert_null(s.loc.dso);
	assert_null(s.loc.sym);
	assert_int_equal(s.nr_frames, 0);
	smp.sample.tid = 102;
	assert_int_equal(pk_resolver_resolve(res, &smp, &s), 0);
	assert_string_equal(s.comm, ":102");
	/* Only samples resolve, and only into a struct of this library's size. */
	assert_int_equal(pk_resolver_resolve(res, &r, &s), -EINVAL);
	s.size = sizeof(s) - 1;
	assert_int_equal(pk_resolver_resolve(res, &smp, &s), -EINVAL);
	pk_resolver_free(res);
	pk_resolver_free(NULL);
}

/* A forked process's mappings outlive its last thread's exit by a second
 * of the file's time (a system-wide recording samples the task on its way
 * out), then go: its addresses resolve to nothing, its DSO stays.  A
 * process whose main thread exits first keeps them while a thread lives;
 * a file without times keeps them; a pid used again starts again. */
static void exited_processes_let_their_maps_go(void **state)
{
	struct pk_resolver *res;
	struct pk_record r, smp = { .size = sizeof(smp), .type = PERF_RECORD_SAMPLE,
				    .misc = PERF_RECORD_MISC_USER };
	struct pk_resolved_sample s = { .size = sizeof(s) };
	const uint64_t sec = 1000000000ull;
	const struct pk_dso *dso;

	(void)state;
	assert_int_equal(pk_resolver_new(NULL, &res), 0);
	smp.sample.fields = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
#define TASK(type_, pid_, ppid_, tid_, ptid_, time_)                                                  \
	do {                                                                                          \
		r = (struct pk_record){ .type = (type_) };                                            \
		r.task = (struct pk_rec_task){ .pid = (pid_), .ppid = (ppid_), .tid = (tid_),         \
					       .ptid = (ptid_), .time = (time_) };                    \
		process(res, &r);                                                                     \
	} while (0)
#define MAP(pid_)                                                                                     \
	do {                                                                                          \
		r = (struct pk_record){ .type = PERF_RECORD_MMAP2 };                                  \
		r.mmap2 = (struct pk_rec_mmap2){ .pid = (pid_), .tid = (pid_), .addr = 0x400000,      \
						 .len = 0x1000, .filename = "/nonexistent/prog",      \
						 .prot = PROT_READ | PROT_EXEC };                     \
		process(res, &r);                                                                     \
	} while (0)
#define AT(pid_) (smp.sample.pid = smp.sample.tid = (pid_), smp.sample.ip = 0x400010,                 \
		  assert_int_equal(pk_resolver_resolve(res, &smp, &s), 0), s.loc.dso)
	/* 200: forked at 1 s, a thread at 2 s; the main thread exits at 3 s */
	TASK(PERF_RECORD_FORK, 200, 1, 200, 1, 1 * sec);
	MAP(200);
	TASK(PERF_RECORD_FORK, 200, 200, 201, 200, 2 * sec);
	assert_non_null(dso = AT(200));
	TASK(PERF_RECORD_EXIT, 200, 200, 200, 200, 3 * sec);
	TASK(PERF_RECORD_FORK, 300, 1, 300, 1, 5 * sec);	/* a thread lives: kept */
	assert_ptr_equal(AT(200), dso);
	TASK(PERF_RECORD_EXIT, 200, 200, 201, 201, 6 * sec);
	TASK(PERF_RECORD_FORK, 301, 1, 301, 1, 6 * sec + sec / 2);	/* in the grace: kept */
	assert_ptr_equal(AT(200), dso);
	TASK(PERF_RECORD_EXIT, 301, 1, 301, 301, 7 * sec + 1);	/* past it: gone */
	assert_null(AT(200));
	MAP(300);
	assert_non_null(AT(300));
	/* 300 exits, and 300 is forked again inside the grace: the new one's maps
	 * are its own and stay past the old one's second */
	TASK(PERF_RECORD_EXIT, 300, 1, 300, 300, 8 * sec);
	TASK(PERF_RECORD_FORK, 300, 1, 300, 1, 8 * sec + 1);
	MAP(300);
	TASK(PERF_RECORD_FORK, 302, 1, 302, 1, 10 * sec);
	assert_non_null(AT(300));
	/* without times: kept */
	TASK(PERF_RECORD_FORK, 400, 1, 400, 1, 0);
	MAP(400);
	TASK(PERF_RECORD_EXIT, 400, 1, 400, 400, 0);
	TASK(PERF_RECORD_FORK, 303, 1, 303, 1, 20 * sec);
	assert_non_null(AT(400));
#undef AT
#undef MAP
#undef TASK
	pk_resolver_free(res);
}

/* An LBR call stack's sample (branch_sample_type CALL_STACK): perf's
 * chain is the kernel part, then the first entry's target and every
 * entry's source; in caller order the kernel part resolves in user mode;
 * a chain without a user marker, and an empty stack, as perf 6.1 has them. */
static void lbr_call_stack_rebuilds_the_user_part(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t k = 0xffffffff81000010ull;
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, k, PERF_CONTEXT_USER, 0x10, 0x20 };
	const struct perf_branch_entry br[] = { { .from = b + 3, .to = a + 2 }, { .from = 0x30, .to = b } };
	struct pk_record r = sample_with(chain, 5, PERF_RECORD_MISC_KERNEL);
	struct pk_resolved_sample s = { .size = sizeof(s) };

	(void)state;
	r.sample.fields |= PERF_SAMPLE_BRANCH_STACK;
	r.sample.branch.nr = 2;
	r.sample.branch.entries = br;
	r.sample.branch.call_stack = true;
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 4);
	assert_int_equal(s.frames[0].ip, k);
	assert_int_equal(s.frames[0].cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(s.frames[1].ip, a + 2);
	assert_string_equal(s.frames[1].loc.sym, "resolver_fn_a");
	assert_int_equal(s.frames[2].ip, b + 3);
	assert_string_equal(s.frames[2].loc.sym, "resolver_fn_b");
	assert_int_equal(s.frames[3].ip, 0x30);
	assert_int_equal(s.frames[3].cpumode, PERF_RECORD_MISC_USER);
	/* Caller order: the same frames, the kernel's in user mode. */
	pk_resolver_set_caller_order(res, true);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 4);
	assert_int_equal(s.frames[0].ip, k);
	assert_int_equal(s.frames[0].cpumode, PERF_RECORD_MISC_USER);
	assert_int_equal(s.frames[1].ip, a + 2);
	assert_true(s.lbr);
	/* --max-stack in caller order: the user marker among the first 3
	 * entries, the LBR chain whole; not among the first 2, the plain
	 * chain's outermost 2 addresses, as perf walks it from its end. */
	pk_resolver_set_max_stack(res, 3);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 4);
	assert_true(s.lbr);
	pk_resolver_set_max_stack(res, 2);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_false(s.lbr);
	assert_int_equal(s.frames[0].ip, 0x10);
	assert_int_equal(s.frames[1].ip, 0x20);
	pk_resolver_set_caller_order(res, false);
	/* In callee order the plain chain is cut to max_stack addresses. */
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_false(s.lbr);
	pk_resolver_set_max_stack(res, 127);
	/* An empty stack: the kernel part alone. */
	r.sample.branch.nr = 0;
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 1);
	assert_int_equal(s.frames[0].ip, k);
	/* No user marker: the chain as recorded. */
	r.sample.branch.nr = 2;
	r.sample.callchain.nr = 2;
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 1);
	/* Without CALL_STACK the branch stack is not the chain. */
	r.sample.callchain.nr = 5;
	r.sample.branch.call_stack = false;
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_int_equal(s.nr_frames, 3);
	assert_int_equal(s.frames[2].ip, 0x20);
	pk_resolver_free(res);
}

/* An address asked for again gets the same answer until a record changes
 * its map; without symbols it gets its map and DSO alone. */
static void repeated_addresses_follow_new_maps(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a;
	const uint64_t chain[] = { PERF_CONTEXT_USER, a + 1 };
	struct pk_record r = sample_with(chain, 2, PERF_RECORD_MISC_USER);
	struct pk_record m = { .type = PERF_RECORD_MMAP2 };
	struct pk_resolved_sample s = { .size = sizeof(s) };
	const struct pk_dso *dso;

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
		assert_string_equal(s.loc.sym, "resolver_fn_a");
		assert_string_equal(s.frames[0].loc.sym, "resolver_fn_a");
	}
	dso = s.loc.dso;
	pk_resolver_set_symbols(res, false);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_ptr_equal(s.loc.dso, dso);
	assert_null(s.loc.sym);
	assert_null(s.frames[0].loc.sym);
	pk_resolver_set_symbols(res, true);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_string_equal(s.loc.sym, "resolver_fn_a");
	/* Anonymous memory mapped over the function: no DSO file, no symbol. */
	m.mmap2 = (struct pk_rec_mmap2){ .pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(),
					 .addr = a & ~0xfffull, .len = 0x2000, .filename = "//anon",
					 .prot = PROT_READ | PROT_EXEC };
	process(res, &m);
	assert_int_equal(pk_resolver_resolve(res, &r, &s), 0);
	assert_null(s.loc.sym);
	assert_non_null(s.loc.dso);
	assert_ptr_not_equal(s.loc.dso, dso);
	assert_null(s.frames[0].loc.sym);
	pk_resolver_free(res);
}

/* Chains asked for again and again, alternately (the resolver memoises
 * whole chains), keep their own frames and chain id; a map that moves
 * under a caller's frame changes that frame at once, and the id, and a
 * record that moves no map (FINISHED_ROUND) changes nothing. */
static void repeated_chains_keep_their_frames(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t one[] = { PERF_CONTEXT_USER, a + 1, b + 4 };
	const uint64_t two[] = { PERF_CONTEXT_USER, b + 4, a + 1, a + 2 };
	struct pk_record r1 = sample_with(one, 3, PERF_RECORD_MISC_USER);
	struct pk_record r2 = sample_with(two, 4, PERF_RECORD_MISC_USER);
	struct pk_record round = { .type = PK_DATA_RECORD_FINISHED_ROUND }, m = { .type = PERF_RECORD_MMAP2 };
	struct pk_resolved_sample s = { .size = sizeof(s) };
	uint64_t id1 = 0, id2 = 0;

	(void)state;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
		assert_int_equal(s.nr_frames, 2);
		assert_string_equal(s.frames[0].loc.sym, "resolver_fn_a");
		assert_string_equal(s.frames[1].loc.sym, "resolver_fn_b");
		/* One chain id per chain while nothing is remapped. */
		assert_int_not_equal(s.chain_id, 0);
		if (!id1)
			id1 = s.chain_id;
		assert_int_equal(s.chain_id, id1);
		assert_int_equal(pk_resolver_resolve(res, &r2, &s), 0);
		assert_int_not_equal(s.chain_id, 0);
		assert_int_not_equal(s.chain_id, id1);
		if (!id2)
			id2 = s.chain_id;
		assert_int_equal(s.chain_id, id2);
		assert_int_equal(s.nr_frames, 3);
		assert_string_equal(s.frames[0].loc.sym, "resolver_fn_b");
		assert_string_equal(s.frames[2].loc.sym, "resolver_fn_a");
		assert_int_equal(s.frames[2].loc.symoff, 2);
		process(res, &round);
	}
	/* Anonymous memory over resolver_fn_b, the caller in `one`. */
	m.mmap2 = (struct pk_rec_mmap2){ .pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(),
					 .addr = (b + 4) & ~0xfffull, .len = 0x1000, .filename = "//anon",
					 .prot = PROT_READ | PROT_EXEC };
	process(res, &m);
	assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
	assert_int_equal(s.nr_frames, 2);
	assert_null(s.frames[1].loc.sym);
	assert_true(s.chain_id != 0 && s.chain_id != id1 && s.chain_id != id2);	/* new frames */
	assert_int_equal(s.frames[1].ip, b + 4);
	pk_resolver_free(res);
}

/* A --call-graph dwarf sample of this process stopped at `ip`: SP and IP
 * (perf's x86_64 register bits 7 and 8) and a stack copy of 64 bytes. */
static struct pk_record dwarf_sample(const uint64_t *chain, size_t nr, uint64_t regs[2], uint64_t *stack,
				     uint64_t ip)
{
	struct pk_record r = sample_with(chain, nr, PERF_RECORD_MISC_USER);

	regs[0] = (uint64_t)(uintptr_t)stack;
	regs[1] = r.sample.ip = ip;
	r.sample.fields |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	r.sample.regs_user = (struct pk_sample_regs){ .abi = 2, .mask = 3ull << 7, .nr = 2, .regs = regs };
	r.sample.stack.data = stack;
	r.sample.stack.size = r.sample.stack.dyn_size = 64;
	return r;
}

/* The frames of s, copied: the resolver's are gone at its next resolve. */
static size_t keep_frames(const struct pk_resolved_sample *s, struct pk_frame *f, size_t max)
{
	assert_true(s->nr_frames <= max);
	memcpy(f, s->frames, s->nr_frames * sizeof(*f));
	return s->nr_frames;
}

static void assert_same_frames(const struct pk_resolved_sample *s, const struct pk_frame *f, size_t nr)
{
	assert_int_equal(s->nr_frames, nr);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(s->frames[i].ip, f[i].ip);
		assert_ptr_equal(s->frames[i].loc.sym, f[i].loc.sym);
		assert_ptr_equal(s->frames[i].loc.dso, f[i].loc.dso);
		assert_int_equal(s->frames[i].unwound, f[i].unwound);
		assert_ptr_equal(s->frames[i].inl, f[i].inl);
		assert_int_equal(s->frames[i].inlined, f[i].inlined);
	}
}

/* DWARF-unwound chains are memoised too, by their unwound addresses:
 * samples whose stacks unwind alike get one chain id and the same frames,
 * unwound ones marked so, not those of a plain chain of the same address;
 * a different unwinding, --no-inline, or a map moved under a frame gives
 * a new id, and a record that moves no map keeps it. */
static void dwarf_chains_keep_their_frames(void **state)
{
	struct pk_resolver *res = this_process();
	uint64_t a = (uint64_t)(uintptr_t)&resolver_fn_a, b = (uint64_t)(uintptr_t)&resolver_fn_b;
	const uint64_t user[] = { PERF_CONTEXT_USER }, plain[] = { PERF_CONTEXT_USER, a + 1 };
	uint64_t regs1[2], regs2[2], stack1[8] = { 0 }, stack2[8] = { 0 }, h;
	struct pk_record r1 = dwarf_sample(user, 1, regs1, stack1, a + 1);
	struct pk_record r2 = dwarf_sample(user, 1, regs2, stack2, b + 1);
	struct pk_record p = sample_with(plain, 2, PERF_RECORD_MISC_USER);
	struct pk_record round = { .type = PK_DATA_RECORD_FINISHED_ROUND }, m = { .type = PERF_RECORD_MMAP2 };
	struct pk_resolved_sample s = { .size = sizeof(s) };
	struct pk_frame f1[16];
	uint64_t id1, id2;
	size_t n1;

	(void)state;
	assert_false(pk_resolver_chain_key(&r1.sample, &h));	/* not by its recorded chain alone */
	assert_true(pk_resolver_chain_key(&p.sample, &h));
	assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
	assert_true(s.nr_frames >= 1);
	assert_true(s.frames[0].unwound);
	assert_int_equal(s.frames[0].ip, a + 1);
	assert_string_equal(s.frames[0].loc.sym, "resolver_fn_a");
	assert_int_not_equal(s.chain_id, 0);
	id1 = s.chain_id;
	n1 = keep_frames(&s, f1, 16);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pk_resolver_resolve(res, &r2, &s), 0);
		assert_string_equal(s.frames[0].loc.sym, "resolver_fn_b");
		assert_true(s.chain_id != 0 && s.chain_id != id1);
		id2 = s.chain_id;
		/* other bytes in the copy where the unwinding reads none: the
		 * same addresses unwound, the same chain */
		stack1[7] = (uint64_t)i + 1;
		assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
		assert_int_equal(s.chain_id, id1);
		assert_same_frames(&s, f1, n1);
		/* the plain chain of the same address: its frame not unwound */
		assert_int_equal(pk_resolver_resolve(res, &p, &s), 0);
		assert_true(s.chain_id != 0 && s.chain_id != id1 && s.chain_id != id2);
		assert_false(s.frames[0].unwound);
		process(res, &round);
	}
	/* --no-inline: unwound frames without their functions' lines */
	pk_resolver_set_inline(res, false);
	assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
	assert_true(s.chain_id != 0 && s.chain_id != id1);
	assert_null(s.frames[0].inl);
	id2 = s.chain_id;
	pk_resolver_set_inline(res, true);
	assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
	assert_true(s.chain_id != 0 && s.chain_id != id1 && s.chain_id != id2);
	assert_same_frames(&s, f1, n1);
	id1 = s.chain_id;
	/* Anonymous memory over resolver_fn_a: the unwound frame is no
	 * longer in it. */
	m.mmap2 = (struct pk_rec_mmap2){ .pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(),
					 .addr = a & ~0xfffull, .len = 0x2000, .filename = "//anon",
					 .prot = PROT_READ | PROT_EXEC };
	process(res, &m);
	assert_int_equal(pk_resolver_resolve(res, &r1, &s), 0);
	assert_true(s.chain_id != 0 && s.chain_id != id1);
	assert_true(s.frames[0].unwound);
	assert_null(s.frames[0].loc.sym);
	pk_resolver_free(res);
}

/* ---- the oracle ------------------------------------------------------------- */

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One frame as perf script prints it: "\t    addr sym+0x.. (dso)". */
struct perf_line {
	uint64_t addr;
	char sym[1024], dso[1024];
};

static void parse_frame(char *line, struct perf_line *l)
{
	char *p = line + strspn(line, " \t"), *open, *close;

	l->addr = strtoull(p, &p, 16);
	p += strspn(p, " ");
	open = strrchr(p, '(');
	close = strrchr(p, ')');
	assert_true(open && close && close > open);
	snprintf(l->dso, sizeof(l->dso), "%.*s", (int)(close - open - 1), open + 1);
	while (open > p && open[-1] == ' ')
		open--;
	snprintf(l->sym, sizeof(l->sym), "%.*s", (int)(open - p), p);
	p = strstr(l->sym, "+0x");
	if (p)
		*p = '\0';
}

struct tally {
	size_t samples, frames, differ, plt, inlined, labels;
};

static void compare_frame(const struct perf_line *l, const struct pk_frame *fr, struct tally *t)
{
	const char *sym = fr->loc.sym ? fr->loc.sym : "[unknown]";
	const char *dso = fr->loc.dso ? fr->loc.dso->name : "[unknown]";

	t->frames++;
	/* perf's inline frames: "func (inlined)"; the function that holds
	 * the address is printed as the frame itself, even when the DWARF
	 * inlines a function into a copy of itself (ld.so's call_init). */
	if (fr->inlined) {
		t->inlined++;
		sym = fr->inl->func;
		dso = "inlined";
	}
	if (!strcmp(l->sym, sym) && !strcmp(l->dso, dso))
		return;
	/* perf makes "name@plt" from .rela.plt, pk_maps does not yet. */
	if (strstr(l->sym, "@plt") && !strcmp(l->dso, dso)) {
		t->plt++;
		return;
	}
	/* perf also names code by zero-size NOTYPE labels (ld.so's _start,
	 * _dl_start_user), which pk_maps does not load yet: counted, shown. */
	if (!fr->loc.sym && !strcmp(l->dso, dso)) {
		if (t->labels++ < 3)
			print_message("# perf's label %s (%s) unresolved here\n", l->sym, l->dso);
		return;
	}
	if (t->differ++ < 10)
		print_message("# sample %zu: perf %s (%s), ours %s (%s)\n", t->samples, l->sym, l->dso,
			      sym, dso);
}

/* Compare one sample's frames with perf's next block of lines. */
static void compare_sample(FILE *f, const struct pk_resolved_sample *s, struct tally *t)
{
	static struct perf_line lines[1024];
	char line[4096];
	size_t n = 0, i;

	/* perf prints each sample's chain between two empty lines. */
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "\n");
	while (fgets(line, sizeof(line), f) && line[0] != '\n') {
		assert_true(n < 1024);
		parse_frame(line, &lines[n++]);
	}
	for (i = 0; i < n && i < s->nr_frames; i++)
		compare_frame(&lines[i], &s->frames[i], t);
	if (n != s->nr_frames) {
		print_message("# sample %zu: perf printed %zu frames, ours %zu\n", t->samples, n,
			      (size_t)s->nr_frames);
		for (size_t k = 0; k < n && k < 12; k++)
			print_message("# perf: %llx %s (%s)\n", (unsigned long long)lines[k].addr,
				      lines[k].sym, lines[k].dso);
		for (size_t k = 0; k < s->nr_frames && k < 12; k++)
			print_message("# ours: %llx %s (%s)\n", (unsigned long long)s->frames[k].ip,
				      s->frames[k].loc.sym ? s->frames[k].loc.sym : "[unknown]",
				      s->frames[k].loc.dso ? s->frames[k].loc.dso->name : "[unknown]");
	}
	assert_int_equal(n, s->nr_frames);
	t->samples++;
}

/* Record `args` with perf's options `opts` (its rate and call graph) and
 * compare each sample's frames with perf script's. */
static void oracle(const char *opts, const char *args)
{
	char dir[4096], cmd[8192];
	const char *workload = getenv("PERFKIT_WORKLOAD");
	const struct perf_event_header *h;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct tally t = { 0 };
	FILE *f;
	int rc;

	if (geteuid() != 0 || !workload || run("perf version >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "resolver-oracle"));
	snprintf(cmd, sizeof(cmd), "perf record -q %s -o %s/perf.data -- %s %s >/dev/null 2>&1",
		 opts, dir, workload, args);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "perf script -i %s/perf.data -F ip,sym,dso 2>/dev/null", dir);
	assert_non_null(f = popen(cmd, "r"));
	snprintf(cmd, sizeof(cmd), "%s/perf.data", dir);
	assert_int_equal(pk_data_reader_open(cmd, &r), 0);
	assert_int_equal(pk_resolver_new(r, &res), 0);
	while ((rc = pk_data_reader_next(r, &h)) == 1) {
		struct pk_record rec = { .size = sizeof(rec) };
		struct pk_resolved_sample s = { .size = sizeof(s) };

		if (pk_record_decode(h, pk_data_reader_attr_of(r, h), &rec) != 0)
			continue;
		if (rec.type != PERF_RECORD_SAMPLE) {
			assert_int_equal(pk_resolver_process(res, &rec), 0);
			continue;
		}
		assert_int_equal(pk_resolver_resolve(res, &rec, &s), 0);
		compare_sample(f, &s, &t);
	}
	assert_int_equal(rc, 0);
	pclose(f);
	pk_resolver_free(res);
	pk_data_reader_free(r);
	assert_int_equal(tmp_rmtree(dir), 0);
	print_message("# %s %s: %zu samples, %zu frames, %zu differ, %zu in PLT entries, %zu inlined, "
		      "%zu at labels\n", opts, args,
		      t.samples, t.frames, t.differ, t.plt, t.inlined, t.labels);
	assert_true(t.labels <= t.samples / 100 + 2);
	assert_true(t.samples > 50);
	assert_true(t.frames > t.samples);
	assert_int_equal(t.differ, 0);
}

static void frame_pointers_as_perf(void **state)
{
	(void)state;
	oracle("-F 4000 -g", "hot 200");
	/* a child runs about 100 us: at -F 4000 (250 us) only the slower
	 * ones are sampled (22 to 400 samples, by machine and load) */
	oracle("-g -c 50000", "children 500");
	/* A corrupt user stack: 127 frames of address 0 in every sample. */
	oracle("-F 4000 -g", "selfframe 600");
}

static void dwarf_as_perf(void **state)
{
	(void)state;
	oracle("-F 4000 --call-graph dwarf", "hot 200");
	oracle("--call-graph dwarf -c 50000", "children 500");
}

/* The chain memo keeps four keys of one set whatever their hashes (so the
 * three chains of dwarf_chains_keep_their_frames never put each other out,
 * wherever this binary is loaded); a fifth puts out the one kept longest,
 * and a new generation finds none of them. */
static void chain_memo_keeps_a_full_set(void **state)
{
	enum { N = 5 };
	struct pk__chain_memo *m;
	uint64_t ips[N], id[N];
	struct pk__chain_key k[N];
	struct pk_frame f = { .ip = 1 };
	const struct pk_frame *got = NULL;
	size_t nr = 0;
	uint64_t gid = 0;

	(void)state;
	assert_int_equal(pk__chain_memo_new(&m), 0);
	for (size_t i = 0; i < N; i++) {
		ips[i] = 0x1000 + i;
		/* one set: the hashes differ only below the bits that pick it */
		k[i] = (struct pk__chain_key){ .pid = 1, .chain = &ips[i], .nr_chain = 1, .hash = i };
		f.ip = ips[i];
		assert_int_not_equal(id[i] = pk__chain_memo_put(m, &k[i], &f, 1), 0);
	}
	for (size_t i = 1; i < N; i++) {
		assert_true(pk__chain_memo_get(m, &k[i], &got, &nr, &gid));
		assert_int_equal(gid, id[i]);
		assert_int_equal(nr, 1);
		assert_int_equal(got[0].ip, ips[i]);
	}
	assert_false(pk__chain_memo_get(m, &k[0], &got, &nr, &gid));	/* the first put, put out */
	pk__chain_memo_forget(m);
	for (size_t i = 0; i < N; i++)
		assert_false(pk__chain_memo_get(m, &k[i], &got, &nr, &gid));
	assert_true(pk__chain_memo_put(m, &k[0], &f, 1) > id[N - 1]);
	assert_true(pk__chain_memo_get(m, &k[0], &got, &nr, &gid));
	pk__chain_memo_free(m);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(markers_switch_modes_and_are_left_out),
		cmocka_unit_test(max_stack_cuts_and_guest_marker_discards),
		cmocka_unit_test(max_stack_in_caller_order_keeps_the_outermost),
		cmocka_unit_test(chains_off_gives_the_place_alone),
		cmocka_unit_test(comm_and_process_follow_records),
		cmocka_unit_test(exited_processes_let_their_maps_go),
		cmocka_unit_test(repeated_addresses_follow_new_maps),
		cmocka_unit_test(repeated_chains_keep_their_frames),
		cmocka_unit_test(dwarf_chains_keep_their_frames),
		cmocka_unit_test(chain_memo_keeps_a_full_set),
		cmocka_unit_test(lbr_call_stack_rebuilds_the_user_part),
	};
	const struct CMUnitTest perf[] = {
		cmocka_unit_test(frame_pointers_as_perf),
		cmocka_unit_test(dwarf_as_perf),
	};

	if (argc > 1 && !strcmp(argv[1], "oracle"))
		return cmocka_run_group_tests(perf, NULL, NULL);
	return cmocka_run_group_tests(unit, NULL, NULL);
}
