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
 * address).  The unwinder must never read outside the stack copy (ASan).  fuzz_replay_unwind runs the committed corpus
 * (fuzz/corpus/unwind) as a unit test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SP_BASE 0x7ff000000000ull
#define MAX_FRAMES 16

static struct pk_unwinder *u;
static uint64_t text_start[64], text_size[64];
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
			text_start[nr_text] = start;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[17], ips[MAX_FRAMES], ip;
	uint32_t off;
	size_t nr = 99, k = 0;
	uint16_t flags;

	if (!u)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < 1 + 4 + 2 + 16 * 8)
		return 0;
	off = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24;
	ip = text_start[data[0] % nr_text] + off % text_size[data[0] % nr_text];
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
		if (pk_unwinder_unwind(u, 1, 1, regs, 0xff01ffull, data, size, ips, MAX_FRAMES, &nr) != 0 ||
		    nr > MAX_FRAMES || (nr && ips[0] != ip))
			abort();
	return 0;
}
