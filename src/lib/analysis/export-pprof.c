/* SPDX-License-Identifier: MIT */
/*
 * export-pprof.c - pprof's profile.proto, encoded here (protobuf's wire
 * format is varints and length-delimited fields, nothing more is needed)
 * and gzipped with zlib as pprof expects: one sample type per event with
 * its unit, a location per distinct frame with its mapping (path,
 * build-id, range, file offset) and a line per function (name, file,
 * line): the functions inlined into a frame are lines of its location,
 * innermost first, not locations of their own; samples
 * of one stack and thread summed, labelled with pid, tid, comm and CPU.
 * Field numbers are those of pprof's proto/profile.proto.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- protobuf -------------------------------------------------------------- */

struct pb {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void pb_put(struct pb *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (b->len + n > cap)
			cap *= 2;
		if (!(p = pk__realloc(b->p, cap))) {
			b->err = pk__error_nomem("a pprof profile");
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t out[10];
	size_t n = 0;

	do {
		out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_put(b, out, n);
}

/* A varint field (wire type 0); proto3 leaves zeros out. */
static void pb_uint(struct pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

/* A length-delimited field (wire type 2). */
static void pb_bytes(struct pb *b, unsigned field, const void *data, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_put(b, data, n);
}

/* Submessage `sub` as field `field` of `b`; `sub` is emptied for reuse. */
static void pb_msg(struct pb *b, unsigned field, struct pb *sub)
{
	if (sub->err && !b->err)
		b->err = sub->err;
	pb_bytes(b, field, sub->p, sub->len);
	sub->len = 0;
}

/* ---- the profile's tables ---------------------------------------------------- */

/* A map from a 64-bit key (never 0) to a dense id from 1. */
struct keymap {
	uint64_t *keys;
	uint32_t *ids;
	size_t cap, nr;
};

static int64_t keymap_id(struct keymap *m, uint64_t key)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->cap) {
		struct keymap g = { .cap = m->cap ? m->cap * 2 : 1024, .nr = m->nr };

		g.keys = pk__calloc(g.cap, sizeof(*g.keys));
		g.ids = pk__calloc(g.cap, sizeof(*g.ids));
		if (!g.keys || !g.ids) {
			free(g.keys);
			free(g.ids);
			return pk__error_nomem("a pprof profile");
		}
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->keys[j])
				continue;
			for (i = (m->keys[j] * 0x9e3779b97f4a7c15ull >> 20) & (g.cap - 1); g.keys[i];)
				i = (i + 1) & (g.cap - 1);
			g.keys[i] = m->keys[j], g.ids[i] = m->ids[j];
		}
		free(m->keys);
		free(m->ids);
		*m = g;
	}
	for (i = (key * 0x9e3779b97f4a7c15ull >> 20) & (m->cap - 1); m->keys[i] && m->keys[i] != key;)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->keys[i] = key, m->ids[i] = (uint32_t)++m->nr;
	return m->ids[i];
}

static void keymap_free(struct keymap *m)
{
	free(m->keys);
	free(m->ids);
}

struct pprof {
	const struct pk_exporter *ex;
	struct pb out, sub, sub2;
	uint32_t *frame_map;	/* frame id -> mapping id (0 none) */
	uint32_t *frame_fn;	/* frame id -> function id */
	struct locs *locs;
};

/* The mappings: one per distinct path, build-id and range (few enough
 * that a walk over those seen so far finds each frame's). */
static int mappings(struct pprof *pp)
{
	const struct pk_exporter *ex = pp->ex;
	uint32_t *seen = pk__calloc(ex->nr_frames, sizeof(*seen));	/* mapping id -> a frame */
	size_t nr = 0;

	if (!seen)
		return pk__error_nomem("a pprof profile");
	for (size_t i = 1; i < ex->nr_frames; i++) {
		const struct pk__xframe *f = &ex->frames[i];
		size_t j;

		if (!f->dso)
			continue;
		for (j = 0; j < nr; j++) {
			const struct pk__xframe *g = &ex->frames[seen[j]];

			if (g->dso == f->dso && g->build_id == f->build_id && g->map_start == f->map_start &&
			    g->map_end == f->map_end && g->map_pgoff == f->map_pgoff)
				break;
		}
		pp->frame_map[i] = (uint32_t)j + 1;
		if (j < nr)
			continue;
		seen[nr++] = (uint32_t)i;
		pb_uint(&pp->sub, 1, j + 1);
		pb_uint(&pp->sub, 2, f->map_start);
		pb_uint(&pp->sub, 3, f->map_end);
		pb_uint(&pp->sub, 4, f->map_pgoff);
		pb_uint(&pp->sub, 5, f->dso);
		pb_uint(&pp->sub, 6, f->build_id);
		pb_uint(&pp->sub, 7, 1);	/* has_functions */
		pb_uint(&pp->sub, 8, f->file != 0);
		pb_uint(&pp->sub, 9, f->line != 0);
		pb_msg(&pp->out, 3, &pp->sub);
	}
	free(seen);
	return 0;
}

