/* SPDX-License-Identifier: MIT */
/*
 * bpf-load.c - a test helper that keeps two BPF programs loaded while a
 * test records: "pk_plain", a socket filter without BTF, and one whose BTF
 * function info names its function "pk_btf_func_long_name" (a BTF blob
 * built here: int, a prototype, the function).  Each is `r0 = 0; exit`.
 * It prints "<plain id> <with-BTF id> <BTF id>" when both are loaded and exits when its
 * standard input closes: the test's handshake.  Exit 77 when the kernel
 * will not load them (no CAP_SYS_ADMIN, no bpf(2)).
 *
 * `bpf-load flash` loads the same two (the plain one named "pk_flash"),
 * prints the ids, unloads them at the first line its standard input gives,
 * prints "gone" when they are, and exits when its input closes: a program
 * loaded and unloaded at once, at the moment the test chooses.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf-test.h"

static const char strings[] = "\0int\0pk_btf_func_long_name";

/* The BTF: header, three types, the strings. */
struct btf_blob {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint32_t types[3 + 1 + 3 + 3];
	char str[sizeof(strings)];
} __attribute__((packed));

static int load_btf(void)
{
	struct btf_blob b = {
		.magic = 0xeB9F, .version = 1, .hdr_len = 24,
		.type_len = sizeof(b.types), .str_off = sizeof(b.types), .str_len = sizeof(strings),
		.types = {
			1, 1u << 24, 4, 0x01000020,	/* 1: int, signed, 32 bits */
			0, 13u << 24, 1,		/* 2: int (void) */
			5, 12u << 24, 2,		/* 3: static pk_btf_func_long_name */
		},
	};
	union bpf_attr a;

	memcpy(b.str, strings, sizeof(strings));
	memset(&a, 0, sizeof(a));
	a.btf = (uint64_t)(uintptr_t)&b;
	a.btf_size = sizeof(b);
	return sys_bpf(BPF_BTF_LOAD, &a);
}

static int load_prog(const char *name, int btf_fd)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_func_info fi = { .insn_off = 0, .type_id = 3 };
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)"Dual MIT/GPL";
	strncpy(a.prog_name, name, sizeof(a.prog_name) - 1);
	if (btf_fd >= 0) {
		a.prog_btf_fd = (uint32_t)btf_fd;
		a.func_info = (uint64_t)(uintptr_t)&fi;
		a.func_info_cnt = 1;
		a.func_info_rec_size = sizeof(fi);
	}
	return sys_bpf(BPF_PROG_LOAD, &a);
}

/* The id of BTF object fd. */
static uint32_t btf_id(int fd)
{
	struct bpf_btf_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0 ? 0 : info.id;
}

int main(int argc, char **argv)
{
	bool flash = argc > 1 && !strcmp(argv[1], "flash");
	int plain = load_prog(flash ? "pk_flash" : "pk_plain", -1), btf = load_btf(), with_btf;
	char c;

	if (plain < 0 || btf < 0) {
		fprintf(stderr, "bpf-load: cannot load: %s\n", strerror(errno));
		return 77;
	}
	with_btf = load_prog("pk_btf", btf);
	if (with_btf < 0) {
		fprintf(stderr, "bpf-load: cannot load with BTF: %s\n", strerror(errno));
		return 1;
	}
	printf("%u %u %u\n", prog_id(plain), prog_id(with_btf), btf_id(btf));
	fflush(stdout);
	while (flash && read(0, &c, 1) > 0 && c != '\n')
		;
	if (flash) {
		/* The programs go with their last fd; the BTF with the programs. */
		close(with_btf);
		close(plain);
		close(btf);
		printf("gone\n");
		fflush(stdout);
	}
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
