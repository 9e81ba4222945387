/* SPDX-License-Identifier: MIT */
/*
 * script-print.c - one sample as perf script prints it: comm (padded to 16,
 * or not when a call chain follows), pid/tid, [cpu], the time in seconds
 * with microseconds (nanoseconds with --ns), the period, the event name
 * padded to the longest one, a tracepoint's fields through its format in
 * the file's tracing data, and the ip with sym+off and dso, or the call
 * chain one frame a line ("\t%16lx sym+0xoff (dso)") and a blank line.
 * The fields printed here go through script-out.h's buffer (printf's
 * format parsing was most of the run's instructions); the buffer is
 * flushed before a helper of another file writes to the FILE itself.
 */
#include "script.h"
#include "script-fields.h"
#include "script-out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HAS(t, x) ((t)->fields & SF_##x)

/* What is kept between samples, copied instead of formatted again.  The
 * lines of a chain the resolver handed out before (its chain_id: the same
 * frames), as printed for its sample type: a hot workload's samples repeat
 * a few chains.  Direct-mapped by chain id. */
#define CHAIN_TEXTS 64

struct chain_text {
	uint64_t id;			/* 0: empty */
	const struct script_type *t;
	char *text;
	size_t len, cap;
};

/* The start of a line, up to its time (comm, pid/tid, cpu), as last
 * printed for a thread: its samples repeat it.  By tid, 8 of them. */
#define LINE_STARTS 8

struct line_start {
	const char *comm;		/* NULL: empty */
	const struct script_type *t;
	uint32_t pid, tid, cpu;
	bool chain;
	uint8_t len;
	char text[64];		/* copied 64 bytes at once: no call */
};

/* The period and event name fields (and -F flags' column), as last
 * printed: a run of samples of one event repeats them (a fixed period, or
 * the same frequency's). */
struct line_mid {
	const struct script_type *t;	/* NULL: empty */
	const char *name;
	uint64_t period;
	uint8_t len;
	char text[64];		/* copied 64 bytes at once: no call */
};

/* A sample line up to its event name's ": ", as last printed: a
 * thread's samples within one second differ only in the time's fraction,
 * whose digits end at text[frac_end]. */
struct line_head {
	char text[128];		/* copied 128 bytes at once: no call */
	const char *comm;
	const struct script_type *t;
	const char *name;
	uint32_t pid, tid, cpu;
	bool chain;
	uint64_t secs, period;
	uint8_t len, frac_end;	/* len 0: empty */
};

struct script_kept {
	struct chain_text slot[CHAIN_TEXTS];
	struct line_start start[LINE_STARTS];
	struct line_mid mid;
	struct line_head head;
	struct script_out_kept time;	/* the last sample's */
};

void script_kept_free(struct script_kept *m)
{
	for (size_t i = 0; m && i < CHAIN_TEXTS; i++)
		free(m->slot[i].text);
	free(m);
}

/* The texts kept, made on first use; NULL when out of memory. */
static struct script_kept *kept_of(struct script_ctx *c)
{
	if (!c->kept)
		c->kept = calloc(1, sizeof(*c->kept));
	return c->kept;
}

/* The comm, pid/tid and cpu fields; from the text kept for the thread
 * when they are the same as then. */
