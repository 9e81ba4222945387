/* SPDX-License-Identifier: MIT */
/*
 * fuzz_unwind.c - libFuzzer target for the DWARF unwinder: arbitrary
 * registers and stack bytes against real mappings (this program's own
 * files, from /proc/self/maps, as process 1).  Input: a byte choosing a
 * file mapping and four bytes of offset into it (the sample's IP), a byte
 * of flags (bit i: register i is an offset into the stack copy rather
 * than a raw value), 16 registers of 8 bytes (perf's AX..R15 order, less
 * IP), then the stack copy, whose SP is a fixed address.  Checked, with
 * abort() on a violation: the call succeeds, gives at most `max` frames,
 * and the first frame is the IP, for the sample and again for the same
 * sample right after (which the unwinder may replay from what it kept;
 * its frames may differ from the first call's when that one brought in a
 * module, which can change libdwfl's module at an earlier frame's
 * address).  With the first byte's top bit, a file is then mapped in a
 * hole of the address space (the process's libdwfl state is kept) and
 * with both top bits over the chosen text mapping again, as it was (that
 * state is let go), and the sample is unwound once more, checked alike.
 * The unwinder must never read outside the stack copy (ASan).
 * fuzz_replay_unwind runs the committed corpus (fuzz/corpus/unwind) as a
 * unit test.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SP_BASE 0x7ff000000000ull
#define HOLE_BASE 0x100000000000ull	/* nothing of a process is mapped there */
#define MAX_FRAMES 16

static struct pk_unwinder *u;
static uint64_t text_start[64], text_size[64], text_off[64];
static char *text_path[64];
static size_t nr_text;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	(void)argc;
	(void)argv;
	if (!f || pk_unwinder_new(&u) < 0)
		abort();
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char prot[8], path[3000] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %2999s", &start, &end, prot, &off, path) < 4 ||
		    path[0] != '/')
			continue;
		if (pk_unwinder_map(u, 1, start, end, off, path) < 0)
			abort();
		if (prot[2] == 'x' && nr_text < 64) {
			if (!(text_path[nr_text] = strdup(path)))
				abort();
			text_start[nr_text] = start;
			text_off[nr_text] = off;
			text_size[nr_text++] = end - start;
		}
	}
	fclose(f);
	return nr_text ? 0 : (abort(), 0);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The sample unwound, and checked. */
static void unwind(const uint64_t *regs, const uint8_t *stack, size_t size, uint64_t ip)
{
	uint64_t ips[MAX_FRAMES];
	size_t nr = 99;

	if (pk_unwinder_unwind(u, 1, 1, regs, 0xff01ffull, stack, size, ips, MAX_FRAMES, &nr) != 0 ||
	    nr > MAX_FRAMES || (nr && ips[0] != ip))
		abort();
}

/* A file mapped in a hole, and (remap) the text t mapped again. */
static void map_more(size_t t, uint32_t off, bool remap)
{
	uint64_t at = HOLE_BASE + (uint64_t)(off % 64) * 0x1000;	/* a few: each may become a module */

	if (pk_unwinder_map(u, 1, at, at + 0x2000, 0, text_path[t]) < 0 ||
	    (remap && pk_unwinder_map(u, 1, text_start[t], text_start[t] + text_size[t], text_off[t],
				      text_path[t]) < 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[17], ip;
	uint32_t off;
	size_t k = 0, t;
	uint16_t flags;
	uint8_t more;

	if (!u)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < 1 + 4 + 2 + 16 * 8)
		return 0;
	off = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24;
	t = data[0] % nr_text;
	more = data[0] >> 6;
	ip = text_start[t] + off % text_size[t];
	flags = (uint16_t)(data[5] | data[6] << 8);
	data += 7;
	size -= 7;
	/* perf's order: AX BX CX DX SI DI BP SP IP FLAGS ... then R8..R15 at bits 16..23;
	 * the mask below has bits 0-8 and 16-23, so 17 values in that order. */
	for (int bit = 0; bit < 24; bit++) {
		uint64_t v;

		if (bit > 8 && bit < 16)
			continue;
		if (bit == 8) {
			regs[k++] = ip;
			continue;
		}
		v = le64(data);
		data += 8;
		size -= 8;
		if (bit == 7)
			v = SP_BASE;
		else if (flags & 1)
			v = SP_BASE + v % 4096;
		flags >>= 1;
		regs[k++] = v;
	}
	for (int round = 0; round < 2; round++)
		unwind(regs, data, size, ip);
	if (more & 2) {
		map_more(t, off, more == 3);
		unwind(regs, data, size, ip);
	}
	return 0;
}
