/* SPDX-License-Identifier: MIT */
/*
 * report-export.c - `perfkit report --format=folded|pprof|speedscope|
 * flamegraph [-o FILE]`: every sample of the file, resolved by the
 * library's resolver (comm, location, call chain as perf builds it),
 * through report's filters, handed to a pk_exporter and written to FILE
 * (a temporary name next to it, renamed into place when whole) or to
 * standard output.
 */
#include "report.h"
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct export_run {
	const struct report_opts *o;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct pk_exporter *ex;
	struct pk_export_frame *frames;
	size_t cap_frames;
	char (*bids)[41];	/* each frame's build-id in hex */
	const struct pk_dso **bid_dso;	/* the DSO bids[i] was made for */
	struct report_offcpu *offcpu;	/* --off-cpu */
	struct chain_slot *chains;	/* CHAIN_MEMO of them, made on first use */
	uint32_t gen;			/* the live generation of chains, never 0 */
	struct id_slot *ids;		/* CHAIN_MEMO of them, made on first use */
};

/* A sample's call chain, as recorded, and the exporter's stack it came
 * to: a sample with the same chain of the same process resolves to the
 * same frames until a record changes the maps (run->gen), so it is given
 * to the exporter by that stack, its frames neither made nor compared. */
struct chain_slot {
	uint64_t hash;
	uint32_t pid, gen, stack;	/* gen 0: empty */
	uint64_t *ips;
	size_t nr, cap;
};

/* A chain the recorded one does not decide (a --call-graph dwarf
 * sample's: its unwinding does too), by the resolver's chain id instead:
 * the same id, the same frames.  Ids are never handed out again, so a
 * slot needs no generation. */
struct id_slot {
	uint64_t id;			/* 0: empty */
	uint32_t stack;
};

#define CHAIN_MEMO 4096u

static const struct {
	const char *name;
	enum pk_export_format format;
} formats[] = {
	{ "folded", PK_EXPORT_FOLDED }, { "pprof", PK_EXPORT_PPROF },
	{ "speedscope", PK_EXPORT_SPEEDSCOPE }, { "flamegraph", PK_EXPORT_FLAMEGRAPH },
};

int report_export_format(const char *arg, int *format)
{
	if (!strcmp(arg, "stdio") || !strcmp(arg, "json")) {
		*format = arg[0] == 's' ? -1 : REPORT_FORMAT_JSON;
		return 0;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(arg, formats[i].name)) {
			*format = (int)formats[i].format;
			return 0;
		}
	return cli_usage("report", "unknown --format '%s' (stdio, json, folded, pprof, speedscope, flamegraph)",
			 arg);
}

static const char *short_name(const struct pk_dso *d)
{
	const char *slash;

	if (!d)
		return NULL;
	slash = d->name[0] == '/' ? strrchr(d->name, '/') : NULL;
	return slash ? slash + 1 : d->name;
}

/* Whether report's filters keep the sample (--cpu, --comms, --pid, --tid, --dsos, --symbols). */
static bool kept(const struct report_opts *o, const struct pk_sample *s, const struct pk_resolved_sample *rs)
{
	return !((o->cpus && !report_in_ids(o->cpus, o->nr_cpus, s->cpu)) ||
		 (o->comms && !report_in_list(o->comms, rs->comm)) ||
		 (o->pids && !report_in_ids(o->pids, o->nr_pids, rs->pid)) ||
		 (o->tids && !report_in_ids(o->tids, o->nr_tids, rs->tid)) ||
		 (o->dsos && !report_verbose_dso_listed(o, short_name(rs->loc.dso), rs->loc.dso)) ||
		 (o->syms && !report_in_list(o->syms, rs->loc.sym)));
}

static enum pk_frame_kind kind_of(const struct pk_location *loc)
{
	const char *n = loc->dso ? loc->dso->name : "";

	if (loc->kernel)
		return PK_FRAME_KERNEL;
	if (!strncmp(n, "//anon", 6) || !strncmp(n, "/tmp/perf-", 10) || !strncmp(n, "[JIT]", 5))
		return PK_FRAME_JIT;
	return PK_FRAME_USER;
}

/* A frame's source line: an inlined function's own (inl), else the line
 * table's for its address, when the DWARF has one. */
