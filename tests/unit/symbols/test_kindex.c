/* SPDX-License-Identifier: MIT */
/*
 * test_kindex.c - kallsyms looked up through the index (names checked
 * only when looked at) answers every address as the table of every line
 * does: a kallsyms file of random lines in address order, with several
 * symbols at one address, every type letter, '$' names, malformed names
 * (a control character, DEL, NUL, a blank inside), trailing blanks, modules,
 * short and upper-case addresses, is read both ways and every address in
 * its range (and around each symbol) is looked up in the table and in
 * sparse indexes of the file mapped and read (pk__kindex_scan: blocks of
 * 32 kept lines, names checked on lookup; the file itself stays as it
 * was).  And a walk of hidden addresses fails the same way with the quick
 * walk and the scan; kept lines out of order are told.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <elf.h>

#include "perfkit.h"
#include "host/host.h"
#include "symbols/kindex-cache.h"
#include "symbols/symbols.h"

#define NR 4000
#define BASE 0xffffffff81000000ull

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A kallsyms file of NR random lines at ascending addresses; its path. */
static char *make_file(uint64_t seed, uint64_t *last)
{
	static const char types[] = "tTwWdDbBrRaAuV";
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);
	uint64_t addr = BASE;
	FILE *f;
	int fd;

	snprintf(path, 4096, "%s/kindex-XXXXXX", dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (unsigned i = 0; i < NR; i++) {
		uint64_t r = next(&seed);
		char name[64];

		addr += r % 4 == 0 ? 0 : (r >> 8) % 64;	/* a quarter share an address */
		snprintf(name, sizeof(name), "%ssym_%u%s", (r >> 20) % 40 == 0 ? "$" : "", i,
			 (r >> 24) % 30 == 0 ? "\x01x" : (r >> 24) % 30 == 1 ? "\x7f" :
			 (r >> 24) % 30 == 2 ? " x" : (r >> 24) % 30 == 3 ? "]" : "");
		switch ((r >> 32) % 40) {
		case 0:
			fprintf(f, "%llx %c %s\n", (unsigned long long)addr, types[(r >> 40) % 14], name);
			break;	/* as many digits as it takes */
		case 1:
			fprintf(f, "%016llX %c %s\n", (unsigned long long)addr, types[(r >> 40) % 14], name);
			break;
		case 2:
			fprintf(f, "%016llx %c %s  \n", (unsigned long long)addr, types[(r >> 40) % 14], name);
			break;
		case 3:
			fprintf(f, "%016llx %c %s\t[mod]\n", (unsigned long long)addr, types[(r >> 40) % 14],
				name);
			break;
		case 4:
			fprintf(f, "%016llx %c\n", (unsigned long long)addr, types[(r >> 40) % 14]);
			break;
		case 5:	/* a NUL inside the name */
			fprintf(f, "%016llx %c %s", (unsigned long long)addr, types[(r >> 40) % 14], name);
			fwrite("\0tail\n", 1, 6, f);
			break;
		default:
			fprintf(f, "%016llx %c %s\n", (unsigned long long)addr, types[(r >> 40) % 14], name);
		}
	}
	fclose(f);
	*last = addr;
	return path;
}

/* perf's filter, as kernel.c's: text, weak, data, bss; no '$' names. */
static bool kept(const struct pk__host_ksym *s, unsigned char *binding)
{
	char t = (char)(s->type & ~0x20);

	if (s->module || (t != 'T' && t != 'W' && t != 'D' && t != 'B') || s->name[0] == '$')
		return false;
	*binding = t == 'W' ? STB_WEAK : s->type == t ? STB_GLOBAL : STB_LOCAL;
	return true;
}

static int to_table(void *arg, const struct pk__host_ksym *s)
{
	unsigned char b;

	assert_false(s->unchecked);
	return kept(s, &b) ? pk__symtab_add_ref(arg, s->addr, 0, s->name, b) : 0;
}

