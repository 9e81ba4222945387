/* SPDX-License-Identifier: MIT */
/*
 * test_export_json.c - pk_hist_write_json: the document's exact text for
 * a small histogram (keys, sums, shares, the call tree, hidden rows), and
 * strings every parser reads: quotes, backslashes and control characters
 * escaped, valid UTF-8 passed through, each invalid byte (a stray
 * continuation byte, a cut or overlong sequence, a surrogate) as \ufffd.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

/* The document for one sample per symbol in `syms` (the last one filtered). */
static char *write_doc(const char *const *syms, size_t nr, bool chain)
{
	enum pk_hist_key keys[] = { PK_HIST_KEY_COMM, PK_HIST_KEY_SYM };
	struct pk_hist_json_opts o = { .size = sizeof(o), .file = "p.data", .keys = keys, .nr_keys = 2,
				       .callchain = chain, .cg_mode = PK_CALLCHAIN_GRAPH_ABS };
	struct pk_hist *h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pk_hist_new(keys, 2, &h), 0);
	for (size_t i = 0; i < nr; i++) {
		struct pk_hist_sample s = { .size = sizeof(s), .comm = "w\"k", .pid = 7, .tid = 7, .dso = "lib",
					    .sym = syms[i], .sym_start = 0x100 * (i + 1), .ip = 0x100 * (i + 1),
					    .level = '.', .period = 100 * (nr - i), .filtered = i + 1 == nr };
		struct pk_callchain_frame fr = { syms[i], "lib", s.sym_start, s.ip };

		if (chain)
			assert_int_equal(pk_hist_add_chain(h, &s, &s, &fr, 1, false), 0);
		else
			assert_int_equal(pk_hist_add(h, &s), 0);
	}
	pk_hist_sort(h);
	struct pk_hist_json_event ev = { "cpu-clock", h, 3 };

	assert_int_equal(pk_hist_write_json(f, &o, &ev, 1), 0);
	fclose(f);
	pk_hist_free(h);
	return buf;
}

static void rows_and_tree(void **state)
{
	const char *syms[] = { "main", "hidden" };
	char *doc = write_doc(syms, 2, true);

	(void)state;
	assert_string_equal(doc, "{\"perfkit_report\":1,\"file\":\"p.data\",\"events\":[\n"
				 "{\"name\":\"cpu-clock\",\"samples\":2,\"event_count\":300,\"lost\":3,\"rows\":[\n"
				 "{\"overhead\":66.67,\"samples\":1,\"period\":200,"
				 "\"keys\":{\"comm\":\"w\\\"k\",\"sym\":\"main\",\"level\":\".\"},"
				 "\"callchain\":[{\"name\":\"main\",\"dso\":\"lib\",\"period\":200,\"self\":200,"
				 "\"samples\":1,\"self_samples\":1,\"children\":[]}]}]}]}\n");
	free(doc);
}

static void escapes_and_invalid_utf8(void **state)
{
	const char *syms[] = { "a\\b\t\x01\x7f", "caf\xc3\xa9 \xe2\x82\xac", "x\x80y", "\xc3", "\xc0\xaf",
			       "\xed\xa0\x80", "\xf4\x90\x80\x80", "hidden" };
	char *doc = write_doc(syms, 8, false);

	(void)state;
	assert_non_null(strstr(doc, "\"sym\":\"a\\\\b\\t\\u0001\\u007f\""));
	assert_non_null(strstr(doc, "\"sym\":\"caf\xc3\xa9 \xe2\x82\xac\""));
	assert_non_null(strstr(doc, "\"sym\":\"x\\ufffdy\""));
	assert_non_null(strstr(doc, "\"sym\":\"\\ufffd\""));
	assert_non_null(strstr(doc, "\"sym\":\"\\ufffd\\ufffd\""));		/* overlong '/' */
	assert_non_null(strstr(doc, "\"sym\":\"\\ufffd\\ufffd\\ufffd\""));	/* a surrogate */
	assert_non_null(strstr(doc, "\"sym\":\"\\ufffd\\ufffd\\ufffd\\ufffd\""));	/* past U+10FFFF */
	assert_null(strstr(doc, "hidden"));	/* a filtered entry has no row */
	free(doc);
}

static void bad_arguments(void **state)
{
	struct pk_hist_json_opts o = { .size = 4 };

	(void)state;
	assert_int_equal(pk_hist_write_json(stdout, &o, NULL, 0), -EINVAL);
	assert_int_equal(pk_hist_write_json(NULL, NULL, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_and_tree),
		cmocka_unit_test(escapes_and_invalid_utf8),
		cmocka_unit_test(bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
