/* SPDX-License-Identifier: MIT */
/*
 * callchain-branch.c - the branch half of perf report --branch-history:
 * a sample's branch stack turned into call-chain frames as perf 6.1 adds
 * them (each entry's target, then its source, loops of repeated sources
 * folded into an iteration count, in callee or caller order, with the part
 * of the call chain the branches overlap skipped), the per-frame branch
 * counts perf keeps in each call-chain node (branches, predicted, aborted,
 * cycles, iterations, branch types) and the text perf prints after the
 * frame's name from them ("(CALL predicted:0.0%)", "(cycles:7 iter:1
 * avg_cycles:0)", "(calltrace)").  Written from perf's documented
 * behaviour and its output; no perf code.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "callchain-int.h"

#define HASH_BITS 7
#define HASH_SIZE 127
#define NO_ENTRY 0xff
#define AREA_4K 4096ull
#define AREA_2M (2ull * 1024 * 1024)

/* perf's hash of a branch source into its 127 slots (the kernel's hash_64). */
static unsigned int from_slot(uint64_t from)
{
	return (unsigned int)((from * 0x61C8864680B583EBull) >> (64 - HASH_BITS)) % HASH_SIZE;
}

/* Entries [i, i+off) of `e` repeat those before them: count one more
 * iteration, with those entries' cycles (perf keeps the last loop's). */
static void save_iteration(struct pk_branch_iter *it, const struct perf_branch_entry *e, size_t off)
{
	it->nr_loop_iter++;
	it->cycles = 0;
	for (size_t k = 0; k < off; k++)
		it->cycles += e[k].cycles;
}

size_t pk_branch_remove_loops(struct perf_branch_entry *e, struct pk_branch_iter *iter, size_t nr)
{
	unsigned char slot[HASH_SIZE];

	if (!e || !iter || nr > PK_BRANCH_MAX_DEPTH)
		return nr;
	memset(slot, NO_ENTRY, sizeof(slot));
	memset(iter, 0, nr * sizeof(*iter));
	for (size_t i = 0; i < nr; i++) {
		unsigned int h = from_slot(e[i].from);
		size_t j, off = 0;
		bool loop = true;

		if (slot[h] == NO_ENTRY) {	/* a collision is not looked past, as in perf */
			slot[h] = (unsigned char)i;
			continue;
		}
		if (e[slot[h]].from != e[i].from)
			continue;
		for (j = slot[h]; j < i && i + off < nr; j++, off++)
			if (e[j].from != e[i + off].from) {
				loop = false;
				break;
			}
		if (!loop)
			continue;
		if (nr > i + off) {
			size_t rest = nr - (i + off);

			save_iteration(&iter[i + off], &e[i], off);
			memmove(&iter[i], &iter[i + off], rest * sizeof(*iter));
			memmove(&e[i], &e[i + off], rest * sizeof(*e));
		}
		nr -= off;
	}
	return nr;
}

/* Where the callee-order chain goes on after entry `be` (perf's
 * first_call): past a context marker, or past a return address the
 * entry's source is a call just before (at most 8 bytes). */
static size_t next_first_call(const uint64_t *ips, size_t nr_ips, size_t first_call, uint64_t from)
{
	if (first_call >= nr_ips)
		return first_call;	/* perf reads past the chain here; nothing to skip */
	if (ips[first_call] >= PK_CONTEXT_MAX)
		return first_call + 1;
	if (from < ips[first_call] && from >= ips[first_call] - 8)
		return first_call + 1;
	return first_call;
}

