# SPDX-License-Identifier: MIT
# srcline-noline.s - code without any line table (assembled without -g):
# blank_spin is a local function after an unnamed STT_FILE, which GNU
# addr2line names ":?" from the symbol table (perf prints ":0");
# srcline_blank is a global one, which it names "??:?" (perf: "??:0").
# Each spins half the rounds; CFI lets perf unwind through them.
	.file	""
	.text
	.type	blank_spin, @function
blank_spin:
	.cfi_startproc
	movl	$1, %eax
	testq	%rdi, %rdi
	jz	2f
1:	imulq	$0x5851f42d, %rax, %rax
	addq	%rdi, %rax
	decq	%rdi
	jnz	1b
2:	ret
	.cfi_endproc
	.size	blank_spin, .-blank_spin

	.globl	srcline_blank
	.type	srcline_blank, @function
# uint64_t srcline_blank(uint64_t rounds)
srcline_blank:
	.cfi_startproc
	movq	%rdi, %rcx
	shrq	$1, %rdi
	movl	$7, %eax
	testq	%rcx, %rcx
	jz	2f
1:	imulq	$0x2545f491, %rax, %rax
	xorq	%rcx, %rax
	decq	%rcx
	jnz	1b
2:	pushq	%rax
	.cfi_adjust_cfa_offset 8
	call	blank_spin
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	addq	%rcx, %rax
	ret
	.cfi_endproc
	.size	srcline_blank, .-srcline_blank
	.section	.note.GNU-stack,"",@progbits
