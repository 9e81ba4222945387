/* SPDX-License-Identifier: MIT */
/*
 * kallsyms-index.c - the kernel's kallsyms symbols without a symbol, or
 * even an index entry, made for each line: a report needs the names of
 * the few hundred addresses it sampled, not of 120,000 symbols.  One
 * fused walk over the loaded text (pk__kindex_scan) tests each line in
 * place (the host's quick test, the names not looked at), keeps count of
 * the lines perf's filter keeps and checks that they come in address
 * order, and notes where every BLOCK-th kept line starts and its address:
 * a sparse index.  A lookup binary-searches the blocks, and decodes (once)
 * the lines of the blocks it needs into a table of the block's lines, the
 * names it looks at checked then.  The answer is the one
 * pk__symtab_finish(t, true) would give on a table of all lines: of the
 * well-formed lines at or below the address the last one, reaching up to
 * the next well-formed line's address (the last, to its address rounded
 * up to a page, plus a page).  Only for lines in address order (the
 * kernel's are); kernel.c makes an ordinary table otherwise.  The index
 * owns the loaded text, often a read-only mapping of the file that is
 * never written into: a symbol made gets a NUL-terminated copy of its
 * name, in blocks the index owns.  For a build-id cache's copy the walk's
 * result is kept beside the file and read back next time instead of
 * walking (kindex-cache.c).
 */
#include "host/host.h"
#include "host/ksym-quick.h"
#include "symbols/kindex-cache.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define PAGE 4096u
/* Kept lines a block: a lookup decodes up to this many lines (and the
 * neighbours' when the answer's ends lie outside its block). */
#define BLOCK 32u

enum { UNCHECKED, GOOD, BAD };

/* A kept line, decoded. */
struct kline {
	uint64_t addr;
	uint32_t name;		/* offset of its name in the text */
	uint16_t name_len;	/* an unchecked name's, to its line's end */
	unsigned char state;	/* UNCHECKED, GOOD or BAD */
	unsigned char binding;
};

/* A block's lines decoded, and the symbols made of them. */
struct kdecoded {
	struct kline lines[BLOCK];
	struct pk__sym made[BLOCK];	/* name NULL until made */
};

/* Copied names, a block at a time. */
struct names {
	struct names *next;
	size_t used, cap;
	char data[];
};

struct pk__kindex {
	struct pk__host_ktext text;	/* owned, where the names are */
	const char *base;
	size_t len;
	struct names *names;
	struct pk__kblock *blocks;
	struct kdecoded **dec;		/* parallel to blocks: NULL until decoded */
	size_t nr, nr_blocks, cap_blocks;
	size_t decodes;		/* blocks decoded: the text let go every eighth */
	bool in_order;
	bool from_cache;	/* the scan was read back (kindex-cache.c), not made */
	/* pk__kindex_find's answers by address, direct-mapped: a profile's
	 * kernel frames repeat a few thousand addresses, and a lookup the
	 * table has not seen walks and decodes a block's lines */
	struct kfound {
		uint64_t addr;
		const struct pk__sym *sym;	/* NULL: an empty slot */
	} *found;
};

#define FOUND_BITS 13

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
	for (size_t i = 0; x->dec && i < x->nr_blocks; i++)
		free(x->dec[i]);
	free(x->dec);
	free(x->found);
	free(x->blocks);
	pk__host_ktext_free(&x->text);
	for (struct names *n = x->names, *next; n; n = next) {
		next = n->next;
		free(n);
	}
	free(x);
}

/* What the walk learns besides the kept lines. */
struct scan {
	uint64_t text;		/* the _text line's address */
	bool any_addr, any_line;	/* as the host's walk counts them */
};

/* A line not of the quick shape, parsed on a copy (the text is never
 * written into): into *l when kept.  sc, when not NULL, counts it. */
static bool slow_line(const char *base, const char *line, size_t n, struct kline *l,
		      struct scan *sc)
{
	char buf[PK__KSYM_LINE_MAX];
	struct pk__host_ksym s;
	int b;