static void put_line(struct export_run *run, struct pk_export_frame *f, const struct pk_location *loc,
		     const struct pk_srcline_frame *inl)
{
	struct pk_srcline sl = { .size = sizeof(sl) };

	if (inl) {
		f->file = inl->file;
		f->line = inl->line;
	} else if (loc->dso && pk_maps_srcline(pk_resolver_maps(run->res), loc, &sl) == 0) {
		f->file = sl.file;
		f->line = sl.line;
	}
}

static void put_frame(struct export_run *run, size_t i, uint64_t ip, const struct pk_location *loc,
		      const struct pk_srcline_frame *inl)
{
	const struct pk_dso *d = loc->dso;

	static const char hex[] = "0123456789abcdef";
	size_t b;

	for (b = 0; d != run->bid_dso[i] && d && b < d->build_id_size && b < 20; b++) {
		run->bids[i][2 * b] = hex[d->build_id[b] >> 4];
		run->bids[i][2 * b + 1] = hex[d->build_id[b] & 15];
	}
	if (d != run->bid_dso[i])
		run->bids[i][2 * b] = 0;
	run->bid_dso[i] = d;
	run->frames[i] = (struct pk_export_frame){ .name = loc->sym, .addr = ip, .dso = d ? d->name : NULL,
						   .build_id = run->bids[i][0] ? run->bids[i] : NULL,
						   .file_offset = loc->addr, .kind = kind_of(loc) };
	if (run->o->format != PK_EXPORT_FOLDED)	/* folded stacks name no lines: skip the look-ups */
		put_line(run, &run->frames[i], loc, inl);
}

/* The memo's slot for chain `s` (NULL: none to use), *stack its stack
 * when the slot holds this chain now (else 0). */
static struct chain_slot *chain_find(struct export_run *run, const struct pk_sample *s, uint32_t *stack)
{
	uint64_t h;
	struct chain_slot *c;

	*stack = 0;
	if (!pk_resolver_chain_key(s, &h))
		return NULL;
	if (!run->chains && !(run->chains = calloc(CHAIN_MEMO, sizeof(*run->chains))))
		return NULL;	/* the memo only saves work */
	c = &run->chains[(h >> 40) & (CHAIN_MEMO - 1)];
	if (c->gen == run->gen && c->hash == h && c->pid == s->pid && c->nr == s->callchain.nr &&
	    !memcmp(c->ips, s->callchain.ips, c->nr * sizeof(*c->ips))) {
		*stack = c->stack;
		return c;
	}
	c->gen = 0;
	c->hash = h;
	return c;
}

/* Keep chain `s` in slot c as the exporter's last stack. */
static void chain_store(struct export_run *run, struct chain_slot *c, const struct pk_sample *s)
{
	if (s->callchain.nr > c->cap) {
		uint64_t *ips = realloc(c->ips, s->callchain.nr * sizeof(*ips));

		if (!ips)
			return;
		c->ips = ips;
		c->cap = s->callchain.nr;
	}
	memcpy(c->ips, s->callchain.ips, s->callchain.nr * sizeof(*c->ips));
	c->nr = s->callchain.nr;
	c->pid = s->pid;
	c->stack = pk_exporter_last_stack(run->ex);
	c->gen = run->gen;
}

/* Whether a record of `type` may change what a chain resolves to: all
 * but those known to leave the maps and threads alone (perf writes a
 * FINISHED_ROUND every round). */
static bool changes_chains(uint32_t type)
{
	switch (type) {
	case PK_DATA_RECORD_FINISHED_ROUND:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return false;
	default:
		return true;
	}
}

static void forget_chains(struct export_run *run)
{
	if (++run->gen == 0) {	/* wrapped: no slot may look current */
		for (size_t i = 0; run->chains && i < CHAIN_MEMO; i++)
			run->chains[i].gen = 0;
		run->gen = 1;
	}
}

/* The memo's slot for a chain of chain id `id` that pk_resolver_chain_key
 * cannot key (NULL: none to use), *stack its stack when the slot holds
 * that id (else 0). */
static struct id_slot *id_find(struct export_run *run, uint64_t id, uint32_t *stack)
{
	struct id_slot *k;

	*stack = 0;
	if (!run->ids && !(run->ids = calloc(CHAIN_MEMO, sizeof(*run->ids))))
		return NULL;	/* the memo only saves work */
	k = &run->ids[id & (CHAIN_MEMO - 1)];
	if (k->id == id)
		*stack = k->stack;
	return k;
}

