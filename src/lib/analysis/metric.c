/* SPDX-License-Identifier: MIT */
/*
 * metric.c - the figures perf stat derives from counts: CPUs utilized,
 * instructions per cycle, GHz, miss ratios, idle cycles and per-second
 * rates, with perf's formats and units.  A table of rules, one per event
 * that has its own figure; everything else gets a rate.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define HW(c) PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c
#define CACHE(t, r) PERF_TYPE_HW_CACHE, \
	(PERF_COUNT_HW_CACHE_##t | PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_##r << 16)

enum base { BY_EVENT, BY_CLOCK };

/* event (type, config) -> value * scale / base, printed with format and unit. */
static const struct rule {
	uint32_t type;
	uint64_t config;
	enum base base;
	uint32_t btype;		/* BY_EVENT: the denominator event */
	uint64_t bconfig;
	double scale;
	const char *format;
	const char *unit;
	bool zero_is_blank;	/* perf shows nothing, not 0, when the base counted 0 */
} rules[] = {
	{ HW(INSTRUCTIONS), BY_EVENT, HW(CPU_CYCLES), 1, "%7.2f ", "insn per cycle", true },
	{ HW(CPU_CYCLES), BY_CLOCK, 0, 0, 1, "%8.3f", "GHz", true },
	{ HW(BRANCH_MISSES), BY_EVENT, HW(BRANCH_INSTRUCTIONS), 100, "%7.2f%%", "of all branches", false },
	{ HW(CACHE_MISSES), BY_EVENT, HW(CACHE_REFERENCES), 100, "%8.3f %%", "of all cache refs", false },
	{ HW(STALLED_CYCLES_FRONTEND), BY_EVENT, HW(CPU_CYCLES), 100, "%7.2f%%", "frontend cycles idle", false },
	{ HW(STALLED_CYCLES_BACKEND), BY_EVENT, HW(CPU_CYCLES), 100, "%7.2f%%", "backend cycles idle", false },
	{ CACHE(L1D, MISS), BY_EVENT, CACHE(L1D, ACCESS), 100, "%7.2f%%", "of all L1-dcache accesses", false },
	{ CACHE(L1I, MISS), BY_EVENT, CACHE(L1I, ACCESS), 100, "%7.2f%%", "of all L1-icache accesses", false },
	{ CACHE(DTLB, MISS), BY_EVENT, CACHE(DTLB, ACCESS), 100, "%7.2f%%", "of all dTLB cache accesses", false },
	{ CACHE(ITLB, MISS), BY_EVENT, CACHE(ITLB, ACCESS), 100, "%7.2f%%", "of all iTLB cache accesses", false },
	{ CACHE(LL, MISS), BY_EVENT, CACHE(LL, ACCESS), 100, "%7.2f%%", "of all LL-cache accesses", false },
};

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The first counted event matching type/config (or any clock), or NULL. */
static const struct pk_metric_input *find(const struct pk_metric_input *in, size_t nr, bool clock,
					  uint32_t type, uint64_t config)
{
	for (size_t j = 0; j < nr; j++)
		if (in[j].counted && (clock ? is_clock(in[j].attr) :
				      in[j].attr->type == type && in[j].attr->config == config))
			return &in[j];
	return NULL;
}

/* perf's convert_unit_double: K, M or G when the rate is above 1e3, 1e6, 1e9. */
static int rate(double per_sec, struct pk_metric *out)
{
	static const struct { double at; const char *unit; } units[] = {
		{ 1e9, "G/sec" }, { 1e6, "M/sec" }, { 1e3, "K/sec" },
	};

	out->format = "%8.3f";
	out->unit = "/sec";
	out->value = per_sec;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (per_sec > units[u].at) {
			out->value = per_sec / units[u].at;
			out->unit = units[u].unit;
			break;
		}
	return 1;
}

/* perf's second line under instructions: the larger of the stalled-cycle
 * counts per instruction. */
