/* SPDX-License-Identifier: MIT */
/*
 * test_kallsyms.c - the one /proc/kallsyms reader: lines (well-formed,
 * with modules, malformed), fixture files in a temp dir (a normal one, one
 * whose addresses are hidden, one missing; overlong lines and NULs),
 * running out of file descriptors, a callback that stops the walk, and
 * the real file.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "host/host.h"
#include "tmpdir.h"

static void test_lines(void **state)
{
	static const struct {
		const char *line;
		int err;
		uint64_t addr;
		char type;
		const char *name, *module;
	} t[] = {
		{ "ffffffff81000000 T _stext\n", 0, 0xffffffff81000000, 'T', "_stext", NULL },
		{ "0000000000000000 A fixed_percpu_data\n", 0, 0, 'A', "fixed_percpu_data", NULL },
		{ "ffffffffc0a01000 t ext4_fill_super\t[ext4]\n", 0, 0xffffffffc0a01000, 't',
		  "ext4_fill_super", "ext4" },
		{ "ffffffffc0a01000 t foo [m]", 0, 0xffffffffc0a01000, 't', "foo", "m" },
		{ "ffffffff81000000 T _stext", 0, 0xffffffff81000000, 'T', "_stext", NULL },
		{ "ffffffff81000000 T name.isra.0\n", 0, 0xffffffff81000000, 'T', "name.isra.0", NULL },
		{ "", -EINVAL, 0, 0, NULL, NULL },
		{ "\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 T\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 T \n", -EINVAL, 0, 0, NULL, NULL },	/* no name */
		{ "ffffffff81000000 TT name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 1 name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "zzzz T name\n", -EINVAL, 0, 0, NULL, NULL },
		{ " ffffffff81000000 T name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "1ffffffffffffffff T name\n", -EINVAL, 0, 0, NULL, NULL },	/* 65 bits */
		{ "ffffffffc0a01000 t foo\t[ext4\n", -EINVAL, 0, 0, NULL, NULL },	/* unclosed */
		{ "ffffffffc0a01000 t foo\t[]\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffffc0a01000 t foo\t[m] junk\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffffc0a01000 t foo junk\n", -EINVAL, 0, 0, NULL, NULL },
		{ "5 t \x1a", -EINVAL, 0, 0, NULL, NULL },	/* fuzzing: a control char is no name */
		{ "5 t a\x1a\n", -EINVAL, 0, 0, NULL, NULL },
		{ "5 t \xc3\xa9t\xc3\xa9\n", 0, 5, 't', "\xc3\xa9t\xc3\xa9", NULL },
		/* The address read eight digits at a time: upper case, a digit
		 * or letter at each end of the hex ranges, 15 and 17 digits. */
		{ "FFFFFFFF8100ABCD T up\n", 0, 0xffffffff8100abcd, 'T', "up", NULL },
		{ "0123456789abcdef t r\n", 0, 0x0123456789abcdef, 't', "r", NULL },
		{ "9aAfF0a9ffffffff t r\n", 0, 0x9aaff0a9ffffffff, 't', "r", NULL },
		{ "ffffffff8100000 T fifteen\n", 0, 0xffffffff8100000, 'T', "fifteen", NULL },
		{ "ffffffff810000000 T seventeen\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff8100g000 T name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff:1000000 T name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff`1000000 T name\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff\xe6" "1000000 T name\n", -EINVAL, 0, 0, NULL, NULL },
		/* Names read eight bytes at a time: ending on a word's edge, a
		 * blank, a control character or DEL in a word or in the tail. */
		{ "ffffffff81000000 T abcdefgh\n", 0, 0xffffffff81000000, 'T', "abcdefgh", NULL },
		{ "ffffffff81000000 T abcdefghijklmnop", 0, 0xffffffff81000000, 'T',
		  "abcdefghijklmnop", NULL },
		{ "ffffffff81000000 T abcdefghijk\t[mod]\n", 0, 0xffffffff81000000, 'T',
		  "abcdefghijk", "mod" },
		{ "ffffffff81000000 T abc\x7f" "defghijklmnop\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 T abcdefghijk\x7f\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 T abcdefghijk\x01\n", -EINVAL, 0, 0, NULL, NULL },
		{ "ffffffff81000000 T !\x80\xff~abcdefgh!\n", 0, 0xffffffff81000000, 'T',
		  "!\x80\xff~abcdefgh!", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char line[128];
		struct pk__host_ksym s;
		int err;

		snprintf(line, sizeof(line), "%s", t[i].line);
		err = pk__host_ksym_parse(line, &s);
		if (err != t[i].err)
			fail_msg("'%s': got %d, want %d", t[i].line, err, t[i].err);
		if (err)
			continue;
		if (s.addr != t[i].addr || s.type != t[i].type || strcmp(s.name, t[i].name) ||
		    (t[i].module ? !s.module || strcmp(s.module, t[i].module) : s.module != NULL))
			fail_msg("'%s': got %" PRIx64 " %c '%s' [%s]", t[i].line, s.addr, s.type, s.name,
				 s.module ? s.module : "-");
	}
}

struct fixture {
	char dir[256], normal[300], hidden[300], missing[300];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	static struct fixture fx;
	/* One overlong line (a name of 1100 bytes) must be skipped whole. */
	char *longline = malloc(1200);

	memset(longline, 'x', 1199);
	longline[1199] = '\0';
	memcpy(longline, "ffffffff81000500 T ", 19);
	if (!tmp_mkdtemp(fx.dir, sizeof(fx.dir), "perfkit-ksyms"))
		return -1;
	snprintf(fx.normal, sizeof(fx.normal), "%s/kallsyms", fx.dir);
	snprintf(fx.hidden, sizeof(fx.hidden), "%s/hidden", fx.dir);
	snprintf(fx.missing, sizeof(fx.missing), "%s/missing", fx.dir);
	{
		FILE *f = fopen(fx.normal, "w");

		fputs("0000000000000000 A fixed_percpu_data\n"
		      "ffffffff81000000 T _text\n"
		      "this line is malformed\n"
		      "ffffffff81001000 T _stext\n", f);
		fprintf(f, "%s\n", longline);
		fwrite("ffffffff81000600 T a\0b\n", 1, 23, f);	/* a NUL inside */
		/* NULs inside a name's words, at its end, in a module part. */
		fwrite("ffffffff81000700 T abcdefghij\0klmnopqr\n", 1, 39, f);
		fwrite("ffffffff81000800 T abcdefghij\0\n", 1, 31, f);
		fwrite("ffffffff81000900 T abc\t[m\0d]\n", 1, 29, f);
		fputs("ffffffff81e00000 T _etext\n"
		      "ffffffffc0a01000 t ext4_fill_super\t[ext4]\n", f);
		fclose(f);
	}
	free(longline);
	write_file(fx.hidden, "0000000000000000 T _text\n0000000000000000 T _stext\n"
		   "0000000000000000 T _etext\n");
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->normal);
	unlink(fx->hidden);
	return rmdir(fx->dir);
}