/* Functions, one per name and file (frame_fn maps each frame to its). */
static int functions(struct pprof *pp)
{
	const struct pk_exporter *ex = pp->ex;
	struct keymap fns = { 0 };
	int64_t id;

	for (size_t i = 1; i < ex->nr_frames; i++) {
		const struct pk__xframe *f = &ex->frames[i];
		size_t before = fns.nr;

		if ((id = keymap_id(&fns, (uint64_t)f->label << 32 | f->file)) < 0) {
			keymap_free(&fns);
			return (int)id;
		}
		pp->frame_fn[i] = (uint32_t)id;
		if (fns.nr != before) {
			pb_uint(&pp->sub, 1, (uint64_t)id);
			pb_uint(&pp->sub, 2, f->label);
			pb_uint(&pp->sub, 3, f->name ? f->name : f->label);
			pb_uint(&pp->sub, 4, f->file);
			pb_msg(&pp->out, 5, &pp->sub);
		}
	}
	keymap_free(&fns);
	return 0;
}

/*
 * A location per distinct run of frames: a frame and the functions
 * inlined into it (PK_FRAME_INLINED frames just inside it) are ONE
 * location whose lines run innermost first, as profile.proto has it.
 * Each trie node's run (from it outwards) is found once: node_loc is its
 * location id, node_next the node past the run.
 */
struct locs {
	uint32_t *node_loc, *node_next;
	uint32_t *seq;		/* every location's frames, innermost first */
	size_t nr_seq, cap_seq;
	size_t *off;		/* location k (from 1): seq[off[k - 1]..off[k]) */
	size_t nr, cap;
	uint32_t *tab;		/* open addressing: location ids by their run */
	size_t tab_cap;
};

static uint64_t run_hash(const uint32_t *f, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ f[i]) * 0x100000001b3ull;
	return h * 0x9e3779b97f4a7c15ull >> 20;
}

static uint32_t *run_slot(const struct locs *l, const uint32_t *f, size_t n)
{
	size_t mask = l->tab_cap - 1, i = run_hash(f, n) & mask;

	for (; l->tab[i]; i = (i + 1) & mask) {
		size_t a = l->off[l->tab[i] - 1], b = l->off[l->tab[i]];

		if (b - a == n && !memcmp(&l->seq[a], f, n * sizeof(*f)))
			break;
	}
	return &l->tab[i];
}

static int locs_grow(struct locs *l)
{
	size_t cap = l->cap ? l->cap * 2 : 1024;
	size_t *off = pk__reallocarray(l->off, cap + 1, sizeof(*off));
	uint32_t *tab;

	if (!off)
		return pk__error_nomem("a pprof profile");
	if (!l->cap)
		off[0] = 0;
	l->off = off;
	l->cap = cap;
	if (!(tab = pk__calloc(2 * cap, sizeof(*tab))))
		return pk__error_nomem("a pprof profile");
	free(l->tab);
	l->tab = tab;
	l->tab_cap = 2 * cap;
	for (size_t k = 1; k <= l->nr; k++)
		*run_slot(l, &l->seq[l->off[k - 1]], l->off[k] - l->off[k - 1]) = (uint32_t)k;
	return 0;
}

/* The location of the run just appended at seq[nr_seq - n..]: a known
 * one (the copy dropped) or a new one. */
static int64_t run_loc(struct locs *l, size_t n)
{
	uint32_t *slot;
	int err;

	if (l->nr + 1 >= l->cap && (err = locs_grow(l)) < 0)
		return err;
	slot = run_slot(l, &l->seq[l->nr_seq - n], n);
	if (*slot) {
		l->nr_seq -= n;
		return *slot;
	}
	*slot = (uint32_t)++l->nr;
	l->off[l->nr] = l->nr_seq;
	return l->nr;
}

