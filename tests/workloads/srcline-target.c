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
 *
 * Nothing of libc runs after the loops: the checksum is written and the
 * process ends by raw system calls.  perf 6.1 gives up on a DSO's lines
 * after 123 failed addr2line questions in a row from its first, and it
 * asks about __libc_start_call_main's frame with a wrong address in every
 * sample; a sample in printf or exit at the end would then get perf's
 * "sym+offset" where perfkit names the line, and the comparison would
 * depend on whether the timer hit those last microseconds.  The exit's
 * syscall is followed by code of main's own (a loop never reached): with
 * nothing after it, the address a sample inside exit_group unwinds from
 * lay past main's end, outside any CFI, and perf's libunwind and libdw
 * each guessed a different caller there (perf printed ffffffffffffffff
 * where perfkit went on to _start), about once in fifteen recordings.
 */
#include <stdint.h>
#include <stdlib.h>

#include "raw-exit.h"

uint64_t srcline_blank(uint64_t rounds);	/* srcline-noline.s */
uint64_t srcline_files(uint64_t rounds);	/* srcline-files.s */

int main(int argc, char **argv)
{
	uint64_t rounds = (argc > 1 ? strtoull(argv[1], NULL, 10) : 100) * 1000000;
	uint64_t sum = srcline_blank(rounds) + srcline_files(rounds);

	raw_print_and_exit(sum);
}