static void same(struct pk__symtab *t, struct pk__symtab *x, uint64_t addr)
{
	const struct pk__sym *a = pk__symtab_find(t, addr), *b = pk__symtab_find(x, addr);

	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->end, b->end);
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->binding, b->binding);
	assert_ptr_equal(b, pk__symtab_find(x, addr));	/* made once */
}

/* The whole file at path, its length in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	assert_non_null(f);
	*len = fread(buf, 1, 1 << 20, f);
	assert_true(*len < 1 << 20);
	fclose(f);
	return buf;
}

/* The file's lines scanned into a sparse index, mapped or read, the
 * index owning the text. */
static struct pk__symtab *scanned(const char *path, bool map)
{
	struct pk__symtab *y;
	struct pk__kindex *idx;
	uint64_t text = 1;

	assert_int_equal(pk__symtab_new(&y), 0);
	assert_int_equal(pk__kindex_new(&idx), 0);
	assert_int_equal(pk__kindex_scan(idx, path, map, false, &text), 0);
	assert_int_equal(text, 0);	/* no _text line */
	assert_true(pk__kindex_in_order(idx));
	assert_int_equal(pk__kindex_finish(idx), 0);
	pk__symtab_set_index(y, idx);
	return y;
}

/* The resident kB of the mappings of path, from smaps; -1: none. */
static long mapped_kb(const char *path)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[4096];
	bool in = false;
	long kb = -1, n;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' ') && len > 1 &&
		    line[len - 1] == '\n')
			in = len > strlen(path) && !strncmp(line + len - 1 - strlen(path), path, strlen(path));
		else if (in && sscanf(line, "Rss: %ld kB", &n) == 1)
			kb = (kb < 0 ? 0 : kb) + n;
	}
	fclose(f);
	return kb;
}

static void compare(uint64_t seed)
{
	struct pk__symtab *t, *x, *y;
	char *text1, *path, *before, *after;
	size_t len1, len2;
	uint64_t last;

	path = make_file(seed, &last);
	before = slurp(path, &len1);
	y = scanned(path, true);
	assert_int_equal(mapped_kb(path), 0);	/* the scan's pages let go */
	x = scanned(path, false);
	assert_int_equal(pk__symtab_new(&t), 0);
	assert_int_equal(pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, to_table, t, &text1), 0);
	pk__symtab_own(t, text1);
	pk__symtab_finish(t, true);
	/* Every address, in an order that makes symbols both before and
	 * after their neighbours. */
	for (uint64_t a = last + 3 * 4096; a + 1 > BASE - 2; a -= 1) {
		same(t, x, a);
		same(t, y, a);
	}
	for (uint64_t a = BASE - 2; a <= last + 3 * 4096; a += 7) {
		same(t, x, a);
		same(t, y, a);
	}
	pk__symtab_free(t);
	pk__symtab_free(x);
	pk__symtab_free(y);
	after = slurp(path, &len2);
	assert_int_equal(len1, len2);
	assert_memory_equal(before, after, len1);
	free(before);
	free(after);
	unlink(path);
	free(path);
}

static void lookups_match_table(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++)
		compare(seed * 0x9e3779b97f4a7c15ull);
}

/* Lines whose address is not 16 digits take the full parse in the scan as
 * in the decoding: a name after a short address with trailing blanks was
 * dropped by the scan's quick test and kept by the decoding, which moved
 * every later line of its block. */
static void short_addresses(void **state)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	struct pk__symtab *t, *x, *y;
	char *text;
	FILE *f;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/kindex-XXXXXX", dir ? dir : "/tmp");
	assert_true((fd = mkstemp(path)) >= 0);
	f = fdopen(fd, "w");
	fputs("1 T aaa\n2 T foo_xxxxxxxx    \n3 T bbb\n", f);
	fclose(f);
	y = scanned(path, true);
	x = scanned(path, false);
	assert_int_equal(pk__symtab_new(&t), 0);
	assert_int_equal(pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, to_table, t, &text), 0);
	pk__symtab_own(t, text);
	pk__symtab_finish(t, true);
	for (uint64_t a = 0; a < 16; a++) {
		same(t, x, a);
		same(t, y, a);
	}
	pk__symtab_free(t);
	pk__symtab_free(x);
	pk__symtab_free(y);
	unlink(path);
}

