/* SPDX-License-Identifier: MIT */
/*
 * fuzz_events.c - libFuzzer target for the event-string parser: every input
 * becomes a NUL-terminated string for pk_events_parse, and whatever it
 * returns is walked (every desc, attr printed with pk_attr_format, the error
 * record formatted) so a bad pointer or length anywhere on those paths shows
 * up under ASan.  The same function is linked into fuzz_replay, which runs
 * the corpus as an ordinary unit test on any compiler.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Parse against a fixed sysfs (the Intel fixture tree) rather than whatever
 * machine runs the fuzzer, so a crash reproduces everywhere; PERFKIT_SYSFS_ROOT
 * wins when set.  PERFKIT_FIXTURES names tests/fixtures (the test runner sets it).
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *fx = getenv("PERFKIT_FIXTURES");
	char root[4096];

	(void)argc;
	(void)argv;
	if (!getenv("PERFKIT_SYSFS_ROOT") && fx) {
		snprintf(root, sizeof(root), "%s/sysfs/intel", fx);
		setenv("PERFKIT_SYSFS_ROOT", root, 1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_parse_opts opts;
	struct pk_events *ev = NULL;
	char buf[4096], *spec;
	int n, i;

	spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);

	n = pk_events_parse(spec, &opts, &ev);
	if (n < 0) {
		const struct pk_error *e = pk_last_error();

		if (e->code != n || !e->what || !e->why || !e->hint)
			abort();	/* the error record must describe this failure */
		pk_error_format(NULL, buf, sizeof(buf));
	} else {
		if ((size_t)n != pk_events_nr(ev))
			abort();
		for (i = 0; i < n; i++) {
			const struct pk_event_desc *d = pk_events_desc(ev, (size_t)i);

			if (!d || d->leader >= (size_t)n || !d->name || !d->canonical || !d->pmu)
				abort();
			pk_attr_format(pk_events_attr(ev, (size_t)i), buf, sizeof(buf));
			(void)strlen(d->name);
			(void)strlen(d->canonical);
		}
		pk_events_free(ev);
	}
	free(spec);
	return 0;
}
