/* SPDX-License-Identifier: MIT */
/*
 * record.c - the record decoder: perf_event_header + attr -> struct
 * pk_record for every PERF_RECORD_* type of the UAPI, the sample_id_all
 * trailer, and finding the event a record belongs to by its ID.  Pure
 * functions over the record's bytes, shared by the live ring and the file
 * reader; every read is bounded by the header's size (record.h's cursor).
 */
#include "record/record.h"
#include "sys/sys.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

static const struct perf_event_attr zero_attr;

/* Where a decoded sample ends in struct pk_record, and the bytes of the
 * union after it up to the id (none while the sample is its largest
 * member). */
#define SAMPLE_END (offsetof(struct pk_record, sample) + sizeof(struct pk_sample))
#define SAMPLE_GAP (offsetof(struct pk_record, id) - SAMPLE_END)

int pk__rcur_fail(const struct pk__rcur *c, const char *why_fmt, ...)
{
	const char *name = pk_record_type_name(c->type);
	char what[64], why[512];
	va_list ap;

	if (name)
		snprintf(what, sizeof(what), "decode PERF_RECORD_%s (%zu bytes)", name, c->size);
	else
		snprintf(what, sizeof(what), "decode record type %u (%zu bytes)", c->type, c->size);
	va_start(ap, why_fmt);
	vsnprintf(why, sizeof(why), why_fmt, ap);
	va_end(ap);
	pk__error(-EINVAL, what, "at offset %zu: %s", c->pos, why);
	pk__error_hint("the record is truncated or damaged, or is being decoded with the attr of "
		       "another event");
	return -EINVAL;
}

int pk__rcur_need(const struct pk__rcur *c, uint64_t n, const char *what)
{
	if (n <= c->end - c->pos)
		return 0;
	return pk__rcur_fail(c, "%s needs %llu bytes, but only %zu are left before %s", what,
			     (unsigned long long)n, c->end - c->pos,
			     c->end < c->size ? "the sample_id trailer" : "the end of the record");
}

int pk__rcur_read_values(struct pk__rcur *c, uint64_t rf, struct pk_read_values *v)
{
	size_t te = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED), tr = !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t nr = 1, len = 8 * (te + tr + per);
	char why[256];
	int err;

	if (rf & PERF_FORMAT_GROUP) {
		/* nr, the group's times, then nr x { value, id, lost }. */
		err = pk__rcur_need(c, 8 * (1 + te + tr), "READ nr and times");
		if (err)
			return err;
		memcpy(&nr, c->base + c->pos, 8);
		if (nr > (c->end - c->pos - 8 * (1 + te + tr)) / (8 * per))
			return pk__rcur_fail(c, "the READ group says %llu counters of %zu bytes, but "
					     "only %zu bytes are left", (unsigned long long)nr,
					     8 * per, c->end - c->pos - 8 * (1 + te + tr));
		len = 8 * (1 + te + tr + nr * per);
	}
	err = pk__rcur_need(c, len, "READ values");
	if (err)
		return err;
	/* pk_count_parse is the one decoder of read_format; let it judge too
	 * (it rejects read_format bits it does not know). */
	err = pk_count_parse(rf, rcur_here(c), (size_t)len, NULL, 0);
	if (err < 0) {
		snprintf(why, sizeof(why), "%s", pk_last_error()->why);
		return pk__rcur_fail(c, "READ values: %s", why);
	}
	v->data = rcur_here(c);
	v->len = (size_t)len;
	v->nr = (uint32_t)nr;
	c->pos += (size_t)len;
	return 0;
}

/* A NUL-terminated string that runs to the end of the body (the rest is
 * padding to 8 bytes). */
static int string(struct pk__rcur *c, const char *name, const char **out)
{
	int err = pk__rcur_need(c, 1, name);

	if (err)
		return err;
	if (!memchr(c->base + c->pos, 0, c->end - c->pos))
		return pk__rcur_fail(c, "%s is not NUL-terminated within the %zu bytes left", name,
				     c->end - c->pos);
	*out = (const char *)rcur_here(c);
	c->pos = c->end;
	return 0;
}

