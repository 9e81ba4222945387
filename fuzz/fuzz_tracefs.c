/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tracefs.c - libFuzzer target for the tracefs layer: format files and
 * tracepoint names.  An input is a name line ("sys:event", fnmatch globs
 * allowed) followed by the text of a format file.  The text is copied into
 * a heap block of exactly its length (no NUL, so ASan sees any read past
 * it) and parsed with pk__tracefs_format_parse; a result is walked, a
 * failure must leave an error record that says so.  The name is checked
 * against the fixture tracefs tree (tests/unit/catalog/tracefs): nothing it
 * lists or accepts as a subsystem may escape events/ or miss its glob.  The
 * same function is linked into fuzz_replay_tracefs, which runs the corpus
 * as a unit test on any compiler.
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"
#include "tracefs/tracefs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fixture[4096] = "tests/unit/catalog/tracefs";

/* PERFKIT_SRCDIR names the source tree (the test runner sets it); without
 * it the fuzzer is expected to run from the source tree's root. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *src = getenv("PERFKIT_SRCDIR");

	(void)argc;
	(void)argv;
	if (src)
		snprintf(fixture, sizeof(fixture), "%s/tests/unit/catalog/tracefs", src);
	return 0;
}

static volatile size_t sink;

static void check_error(int ret)
{
	const struct pk_error *e = pk_last_error();

	if (ret >= 0 || e->code != ret || !e->what || !e->why || !e->why[0])
		abort();	/* the error record must describe this failure */
}

static void walk_format(const struct pk__tp_format *f)
{
	bool common = true;

	sink += strlen(f->sys) + strlen(f->name) + strlen(f->print_fmt);
	for (size_t i = 0; i < f->nr_fields; i++) {
		const struct pk__tp_field *x = &f->fields[i];

		sink += strlen(x->name) + strlen(x->type) + x->offset + x->size;
		if (x->is_common && !common)
			abort();	/* common fields come first */
		common = x->is_common;
		if ((x->is_string || x->is_dynamic) && !x->is_array)
			abort();
	}
}

static void fuzz_format(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	struct pk__tp_format *f = NULL;
	int ret;

	if (!text)
		return;
	memcpy(text, data, size);
	ret = pk__tracefs_format_parse(text, size, "fuzz", &f);
	if (ret == 0)
		walk_format(f);
	else if (f)
		abort();
	else
		check_error(ret);
	pk__tp_format_free(f);
	free(text);
}

static bool is_component(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static void fuzz_name(const char *name, bool with_ids)
{
	char sys[64];
	const char *colon = strchr(name, ':');
	const char *ev = colon ? colon + 1 : "*";
	size_t n = colon ? (size_t)(colon - name) : strlen(name);
	struct pk__tp *tps;
	size_t nr;
	int ret;

	if (n >= sizeof(sys))
		return;
	memcpy(sys, name, n);
	sys[n] = '\0';
	if (pk__tracefs_is_system(fixture, sys) && !is_component(sys))
		abort();	/* a path outside events/ taken for a subsystem */
	ret = pk__tracefs_list(fixture, sys, ev, with_ids ? 0 : PK__TRACEFS_NO_ID, "fuzz", &tps, &nr);
	if (ret < 0) {
		check_error(ret);
		return;
	}
	for (size_t i = 0; i < nr; i++)
		if (!is_component(tps[i].sys) || !is_component(tps[i].name) ||
		    fnmatch(sys, tps[i].sys, 0) || fnmatch(ev, tps[i].name, 0) ||
		    (with_ids && !tps[i].id))
			abort();
	pk__tp_free(tps, nr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t n = nl ? (size_t)(nl - data) : size;
	char name[64];

	/* Short names only: fnmatch's backtracking is exponential in '*'s. */
	if (n < sizeof(name) && !memchr(data, '\0', n)) {
		memcpy(name, data, n);
		name[n] = '\0';
		fuzz_name(name, n % 2 == 0);	/* both listing modes, by length */
	}
	if (nl)
		fuzz_format(nl + 1, size - n - 1);
	return 0;
}