int pk_branch_history(const struct perf_branch_entry *br, size_t nr_br, const uint64_t *ips, size_t nr_ips,
		      bool caller_order, size_t max_stack, struct pk_branch_history *out)
{
	size_t nr = nr_br < max_stack ? nr_br : max_stack, first_call = 0;

	if (!out || (nr_br && !br) || (nr_ips && !ips))
		return pk__error(-EINVAL, "pk_branch_history", "no branch stack or no output");
	memset(out, 0, sizeof(*out));
	out->chain_end = nr_ips;
	if (nr_br > PK_BRANCH_MAX_DEPTH)
		return 0;	/* perf: "corrupted branch chain", the call chain alone */
	for (size_t i = 0; i < nr; i++) {
		out->entries[i] = caller_order ? br[nr_br - i - 1] : br[i];
		if (!caller_order && ips)
			first_call = next_first_call(ips, nr_ips, first_call, out->entries[i].from);
	}
	nr = pk_branch_remove_loops(out->entries, out->iter, nr);
	for (size_t i = 0; i < nr; i++) {
		const struct perf_branch_entry *e = &out->entries[i];
		struct pk_branch_frame *to = &out->frames[2 * i], *from = &out->frames[2 * i + 1];

		*to = (struct pk_branch_frame){ .branch = true, .ip = e->to, .from = e->from, .entry = *e };
		*from = (struct pk_branch_frame){ .branch = true, .ip = e->from, .entry = *e,
			.nr_loop_iter = out->iter[i].nr_loop_iter, .iter_cycles = out->iter[i].cycles };
	}
	out->nr_frames = 2 * nr;
	out->first_call = first_call;
	/* perf takes the branches' count off the chain's end, not its start */
	out->chain_end = nr_ips > nr ? nr_ips - nr : 0;
	return 0;
}

void pk_branch_type_count(struct pk_branch_counts *c, const struct perf_branch_entry *e)
{
	if (!c || !e || e->type == PERF_BR_UNKNOWN || e->from == 0)
		return;
	if (e->type == PERF_BR_EXTEND_ABI)
		c->new_counts[e->new_type & (PK_BR_NEW_MAX - 1)]++;
	else
		c->counts[e->type]++;
	if (e->type == PERF_BR_COND) {
		if (e->to > e->from)
			c->cond_fwd++;
		else
			c->cond_bwd++;
	}
	if ((e->from & ~(AREA_2M - 1)) != (e->to & ~(AREA_2M - 1)))
		c->cross_2m++;
	else if ((e->from & ~(AREA_4K - 1)) != (e->to & ~(AREA_4K - 1)))
		c->cross_4k++;
}

void pk_branch_counts_add(struct pk_branch_counts *c, const struct pk_branch_frame *f, bool first)
{
	struct perf_branch_entry e;

	if (!c || !f || !f->branch)
		return;
	c->branch_count++;
	if (f->from) {
		c->branch_to = true;
		c->predicted_count += f->entry.predicted;
		c->abort_count += f->entry.abort;
		e = f->entry;	/* the frame's ends are the branch's (a caller may set only those) */
		e.from = f->from;
		e.to = f->ip;
		pk_branch_type_count(c, &e);
		return;
	}
	c->branch_to = false;
	c->cycles_count += f->entry.cycles;
	c->iter_count += f->nr_loop_iter;
	c->iter_cycles += f->iter_cycles;
	if (!first)	/* perf counts a source's matches, not the frame that made the node */
		c->from_count++;
}

const char *pk_branch_type_name(unsigned int type, unsigned int new_type)
{
	static const char *const names[PERF_BR_EXTEND_ABI] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};
	static const char *const new_names[PK_BR_NEW_MAX] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
	};

	if (type < PERF_BR_EXTEND_ABI)
		return names[type];
	if (type == PERF_BR_EXTEND_ABI && new_type < PK_BR_NEW_MAX)
		return new_names[new_type];
	return "(null)";	/* perf prints its NULL name so */
}

/* One item of the text: " (" before the first, " " before the others. */
static size_t put(char *buf, size_t size, size_t at, unsigned int *idx, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static size_t put(char *buf, size_t size, size_t at, unsigned int *idx, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= size)
		return at;
	n = snprintf(buf + at, size - at, "%s", (*idx)++ ? " " : " (");
	if (n > 0)
		at += (size_t)n;
	if (at >= size)
		return size;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		at += (size_t)n;
	return at < size ? at : size;
}

/* The closing parenthesis after the last item. */
static size_t put_close(char *buf, size_t size, size_t at)
{
	int n = at < size ? snprintf(buf + at, size - at, ")") : 0;

	at += n > 0 ? (size_t)n : 0;
	return at < size ? at : size;
}

