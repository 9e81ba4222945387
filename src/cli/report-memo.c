/* SPDX-License-Identifier: MIT */
/*
 * report-memo.c - report's repeated samples counted together (see
 * report-memo.h).  A direct-mapped table of slots, each holding one
 * sample's key (event, pid, tid, CPU, mode, ip and the raw call chain)
 * and, from the key's second sample on, what that sample added: its
 * resolved sample for the stack health, its histogram sample, entries and
 * frames.  A later repeat only counts itself into its slot; the slot's
 * count goes in as one pk_hist_add_chain_n (and pk_stack_health_add_n)
 * when another sample takes the slot or at the end.  Entries are still
 * made in the order perf makes them (the first two samples of a key are
 * added at once), and the trees come out the same: a repeat's chain
 * follows a path the tree already has.  A histogram that looks samples
 * up in order (pk_hist_in_order: perf's input tree, where a key can get a
 * second entry) has every waiting repeat added, in the order the slots
 * began to wait, before a sample of it that is not a repeat.  Any record but a few that change
 * nothing a sample resolves to (report_memo_forget) starts a generation
 * in which no earlier key repeats.
 */
#include "report-memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MEMO_SLOTS 1024	/* a power of two */
#define MEMO_WINDOW 8192	/* samples between looks at the memo's hit rate */

/* A slot's hash and generation, apart from the slot: a sample that
 * misses reads 16 bytes of a small table, not a slot of its own. */
struct memo_tag {
	uint64_t hash;
	uint32_t gen;		/* the memo's generation when kept; 0: empty */
	bool used;		/* the slot held a key once: on the `used` list */
};

/* report_memo_record's offsets of a sample_type's fields (0: none) and
 * the size a record of it needs for them and its chain's count. */
struct memo_layout {
	uint64_t st;		/* the sample_type worked out (all ones at first: none) */
	size_t ip, tid, time, cpu, period, chain, min;
};

/* What a key's second sample added, kept for its repeats: apart from the
 * key, made at a key's second sight (most keys of a kernel-heavy profile
 * never come back), reused by the slot's later keys. */
struct memo_kept {
	bool health, hist;	/* kept: the health's sample, the histogram's */
	struct pk_resolved_sample rs;	/* rs.frames: `rframes` */
	struct pk_frame *rframes;
	size_t cap_rframes;
	struct pk_hist_sample s;
	struct pk_hist_sample *samples;	/* with Children */
	struct pk_callchain_frame *frames;
	size_t nr, cap_samples, cap_frames;
};

/* A slot is small: the table's pages are written only where keys land
 * (a page first written costs this VM several microseconds). */
struct memo_slot {
	/* the key (with its tag's hash), in memo_key's words */
	uint64_t hdr, pidtid, evcpu, ip;
	uint64_t *ips;
	size_t nr_ips, cap_ips;
	bool kept;		/* the second came: repeats from now on are counted here */
	/* its repeats not yet added (by the key: one cache line for a repeat) */
	uint64_t count, period;
	const struct perf_event_attr *attr;
	struct memo_kept *k;	/* NULL until a key of the slot was kept */
	bool waits;		/* on the memo's `waiting` list */
};

struct report_memo {
	struct report_event *ev;
	size_t nr_ev;
	struct pk_stack_health *health;
	bool chain, children;
	uint32_t gen;		/* bumped by report_memo_forget; never 0 */
	bool off;		/* the hit rate was too low to pay */
	bool raw;		/* report_memo_record may take repeats before they are decoded */
	uint32_t nr_seen, nr_hits;	/* in this window of MEMO_WINDOW samples */
	struct memo_slot *cur;	/* the slot the caller's sample fills, or NULL */
	struct memo_slot *last;	/* report_memo_record's last hit, or NULL */
	struct memo_layout layout;	/* report_memo_record's, of the last sample_type */
	uint16_t used[MEMO_SLOTS];	/* the slots that held a key, for flush and free */
	size_t nr_used;
	uint16_t waiting[MEMO_SLOTS];	/* slots with repeats to add, as they began waiting */
	size_t nr_waiting;
	struct memo_tag tags[MEMO_SLOTS];
	struct memo_slot slots[MEMO_SLOTS];
};

/* Whether histograms of keys `o` and its modes give a sample's entry
 * from the memo's key alone (with the maps and threads unchanged). */
