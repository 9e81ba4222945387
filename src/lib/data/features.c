/* SPDX-License-Identifier: MIT */
/*
 * features.c - the perf.data feature sections perfkit writes, in perf's
 * encodings (tools/perf/Documentation/perf.data-file-format.txt): strings
 * padded to 64 bytes, string lists, the event descriptions, groups, the
 * sample time range, the build-ids, the clock, the BPF programs
 * (features-bpf.c) and, for tracepoints, the tracing data (tracing.c);
 * the machine's description (CPU topology, NUMA nodes, caches, memory
 * blocks, PMUs) comes from features-host.c, gathered once per process.
 */
#include "data.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The feature ids, from the list the reader shares (features.def). */
enum {
#define PK__FEAT(id, NAME, name) FEAT_##NAME = (id),
#include "features.def"
#undef PK__FEAT
	FEAT_LAST = 32,		/* the bitmap's bits perf 6.1 reserves */
};

/* perf's name of feature f, for messages. */
static const char *feat_name(int f)
{
	static const char *const names[FEAT_LAST] = {
#define PK__FEAT(id, NAME, name) [id] = name,
#include "features.def"
#undef PK__FEAT
	};

	return f > 0 && f < FEAT_LAST && names[f] ? names[f] : "unknown";
}

void pk__data_put(struct pk__data_blob *b, const void *p, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 256) + len;
		unsigned char *n = pk__realloc(b->p, cap);

		if (!n) {
			b->oom = true;
			return;
		}
		b->p = n;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

void pk__data_put_u32(struct pk__data_blob *b, uint32_t v) { pk__data_put(b, &v, sizeof(v)); }
void pk__data_put_u64(struct pk__data_blob *b, uint64_t v) { pk__data_put(b, &v, sizeof(v)); }

