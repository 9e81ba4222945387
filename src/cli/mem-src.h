/* SPDX-License-Identifier: MIT */
/*
 * mem-src.h - a PERF_SAMPLE_DATA_SRC word's fields in perf 6.1's words
 * (util/mem-events.c's perf_mem__*_scnprintf), for script's data_src
 * field and report's memory keys, and perf's page size names.
 */
#ifndef PK_CLI_MEM_SRC_H
#define PK_CLI_MEM_SRC_H

#include "perfkit.h"

#include <stddef.h>

/* A bounded line, appended to as perf's scnprintf appends: what does not
 * fit in `cap` characters is cut, the line stays terminated. */
struct mem_line {
	char buf[128];
	size_t len, cap;
};

/* mem_line_init - an empty line holding at most cap characters (cap
 * below sizeof(buf)). */
void mem_line_init(struct mem_line *l, size_t cap);

/* mem_line_put - s appended, cut to the room left. */
void mem_line_put(struct mem_line *l, const char *s);

/* The fields, appended as perf prints them: the operation ("LOAD"), the
 * level ("L1 hit", hops, level numbers, "Remote "), snoop ("None or Fwd"),
 * TLB ("L1 or L2 hit"), lock ("Yes", "No", "N/A") and block (" Data"). */
void mem_src_op(struct mem_line *l, const struct pk_data_src *m);
void mem_src_lvl(struct mem_line *l, const struct pk_data_src *m);
void mem_src_snoop(struct mem_line *l, const struct pk_data_src *m);
void mem_src_tlb(struct mem_line *l, const struct pk_data_src *m);
void mem_src_lock(struct mem_line *l, const struct pk_data_src *m);
void mem_src_blk(struct mem_line *l, const struct pk_data_src *m);

/* mem_page_size_name - perf's get_page_size_name: "N/A" for 0, else the
 * size in B, K, M or G, dividing while the quotient exceeds 1 ("4K").
 * Returns buf. */
const char *mem_page_size_name(char *buf, size_t size, uint64_t page_size);

#endif
