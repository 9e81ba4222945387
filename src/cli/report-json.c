/* SPDX-License-Identifier: MIT */
/*
 * report-json.c - `perfkit report --format=json [-o FILE]`: the histograms
 * the --stdio table prints, sorted and filtered alike, written by the
 * library's pk_hist_write_json (rows, sort-key values, call trees as -g
 * prunes them with each node's samples and period, the stack health
 * counted during the read) to FILE, under a temporary name renamed into place when
 * whole, or to standard output.
 */
#include "report.h"
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_json(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		      uint64_t lost_samples, struct pk_stack_health *health)
{
	struct pk_hist_json_event *je = calloc(nr_ev ? nr_ev : 1, sizeof(*je));
	struct pk_hist_json_opts jo = {
		.size = sizeof(jo), .file = o->input, .keys = o->keys, .nr_keys = o->nr_keys,
		.percent_limit = o->percent_limit, .children = o->children, .callchain = o->callchain,
		.cg_mode = o->cg.mode, .cg_min_percent = o->cg.min_percent, .health = health,
	};
	int err;

	if (!je)
		return -ENOMEM;
	/* perf counts lost samples for the whole file: the first event carries them */
	for (size_t i = 0; i < nr_ev; i++)
		je[i] = (struct pk_hist_json_event){ ev[i].name, ev[i].hist, i ? 0 : lost_samples };
	err = pk_hist_write_json(f, &jo, je, nr_ev);
	free(je);
	return err;
}

struct json_out {
	const struct report_opts *o;
	const struct report_event *ev;
	size_t nr_ev;
	uint64_t lost_samples;
	struct pk_stack_health *health;
};

static int write_cb(FILE *f, void *ctx)
{
	const struct json_out *j = ctx;

	return write_json(f, j->o, j->ev, j->nr_ev, j->lost_samples, j->health);
}

int report_json(const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		uint64_t lost_samples, struct pk_stack_health *health)
{
	struct json_out j = { o, ev, nr_ev, lost_samples, health };

	return cli_output_write("report", o->output, write_cb, &j);
}
