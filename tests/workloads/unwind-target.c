/* SPDX-License-Identifier: MIT */
/*
 * unwind-target.c - a known call chain for the DWARF unwinding tests:
 * main -> outer -> middle -> inner, where inner spins for argv[1] rounds.
 * Built with -O2 -fomit-frame-pointer, so only DWARF CFI can unwind it.
 * With a second argument "nocfi", middle is replaced by nocfi_middle, a
 * frame without CFI (unwind-target-nocfi.c).  With "deep", outer calls
 * inner through 48 frames of recurse, each with 128 bytes of locals, a
 * stack deeper than a --call-graph dwarf,512 copy holds.  With "lazy",
 * inner's rounds call libc's strtoul through the PLT: run with
 * LD_BIND_NOT=1, every call goes through ld.so's lazy resolver.
 */
#include <stdlib.h>
#include <string.h>

void nocfi_middle(void (*next)(unsigned long), unsigned long n);

static volatile unsigned long sink;
static int use_nocfi, use_deep, use_lazy;
static const char *volatile digits = "42";

/* A round of inner in "lazy" mode: a call through the PLT. */
__attribute__((noinline)) static void plt_round(unsigned long i)
{
	sink += strtoul(digits, NULL, 10) + i;
}

__attribute__((noinline)) static void inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		if (use_lazy)
			plt_round(i);
		else
			sink += i * i;
	}
}

__attribute__((noinline)) static void middle(unsigned long n)
{
	inner(n);
	sink++;
}


/* The buffer is written and read after the call, so the frame stays and
 * the call is not a tail call. */
__attribute__((noinline)) static void recurse(unsigned int depth, unsigned long n)
{
	volatile unsigned char buf[128];

	buf[depth % sizeof(buf)] = (unsigned char)depth;
	if (depth)
		recurse(depth - 1, n);
	else
		inner(n);
	sink += buf[depth % sizeof(buf)];
}

__attribute__((noinline)) static void outer(unsigned long n)
{
	if (use_nocfi)
		nocfi_middle(inner, n);
	else if (use_deep)
		recurse(48, n);
	else
		middle(n);
	sink++;
}

int main(int argc, char **argv)
{
	use_nocfi = argc > 2 && !strcmp(argv[2], "nocfi");
	use_deep = argc > 2 && !strcmp(argv[2], "deep");
	use_lazy = argc > 2 && !strcmp(argv[2], "lazy");
	outer(argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000ul);
	return 0;
}
