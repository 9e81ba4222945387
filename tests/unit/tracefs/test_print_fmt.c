/* SPDX-License-Identifier: MIT */
/*
 * test_print_fmt.c - the check a recording's format file passes before
 * libtraceevent parses its "print fmt:" line: the kernel's own formats (the
 * catalogue fixture here; every format of the running kernel in the kernel
 * suite's run of this program, with --live) pass, and the damaged ones that
 * crashed libtraceevent 1.7.1 are refused with the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "perfkit.h"
#include "tracefs/tracefs.h"

#define HEAD "name: t\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
#define FIELDS HEAD "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:long state;\toffset:24;\tsize:8;\tsigned:1;\n" \
	"\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n\n"

static const char *root;
static size_t nr_checked;

static int check(const char *text, char *why)
{
	return pk__tracefs_print_fmt_check(text, strlen(text), why, 128);
}

static void test_good(void **state)
{
	static const char *const good[] = {
		HEAD,	/* no print fmt at all */
		FIELDS "print fmt: \"comm=%s\", REC->comm\n",
		FIELDS "print fmt: \"%s state=%s\", __get_str(name), __print_flags(REC->state, \"|\", "
		       "{ 0x01, \"S\" }, { 0x02, \"D\" }) : \"R\"\n",
		FIELDS "print fmt: \"a\nb %ld\", REC->state\n",	/* a newline inside the string */
		FIELDS "print fmt: \"q=\\\"%s\\\"\", REC->comm\n",	/* escaped quotes */
		FIELDS "print fmt: \"%ld\", ((REC->state) ? (REC->state)[0] : 0)\n",
		FIELDS "print fmt: \"%s\", xREC->nofield\n",	/* not a REC-> of its own */
		/* a conditional's last operand as the kernel writes them */
		FIELDS "print fmt: \"%d\", REC->state ? 1 : REC->state\n",
		FIELDS "print fmt: \"%d\", (REC->state ? 1 : (REC->comm[0]))\n",
		FIELDS "print fmt: \"%p\", REC->state ? ((void *)0) : (((char *)base) + (REC->state))\n",
		FIELDS "print fmt: \"%s\", REC->state ? \"a\" : __print_symbolic(REC->state, { 1, \"b\" })\n",
		FIELDS "print fmt: \"%d\", (REC->state ? 2 : 3 == 4) >= 1 ? 5 : 6 != 7\n",
		FIELDS "print fmt: \"%c%d\", REC->state ? 'S' : ' ', REC->comm[REC->state ? 1 : 2]\n",
		/* divisions as the kernel writes them */
		FIELDS "print fmt: \"%lu %lu %lu %lu\", REC->state / 250, REC->state / 1000L, "
		       "REC->state % 64, __get_dynamic_array_len(name) / sizeof(u64)\n",
		FIELDS "print fmt: \"%lu\", REC->state % 010\n",	/* octal 8 */
	};
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (check(good[i], why))
			fail_msg("good format %zu refused: %s", i, why);
}

#define P8 "(((((((("

