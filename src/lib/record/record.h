/* SPDX-License-Identifier: MIT */
/*
 * record.h - the record layer's internal interface: a bounds-checked cursor
 * over one record's bytes, shared by the decoder of the record types
 * (record.c) and of PERF_RECORD_SAMPLE (sample.c).  Every read goes through
 * rcur_need() first, which is what makes the decoder unable to read past a
 * record, and which writes the error naming the byte offset.
 */
#ifndef PK_RECORD_H
#define PK_RECORD_H

#include "perfkit.h"

#include <string.h>

struct pk__rcur {
	const unsigned char *base;	/* the record, header included */
	size_t pos;			/* the next byte to read, from base */
	size_t end;			/* where this part ends: the trailer or the record end */
	size_t size;			/* the record's size */
	uint32_t type;			/* PERF_RECORD_*, for messages */
};

/*
 * pk__rcur_fail - record -EINVAL for the record under `c`: "at offset
 * <c->pos>: <why>".  Returns -EINVAL.
 */
int pk__rcur_fail(const struct pk__rcur *c, const char *why_fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * pk__rcur_need - check that `n` more bytes are there for `what` (a field
 * name for the message).  Returns 0 or -EINVAL (recorded, with the offset,
 * the size needed and the size left).
 */
int pk__rcur_need(const struct pk__rcur *c, uint64_t n, const char *what);

/* pk__rcur_need with its test inline: the sample decoder's every field.
 * The message gets a copy of the cursor, so that a caller's cursor whose
 * address is taken nowhere else can live in registers. */
static inline int rcur_need(const struct pk__rcur *c, uint64_t n, const char *what)
{
	struct pk__rcur here;

	if (n <= c->end - c->pos)
		return 0;
	here = *c;
	return pk__rcur_need(&here, n, what);
}

/*
 * pk__rcur_read_values - the struct read_format at the cursor, laid out as
 * `read_format` says (its length depends on the group's nr, read first),
 * checked against pk_count_parse.  Advances past it.  0 or -EINVAL.
 */
int pk__rcur_read_values(struct pk__rcur *c, uint64_t read_format, struct pk_read_values *v);

/*
 * pk__sample_decode - the body of the PERF_RECORD_SAMPLE at h (h->size
 * readable bytes, at least its header's, 8-byte aligned), as `attr` lays
 * it out; also fills *id from it.  0 or -EINVAL (recorded).
 */
int pk__sample_decode(const struct perf_event_header *h, const struct perf_event_attr *attr,
		      struct pk_sample *s, struct pk_sample_id *id);

/* Readers, used only after pk__rcur_need: the bytes need not be aligned. */
static inline uint64_t rcur_u64(struct pk__rcur *c)
{
	uint64_t v;

	memcpy(&v, c->base + c->pos, 8);
	c->pos += 8;
	return v;
}

static inline uint32_t rcur_u32(struct pk__rcur *c)
{
	uint32_t v;

	memcpy(&v, c->base + c->pos, 4);
	c->pos += 4;
	return v;
}

static inline uint16_t rcur_u16(struct pk__rcur *c)
{
	uint16_t v;

	memcpy(&v, c->base + c->pos, 2);
	c->pos += 2;
	return v;
}

/* The number of bits set in x, without libgcc's __popcountdi2 call (the
 * build targets x86-64 without POPCNT; the decoders count fields with it
 * for every sample). */
static inline unsigned int rcur_bits(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((x * 0x0101010101010101ull) >> 56);
}

/* The address of the next byte, for pointers into the record. */
static inline const void *rcur_here(const struct pk__rcur *c)
{
	return c->base + c->pos;
}

/*
 * pk__btf_type_name - the name of type `type_id` in the raw BTF blob `btf`
 * of `len` bytes (native byte order), pointing into the blob; NULL when
 * the blob is not BTF, lacks the type, or the name runs out of it (btf.c).
 */
const char *pk__btf_type_name(const void *btf, size_t len, uint32_t type_id);

struct pk__bpf_prog;

/*
 * pk__bpf_prog_array - `bytes` bytes of program p's array whose offset is
 * `off` (the info's pointer field), or NULL when they are not all in
 * p->data (btf.c).
 */
const void *pk__bpf_prog_array(const struct pk__bpf_prog *p, uint64_t off, uint64_t bytes);

/*
 * pk__bpf_func_name - perf's name for jited function `sub` of program p
 * into buf (n bytes): "bpf_prog_<tag>_<name>", the name from BTF function
 * info when `btf` (btf_len bytes, the program's BTF) has it, else the
 * program's own name when it is a single function, else "F" (btf.c).
 * Returns the name's length; -EINVAL when p lacks the tags or BTF the
 * function.
 */
int pk__bpf_func_name(const struct pk__bpf_prog *p, const void *btf, size_t btf_len,
		      uint32_t sub, char *buf, size_t n);

/*
 * pk__bpf_prog_described - whether perf describes program p (KSYMBOL and
 * BPF_EVENT records, BPF_PROG_INFO): it is jited, its symbols, their
 * lengths and tags agree in number, and so does its BTF function info when
 * it has some (pk__bpf_prog_has_btf: a BTF id, function info records and
 * their size), whose BTF perf then keeps in BPF_BTF (btf.c).
 */
bool pk__bpf_prog_described(const struct pk__bpf_prog *p);
bool pk__bpf_prog_has_btf(const struct pk__bpf_prog *p);

#endif