/* The target's text: its branch types, then predicted and abort shares. */
static size_t to_str(const struct pk_branch_counts *c, char *buf, size_t size)
{
	uint64_t total = 0;
	unsigned int idx = 0;
	size_t at = 0;

	for (int i = 0; i < PERF_BR_MAX; i++)
		total += c->counts[i];
	for (int i = 0; i < PK_BR_NEW_MAX; i++)
		total += c->new_counts[i];
	if (total) {
		if (c->cond_fwd)
			at = put(buf, size, at, &idx, "COND_FWD");
		if (c->cond_bwd)
			at = put(buf, size, at, &idx, "COND_BWD");
		for (unsigned int i = 0; i < PERF_BR_EXTEND_ABI; i++)	/* extended ones count below */
			if (i != PERF_BR_COND && c->counts[i])
				at = put(buf, size, at, &idx, "%s", pk_branch_type_name(i, 0));
		for (unsigned int i = 0; i < PK_BR_NEW_MAX; i++)
			if (c->new_counts[i])
				at = put(buf, size, at, &idx, "%s", pk_branch_type_name(PERF_BR_EXTEND_ABI, i));
		if (c->cross_4k)
			at = put(buf, size, at, &idx, "CROSS_4K");
		if (c->cross_2m)
			at = put(buf, size, at, &idx, "CROSS_2M");
	}
	if (c->predicted_count < c->branch_count)
		at = put(buf, size, at, &idx, "predicted:%.1f%%",
			 (double)(float)((double)c->predicted_count * 100.0 / (double)c->branch_count));
	if (c->abort_count) {
		float v = (float)((double)c->abort_count * 100.0 / (double)c->branch_count);

		if (v >= 0.1f)
			at = put(buf, size, at, &idx, "abort:%.1f%%", (double)v);
	}
	return idx ? put_close(buf, size, at) : at;
}

/* The source's text: its mean cycles, then iterations and their cycles. */
static size_t from_str(const struct pk_branch_counts *c, char *buf, size_t size)
{
	uint64_t cycles = c->cycles_count / c->branch_count;
	unsigned int idx = 0;
	size_t at = 0;

	if (cycles)
		at = put(buf, size, at, &idx, "cycles:%" PRIu64, cycles);
	if (c->iter_count && c->from_count && c->iter_count / c->from_count) {
		at = put(buf, size, at, &idx, "iter:%" PRIu64, c->iter_count / c->from_count);
		at = put(buf, size, at, &idx, "avg_cycles:%" PRIu64, c->iter_cycles / c->iter_count);
	}
	return idx ? put_close(buf, size, at) : at;
}

size_t pk_branch_counts_str(const struct pk_branch_counts *c, char *buf, size_t size)
{
	size_t n;

	if (!buf || !size)
		return 0;
	buf[0] = 0;
	if (!c || !c->branch_count)
		n = (size_t)snprintf(buf, size, " (calltrace)");
	else
		n = c->branch_to ? to_str(c, buf, size) : from_str(c, buf, size);
	return n < size ? n : size - 1;
}

bool pk__branch_frames_any(const struct pk_callchain_frame *frames, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (frames[i].branch && frames[i].branch->branch)
			return true;
	return false;
}

int pk__branch_counts_new(struct pk_branch_counts **bc, const struct pk_callchain_frame *frames, size_t nr)
{
	*bc = NULL;
	if (!pk__branch_frames_any(frames, nr))
		return 0;
	if (!(*bc = pk__calloc(nr, sizeof(**bc))))
		return pk__error_nomem("a call-chain node's branch counts");
	for (size_t i = 0; i < nr; i++)
		pk_branch_counts_add(&(*bc)[i], frames[i].branch, true);
	return 0;
}

int pk__branch_counts_match(struct pk_branch_counts **bc, size_t nr, size_t idx,
			    const struct pk_callchain_frame *f)
{
	if (!f->branch || !f->branch->branch)
		return 0;
	if (!*bc && !(*bc = pk__calloc(nr, sizeof(**bc))))
		return pk__error_nomem("a call-chain node's branch counts");
	pk_branch_counts_add(&(*bc)[idx], f->branch, false);
	return 0;
}

int pk__branch_counts_tail(struct pk_branch_counts **tail, const struct pk_branch_counts *bc, size_t k,
			   size_t nr)
{
	*tail = NULL;
	if (!bc || k >= nr)
		return 0;
	if (!(*tail = pk__calloc(nr - k, sizeof(**tail))))
		return pk__error_nomem("a call-chain node's branch counts");
	memcpy(*tail, bc + k, (nr - k) * sizeof(**tail));
	return 0;
}
