/* SPDX-License-Identifier: MIT */
/*
 * features-bpf.c - the payloads of perf.data's BPF_PROG_INFO and BPF_BTF
 * features, as perf 6.1 writes them (util/header.c): a u32 count, then for
 * each BPF program perf describes (record/btf.c says which) its framing
 * (info_len, data_len, the arrays mask), its struct bpf_prog_info with the
 * array pointers made offsets, and the arrays; and for BTF, each BTF id
 * those programs' function info uses, in id order: id, size, the raw BTF.
 * Both are read from the kernel when the file is written (sys/bpf.c).
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
