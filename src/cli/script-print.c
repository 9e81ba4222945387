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
#include "script-fields.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HAS(t, x) ((t)->fields & SF_##x)

static void print_start(FILE *f, const struct script_ctx *c, const struct script_type *t,
			const struct pk_sample *s, const char *comm, bool chain, uint16_t misc,
			uint32_t rec_type)
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
	if (HAS(t, MISC))
		script_print_misc(f, misc, rec_type);
	if (HAS(t, TOD))
		script_print_tod(f, c, s->time);
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
 * address inside their DSO's file as perf does ("binary offset"): ip -
 * map start + pgoff, the file offset, which for a non-PIE executable is
 * not the symbol's virtual address. */
static void print_ip(FILE *f, const struct script_type *t, uint64_t ip, const struct pk_location *loc,
		     bool frame)
{
	bool found = loc->dso != NULL;

	fprintf(f, "%16" PRIx64, frame && found && !loc->kernel && !loc->dso->kernel ? loc->map_ip : ip);
	print_where(f, t, loc, found);
}

/* The sample's data address; for page faults, the only events perf
 * correlates it with code for, also the symbol and DSO that hold it (a
 * user page faulted on in the kernel is found in the process's maps). */
static void print_addr(FILE *f, struct script_ctx *c, const struct script_type *t,
		       const struct perf_event_attr *a, const struct pk_sample *s,
		       const struct pk_resolved_sample *r)
{
	struct pk_location loc = { .size = sizeof(loc) };
	bool found;

	fprintf(f, "%16" PRIx64, s->addr);
	if (a->type != PERF_TYPE_SOFTWARE || (a->config != PERF_COUNT_SW_PAGE_FAULTS &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	found = pk_maps_resolve_data(pk_resolver_maps(c->res), r->pid, s->addr, r->cpumode, &loc) == 0;
	print_where(f, t, &loc, found);
}

/* The call chain the resolver built, a frame a line; an inlined
 * function's frame says "(inlined)" where its DSO would be, as perf. */
static void print_chain(FILE *f, const struct script_ctx *c, const struct script_type *t,
			const struct pk_resolved_sample *r)
{
	/* perf's --max-stack 0 keeps no frame (the resolver keeps at least one) */
	size_t nr = c->o->max_stack_given && !c->o->max_stack ? 0 : r->nr_frames;

	for (size_t i = 0; i < nr; i++) {
		const struct pk_frame *fr = &r->frames[i];
		struct script_type noso = *t;

		fputc('\t', f);
		if (fr->inlined)
			noso.fields &= ~(uint32_t)SF_DSO;
		print_ip(f, fr->inlined ? &noso : t, fr->ip, &fr->loc, true);
		if (HAS(t, SRCLINE))
			script_print_srcline(f, c->res, &fr->loc, fr, !c->o->no_inline);
		if (fr->inlined)
			fputs(" (inlined)", f);
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

/* What perf prints after "PERF_RECORD_<TYPE>" for a side-band record. */
static void print_side_body(FILE *f, const struct pk_record *rec)
{
	const struct pk_rec_mmap2 *m2 = &rec->mmap2;
	const struct pk_rec_mmap *m = &rec->mmap;

	switch (rec->type) {
	case PERF_RECORD_COMM:
		fprintf(f, "COMM%s: %s:%d/%d\n", rec->comm.exec ? " exec" : "", rec->comm.comm,
			(int)rec->comm.pid, (int)rec->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "%s(%d:%d):(%d:%d)\n", rec->type == PERF_RECORD_FORK ? "FORK" : "EXIT",
			(int)rec->task.pid, (int)rec->task.tid, (int)rec->task.ppid, (int)rec->task.ptid);
		break;
	case PERF_RECORD_MMAP:
		fprintf(f, "MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n", (int)m->pid,
			(int)m->tid, m->addr, m->len, m->pgoff,
			rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x', m->filename);
		break;
	default:
		fprintf(f, "MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m2->pid, (int)m2->tid,
			m2->addr, m2->len, m2->pgoff);
		if (m2->has_build_id) {
			fputs(" <", f);
			for (unsigned int i = 0; i < m2->build_id_size; i++)
				fprintf(f, "%02x", m2->build_id[i]);
			fputc('>', f);
		} else {
			fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, m2->maj, m2->min, m2->ino,
				m2->ino_generation);
		}
		fprintf(f, "]: %c%c%c%c %s\n", m2->prot & 1 ? 'r' : '-', m2->prot & 2 ? 'w' : '-',
			m2->prot & 4 ? 'x' : '-', m2->flags & 1 ? 's' : 'p', m2->filename);
		break;
	}
}

int script_print_side(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
		      const struct pk_record *rec)
{
	const struct script_type *t;
	struct pk_sample s = { .pid = rec->id.pid, .tid = rec->id.tid, .cpu = rec->id.cpu,
			       .time = rec->id.time };
	uint32_t pid, tid;
	const char *comm = NULL;

	switch (rec->type) {
	case PERF_RECORD_COMM: pid = rec->comm.pid; tid = rec->comm.tid; break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: pid = rec->task.pid; tid = rec->task.tid; break;
	case PERF_RECORD_MMAP: pid = rec->mmap.pid; tid = rec->mmap.tid; break;
	default: pid = rec->mmap2.pid; tid = rec->mmap2.tid; break;
	}
	if (attr) {
		/* perf's stand-ins when the records carry no sample id */
		if (!attr->sample_id_all)
			s = (struct pk_sample){ .pid = pid, .tid = tid, .time = rec->type == PERF_RECORD_FORK ||
						rec->type == PERF_RECORD_EXIT ? rec->task.time : 0 };
		if (tid != (uint32_t)-1 && !(comm = pk_threads_comm(pk_resolver_threads(c->res), pid, tid)))
			return -ENOMEM;
		t = &c->o->type[script_type_of(attr->type)];
		print_start(f, c, t, &s, comm ? comm : ":-1",
			    c->callchains && (attr->sample_type & PERF_SAMPLE_CALLCHAIN), rec->misc, rec->type);
	}
	fputs("PERF_RECORD_", f);
	print_side_body(f, rec);
	return 0;
}

int script_print_sample(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
			const char *name, const struct pk_record *rec)
{
	const struct script_type *t = &c->o->type[script_type_of(attr->type)];
	const struct pk_sample *s = &rec->sample;
	struct pk_resolved_sample r = { .size = sizeof(r) };
	bool chain = c->callchains && (s->fields & PERF_SAMPLE_CALLCHAIN);
	/* perf's --max-stack 0: its DWARF unwinding fails, so a sample with a
	 * user stack is printed on one line (the comm as for a call chain) */
	bool lines = chain && !(c->o->max_stack_given && !c->o->max_stack &&
				(attr->sample_type & PERF_SAMPLE_STACK_USER));
	int err;

	if (!t->fields)
		return 0;
	if ((err = pk_resolver_resolve(c->res, rec, &r)) < 0)
		return err;
	print_start(f, c, t, s, r.comm, chain, rec->misc, PERF_RECORD_SAMPLE);
	if (HAS(t, PERIOD))
		fprintf(f, "%10" PRIu64 " ", (uint64_t)(s->fields & PERF_SAMPLE_PERIOD ? s->period : attr->sample_period));
	if (HAS(t, EVNAME))
		fprintf(f, "%*s: ", c->name_width, name ? name : "[unknown]");
	if (HAS(t, TRACE) && (err = print_trace(f, c, s)) < 0)
		return err;
	if (HAS(t, ADDR))
		print_addr(f, c, t, attr, s, &r);
	if (HAS(t, DATA_SRC))
		script_print_data_src(f, c, s->data_src);
	script_print_weight(f, t, s);
	if (HAS(t, IP)) {
		if (lines) {
			fputc('\n', f);
			print_chain(f, c, t, &r);
		} else {
			fputc(' ', f);
			print_ip(f, t, s->ip, &r.loc, false);
			if (HAS(t, SRCLINE))
				script_print_srcline(f, c->res, &r.loc, NULL, !c->o->no_inline);
		}
	}
	script_print_tail(f, c, t, attr, s, r.pid, r.cpumode);
	fputc('\n', f);
	return 0;
}
