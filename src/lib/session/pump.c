/* SPDX-License-Identifier: MIT */
/*
 * pump.c - the second half of the recorder: moving records from the rings
 * to the sinks (a perf.data writer, a callback, or both) with a budget per
 * ring and a FINISHED_ROUND after each pass, overwrite rings read as paused
 * snapshots, DWARF stacks cut to what the kernel copied, the DSOs samples
 * land in marked for the BUILD_ID table, losses and the sample time span
 * counted; and describing the events to the writer before the first record.
 */
#include "session/session.h"
#include "ring/ring.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* The events with the ids of all their fds, then the groups. */
static int describe_events(struct pk_recorder *r)
{
	size_t nc = pk_evlist_nr_cpus(r->l), nt = pk_evlist_nr_threads(r->l);
	uint64_t *ids = pk__calloc(nc * nt + 1, sizeof(*ids));
	int err = ids ? 0 : pk__error_nomem("the ids of %zu event fds", nc * nt);

	for (size_t i = 0; !err && i < pk_events_nr(r->ev); i++) {
		size_t n = 0;

		for (size_t c = 0; c < nc; c++)
			for (size_t t = 0; t < nt; t++)
				if (pk_evlist_id(r->l, i, c, t, &ids[n]) == 0)
					n++;
		err = pk_data_writer_add_event(r->w, pk_evlist_attr(r->l, i), pk_recorder_event_name(r, i),
					ids, n);
	}
	for (size_t i = 0; !err && i < pk_events_nr(r->ev); i++) {
		const struct pk_event_desc *d = pk_events_desc(r->ev, i);

		if (d->leader == i && d->nr_members > 1)
			err = pk_data_writer_add_group(r->w, i, d->nr_members);
	}
	free(ids);
	return err;
}

/* With clockid: its resolution and a reference pair of wall-clock and clock
 * time taken together, so perf can show sample times as wall-clock time;
 * nothing when the clock cannot be read (no made-up reference time). */
static void describe_clock(struct pk_recorder *r)
{
	struct timespec res = { 0, 0 }, ref;
	struct timeval tod;

	clock_getres(r->o.clockid, &res);
	gettimeofday(&tod, NULL);
	if (pk__sys_clock_gettime(r->o.clockid, &ref) < 0)
		return;
	pk_data_writer_set_clock(r->w, r->o.clockid, (uint64_t)res.tv_sec * 1000000000 + (uint64_t)res.tv_nsec,
			  (uint64_t)tod.tv_sec * 1000000000 + (uint64_t)tod.tv_usec * 1000,
			  (uint64_t)ref.tv_sec * 1000000000 + (uint64_t)ref.tv_nsec);
}

int pk__recorder_describe(struct pk_recorder *r)
{
	int err;

	if (r->o.use_clockid)
		describe_clock(r);
	if (r->o.compression && (err = pk_data_writer_set_compression(r->w, r->o.compression)) < 0)
		return err;
	return describe_events(r);
}

/*
 * Follow the maps and mark the DSOs samples land in, as perf does for its
 * BUILD_ID table: a sample's IP and pid through the peek, sideband decoded.
 * Out of memory ends the marking (the recording goes on without build-ids).
 */
static void track(struct pk_recorder *r, const struct perf_event_header *h,
		  const struct perf_event_attr *a, const struct pk_sample_peek *pk)
{
	struct pk_record rec;

	rec.size = sizeof(rec);
	if (h->type == PERF_RECORD_SAMPLE) {
		if (pk && (pk->fields & PERF_SAMPLE_IP) && (pk->fields & PERF_SAMPLE_TID))
			pk_maps_hit(r->maps, pk->pid, pk->ip,
				    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
		return;
	}
	if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2 && h->type != PERF_RECORD_COMM &&
	    h->type != PERF_RECORD_FORK)
		return;
	if (pk_record_decode(h, a, &rec) == 0 && pk_maps_process(r->maps, &rec) < 0) {
		pk_maps_free(r->maps);
		r->maps = NULL;
	}
}

/* Hand the record to the callback, decoded when it decodes. */
static int to_callback(struct pk_recorder *r, const struct perf_event_header *h,
		       const struct perf_event_attr *a)
{
	struct pk_record rec;
	bool decoded;

	rec.size = sizeof(rec);
	decoded = h->type != PK_DATA_RECORD_FINISHED_ROUND && pk_record_decode(h, a, &rec) == 0;

	return r->cb(r->cb_arg, h, decoded ? &rec : NULL);
}

