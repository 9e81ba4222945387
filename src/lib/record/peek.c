/* SPDX-License-Identifier: MIT */
/*
 * peek.c - the fast path into a PERF_RECORD_SAMPLE: the fixed-size fields
 * the kernel writes first (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID,
 * CPU, PERIOD, in perf_output_sample()'s order), found from sample_type
 * without decoding the variable-length rest.  A recorder marks build-ids
 * and tracks sample times with it on every sample, where a full decode of
 * callchains and stacks would be wasted.  It agrees with pk_record_decode
 * on every field it returns (the record fuzz target checks that).
 */
#include "record/record.h"
#include "sys/sys.h"

#include <errno.h>

/* The leading fixed fields, in the order the kernel writes them. */
static const uint64_t peek_order[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
	PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
};

/* One field at the cursor (8 bytes, checked by the caller) into *out. */
static void peek_store(struct pk__rcur *c, struct pk_sample_peek *out, uint64_t bit)
{
	uint64_t v;

	if (bit == PERF_SAMPLE_TID || bit == PERF_SAMPLE_CPU) {	/* two u32s */
		uint32_t first = rcur_u32(c), second = rcur_u32(c);

		if (bit == PERF_SAMPLE_CPU) {
			out->cpu = first;	/* the second is reserved */
		} else {
			out->pid = first;
			out->tid = second;
		}
		return;
	}
	v = rcur_u64(c);
	switch (bit) {
	case PERF_SAMPLE_IDENTIFIER:
		out->id = v;
		break;
	case PERF_SAMPLE_ID:	/* the same number; IDENTIFIER, first, wins as in the decoder */
		if (!(out->fields & PERF_SAMPLE_IDENTIFIER))
			out->id = v;
		break;
	case PERF_SAMPLE_IP:
		out->ip = v;
		break;
	case PERF_SAMPLE_TIME:
		out->time = v;
		break;
	case PERF_SAMPLE_ADDR:
		out->addr = v;
		break;
	case PERF_SAMPLE_PERIOD:
		out->period = v;
		break;
	default:	/* STREAM_ID: skipped */
		break;
	}
}

int pk_sample_peek(const struct perf_event_header *h, const struct perf_event_attr *attr,
		   struct pk_sample_peek *out)
{
	static const struct perf_event_attr zero;
	struct pk__rcur c = { .base = (const unsigned char *)h, .pos = sizeof(*h), .type = h->type };
	uint64_t type;
	size_t size;

	if (out->size < sizeof(*out))
		return pk__error(-EINVAL, "pk_sample_peek", "struct pk_sample_peek.size is %zu, less "
				 "than the %zu bytes this library fills: set size = "
				 "sizeof(struct pk_sample_peek)", out->size, sizeof(*out));
	if (!attr)
		attr = &zero;
	type = attr->sample_type;
	size = out->size;
	memset(out, 0, sizeof(*out));
	out->size = size;
	c.end = c.size = h->size;
	if (h->size < sizeof(*h)) {
		c.end = c.size = 0;
		c.pos = 0;
		return pk__rcur_fail(&c, "the record's size %u is less than its header's", h->size);
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return pk__rcur_fail(&c, "a peek is for SAMPLE records, not type %u", h->type);
	for (size_t i = 0; i < sizeof(peek_order) / sizeof(peek_order[0]); i++) {
		uint64_t bit = peek_order[i];
		int err;

		if (!(type & bit))
			continue;
		/* The field's name only for the message: it costs a lookup per field. */
		if (c.end - c.pos < 8 && (err = pk__rcur_need(&c, 8, pk_sample_field_name(bit))) != 0)
			return err;
		peek_store(&c, out, bit);
		out->fields |= bit;
	}
	return 0;
}
