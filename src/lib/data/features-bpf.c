/* SPDX-License-Identifier: MIT */
/*
 * features-bpf.c - the payloads of perf.data's BPF_PROG_INFO and BPF_BTF
 * features, as perf 6.1 writes them (util/header.c): a u32 count, then for
 * each BPF program perf describes (record/btf.c says which) its framing
 * (info_len, data_len, the arrays mask), its struct bpf_prog_info with the
 * array pointers made offsets, and the arrays; and for BTF, each BTF id
 * those programs' function info uses, in id order: id, size, the raw BTF.
 * Both are read from the kernel when the file is written (sys/bpf.c).
 * And, reading, each described function's name, address and size, as
 * perf's header prints them.
 */
#include "data.h"
#include "record/record.h"
#include "sys/sys.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

/* The programs perf would describe, in id order. */
struct progs {
	struct pk__bpf_prog **v;
	uint32_t nr;
};

static void progs_free(struct progs *ps)
{
	for (uint32_t i = 0; i < ps->nr; i++)
		free(ps->v[i]);
	free(ps->v);
}

static int progs_read(struct progs *ps)
{
	uint32_t id = 0, cap = 0;

	while (pk__sys_bpf_prog_next_id(id, &id) == 0) {
		struct pk__bpf_prog *p;
		int err = pk__sys_bpf_prog_info(id, PK__BPIL_PERF, &p);

		if (err == -ENOMEM)
			return err;
		if (err < 0)
			continue;	/* unloaded since, or not ours to see */
		if (!pk__bpf_prog_described(p)) {
			free(p);
			continue;
		}
		if (ps->nr == cap) {
			struct pk__bpf_prog **v = pk__reallocarray(ps->v, cap * 2 + 8, sizeof(*v));

			if (!v) {
				free(p);
				return -ENOMEM;
			}
			ps->v = v;
			cap = cap * 2 + 8;
		}
		ps->v[ps->nr++] = p;
	}
	return 0;	/* the end of the list, or no right to walk it: perf writes 0 */
}

