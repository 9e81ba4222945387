/* SPDX-License-Identifier: MIT */
/*
 * region.c - what a region read, a start+stop and a named region cost
 * beside the bare syscalls they make, on two software events of the
 * calling thread (task-clock, context-switches).  Three modes, run by
 * bench/region.sh:
 *   region        1000 pk_region_read calls, for callgrind to count the
 *                 user-space instructions of one (prints the last count);
 *   region bare   1000 bare group read(2)s of the same fd, likewise: the
 *                 floor pk_region_read is compared with;
 *   region time   the timed comparison: ROUNDS rounds, each timing a batch
 *                 of BATCH calls of every kind back to back (the order
 *                 reversed every other round), so that the two sides of a
 *                 ratio run within a millisecond of each other; prints per
 *                 ratio the median of the per-round ratios (load that
 *                 drifts over seconds cancels), and the ratios of the two
 *                 kinds' 10th percentiles and fastest rounds (the quiet
 *                 end: short batches, so that many escape preemption).  With
 *                 HAVE_PAPI, PAPI counts the same two events in the same
 *                 run and its stop+start is a kind too.  Every stop+start
 *                 is a stop then a start, as PAPI's, so that the reads
 *                 always read running counters.
 */
#include "perfkit.h"

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

#define ROUNDS 401
#define BATCH 250

enum kind { BARE_READ, REGION_READ, BARE_STARTSTOP, LEADER_STARTSTOP, REGION_STARTSTOP, MARKERS,
#ifdef HAVE_PAPI
	    PAPI_STOPSTART,
#endif
	    NR_KIND };
static const char *const names[NR_KIND] = {
	"bare group read(2)", "pk_region_read", "bare stop+start (2 group ioctls)",
	"bare stop+start (2 leader ioctls)",
	"pk_region_stop+start", "pk_markers_begin+end",
#ifdef HAVE_PAPI
	"PAPI_stop+PAPI_start",
#endif
};

static struct pk_region *r;
static struct pk_markers *m;
static int fd;
#ifdef HAVE_PAPI
static int papi_set = PAPI_NULL;
static long long papi_v[2];
#endif

static void once(enum kind k)
{
	struct pk_count c[2] = { { .size = sizeof(c[0]) }, { .size = sizeof(c[0]) } };
	uint64_t buf[3 + 2 * 2];

	switch (k) {
	case BARE_READ:
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			abort();
		break;
	case REGION_READ:
		if (pk_region_read(r, c, 2) != 2)
			abort();
		break;
	case BARE_STARTSTOP:
		if (ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) < 0 ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
			abort();
		break;
	case LEADER_STARTSTOP:
		if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
			abort();
		break;
	case REGION_STARTSTOP:
		if (pk_region_stop(r) < 0 || pk_region_start(r) < 0)
			abort();
		break;
	case MARKERS:
		if (pk_markers_begin(m, "bench") < 0 || pk_markers_end(m, "bench") < 0)
			abort();
		break;
#ifdef HAVE_PAPI
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

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[n / 2];
}

/* Kind a against kind b: the median of the per-round ratios, and the
 * ratio of the two kinds' 10th percentiles and of their fastest rounds
 * (a batch the scheduler took the CPU from in the middle is slow: the
 * low end of each kind is what the calls cost when left alone). */
static void ratio(double ns[NR_KIND][ROUNDS], enum kind a, enum kind b, const char *target)
{
	double per[ROUNDS], sa[ROUNDS], sb[ROUNDS];

	for (int k = 0; k < ROUNDS; k++)
		per[k] = ns[a][k] / ns[b][k];
	memcpy(sa, ns[a], sizeof(sa));
	memcpy(sb, ns[b], sizeof(sb));
	qsort(sa, ROUNDS, sizeof(double), cmp);
	qsort(sb, ROUNDS, sizeof(double), cmp);
	printf("%s / %s (target %s)\n  paired median %.3f, 10th percentiles %.3f, fastest %.3f\n",
	       names[a], names[b], target, median(per, ROUNDS), sa[ROUNDS / 10] / sb[ROUNDS / 10],
	       sa[0] / sb[0]);
}

static void timed(void)
{
	static double ns[NR_KIND][ROUNDS];
	double med[ROUNDS];

	for (int k = 0; k < ROUNDS; k++)
		for (int j = 0; j < NR_KIND; j++) {
			enum kind w = (enum kind)(k % 2 ? NR_KIND - 1 - j : j);
			double t0 = now_ns();

			for (int i = 0; i < BATCH; i++)
				once(w);
			ns[w][k] = (now_ns() - t0) / BATCH;
		}
	ratio(ns, REGION_READ, BARE_READ, "<= 1.05");
	ratio(ns, REGION_STARTSTOP, BARE_STARTSTOP, "floor: 1.00");
	ratio(ns, MARKERS, BARE_STARTSTOP, "<= 1.10");
#ifdef HAVE_PAPI
	ratio(ns, REGION_STARTSTOP, PAPI_STOPSTART, "<= 0.5");
	ratio(ns, BARE_STARTSTOP, PAPI_STOPSTART, "the group floor against PAPI");
	ratio(ns, LEADER_STARTSTOP, PAPI_STOPSTART, "the leader floor against PAPI");
#endif
	for (int w = 0; w < NR_KIND; w++) {
		memcpy(med, ns[w], sizeof(med));
		qsort(med, ROUNDS, sizeof(double), cmp);
		printf("%-34s median %8.1f ns, 10th percentile %8.1f ns\n", names[w],
		       med[ROUNDS / 2], med[ROUNDS / 10]);
	}
}

static int fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", what, pk_last_error()->what, pk_last_error()->why);
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "read";
	struct pk_count c[2] = { { .size = sizeof(c[0]) }, { .size = sizeof(c[0]) } };

	if (pk_region_open("task-clock,context-switches", NULL, &r) < 0 || pk_region_start(r) < 0)
		return fail("pk_region_open");
	fd = pk_evlist_fd(pk_region_evlist(r), 0, 0, 0);
	if (!strcmp(mode, "bare")) {
		for (int i = 0; i < 1000; i++)
			once(BARE_READ);
	} else if (!strcmp(mode, "time")) {
		if (pk_markers_new("task-clock,context-switches", &m) < 0)
			return fail("pk_markers_new");
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
		timed();
#ifdef HAVE_PAPI
		PAPI_stop(papi_set, papi_v);
		PAPI_shutdown();
#endif
		pk_markers_free(m);
	} else {
		for (int i = 0; i < 1000; i++)
			once(REGION_READ);
		if (pk_region_read(r, c, 2) != 2)
			return fail("pk_region_read");
		printf("%llu\n", (unsigned long long)c[0].value);
	}
	pk_region_free(r);
	return 0;
}
