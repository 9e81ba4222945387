/* SPDX-License-Identifier: MIT */
/*
 * srcline-target.c - a workload for the source lines perf prints where
 * addr2line finds no line, or names a file its own way: its hot loops are
 * in two assembly files (srcline-noline.s: no line table at all, a local
 * function after an unnamed STT_FILE, which addr2line names ":?", and a
 * global one it names "??:?"; srcline-files.s: a DWARF 5 line table whose
 * file 1 is not file 0, with rows before and after an explicit
 * DW_LNS_set_file 1).  Every sample lands in one of them.  Usage:
 * perfkit-srcline-target [MILLIONS]: spin MILLIONS million rounds in each
 * (default 100) and print the checksum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t srcline_blank(uint64_t rounds);	/* srcline-noline.s */
uint64_t srcline_files(uint64_t rounds);	/* srcline-files.s */

int main(int argc, char **argv)
{
	uint64_t rounds = (argc > 1 ? strtoull(argv[1], NULL, 10) : 100) * 1000000;
	uint64_t sum = srcline_blank(rounds) + srcline_files(rounds);

	printf("%llu\n", (unsigned long long)sum);
	return 0;
}
