/* SPDX-License-Identifier: MIT */
/*
 * bpf-busy.c - a test helper that keeps the CPU inside a JIT-compiled BPF
 * program, so a system-wide recording has samples there: it loads
 * "pk_busy", a socket filter of a few thousand straight-line instructions,
 * prints its program id, then runs it through BPF_PROG_TEST_RUN (many
 * repeats a call) until its standard input closes: the test's handshake.
 * Given a number of milliseconds, it runs that long instead and exits,
 * which unloads the program (for a recording that sees it come and go).
 * Exit 77 when the kernel will not load or run it (no CAP_SYS_ADMIN, no
 * bpf(2)).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf-test.h"

#define NR_STEPS 2000	/* pairs of ALU instructions: well under the verifier's limit */

static struct bpf_insn insns[2 * NR_STEPS + 4];

/* r0 = 0; r1 = 0; NR_STEPS x (r1 += 3; r0 ^= r1); r0 = 0; exit */
static int load(void)
{
	union bpf_attr a;
	size_t n = 0;

	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 };
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 0 };
	for (int i = 0; i < NR_STEPS; i++) {
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 3 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_XOR | BPF_X, .dst_reg = 0,
						.src_reg = 1 };
	}
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 };
	insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t)"Dual MIT/GPL";
	strncpy(a.prog_name, "pk_busy", sizeof(a.prog_name) - 1);
	return sys_bpf(BPF_PROG_LOAD, &a);
}

/* One BPF_PROG_TEST_RUN of `repeat` runs on an Ethernet-sized packet. */
static int run(int fd, uint32_t repeat)
{
	static unsigned char packet[64];
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (uint32_t)fd;
	a.test.data_in = (uint64_t)(uintptr_t)packet;
	a.test.data_size_in = sizeof(packet);
	a.test.repeat = repeat;
	return sys_bpf(BPF_PROG_TEST_RUN, &a);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct pollfd in = { .fd = 0, .events = POLLIN };
	int fd = load();
	double end;

	if (fd < 0 || run(fd, 1) < 0) {
		fprintf(stderr, "bpf-busy: cannot %s pk_busy: %s\n", fd < 0 ? "load" : "run",
			strerror(errno));
		return 77;
	}
	printf("%u\n", prog_id(fd));
	fflush(stdout);
	if (argc > 1) {
		for (end = now_ms() + atof(argv[1]); now_ms() < end;)
			if (run(fd, 2000) < 0)
				return 1;
		return 0;
	}
	/* Until the test closes our input (POLLHUP, or EOF to read). */
	while (poll(&in, 1, 0) == 0)
		if (run(fd, 2000) < 0) {
			fprintf(stderr, "bpf-busy: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
			return 1;
		}
	return 0;
}
