/* SPDX-License-Identifier: MIT */
/*
 * bpf-test.h - bpf(2) and a loaded program's id, for the test helpers that
 * load BPF programs (bpf-load.c, bpf-busy.c).
 */
#ifndef PK_TESTS_BPF_TEST_H
#define PK_TESTS_BPF_TEST_H

#include <linux/bpf.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int sys_bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* The id of program fd, or 0. */
static inline uint32_t prog_id(int fd)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0 ? 0 : info.id;
}

#endif