static void print_who(struct script_out *o, struct script_ctx *c, const struct script_type *t,
		      const struct pk_sample *s, const char *comm, bool chain)
{
	struct line_start *k = kept_of(c) ? c->kept->start : NULL;
	uint32_t cpu = HAS(t, CPU) ? s->cpu : 0;
	size_t from = o->len;
	uint64_t flushes = o->flushes;

	if (k) {
		k += s->tid % LINE_STARTS;
		if (k->comm == comm && k->t == t && k->pid == s->pid && k->tid == s->tid && k->cpu == cpu &&
		    k->chain == chain) {
			if (SCRIPT_OUT_SIZE - o->len < sizeof(k->text))
				script_out_flush(o);
			memcpy(o->buf + o->len, k->text, sizeof(k->text));
			o->len += k->len;
			return;
		}
	}
	if (HAS(t, COMM)) {
		script_out_pad(o, comm, chain && HAS(t, IP) ? 0 : 16);	/* "%s " or "%16s " */
		script_out_chr(o, ' ');
	}
	if (HAS(t, PID) && HAS(t, TID)) {		/* "%5d/%-5d " */
		script_out_sdec(o, (int)s->pid, 5);
		script_out_chr(o, '/');
		script_out_sdec(o, (int)s->tid, -5);
		script_out_chr(o, ' ');
	} else if (HAS(t, PID) || HAS(t, TID)) {	/* "%5d " */
		script_out_sdec(o, (int)(HAS(t, PID) ? s->pid : s->tid), 5);
		script_out_chr(o, ' ');
	}
	if (HAS(t, CPU)) {				/* "[%03u] " */
		script_out_chr(o, '[');
		script_out_udec(o, s->cpu, 3, '0');
		script_out_mem(o, "] ", 2);
	}
	if (k && o->flushes == flushes && o->len - from <= sizeof(k->text)) {
		*k = (struct line_start){ comm, t, s->pid, s->tid, cpu, chain, (uint8_t)(o->len - from), { 0 } };
		memcpy(k->text, o->buf + from, k->len);
	}
}

/* The fields before the time: comm, pid/tid, cpu, misc, tod.  Always
 * inline (as print_time and print_start): every line starts here, and
 * the calls' arguments and saved registers were a tenth of it. */
static inline __attribute__((always_inline)) void print_lead(struct script_out *o, struct script_ctx *c,
							     const struct script_type *t,
							     const struct pk_sample *s, const char *comm,
							     bool chain, uint16_t misc, uint32_t rec_type)
{
	print_who(o, c, t, s, comm, chain);
	if (HAS(t, MISC)) {
		script_out_flush(o);
		script_print_misc(o->f, misc, rec_type);
	}
	if (HAS(t, TOD)) {
		script_out_flush(o);
		script_print_tod(o->f, c, s->time);
	}
}

/* The time field, for `shown` (script_filter_time's answer): "%5lu.%09lu: "
 * (--ns), or "%12s: " of "%lu.%06lu". */
static inline __attribute__((always_inline)) void print_time(struct script_out *o, struct script_ctx *c,
							     uint64_t shown)
{
	uint64_t secs = shown / 1000000000u, ns = shown % 1000000000u;

	if (!kept_of(c))
		script_out_fixed(o, secs, c->o->ns ? ns : ns / 1000, c->o->ns ? 9 : 6, c->o->ns ? 15 : 12);
	else if (c->o->ns)
		script_out_fixed_kept(o, &c->kept->time, secs, ns, 9, 15);
	else
		script_out_fixed_kept(o, &c->kept->time, secs, ns / 1000, 6, 12);
	script_out_mem(o, ": ", 2);
}

/* The fields up to the time's. */
static inline __attribute__((always_inline)) void print_start(struct script_out *o, struct script_ctx *c,
							      const struct script_type *t,
							      const struct pk_sample *s, const char *comm,
							      bool chain, uint16_t misc, uint32_t rec_type)
{
	print_lead(o, c, t, s, comm, chain, misc, rec_type);
	if (HAS(t, TIME))
		print_time(o, c, script_filter_time(c->filt, s->time));
}

/* " sym+0xoff (dso)" after an address, as the fields ask. */
static void print_where(struct script_out *o, const struct script_type *t, const struct pk_location *loc,
			bool found)
{
	if (HAS(t, SYM)) {
		if (found && loc->sym) {
			script_out_chr(o, ' ');
			script_out_str(o, loc->sym);
			if (HAS(t, SYMOFF)) {
				script_out_mem(o, "+0x", 3);
				script_out_hex(o, loc->symoff, 0);
			}
		} else {
			script_out_mem(o, " [unknown]", 10);
		}
	}
	if (HAS(t, DSO)) {
		script_out_mem(o, " (", 2);
		script_out_str(o, found ? script_dso_name(loc->dso) : "[unknown]");
		script_out_chr(o, ')');
	}
}