static bool memo_wanted(const struct report_opts *o)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		switch (o->keys[i]) {
		case PK_HIST_KEY_COMM: case PK_HIST_KEY_PID: case PK_HIST_KEY_TID: case PK_HIST_KEY_DSO:
		case PK_HIST_KEY_SYM: case PK_HIST_KEY_CPU: case PK_HIST_KEY_PARENT:
			break;
		default:
			return false;	/* period, srcline, and the keys of hist-keys2.c */
		}
	return !o->verbose && !o->mem_mode && !o->off_cpu && !o->branch_history && o->branch_mode <= 0 &&
	       o->cg.key == PK_CALLCHAIN_KEY_FUNCTION && !report_srcline_wanted(o) && !o->trace;
}

int report_memo_new(const struct report_opts *o, struct report_event *ev, size_t nr_ev,
		    struct pk_stack_health *health, bool chain, bool children, struct report_memo **out)
{
	struct report_memo *m;

	*out = NULL;
	if (!memo_wanted(o))
		return 0;
	if (!(m = calloc(1, sizeof(*m))))
		return -ENOMEM;
	m->ev = ev;
	m->nr_ev = nr_ev;
	m->health = health;
	m->chain = chain;
	m->children = children;
	m->raw = !o->f2.time && !o->f2.switch_on && !o->f2.switch_off;	/* report_flags2_skip reads the decoded sample */
	m->gen = 1;
	m->layout.st = ~0ull;
	*out = m;
	return 0;
}

/* A sample's key, from its decoded record or straight from its bytes,
 * in whole words, each made the same way on both paths and compared as
 * one (a word compared right after being stored as two halves waits for
 * the stores).  hdr: the record's header (its misc and size: records of
 * one layout and chain decode alike); pidtid: TID's two u32s as the
 * record has them; evcpu: the event's index in the high half (its top
 * bit: ips is the resolver's chain id, report_memo_resolved), the CPU
 * (or UINT32_MAX) in the low one. */
struct memo_key {
	uint64_t hdr, pidtid, evcpu, ip, nr;
	const uint64_t *ips;
};

#define BY_ID (1ull << 63)

static inline uint64_t two_u32(uint32_t first, uint32_t second)
{
	uint32_t w[2] = { first, second };
	uint64_t v;

	memcpy(&v, w, 8);
	return v;
}

static inline uint64_t evcpu(size_t ev, uint32_t cpu)
{
	return (uint64_t)(uint32_t)ev << 32 | cpu;
}

static struct memo_key decoded_key(size_t ev, const struct pk_record *d)
{
	const struct pk_sample *s = &d->sample;
	struct perf_event_header hdr = { PERF_RECORD_SAMPLE, d->misc, (uint16_t)d->len };
	struct memo_key key = { 0, two_u32(s->pid, s->tid),
				evcpu(ev, s->fields & PERF_SAMPLE_CPU ? s->cpu : UINT32_MAX), s->ip,
				s->callchain.nr, s->callchain.ips };

	memcpy(&key.hdr, &hdr, 8);
	return key;
}

/* The key's hash: a multiply per word (the chain is most of it), the high
 * half folded into the low one, which picks the slot. */
static inline __attribute__((always_inline)) uint64_t key_hash(const struct memo_key *key)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ull;
	uint64_t h = (key->evcpu + 1) * mul;

	h = (h ^ key->pidtid) * mul;
	h = (h ^ key->hdr) * mul;
	h = (h ^ key->ip) * mul;
	for (uint64_t i = 0; i < key->nr; i++)
		h = (h ^ key->ips[i]) * mul;
	return h ^ (h >> 32);
}

static inline __attribute__((always_inline)) bool same_key(const struct memo_slot *k, const struct memo_key *key)
{
	if (k->ip != key->ip || k->pidtid != key->pidtid || k->hdr != key->hdr || k->evcpu != key->evcpu ||
	    k->nr_ips != key->nr)
		return false;
	for (size_t i = 0; i < k->nr_ips; i++)	/* a few words: no memcmp call */
		if (k->ips[i] != key->ips[i])
			return false;
	return true;
}

