/* SPDX-License-Identifier: MIT */
/*
 * report-hier-keys.c - the order of report --hierarchy's entries at a
 * level: each sort key of two flat entries compared as perf 6.1 compares
 * it there (names ascending, perf's signed differences, unresolved
 * symbols by address), and perf's collapse order, which decides the entry
 * a level's entry is made from.
 */
#include "report.h"
#include "report-hier.h"

#include <string.h>

/* The text of a key perf makes lazily: a source line or file, a
 * tracepoint's fields. */
const char *hier_src_text(enum pk_hist_key k, const struct pk_hist_entry *e)
{
	return k == PK_HIST_KEY_SRCLINE ? e->s.srcline : k == PK_HIST_KEY_SRCFILE ? e->s.srcfile : e->s.trace;
}

static int num_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* x first (-1) when x - y is positive as perf's int64_t difference. */
static int signed_first(uint64_t x, uint64_t y)
{
	int64_t d = (int64_t)(x - y);

	return d > 0 ? -1 : d < 0;
}

/* perf's sort__sym_cmp: by object, then resolved symbols by start, then
 * addresses. */
static int addr_order(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	if ((c = hier_key_cmp(PK_HIST_KEY_DSO, a, b)))
		return c;
	if (!a->s.sym || !b->s.sym)
		return a->s.sym || b->s.sym ? (a->s.sym ? -1 : 1) : num_cmp(a->s.ip, b->s.ip);
	return num_cmp(a->s.sym_start, b->s.sym_start);
}

/* Key `k` of two entries: equal (0), or their order as the flat table
 * sorts them (names ascending; unresolved symbols by address). */
int hier_key_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	if (k == PK_HIST_KEY_IPC_NULL)
		return addr_order(a, b);
	if (k == PK_HIST_KEY_PID)	/* perf's thread: by its tid, a pid_t (-1 first) */
		return (int32_t)a->s.tid < (int32_t)b->s.tid ? -1 : (int32_t)a->s.tid > (int32_t)b->s.tid;
	if (k == PK_HIST_KEY_CPU)
		return a->s.cpu < b->s.cpu ? -1 : a->s.cpu > b->s.cpu;
	if (k == PK_HIST_KEY_PERIOD)	/* perf's Period output field: no order, one entry */
		return 0;
	if (k == PK_HIST_KEY_TIME || k == PK_HIST_KEY_SYM_SIZE || k == PK_HIST_KEY_DSO_SIZE ||
	    k == PK_HIST_KEY_CODE_PAGE_SIZE || k == PK_HIST_KEY_CGROUP)	/* the flat table's orders */
		return num_cmp(k == PK_HIST_KEY_TIME ? a->s.time : k == PK_HIST_KEY_SYM_SIZE ? a->s.sym_size :
			       k == PK_HIST_KEY_DSO_SIZE ? a->s.dso_size : k == PK_HIST_KEY_CGROUP ? a->s.cgroup :
			       a->s.code_page_size,
			       k == PK_HIST_KEY_TIME ? b->s.time : k == PK_HIST_KEY_SYM_SIZE ? b->s.sym_size :
			       k == PK_HIST_KEY_DSO_SIZE ? b->s.dso_size : k == PK_HIST_KEY_CGROUP ? b->s.cgroup :
			       b->s.code_page_size);
	if (k == PK_HIST_KEY_WEIGHT || k == PK_HIST_KEY_LOCAL_WEIGHT)	/* perf's left - right */
		return signed_first(a->s.weight, b->s.weight);
	if (k == PK_HIST_KEY_INS_LAT || k == PK_HIST_KEY_LOCAL_INS_LAT)
		return a->s.ins_lat > b->s.ins_lat ? -1 : a->s.ins_lat < b->s.ins_lat;
	if (k == PK_HIST_KEY_TRANSACTION)	/* perf's (int64_t)(left - right) */
		return signed_first(a->s.transaction, b->s.transaction);
	if (k == PK_HIST_KEY_SOCKET)
		return a->s.socket < b->s.socket ? -1 : a->s.socket > b->s.socket;
	if (k == PK_HIST_KEY_ADDR)	/* perf's (int64_t)(right - left) */
		return signed_first(b->s.addr, a->s.addr);
	if (k == PK_HIST_KEY_CGROUP_ID)	/* perf's left - right, device then inode */
		return a->s.cgroup_dev != b->s.cgroup_dev ? signed_first(a->s.cgroup_dev, b->s.cgroup_dev) :
							   signed_first(a->s.cgroup_ino, b->s.cgroup_ino);
	if (k == PK_HIST_KEY_SRCLINE || k == PK_HIST_KEY_SRCFILE || k == PK_HIST_KEY_TRACE) {
		const char *p = hier_src_text(k, a), *q = hier_src_text(k, b);

		return !p || !q ? !!p - !!q : strcmp(p, q);
	}
	if (k == PK_HIST_KEY_PARENT)	/* [other] (none) first */
		return !a->s.parent || !b->s.parent ? !!a->s.parent - !!b->s.parent : strcmp(a->s.parent, b->s.parent);
	const char *x = k == PK_HIST_KEY_COMM ? a->s.comm : k == PK_HIST_KEY_DSO ? a->s.dso : a->s.sym;
	const char *y = k == PK_HIST_KEY_COMM ? b->s.comm : k == PK_HIST_KEY_DSO ? b->s.dso : b->s.sym;
	int c;

	if (k == PK_HIST_KEY_SYM && (!x || !y)) {
		if (x || y)
			return x ? -1 : 1;	/* a resolved symbol before an address */
		return a->s.ip < b->s.ip ? -1 : a->s.ip > b->s.ip;
	}
	if (!x || !y)
		return !x - !y;
	if ((c = strcmp(x, y)) || k != PK_HIST_KEY_SYM)
		return c;
	return a->s.sym_start < b->s.sym_start ? -1 : a->s.sym_start > b->s.sym_start;
}

/* Key k of two flat entries in perf's collapse order (its symbols: by
 * object, then resolved ones by start, then addresses). */
int hier_collapse_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	return k == PK_HIST_KEY_SYM ? addr_order(a, b) : hier_key_cmp(k, a, b);
}
