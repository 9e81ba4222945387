/* SPDX-License-Identifier: MIT */
/*
 * test_features_bpf.c - the BPF programs the writer keeps for perf.data's
 * BPF_PROG_INFO and BPF_BTF (src/lib/data/features-bpf.c), without loading
 * any: a PROG_LOAD record naming a program the kernel no longer has leaves
 * both payloads as they were (perf leaves it out too), records that are not
 * PROG_LOADs or are not whole records add nothing and are never read past
 * their length, no state at all gives perf's count of 0, a set carried to
 * the next file of --switch-output (pk__data_bpf_merge) describes the same
 * programs and BTFs, each once however often it is carried, and running
 * out of memory taking the snapshot fails with a record saying so.  Whatever
 * programs happen to be loaded on the machine, the comparisons hold.
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
#include "data/data.h"
#include "sys/sys.h"

struct buf {
	unsigned char *p;
	size_t len;
};

static void put(void *b, const void *p, size_t len)
{
	struct buf *o = b;

	o->p = realloc(o->p, o->len + len + 1);
	assert_non_null(o->p);
	memcpy(o->p + o->len, p, len);
	o->len += len;
}

static struct buf payload(const struct pk__data_bpf *s, int btf)
{
	struct buf b = { NULL, 0 };

	pk__data_bpf_feature(s, btf, put, &b);
	return b;
}

static void assert_same(struct buf a, struct buf b)
{
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.p, b.p, a.len);
	free(a.p);
	free(b.p);
}

/* A PERF_RECORD_BPF_EVENT as the kernel writes it, sample_id trailer and all. */
struct bpf_event {
	struct perf_event_header h;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
	uint64_t trailer[2];
};

static struct bpf_event bpf_event(uint16_t type, uint32_t id)
{
	struct bpf_event e = { { PERF_RECORD_BPF_EVENT, 0, sizeof(e) }, type, 0, id, { 0 }, { 0 } };

	return e;
}

/* No program has this id: ids count up from 1 and are never reused. */
#define GONE_ID 0xfffffff0u

static void test_gone_program_left_out(void **state)
{
	struct pk__data_bpf *s = NULL;
	struct bpf_event e = bpf_event(PERF_BPF_EVENT_PROG_LOAD, GONE_ID);
	struct buf infos, btfs;

	(void)state;
	assert_int_equal(pk__data_bpf_snapshot(&s), 0);
	infos = payload(s, 0);
	btfs = payload(s, 1);
	assert_int_equal(pk__data_bpf_note(s, &e, sizeof(e)), 0);
	assert_same(infos, payload(s, 0));
	assert_same(btfs, payload(s, 1));
	pk__data_bpf_free(s);
}

static void test_other_records_add_nothing(void **state)
{
	struct pk__data_bpf *s = NULL;
	struct bpf_event two[2] = { bpf_event(PERF_BPF_EVENT_PROG_UNLOAD, 1),
				    bpf_event(PERF_BPF_EVENT_PROG_LOAD, GONE_ID) };
	struct perf_event_header zero = { PERF_RECORD_BPF_EVENT, 0, 0 };
	struct buf infos;
	unsigned char *cut;

	(void)state;
	assert_int_equal(pk__data_bpf_snapshot(&s), 0);
	infos = payload(s, 0);
	/* An unload, then a load of a program already gone. */
	assert_int_equal(pk__data_bpf_note(s, two, sizeof(two)), 0);
	/* A size of 0 ends the walk instead of looping on it. */
	assert_int_equal(pk__data_bpf_note(s, &zero, sizeof(zero)), 0);
	/* A record longer than the bytes given is not read (ASan checks). */
	cut = malloc(sizeof(two[0]) - 8);
	assert_non_null(cut);
	memcpy(cut, &two[1], sizeof(two[0]) - 8);
	assert_int_equal(pk__data_bpf_note(s, cut, sizeof(two[0]) - 8), 0);
	free(cut);
	assert_same(infos, payload(s, 0));
	pk__data_bpf_free(s);
}

static void test_no_state(void **state)
{
	struct bpf_event e = bpf_event(PERF_BPF_EVENT_PROG_LOAD, 1);
	static const uint32_t zero = 0;
	struct buf b;

	(void)state;
	assert_int_equal(pk__data_bpf_note(NULL, &e, sizeof(e)), 0);
	for (int btf = 0; btf < 2; btf++) {
		b = payload(NULL, btf);
		assert_int_equal(b.len, 4);	/* perf's count of 0, nothing after it */
		assert_memory_equal(b.p, &zero, 4);
		free(b.p);
	}
	pk__data_bpf_free(NULL);
}

static void test_merge(void **state)
{
	struct pk__data_bpf *a = NULL, *b = NULL;

	(void)state;
	assert_int_equal(pk__data_bpf_merge(&b, NULL), 0);
	assert_null(b);		/* nothing to carry: nothing made */
	assert_int_equal(pk__data_bpf_snapshot(&a), 0);
	assert_int_equal(pk__data_bpf_merge(&b, a), 0);
	assert_non_null(b);
	assert_same(payload(a, 0), payload(b, 0));
	assert_same(payload(a, 1), payload(b, 1));
	/* Carried again: still each program once.  (No second snapshot: other
	 * tests on the machine may load programs meanwhile.) */
	assert_int_equal(pk__data_bpf_merge(&b, a), 0);
	assert_same(payload(a, 0), payload(b, 0));
	assert_same(payload(a, 1), payload(b, 1));
	pk__data_bpf_free(a);
	pk__data_bpf_free(b);
}

static void test_snapshot_out_of_memory(void **state)
{
	struct pk__data_bpf *s = NULL;

	(void)state;
	pk__alloc_fail_nth(1);
	assert_int_equal(pk__data_bpf_snapshot(&s), -ENOMEM);
	pk__alloc_fail_nth(0);
	assert_null(s);
	assert_int_equal(pk_last_error()->code, -ENOMEM);
	assert_non_null(strstr(pk_last_error()->why, "BPF programs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gone_program_left_out),
		cmocka_unit_test(test_other_records_add_nothing),
		cmocka_unit_test(test_no_state),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_snapshot_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
