/* SPDX-License-Identifier: MIT */
/*
 * script-stat.c - perf script on a `perf stat record` file: perf 6.1 keeps
 * the last STAT record's (value, enabled, running) of every event, CPU of
 * the file's CPU_MAP and thread of its THREAD_MAP, and at each STAT_ROUND
 * prints them all, event by event, thread by thread, CPU by CPU.  In the
 * aggregation modes other than its global one (STAT_CONFIG's aggr_mode:
 * -A, --per-thread, --per-core...) perf first turns each kept count into
 * its growth since the previous round and scales it by enabled/running,
 * in place, so a count no STAT record refreshed is its last growth less
 * the previous raw count: kept here the same way.
 */
#include "script-stat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* perf's record types, STAT_CONFIG terms and aggregation modes. */
enum { T_THREAD_MAP = 73, T_CPU_MAP = 74, T_STAT_CONFIG = 75, T_STAT = 76, T_STAT_ROUND = 77 };
enum { TERM_AGGR_MODE, TERM_INTERVAL, TERM_SCALE };
enum { AGGR_GLOBAL = 1, AGGR_UNSET = 6, AGGR_NODE = 7 };
/* A map larger than any machine's CPUs, and counts for more than a
 * million (thread, CPU) pairs an event, are not kept: STAT records for
 * them are then left out with the warning. */
enum { MAX_CPUS = 4096, MAX_PAIRS = 1 << 20 };

struct stat_count { uint64_t val, ena, run; };

struct stat_event {
	struct stat_count *counts, *prev;	/* [thread * nr_cpus + cpu_idx] */
};

struct script_stat {
	size_t nr_events;
	struct stat_event *ev;
	int *cpus, *pids;
	size_t nr_cpus, nr_threads;
	bool have_cpus, have_threads, allocated, header_done, warned;
	uint64_t aggr_mode;	/* perf script's zeroed config: AGGR_NONE */
	bool scale;
};

int script_stat_new(const struct pk_data_reader *r, struct script_stat **out)
{
	struct script_stat *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->nr_events = pk_data_reader_nr_events(r);
	if (st->nr_events && !(st->ev = calloc(st->nr_events, sizeof(*st->ev)))) {
		free(st);
		return -ENOMEM;
	}
	*out = st;
	return 0;
}

void script_stat_free(struct script_stat *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr_events; i++) {
		free(st->ev[i].counts);
		free(st->ev[i].prev);
	}
	free(st->ev);
	free(st->cpus);
	free(st->pids);
	free(st);
}

/* perf_record_cpu_map_data at p (len bytes) into st->cpus: a list (type
 * 0: u16 nr, u16 cpus), a mask (1: u16 nr, u16 long size, the longs at 8
 * for 8-byte ones) or a range (2: u8 any_cpu, pad, u16 start, u16 end). */
static int take_cpus(struct script_stat *st, const unsigned char *p, size_t len)
{
	uint16_t type = len >= 2 ? cli_u16_at(p) : 0xffff;

	if (!(st->cpus = calloc(MAX_CPUS, sizeof(*st->cpus))))
		return -ENOMEM;
	if (type == 0 && len >= 4) {
		for (size_t i = 0; i < cli_u16_at(p + 2) && 6 + 2 * i <= len && st->nr_cpus < MAX_CPUS; i++)
			st->cpus[st->nr_cpus++] = (int16_t)cli_u16_at(p + 4 + 2 * i);
	} else if (type == 1 && len >= 6) {
		size_t words = cli_u16_at(p + 2), lsz = cli_u16_at(p + 4), base = lsz == 8 ? 8 : 6;

		for (size_t b = 0; b < words * lsz * 8 && base + b / 8 < len && st->nr_cpus < MAX_CPUS; b++)
			if (p[base + b / 8] & (1u << (b % 8)))
				st->cpus[st->nr_cpus++] = (int)b;
	} else if (type == 2 && len >= 8) {
		if (p[2])
			st->cpus[st->nr_cpus++] = -1;
		for (int c = cli_u16_at(p + 4); c <= cli_u16_at(p + 6) && st->nr_cpus < MAX_CPUS; c++)
			st->cpus[st->nr_cpus++] = c;
	}
	st->have_cpus = true;
	return 0;
}

/* THREAD_MAP: u64 nr, then nr { u64 pid; char comm[16]; }. */
static int take_threads(struct script_stat *st, const unsigned char *p, size_t len)
{
	uint64_t nr = len >= 16 ? cli_u64_at(p + 8) : 0;

	if (nr > (len - 16) / 24)
		nr = (len - 16) / 24;
	if (nr && !(st->pids = calloc(nr, sizeof(*st->pids))))
		return -ENOMEM;
	for (uint64_t i = 0; i < nr; i++)
		st->pids[st->nr_threads++] = (int)cli_u64_at(p + 16 + i * 24);
	st->have_threads = true;
	return 0;
}

/* perf's set_maps: the counts once both maps are known, every event on
 * the file's CPUs and threads. */
static int allocate(struct script_stat *st)
{
	size_t n = st->nr_cpus * st->nr_threads;

	if (st->allocated || !st->have_cpus || !st->have_threads)
		return 0;
	st->allocated = true;
	if (n > MAX_PAIRS)
		return 0;
	for (size_t i = 0; i < st->nr_events && n; i++)
		if (!(st->ev[i].counts = calloc(n, sizeof(struct stat_count))) ||
		    !(st->ev[i].prev = calloc(n, sizeof(struct stat_count))))
			return -ENOMEM;
	return 0;
}