/* The location of the run from trie node `node` outwards. */
static int64_t loc_of(const struct pk_exporter *ex, struct locs *l, uint32_t node)
{
	uint32_t n = node;
	size_t len = 0;
	int64_t loc;

	if (l->node_loc[node])
		return l->node_loc[node];
	for (;;) {
		if (l->nr_seq == l->cap_seq) {
			size_t cap = l->cap_seq ? l->cap_seq * 2 : 4096;
			uint32_t *seq = pk__reallocarray(l->seq, cap, sizeof(*seq));

			if (!seq)
				return pk__error_nomem("a pprof profile");
			l->seq = seq, l->cap_seq = cap;
		}
		l->seq[l->nr_seq++] = ex->nodes[n].frame;
		len++;
		if (ex->frames[ex->nodes[n].frame].kind != PK_FRAME_INLINED || !ex->nodes[n].parent)
			break;
		n = ex->nodes[n].parent;
	}
	if ((loc = run_loc(l, len)) < 0)
		return loc;
	l->node_loc[node] = (uint32_t)loc;
	l->node_next[node] = ex->nodes[n].parent;
	return loc;
}

/* Location k: its outermost frame's mapping and address, a line per frame. */
static void put_location(struct pprof *pp, const struct locs *l, size_t k)
{
	const struct pk_exporter *ex = pp->ex;
	uint32_t outer = l->seq[l->off[k] - 1];

	pb_uint(&pp->sub, 1, k);
	pb_uint(&pp->sub, 2, pp->frame_map[outer]);
	pb_uint(&pp->sub, 3, ex->frames[outer].addr);
	for (size_t i = l->off[k - 1]; i < l->off[k]; i++) {
		pb_uint(&pp->sub2, 1, pp->frame_fn[l->seq[i]]);
		pb_uint(&pp->sub2, 2, ex->frames[l->seq[i]].line);
		pb_msg(&pp->sub, 4, &pp->sub2);
	}
	pb_msg(&pp->out, 4, &pp->sub);
}

static void locs_free(struct locs *l)
{
	free(l->node_loc);
	free(l->node_next);
	free(l->seq);
	free(l->off);
	free(l->tab);
}

/* ---- samples ------------------------------------------------------------------- */

/* Samples of one stack, thread and CPU, summed per event. */
struct agg {
	const struct pk__xsample *first;
	uint64_t *values;	/* one per event */
};

static bool same_group(const struct pk__xsample *a, const struct pk__xsample *b)
{
	return a->node == b->node && a->pid == b->pid && a->tid == b->tid && a->comm == b->comm &&
	       a->cpu == b->cpu;
}

static uint64_t group_hash(const struct pk__xsample *s)
{
	uint64_t h = s->node;

	h = h * 0x100000001b3ull ^ s->pid;
	h = h * 0x100000001b3ull ^ s->tid;
	h = h * 0x100000001b3ull ^ s->comm;
	h = h * 0x100000001b3ull ^ (uint32_t)s->cpu;
	return h * 0x9e3779b97f4a7c15ull;
}

static void label(struct pb *b, struct pb *sub, uint32_t key, uint32_t str, int64_t num)
{
	pb_uint(sub, 1, key);
	pb_uint(sub, 2, str);
	if (!str) {	/* a numeric label keeps its value even when 0 */
		pb_varint(sub, 3 << 3);
		pb_varint(sub, (uint64_t)num);
	}
	pb_msg(b, 3, sub);
}

static void put_sample(struct pprof *pp, const struct agg *a, struct pb *packed)
{
	const struct pk_exporter *ex = pp->ex;
	const struct locs *l = pp->locs;

	for (uint32_t n = a->first->node; n; n = l->node_next[n])
		pb_varint(packed, l->node_loc[n]);
	pb_msg(&pp->sub, 1, packed);
	for (size_t e = 0; e < ex->opts.nr_events; e++)
		pb_varint(packed, a->values[e]);
	pb_msg(&pp->sub, 2, packed);
	label(&pp->sub, &pp->sub2, ex->label_key[0], 0, a->first->pid);
	label(&pp->sub, &pp->sub2, ex->label_key[1], 0, a->first->tid);
	label(&pp->sub, &pp->sub2, ex->label_key[2], a->first->comm, 0);
	if (a->first->cpu >= 0)
		label(&pp->sub, &pp->sub2, ex->label_key[3], 0, a->first->cpu);
	pb_msg(&pp->out, 2, &pp->sub);
}

