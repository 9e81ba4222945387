/* SPDX-License-Identifier: MIT */
/*
 * report-offcpu.c - `perfkit report --off-cpu=merge|split`: wall-clock
 * profiles from a `perfkit record --off-cpu` file.  Each sched:sched_switch
 * sample (a thread leaving the CPU, with its stack and prev_state) waits in
 * a pk_offcpu tracker until the thread's next switch-in record or sample;
 * the interval then becomes one sample weighted by its length in
 * nanoseconds, its stack topped by an "[off-cpu: STATE]" frame, counted
 * with the on-CPU event's samples (merge) or in an "offcpu-time" section
 * of its own (split).  The table and the exports share it.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct report_offcpu {
	enum report_offcpu_mode mode;
	struct pk_offcpu *oc;
	struct pk_tracing *tracing;	/* the formats, for prev_state; NULL without */
	size_t switch_ev;		/* sched:sched_switch's index */
	size_t target_ev;		/* where intervals count */
	char *target_name;		/* the target section's name */
	char names[128][16];		/* "[off-cpu: S]" per state letter, "[off-cpu]" at 0 */
	struct pk_frame *frames;	/* an interval's chain under its marker frame */
	size_t cap;
	char text[512];			/* a sched_switch sample's fields, for prev_state */
};

