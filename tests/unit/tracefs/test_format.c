/* SPDX-License-Identifier: MIT */
/*
 * test_format.c - the tracefs layer's format parser (libtraceevent behind
 * struct pk__tp_format) on the real Linux 6.18 format files of the catalogue
 * fixture, on hand-written formats that probe one shape each (u8 arrays,
 * __rel_loc, no print fmt, a buffer that is not NUL-terminated), and on
 * malformed text, which must fail with a message and never print.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkit.h"
#include "tracefs/tracefs.h"

static char fixture[PATH_MAX];

static const struct pk__tp_field *field(const struct pk__tp_format *f, const char *name)
{
	for (size_t i = 0; i < f->nr_fields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	fail_msg("no field %s in %s:%s", name, f->sys, f->name);
	return NULL;
}

static void test_sched_switch(void **state)
{
	struct pk__tp_format *f;
	const struct pk__tp_field *x;
	size_t nr_common = 0;

	(void)state;
	assert_int_equal(pk__tracefs_format(fixture, "sched", "sched_switch", &f), 0);
	assert_string_equal(f->sys, "sched");
	assert_string_equal(f->name, "sched_switch");
	assert_int_equal(f->id, 372);
	assert_int_equal(f->nr_fields, 4 + 7);
	for (size_t i = 0; i < f->nr_fields; i++)
		nr_common += f->fields[i].is_common;
	assert_int_equal(nr_common, 4);
	assert_true(f->fields[0].is_common);
	assert_string_equal(f->fields[0].name, "common_type");
	assert_true(!strncmp(f->print_fmt, "\"prev_comm=%s prev_pid=%d", 25));
	assert_non_null(strstr(f->print_fmt, "__print_flags(REC->prev_state"));

	x = field(f, "prev_comm");
	assert_string_equal(x->type, "char[16]");
	assert_int_equal(x->offset, 8);
	assert_int_equal(x->size, 16);
	assert_int_equal(x->arraylen, 16);
	assert_true(x->is_array && x->is_string && !x->is_dynamic && !x->is_signed);
	x = field(f, "next_pid");
	assert_string_equal(x->type, "pid_t");
	assert_int_equal(x->offset, 56);
	assert_true(x->is_signed && !x->is_string && !x->is_array);
	/* Handed to __print_flags in the print fmt: still signed, as declared. */
	x = field(f, "prev_state");
	assert_string_equal(x->type, "long");
	assert_int_equal(x->size, 8);
	assert_true(x->is_signed);
	pk__tp_format_free(f);
}

static void test_data_loc(void **state)
{
	struct pk__tp_format *f;
	const struct pk__tp_field *x;

	(void)state;
	assert_int_equal(pk__tracefs_format(fixture, "sched", "sched_process_exec", &f), 0);
	x = field(f, "filename");
	assert_string_equal(x->type, "__data_loc char[]");
	assert_int_equal(x->offset, 8);
	assert_int_equal(x->size, 4);
	assert_true(x->is_dynamic && x->is_string && x->is_array);
	assert_true(field(f, "old_pid")->is_signed);
	pk__tp_format_free(f);
}

#define HEAD "name: t\nID: 7\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static struct pk__tp_format *parse_ok(const char *text)
{
	struct pk__tp_format *f = NULL;

	assert_int_equal(pk__tracefs_format_parse(text, strlen(text), "test", &f), 0);
	assert_non_null(f);
	assert_string_equal(f->sys, "test");
	assert_string_equal(f->name, "t");
	assert_int_equal(f->id, 7);
	return f;
}

static void test_shapes(void **state)
{
	struct pk__tp_format *f;
	const struct pk__tp_field *x;

	(void)state;
	f = parse_ok(HEAD "\tfield:u8 mac[6];\toffset:8;\tsize:6;\tsigned:0;\n"
		     "\tfield:__rel_loc char[] msg;\toffset:16;\tsize:4;\tsigned:0;\n"
		     "\tfield:unsigned char c;\toffset:20;\tsize:1;\tsigned:0;\n\n"
		     "print fmt: \"mac=%6phC msg=%s\", REC->mac, __get_rel_str(msg)\n");
	assert_int_equal(f->nr_fields, 5);
	x = field(f, "mac");
	assert_true(x->is_array && !x->is_string);	/* bytes, not text */
	assert_int_equal(x->arraylen, 6);
	x = field(f, "msg");
	assert_true(x->is_dynamic && x->is_string);
	assert_false(field(f, "c")->is_string);	/* one char is a number */
	assert_string_equal(f->print_fmt, "\"mac=%6phC msg=%s\", REC->mac, __get_rel_str(msg)");
	pk__tp_format_free(f);

	/* Arguments libtraceevent 1.7.1 crashed on (fuzz_tracefs): kept as text. */
	f = parse_ok(HEAD "\nprint fmt:\"\",i?q:e]");
	assert_string_equal(f->print_fmt, "\"\",i?q:e]");
	pk__tp_format_free(f);

	/* No print fmt at all: the fields still parse; print_fmt is "". */
	f = parse_ok(HEAD "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n");
	assert_string_equal(f->print_fmt, "");
	assert_true(field(f, "v")->is_signed);
	pk__tp_format_free(f);
}

