/* SPDX-License-Identifier: MIT */
/*
 * perfkit/count.h - what read(2) on an event fd returns, decoded
 * (struct pk_count), and counts corrected for multiplexing.  Included by
 * perfkit.h.
 */
#ifndef PERFKIT_COUNT_H
#define PERFKIT_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One counter's reading.  Fields the read_format did not ask for are 0.
 *
 * The caller allocates it and sets size = sizeof(struct pk_count) first, so
 * the struct can grow: the library writes only the fields that fit in
 * `size` (and zeroes the rest of `size` bytes it does not know), and
 * refuses with -EINVAL a size smaller than PK_COUNT_SIZE_VER0, the fields
 * below.  In an array the stride is the first element's size: set size in
 * out[0] (the library sets every element's size to it).  pk_count_scaled
 * and pk_count_ran read only value, enabled and running, which every
 * version has, and do not look at size.
 */
struct pk_count {
	size_t size;		/* set by the caller: sizeof(struct pk_count) */
	uint64_t value;		/* raw count, not scaled */
	uint64_t enabled;	/* PERF_FORMAT_TOTAL_TIME_ENABLED, ns */
	uint64_t running;	/* PERF_FORMAT_TOTAL_TIME_RUNNING, ns */
	uint64_t id;		/* PERF_FORMAT_ID */
	uint64_t lost;		/* PERF_FORMAT_LOST (Linux 6.0+) */
};
/* The size of the first version of struct pk_count: size through lost. */
#define PK_COUNT_SIZE_VER0 (offsetof(struct pk_count, lost) + sizeof(uint64_t))

/*
 * pk_count_parse - decode the bytes read(2) returned from an event fd opened
 * with `read_format`: one counter, or with PERF_FORMAT_GROUP the leader and
 * every member (group times are copied into each count).  Fills at most
 * `max` entries of `out` and returns the number of counters the buffer holds,
 * which may exceed max (then only max were filled, like snprintf).  Returns
 * -EINVAL, with the error naming the offset, when `len` is not exactly the
 * size the layout needs, or read_format has bits this library does not know;
 * -EINVAL when max > 0 and out is NULL or out[0].size is smaller than
 * PK_COUNT_SIZE_VER0 (the stride; see struct pk_count).
 */
PK_API int pk_count_parse(uint64_t read_format, const void *buf, size_t len,
			  struct pk_count *out, size_t max);

/*
 * pk_count_scaled - the count corrected for multiplexing: value * enabled /
 * running, computed in 128 bits so it cannot overflow, rounded down, and
 * saturated at UINT64_MAX.  Returns value unchanged when the times were not
 * read (both 0) or the counter ran the whole time, and 0 when it was
 * enabled but never ran (check pk_count_ran()).
 */
PK_API uint64_t pk_count_scaled(const struct pk_count *c);

/*
 * pk_count_ran - whether the counter was ever scheduled on the PMU: false
 * when it was enabled but running is 0 (perf prints <not counted>), true
 * otherwise, including when the times were not read.
 */
PK_API bool pk_count_ran(const struct pk_count *c);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_COUNT_H */
