/* SPDX-License-Identifier: MIT */
/*
 * test_stack_health.c - the stack-health count on synthetic resolved
 * samples: a full --call-graph dwarf copy that stops short of a root is
 * cut and the size to try is suggested (capped at perf's 65528), a copy
 * that reaches _start (or ld.so's _dl_start_user, or crtbegin.o's
 * functions, which have no unwind tables) is not, one that does not fill
 * and stops blames the file's unwind tables; frame-pointer chains that
 * end after a frame in a file or go into junk blame that file, a chain
 * that reaches __libc_start_main does not; the stack limit; DSOs without
 * symbols and with another build-id counted once per sample, most first;
 * repeats of a chain (the resolver's chain_id) count as without ids, and
 * repeats added together (pk_stack_health_add_n) as one at a time.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

/* Named after libc, so the order by samples is not the order by name. */
static struct pk_dso exe = { .name = "/x/app", .symfile = "/x/app" };
static struct pk_dso libc = { .name = "/usr/lib/x86_64-linux-gnu/libc.so.6", .symfile = "libc.so.6" };
static struct pk_dso stripped = { .name = "/opt/app/lib/libz.so" };
static struct pk_dso changed = { .name = "/opt/app/bin/old", .build_id_mismatch = true };
static struct pk_dso vdso = { .name = "[vdso]" };
static struct pk_dso ld = { .name = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" };

static const struct perf_event_attr fp_attr = {
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
};
static const struct perf_event_attr dwarf_attr = {
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		       PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 512,
};

/* A user frame in `d` at symbol `sym` (NULL: unresolved). */
static struct pk_frame user(struct pk_dso *d, const char *sym)
{
	return (struct pk_frame){ .ip = 0x1000, .cpumode = PERF_RECORD_MISC_USER,
				  .loc = { .size = sizeof(struct pk_location), .dso = d, .sym = sym } };
}

/* A sample of frames f[0..nr) with the resolver's chain_id `id`, its ip
 * at `ip` (NULL: at f[0]). */
static void feed_id_n(struct pk_stack_health *h, const struct perf_event_attr *attr, const struct pk_frame *f,
		      size_t nr, uint64_t id, const struct pk_frame *ip, uint64_t n)
{
	struct pk_sample smp = { .fields = attr->sample_type };
	struct pk_resolved_sample rs = { .size = sizeof(rs), .comm = "app", .pid = 1, .tid = 1,
					 .cpumode = PERF_RECORD_MISC_USER, .frames = f, .nr_frames = nr,
					 .chain_id = id };

	rs.loc = ip ? ip->loc : f[0].loc;
	if (n == 1)
		assert_int_equal(pk_stack_health_add(h, attr, &smp, &rs), 0);
	else
		assert_int_equal(pk_stack_health_add_n(h, attr, &smp, &rs, n), 0);
}

static void feed_id(struct pk_stack_health *h, const struct perf_event_attr *attr, const struct pk_frame *f,
		    size_t nr, uint64_t id, const struct pk_frame *ip)
{
	feed_id_n(h, attr, f, nr, id, ip, 1);
}

static void feed(struct pk_stack_health *h, const struct perf_event_attr *attr, uint64_t size,
		 uint64_t dyn_size, const struct pk_frame *f, size_t nr)
{
	struct pk_sample smp = { .fields = attr->sample_type };
	struct pk_resolved_sample rs = { .size = sizeof(rs), .comm = "app", .pid = 1, .tid = 1,
					 .cpumode = PERF_RECORD_MISC_USER, .frames = f, .nr_frames = nr };

	smp.stack.size = size;
	smp.stack.dyn_size = dyn_size;
	if (nr)
		rs.loc = f[0].loc;
	assert_int_equal(pk_stack_health_add(h, attr, &smp, &rs), 0);
}

static struct pk_stack_health_figures figures(struct pk_stack_health *h)
{
	struct pk_stack_health_figures s = { .size = sizeof(s) };