/* The length is the end: what follows in memory is not read. */
static void test_length_bounded(void **state)
{
	static const char text[] = HEAD "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int w;\toffset:12;\tsize:4;\tsigned:1;\n";
	size_t len = strlen(text) - strlen("\tfield:int w;\toffset:12;\tsize:4;\tsigned:1;\n");
	char *copy = malloc(len);	/* no NUL: ASan sees any read past it */
	struct pk__tp_format *f = NULL;

	(void)state;
	assert_non_null(copy);
	memcpy(copy, text, len);
	assert_int_equal(pk__tracefs_format_parse(copy, len, "test", &f), 0);
	assert_int_equal(f->nr_fields, 3);
	pk__tp_format_free(f);
	free(copy);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"name: t\n",
		"garbage\nmore: garbage\n",
		"ID: 7\nname: t\n",	/* the name comes first */
	};
	struct pk__tp_format *f;
	FILE *err = tmpfile();
	int saved = dup(STDERR_FILENO);

	(void)state;
	assert_non_null(err);
	assert_true(saved >= 0);
	/* The library never prints: whatever libtraceevent would say lands
	 * in the error record, not on stderr. */
	fflush(stderr);
	assert_true(dup2(fileno(err), STDERR_FILENO) >= 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = (struct pk__tp_format *)1;
		assert_int_equal(pk__tracefs_format_parse(bad[i], strlen(bad[i]), "test", &f), -EINVAL);
		assert_null(f);
		assert_int_equal(pk_last_error()->code, -EINVAL);
		assert_non_null(strstr(pk_last_error()->why, "libtraceevent"));
	}
	f = parse_ok(HEAD "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
		     "print fmt: \"%d\", no_such_helper(REC->v, REC->nope)\n");
	pk__tp_format_free(f);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	assert_int_equal(fseek(err, 0, SEEK_END), 0);
	assert_int_equal(ftell(err), 0);
	fclose(err);
	assert_int_equal(pk__tracefs_format(fixture, "sched", "no_such_event", &f), -ENOENT);
	assert_null(f);
	assert_non_null(strstr(pk_last_error()->why, "events/sched/no_such_event/format"));
}

/* Inputs that crashed libtraceevent 1.7.1 (found by fuzz_tracefs) now parse
 * or fail cleanly: the end of input, a NUL or a non-ASCII byte inside a
 * field line. */
static void test_libtraceevent_crashes(void **state)
{
	static const char eof[] = "name:i\nID:4\nformat:\nfield:r s[";
	static const char nul[] = "name:i\nID:4\nformat:\nfield:r s[\0]; offset:8;\n";
	static const char byte[] = "name:e\nID:4\nformat:\nfield:c r[\xd0\n";
	struct pk__tp_format *f = NULL;
	int ret;

	(void)state;
	ret = pk__tracefs_format_parse(eof, strlen(eof), "test", &f);
	assert_true(ret == 0 || ret == -EINVAL);
	pk__tp_format_free(f);
	ret = pk__tracefs_format_parse(nul, sizeof(nul) - 1, "test", &f);
	assert_true(ret == 0 || ret == -EINVAL);
	pk__tp_format_free(f);
	assert_int_equal(pk__tracefs_format_parse(byte, strlen(byte), "test", &f), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "0xd0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched_switch),
		cmocka_unit_test(test_data_loc),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_length_bounded),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_libtraceevent_crashes),
	};

	snprintf(fixture, sizeof(fixture), "%s/tests/unit/catalog/tracefs",
		 getenv("PERFKIT_SRCDIR"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
