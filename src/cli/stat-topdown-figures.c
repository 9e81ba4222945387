/* SPDX-License-Identifier: MIT */
/*
 * stat-topdown-figures.c - the figures perf 6.1's stat-shadow.c derives
 * from the core PMU's topdown events, for --topdown and for these events
 * named with -e: retiring, bad speculation, frontend bound and backend
 * bound as shares of the total slots (the older slots events, each count
 * times its sysfs .scale), or Retiring, Bad Speculation, Frontend Bound,
 * Backend Bound and level 2's pairs as shares of the four perf-metrics
 * events' sum.  Pure: counts in, figures out.
 */
#include "stat.h"

#include <string.h>

/* The events, by kind (enum stat_td), as the core PMU's sysfs names them. */
static const char *const td_names[TD_NR] = {
	[TD_TOTAL_SLOTS] = "topdown-total-slots",
	[TD_SLOTS_RETIRED] = "topdown-slots-retired",
	[TD_RECOVERY_BUBBLES] = "topdown-recovery-bubbles",
	[TD_FETCH_BUBBLES] = "topdown-fetch-bubbles",
	[TD_SLOTS_ISSUED] = "topdown-slots-issued",
	[TD_RETIRING] = "topdown-retiring",
	[TD_BAD_SPEC] = "topdown-bad-spec",
	[TD_FE_BOUND] = "topdown-fe-bound",
	[TD_BE_BOUND] = "topdown-be-bound",
	[TD_HEAVY_OPS] = "topdown-heavy-ops",
	[TD_BR_MISPREDICT] = "topdown-br-mispredict",
	[TD_FETCH_LAT] = "topdown-fetch-lat",
	[TD_MEM_BOUND] = "topdown-mem-bound",
};

/* The kind of an event name as written: NAME or cpu/NAME/ (with modifiers). */
static enum stat_td td_kind(const char *name)
{
	size_t len;

	if (!strncmp(name, "cpu/", 4))
		name += 4;
	for (int k = 1; k < TD_NR; k++) {
		if (!td_names[k])
			continue;	/* a kind of its own, named after another */
		len = strlen(td_names[k]);
		if (!strncmp(name, td_names[k], len) &&
		    (name[len] == '\0' || name[len] == '/' || name[len] == ':'))
			return (enum stat_td)k;
	}
	return TD_NONE;
}

void stat_topdown_attach(struct result *r, size_t nr)
{
	struct pk_pmus *pmus = NULL;
	const struct pk_pmu *cpu = NULL;
	const struct pk_pmu_alias *a;

	for (size_t i = 0; i < nr; i++) {
		r[i].td = td_kind(r[i].d->name);
		r[i].td_scale = 1;
		if (r[i].td == TD_NONE)
			continue;
		if (!pmus && pk_pmus_scan(&pmus) == 0)
			cpu = pk_pmus_find(pmus, "cpu");
		/* perf multiplies the count by the alias's .scale first. */
		if (cpu && (a = pk_pmu_find_alias(cpu, td_names[r[i].td])) && a->scale > 0)
			r[i].td_scale = a->scale;
		/* perf's name for backend bound where no recovery bubbles are counted. */
		if (r[i].td == TD_SLOTS_ISSUED && cpu &&
		    !pk_pmu_find_alias(cpu, "topdown-recovery-bubbles"))
			r[i].td = TD_SLOTS_ISSUED_NO_RECOVERY;
	}
	pk_pmus_free(pmus);
}

/* perf's runtime_stat_avg for one kind: the mean of its counted events'
 * values times their .scale, 0 when none counted. */