struct seen {
	int nr;
	char names[8][32];
	int stop_at;
};

static int collect(void *arg, const struct pk__host_ksym *s)
{
	struct seen *c = arg;

	if (c->nr < 8)
		snprintf(c->names[c->nr], sizeof(c->names[0]), "%s", s->name);
	return ++c->nr == c->stop_at ? 7 : 0;
}

static void test_fixture_files(void **state)
{
	struct fixture *fx = *state;
	struct seen all = { .nr = 0, .stop_at = 0 }, some = { .nr = 0, .stop_at = 2 };

	assert_int_equal(pk__host_kallsyms_read(fx->normal, PK__KSYM_NEED_ADDRS, collect, &all), 0);
	assert_int_equal(all.nr, 5);	/* malformed, overlong, NUL lines skipped */
	assert_string_equal(all.names[2], "_stext");
	assert_string_equal(all.names[3], "_etext");
	assert_string_equal(all.names[4], "ext4_fill_super");
	assert_int_equal(pk__host_kallsyms_read(fx->normal, 0, collect, &some), 7);
	assert_int_equal(some.nr, 2);

	all.nr = 0;
	assert_int_equal(pk__host_kallsyms_read(fx->hidden, 0, collect, &all), 0);
	assert_int_equal(all.nr, 3);	/* the names are there without addresses */
	assert_int_equal(pk__host_kallsyms_read(fx->hidden, PK__KSYM_NEED_ADDRS, collect, &all),
			 -EACCES);
	assert_non_null(strstr(pk_last_error()->hint, "kptr_restrict"));

	assert_int_equal(pk__host_kallsyms_read(fx->missing, 0, collect, &all), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, fx->missing));
	assert_non_null(strstr(pk_last_error()->hint, "CONFIG_KALLSYMS"));
}

/* Names kept, not copied: every name and module the callback saw. */
struct kept {
	int nr;
	const char *names[8], *modules[8];
};

