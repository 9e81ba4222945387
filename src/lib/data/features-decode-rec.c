/* SPDX-License-Identifier: MIT */
/*
 * features-decode-rec.c - the decoders of the feature sections about the
 * recording rather than the machine: the events with their attrs, names
 * and ids, the groups, the build-ids of the DSOs, the sample time range,
 * the clock, compression, the AUX area index and perf's framing of BPF
 * programs and their BTF.  Pure functions over the cursor of
 * features-decode.h; layouts from perf 6.1's header.c.
 */
#include "data/features-decode.h"

#include <byteswap.h>
#include <stddef.h>
#include <string.h>

#define ATTR_SIZE_VER0 64	/* the smallest attr any perf wrote */
#define ATTR_SIZE_MAX 4096	/* more is not an attr (perf refuses a page's worth too) */

static void swap16_at(unsigned char *a, size_t off, size_t size)
{
	uint16_t v;

	if (size > off) {
		memcpy(&v, a + off, 2);
		v = bswap_16(v);
		memcpy(a + off, &v, 2);
	}
}

static void swap32_at(unsigned char *a, size_t off, size_t size)
{
	uint32_t v;

	if (size > off) {
		memcpy(&v, a + off, 4);
		v = bswap_32(v);
		memcpy(a + off, &v, 4);
	}
}

static void swap64_at(unsigned char *a, size_t off, size_t size)
{
	uint64_t v;

	if (size > off) {
		memcpy(&v, a + off, 8);
		v = bswap_64(v);
		memcpy(a + off, &v, 8);
	}
}

/*
 * An attr from the other byte order, the way perf 6.1 swaps one
 * (perf_event__attr_swap): the fields it names, each only when the attr's
 * own size covers it, and the flag bits' bytes bit-reversed, because
 * bit-fields are allocated from the other end on the other byte order.
 * perf leaves config1, config2, clockid, sample_regs_intr and sig_data as
 * they are; so does this, so both read a swapped file the same way.
 */
static void attr_swap(unsigned char *a)
{
	uint32_t size;

	swap32_at(a, 0, 8);				/* type */
	swap32_at(a, 4, 8);				/* size */
	memcpy(&size, a + 4, 4);
	swap64_at(a, offsetof(struct perf_event_attr, config), size);
	swap64_at(a, offsetof(struct perf_event_attr, sample_period), size);
	swap64_at(a, offsetof(struct perf_event_attr, sample_type), size);
	swap64_at(a, offsetof(struct perf_event_attr, read_format), size);
	swap32_at(a, offsetof(struct perf_event_attr, wakeup_events), size);
	swap32_at(a, offsetof(struct perf_event_attr, bp_type), size);
	swap64_at(a, offsetof(struct perf_event_attr, branch_sample_type), size);
	swap64_at(a, offsetof(struct perf_event_attr, sample_regs_user), size);
	swap32_at(a, offsetof(struct perf_event_attr, sample_stack_user), size);
	swap32_at(a, offsetof(struct perf_event_attr, aux_watermark), size);
	swap16_at(a, offsetof(struct perf_event_attr, sample_max_stack), size);
	swap32_at(a, offsetof(struct perf_event_attr, aux_sample_size), size);
	if (size > offsetof(struct perf_event_attr, read_format) + 8)
		for (size_t i = 0; i < 8; i++) {
			unsigned char *b = a + offsetof(struct perf_event_attr, read_format) + 8 + i;
			unsigned int r = 0;

			for (int bit = 0; bit < 8; bit++)
				r |= ((*b >> bit) & 1u) << (7 - bit);
			*b = (unsigned char)r;
		}
}

