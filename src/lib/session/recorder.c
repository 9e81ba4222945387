/* SPDX-License-Identifier: MIT */
/*
 * recorder.c - the first half of the recorder: perf record's sample layout
 * for every event, the target (a command, processes, threads, CPUs), the
 * evlist opened (recorder-open.c: perf's fallbacks), the rings mapped
 * with the sizing policy, the table that finds a record's event by its id,
 * and the synthesized records of what existed before recording.  Moving
 * records out of the rings is pump.c's.
 */
#include "session/session.h"
#include "counter/counter.h"
#include "event/event.h"
#include "sys/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf record's default rate (record_opts.freq), samples a second. */
enum { DEFAULT_FREQ = 4000 };

unsigned pk_recorder_default_freq(void)
{
	return DEFAULT_FREQ;
}

/* How often: the event's own period= or freq= term, else -c, -F, or
 * perf's default of 4000 samples a second (perf 6.1 applies the terms
 * after the options: a term wins over -c and -F). */
static void layout_rate(const struct pk_recorder_opts *o, const struct pk_event_desc *d,
			struct perf_event_attr *a)
{
	if (d->rate_set)
		return;
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (o->freq || (!a->sample_period && !a->freq)) {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : DEFAULT_FREQ;
	}
}

/* The flags perf record adds on top of its layout (-W, --data-page-size,
 * --code-page-size, --phys-data, --transaction, --all-cgroups,
 * --no-buffering, --all-user, --all-kernel,
 * --user/kernel-callchains), set as perf 6.1's evsel__config sets them. */
