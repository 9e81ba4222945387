/* SPDX-License-Identifier: MIT */
/*
 * reader-swap.c - records and attrs of a perf.data file written on a
 * machine of the other byte order, brought to this machine's order in
 * place, so every record is delivered as if it had been written here.
 * As perf does (tools/perf/util/session.c), a record's body is first
 * swapped as whole u64s, which makes every u64 field right and leaves the
 * rest to fix by the record's layout: a pair of u32s (pid/tid, cpu/res)
 * has its halves exchanged, a u32 or u16 alone is swapped from the file's
 * bytes, and bytes that are not numbers (file names, comm, tracepoint raw
 * data, user stack memory, build-ids) get the file's bytes back.  Where
 * perf 6.1 swaps less (MMAP2's prot and flags, KSYMBOL, BPF_EVENT, the
 * sample_id_all trailer's u32 pairs, which perf mends while parsing), the
 * record is swapped field by field all the same.  A layout that runs past
 * its record stops the swap there: the decoder names that damage later.
 */
#include "reader-int.h"

#include <byteswap.h>
#include <string.h>

/* A byte range of a record: [at, end) in bytes from its start. */
struct sw {
	unsigned char *p;
	size_t size;
};

static void all64(struct sw *s, size_t from, size_t to)
{
	for (size_t at = from; at + 8 <= to && at + 8 <= s->size; at += 8) {
		uint64_t v;

		memcpy(&v, s->p + at, 8);
		v = bswap_64(v);
		memcpy(s->p + at, &v, 8);
	}
}

/* The u64 at `at` was a pair of u32s: exchange its halves back. */
static void pair(struct sw *s, size_t at)
{
	uint32_t v[2], t;

	if (at + 8 > s->size)
		return;
	memcpy(v, s->p + at, 8);
	t = v[0];
	v[0] = v[1];
	v[1] = t;
	memcpy(s->p + at, v, 8);
}

/* Bytes from `from` to `to` (8-aligned) get the file's order back. */
static void bytes(struct sw *s, size_t from, size_t to)
{
	all64(s, from, to);
}

static uint64_t u64_at(const struct sw *s, size_t at)
{
	uint64_t v = 0;

	if (at + 8 <= s->size)
		memcpy(&v, s->p + at, 8);
	return v;
}

static void swap16_at(struct sw *s, size_t at)
{
	uint16_t v;

	if (at + 2 > s->size)
		return;
	memcpy(&v, s->p + at, 2);
	v = bswap_16(v);
	memcpy(s->p + at, &v, 2);
}

static void swap32_at(struct sw *s, size_t at)
{
	uint32_t v;

	if (at + 4 > s->size)
		return;
	memcpy(&v, s->p + at, 4);
	v = bswap_32(v);
	memcpy(s->p + at, &v, 4);
}

/* The sample_id_all trailer at the end of a non-sample record: its
 * length, and its u32 pairs mended. */
