/* SPDX-License-Identifier: MIT */
/*
 * perfkit/num.h - strict parsing of the numbers users type (periods,
 * frequencies, sizes, durations): whole strings, checked ranges, no locale,
 * and an error that quotes the value and the allowed range.  Included by
 * perfkit.h.
 */
#ifndef PERFKIT_NUM_H
#define PERFKIT_NUM_H

#include <stdint.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pk_num_parse_u64 - the whole string `s` as an unsigned number in
 * [min, max]: decimal ("010" is ten: no octal) or hex after 0x/0X, with no
 * sign, space or anything after the digits.  Returns 0 and sets *out on
 * success.  Returns -EINVAL when `s` is empty, holds something other than
 * digits, or `s`/`out` is NULL or min > max; -ERANGE when `s` is negative,
 * does not fit in 64 bits or lies outside [min, max].  On failure *out is
 * untouched and pk_last_error()->why quotes the value and the allowed range
 * ("'4294967297' is out of range: give a number from 1 to 4294967295"),
 * for the caller to prefix with the option or term it came from.
 */
PK_API int pk_num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * pk_num_parse_i64 - like pk_num_parse_u64 for a signed number in
 * [min, max], with an optional leading '-' ("-1", "-0x10").  Same results.
 */
PK_API int pk_num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/*
 * pk_num_parse_seconds - a duration in seconds written as decimal digits
 * with at most one '.' ("2", "0.5", ".25"), in [min, max].  Returns 0 and
 * sets *out; -EINVAL for anything else (empty, nan, inf, an exponent, a hex
 * float, a sign other than a leading '-', junk), -ERANGE for a negative
 * value or one outside [min, max].  pk_last_error() says which, as for
 * pk_num_parse_u64.  Never depends on the locale.
 */
PK_API int pk_num_parse_seconds(const char *s, double min, double max, double *out);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_NUM_H */
