/* SPDX-License-Identifier: MIT */
/*
 * stat-topdown.c - perf stat --topdown as perf 6.1 does it: the core PMU's
 * topdown events chosen the way perf chooses them (the perf-metrics events
 * from Ice Lake on, grouped under slots; the older slots events otherwise,
 * system-wide and per core), counted in --metric-only's layout, and the figures
 * perf's stat-shadow.c derives from them: retiring, bad speculation,
 * frontend bound, backend bound (computed in stat-topdown-figures.c).
 */
#include "stat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf 6.1's lists (builtin-stat.c), in its order: the slots events, and
 * the perf-metrics ones for level 1 and level 2. */
static const char *const slots_events[] = { "topdown-total-slots", "topdown-slots-retired",
					    "topdown-recovery-bubbles", "topdown-fetch-bubbles",
					    "topdown-slots-issued", NULL };
static const char *const metric_l1[] = { "slots", "topdown-retiring", "topdown-bad-spec",
					 "topdown-fe-bound", "topdown-be-bound", NULL };
static const char *const metric_l2[] = { "slots", "topdown-retiring", "topdown-bad-spec",
					 "topdown-fe-bound", "topdown-be-bound", "topdown-heavy-ops",
					 "topdown-br-mispredict", "topdown-fetch-lat",
					 "topdown-mem-bound", NULL };

/* perf's topdown_filter_events: those of `list` the PMU has, comma-joined
 * and in braces when `group`; "" when it has none.  NULL: out of memory. */
static char *filter_events(const struct pk_pmu *cpu, const char *const *list, bool group)
{
	size_t len = 3;
	char *s;

	for (size_t i = 0; list[i]; i++)
		len += strlen(list[i]) + 1;
	if (!(s = calloc(1, len)))
		return NULL;
	for (size_t i = 0; cpu && list[i]; i++) {
		if (!pk_pmu_find_alias(cpu, list[i]))
			continue;
		strcat(s, s[0] ? "," : group ? "{" : "");
		strcat(s, list[i]);
	}
	if (s[0] && group)
		strcat(s, "}");
	return s;
}

/* perf's arch_topdown_check_group: group the slots events unless the NMI
 * watchdog holds a counter (then warn, as perf does); ungrouped when the
 * setting cannot be read. */
static bool slots_group(void)
{
	bool on;

	if (pk_nmi_watchdog(&on) < 0)
		return false;
	if (on)
		fprintf(stderr, "nmi_watchdog enabled with topdown. May give wrong results.\n"
			"Disable with echo 0 > /proc/sys/kernel/nmi_watchdog\n");	/* perf's */
	return !on;
}

/* The events to count appended to o->spec: after -e's, or alone when -e
 * named none (perf then adds no default events). */
static int add_events(struct stat_opts *o, char *str)
{
	char *spec = NULL;

	if (o->events && asprintf(&spec, "%s,%s", o->spec, str) < 0)
		spec = NULL;
	free(o->spec);
	o->spec = o->events ? spec : str;
	if (o->events)
		free(str);
	o->nr_default = 0;
	return o->spec ? 0 : cli_usage("stat", "out of memory");
}

/* The older slots events: per perf, system-wide only, refused with -A
 * and the aggregations other than per core, and counted per core whether
 * or not --per-core was given (perf sets AGGR_CORE): the slots a core's
 * threads share are only meaningful summed over the core. */
static int slots_setup(struct stat_opts *o, const struct pk_pmu *cpu)
{
	char *str;

	if (o->no_aggr || o->per_thread || (o->per && o->per != 'c')) {
		fprintf(stderr, "top down event configuration requires --per-core mode\n");
		return CLI_EXIT_EVENT;
	}
	if (o->cgroup || o->for_each_cgroup || (!o->target.all_cpus && !o->target.cpu_list)) {
		fprintf(stderr, "top down event configuration requires system-wide mode (-a)\n");
		return CLI_EXIT_EVENT;
	}
	o->per = 'c';
	if (!(str = filter_events(cpu, slots_events, cpu && slots_group())))
		return cli_usage("stat", "out of memory");
	if (!str[0]) {
		free(str);
		fprintf(stderr, "System does not support topdown\n");	/* perf's words */
		return CLI_EXIT_EVENT;
	}
	return add_events(o, str);
}

int stat_topdown_setup(struct stat_opts *o)
{
	struct pk_pmus *pmus = NULL;
	const struct pk_pmu *cpu;
	unsigned max_level;
	char *str;
	int err;

	if (!o->topdown)
		return 0;
	if (pk_pmus_scan(&pmus) < 0)
		pmus = NULL;	/* no PMUs at all: perf's refusal below */
	cpu = pmus ? pk_pmus_find(pmus, "cpu") : NULL;
	o->metric_only = true;	/* perf: --topdown prints the figures only */
	/* perf: level 2 where the core PMU has the level-2 perf-metrics events. */
	max_level = cpu && pk_pmu_find_alias(cpu, "topdown-br-mispredict") ? 2 : 1;
	if (o->td_level > max_level) {
		pk_pmus_free(pmus);
		fprintf(stderr, "Invalid top-down metrics level. The max level is %u.\n", max_level);
		return CLI_EXIT_EVENT;
	}
	if (!o->td_level)
		o->td_level = max_level;
	/* The perf-metrics events (Ice Lake on), always grouped under slots. */
	str = filter_events(cpu, o->td_level > 1 ? metric_l2 : metric_l1, true);
	if (str && str[0] && strncmp(str, "{slots,", 7))
		str[0] = '\0';	/* the kernel takes these only under slots */
	if (!str)
		err = cli_usage("stat", "out of memory");
	else if (str[0])
		err = add_events(o, str);
	else {
		free(str);
		err = slots_setup(o, cpu);
	}
	pk_pmus_free(pmus);
	return err;
}

