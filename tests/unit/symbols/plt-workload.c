// SPDX-License-Identifier: MIT
/*
 * plt-workload.c - a program that spends its time going through PLT
 * entries, for the symbols oracle: `plt-workload N` calls abs, labs and
 * toupper, functions of a few instructions, through its own PLT N times
 * each (built with -fno-builtin so the calls stay calls), and strdup every
 * 16th time, whose calls inside libc go through libc's own PLT (IRELATIVE
 * entries, which name no symbol).  Built with -DREAD_ENVIRON it reads
 * environ, so even linked stripped (-s) its .dynsym defines a symbol: the
 * copy-relocated object, which is enough for perf 6.1 to name the PLT
 * entries.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#ifdef READ_ENVIRON
extern char **environ;
#define ENVIRON_SET (environ != NULL)
#else
#define ENVIRON_SET 0
#endif

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	volatile unsigned long sink = ENVIRON_SET;

	for (long i = 0; i < n; i++) {
		sink += (unsigned long)abs((int)i) + (unsigned long)labs(i) +
			(unsigned long)toupper((int)(i & 0x7f));
		if (!(i & 15)) {
			char *s = strdup("perfkit");

			sink += strlen(s);
			free(s);
		}
	}
	return sink == 0;
}