static void layout_extras(const struct pk_recorder_opts *o, struct perf_event_attr *a,
			  enum pk_callgraph mode)
{
	if (o->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (o->phys_data)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	/* perf 6.1 sets TRANSACTION as asked, though its attr printer (perf
	 * -vv, perf evlist -v) has no name for the bit and leaves it out. */
	if (o->transaction)
		a->sample_type |= PERF_SAMPLE_TRANSACTION;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (o->no_buffering) {
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (o->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (o->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	if (mode != PK_CALLGRAPH_NONE && o->kernel_callchains)
		a->exclude_callchain_user = 1;
	if (mode != PK_CALLGRAPH_NONE && o->user_callchains)
		a->exclude_callchain_kernel = 1;
}

/* One event's call graph: -g / --call-graph, or the event's own terms. */
struct callgraph {
	enum pk_callgraph mode;
	uint32_t stack_size;	/* DWARF: user stack bytes per sample */
	int max_stack;		/* sample_max_stack, 0 for the kernel's limit */
	bool own;		/* set by the event's terms */
};

static enum pk_callgraph callgraph_mode(const char *mode)
{
	if (!strcmp(mode, "fp"))
		return PK_CALLGRAPH_FP;
	if (!strcmp(mode, "dwarf"))
		return PK_CALLGRAPH_DWARF;
	return !strcmp(mode, "lbr") ? PK_CALLGRAPH_LBR : PK_CALLGRAPH_NONE;	/* "no" */
}

/*
 * perf 6.1's per-event terms (evsel__apply_config_terms): call-graph=,
 * stack-size= or max-stack= replace -g's setting for that event.
 * max-stack alone means fp; stack-size alone (no call-graph=) leaves the
 * event without a call graph, as in perf; a DWARF stack is 8192 bytes
 * unless stack-size says otherwise, rounded up to 8.
 */
static struct callgraph event_callgraph(const struct pk_recorder_opts *o,
					const struct pk_event_desc *d)
{
	struct callgraph cg = { o->callgraph, o->stack_size ? o->stack_size : 8192, 0, false };
	const char *mode = d->call_graph;

	if (!mode && !d->stack_size && d->max_stack <= 0)
		return cg;
	if (!mode && d->max_stack > 0)
		mode = "fp";
	cg = (struct callgraph){ mode ? callgraph_mode(mode) : PK_CALLGRAPH_NONE, 8192,
				 d->max_stack > 0 ? d->max_stack : 0, true };
	if (d->stack_size)
		cg.stack_size = (d->stack_size + 7) & ~7u;
	return cg;
}

/* An event's call graph: frame pointers' chain, DWARF's registers and
 * stack copy, or LBR's call stack. */
static void layout_callgraph(struct perf_event_attr *a, const struct callgraph *c, bool tracking)
{
	struct callgraph cg = *c;

	if (cg.mode != PK_CALLGRAPH_NONE) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		a->sample_max_stack = (uint16_t)(cg.max_stack > UINT16_MAX ? UINT16_MAX : cg.max_stack);
	}
	if (cg.mode == PK_CALLGRAPH_DWARF) {
		/* perf's DWARF mode: the kernel chain from the kernel, the user
		 * chain unwound later from the registers and a copy of the stack. */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = pk_regs_dwarf_mask();
		a->sample_stack_user = cg.stack_size;
		a->exclude_callchain_user = 1;
		/* perf asks a per-event DWARF call graph for data addresses too. */
		if (cg.own) {
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			a->mmap_data = tracking;
		}
	}
	if (cg.mode == PK_CALLGRAPH_LBR) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
	}
}

/* perf record's layout and sideband for one event; `tracking` is the one
 * that carries the process sideband (mmap, comm, task). */
static void layout_attr(const struct pk_recorder_opts *o, const struct pk_event_desc *d,
			struct perf_event_attr *a, bool cpu_wide, bool tracking)
{
	struct callgraph cg = event_callgraph(o, d);

	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* perf's evsel__config: no times per thread (no inherit, no CPU) unless -T. */
	if (!o->per_thread || o->timestamp)
		a->sample_type |= PERF_SAMPLE_TIME;
	layout_callgraph(a, &cg, tracking);
	if (o->branch_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_type;
	}
	/* perf record -d: the data address and its data source (zero where
	 * the event has none, as for software events), as perf 6.1 asks. */
	if (o->data_addr)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	/* A tracepoint's fields are its raw data: perf records them always,
	 * and with them the CPU (evsel__newtp, and -R in evsel__config). */
	if (o->raw || a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	if (o->intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	if (cpu_wide || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	layout_extras(o, a, cg.mode);
	layout_rate(o, d, a);
	/* perf 6.1's evsel__config: a period varies with a frequency alone
	 * (and a tracepoint's comes with its fields, evsel__newtp); -P asks
	 * for it anyway. */
	if (a->freq || o->sample_period || a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	/* perf 6.1's read_format: the id and lost count; -s (the kernel
	 * writes each inherited copy's counts as it exits) and --running-time
	 * add the times.  The S modifier adds GROUP (layout_sample_read). */
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->inherit_stat || o->running_time)
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit_stat = o->inherit_stat;
	a->sample_id_all = 1;
	/* perf 6.1's overwrite: every event, the sideband's too, writes
	 * backward; what the rings lost is synthesized at the end. */
	a->write_backward = o->overwrite;
	if (tracking) {	/* process sideband, as in perf */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		/* Kernel symbols that come and go (BPF programs, JIT-ed code)
		 * and BPF program loads, so they can be resolved later. */
		a->ksymbol = 1;
		a->bpf_event = !o->no_bpf_event;
		/* DWARF unwinding needs the [stack] map and the read-only segments
		 * that hold .eh_frame: data mmaps, as perf asks. */
		a->mmap_data = o->data_addr || cg.mode == PK_CALLGRAPH_DWARF;
		a->context_switch = o->switch_events;
		a->namespaces = o->namespaces;
		a->cgroup = o->all_cgroups;
		a->build_id = o->buildid_mmap;
	}
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
}

/*
 * The S modifier, as perf 6.1's evsel__config and leader sampling: an event
 * with it samples PERF_SAMPLE_READ, and in a group of more than one also
 * reads the group (PERF_FORMAT_GROUP), so each sample carries the count of
 * every member; the evlist then opens it without inherit, as perf does.
 * When the leader has it, the members sample nothing (no period or
 * frequency unless their own terms set one, no backward ring unless their
 * own overwrite term says so) and take the leader's sample layout, so a
 * reader decodes them alike.
 */
static void layout_sample_read(struct pk_recorder *r, size_t i)
{
	const struct pk_event_desc *d = pk_events_desc(r->ev, i), *lead = pk_events_desc(r->ev, d->leader);
	struct perf_event_attr *a = pk_events_attr_mut(r->ev, i);

	if (d->sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		if (lead->nr_members > 1)
			a->read_format |= PERF_FORMAT_GROUP;
	}
	if (d->leader == i || !lead->sample_read)
		return;
	if (!d->rate_set) {
		a->freq = 0;
		a->sample_period = 0;
	}
	if (d->overwrite < 0)
		a->write_backward = 0;
	a->sample_type = pk_events_attr(r->ev, d->leader)->sample_type;	/* its own bits go */
}

/*
 * The event id in the records, as perf 6.1's evsel__config and
 * evlist__config place it: one event needs none (but the S modifier's
 * sample values go by id: ID); several events with one sample_type find
 * it at one place (ID); several layouts need it first (IDENTIFIER), so a
 * record finds its event before it knows the layout.
 */
static void layout_ids(struct pk_recorder *r)
{
	size_t n = pk_events_nr(r->ev);
	uint64_t first, bit = 0;

	for (size_t i = 0; i < n; i++)
		if (pk_events_attr(r->ev, i)->sample_type & PERF_SAMPLE_READ)
			pk_events_attr_mut(r->ev, i)->sample_type |= PERF_SAMPLE_ID;
	first = pk_events_attr(r->ev, 0)->sample_type;
	for (size_t i = 1; i < n; i++)
		bit = pk_events_attr(r->ev, i)->sample_type == first && bit != PERF_SAMPLE_IDENTIFIER ?
		      PERF_SAMPLE_ID : PERF_SAMPLE_IDENTIFIER;
	if (r->o.sample_identifier)	/* perf's --sample-identifier: always first */
		bit = PERF_SAMPLE_IDENTIFIER;
	else if (!bit && r->o.sample_id)	/* one event, in perf's pipe mode */
		bit = PERF_SAMPLE_ID;
	for (size_t i = 0; bit && i < n; i++) {
		struct perf_event_attr *a = pk_events_attr_mut(r->ev, i);

		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER);
		a->sample_type |= bit;
	}
}

/* The sideband goes, for CPUs (-a, -C), to a dummy event added last, as
 * perf 6.1's `dummy:HG`, which samples nothing (period 1 unless -c or -F);
 * otherwise to the first event.  With overwrite it is in the overwrite
 * rings as perf has it.  A leader comes before its members, so its layout
 * is final when theirs copies it. */
void pk__recorder_layout_events(struct pk_recorder *r)
{
	size_t n = pk_events_nr(r->ev), tracking = r->cpu_wide ? n - 1 : 0;

	for (size_t i = 0; i < n; i++) {
		layout_attr(&r->o, pk_events_desc(r->ev, i), pk_events_attr_mut(r->ev, i), r->cpu_wide,
			    i == tracking);
		layout_sample_read(r, i);
	}
	/* ... unless --group made it a member of an S leader: it then samples
	 * as the leader's other members (perf's leader sampling comes last). */
	/* perf's dummy is made with period 1, which evsel__config keeps
	 * unless -c or -F was given (it then takes that rate; it never samples). */
	if (r->cpu_wide && !pk_events_desc(r->ev, pk_events_desc(r->ev, tracking)->leader)->sample_read &&
	    !r->o.period && !r->o.freq) {
		struct perf_event_attr *a = pk_events_attr_mut(r->ev, tracking);

		if (!r->o.sample_period)
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
		a->freq = 0;
		a->sample_period = 1;
	}
	/* perf's -n (evsel__config): every event with a zero rate, its freq
	 * flag left as it was: it counts and writes the side band only. */
	for (size_t i = 0; r->o.no_samples && i < n; i++)
		pk_events_attr_mut(r->ev, i)->sample_period = 0;
	layout_ids(r);
}

/* The events to parse (NULL, or opts.default_event: perf's default,
 * cycles, first), and the dummy sideband event of layout_events. */
int pk__recorder_parse_events(struct pk_recorder *r, const char *list)
{
	bool dflt = !list || r->o.default_event;
	size_t len = list ? strlen(list) : 0;
	char *spec = pk__malloc(len + sizeof("cycles,") + sizeof(",dummy:HG"));
	int err;

	if (!spec)
		return pk__error_nomem("the event list with its dummy event");
	snprintf(spec, len + sizeof("cycles,"), "%s%s%s", dflt ? "cycles" : "", dflt && list ? "," : "",
		 list ? list : "");
	if (r->cpu_wide)
		strcat(spec, ",dummy:HG");
	err = pk_events_parse(spec, NULL, &r->ev);
	free(spec);
	/* --group: the events given, and the added dummy, as one group
	 * (perf groups the evlist after adding its dummy). */
	if (err > (dflt ? 1 : 0) && list && r->o.group)
		err = pk_events_group(r->ev, dflt ? 1 : 0, (size_t)err - (dflt ? 1 : 0));
	r->default_event = dflt;
	if (err >= 0 && dflt)
		pk__event_default_cycles_fixup(pk_events_attr_mut(r->ev, 0));
	return err < 0 ? err : 0;
}

/* -p: every thread of every process, in the order given. */
static int add_process_threads(struct pk_recorder *r)
{
	for (size_t i = 0; i < r->o.nr_pids; i++) {
		pid_t *t, *grown;
		size_t k;
		int err = pk_pid_threads(r->o.pids[i], &t, &k);

		if (err == -ESRCH && r->o.ignore_missing)
			continue;	/* exited since it was listed */
		if (err < 0)
			return err;
		grown = pk__realloc(r->threads, (r->nr_threads + k) * sizeof(*grown));
		if (!grown) {
			free(t);
			return pk__error_nomem("the recorder's thread list");
		}
		r->threads = grown;
		memcpy(r->threads + r->nr_threads, t, k * sizeof(*t));
		r->nr_threads += k;
		free(t);
	}
	return 0;
}

/* The CPUs (all online ones, or the list) and the threads of the target. */
static int build_target(struct pk_recorder *r)
{
	const struct pk_recorder_opts *o = &r->o;
	int kinds = (o->workload > 0) + (o->nr_pids > 0) + (o->nr_tids > 0) + r->cpu_wide;
	int err = o->cpu_list ? pk_cpus_parse(o->cpu_list, &r->cpus, &r->nr_cpus)
			      : pk_cpus_online(&r->cpus, &r->nr_cpus);

	if (err < 0)
		return err;
	if (kinds > 1)
		return pk__error(-EINVAL, "pk_recorder_new", "the target is a command, processes, "
				 "threads or CPUs: %d of them were given", kinds);
	if (o->per_thread && r->cpu_wide)
		return pk__error(-EINVAL, "pk_recorder_new", "per_thread is for a command, processes or "
				 "threads, not CPUs");
	if (o->per_thread) {	/* any CPU: the events follow their thread */
		r->nr_cpus = 1;
		r->cpus[0] = -1;
	}
	if (o->nr_pids)
		return add_process_threads(r);
	if (r->cpu_wide)
		return 0;
	r->nr_threads = o->nr_tids ? o->nr_tids : 1;
	if (!(r->threads = pk__calloc(r->nr_threads, sizeof(*r->threads))))
		return pk__error_nomem("the recorder's thread list");
	if (o->nr_tids)
		memcpy(r->threads, o->tids, o->nr_tids * sizeof(*o->tids));
	else
		r->threads[0] = o->workload > 0 ? o->workload : 0;	/* 0: the calling thread */
	return 0;
}

/*
 * Tracepoint filters (PERF_EVENT_IOC_SET_FILTER) on every fd of their
 * event.  The kernel says only EINVAL for a filter it cannot parse or a
 * field the tracepoint lacks: name the filter and the event.
 */
static int set_filters(struct pk_recorder *r)
{
	size_t nc = pk_evlist_nr_cpus(r->l), nt = pk_evlist_nr_threads(r->l);

	for (size_t i = 0; i < r->o.nr_filters && i < pk_events_nr(r->ev); i++) {
		const char *f = r->o.filters[i], *name = pk_recorder_event_name(r, i);

		if (!f)
			continue;
		if (pk_evlist_attr(r->l, i)->type != PERF_TYPE_TRACEPOINT)
			return pk__error(-EINVAL, "setting a tracepoint filter", "'%s' is not a tracepoint: filters are for "
					 "tracepoints", name);
		for (size_t c = 0; c < nc; c++)
			for (size_t t = 0; t < nt; t++) {
				int fd = pk__evlist_fd(r->l, i, c, t);
				int err = fd < 0 ? 0 : pk__sys_ioctl(fd, PERF_EVENT_IOC_SET_FILTER,
								     (unsigned long)f);

				if (err == -EINVAL) {
					pk__error(err, "setting a tracepoint filter", "the kernel refused the filter \"%s\" on %s",
						  f, name);
					pk__error_hint("check the field names and syntax against the "
						       "event's format (perfkit info %s)", name);
				}
				if (err < 0)
					return err;
			}
	}
	return 0;
}

/*
 * The rings: the pages asked for, or 128 (512 KiB) per CPU as perf.  DWARF
 * stacks make every sample ~8 KiB, so a 512 KiB ring fills within a
 * millisecond at high rates and a late wake-up loses samples; there the
 * default is 2048 pages (8 MiB), where the locked-memory limit allows it.
 */
static bool any_dwarf(const struct pk_recorder *r)
{
	for (size_t i = 0; i < pk_events_nr(r->ev); i++)
		if (pk_evlist_attr(r->l, i)->sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	return false;
}

static int map_rings(struct pk_recorder *r)
{
	if (r->o.pages)
		return pk_rings_map(r->l, r->pages = r->o.pages, &r->rs);
	if (any_dwarf(r) && pk_rings_map(r->l, r->pages = 2048, &r->rs) == 0)
		return 0;
	return pk_rings_map(r->l, r->pages = 128, &r->rs);
}

static int cmp_id(const void *a, const void *b)
{
	const struct pk__rec_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static bool layout_equal(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return b->sample_type == a->sample_type && b->read_format == a->read_format &&
	       b->sample_regs_user == a->sample_regs_user && b->sample_regs_intr == a->sample_regs_intr &&
	       b->branch_sample_type == a->branch_sample_type && b->sample_id_all == a->sample_id_all;
}

/* Every fd's id -> its event, sorted, so a record finds the attr that wrote
 * it (with several layouts all events carry IDENTIFIER: see layout_ids). */
static int build_ids(struct pk_recorder *r)
{
	size_t ne = pk_events_nr(r->ev), nc = pk_evlist_nr_cpus(r->l), nt = pk_evlist_nr_threads(r->l);

	r->same_layout = true;
	for (size_t i = 1; i < ne; i++)
		r->same_layout &= layout_equal(pk_evlist_attr(r->l, 0), pk_evlist_attr(r->l, i));
	if (!(r->ids = pk__calloc(ne * nc * nt + 1, sizeof(*r->ids))))
		return pk__error_nomem("the recorder's sample-id table");
	for (size_t i = 0; i < ne; i++)
		for (size_t c = 0; c < nc; c++)
			for (size_t t = 0; t < nt; t++)
				if (pk_evlist_id(r->l, i, c, t, &r->ids[r->nr_ids].id) == 0)
					r->ids[r->nr_ids++].event = i;
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

const struct perf_event_attr *pk__recorder_attr(const struct pk_recorder *r,
						const struct perf_event_header *h)
{
	struct pk__rec_id key, *hit;

	if (r->same_layout || pk_record_event_id(h, pk_evlist_attr(r->l, 0), &key.id) < 0)
		return pk_evlist_attr(r->l, 0);
	hit = bsearch(&key, r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return pk_evlist_attr(r->l, hit ? hit->event : 0);
}

static int recorder_setup(struct pk_recorder *r, const char *events)
{
	int err;

	if ((err = build_target(r)) < 0 || (err = pk__recorder_open_events(r, events)) < 0 ||
	    (err = set_filters(r)) < 0 || (err = map_rings(r)) < 0 || (err = build_ids(r)) < 0)
		return err;
	/* perf's --mmap-flush limit: a quarter of a ring. */
	r->flush = r->o.mmap_flush ? r->o.mmap_flush : 1;
	if (pk_rings_nr(r->rs) && r->flush > pk_ring_size(pk_rings_get(r->rs, 0)) / 4)
		r->flush = pk_ring_size(pk_rings_get(r->rs, 0)) / 4;
	if (any_dwarf(r) && !(r->trim = pk__malloc(65536)))
		return pk__error_nomem("the DWARF stack trimming buffer");
	if (!r->o.no_build_ids && (err = pk_maps_new(&r->maps)) < 0)
		return err;
	return 0;
}

int pk_recorder_new(const char *events, const struct pk_recorder_opts *opts, struct pk_recorder **out)
{
	struct pk_recorder *r = pk__calloc(1, sizeof(*r));
	int err;

	if (!r)
		return pk__error_nomem("the recorder");
	if (opts)
		memcpy(&r->o, opts, opts->size < sizeof(r->o) ? opts->size : sizeof(r->o));
	r->o.size = sizeof(r->o);
	r->ring = SIZE_MAX;
	r->cpu_wide = r->o.all_cpus || r->o.cpu_list;
	/* perf's cmd_record: overwrite synthesizes at the end. */
	r->o.tail_synthesize |= r->o.overwrite;
	r->st.size = sizeof(r->st);
	if ((err = recorder_setup(r, events)) < 0) {
		pk_recorder_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void pk_recorder_free(struct pk_recorder *r)
{
	if (!r)
		return;
	pk__sideband_free(r->sb);
	pk_maps_free(r->maps);
	free(r->trim);
	free(r->ids);
	pk_rings_free(r->rs);
	pk_evlist_free(r->l);
	for (size_t i = 0; r->names && i < pk_events_nr(r->ev); i++)
		free(r->names[i]);
	free(r->names);
	pk_events_free(r->ev);
	free(r->threads);
	free(r->cpus);
	free(r->warning);
	free(r);
}

bool pk_recorder_fell_back(const struct pk_recorder *r)
{
	return r->fell_back;
}

const char *pk_recorder_event_name(const struct pk_recorder *r, size_t i)
{
	if (i >= pk_events_nr(r->ev))
		return NULL;
	return r->names && r->names[i] ? r->names[i] : pk_events_desc(r->ev, i)->name;
}

const struct pk_events *pk_recorder_events(const struct pk_recorder *r)
{
	return r->ev;
}

const struct pk_evlist *pk_recorder_evlist(const struct pk_recorder *r)
{
	return r->l;
}

size_t pk_recorder_pages(const struct pk_recorder *r)
{
	return r->pages;
}

size_t pk_recorder_nr_rings(const struct pk_recorder *r)
{
	return pk_rings_nr(r->rs);
}

int pk_recorder_set_writer(struct pk_recorder *r, struct pk_data_writer *w)
{
	if (r->started)
		return pk__error(-EINVAL, "pk_recorder_set_writer", "the recording has started");
	r->w = w;
	return 0;
}

int pk_recorder_set_callback(struct pk_recorder *r, pk_recorder_cb cb, void *arg)
{
	if (r->started)
		return pk__error(-EINVAL, "pk_recorder_set_callback", "the recording has started");
	r->cb = cb;
	r->cb_arg = arg;
	return 0;
}

const char *pk_recorder_warning(const struct pk_recorder *r)
{
	return r->warning;
}

static int synth_sink(void *arg, const struct perf_event_header *h)
{
	struct pk_recorder *r = arg;

	return pk__recorder_deliver(r, h, pk_evlist_attr(r->l, 0));
}

/* The kernel's map, for kernel symbols.  Hidden addresses (EACCES) or a
 * kernel without kallsyms or its text range (ENOENT) are a warning: the
 * recording goes on without kernel symbols.  Anything else (EMFILE) is an
 * error. */
static int synth_kernel(struct pk_recorder *r, uint64_t id)
{
	int err = r->o.buildid_mmap ? pk_record_synth_kernel_build_id(pk_evlist_attr(r->l, 0), id, synth_sink, r)
				    : pk_record_synth_kernel(pk_evlist_attr(r->l, 0), id, synth_sink, r);
	const struct pk_error *e = pk_last_error();

	if (err != -EACCES && err != -ENOENT)
		return err;
	free(r->warning);
	if (pk__asprintf(&r->warning, "%s; %s", e->why, e->hint) < 0)
		r->warning = NULL;
	return 0;
}

/* The cgroups, as perf 6.1 synthesizes them with --all-cgroups; a
 * machine without a cgroup hierarchy is a warning, as perf warns. */
static int synth_cgroups(struct pk_recorder *r, const struct perf_event_attr *a, uint64_t id)
{
	int err = pk_record_synth_cgroups(a, id, synth_sink, r);

	if (err != -ENOENT)
		return err;
	free(r->warning);
	if (pk__asprintf(&r->warning, "no cgroup records: %s", pk_last_error()->why) < 0)
		r->warning = NULL;
	return 0;
}

/*
 * What existed before recording: the kernel's map (so kernel samples get
 * symbols), the loaded BPF programs, and for processes, threads and CPUs the processes' names and
 * executable maps; a command starts after us, so the kernel reports its
 * own as it execs, and only its name before the exec is ours to tell.
 * `again`: for a file after a switch, which must read
 * alone, so a command's process is told too (one gone already has
 * nothing left to tell).
 */
/* The processes of the target: -p's, -t's, every one for CPUs, and after
 * a switch the command's. */
static int synth_tasks(struct pk_recorder *r, const struct perf_event_attr *a, uint64_t id,
		       unsigned flags, bool again)
{
	int err = 0;

	for (size_t i = 0; !err && i < r->o.nr_pids; i++) {
		err = pk_record_synth_process(r->o.pids[i], a, id, flags, synth_sink, r);
		/* ignore_missing: gone, or not ours to read, as for -a */
		if (r->o.ignore_missing && (err == -ESRCH || err == -ENOENT || err == -EACCES))
			err = 0;
	}
	/* Each thread's process once: its name and maps. */
	for (size_t i = 0; !err && i < r->o.nr_tids; i++) {
		pid_t tgid = pk_pid_tgid(r->o.tids[i]);
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = pk_pid_tgid(r->o.tids[j]) == tgid;
		if (!seen && tgid > 0)
			err = pk_record_synth_process(tgid, a, id, flags, synth_sink, r);
	}
	if (!err && r->cpu_wide)
		err = pk_record_synth_all(a, id, flags, synth_sink, r);
	/* The command, held before its exec, by the name its child has then
	 * (as perf writes it): the exec's first samples come before the
	 * command's own COMM, and without this they would belong to no one
	 * (":TID", which a report renames after the fact, a script not). */
	if (!err && !again && r->o.workload > 0)
		err = pk_record_synth_comm(r->o.workload, r->o.workload, PK_WORKLOAD_COMM, a, id,
					   synth_sink, r);
	if (!err && again && r->o.workload > 0) {
		err = pk_record_synth_process(r->o.workload, a, id, flags, synth_sink, r);
		if (err == -ESRCH || err == -ENOENT)
			err = 0;
	}
	return err;
}

static int synthesize(struct pk_recorder *r, bool again)
{
	const struct perf_event_attr *a = pk_evlist_attr(r->l, 0);
	unsigned flags = (r->o.data_addr ? PK_SYNTH_DATA : 0) | (r->o.namespaces ? PK_SYNTH_NAMESPACES : 0) |
			 (r->o.no_synth & PK_RECORDER_NO_SYNTH_MMAP ? PK_SYNTH_NO_MAPS : 0) |
			 (r->o.buildid_mmap ? PK_SYNTH_BUILD_ID : 0);
	uint64_t id = 0;
	int err;

	for (size_t c = 0; c < pk_evlist_nr_cpus(r->l) && !id; c++)
		pk_evlist_id(r->l, 0, c, 0, &id);
	err = synth_kernel(r, id);
	/* --all-cgroups: the cgroups that exist (the kernel tells of new
	 * ones), before the processes, as perf 6.1 writes them. */
	if (!err && r->o.all_cgroups && !(r->o.no_synth & PK_RECORDER_NO_SYNTH_CGROUP))
		err = synth_cgroups(r, a, id);
	/* perf's --synth without task: no process is told. */
	if (!err && !(r->o.no_synth & PK_RECORDER_NO_SYNTH_TASK))
		err = synth_tasks(r, a, id, flags, again);
	/* The loaded BPF programs, for every target as perf does. */
	if (!err && !r->o.no_bpf_event)
		err = pk_record_synth_bpf(a, id, synth_sink, r);
	return err;
}

/*
 * perf 6.1's tail synthesis, asked for or implied by overwrite (the
 * sideband shares the overwrite rings and the oldest of it is lost): what
 * exists is told at the end of each file, after its last snapshot (the
 * processes as they are when the samples kept were taken), instead of at
 * the start.
 */
int pk__recorder_synthesize_tail(struct pk_recorder *r)
{
	int err = r->o.tail_synthesize ? synthesize(r, true) : 0;

	return err < 0 ? err : r->st.sink_error;
}

int pk_recorder_start(struct pk_recorder *r)
{
	int err;

	if (r->started)
		return pk__error(-EINVAL, "pk_recorder_start", "the recording has started already");
	r->started = true;
	/* Before the synthesis, as perf starts its side band: a program
	 * loaded meanwhile is read at once. */
	if (r->w && !r->o.no_bpf_event && (err = pk__sideband_start(&r->sb)) < 0)
		return err;
	if ((r->w && (err = pk__recorder_describe(r)) < 0) ||
	    (!r->o.tail_synthesize && (err = synthesize(r, false)) < 0))
		return err;
	if (r->st.sink_error)
		return r->st.sink_error;
	/* A command's events start at its exec (enable_on_exec). */
	return r->o.workload > 0 || r->o.start_disabled ? 0 : pk_evlist_enable(r->l);
}

int pk_recorder_switch(struct pk_recorder *r, struct pk_data_writer *w)
{
	int err;

	if (!r->started || !r->w || !w)
		return pk__error(-EINVAL, "pk_recorder_switch", "%s", !r->started ?
				 "the recording has not started" : "a switch is from one writer to another");
	/* From here on records go to `w`, even after a failure: the caller
	 * finishes the old writer whatever is said. */
	err = pk__recorder_drain_all(r);
	if (!err)
		err = pk__recorder_end_file(r);
	r->w = w;
	if (err < 0)
		return err;
	r->file_first = r->file_last = 0;
	if ((err = pk__recorder_describe(r)) < 0 || (!r->o.tail_synthesize && (err = synthesize(r, true)) < 0))
		return err;
	return r->st.sink_error;
}

size_t pk_recorder_mmap_flush(const struct pk_recorder *r)
{
	return r->flush;
}
