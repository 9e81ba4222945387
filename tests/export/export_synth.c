/* SPDX-License-Identifier: MIT */
/*
 * export_synth.c - writes one known profile through libperfkit's exporters
 * (`export_synth FORMAT OUT [icicle]`, FORMAT folded, pprof, speedscope or
 * flamegraph), so the real readers (pprof, speedscope, Chromium) can be
 * checked against figures fixed here.  The profile, in cpu-clock
 * nanoseconds: app (pid 100) main;work;compute 60 x 3 ms on tid 100,
 * main;work;parse (inlined) 30 x 1 ms on tid 101, main;work;do_sys_open
 * (kernel) 10 x 1 ms, main;[libc.so.6] 5 x 1 ms; java (pid 200)
 * interpreter;jit_hot (JIT) 20 x 1 ms; and 100 frames main;tiny_N of 20 us
 * each, under the flame graph's 0.01% to draw alone.  Total 247 ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

#define APP "/usr/bin/app"
#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"
#define KERNEL "[kernel.kallsyms]"

static const char *const BID = "0123456789abcdef0123456789abcdef01234567";

static struct pk_export_frame fr(const char *name, uint64_t addr, const char *dso, enum pk_frame_kind kind)
{
	return (struct pk_export_frame){ .name = name, .addr = addr, .dso = dso,
					 .build_id = dso && !strcmp(dso, APP) ? BID : NULL,
					 .map_start = dso && !strcmp(dso, APP) ? 0x400000 : 0,
					 .map_end = dso && !strcmp(dso, APP) ? 0x500000 : 0,
					 .file_offset = addr & 0xfffff,
					 .file = dso && !strcmp(dso, APP) ? "app.c" : NULL,
					 .line = dso && !strcmp(dso, APP) ? (uint32_t)(addr & 0xff) : 0,
					 .kind = kind };
}

static int add(struct pk_exporter *ex, const char *comm, uint32_t pid, uint32_t tid, uint64_t weight,
	       int nr, const struct pk_export_frame *frames, size_t nr_frames, uint64_t *clock)
{
	for (int i = 0; i < nr; i++) {
		struct pk_export_sample s = { .size = sizeof(s), .weight = weight, .pid = pid, .tid = tid,
					      .comm = comm, .cpu = (int32_t)(tid & 1), .has_time = true,
					      .time = (*clock += weight), .frames = frames,
					      .nr_frames = nr_frames };

		if (pk_exporter_add(ex, &s) < 0)
			return -1;
	}
	return 0;
}

static int fill(struct pk_exporter *ex)
{
	struct pk_export_frame compute[] = { fr("compute", 0x401030, APP, PK_FRAME_USER),
		fr("work", 0x401020, APP, PK_FRAME_USER), fr("main", 0x401010, APP, PK_FRAME_USER) };
	struct pk_export_frame parse[] = { fr("parse", 0x401044, APP, PK_FRAME_INLINED),
		fr("work", 0x401024, APP, PK_FRAME_USER), fr("main", 0x401010, APP, PK_FRAME_USER) };
	struct pk_export_frame sys[] = { fr("do_sys_open", 0xffffffff81200000ull, KERNEL, PK_FRAME_KERNEL),
		fr("work", 0x401028, APP, PK_FRAME_USER), fr("main", 0x401010, APP, PK_FRAME_USER) };
	struct pk_export_frame libc[] = { fr(NULL, 0x7f0000012345ull, LIBC, PK_FRAME_USER),
		fr("main", 0x401014, APP, PK_FRAME_USER) };
	struct pk_export_frame jit[] = { fr("jit_hot", 0x7e0000001000ull, "//anon", PK_FRAME_JIT),
		fr("interpreter", 0x7e0000000100ull, "/usr/lib/jvm/libjvm.so", PK_FRAME_USER) };
	uint64_t clock = 1000000000;
	int rc = 0;

	rc |= add(ex, "app", 100, 100, 3000000, 60, compute, 3, &clock);
	rc |= add(ex, "app", 100, 101, 1000000, 30, parse, 3, &clock);
	rc |= add(ex, "app", 100, 100, 1000000, 10, sys, 3, &clock);
	rc |= add(ex, "app", 100, 100, 1000000, 5, libc, 2, &clock);
	rc |= add(ex, "java", 200, 200, 1000000, 20, jit, 2, &clock);
	for (int i = 0; i < 100; i++) {
		char name[32];
		struct pk_export_frame tiny[] = { fr(name, 0x402000 + (uint64_t)i, APP, PK_FRAME_USER),
						  fr("main", 0x401010, APP, PK_FRAME_USER) };

		snprintf(name, sizeof(name), "tiny_%d", i);
		rc |= add(ex, "app", 100, 100, 20000, 1, tiny, 2, &clock);
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "folded", "pprof", "speedscope", "flamegraph" };
	struct pk_export_event ev = { "cpu-clock", "nanoseconds" };
	struct pk_export_opts o = { .size = sizeof(o), .events = &ev, .nr_events = 1,
				    .title = "perfkit synthetic profile" };
	struct pk_exporter *ex;
	FILE *f;
	size_t i;

	for (i = 0; argc >= 3 && i < 4 && strcmp(argv[1], names[i]); i++)
		;
	if (argc < 3 || i == 4) {
		fprintf(stderr, "usage: export_synth folded|pprof|speedscope|flamegraph OUT [icicle]\n");
		return 2;
	}
	o.format = (enum pk_export_format)i;
	o.icicle = argc > 3 && !strcmp(argv[3], "icicle");
	if (pk_exporter_new(&o, &ex) < 0 || fill(ex) < 0 || !(f = fopen(argv[2], "wb"))) {
		fprintf(stderr, "export_synth: %s\n", pk_last_error()->why);
		return 1;
	}
	if (pk_exporter_write(ex, f) < 0 || fclose(f)) {
		fprintf(stderr, "export_synth: writing %s failed\n", argv[2]);
		return 1;
	}
	pk_exporter_free(ex);
	return 0;
}