static int body_mmap(struct pk__rcur *c, struct pk_record *r)
{
	struct pk_rec_mmap *m = &r->mmap;
	int err = pk__rcur_need(c, 32, "pid, tid, addr, len and pgoff");

	if (err)
		return err;
	m->pid = rcur_u32(c);
	m->tid = rcur_u32(c);
	m->addr = rcur_u64(c);
	m->len = rcur_u64(c);
	m->pgoff = rcur_u64(c);
	return string(c, "filename", &m->filename);
}

/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID (Linux 5.12+) carries the
 * build-id where maj, min, ino and ino_generation otherwise are. */
static int body_mmap2(struct pk__rcur *c, struct pk_record *r)
{
	struct pk_rec_mmap2 *m = &r->mmap2;
	int err = pk__rcur_need(c, 64, "pid, tid, addr, len, pgoff, device/build-id, prot, flags");

	if (err)
		return err;
	m->pid = rcur_u32(c);
	m->tid = rcur_u32(c);
	m->addr = rcur_u64(c);
	m->len = rcur_u64(c);
	m->pgoff = rcur_u64(c);
	m->has_build_id = r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (m->has_build_id) {
		m->build_id_size = c->base[c->pos];
		if (m->build_id_size > 20)
			return pk__rcur_fail(c, "build_id_size %u is more than the 20 bytes there are",
					     m->build_id_size);
		m->build_id = c->base + c->pos + 4;
		c->pos += 24;
	} else {
		m->maj = rcur_u32(c);
		m->min = rcur_u32(c);
		m->ino = rcur_u64(c);
		m->ino_generation = rcur_u64(c);
	}
	m->prot = rcur_u32(c);
	m->flags = rcur_u32(c);
	return string(c, "filename", &m->filename);
}

static int body_comm(struct pk__rcur *c, struct pk_record *r)
{
	int err = pk__rcur_need(c, 8, "pid and tid");

	if (err)
		return err;
	r->comm.pid = rcur_u32(c);
	r->comm.tid = rcur_u32(c);
	r->comm.exec = r->misc & PERF_RECORD_MISC_COMM_EXEC;
	return string(c, "comm", &r->comm.comm);
}

static int body_task(struct pk__rcur *c, struct pk_record *r)
{
	int err = pk__rcur_need(c, 24, "pid, ppid, tid, ptid and time");

	if (err)
		return err;
	r->task.pid = rcur_u32(c);
	r->task.ppid = rcur_u32(c);
	r->task.tid = rcur_u32(c);
	r->task.ptid = rcur_u32(c);
	r->task.time = rcur_u64(c);
	return 0;
}

static int body_read(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_record *r)
{
	int err = pk__rcur_need(c, 8, "pid and tid");

	if (err)
		return err;
	r->read.pid = rcur_u32(c);
	r->read.tid = rcur_u32(c);
	return pk__rcur_read_values(c, a->read_format, &r->read.values);
}

static int body_namespaces(struct pk__rcur *c, struct pk_record *r)
{
	struct pk_rec_namespaces *n = &r->namespaces;
	int err = pk__rcur_need(c, 16, "pid, tid and nr_namespaces");

	if (err)
		return err;
	n->pid = rcur_u32(c);
	n->tid = rcur_u32(c);
	n->nr = rcur_u64(c);
	if (n->nr > (c->end - c->pos) / sizeof(struct perf_ns_link_info)) {
		c->pos -= 8;
		return pk__rcur_fail(c, "nr_namespaces says %llu entries of 16 bytes, but only %zu "
				     "bytes are left", (unsigned long long)n->nr, c->end - c->pos - 8);
	}
	n->links = rcur_here(c);
	c->pos += n->nr * sizeof(struct perf_ns_link_info);
	return 0;
}

