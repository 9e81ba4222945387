/* SPDX-License-Identifier: MIT */
/*
 * pmu.h - the pmu layer's internal interface: sysfs PMU discovery behind the
 * public pk_pmus_* / pk_pmu_* accessors, plus the helpers the event layer
 * needs to pack terms and read the perf_event_* sysctls.
 */
#ifndef PK_PMU_H
#define PK_PMU_H

#include "perfkit.h"
#include "../sys/sys.h"

/*
 * pk__pmu_parse_format - parse a format file's text ("config:0-7,32-35",
 * "config1:1,6-10,44", "config2:0-63", "config3:3") into field and mask.
 * Returns 0 or -EINVAL for text that is not a format.
 */
int pk__pmu_parse_format(const char *text, int *field, uint64_t *mask);

/*
 * pk__pmu_format_scan - pk__pmu_parse_format without the error record: the
 * grammar is FIELD ':' RANGE (',' RANGE)*, RANGE being BIT or BIT '-' BIT
 * with 0 <= BIT <= 63.  Returns 0, or the 1-based column of the offending
 * character with *why saying what was expected there.  The scan uses it on
 * every format file, since a bad file is skipped, not reported.
 */
int pk__pmu_format_scan(const char *text, int *field, uint64_t *mask, const char **why);

/*
 * pk__pmu_pack - scatter `value` over the set bits of `mask` (lowest bit of
 * value into the lowest set bit of mask), replacing those bits of *field.
 * Returns 0, or -ERANGE when value has more significant bits than mask has
 * set bits (*field is then unchanged).
 */
int pk__pmu_pack(uint64_t mask, uint64_t value, uint64_t *field);

/*
 * pk__pmu_find_by_type - the PMU of a snapshot whose type is `type`, or NULL.
 */
const struct pk_pmu *pk__pmu_find_by_type(const struct pk_pmus *pmus, uint32_t type);

#endif
