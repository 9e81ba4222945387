/* SPDX-License-Identifier: MIT */
/*
 * x86-insn.c - the length of an x86-64 instruction, as perf's insn_decode
 * finds it for script's -F insn: the encoding walked byte by byte (legacy
 * prefixes, REX, VEX/EVEX, the one-byte, 0f, 0f38 and 0f3a maps, ModRM,
 * SIB, displacement, immediate), nothing read past the bytes given.
 */
#include "script-fields.h"

#define MAX_LEN 15	/* the architecture's longest instruction */

/* What follows an opcode: a ModRM byte, and an immediate of this kind. */
enum imm { IMM_NONE, IMM_8, IMM_16, IMM_Z, IMM_V, IMM_MOFFS, IMM_16_8 };
struct form {
	bool modrm;
	enum imm imm;
};

/* The one-byte map (64-bit mode); opcode 0x0f and the prefixes are not asked. */
static struct form form1(uint8_t op, uint8_t modrm)
{
	if (op < 0x40) {
		switch (op & 7) {
		case 4: return (struct form){ false, IMM_8 };
		case 5: return (struct form){ false, IMM_Z };
		case 6: case 7: return (struct form){ false, IMM_NONE };
		default: return (struct form){ true, IMM_NONE };
		}
	}
	if (op >= 0x70 && op <= 0x7f)
		return (struct form){ false, IMM_8 };
	if (op >= 0x84 && op <= 0x8f)
		return (struct form){ true, IMM_NONE };
	if (op >= 0xb0 && op <= 0xb7)
		return (struct form){ false, IMM_8 };
	if (op >= 0xb8 && op <= 0xbf)
		return (struct form){ false, IMM_V };
	if (op >= 0xd8 && op <= 0xdf)	/* x87 */
		return (struct form){ true, IMM_NONE };
	if (op >= 0xe0 && op <= 0xe7)
		return (struct form){ false, IMM_8 };
	switch (op) {
	case 0x63: case 0x62: case 0xc4: case 0xc5: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
	case 0xfe: case 0xff:
		return (struct form){ true, IMM_NONE };
	case 0x69: case 0x81: case 0xc7: return (struct form){ true, IMM_Z };
	case 0x6b: case 0x80: case 0x82: case 0x83: case 0xc0: case 0xc1: case 0xc6:
		return (struct form){ true, IMM_8 };
	case 0x68: case 0xa9: case 0xe8: case 0xe9: return (struct form){ false, IMM_Z };
	case 0x6a: case 0xa8: case 0xcd: case 0xeb: return (struct form){ false, IMM_8 };
	case 0xa0: case 0xa1: case 0xa2: case 0xa3: return (struct form){ false, IMM_MOFFS };
	case 0xc2: case 0xca: return (struct form){ false, IMM_16 };
	case 0xc8: return (struct form){ false, IMM_16_8 };
	case 0xf6: case 0xf7:	/* test r/m, imm: the group's /0 and /1 */
		return (struct form){ true, ((modrm >> 3) & 7) < 2 ? (op == 0xf6 ? IMM_8 : IMM_Z) : IMM_NONE };
	default:
		return (struct form){ false, IMM_NONE };
	}
}

/* The two-byte map (0f xx). */
static struct form form2(uint8_t op)
{
	if (op >= 0x80 && op <= 0x8f)	/* jcc rel32 */
		return (struct form){ false, IMM_Z };
	if ((op >= 0x30 && op <= 0x37) || (op >= 0xc8 && op <= 0xcf))	/* msr, sysenter, bswap */
		return (struct form){ false, IMM_NONE };
	switch (op) {
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b: case 0x0e: case 0x77:
	case 0xa0: case 0xa1: case 0xa2: case 0xa8: case 0xa9: case 0xaa:
		return (struct form){ false, IMM_NONE };
	case 0x0f:	/* 3DNow!: an imm8 suffix names the operation */
	case 0x70: case 0x71: case 0x72: case 0x73: case 0xa4: case 0xac: case 0xba:
	case 0xc2: case 0xc4: case 0xc5: case 0xc6:
		return (struct form){ true, IMM_8 };
	default:
		return (struct form){ true, IMM_NONE };
	}
}