/* Slot k's waiting repeats, added. */
static int flush_slot(struct report_memo *m, struct memo_slot *slot)
{
	struct pk_hist *h = m->ev[(uint32_t)(slot->evcpu >> 32) & ~(uint32_t)(BY_ID >> 32)].hist;
	struct pk_sample none = { 0 };	/* the health reads a sample's stack copy alone: none here */
	uint64_t n = slot->count, period = slot->period;
	struct memo_kept *k = slot->k;
	int err = 0;

	if (!n)
		return 0;	/* (repeats are counted only with k made) */
	slot->count = slot->period = 0;
	if (k->health && m->health && (err = pk_stack_health_add_n(m->health, slot->attr, &none, &k->rs, n)) < 0)
		return err;
	if (!k->hist)
		return 0;
	k->s.period = period;
	if (!m->chain)
		return pk_hist_add_n(h, &k->s, n);
	return pk_hist_add_chain_n(h, &k->s, k->samples, k->frames, k->nr, m->children, n);
}

/* A repeat of slot k's key counted, to be added later. */
static inline void count_repeat(struct report_memo *m, struct memo_slot *k, uint64_t period)
{
	if (!k->waits) {
		k->waits = true;
		m->waiting[m->nr_waiting++] = (uint16_t)(k - m->slots);
	}
	k->count++;
	k->period += period;
}

/* Before a sample of event ev that is not counted as a repeat: when ev's
 * histogram looks samples up in order (pk_hist_in_order: perf's input
 * tree), every repeat waiting added now, slot by slot as they began to
 * wait, so that each is looked up before the samples after it. */
static int flush_waiting(struct report_memo *m, size_t ev)
{
	int err = 0;

	if (!m->nr_waiting || !m->ev[ev].hist || !pk_hist_in_order(m->ev[ev].hist))
		return 0;
	for (size_t i = 0; i < m->nr_waiting; i++) {
		struct memo_slot *k = &m->slots[m->waiting[i]];

		k->waits = false;
		if (!err)
			err = flush_slot(m, k);
	}
	m->nr_waiting = 0;
	return err;
}

/* *buf grown to hold n items of `size` (*cap of them now). */
static int reserve(void **buf, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n <= *cap)
		return 0;
	if (!(p = realloc(*buf, n * size)))
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* Whether the memo pays: a window's hit rate under a third costs more in
 * keys hashed and copied than the repeats save (a kernel-heavy profile's
 * chains seldom repeat).  Off, it stays off; what its slots hold waits for
 * report_memo_flush. */
static void judge(struct report_memo *m, bool hit)
{
	m->nr_hits += hit;
	if (++m->nr_seen < MEMO_WINDOW)
		return;
	m->off = m->nr_hits * 3 < m->nr_seen;
	m->nr_seen = m->nr_hits = 0;
}

/* Slot k (its tag t) keeps `key` from now on. */
static void store_key(struct report_memo *m, struct memo_tag *t, struct memo_slot *k, uint64_t hash,
		      const struct memo_key *key, const struct perf_event_attr *attr)
{
	t->gen = 0;
	if (!t->used) {
		t->used = true;
		m->used[m->nr_used++] = (uint16_t)(t - m->tags);
	}
	if (reserve((void **)&k->ips, &k->cap_ips, key->nr, sizeof(*k->ips)) < 0)
		return;	/* not kept: the memo only saves work */
	if (key->nr)	/* (no chain: ips may be NULL, and memcpy's must not be) */
		memcpy(k->ips, key->ips, key->nr * sizeof(*k->ips));
	k->nr_ips = key->nr;
	k->hdr = key->hdr;
	k->pidtid = key->pidtid;
	k->evcpu = key->evcpu;
	k->ip = key->ip;
	k->attr = attr;
	k->kept = false;
	t->hash = hash;
	t->gen = m->gen;
}

#define NEVER (PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_BRANCH_STACK | \
	       PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* What makes a sample's histogram entry more than its resolved chain and
 * the memo's key: counters, branch stacks, interrupt registers, AUX. */
#define NEVER_RESOLVED (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* Whether report_memo_resolved may count samples of attr as repeats. */
static bool resolved_path(const struct perf_event_attr *attr)
{
	return (attr->sample_type & NEVER) && !(attr->sample_type & NEVER_RESOLVED);
}

/* The sample of `key` (attr its attr): 1 when it repeats a key kept, and
 * is counted; else 0, the key kept for next time (m->cur set at its
 * second sight), or a negative errno. */
