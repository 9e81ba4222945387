/* SPDX-License-Identifier: MIT */
/*
 * export-folded.c - the call tree merged by frame label (comm at the top,
 * then each frame's name from the outermost in, as stackcollapse-perf
 * names them), which the folded and flame graph writers share, and the
 * folded writer itself: one line per distinct stack, `comm;a;b;c WEIGHT`,
 * the format FlameGraph, inferno and speedscope read.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(const struct pk__ltree *t, uint32_t parent, uint32_t label)
{
	uint64_t h = (((uint64_t)parent << 32) | label) * 0x9e3779b97f4a7c15ull;
	size_t mask = t->tab.cap - 1, i = (h >> 17) & mask;

	while (t->tab.slots[i]) {
		const struct pk__tnode *n = &t->n[t->tab.slots[i] - 1];

		if (n->parent == parent && n->label == label)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

static int rehash(struct pk__ltree *t, size_t cap)
{
	free(t->tab.slots);
	if (!(t->tab.slots = pk__calloc(cap, sizeof(*t->tab.slots))))
		return pk__error_nomem("a call tree");
	t->tab.cap = cap;
	for (size_t i = 1; i < t->nr; i++)
		t->tab.slots[slot_of(t, t->n[i].parent, t->n[i].label)] = (uint32_t)i + 1;
	return 0;
}

/* The child of `parent` labelled `label`, made when new; its index or < 0. */
static int64_t child(struct pk__ltree *t, uint32_t parent, uint32_t label, enum pk_frame_kind kind)
{
	size_t i;
	int err;

	if ((t->nr + 1) * 2 > t->tab.cap && (err = rehash(t, t->tab.cap * 2)) < 0)
		return err;
	i = slot_of(t, parent, label);
	if (t->tab.slots[i])
		return t->tab.slots[i] - 1;
	if (t->nr == t->cap) {
		struct pk__tnode *n = pk__reallocarray(t->n, t->cap * 2, sizeof(*n));

		if (!n)
			return pk__error_nomem("a call tree");
		t->n = n;
		t->cap *= 2;
	}
	t->n[t->nr] = (struct pk__tnode){ .parent = parent, .label = label, .kind = kind,
					  .depth = t->n[parent].depth + 1 };
	t->tab.slots[i] = (uint32_t)t->nr + 1;
	return (int64_t)t->nr++;
}

struct sort_item {
	uint32_t parent, idx;
	const char *label;
};

static int cmp_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* Link each node's children in label order (walked from the end, so each
 * is put in front of the siblings that sort after it). */
static int link_children(const struct pk_exporter *ex, struct pk__ltree *t)
{
	struct sort_item *it = pk__calloc(t->nr, sizeof(*it));

	if (!it)
		return pk__error_nomem("a call tree");
	for (size_t i = 1; i < t->nr; i++)
		it[i - 1] = (struct sort_item){ t->n[i].parent, (uint32_t)i, pk__export_str(ex, t->n[i].label) };
	qsort(it, t->nr - 1, sizeof(*it), cmp_item);
	for (size_t i = t->nr - 1; i > 0; i--) {
		struct pk__tnode *n = &t->n[it[i - 1].idx], *p = &t->n[it[i - 1].parent];

		n->next_sibling = p->first_child;
		p->first_child = it[i - 1].idx;
	}
	free(it);
	return 0;
}

/* A map from a nonzero 64-bit key to a 32-bit value (the builder's scratch). */
struct u64map {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, nr;
};

static uint32_t *u64map_slot(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 21) & mask;

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	return &m->vals[i];
}

/* The value slot of `key`, made (0) when new; NULL on no memory. */
static uint32_t *u64map_get(struct u64map *m, uint64_t key)
{
	uint32_t *v;

	if ((m->nr + 1) * 2 > m->cap) {
		struct u64map g = { .cap = m->cap ? m->cap * 2 : 1024, .nr = m->nr };

		g.keys = pk__calloc(g.cap, sizeof(*g.keys));
		g.vals = pk__calloc(g.cap, sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return NULL;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i]) {
				v = u64map_slot(&g, m->keys[i]);
				g.keys[v - g.vals] = m->keys[i];
				*v = m->vals[i];
			}
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	v = u64map_slot(m, key);
	if (!m->keys[v - m->vals])
		m->keys[v - m->vals] = key, m->nr++;
	return v;
}

/*
 * The builder works on entries, one per (comm, address-trie node) that
 * samples reach: each maps to one label-tree node, and is made after its
 * parent's, so one backward pass sums totals.  A million samples of a few
 * thousand stacks cost a hash look-up each, not a walk of their frames.
 */
struct ent {
	uint32_t xnode, tnode, parent;	/* parent: an entry index; the comm's own has itself */
	uint64_t self, total;
};

struct builder {
	const struct pk_exporter *ex;
	struct pk__ltree *t;
	struct u64map idx;	/* comm << 32 | xnode -> entry index + 1 */
	struct ent *e;
	size_t nr, cap;
};

