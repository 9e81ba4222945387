/* SPDX-License-Identifier: MIT */
/*
 * recorder-open.c - opening the recorder's events as perf record opens
 * them: the highest precise level the PMU takes for the P modifier and
 * the default event, one level less at each refusal, and the cycles ->
 * cpu-clock fallback where the kernel cannot sample cycles, each fallen-
 * back event named afresh from its attr as perf names it.
 */
#include "session/session.h"
#include "counter/counter.h"
#include "event/event.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * perf's cycles fallback: where the kernel cannot sample cycles (no
 * hardware PMU), every cycles event, the default or one asked for, is
 * sampled as cpu-clock with the same modifiers.  Its name is marked here
 * and made by name_fallbacks once the attr is laid out.  Returns whether
 * any changed.
 */
static bool cycles_to_cpu_clock(struct pk_recorder *r)
{
	size_t n = pk_events_nr(r->ev);
	bool changed = false;

	for (size_t i = 0; i < n; i++) {
		struct perf_event_attr *a = pk_events_attr_mut(r->ev, i);

		if (a->type != PERF_TYPE_HARDWARE || a->config != PERF_COUNT_HW_CPU_CYCLES)
			continue;
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		if (!r->names && !(r->names = pk__calloc(n, sizeof(*r->names))))
			return false;
		free(r->names[i]);
		if (!(r->names[i] = pk__strdup("cpu-clock")))
			return false;
		changed = true;
	}
	return changed;
}

/* perf names a fallen-back event afresh from its attr, modifiers and all
 * ("cycles:u" becomes "cpu-clock:uH", the default "cpu-clock:ppp"). */
static void name_fallbacks(struct pk_recorder *r)
{
	char buf[128];

	for (size_t i = 0; r->names && i < pk_events_nr(r->ev); i++) {
		char *name;

		if (!r->names[i] || pk_attr_name(pk_events_attr(r->ev, i), buf, sizeof(buf)) < 0 ||
		    !(name = pk__strdup(buf)))
			continue;
		free(r->names[i]);
		r->names[i] = name;
	}
}

/* Whether event i asks for the highest precise level the PMU takes: the
 * P modifier, and perf's default event (evsel__new_cycles). */
static bool precise_max(const struct pk_recorder *r, size_t i)
{
	return pk_events_desc(r->ev, i)->precise_max || (i == 0 && r->default_event);
}

/* perf's evsel__config and precise fallback: such events open with
 * precise_ip 3, then one level less at each refusal; at 0 they take 3 back
 * for the cycles fallback.  Returns whether any has such a level. */
static bool set_precise(struct pk_recorder *r, int level)
{
	bool any = false;

	for (size_t i = 0; i < pk_events_nr(r->ev); i++)
		if (precise_max(r, i)) {
			pk_events_attr_mut(r->ev, i)->precise_ip = level & 3;
			any = true;
		}
	return any;
}

/* Whether any event is cycles (the fallback's candidates). */
static bool has_cycles(const struct pk_events *ev)
{
	for (size_t i = 0; i < pk_events_nr(ev); i++) {
		const struct perf_event_attr *a = pk_events_attr(ev, i);

		if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES)
			return true;
	}
	return false;
}

/* The errors perf's fallbacks answer: the event or its precise level is
 * not there (EINVAL: a precise level the PMU lacks). */
static bool refused_here(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO || err == -EINVAL;
}

/* Parse afresh (an event list is frozen once an evlist has it), at the
 * precise level and with the cycles fallback of this attempt. */
static int reparse(struct pk_recorder *r, const char *events)
{
	int err;

	pk_evlist_free(r->l);
	r->l = NULL;
	pk_events_free(r->ev);
	r->ev = NULL;
	if ((err = pk__recorder_parse_events(r, events)) < 0)
		return err;
	if (r->fell_back && !cycles_to_cpu_clock(r))
		return pk__error_nomem("the fallback's event names");
	return 0;
}

/* Whether thread tid can still be measured: it exists and has not
 * exited (a zombie's /proc entry stays, but perf_event_open says ESRCH). */
static bool thread_alive(pid_t tid)
{
	char path[64], buf[512];
	FILE *f;
	size_t n;
	const char *paren;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/*
 * perf's ignore_missing_thread (its -u): threads that exited between
 * their listing and the open (ESRCH) are left out, and the rest opened
 * again.  Returns whether any was left out (none left: false, the error
 * stands).
 */
static bool drop_exited(struct pk_recorder *r, struct pk_target *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->nr_threads; i++)
		if (thread_alive(r->threads[i]))
			r->threads[kept++] = r->threads[i];
	if (!kept || kept == r->nr_threads)
		return false;
	r->nr_threads = kept;
	t->nr_threads = kept;
	return true;
}

/* Open the events, with perf's precise-level and cycles -> cpu-clock
 * fallbacks. */
int pk__recorder_open_events(struct pk_recorder *r, const char *events)
{
	/* Per CPU even for a task: the kernel maps inherited events only per CPU. */
	struct pk_target t = { .size = sizeof(t), .threads = r->threads, .nr_threads = r->nr_threads,
			       .cpus = r->cpus, .nr_cpus = r->nr_cpus,
			       .inherit = !r->o.no_inherit && !r->o.per_thread,
			       .enable_on_exec = r->o.workload > 0 && !r->o.start_disabled,
			       .fallbacks = true, .attr_read_format = true,
			       .last_immediate = r->cpu_wide,
			       .cgroup = r->o.cgroup, .event_cgroups = r->o.event_cgroups,
			       .nr_event_cgroups = r->o.nr_event_cgroups };
	int err = pk__recorder_parse_events(r, events), level = 3;

	while (!err) {
		bool precise;

		pk__recorder_layout_events(r);
		precise = set_precise(r, level);
		name_fallbacks(r);
		if ((err = pk_evlist_new(r->ev, &t, &r->l)) < 0)
			return err;
		err = pk_evlist_open(r->l);
		if (err == -ESRCH && r->o.ignore_missing && drop_exited(r, &t)) {
			err = reparse(r, events);
			continue;
		}
		if (!refused_here(err))
			return err;
		if (precise && level > 0) {
			level--;
		} else if (r->fell_back || !has_cycles(r->ev) || err == -EINVAL) {
			return err;
		} else {
			r->fell_back = true;
			level = 3;
		}
		err = reparse(r, events);
	}
	return err;
}