/* An address, and where it is.  A call chain's user-space frames show the
 * address inside their DSO's file as perf does ("binary offset"): ip -
 * map start + pgoff, the file offset, which for a non-PIE executable is
 * not the symbol's virtual address. */
static void print_ip(struct script_out *o, const struct script_type *t, uint64_t ip,
		     const struct pk_location *loc, bool frame)
{
	bool found = loc->dso != NULL;

	script_out_hex(o, frame && found && !loc->kernel && !loc->dso->kernel ? loc->map_ip : ip, 16);
	print_where(o, t, loc, found);
}

/* The sample's data address; for page faults, the only events perf
 * correlates it with code for, also the symbol and DSO that hold it (a
 * user page faulted on in the kernel is found in the process's maps). */
static void print_addr(struct script_out *o, struct script_ctx *c, const struct script_type *t,
		       const struct perf_event_attr *a, const struct pk_sample *s,
		       const struct pk_resolved_sample *r)
{
	struct pk_location loc = { .size = sizeof(loc) };
	bool found;

	script_out_hex(o, s->addr, 16);
	if (a->type != PERF_TYPE_SOFTWARE || (a->config != PERF_COUNT_SW_PAGE_FAULTS &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	found = pk_maps_resolve_data(pk_resolver_maps(c->res), r->pid, s->addr, r->cpumode, &loc) == 0;
	print_where(o, t, &loc, found);
}

/* The slot for r's chain printed as type t, or NULL when its lines are
 * not the same every time (no chain id, a source line per frame, --stop-bt
 * reading the symbols) or out of memory. */
static struct chain_text *chain_slot(struct script_ctx *c, const struct script_type *t,
				     const struct pk_resolved_sample *r)
{
	if (!r->chain_id || HAS(t, SRCLINE) || c->filt->stop_bt || !kept_of(c))
		return NULL;
	return &c->kept->slot[r->chain_id % CHAIN_TEXTS];
}

/* Keep buf[from, o->len), the lines just printed, in slot m. */
static void keep_chain(struct chain_text *m, const struct script_out *o, size_t from, uint64_t id,
		       const struct script_type *t)
{
	size_t len = o->len - from;

	m->id = 0;
	if (len > m->cap) {
		char *p = realloc(m->text, len);

		if (!p)
			return;	/* not kept: it only saves work */
		m->text = p;
		m->cap = len;
	}
	if (len)	/* (m->text may still be NULL) */
		memcpy(m->text, o->buf + from, len);
	m->len = len;
	m->id = id;
	m->t = t;
}

/* The call chain the resolver built, a frame a line; an inlined
 * function's frame says "(inlined)" where its DSO would be, as perf. */
static void print_chain(struct script_out *o, struct script_ctx *c, const struct script_type *t,
			const struct pk_resolved_sample *r)
{
	/* perf's --max-stack 0 keeps no frame (the resolver keeps at least one) */
	size_t nr = c->o->max_stack_given && !c->o->max_stack ? 0 : r->nr_frames, from = o->len;
	struct chain_text *m = chain_slot(c, t, r);
	uint64_t flushes = o->flushes;

	if (m && m->id == r->chain_id && m->t == t) {
		if (m->len)	/* (m->text may be NULL) */
			script_out_mem(o, m->text, m->len);
		return;
	}

	for (size_t i = 0; i < nr; i++) {
		const struct pk_frame *fr = &r->frames[i];
		struct script_type noso = *t;

		script_out_chr(o, '\t');
		if (fr->inlined)
			noso.fields &= ~SF_DSO;
		print_ip(o, fr->inlined ? &noso : t, fr->ip, &fr->loc, true);
		if (HAS(t, SRCLINE)) {
			script_out_flush(o);
			script_print_srcline(o->f, c->res, &fr->loc, fr, !c->o->no_inline);
		}
		if (fr->inlined)
			script_out_mem(o, " (inlined)", 10);
		script_out_chr(o, '\n');
		if (script_switch_stops(c->filt, fr->loc.sym))
			break;	/* --stop-bt */
	}
	if (m && o->flushes == flushes)	/* else its lines are no longer all in the buffer */
		keep_chain(m, o, from, r->chain_id, t);
}

static int print_trace(struct script_out *o, struct script_ctx *c, const struct pk_sample *s)
{
	int n;

	if (!c->tracing || !s->raw.data)
		return 0;
	n = cli_tracing_text(c->tracing, s, &c->trace_buf, &c->trace_len);
	if (n > 0)
		script_out_str(o, c->trace_buf);
	if (n == -EINVAL && !c->trace_damage_said) {
		c->trace_damage_said = true;	/* once: such a file has many */
		cli_message(stderr, "perfkit script: warning: %s: %s; its fields are left out\n",
			    pk_last_error()->what, pk_last_error()->why);
	}
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
	case PERF_RECORD_MMAP2: pid = rec->mmap2.pid; tid = rec->mmap2.tid; break;
	case PERF_RECORD_NAMESPACES: pid = rec->namespaces.pid; tid = rec->namespaces.tid; break;
	default: pid = rec->id.pid; tid = rec->id.tid; break;	/* perf's sample->pid/tid */
	}
	if (script_filter_skip_cpu(c->filt, attr && attr->sample_id_all ?
				   (attr->sample_type & PERF_SAMPLE_CPU ? rec->id.cpu : (uint32_t)-1) : 0))
		return 0;	/* -C: perf's filter_cpu */
	if (attr) {
		/* the sample lines' buffer: whatever it holds for f came first */
		struct script_out *o = script_out_lines(f);

		/* perf's stand-ins when the records carry no sample id */
		if (!attr->sample_id_all)
			s = (struct pk_sample){ .pid = pid, .tid = tid, .time = rec->type == PERF_RECORD_FORK ||
						rec->type == PERF_RECORD_EXIT ? rec->task.time : 0 };
		if (tid != (uint32_t)-1 && !(comm = pk_threads_comm(pk_resolver_threads(c->res), pid, tid)))
			return -ENOMEM;
		t = &c->o->type[script_type_of(attr->type)];
		print_start(o, c, t, &s, comm ? comm : ":-1",
			    c->callchains && (attr->sample_type & PERF_SAMPLE_CALLCHAIN), rec->misc, rec->type);
		script_out_flush(o);
	}
	if (rec->type != PERF_RECORD_COMM && rec->type != PERF_RECORD_FORK && rec->type != PERF_RECORD_EXIT &&
	    rec->type != PERF_RECORD_MMAP && rec->type != PERF_RECORD_MMAP2) {
		script_events_body(f, rec, c->res);	/* the --show-*-events ones */
		return 0;
	}
	fputs("PERF_RECORD_", f);
	print_side_body(f, rec);
	return 0;
}

/* The fields this file prints itself (or hands to a helper itself):
 * script_print_tail is called only when some other field is asked for. */
#define SF_HERE (SF_COMM | SF_TID | SF_PID | SF_TIME | SF_CPU | SF_EVNAME | SF_TRACE | SF_IP | SF_SYM | \
		 SF_DSO | SF_ADDR | SF_SYMOFF | SF_PERIOD | SF_MISC | SF_WEIGHT | SF_INS_LAT | SF_SRCLINE | SF_DATA_SRC | \
		 SF_TOD)