	assert_int_equal(pk_stack_health_get(h, &s), 0);
	return s;
}

static void dwarf_copy_too_small(void **state)
{
	struct pk_stack_health *h;
	const struct pk_frame cut[] = { user(&exe, "recurse"), user(&exe, "recurse") };
	const struct pk_frame whole[] = { user(&exe, "inner"), user(&exe, "main"),
					  user(&libc, "__libc_start_main@@GLIBC_2.34"), user(&exe, "_start") };
	const struct pk_frame ctor[] = { user(&libc, "__init_misc"), user(&ld, "_dl_init"),
					 user(&ld, "_dl_start_user") };
	const struct pk_frame dtor[] = { user(&exe, "__do_global_dtors_aux") };
	const struct pk_frame jit[] = { user(&vdso, NULL) };
	struct pk_stack_health_dso d;
	struct pk_stack_health_figures s;

	(void)state;
	assert_int_equal(pk_stack_health_new(&h), 0);
	feed(h, &dwarf_attr, 512, 512, cut, 2);		/* full, not at a root: cut */
	feed(h, &dwarf_attr, 512, 512, whole, 4);	/* full but reached _start */
	feed(h, &dwarf_attr, 512, 512, ctor, 3);	/* full but reached ld.so's constructor caller */
	feed(h, &dwarf_attr, 512, 300, dtor, 1);	/* crtbegin.o's, which has no unwind table */
	feed(h, &dwarf_attr, 512, 300, cut, 2);		/* the stack fit: no unwind table in exe */
	s = figures(h);
	assert_int_equal(s.nr_samples, 5);
	assert_int_equal(s.nr_dwarf, 5);
	assert_int_equal(s.nr_dwarf_cut, 1);
	assert_int_equal(s.dwarf_size, 512);
	assert_int_equal(s.dwarf_suggest, 1024);
	assert_int_equal(s.nr_fp_cut, 0);	/* dwarf samples are never blamed on frame pointers */
	assert_int_equal(s.nr_unwind_cut, 1);
	assert_int_equal(s.nr_dsos, 1);
	assert_int_equal(pk_stack_health_dso(h, 0, &d), 0);
	assert_ptr_equal(d.dso, &exe);
	assert_int_equal(d.problems, PK_STACK_HEALTH_NO_UNWIND_TABLE);
	assert_int_equal(d.nr_unwind_cut, 1);
	/* A copy smaller than asked, all valid, is the whole stack: the
	 * kernel stopped at its end, so the size is not to blame. */
	feed(h, &dwarf_attr, 304, 304, cut, 2);
	assert_int_equal(figures(h).nr_dwarf_cut, 1);
	assert_int_equal(figures(h).nr_unwind_cut, 2);
	/* Stopped in memory of no file: nothing to rebuild, nothing blamed. */
	feed(h, &dwarf_attr, 512, 100, jit, 1);
	assert_int_equal(figures(h).nr_unwind_cut, 2);
	/* At 65528 bytes the suggestion stays at perf's most. */
	feed(h, &dwarf_attr, 65528, 65528, cut, 2);
	assert_int_equal(figures(h).dwarf_suggest, PK_STACK_HEALTH_MAX_DWARF_SIZE);
	pk_stack_health_free(h);
}

static void frame_pointers_missing(void **state)
{
	struct pk_stack_health *h;
	struct pk_frame junk[] = { user(&libc, "write"), user(NULL, NULL) };
	const struct pk_frame one[] = { user(&exe, "hot_a") };
	const struct pk_frame whole[] = { user(&exe, "hot_a"), user(&exe, "main"),
					  user(&libc, "__libc_start_call_main"), user(&libc, "__libc_start_main") };
	const struct pk_frame in_vdso[] = { user(&vdso, NULL) };
	struct pk_stack_health_dso d;
	struct pk_stack_health_figures s;

	(void)state;
	junk[1].ip = 0x4645445f43505247;
	assert_int_equal(pk_stack_health_new(&h), 0);
	feed(h, &fp_attr, 0, 0, one, 1);
	feed(h, &fp_attr, 0, 0, one, 1);
	feed(h, &fp_attr, 0, 0, junk, 2);
	feed(h, &fp_attr, 0, 0, whole, 4);
	feed(h, &fp_attr, 0, 0, in_vdso, 1);	/* not a file: nothing to rebuild */
	s = figures(h);
	assert_int_equal(s.nr_fp_cut, 3);
	assert_int_equal(s.nr_dsos, 2);
	assert_int_equal(pk_stack_health_dso(h, 0, &d), 0);
	assert_ptr_equal(d.dso, &exe);
	assert_int_equal(d.problems, PK_STACK_HEALTH_NO_FRAME_POINTER);
	assert_int_equal(d.nr_fp_cut, 2);
	assert_int_equal(d.nr_samples, 0);	/* its symbols resolved */
	assert_int_equal(pk_stack_health_dso(h, 1, &d), 0);
	assert_ptr_equal(d.dso, &libc);	/* the frame before the junk lost the chain */
	assert_int_equal(d.nr_fp_cut, 1);
	assert_int_equal(pk_stack_health_dso(h, 2, &d), -ERANGE);
	pk_stack_health_free(h);
}

static void stack_limit(void **state)
{
	struct pk_stack_health *h;
	const struct pk_frame three[] = { user(&exe, "c"), user(&exe, "b"), user(&exe, "a") };

	(void)state;
	assert_int_equal(pk_stack_health_new(&h), 0);
	assert_int_equal(figures(h).max_stack, 127);
	pk_stack_health_set_max_stack(h, 3);
	feed(h, &fp_attr, 0, 0, three, 3);
	feed(h, &fp_attr, 0, 0, three, 2);
	assert_int_equal(figures(h).nr_max_stack, 1);
	assert_int_equal(figures(h).max_stack, 3);
	pk_stack_health_set_max_stack(h, 0);
	assert_int_equal(figures(h).max_stack, 1);
	pk_stack_health_free(h);
}

static void dsos_without_symbols(void **state)
{
	struct pk_stack_health *h;
	const struct pk_frame a[] = { user(&stripped, NULL), user(&stripped, NULL), user(&exe, "main"),
				      user(&libc, "__libc_start_main") };
	const struct pk_frame b[] = { user(&changed, NULL), user(&stripped, NULL), user(&libc, "__libc_start_main") };
	struct pk_stack_health_dso d;
	struct pk_stack_health_figures s;

	(void)state;
	assert_int_equal(pk_stack_health_new(&h), 0);
	feed(h, &fp_attr, 0, 0, a, 4);
	feed(h, &fp_attr, 0, 0, b, 3);
	feed(h, &fp_attr, 0, 0, a + 2, 2);	/* all resolved */
	s = figures(h);
	assert_int_equal(s.nr_samples, 3);
	assert_int_equal(s.nr_fp_cut, 0);
	assert_int_equal(s.nr_dso_samples, 2);
	assert_int_equal(s.nr_dsos, 2);
	assert_int_equal(pk_stack_health_dso(h, 0, &d), 0);
	assert_ptr_equal(d.dso, &stripped);	/* twice in one sample counts once */
	assert_int_equal(d.nr_samples, 2);
	assert_int_equal(d.problems, PK_STACK_HEALTH_NO_SYMBOLS);
	assert_int_equal(pk_stack_health_dso(h, 1, &d), 0);
	assert_ptr_equal(d.dso, &changed);
	assert_int_equal(d.nr_samples, 1);
	assert_int_equal(d.problems, PK_STACK_HEALTH_BUILD_ID);
	pk_stack_health_free(h);
}

/* Samples that repeat a chain (the resolver's chain_id) count as the same
 * samples without ids: a DSO once per sample, the frame-pointer cut, the
 * ip's own location looked at each time; and so do the repeats of each
 * sample added at the end, together (pk_stack_health_add_n). */
static void repeated_chains(void **state)
{
	const struct pk_frame a[] = { user(&stripped, NULL), user(&changed, NULL), user(&stripped, NULL) };
	const struct pk_frame b[] = { user(&exe, "hot_a") };
	const struct pk_frame c[] = { user(&exe, "hot_a"), user(&exe, "main"), user(&libc, "__libc_start_main") };
	const struct pk_frame ip_stripped = user(&stripped, NULL), ip_libc = user(&libc, NULL);
	static const unsigned char order[] = { 0, 0, 0, 1, 1, 0, 2, 2, 2, 1, 0, 0 };
	const struct pk_frame *chains[] = { a, b, c };
	const size_t nr[] = { 3, 1, 3 };
	const struct pk_frame *ips[] = { &ip_stripped, &ip_libc, NULL };
	struct pk_stack_health *h[3];
	struct pk_stack_health_figures s[3];
	struct pk_stack_health_dso d[3];
	uint64_t later[3][3] = { { 0 } };	/* batched: by chain and ip, the repeats */

	(void)state;
	for (int k = 0; k < 3; k++) {
		assert_int_equal(pk_stack_health_new(&h[k]), 0);
		for (size_t i = 0; i < sizeof(order); i++) {
			/* ids: one per chain, as the resolver gives a repeat */
			if (k == 2 && later[order[i]][i % 3]++)
				continue;
			feed_id(h[k], &fp_attr, chains[order[i]], nr[order[i]], k ? 10u + order[i] : 0, ips[i % 3]);
		}
		for (size_t ch = 0; k == 2 && ch < 3; ch++)
			for (size_t j = 0; j < 3; j++)
				if (later[ch][j] > 1)
					feed_id_n(h[k], &fp_attr, chains[ch], nr[ch], 10u + ch, ips[j], later[ch][j] - 1);
		s[k] = figures(h[k]);
	}
	assert_int_equal(s[2].nr_samples, s[0].nr_samples);
	assert_int_equal(s[2].nr_chains, s[0].nr_chains);
	assert_int_equal(s[2].nr_fp_cut, s[0].nr_fp_cut);
	assert_int_equal(s[2].nr_max_stack, s[0].nr_max_stack);
	assert_int_equal(s[2].nr_dso_samples, s[0].nr_dso_samples);
	assert_int_equal(s[2].nr_dsos, s[0].nr_dsos);
	assert_int_equal(s[1].nr_samples, s[0].nr_samples);
	assert_int_equal(s[1].nr_fp_cut, s[0].nr_fp_cut);
	assert_int_equal(s[0].nr_fp_cut, 3);	/* b: one frame in a file, short of a root */
	assert_int_equal(s[1].nr_dso_samples, s[0].nr_dso_samples);
	assert_int_equal(s[1].nr_dsos, s[0].nr_dsos);
	assert_int_equal(s[0].nr_dsos, 4);
	for (size_t i = 0; i < s[0].nr_dsos; i++) {
		assert_int_equal(pk_stack_health_dso(h[0], i, &d[0]), 0);
		assert_int_equal(pk_stack_health_dso(h[1], i, &d[1]), 0);
		assert_int_equal(pk_stack_health_dso(h[2], i, &d[2]), 0);
		assert_ptr_equal(d[2].dso, d[0].dso);
		assert_int_equal(d[2].problems, d[0].problems);
		assert_int_equal(d[2].nr_samples, d[0].nr_samples);
		assert_int_equal(d[2].nr_fp_cut, d[0].nr_fp_cut);
		assert_ptr_equal(d[1].dso, d[0].dso);
		assert_int_equal(d[1].problems, d[0].problems);
		assert_int_equal(d[1].nr_samples, d[0].nr_samples);
		assert_int_equal(d[1].nr_fp_cut, d[0].nr_fp_cut);
	}
	assert_int_equal(pk_stack_health_dso(h[0], 0, &d[0]), 0);
	assert_ptr_equal(d[0].dso, &stripped);
	assert_int_equal(d[0].nr_samples, 9);	/* a's six samples, three others with their ip there */
	pk_stack_health_free(h[0]);
	pk_stack_health_free(h[1]);
	pk_stack_health_free(h[2]);
}

static void errors(void **state)
{
	struct pk_stack_health *h;
	struct pk_stack_health_figures s = { .size = sizeof(s) - 1 };

	(void)state;
	pk_stack_health_free(NULL);
	assert_int_equal(pk_stack_health_new(&h), 0);
	assert_int_equal(pk_stack_health_get(h, &s), -EINVAL);
	pk_stack_health_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dwarf_copy_too_small),
		cmocka_unit_test(frame_pointers_missing),
		cmocka_unit_test(stack_limit),
		cmocka_unit_test(dsos_without_symbols),
		cmocka_unit_test(repeated_chains),
		cmocka_unit_test(errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
