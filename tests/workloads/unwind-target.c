/* SPDX-License-Identifier: MIT */
/*
 * unwind-target.c - a known call chain for the DWARF unwinding tests:
 * main -> outer -> middle -> inner, where inner spins for argv[1] rounds.
 * Built with -O2 -fomit-frame-pointer, so only DWARF CFI can unwind it.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline)) static void middle(unsigned long n)
{
	inner(n);
	sink++;
}

__attribute__((noinline)) static void outer(unsigned long n)
{
	middle(n);
	sink++;
}

int main(int argc, char **argv)
{
	outer(argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000ul);
	return 0;
}