/* The fields script_print_tail may print for type t's events of attr a:
 * bpf-output, a software event's default, only for the BPF output event
 * (else every sample's lines were handed to the FILE for nothing). */
static uint64_t tail_fields(const struct script_type *t, const struct perf_event_attr *a)
{
	uint64_t tail = t->fields & ~SF_HERE;

	if (a->type != PERF_TYPE_SOFTWARE || a->config != PERF_COUNT_SW_BPF_OUTPUT)
		tail &= ~SF_BPF_OUTPUT;
	return tail;
}

/* The period the PERIOD field shows (0 when it is not shown). */
static uint64_t shown_period(const struct script_type *t, const struct perf_event_attr *attr,
			     const struct pk_sample *s)
{
	return !HAS(t, PERIOD) ? 0 : s->fields & PERF_SAMPLE_PERIOD ? s->period : attr->sample_period;
}

/* The period, the event name and -F flags' column; from the text kept
 * when they are the same as the last sample's. */
static void print_mid(struct script_out *o, struct script_ctx *c, const struct script_type *t,
		      const char *name, uint64_t period)
{
	struct line_mid *k = kept_of(c) ? &c->kept->mid : NULL;
	size_t from = o->len;
	uint64_t flushes = o->flushes;

	if (k && k->t == t && k->name == name && k->period == period) {
		if (SCRIPT_OUT_SIZE - o->len < sizeof(k->text))
			script_out_flush(o);
		memcpy(o->buf + o->len, k->text, sizeof(k->text));
		o->len += k->len;
		return;
	}
	if (HAS(t, PERIOD)) {	/* "%10lu " */
		script_out_udec(o, period, 10, ' ');
		script_out_chr(o, ' ');
	}
	if (HAS(t, EVNAME)) {	/* "%*s: " */
		script_out_pad(o, name ? name : "[unknown]", c->name_width);
		script_out_mem(o, ": ", 2);
	}
	if (c->filt->print_flags)	/* -F flags, --call-ret-trace: perf's "  %-21s " of no flags */
		script_out_mem(o, "                        ", 24);
	if (k && o->flushes == flushes && o->len - from <= sizeof(k->text)) {
		*k = (struct line_mid){ t, name, period, (uint8_t)(o->len - from), { 0 } };
		memcpy(k->text, o->buf + from, k->len);
	}
}

