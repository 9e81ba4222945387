/* SPDX-License-Identifier: MIT */
/*
 * perfkit/error.h - the base of every other header: the PK_API export
 * marker, the library's version, and the per-thread error record that every
 * failing call fills (pk_last_error) with what was attempted, why it
 * failed and how to fix it.  Included by perfkit.h.
 */
#ifndef PERFKIT_ERROR_H
#define PERFKIT_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PK_API
#define PK_API __attribute__((visibility("default")))
#endif

/*
 * pk_version - the library's version as "MAJOR.MINOR.PATCH".
 * Returns a static string; never fails.
 */
PK_API const char *pk_version(void);

/*
 * The detail behind the last failed call on this thread.  Every string is
 * non-NULL (possibly empty).  `column` is the 1-based column of the offending
 * character in an event string, or 0 when the error is not about a position.
 */
struct pk_error {
	int code;		/* the negative errno the call returned */
	int column;		/* 1-based column in the parsed string, or 0 */
	const char *what;	/* what was attempted: "perf_event_open(cycles, pid=0, cpu=-1)" */
	const char *why;	/* why it failed, in a sentence */
	const char *hint;	/* how to fix it, or "" when there is nothing to suggest */
};

/*
 * pk_last_error - the detail of the most recent failure on the calling thread.
 * Returns a pointer to thread-local storage that stays valid until the next
 * libperfkit call on this thread.  Before any failure, code is 0 and the
 * strings are empty.  Never returns NULL.
 */
PK_API const struct pk_error *pk_last_error(void);

/*
 * pk_error_format - render `e` as one message for people:
 *   "<what>: <why>" followed by "\n  hint: <hint>" when there is a hint.
 * Writes at most `len` bytes including the terminating NUL into `buf` and
 * returns the length the full message needs (like snprintf), so a return
 * value >= len means the message was cut.  `e` NULL means pk_last_error().
 */
PK_API int pk_error_format(const struct pk_error *e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_ERROR_H */