/* One event: attr_size bytes of attr, a count of ids, the name, the ids. */
static void event(struct pk__feat_cur *c, struct pk_feature_event *e, uint32_t attr_size)
{
	const unsigned char *p = pk__feat_bytes(c, attr_size, "an attr runs past the end");
	unsigned char *a = pk__feat_alloc(c, PK_DATA_READER_ATTR_SIZE > attr_size ?
					  PK_DATA_READER_ATTR_SIZE : attr_size);

	if (!p || !a)
		return;
	memcpy(a, p, attr_size);
	if (c->swap)
		attr_swap(a);
	e->attr = (const struct perf_event_attr *)a;
	e->nr_ids = pk__feat_u32(c);
	e->name = pk__feat_string(c);
	e->ids = pk__feat_array(c, e->nr_ids, 8, 8, "an event's ids run past the end");
	for (uint32_t i = 0; e->ids && i < e->nr_ids; i++)
		e->ids[i] = pk__feat_u64(c);
}

static void *event_desc(struct pk__feat_cur *c)
{
	struct pk_feature_event_desc *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->attr_size = pk__feat_u32(c);
	if (!c->err && t->nr && (t->attr_size < ATTR_SIZE_VER0 || t->attr_size > ATTR_SIZE_MAX)) {
		pk__feat_fail(c, "the attr size is out of range (64 to 4096)");
		return NULL;
	}
	t->events = pk__feat_array(c, t->nr, sizeof(*t->events), (size_t)t->attr_size + 8,
				   "the event count exceeds the section");
	for (uint32_t i = 0; t->events && i < t->nr; i++)
		event(c, &t->events[i], t->attr_size);
	return t;
}

static void *group_desc(struct pk__feat_cur *c)
{
	struct pk_feature_group_desc *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->groups = pk__feat_array(c, t->nr, sizeof(*t->groups), 12,
				   "the group count exceeds the section");
	for (uint32_t i = 0; t->groups && i < t->nr; i++) {
		t->groups[i].name = pk__feat_string(c);
		t->groups[i].leader_idx = pk__feat_u32(c);
		t->groups[i].nr_members = pk__feat_u32(c);
	}
	return t;
}

#define BUILD_ID_REC 36		/* header 8, pid 4, id 20, size 1, reserved 3 */
#define MISC_BUILD_ID_SIZE (1u << 15)

/* One perf_record_header_build_id and its NUL-padded file name. */
static void build_id(struct pk__feat_cur *c, struct pk_feature_build_id *e)
{
	size_t start = c->off, name_len;
	uint32_t size16_misc;
	uint16_t size;
	const unsigned char *raw;
	const char *name;

	pk__feat_u32(c);			/* the type: unused */
	size16_misc = pk__feat_u32(c);
	/* misc and size are two u16s: in the file's order, misc comes first. */
	e->misc = (uint16_t)(c->swap ? size16_misc >> 16 : size16_misc);
	size = (uint16_t)(c->swap ? size16_misc : size16_misc >> 16);
	e->pid = (int32_t)pk__feat_u32(c);
	raw = pk__feat_bytes(c, 24, "a build-id entry runs past the end");
	if (!raw)
		return;
	memcpy(e->id, raw, 20);
	e->size = (e->misc & MISC_BUILD_ID_SIZE) && raw[20] <= 20 ? raw[20] : 20;
	if (size < BUILD_ID_REC) {
		c->off = start;
		pk__feat_fail(c, "a build-id entry is shorter than its 36 bytes");
		return;
	}
	name_len = size - BUILD_ID_REC;
	name = pk__feat_bytes(c, name_len, "a build-id entry's file name runs past the end");
	e->filename = pk__feat_alloc(c, (name ? strnlen(name, name_len) : 0) + 1);
	if (name && e->filename)
		memcpy(e->filename, name, strnlen(name, name_len));
}

static void *build_ids(struct pk__feat_cur *c)
{
	struct pk_feature_build_ids *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	/* Entries run to the end of the section; each takes at least 36 bytes. */
	t->ids = pk__feat_alloc(c, (c->len / BUILD_ID_REC + 1) * sizeof(*t->ids));
	while (t->ids && !c->err && c->len - c->off >= 8)
		build_id(c, &t->ids[t->nr++]);
	return t;
}

