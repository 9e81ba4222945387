/* SPDX-License-Identifier: MIT */
/*
 * count.c - what read(2) on an event fd returns: decoding every read_format
 * layout of perf_event_open(2) (single counter or PERF_FORMAT_GROUP, with
 * any of TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID and LOST), a layout
 * worked out once for a hot reader's fixed read_format, and scaling
 * multiplexed counts without overflow.  Pure functions, shared by the
 * counter layer and anything that reads PERF_RECORD_READ or sample READ data.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "counter.h"

#include <errno.h>
#include <string.h>

/* PERF_FORMAT_LOST arrived in Linux 6.0; the 6.1 UAPI header has it, but
 * spell it out so older headers build too. */
#define PK_FORMAT_LOST (1ULL << 4)
#define PK_FORMAT_KNOWN (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP | PK_FORMAT_LOST)

int pk__count_check(const struct pk_count *c, const char *what)
{
	if (!c)
		return pk__error(-EINVAL, what, "%s", "the struct pk_count pointer is NULL");
	if (c->size < PK_COUNT_SIZE_VER0)
		return pk__error(-EINVAL, what, "struct pk_count.size is %zu, less than the %zu bytes "
				 "of its first version: set size = sizeof(struct pk_count)",
				 c->size, (size_t)PK_COUNT_SIZE_VER0);
	return 0;
}

struct pk_count *pk__count_at(struct pk_count *base, size_t i)
{
	return (struct pk_count *)((char *)base + i * base->size);
}

void pk__count_put(struct pk_count *dst, const struct pk_count *src)
{
	size_t size = dst->size;

	/* A caller built against a larger struct gets zeroes in what this
	 * version does not know; one built against a smaller one (it is at
	 * least PK_COUNT_SIZE_VER0) gets only what fits. */
	if (size == sizeof(*src)) {	/* the common case, a plain copy: reads are hot */
		*dst = *src;
		dst->size = size;
		return;
	}
	memset(dst, 0, size);
	memcpy(dst, src, size < sizeof(*src) ? size : sizeof(*src));
	dst->size = size;
}

static uint64_t get(const unsigned char *buf, size_t i)
{
	uint64_t v;

	memcpy(&v, buf + i * 8, 8);	/* the buffer need not be aligned */
	return v;
}

int pk_count_parse(uint64_t read_format, const void *buf, size_t len, struct pk_count *out,
		   size_t max)
{
	const unsigned char *b = buf;
	bool te = read_format & PERF_FORMAT_TOTAL_TIME_ENABLED;
	bool tr = read_format & PERF_FORMAT_TOTAL_TIME_RUNNING;
	bool id = read_format & PERF_FORMAT_ID;
	bool lost = read_format & PK_FORMAT_LOST;
	size_t per = 1 + id + lost, words = len / 8, nr, i = 0;
	uint64_t enabled = 0, running = 0;

	pk__error_clear();
	if (max && pk__count_check(out, "pk_count_parse") < 0)
		return -EINVAL;
	if (read_format & ~PK_FORMAT_KNOWN)
		return pk__error(-EINVAL, "decode read(2) data",
				 "read_format 0x%llx has bits this version of perfkit does not know",
				 (unsigned long long)(read_format & ~PK_FORMAT_KNOWN));
	if (len % 8)
		return pk__error(-EINVAL, "decode read(2) data",
				 "%zu bytes is not a whole number of 8-byte words", len);
	if (!(read_format & PERF_FORMAT_GROUP)) {
		size_t need = 1 + te + tr + id + lost;

		if (words != need)
			return pk__error(-EINVAL, "decode read(2) data",
					 "read_format 0x%llx needs %zu bytes, the buffer has %zu",
					 (unsigned long long)read_format, need * 8, len);
		if (max) {
			struct pk_count c = { .size = sizeof(c) };

			c.value = get(b, i++);
			c.enabled = te ? get(b, i++) : 0;
			c.running = tr ? get(b, i++) : 0;
			c.id = id ? get(b, i++) : 0;
			c.lost = lost ? get(b, i++) : 0;
			pk__count_put(out, &c);
		}
		return 1;
	}
	/* Group layout: nr, the group's times, then nr x { value, id, lost }. */
	if (words < 1 + (size_t)te + tr)
		return pk__error(-EINVAL, "decode read(2) data",
				 "a group read needs at least %zu bytes, the buffer has %zu",
				 (1 + (size_t)te + tr) * 8, len);
	nr = (size_t)get(b, i++);
	if (nr > (words - 1 - te - tr) / per || words != 1 + te + tr + nr * per)
		return pk__error(-EINVAL, "decode read(2) data",
				 "the group read at offset 0 says %zu counters, which does not "
				 "match the buffer's %zu bytes", nr, len);
	enabled = te ? get(b, i++) : 0;
	running = tr ? get(b, i++) : 0;
	for (size_t k = 0; k < nr; k++) {
		struct pk_count c = { .size = sizeof(c), .enabled = enabled, .running = running };

		c.value = get(b, i++);
		c.id = id ? get(b, i++) : 0;
		c.lost = lost ? get(b, i++) : 0;
		if (k < max) {
			struct pk_count *o = pk__count_at(out, k);

			o->size = out->size;
			pk__count_put(o, &c);
		}
	}
	return (int)nr;
}