static void take_config(struct script_stat *st, const unsigned char *p, size_t len)
{
	uint64_t nr = len >= 16 ? cli_u64_at(p + 8) : 0;

	for (uint64_t i = 0; i < nr && 16 + (i + 1) * 16 <= len; i++) {
		uint64_t tag = cli_u64_at(p + 16 + i * 16), val = cli_u64_at(p + 24 + i * 16);

		if (tag == TERM_AGGR_MODE)
			st->aggr_mode = val;
		else if (tag == TERM_SCALE)
			st->scale = val != 0;
	}
}

static int event_of_id(const struct pk_data_reader *r, uint64_t id)
{
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
		size_t nr;
		const uint64_t *ids = pk_data_reader_ids(r, i, &nr);

		for (size_t k = 0; k < nr; k++)
			if (ids[k] == id)
				return (int)i;
	}
	return -1;
}

static void warn_once(struct script_stat *st, const char *what, uint64_t id, int cpu, int thread)
{
	if (st->warned)
		return;
	st->warned = true;
	cli_message(stderr, "perfkit script: warning: a STAT record (id %" PRIu64 ", cpu %d, thread %d) "
		    "names %s; such records are left out\n", id, cpu, thread, what);
}

/* STAT: u64 id, u32 cpu, u32 thread, u64 val, ena, run. */
static void take_stat(struct script_stat *st, const struct pk_data_reader *r, const unsigned char *p,
		      size_t len)
{
	int32_t cpu, thread;
	uint64_t id;
	size_t idx;
	int ev;

	if (len < 48)
		return;
	id = cli_u64_at(p + 8);
	memcpy(&cpu, p + 16, 4);
	memcpy(&thread, p + 20, 4);
	if ((ev = event_of_id(r, id)) < 0 || !st->ev[ev].counts) {
		warn_once(st, ev < 0 ? "no event of the file" : "no CPU or thread map", id, cpu, thread);
		return;
	}
	for (idx = 0; idx < st->nr_cpus && st->cpus[idx] != cpu; idx++)
		;
	if (idx == st->nr_cpus || thread < 0 || (size_t)thread >= st->nr_threads) {
		warn_once(st, "a CPU or thread not in the file's maps", id, cpu, thread);
		return;
	}
	st->ev[ev].counts[(size_t)thread * st->nr_cpus + idx] =
		(struct stat_count){ cli_u64_at(p + 24), cli_u64_at(p + 32), cli_u64_at(p + 40) };
}

/* perf's process_counter_values outside AGGR_GLOBAL: the growth since the
 * previous round, scaled as perf_counts_values__scale does. */
static void to_delta(struct script_stat *st, struct stat_count *c, struct stat_count *prev)
{
	struct stat_count raw = *c;

	c->val -= prev->val;
	c->ena -= prev->ena;
	c->run -= prev->run;
	*prev = raw;
	if (!st->scale)
		return;
	if (c->run == 0)
		c->val = 0;
	else if (c->run < c->ena) {
		/* in doubles, as perf rounds; a damaged file's ratio can pass
		 * 2^64, which no uint64_t holds: the most one does (fuzz_cli) */
		double v = (double)c->val * (double)c->ena / (double)c->run;

		c->val = v < 18446744073709551616.0 ? (uint64_t)v : UINT64_MAX;
	}
}

static void print_round(struct script_stat *st, const struct pk_data_reader *r, uint64_t time, FILE *f)
{
	bool delta = st->aggr_mode != AGGR_GLOBAL && st->aggr_mode != AGGR_UNSET &&
		     st->aggr_mode <= AGGR_NODE;

	if (!st->header_done)
		fprintf(f, "%3s %8s %15s %15s %15s %15s %s\n", "CPU", "THREAD", "VAL", "ENA", "RUN", "TIME",
			"EVENT");
	st->header_done = true;
	for (size_t i = 0; i < st->nr_events; i++) {
		const char *name = pk_data_reader_name(r, i);

		for (size_t k = 0; st->ev[i].counts && k < st->nr_cpus * st->nr_threads; k++) {
			struct stat_count *c = &st->ev[i].counts[k];

			if (delta)
				to_delta(st, c, &st->ev[i].prev[k]);
		}
		for (size_t t = 0; st->ev[i].counts && t < st->nr_threads; t++)
			for (size_t k = 0; k < st->nr_cpus; k++) {
				const struct stat_count *c = &st->ev[i].counts[t * st->nr_cpus + k];

				fprintf(f, "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64
					" %s\n", st->cpus[k], st->pids[t], c->val, c->ena, c->run, time,
					name ? name : "[unknown]");
			}
	}
}

int script_stat_record(struct script_stat *st, const struct pk_data_reader *r,
		       const struct perf_event_header *rec, FILE *f)
{
	const unsigned char *p = (const unsigned char *)rec;
	int err = 0;

	switch (rec->type) {
	case T_STAT_CONFIG:
		take_config(st, p, rec->size);
		return 1;
	case T_THREAD_MAP:
		if (!st->have_threads && (err = take_threads(st, p, rec->size)) == 0)
			err = allocate(st);
		return err < 0 ? err : 1;
	case T_CPU_MAP:
		if (!st->have_cpus && (err = take_cpus(st, p + 8, rec->size - 8u)) == 0)
			err = allocate(st);
		return err < 0 ? err : 1;
	case T_STAT:
		take_stat(st, r, p, rec->size);
		return 1;
	case T_STAT_ROUND:
		if (rec->size >= 24)
			print_round(st, r, cli_u64_at(p + 16), f);
		return 1;
	default:
		return 0;
	}
}