static int deliver(struct pk_recorder *r, const struct perf_event_header *h,
		   const struct perf_event_attr *a, const struct pk_sample_peek *pk)
{
	int err = 0;

	if (r->maps)
		track(r, h, a, pk);
	if (r->st.sink_error)
		return r->st.sink_error;
	if (r->w)
		err = r->ring != SIZE_MAX ? pk_data_writer_write_file(r->w, r->ring, h, h->size)
					  : pk_data_writer_write(r->w, h, h->size);
	if (!err && r->cb)
		err = to_callback(r, h, a);
	if (err)
		r->st.sink_error = err < 0 ? err : -EINVAL;
	return r->st.sink_error;
}

int pk__recorder_deliver(struct pk_recorder *r, const struct perf_event_header *h,
			 const struct perf_event_attr *a)
{
	return deliver(r, h, a, NULL);
}

/* The counts a record adds to the statistics; a sample's time span. */
static void count(struct pk_recorder *r, const struct perf_event_header *h, const struct pk_sample_peek *pk)
{
	uint64_t v;

	r->st.records++;
	if (h->type == PERF_RECORD_SAMPLE) {
		r->st.samples++;
		if (!pk || !(pk->fields & PERF_SAMPLE_TIME))
			return;
		if (!r->st.first_time || pk->time < r->st.first_time)
			r->st.first_time = pk->time;
		if (pk->time > r->st.last_time)
			r->st.last_time = pk->time;
		if (!r->file_first || pk->time < r->file_first)
			r->file_first = pk->time;
		if (pk->time > r->file_last)
			r->file_last = pk->time;
	} else if (h->type == PERF_RECORD_LOST && h->size >= 24) {
		memcpy(&v, (const char *)h + 16, sizeof(v));	/* u64 id, u64 lost */
		r->st.lost += v;
	} else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= 16) {
		memcpy(&v, (const char *)h + 8, sizeof(v));	/* u64 lost */
		r->st.lost_samples += v;
	} else if (h->type == PERF_RECORD_THROTTLE) {
		r->st.throttled++;
	}
}

/* One record out of a ring: counted, its stack cut, delivered. */
static void move_one(struct pk_recorder *r, const struct perf_event_header *h)
{
	const struct perf_event_attr *a = pk__recorder_attr(r, h);
	struct pk_sample_peek pk = { .size = sizeof(pk) };
	bool peeked = h->type == PERF_RECORD_SAMPLE && pk_sample_peek(h, a, &pk) == 0;

	count(r, h, peeked ? &pk : NULL);
	if (r->trim && h->type == PERF_RECORD_SAMPLE && pk_sample_trim_stack(h, a, r->trim) > 0)
		h = r->trim;
	deliver(r, h, a, peeked ? &pk : NULL);
}

/* One ring: at most its size per pass, since the kernel keeps writing while
 * we read, and a busy ring must not keep us from the others, the command's
 * exit or a signal.  Returns the records moved. */
static size_t drain_ring(struct pk_recorder *r, struct pk_ring *ring, bool snapshot)
{
	const struct perf_event_header *h;
	size_t budget = pk_ring_size(ring), moved = 0;
	int n = 0;

	if (snapshot && pk_ring_pause(ring, true) < 0 && !r->st.sink_error)
		r->st.sink_error = pk_last_error()->code;
	while (budget && (n = pk_ring_next(ring, &h)) == 1) {
		budget -= h->size < budget ? h->size : budget;
		move_one(r, h);
		/* Give the space back at once: a write of the buffer can take
		 * milliseconds, long enough for a busy ring to fill up. */
		if (!snapshot)
			pk_ring_consume(ring);
		moved++;
	}
	pk_ring_consume(ring);
	if (snapshot)
		pk_ring_pause(ring, false);
	if (n < 0 && !r->st.sink_error)
		r->st.sink_error = n;	/* a corrupt ring: stop, keep what we have */
	return moved;
}

/* perf's --mmap-flush: a ring holding less than the flush size is left
 * for a later pass (fewer, larger writes), unless everything must go. */
static bool worth_draining(struct pk_recorder *r, struct pk_ring *ring, bool all)
{
	return all || r->flush <= 1 || pk__ring_pending(ring) >= r->flush;
}

static int drain_rings(struct pk_recorder *r, bool snapshot, bool all)
{
	static const struct perf_event_header round = {
		.type = PK_DATA_RECORD_FINISHED_ROUND, .size = sizeof(round),
	};
	size_t moved = 0;

	for (size_t k = 0; k < pk_rings_nr(r->rs); k++) {
		struct pk_ring *ring = pk_rings_get(r->rs, k);

		/* Overwrite rings are read only as snapshots. */
		if (pk_ring_is_overwrite(ring) == snapshot && (snapshot || worth_draining(r, ring, all))) {
			/* A directory writer takes each ring's records in a file of its
			 * own; overwrite rings, after the normal ones, share theirs. */
			size_t nf = r->w ? pk_data_writer_nr_files(r->w) : 0;

			r->ring = nf ? k % nf : SIZE_MAX;
			moved += drain_ring(r, ring, snapshot);
			r->ring = SIZE_MAX;
		}
	}
	/* Overwrite snapshots come out newest first and after newer sideband:
	 * no round markers, so perf sorts the whole file by time. */
	if (!moved || r->o.overwrite || r->st.sink_error)
		return r->st.sink_error;
	if (r->w && (r->st.sink_error = pk_data_writer_write_round(r->w)) < 0)
		return r->st.sink_error;
	if (r->cb && (r->st.sink_error = r->cb(r->cb_arg, &round, NULL)) > 0)
		r->st.sink_error = -EINVAL;
	return r->st.sink_error;
}