/* The line up to the event name's ": " (print_start, then print_mid).
 * With a time and neither misc nor tod (which go to the FILE itself), it
 * is kept whole, and copied with the fraction's digits written in when
 * all else is as then. */
static void print_head(struct script_out *o, struct script_ctx *c, const struct script_type *t,
		       const struct perf_event_attr *attr, const char *name, const struct pk_sample *s,
		       const char *comm, bool chain, uint16_t misc)
{
	struct line_head *k = HAS(t, TIME) && !(t->fields & (SF_MISC | SF_TOD)) && kept_of(c) ? &c->kept->head : NULL;
	uint64_t period = shown_period(t, attr, s), shown, secs, flushes = o->flushes;
	uint32_t cpu = HAS(t, CPU) ? s->cpu : 0, frac;
	size_t from = o->len, frac_end;

	if (!k) {
		print_start(o, c, t, s, comm, chain, misc, PERF_RECORD_SAMPLE);
		print_mid(o, c, t, name, period);
		return;
	}
	shown = script_filter_time(c->filt, s->time);
	secs = shown / 1000000000u;
	frac = (uint32_t)(shown % 1000000000u);
	/* (likely: else GCC takes the path for cold and copies with rep movs) */
	if (__builtin_expect(k->len && k->comm == comm && k->t == t && k->name == name && k->pid == s->pid &&
			     k->tid == s->tid && k->cpu == cpu && k->chain == chain && k->secs == secs &&
			     k->period == period, 1)) {
		char *d;

		if (SCRIPT_OUT_SIZE - o->len < sizeof(k->text))
			script_out_flush(o);
		d = o->buf + o->len;
		memcpy(d, k->text, sizeof(k->text));
		if (c->o->ns)
			script_out_low_digits(d + k->frac_end, frac, 9);
		else
			script_out_low_digits(d + k->frac_end, frac / 1000, 6);
		o->len += k->len;
		return;
	}
	print_lead(o, c, t, s, comm, chain, misc, PERF_RECORD_SAMPLE);
	print_time(o, c, shown);
	frac_end = o->len - from - 2;	/* the fraction's digits end before ": " */
	print_mid(o, c, t, name, period);
	k->len = 0;
	if (o->flushes == flushes && o->len - from <= sizeof(k->text)) {
		*k = (struct line_head){ { 0 }, comm, t, name, s->pid, s->tid, cpu, chain, secs, period,
					 (uint8_t)(o->len - from), (uint8_t)frac_end };
		memcpy(k->text, o->buf + from, k->len);
	}
}