static double td_avg(const struct result *r, size_t nr, const double *vals, enum stat_td k)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t j = 0; j < nr; j++) {
		enum stat_td t = r[j].td == TD_SLOTS_ISSUED_NO_RECOVERY ? TD_SLOTS_ISSUED : r[j].td;

		if (t == k && !r[j].err) {
			sum += vals[j] * r[j].td_scale;
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* perf's sanitize_val: a rounding error just below 0 shows as 0. */
static double sanitize(double x)
{
	return x < 0 && x >= -0.02 ? 0 : x;
}

/* A share of the total slots (the older events); 0 without slots. */
static double share(const struct result *r, size_t nr, const double *vals, double num)
{
	double total = td_avg(r, nr, vals, TD_TOTAL_SLOTS);

	return total ? num / total : 0;
}

/* The level-1 figures from the older slots events (perf's td_* helpers). */
static double slots_figure(const struct result *r, size_t nr, const double *vals, enum stat_td k)
{
	double retired = td_avg(r, nr, vals, TD_SLOTS_RETIRED);
	double fe = share(r, nr, vals, td_avg(r, nr, vals, TD_FETCH_BUBBLES));
	double bad = sanitize(share(r, nr, vals, td_avg(r, nr, vals, TD_SLOTS_ISSUED) - retired +
					 td_avg(r, nr, vals, TD_RECOVERY_BUBBLES)));
	double ret = share(r, nr, vals, retired);

	switch (k) {
	case TD_FETCH_BUBBLES: return fe;
	case TD_SLOTS_RETIRED: return ret;
	case TD_RECOVERY_BUBBLES: return bad;
	default: return fe + bad + ret == 0 ? 0 : sanitize(1 - (fe + bad + ret));
	}
}

/* A perf-metrics event's share of the four level-1 ones (perf's
 * td_metric_ratio): the kernel reports each as slots. */
static double ratio(const struct result *r, size_t nr, const double *vals, enum stat_td k)
{
	double sum = td_avg(r, nr, vals, TD_RETIRING) + td_avg(r, nr, vals, TD_FE_BOUND) +
		     td_avg(r, nr, vals, TD_BE_BOUND) + td_avg(r, nr, vals, TD_BAD_SPEC);

	return sum ? td_avg(r, nr, vals, k) / sum : 0;
}

/* perf's full_td: at least two of the four level-1 figures are above 0. */
static bool full_td(const struct result *r, size_t nr, const double *vals)
{
	static const enum stat_td l1[] = { TD_RETIRING, TD_BE_BOUND, TD_FE_BOUND, TD_BAD_SPEC };
	int c = 0;

	for (size_t k = 0; k < sizeof(l1) / sizeof(l1[0]); k++)
		c += td_avg(r, nr, vals, l1[k]) > 0;
	return c >= 2;
}

static struct pk_metric figure(double v, const char *unit)
{
	return (struct pk_metric){ sizeof(struct pk_metric), v * 100, "%8.1f%%", unit };
}

/* Level 2: the event's share and what is left of its level-1 parent. */
static int pair(const struct result *r, size_t nr, const double *vals, enum stat_td k,
		struct pk_metric m[2])
{
	static const struct { enum stat_td parent; const char *unit, *rest; } l2[TD_NR] = {
		[TD_HEAVY_OPS] = { TD_RETIRING, "Heavy Operations", "Light Operations" },
		[TD_BR_MISPREDICT] = { TD_BAD_SPEC, "Branch Mispredict", "Machine Clears" },
		[TD_FETCH_LAT] = { TD_FE_BOUND, "Fetch Latency", "Fetch Bandwidth" },
		[TD_MEM_BOUND] = { TD_BE_BOUND, "Memory Bound", "Core Bound" },
	};
	double part = ratio(r, nr, vals, k);

	m[0] = figure(part, l2[k].unit);
	m[1] = figure(ratio(r, nr, vals, l2[k].parent) - part, l2[k].rest);
	return 2;
}

int stat_topdown_figures(const struct result *r, size_t nr, size_t i, const double *vals,
			 struct pk_metric m[2])
{
	static const char *const units[TD_NR] = {
		[TD_FETCH_BUBBLES] = "frontend bound", [TD_SLOTS_RETIRED] = "retiring",
		[TD_RECOVERY_BUBBLES] = "bad speculation", [TD_SLOTS_ISSUED] = "backend bound",
		[TD_SLOTS_ISSUED_NO_RECOVERY] = "backend bound/bad spec",
		[TD_RETIRING] = "Retiring", [TD_FE_BOUND] = "Frontend Bound",
		[TD_BE_BOUND] = "Backend Bound", [TD_BAD_SPEC] = "Bad Speculation",
	};
	enum stat_td k = r[i].td;

	switch (k) {
	case TD_FETCH_BUBBLES:
	case TD_SLOTS_RETIRED:
	case TD_RECOVERY_BUBBLES:
		m[0] = figure(slots_figure(r, nr, vals, k), units[k]);
		return 1;
	case TD_SLOTS_ISSUED:
	case TD_SLOTS_ISSUED_NO_RECOVERY:
		m[0] = figure(slots_figure(r, nr, vals, TD_SLOTS_ISSUED), units[k]);
		if (td_avg(r, nr, vals, TD_TOTAL_SLOTS) <= 0)
			m[0] = (struct pk_metric){ sizeof(m[0]), 0, NULL, units[k] };	/* perf: empty */
		return 1;
	case TD_RETIRING:
	case TD_FE_BOUND:
	case TD_BE_BOUND:
	case TD_BAD_SPEC:
		if (!full_td(r, nr, vals))
			return -1;
		m[0] = figure(ratio(r, nr, vals, k), units[k]);
		return 1;
	case TD_HEAVY_OPS:
	case TD_BR_MISPREDICT:
	case TD_FETCH_LAT:
	case TD_MEM_BOUND:
		return full_td(r, nr, vals) ? pair(r, nr, vals, k, m) : -1;
	default:
		return -1;
	}
}
