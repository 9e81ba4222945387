/* SPDX-License-Identifier: MIT */
/*
 * alias-workload.S - one assembler function under three names, as glibc's
 * syscall wrappers are (mprotect, __mprotect, __GI_mprotect): with -g, gas
 * gives each name a DW_TAG_subprogram of the same range, and addr2line
 * (so perf) names the function by binutils' choice among them.
 */
	.text
	.globl	main
	.type	main, @function
main:
	call	alias_last
	xorl	%eax, %eax
	ret
	.size	main, .-main

	.globl	alias_first
	.type	alias_first, @function
	.globl	alias_middle
	.type	alias_middle, @function
	.globl	alias_last
	.type	alias_last, @function
alias_first:
alias_middle:
alias_last:
	nop
	nop
	ret
	.size	alias_first, .-alias_first
	.size	alias_middle, .-alias_middle
	.size	alias_last, .-alias_last

	.section .note.GNU-stack,"",@progbits
