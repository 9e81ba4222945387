/* SPDX-License-Identifier: MIT */
/*
 * features-bpf.c - the payloads of perf.data's BPF_PROG_INFO and BPF_BTF
 * features, as perf 6.1 writes them (util/header.c): a u32 count, then for
 * each BPF program its framing (info_len, data_len, the arrays mask), its
 * struct bpf_prog_info with the array pointers made offsets, and the
 * arrays; and for BTF, each BTF id kept, in id order: id, size, the raw
 * BTF.  Which programs, and when they are read, follow perf: those loaded
 * when the writer begins a file (perf_event__synthesize_bpf_events: only
 * the ones it describes, record/btf.c says which, with their BTF when
 * their function info uses one), then each one a BPF_EVENT PROG_LOAD
 * record passing through the writer names, read right then by id (perf's
 * side-band bpf_event__sb_cb: any program still there, with its BTF when
 * it has one; a program already gone is left out).  Programs unloaded
 * during the recording stay, as they do in perf's perf_env: their info
 * could not be read at the end.
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

struct btf_blob {
	uint32_t id, size;
	void *data;
};

/* Programs and BTFs, each sorted by id, each id once (the first read wins,
 * as perf's rbtree inserts do). */
struct pk__data_bpf {
	struct pk__bpf_prog **progs;
	uint32_t nr_progs, cap_progs;
	struct btf_blob *btfs;
	uint32_t nr_btfs, cap_btfs;
};

static const struct bpf_prog_info *info_of(const struct pk__bpf_prog *p)
{
	return (const void *)p->info;
}

