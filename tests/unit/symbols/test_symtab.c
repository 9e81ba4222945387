/* SPDX-License-Identifier: MIT */
/*
 * test_symtab.c - the symbol table's sort: symbols added in any order
 * (addresses spread over every byte of the address, several at one
 * address) are found where a stable sort by address and perf's rules put
 * them: the last one added wins at an address for kallsyms, and each
 * zero-sized symbol reaches to the next address.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"
#include "symbols/symbols.h"

#define NR 6000

struct want {
	uint64_t start;
	unsigned idx;	/* the order of addition */
};

static int by_start_then_idx(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* xorshift64: a fixed sequence, so a failure reproduces */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Add NR zero-sized symbols at starts made by `pick`, in a shuffled order
 * with repeats, then check every start's symbol and its end. */
static void check(uint64_t (*pick)(uint64_t *s, unsigned i))
{
	static struct want w[NR];
	struct pk__symtab *t;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char name[32];

	assert_int_equal(pk__symtab_new(&t), 0);
	for (unsigned i = 0; i < NR; i++) {
		/* every fourth symbol repeats an earlier address */
		w[i].start = i >= 4 && i % 4 == 0 ? w[next(&seed) % i].start : pick(&seed, i);
		w[i].idx = i;
		snprintf(name, sizeof(name), "s%u", i);
		assert_int_equal(pk__symtab_add(t, w[i].start, 0, name, 'T'), 0);
	}
	pk__symtab_finish(t, true);
	qsort(w, NR, sizeof(*w), by_start_then_idx);
	for (unsigned i = 0; i < NR; i++) {
		const struct pk__sym *s;

		if (i + 1 < NR && w[i + 1].start == w[i].start)
			continue;	/* the last one added at this address wins */
		s = pk__symtab_find(t, w[i].start);
		assert_non_null(s);
		snprintf(name, sizeof(name), "s%u", w[i].idx);
		assert_string_equal(s->name, name);
		assert_int_equal(s->start, w[i].start);
		if (i + 1 < NR)
			assert_int_equal(s->end, w[i + 1].start);
	}
	pk__symtab_free(t);
}

/* anywhere in the 64-bit space: every byte differs somewhere */
static uint64_t anywhere(uint64_t *s, unsigned i)
{
	(void)i;
	return next(s);
}

/* a few MiB above a base, the high bytes shared, and a byte shared
 * (bits 24-31) below one that differs (bits 32-33) */
static uint64_t elf_like(uint64_t *s, unsigned i)
{
	uint64_t r = next(s);

	(void)i;
	return 0x7f0000000000ull | (r & 0xffffff) | (r >> 40 & 3) << 32;
}

/* descending: the worst order for the in-order check */
static uint64_t descending(uint64_t *s, unsigned i)
{
	(void)s;
	return 0xffffffff81000000ull + (uint64_t)(NR - i) * 16;
}

static void sort_anywhere(void **state)
{
	(void)state;
	check(anywhere);
}

static void sort_elf_like(void **state)
{
	(void)state;
	check(elf_like);
}

static void sort_descending(void **state)
{
	(void)state;
	check(descending);
}

/* Names demangled when looked up give what demangling each as it is
 * added gives: the found symbol's name, and perf's choice between two
 * symbols at one address, which compares demangled names ("a::b" has no
 * leading underscore and is longer than "x": it wins, where the mangled
 * "_ZN1a1bEv" would lose to "x"). */
static void lazy_demangle_as_eager(bool params)
{
	static const struct {
		uint64_t start, size;
		const char *name;
	} in[] = {
		{ 0x1000, 16, "x" }, { 0x1000, 16, "_ZN1a1bEv" }, { 0x1010, 16, "_ZN1a1cEi" },
		{ 0x1020, 16, "_Zjunk" }, { 0x1030, 16, "_RNvC1a1b" }, { 0x1040, 0, "plain_c" },
	};
	const char *want[] = { params ? "a::b()" : "a::b", params ? "a::c(int)" : "a::c", "_Zjunk", "a::b",
			       "plain_c" };
	struct pk__symtab *eager, *lazy;
	char buf[1024];

	assert_int_equal(pk__symtab_new(&eager), 0);
	assert_int_equal(pk__symtab_new(&lazy), 0);
	pk__symtab_set_demangle(lazy, params);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		const char *dm = params ? pk__demangle_params(in[i].name, buf, sizeof(buf))
					: pk__demangle(in[i].name, buf, sizeof(buf));

		assert_int_equal(pk__symtab_add(eager, in[i].start, in[i].size, dm ? dm : in[i].name,
						STB_GLOBAL), 0);
		assert_int_equal(pk__symtab_add(lazy, in[i].start, in[i].size, in[i].name, STB_GLOBAL), 0);
	}
	pk__symtab_finish(eager, false);
	pk__symtab_finish(lazy, false);
	assert_int_equal(pk__symtab_nr(lazy), pk__symtab_nr(eager));
	for (uint64_t a = 0x1000, i = 0; a < 0x1050; a += 16, i++) {
		const struct pk__sym *e = pk__symtab_find(eager, a + 3), *l = pk__symtab_find(lazy, a + 3);

		assert_non_null(e);
		assert_non_null(l);
		assert_string_equal(e->name, want[i]);
		assert_string_equal(l->name, want[i]);
		assert_int_equal(l->start, e->start);
		assert_int_equal(l->end, e->end);
		/* asked again: the same name, demangled once */
		assert_ptr_equal(pk__symtab_find(lazy, a)->name, l->name);
	}
	pk__symtab_free(eager);
	pk__symtab_free(lazy);
}

static void lazy_demangle(void **state)
{
	(void)state;
	lazy_demangle_as_eager(false);
}

static void lazy_demangle_params(void **state)
{
	(void)state;
	lazy_demangle_as_eager(true);
}

/* A reserved table holds what a growing one holds. */
static void reserve_then_add(void **state)
{
	struct pk__symtab *t;
	char name[16];

	(void)state;
	assert_int_equal(pk__symtab_new(&t), 0);
	assert_int_equal(pk__symtab_reserve(t, 300), 0);
	assert_int_equal(pk__symtab_reserve(t, 10), 0);	/* never shrinks */
	for (unsigned i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "f%u", 599 - i);
		assert_int_equal(pk__symtab_add(t, 0x4000 + (599 - i) * 8ull, 8, name, STB_GLOBAL), 0);
	}
	pk__symtab_finish(t, false);
	assert_int_equal(pk__symtab_nr(t), 600);
	for (unsigned i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		assert_string_equal(pk__symtab_find(t, 0x4000 + i * 8ull + 7)->name, name);
	}
	pk__symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_anywhere),
		cmocka_unit_test(sort_elf_like),
		cmocka_unit_test(sort_descending),
		cmocka_unit_test(lazy_demangle),
		cmocka_unit_test(lazy_demangle_params),
		cmocka_unit_test(reserve_then_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
