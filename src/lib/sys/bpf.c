/* SPDX-License-Identifier: MIT */
/*
 * bpf.c - the library's one use of bpf(2): walking the ids of the BPF
 * programs loaded in the kernel, and reading each one's struct
 * bpf_prog_info with the arrays perf keeps (its jited symbols and their
 * lengths, tags, function and line info, jited code) and the BTF it was
 * loaded with, which perf.data's BPF_PROG_INFO and BPF_BTF features carry
 * and its KSYMBOL records name.  Kept in sys/ with the other syscalls, so
 * no other layer issues one.
 */
#include "sys/sys.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

int pk__sys_bpf_prog_next_id(uint32_t id, uint32_t *next)
{
	union bpf_attr a;

	/* The kernel insists that the bytes past the command's fields are 0. */
	memset(&a, 0, sizeof(a));
	a.start_id = id;
	if (bpf(BPF_PROG_GET_NEXT_ID, &a) < 0)
		return -errno;
	*next = a.next_id;
	return 0;
}

/* An fd for program or BTF `id` (cmd BPF_PROG/BTF_GET_FD_BY_ID), or -errno. */
static int fd_by_id(int cmd, uint32_t id)
{
	union bpf_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	if (cmd == BPF_PROG_GET_FD_BY_ID)
		a.prog_id = id;
	else
		a.btf_id = id;
	fd = bpf(cmd, &a);
	return fd < 0 ? -errno : (int)fd;
}

/* BPF_OBJ_GET_INFO_BY_FD into info (*len bytes in, the kernel's out). */
static int info_by_fd(int fd, void *info, uint32_t *len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = *len;
	a.info.info = (uint64_t)(uintptr_t)info;
	if (bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return -errno;
	*len = a.info.info_len;
	return 0;
}

/* One array perf asks for: where its pointer, count and record size sit in
 * struct bpf_prog_info (size_off 0: fixed records of `size` bytes). */
struct bpil_array {
	uint16_t ptr_off, count_off, size_off, size;
};

#define OFF(f) ((uint16_t)offsetof(struct bpf_prog_info, f))
static const struct bpil_array bpil_arrays[PK__BPIL_NR] = {
	[PK__BPIL_JITED_INSNS] = { OFF(jited_prog_insns), OFF(jited_prog_len), 0, 1 },
	[PK__BPIL_XLATED_INSNS] = { OFF(xlated_prog_insns), OFF(xlated_prog_len), 0, 1 },
	[PK__BPIL_MAP_IDS] = { OFF(map_ids), OFF(nr_map_ids), 0, 4 },
	[PK__BPIL_JITED_KSYMS] = { OFF(jited_ksyms), OFF(nr_jited_ksyms), 0, 8 },
	[PK__BPIL_JITED_FUNC_LENS] = { OFF(jited_func_lens), OFF(nr_jited_func_lens), 0, 4 },
	[PK__BPIL_FUNC_INFO] = { OFF(func_info), OFF(nr_func_info), OFF(func_info_rec_size), 0 },
	[PK__BPIL_LINE_INFO] = { OFF(line_info), OFF(nr_line_info), OFF(line_info_rec_size), 0 },
	[PK__BPIL_JITED_LINE_INFO] = { OFF(jited_line_info), OFF(nr_jited_line_info),
				       OFF(jited_line_info_rec_size), 0 },
	[PK__BPIL_PROG_TAGS] = { OFF(prog_tags), OFF(nr_prog_tags), 0, BPF_TAG_SIZE },
};
#undef OFF

static uint32_t get32(const void *info, uint16_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)info + off, 4);
	return v;
}

static void set32(void *info, uint16_t off, uint32_t v) { memcpy((char *)info + off, &v, 4); }
static void set64(void *info, uint16_t off, uint64_t v) { memcpy((char *)info + off, &v, 8); }

static uint32_t array_bytes(const struct bpil_array *d, const void *info)
{
	uint32_t size = d->size_off ? get32(info, d->size_off) : d->size;
	uint64_t n = (uint64_t)get32(info, d->count_off) * size;

	return n > (1u << 28) ? 0 : (uint32_t)((n + 7) & ~7ull);
}

