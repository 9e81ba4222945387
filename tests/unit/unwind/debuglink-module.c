/* SPDX-License-Identifier: MIT */
/*
 * debuglink-module.c - a shared library for test_unwind whose one function
 * has no .eh_frame row: it is built without unwind tables and with -g, so
 * its CFI is in .debug_frame alone, which the test moves into a separate
 * debug file.  The function zeroes rbp before its call, so without that CFI
 * libdwfl's frame-pointer fallback cannot get past it either.
 */
int pk_dbg_mid(int (*next)(int), int x);

int pk_dbg_mid(int (*next)(int), int x)
{
	volatile int pad[8];
	int r;

	pad[0] = x;
	__asm__ volatile("xorl %%ebp, %%ebp" ::: "rbp");
	r = next(pad[0] + 1);
	return r + pad[0];
}
