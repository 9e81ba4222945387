/* SPDX-License-Identifier: MIT */
/*
 * selfmon.c - the self-monitoring fast read: a counter of the calling
 * thread read from the first page the kernel maps for its fd, in the
 * seqlock loop perf_event_open(2) gives (lock, index, offset, rdpmc,
 * pmc_width sign extension, time_enabled/time_running brought up to now
 * with time_offset/mult/shift and the TSC, time_cycles/time_mask for a
 * short TSC, time_zero for the perf clock).  Whatever the page cannot give
 * is left to read(2) by the caller (-EAGAIN); rdpmc and rdtsc go through
 * the sys seam so that tests can drive every branch with synthetic pages.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"

#include <errno.h>
#include <linux/perf_event.h>

/* The capability bits, by position in the 6.1 UAPI's bit-field: reading the
 * 64-bit word once keeps the snapshot inside one load. */
#define CAP_USER_RDPMC (1ULL << 2)
#define CAP_USER_TIME (1ULL << 3)
#define CAP_USER_TIME_ZERO (1ULL << 4)
#define CAP_USER_TIME_SHORT (1ULL << 5)

/*
 * How many passes before giving up on the page.  The kernel's writer is
 * on this CPU (it updates the page when this thread's counter is
 * scheduled), so one retry is the rule; a lock that keeps moving means
 * the page is not ours to trust, and read(2) is always right.
 */
#define MAX_TRIES 64

/* Everything the loop copies out of the page, taken between the two looks at lock. */
struct snap {
	uint64_t caps, enabled, running, pmc, cyc, time_offset, time_zero, time_cycles, time_mask;
	int64_t offset;
	uint32_t index, time_mult;
	uint16_t width, time_shift;
};

/* One pass: copy the fields.  false when the page cannot give the count. */
static bool take(const volatile struct perf_event_mmap_page *pc, struct snap *s)
{
	s->enabled = pc->time_enabled;
	s->running = pc->time_running;
	s->caps = pc->capabilities;
	s->index = pc->index;
	s->offset = pc->offset;
	/* Index 0: the counter is not on a hardware register now; offset
	 * alone may be stale by a whole time slice (software events). */
	if (!(s->caps & CAP_USER_RDPMC) || !s->index || !(s->caps & CAP_USER_TIME))
		return false;
	s->width = pc->pmc_width;
	s->time_shift = pc->time_shift;
	s->time_mult = pc->time_mult;
	s->time_offset = pc->time_offset;
	s->time_zero = pc->time_zero;
	if (s->caps & CAP_USER_TIME_SHORT) {
		s->time_cycles = pc->time_cycles;
		s->time_mask = pc->time_mask;
	}
	return pk__sys_rdtsc(&s->cyc) && pk__sys_rdpmc(s->index - 1, &s->pmc);
}

/* Cycles -> ns with the page's fixed-point factors: the man page's
 * quot/rem split, so that cyc * mult cannot overflow. */
static uint64_t cyc_to_ns(uint64_t cyc, uint32_t mult, uint16_t shift)
{
	uint64_t quot = cyc >> shift, rem = cyc & ((1ULL << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
}

int pk__page_read(const struct perf_event_mmap_page *page, struct pk__page_reading *out)
{
	const volatile struct perf_event_mmap_page *pc = page;
	struct snap s;
	unsigned int tries = 0;
	uint32_t seq;
	int64_t pmc;

	do {
		if (++tries > MAX_TRIES)
			return -EAGAIN;
		/* Acquire: the fields read below are at least as new as this
		 * lock value.  An odd lock is a writer in the middle of an update. */
		seq = __atomic_load_n(&page->lock, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		if (!take(pc, &s))
			return -EAGAIN;
		/* Acquire fence: the loads above complete before lock is looked
		 * at again, so an update that overlapped them changes lock. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || __atomic_load_n(&page->lock, __ATOMIC_RELAXED) != seq);

	if (s.width < 1 || s.width > 64 || s.time_shift > 63)
		return -EAGAIN;
	/* The register is width bits wide: sign-extend it, since the kernel
	 * starts counters at -period and keeps the difference in offset. */
	pmc = (int64_t)(s.pmc << (64 - s.width)) >> (64 - s.width);
	out->value = (uint64_t)s.offset + (uint64_t)pmc;
	/* A TSC narrower than 64 bits wraps: rebuild the full count around
	 * time_cycles (cap_user_time_short, Linux 5.12+). */
	if (s.caps & CAP_USER_TIME_SHORT)
		s.cyc = s.time_cycles + ((s.cyc - s.time_cycles) & s.time_mask);
	{
		uint64_t ns = cyc_to_ns(s.cyc, s.time_mult, s.time_shift);
		uint64_t delta = s.time_offset + ns;	/* time_offset is negative mod 2^64 */

		out->enabled = s.enabled + delta;
		out->running = s.running + delta;	/* index != 0: it is running now */
		out->has_time = s.caps & CAP_USER_TIME_ZERO;
		out->time = out->has_time ? s.time_zero + ns : 0;
	}
	out->tries = tries;
	return 0;
}