/* The second call: point each wanted array into p->data. */
static int fetch_arrays(int fd, struct pk__bpf_prog *p, const struct bpf_prog_info *dims)
{
	struct bpf_prog_info *info = (struct bpf_prog_info *)p->info;
	uint32_t off = 0, len = sizeof(*info);
	int err;

	memset(info, 0, sizeof(*info));
	for (int i = 0; i < PK__BPIL_NR; i++) {
		const struct bpil_array *d = &bpil_arrays[i];

		if (!(p->arrays & (1ull << i)))
			continue;
		set32(info, d->count_off, get32(dims, d->count_off));
		if (d->size_off)
			set32(info, d->size_off, get32(dims, d->size_off));
		set64(info, d->ptr_off, (uint64_t)(uintptr_t)(p->data + off));
		off += array_bytes(d, dims);
	}
	if ((err = info_by_fd(fd, info, &len)) < 0)
		return err;
	/* In the file, as perf writes them: offsets into the data. */
	off = 0;
	for (int i = 0; i < PK__BPIL_NR; i++) {
		if (!(p->arrays & (1ull << i)))
			continue;
		set64(info, bpil_arrays[i].ptr_off, off);
		off += array_bytes(&bpil_arrays[i], dims);
	}
	return 0;
}

int pk__sys_bpf_prog_info(uint32_t id, uint64_t arrays, struct pk__bpf_prog **out)
{
	struct bpf_prog_info dims;
	uint32_t len = sizeof(dims), data_len = 0;
	struct pk__bpf_prog *p;
	int fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, id), err;

	_Static_assert(sizeof(dims) <= sizeof(p->info), "pk__bpf_prog holds a bpf_prog_info");
	if (fd < 0)
		return fd;
	memset(&dims, 0, sizeof(dims));
	if ((err = info_by_fd(fd, &dims, &len)) < 0)
		goto out;
	for (int i = 0; i < PK__BPIL_NR; i++) {
		const struct bpil_array *d = &bpil_arrays[i];
		uint32_t need = (d->size_off > d->count_off ? d->size_off : d->count_off) + 4u;

		if (len < need || len < d->ptr_off + 8u)	/* an older kernel's info */
			arrays &= ~(1ull << i);
		else if (arrays & (1ull << i))
			data_len += array_bytes(d, &dims);
	}
	err = -ENOMEM;
	if (!(p = pk__calloc(1, sizeof(*p) + data_len)))
		goto out;
	p->info_len = sizeof(struct bpf_prog_info);
	p->data_len = data_len;
	p->arrays = arrays;
	if ((err = fetch_arrays(fd, p, &dims)) < 0)
		free(p);
	else
		*out = p;
out:
	close(fd);
	return err;
}

int pk__sys_bpf_btf(uint32_t id, void **data, uint32_t *size)
{
	struct bpf_btf_info info;
	uint32_t len = sizeof(info);
	int fd = fd_by_id(BPF_BTF_GET_FD_BY_ID, id), err;
	void *p = NULL;

	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	if ((err = info_by_fd(fd, &info, &len)) < 0)
		goto out;
	err = info.btf_size ? -ENOMEM : -ENOENT;
	/* Zeroed, though the kernel fills every byte (the size is checked
	 * below): it writes through info.btf, a pointer inside the info that
	 * valgrind's bpf(2) wrapper does not follow, so to memcheck a malloc'd
	 * blob stays uninitialised all the way into perf.data's BPF_BTF. */
	if (!info.btf_size || !(p = pk__calloc(1, info.btf_size)))
		goto out;
	*size = info.btf_size;
	memset(&info, 0, sizeof(info));
	info.btf = (uint64_t)(uintptr_t)p;
	info.btf_size = *size;
	len = sizeof(info);
	if ((err = info_by_fd(fd, &info, &len)) < 0 || info.btf_size != *size) {
		err = err < 0 ? err : -EAGAIN;
		free(p);
		goto out;
	}
	*data = p;
out:
	close(fd);
	return err;
}
