/* SPDX-License-Identifier: MIT */
/*
 * report-dump.c - perf report -D (--dump-raw-trace) and perf script -D:
 * each record of a perf.data file in the order perf 6.1 dumps them (time
 * order, a FINISHED_ROUND before the records it releases), as perf lays
 * it out: "<offset>@<file> [<size>]: event: <type>", the raw bytes in
 * perf's hex dump, then the time stamp, the offset again and the decoded
 * line (samples with their call chain and the thread and DSO a resolver
 * fed with the records so far finds); at the end perf's aggregated count
 * per record type and each event's sample count.  The layout follows perf
 * 6.1's util/session.c and util/event.c, written anew here.
 */
#include "report-dump.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define NR_TYPES 83		/* perf 6.1's PERF_RECORD_HEADER_MAX */

/* perf's user record types this file decodes. */
enum {
	T_ATTR = 64, T_EVENT_TYPE = 65, T_TRACING_DATA = 66, T_BUILD_ID = 67, T_FEATURE = 80,
	T_FINISHED_ROUND = 68, T_ID_INDEX = 69, T_THREAD_MAP = 73, T_CPU_MAP = 74,
	T_EVENT_UPDATE = 78, T_FINISHED_INIT = 82,
};

static const char *const type_names[NR_TYPES] = {
	[0] = "TOTAL", [PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA", [67] = "BUILD_ID",
	[68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO", [71] = "AUXTRACE",
	[72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
};

/* perf_event__name: "INVALID" past the table, "UNKNOWN" for a hole. */
static const char *type_name(uint32_t type)
{
	if (type >= NR_TYPES)
		return "INVALID";
	return type_names[type] ? type_names[type] : "UNKNOWN";
}

struct dump {
	FILE *f;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	const char *path;
	bool script;			/* perf script -D (struct report_dump_opts) */
	bool diff;			/* perf diff -D (struct report_dump_opts) */
	bool file_order;		/* perf report -D --disable-order */
	const struct report_dump_opts *o;	/* or NULL */
	bool dir;			/* path is perf's directory format */
	bool pipe;			/* a pipe-mode stream, its header records dumped */
	size_t nr_seen;			/* the events perf knows so far (a stream's come as records) */
	uint64_t sample_type;		/* their sample_types, or'ed: what the time stamp shows */
	bool sample_id_all;		/* the first one's */
	uint32_t nr[NR_TYPES];
	uint32_t *nr_samples;		/* per event, for nr_samples_cap events */
	size_t nr_samples_cap;
	struct report_reads reads;	/* PERF_SAMPLE_READ: each counter's last value */
	const struct perf_event_header *h;	/* the record being dumped */
};

/* perf's stream offsets count from after the 16-byte pipe header. */
#define PIPE_HEADER 16

/* The events perf knows are the first n: what the time stamps show. */
static void events_seen(struct dump *d, size_t n)
{
	d->nr_seen = n;
	d->sample_type = 0;
	for (size_t i = 0; i < n; i++)
		d->sample_type |= pk_data_reader_attr(d->r, i)->sample_type;
	/* perf's empty evlist (a stream before its first HEADER_ATTR) has none */
	d->sample_id_all = n && pk_data_reader_attr(d->r, 0)->sample_id_all;
}

/* One more sample delivered to event ev, for the stats at the end. */
static int count_sample(struct dump *d, int ev)
{
	if ((size_t)ev >= d->nr_samples_cap) {	/* an event a stream added late */
		size_t cap = (size_t)ev + 16;
		uint32_t *n = realloc(d->nr_samples, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + d->nr_samples_cap, 0, (cap - d->nr_samples_cap) * sizeof(*n));
		d->nr_samples = n;
		d->nr_samples_cap = cap;
	}
	d->nr_samples[ev]++;
	return 0;
}

/* perf's print_binary with trace_event_printer: 16 bytes a line. */
static void hex_dump(FILE *f, const unsigned char *p, size_t len)
{
	fprintf(f, ".\n. ... raw event: size %zu bytes\n", len);
	for (size_t at = 0; at < len; at += 16) {
		fprintf(f, ".  %04zx: ", at);
		for (size_t i = at; i < at + 16; i++)
			i < len ? fprintf(f, " %02x", p[i]) : fputs("   ", f);
		fputs("  ", f);
		for (size_t i = at; i < at + 16; i++)
			fputc(i >= len ? ' ' : isprint(p[i]) && isascii(p[i]) ? p[i] : '.', f);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* evlist__print_tstamp: the cpu and time the events' sample_type shows,
 * `rec` the record decoded (NULL: perf's own record types, whose sample
 * perf zeroes, or one that did not decode).  perf parses a kernel record
 * into a sample whose cpu starts as (u32)-1 and time as (u64)-1: where
 * the record's own event does not write the field (no CPU in its
 * sample_type, or no sample_id_all trailer at all) those are printed,
 * though another event of the file has it. */
static void tstamp(const struct dump *d, uint32_t type, const struct pk_record *rec)
{
	uint32_t cpu = 0;
	uint64_t time = 0;

	if (type != PERF_RECORD_SAMPLE && !d->sample_id_all) {
		fputs("-1 -1 ", d->f);
		return;
	}
	if (rec) {
		cpu = rec->id.fields & PERF_SAMPLE_CPU ? rec->id.cpu : UINT32_MAX;
		time = rec->id.fields & PERF_SAMPLE_TIME ? rec->id.time : UINT64_MAX;
	}
	if (d->sample_type & PERF_SAMPLE_CPU)
		fprintf(d->f, "%u ", cpu);
	if (d->sample_type & PERF_SAMPLE_TIME)
		fprintf(d->f, "%" PRIu64 " ", time);
}

static void print_mmap2(FILE *f, const struct pk_rec_mmap2 *m)
{
	fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid, m->addr,
		m->len, m->pgoff);
	if (m->has_build_id) {
		fputs(" <", f);
		for (unsigned int i = 0; i < m->build_id_size; i++)
			fprintf(f, "%02x", m->build_id[i]);
		fputc('>', f);
	} else {
		fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino, m->ino_generation);
	}
	fprintf(f, "]: %c%c%c%c %s\n", m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
		m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p', m->filename);
}

static void print_switch(FILE *f, const struct pk_record *d)
{
	const char *in_out = !d->switch_.out ? "IN         " : !d->switch_.preempt ? "OUT        " : "OUT preempt";

	if (d->type == PERF_RECORD_SWITCH)
		fprintf(f, " %s\n", in_out);
	else
		fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", in_out, d->switch_.out ? "next" : "prev",
			(int)d->switch_.next_prev_pid, (int)d->switch_.next_prev_tid);
}

/* What perf's report prints after "PERF_RECORD_<TYPE>" for a kernel
 * record other than a sample. */
static void print_kernel(FILE *f, const struct pk_record *d, bool script)
{
	switch (d->type) {
	case PERF_RECORD_MMAP:
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n", (int)d->mmap.pid,
			(int)d->mmap.tid, d->mmap.addr, d->mmap.len, d->mmap.pgoff,
			d->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x', d->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		print_mmap2(f, &d->mmap2);
		break;
	case PERF_RECORD_COMM:
		fprintf(f, "%s: %s:%d/%d\n", d->comm.exec ? " exec" : "", d->comm.comm, (int)d->comm.pid,
			(int)d->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "(%d:%d):(%d:%d)\n", (int)d->task.pid, (int)d->task.tid, (int)d->task.ppid,
			(int)d->task.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", d->lost.id, d->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(f, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", d->id.id, d->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(f, d);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(f, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", d->ksymbol.addr,
			d->ksymbol.len, d->ksymbol.ksym_type, d->ksymbol.flags, d->ksymbol.name);
		break;
	default:
		if (!report_dump_kernel_rec(f, d, script))
			fputc('\n', f);
	}
}

/* sample_read__printf, from the READ words (read_format's layout). */
static void print_read(FILE *f, const struct pk_read_values *v, uint64_t fmt)
{
	const uint64_t *w = v->data;
	size_t n = v->len / 8, at = 0, nr = 1;
	bool group = fmt & PERF_FORMAT_GROUP;
	uint64_t val = 0;

	if (n && !group)
		val = w[at++];
	else if (n)
		nr = (size_t)w[at++];
	fputs("... sample_read:\n", f);
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && at < n)
		fprintf(f, "...... time enabled %016" PRIx64 "\n", w[at++]);
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && at < n)
		fprintf(f, "...... time running %016" PRIx64 "\n", w[at++]);
	if (group)
		fprintf(f, ".... group nr %zu\n", nr);
	for (size_t i = 0; i < nr && at <= n; i++) {
		uint64_t id = 0, lost = 0;

		if (group && at < n)
			val = w[at++];
		if ((fmt & PERF_FORMAT_ID) && at < n)
			id = w[at++];
		if ((fmt & PERF_FORMAT_LOST) && at < n)
			lost = w[at++];
		fprintf(f, "..... id %016" PRIx64 ", value %016" PRIx64, id, val);
		if (fmt & PERF_FORMAT_LOST)
			fprintf(f, ", lost %" PRIu64, lost);
		fputc('\n', f);
	}
}

/* The DSO's long name as perf 6.1 prints it.  A vDSO the file's BUILD_ID
 * feature does not list is one perf copies out of its own process into
 * mkstemp("/tmp/perf-vdso.so-XXXXXX") and names by that file
 * (machine__findnew_vdso); perfkit reads the running image in place, so it
 * prints mkstemp's template: perf's name but for the random suffix. */
static const char *dso_long_name(const struct pk_dso *dso)
{
	if (!strcmp(dso->name, "[vdso]") && !dso->build_id_size)
		return "/tmp/perf-vdso.so-XXXXXX";
	return dso->name;
}

/* One delivery of a sample to event ev (perf's tool->sample):
 * machine__resolve's thread and DSO lines, unless the tool drops the
 * sample first, and the event's count. */
static int deliver(struct dump *d, const struct pk_record *rec, int ev)
{
	struct pk_resolved_sample rs = { .size = sizeof(rs) };
	int err;

	if (d->o && d->o->dropped && d->o->dropped(d->o->ctx, &rec->sample))
		return count_sample(d, ev);
	if ((err = pk_resolver_resolve(d->res, rec, &rs)) < 0)
		return err;
	fprintf(d->f, " ... thread: %s:%d\n", rs.comm, (int)rs.tid);
	fprintf(d->f, " ...... dso: %s\n", rs.loc.dso ? dso_long_name(rs.loc.dso)
		: rs.cpumode == PERF_RECORD_MISC_HYPERVISOR ? "[hypervisor]" : "<not found>");
	return count_sample(d, ev);
}

/* perf's deliver_sample_group and deliver_sample_value: a sample that
 * reads counters goes to the event of each counter that grew since its
 * last sample, none to one that did not (nor to an id no event has). */
static int deliver_reads(struct dump *d, const struct pk_record *rec, const struct perf_event_attr *a)
{
	struct report_read out[REPORT_READS_MAX];
	int n = report_reads_split(&d->reads, a, &rec->sample.read, out, REPORT_READS_MAX), err = 0;

	if (n < 0)
		return n == -ENOMEM ? n : 0;	/* values that do not parse: perf's parse failed */
	for (int i = 0; i < n && !err; i++) {
		err = deliver(d, rec, (int)out[i].ev);
		if (!err && d->o && d->o->member)
			err = d->o->member(d->o->ctx, d->h, out[i].ev, out[i].id, out[i].period);
	}
	return err;
}

/* dump_sample, then its deliveries. */
static int print_sample(struct dump *d, const struct pk_record *rec, const struct perf_event_attr *a, int ev)
{
	const struct pk_sample *s = &rec->sample;

	fprintf(d->f, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n", rec->misc,
		(int)s->pid, (int)s->tid, s->ip,
		/* perf's default: the attr's period (or frequency) without PERIOD */
		a->sample_type & PERF_SAMPLE_PERIOD ? s->period : (uint64_t)a->sample_period, s->addr);
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN) {
		report_dump_lbr_chain(d->f, s, a);
		fprintf(d->f, "... FP chain: nr:%" PRIu64 "\n", s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			fprintf(d->f, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain.ips[i]);
	}
	report_dump_sample_extra(d->f, s, a);
	if (!(a->sample_type & PERF_SAMPLE_READ))
		return deliver(d, rec, ev);
	print_read(d->f, &s->read, a->read_format);
	return deliver_reads(d, rec, a);
}

/* cpu_map__snprint: runs of consecutive CPUs as "a-b", joined by commas. */
static void print_cpus(FILE *f, const int *cpu, size_t nr)
{
	for (size_t i = 0, start = 0; i < nr; i++) {
		if (i + 1 < nr && cpu[i + 1] == cpu[i] + 1)
			continue;
		fprintf(f, "%s%d", start ? "," : "", cpu[start]);
		if (i > start)
			fprintf(f, "-%d", cpu[i]);
		start = i + 1;
	}
	fputc('\n', f);
}

/* perf_record_cpu_map_data at p (len bytes): a list (type 0), a mask (1:
 * u16 nr, u16 long size, then nr longs) or a range (2). */
static void print_cpu_map(FILE *f, const unsigned char *p, size_t len)
{
	int cpu[1024];
	size_t nr = 0;
	uint16_t type = len >= 2 ? cli_u16_at(p) : 0xffff;

	if (type == 0 && len >= 4) {
		for (size_t i = 0; i < cli_u16_at(p + 2) && 6 + 2 * i <= len && nr < 1024; i++)
			cpu[nr++] = (int16_t)cli_u16_at(p + 4 + 2 * i);
	} else if (type == 1 && len >= 6) {
		size_t words = cli_u16_at(p + 2), lsz = cli_u16_at(p + 4), base = lsz == 8 ? 8 : 6;

		for (size_t b = 0; b < words * lsz * 8 && base + b / 8 < len && nr < 1024; b++)
			if (p[base + b / 8] & (1u << (b % 8)))
				cpu[nr++] = (int)b;
	} else if (type == 2 && len >= 8) {
		if (p[2])
			cpu[nr++] = -1;
		for (int c = cli_u16_at(p + 4); c <= cli_u16_at(p + 6) && nr < 1024; c++)
			cpu[nr++] = c;
	}
	print_cpus(f, cpu, nr);
}

static void print_id_index(FILE *f, const unsigned char *p, size_t len)
{
	uint64_t nr = len >= 16 ? cli_u64_at(p + 8) : 0;

	fprintf(f, " nr: %" PRIu64 "\n", nr);
	for (uint64_t i = 0; i < nr && 16 + (i + 1) * 32 <= len; i++) {
		const unsigned char *e = p + 16 + i * 32;

		fprintf(f, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64 "\n",
			cli_u64_at(e), cli_u64_at(e + 8), (int64_t)cli_u64_at(e + 16), (int64_t)cli_u64_at(e + 24));
	}
}

static void print_thread_map(FILE *f, const unsigned char *p, size_t len, bool script)
{
	uint64_t nr = len >= 16 ? cli_u64_at(p + 8) : 0;

	fprintf(f, " nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
	for (uint64_t i = 0; i < nr && 16 + (i + 1) * 24 <= len; i++)
		fprintf(f, "%s%d", i ? ", " : "", (int)cli_u64_at(p + 16 + i * 24));
	fputs(script ? "\n" : "\n: unhandled!\n", f);
}

static void print_event_update(FILE *f, const unsigned char *p, size_t len)
{
	double scale;

	if (len < 24) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "\n... id:    %" PRIu64 "\n", cli_u64_at(p + 16));
	switch (cli_u64_at(p + 8)) {
	case 0: fprintf(f, "... unit:  %.*s\n", (int)(len - 24), (const char *)p + 24); break;
	case 1:
		memcpy(&scale, p + 24, len >= 32 ? sizeof(scale) : 0);
		fprintf(f, "... scale: %f\n", len >= 32 ? scale : 0.0);
		break;
	case 2: fprintf(f, "... name:  %.*s\n", (int)(len - 24), (const char *)p + 24); break;
	case 3: fputs("... ", f); print_cpu_map(f, p + 24, len - 24); break;
	default: fputs("... unknown type\n", f);
	}
}

/* What perf's report prints after "PERF_RECORD_<TYPE>" for its own
 * record types. */
static void print_user(FILE *f, const struct perf_event_header *h, bool script, bool diff,
		       bool file_order)
{
	const unsigned char *p = (const unsigned char *)h;

	switch (h->type) {
	case T_ID_INDEX:	/* perf diff has no handler for it */
		if (diff)
			fputs(": unhandled!\n", f);
		else
			print_id_index(f, p, h->size);
		break;
	case T_THREAD_MAP: print_thread_map(f, p, h->size, script); break;
	case T_CPU_MAP:
		fputs(": ", f);
		print_cpu_map(f, p + 8, h->size - 8u);
		fputs(script ? "" : ": unhandled!\n", f);
		break;
	case T_EVENT_UPDATE:	/* perf diff's stub prints it, then "unhandled" */
		print_event_update(f, p, h->size);
		fputs(diff ? ": unhandled!\n" : "", f);
		break;
	case T_FINISHED_INIT: fputs(": unhandled!\n", f); break;
	case T_ATTR: case T_EVENT_TYPE: case T_TRACING_DATA: case T_BUILD_ID: case T_FEATURE:
		/* a stream's header records: report's and script's handlers
		 * print nothing, not even the line's end; diff has stubs */
		fputs(diff ? ": unhandled!\n" : "", f);
		break;
	case T_FINISHED_ROUND:	/* without the ordered queue perf's stub has it */
		fputs(file_order ? ": unhandled!\n" : "\n", f);
		break;
	default:
		if (!report_dump_user_rec(f, h, script))
			fputc('\n', f);
	}
}

/* One record: perf's dump_event, then what its handler prints. */
static int dump_one(struct dump *d, const struct perf_event_header *h)
{
	struct pk_record rec = { .size = sizeof(rec) };
	int ev = pk_data_reader_event_of(d->r, h);
	/* perf decodes a record of no known id with the first event's attr
	 * (evlist__event2evsel), a sample excepted */
	const struct perf_event_attr *a = pk_data_reader_attr(d->r, ev >= 0 ? (size_t)ev : 0);
	bool decoded = h->type < PERF_RECORD_MAX && a && (ev >= 0 || h->type != PERF_RECORD_SAMPLE) &&
		       pk_record_decode(h, a, &rec) == 0;
	uint64_t off = pk_data_reader_offset(d->r) - (d->pipe ? PIPE_HEADER : 0);
	int err;

	d->h = h;
	d->nr[0]++;
	d->nr[h->type < NR_TYPES ? h->type : 0]++;
	/* a directory's records name their file (perf's DIR/data.N), a
	 * stream's, read from a pipe or a file, are perf's "pipe" */
	fprintf(d->f, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", off,
		d->pipe ? "pipe" : d->dir ? pk_data_reader_file(d->r) : d->path, h->size, h->type);
	hex_dump(d->f, (const unsigned char *)h, h->size);
	tstamp(d, h->type, decoded ? &rec : NULL);
	fprintf(d->f, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, h->size, type_name(h->type));
	if (h->type >= PERF_RECORD_MAX) {
		print_user(d->f, h, d->script, d->diff, d->file_order);
		/* perf's evlist grows by the event (but diff's stub ignores it) */
		if (h->type == T_ATTR && d->pipe && !d->diff && d->nr_seen < pk_data_reader_nr_events(d->r))
			events_seen(d, d->nr_seen + 1);
		return 0;
	}
	if (h->type == PERF_RECORD_READ) {	/* perf's dump_read, decoded or not */
		report_dump_read(d->f, h, ev >= 0 ? pk_data_reader_name(d->r, (size_t)ev) : NULL, ev >= 0 ? a : NULL);
		/* report has a handler; script's and diff's are perf's stub */
		fputs(d->script || d->diff ? ": unhandled!\n" : "", d->f);
	} else if (!decoded)
		fputc('\n', d->f);
	if (!decoded)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE)
		return print_sample(d, &rec, a, ev);
	if (h->type == PERF_RECORD_TEXT_POKE)
		report_dump_text_poke(d->f, &rec, d->res);
	else if (h->type != PERF_RECORD_READ)
		print_kernel(d->f, &rec, d->script);
	return (err = pk_resolver_process(d->res, &rec)) < 0 ? err : 0;
}