static void *fixed(struct pk__feat_cur *c)
{
	switch (c->f->id) {
	case PK_DATA_FEAT_SAMPLE_TIME: {
		struct pk_feature_sample_time *t = pk__feat_alloc(c, sizeof(*t));

		if (t) {
			t->first_ns = pk__feat_u64(c);
			t->last_ns = pk__feat_u64(c);
		}
		return t;
	}
	case PK_DATA_FEAT_CLOCK_DATA: {
		struct pk_feature_clock_data *t = pk__feat_alloc(c, sizeof(*t));

		if (t) {
			t->version = pk__feat_u32(c);
			t->clockid = (int32_t)pk__feat_u32(c);
			t->tod_ns = pk__feat_u64(c);
			t->clock_ns = pk__feat_u64(c);
		}
		return t;
	}
	default: {
		struct pk_feature_compressed *t = pk__feat_alloc(c, sizeof(*t));

		if (t) {
			t->version = pk__feat_u32(c);
			t->type = pk__feat_u32(c);
			t->level = pk__feat_u32(c);
			t->ratio = pk__feat_u32(c);
			t->mmap_len = pk__feat_u32(c);
		}
		return t;
	}
	}
}

static void *auxtrace(struct pk__feat_cur *c)
{
	struct pk_feature_auxtrace *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u64(c);
	t->entries = pk__feat_array(c, t->nr, sizeof(*t->entries), 16,
				    "the index count exceeds the section");
	for (uint64_t i = 0; t->entries && i < t->nr; i++) {
		t->entries[i].file_offset = pk__feat_u64(c);
		t->entries[i].size = pk__feat_u64(c);
	}
	return t;
}

/* perf_bpil framing: info_len, data_len, arrays, the info, the data. */
static void *bpf_progs(struct pk__feat_cur *c)
{
	struct pk_feature_bpf_progs *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->progs = pk__feat_array(c, t->nr, sizeof(*t->progs), 16,
				  "the program count exceeds the section");
	for (uint32_t i = 0; t->progs && i < t->nr; i++) {
		struct pk_feature_bpf_prog *p = &t->progs[i];

		p->info_len = pk__feat_u32(c);
		p->data_len = pk__feat_u32(c);
		p->arrays = pk__feat_u64(c);
		p->info = pk__feat_bytes(c, p->info_len, "a program's info runs past the end");
		p->data = pk__feat_bytes(c, p->data_len, "a program's data runs past the end");
		if (p->info && p->info_len >= 8) {
			memcpy(&p->type, p->info, 4);
			memcpy(&p->id, p->info + 4, 4);
			p->type = c->swap ? bswap_32(p->type) : p->type;
			p->id = c->swap ? bswap_32(p->id) : p->id;
		}
	}
	return t;
}

static void *btfs(struct pk__feat_cur *c)
{
	struct pk_feature_btfs *t = pk__feat_alloc(c, sizeof(*t));

	if (!t)
		return NULL;
	t->nr = pk__feat_u32(c);
	t->btfs = pk__feat_array(c, t->nr, sizeof(*t->btfs), 8, "the BTF count exceeds the section");
	for (uint32_t i = 0; t->btfs && i < t->nr; i++) {
		t->btfs[i].id = pk__feat_u32(c);
		t->btfs[i].data_size = pk__feat_u32(c);
		t->btfs[i].data = pk__feat_bytes(c, t->btfs[i].data_size,
						 "a BTF blob runs past the end");
	}
	return t;
}

void *pk__feat_recording(struct pk__feat_cur *c)
{
	c->handled = true;
	switch (c->f->id) {
	case PK_DATA_FEAT_EVENT_DESC: return event_desc(c);
	case PK_DATA_FEAT_GROUP_DESC: return group_desc(c);
	case PK_DATA_FEAT_BUILD_ID: return build_ids(c);
	case PK_DATA_FEAT_SAMPLE_TIME:
	case PK_DATA_FEAT_CLOCK_DATA:
	case PK_DATA_FEAT_COMPRESSED: return fixed(c);
	case PK_DATA_FEAT_AUXTRACE: return auxtrace(c);
	case PK_DATA_FEAT_BPF_PROG_INFO: return bpf_progs(c);
	case PK_DATA_FEAT_BPF_BTF: return btfs(c);
	default:
		c->handled = false;
		return NULL;
	}
}
