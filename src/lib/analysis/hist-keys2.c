/* SPDX-License-Identifier: MIT */
/*
 * hist-keys2.c - the histogram's later sort keys (perf 6.1's time,
 * symbol_size, socket, trace, cgroup, the weights, dso_size, cgroup_id,
 * transaction, code_page_size and addr): which of a sample's fields each groups by, a
 * hash of them, and their order in perf's output (each ascending, as
 * perf's right-minus-left comparisons put them); and the order of perf's
 * ipc_null key, its symbols by address.  hist.c keeps these fields in its
 * entry key beside its own.
 */
#include "hist-int.h"

#include <string.h>

void pk__hist_key2_make(const bool *use, const struct pk_hist_sample *s, struct pk__hist_key2 *k)
{
	*k = (struct pk__hist_key2){ 0 };
	if (use[PK_HIST_KEY_TIME])
		k->time = s->time;
	if (use[PK_HIST_KEY_SYM_SIZE])
		k->sym_size = s->sym_size;
	if (use[PK_HIST_KEY_SOCKET])
		k->socket = s->socket;
	if (use[PK_HIST_KEY_TRACE])
		k->trace = s->trace;
	if (use[PK_HIST_KEY_CGROUP])
		k->cgroup = s->cgroup;
	if (use[PK_HIST_KEY_WEIGHT] || use[PK_HIST_KEY_LOCAL_WEIGHT])
		k->weight = s->weight;
	if (use[PK_HIST_KEY_INS_LAT] || use[PK_HIST_KEY_LOCAL_INS_LAT])
		k->ins_lat = s->ins_lat;
	if (use[PK_HIST_KEY_P_STAGE_CYC] || use[PK_HIST_KEY_LOCAL_P_STAGE_CYC])
		k->p_stage_cyc = s->p_stage_cyc;
	pk__hist_keymem_make(use, s, &k->mem);
	if (use[PK_HIST_KEY_DSO_SIZE])
		k->dso_size = s->dso_size;
	if (use[PK_HIST_KEY_CGROUP_ID]) {
		k->cgroup_dev = s->cgroup_dev;
		k->cgroup_ino = s->cgroup_ino;
	}
	if (use[PK_HIST_KEY_TRANSACTION])
		k->transaction = s->transaction;
	if (use[PK_HIST_KEY_CODE_PAGE_SIZE])
		k->code_page_size = s->code_page_size;
	if (use[PK_HIST_KEY_ADDR])
		k->addr = s->addr;
}

bool pk__hist_key2_uncached(const bool *use, const struct pk_hist_sample *s)
{
	return (use[PK_HIST_KEY_CGROUP_ID] && (s->cgroup_dev || s->cgroup_ino)) ||
	       (use[PK_HIST_KEY_TRANSACTION] && s->transaction) ||
	       (use[PK_HIST_KEY_CODE_PAGE_SIZE] && s->code_page_size);
}

uint64_t pk__hist_key2_hash(const struct pk__hist_key2 *k)
{
	return k->time * 0x9fb21c651e98df25ull + k->sym_size * 0xa0761d6478bd642full +
	       (uint64_t)(uint32_t)k->socket * 0xe7037ed1a0b428dbull + (uintptr_t)k->trace * 0x8ebc6af09c88c6e3ull +
	       k->cgroup * 0x589965cc75374cc3ull + k->weight * 0x1d8e4e27c47d124full +
	       (((uint64_t)k->ins_lat << 16) | k->p_stage_cyc) * 0xd1b54a32d192ed03ull +
	       pk__hist_keymem_hash(&k->mem) +
	       (k->dso_size ^ k->code_page_size << 1) * 0x94d049bb133111ebull +
	       (k->cgroup_dev ^ k->cgroup_ino << 7) * 0xbf58476d1ce4e5b9ull +
	       (k->transaction ^ k->addr) * 0xff51afd7ed558ccdull;
}

