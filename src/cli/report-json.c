/* SPDX-License-Identifier: MIT */
/*
 * report-json.c - `perfkit report --format=json [-o FILE]`: the histograms
 * the --stdio table prints, sorted and filtered alike, written by the
 * library's pk_hist_write_json (rows, sort-key values, call trees as -g
 * prunes them) to FILE, under a temporary name renamed into place when
 * whole, or to standard output.
 */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_json(FILE *f, const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		      uint64_t lost_samples)
{
	struct pk_hist_json_event *je = calloc(nr_ev ? nr_ev : 1, sizeof(*je));
	struct pk_hist_json_opts jo = {
		.size = sizeof(jo), .file = o->input, .keys = o->keys, .nr_keys = o->nr_keys,
		.percent_limit = o->percent_limit, .children = o->children, .callchain = o->callchain,
		.cg_mode = o->cg.mode, .cg_min_percent = o->cg.min_percent,
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

int report_json(const struct report_opts *o, const struct report_event *ev, size_t nr_ev,
		uint64_t lost_samples)
{
	const char *path = o->output;
	char *tmp = NULL;
	FILE *f;
	int fd, err;

	if (!path || !strcmp(path, "-"))
		return write_json(stdout, o, ev, nr_ev, lost_samples) < 0 ? cli_error("report", NULL) : 0;
	if (asprintf(&tmp, "%s.partial.XXXXXX", path) < 0)
		return cli_usage("report", "out of memory");
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		cli_message(stderr, "perfkit report: cannot create %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return CLI_EXIT_EVENT;
	}
	mode_t mask = umask(0);	/* mkstemp made it 0600: give it a new file's mode */

	umask(mask);
	fchmod(fd, 0666 & ~mask);
	err = write_json(f, o, ev, nr_ev, lost_samples);
	if (fclose(f) && !err)
		err = -EIO;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err < 0) {
		unlink(tmp);
		cli_message(stderr, "perfkit report: writing %s failed: %s\n", path, strerror(-err));
	}
	free(tmp);
	return err < 0 ? CLI_EXIT_EVENT : 0;
}