/* A VEX or EVEX opcode of map `map` (1: 0f, 2: 0f38, 3: 0f3a, 5 and 6: FP16). */
static struct form form_vex(int map, uint8_t op)
{
	bool imm = map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
					     (op >= 0xc4 && op <= 0xc6)));

	return (struct form){ true, imm ? IMM_8 : IMM_NONE };
}

static bool is_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3: case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64:
	case 0x65: case 0x66: case 0x67:
		return true;
	default:
		return false;
	}
}

/* The bytes ModRM (at b[0]) adds, SIB and displacement included; -1 past n. */
static int modrm_len(const uint8_t *b, size_t n)
{
	int mod = b[0] >> 6, rm = b[0] & 7, len = 1;

	if (mod == 3)
		return 1;
	if (rm == 4) {	/* SIB */
		if (n < 2)
			return -1;
		len++;
		if (mod == 0 && (b[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {	/* rip-relative */
		len += 4;
	}
	return len + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

int script_insn_len(const uint8_t *b, size_t n)
{
	size_t i = 0;
	bool opsize = false, adsize = false, rex_w = false;
	struct form fm;
	int map = 0, m;
	uint8_t op;

	if (n > MAX_LEN)
		n = MAX_LEN;
	/* legacy prefixes */
	for (; i < n && is_prefix(b[i]); i++) {
		opsize |= b[i] == 0x66;
		adsize |= b[i] == 0x67;
	}
	if (i < n && (b[i] & 0xf0) == 0x40)	/* REX */
		rex_w = b[i++] & 8;
	if (i >= n)
		return -1;
	if (b[i] == 0xc4 || b[i] == 0xc5 || b[i] == 0x62) {
		/* VEX3 (c4 RXBmmmmm WvvvvLpp), VEX2 (c5 RvvvvLpp), EVEX (62 P0 P1 P2) */
		size_t extra = b[i] == 0xc5 ? 1 : b[i] == 0xc4 ? 2 : 3;

		if (i + extra + 1 >= n)
			return -1;
		map = b[i] == 0xc5 ? 1 : b[i + 1] & (b[i] == 0xc4 ? 0x1f : 0x07);
		i += extra + 1;
		op = b[i++];
		fm = form_vex(map, op);
	} else if (b[i] == 0x0f) {
		if (++i >= n)
			return -1;
		map = b[i] == 0x38 ? 2 : b[i] == 0x3a ? 3 : 1;
		if (map > 1 && ++i >= n)
			return -1;
		op = b[i++];
		fm = map == 1 ? form2(op) : (struct form){ true, map == 3 ? IMM_8 : IMM_NONE };
	} else {
		op = b[i++];
		fm = form1(op, i < n ? b[i] : 0);
	}
	if (fm.modrm) {
		if (i >= n || (m = modrm_len(b + i, n - i)) < 0)
			return -1;
		i += (size_t)m;
	}
	switch (fm.imm) {
	case IMM_8: i += 1; break;
	case IMM_16: i += 2; break;
	case IMM_16_8: i += 3; break;
	case IMM_Z:	/* 16 bits with 66, but where 64-bit mode forces the size: call, jmp, jcc */
		i += opsize && !rex_w && !(map == 0 && (op == 0xe8 || op == 0xe9)) && map != 1 ? 2 : 4;
		break;
	case IMM_V: i += rex_w ? 8 : opsize ? 2 : 4; break;
	case IMM_MOFFS: i += adsize ? 4 : 8; break;
	case IMM_NONE: break;
	}
	return i <= n ? (int)i : -1;
}
