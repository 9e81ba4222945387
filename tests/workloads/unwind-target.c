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
 * LD_BIND_NOT=1, every call goes through ld.so's lazy resolver.  With
 * "rbx", nocfi_middle calls pk_via_rbx, a frame that keeps its CFA in rbx
 * as that resolver does, and it calls pk_rbx_leaf, whose CFI says nothing
 * of rbx: an unwinder needs rbx as the sample has it to get past
 * pk_via_rbx, and then a frame pointer to get past nocfi_middle.
 */
#include <stdlib.h>
#include <string.h>

void nocfi_middle(void (*next)(unsigned long), unsigned long n);

void pk_via_rbx(unsigned long n);
void pk_rbx_leaf(unsigned long n);

static volatile unsigned long sink;
static int use_nocfi, use_deep, use_lazy, use_rbx;
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

/* A leaf: it calls nothing, so it saves no register and its CFI leaves
 * rbx to the rule for a register it does not mention. */
__attribute__((noinline)) void pk_rbx_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

/* pk_via_rbx(n): pk_rbx_leaf(n) on a stack aligned to 64 bytes, the CFA
 * kept in rbx meanwhile (_dl_runtime_resolve_xsave*'s own frame). */
__asm__(".text\n"
	".globl pk_via_rbx\n"
	".type pk_via_rbx, @function\n"
	"pk_via_rbx:\n"
	".cfi_startproc\n"
	"push %rbx\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbx, -16\n"
	"mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"and $-64, %rsp\n"
	"call pk_rbx_leaf\n"
	"mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"pop %rbx\n"
	".cfi_def_cfa_offset 8\n"
	".cfi_restore %rbx\n"
	"ret\n"
	".cfi_endproc\n"
	".size pk_via_rbx, .-pk_via_rbx\n");

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
	else if (use_rbx)
		nocfi_middle(pk_via_rbx, n);
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
	use_rbx = argc > 2 && !strcmp(argv[2], "rbx");
	outer(argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000ul);
	return 0;
}
