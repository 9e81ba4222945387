// SPDX-License-Identifier: MIT
/*
 * label-workload.c - a program (x86-64) that spends its time in untyped
 * labels, for the symbols oracle: three count-down loops written in
 * assembly under symbols without .type (STT_NOTYPE), as hand-written
 * assembly such as ld.so's _dl_start_user is: one global, one local.
 * `label-workload N` runs each N times.  perf 6.1 names both.
 */
#include <stdlib.h>

__asm__(".text\n"
	".globl pk_label_global\n"
	"pk_label_global:\n"
	"	mov %rdi, %rax\n"
	"1:	dec %rax\n"
	"	jnz 1b\n"
	"	ret\n"
	"pk_label_local:\n"
	"	mov %rdi, %rax\n"
	"2:	dec %rax\n"
	"	jnz 2b\n"
	"	ret\n");

void pk_label_global(long n);
void pk_label_local(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	for (long i = 0; i < n; i++) {
		pk_label_global(1000);
		pk_label_local(1000);
	}
	return 0;
}
