/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon.c - the self-monitoring fast read without a PMU: synthetic
 * perf_event_mmap_page contents and rdpmc/rdtsc through the sys seam drive
 * every branch of the man page's read loop (index 0, missing capabilities,
 * the seqlock retry while a writer moves the lock, a writer that never
 * finishes, pmc_width sign extension, time scaling, time_cycles/time_mask,
 * time_zero); then a region over a fake kernel shows one group ioctl per
 * start/stop and reads from the page, falling back to read(2) unasked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "counter/counter.h"

#define CAP_RDPMC (1ULL << 2)
#define CAP_TIME (1ULL << 3)
#define CAP_TIME_ZERO (1ULL << 4)
#define CAP_TIME_SHORT (1ULL << 5)
#define FD0 2000

static struct perf_event_mmap_page pages[4] __attribute__((aligned(4096)));

static struct {
	uint64_t pmc[4], tsc;
	unsigned int rdpmc_calls, last_counter, rdtsc_calls;
	int writer_passes;	/* rdtsc moves the lock (a writer's update) this many times */
	int64_t writer_offset;	/* the offset the writer leaves behind */
	int nr_open, nr_ioctl, nr_read, nr_mmap;
	enum { READ_GROUP, READ_SHORT, READ_ZERO, READ_EBADF, READ_ALL_RUNNING, READ_EINTR } read_mode;
	unsigned long ioctl_req[16], ioctl_arg[16];
	int ioctl_fd[16];
} k;

static uint64_t fake_rdpmc(unsigned int counter)
{
	k.rdpmc_calls++;
	k.last_counter = counter;
	return k.pmc[counter % 4];
}

static uint64_t fake_rdtsc(void)
{
	k.rdtsc_calls++;
	if (k.writer_passes > 0) {
		/* The kernel updated the page after our first look at lock. */
		k.writer_passes--;
		pages[0].lock += 2;
		pages[0].offset = k.writer_offset;
	}
	return k.tsc;
}

static const struct pk__sys_ops page_ops = { .rdpmc = fake_rdpmc, .rdtsc = fake_rdtsc };

static int setup(void **state)
{
	(void)state;
	memset(&k, 0, sizeof(k));
	memset(pages, 0, sizeof(pages));
	pk__sys_set_ops(&page_ops);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pk__sys_set_ops(NULL);
	return 0;
}

/* A counter on hardware register 3 (index 4), 48 bits wide, and a TSC
 * at 2 ns per cycle (mult 2048, shift 10). */
static void hw_page(struct perf_event_mmap_page *p)
{
	p->lock = 6;
	p->index = 4;
	p->offset = 1000;
	p->time_enabled = 5000;
	p->time_running = 5000;
	p->capabilities = CAP_RDPMC | CAP_TIME;
	p->pmc_width = 48;
	p->time_mult = 2048;
	p->time_shift = 10;
	p->time_offset = (uint64_t)-1000000;	/* the kernel's -(tsc at schedule-in in ns) */
}

static void test_reads_counter_and_extrapolates_time(void **state)
{
	struct pk__page_reading r;

	(void)state;
	hw_page(&pages[0]);
	k.pmc[3] = 500;
	k.tsc = 500100;		/* 1000200 ns: 200 ns after time_offset's origin */
	assert_int_equal(pk__page_read(&pages[0], &r), 0);
	assert_int_equal(k.last_counter, 3);	/* rdpmc(index - 1) */
	assert_int_equal(r.value, 1500);
	assert_int_equal(r.enabled, 5200);
	assert_int_equal(r.running, 5200);
	assert_false(r.has_time);
	assert_int_equal(r.tries, 1);
}

static void test_falls_back_when_page_cannot_give_count(void **state)
{
	struct pk__page_reading r;

	(void)state;
	/* Index 0: a software event, or not on a register now: offset is stale. */
	hw_page(&pages[0]);
	pages[0].index = 0;
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	assert_int_equal(k.rdpmc_calls, 0);
	/* No rdpmc for user space. */
	hw_page(&pages[0]);
	pages[0].capabilities = CAP_TIME;
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	/* No user time: the times could not be brought up to now. */
	pages[0].capabilities = CAP_RDPMC;
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	/* A width of 0 is not a register. */
	pages[0].capabilities = CAP_RDPMC | CAP_TIME;
	pages[0].pmc_width = 0;
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	assert_int_equal(k.rdpmc_calls, 1);
}

