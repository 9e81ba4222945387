/* SPDX-License-Identifier: MIT */
/*
 * record-swevent.c - perf record's --switch-output-event: events that are
 * not recorded but switch the output file whenever they occur, as perf
 * 6.1's side-band thread does by sending SIGUSR2 (so the option implies
 * --switch-output=signal).  Here they are counted on the recording's
 * target, and a count that grew since the last look switches the file
 * once, as several SIGUSR2 pending at once switch perf's once.
 */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int record_swevent_add(struct record_opts *o, const char *arg)
{
	int err = cli_events_add("record", &o->switch_event, arg);

	/* perf: --switch-output-event implies --switch-output=signal. */
	o->switch_output = o->switch_signal = true;
	return err;
}

/* The recording's target as the side-band events count it: the command
 * and its children, -p/-t's threads, or every task on -a/-C's CPUs. */
static int swevent_target(struct record_swevent *sw, const struct record_opts *o, pid_t command,
			  struct pk_target *t)
{
	const struct cli_target *ct = &o->target;
	int err = 0;

	*t = (struct pk_target){ .size = sizeof(*t), .fallbacks = true };
	if (ct->all_cpus || ct->cpu_list) {
		err = ct->cpu_list ? pk_cpus_parse(ct->cpu_list, &sw->cpus, &sw->nr_cpus)
				   : pk_cpus_online(&sw->cpus, &sw->nr_cpus);
		t->cpus = sw->cpus, t->nr_cpus = sw->nr_cpus;
	} else if (ct->pids || ct->tids) {
		t->threads = ct->threads, t->nr_threads = ct->nr_threads;
	} else {
		sw->pid = command;
		t->threads = &sw->pid, t->nr_threads = 1;
		t->inherit = !o->r.no_inherit;
	}
	return err;
}

int record_swevent_open(struct record_swevent *sw, const struct record_opts *o, pid_t command)
{
	struct pk_events *ev = NULL;
	struct pk_target t;

	if (!o->switch_event)
		return 0;
	cli_tracefs_need(o->switch_event);
	if (pk_events_parse(o->switch_event, NULL, &ev) < 0 ||
	    swevent_target(sw, o, command, &t) < 0 || pk_evlist_new(ev, &t, &sw->l) < 0 ||
	    pk_evlist_open(sw->l) < 0 || pk_evlist_enable(sw->l) < 0) {
		pk_events_free(ev);
		return cli_error("record", o->switch_event);
	}
	sw->nr = pk_events_nr(ev);
	pk_events_free(ev);
	return 0;
}

bool record_swevent_fired(struct record_swevent *sw)
{
	uint64_t total = 0;

	for (size_t i = 0; sw->l && i < sw->nr; i++) {
		struct pk_count c = { .size = sizeof(c) };

		if (pk_evlist_read(sw->l, i, &c) == 0)
			total += c.value;
	}
	if (total <= sw->seen)
		return false;
	sw->seen = total;
	return true;
}

void record_swevent_close(struct record_swevent *sw)
{
	pk_evlist_free(sw->l);
	free(sw->cpus);
	memset(sw, 0, sizeof(*sw));
}