/* perf_session__fprintf_nr_events and evlist__fprintf_nr_events. */
static void print_stats(struct dump *d)
{
	struct pk_data_reader_stats st = { .size = sizeof(st) };

	/* perf counts the COMPRESSED records as it reads them */
	if (pk_data_reader_stats(d->r, &st) == 0) {
		d->nr[0] += (uint32_t)st.nr_compressed;
		d->nr[81] += (uint32_t)st.nr_compressed;
	}
	fprintf(d->f, "\nAggregated stats:%s\n",
		pk_data_reader_has_feature(d->r, PK_DATA_FEAT_AUXTRACE)
		? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	for (uint32_t i = 0; i < NR_TYPES; i++) {
		if (!type_names[i] || !d->nr[i])
			continue;
		if (i && d->nr[0])
			fprintf(d->f, "%16s events: %10u  (%4.1f%%)\n", type_names[i], d->nr[i],
				100.0 * d->nr[i] / d->nr[0]);
		else
			fprintf(d->f, "%16s events: %10u\n", type_names[i], d->nr[i]);
	}
	for (size_t i = 0; i < pk_data_reader_nr_events(d->r) && i < d->nr_samples_cap; i++) {
		const char *name = pk_data_reader_name(d->r, i);

		if (!d->nr_samples[i])
			continue;
		fprintf(d->f, "%s stats:\n", name ? name : "unknown");
		fprintf(d->f, "%16s events: %10u\n", "SAMPLE", d->nr_samples[i]);
	}
}

/* What the dump starts from: the events perf knows (a stream's: none
 * yet, its header records dumped as they come) and the order of the
 * records.  Returns 0 or a negative errno. */
static int dump_setup(struct dump *d)
{
	struct pk_data_layout lay = { .size = sizeof(lay) };
	size_t nr_ev = pk_data_reader_nr_events(d->r);
	bool unordered;
	int err;

	d->pipe = pk_data_reader_layout(d->r, &lay) == 0 && !lay.data_offset && !d->dir;
	if (d->pipe && (err = pk_data_reader_set_header_records(d->r, true)) < 0)
		return err;
	events_seen(d, d->pipe ? 0 : nr_ev);
	/* perf_session__new: a file (not a stream) whose first event has no
	 * sample_id_all (perf stat record's) is read in file order */
	unordered = !d->sample_id_all && !d->pipe;
	if (unordered && !d->file_order)
		fputs("WARNING: No sample_id_all support, falling back to unordered processing\n", d->f);
	err = pk_data_reader_set_order(d->r, unordered || d->file_order ? PK_DATA_ORDER_FILE
								     : PK_DATA_ORDER_TIME_ROUND_FIRST);
	if (err < 0)
		return err;
	d->nr_samples_cap = nr_ev ? nr_ev : 1;
	if (!(d->nr_samples = calloc(d->nr_samples_cap, sizeof(*d->nr_samples))))
		return -ENOMEM;
	return report_reads_init(&d->reads, d->r);
}

int report_dump(FILE *f, struct pk_data_reader *r, const char *path, const struct report_dump_opts *o)
{
	struct stat st;
	struct dump d = { .f = f, .r = r, .path = path, .dir = !stat(path, &st) && S_ISDIR(st.st_mode),
			  .script = o && o->script, .diff = o && o->diff,
			  .file_order = o && o->file_order, .o = o };
	const struct perf_event_header *h;
	int err;

	if ((err = dump_setup(&d)) < 0 || (err = pk_resolver_new(r, &d.res)) < 0) {
		report_reads_free(&d.reads);
		free(d.nr_samples);
		return err;
	}
	if (!d.script && !d.diff)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", f);
	while ((err = pk_data_reader_next(r, &h)) > 0)
		if ((err = dump_one(&d, h)) < 0 || (o && o->hook && (err = o->hook(o->ctx, h)) < 0))
			break;
	if (err == 0 && !d.script && !d.diff)
		print_stats(&d);
	pk_resolver_free(d.res);
	report_reads_free(&d.reads);
	free(d.nr_samples);
	return err;
}

/* A file cut short after its records: perf reads it without the feature
 * sections it lacks, and so does the reader; say what is missing. */
static void warn_cut(FILE *f, const struct pk_data_reader *r)
{
	unsigned int first = 0;
	uint32_t n = pk_data_reader_features_cut(r, &first);
	const char *name = pk_data_reader_feature_name(first);

	if (!n || pk_data_reader_unfinished(r, NULL))
		return;	/* an unfinished file: report_warn_unfinished told */
	fprintf(f, "Warning: %s is truncated: it ends before or inside its %s feature section", pk_data_reader_file(r),
		name ? name : "unknown");
	if (n > 1)
		fprintf(f, " and %u more after it", (unsigned int)n - 1);
	fputs(" (header information such as build-ids, the machine and the command line); every record is "
	      "there and was read\n", f);
}

void report_warn_unfinished(FILE *f, const struct pk_data_reader *r, const char *path)
{
	if (pk_data_reader_unfinished(r, NULL))
		fprintf(f, "WARNING: The %s file's data size field is 0 which is unexpected.\n"
			"Was the 'perf record' command properly terminated?\n", path);
}

void report_warn_skipped(FILE *f, const struct pk_data_reader *r)
{
	struct pk_data_reader_stats st = { .size = sizeof(st) };

	warn_cut(f, r);

	if (pk_data_reader_stats(r, &st) < 0)
		return;
	if (st.nr_auxtrace)
		fprintf(f, "Warning: %" PRIu64 " AUXTRACE records skipped (%" PRIu64 " bytes of AUX area trace "
			"data: perfkit does not decode it)\n", st.nr_auxtrace, st.auxtrace_bytes);
	if (st.nr_auxtrace_info + st.nr_aux + st.nr_itrace_start)
		fprintf(f, "Warning: %" PRIu64 " AUXTRACE_INFO, %" PRIu64 " AUX and %" PRIu64
			" ITRACE_START records skipped\n", st.nr_auxtrace_info, st.nr_aux, st.nr_itrace_start);
}

int report_dump_run(const char *cmd, const char *path, struct pk_data_reader *r, bool file_order)
{
	struct report_dump_opts o = { .file_order = file_order };
	int err = report_dump(stdout, r, path, &o);

	fflush(stdout);
	report_warn_skipped(stderr, r);
	pk_data_reader_free(r);
	return err < 0 ? cli_error(cmd, NULL) : 0;
}