static size_t trailer(struct sw *s, const struct perf_event_attr *a)
{
	static const uint64_t order[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
					  PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER };
	size_t n = 0, at;

	if (!a || !a->sample_id_all)
		return 0;
	for (size_t i = 0; i < 6; i++)
		n += !!(a->sample_type & order[i]);
	if (n * 8 > s->size - 8)
		return 0;
	at = s->size - n * 8;
	for (size_t i = 0; i < 6; i++) {
		if (!(a->sample_type & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_TID || order[i] == PERF_SAMPLE_CPU)
			pair(s, at);
		at += 8;
	}
	return n * 8;
}

/* A size-prefixed run of bytes at *at (u32 size for RAW, u64 for the
 * stack and AUX): the bytes restored, *at moved past them. */
static void raw_area(struct sw *s, size_t *at)
{
	uint32_t size;

	bytes(s, *at, *at + 8);
	swap32_at(s, *at);
	if (*at + 4 > s->size)
		return;
	memcpy(&size, s->p + *at, 4);
	bytes(s, *at + 8, *at + ((4 + (size_t)size + 7) & ~(size_t)7));
	*at += (4 + (size_t)size + 7) & ~(size_t)7;
}

static size_t read_size(uint64_t rf)
{
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	return (times + per) * 8;	/* one value; groups are counted by the caller */
}

static void sample_tail(struct sw *s, const struct perf_event_attr *a, size_t at)
{
	uint64_t t = a->sample_type, n;

	if (t & PERF_SAMPLE_BRANCH_STACK) {
		n = u64_at(s, at);
		at += 8 + ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) ? 8 : 0);
		at += n < s->size ? (size_t)n * 24 : s->size;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		n = u64_at(s, at);
		at += 8 + (n ? 8 * (size_t)__builtin_popcountll(a->sample_regs_user) : 0);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		n = u64_at(s, at);
		at += 8;
		if (n && n < s->size) {
			bytes(s, at, at + (size_t)n);	/* memory, kept as the file has it */
			at += (size_t)n + 8;
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
		bytes(s, at, at + 8);	/* u32 var1_dw, u16 var2_w, u16 var3_w */
		swap32_at(s, at);
		swap16_at(s, at + 4);
		swap16_at(s, at + 6);
		at += 8;
	} else if (t & PERF_SAMPLE_WEIGHT) {
		at += 8;
	}
	at += 8 * (!!(t & PERF_SAMPLE_DATA_SRC) + !!(t & PERF_SAMPLE_TRANSACTION));
	if (t & PERF_SAMPLE_REGS_INTR) {
		n = u64_at(s, at);
		at += 8 + (n ? 8 * (size_t)__builtin_popcountll(a->sample_regs_intr) : 0);
	}
	at += 8 * (!!(t & PERF_SAMPLE_PHYS_ADDR) + !!(t & PERF_SAMPLE_CGROUP) + !!(t & PERF_SAMPLE_DATA_PAGE_SIZE) +
		   !!(t & PERF_SAMPLE_CODE_PAGE_SIZE));
	if ((t & PERF_SAMPLE_AUX) && (n = u64_at(s, at)) < s->size)
		bytes(s, at + 8, at + 8 + (size_t)n);
}