static int body_ksymbol(struct pk__rcur *c, struct pk_record *r)
{
	int err = pk__rcur_need(c, 16, "addr, len, ksym_type and flags");

	if (err)
		return err;
	r->ksymbol.addr = rcur_u64(c);
	r->ksymbol.len = rcur_u32(c);
	r->ksymbol.ksym_type = rcur_u16(c);
	r->ksymbol.flags = rcur_u16(c);
	return string(c, "name", &r->ksymbol.name);
}

static int body_bpf_event(struct pk__rcur *c, struct pk_record *r)
{
	int err = pk__rcur_need(c, 16, "type, flags, id and tag");

	if (err)
		return err;
	r->bpf_event.type = rcur_u16(c);
	r->bpf_event.flags = rcur_u16(c);
	r->bpf_event.id = rcur_u32(c);
	r->bpf_event.tag = rcur_here(c);
	c->pos += 8;
	return 0;
}

static int body_cgroup(struct pk__rcur *c, struct pk_record *r)
{
	int err = pk__rcur_need(c, 8, "id");

	if (err)
		return err;
	r->cgroup.id = rcur_u64(c);
	return string(c, "path", &r->cgroup.path);
}

static int body_text_poke(struct pk__rcur *c, struct pk_record *r)
{
	struct pk_rec_text_poke *t = &r->text_poke;
	int err = pk__rcur_need(c, 12, "addr, old_len and new_len");

	if (err)
		return err;
	t->addr = rcur_u64(c);
	t->old_len = rcur_u16(c);
	t->new_len = rcur_u16(c);
	err = pk__rcur_need(c, (uint64_t)t->old_len + t->new_len, "the old and new bytes");
	if (err)
		return err;
	t->old_bytes = rcur_here(c);
	t->new_bytes = t->old_bytes + t->old_len;
	c->pos += (size_t)t->old_len + t->new_len;
	return 0;
}

/* Records whose body is a fixed run of u64s (or u32 pairs read as such). */
static int fixed_u64s(struct pk__rcur *c, const char *what, uint64_t *dst[], size_t n)
{
	int err = pk__rcur_need(c, 8 * n, what);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++)
		*dst[i] = rcur_u64(c);
	return 0;
}

static int two_u32s(struct pk__rcur *c, const char *what, uint32_t *a, uint32_t *b)
{
	int err = pk__rcur_need(c, 8, what);

	if (err)
		return err;
	*a = rcur_u32(c);
	*b = rcur_u32(c);
	return 0;
}

static int body(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
		return body_mmap(c, r);
	case PERF_RECORD_MMAP2:
		return body_mmap2(c, r);
	case PERF_RECORD_LOST:
		return fixed_u64s(c, "id and lost", (uint64_t *[]){ &r->lost.id, &r->lost.lost }, 2);
	case PERF_RECORD_COMM:
		return body_comm(c, r);
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		return body_task(c, r);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return fixed_u64s(c, "time, id and stream_id",
				  (uint64_t *[]){ &r->throttle.time, &r->throttle.id,
						  &r->throttle.stream_id }, 3);
	case PERF_RECORD_READ:
		return body_read(c, a, r);
	case PERF_RECORD_AUX:
		return fixed_u64s(c, "aux_offset, aux_size and flags",
				  (uint64_t *[]){ &r->aux.aux_offset, &r->aux.aux_size,
						  &r->aux.flags }, 3);
	case PERF_RECORD_ITRACE_START:
		return two_u32s(c, "pid and tid", &r->itrace_start.pid, &r->itrace_start.tid);
	case PERF_RECORD_LOST_SAMPLES:
		return fixed_u64s(c, "lost", (uint64_t *[]){ &r->lost_samples.lost }, 1);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		r->switch_.out = r->misc & PERF_RECORD_MISC_SWITCH_OUT;
		r->switch_.preempt = r->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		if (r->type == PERF_RECORD_SWITCH)
			return 0;
		return two_u32s(c, "next_prev_pid and next_prev_tid", &r->switch_.next_prev_pid,
				&r->switch_.next_prev_tid);
	case PERF_RECORD_NAMESPACES:
		return body_namespaces(c, r);
	case PERF_RECORD_KSYMBOL:
		return body_ksymbol(c, r);
	case PERF_RECORD_BPF_EVENT:
		return body_bpf_event(c, r);
	case PERF_RECORD_CGROUP:
		return body_cgroup(c, r);
	case PERF_RECORD_TEXT_POKE:
		return body_text_poke(c, r);
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		return fixed_u64s(c, "hw_id", (uint64_t *[]){ &r->aux_output_hw_id.hw_id }, 1);
	}
	return 0;	/* not reached: the caller checked the type */
}

