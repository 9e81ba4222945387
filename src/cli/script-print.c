/* SPDX-License-Identifier: MIT */
/*
 * script-print.c - one sample as perf script prints it: comm (padded to 16,
 * or not when a call chain follows), pid/tid, [cpu], the time in seconds
 * with microseconds (nanoseconds with --ns), the period, the event name
 * padded to the longest one, a tracepoint's fields through its format in
 * the file's tracing data, and the ip with sym+off and dso, or the call
 * chain one frame a line ("\t%16lx sym+0xoff (dso)") and a blank line.
 */
#include "script.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HAS(t, x) ((t)->fields & SF_##x)

static void print_start(FILE *f, const struct script_ctx *c, const struct script_type *t,
			const struct pk_sample *s, const char *comm, bool chain)
{
	if (HAS(t, COMM))
		fprintf(f, chain && HAS(t, IP) ? "%s " : "%16s ", comm);
	if (HAS(t, PID) && HAS(t, TID))
		fprintf(f, "%5d/%-5d ", (int)s->pid, (int)s->tid);
	else if (HAS(t, PID))
		fprintf(f, "%5d ", (int)s->pid);
	else if (HAS(t, TID))
		fprintf(f, "%5d ", (int)s->tid);
	if (HAS(t, CPU))
		fprintf(f, "[%03u] ", s->cpu);
	if (HAS(t, TIME)) {
		uint64_t secs = s->time / 1000000000u, ns = s->time % 1000000000u;
		char buf[48];

		if (c->o->ns) {
			fprintf(f, "%5" PRIu64 ".%09" PRIu64 ": ", secs, ns);
		} else {
			snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, secs, ns / 1000);
			fprintf(f, "%12s: ", buf);
		}
	}
}

/* " sym+0xoff (dso)" after an address, as the fields ask. */
static void print_where(FILE *f, const struct script_type *t, const struct pk_location *loc, bool found)
{
	if (HAS(t, SYM)) {
		if (found && loc->sym) {
			fprintf(f, " %s", loc->sym);
			if (HAS(t, SYMOFF))
				fprintf(f, "+0x%" PRIx64, loc->symoff);
		} else {
			fputs(" [unknown]", f);
		}
	}
	if (HAS(t, DSO))
		fprintf(f, " (%s)", found && loc->dso ? loc->dso->name : "[unknown]");
}

/* An address, and where it is.  A call chain's user-space frames show the
 * address inside their DSO, as perf does ("binary offset"). */
static void print_ip(FILE *f, struct script_ctx *c, const struct script_type *t, uint32_t pid,
		     uint64_t ip, uint16_t cpumode, bool frame)
{
	struct pk_location loc = { .size = sizeof(loc) };
	bool found = pk_maps_resolve(c->maps, pid, ip, cpumode, &loc) == 0;

	fprintf(f, "%16" PRIx64, frame && found && !loc.kernel && !loc.dso->kernel ? loc.addr : ip);
	print_where(f, t, &loc, found);
}

/* The call chain, a frame a line; the context markers switch the mode the
 * frames after them are resolved in, as perf does. */
static void print_chain(FILE *f, struct script_ctx *c, const struct script_type *t,
			const struct pk_sample *s)
{
	uint16_t mode = PERF_RECORD_MISC_USER;

	for (uint64_t i = 0; i < s->callchain.nr; i++) {
		uint64_t ip = s->callchain.ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL: mode = PERF_RECORD_MISC_KERNEL; break;
			case PERF_CONTEXT_USER: mode = PERF_RECORD_MISC_USER; break;
			case PERF_CONTEXT_GUEST_KERNEL: mode = PERF_RECORD_MISC_GUEST_KERNEL; break;
			case PERF_CONTEXT_GUEST_USER: mode = PERF_RECORD_MISC_GUEST_USER; break;
			case PERF_CONTEXT_HV: mode = PERF_RECORD_MISC_HYPERVISOR; break;
			default: break;
			}
			continue;
		}
		fputc('\t', f);
		print_ip(f, c, t, s->pid, ip, mode, true);
		fputc('\n', f);
	}
}

static int print_trace(FILE *f, struct script_ctx *c, const struct pk_sample *s)
{
	int n;

	if (!c->tracing || !s->raw.data)
		return 0;
	n = pk_tracing_format(c->tracing, s->raw.data, s->raw.size, (int)s->cpu, c->trace_buf, c->trace_len);
	if (n >= 0 && (size_t)n >= c->trace_len) {
		char *b = realloc(c->trace_buf, (size_t)n + 1);

		if (!b)
			return -ENOMEM;
		c->trace_buf = b;
		c->trace_len = (size_t)n + 1;
		n = pk_tracing_format(c->tracing, s->raw.data, s->raw.size, (int)s->cpu, b, c->trace_len);
	}
	if (n > 0)
		fputs(c->trace_buf, f);
	return n == -ENOMEM ? n : 0;
}

int script_print_sample(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
			const char *name, uint16_t misc, const struct pk_sample *s)
{
	const struct script_type *t = &c->o->type[script_type_of(attr->type)];
	bool chain = c->callchains && (s->fields & PERF_SAMPLE_CALLCHAIN);
	const char *comm;
	int err;

	if (!t->fields)
		return 0;
	if (!(comm = pk_threads_comm(c->threads, s->pid, s->tid)))
		return -ENOMEM;
	print_start(f, c, t, s, comm, chain);
	if (HAS(t, PERIOD))
		fprintf(f, "%10" PRIu64 " ", (uint64_t)(s->fields & PERF_SAMPLE_PERIOD ? s->period : attr->sample_period));
	if (HAS(t, EVNAME))
		fprintf(f, "%*s: ", c->name_width, name ? name : "[unknown]");
	if (HAS(t, TRACE) && (err = print_trace(f, c, s)) < 0)
		return err;
	if (HAS(t, ADDR))
		fprintf(f, "%16" PRIx64, s->addr);
	if (HAS(t, IP)) {
		if (chain) {
			fputc('\n', f);
			print_chain(f, c, t, s);
		} else {
			fputc(' ', f);
			print_ip(f, c, t, s->pid, s->ip, misc & PERF_RECORD_MISC_CPUMODE_MASK, false);
		}
	}
	fputc('\n', f);
	return 0;
}
