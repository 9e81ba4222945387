/* SPDX-License-Identifier: MIT */
/*
 * attr_print.c - perf_event_attr for people and programs: the `perf stat -vv`
 * layout (pk_attr_format), so attrs can be compared with perf's line by
 * line, and field-by-field access under the kernel UAPI names
 * (pk_attr_field), which JSON output is built from.
 */
#include "event.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct bit_name {
	uint64_t bit;
	const char *name;
};

#define B(p, n) { p##n, #n }
static const struct bit_name sample_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID), B(PERF_SAMPLE_, CPU),
	B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID), B(PERF_SAMPLE_, RAW),
	B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER), B(PERF_SAMPLE_, STACK_USER),
	B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR), B(PERF_SAMPLE_, DATA_SRC),
	B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR), B(PERF_SAMPLE_, AUX),
	B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE), B(PERF_SAMPLE_, CODE_PAGE_SIZE),
	B(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL },
};
static const struct bit_name read_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), { 1u << 4, "LOST" }, { 0, NULL },
};
static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL), B(PERF_SAMPLE_BRANCH_, ANY_RETURN),
	B(PERF_SAMPLE_BRANCH_, IND_CALL), B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX),
	B(PERF_SAMPLE_BRANCH_, NO_TX), B(PERF_SAMPLE_BRANCH_, COND), B(PERF_SAMPLE_BRANCH_, CALL_STACK),
	B(PERF_SAMPLE_BRANCH_, IND_JUMP), B(PERF_SAMPLE_BRANCH_, CALL), B(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	B(PERF_SAMPLE_BRANCH_, NO_CYCLES), B(PERF_SAMPLE_BRANCH_, TYPE_SAVE),
	B(PERF_SAMPLE_BRANCH_, HW_INDEX), B(PERF_SAMPLE_BRANCH_, PRIV_SAVE), { 0, NULL },
};
#undef B

static void flags(char *buf, size_t len, uint64_t v, const struct bit_name *bits)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; bits->name; bits++)
		if ((v & bits->bit) && n < len) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", bits->name);
			v &= ~bits->bit;
		}
	/* Bits this table does not know are still shown, never dropped. */
	if (v && n < len)
		snprintf(buf + n, len - n, "%s%#" PRIx64, n ? "|" : "", v);
}

static void value(char *buf, size_t len, char fmt, char fmt2, uint64_t v)
{
	if (fmt == 'S' && fmt2 == 'T') {	/* ST: sample_type, not a signed value */
		flags(buf, len, v, sample_bits);
		return;
	}
	switch (fmt) {
	case 'H': snprintf(buf, len, "%#" PRIx64, v); break;
	case 'S': snprintf(buf, len, "%" PRId64, (int64_t)v); break;
	case 'R': flags(buf, len, v, read_bits); break;
	case 'B': flags(buf, len, v, branch_bits); break;
	default: snprintf(buf, len, "%" PRIu64, v); break;
	}
}

int pk_attr_format(const struct perf_event_attr *attr, char *buf, size_t len)
{
	char v[512];
	size_t n = 0;
	char dummy[1];

	if (!buf || !len) {
		buf = dummy;
		len = 1;
	}
	buf[0] = '\0';
#define X(field, label, fmt)                                                              \
	if (attr->field) {                                                                \
		value(v, sizeof(v), #fmt[0], #fmt[1], (uint64_t)attr->field);             \
		n += (size_t)snprintf(n < len ? buf + n : dummy, n < len ? len - n : 1,   \
				      "  %-32s %s\n", label, v);                          \
	}
#include "attr_fields.def"
#undef X
	return (int)n;
}

/* Fields under their UAPI names; the unions appear under both names. */
static uint64_t get_field(const struct perf_event_attr *a, size_t i, const char **name)
{
	size_t k = 0;

#define X(field, label, fmt)                    \
	if (k++ == i) {                         \
		*name = #field;                 \
		return (uint64_t)a->field;      \
	}
#include "attr_fields.def"
#undef X
	if (k++ == i) {
		*name = "config1";
		return a->config1;
	}
	if (k++ == i) {
		*name = "config2";
		return a->config2;
	}
	if (k++ == i) {
		*name = "sample_freq";
		return a->sample_freq;
	}
	if (k++ == i) {
		*name = "wakeup_watermark";
		return a->wakeup_watermark;
	}
	*name = NULL;
	return 0;
}

int pk_attr_field(const struct perf_event_attr *attr, size_t i, const char **name, uint64_t *val)
{
	const char *n;
	uint64_t v = get_field(attr, i, &n);

	if (!n)
		return -ERANGE;
	*name = n;
	*val = v;
	return 0;
}