	memcpy(buf, line, n);
	buf[n] = '\0';
	if (pk__host_ksym_parse_n(buf, n, &s) < 0)
		return false;	/* not a kallsyms line: skipped */
	if (sc) {
		sc->any_line = true;
		sc->any_addr |= s.addr != 0;
	}
	if (s.module)
		return false;	/* no module was mapped */
	if (sc && !strcmp(s.name, "_text"))
		sc->text = s.addr;
	if ((b = pk__ksym_binding(s.type, s.name[0])) < 0)
		return false;
	*l = (struct kline){ s.addr, (uint32_t)(line - base + (s.name - buf)), (uint16_t)strlen(s.name),
			     GOOD, (unsigned char)b };
	return true;
}

/*
 * The line of n bytes at `line` (its newline, or the text's end, after
 * it) into *l when perf's filter keeps it: a quick line unchecked, any
 * other parsed on a copy.  sc, when not NULL (the walk), gets the counts
 * the host's walk keeps and _text's address.
 */
static inline __attribute__((always_inline)) bool kept_line(const char *base, const char *line,
							    size_t n, struct kline *l, struct scan *sc)
{
	struct pk__host_ksym s;
	int b;

	if (n >= PK__KSYM_LINE_MAX)
		return false;	/* not a kallsyms line: skipped */
	if (!pk__host_ksym_quick(line, n, &s))
		return slow_line(base, line, n, l, sc);
	if (sc) {
		if ((!sc->any_line || (!sc->any_addr && s.addr)) &&
		    pk__host_ksym_name_ok(s.name, s.name_len)) {
			sc->any_line = true;
			sc->any_addr |= s.addr != 0;
		}
		if (s.name_len == 5 && !memcmp(s.name, "_text", 5))
			sc->text = s.addr;
	}
	if ((b = pk__ksym_binding(s.type, s.name[0])) < 0)
		return false;
	*l = (struct kline){ s.addr, (uint32_t)(s.name - base), (uint16_t)s.name_len, UNCHECKED, (unsigned char)b };
	return true;
}

/* Room for twice as many blocks; cold, so that the walk stays a loop. */
static __attribute__((noinline, cold)) int grow(struct pk__kindex *x)
{
	size_t cap = x->cap_blocks ? x->cap_blocks * 2 : 1024;
	struct pk__kblock *n = pk__realloc(x->blocks, cap * sizeof(*n));

	if (!n)
		return pk__error_nomem("a kallsyms index");
	x->blocks = n;
	x->cap_blocks = cap;
	return 0;
}

/* An address as the 16 lower-case hex digits the kernel writes, read as
 * two big-endian words: keys compare as the addresses do. */
struct key {
	uint64_t hi, lo;
};

static inline struct key text_key(const char *p)
{
	return (struct key){ __builtin_bswap64(ksym_word(p)), __builtin_bswap64(ksym_word(p + 8)) };
}

/* The key of an address read some other way (a line not of the fast
 * shape: rare). */
static struct key addr_key(uint64_t addr)
{
	char digits[16];

	for (int i = 15; i >= 0; i--, addr >>= 4)
		digits[i] = "0123456789abcdef"[addr & 15];
	return text_key(digits);
}

/* The bytes from p to its line's newline (or end): 16 bytes a step with
 * SSE2 where that does not read past end, memchr for the rest. */
static inline size_t line_len(const char *p, const char *end)
{
	const char *q = p, *nl;

#ifdef __SSE2__
	const __m128i newline = _mm_set1_epi8('\n');

	for (; end - q >= 16; q += 16) {
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)q), newline));

		if (m)
			return (size_t)(q - p) + (size_t)__builtin_ctz(m);
	}
#endif
	nl = memchr(q, '\n', (size_t)(end - q));
	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

/* The walk's position: kept lines counted, their order, the blocks. */
struct walker {
	struct pk__kindex *x;
	struct key prev;
};

/* A kept line of key k starting at p (its address addr, or, when
 * need_addr, read from p), counted, its order checked, noted when it
 * starts a block.  0 or -ENOMEM. */
