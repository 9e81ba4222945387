/* SPDX-License-Identifier: MIT */
/*
 * recwriter.h - builds perf records byte by byte for the decoder's tests,
 * from the layouts in the UAPI header and perf_event_open(2), without any
 * of the decoder's code, plus the truncation check every test shares: a
 * record cut at every 8-byte boundary, copied into a heap block of exactly
 * that size (so ASan sees any read past it), must fail with an offset.
 */
#ifndef RECWRITER_H
#define RECWRITER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

struct w {
	_Alignas(8) unsigned char buf[8192];
	size_t len;
};

static inline void w_bytes(struct w *w, const void *p, size_t n)
{
	assert_true(w->len + n <= sizeof(w->buf));
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static inline void w_u64(struct w *w, uint64_t v) { w_bytes(w, &v, 8); }
static inline void w_u32(struct w *w, uint32_t v) { w_bytes(w, &v, 4); }
static inline void w_u16(struct w *w, uint16_t v) { w_bytes(w, &v, 2); }
static inline void w_u8(struct w *w, uint8_t v) { w_bytes(w, &v, 1); }

static inline void w_pad8(struct w *w)
{
	while (w->len % 8)
		w_u8(w, 0);
}

/* A string with its NUL, padded with zeros to 8 bytes as the kernel does. */
static inline void w_str(struct w *w, const char *s)
{
	w_bytes(w, s, strlen(s) + 1);
	w_pad8(w);
}

static inline void w_begin(struct w *w, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	memset(w, 0, sizeof(*w));
	w_bytes(w, &h, sizeof(h));
}

/* Set the header's size; returns the header. */
static inline struct perf_event_header *w_end(struct w *w)
{
	struct perf_event_header *h = (struct perf_event_header *)w->buf;

	h->size = (uint16_t)w->len;
	return h;
}

/*
 * Every cut of the record at 8, 16, ... size-8 bytes fails with -EINVAL and
 * a message naming an offset inside the cut record.
 */
static inline void check_truncations(const struct w *w, const struct perf_event_attr *attr)
{
	for (size_t cut = 8; cut < w->len; cut += 8) {
		struct perf_event_header *h = malloc(cut);
		struct pk_record r = { .size = sizeof(r) };
		const char *at;
		int rc;

		assert_non_null(h);
		memcpy(h, w->buf, cut);
		h->size = (uint16_t)cut;
		rc = pk_record_decode(h, attr, &r);
		if (rc != -EINVAL)
			fail_msg("record type %u cut to %zu of %zu bytes: decode returned %d", h->type,
				 cut, w->len, rc);
		at = strstr(pk_last_error()->why, "at offset ");
		assert_non_null(at);
		assert_true(strtoul(at + 10, NULL, 10) <= cut);
		free(h);
	}
}

#endif