/* What follows the start fields: period, event name, tracepoint fields,
 * addr, data_src, weight, then the ip or the call chain, and the tail. */
static int print_body(struct script_out *o, struct script_ctx *c, const struct script_type *t,
		      const struct perf_event_attr *attr, const struct pk_sample *s,
		      const struct pk_resolved_sample *r, bool lines)
{
	int err;

	if (HAS(t, TRACE) && (err = print_trace(o, c, s)) < 0)
		return err;
	if (HAS(t, ADDR))
		print_addr(o, c, t, attr, s, r);
	if (HAS(t, DATA_SRC)) {
		script_out_flush(o);
		script_print_data_src(o->f, c, s->data_src);
	}
	if (t->fields & (SF_WEIGHT | SF_INS_LAT)) {
		script_out_flush(o);
		script_print_weight(o->f, t, s);
	}
	if (HAS(t, IP)) {
		if (lines) {
			script_out_chr(o, '\n');
			print_chain(o, c, t, r);
		} else {
			script_out_chr(o, ' ');
			print_ip(o, t, s->ip, &r->loc, false);
			if (HAS(t, SRCLINE)) {
				script_out_flush(o);
				script_print_srcline(o->f, c->res, &r->loc, NULL, !c->o->no_inline);
			}
		}
	}
	if (tail_fields(t, attr)) {
		script_out_flush(o);
		script_print_tail(o->f, c, t, attr, s, r->pid, r->cpumode);
	}
	script_out_chr(o, '\n');
	return 0;
}

int script_print_sample(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
			const char *name, const struct pk_record *rec)
{
	const struct script_type *t = &c->o->type[script_type_of(attr->type)];
	const struct pk_sample *s = &rec->sample;
	struct pk_resolved_sample r = { .size = sizeof(r) };
	struct script_out *o;
	bool chain = c->callchains && (s->fields & PERF_SAMPLE_CALLCHAIN);
	/* perf's --max-stack 0: its DWARF unwinding fails, so a sample with a
	 * user stack is printed on one line (the comm as for a call chain) */
	bool lines = chain && !(c->o->max_stack_given && !c->o->max_stack &&
				(attr->sample_type & PERF_SAMPLE_STACK_USER));
	int err;

	if (!t->fields && !t->blank)
		return 0;
	if ((err = pk_resolver_resolve(c->res, rec, &r)) < 0)
		return err;
	if (script_filter_hides(c->filt, &r, s->ip))
		return 0;
	if ((err = script_filter_pass(c->filt, c->res, attr, rec, &r)) <= 0)
		return err;	/* 0, or the dlfilter's failure */
	o = script_out_lines(f);
	print_head(o, c, t, attr, name, s, r.comm, chain, rec->misc);
	err = print_body(o, c, t, attr, s, &r, lines);
	script_out_done(o);
	if (!err && HAS(t, SRCCODE)) {
		script_out_sync();	/* the source lines come after the sample's */
		err = script_print_srccode(f, &c->srccode, c->res, r.tid, &r.loc);
	}
	return err;
}
