// SPDX-License-Identifier: MIT
/*
 * rebuilt.c - one program in two builds for the build-id cache tests:
 * -DVARIANT=1 spends its time in spin_v1, -DVARIANT=2 in spin_v2 (other
 * code, so another build-id).  A recording of the first, read after the
 * second replaced it, must still name spin_v1: from the cache.
 */
#include <stdlib.h>

#ifndef VARIANT
#define VARIANT 1
#endif
#define CAT(a, b) a##b
#define SPIN(v) CAT(spin_v, v)

volatile unsigned long sink;

__attribute__((noinline)) void SPIN(VARIANT)(unsigned long n);
__attribute__((noinline)) void SPIN(VARIANT)(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ VARIANT;
}

int main(int argc, char **argv)
{
	SPIN(VARIANT)(argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL);
	return 0;
}
