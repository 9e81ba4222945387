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

static int add_sample(const struct pk_exporter *ex, struct pk__ltree *t, const struct pk__xsample *s)
{
	uint32_t *path;
	size_t nr;
	int64_t at;
	int err;

	if ((err = pk__export_path(ex, s->node, &path, &nr)) < 0)
		return err;
	at = child(t, 0, s->comm, PK_FRAME_KIND_NR);
	for (size_t i = 0; at >= 0 && i < nr; i++) {
		const struct pk__xframe *f = &ex->frames[path[i]];

		t->n[at].total += s->weight;
		at = child(t, (uint32_t)at, f->label, f->kind);
	}
	free(path);
	if (at < 0)
		return (int)at;
	t->n[at].total += s->weight;
	t->n[at].self += s->weight;
	t->n[0].total += s->weight;
	return 0;
}

int pk__ltree_build(const struct pk_exporter *ex, struct pk__ltree *t)
{
	int err = 0;

	*t = (struct pk__ltree){ .cap = 256 };
	if (!(t->n = pk__calloc(t->cap, sizeof(*t->n))))
		return pk__error_nomem("a call tree");
	t->nr = 1;
	if ((err = rehash(t, 1024)) < 0)
		goto fail;
	for (size_t i = 0; i < ex->nr_samples; i++)
		if ((err = add_sample(ex, t, &ex->samples[i])) < 0)
			goto fail;
	if ((err = link_children(ex, t)) < 0)
		goto fail;
	return 0;
fail:
	pk__ltree_free(t);
	return err;
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
