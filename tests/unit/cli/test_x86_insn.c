/* SPDX-License-Identifier: MIT */
/*
 * test_x86_insn.c - script -F insn's x86-64 instruction lengths
 * (src/cli/x86-insn.c) on encodings whose lengths the Intel SDM fixes:
 * each opcode map, prefixes and REX.W changing an immediate, ModRM with
 * SIB, rip-relative and disp8/disp32 forms, VEX2, VEX3 and EVEX, the
 * group opcodes whose immediate depends on ModRM.reg; and bytes that hold
 * no whole instruction (cut short, or past 15 bytes of prefixes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "script-fields.h"

static const struct {
	const char *what;
	uint8_t bytes[16];
	size_t n;		/* the bytes given */
	int len;		/* the length expected, -1 for none */
} cases[] = {
	{ "add rdx, rax", { 0x48, 0x01, 0xc2 }, 3, 3 },
	{ "jne rel8", { 0x75, 0xe6 }, 2, 2 },
	{ "xchg ax, ax (66 nop)", { 0x66, 0x90 }, 2, 2 },
	{ "ret, with bytes after it", { 0xc3, 0x90, 0x90 }, 3, 1 },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, 4 },
	{ "mov rbp, rsp", { 0x48, 0x89, 0xe5 }, 3, 3 },
	{ "call rel32", { 0xe8, 1, 2, 3, 4, 0x90 }, 6, 5 },
	{ "movabs rax, imm64 (REX.W)", { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, 10 },
	{ "mov eax, imm32", { 0xb8, 1, 2, 3, 4 }, 5, 5 },
	{ "mov ax, imm16 (66)", { 0x66, 0xb8, 1, 2 }, 4, 4 },
	{ "mov rax, [rip+disp32]", { 0x48, 0x8b, 0x05, 1, 2, 3, 4 }, 7, 7 },
	{ "mov eax, [rsp+8] (SIB, disp8)", { 0x8b, 0x44, 0x24, 0x08 }, 4, 4 },
	{ "mov eax, [disp32] (SIB without base)", { 0x8b, 0x04, 0x25, 1, 2, 3, 4 }, 7, 7 },
	{ "mov rax, [rsp+disp32]", { 0x48, 0x8b, 0x84, 0x24, 1, 2, 3, 4 }, 8, 8 },
	{ "mov dword [rsp+8], imm32", { 0xc7, 0x44, 0x24, 0x08, 1, 2, 3, 4 }, 8, 8 },
	{ "mov word [rsp+8], imm16", { 0x66, 0xc7, 0x44, 0x24, 0x08, 1, 2 }, 7, 7 },
	{ "jne rel32", { 0x0f, 0x85, 1, 2, 3, 4 }, 6, 6 },
	{ "test cl, 1 (f6 /0)", { 0xf6, 0xc1, 0x01 }, 3, 3 },
	{ "test ecx, imm32 (f7 /0)", { 0xf7, 0xc1, 1, 2, 3, 4 }, 6, 6 },
	{ "neg eax (f7 /3, no immediate)", { 0xf7, 0xd8 }, 2, 2 },
	{ "vmovdqa xmm0, xmm1 (VEX2)", { 0xc5, 0xf9, 0x6f, 0xc1 }, 4, 4 },
	{ "vpalignr (VEX3, map 0f3a: imm8)", { 0xc4, 0xe3, 0x79, 0x0f, 0xc1, 0x08 }, 6, 6 },
	{ "vpshufd (VEX2, 0f 70: imm8)", { 0xc5, 0xf9, 0x70, 0xc1, 0x1b }, 5, 5 },
	{ "vmovdqa32 zmm0, [rsp+0x40] (EVEX, disp8)", { 0x62, 0xf1, 0x7d, 0x48, 0x6f, 0x44, 0x24, 0x01 }, 8, 8 },
	{ "movbe eax, [rsi] (0f38)", { 0x0f, 0x38, 0xf0, 0x06 }, 4, 4 },
	{ "palignr xmm0, xmm1, 8 (66 0f3a)", { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08 }, 6, 6 },
	{ "mov eax, [moffs64]", { 0xa1, 1, 2, 3, 4, 5, 6, 7, 8 }, 9, 9 },
	{ "mov eax, [moffs32] (67)", { 0x67, 0xa1, 1, 2, 3, 4 }, 6, 6 },
	{ "enter 16, 0", { 0xc8, 0x10, 0x00, 0x00 }, 4, 4 },
	{ "ret 8", { 0xc2, 0x08, 0x00 }, 3, 3 },
	{ "syscall", { 0x0f, 0x05 }, 2, 2 },
	{ "xgetbv", { 0x0f, 0x01, 0xd0 }, 3, 3 },
	{ "mfence", { 0x0f, 0xae, 0xf0 }, 3, 3 },
	{ "bt eax, 3 (0f ba: imm8)", { 0x0f, 0xba, 0xe0, 0x03 }, 4, 4 },
	{ "lock cmpxchg [rdx], rcx", { 0xf0, 0x48, 0x0f, 0xb1, 0x0a }, 5, 5 },
	{ "push imm8", { 0x6a, 0x01 }, 2, 2 },
	{ "imul eax, ecx, imm8", { 0x6b, 0xc1, 0x10 }, 3, 3 },
	{ "a REX prefix alone", { 0x48 }, 1, -1 },
	{ "call rel32 cut short", { 0xe8, 0x00, 0x00 }, 3, -1 },
	{ "0f alone", { 0x0f }, 1, -1 },
	{ "ModRM's SIB cut short", { 0x8b, 0x44 }, 2, -1 },
	{ "nothing", { 0 }, 0, -1 },
	{ "fifteen prefixes, then nop: 16 bytes", { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
						     0x66, 0x66, 0x66, 0x66, 0x66, 0x90 }, 16, -1 },
	{ "fourteen prefixes, then nop: 15 bytes", { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
						      0x66, 0x66, 0x66, 0x66, 0x90 }, 15, 15 },
};

static void test_lengths(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int len = script_insn_len(cases[i].bytes, cases[i].n);

		if (len != cases[i].len)
			fail_msg("%s: length %d, want %d", cases[i].what, len, cases[i].len);
	}
}

/* Whatever the bytes, the length is -1 or within them and within 15. */
static void test_bounds(void **state)
{
	uint8_t b[16];
	uint32_t x = 12345;

	(void)state;
	for (int round = 0; round < 200000; round++) {
		size_t n = 1 + (size_t)(round % 16);
		int len;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			b[i] = (uint8_t)(x >> 16);
		}
		len = script_insn_len(b, n);
		if (len != -1 && (len < 1 || (size_t)len > n || len > 15))
			fail_msg("round %d: length %d of %zu bytes", round, len, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