static int64_t ent_of(struct builder *b, uint32_t comm, uint32_t xnode)
{
	const struct pk__xframe *f = &b->ex->frames[b->ex->nodes[xnode].frame];
	uint32_t *slot = u64map_get(&b->idx, (uint64_t)comm << 32 | xnode | 1ull << 63);
	int64_t parent, tnode;

	if (!slot)
		return pk__error_nomem("a call tree");
	if (*slot)
		return *slot - 1;
	if (!xnode)
		parent = -1, tnode = child(b->t, 0, comm, PK_FRAME_KIND_NR);
	else if ((parent = ent_of(b, comm, b->ex->nodes[xnode].parent)) < 0)
		return parent;
	else
		tnode = child(b->t, b->e[parent].tnode, f->label, f->kind);
	if (tnode < 0)
		return tnode;
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct ent *e = pk__reallocarray(b->e, cap, sizeof(*e));

		if (!e)
			return pk__error_nomem("a call tree");
		b->e = e, b->cap = cap;
	}
	b->e[b->nr] = (struct ent){ .xnode = xnode, .tnode = (uint32_t)tnode,
				    .parent = parent < 0 ? (uint32_t)b->nr : (uint32_t)parent };
	/* the look-up above may have grown the map: find the slot again */
	*u64map_get(&b->idx, (uint64_t)comm << 32 | xnode | 1ull << 63) = (uint32_t)++b->nr;
	return (int64_t)b->nr - 1;
}

/* Each label node's source line: that of the frames under it with the
 * most weight through them (file of the first such frame). */
static int hottest_lines(struct builder *b)
{
	struct u64map lw = { 0 };	/* tnode << 32 | line -> weight slot + 1 */
	uint64_t *w = pk__calloc(b->nr + 1, sizeof(*w)), *best = pk__calloc(b->t->nr, sizeof(*best));
	size_t nr_w = 0;
	int err = 0;

	for (size_t i = 0; w && best && i < b->nr; i++) {
		const struct pk__xframe *f = &b->ex->frames[b->ex->nodes[b->e[i].xnode].frame];
		struct pk__tnode *n = &b->t->n[b->e[i].tnode];
		uint32_t *slot;

		if (!b->e[i].xnode || !f->line)
			continue;
		if (!(slot = u64map_get(&lw, (uint64_t)b->e[i].tnode << 32 | f->line | 1ull << 63))) {
			err = pk__error_nomem("a call tree");
			break;
		}
		if (!*slot)
			*slot = (uint32_t)++nr_w;
		w[*slot - 1] += b->e[i].total;
		if (w[*slot - 1] > best[b->e[i].tnode]) {
			best[b->e[i].tnode] = w[*slot - 1];
			n->file = f->file;
			n->line = f->line;
		}
	}
	if (!err && (!w || !best))
		err = pk__error_nomem("a call tree");
	free(w);
	free(best);
	free(lw.keys);
	free(lw.vals);
	return err;
}

static int build(struct builder *b)
{
	const struct pk_exporter *ex = b->ex;
	int64_t e;
	int err;

	for (size_t i = 0; i < ex->nr_samples; i++) {
		if ((e = ent_of(b, ex->samples[i].comm, ex->samples[i].node)) < 0)
			return (int)e;
		b->e[e].self += ex->samples[i].weight;
	}
	for (size_t i = b->nr; i > 0; i--) {
		struct ent *x = &b->e[i - 1];

		x->total += x->self;
		if (x->parent != i - 1)
			b->e[x->parent].total += x->total;
	}
	for (size_t i = 0; i < b->nr; i++) {
		struct pk__tnode *n = &b->t->n[b->e[i].tnode];

		n->total += b->e[i].total;
		n->self += b->e[i].xnode ? b->e[i].self : 0;
		if (!b->e[i].xnode)
			b->t->n[0].total += b->e[i].total;
	}
	if ((err = hottest_lines(b)) < 0)
		return err;
	return link_children(ex, b->t);
}

int pk__ltree_build(const struct pk_exporter *ex, struct pk__ltree *t)
{
	struct builder b = { .ex = ex, .t = t };
	int err;

	*t = (struct pk__ltree){ .cap = 256 };
	if (!(t->n = pk__calloc(t->cap, sizeof(*t->n))))
		return pk__error_nomem("a call tree");
	t->nr = 1;
	if ((err = rehash(t, 1024)) >= 0)
		err = build(&b);
	free(b.e);
	free(b.idx.keys);
	free(b.idx.vals);
	if (err < 0)
		pk__ltree_free(t);
	return err < 0 ? err : 0;
}

void pk__ltree_free(struct pk__ltree *t)
{
	free(t->n);
	free(t->tab.slots);
	*t = (struct pk__ltree){ 0 };
}

/* The node after `i` in a pre-order walk, 0 at the end. */
static uint32_t next_node(const struct pk__ltree *t, uint32_t i)
{
	if (t->n[i].first_child)
		return t->n[i].first_child;
	for (; i; i = t->n[i].parent)
		if (t->n[i].next_sibling)
			return t->n[i].next_sibling;
	return 0;
}

static void put_path(const struct pk_exporter *ex, const struct pk__ltree *t, uint32_t i, FILE *f)
{
	if (t->n[i].parent) {
		put_path(ex, t, t->n[i].parent, f);
		fputc(';', f);
	}
	fputs(pk__export_str(ex, t->n[i].label), f);
}

int pk__export_folded(const struct pk_exporter *ex, FILE *f)
{
	struct pk__ltree t;
	int err;

	if ((err = pk__ltree_build(ex, &t)) < 0)
		return err;
	for (uint32_t i = next_node(&t, 0); i; i = next_node(&t, i)) {
		if (!t.n[i].self)
			continue;
		put_path(ex, &t, i, f);
		fprintf(f, " %llu\n", (unsigned long long)t.n[i].self);
	}
	pk__ltree_free(&t);
	return 0;
}
