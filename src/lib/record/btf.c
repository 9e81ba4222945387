/* SPDX-License-Identifier: MIT */
/*
 * btf.c - the one thing perfkit reads in BTF (the kernel's type format,
 * Documentation/bpf/btf.rst): the name of a type by its id, which is how
 * perf names a BPF function whose program came with BTF function info
 * (bpf_prog_<tag>_<name>).  The blob comes from the kernel or a file:
 * every offset and size is checked against it.  And perf's name for each
 * of a program's jited functions, which uses it.
 */
#include "record/record.h"
#include "sys/sys.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BTF_MAGIC 0xeB9F

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The bytes that follow a type's 12-byte head, by kind; -1 for unknown. */
static int64_t kind_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case 1: case 14: case 17: return 4;			/* INT, VAR, DECL_TAG */
	case 2: case 7: case 8: case 9: case 10: case 11:	/* PTR .. RESTRICT */
	case 12: case 16: case 18: return 0;			/* FUNC, FLOAT, TYPE_TAG */
	case 3: return 12;					/* ARRAY */
	case 4: case 5: case 15: case 19: return 12ll * vlen;	/* STRUCT, UNION, DATASEC, ENUM64 */
	case 6: case 13: return 8ll * vlen;			/* ENUM, FUNC_PROTO */
	default: return -1;
	}
}

const char *pk__btf_type_name(const void *btf, size_t len, uint32_t type_id)
{
	const unsigned char *b = btf;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	uint64_t pos, end;

	if (len < 24 || (b[0] | b[1] << 8) != BTF_MAGIC || type_id == 0)
		return NULL;
	hdr_len = u32_at(b + 4);
	type_off = u32_at(b + 8);
	type_len = u32_at(b + 12);
	str_off = u32_at(b + 16);
	str_len = u32_at(b + 20);
	pos = (uint64_t)hdr_len + type_off;
	end = pos + type_len;
	if (hdr_len < 24 || end > len || (uint64_t)hdr_len + str_off + str_len > len || !str_len)
		return NULL;
	for (uint32_t id = 1; id <= type_id; id++) {
		int64_t extra;

		if (pos + 12 > end)
			return NULL;
		name_off = u32_at(b + pos);
		extra = kind_extra((u32_at(b + pos + 4) >> 24) & 0x1f, u32_at(b + pos + 4) & 0xffff);
		if (extra < 0)
			return NULL;
		pos += 12 + (uint64_t)extra;
	}
	if (pos > end || name_off >= str_len)
		return NULL;
	b += hdr_len + str_off;
	/* The string must end inside the string section. */
	return memchr(b + name_off, 0, str_len - name_off) ? (const char *)b + name_off : NULL;
}

const void *pk__bpf_prog_array(const struct pk__bpf_prog *p, uint64_t off, uint64_t bytes)
{
	return off <= p->data_len && bytes <= p->data_len - off ? p->data + off : NULL;
}

int pk__bpf_func_name(const struct pk__bpf_prog *p, const void *btf, size_t btf_len,
		      uint32_t sub, char *buf, size_t n)
{
	const struct bpf_prog_info *info = (const void *)p->info;
	const unsigned char *tag = pk__bpf_prog_array(p, info->prog_tags,
						       (uint64_t)(sub + 1ull) * BPF_TAG_SIZE);
	const char *name = NULL;
	int len;

	if (!tag || sub >= info->nr_prog_tags)
		return -EINVAL;
	tag += (size_t)sub * BPF_TAG_SIZE;
	if (btf) {
		uint32_t rec = info->func_info_rec_size;
		const unsigned char *fi = pk__bpf_prog_array(p, info->func_info, (sub + 1ull) * rec);
		uint32_t type_id;

		if (!fi || rec < 8 || sub >= info->nr_func_info)
			return -EINVAL;
		memcpy(&type_id, fi + (size_t)sub * rec + 4, 4);	/* bpf_func_info.type_id */
		if (!(name = pk__btf_type_name(btf, btf_len, type_id)))
			return -EINVAL;
	} else if (sub == 0 && info->nr_jited_ksyms == 1) {
		name = info->name[0] ? info->name : NULL;
	} else {
		name = "F";
	}
	len = snprintf(buf, n, "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x%s%.*s", tag[0], tag[1],
		       tag[2], tag[3], tag[4], tag[5], tag[6], tag[7], name ? "_" : "",
		       (int)(name ? strnlen(name, name == info->name ? sizeof(info->name) : n) : 0),
		       name ? name : "");
	return len < 0 || (size_t)len >= n ? -EINVAL : len;
}

bool pk__bpf_prog_described(const struct pk__bpf_prog *p)
{
	const struct bpf_prog_info *info = (const void *)p->info;
	uint32_t n = info->nr_jited_ksyms;

	if (!n || !(p->arrays & (1ull << PK__BPIL_JITED_KSYMS)) || n != info->nr_prog_tags ||
	    n != info->nr_jited_func_lens)
		return false;
	return !pk__bpf_prog_has_btf(p) || n == info->nr_func_info;
}

bool pk__bpf_prog_has_btf(const struct pk__bpf_prog *p)
{
	const struct bpf_prog_info *info = (const void *)p->info;

	return info->btf_id && info->nr_func_info && info->func_info_rec_size;
}
