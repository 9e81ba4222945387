# SPDX-License-Identifier: MIT
# srcline-files.s - a hot loop under a hand-written DWARF 5 line table
# (assembled with --gdwarf-5, no other debug info) whose file 1 is not
# file 0, as in a table rewritten after the compiler (Debian's glibc debug
# files): the rows at lines 10 and 11 still carry the sequence's initial
# file register (1, srcline-files.h), which GNU addr2line 2.40 takes as
# file 0 (srcline-files.c); line 20 is in file 2; line 30 follows an
# explicit DW_LNS_set_file 1 and is srcline-files.h for addr2line too.
	.file	"srcline-files.c"
	.text
	.file 0 "/perfkit" "srcline-files.c"
	.file 1 "srcline-files.h"
	.file 2 "srcline-other.h"
	.globl	srcline_files
	.type	srcline_files, @function
# uint64_t srcline_files(uint64_t rounds)
srcline_files:
	.cfi_startproc
	.loc 1 10 0
	movl	$3, %eax
	testq	%rdi, %rdi
	jz	2f
1:
	.loc 1 11 0
	imulq	$0x5851f42d, %rax, %rax
	addq	%rdi, %rax
	.loc 2 20 0
	rolq	$7, %rax
	xorq	%rdi, %rax
	.loc 1 30 0
	imulq	$0x2545f491, %rax, %rax
	decq	%rdi
	jnz	1b
2:
	ret
	.cfi_endproc
	.size	srcline_files, .-srcline_files
	.section	.note.GNU-stack,"",@progbits