/* The sample_id_all trailer: one u64 per PK_SAMPLE_ID_FIELDS bit. */
static size_t trailer_size(const struct perf_event_attr *a)
{
	return a->sample_id_all ? 8 * (size_t)rcur_bits(a->sample_type &
								  PK_SAMPLE_ID_FIELDS) : 0;
}

/* Decode the trailer at the end of the record, in the kernel's order
 * (perf_event__output_id_sample): TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static int trailer(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample_id *id)
{
	uint64_t st = a->sample_type;
	size_t tsz = trailer_size(a);

	if (!a->sample_id_all)
		return 0;	/* the sample_type's ID bits then apply to samples only */
	if (c->size - 8 < tsz) {
		return pk__rcur_fail(c, "the sample_id trailer (sample_type 0x%llx) needs %zu bytes, "
				     "but only %zu follow the header", (unsigned long long)st,
				     tsz, c->size - 8);
	}
	c->pos = c->size - tsz;
	id->fields = st & PK_SAMPLE_ID_FIELDS;
	if (st & PERF_SAMPLE_TID) {
		id->pid = rcur_u32(c);
		id->tid = rcur_u32(c);
	}
	if (st & PERF_SAMPLE_TIME)
		id->time = rcur_u64(c);
	if (st & PERF_SAMPLE_ID)
		id->id = rcur_u64(c);
	if (st & PERF_SAMPLE_STREAM_ID)
		id->stream_id = rcur_u64(c);
	if (st & PERF_SAMPLE_CPU) {
		id->cpu = rcur_u32(c);
		id->cpu_res = rcur_u32(c);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		id->id = rcur_u64(c);
	return 0;
}

/* Every record but a well-formed sample: *out zeroed, then the checks,
 * the sample_id_all trailer and the body.  Not inlined: its cursor and
 * saved registers would cost every sample a stack frame, where the
 * sample's decoder is otherwise reached by a jump. */
static __attribute__((noinline)) int decode_other(const struct perf_event_header *h, const struct perf_event_attr *a,
			struct pk_record *out)
{
	struct pk__rcur c = { .base = (const unsigned char *)h, .pos = 0, .size = h->size,
			      .type = h->type };
	size_t size = out->size;
	int err;

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->type = h->type;
	out->misc = h->misc;
	out->len = h->size;
	if ((uintptr_t)h % 8)
		return pk__rcur_fail(&c, "the record is not 8-byte aligned in memory; copy it to "
				     "aligned memory first");
	if (h->size < sizeof(*h))
		return pk__rcur_fail(&c, "a size of %u is smaller than the 8-byte header", h->size);
	if (!pk_record_type_name(h->type))
		return PK_RECORD_UNKNOWN;
	c.pos = sizeof(*h);
	c.end = c.size;
	err = trailer(&c, a, &out->id);
	if (err)
		return err;
	c.end = c.size - trailer_size(a);
	c.pos = sizeof(*h);
	return body(&c, a, out);
}

int pk_record_decode(const struct perf_event_header *h, const struct perf_event_attr *attr,
		     struct pk_record *out)
{
	const struct perf_event_attr *a = attr ? attr : &zero_attr;