int pk_recorder_drain(struct pk_recorder *r)
{
	return drain_rings(r, false, false);
}

int pk_recorder_snapshot(struct pk_recorder *r)
{
	return r->o.overwrite ? drain_rings(r, true, true) : r->st.sink_error;
}

int pk_recorder_sync(struct pk_recorder *r)
{
	return pk__sideband_sync(r->sb);
}

int pk__recorder_drain_all(struct pk_recorder *r)
{
	int err;

	drain_rings(r, false, true);
	err = pk_recorder_snapshot(r);
	return err < 0 ? err : pk__recorder_synthesize_tail(r);
}

int pk_recorder_poll(struct pk_recorder *r, int timeout_ms)
{
	int n = pk_rings_poll(r->rs, timeout_ms);

	if (n > 0)
		r->st.wakeups++;
	return n;
}

bool pk_recorder_hangup(const struct pk_recorder *r)
{
	return pk_rings_hangup(r->rs);
}

int pk_recorder_enable(struct pk_recorder *r)
{
	return pk_evlist_enable(r->l);
}

int pk_recorder_stop(struct pk_recorder *r)
{
	return pk_evlist_disable(r->l);
}

/* One DSO into the build-id cache, as perf record does at its end: a
 * failure is counted and its reason kept, never the recording's. */
static void cache_build_id(struct pk_recorder *r, const struct pk_dso *d)
{
	int ret;

	/* Kernel modules and special maps have no file to keep. */
	if (d->name[0] != '/' && strcmp(d->name, "[kernel.kallsyms]") && strcmp(d->name, "[vdso]"))
		return;
	ret = pk_buildid_cache_add(r->o.buildid_dir, d->name, d->build_id, d->build_id_size);
	if (ret > 0)
		r->st.buildid_cached++;
	if (ret >= 0 || r->st.buildid_cache_failed++)
		return;
	free(r->warning);
	if (pk__asprintf(&r->warning, "%s%s%s", pk_last_error()->why, *pk_last_error()->hint ? "; " : "",
			 pk_last_error()->hint) < 0)
		r->warning = NULL;
}

/* The BUILD_ID table, as perf writes it: every DSO a sample landed in
 * (with buildid_all, every DSO mapped), plus the vDSO, that has a
 * build-id; and the cache, when asked. */
static int add_build_ids(struct pk_recorder *r)
{
	int err = 0;

	if (r->o.buildid_all)
		pk__maps_hit_all(r->maps);
	pk_maps_read_build_ids(r->maps);
	for (size_t i = 0; !err && i < pk_maps_nr_dsos(r->maps); i++) {
		const struct pk_dso *d = pk_maps_dso(r->maps, i);

		if (!d->build_id_size || !(d->hit || !strcmp(d->name, "[vdso]")))
			continue;
		err = pk_data_writer_add_build_id(r->w, d->name, d->build_id, d->build_id_size, d->kernel);
		if (!err && r->o.buildid_dir)
			cache_build_id(r, d);
	}
	return err;
}

int pk__recorder_end_file(struct pk_recorder *r)
{
	int err;

	if (r->file_first)
		pk_data_writer_set_sample_time(r->w, r->file_first, r->file_last);
	if (!r->o.no_build_ids && !r->maps)
		err = pk__error_nomem("marking the DSOs samples hit");
	else
		err = r->maps ? add_build_ids(r) : 0;
	if (!err)
		err = pk__sideband_put(r->sb, r->w);
	return r->st.sink_error ? r->st.sink_error : err;
}

int pk_recorder_finish(struct pk_recorder *r)
{
	pk_evlist_disable(r->l);
	/* with overwrite, the newest data, kept to the end */
	pk__recorder_drain_all(r);
	pk__sideband_stop(r->sb);	/* after its last read */
	return r->w ? pk__recorder_end_file(r) : r->st.sink_error;
}

void pk_recorder_stats(const struct pk_recorder *r, struct pk_recorder_stats *out)
{
	size_t n = out->size < sizeof(r->st) ? out->size : sizeof(r->st);
	size_t size = out->size;

	memcpy(out, &r->st, n);
	out->size = size;
}