bool pk__hist_key2_eq(const struct pk__hist_key2 *a, const struct pk__hist_key2 *b)
{
	return a->time == b->time && a->sym_size == b->sym_size && a->socket == b->socket && a->trace == b->trace &&
	       a->cgroup == b->cgroup && a->weight == b->weight && a->ins_lat == b->ins_lat &&
	       a->p_stage_cyc == b->p_stage_cyc && pk__hist_keymem_eq(&a->mem, &b->mem) &&
	       a->dso_size == b->dso_size && a->cgroup_dev == b->cgroup_dev &&
	       a->cgroup_ino == b->cgroup_ino && a->transaction == b->transaction &&
	       a->code_page_size == b->code_page_size && a->addr == b->addr;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* perf's (int64_t)(x - y) read as "a first when positive". */
static int first_if_pos(uint64_t x, uint64_t y)
{
	int64_t d = (int64_t)(x - y);

	return d > 0 ? -1 : d < 0;
}

int pk__hist_key2_cmp(enum pk_hist_key key, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	switch (key) {
	case PK_HIST_KEY_TIME:
		return cmp_u64(a->s.time, b->s.time);
	case PK_HIST_KEY_SYM_SIZE:
		return cmp_u64(a->s.sym_size, b->s.sym_size);
	case PK_HIST_KEY_SOCKET:
		return a->s.socket < b->s.socket ? -1 : a->s.socket > b->s.socket;
	case PK_HIST_KEY_CGROUP:
		return cmp_u64(a->s.cgroup, b->s.cgroup);
	case PK_HIST_KEY_WEIGHT:	/* perf's left - right: the largest first */
	case PK_HIST_KEY_LOCAL_WEIGHT:
		return cmp_u64(b->s.weight, a->s.weight);
	case PK_HIST_KEY_INS_LAT:
	case PK_HIST_KEY_LOCAL_INS_LAT:
		return cmp_u64(b->s.ins_lat, a->s.ins_lat);
	case PK_HIST_KEY_P_STAGE_CYC:
	case PK_HIST_KEY_LOCAL_P_STAGE_CYC:
		return cmp_u64(b->s.p_stage_cyc, a->s.p_stage_cyc);
	case PK_HIST_KEY_DSO_SIZE:	/* perf's right-minus-left: the smallest first */
		return cmp_u64(a->s.dso_size, b->s.dso_size);
	case PK_HIST_KEY_CODE_PAGE_SIZE:
		return cmp_u64(a->s.code_page_size, b->s.code_page_size);
	case PK_HIST_KEY_TRANSACTION:	/* perf's (int64_t)(left - right) */
		return first_if_pos(a->s.transaction, b->s.transaction);
	case PK_HIST_KEY_CGROUP_ID:	/* perf's left - right, device then inode */
		if (a->s.cgroup_dev != b->s.cgroup_dev)
			return first_if_pos(a->s.cgroup_dev, b->s.cgroup_dev);
		return first_if_pos(a->s.cgroup_ino, b->s.cgroup_ino);
	case PK_HIST_KEY_ADDR:	/* perf's (int64_t)(right - left): kernel addresses first */
		return first_if_pos(b->s.addr, a->s.addr);
	case PK_HIST_KEY_TRACE:	/* perf: no order among other events' entries */
		return a->s.trace && b->s.trace ? strcmp(a->s.trace, b->s.trace) : 0;
	default:
		return pk__hist_keymem_cmp(key, a, b);
	}
}

int pk__hist_sym_addr_cmp(const bool *use, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	if (!a->s.sym && !b->s.sym)
		return cmp_u64(a->s.ip, b->s.ip);
	/* perf compares the objects by name first when dso is no key; one
	 * without an object after one with */
	if (!use[PK_HIST_KEY_DSO] && a->s.dso != b->s.dso) {
		if (!a->s.dso || !b->s.dso)
			return a->s.dso ? -1 : 1;
		if ((c = strcmp(a->s.dso, b->s.dso)))
			return c;
	}
	if (!a->s.sym || !b->s.sym)
		return a->s.sym ? -1 : 1;
	if ((c = cmp_u64(a->s.sym_start, b->s.sym_start)))
		return c;
	return cmp_u64(a->s.sym_start + a->s.sym_size, b->s.sym_start + b->s.sym_size);
}
