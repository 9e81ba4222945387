/* SPDX-License-Identifier: MIT */
/*
 * mem-src.c - a PERF_SAMPLE_DATA_SRC word's fields (pk_record_data_src)
 * in perf 6.1's words, each appended to a bounded line as perf's
 * perf_mem__*_scnprintf append to theirs, for script's data_src field
 * (one 100-byte line) and report's memory keys (a 64-byte line each).
 */
#include "mem-src.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void mem_line_init(struct mem_line *l, size_t cap)
{
	l->len = 0;
	l->cap = cap < sizeof(l->buf) ? cap : sizeof(l->buf) - 1;
	l->buf[0] = '\0';
}

void mem_line_put(struct mem_line *l, const char *s)
{
	size_t room = l->cap > l->len ? l->cap - l->len : 0, n = strlen(s);

	if (n > room)
		n = room;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

/* perf's walk of a bit mask: each set bit's name, joined by " or ". */
static int put_bits(struct mem_line *l, uint64_t m, const char *const *names, size_t nr, int printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			mem_line_put(l, " or ");
		mem_line_put(l, names[i]);
	}
	return printed;
}

void mem_src_op(struct mem_line *l, const struct pk_data_src *m)
{
	uint32_t op = m->mem_op;

	mem_line_put(l, op & PERF_MEM_OP_NA ? "N/A" : op & PERF_MEM_OP_LOAD ? "LOAD" : op & PERF_MEM_OP_STORE ? "STORE" :
	       op & PERF_MEM_OP_PFETCH ? "PFETCH" : op & PERF_MEM_OP_EXEC ? "EXEC" : "No");
}

void mem_src_lvl(struct mem_line *l, const struct pk_data_src *m)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_CXL] = "CXL", [PERF_MEM_LVLNUM_IO] = "I/O",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache", [PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM", [PERF_MEM_LVLNUM_NA] = "N/A",
	};
	size_t start = l->len;
	int printed = 0;
	char num[8];

	if (m->mem_remote)
		mem_line_put(l, "Remote ");
	/* with hops set perf names them instead of the levels, counting nothing */
	if (m->mem_hops) {
		mem_line_put(l, m->mem_hops < 5 ? hops[m->mem_hops] : "(null)");
		mem_line_put(l, " ");
	} else {
		printed = put_bits(l, m->mem_lvl & ~(uint32_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS), lvl,
				   sizeof(lvl) / sizeof(lvl[0]), 0);
	}
	if (m->mem_lvl_num) {
		if (printed++)
			mem_line_put(l, " or ");
		snprintf(num, sizeof(num), "L%u", m->mem_lvl_num & 15);
		mem_line_put(l, lvlnum[m->mem_lvl_num & 15] ? lvlnum[m->mem_lvl_num & 15] : num);
	}
	if (l->len == start)
		mem_line_put(l, "N/A");
	if (m->mem_lvl & PERF_MEM_LVL_HIT)
		mem_line_put(l, " hit");
	if (m->mem_lvl & PERF_MEM_LVL_MISS)
		mem_line_put(l, " miss");
}

void mem_src_snoop(struct mem_line *l, const struct pk_data_src *m)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	int printed = put_bits(l, m->mem_snoop, snoop, 5, 0);

	if (!put_bits(l, m->mem_snoopx, snoopx, 2, printed))
		mem_line_put(l, "N/A");
}

void mem_src_tlb(struct mem_line *l, const struct pk_data_src *src)
{
	uint32_t m = src->mem_dtlb;

	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

	if (!put_bits(l, m & ~(uint32_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS), tlb, 7, 0))
		mem_line_put(l, "N/A");
	if (m & PERF_MEM_TLB_HIT)
		mem_line_put(l, " hit");
	if (m & PERF_MEM_TLB_MISS)
		mem_line_put(l, " miss");
}

void mem_src_lock(struct mem_line *l, const struct pk_data_src *m)
{
	mem_line_put(l, m->mem_lock & PERF_MEM_LOCK_NA ? "N/A" : m->mem_lock & PERF_MEM_LOCK_LOCKED ? "Yes" : "No");
}

void mem_src_blk(struct mem_line *l, const struct pk_data_src *src)
{
	uint32_t m = src->mem_blk;

	if (!m || (m & PERF_MEM_BLK_NA)) {
		mem_line_put(l, " N/A");
		return;
	}
	if (m & PERF_MEM_BLK_DATA)
		mem_line_put(l, " Data");
	if (m & PERF_MEM_BLK_ADDR)
		mem_line_put(l, " Addr");
}

const char *mem_page_size_name(char *buf, size_t size, uint64_t page_size)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!page_size) {
		snprintf(buf, size, "N/A");
		return buf;
	}
	while (page_size / 1024 > 1 && i < 3) {
		page_size /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", page_size, unit[i]);
	return buf;
}