static void test_bad(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		/* fuzz_tracing: a field renamed, the print fmt still names it */
		{ FIELDS "print fmt: \"%s\", __print_flags(REC->prev_state, \"|\", { 1, \"S\" })\n",
		  "REC->prev_state, which is not a field" },
		/* fuzz_tracefs: a bracket that closes nothing */
		{ FIELDS "print fmt: \"\",i?q:e]\n", "a ']' in its arguments closes nothing" },
		{ FIELDS "print fmt: \"%d\", (REC->state\n", "a ')' in its arguments is never closed" },
		{ FIELDS "print fmt: \"%d\", (REC->state]\n", "a ']' in its arguments closes nothing" },
		{ FIELDS "print fmt: \"%s\", \"open\n", "a string in its arguments is not closed" },
		{ FIELDS "print fmt: \"never closed\n", "does not start with a closed quoted format" },
		{ FIELDS "print fmt: REC->comm\n", "does not start with a closed quoted format" },
		{ FIELDS "print fmt: \"%s\", REC->\n", "REC->, which is not a field" },
		/* fuzz_tracing: a format cut short after a field type's '[' */
		{ HEAD "\tfield:__data_loc char[", "a field line has no ';'" },
		{ HEAD "\tfield:char x[2]\n\nprint fmt: \"x\"\n", "a field line has no ';'" },
		/* fuzz_tracing: a conditional's last operand with a postfix
		 * operator outside brackets */
		{ FIELDS "print fmt: \"%d\", (1 ? 2 : REC->comm[0])\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (1 ? 2 : x->y)\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", 1 ? 2 : (int)x->y\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (1 ? 2 : (x)[1])\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (1 ? 2 : 1.5)\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", REC->state ? 2 : 32;\tsize:1\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (REC->state ? 2 : -32 = 1)\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (REC->state ? 2 : x { 1 })\n", "after a ':'" },
		{ FIELDS "print fmt: \"%c\", REC->state ? 'S' : ' '[0]\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", REC->state ? 2 : d_t prev->state & 3\n", "after a ':'" },
		{ FIELDS "print fmt: \"%d\", (1 ? 2 : \"a\"[0])\n", "after a ':'" },
		/* fuzz_tracing: libtraceevent folds a division by 0 (SIGFPE) */
		{ FIELDS "print fmt: \"%s\", __get_st/(name)\n", "divides by" },
		{ FIELDS "print fmt: \"%d\", 1 % 0\n", "divides by" },
		{ FIELDS "print fmt: \"%d\", REC->state / 0x0UL\n", "divides by" },
		{ FIELDS "print fmt: \"%d\", 5 / y\n", "divides by" },
		/* strtoull reads a leading 0 as octal: "008" is 0 (SIGFPE) */
		{ FIELDS "print fmt: \"%d\", 0x00000%008\n", "divides by" },
		{ FIELDS "print fmt: \"%d\", REC->state / 09\n", "divides by" },
		/* fuzz_tracing: libtraceevent reads "print fmt :" and "field :" too */
		{ FIELDS "print fmt :\"%d\", (1 ? 2 : REC->comm[0])\n", "after a ':'" },
		{ HEAD "\tfield :__data_loc char[", "a field line has no ';'" },
		/* 65 open brackets, one more than the check follows */
		{ FIELDS "print fmt: \"%d\", " P8 P8 P8 P8 P8 P8 P8 P8 "(REC->state\n",
		  "its arguments nest too deep" },
	};
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		if (check(bad[i].text, why) != -EINVAL)
			fail_msg("bad format %zu accepted", i);
		if (!strstr(why, bad[i].why))
			fail_msg("bad format %zu: \"%s\" does not say \"%s\"", i, why, bad[i].why);
	}
}

static int check_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char *buf, why[128];
	size_t n;
	FILE *f;

	(void)st;
	(void)ftw;
	if (flag != FTW_F || strcmp(strrchr(path, '/'), "/format"))
		return 0;
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(buf = malloc(1 << 20));
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	if (pk__tracefs_print_fmt_check(buf, n, why, sizeof(why)))
		fail_msg("%s refused: %s", path, why);
	free(buf);
	nr_checked++;
	return 0;
}

/* Every format file under root/events passes. */
static void test_kernel_formats(void **state)
{
	char events[PATH_MAX];

	(void)state;
	snprintf(events, sizeof(events), "%s/events", root);
	assert_int_equal(nftw(events, check_file, 16, FTW_PHYS), 0);
	assert_true(nr_checked >= 3);
	printf("# %zu format files under %s pass\n", nr_checked, events);
}

int main(int argc, char **argv)
{
	static char fixture[PATH_MAX];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_kernel_formats),
	};

	snprintf(fixture, sizeof(fixture), "%s/tests/unit/catalog/tracefs", getenv("PERFKIT_SRCDIR"));
	root = fixture;
	if (argc > 1 && !strcmp(argv[1], "--live")) {
		/* the running kernel's formats: tracefs mounted where perf looks */
		root = "/sys/kernel/tracing";
		if (access("/sys/kernel/tracing/events", R_OK) &&
		    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
			perror("# mount tracefs on /sys/kernel/tracing (run as root)");
			return 1;
		}
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
