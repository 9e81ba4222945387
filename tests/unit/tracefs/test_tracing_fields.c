/* SPDX-License-Identifier: MIT */
/*
 * test_tracing_fields.c - pk_tracing_format on samples whose raw bytes do
 * not hold what their format says: a static field past the end, a
 * __data_loc or __rel_loc pointing past it, a dynamic string with no NUL
 * of its own.  libtraceevent reads all of these unchecked (a fuzz finding:
 * sched_switch's next_comm at offset 40, size 32, in a 68-byte sample), so
 * perfkit refuses the first three with the field named and reads the last
 * from a NUL-padded copy (the ASan build checks that nothing is read past
 * the sample).  The tracing data section is built here in the layout of
 * perf.data-file-format.txt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

#define FORMAT                                                                               \
	"name: demo\nID: 7\nformat:\n"                                                       \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"               \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"               \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"       \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                           \
	"\n"                                                                                 \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                           \
	"\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"                  \
	"\tfield:__rel_loc char[] rel;\toffset:28;\tsize:4;\tsigned:0;\n"                    \
	"\n"                                                                                 \
	"print fmt: \"comm=%s name=%s rel=%s\", REC->comm, __get_str(name), __get_rel_str(rel)\n"

static size_t put(unsigned char *p, size_t at, const void *v, size_t len)
{
	memcpy(p + at, v, len);
	return at + len;
}

static size_t put_text(unsigned char *p, size_t at, const char *tag, const char *text, int u64)
{
	uint64_t n64 = strlen(text);
	uint32_t n32 = (uint32_t)n64;

	if (tag)
		at = put(p, at, tag, strlen(tag) + 1);
	at = u64 ? put(p, at, &n64, 8) : put(p, at, &n32, 4);
	return put(p, at, text, strlen(text));
}

/* A version 0.6 section with one event, "test:demo", id 7. */
static struct pk_tracing *tracing(void)
{
	static unsigned char sec[4096];
	const uint32_t page = 4096, none = 0, one = 1;
	const uint64_t none64 = 0;
	struct pk_tracing *t = NULL;
	size_t at = put(sec, 0, "\x17\x08\x44tracing0.6", 14);

	at = put(sec, at, "\0\x08", 2);	/* little endian, 8-byte longs */
	at = put(sec, at, &page, 4);
	at = put_text(sec, at, "header_page",
		      "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		      "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		      "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n", 1);
	at = put_text(sec, at, "header_event", "# compressed entry header\n", 1);
	at = put(sec, at, &none, 4);	/* ftrace formats */
	at = put(sec, at, &one, 4);	/* systems */
	at = put(sec, at, "test", 5);
	at = put(sec, at, &one, 4);
	at = put_text(sec, at, NULL, FORMAT, 1);
	at = put(sec, at, &none, 4);	/* kallsyms */
	at = put(sec, at, &none, 4);	/* printk formats */
	at = put(sec, at, &none64, 8);	/* saved_cmdlines */
	assert_int_equal(pk_tracing_data_parse(sec, at, &t), 0);
	return t;
}

/* A sample: comm "sh", name "xyz" at 32 (3 + NUL), rel "ab" after it. */
static size_t sample(unsigned char *raw)
{
	const uint16_t type = 7;
	const uint32_t name = 4u << 16 | 32, rel = 3u << 16 | 4;	/* rel: 28 + 4 + 4 = 36 */

	memset(raw, 0, 64);
	put(raw, 0, &type, 2);
	put(raw, 8, "sh", 2);
	put(raw, 24, &name, 4);
	put(raw, 28, &rel, 4);
	put(raw, 32, "xyz", 4);
	put(raw, 36, "ab", 3);
	return 40;
}

static void test_whole(void **state)
{
	struct pk_tracing *t = tracing();
	unsigned char raw[64];
	size_t n = sample(raw);
	char buf[128];

	(void)state;
	assert_int_equal(pk_tracing_format(t, raw, n, 0, buf, sizeof(buf)),
			 (int)strlen("comm=sh name=xyz rel=ab"));
	assert_string_equal(buf, "comm=sh name=xyz rel=ab");
	pk_tracing_free(t);
}

/* The bytes end inside a static field: refused, the field named. */
static void test_static_past_end(void **state)
{
	struct pk_tracing *t = tracing();
	unsigned char raw[64], *cut;
	char buf[128];

	(void)state;
	sample(raw);
	cut = malloc(20);	/* comm ends at 24: ASan sees any read past 20 */
	assert_non_null(cut);
	memcpy(cut, raw, 20);
	assert_int_equal(pk_tracing_format(t, cut, 20, 0, buf, sizeof(buf)), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "field 'comm' of test:demo"));
	assert_non_null(strstr(pk_last_error()->why, "20 raw bytes"));
	free(cut);
	pk_tracing_free(t);
}

/* A __data_loc and a __rel_loc whose data runs past the end: refused. */
static void test_dynamic_past_end(void **state)
{
	struct pk_tracing *t = tracing();
	unsigned char raw[64];
	size_t n = sample(raw);
	const uint32_t far = 4u << 16 | 38, rel_far = 3u << 16 | 6;
	char buf[128];

	(void)state;
	put(raw, 24, &far, 4);	/* 38 + 4 > 40 */
	assert_int_equal(pk_tracing_format(t, raw, n, 0, buf, sizeof(buf)), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "field 'name'"));
	sample(raw);
	put(raw, 28, &rel_far, 4);	/* 32 + 6 + 3 > 40 */
	assert_int_equal(pk_tracing_format(t, raw, n, 0, buf, sizeof(buf)), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "field 'rel'"));
	pk_tracing_free(t);
}

/* The last dynamic string has no NUL in the sample: it ends at the
 * sample's end, nothing read past it. */
static void test_string_without_nul(void **state)
{
	struct pk_tracing *t = tracing();
	unsigned char raw[64], *exact;
	size_t n = sample(raw) - 1;	/* "ab" without its NUL */
	const uint32_t rel = 2u << 16 | 4;
	char buf[128];

	(void)state;
	put(raw, 28, &rel, 4);
	exact = malloc(n);
	assert_non_null(exact);
	memcpy(exact, raw, n);
	assert_int_equal(pk_tracing_format(t, exact, n, 0, buf, sizeof(buf)),
			 (int)strlen("comm=sh name=xyz rel=ab"));
	assert_string_equal(buf, "comm=sh name=xyz rel=ab");
	free(exact);
	pk_tracing_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_static_past_end),
		cmocka_unit_test(test_dynamic_past_end),
		cmocka_unit_test(test_string_without_nul),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