static int lookup(struct report_memo *m, size_t ev, const struct memo_key *key, const struct perf_event_attr *attr,
		  uint64_t period)
{
	uint64_t hash = key_hash(key);
	struct memo_tag *t = &m->tags[hash & (MEMO_SLOTS - 1)];
	struct memo_slot *k = &m->slots[hash & (MEMO_SLOTS - 1)];
	int err;

	if (t->gen == m->gen && t->hash == hash && same_key(k, key)) {
		judge(m, k->kept);
		if (k->kept) {
			count_repeat(m, k, period);
			return 1;
		}
		if ((err = flush_waiting(m, ev)) < 0)
			return err;
		/* its second sight: added as usual, and kept */
		if (!k->k && !(k->k = calloc(1, sizeof(*k->k)))) {
			t->gen = 0;	/* not kept: the memo only saves work */
			return 0;
		}
		k->kept = true;
		k->k->health = k->k->hist = false;
		m->cur = k;
		return 0;
	}
	judge(m, false);
	if ((err = flush_waiting(m, ev)) < 0 || (err = flush_slot(m, k)) < 0)
		return err;
	store_key(m, t, k, hash, key, attr);
	return 0;
}

int report_memo_sample(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
		       const struct pk_record *d, uint64_t period)
{
	struct memo_key key;

	m->cur = NULL;
	if (m->off || (attr->sample_type & NEVER))	/* (report_memo_resolved's may repeat) */
		return m->off || !resolved_path(attr) ? flush_waiting(m, ev) : 0;
	key = decoded_key(ev, d);
	return lookup(m, ev, &key, attr, period);
}


int report_memo_resolved(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
			 const struct pk_record *d, const struct pk_resolved_sample *rs, uint64_t period)
{
	struct memo_key key;

	/* (m->cur stays: report_memo_sample's, NULL for these samples) */
	if (m->off || !resolved_path(attr) || !rs->chain_id || rs->lbr)
		return flush_waiting(m, ev);
	key = decoded_key(ev, d);
	key.evcpu |= BY_ID;
	key.nr = 1;
	key.ips = &rs->chain_id;
	return lookup(m, ev, &key, attr, period);
}

/* The fields before READ, one u64 each (TID and CPU two u32s), and all a
 * sample may carry for the raw path: those and a call chain, and fields
 * of a fixed size after it. */
#define PREFIX (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define RAW_PATH (PREFIX | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
		  PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
		  PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)

/* Where a sample_type's fixed fields sit (0: not there), worked out once:
 * pk_sample_peek's walk over the fields was most of a repeat's cost. */
static void layout(struct memo_layout *l, uint64_t st)
{
	static const uint64_t order[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
					  PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
					  PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD };
	size_t at = sizeof(struct perf_event_header);

	*l = (struct memo_layout){ .st = st };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(st & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_IP)
			l->ip = at;
		else if (order[i] == PERF_SAMPLE_TID)
			l->tid = at;
		else if (order[i] == PERF_SAMPLE_TIME)
			l->time = at;
		else if (order[i] == PERF_SAMPLE_CPU)
			l->cpu = at;
		else if (order[i] == PERF_SAMPLE_PERIOD)
			l->period = at;
		at += 8;
	}
	l->chain = at;	/* right after them: READ is not there */
	l->min = at + (st & PERF_SAMPLE_CALLCHAIN ? 8 : 0);
}

static inline uint64_t u64_at(const struct perf_event_header *h, size_t at)
{
	uint64_t v;

	memcpy(&v, (const char *)h + at, 8);
	return v;
}

static inline uint32_t u32_at(const struct perf_event_header *h, size_t at)
{
	uint32_t v;

	memcpy(&v, (const char *)h + at, 4);
	return v;
}