static int put_frames(struct export_run *run, const struct pk_sample *smp, const struct pk_resolved_sample *rs);

/* Sample `smp` of event ev, resolved as `rs`, into the exporter; `chain`
 * (NULL: none) is the recorded sample, whose chain the memo is keyed by. */
static int export_sample(struct export_run *run, size_t ev, const struct pk_sample *smp,
			 const struct pk_resolved_sample *rs, const struct pk_sample *chain)
{
	const struct perf_event_attr *a = pk_data_reader_attr(run->r, ev);
	struct chain_slot *c;
	struct id_slot *k = NULL;
	uint32_t stack = 0;
	int err;

	if (!kept(run->o, smp, rs))
		return 0;
	c = rs->nr_frames ? chain_find(run, chain, &stack) : NULL;
	if (!c && chain && rs->nr_frames && rs->chain_id)
		k = id_find(run, rs->chain_id, &stack);
	if (!stack && (err = put_frames(run, smp, rs)) < 0)
		return err;
	struct pk_export_sample s = {
		.size = sizeof(s), .ev = (uint32_t)ev, .pid = rs->pid, .tid = rs->tid, .comm = rs->comm,
		.weight = smp->fields & PERF_SAMPLE_PERIOD ? smp->period : a->sample_period,
		.cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1,
		.has_time = smp->fields & PERF_SAMPLE_TIME, .time = smp->time,
		.frames = run->frames, .nr_frames = rs->nr_frames ? rs->nr_frames : 1,
		.stack = stack,
	};
	if ((err = pk_exporter_add(run->ex, &s)) < 0 || stack)
		return err;
	if (c)
		chain_store(run, c, chain);
	else if (k)
		*k = (struct id_slot){ rs->chain_id, pk_exporter_last_stack(run->ex) };
	return err;
}

/* The frames of resolved sample rs into run->frames. */
static int put_frames(struct export_run *run, const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	size_t n = rs->nr_frames ? rs->nr_frames : 1;

	if (n > run->cap_frames) {
		free(run->frames);
		free(run->bids);
		free(run->bid_dso);
		run->frames = calloc(n, sizeof(*run->frames));
		run->bids = calloc(n, sizeof(*run->bids));
		run->bid_dso = calloc(n, sizeof(*run->bid_dso));
		run->cap_frames = run->frames && run->bids && run->bid_dso ? n : 0;
		if (!run->cap_frames)
			return -ENOMEM;
	}
	if (!rs->nr_frames)
		put_frame(run, 0, smp->ip, &rs->loc, NULL);
	for (size_t i = 0; i < rs->nr_frames; i++) {
		const struct pk_frame *fr = &rs->frames[i];

		put_frame(run, i, fr->ip, &fr->loc, fr->inl);
		/* A function inlined into the next frame out: the resolver gives
		 * an address's functions as consecutive entries of one srcline
		 * list (a recursive call at the same address starts the list
		 * again, so it is not taken for one). */
		if (fr->inl && i + 1 < rs->nr_frames && rs->frames[i + 1].inl == fr->inl + 1)
			run->frames[i].kind = PK_FRAME_INLINED;
	}
	return 0;
}

/* --off-cpu (report-offcpu.c): an interval that ends is a sample of its
 * own.  Returns 1 when the record counts only that way, 0, or a negative
 * errno. */
static int offcpu(struct export_run *run, int ev, const struct pk_record *d,
		  const struct pk_resolved_sample *rs)
{
	struct report_offcpu_out out;
	int rc = rs ? report_offcpu_sample(run->offcpu, (size_t)ev, d, rs, &out)
		    : report_offcpu_record(run->offcpu, d, &out);
	int err;

	if (rc > 0 && (rc & REPORT_OFFCPU_EMIT) && (err = export_sample(run, out.ev, &out.smp, &out.rs, NULL)) < 0)
		return err;
	return rc < 0 ? rc : rc & REPORT_OFFCPU_CONSUMED;
}

