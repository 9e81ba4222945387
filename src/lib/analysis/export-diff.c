/* SPDX-License-Identifier: MIT */
/*
 * export-diff.c - two exporters' profiles compared, for `perfkit diff
 * --format`: folded stacks with both weights (`comm;a;b;c OLD NEW`, the
 * lines FlameGraph's difffolded.pl writes and flamegraph.pl reads), and
 * the differential flame graph: the new profile's call tree drawn by
 * export-flamegraph.c with each box's total in the old profile, found by
 * the same path of labels, for its script to colour by the change.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One distinct stack of one side: its folded text and its weight. */
struct stack {
	char *text;
	uint64_t self;
};

static void put_path(const struct pk_exporter *ex, const struct pk__ltree *t, uint32_t i, FILE *f)
{
	if (t->n[i].parent) {
		put_path(ex, t, t->n[i].parent, f);
		fputc(';', f);
	}
	fputs(pk__export_str(ex, t->n[i].label), f);
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct stack *)a)->text, ((const struct stack *)b)->text);
}

static void free_stacks(struct stack *s, size_t nr)
{
	for (size_t i = 0; s && i < nr; i++)
		free(s[i].text);
	free(s);
}

/* Every stack of ex with a weight of its own, sorted by text. */
static int stacks_of(const struct pk_exporter *ex, struct stack **out, size_t *nr)
{
	struct pk__ltree t;
	struct stack *s;
	size_t n = 0, len;
	int err;

	if ((err = pk__ltree_build(ex, &t)) < 0)
		return err;
	if (!(s = pk__calloc(t.nr, sizeof(*s)))) {
		pk__ltree_free(&t);
		return pk__error_nomem("folded stacks");
	}
	for (uint32_t i = 1; i < t.nr; i++) {
		FILE *m;

		if (!t.n[i].self)
			continue;
		if (!(m = open_memstream(&s[n].text, &len))) {
			free_stacks(s, n);
			pk__ltree_free(&t);
			return pk__error_nomem("folded stacks");
		}
		put_path(ex, &t, i, m);
		fclose(m);
		s[n++].self = t.n[i].self;
	}
	pk__ltree_free(&t);
	qsort(s, n, sizeof(*s), cmp_stack);
	*out = s;
	*nr = n;
	return 0;
}

static int write_folded(const struct pk_exporter *old, const struct pk_exporter *new, FILE *f)
{
	struct stack *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, i = 0, j = 0;
	int err;

	if ((err = stacks_of(old, &a, &na)) < 0 || (err = stacks_of(new, &b, &nb)) < 0) {
		free_stacks(a, na);
		return err;
	}
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].text, b[j].text);

		fprintf(f, "%s %llu %llu\n", c <= 0 ? a[i].text : b[j].text,
			(unsigned long long)(c <= 0 ? a[i].self : 0), (unsigned long long)(c >= 0 ? b[j].self : 0));
		i += c <= 0;
		j += c >= 0;
	}
	free_stacks(a, na);
	free_stacks(b, nb);
	return 0;
}

/* The child of old-tree node `parent` whose label reads as `label`, or 0. */
static uint32_t old_child(const struct pk_exporter *ex, const struct pk__ltree *t, uint32_t parent,
			  const char *label)
{
	for (uint32_t c = t->n[parent].first_child; c; c = t->n[c].next_sibling)
		if (!strcmp(pk__export_str(ex, t->n[c].label), label))
			return c;
	return 0;
}

/* Each node of nt's total in ot, by the same path of labels (0 where ot
 * has no such path).  Parents come before their children in nt. */
static int old_totals(const struct pk_exporter *oex, const struct pk__ltree *ot, const struct pk_exporter *nex,
		      const struct pk__ltree *nt, uint64_t **out)
{
	uint32_t *match = pk__calloc(nt->nr, sizeof(*match));
	uint64_t *old = pk__calloc(nt->nr, sizeof(*old));

	if (!match || !old) {
		free(match);
		free(old);
		return pk__error_nomem("a differential flame graph");
	}
	old[0] = ot->n[0].total;
	for (uint32_t i = 1; i < nt->nr; i++) {
		uint32_t p = nt->n[i].parent;

		if (p && !match[p])
			continue;	/* the parent's path is not in the old tree */
		match[i] = old_child(oex, ot, match[p], pk__export_str(nex, nt->n[i].label));
		old[i] = match[i] ? ot->n[match[i]].total : 0;
	}
	free(match);
	*out = old;
	return 0;
}

static int write_flamegraph(const struct pk_exporter *oex, const struct pk_exporter *nex, FILE *f)
{
	struct pk__ltree ot, nt;
	uint64_t *old = NULL;
	int err;

	if ((err = pk__ltree_build(oex, &ot)) < 0)
		return err;
	if ((err = pk__ltree_build(nex, &nt)) < 0) {
		pk__ltree_free(&ot);
		return err;
	}
	if ((err = old_totals(oex, &ot, nex, &nt, &old)) >= 0)
		err = pk__flamegraph_write(nex, &nt, old, ot.n[0].total, f);
	free(old);
	pk__ltree_free(&ot);
	pk__ltree_free(&nt);
	return err;
}

int pk_diff_export(const struct pk_exporter *old, const struct pk_exporter *new, enum pk_export_format format,
		   FILE *f)
{
	int err;

	switch (format) {
	case PK_EXPORT_FOLDED: err = write_folded(old, new, f); break;
	case PK_EXPORT_FLAMEGRAPH: err = write_flamegraph(old, new, f); break;
	default:
		return pk__error(-EINVAL, "a profile comparison", "format %d: only folded stacks and the flame "
				 "graph compare two profiles", (int)format);
	}
	if (!err && (fflush(f) || ferror(f)))
		err = pk__error(-EIO, "writing a profile comparison", "the output stream failed");
	return err;
}
