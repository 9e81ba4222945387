/* SPDX-License-Identifier: MIT */
/*
 * raw-exit.h - the end of the srcline and inline targets: a checksum
 * written and the process ended by raw system calls, nothing of libc
 * after their loops (see srcline-target.c for why perf comparisons need
 * that).  Inlined into main, so the exit's return address stays inside
 * main: the loop after it is never reached.
 */
#ifndef PERFKIT_TESTS_RAW_EXIT_H
#define PERFKIT_TESTS_RAW_EXIT_H

#include <stdint.h>

static inline __attribute__((always_inline)) void raw_print_and_exit(uint64_t sum)
{
	char buf[24], *p = buf + sizeof(buf);
	long ret;

	*--p = '\n';
	do
		*--p = (char)('0' + sum % 10);
	while ((sum /= 10) != 0);
	__asm__ volatile("syscall" : "=a"(ret)
			 : "0"(1L), "D"(1L), "S"(p), "d"(buf + sizeof(buf) - p)
			 : "rcx", "r11", "memory");
	__asm__ volatile("syscall" : : "a"(231L), "D"(0L) : "rcx", "r11", "memory");
	for (;;)
		;	/* never reached: keeps the exit's return address inside main */
}

#endif