static inline __attribute__((always_inline)) int count_kept(struct walker *w, const char *p, struct key k, uint64_t addr,
			     bool need_addr)
{
	struct pk__kindex *x = w->x;
	int err;

	if (k.hi < w->prev.hi || (k.hi == w->prev.hi && k.lo < w->prev.lo))
		x->in_order = false;
	w->prev = k;
	if (x->nr++ % BLOCK)
		return 0;
	if (need_addr) {
		uint32_t hi = 0, lo = 0;

		ksym_hex8(ksym_word(p), &hi);
		ksym_hex8(ksym_word(p + 8), &lo);
		addr = (uint64_t)hi << 32 | lo;
	}
	if (x->nr_blocks == x->cap_blocks && (err = grow(x)) < 0)
		return err;
	x->blocks[x->nr_blocks++] = (struct pk__kblock){ addr, (uint64_t)(p - x->base) };
	return 0;
}

/*
 * Each line of the text, every BLOCK-th kept one noted as a block, the
 * order of the kept ones checked.  Once the host's counts are settled (a
 * line and an address seen), a line of the fast shape (the quick shape
 * with a lower-case address, not named _text) is kept or dropped by its
 * type letter and first name byte alone, its order checked on its text;
 * any other goes through kept_line.  The same lines are kept either way.
 */
static int walk(struct pk__kindex *x, struct scan *sc)
{
	const char *p = x->base, *end = x->base + x->len;
	struct walker w = { x, { 0, 0 } };
	struct kline l;
	int err = 0, b;

	x->in_order = true;
	for (; !err && p < end; p++) {
		size_t n = line_len(p, end);
		unsigned char last = n ? (unsigned char)p[n - 1] : 0;

		/* A dropped letter or '$' name drops the line in any shape. */
		if (sc->any_line && sc->any_addr && n > QUICK_NAME && n < PK__KSYM_LINE_MAX &&
		    p[16] == ' ' && p[18] == ' ' && pk__host_ksym_lower16(p) &&
		    !(n == QUICK_NAME + 5 && !memcmp(p + QUICK_NAME, "_text", 5))) {
			/* the quick shape (16 hex digits, type, name) only: decode()
			 * keeps what kept_line keeps, and so must this */
			if ((b = pk__ksym_binding(p[17], p[QUICK_NAME])) < 0)
				;
			else if (last > ' ' && last != 0x7f && last != ']')
				err = count_kept(&w, p, text_key(p), 0, true);
			else if (kept_line(x->base, p, n, &l, sc))
				err = count_kept(&w, p, addr_key(l.addr), l.addr, false);
		} else if (kept_line(x->base, p, n, &l, sc)) {
			err = count_kept(&w, p, addr_key(l.addr), l.addr, false);
		}
		p += n;
	}
	return err;
}

/* The scan kept beside path read back into x and *sc: true, or false
 * (x untouched) when there is none to trust. */
static bool read_kept(struct pk__kindex *x, const char *path, struct scan *sc)
{
	struct pk__kindex_saved s;

	if (!pk__kindex_cache_read(path, &x->text, BLOCK, &s))
		return false;
	x->blocks = s.blocks;
	x->nr_blocks = x->cap_blocks = s.nr_blocks;
	x->nr = s.nr;
	x->in_order = s.in_order;
	*sc = (struct scan){ s.text_addr, s.any_addr, s.any_line };
	return x->from_cache = true;
}

static void keep(const struct pk__kindex *x, const char *path, const struct scan *sc)
{
	struct pk__kindex_saved s = { x->nr, sc->text, x->in_order, sc->any_addr, sc->any_line, x->blocks,
				      x->nr_blocks };

	pk__kindex_cache_write(path, &x->text, BLOCK, &s);
}