static void test_seqlock_retries_after_writer(void **state)
{
	struct pk__page_reading r;

	(void)state;
	hw_page(&pages[0]);
	k.pmc[3] = 7;
	k.writer_passes = 2;		/* two updates land during our reads */
	k.writer_offset = 9000;
	assert_int_equal(pk__page_read(&pages[0], &r), 0);
	assert_int_equal(r.tries, 3);
	assert_int_equal(k.rdtsc_calls, 3);
	assert_int_equal(r.value, 9007);	/* the offset the writer left */
}

static void test_writer_that_never_finishes_falls_back(void **state)
{
	struct pk__page_reading r;

	(void)state;
	hw_page(&pages[0]);
	pages[0].lock = 7;		/* odd: an update in progress */
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	assert_int_equal(k.rdpmc_calls, 0);	/* never read under an odd lock */
	pages[0].lock = 8;
	k.writer_passes = 1000;		/* the lock moves on every pass */
	assert_int_equal(pk__page_read(&pages[0], &r), -EAGAIN);
	assert_true(k.rdtsc_calls > 1 && k.rdtsc_calls < 1000);
}

static void test_sign_extension_to_width(void **state)
{
	static const struct {
		uint16_t width;
		uint64_t pmc;
		uint64_t want;		/* offset 1000 + the register as a signed width-bit number */
	} t[] = {
		{ 48, 0x0000fffffffffff0ULL, 984 },		/* -16 in 48 bits */
		{ 48, 0xabcdfffffffffff0ULL, 984 },		/* bits above the width ignored */
		{ 48, 0x00007ffffffffff0ULL, 1000 + 0x7ffffffffff0ULL },
		{ 32, 0x80000000ULL, (uint64_t)(1000 - 0x80000000LL) },
		{ 40, 0x0000000000000010ULL, 1016 },
		{ 64, 0xfffffffffffffff0ULL, 984 },
		{ 64, 0x0000fffffffffff0ULL, 1000 + 0x0000fffffffffff0ULL },
		{ 1, 1, 999 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pk__page_reading r;

		hw_page(&pages[0]);
		pages[0].pmc_width = t[i].width;
		k.pmc[3] = t[i].pmc;
		assert_int_equal(pk__page_read(&pages[0], &r), 0);
		assert_int_equal(r.value, t[i].want);
	}
}

static void test_multiplexed_times_scale(void **state)
{
	struct pk__page_reading r;
	struct pk_count c = { .size = sizeof(c) };

	(void)state;
	hw_page(&pages[0]);
	pages[0].time_enabled = 4000;	/* ran half the time so far */
	pages[0].time_running = 2000;
	k.pmc[3] = 2000;		/* value 3000 */
	k.tsc = 501000;			/* 2000 ns more, all of it running */
	assert_int_equal(pk__page_read(&pages[0], &r), 0);
	assert_int_equal(r.enabled, 6000);
	assert_int_equal(r.running, 4000);
	c.value = r.value;
	c.enabled = r.enabled;
	c.running = r.running;
	assert_int_equal(pk_count_scaled(&c), 4500);
}

static void test_short_tsc_and_time_zero(void **state)
{
	struct pk__page_reading r;

	(void)state;
	hw_page(&pages[0]);
	/* A 32-bit clock that wrapped: time_cycles is the last full value. */
	pages[0].capabilities |= CAP_TIME_SHORT | CAP_TIME_ZERO;
	pages[0].time_cycles = 0x1fffffff0ULL;
	pages[0].time_mask = 0xffffffffULL;
	pages[0].time_offset = (uint64_t)-(2 * 0x1fffffff0LL);
	pages[0].time_zero = 1000000000;
	k.tsc = 0x10;			/* the raw clock wrapped: 0x200000010 in full */
	assert_int_equal(pk__page_read(&pages[0], &r), 0);
	assert_int_equal(r.enabled, 5000 + 2 * 0x20);	/* 0x20 cycles after time_cycles */
	assert_true(r.has_time);
	assert_int_equal(r.time, 1000000000ULL + 2 * 0x200000010ULL);
	/* Shift 0 and a long multiplier: the quot/rem split keeps it exact. */
	pages[0].capabilities = CAP_RDPMC | CAP_TIME | CAP_TIME_ZERO;
	pages[0].time_shift = 0;
	pages[0].time_mult = 3;
	pages[0].time_offset = 0;
	pages[0].time_zero = 0;
	k.tsc = 1000;
	assert_int_equal(pk__page_read(&pages[0], &r), 0);
	assert_int_equal(r.time, 3000);
	assert_int_equal(r.enabled, 8000);
}

/* ---- a region over a fake kernel ---------------------------------------- */

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	(void)a;
	(void)group_fd;
	(void)flags;
	assert_int_equal(pid, 0);	/* the calling thread */
	assert_int_equal(cpu, -1);
	return FD0 + k.nr_open++;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = 100 + (uint64_t)(fd - FD0);
		return 0;
	}
	k.ioctl_req[k.nr_ioctl] = req;
	k.ioctl_fd[k.nr_ioctl] = fd;
	k.ioctl_arg[k.nr_ioctl++] = arg;
	return 0;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)addr;
	(void)len;
	(void)prot;
	(void)flags;
	assert_int_equal(off, 0);
	k.nr_mmap++;
	return &pages[fd - FD0];
}

