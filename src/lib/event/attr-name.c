/* SPDX-License-Identifier: MIT */
/*
 * attr-name.c - the name perf 6.1 gives an event it knows only by its attr
 * (a perf.data file cut before its EVENT_DESC section, a stream without
 * names): evsel__name's rules, the type's name for the config ("cycles",
 * "page-faults", "L1-dcache-load-misses", "raw 0x1c2", "mem:0x1000:rw")
 * with perf's modifier letters from the exclude bits and precise_ip, and
 * perf's fixed wording for the rest ("unknown tracepoint", "unknown attr
 * type: 9").
 */
#include "event.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* perf's evsel__hw_names and evsel__sw_names: not generic.def's primary
 * spellings (perf names config 0 "cycles", 4 "branches"), and no software
 * name past "dummy". */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses",
	"bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
	"major-faults", "alignment-faults", "emulation-faults", "dummy",
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* snprintf's count clamped to what fits, as perf's scnprintf chains it. */
__attribute__((format(printf, 4, 5)))
static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	if (n < 0)
		return at;
	return (size_t)n < len - at ? at + (size_t)n : len - 1;
}

/* perf's evsel__add_modifiers: ":" and k/u/h when some level is excluded,
 * p per precise_ip, then H/G when the guest/host bits differ from perf's
 * default for such an event. */
static size_t add_modifiers(const struct perf_event_attr *a, char *buf, size_t len, size_t at)
{
	bool excl_default = false;
	char mods[16];
	size_t n = 0;

#define MOD(excl, c)                        \
	do {                                \
		if (!(excl))                \
			mods[n++] = (c);    \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(a->exclude_kernel, 'k');
		MOD(a->exclude_user, 'u');
		MOD(a->exclude_hv, 'h');
		excl_default = true;
	}
	for (unsigned int i = 0; i < a->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (a->precise_ip)
		excl_default = true;
	if (a->exclude_host || (bool)a->exclude_guest == excl_default) {
		MOD(a->exclude_host, 'H');
		MOD(a->exclude_guest, 'G');
	}
#undef MOD
	mods[n] = '\0';
	return n ? put(buf, len, at, ":%s", mods) : at;
}

static size_t cache_name(uint64_t config, char *buf, size_t len)
{
	unsigned int t = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;
	const char *err = NULL;

	if (t >= PERF_COUNT_HW_CACHE_MAX)
		err = "unknown-ext-hardware-cache-type";
	else if (op >= PERF_COUNT_HW_CACHE_OP_MAX)
		err = "unknown-ext-hardware-cache-op";
	else if (res >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		err = "unknown-ext-hardware-cache-result";
	else if (!pk__cache_op_valid((int)t, (int)op))
		err = "invalid-cache";
	if (err)
		return put(buf, len, 0, "%s", err);
	pk__cache_name(config, buf, len);
	for (size_t i = 0; i < len; i++)
		if (!buf[i])
			return i;
	return len ? len - 1 : 0;
}

static size_t bp_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	size_t at = put(buf, len, 0, "mem:0x%" PRIx64 ":", (uint64_t)a->bp_addr);

	if (a->bp_type & 1)	/* HW_BREAKPOINT_R */
		at = put(buf, len, at, "r");
	if (a->bp_type & 2)	/* HW_BREAKPOINT_W */
		at = put(buf, len, at, "w");
	if (a->bp_type & 4)	/* HW_BREAKPOINT_X */
		at = put(buf, len, at, "x");
	return at;
}

int pk_attr_name(const struct perf_event_attr *attr, char *buf, size_t len)
{
	size_t at;

	if (!attr || !buf || !len)
		return -EINVAL;
	switch (attr->type) {
	case PERF_TYPE_RAW:
		at = put(buf, len, 0, "raw 0x%" PRIx64, (uint64_t)attr->config);
		break;
	case PERF_TYPE_HARDWARE:
		at = put(buf, len, 0, "%s", attr->config < NR(hw_names) ? hw_names[attr->config] : "unknown-hardware");
		break;
	case PERF_TYPE_HW_CACHE:
		at = cache_name(attr->config, buf, len);
		break;
	case PERF_TYPE_SOFTWARE:
		at = put(buf, len, 0, "%s", attr->config < NR(sw_names) ? sw_names[attr->config] : "unknown-software");
		break;
	case PERF_TYPE_TRACEPOINT:
		put(buf, len, 0, "unknown tracepoint");
		return 0;
	case PERF_TYPE_BREAKPOINT:
		at = bp_name(attr, buf, len);
		break;
	default:
		put(buf, len, 0, "unknown attr type: %d", (int)attr->type);
		return 0;
	}
	add_modifiers(attr, buf, len, at);
	return 0;
}