int pk__kindex_scan(struct pk__kindex *x, const char *path, bool map, bool kept, uint64_t *text_addr)
{
	struct scan sc = { 0 };
	int err;

	if ((err = pk__host_kallsyms_whole(path, map, &x->text, &x->len)) < 0)
		return err;
	x->base = x->text.text;
	/* A name's offset is 32 bits: one text of at most 4 GiB. */
	if ((uint64_t)x->len > UINT32_MAX)
		return pk__error(-EFBIG, "read the kernel's symbols", "%s: over 4 GiB, more than any kallsyms",
				 path);
	kept = kept && path && x->text.map_len;
	if (!kept || !read_kept(x, path, &sc)) {
		if ((err = walk(x, &sc)) < 0)
			return err;
		if (kept && sc.any_addr)
			keep(x, path, &sc);
	}
	if (!sc.any_addr)
		return pk__host_kallsyms_hidden(path, sc.any_line);
	pk__host_ktext_drop(&x->text);	/* the walk read it all: blocks come back as asked */
	*text_addr = sc.text;
	return 0;
}

bool pk__kindex_in_order(const struct pk__kindex *x)
{
	return x->in_order;
}

bool pk__kindex_from_cache(const struct pk__kindex *x)
{
	return x->from_cache;
}

/* Block k's kept lines decoded (once); NULL when out of memory (recorded). */
static struct kdecoded *decode(struct pk__kindex *x, size_t k)
{
	size_t want = x->nr - k * BLOCK < BLOCK ? x->nr - k * BLOCK : BLOCK, got = 0;
	const char *p = x->base + x->blocks[k].off, *end = x->base + x->len;
	struct kdecoded *d;

	if (x->dec[k])
		return x->dec[k];
	if (!(d = pk__calloc(1, sizeof(*d)))) {
		pk__error_nomem("a kallsyms index");
		return NULL;
	}
	while (got < want && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		got += kept_line(x->base, p, n, &d->lines[got], NULL);
		p += n + 1;
	}
	/* A mapped text is read back a block at a time as symbols are asked
	 * for, its names copied: what decodes faulted in (a read fault maps
	 * 64 KiB) is let go every eight (a system-wide profile asks for most
	 * of a 2.5 MB kallsyms). */
	if (++x->decodes % 8 == 0)
		pk__host_ktext_drop(&x->text);
	return x->dec[k] = d;
}

/* Kept line i (< x->nr), its block decoded; NULL when out of memory. */
static struct kline *line(struct pk__kindex *x, size_t i)
{
	struct kdecoded *d = decode(x, i / BLOCK);

	return d ? &d->lines[i % BLOCK] : NULL;
}

/* Line i's name, NUL-terminated, in a block of copies; NULL when out of
 * memory (recorded). */