static void prog_infos(const struct progs *ps, pk__data_put_fn put, void *b)
{
	put(b, &ps->nr, 4);
	for (uint32_t i = 0; i < ps->nr; i++) {
		const struct pk__bpf_prog *p = ps->v[i];

		put(b, &p->info_len, 4);
		put(b, &p->data_len, 4);
		put(b, &p->arrays, 8);
		put(b, p->info, p->info_len);
		put(b, p->data, p->data_len);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Each BTF once; one the kernel has dropped since is left out. */
static int btfs(const struct progs *ps, pk__data_put_fn put, void *b)
{
	uint32_t *ids = pk__calloc(ps->nr + 1, sizeof(*ids)), nr = 0, written = 0;
	void **data = pk__calloc(ps->nr + 1, sizeof(*data));
	uint32_t *sizes = pk__calloc(ps->nr + 1, sizeof(*sizes));
	int err = ids && data && sizes ? 0 : -ENOMEM;

	for (uint32_t i = 0; !err && i < ps->nr; i++) {
		const struct bpf_prog_info *info = (const void *)ps->v[i]->info;

		if (pk__bpf_prog_has_btf(ps->v[i]))
			ids[nr++] = info->btf_id;
	}
	if (!err)
		qsort(ids, nr, sizeof(*ids), cmp_u32);
	for (uint32_t i = 0; !err && i < nr; i++) {
		if (i && ids[i] == ids[i - 1])
			continue;
		err = pk__sys_bpf_btf(ids[i], &data[written], &sizes[written]);
		if (!err)
			ids[written++] = ids[i];	/* written <= i: kept in place */
		else if (err != -ENOMEM)
			err = 0;
	}
	if (!err) {
		put(b, &written, 4);
		for (uint32_t i = 0; i < written; i++) {
			put(b, &ids[i], 4);
			put(b, &sizes[i], 4);
			put(b, data[i], sizes[i]);
		}
	}
	for (uint32_t i = 0; data && i < written; i++)
		free(data[i]);
	free(ids);
	free(data);
	free(sizes);
	return err;
}

int pk__data_bpf_feature(int btf, pk__data_put_fn put, void *b)
{
	struct progs ps = { NULL, 0 };
	int err = progs_read(&ps);

	if (!err && !btf)
		prog_infos(&ps, put, b);
	else if (!err)
		err = btfs(&ps, put, b);
	progs_free(&ps);
	return err;
}

/* The BTF blob of id `id` in the file's BPF_BTF, as perf's env finds it. */
static const struct pk_feature_btf *btf_of(const struct pk_feature_btfs *btfs, uint32_t id)
{
	for (uint32_t i = 0; btfs && id && i < btfs->nr; i++)
		if (btfs->btfs[i].id == id && btfs->btfs[i].data)
			return &btfs->btfs[i];
	return NULL;
}

/* The feature's program as the kernel's: info (zero-extended) and arrays. */
static struct pk__bpf_prog *prog_copy(const struct pk_feature_bpf_prog *p)
{
	struct pk__bpf_prog *bp = calloc(1, sizeof(*bp) + p->data_len);
	size_t info_len = p->info_len < sizeof(bp->info) ? p->info_len : sizeof(bp->info);

	if (!bp)
		return NULL;
	bp->info_len = p->info_len;
	bp->data_len = p->data_len;
	bp->arrays = p->arrays;
	memcpy(bp->info, p->info, info_len);
	if (p->data_len)
		memcpy(bp->data, p->data, p->data_len);
	return bp;
}

static int func_fill(const struct pk__bpf_prog *bp, const struct pk_feature_btfs *btfs, uint32_t sub,
		     struct pk_feature_bpf_func *out)
{
	const struct bpf_prog_info *info = (const void *)bp->info;
	uint32_t n = info->nr_jited_ksyms;
	const unsigned char *addrs = pk__bpf_prog_array(bp, info->jited_ksyms, 8ull * n);
	const unsigned char *lens = pk__bpf_prog_array(bp, info->jited_func_lens, 4ull * n);
	const struct pk_feature_btf *btf = btf_of(btfs, info->btf_id);

	/* perf's __bpf_event__print_bpf_prog_info: counts that disagree, nothing */
	if (n != info->nr_prog_tags || n != info->nr_jited_func_lens)
		return 0;
	if (sub >= n)
		return pk__error(-ENOENT, "naming a BPF function", "program %u has %u functions, not %u",
				 (unsigned int)info->id, (unsigned int)n, (unsigned int)sub + 1);
	if (!addrs || !lens)
		return pk__error(-EINVAL, "naming a BPF function",
				 "program %u's symbol addresses or lengths run past its data", (unsigned int)info->id);
	if (pk__bpf_func_name(bp, btf ? btf->data : NULL, btf ? btf->data_size : 0, sub, out->name,
			      sizeof(out->name)) < 0)
		return pk__error(-EINVAL, "naming a BPF function",
				 "program %u's tags or BTF function info do not name function %u",
				 (unsigned int)info->id, (unsigned int)sub);
	memcpy(&out->addr, addrs + 8ull * sub, 8);
	memcpy(&out->len, lens + 4ull * sub, 4);
	return (int)n;
}

int pk_feature_bpf_prog_func(const struct pk_feature_bpf_prog *p, const struct pk_feature_btfs *btfs,
			     uint32_t sub, struct pk_feature_bpf_func *out)
{
	struct pk__bpf_prog *bp;
	struct pk_feature_bpf_func got;
	int ret;

	if (!p || !out || out->size < sizeof(*out) || !p->info || (p->data_len && !p->data))
		return pk__error(-EINVAL, "naming a BPF function", "no program, or out->size too small");
	if (!(bp = prog_copy(p)))
		return pk__error_nomem("a BPF program's info");
	got.size = out->size;
	ret = func_fill(bp, btfs, sub, &got);
	free(bp);
	if (ret > 0)
		*out = got;
	return ret;
}
