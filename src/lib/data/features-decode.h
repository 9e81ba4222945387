/* SPDX-License-Identifier: MIT */
/*
 * features-decode.h - the feature decoders' internal interface: the cursor
 * over a section's bytes, the arena of a decoded section, and the split
 * between features-decode.c (the framework and the machine's features)
 * and features-decode-rec.c (the recording's features).
 */
#ifndef PK_FEATURES_DECODE_H
#define PK_FEATURES_DECODE_H

#include "perfkit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pk_feature {
	unsigned int id;
	struct chunk *chunks;		/* the arena: every allocation of the section */
	void *value;			/* the typed struct, for the struct features */
	const char *string;		/* the string features */
	char **argv;			/* CMDLINE */
	uint32_t argc;
	uint64_t u64;			/* TOTAL_MEM, CLOCKID, DIR_FORMAT */
	bool have_u64;
};

/* A bounds-checked read position in one section; the first failure sets
 * err (with the error record) and every later read yields zeros. */
struct pk__feat_cur {
	const unsigned char *p;
	size_t len, off;
	bool swap;
	bool handled;			/* the recording's decoders took the id */
	int err;
	struct pk_feature *f;
};

/* pk__feat_alloc - zeroed memory owned by the section; NULL (err set) when out. */
void *pk__feat_alloc(struct pk__feat_cur *c, size_t size);

/* pk__feat_fail - record that the section stops making sense here, `why`
 * naming what; the first failure wins. */
void pk__feat_fail(struct pk__feat_cur *c, const char *why);

/* pk__feat_bytes - the next n bytes, or NULL (err set, naming `what`) past the end. */
const void *pk__feat_bytes(struct pk__feat_cur *c, size_t n, const char *what);

/* pk__feat_u32 / pk__feat_u64 - the next number in the host's byte order. */
uint32_t pk__feat_u32(struct pk__feat_cur *c);
uint64_t pk__feat_u64(struct pk__feat_cur *c);

/* pk__feat_count - whether nr entries of at least min_each bytes fit in what
 * is left; false (err set, naming `what`) when not. */
bool pk__feat_count(struct pk__feat_cur *c, uint64_t nr, size_t min_each, const char *what);

/* pk__feat_array - nr zeroed elements of `each` bytes once pk__feat_count
 * allows nr entries of min_bytes; NULL (err set) otherwise. */
void *pk__feat_array(struct pk__feat_cur *c, uint64_t nr, size_t each, size_t min_bytes,
		     const char *what);

/* pk__feat_string / pk__feat_strings - a perf_header_string (NUL-terminated
 * copy), a u32-counted list of them; NULL (err set) when malformed. */
char *pk__feat_string(struct pk__feat_cur *c);
char **pk__feat_strings(struct pk__feat_cur *c, uint32_t *nr);

/* pk__feat_recording - the typed value of a feature about the recording
 * (EVENT_DESC, GROUP_DESC, BUILD_ID, SAMPLE_TIME, CLOCK_DATA, COMPRESSED,
 * AUXTRACE, BPF_PROG_INFO, BPF_BTF), setting c->handled; NULL without
 * c->handled for any other id. */
void *pk__feat_recording(struct pk__feat_cur *c);

#endif