static const char *name_copy(struct pk__kindex *x, const struct kline *l)
{
	const char *name = x->base + l->name;
	size_t len = l->name_len;
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

/* Whether kept line i is well-formed, checked the first time it is asked;
 * -1 when its block cannot be decoded (out of memory). */
static int good(struct pk__kindex *x, size_t i)
{
	struct kline *l = line(x, i);

	if (!l)
		return -1;
	if (l->state == UNCHECKED)
		l->state = pk__host_ksym_name_ok(x->base + l->name, l->name_len) ? GOOD : BAD;
	return l->state == GOOD;
}

/* The table of decoded blocks, once the blocks are known. */
static int ensure_dec(struct pk__kindex *x)
{
	if (!x->dec && x->nr_blocks && !(x->dec = pk__calloc(x->nr_blocks, sizeof(*x->dec))))
		return pk__error_nomem("a kallsyms index");
	return 0;
}

int pk__kindex_each(struct pk__kindex *x, pk__kindex_cb cb, void *arg)
{
	const char *name;
	int err, g;

	if ((err = ensure_dec(x)) < 0)
		return err;
	for (size_t i = 0; i < x->nr; i++) {
		if ((g = good(x, i)) <= 0) {
			if (g < 0)
				return -ENOMEM;
			continue;
		}
		if (!(name = name_copy(x, line(x, i))))
			return -ENOMEM;
		if ((err = cb(arg, line(x, i)->addr, name, line(x, i)->binding)) != 0)
			return err;
	}
	return 0;
}

int pk__kindex_finish(struct pk__kindex *x)
{
	return ensure_dec(x);
}

/* The first kept line above addr: its block by the blocks' first
 * addresses, then in that block.  x->nr when none; SIZE_MAX when out of
 * memory. */
static size_t first_above(struct pk__kindex *x, uint64_t addr)
{
	size_t lo = 0, hi = x->nr_blocks, k, end;

	while (lo < hi) {	/* the first block starting above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (x->blocks[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	k = lo - 1;
	end = k * BLOCK + BLOCK < x->nr ? k * BLOCK + BLOCK : x->nr;
	for (size_t i = k * BLOCK; i < end; i++) {
		const struct kline *l = line(x, i);

		if (!l)
			return SIZE_MAX;
		if (l->addr > addr)
			return i;
	}
	return end;
}

/* The symbol of kept line at, which is well-formed, with lo the first kept
 * line above it (made once); NULL when out of memory. */
static const struct pk__sym *made(struct pk__kindex *x, size_t at, size_t lo)
{
	const struct kline *l = line(x, at);
	struct pk__sym *sym = l ? &x->dec[at / BLOCK]->made[at % BLOCK] : NULL;
	const char *name;
	size_t next;
	uint64_t end;
	int g = 0;

	if (!sym || sym->name)
		return sym;
	if (!(name = name_copy(x, l)))
		return NULL;
	for (next = lo; next < x->nr && (g = good(x, next)) == 0; next++)
		;
	if (g < 0)
		return NULL;
	if (next < x->nr) {
		end = line(x, next)->addr;
	} else {
		uint64_t s = l->addr, up = (s + PAGE - 1) & ~(uint64_t)(PAGE - 1);

		end = up > UINT64_MAX - PAGE ? UINT64_MAX : up + PAGE;
	}
	*sym = (struct pk__sym){ .start = l->addr, .end = end, .name = name,
				 .binding = PK__KSYM_BINDING(l->binding),
				 .object = (l->binding & PK__KSYM_OBJECT) != 0, .seq = (uint32_t)at };
	return sym;
}

/* The symbol holding addr, found in the lines (not remembered). */
static const struct pk__sym *find(struct pk__kindex *x, uint64_t addr)
{
	size_t lo = first_above(x, addr), at;
	const struct pk__sym *sym;
	int g = 0;

	if (lo == SIZE_MAX)
		return NULL;
	for (at = lo; at && (g = good(x, at - 1)) == 0; at--)
		;
	if (g < 0 || !at--)
		return NULL;
	sym = made(x, at, lo);
	return sym && addr < sym->end ? sym : NULL;
}

const struct pk__sym *pk__kindex_find(struct pk__kindex *x, uint64_t addr)
{
	struct kfound *f;
	const struct pk__sym *sym;

	/* the symbols live in their decoded blocks until the index is freed,
	 * and no line is added after the first lookup: an answer holds */
	if (!x->found && !(x->found = pk__calloc(1u << FOUND_BITS, sizeof(*x->found))))
		return find(x, addr);
	f = &x->found[addr * 0x9e3779b97f4a7c15ull >> (64 - FOUND_BITS)];
	if (f->sym && f->addr == addr)
		return f->sym;
	if ((sym = find(x, addr)))
		*f = (struct kfound){ addr, sym };
	return sym;
}

int pk__kindex_span(struct pk__kindex *x, uint64_t *start, uint64_t *end)
{
	const struct pk__sym *last;
	size_t i = 0, j = x->nr;
	int g = 0;

	if (ensure_dec(x) < 0)
		return -ENOMEM;
	while (i < x->nr && !(g = good(x, i)))
		i++;
	if (g < 0)
		return -ENOMEM;
	if (i == x->nr)
		return -ENOENT;
	while (j-- > i && !(g = good(x, j)))
		;
	if (g < 0)
		return -ENOMEM;
	/* the symbol the last line makes: its end by the finish rule */
	if (!(last = pk__kindex_find(x, line(x, j)->addr)))
		return -ENOMEM;
	*start = line(x, i)->addr;
	*end = last->end;
	return 0;
}

size_t pk__kindex_nr(const struct pk__kindex *x)
{
	return x->nr;
}
