/* SPDX-License-Identifier: MIT */
/*
 * test_hist_keys_mem.c - the histogram's memory keys
 * (analysis/hist-keys-mem.c): each data_src key groups by its own bits of
 * the word alone (mem by mem_lvl, not the level number it also shows) and
 * orders ties ascending; symbol_daddr is one entry per data address,
 * dso_daddr orders names descending as perf's unswapped dso compare;
 * dcacheline tells processes apart only in private anonymous memory and
 * orders objects by their device and inode.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static struct pk_hist_sample sample(uint64_t period)
{
	return (struct pk_hist_sample){ .size = sizeof(struct pk_hist_sample), .comm = "w", .pid = 1, .tid = 1,
					.level = '.', .period = period, .socket = -1 };
}

static uint64_t word(uint64_t lvl, uint64_t snoop, uint64_t lvlnum)
{
	return lvl << PERF_MEM_LVL_SHIFT | snoop << PERF_MEM_SNOOP_SHIFT | lvlnum << PERF_MEM_LVLNUM_SHIFT;
}

static void data_src_keys_take_their_bits(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_MEM_LVL };
	struct pk_hist_sample s = sample(10);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	s.data_src = word(PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, 2, 0);
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.data_src = word(PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, 4, 3);	/* snoop, level number: not mem's */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.data_src = word(PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, 2, 0);
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.data_src = word(PERF_MEM_LVL_NA, 2, 0);
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 3);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_int_equal(pk_hist_get(h, 0)->nr_samples, 2);
	/* the first sample's word is the entry's */
	assert_int_equal(pk_hist_get(h, 0)->s.data_src, word(PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, 2, 0));
	/* ties: mem_lvl ascending */
	assert_int_equal(pk_hist_get(h, 1)->s.data_src, word(PERF_MEM_LVL_NA, 2, 0));
	assert_int_equal(pk_hist_get(h, 2)->s.data_src, word(PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, 2, 0));
	pk_hist_free(h);
}

static void daddr_keys(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_MEM_DADDR_DSO, PK_HIST_KEY_MEM_DADDR_SYM };
	static const char *const libc = "libc.so.6", *const anon = "anon";
	struct pk_hist_sample s = sample(5);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	s.daddr_dso = anon, s.daddr = 0x1000, s.daddr_sym = NULL;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr = 0x1008;	/* another address: its own entry, though in no symbol */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr_dso = libc, s.daddr = 0x2000, s.daddr_sym = "x";
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr_dso = NULL, s.daddr = 0x3000, s.daddr_sym = NULL;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr_dso = libc, s.daddr = 0x2000, s.data_src = 7;	/* no data_src key: the same entry */
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 4);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_ptr_equal(pk_hist_get(h, 0)->s.daddr_dso, libc);
	/* ties: no object first, then names descending, then addresses ascending */
	assert_null(pk_hist_get(h, 1)->s.daddr_dso);
	assert_int_equal(pk_hist_get(h, 2)->s.daddr, 0x1000);
	assert_int_equal(pk_hist_get(h, 3)->s.daddr, 0x1008);
	pk_hist_free(h);
}

static void dcacheline_by_id_and_process(void **state)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_MEM_DCACHELINE };
	struct pk_dso file_a = { .name = "/a", .maj = 254, .ino = 9 }, file_b = { .name = "/b", .maj = 254, .ino = 3 };
	struct pk_dso heap = { .name = "[heap]" };
	struct pk_hist_sample s = sample(1);
	struct pk_hist *h;

	(void)state;
	assert_int_equal(pk_hist_new(keys, 1, &h), 0);
	s.daddr_obj = &heap, s.daddr_dso = "[heap]", s.daddr_anon = true, s.dcacheline = 0x40;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.pid = 2;	/* another process's line of anonymous memory */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr_obj = &file_a, s.daddr_dso = "a", s.daddr_anon = false, s.pid = 1, s.dcacheline = 0x80;
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.pid = 2;	/* a file's line is one whatever the process */
	assert_int_equal(pk_hist_add(h, &s), 0);
	s.daddr_obj = &file_b, s.daddr_dso = "b", s.dcacheline = 0xc0;
	assert_int_equal(pk_hist_add(h, &s), 0);
	assert_int_equal(pk_hist_nr(h), 4);
	assert_int_equal(pk_hist_sort(h), 0);
	assert_ptr_equal(pk_hist_get(h, 0)->s.daddr_obj, &file_a);
	/* ties: by id (heap's 0 first, then inode 3), then process */
	assert_ptr_equal(pk_hist_get(h, 1)->s.daddr_obj, &heap);
	assert_int_equal(pk_hist_get(h, 1)->s.pid, 1);
	assert_int_equal(pk_hist_get(h, 2)->s.pid, 2);
	assert_ptr_equal(pk_hist_get(h, 3)->s.daddr_obj, &file_b);
	pk_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(data_src_keys_take_their_bits),
		cmocka_unit_test(daddr_keys),
		cmocka_unit_test(dcacheline_by_id_and_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