static int count(void *arg, const struct pk__host_ksym *s)
{
	(void)s;
	++*(int *)arg;
	return 0;
}

/* Hidden addresses (all zero) fail the quick walk as the full one. */
static void hidden_addresses(void **state)
{
	const char *dir = getenv("TMPDIR");
	char path[4096], *text;
	int n = 0, fd;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/kindex-XXXXXX", dir ? dir : "/tmp");
	assert_true((fd = mkstemp(path)) >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "0000000000000000 T _text\n0000000000000000 t x\x01y\n");
	fclose(f);
	assert_int_equal(pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS | PK__KSYM_QUICK, count, &n,
						&text), -EACCES);
	free(text);
	assert_int_equal(n, 2);
	unlink(path);
}

/* Kept lines out of address order are told (kernel.c then makes a table);
 * hidden addresses fail the scan as the walk; _text's address is found. */
static void scan_order_hidden(void **state)
{
	static const char *const files[] = {
		("ffffffff81000000 T _text\nffffffff81000010 t b\nffffffff81000008 r c\n"
		 "ffffffff81000020 t d\n"),
		"ffffffff81000000 T _text\nffffffff81000010 t b\nffffffff81000008 t c\n",
		"0000000000000000 T _text\n0000000000000000 t x\n",
	};
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		struct pk__kindex *idx;
		uint64_t text = 0;

		snprintf(path, sizeof(path), "%s/kindex-XXXXXX", dir ? dir : "/tmp");
		assert_true((fd = mkstemp(path)) >= 0);
		f = fdopen(fd, "w");
		fputs(files[i], f);
		fclose(f);
		assert_int_equal(pk__kindex_new(&idx), 0);
		assert_int_equal(pk__kindex_scan(idx, path, i == 0, false, &text), i == 2 ? -EACCES : 0);
		if (i < 2) {
			assert_int_equal(text, 0xffffffff81000000ull);
			assert_int_equal(pk__kindex_in_order(idx), i == 0);	/* 'r' is not kept */
			assert_int_equal(pk__kindex_nr(idx), 3);
		}
		pk__kindex_free(idx);
		unlink(path);
	}
}

/* A scan that may keep its work beside the file (`kept`), as a symbol
 * table; *from_cache: whether it was read back. */
static struct pk__symtab *scanned_kept(const char *path, bool *from_cache)
{
	struct pk__symtab *y;
	struct pk__kindex *idx;
	uint64_t text = 1;

	assert_int_equal(pk__symtab_new(&y), 0);
	assert_int_equal(pk__kindex_new(&idx), 0);
	assert_int_equal(pk__kindex_scan(idx, path, true, true, &text), 0);
	assert_int_equal(text, 0);
	assert_true(pk__kindex_in_order(idx));
	*from_cache = pk__kindex_from_cache(idx);
	assert_int_equal(pk__kindex_finish(idx), 0);
	pk__symtab_set_index(y, idx);
	return y;
}

/* The kept scan's answers are the table's; whether it was read back. */
static bool kept_answers(const char *path, struct pk__symtab *t, uint64_t last)
{
	bool from_cache;
	struct pk__symtab *y = scanned_kept(path, &from_cache);

	for (uint64_t a = BASE - 2; a <= last + 3 * 4096; a += 5)
		same(t, y, a);
	pk__symtab_free(y);
	return from_cache;
}