static int stalls_per_insn(const struct pk_metric_input *in, size_t nr, size_t i,
			   struct pk_metric *out)
{
	const struct pk_metric_input *fe = find(in, nr, false, HW(STALLED_CYCLES_FRONTEND));
	const struct pk_metric_input *be = find(in, nr, false, HW(STALLED_CYCLES_BACKEND));
	double stalled = fe ? fe->value : 0;

	if (be && be->value > stalled)
		stalled = be->value;
	if (!stalled || !in[i].value)
		return 0;
	*out = (struct pk_metric){ 0, stalled / in[i].value, "%7.2f ", "stalled cycles per insn" };
	return 1;
}

static int derive_one(const struct pk_metric_input *in, size_t nr, size_t i, double wall_ns,
		      struct pk_metric *out)
{
	const struct perf_event_attr *a = in[i].attr;
	const struct pk_metric_input *base;

	if (is_clock(a)) {
		if (!wall_ns)
			return 0;
		*out = (struct pk_metric){ 0, in[i].value / wall_ns, "%8.3f", "CPUs utilized" };
		return 1;
	}
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		const struct rule *ru = &rules[r];

		if (a->type != ru->type || a->config != ru->config)
			continue;
		base = find(in, nr, ru->base == BY_CLOCK, ru->btype, ru->bconfig);
		if (!base || (!base->value && ru->zero_is_blank))
			return 0;
		*out = (struct pk_metric){ 0, base->value ? in[i].value * ru->scale / base->value : 0,
					   ru->format, ru->unit };
		return 1;
	}
	base = find(in, nr, true, 0, 0);
	if (!base || !base->value)
		return 0;
	return rate(1e9 * in[i].value / base->value, out);
}

/* Check the caller's size fields; copy its inputs into this version's
 * layout (the array strides by in[0].size). */
static int inputs(const struct pk_metric_input *in, size_t nr, const struct pk_metric *out, size_t max,
		  struct pk_metric_input **copy)
{
	size_t stride = in->size;

	if (stride < PK_METRIC_INPUT_SIZE_VER0)
		return pk__error(-EINVAL, "derive a metric", "struct pk_metric_input.size is %zu, less "
				 "than the %zu bytes of its first version: set size = sizeof(struct "
				 "pk_metric_input)", stride, (size_t)PK_METRIC_INPUT_SIZE_VER0);
	if (max && out->size < PK_METRIC_SIZE_VER0)
		return pk__error(-EINVAL, "derive a metric", "struct pk_metric.size is %zu, less than "
				 "the %zu bytes of its first version: set out[0].size = sizeof(struct "
				 "pk_metric)", out->size, (size_t)PK_METRIC_SIZE_VER0);
	if (!(*copy = pk__calloc(nr, sizeof(**copy))))
		return pk__error_nomem("a copy of %zu metric inputs", nr);
	for (size_t j = 0; j < nr; j++)
		memcpy(&(*copy)[j], (const char *)in + j * stride,
		       stride < sizeof(**copy) ? stride : sizeof(**copy));
	return 0;
}

int pk_metric_derive(const struct pk_metric_input *in, size_t nr, size_t i, double wall_ns,
		     struct pk_metric *out, size_t max)
{
	struct pk_metric m[2];
	struct pk_metric_input *c;
	size_t osize = max ? out->size : 0;
	int n, err;

	if (i >= nr)
		return pk__error(-ERANGE, "derive a metric", "no event %zu in a list of %zu", i, nr);
	if ((err = inputs(in, nr, out, max, &c)) < 0)
		return err;
	n = 0;
	if (c[i].counted) {
		n = derive_one(c, nr, i, wall_ns, &m[0]);
		if (c[i].attr->type == PERF_TYPE_HARDWARE && c[i].attr->config == PERF_COUNT_HW_INSTRUCTIONS)
			n += stalls_per_insn(c, nr, i, &m[n]);
	}
	free(c);
	for (int k = 0; k < n && (size_t)k < max; k++) {
		struct pk_metric *o = (struct pk_metric *)((char *)out + (size_t)k * osize);

		m[k].size = osize;
		memcpy(o, &m[k], osize < sizeof(m[k]) ? osize : sizeof(m[k]));
	}
	return n;
}
