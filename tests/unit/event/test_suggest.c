/* SPDX-License-Identifier: MIT */
/*
 * test_suggest.c - pk_suggest, the "did you mean" behind mistyped
 * commands and options: the nearest name within the typo threshold, ties
 * to the first, nothing for a word that is not a typo of any name, and no
 * trace in pk_last_error().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

static const char *const commands[] = { "list", "info", "stat", "record" };
static const char *const options[] = { "freq", "count", "call-graph", "output", "mmap-pages",
				       "compression-level", "no-buildid", "no-buildid-cache" };
#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void test_typos_find_the_name(void **state)
{
	(void)state;
	assert_string_equal(pk_suggest("lsit", commands, NR(commands)), "list");	/* swap: 2 edits */
	assert_string_equal(pk_suggest("recrod", commands, NR(commands)), "record");
	assert_string_equal(pk_suggest("stats", commands, NR(commands)), "stat");
	assert_string_equal(pk_suggest("frq", options, NR(options)), "freq");
	assert_string_equal(pk_suggest("outptu", options, NR(options)), "output");
	/* A long name tolerates a third of its length in edits. */
	assert_string_equal(pk_suggest("compresion-levle", options, NR(options)), "compression-level");
	/* An exact name is its own suggestion. */
	assert_string_equal(pk_suggest("count", options, NR(options)), "count");
}

static void test_far_words_find_nothing(void **state)
{
	(void)state;
	assert_null(pk_suggest("annotate", commands, NR(commands)));
	assert_null(pk_suggest("xyzzy", options, NR(options)));
	/* Two letters rewritten in a two-letter word is another word. */
	assert_null(pk_suggest("xy", (const char *const[]){ "os" }, 1));
	assert_null(pk_suggest("", commands, NR(commands)));
	assert_null(pk_suggest("list", commands, 0));
}

static void test_ties_and_gaps(void **state)
{
	static const char *const near[] = { NULL, "stat", "stab", NULL };

	(void)state;
	/* "sta" is one edit from both: the first listed wins; NULLs are skipped. */
	assert_string_equal(pk_suggest("sta", near, NR(near)), "stat");
	assert_string_equal(pk_suggest("no-buildid-cach", options, NR(options)), "no-buildid-cache");
}

static void test_leaves_the_error_record_alone(void **state)
{
	struct pk_events *ev = NULL;
	char what[512];

	(void)state;
	assert_true(pk_events_parse("no-such-event-here", NULL, &ev) < 0);
	snprintf(what, sizeof(what), "%s", pk_last_error()->what);
	assert_true(what[0] != '\0');
	assert_null(pk_suggest("zzz", commands, NR(commands)));
	assert_non_null(pk_suggest("lsit", commands, NR(commands)));
	assert_string_equal(pk_last_error()->what, what);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typos_find_the_name),
		cmocka_unit_test(test_far_words_find_nothing),
		cmocka_unit_test(test_ties_and_gaps),
		cmocka_unit_test(test_leaves_the_error_record_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
