/* SPDX-License-Identifier: MIT */
/*
 * sample.c - decoding the body of PERF_RECORD_SAMPLE: every PERF_SAMPLE_*
 * field, in the order the kernel's perf_output_sample() writes them (which
 * is not bit order, and not quite the order of the UAPI header's comment:
 * CGROUP, DATA_PAGE_SIZE and CODE_PAGE_SIZE come before AUX).  The layout
 * is a table of steps, one per field; each step checks the bytes it needs
 * against the record's end before it reads them.
 */
#include "record/record.h"
#include "sys/sys.h"

#include <errno.h>
#include <stddef.h>

/* Every sample_type bit this library can lay out. */
#define X(name, bit) | (1ULL << (bit))
static const uint64_t known_fields = 0
#include "sample_fields.def"
	;
#undef X

struct step;
typedef int (*step_fn)(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		       const struct step *st);

/* One field: its bit, its name, and either a decoder or, for a plain u64,
 * where it goes in struct pk_sample. */
struct step {
	uint64_t bit;
	const char *name;
	step_fn fn;
	size_t off;
};

static int plain_u64(struct pk__rcur *c, const struct step *st, uint64_t *dst)
{
	int err = rcur_need(c, 8, st->name);

	if (err)
		return err;
	*dst = rcur_u64(c);
	return 0;
}

static int two_u32(struct pk__rcur *c, const struct step *st, uint32_t *a, uint32_t *b)
{
	int err = rcur_need(c, 8, st->name);

	if (err)
		return err;
	*a = rcur_u32(c);
	*b = rcur_u32(c);
	return 0;
}

static int do_tid(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		  const struct step *st)
{
	(void)a;
	return two_u32(c, st, &s->pid, &s->tid);
}

static int do_cpu(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		  const struct step *st)
{
	(void)a;
	return two_u32(c, st, &s->cpu, &s->cpu_res);
}

static int do_read(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		   const struct step *st)
{
	(void)st;
	return pk__rcur_read_values(c, a->read_format, &s->read);
}

/* A count read at `at` says nr entries of `each` bytes follow: check that
 * against the bytes left before multiplying, so a huge nr cannot wrap. */
static int check_count(const struct pk__rcur *c, size_t at, const char *name, uint64_t nr,
		       size_t each)
{
	struct pk__rcur here;

	if (nr <= (c->end - c->pos) / each)
		return 0;
	here = *c;	/* copied here, not up front: every sample checks its chain */
	here.pos = at;
	return pk__rcur_fail(&here, "%s says %llu entries of %zu bytes, but only %zu bytes are "
			     "left in the record", name, (unsigned long long)nr, each,
			     c->end - c->pos);
}

/* CALLCHAIN: nr, then nr u64s.  Inline: pk__sample_decode calls it
 * directly for the usual layout, the table through do_callchain. */
static inline int callchain(struct pk__rcur *c, struct pk_sample *s)
{
	size_t at = c->pos;
	int err = rcur_need(c, 8, "CALLCHAIN nr");

	if (err)
		return err;
	s->callchain.nr = rcur_u64(c);
	err = check_count(c, at, "CALLCHAIN", s->callchain.nr, 8);
	if (err)
		return err;
	s->callchain.ips = rcur_here(c);
	c->pos += s->callchain.nr * 8;
	return 0;
}

static int do_callchain(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
			const struct step *st)
{
	(void)a;
	(void)st;
	return callchain(c, s);
}

/* RAW is a u32 size and size bytes; the kernel counts its padding in size
 * so the next field is 8-byte aligned, but other writers may not, so any
 * padding up to the next 8-byte boundary is skipped. */
static int do_raw(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		  const struct step *st)
{
	size_t pad;
	int err = rcur_need(c, 4, "RAW size");

	(void)a;
	(void)st;
	if (err)
		return err;
	s->raw.size = rcur_u32(c);
	err = rcur_need(c, s->raw.size, "RAW data");
	if (err)
		return err;
	s->raw.data = rcur_here(c);
	c->pos += s->raw.size;
	pad = (8 - c->pos % 8) % 8;
	err = rcur_need(c, pad, "RAW padding");
	if (err)
		return err;
	c->pos += pad;
	return 0;
}

