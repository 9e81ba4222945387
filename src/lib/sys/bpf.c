/* SPDX-License-Identifier: MIT */
/*
 * bpf.c - the library's one use of bpf(2): walking the ids of the BPF
 * programs loaded in the kernel, which perf.data's BPF_PROG_INFO feature
 * describes.  Kept in sys/ with the other syscalls, so no other layer
 * issues one.
 */
#include "sys/sys.h"

#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int pk__sys_bpf_prog_next_id(uint32_t id, uint32_t *next)
{
	union bpf_attr a;

	/* The kernel insists that the bytes past the command's fields are 0. */
	memset(&a, 0, sizeof(a));
	a.start_id = id;
	if (syscall(__NR_bpf, BPF_PROG_GET_NEXT_ID, &a, sizeof(a)) < 0)
		return -errno;
	*next = a.next_id;
	return 0;
}