int report_offcpu_parse(const char *arg, int *mode)
{
	if (!strcmp(arg, "merge"))
		*mode = REPORT_OFFCPU_MERGE;
	else if (!strcmp(arg, "split"))
		*mode = REPORT_OFFCPU_SPLIT;
	else
		return cli_usage("report", "--off-cpu takes merge or split, not '%s'", arg);
	return 0;
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* Which events are which: sched_switch, and the on-CPU clock it merges into. */
static int find_events(struct report_offcpu *ro, const struct report_opts *o, struct pk_data_reader *r)
{
	size_t nr = pk_data_reader_nr_events(r), on = nr;

	ro->switch_ev = nr;
	for (size_t i = 0; i < nr; i++) {
		const char *name = pk_data_reader_name(r, i);

		if (pk_data_reader_attr(r, i)->type == PERF_TYPE_TRACEPOINT && name &&
		    !strcmp(name, "sched:sched_switch"))
			ro->switch_ev = i;
		else if (on == nr && is_clock(pk_data_reader_attr(r, i)))
			on = i;
	}
	if (ro->switch_ev == nr) {
		cli_message(stderr, "perfkit report: %s has no sched:sched_switch samples for --off-cpu "
			    "(record with perfkit record --off-cpu)\n", o->input);
		return CLI_EXIT_EVENT;
	}
	if (ro->mode == REPORT_OFFCPU_MERGE && on == nr) {
		cli_message(stderr, "perfkit report: --off-cpu=merge adds nanoseconds to a clock event's "
			    "(cpu-clock, task-clock) and %s has none: use --off-cpu=split\n", o->input);
		return CLI_EXIT_EVENT;
	}
	ro->target_ev = ro->mode == REPORT_OFFCPU_MERGE ? on : ro->switch_ev;
	if (ro->mode == REPORT_OFFCPU_MERGE) {
		const char *n = pk_data_reader_name(r, on);

		if (asprintf(&ro->target_name, "%s+offcpu-time", n ? n : "cpu-clock") < 0)
			return -ENOMEM;
	} else if (!(ro->target_name = strdup("offcpu-time"))) {
		return -ENOMEM;
	}
	return 0;
}

int report_offcpu_new(const struct report_opts *o, struct pk_data_reader *r, struct report_offcpu **out)
{
	struct report_offcpu *ro;
	const void *td;
	size_t td_len;
	int err;

	*out = NULL;
	if (!o->off_cpu)
		return 0;
	if (!(ro = calloc(1, sizeof(*ro))))
		return -ENOMEM;
	ro->mode = (enum report_offcpu_mode)o->off_cpu;
	snprintf(ro->names[0], sizeof(ro->names[0]), "[off-cpu]");
	for (int c = 33; c < 127; c++)
		snprintf(ro->names[c], sizeof(ro->names[c]), "[off-cpu: %c]", c);
	if ((err = find_events(ro, o, r)) || (err = pk_offcpu_new(&ro->oc)) < 0) {
		report_offcpu_free(ro);
		return err;
	}
	/* Without the formats the intervals are there, their states unknown. */
	if (pk_data_reader_feature(r, PK_DATA_FEAT_TRACING_DATA, &td, &td_len) == 0 &&
	    pk_tracing_data_parse(td, td_len, &ro->tracing) < 0)
		ro->tracing = NULL;
	*out = ro;
	return 0;
}

void report_offcpu_free(struct report_offcpu *ro)
{
	if (!ro)
		return;
	pk_offcpu_free(ro->oc);
	pk_tracing_free(ro->tracing);
	free(ro->target_name);
	free(ro->frames);
	free(ro);
}

const char *report_offcpu_name(const struct report_offcpu *ro, size_t ev, const char *name)
{
	return ro && ev == ro->target_ev ? ro->target_name : name;
}

/* Interval iv as a sample of the target event into *out: its duration the
 * period, its chain under a marker frame naming the state. */
static int emit(struct report_offcpu *ro, const struct pk_offcpu_interval *iv, struct report_offcpu_out *out)
{
	unsigned char st = (unsigned char)iv->state < 128 ? (unsigned char)iv->state : 0;
	struct pk_frame *marker;

	if (iv->nr_frames + 1 > ro->cap) {
		struct pk_frame *f = realloc(ro->frames, (iv->nr_frames + 1) * sizeof(*f));

		if (!f)
			return -ENOMEM;
		ro->frames = f;
		ro->cap = iv->nr_frames + 1;
	}
	marker = &ro->frames[0];
	*marker = (struct pk_frame){ .cpumode = iv->cpumode, .ip = iv->loc.addr };
	marker->loc = (struct pk_location){ .size = sizeof(marker->loc), .sym = ro->names[st],
					    .kernel = iv->loc.kernel };
	memcpy(ro->frames + 1, iv->frames, iv->nr_frames * sizeof(*iv->frames));
	out->ev = ro->target_ev;
	out->smp = (struct pk_sample){ .fields = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
				       .pid = iv->pid, .tid = iv->tid, .time = iv->start,
				       .period = iv->duration, .ip = iv->loc.addr };
	if (iv->cpu >= 0) {
		out->smp.fields |= PERF_SAMPLE_CPU;
		out->smp.cpu = (uint32_t)iv->cpu;
	}
	out->rs = (struct pk_resolved_sample){ .size = sizeof(out->rs), .comm = iv->comm, .pid = iv->pid,
					       .tid = iv->tid, .cpumode = iv->cpumode, .loc = marker->loc,
					       .frames = ro->frames, .nr_frames = iv->nr_frames + 1 };
	return 1;
}

int report_offcpu_sample(struct report_offcpu *ro, size_t ev, const struct pk_record *d,
			 const struct pk_resolved_sample *rs, struct report_offcpu_out *out)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	const struct pk_sample *s = &d->sample;
	int32_t cpu = s->fields & PERF_SAMPLE_CPU ? (int32_t)s->cpu : -1;
	char state = 0;
	int err;

	if (!(s->fields & PERF_SAMPLE_TIME))
		return 0;	/* intervals need times: the sample counts as it is */
	if (ev == ro->switch_ev) {
		if (ro->tracing && (s->fields & PERF_SAMPLE_RAW) &&
		    pk_tracing_format(ro->tracing, s->raw.data, s->raw.size, cpu, ro->text, sizeof(ro->text)) >= 0)
			state = pk_offcpu_state(ro->text);
		err = pk_offcpu_switch_out(ro->oc, rs, s->time, cpu, state);
		return err < 0 ? err : REPORT_OFFCPU_CONSUMED;
	}
	/* A thread that takes a sample is on a CPU: its interval ended. */
	if ((err = pk_offcpu_switch_in(ro->oc, rs->tid, s->time, &iv)) <= 0)
		return err;
	return emit(ro, &iv, out) < 0 ? -ENOMEM : REPORT_OFFCPU_EMIT;
}

int report_offcpu_record(struct report_offcpu *ro, const struct pk_record *d, struct report_offcpu_out *out)
{
	struct pk_offcpu_interval iv = { .size = sizeof(iv) };
	int err = pk_offcpu_record(ro->oc, d, &iv);

	if (err <= 0)
		return err;
	return emit(ro, &iv, out) < 0 ? -ENOMEM : REPORT_OFFCPU_EMIT;
}