static int fake_munmap(void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return 0;
}

static int fake_close(int fd)
{
	(void)fd;
	return 0;
}

/* The group read: nr 3, enabled, running, then { value, id } each. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	uint64_t w[] = { 3, 1000, 500, 11, 100, 22, 101, 33, 102 };

	assert_int_equal(fd, FD0);
	assert_true(len >= sizeof(w));
	k.nr_read++;
	if (k.read_mode == READ_ZERO)	/* a pinned group in error state */
		return 0;
	if (k.read_mode == READ_EBADF || k.read_mode == READ_EINTR) {
		errno = k.read_mode == READ_EBADF ? EBADF : EINTR;
		k.read_mode = k.read_mode == READ_EINTR ? READ_GROUP : k.read_mode;
		return -1;
	}
	if (k.read_mode == READ_ALL_RUNNING)	/* not multiplexed */
		w[2] = w[1];
	memcpy(buf, w, sizeof(w));
	return k.read_mode == READ_SHORT ? (ssize_t)sizeof(w) - 8 : (ssize_t)sizeof(w);
}

static const struct pk__sys_ops region_ops = {
	.perf_event_open = fake_open, .ioctl = fake_ioctl, .mmap = fake_mmap, .munmap = fake_munmap,
	.close = fake_close, .read = fake_read, .rdpmc = fake_rdpmc, .rdtsc = fake_rdtsc,
};

static void test_region_one_ioctl_and_fast_read(void **state)
{
	struct pk_region *r;
	struct pk_count c[3] = { { .size = sizeof(c[0]) } };

	(void)state;
	pk__sys_set_ops(&region_ops);
	assert_int_equal(pk_region_open("cycles,instructions,branches", NULL, &r), 0);
	assert_int_equal(pk_region_nr(r), 3);
	assert_string_equal(pk_region_name(r, 1), "instructions");
	assert_int_equal(k.nr_mmap, 3);
	assert_int_equal(pk_region_start(r), 0);
	assert_int_equal(pk_region_stop(r), 0);
	/* Three events, one group: one ioctl each way, for the whole group. */
	assert_int_equal(k.nr_ioctl, 2);
	assert_int_equal(k.ioctl_req[0], PERF_EVENT_IOC_ENABLE);
	assert_int_equal(k.ioctl_req[1], PERF_EVENT_IOC_DISABLE);
	assert_int_equal(k.ioctl_arg[0], PERF_IOC_FLAG_GROUP);
	assert_int_equal(k.ioctl_arg[1], PERF_IOC_FLAG_GROUP);

	/* Software-like pages (index 0): one read(2) for the group, scaled. */
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(k.nr_read, 1);
	assert_int_equal(pk_region_fast_reads(r), 0);
	assert_int_equal(c[0].value, 22);
	assert_int_equal(c[2].value, 66);
	assert_int_equal(c[2].id, 102);

	/* Every member on a register: no syscall at all. */
	for (int i = 0; i < 3; i++) {
		hw_page(&pages[i]);
		pages[i].index = (uint32_t)(i + 1);
		k.pmc[i] = (uint64_t)(i + 1);
	}
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(k.nr_read, 1);
	assert_int_equal(pk_region_fast_reads(r), 1);
	assert_int_equal(c[0].value, 1001);
	assert_int_equal(c[2].value, 1003);
	assert_int_equal(c[1].id, 101);

	/* One member off its register: the whole group from read(2) again. */
	pages[2].index = 0;
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(k.nr_read, 2);
	assert_int_equal(c[0].value, 22);
	pk_region_free(r);
}

