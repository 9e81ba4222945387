/* SPDX-License-Identifier: MIT */
/*
 * sample-self.c - sample this program through its own ring buffer: a
 * task-clock sampler every 0.1 ms of CPU with the instruction pointer in
 * each sample, one ring mapped on it, the samples read back and their
 * ips named with dladdr (the example is linked with -rdynamic so that its
 * functions are in the dynamic symbol table).  hot() runs three times as
 * many iterations as cold(), and the program says which function was hottest.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dladdr */
#endif
#include <perfkit.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static volatile unsigned long sink;

/* Not static: dladdr finds only exported symbols. */
void hot(void);
void cold(void);

__attribute__((noinline)) void hot(void)
{
	for (unsigned long i = 0; i < 150000000UL; i++)
		sink += i;
}

__attribute__((noinline)) void cold(void)
{
	for (unsigned long i = 0; i < 50000000UL; i++)
		sink += i;
}

/* Count the samples in each function (by its start address). */
struct bin { const void *fn; const char *name; unsigned long n; };

static void add(struct bin *bins, size_t *nr, size_t max, uint64_t ip)
{
	Dl_info info;

	if (!dladdr((void *)(uintptr_t)ip, &info) || !info.dli_sname)
		info = (Dl_info){ .dli_saddr = NULL, .dli_sname = "[unknown]" };
	for (size_t i = 0; i < *nr; i++)
		if (bins[i].fn == info.dli_saddr && !strcmp(bins[i].name, info.dli_sname))
			return (void)bins[i].n++;
	if (*nr < max)
		bins[(*nr)++] = (struct bin){ info.dli_saddr, info.dli_sname, 1 };
}

int main(void)
{
	struct pk_target self = { .size = sizeof(self) };
	struct pk_events *ev;
	struct pk_evlist *l = NULL;
	struct pk_rings *rs = NULL;
	const struct perf_event_header *h;
	struct bin bins[64];
	size_t nr = 0, best = 0;
	unsigned long total = 0;

	if (pk_events_parse("task-clock/period=100000/u", NULL, &ev) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	pk_events_attr_mut(ev, 0)->sample_type = PERF_SAMPLE_IP;	/* before pk_evlist_new */
	if (pk_evlist_new(ev, &self, &l) < 0 || pk_evlist_open(l) < 0 ||
	    pk_rings_map(l, 64, &rs) < 0) {	/* 64 pages (256 KiB): room for every sample below */
		fprintf(stderr, "%s\n", pk_last_error()->why);
		return pk_rings_free(rs), pk_evlist_free(l), pk_events_free(ev), 1;
	}
	pk_evlist_enable(l);
	hot();
	cold();
	pk_evlist_disable(l);

	/* One thread, any CPU: one ring.  Read every record, keep the samples. */
	while (pk_ring_next(pk_rings_get(rs, 0), &h) > 0) {
		struct pk_sample_peek s = { .size = sizeof(s) };

		if (h->type == PERF_RECORD_SAMPLE && pk_sample_peek(h, pk_evlist_attr(l, 0), &s) == 0) {
			add(bins, &nr, sizeof(bins) / sizeof(bins[0]), s.ip);
			total++;
		}
	}
	pk_ring_consume(pk_rings_get(rs, 0));	/* hand the space back to the kernel */
	for (size_t i = 0; i < nr; i++) {
		printf("%8lu  %s\n", bins[i].n, bins[i].name);
		if (bins[i].n > bins[best].n)
			best = i;
	}
	if (nr)
		printf("hottest: %s (%lu of %lu samples)\n", bins[best].name, bins[best].n, total);
	pk_rings_free(rs);		/* rings before their evlist */
	pk_evlist_free(l);
	pk_events_free(ev);
	return nr ? 0 : 1;
}