static int keep(void *arg, const struct pk__host_ksym *s)
{
	struct kept *k = arg;

	if (k->nr < 8) {
		k->names[k->nr] = s->name;
		k->modules[k->nr] = s->module;
	}
	k->nr++;
	return 0;
}

/* The whole-file walk: the lines the chunked one sees, their names still
 * there (inside the handed-back text) after the walk; its errors. */
static void test_load(void **state)
{
	struct fixture *fx = *state;
	struct kept k = { 0 };
	char *text = (char *)1;

	assert_int_equal(pk__host_kallsyms_load(fx->normal, PK__KSYM_NEED_ADDRS, keep, &k, &text), 0);
	assert_non_null(text);
	assert_int_equal(k.nr, 5);	/* malformed, overlong, NUL lines skipped */
	assert_string_equal(k.names[0], "fixed_percpu_data");
	assert_string_equal(k.names[1], "_text");
	assert_string_equal(k.names[3], "_etext");
	assert_string_equal(k.names[4], "ext4_fill_super");
	assert_string_equal(k.modules[4], "ext4");
	assert_null(k.modules[3]);
	assert_true(k.names[4] > text && k.modules[4] > k.names[4]);
	free(text);

	k.nr = 0;
	assert_int_equal(pk__host_kallsyms_load(fx->hidden, PK__KSYM_NEED_ADDRS, keep, &k, &text),
			 -EACCES);
	assert_int_equal(k.nr, 3);
	assert_non_null(text);	/* the caller's to free, as on success */
	free(text);
	text = (char *)1;
	assert_int_equal(pk__host_kallsyms_load(fx->missing, 0, keep, &k, &text), -ENOENT);
	assert_null(text);
}

/* With every descriptor in use the reader says so, not "hidden". */
static void test_out_of_fds(void **state)
{
	struct fixture *fx = *state;
	struct rlimit old, low;
	struct seen all = { .nr = 0, .stop_at = 0 };
	int fds[64], nr = 0, err;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 64;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (nr < 64 && (fds[nr] = dup(0)) >= 0)
		nr++;
	err = pk__host_kallsyms_read(fx->normal, 0, collect, &all);
	while (nr > 0)
		close(fds[--nr]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(err, -EMFILE);
	assert_non_null(strstr(pk_last_error()->hint, "ulimit -n"));
	assert_int_equal(all.nr, 0);
}

/* _text from the first lines: past the reader's first 4 KiB read (a line
 * straddles it), a module's _text ignored; 0 when hidden or absent. */
static void test_text(void **state)
{
	struct fixture *fx = *state;
	struct seen all = { .nr = 0, .stop_at = 0 };
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/long", fx->dir);
	assert_non_null(f = fopen(path, "w"));
	for (int i = 0; i < 200; i++)	/* 34 bytes a line: 6800 in all */
		fprintf(f, "ffffffff81%06x t filler_fn_%05d\n", i * 16, i);
	fputs("ffffffffc0001000 t _text\t[mod]\nffffffff81200000 T _text\n", f);
	assert_int_equal(fclose(f), 0);
	assert_true(pk__host_kallsyms_text(path) == 0xffffffff81200000ull);
	assert_int_equal(pk__host_kallsyms_read(path, 0, collect, &all), 0);
	assert_int_equal(all.nr, 202);
	assert_true(pk__host_kallsyms_text(fx->normal) == 0xffffffff81000000ull);
	assert_true(pk__host_kallsyms_text(fx->hidden) == 0);
	assert_true(pk__host_kallsyms_text(fx->missing) == 0);
	assert_int_equal(unlink(path), 0);
}

/* The real file: present on every kernel perfkit runs on, names readable by all. */
static void test_real_kallsyms(void **state)
{
	struct seen all = { .nr = 0, .stop_at = 0 };
	struct kept k = { 0 };
	char *text = NULL;

	(void)state;
	assert_int_equal(pk__host_kallsyms_read(NULL, 0, collect, &all), 0);
	assert_true(all.nr > 1000);
	/* Whole: /proc says its size is 0, so the buffer grows (the file is
	 * megabytes); a module or BPF program loaded since may add lines, but
	 * it reads the same file. */
	assert_int_equal(pk__host_kallsyms_load(NULL, 0, keep, &k, &text), 0);
	assert_non_null(text);
	assert_true(k.nr > all.nr / 2 && k.nr < all.nr * 2);
	assert_true(k.names[0] >= text && k.names[7] > k.names[0]);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_fixture_files),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_out_of_fds),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_real_kallsyms),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
