/* SPDX-License-Identifier: MIT */
/*
 * report-sort2.c - perf 6.1's later report --sort keys: time (the
 * sample's time rounded down to --time-quantum, 100ms by default, shown
 * as perf's "sec.usec" or, with --ns, "sec.nsec", cut to the column),
 * symbol_size (the symbol's end minus its start, "unknown" without one)
 * and socket (perf 6.1 reading a file knows no CPU topology: every
 * sample's socket is -1).  Their fields of a sample, their headers and
 * their cells; the histogram groups and orders them (hist-keys2.c).
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

#define DEFAULT_QUANTUM 100000000ull	/* perf's symbol_conf.time_quantum: 100ms */

void report_sort2_fill(const struct report_opts *o, const struct pk_sample *smp, const struct pk_location *loc,
		       struct pk_hist_sample *s)
{
	uint64_t q = o->f3.time_quantum ? o->f3.time_quantum : DEFAULT_QUANTUM;
	uint64_t t = smp->fields & PERF_SAMPLE_TIME ? smp->time : 0;

	s->time = t / q * q;	/* perf's hist_time */
	report_sort2_frame(loc, s);
	s->socket = -1;
}

void report_sort2_frame(const struct pk_location *loc, struct pk_hist_sample *s)
{
	s->sym_size = loc->sym ? loc->sym_end - loc->sym_start : 0;
}

const char *report_sort2_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_TIME: return "Time";
	case PK_HIST_KEY_SYM_SIZE: return "Symbol size";
	case PK_HIST_KEY_SOCKET: return "Socket";
	default: return "?";
	}
}

int report_sort2_width(const struct report_opts *o, enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_TIME: return o->f2.ns ? 16 : 12;	/* perf's HISTC_TIME */
	case PK_HIST_KEY_SOCKET: return 6;
	default: return 0;	/* the header's */
	}
}

void report_sort2_print(FILE *f, const struct report_opts *o, enum pk_hist_key k, int w,
			const struct pk_hist_entry *e)
{
	char t[48];

	switch (k) {
	case PK_HIST_KEY_TIME:
		if (o->f2.ns)
			snprintf(t, sizeof(t), "%" PRIu64 ".%09" PRIu64, e->s.time / 1000000000,
				 e->s.time % 1000000000);
		else
			snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->s.time / 1000000000,
				 e->s.time % 1000000000 / 1000);
		fprintf(f, "%-.*s", w, t);	/* perf's: cut to the width, not padded */
		break;
	case PK_HIST_KEY_SYM_SIZE:
		if (e->s.sym)
			fprintf(f, "%*d", w, (int)e->s.sym_size);
		else
			fprintf(f, "%*s", w, "unknown");
		break;
	case PK_HIST_KEY_SOCKET:
		fprintf(f, "%*.*d", w, w - 3, (int)e->s.socket);
		break;
	default:
		break;
	}
}