/* The position of the first prog whose id is >= id. */
static uint32_t prog_pos(const struct pk__data_bpf *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->nr_progs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (info_of(s->progs[mid])->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t btf_pos(const struct pk__data_bpf *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->nr_btfs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->btfs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool have_prog(const struct pk__data_bpf *s, uint32_t id)
{
	uint32_t i = prog_pos(s, id);

	return i < s->nr_progs && info_of(s->progs[i])->id == id;
}

/* Takes p (freed on failure): 0 or -ENOMEM. */
static int insert_prog(struct pk__data_bpf *s, struct pk__bpf_prog *p)
{
	uint32_t i = prog_pos(s, info_of(p)->id);

	if (i < s->nr_progs && info_of(s->progs[i])->id == info_of(p)->id) {
		free(p);
		return 0;
	}
	if (s->nr_progs == s->cap_progs) {
		struct pk__bpf_prog **v = pk__reallocarray(s->progs, s->cap_progs * 2 + 8, sizeof(*v));

		if (!v) {
			free(p);
			return -ENOMEM;
		}
		s->progs = v;
		s->cap_progs = s->cap_progs * 2 + 8;
	}
	memmove(&s->progs[i + 1], &s->progs[i], (s->nr_progs - i) * sizeof(*s->progs));
	s->progs[i] = p;
	s->nr_progs++;
	return 0;
}

/* Reads BTF object id unless it is kept already; one the kernel has
 * dropped is left out.  0 or -ENOMEM. */
static int insert_btf(struct pk__data_bpf *s, uint32_t id)
{
	uint32_t i = btf_pos(s, id);
	struct btf_blob b = { id, 0, NULL };
	int err;

	if (i < s->nr_btfs && s->btfs[i].id == id)
		return 0;
	err = pk__sys_bpf_btf(id, &b.data, &b.size);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (s->nr_btfs == s->cap_btfs) {
		struct btf_blob *v = pk__reallocarray(s->btfs, s->cap_btfs * 2 + 8, sizeof(*v));

		if (!v) {
			free(b.data);
			return -ENOMEM;
		}
		s->btfs = v;
		s->cap_btfs = s->cap_btfs * 2 + 8;
	}
	memmove(&s->btfs[i + 1], &s->btfs[i], (s->nr_btfs - i) * sizeof(*s->btfs));
	s->btfs[i] = b;
	s->nr_btfs++;
	return 0;
}

void pk__data_bpf_free(struct pk__data_bpf *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nr_progs; i++)
		free(s->progs[i]);
	for (uint32_t i = 0; i < s->nr_btfs; i++)
		free(s->btfs[i].data);
	free(s->progs);
	free(s->btfs);
	free(s);
}

/* The programs loaded now that perf describes, with their BTFs. */
static int snapshot(struct pk__data_bpf *s)
{
	uint32_t id = 0;

	while (pk__sys_bpf_prog_next_id(id, &id) == 0) {
		struct pk__bpf_prog *p;
		int err = pk__sys_bpf_prog_info(id, PK__BPIL_PERF, &p);
		uint32_t btf_id;

		if (err == -ENOMEM)
			return err;
		if (err < 0)
			continue;	/* unloaded since, or not ours to see */
		if (!pk__bpf_prog_described(p)) {
			free(p);
			continue;
		}
		btf_id = pk__bpf_prog_has_btf(p) ? info_of(p)->btf_id : 0;
		if ((err = insert_prog(s, p)) < 0 || (btf_id && (err = insert_btf(s, btf_id)) < 0))
			return err;
	}
	return 0;	/* the end of the list, or no right to walk it: perf writes 0 */
}

int pk__data_bpf_snapshot(struct pk__data_bpf **s)
{
	int err;

	if (!*s && !(*s = pk__calloc(1, sizeof(**s))))
		return pk__error_nomem("the BPF programs for perf.data's BPF features");
	if ((err = snapshot(*s)) < 0)
		return pk__error_nomem("the BPF programs for perf.data's BPF features");
	return 0;
}

int pk__data_bpf_new(struct pk__data_bpf **s)
{
	if (!(*s = pk__calloc(1, sizeof(**s))))
		return pk__error_nomem("the BPF programs for perf.data's BPF features");
	return 0;
}

/* A copy of BTF b into s unless s has its id: 0 or -ENOMEM. */
static int copy_btf(struct pk__data_bpf *s, const struct btf_blob *b)
{
	uint32_t i = btf_pos(s, b->id);
	void *data;

	if (i < s->nr_btfs && s->btfs[i].id == b->id)
		return 0;
	if (s->nr_btfs == s->cap_btfs) {
		struct btf_blob *v = pk__reallocarray(s->btfs, s->cap_btfs * 2 + 8, sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->btfs = v;
		s->cap_btfs = s->cap_btfs * 2 + 8;
	}
	if (!(data = pk__malloc(b->size ? b->size : 1)))
		return -ENOMEM;
	memcpy(data, b->data, b->size);
	memmove(&s->btfs[i + 1], &s->btfs[i], (s->nr_btfs - i) * sizeof(*s->btfs));
	s->btfs[i] = (struct btf_blob){ b->id, b->size, data };
	s->nr_btfs++;
	return 0;
}

int pk__data_bpf_merge(struct pk__data_bpf **to, const struct pk__data_bpf *from)
{
	int err = 0;

	if (!from)
		return 0;
	if (!*to && !(*to = pk__calloc(1, sizeof(**to))))
		return pk__error_nomem("the BPF programs for perf.data's BPF features");
	for (uint32_t i = 0; !err && i < from->nr_progs; i++) {
		const struct pk__bpf_prog *p = from->progs[i];
		struct pk__bpf_prog *c;

		if (have_prog(*to, info_of(p)->id))
			continue;
		c = pk__malloc(sizeof(*p) + p->data_len);
		if (c)
			memcpy(c, p, sizeof(*p) + p->data_len);
		err = c ? insert_prog(*to, c) : -ENOMEM;
	}
	for (uint32_t i = 0; !err && i < from->nr_btfs; i++)
		err = copy_btf(*to, &from->btfs[i]);
	return err ? pk__error_nomem("the BPF programs for perf.data's BPF features") : 0;
}

/* Program id, loaded since the snapshot, as perf's side band adds it. */
static int add_prog(struct pk__data_bpf *s, uint32_t id)
{
	struct pk__bpf_prog *p;
	uint32_t btf_id;
	int err;

	if (have_prog(s, id))
		return 0;
	err = pk__sys_bpf_prog_info(id, PK__BPIL_PERF, &p);
	if (err)
		return err == -ENOMEM ? err : 0;	/* gone already: left out */
	btf_id = info_of(p)->btf_id;
	if ((err = insert_prog(s, p)) < 0 || (btf_id && (err = insert_btf(s, btf_id)) < 0))
		return err;
	return 0;
}

int pk__data_bpf_note(struct pk__data_bpf *s, const void *records, size_t len)
{
	const unsigned char *c = records;

	while (s && len >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h = (const void *)c;
		struct pk_record d = { .size = sizeof(d) };
		int err;

		if (h->size < sizeof(*h) || h->size > len)
			break;	/* not records: nothing to note */
		if (h->type == PERF_RECORD_BPF_EVENT && pk_record_decode(h, NULL, &d) == 0 &&
		    d.bpf_event.type == PERF_BPF_EVENT_PROG_LOAD &&
		    (err = add_prog(s, d.bpf_event.id)) < 0)
			return pk__error_nomem("a loaded BPF program's info for perf.data");
		c += h->size;
		len -= h->size;
	}
	return 0;
}

static void prog_infos(const struct pk__data_bpf *s, pk__data_put_fn put, void *b)
{
	uint32_t nr = s ? s->nr_progs : 0;

	put(b, &nr, 4);
	for (uint32_t i = 0; i < nr; i++) {
		const struct pk__bpf_prog *p = s->progs[i];

		put(b, &p->info_len, 4);
		put(b, &p->data_len, 4);
		put(b, &p->arrays, 8);
		put(b, p->info, p->info_len);
		put(b, p->data, p->data_len);
	}
}

static void btfs(const struct pk__data_bpf *s, pk__data_put_fn put, void *b)
{
	uint32_t nr = s ? s->nr_btfs : 0;

	put(b, &nr, 4);
	for (uint32_t i = 0; i < nr; i++) {
		put(b, &s->btfs[i].id, 4);
		put(b, &s->btfs[i].size, 4);
		put(b, s->btfs[i].data, s->btfs[i].size);
	}
}

void pk__data_bpf_feature(const struct pk__data_bpf *s, int btf, pk__data_put_fn put, void *b)
{
	if (btf)
		btfs(s, put, b);
	else
		prog_infos(s, put, b);
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