/* Software events have no register (the kernel's page always says index
 * 0): decided at open, their pages are never mapped nor looked at, even
 * when a page claims otherwise, and every read is the group's read(2). */
static void test_region_software_never_reads_pages(void **state)
{
	struct pk_region *r;
	struct pk_count c[3] = { { .size = sizeof(c[0]) } };

	(void)state;
	pk__sys_set_ops(&region_ops);
	for (int i = 0; i < 3; i++) {
		hw_page(&pages[i]);
		pages[i].index = (uint32_t)(i + 1);
	}
	assert_int_equal(pk_region_open("task-clock,page-faults,context-switches", NULL, &r), 0);
	assert_int_equal(k.nr_mmap, 0);
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(k.nr_read, 2);
	assert_int_equal(k.rdpmc_calls, 0);
	assert_int_equal(pk_region_fast_reads(r), 0);
	assert_int_equal(c[1].value, 44);	/* 22 x 1000 / 500 */
	assert_int_equal(c[1].id, 101);
	/* Read with read(2) only: start and stop switch the leader alone
	 * (its members follow it), one ioctl each way. */
	assert_int_equal(pk_region_start(r), 0);
	assert_int_equal(pk_region_stop(r), 0);
	assert_int_equal(k.nr_ioctl, 2);
	assert_int_equal(k.ioctl_req[0], PERF_EVENT_IOC_ENABLE);
	assert_int_equal(k.ioctl_req[1], PERF_EVENT_IOC_DISABLE);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(k.ioctl_fd[i], FD0);
		assert_int_equal(k.ioctl_arg[i], 0);
	}
	pk_region_free(r);
}

/* Hardware events that never read their pages (no_fast_read), in two
 * groups: one ioctl on each leader alone each way; with inherit, the
 * whole group (PERF_IOC_FLAG_GROUP) as before. */
static void test_region_leader_ioctls(void **state)
{
	struct pk_region_opts o = { .size = sizeof(o), .no_fast_read = true };
	struct pk_region *r;

	(void)state;
	pk__sys_set_ops(&region_ops);
	assert_int_equal(pk_region_open("{cycles,instructions},{branches}", &o, &r), 0);
	assert_int_equal(k.nr_mmap, 0);
	assert_int_equal(pk_region_start(r), 0);
	assert_int_equal(pk_region_stop(r), 0);
	assert_int_equal(k.nr_ioctl, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(k.ioctl_req[i], i < 2 ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE);
		assert_int_equal(k.ioctl_fd[i], i % 2 ? FD0 + 2 : FD0);
		assert_int_equal(k.ioctl_arg[i], 0);
	}
	pk_region_free(r);
	k.nr_ioctl = 0;
	o.inherit = true;
	assert_int_equal(pk_region_open("cycles,instructions", &o, &r), 0);
	assert_int_equal(pk_region_start(r), 0);
	assert_int_equal(k.nr_ioctl, 1);
	assert_int_equal(k.ioctl_arg[0], PERF_IOC_FLAG_GROUP);
	pk_region_free(r);
}

/* A caller's struct pk_count of another size: the stride is out[0].size,
 * and a read of two of the group's three counters fills two. */
