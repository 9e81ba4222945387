/* SPDX-License-Identifier: MIT */
/*
 * kallsyms-index.c - the kernel's kallsyms symbols without a symbol made
 * for each line: a report needs the names of the few hundred addresses it
 * sampled, not of 120,000 symbols.  The index holds, in the file's order,
 * each line perf's filter would keep (address, binding, where its name
 * starts in the loaded text), most with their name not yet checked (the
 * host's PK__KSYM_QUICK walk); a lookup checks only the lines it looks at
 * and makes the symbol it answers with once.  The answer is the table
 * pk__symtab_finish(t, true) would give: of the well-formed lines at or
 * below the address the last one, reaching up to the next well-formed
 * line's address (the last, to its address rounded up to a page, plus a
 * page).  Only for lines in address order (the kernel's are); kernel.c
 * makes an ordinary table otherwise.  The index owns the loaded text
 * (pk__kindex_own_text), often a mapping of the file whose unchecked
 * names end in a newline: a symbol made gets a NUL-terminated copy of its
 * name, in blocks the index owns.
 */
#include "host/host.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

enum { UNCHECKED, GOOD, BAD };

/* 16 bytes a line: 120,000 of them are written, every page touched. */
struct kline {
	uint64_t addr;
	uint32_t name;		/* from the first line's name: one loaded text */
	uint16_t name_len;	/* an unchecked name's, to its line's end */
	unsigned char state;	/* UNCHECKED, GOOD or BAD */
	unsigned char binding;
};

/* Copied names, a block at a time. */
struct names {
	struct names *next;
	size_t used, cap;
	char data[];
};

struct pk__kindex {
	const char *base;	/* the first line's name */
	struct pk__host_ktext text;	/* owned, where the names are */
	struct names *names;
	struct kline *lines;
	size_t nr, cap;
	struct pk__sym *made;	/* parallel to lines: name NULL until made */
};

int pk__kindex_new(struct pk__kindex **out)
{
	struct pk__kindex *x = pk__calloc(1, sizeof(*x));

	if (!x)
		return pk__error_nomem("a kallsyms index");
	*out = x;
	return 0;
}

void pk__kindex_free(struct pk__kindex *x)
{
	if (!x)
		return;
	free(x->lines);
	free(x->made);
	pk__host_ktext_free(&x->text);
	for (struct names *n = x->names, *next; n; n = next) {
		next = n->next;
		free(n);
	}
	free(x);
}

void pk__kindex_own_text(struct pk__kindex *x, struct pk__host_ktext *kt)
{
	pk__host_ktext_free(&x->text);
	x->text = *kt;
	*kt = (struct pk__host_ktext){ NULL, 0 };
}

/* Line i's name, NUL-terminated, in a block of copies; NULL when out of
 * memory (recorded). */
static const char *name_copy(struct pk__kindex *x, size_t i)
{
	const char *name = x->base + x->lines[i].name;
	size_t len = x->lines[i].name_len;
	struct names *n = x->names;
	char *out;

	if (!n || n->cap - n->used < len + 1) {
		size_t cap = len + 1 > 4000 ? len + 1 : 4000;

		if (!(n = pk__malloc(sizeof(*n) + cap))) {
			pk__error_nomem("a kernel symbol's name");
			return NULL;
		}
		*n = (struct names){ x->names, 0, cap };
		x->names = n;
	}
	out = memcpy(n->data + n->used, name, len);
	out[len] = '\0';
	n->used += len + 1;
	return out;
}

/* Room for twice as many lines; cold, so that an add stays a leaf. */
static __attribute__((noinline, cold)) int grow(struct pk__kindex *x)
{
	size_t cap = x->cap ? x->cap * 2 : 4096;
	struct kline *n = pk__realloc(x->lines, cap * sizeof(*n));

	if (!n)
		return pk__error_nomem("a kallsyms index");
	pk__host_populate(n + x->cap, (cap - x->cap) * sizeof(*n));
	x->lines = n;
	x->cap = cap;
	return 0;
}

int pk__kindex_add(struct pk__kindex *x, const struct pk__host_ksym *s, unsigned char binding)
{
	int err;

	if (x->nr == x->cap && (err = grow(x)) < 0)
		return err;
	if (!x->nr)
		x->base = s->name;
	/* Lines come in the text's order; a name before the first or too far
	 * on cannot be an offset from it (one text holds them all). */
	size_t len = s->unchecked ? s->name_len : strlen(s->name);

	if (s->name < x->base || (uint64_t)(s->name - x->base) > UINT32_MAX || len > UINT16_MAX)
		return pk__error(-EINVAL, "a kallsyms index", "a name outside the loaded text");
	x->lines[x->nr++] = (struct kline){ s->addr, (uint32_t)(s->name - x->base), (uint16_t)len,
					    s->unchecked ? UNCHECKED : GOOD, binding };
	return 0;
}

bool pk__kindex_in_order(const struct pk__kindex *x)
{
	for (size_t i = 1; i < x->nr; i++)
		if (x->lines[i - 1].addr > x->lines[i].addr)
			return false;
	return true;
}

/* Whether line i is well-formed, checked the first time it is asked. */
static bool good(struct pk__kindex *x, size_t i)
{
	struct kline *l = &x->lines[i];

	if (l->state == UNCHECKED)
		l->state = pk__host_ksym_name_ok(x->base + l->name, l->name_len) ? GOOD : BAD;
	return l->state == GOOD;
}

int pk__kindex_each(struct pk__kindex *x, pk__kindex_cb cb, void *arg)
{
	const char *name;
	int err;

	for (size_t i = 0; i < x->nr; i++) {
		if (!good(x, i))
			continue;
		if (!(name = name_copy(x, i)))
			return -ENOMEM;
		if ((err = cb(arg, x->lines[i].addr, name, x->lines[i].binding)) != 0)
			return err;
	}
	return 0;
}

int pk__kindex_finish(struct pk__kindex *x)
{
	if (x->nr && !(x->made = pk__calloc(x->nr, sizeof(*x->made))))
		return pk__error_nomem("a kallsyms index");
	return 0;
}

const struct pk__sym *pk__kindex_find(struct pk__kindex *x, uint64_t addr)
{
	size_t lo = 0, hi = x->nr, at, next;
	uint64_t end;

	while (lo < hi) {	/* the first line above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (x->lines[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (at = lo; at && !good(x, at - 1); at--)
		;
	if (!at--)
		return NULL;
	if (!x->made[at].name) {
		const char *name = name_copy(x, at);

		if (!name)
			return NULL;
		for (next = lo; next < x->nr && !good(x, next); next++)
			;
		if (next < x->nr) {
			end = x->lines[next].addr;
		} else {
			uint64_t s = x->lines[at].addr, up = (s + PAGE - 1) & ~(uint64_t)(PAGE - 1);

			end = up > UINT64_MAX - PAGE ? UINT64_MAX : up + PAGE;
		}
		x->made[at] = (struct pk__sym){ .start = x->lines[at].addr, .end = end, .name = name,
						.binding = x->lines[at].binding, .seq = (uint32_t)at };
	}
	return addr < x->made[at].end ? &x->made[at] : NULL;
}

size_t pk__kindex_nr(const struct pk__kindex *x)
{
	return x->nr;
}
