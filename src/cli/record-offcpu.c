/* SPDX-License-Identifier: MIT */
/*
 * record-offcpu.c - `perfkit record --off-cpu` without BPF: the events of
 * an off-CPU profile added to what the command line asked for.  On-CPU
 * time is sampled by the events given (cycles, falling back to cpu-clock,
 * by default); sched:sched_switch samples every switch-out with the
 * leaving thread's call chain (-g) and prev_state; context-switch records
 * (attr.context_switch) mark when each thread runs again.  perf reads the
 * result as it is; perfkit report turns the pairs into off-CPU time.
 */
#include "record.h"

int record_offcpu_setup(struct record_opts *o)
{
	/* Every switch must be sampled: a rate would thin them out, and
	 * perf's -F and -c set the rate of every event, sched_switch too. */
	if (o->r.freq || o->freq_max || o->r.period)
		return cli_usage("record", "--off-cpu samples every context switch: -F and -c would "
				 "sample only some of them (the on-CPU events sample at 4000 Hz)");
	/* No -e: perf's default event, as record without --off-cpu opens it
	 * (its precise level and vendor fix-up), before sched_switch. */
	if (!o->events)
		o->r.default_event = true;
	if (cli_events_add("record", &o->events, "sched:sched_switch"))
		return CLI_EXIT_USAGE;
	o->r.switch_events = true;
	return 0;
}
