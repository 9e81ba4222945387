/* SPDX-License-Identifier: MIT */
/*
 * unwind-target.c - a known call chain for the DWARF unwinding tests:
 * main -> outer -> middle -> inner, where inner spins for argv[1] rounds.
 * Built with -O2 -fomit-frame-pointer, so only DWARF CFI can unwind it.
 * With a second argument "nocfi", middle is replaced by nocfi_middle, a
 * frame without CFI (unwind-target-nocfi.c).
 */
#include <stdlib.h>
#include <string.h>

void nocfi_middle(void (*next)(unsigned long), unsigned long n);

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

static int use_nocfi;

__attribute__((noinline)) static void outer(unsigned long n)
{
	if (use_nocfi)
		nocfi_middle(inner, n);
	else
		middle(n);
	sink++;
}

int main(int argc, char **argv)
{
	use_nocfi = argc > 2 && !strcmp(argv[2], "nocfi");
	outer(argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000ul);
	return 0;
}
