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

/* One counter's reading.  Fields the read_format did not ask for are 0. */
struct pk_count {
	uint64_t value;		/* raw count, not scaled */
	uint64_t enabled;	/* PERF_FORMAT_TOTAL_TIME_ENABLED, ns */
	uint64_t running;	/* PERF_FORMAT_TOTAL_TIME_RUNNING, ns */
	uint64_t id;		/* PERF_FORMAT_ID */
	uint64_t lost;		/* PERF_FORMAT_LOST (Linux 6.0+) */
};

/*
 * pk_count_parse - decode the bytes read(2) returned from an event fd opened
 * with `read_format`: one counter, or with PERF_FORMAT_GROUP the leader and
 * every member (group times are copied into each count).  Fills at most
 * `max` entries of `out` and returns the number of counters the buffer holds,
 * which may exceed max (then only max were filled, like snprintf).  Returns
 * -EINVAL, with the error naming the offset, when `len` is not exactly the
 * size the layout needs, or read_format has bits this library does not know.
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
