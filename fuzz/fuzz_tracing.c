/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tracing.c - libFuzzer target for tracing-read.c, the reader of
 * perf.data's HEADER_TRACING_DATA section (bytes from a file, fed to
 * libtraceevent).  An input is a u16 length (little-endian), that many
 * bytes of a tracepoint sample's PERF_SAMPLE_RAW data, and the rest: the
 * section (seeds: fuzz/seed-tracing.py on perf's and perfkit's
 * recordings).  The section is copied into a heap block of exactly its
 * length so ASan sees any read past it.  A refused section must leave an
 * error record that says so; an accepted one formats the raw sample into
 * a short and a long buffer, and the two must agree with snprintf's rule
 * and with pk_tracing_event_name.  Linked into fuzz_replay_tracing, which
 * runs the corpus as a unit test on any compiler.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* The raw sample formatted twice: the short buffer holds a prefix of the
 * long one's text, both NUL-terminated, and the length is the same. */
static void format_raw(struct pk_tracing *t, const uint8_t *raw, size_t len)
{
	char small[16], big[4096];
	int n = pk_tracing_format(t, raw, len, 1, big, sizeof(big));
	int m = pk_tracing_format(t, raw, len, 1, small, sizeof(small));
	const char *name = pk_tracing_event_name(t, raw, len);

	if (n != m || (n < 0 && n != -ENOENT && n != -EINVAL && n != -ENOMEM))
		abort();
	if (n == -ENOENT ? name != NULL : (n >= 0 && !name))
		abort();	/* a format is found exactly when the event has a name */
	if (n < 0)
		return;
	if (strlen(big) != ((size_t)n < sizeof(big) ? (size_t)n : sizeof(big) - 1) ||
	    strlen(small) != ((size_t)n < sizeof(small) ? (size_t)n : sizeof(small) - 1) ||
	    strncmp(small, big, strlen(small)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_tracing *t = (struct pk_tracing *)&t;
	size_t raw_len;
	uint8_t *section, *raw;
	int ret;

	if (size < 2)
		return 0;
	raw_len = (size_t)data[0] | (size_t)data[1] << 8;
	if (raw_len > size - 2)
		raw_len = size - 2;
	raw = malloc(raw_len ? raw_len : 1);
	section = malloc(size - 2 - raw_len ? size - 2 - raw_len : 1);
	if (!raw || !section)
		abort();
	memcpy(raw, data + 2, raw_len);
	memcpy(section, data + 2 + raw_len, size - 2 - raw_len);
	ret = pk_tracing_data_parse(section, size - 2 - raw_len, &t);
	if (ret < 0) {
		const struct pk_error *e = pk_last_error();

		if (t || e->code != ret || !e->what || !e->why || !e->why[0])
			abort();	/* the error record must describe this failure */
	} else {
		if (ret != 0 || !t)
			abort();
		format_raw(t, raw, raw_len);
		pk_tracing_free(t);
	}
	free(section);
	free(raw);
	return 0;
}
