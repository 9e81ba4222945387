/* SPDX-License-Identifier: MIT */
/*
 * intern.c - one copy of each string, shared by the histograms that
 * compare by pointer: perf diff's files each resolve their own names, and
 * their histograms, given one interner, key a DSO, symbol or command of
 * one name on one pointer, so that pk_hist's own key comparison pairs
 * them across files.  An open-addressing table of the copies, at most
 * half full, hashed with FNV-1a.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pk_intern {
	char **table;		/* the copies; NULL empty */
	size_t cap, nr;		/* cap a power of two */
};

int pk_intern_new(struct pk_intern **out)
{
	struct pk_intern *t = pk__calloc(1, sizeof(*t));

	if (!t || !(t->table = pk__calloc(256, sizeof(*t->table)))) {
		free(t);
		return pk__error_nomem("a string interner");
	}
	t->cap = 256;
	*out = t;
	return 0;
}

void pk_intern_free(struct pk_intern *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->table[i]);
	free(t->table);
	free(t);
}

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)(h ^ (h >> 29));
}

static char **slot(char **table, size_t cap, const char *s)
{
	size_t i = hash(s) & (cap - 1);

	while (table[i] && strcmp(table[i], s))
		i = (i + 1) & (cap - 1);
	return &table[i];
}

static int grow(struct pk_intern *t)
{
	size_t cap = t->cap * 2;
	char **table = pk__calloc(cap, sizeof(*table));

	if (!table)
		return pk__error_nomem("a string interner");
	for (size_t i = 0; i < t->cap; i++)
		if (t->table[i])
			*slot(table, cap, t->table[i]) = t->table[i];
	free(t->table);
	t->table = table;
	t->cap = cap;
	return 0;
}

int pk_intern_str(struct pk_intern *t, const char *s, const char **out)
{
	char **p;
	int err;

	if (!s) {
		*out = NULL;
		return 0;
	}
	if (*(p = slot(t->table, t->cap, s))) {
		*out = *p;
		return 0;
	}
	if ((t->nr + 1) * 2 > t->cap) {
		if ((err = grow(t)) < 0)
			return err;
		p = slot(t->table, t->cap, s);
	}
	if (!(*p = strdup(s)))
		return pk__error_nomem("a string interner");
	t->nr++;
	*out = *p;
	return 0;
}

size_t pk_intern_nr(const struct pk_intern *t)
{
	return t->nr;
}