static int samples(struct pprof *pp)
{
	const struct pk_exporter *ex = pp->ex;
	size_t cap = 1024, nr = 0, nev = ex->opts.nr_events;
	struct agg *aggs = NULL;
	uint32_t *tab = NULL;
	uint64_t *vals = NULL;
	struct pb packed = { 0 };

	while (cap < ex->nr_samples * 2)
		cap *= 2;
	if (!(tab = pk__calloc(cap, sizeof(*tab))) || !(aggs = pk__calloc(ex->nr_samples + 1, sizeof(*aggs))) ||
	    !(vals = pk__calloc((ex->nr_samples + 1) * nev, sizeof(*vals)))) {
		free(tab);
		free(aggs);
		return pk__error_nomem("a pprof profile");
	}
	for (size_t i = 0; i < ex->nr_samples; i++) {
		const struct pk__xsample *s = &ex->samples[i];
		size_t j = (group_hash(s) >> 16) & (cap - 1);

		while (tab[j] && !same_group(aggs[tab[j] - 1].first, s))
			j = (j + 1) & (cap - 1);
		if (!tab[j]) {
			aggs[nr] = (struct agg){ s, vals + nr * nev };
			tab[j] = (uint32_t)++nr;
		}
		aggs[tab[j] - 1].values[s->ev] += s->weight;
	}
	for (size_t i = 0; i < nr && packed.err >= 0; i++)
		for (uint32_t n = aggs[i].first->node; n; n = pp->locs->node_next[n]) {
			int64_t loc = loc_of(ex, pp->locs, n);

			if (loc < 0) {
				packed.err = (int)loc;
				break;
			}
		}
	for (size_t k = 1; k <= pp->locs->nr && packed.err >= 0; k++)
		put_location(pp, pp->locs, k);
	for (size_t i = 0; i < nr && packed.err >= 0; i++)
		put_sample(pp, &aggs[i], &packed);
	free(packed.p);
	free(tab);
	free(aggs);
	free(vals);
	return packed.err;
}

/* ---- the profile --------------------------------------------------------------- */

static int gzip_out(const struct pb *b, FILE *f)
{
	z_stream z = { 0 };
	uint8_t buf[65536];
	int zr;

	/* 15 + 16: a gzip wrapper, as pprof and every reader of .pb.gz expect. */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return pk__error_nomem("gzip");
	z.next_in = b->p;
	z.avail_in = (uInt)b->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (fwrite(buf, 1, sizeof(buf) - z.avail_out, f) != sizeof(buf) - z.avail_out) {
			deflateEnd(&z);
			return pk__error(-EIO, "writing a pprof profile", "the output stream failed");
		}
	} while (zr == Z_OK);
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : pk__error(-EIO, "gzip", "deflate failed (%d)", zr);
}

static void header(struct pprof *pp)
{
	const struct pk_exporter *ex = pp->ex;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t e = 0; e < ex->opts.nr_events; e++) {
		pb_uint(&pp->sub, 1, ex->ev_name[e]);
		pb_uint(&pp->sub, 2, ex->ev_unit[e]);
		pb_msg(&pp->out, 1, &pp->sub);
	}
	for (size_t i = 0; i < ex->nr_samples; i++)
		if (ex->samples[i].has_time) {
			lo = ex->samples[i].time < lo ? ex->samples[i].time : lo;
			hi = ex->samples[i].time > hi ? ex->samples[i].time : hi;
		}
	if (lo <= hi) {
		pb_uint(&pp->out, 9, lo);
		pb_uint(&pp->out, 10, hi - lo);
	}
}

int pk__export_pprof(const struct pk_exporter *ex, FILE *f)
{
	struct locs locs = { 0 };
	struct pprof pp = { .ex = ex, .locs = &locs };
	int err = 0;

	pp.frame_map = pk__calloc(ex->nr_frames, sizeof(*pp.frame_map));
	pp.frame_fn = pk__calloc(ex->nr_frames, sizeof(*pp.frame_fn));
	locs.node_loc = pk__calloc(ex->nr_nodes, sizeof(*locs.node_loc));
	locs.node_next = pk__calloc(ex->nr_nodes, sizeof(*locs.node_next));
	if (!pp.frame_map || !pp.frame_fn || !locs.node_loc || !locs.node_next) {
		free(pp.frame_map);
		free(pp.frame_fn);
		locs_free(&locs);
		return pk__error_nomem("a pprof profile");
	}
	header(&pp);
	if ((err = mappings(&pp)) >= 0 && (err = functions(&pp)) >= 0)
		err = samples(&pp);
	for (size_t i = 0; i < ex->nr_strs && !err; i++)
		pb_bytes(&pp.out, 6, ex->strs[i], strlen(ex->strs[i]));
	err = err ? err : pp.out.err ? pp.out.err : pp.sub.err ? pp.sub.err : pp.sub2.err;
	if (!err)
		err = gzip_out(&pp.out, f);
	free(pp.out.p);
	free(pp.sub.p);
	free(pp.sub2.p);
	free(pp.frame_map);
	free(pp.frame_fn);
	locs_free(&locs);
	return err;
}