void pk__count_layout_init(struct pk__count_layout *lay, uint64_t read_format, size_t nr)
{
	size_t te = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	size_t tr = !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t id = !!(read_format & PERF_FORMAT_ID), lost = !!(read_format & PK_FORMAT_LOST);
	bool group = read_format & PERF_FORMAT_GROUP;

	/* A group: nr, the group's times, then nr x { value, id, lost }.  One
	 * counter: value, its times, id, lost.  An absent field reads a word
	 * that is there (index 0 of the counter) through a mask of 0. */
	lay->read_format = read_format;
	lay->group = group;
	lay->nr = group ? nr : 1;
	lay->stride = 1 + id + lost;
	lay->value = group ? 1 + te + tr : 0;
	lay->enabled = te ? 1 : 0;
	lay->running = tr ? 1 + te : 0;
	lay->id = id ? (group ? lay->value + 1 : 1 + te + tr) : 0;
	lay->lost = lost ? (group ? lay->value + 1 + id : 1 + te + tr + id) : 0;
	lay->mask[0] = te ? UINT64_MAX : 0;
	lay->mask[1] = tr ? UINT64_MAX : 0;
	lay->mask[2] = id ? UINT64_MAX : 0;
	lay->mask[3] = lost ? UINT64_MAX : 0;
	lay->len = 8 * (group ? 1 + te + tr + lay->nr * lay->stride : 1 + te + tr + id + lost);
}

int pk__count_decode_scaled(const struct pk__count_layout *lay, const uint64_t *buf, size_t len,
			    struct pk_count *out, size_t max)
{
	int nr;

	if (len == lay->len && (!lay->group || buf[0] == lay->nr)) {
		uint64_t enabled = buf[lay->enabled] & lay->mask[0];
		uint64_t running = buf[lay->running] & lay->mask[1];
		size_t size = out->size;
		char *o = (char *)out;

		for (size_t k = 0; k < lay->nr && k < max; k++, o += size) {
			const uint64_t *w = buf + k * lay->stride;	/* counter k's words */
			struct pk_count c = { .size = size, .value = w[lay->value], .enabled = enabled,
					      .running = running, .id = w[lay->id] & lay->mask[2],
					      .lost = w[lay->lost] & lay->mask[3] };

			/* Not multiplexed (the rule): no call, no division. */
			if (running != enabled)
				c.value = pk_count_scaled(&c);
			if (size == sizeof(c))
				memcpy(o, &c, sizeof(c));
			else	/* another version's struct: what fits, size kept */
				pk__count_put(memcpy(o, &size, sizeof(size)), &c);
		}
		return (int)lay->nr;
	}
	/* Not the layout: pk_count_parse decodes what it can and names the rest. */
	nr = pk_count_parse(lay->read_format, buf, len, out, max);
	for (int k = 0; k < nr && (size_t)k < max; k++) {
		struct pk_count *o = pk__count_at(out, (size_t)k);

		o->value = pk_count_scaled(o);
	}
	return nr;
}

uint64_t pk_count_scaled(const struct pk_count *c)
{
	unsigned __int128 v;

	if (c->running == c->enabled || (!c->running && !c->enabled))
		return c->value;
	if (!c->running)
		return 0;
	/* value * enabled can exceed 64 bits after long runs; 128 bits cannot. */
	v = (unsigned __int128)c->value * c->enabled / c->running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

bool pk_count_ran(const struct pk_count *c)
{
	return !(c->enabled && !c->running);
}