int report_memo_record(struct report_memo *m, size_t ev, const struct perf_event_attr *attr,
		       const struct perf_event_header *h, uint64_t *time)
{
	uint64_t st = attr->sample_type, hash;
	const struct memo_layout *l;
	struct memo_key key;
	struct memo_slot *k;
	struct memo_tag *t;

	if (!m || m->off || !m->raw || (st & ~RAW_PATH) || ((uintptr_t)h % 8))
		return 0;
	l = &m->layout;
	if (st != l->st)
		layout(&m->layout, st);
	if (h->size < l->min)
		return 0;	/* damage: the decoder says what */
	key = (struct memo_key){ u64_at(h, 0), l->tid ? u64_at(h, l->tid) : 0,
				 evcpu(ev, l->cpu ? u32_at(h, l->cpu) : UINT32_MAX), l->ip ? u64_at(h, l->ip) : 0, 0, NULL };
	if (st & PERF_SAMPLE_CALLCHAIN) {
		key.nr = u64_at(h, l->chain);
		if (key.nr > (h->size - l->chain - 8) / 8)
			return 0;
		key.ips = (const uint64_t *)(const void *)((const char *)h + l->chain + 8);	/* 8-aligned */
	}
	/* Most samples repeat the one before (a hot loop): its slot is
	 * tried first, without hashing.  A key has one slot, so finding it
	 * there is what the hash would find. */
	k = m->last;
	if (!k || m->tags[k - m->slots].gen != m->gen || !k->kept || !same_key(k, &key)) {
		hash = key_hash(&key);
		t = &m->tags[hash & (MEMO_SLOTS - 1)];
		k = &m->slots[hash & (MEMO_SLOTS - 1)];
		if (t->gen != m->gen || t->hash != hash || !k->kept || !same_key(k, &key))
			return 0;	/* the decoded path finds out the rest */
		m->last = k;
	}
	judge(m, true);
	count_repeat(m, k, l->period ? u64_at(h, l->period) : attr->sample_period);
	if (l->time)
		*time = u64_at(h, l->time);
	return 1;
}

void report_memo_keep_health(struct report_memo *m, const struct pk_resolved_sample *rs)
{
	struct memo_kept *k = m && m->cur ? m->cur->k : NULL;

	if (!k)
		return;
	if (reserve((void **)&k->rframes, &k->cap_rframes, rs->nr_frames, sizeof(*k->rframes)) < 0) {
		m->tags[m->cur - m->slots].gen = 0;	/* not kept */
		m->cur = NULL;
		return;
	}
	if (rs->nr_frames)
		memcpy(k->rframes, rs->frames, rs->nr_frames * sizeof(*k->rframes));
	k->rs = *rs;
	k->rs.frames = k->rframes;
	k->health = true;
}

void report_memo_keep_hist(struct report_memo *m, const struct pk_hist_sample *s,
			   const struct pk_hist_sample *samples, const struct pk_callchain_frame *frames,
			   size_t nr)
{
	struct memo_slot *slot = m ? m->cur : NULL;
	struct memo_kept *k = slot ? slot->k : NULL;

	if (!k)
		return;
	m->cur = NULL;
	if ((m->chain && reserve((void **)&k->frames, &k->cap_frames, nr, sizeof(*k->frames)) < 0) ||
	    (m->children && reserve((void **)&k->samples, &k->cap_samples, nr, sizeof(*k->samples)) < 0)) {
		m->tags[slot - m->slots].gen = 0;	/* not kept */
		return;
	}
	if (m->chain && nr)
		memcpy(k->frames, frames, nr * sizeof(*frames));
	if (m->children && nr)
		memcpy(k->samples, samples, nr * sizeof(*samples));
	k->nr = m->chain ? nr : 0;
	k->s = *s;
	k->hist = true;
}

void report_memo_forget(struct report_memo *m, uint32_t type)
{
	if (!m)
		return;
	switch (type) {
	case PK_DATA_RECORD_FINISHED_ROUND:
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return;
	default:
		if (++m->gen != 0)
			break;
		m->gen = 1;	/* wrapped: no slot may look current (their repeats still wait) */
		for (size_t i = 0; i < MEMO_SLOTS; i++)
			m->tags[i].gen = 0;
	}
}

int report_memo_flush(struct report_memo *m)
{
	int err = 0;

	/* as they began to wait (every slot with repeats is on that list) */
	for (size_t i = 0; m && i < m->nr_waiting; i++) {
		struct memo_slot *k = &m->slots[m->waiting[i]];

		k->waits = false;
		if (!err)
			err = flush_slot(m, k);
	}
	if (m)
		m->nr_waiting = 0;
	return err;
}

void report_memo_free(struct report_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_used; i++) {
		struct memo_slot *slot = &m->slots[m->used[i]];

		free(slot->ips);
		if (slot->k) {
			free(slot->k->rframes);
			free(slot->k->samples);
			free(slot->k->frames);
			free(slot->k);
		}
	}
	free(m);
}