static void test_region_read_other_struct_size(void **state)
{
	struct big { struct pk_count c; uint64_t future; } b[3];
	struct pk_region *r;

	(void)state;
	memset(b, 0xff, sizeof(b));
	b[0].c.size = sizeof(b[0]);
	pk__sys_set_ops(&region_ops);
	assert_int_equal(pk_region_open("task-clock,page-faults,context-switches", NULL, &r), 0);
	assert_int_equal(pk_region_read(r, &b[0].c, 2), 3);
	assert_int_equal(b[1].c.size, sizeof(b[0]));
	assert_int_equal(b[1].c.value, 44);
	assert_int_equal(b[1].c.id, 101);
	assert_int_equal(b[1].future, 0);	/* zeroed: this version does not know it */
	assert_int_equal(b[2].c.size, SIZE_MAX);	/* beyond max: untouched */
	pk_region_free(r);
}

/* An out of this version's struct with room for the group: every field
 * of every count is made from the group read, none left from before (the
 * read lands in the counts' own memory and is unpacked in place). */
static void test_region_read_fills_every_field(void **state)
{
	static const uint64_t value[2][3] = { { 22, 44, 66 }, { 11, 22, 33 } };
	struct pk_count c[3];
	struct pk_region *r;

	(void)state;
	pk__sys_set_ops(&region_ops);
	assert_int_equal(pk_region_open("task-clock,page-faults,context-switches", NULL, &r), 0);
	for (int run = 0; run < 2; run++) {
		k.read_mode = run ? READ_ALL_RUNNING : READ_GROUP;
		memset(c, 0xa5, sizeof(c));
		c[0].size = sizeof(c[0]);
		assert_int_equal(pk_region_read(r, c, 3), 3);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(c[i].size, sizeof(c[0]));
			assert_int_equal(c[i].value, value[run][i]);	/* scaled when multiplexed */
			assert_int_equal(c[i].enabled, 1000);
			assert_int_equal(c[i].running, run ? 1000 : 500);
			assert_int_equal(c[i].id, 100 + i);
			assert_int_equal(c[i].lost, 0);
		}
	}
	assert_int_equal(k.nr_read, 2);
	pk_region_free(r);
}

/* A read(2) that fails, says error state or returns bytes that are not the
 * group's layout: the same negative errno and error record whether it
 * lands in the caller's counts or in a buffer (another struct size); one
 * a signal interrupts is retried. */
static void test_region_read_failures(void **state)
{
	struct big { struct pk_count c; uint64_t future; } b[3];
	struct pk_count c[3];
	struct pk_region *r;
	static const struct { int mode, err; const char *why; } cases[] = {
		{ READ_SHORT, -EINVAL, "does not match" },
		{ READ_ZERO, -EIO, "error state" },
		{ READ_EBADF, -EBADF, "Bad file descriptor" },
	};

	(void)state;
	pk__sys_set_ops(&region_ops);
	assert_int_equal(pk_region_open("task-clock,page-faults,context-switches", NULL, &r), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		k.read_mode = cases[i].mode;
		c[0].size = sizeof(c[0]);
		b[0].c.size = sizeof(b[0]);
		assert_int_equal(pk_region_read(r, c, 3), cases[i].err);
		assert_non_null(strstr(pk_last_error()->why, cases[i].why));
		assert_int_equal(pk_region_read(r, &b[0].c, 3), cases[i].err);
		assert_non_null(strstr(pk_last_error()->why, cases[i].why));
	}
	/* A signal interrupts the read: it is made again, unseen. */
	k.read_mode = READ_EINTR;
	k.nr_read = 0;
	assert_int_equal(pk_region_read(r, c, 3), 3);
	assert_int_equal(k.nr_read, 2);
	assert_int_equal(c[2].value, 66);
	pk_region_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reads_counter_and_extrapolates_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_falls_back_when_page_cannot_give_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seqlock_retries_after_writer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_that_never_finishes_falls_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sign_extension_to_width, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplexed_times_scale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_tsc_and_time_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_one_ioctl_and_fast_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_software_never_reads_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_leader_ioctls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_read_other_struct_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_read_fills_every_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_read_failures, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
