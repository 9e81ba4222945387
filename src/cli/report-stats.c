/* SPDX-License-Identifier: MIT */
/*
 * report-stats.c - perf report --stats: the records of a perf.data file
 * counted by type ("Aggregated stats:", perf 6.1's events_stats__fprintf
 * layout and names, the kernel's types and perf's own), then per event
 * its samples and lost samples, as evlist__fprintf_nr_events prints them
 * with perf's default --skip-empty.  An event's samples are those perf
 * delivers to it: a sample that reads counters (PERF_SAMPLE_READ, a
 * leader-sampled group) counts for each counter that grew since its last
 * sample, whichever event's record it is.
 */
#include "report-header.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* perf 6.1's PERF_RECORD_HEADER_MAX: the kernel's types, then perf's from 64. */
#define NR_TYPES 83

/* perf's name of each record type (perf_event__names); NULL: perf skips it. */
static const char *type_name(uint32_t type)
{
	static const char *const user[] = {
		"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
		"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT",
	};

	if (type == 0)
		return "TOTAL";
	if (type >= 64 && type - 64 < sizeof(user) / sizeof(user[0]))
		return user[type - 64];
	return type < 64 ? pk_record_type_name(type) : NULL;
}

struct stats {
	uint32_t nr[NR_TYPES];		/* [0] is every record */
	uint32_t *samples, *lost;	/* per event, room for nr_ev */
	size_t nr_ev;
	struct report_reads reads;	/* each counter's last value */
};

/* Room in the per-event counts for event ev (a stream can add events
 * after its first records).  0 or -ENOMEM. */
static int fit(struct stats *s, size_t ev)
{
	size_t nr = ev + 16;
	uint32_t *a, *b;

	if (ev < s->nr_ev)
		return 0;
	if ((a = realloc(s->samples, nr * sizeof(*a))))
		s->samples = a;
	if ((b = realloc(s->lost, nr * sizeof(*b))))
		s->lost = b;
	if (!a || !b)
		return -ENOMEM;
	memset(a + s->nr_ev, 0, (nr - s->nr_ev) * sizeof(*a));
	memset(b + s->nr_ev, 0, (nr - s->nr_ev) * sizeof(*b));
	s->nr_ev = nr;
	return 0;
}

/* A sample that reads counters: one for the event of each that grew
 * (perf's deliver_sample_group and deliver_sample_value). */
static int count_reads(struct stats *s, const struct perf_event_header *h, const struct perf_event_attr *a)
{
	struct pk_record d = { .size = sizeof(d) };
	struct report_read out[REPORT_READS_MAX];
	int n;

	if (pk_record_decode(h, a, &d) != 0)
		return 0;	/* perf cannot parse it either */
	n = report_reads_split(&s->reads, a, &d.sample.read, out, REPORT_READS_MAX);
	for (int i = 0; i < n; i++) {
		if (fit(s, out[i].ev) < 0)
			return -ENOMEM;
		s->samples[out[i].ev]++;
	}
	return n == -ENOMEM ? n : 0;
}

static int count(struct stats *s, struct pk_data_reader *r, const struct perf_event_header *h)
{
	const struct perf_event_attr *a;
	int ev;

	if (h->type >= NR_TYPES)
		return 0;
	s->nr[0]++;
	s->nr[h->type]++;
	if (h->type != PERF_RECORD_SAMPLE && h->type != PERF_RECORD_LOST_SAMPLES)
		return 0;
	/* perf counts a sample or a loss for the event its id names. */
	if ((ev = pk_data_reader_event_of(r, h)) < 0)
		return 0;
	if (fit(s, (size_t)ev) < 0)
		return -ENOMEM;
	a = pk_data_reader_attr(r, (size_t)ev);
	if (h->type == PERF_RECORD_SAMPLE && (a->sample_type & PERF_SAMPLE_READ)) {
		return count_reads(s, h, a);
	} else if (h->type == PERF_RECORD_SAMPLE) {
		s->samples[ev]++;
	} else {
		struct pk_record d = { .size = sizeof(d) };

		if (pk_record_decode(h, a, &d) == 0)
			s->lost[ev] += (uint32_t)d.lost_samples.lost;
	}
	return 0;
}

static void print(FILE *f, const struct stats *s, struct pk_data_reader *r)
{
	fprintf(f, "\nAggregated stats:%s\n",
		pk_data_reader_has_feature(r, PK_DATA_FEAT_AUXTRACE)
			? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)"
			: "");
	for (uint32_t t = 0; t < NR_TYPES; t++) {
		const char *name = type_name(t);

		if (!name || (t && !s->nr[t]))
			continue;
		if (t && s->nr[0])
			fprintf(f, "%16s events: %10u  (%4.1f%%)\n", name, s->nr[t], 100.0 * s->nr[t] / s->nr[0]);
		else
			fprintf(f, "%16s events: %10u\n", name, s->nr[t]);
	}
	for (size_t i = 0; i < pk_data_reader_nr_events(r) && i < s->nr_ev; i++) {
		const char *name = pk_data_reader_name(r, i);

		if (!s->samples[i] && !s->lost[i])
			continue;
		fprintf(f, "%s stats:\n", name ? name : "unknown");
		if (s->samples[i])
			fprintf(f, "%16s events: %10u\n", "SAMPLE", s->samples[i]);
		if (s->lost[i])
			fprintf(f, "%16s events: %10u\n", "LOST_SAMPLES", s->lost[i]);
	}
}

int report_stats(FILE *f, struct pk_data_reader *r)
{
	size_t nr_ev = pk_data_reader_nr_events(r);
	struct stats s = { .samples = calloc(nr_ev + 1, sizeof(uint32_t)),
			   .lost = calloc(nr_ev + 1, sizeof(uint32_t)), .nr_ev = nr_ev };
	const struct perf_event_header *h;
	int rc = 0, n, err = 0;

	if (!s.samples || !s.lost || report_reads_init(&s.reads, r) < 0) {
		free(s.samples);
		free(s.lost);
		cli_message(stderr, "perfkit report: out of memory\n");
		return CLI_EXIT_EVENT;
	}
	/* Counting needs no order: the file's is the cheapest.  (A counter's
	 * samples, whose growth decides where they count, come from its one
	 * ring in time order either way.) */
	pk_data_reader_set_order(r, PK_DATA_ORDER_FILE);
	while (!err && (n = pk_data_reader_next(r, &h)) > 0)
		err = count(&s, r, h);
	/* The records the reader read for itself: a stream's header records,
	 * COMPRESSED ones (perf counts them and what they expand to). */
	for (uint32_t t = 64; t < NR_TYPES; t++) {
		uint64_t taken = pk_data_reader_nr_taken(r, t);

		s.nr[t] += (uint32_t)taken;
		s.nr[0] += (uint32_t)taken;
	}
	if (err)
		cli_message(stderr, "perfkit report: out of memory\n");
	else
		print(f, &s, r);
	if (!err && n < 0)
		rc = cli_error("report", NULL);
	report_reads_free(&s.reads);
	free(s.samples);
	free(s.lost);
	return err ? CLI_EXIT_EVENT : rc;
}
