/* SPDX-License-Identifier: MIT */
/*
 * unwind-target-nocfi.c - a frame of the unwind-target chain with no CFI
 * at all (built with -fno-asynchronous-unwind-tables -fno-unwind-tables,
 * keeping its frame pointer), so an unwinder must fall back to the frame
 * pointer there, as libdwfl does.
 */
void nocfi_middle(void (*next)(unsigned long), unsigned long n);

void nocfi_middle(void (*next)(unsigned long), unsigned long n)
{
	next(n);
	__asm__ volatile("" ::: "memory");
}