static void put(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* The index path of `path`, and its bytes (*len of them). */
static char *index_of(const char *path, char *ipath, size_t size, size_t *len)
{
	snprintf(ipath, size, "%s%s", path, ".perfkit-index");
	return access(ipath, F_OK) == 0 ? slurp(ipath, len) : NULL;
}

/* Damage the kept file (a bit of a block, the file's time it holds, cut
 * short; blocks out of order and past the text's end with the checksum
 * made right) and change the kallsyms file's time: each time the scan
 * is made again (the same answers) and kept, and read back the time
 * after. */
static void kept_damage(const char *path, struct pk__symtab *t, uint64_t last)
{
	char ipath[4200], *bytes;
	size_t len;
	struct timespec times[2] = { { 0, UTIME_OMIT }, { 1234567, 0 } };

	for (int how = 0; how < 6; how++) {
		bytes = index_of(path, ipath, sizeof(ipath), &len);
		assert_non_null(bytes);
		assert_true(len > 200);
		if (how == 0)
			bytes[96 + 8] ^= 1;	/* the first block's offset: the checksum */
		else if (how == 1)
			bytes[40] ^= 1;		/* the file's modification time */
		else if (how == 4)	/* the first two blocks swapped */
			memcpy(bytes + 96 + 16 + 8, bytes + 96 + 8, 8);
		else if (how == 5)	/* the last block past the text */
			memset(bytes + len - 8, 0x7f, 8);
		if (how >= 4)
			pk__kindex_cache_reseal(bytes, len);
		if (how < 2 || how >= 4)
			put(ipath, bytes, len);
		else if (how == 2)
			assert_int_equal(truncate(ipath, 100), 0);
		else
			assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
		free(bytes);
		assert_false(kept_answers(path, t, last));
		assert_true(kept_answers(path, t, last));
	}
}

/* The scan of a build-id cache's kallsyms kept beside it: made and kept
 * once, then read back with the same answers; a damaged or stale one is
 * made again; a file of that name that is not one is neither read nor
 * replaced; nothing kept without `kept`, for hidden addresses, or in a
 * directory the caller does not own. */
static void kept_beside_the_file(void **state)
{
	const char *dir = getenv("TMPDIR");
	char ipath[4200], sub[4096], moved[4200], *text, *bytes;
	static const char foreign[] = "not an index\n";
	struct pk__symtab *t, *y;
	struct pk__kindex *idx;
	uint64_t last, tx;
	char *path = make_file(0x1234567, &last);
	size_t len;

	(void)state;
	assert_int_equal(pk__symtab_new(&t), 0);
	assert_int_equal(pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, to_table, t, &text), 0);
	pk__symtab_own(t, text);
	pk__symtab_finish(t, true);
	assert_false(kept_answers(path, t, last));
	assert_true(kept_answers(path, t, last));
	kept_damage(path, t, last);
	snprintf(ipath, sizeof(ipath), "%s%s", path, ".perfkit-index");
	put(ipath, foreign, sizeof(foreign) - 1);
	assert_false(kept_answers(path, t, last));
	bytes = slurp(ipath, &len);
	assert_int_equal(len, sizeof(foreign) - 1);
	assert_memory_equal(bytes, foreign, len);
	free(bytes);
	unlink(ipath);
	y = scanned(path, true);	/* kept false: nothing written */
	pk__symtab_free(y);
	assert_int_equal(access(ipath, F_OK), -1);
	if (geteuid() == 0) {	/* (CI runs as root) a directory someone else owns */
		snprintf(sub, sizeof(sub), "%s/kindex-dir-XXXXXX", dir ? dir : "/tmp");
		assert_non_null(mkdtemp(sub));
		snprintf(moved, sizeof(moved), "%s/kallsyms", sub);
		assert_int_equal(rename(path, moved), 0);
		assert_int_equal(chown(sub, 65534, 65534), 0);
		assert_false(kept_answers(moved, t, last));
		assert_false(kept_answers(moved, t, last));
		assert_int_equal(rename(moved, path), 0);
		assert_int_equal(rmdir(sub), 0);
	}
	pk__symtab_free(t);
	put(path, "0000000000000000 T _text\n", 25);	/* hidden: an error, nothing kept */
	assert_int_equal(pk__kindex_new(&idx), 0);
	assert_int_equal(pk__kindex_scan(idx, path, true, true, &tx), -EACCES);
	pk__kindex_free(idx);
	assert_int_equal(access(ipath, F_OK), -1);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookups_match_table),
		cmocka_unit_test(hidden_addresses),
		cmocka_unit_test(short_addresses),
		cmocka_unit_test(scan_order_hidden),
		cmocka_unit_test(kept_beside_the_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
