/* SPDX-License-Identifier: MIT */
/*
 * test_record_kernel.c - the decoder on records the kernel wrote: a
 * task-clock sampler on the calling thread with IDENTIFIER, IP, TID, TIME,
 * CPU, PERIOD and CALLCHAIN and sample_id_all, read through the ring
 * reader.  Every record decodes; every sample is ours, in time order, maps
 * to the event by its ID, and has a callchain that opens with a context
 * marker.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "ring/ring.h"
#include "sys/sys.h"

#define PAGES 64

static void busy_30ms(void)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 30000000L);
}

static void check_sample(const struct pk_record *rec, uint64_t ev_id, uint64_t *last_time)
{
	const struct pk_sample *s = &rec->sample;
	const char *ctx;

	assert_int_equal(s->pid, getpid());
	assert_int_equal(s->tid, gettid());
	assert_int_equal(s->identifier, ev_id);
	assert_true(s->time >= *last_time);
	*last_time = s->time;
	assert_true(s->period > 0);
	assert_true(s->cpu < (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
	assert_true(s->callchain.nr > 0);
	ctx = pk_record_context_name(s->callchain.ips[0]);
	assert_non_null(ctx);
	if (strcmp(ctx, "kernel") && strcmp(ctx, "user"))
		fail_msg("the callchain opens with context %s", ctx);
}

static void test_decode_live_samples(void **state)
{
	struct pk_events *ev;
	struct perf_event_attr attr;
	struct pk_ring r;
	const struct perf_event_header *h;
	struct pk_record rec = { .size = sizeof(rec) };
	long page = sysconf(_SC_PAGESIZE);
	uint64_t ev_id = 0, id, last_time = 0;
	unsigned samples = 0, others = 0;
	bool comm = false, map = false;
	void *mm, *exec_map;
	int fd, err;

	(void)state;
	assert_int_equal(pk_events_parse("task-clock/period=100000/", NULL, &ev), 1);
	attr = *pk_events_attr(ev, 0);
	pk_events_free(ev);
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	attr.comm = 1;
	attr.mmap = 1;
	fd = pk__sys_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, "task-clock");
	if (fd == -EACCES || fd == -EPERM)
		skip();	/* perf_event_paranoid forbids sampling here */
	assert_true(fd >= 0);
	mm = pk__sys_mmap(fd, (size_t)(PAGES + 1) * page, PROT_READ | PROT_WRITE, 0, &err);
	assert_non_null(mm);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&ev_id), 0);
	pk__ring_init(&r, mm, (char *)mm + page, (uint64_t)PAGES * page);

	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	busy_30ms();
	/* A COMM and an MMAP record of known content. */
	assert_int_equal(prctl(PR_SET_NAME, "pk-record-test"), 0);
	exec_map = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(exec_map != MAP_FAILED);
	assert_int_equal(pk__sys_ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	while ((err = pk_ring_next(&r, &h)) == 1) {
		err = pk_record_decode(h, &attr, &rec);
		if (err < 0)
			fail_msg("record type %u: %s", h->type, pk_last_error()->why);
		if (err == PK_RECORD_UNKNOWN)
			continue;
		assert_int_equal(pk_record_event_id(h, &attr, &id), 0);
		assert_int_equal(id, ev_id);
		assert_int_equal(rec.id.id, ev_id);
		assert_int_equal(rec.id.pid, getpid());
		if (rec.type == PERF_RECORD_SAMPLE) {
			check_sample(&rec, ev_id, &last_time);
			samples++;
		} else {
			others++;
		}
		if (rec.type == PERF_RECORD_COMM && !strcmp(rec.comm.comm, "pk-record-test"))
			comm = rec.comm.tid == (uint32_t)gettid();
		if (rec.type == PERF_RECORD_MMAP && rec.mmap.addr == (uintptr_t)exec_map)
			map = rec.mmap.len == (uint64_t)page && rec.mmap.filename[0] != '\0';
	}
	assert_int_equal(err, 0);
	pk_ring_consume(&r);
	print_message("# %u samples, %u other records\n", samples, others);
	/* 30 ms of CPU at one sample per 100 us: about 300; allow a slow VM. */
	assert_true(samples >= 30);
	assert_true(comm);
	assert_true(map);
	munmap(exec_map, page);
	pk__ring_fini(&r);
	pk__sys_munmap(mm, (size_t)(PAGES + 1) * page);
	pk__sys_close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_live_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
