/* SPDX-License-Identifier: MIT */
/*
 * bpf-tramp.c - a test helper that makes the kernel run BPF code it built
 * itself, a trampoline or a dispatcher, a great deal, so a system-wide
 * recording has samples in it.
 *
 * `bpf-tramp fentry N`: finds the kernel function __do_sys_getpid in the
 * kernel's own BTF (/sys/kernel/btf/vmlinux), loads "pk_fentry", an fentry
 * program (`r0 = 0; exit`) on it, attaches it (the kernel then makes
 * bpf_trampoline_<key> and announces it with a KSYMBOL record), and calls
 * getpid(2) N times before it exits, which takes the trampoline away.
 *
 * `bpf-tramp xdp N`: makes a tap device of its own (gone when it exits),
 * loads "pk_xdp" (`r0 = XDP_PASS; exit`), attaches it to the device in
 * generic mode (the kernel then
 * routes XDP programs through its dispatcher, bpf_dispatcher_xdp, made
 * and announced the first time), and runs it N times through
 * BPF_PROG_TEST_RUN, which calls it through the dispatcher.
 *
 * Exit 77, saying why, when the kernel will not do it (no CAP_SYS_ADMIN,
 * no BTF, no JIT, fentry not allowed here, not x86-64).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf-test.h"

#define TARGET "__do_sys_getpid"

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The bytes after a type's 12-byte head (Documentation/bpf/btf.rst), or -1. */
static long extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case 1: case 14: case 17: return 4;
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18: return 0;
	case 3: return 12;
	case 4: case 5: case 15: case 19: return 12L * vlen;
	case 6: case 13: return 8L * vlen;
	default: return -1;
	}
}

/* The id of FUNC `name` in BTF blob b of len bytes, or 0. */
static uint32_t func_id(const unsigned char *b, size_t len, const char *name)
{
	uint32_t hdr = u32_at(b + 4), toff = u32_at(b + 8), tlen = u32_at(b + 12);
	uint32_t soff = u32_at(b + 16), slen = u32_at(b + 20);
	size_t pos = (size_t)hdr + toff, end = pos + tlen;
	const char *str = (const char *)b + hdr + soff;

	if (len < 24 || end > len || (size_t)hdr + soff + slen > len)
		return 0;
	for (uint32_t id = 1; pos + 12 <= end; id++) {
		uint32_t name_off = u32_at(b + pos), info = u32_at(b + pos + 4);
		long x = extra((info >> 24) & 0x1f, info & 0xffff);

		if (x < 0)
			return 0;
		if (((info >> 24) & 0x1f) == 12 && name_off < slen && !strcmp(str + name_off, name))
			return id;
		pos += 12 + (size_t)x;
	}
	return 0;
}

static unsigned char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t cap = 1 << 20, n = 0;
	unsigned char *b = malloc(cap);
	ssize_t r;

	if (fd < 0 || !b) {
		free(b);
		return NULL;
	}
	while ((r = read(fd, b + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap && !(b = realloc(b, cap *= 2)))
			break;
	}
	close(fd);
	*len = n;
	return b;
}

static int load_fentry(uint32_t btf_id)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = BPF_TRACE_FENTRY;
	a.attach_btf_id = btf_id;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)"Dual MIT/GPL";
	strncpy(a.prog_name, "pk_fentry", sizeof(a.prog_name) - 1);
	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int fentry(long n)
{
	size_t len = 0;
	unsigned char *btf = read_all("/sys/kernel/btf/vmlinux", &len);
	uint32_t id = btf ? func_id(btf, len, TARGET) : 0;
	union bpf_attr a;
	int prog, link;

	free(btf);
	if (!id) {
		fprintf(stderr, "bpf-tramp: no %s in /sys/kernel/btf/vmlinux\n", TARGET);
		return 77;
	}
	if ((prog = load_fentry(id)) < 0) {
		fprintf(stderr, "bpf-tramp: cannot load an fentry program: %s\n", strerror(errno));
		return 77;
	}
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = (uint32_t)prog;	/* no name: the program's own target */
	if ((link = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a)) < 0) {
		fprintf(stderr, "bpf-tramp: cannot attach it to %s: %s\n", TARGET, strerror(errno));
		return 77;
	}
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	close(link);
	close(prog);
	return 0;
}

/* A tap device that lives as long as this process: its ifindex, or -1. */
static int tap_device(void)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC), s;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	strncpy(ifr.ifr_name, "pkxdp%d", sizeof(ifr.ifr_name) - 1);
	if (fd < 0 || ioctl(fd, TUNSETIFF, &ifr) < 0)
		return -1;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || ioctl(s, SIOCGIFINDEX, &ifr) < 0)
		return -1;
	close(s);
	return ifr.ifr_ifindex;	/* fd stays open: the device with it */
}

static int xdp(long n)
{
	int ifindex = tap_device();
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;
	int prog, link;

	if (ifindex < 0) {
		fprintf(stderr, "bpf-tramp: cannot make a tap device: %s\n", strerror(errno));
		return 77;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_XDP;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)"Dual MIT/GPL";
	strncpy(a.prog_name, "pk_xdp", sizeof(a.prog_name) - 1);
	if ((prog = sys_bpf(BPF_PROG_LOAD, &a)) < 0) {
		fprintf(stderr, "bpf-tramp: cannot load an XDP program: %s\n", strerror(errno));
		return 77;
	}
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = (uint32_t)prog;
	a.link_create.target_ifindex = (uint32_t)ifindex;
	a.link_create.attach_type = BPF_XDP;
	a.link_create.flags = 1u << 1;	/* XDP_FLAGS_SKB_MODE: any device */
	if ((link = sys_bpf(BPF_LINK_CREATE, &a)) < 0) {
		fprintf(stderr, "bpf-tramp: cannot attach it to device %d: %s\n", ifindex, strerror(errno));
		return 77;
	}
	for (long done = 0; done < n; done += 100000) {
		memset(&a, 0, sizeof(a));
		a.test.prog_fd = (uint32_t)prog;
		a.test.data_in = (uint64_t)(uintptr_t)pkt;
		a.test.data_size_in = sizeof(pkt);
		a.test.repeat = 100000;
		if (sys_bpf(BPF_PROG_TEST_RUN, &a) < 0) {
			fprintf(stderr, "bpf-tramp: cannot run it: %s\n", strerror(errno));
			return 77;
		}
	}
	close(link);
	close(prog);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fentry"))
		return fentry(strtol(argv[2], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "xdp"))
		return xdp(strtol(argv[2], NULL, 10));
	fprintf(stderr, "usage: bpf-tramp fentry N | bpf-tramp xdp N\n");
	return 2;
}
