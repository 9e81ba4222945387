/* SPDX-License-Identifier: MIT */
/*
 * flamegraph-worst.c - the largest flame graph perfkit's merging of narrow
 * frames lets through for a million-sample profile, written with the
 * public export API (pk_exporter_*): SAMPLES samples of weight 1 spread
 * evenly over LEAVES distinct call paths, each DEPTH frames deep, that
 * share only `main` and differ from the first frame above it, so every
 * path keeps its own DEPTH-1 boxes as long as its share stays at or above
 * the default threshold (1e-4 of the total: 10000 paths of 100 samples
 * for a million).  Function names repeat across paths (NAMES of them), as
 * a real program's do.  bench/flamegraph-load.sh times it in Chromium.
 * usage: flamegraph-worst OUT.svg [SAMPLES [LEAVES [DEPTH [NAMES]]]]
 *        (default 1000000 10000 20 5000)
 */
#include <perfkit.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_DEPTH = 256 };

/* Which of the `names` functions path `leaf` has at depth `d`: a mix of
 * both, so that no two paths agree at every depth. */
static long pick(long leaf, int d, long names)
{
	uint64_t x = (uint64_t)leaf * 0x9e3779b97f4a7c15ull ^ (uint64_t)d * 0xc2b2ae3d27d4eb4full;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return (long)(x % (uint64_t)names);
}

static int fill(struct pk_exporter *ex, long samples, long leaves, int depth, long names)
{
	static char name[MAX_DEPTH][32];
	struct pk_export_frame fr[MAX_DEPTH];
	long per = samples / leaves;

	for (long leaf = 0; leaf < leaves; leaf++) {
		/* innermost first; the outermost is main, shared by all */
		for (int d = 0; d < depth; d++) {
			long id = d == depth - 1 ? -1 : pick(leaf, d, names);

			if (id < 0)
				snprintf(name[d], sizeof(name[d]), "main");
			else
				snprintf(name[d], sizeof(name[d]), "fn_%ld", id);
			fr[d] = (struct pk_export_frame){ .name = name[d], .addr = 0x400000 + (uint64_t)d,
							  .dso = "/usr/bin/app", .kind = PK_FRAME_USER };
		}
		for (long i = 0; i < per; i++) {
			struct pk_export_sample s = { .size = sizeof(s), .weight = 1, .pid = 100, .tid = 100,
						      .comm = "app", .frames = fr, .nr_frames = (size_t)depth };

			if (pk_exporter_add(ex, &s) < 0)
				return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pk_export_event ev = { "cpu-clock", "samples" };
	struct pk_export_opts o = { .size = sizeof(o), .format = PK_EXPORT_FLAMEGRAPH, .events = &ev,
				    .nr_events = 1, .title = "the widest tree the merging keeps" };
	long samples = argc > 2 ? atol(argv[2]) : 1000000, leaves = argc > 3 ? atol(argv[3]) : 10000;
	int depth = argc > 4 ? atoi(argv[4]) : 20;
	long names = argc > 5 ? atol(argv[5]) : 5000;
	struct pk_exporter *ex;
	FILE *f;

	if (argc < 2 || samples < 1 || leaves < 1 || leaves > samples || depth < 2 || depth > MAX_DEPTH ||
	    names < 1) {
		fprintf(stderr, "usage: flamegraph-worst OUT.svg [SAMPLES [LEAVES [DEPTH [NAMES]]]]\n");
		return 2;
	}
	if (pk_exporter_new(&o, &ex) < 0 || fill(ex, samples, leaves, depth, names) < 0 ||
	    !(f = fopen(argv[1], "wb"))) {
		fprintf(stderr, "flamegraph-worst: %s\n", pk_last_error()->why);
		return 1;
	}
	if (pk_exporter_write(ex, f) < 0 || fclose(f)) {
		fprintf(stderr, "flamegraph-worst: writing %s failed\n", argv[1]);
		return 1;
	}
	pk_exporter_free(ex);
	return 0;
}