/* perf_header_string: u32 length, then the string NUL-padded to 64 bytes. */
void pk__data_put_string(struct pk__data_blob *b, const char *s)
{
	static const char zeros[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	pk__data_put_u32(b, (uint32_t)padded);
	pk__data_put(b, s, n - 1);
	pk__data_put(b, zeros, padded - (n - 1));
}

static void event_desc(struct pk_data_writer *w, struct pk__data_blob *b)
{
	pk__data_put_u32(b, (uint32_t)w->nr_events);
	pk__data_put_u32(b, PK__ATTR_SIZE);
	for (size_t i = 0; i < w->nr_events; i++) {
		pk__data_put(b, &w->ev[i].attr, PK__ATTR_SIZE);
		pk__data_put_u32(b, (uint32_t)w->ev[i].nr_ids);
		pk__data_put_string(b, w->ev[i].name);
		pk__data_put(b, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
}

/*
 * One BUILD_ID entry, as perf writes it: a record header (misc says user or
 * kernel, and that the size byte is valid), pid -1 (the host), 20 bytes of
 * id, its size, two reserved fields, and the name NUL-padded to 64 bytes.
 */
static void build_id(struct pk__data_blob *b, const struct pk__data_build_id *e)
{
	static const char zeros[64];
	struct {
		struct perf_event_header h;
		int32_t pid;
		uint8_t data[20];
		uint8_t size, reserved1;
		uint16_t reserved2;
	} __attribute__((packed)) r = { 0 };
	size_t n = strlen(e->name) + 1, padded = (n + 63) & ~(size_t)63;

	_Static_assert(sizeof(r) == 36, "perf_record_header_build_id is 36 bytes");
	r.h.type = 0;
	r.h.misc = (uint16_t)((e->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
			      (1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE */);
	r.h.size = (uint16_t)(sizeof(r) + padded);
	r.pid = -1;
	memcpy(r.data, e->id, e->size);
	r.size = e->size;
	pk__data_put(b, &r, sizeof(r));
	pk__data_put(b, e->name, n - 1);
	pk__data_put(b, zeros, padded - (n - 1));
}

/* BPF_PROG_INFO and BPF_BTF (features-bpf.c), through pk__data_put(). */
static void put_any(void *b, const void *p, size_t len) { pk__data_put(b, p, len); }

static bool bpf_feature(const struct pk_data_writer *w, struct pk__data_blob *b, bool btf)
{
	pk__data_bpf_feature(w->bpf, btf, put_any, b);
	return true;
}

/*
 * HEADER_TRACING_DATA when a tracepoint was recorded (tracing.c).  Without
 * tracefs the section is left out rather than the recording lost: perf then
 * refuses the file, but perfkit can still read it.
 */
static bool tracing_data(struct pk_data_writer *w, struct pk__data_blob *b)
{
	unsigned char *p;
	size_t len;
	int err = pk__data_writer_tracing(NULL, w->ev, w->nr_events, &p, &len);

	if (err == -ENOMEM)
		b->oom = true;
	else if (err < 0)
		pk__error_clear();
	if (err < 0 || !len)
		return false;
	pk__data_put(b, p, len);
	free(p);
	return true;
}

/* The payload of a feature about what was recorded (the writer's state);
 * the machine's are features-host.c's.  False when perfkit does not write it. */
static bool feature(struct pk_data_writer *w, int f, struct pk__data_blob *b, const struct pk__data_host *h)
{
	switch (f) {
	case FEAT_TRACING_DATA: return tracing_data(w, b);
	case FEAT_BUILD_ID:
		if (!w->nr_build_ids)
			return false;
		for (size_t i = 0; i < w->nr_build_ids; i++)
			build_id(b, &w->build_ids[i]);
		return true;
	case FEAT_CMDLINE:
		pk__data_put_u32(b, (uint32_t)w->nr_cmdline);
		for (size_t i = 0; i < w->nr_cmdline; i++)
			pk__data_put_string(b, w->cmdline[i]);
		return true;
	case FEAT_EVENT_DESC: event_desc(w, b); return true;
	case FEAT_BPF_PROG_INFO: return bpf_feature(w, b, false);
	case FEAT_BPF_BTF: return bpf_feature(w, b, true);
	case FEAT_GROUP_DESC:
		if (!w->nr_groups)
			return false;
		pk__data_put_u32(b, (uint32_t)w->nr_groups);
		for (size_t g = 0; g < w->nr_groups; g++) {
			pk__data_put_string(b, "{anon_group}");	/* perf 6.1's name for an unnamed {a,b} */
			pk__data_put_u32(b, (uint32_t)w->groups[g].leader);
			pk__data_put_u32(b, (uint32_t)w->groups[g].nr_members);
		}
		return true;
	case FEAT_SAMPLE_TIME:
		/* a pipe's features go first: perf 6.1 sends zeros there */
		if (!w->have_sample_time && !w->pipe)
			return false;
		pk__data_put_u64(b, w->first_sample);
		pk__data_put_u64(b, w->last_sample);
		return true;
	case FEAT_CLOCKID:
		if (!w->have_clock || !w->clock_res_ns)
			return false;
		pk__data_put_u64(b, w->clock_res_ns);
		return true;
	case FEAT_CLOCK_DATA:
		if (!w->have_clock)
			return false;
		pk__data_put_u32(b, 1);		/* version */
		pk__data_put_u32(b, (uint32_t)w->clockid);
		pk__data_put_u64(b, w->clock_tod_ns);
		pk__data_put_u64(b, w->clock_ns);
		return true;
	case FEAT_DIR_FORMAT:
		if (!w->dir_format)
			return false;
		pk__data_put_u64(b, 1);		/* perf 6.1's PERF_DIR_VERSION: data and data.N */
		return true;
	case FEAT_COMPRESSED:
		if (!w->zcs)
			return false;
		pk__data_put_u32(b, 1);		/* version */
		pk__data_put_u32(b, 1);		/* type: zstd */
		pk__data_put_u32(b, (uint32_t)w->comp_level);
		pk__data_put_u32(b, w->comp_out ? (uint32_t)((w->comp_in + w->comp_out / 2) / w->comp_out) : 1);
		pk__data_put_u32(b, PK__COMP_MMAP_LEN);	/* what one record may decompress to */
		return true;
	default:
		return pk__data_host_feature(h, f, b);
	}
}

int pk__data_writer_features(struct pk_data_writer *w, uint64_t flags[4])
{
	struct pk__data_blob blobs[FEAT_LAST] = { { 0 } };
	struct pk__file_section table[FEAT_LAST];
	struct pk__data_host *h;
	int err = pk__data_host_get(&h), n = 0;
	uint64_t at;

	if (err < 0)
		return err;
	for (int f = 1; f < FEAT_LAST; f++)
		if (feature(w, f, &blobs[f], h)) {
			flags[f / 64] |= 1ULL << (f % 64);
			n++;
		}
	pk__data_host_put(h);
	/* A section left out because memory ran out fails the file too. */
	for (int f = 1; f < FEAT_LAST && !err; f++)
		if (blobs[f].oom)
			err = pk__error_nomem("the perf.data %s feature section", feat_name(f));
	/* The table of sections comes right after the data; the payloads follow it. */
	at = pk__data_writer_pos(w) + (uint64_t)n * sizeof(table[0]);
	n = 0;
	for (int f = 1; f < FEAT_LAST; f++) {
		if (!(flags[f / 64] & (1ULL << (f % 64))))
			continue;
		table[n++] = (struct pk__file_section){ at, blobs[f].len };
		at += blobs[f].len;
	}
	if (!err)
		err = pk__data_writer_put(w, table, (size_t)n * sizeof(table[0]));
	for (int f = 1; f < FEAT_LAST; f++) {
		if (!err && blobs[f].len)
			err = pk__data_writer_put(w, blobs[f].p, blobs[f].len);
		free(blobs[f].p);
	}
	return err;
}

int pk__data_writer_feature(struct pk_data_writer *w, const struct pk__data_host *h, int f, unsigned char **p,
			    size_t *len)
{
	struct pk__data_blob b = { 0 };
	struct pk__data_host *own = NULL;
	bool has;
	int err;

	*p = NULL;
	*len = 0;
	if (!h && (err = pk__data_host_get(&own)) < 0)
		return err;
	has = feature(w, f, &b, h ? h : own);
	pk__data_host_put(own);
	if (has && b.oom) {
		free(b.p);
		return pk__error_nomem("a perf.data feature section");
	}
	if (!has) {
		free(b.p);
		return 0;
	}
	*p = b.p;
	*len = b.len;
	return 1;
}