	if (!out || out->size < sizeof(*out))
		return pk__error(-EINVAL, "pk_record_decode", "struct pk_record.size is %zu, less than "
				 "the %zu bytes this library fills: set size = sizeof(struct pk_record)",
				 out ? out->size : 0, sizeof(*out));
	/* A sample first, with no other test (every sample pays them), and
	 * its decoder's call the last thing done here: its decoder zeroes
	 * the sample and fills every id field, so only the bytes between
	 * them, if the union has any, are zeroed here. */
	if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof(*h) && !((uintptr_t)h % 8)) {
		if (SAMPLE_GAP)
			memset((char *)out + SAMPLE_END, 0, SAMPLE_GAP);
		out->type = h->type;
		out->misc = h->misc;
		out->len = h->size;
		return pk__sample_decode(h, a, &out->sample, &out->id);
	}
	return decode_other(h, a, out);
}

/* How many u64s precede PERF_SAMPLE_ID in a sample, after the header. */
static unsigned id_pos_sample(uint64_t st)
{
	return (unsigned)rcur_bits(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
}

/* How many u64s follow PERF_SAMPLE_ID in a trailer (IDENTIFIER absent). */
static unsigned id_pos_trailer(uint64_t st)
{
	return (unsigned)rcur_bits(st & (PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU));
}

static int no_id(const struct perf_event_header *h, const char *why)
{
	const char *name = pk_record_type_name(h->type);
	char what[64];

	snprintf(what, sizeof(what), "find the event of a %s%s record", name ? "PERF_RECORD_" : "",
		 name ? name : "non-kernel");
	return pk__error(-ENOENT, what, "%s", why);
}

int pk_record_event_id(const struct perf_event_header *h, const struct perf_event_attr *attr,
		       uint64_t *id)
{
	const struct perf_event_attr *a = attr ? attr : &zero_attr;
	uint64_t st = a->sample_type;
	struct pk__rcur c = { .base = (const unsigned char *)h, .size = h->size, .end = h->size,
			      .type = h->type };
	size_t off;

	if (h->size < sizeof(*h))
		return pk__rcur_fail(&c, "a size of %u is smaller than the 8-byte header", h->size);
	if (!pk_record_type_name(h->type))
		return no_id(h, "only the kernel's record types carry an event ID");
	if (h->type == PERF_RECORD_SAMPLE) {
		if (!(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID)))
			return no_id(h, "the attr's sample_type has neither IDENTIFIER nor ID");
		off = 8 + 8 * ((st & PERF_SAMPLE_IDENTIFIER) ? 0 : id_pos_sample(st));
	} else {
		if (!a->sample_id_all || !(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID)))
			return no_id(h, "the attr has no sample_id_all trailer with IDENTIFIER or ID");
		if (h->size < 8 + trailer_size(a)) {
			c.pos = 8;
			return pk__rcur_fail(&c, "the sample_id trailer needs %zu bytes, but only "
					     "%u follow the header", trailer_size(a), h->size - 8);
		}
		off = h->size - 8 * (1 + ((st & PERF_SAMPLE_IDENTIFIER) ? 0 : id_pos_trailer(st)));
	}
	if (off + 8 > c.size) {
		c.pos = c.size;
		return pk__rcur_fail(&c, "the event ID needs the 8 bytes at offset %zu, but the "
				     "record ends first", off);
	}
	memcpy(id, c.base + off, 8);
	return 0;
}

bool pk_record_id_compatible(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	uint64_t sa = a->sample_type, sb = b->sample_type;

	if (a->sample_id_all != b->sample_id_all)
		return false;
	if ((sa & PERF_SAMPLE_IDENTIFIER) || (sb & PERF_SAMPLE_IDENTIFIER))
		return (sa & sb & PERF_SAMPLE_IDENTIFIER) != 0;
	if (!(sa & sb & PERF_SAMPLE_ID))
		return false;
	return id_pos_sample(sa) == id_pos_sample(sb) && id_pos_trailer(sa) == id_pos_trailer(sb);
}
