/* SPDX-License-Identifier: MIT */
/*
 * offcpu.c - off-CPU intervals from a recording's switches, without BPF:
 * a table of the threads that are off CPU, keyed by tid (open addressing),
 * each holding its switch-out sample's time, state and call chain until a
 * switch-in or a later sample of the thread ends the interval.  Pure and
 * driven by the caller, who reads the records in time order.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A thread's slot: used once a tid has been seen, pending while off CPU. */
struct slot {
	bool used, pending;
	struct pk_offcpu_interval iv;	/* end and duration unset while pending */
	struct pk_frame *frames;	/* owned; iv.frames points here */
	size_t cap;
};

struct pk_offcpu {
	struct slot *slots;
	size_t nr_slots;		/* a power of two, or 0 */
	size_t nr_used, nr_pending;
};

int pk_offcpu_new(struct pk_offcpu **out)
{
	*out = pk__calloc(1, sizeof(**out));
	return *out ? 0 : pk__error_nomem("an off-CPU tracker");
}

void pk_offcpu_free(struct pk_offcpu *oc)
{
	if (!oc)
		return;
	for (size_t i = 0; i < oc->nr_slots; i++)
		free(oc->slots[i].frames);
	free(oc->slots);
	free(oc);
}

static size_t hash_tid(uint32_t tid, size_t mask)
{
	return (size_t)((tid * 0x9e3779b1u) & mask);
}

/* The slot of tid, or NULL when it has none. */
static struct slot *find(const struct pk_offcpu *oc, uint32_t tid)
{
	size_t mask = oc->nr_slots - 1;

	if (!oc->nr_slots)
		return NULL;
	for (size_t i = hash_tid(tid, mask);; i = (i + 1) & mask) {
		if (!oc->slots[i].used)
			return NULL;
		if (oc->slots[i].iv.tid == tid)
			return &oc->slots[i];
	}
}

/* Double the table (slots are never removed, so moving them is all). */
static int grow(struct pk_offcpu *oc)
{
	size_t n = oc->nr_slots ? oc->nr_slots * 2 : 64, mask = n - 1;
	struct slot *s = pk__calloc(n, sizeof(*s));

	if (!s)
		return pk__error_nomem("the off-CPU thread table (%zu threads)", oc->nr_used);
	for (size_t i = 0; i < oc->nr_slots; i++) {
		size_t k;

		if (!oc->slots[i].used)
			continue;
		for (k = hash_tid(oc->slots[i].iv.tid, mask); s[k].used; k = (k + 1) & mask)
			;
		s[k] = oc->slots[i];
	}
	free(oc->slots);
	oc->slots = s;
	oc->nr_slots = n;
	return 0;
}

/* The slot of tid, made when new.  NULL when out of memory. */
static struct slot *get(struct pk_offcpu *oc, uint32_t tid)
{
	struct slot *s = find(oc, tid);
	size_t mask;

	if (s)
		return s;
	if ((oc->nr_used + 1) * 2 > oc->nr_slots && grow(oc) < 0)
		return NULL;
	mask = oc->nr_slots - 1;
	for (size_t i = hash_tid(tid, mask);; i = (i + 1) & mask)
		if (!oc->slots[i].used) {
			s = &oc->slots[i];
			s->used = true;
			s->iv.tid = tid;
			oc->nr_used++;
			return s;
		}
}

int pk_offcpu_switch_out(struct pk_offcpu *oc, const struct pk_resolved_sample *rs, uint64_t time,
			 int32_t cpu, char state)
{
	struct slot *s;

	if (!rs || rs->size < sizeof(*rs))
		return pk__error(-EINVAL, "pk_offcpu_switch_out", "no resolved sample, or one of an older "
				 "layout");
	/* The idle threads are all tid 0, one per CPU: one CPU's switch-out
	 * and another's switch-in would make an interval of nothing. */
	if (!rs->tid)
		return 0;
	if (!(s = get(oc, rs->tid)))
		return -ENOMEM;
	if (rs->nr_frames > s->cap) {
		struct pk_frame *f = pk__reallocarray(s->frames, rs->nr_frames, sizeof(*f));

		if (!f)
			return pk__error_nomem("an off-CPU call chain of %zu frames", rs->nr_frames);
		s->frames = f;
		s->cap = rs->nr_frames;
	}
	if (rs->nr_frames)
		memcpy(s->frames, rs->frames, rs->nr_frames * sizeof(*s->frames));
	s->iv = (struct pk_offcpu_interval){
		.size = sizeof(s->iv), .comm = rs->comm, .pid = rs->pid, .tid = rs->tid, .cpu = cpu,
		.state = state, .start = time, .cpumode = rs->cpumode, .loc = rs->loc,
		.frames = s->frames, .nr_frames = rs->nr_frames,
	};
	oc->nr_pending += !s->pending;
	s->pending = true;
	return 0;
}

int pk_offcpu_switch_in(struct pk_offcpu *oc, uint32_t tid, uint64_t time, struct pk_offcpu_interval *out)
{
	struct slot *s = find(oc, tid);

	if (out->size < sizeof(*out))
		return pk__error(-EINVAL, "pk_offcpu_switch_in", "the interval is of an older layout");
	/* A switch-in before the switch-out is the one that came before it:
	 * records of one time can arrive either way round across CPUs. */
	if (!s || !s->pending || time < s->iv.start)
		return 0;
	s->pending = false;
	oc->nr_pending--;
	s->iv.end = time;
	s->iv.duration = time - s->iv.start;
	*out = s->iv;
	return 1;
}

int pk_offcpu_record(struct pk_offcpu *oc, const struct pk_record *rec, struct pk_offcpu_interval *out)
{
	const uint64_t need = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	struct slot *s;

	switch (rec->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (rec->switch_.out || (rec->id.fields & need) != need)
			return 0;
		return pk_offcpu_switch_in(oc, rec->id.tid, rec->id.time, out);
	case PERF_RECORD_EXIT:
		if ((s = find(oc, rec->task.tid)) && s->pending) {
			s->pending = false;
			oc->nr_pending--;
		}
		return 0;
	default:
		return 0;
	}
}

size_t pk_offcpu_nr_pending(const struct pk_offcpu *oc)
{
	return oc->nr_pending;
}

char pk_offcpu_state(const char *text)
{
	const char *p = text ? strstr(text, "prev_state=") : NULL;

	if (!p)
		return 0;
	p += strlen("prev_state=");
	return *p && *p != ' ' && *p != '+' ? *p : 0;
}