static int add_sample(struct export_run *run, const struct perf_event_header *rec)
{
	int ev = pk_data_reader_event_of(run->r, rec);
	struct pk_record d = { .size = sizeof(d) };
	struct pk_resolved_sample rs = { .size = sizeof(rs) };
	int err;

	if (ev < 0)
		return 0;	/* a sample of no known event: perf drops it too */
	if ((err = pk_record_decode(rec, pk_data_reader_attr(run->r, (size_t)ev), &d)) != 0)
		return err < 0 ? err : -EINVAL;
	if ((err = pk_resolver_resolve(run->res, &d, &rs)) < 0)
		return err;
	if (run->offcpu && (err = offcpu(run, ev, &d, &rs)) != 0)
		return err < 0 ? err : 0;
	return export_sample(run, (size_t)ev, &d.sample, &rs, &d.sample);
}

static int read_all(struct export_run *run)
{
	const struct perf_event_header *rec;
	int rc, err = 0;

	while (!err && (rc = pk_data_reader_next(run->r, &rec)) > 0) {
		struct pk_record d = { .size = sizeof(d) };
		const struct perf_event_attr *a;

		if (rec->type == PERF_RECORD_SAMPLE) {
			err = add_sample(run, rec);
			continue;
		}
		if (changes_chains(rec->type))
			forget_chains(run);
		a = pk_data_reader_attr_of(run->r, rec);
		if (pk_record_decode(rec, a ? a : pk_data_reader_attr(run->r, 0), &d) == 0 &&
		    !(err = pk_resolver_process(run->res, &d)) && run->offcpu)
			err = offcpu(run, -1, &d, NULL);
	}
	if (err < 0)
		return err;
	if (rc < 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit report: warning: %s: %s; the export covers the records "
			    "before it\n", e->what, e->why);
	}
	return 0;
}

/* A clock event's weights are nanoseconds; any other's are counts. */
static const char *unit_of(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK))
		return "nanoseconds";
	return "count";
}

static int make_exporter(struct export_run *run)
{
	size_t nr = pk_data_reader_nr_events(run->r);
	struct pk_export_event *ev = calloc(nr ? nr : 1, sizeof(*ev));
	struct pk_export_opts eo = { .size = sizeof(eo), .format = (enum pk_export_format)run->o->format,
				     .events = ev, .nr_events = nr, .title = run->o->input };
	int err;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const char *name = pk_data_reader_name(run->r, i);

		const char *base = name ? name : "unknown", *shown = report_offcpu_name(run->offcpu, i, base);

		/* The event off-CPU intervals count in is in nanoseconds. */
		ev[i] = (struct pk_export_event){ shown, shown != base ? "nanoseconds"
								       : unit_of(pk_data_reader_attr(run->r, i)) };
	}
	err = pk_exporter_new(&eo, &run->ex);
	free(ev);
	return err;
}

static int write_profile(FILE *f, void *ctx)
{
	return pk_exporter_write(((struct export_run *)ctx)->ex, f);
}

/* Write the profile to o->output (output.c), or to stdout. */
static int write_out(struct export_run *run)
{
	const char *path = run->o->output;

	if ((!path || !strcmp(path, "-")) && run->o->format == PK_EXPORT_PPROF && isatty(STDOUT_FILENO))
		return cli_usage("report", "--format=pprof writes gzipped protobuf: give -o FILE");
	return cli_output_write("report", path, write_profile, run);
}

int report_export(const struct report_opts *o, struct pk_data_reader *r)
{
	struct export_run run = { .o = o, .r = r, .gen = 1 };
	char dir[4096];
	int err, rc;

	/* symbols from the build-id cache first, as report's table finds them */
	if ((rc = report_offcpu_new(o, r, &run.offcpu)) > 0) {
		pk_data_reader_free(r);
		return rc;
	}
	if ((err = rc) < 0 || (err = pk_resolver_new(r, &run.res)) < 0 ||
	    (cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(run.res, dir)) < 0) ||
	    (err = cli_symfs_apply(run.res)) < 0 || (err = make_exporter(&run)) < 0 ||
	    (err = read_all(&run)) < 0)
		rc = cli_error("report", NULL);
	else
		rc = write_out(&run);
	free(run.frames);
	free(run.bids);
	free(run.bid_dso);
	for (size_t i = 0; run.chains && i < CHAIN_MEMO; i++)
		free(run.chains[i].ips);
	free(run.chains);
	free(run.ids);
	pk_exporter_free(run.ex);
	pk_resolver_free(run.res);
	report_offcpu_free(run.offcpu);
	pk_data_reader_free(r);
	return rc;
}
