/* SPDX-License-Identifier: MIT */
/*
 * selfmon.c - what a region costs, on two software events of this thread
 * (task-clock, context-switches), side by side in one run: a raw group
 * read(2) against pk_region_read; a raw start+stop (one group ioctl each)
 * against pk_region_start+stop and against PAPI's way (one ioctl per event
 * each way); a named-region begin+end pair; and the mmap-page read itself
 * on a synthetic page whose counter is on a register (rdpmc and rdtsc
 * replaced through the sys seam, since this machine has no PMU).  Each
 * figure is the median of 7 rounds of 100,000 calls, in ns per call.
 * Built with HAVE_PAPI (selfmon.sh does so when papi.h is installed), PAPI
 * itself counts the same two events in the same run: PAPI_read, and
 * PAPI_stop+PAPI_start.
 * Built and run by bench/selfmon.sh; `selfmon page` does only 1000 page
 * reads, for callgrind to count their instructions.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_PAPI
#include <papi.h>
#endif
#include "perfkit.h"
#include "sys/sys.h"
#include "counter/counter.h"

#define CALLS 100000
#define ROUNDS 7

enum what { RAW_READ, REGION_READ, RAW_STARTSTOP, REGION_STARTSTOP, PAPI_STARTSTOP, MARKERS,
	    PAGE_READ,
#ifdef HAVE_PAPI
	    PAPI_READ, PAPI_STOPSTART,
#endif
	    NR_WHAT };
static const char *const names[NR_WHAT] = {
	"raw group read(2)", "pk_region_read", "raw start+stop (2 group ioctls)",
	"pk_region_start+stop", "PAPI-style start+stop (1 ioctl per event)",
	"pk_markers_begin+end", "page read, synthetic rdpmc page",
#ifdef HAVE_PAPI
	"PAPI_read", "PAPI_stop+PAPI_start",
#endif
};

static struct pk_region *r;
static struct pk_markers *m;
static int fd[2];
#ifdef HAVE_PAPI
static int papi_set = PAPI_NULL;
static long long papi_v[2];
#endif
static struct perf_event_mmap_page page __attribute__((aligned(4096)));

static uint64_t fake_rdpmc(unsigned int c)
{
	return c + 1;
}

static uint64_t fake_rdtsc(void)
{
	return 123456789;
}

static void once(enum what w)
{
	static const struct pk__sys_ops fake = { .rdpmc = fake_rdpmc, .rdtsc = fake_rdtsc };
	struct pk_count c[2] = { { .size = sizeof(c[0]) } };
	struct pk__page_reading pr;
	uint64_t buf[16];

	switch (w) {
	case RAW_READ:
		if (read(fd[0], buf, sizeof(buf)) <= 0)
			abort();
		break;
	case REGION_READ:
		if (pk_region_read(r, c, 2) != 2)
			abort();
		break;
	case RAW_STARTSTOP:
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		break;
	case REGION_STARTSTOP:
		if (pk_region_start(r) < 0 || pk_region_stop(r) < 0)
			abort();
		break;
	case PAPI_STARTSTOP:
		for (int i = 0; i < 2; i++)
			ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
		for (int i = 0; i < 2; i++)
			ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		break;
	case MARKERS:
		if (pk_markers_begin(m, "bench") < 0 || pk_markers_end(m, "bench") < 0)
			abort();
		break;
	case PAGE_READ:
		pk__sys_set_ops(&fake);
		if (pk__page_read(&page, &pr) < 0)
			abort();
		pk__sys_set_ops(NULL);
		break;
#ifdef HAVE_PAPI
	case PAPI_READ:
		if (PAPI_read(papi_set, papi_v) != PAPI_OK)
			abort();
		break;
	case PAPI_STOPSTART:
		if (PAPI_stop(papi_set, papi_v) != PAPI_OK || PAPI_start(papi_set) != PAPI_OK)
			abort();
		break;
#endif
	default:
		break;
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double ns[NR_WHAT][ROUNDS];

	/* "page": only 1000 page reads, for counting instructions under callgrind. */
	if (argc > 1 && !strcmp(argv[1], "page")) {
		page.lock = 2;
		page.index = 1;
		page.capabilities = (1ULL << 2) | (1ULL << 3) | (1ULL << 4);
		page.pmc_width = 48;
		for (int i = 0; i < 1000; i++)
			once(PAGE_READ);
		return 0;
	}

	if (pk_region_open("task-clock,context-switches", NULL, &r) < 0 ||
	    pk_markers_new("task-clock,context-switches", &m) < 0) {
		fprintf(stderr, "%s: %s\n", pk_last_error()->what, pk_last_error()->why);
		return 1;
	}
#ifdef HAVE_PAPI
	/* PAPI's names for the same software events (through libpfm4). */
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_create_eventset(&papi_set) != PAPI_OK ||
	    PAPI_add_named_event(papi_set, "perf::TASK-CLOCK") != PAPI_OK ||
	    PAPI_add_named_event(papi_set, "perf::CONTEXT-SWITCHES") != PAPI_OK ||
	    PAPI_start(papi_set) != PAPI_OK) {
		fprintf(stderr, "PAPI cannot count perf::TASK-CLOCK,perf::CONTEXT-SWITCHES here\n");
		return 1;
	}
#endif
	for (int i = 0; i < 2; i++)
		fd[i] = pk_evlist_fd(pk_region_evlist(r), (size_t)i, 0, 0);
	page.lock = 2;
	page.index = 1;
	page.capabilities = (1ULL << 2) | (1ULL << 3) | (1ULL << 4);
	page.pmc_width = 48;
	page.time_mult = 2048;
	page.time_shift = 10;
	pk_region_start(r);
	/* Rounds interleave the kinds, so that drift on a shared VM hits all alike. */
	for (int k = 0; k < ROUNDS; k++)
		for (int w = 0; w < NR_WHAT; w++) {
			double t0 = now_ns();

			for (int i = 0; i < CALLS; i++)
				once((enum what)w);
			ns[w][k] = (now_ns() - t0) / CALLS;
		}
	for (int w = 0; w < NR_WHAT; w++) {
		qsort(ns[w], ROUNDS, sizeof(double), cmp);
		printf("%-44s %8.1f ns\n", names[w], ns[w][ROUNDS / 2]);
	}
	printf("pk_region_read / raw read(2)      = %.3f (target <= 1.05)\n",
	       ns[REGION_READ][ROUNDS / 2] / ns[RAW_READ][ROUNDS / 2]);
	printf("pk_region start+stop / PAPI-style = %.3f\n",
	       ns[REGION_STARTSTOP][ROUNDS / 2] / ns[PAPI_STARTSTOP][ROUNDS / 2]);
#ifdef HAVE_PAPI
	printf("pk_region_read / PAPI_read        = %.3f\n",
	       ns[REGION_READ][ROUNDS / 2] / ns[PAPI_READ][ROUNDS / 2]);
	printf("pk_region start+stop / PAPI's     = %.3f (target <= 0.5)\n",
	       ns[REGION_STARTSTOP][ROUNDS / 2] / ns[PAPI_STOPSTART][ROUNDS / 2]);
	PAPI_stop(papi_set, papi_v);
	PAPI_shutdown();
#endif
	pk_markers_free(m);
	pk_region_free(r);
	return 0;
}