/* BRANCH_STACK: nr, hw_idx only when the attr asked for BRANCH_HW_INDEX
 * (Linux 5.7+; without it the entries follow nr directly), nr entries. */
static int do_branch(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		     const struct step *st)
{
	const size_t each = sizeof(struct perf_branch_entry);
	size_t at = c->pos;
	int err = rcur_need(c, 8, "BRANCH_STACK nr");

	if (err)
		return err;
	s->branch.nr = rcur_u64(c);
	s->branch.has_hw_idx = a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
	s->branch.call_stack = a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;
	if (s->branch.has_hw_idx) {
		err = rcur_need(c, 8, "BRANCH_STACK hw_idx");
		if (err)
			return err;
		s->branch.hw_idx = rcur_u64(c);
	}
	err = check_count(c, at, st->name, s->branch.nr, each);
	if (err)
		return err;
	s->branch.entries = rcur_here(c);
	c->pos += s->branch.nr * each;
	return 0;
}

static int regs(struct pk__rcur *c, const char *name, uint64_t mask, struct pk_sample_regs *r)
{
	int err = rcur_need(c, 8, name);

	if (err)
		return err;
	r->abi = rcur_u64(c);
	if (r->abi > PERF_SAMPLE_REGS_ABI_64) {
		c->pos -= 8;
		return pk__rcur_fail(c, "%s abi %llu is not a PERF_SAMPLE_REGS_ABI_* value", name,
				     (unsigned long long)r->abi);
	}
	if (r->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return 0;	/* no registers (e.g. a kernel thread has no user regs) */
	r->mask = mask;
	r->nr = (uint32_t)rcur_bits(mask);
	err = rcur_need(c, (uint64_t)r->nr * 8, name);
	if (err)
		return err;
	r->regs = rcur_here(c);
	c->pos += (size_t)r->nr * 8;
	return 0;
}

static int do_regs_user(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
			const struct step *st)
{
	return regs(c, st->name, a->sample_regs_user, &s->regs_user);
}

static int do_regs_intr(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
			const struct step *st)
{
	return regs(c, st->name, a->sample_regs_intr, &s->regs_intr);
}

/* STACK_USER: size, data[size], and dyn_size only when size != 0 (a task
 * with no user stack gets a bare 0).  dyn_size is how much of the copy is
 * real stack, so it cannot exceed size. */
static int do_stack(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		    const struct step *st)
{
	int err = rcur_need(c, 8, "STACK_USER size");

	(void)a;
	(void)st;
	if (err)
		return err;
	s->stack.size = rcur_u64(c);
	if (!s->stack.size)
		return 0;
	err = rcur_need(c, s->stack.size, "STACK_USER data");
	if (err)
		return err;
	if (s->stack.size % 8) {
		c->pos -= 8;
		return pk__rcur_fail(c, "STACK_USER size %llu is not a multiple of 8",
				     (unsigned long long)s->stack.size);
	}
	s->stack.data = rcur_here(c);
	c->pos += s->stack.size;
	err = rcur_need(c, 8, "STACK_USER dyn_size");
	if (err)
		return err;
	s->stack.dyn_size = rcur_u64(c);
	if (s->stack.dyn_size > s->stack.size) {
		c->pos -= 8;
		return pk__rcur_fail(c, "STACK_USER dyn_size %llu exceeds the %llu bytes copied",
				     (unsigned long long)s->stack.dyn_size,
				     (unsigned long long)s->stack.size);
	}
	return 0;
}

/* WEIGHT and WEIGHT_STRUCT share one u64.  As a native u64 the struct's
 * var1_dw is always the low 32 bits and var3_w the top 16, on either
 * endianness (the UAPI swaps the members for big-endian). */
static int do_weight(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		     const struct step *st)
{
	int err = plain_u64(c, st, &s->weight.full);

	if (err || !(a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return err;
	s->weight.var1 = (uint32_t)s->weight.full;
	s->weight.var2 = (uint16_t)(s->weight.full >> 32);
	s->weight.var3 = (uint16_t)(s->weight.full >> 48);
	return 0;
}

static int do_data_src(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		       const struct step *st)
{
	int err = plain_u64(c, st, &s->data_src);

	(void)a;
	if (!err)
		s->mem = pk_record_data_src(s->data_src);
	return err;
}

static int do_aux(struct pk__rcur *c, const struct perf_event_attr *a, struct pk_sample *s,
		  const struct step *st)
{
	int err = rcur_need(c, 8, "AUX size");

	(void)a;
	(void)st;
	if (err)
		return err;
	s->aux.size = rcur_u64(c);
	err = rcur_need(c, s->aux.size, "AUX data");
	if (err)
		return err;
	s->aux.data = rcur_here(c);
	c->pos += s->aux.size;
	return 0;
}

#define U64(bit, field) { PERF_SAMPLE_##bit, #bit, NULL, offsetof(struct pk_sample, field) }
#define FN(bit, fn) { PERF_SAMPLE_##bit, #bit, fn, 0 }

/* The kernel's write order (perf_output_sample, Linux 5.11 and later).
 * The first PREFIX_STEPS are decode_prefix's fields, in this order. */
static const struct step steps[] = {
	U64(IDENTIFIER, identifier),
	U64(IP, ip),
	FN(TID, do_tid),
	U64(TIME, time),
	U64(ADDR, addr),
	U64(ID, id),
	U64(STREAM_ID, stream_id),
	FN(CPU, do_cpu),
	U64(PERIOD, period),
	FN(READ, do_read),
	FN(CALLCHAIN, do_callchain),
	FN(RAW, do_raw),
	FN(BRANCH_STACK, do_branch),
	FN(REGS_USER, do_regs_user),
	FN(STACK_USER, do_stack),
	{ PERF_SAMPLE_WEIGHT_TYPE, "WEIGHT", do_weight, 0 },
	FN(DATA_SRC, do_data_src),
	U64(TRANSACTION, transaction),
	FN(REGS_INTR, do_regs_intr),
	U64(PHYS_ADDR, phys_addr),
	U64(CGROUP, cgroup),
	U64(DATA_PAGE_SIZE, data_page_size),
	U64(CODE_PAGE_SIZE, code_page_size),
	FN(AUX, do_aux),
};

static void copy_id(const struct pk_sample *s, struct pk_sample_id *id)
{
	id->fields = s->fields & PK_SAMPLE_ID_FIELDS;
	id->pid = s->pid;
	id->tid = s->tid;
	id->time = s->time;
	id->id = (s->fields & PERF_SAMPLE_IDENTIFIER) ? s->identifier : s->id;
	id->stream_id = s->stream_id;
	id->cpu = s->cpu;
	id->cpu_res = s->cpu_res;
}

/* The fields before READ: each one u64 (TID and CPU two u32s). */
#define PREFIX_FIELDS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		       PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
		       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define PREFIX_STEPS 9	/* steps[0 .. 8] are those fields */
#define CALLCHAIN_STEP 10	/* steps[10], after READ's */

/* The fields before READ, when the record has the bytes for all of them:
 * one bounds check instead of one per field, no calls (every sample pays
 * this).  Returns the index of the first step still to decode: 0 when the
 * bytes are short, so the steps find the field that is and say so. */
static size_t decode_prefix(struct pk__rcur *c, uint64_t type, struct pk_sample *s)
{
	size_t n = 8 * (size_t)rcur_bits(type & PREFIX_FIELDS);

	if (n > c->end - c->pos)
		return 0;
	if (type & PERF_SAMPLE_IDENTIFIER)
		s->identifier = rcur_u64(c);
	if (type & PERF_SAMPLE_IP)
		s->ip = rcur_u64(c);
	if (type & PERF_SAMPLE_TID) {
		s->pid = rcur_u32(c);
		s->tid = rcur_u32(c);
	}
	if (type & PERF_SAMPLE_TIME)
		s->time = rcur_u64(c);
	if (type & PERF_SAMPLE_ADDR)
		s->addr = rcur_u64(c);
	if (type & PERF_SAMPLE_ID)
		s->id = rcur_u64(c);
	if (type & PERF_SAMPLE_STREAM_ID)
		s->stream_id = rcur_u64(c);
	if (type & PERF_SAMPLE_CPU) {
		s->cpu = rcur_u32(c);
		s->cpu_res = rcur_u32(c);
	}
	if (type & PERF_SAMPLE_PERIOD)
		s->period = rcur_u64(c);
	return PREFIX_STEPS;
}

/* The fields from step i on that `left` still names, through the table.
 * The cursor is a copy: the one pk__sample_decode keeps in registers
 * must not have its address taken. */
static int decode_steps(struct pk__rcur cur, const struct perf_event_attr *attr, struct pk_sample *s,
			size_t i, uint64_t left)
{
	for (; left && i < sizeof(steps) / sizeof(steps[0]); i++) {
		const struct step *st = &steps[i];
		int err;

		if (!(left & st->bit))
			continue;
		left &= ~st->bit;
		if (st->fn)
			err = st->fn(&cur, attr, s, st);
		else
			err = plain_u64(&cur, st, (uint64_t *)((char *)s + st->off));
		if (err)
			return err;
	}
	return 0;
}

int pk__sample_decode(const struct perf_event_header *h, const struct perf_event_attr *attr,
		      struct pk_sample *s, struct pk_sample_id *id)
{
	struct pk__rcur cur = { .base = (const unsigned char *)h, .pos = sizeof(*h), .end = h->size,
				.size = h->size, .type = h->type };
	uint64_t type = attr->sample_type, left;
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	if (type & ~known_fields) {
		struct pk__rcur here = cur;

		return pk__rcur_fail(&here, "sample_type 0x%llx has bits this version of perfkit "
				     "cannot lay out (0x%llx)", (unsigned long long)type,
				     (unsigned long long)(type & ~known_fields));
	}
	s->fields = type;
	i = decode_prefix(&cur, type, s);
	/* `left`: the fields still to decode, so the walk stops after the last */
	left = type & ~(i ? PREFIX_FIELDS : 0);
	/* A call chain right after the prefix (no READ: perf record -g's
	 * layout) is decoded here, not through the table's pointer. */
	if (i && (left & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN)) == PERF_SAMPLE_CALLCHAIN) {
		if ((err = callchain(&cur, s)) != 0)
			return err;
		left &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
		i = CALLCHAIN_STEP + 1;
	}
	if (left && (err = decode_steps(cur, attr, s, i, left)) != 0)
		return err;
	copy_id(s, id);
	return 0;
}

int pk_sample_trim_stack(const struct perf_event_header *h, const struct perf_event_attr *attr, void *out)
{
	struct pk_record r;
	const unsigned char *in = (const unsigned char *)h;
	unsigned char *o = out;
	size_t data_off, keep, tail_off, tail_len;
	uint64_t v;
	int err;

	if (h->type != PERF_RECORD_SAMPLE || !(attr->sample_type & PERF_SAMPLE_STACK_USER))
		return 0;
	r.size = sizeof(r);
	if ((err = pk_record_decode(h, attr, &r)) != 0)
		return err < 0 ? err : 0;
	if (!r.sample.stack.size)
		return 0;
	keep = (size_t)((r.sample.stack.dyn_size + 7) & ~7ULL);
	if (keep >= r.sample.stack.size)
		return 0;	/* all of it is valid: nothing to cut */
	/* The layout around the stack: u64 size, data[size], u64 dyn_size, then
	 * the fields after it (WEIGHT, DATA_SRC, ...), moved up unchanged. */
	data_off = (size_t)((const unsigned char *)r.sample.stack.data - in);
	tail_off = data_off + (size_t)r.sample.stack.size + 8;
	tail_len = h->size - tail_off;
	memcpy(o, in, data_off);
	v = keep;
	memcpy(o + data_off - 8, &v, 8);
	memcpy(o + data_off, r.sample.stack.data, keep);
	v = r.sample.stack.dyn_size;
	memcpy(o + data_off + keep, &v, 8);
	memcpy(o + data_off + keep + 8, in + tail_off, tail_len);
	((struct perf_event_header *)out)->size = (uint16_t)(data_off + keep + 8 + tail_len);
	return (int)(data_off + keep + 8 + tail_len);
}
