/* SPDX-License-Identifier: MIT */
/*
 * inline-target.c - a workload for source lines and inlined frames: built
 * with -O2 -g, its hot loops sit in static functions the compiler inlines
 * into their callers (mix() into step(), step() into spin()), so samples
 * land at addresses whose line table and inline tree name three functions
 * at three call sites.  Usage: perfkit-inline-target [MILLIONS]: spin for
 * MILLIONS million rounds (default 200) and print the checksum.
 */
#include <stdint.h>
#include <stdlib.h>
#include "raw-exit.h"	/* (the tests check the lines below: keep them where they are) */

static inline __attribute__((always_inline)) uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 29;
	return x;
}

static inline __attribute__((always_inline)) uint64_t step(uint64_t x, uint64_t i)
{
	x = mix(x + i);
	x += i * 7;
	return x;
}

static __attribute__((noinline)) uint64_t spin(uint64_t rounds)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < rounds; i++)
		x = step(x, i);
	return x;
}

static __attribute__((noinline)) uint64_t other(uint64_t rounds)
{
	uint64_t x = 3;

	for (uint64_t i = 0; i < rounds; i++)
		x = mix(x) + 1;
	return x;
}

int main(int argc, char **argv)
{
	uint64_t millions = argc > 1 ? strtoull(argv[1], NULL, 10) : 200;
	uint64_t sum = spin(millions * 1000000) + other(millions * 500000);

	/* Nothing of libc runs after the loops (raw-exit.h): perf 6.1 has
	 * given up on libc's lines by then (123 failed addr2line questions
	 * in a row), so a sample in printf's malloc here would get perf's
	 * "sym+offset" where perfkit names the line, and the comparison
	 * would depend on whether the timer hit these last microseconds. */
	raw_print_and_exit(sum);
}
