/* SPDX-License-Identifier: MIT */
/*
 * diff_synth.c - writes the differential flame graph of two known profiles
 * through libperfkit (`diff_synth OUT.svg`), so that Chromium can be
 * checked against figures fixed here.  Counts of app;main;...: old grow
 * 100, shrink 300, same 100 (500 in all); new grow 300, shrink 100, same
 * 100, fresh 50 (550).  Shares old -> new: grow 20% -> 54.55% (+34.55),
 * shrink 60% -> 18.18% (-41.82, the largest change), same 20% -> 18.18%,
 * fresh none -> 9.09%, main and app 100% -> 100% (unchanged).
 */
#include <stdio.h>

#include "perfkit.h"

static int add(struct pk_exporter *ex, const char *leaf, uint64_t weight)
{
	struct pk_export_frame f[] = {
		{ .name = leaf, .addr = 0x401030, .dso = "/usr/bin/app", .kind = PK_FRAME_USER },
		{ .name = "main", .addr = 0x401010, .dso = "/usr/bin/app", .kind = PK_FRAME_USER },
	};
	struct pk_export_sample s = { .size = sizeof(s), .weight = weight, .pid = 100, .tid = 100,
				      .comm = "app", .cpu = 0, .frames = f, .nr_frames = 2 };

	return pk_exporter_add(ex, &s);
}

static int make(struct pk_exporter **ex, const uint64_t w[4])
{
	static const char *const leaves[] = { "grow", "shrink", "same", "fresh" };
	struct pk_export_event ev = { "instructions", "count" };
	struct pk_export_opts o = { .size = sizeof(o), .format = PK_EXPORT_FLAMEGRAPH, .events = &ev,
				    .nr_events = 1, .title = "new.data against old.data" };

	if (pk_exporter_new(&o, ex) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (w[i] && add(*ex, leaves[i], w[i]) < 0)
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const uint64_t old_w[4] = { 100, 300, 100, 0 }, new_w[4] = { 300, 100, 100, 50 };
	struct pk_exporter *old = NULL, *new = NULL;
	FILE *f;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: diff_synth OUT.svg\n");
		return 2;
	}
	if (make(&old, old_w) == 0 && make(&new, new_w) == 0 && (f = fopen(argv[1], "w"))) {
		rc = pk_diff_export(old, new, PK_EXPORT_FLAMEGRAPH, f) < 0;
		rc |= fclose(f) != 0;
	}
	if (rc)
		fprintf(stderr, "diff_synth: %s\n", pk_last_error()->why);
	pk_exporter_free(old);
	pk_exporter_free(new);
	return rc;
}