/* A SAMPLE, in the kernel's field order (after all64 of its body). */
static void sample(struct sw *s, const struct perf_event_attr *a)
{
	uint64_t t = a->sample_type, n;
	size_t at = 8;

	at += 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP));
	if (t & PERF_SAMPLE_TID) {
		pair(s, at);
		at += 8;
	}
	at += 8 * (!!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
		   !!(t & PERF_SAMPLE_STREAM_ID));
	if (t & PERF_SAMPLE_CPU) {
		pair(s, at);
		at += 8;
	}
	at += 8 * !!(t & PERF_SAMPLE_PERIOD);
	if (t & PERF_SAMPLE_READ) {
		if (a->read_format & PERF_FORMAT_GROUP) {
			n = u64_at(s, at);
			at += 8 + 8 * (!!(a->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				       !!(a->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING));
			at += n < s->size ? (size_t)n * 8 * (1 + !!(a->read_format & PERF_FORMAT_ID) +
							     !!(a->read_format & PERF_FORMAT_LOST)) : s->size;
		} else {
			at += read_size(a->read_format);
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		n = u64_at(s, at);
		at += 8 + (n < s->size ? (size_t)n * 8 : s->size);
	}
	if (t & PERF_SAMPLE_RAW)
		raw_area(s, &at);
	if (at < s->size)
		sample_tail(s, a, at);
}

/* The kernel's records other than SAMPLE (after all64 of the body). */
static void kernel_record(struct sw *s, uint32_t type, uint16_t misc, const struct perf_event_attr *a)
{
	size_t end = s->size - trailer(s, a);

	switch (type) {
	case PERF_RECORD_MMAP:
		pair(s, 8);
		bytes(s, 40, end);
		break;
	case PERF_RECORD_MMAP2:
		pair(s, 8);
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			bytes(s, 40, 64);
		else
			pair(s, 40);	/* maj, min */
		pair(s, 64);		/* prot, flags */
		bytes(s, 72, end);
		break;
	case PERF_RECORD_COMM:
		pair(s, 8);
		bytes(s, 16, end);
		break;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
		pair(s, 8);	/* pid, ppid */
		pair(s, 16);	/* tid, ptid */
		break;
	case PERF_RECORD_READ: case PERF_RECORD_ITRACE_START: case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_NAMESPACES:
		pair(s, 8);
		break;
	case PERF_RECORD_KSYMBOL:
		bytes(s, 16, end);	/* u32 len, u16 type, u16 flags, then the name */
		swap32_at(s, 16);
		swap16_at(s, 20);
		swap16_at(s, 22);
		break;
	case PERF_RECORD_BPF_EVENT:
		bytes(s, 8, end);	/* u16 type, u16 flags, u32 id, u8 tag[8] */
		swap16_at(s, 8);
		swap16_at(s, 10);
		swap32_at(s, 12);
		break;
	case PERF_RECORD_CGROUP:
		bytes(s, 16, end);
		break;
	case PERF_RECORD_TEXT_POKE:
		bytes(s, 16, end);	/* u16 old_len, u16 new_len, the bytes */
		swap16_at(s, 16);
		swap16_at(s, 18);
		break;
	default:
		break;		/* all u64: LOST, THROTTLE, AUX, LOST_SAMPLES, ... */
	}
}

/* perf's packed cpu map at `at` (CPU_MAP, an EVENT_UPDATE's CPUS), its
 * bytes as the file has them: u16 type, then for CPUS a u16 nr and u16
 * cpus, for MASK u16 nr, u16 long_size and u32 masks (long_size 4) or 4
 * bytes of padding and u64 masks (8), for RANGE_CPUS u8 any_cpu, u8 pad,
 * u16 start and end. */
static void cpu_map(struct sw *s, size_t at)
{
	uint16_t type, nr, lsz;

	if (at + 4 > s->size)
		return;
	swap16_at(s, at);
	swap16_at(s, at + 2);
	memcpy(&type, s->p + at, 2);
	memcpy(&nr, s->p + at + 2, 2);
	if (type == 0) {
		for (size_t i = 0; i < nr; i++)
			swap16_at(s, at + 4 + 2 * i);
	} else if (type == 1) {
		swap16_at(s, at + 4);
		if (at + 6 > s->size)
			return;
		memcpy(&lsz, s->p + at + 4, 2);
		for (size_t i = 0; i < nr && lsz == 4; i++)
			swap32_at(s, at + 6 + 4 * i);
		for (size_t i = 0; i < nr && lsz == 8; i++) {
			uint64_t v;

			if (at + 18 + 8 * i > s->size)
				break;
			memcpy(&v, s->p + at + 10 + 8 * i, 8);
			v = bswap_64(v);
			memcpy(s->p + at + 10 + 8 * i, &v, 8);
		}
	} else if (type == 2) {
		swap16_at(s, at + 2);	/* undo: any_cpu and pad are bytes */
		swap16_at(s, at + 4);
		swap16_at(s, at + 6);
	}
}

/* perf's own records: what they hold, each in its layout. */
static void user_record(struct sw *s, uint32_t type)
{
	switch (type) {
	case PK__RECORD_HEADER_ATTR:
		if (s->size >= 8 + PERF_ATTR_SIZE_VER0) {
			uint32_t asz;

			pk__reader_swap_attr(s->p + 8, s->size - 8);
			memcpy(&asz, s->p + 8 + offsetof(struct perf_event_attr, size), 4);
			if (asz >= PERF_ATTR_SIZE_VER0 && asz <= s->size - 8)
				all64(s, 8 + asz, s->size);	/* the ids */
		}
		break;
	case PK__RECORD_HEADER_FEATURE:	/* u64 id, then the section as the file has it */
	case PK__RECORD_HEADER_EVENT_TYPE:	/* u64 id, char name[64] */
		all64(s, 8, 16);
		break;
	case PK__RECORD_HEADER_TRACING_DATA:
		swap32_at(s, 8);
		break;
	case PK__RECORD_HEADER_BUILD_ID:
		swap32_at(s, 8);	/* pid; the build-id and name are bytes */
		break;
	case PK__RECORD_EVENT_UPDATE:
		all64(s, 8, 24);	/* type, id; a name or unit stays bytes, a scale is a u64 */
		if (u64_at(s, 8) == 1)
			all64(s, 24, 32);
		else if (u64_at(s, 8) == 3)
			cpu_map(s, 24);
		break;
	case 74:		/* CPU_MAP */
		cpu_map(s, 8);
		break;
	case PK__RECORD_COMPRESSED:
		break;		/* zstd bytes: the records inside are swapped one by one */
	case 69: case 75: case 77: case 79:	/* ID_INDEX, STAT_CONFIG, STAT_ROUND, TIME_CONV: all u64 */
		all64(s, 8, s->size);
		break;
	case 76:		/* STAT: id, then u32 cpu and thread, then u64s */
		all64(s, 8, s->size);
		pair(s, 16);
		break;
	case 73:		/* THREAD_MAP: nr, then { u64 pid, char comm[16] } */
		all64(s, 8, 16);
		for (size_t at = 16; at + 24 <= s->size; at += 24)
			all64(s, at, at + 8);
		break;
	default:
		break;		/* FINISHED_ROUND, FINISHED_INIT: nothing; others left as they are */
	}
}

void pk__reader_swap_header(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

void pk__reader_swap_record(struct pk_data_reader *r, struct perf_event_header *h)
{
	struct sw s;
	const struct perf_event_attr *a;

	pk__reader_swap_header(h);
	s = (struct sw){ (unsigned char *)h, h->size };
	if (h->type >= PERF_RECORD_MAX) {
		user_record(&s, h->type);
		return;
	}
	if (h->size % 8)
		return;		/* damage the stream reports */
	all64(&s, 8, s.size);
	a = pk_data_reader_attr_of(r, h);	/* ids are u64s: right already */
	if (h->type == PERF_RECORD_SAMPLE) {
		if (a)
			sample(&s, a);
	} else {
		kernel_record(&s, h->type, h->misc, a);
	}
}

void pk__reader_swap_attr(void *attr, size_t len)
{
	static const struct { unsigned char at, size; } f[] = {
		{ 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 }, { 92, 4 },
		{ 96, 8 }, { 104, 4 }, { 108, 2 }, { 112, 4 }, { 120, 8 }, { 128, 8 },
	};
	struct sw s = { attr, len };
	uint32_t size;

	if (len < 8)
		return;
	swap32_at(&s, 4);
	memcpy(&size, s.p + 4, 4);
	if (size > len)
		size = (uint32_t)len;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].at + f[i].size > size)
			continue;
		if (f[i].size == 8)
			all64(&s, f[i].at, f[i].at + 8);
		else if (f[i].size == 4)
			swap32_at(&s, f[i].at);
		else
			swap16_at(&s, f[i].at);
	}
	swap32_at(&s, 0);
	/* The flag bit-fields after read_format: allocated from the most
	 * significant bit on big-endian machines, from the least on little-
	 * endian ones, so each byte's bits are reversed (perf's swap_bitfield). */
	for (size_t i = 40; i < 48 && size >= 48; i++) {
		unsigned char b = s.p[i], v = 0;

		for (int k = 0; k < 8; k++)
			v |= (unsigned char)(((b >> k) & 1) << (7 - k));
		s.p[i] = v;
	}
}
