/* SPDX-License-Identifier: MIT */
/*
 * cmd-report.c - `perfkit report`: read a perf.data file (perf's or
 * perfkit's), follow its threads and maps, count every sample into one
 * histogram per event by the --sort keys, and print perf report's --stdio
 * table (report-print.c).  Perf's ownership check, the filters, and what
 * a damaged file gets: the rows before the damage and a warning naming
 * the offset.  The options are report-opts.c's.
 */
#include "report.h"
#include "report-header.h"
#include "report-dump.h"
#include "report-branch.h"
#include "report-brhist.h"
#include "dso-names.h"
#include "report-flags2.h"
#include "report-memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ---------------------------------------------------------------- */

/* A short name dso_name handed out: a JIT name ("[JIT] tid PID") is the
 * pid's, every other one the DSO's alone. */
struct dso_memo {
	const struct pk_dso *d;
	const char *name;
	uint32_t pid;
	bool jit;
};

/* Everything one run follows while it reads the file. */
struct report_run {
	const struct report_opts *o;
	struct pk_data_reader *r;
	struct pk_resolver *res;
	struct report_event *ev;
	size_t nr_ev;
	struct cli_names names;	/* every DSO short name handed out, each once */
	const struct pk_dso *last_dso;	/* -v: the last DSO named, and its name */
	const char *last_name;
	struct dso_memo names_memo[16];	/* dso_name's names, by DSO */
	uint64_t lost_samples;
	struct report_chains chains;	/* add_chain's buffers */
	struct report_srclines *src;	/* --sort srcline/srcfile strings */
	struct report_reads reads;	/* PERF_SAMPLE_READ's last readings */
	struct report_thread_counts thread_counts;	/* -T */
	struct cli_progress progress;	/* on a terminal, for a slow file */
	uint64_t first_time, last_time, time;	/* SAMPLE_TIME's span, the last sample's time */
	struct report_offcpu *offcpu;	/* --off-cpu */
	struct pk_stack_health *health;	/* report-health.c's count */
	bool srclines;			/* a srcline or srcfile key: report-srcline.c per sample */
	bool socket_out;		/* report_flags4_socket_out, the same for every sample */
	bool width_syms;		/* report_width_syms: the samples' symbols for a width */
	/* A zeroed sample with its size, copied to start each one: zeroing
	 * in place took a `rep stos`, its start-up a tenth of report_sample */
	struct pk_hist_sample blank;
	struct pk_resolved_sample blank_rs;	/* the same for the resolver's answer */
	struct report_branch *branch;	/* branch mode's table (report-branch.c), else NULL */
	struct report_brhist *brhist;	/* --branch-history's chains (report-brhist.c), else NULL */
	struct report_memo *memo;	/* repeated samples (report-memo.c), else NULL */
};

/* d's slot in run's table of names. */
static struct dso_memo *dso_memo(struct report_run *run, const struct pk_dso *d)
{
	return &run->names_memo[(uint64_t)(uintptr_t)d * 0x9e3779b97f4a7c15ull >> 60];
}

/*
 * The short name perf shows for DSO `d` in process `pid` (dso-names.c),
 * remembered by DSO in a small table: a chain's frames alternate a few
 * DSOs.  With -v the last one alone: report_verbose_dso learns a DSO's
 * origin letter late, when it is named again.  *nomem is set when out of
 * memory.
 */
static __attribute__((noinline)) const char *dso_name_new(struct report_run *run, const struct pk_dso *d,
							  uint32_t pid, bool *nomem)
{
	struct dso_memo *m = dso_memo(run, d);
	const char *name;

	if (run->o->verbose) {
		if (d && d == run->last_dso)
			return run->last_name;
		name = report_verbose_dso(run->o, &run->names, d, pid, nomem);
		if (d && !cli_dso_is_jit(d)) {
			run->last_dso = name ? d : NULL;
			run->last_name = name;
		}
		return name;
	}
	name = cli_dso_short_name(&run->names, d, pid, nomem);
	if (d && name)
		*m = (struct dso_memo){ d, name, pid, cli_dso_is_jit(d) };
	return name;
}

/* dso_name_new's answer, from the table when it has it (inline: a call
 * per frame was most of the cost of a name). */
static inline const char *dso_name(struct report_run *run, const struct pk_dso *d, uint32_t pid, bool *nomem)
{
	const struct dso_memo *m = dso_memo(run, d);

	if (d && !run->o->verbose && m->d == d && (!m->jit || m->pid == pid))
		return m->name;
	return dso_name_new(run, d, pid, nomem);
}

bool report_in_ids(const pid_t *ids, size_t nr, int64_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool report_in_list(char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

/* Whether --comms, --pid, --tid, --dsos or --symbols hide the sample (perf still
 * counts it, in the totals and in its entry). */
static bool filtered(const struct report_opts *o, const struct pk_hist_sample *s, const struct pk_dso *d)
{
	return (o->comms && !report_in_list(o->comms, s->comm)) ||
	       (o->dsos && !report_verbose_dso_listed(o, s->dso, d)) ||
	       (o->syms && !report_in_list(o->syms, s->sym)) ||
	       (o->pids && !report_in_ids(o->pids, o->nr_pids, s->pid)) ||
	       (o->tids && !report_in_ids(o->tids, o->nr_tids, s->tid));
}

/* Frame f of sample s as the entry it counts in for Children (*fs, at
 * `level`); *sym and *dso come in as the frame's, go out as the entry's. */
static int frame_entry(struct report_run *run, const struct pk_hist_sample *s, const struct pk_frame *f,
		       char level, struct pk_hist_sample *fs, const char **sym, const char **dso)
{
	bool src = run->srclines || f->inlined;

	*fs = *s;
	fs->level = level;
	fs->sym = *sym;
	fs->sym_start = f->loc.sym_start;
	fs->sym_object = f->loc.sym_object;
	report_sort2_frame(&f->loc, fs);
	fs->ip = f->ip;	/* perf keys a frame's entry by its address as sampled */
	/* perf's frame entries unmap the address twice (the frame's al->addr
	 * is the ip, not its map_ip): but in the kernel's map */
	fs->addr = !f->loc.dso || f->loc.kernel ? f->ip : 2 * f->ip - f->loc.map_ip;
	fs->dso = *dso;
	report_ksym_frame(fs, f->loc.dso);
	if (src && report_srcline_frame(&run->src, run->o, pk_resolver_maps(run->res), f, fs) < 0)
		return -ENOMEM;
	/* perf's frame entries carry the sample's filter state: its
	 * addr_location, with the frame's symbol and map filled in. */
	fs->filtered = s->filtered;
	/* Not read back unless srcline changed them: one 16-byte load over two
	 * 8-byte stores, a store-forwarding stall, was a third of add_chain. */
	if (src) {
		*sym = fs->sym;
		*dso = fs->dso;
	}
	return 0;
}

/*
 * Sample `s` with its call chain: each frame as the entry it counts in
 * (for Children) and as a frame of the tree, in the order the graphs
 * print (callee first, or caller first), into pk_hist_add_chain.
 * Without Children the entries are not made: pk_hist_add_chain reads
 * them only for Children, and making them (a copy of the sample per
 * frame) was a third of this function's time.
 */
static int add_chain(struct report_run *run, size_t ev, const struct pk_hist_sample *s,
		     const struct pk_resolved_sample *rs)
{
	struct report_chains *c = &run->chains;
	size_t nr = rs->nr_frames, from = 0;
	bool nomem = false, children = run->o->children;
	char level = s->level;

	/* The resolver cut the chain to --max-stack as perf does (in caller
	 * order its outermost call-chain addresses, the innermost unwound
	 * frames); a branch history's chain keeps its outermost frames in
	 * caller order, and an LBR call stack stays whole. */
	if (run->o->cg.caller && nr > run->o->max_stack && !rs->lbr && report_brhist_made(run->brhist, rs)) {
		from = nr - run->o->max_stack;
		nr = run->o->max_stack;
	}
	if (nr > c->cap) {
		struct pk_hist_sample *hs = realloc(c->samples, nr * sizeof(*hs));
		struct pk_callchain_frame *cf = hs ? realloc(c->frames, nr * sizeof(*cf)) : NULL;

		if (hs)
			c->samples = hs;
		if (!cf)
			return -ENOMEM;
		c->frames = cf;
		c->cap = nr;
	}
	for (size_t k = 0; k < nr; k++) {
		size_t idx = run->o->cg.caller ? from + nr - 1 - k : k;
		const struct pk_frame *f = &rs->frames[idx];
		const char *sym = f->loc.sym, *dso = dso_name(run, f->loc.dso, s->pid, &nomem);
		bool entry = children || run->srclines || f->inlined;
		uint64_t sym_start;

		/* perf fills one addr_location frame after frame: a frame no map
		 * holds keeps the level of the frame before it (or the sample's) */
		if (f->loc.dso)
			level = cli_sample_level(f->cpumode);
		if (nomem)
			return -ENOMEM;
		if (entry) {
			if (frame_entry(run, s, f, level, &c->samples[k], &sym, &dso) < 0)
				return -ENOMEM;
			sym_start = c->samples[k].sym_start;
		} else {
			sym_start = report_ksym_start(f->loc.dso, sym, f->loc.sym_start);
		}
		c->frames[k] = (struct pk_callchain_frame){ sym, dso, sym_start, f->ip,
							    f->inlined, f->loc.dso, run->o->cg.key, NULL,
							    report_brhist_branch(run->brhist, idx) };
		if (run->o->cg.key != PK_CALLCHAIN_KEY_FUNCTION &&	/* no string to make */
		    report_srcline_chain(&run->src, run->o->cg.key, pk_resolver_maps(run->res), f,
					 &c->frames[k].srcline) < 0)
			return -ENOMEM;
		/* perf's frame entry takes its chain node's srcline when the
		 * -g key made one (machine.c's callchain_srcline) */
		if (entry && run->o->cg.key != PK_CALLCHAIN_KEY_FUNCTION && c->samples[k].srcline &&
		    !f->inlined && c->frames[k].srcline)
			c->samples[k].srcline = c->frames[k].srcline;
	}
	report_memo_keep_hist(run->memo, s, c->samples, c->frames, nr);
	return pk_hist_add_chain(run->ev[ev].hist, s, c->samples, c->frames, nr, children);
}

/*
 * One sample of event `ev`, resolved: into its event's histogram.  This
 * is the one place a report sees a sample with its location and frames in
 * hand (rs->frames), where per-sample additions hook in.
 */
static int report_sample(struct report_run *run, size_t ev, const struct pk_sample *smp,
			 const struct pk_resolved_sample *rs, uint64_t period)
{
	struct pk_hist_sample s;
	bool nomem = false;
	int32_t cpu;

	if (run->o->f2.hide_unresolved && !rs->loc.sym)
		return 0;	/* perf's -U: the sample counts nowhere, */
	if (report_flags2_chain(run->o, &rs) < 0 ||	/* ... nor a frame without a symbol */
	    report_brhist_chain(run->brhist, run->res, smp, &rs) < 0)
		return -ENOMEM;
	cpu = smp->fields & PERF_SAMPLE_CPU ? (int32_t)smp->cpu : -1;
	if (run->o->cpus && !report_in_ids(run->o->cpus, run->o->nr_cpus, (uint32_t)cpu))
		return 0;	/* perf's --cpu drops the sample altogether */
	s = run->blank;
	s.cpu = cpu;
	s.period = period;
	s.comm = rs->comm;
	s.pid = rs->pid;
	s.tid = rs->tid;
	s.level = cli_sample_level(rs->cpumode);
	s.sym = rs->loc.sym;
	s.sym_start = rs->loc.sym_start;
	s.sym_object = rs->loc.sym_object;
	if (report_sort2_fill(run->o, smp, &rs->loc, &s) < 0 ||
	    report_mem_fill(run->o, &run->names, pk_resolver_maps(run->res), smp, rs, &s) < 0)
		return -ENOMEM;
	/* perf shows an address relative to its map, when there is one: in a
	 * user file's map its map_ip, the offset into the file (for a non-PIE
	 * executable not its ELF address), in the kernel's the address. */
	s.ip = !rs->loc.dso ? smp->ip : rs->loc.kernel ? rs->loc.addr : rs->loc.map_ip;
	s.dso = dso_name(run, rs->loc.dso, s.pid, &nomem);
	report_ksym_sample(&s, rs->loc.dso);
	if (run->width_syms)
		s.sym = report_width_sym(run->res, smp, rs, s.dso);
	if (nomem || (run->srclines &&
		      report_srcline_fill(&run->src, run->o, pk_resolver_maps(run->res), &rs->loc, &s) < 0))
		return -ENOMEM;
	if (run->o->parent_on) {
		const char *parent = report_parent_of(run->o, rs);

		if (parent && !(s.parent = cli_names_intern(&run->names, parent)))
			return -ENOMEM;
	}
	s.filtered = filtered(run->o, &s, rs->loc.dso) || (run->o->exclude_other && !s.parent) || run->socket_out;
	if (run->o->callchain || run->o->children)
		return add_chain(run, ev, &s, rs);
	report_memo_keep_hist(run->memo, &s, NULL, NULL, 0);
	return pk_hist_add(run->ev[ev].hist, &s);
}

/* A sample with its counters read (PERF_SAMPLE_READ): one sample per
 * counter that grew, each of its own event (report-group.c). */
static int split_sample(struct report_run *run, const struct perf_event_attr *attr,
			const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	struct report_read out[REPORT_READS_MAX];
	int n = report_reads_split(&run->reads, attr, &smp->read, out, REPORT_READS_MAX), err = 0;

	if (n == -ENOMEM)
		return n;
	for (int i = 0; i < n && !err; i++)
		if (out[i].ev < run->nr_ev)
			err = report_sample(run, out[i].ev, smp, rs, out[i].period);
	return n < 0 ? -EINVAL : err;
}

/* --off-cpu (report-offcpu.c): a switch-out waits for its thread to run
 * again; an interval that ends is a sample of its own.  Returns 1 when
 * the record counts only that way, 0, or a negative errno. */
static int offcpu(struct report_run *run, int ev, const struct pk_record *d,
		  const struct pk_resolved_sample *rs)
{
	struct report_offcpu_out out;
	int rc = rs ? report_offcpu_sample(run->offcpu, (size_t)ev, d, rs, &out)
		    : report_offcpu_record(run->offcpu, d, &out);
	int err;

	if (rc > 0 && (rc & REPORT_OFFCPU_EMIT) &&
	    (err = report_sample(run, out.ev, &out.smp, &out.rs, out.smp.period)) < 0)
		return err;
	return rc < 0 ? rc : rc & REPORT_OFFCPU_CONSUMED;
}

/* One record, in time order: samples into the histograms, the rest to
 * the resolver (and LOST_SAMPLES counted).  A record that does not
 * decode changes nothing, as in perf; a sample that does not is damage.
 * Not inlined: in cmd_report, which runs once, GCC took it for cold and
 * made its struct copies small (a `rep movs`, half of cmd_report's time). */
static __attribute__((noinline)) int report_record(struct report_run *run,
						   const struct perf_event_header *h)
{
	int ev = pk_data_reader_last_event(run->r);	/* h is the record just read */
	const struct perf_event_attr *attr = ev >= 0 ? pk_data_reader_attr(run->r, (size_t)ev) : NULL;
	struct pk_record d;	/* not zeroed: pk_record_decode writes all of it */
	struct pk_resolved_sample rs;
	uint64_t period;
	int err;

	d.size = sizeof(d);
	if (h->type == PERF_RECORD_SAMPLE) {
		if (ev < 0 || (size_t)ev >= run->nr_ev)
			return 0;	/* a sample of no known event: perf drops those too */
		if ((err = report_memo_record(run->memo, (size_t)ev, attr, h, &run->time)) != 0)
			return err < 0 ? err : 0;	/* a repeat, counted before decoding it */
		if (pk_record_decode(h, attr, &d) != 0)
			return -EINVAL;
		if (report_flags2_skip(run->o, (size_t)ev, &d.sample))
			return 0;	/* --time, --switch-on/off (report-flags2.c) */
		if (d.sample.fields & PERF_SAMPLE_TIME)
			run->time = d.sample.time;
		period = d.sample.fields & PERF_SAMPLE_PERIOD ? d.sample.period : attr->sample_period;
		if (run->memo && (err = report_memo_sample(run->memo, (size_t)ev, attr, &d, period)) != 0)
			return err < 0 ? err : 0;	/* a repeat, counted */
		rs = run->blank_rs;	/* copied: zeroing in place is a rep stos (see blank) */
		if ((err = pk_resolver_resolve(run->res, &d, &rs)) < 0 ||
		    (run->health && (err = pk_stack_health_add(run->health, attr, &d.sample, &rs)) < 0))
			return err;
		report_memo_keep_health(run->memo, &rs);
		if (run->memo && (err = report_memo_resolved(run->memo, (size_t)ev, attr, &d, &rs, period)) != 0)
			return err < 0 ? err : 0;	/* a repeat of a DWARF-unwound chain, counted */
		if (run->offcpu && (err = offcpu(run, ev, &d, &rs)) != 0)
			return err < 0 ? err : 0;
		if (run->branch)	/* report-branch.c */
			return report_branch_add(run->branch, (size_t)ev, pk_resolver_maps(run->res), &run->names,
						 &d.sample, &rs);
		if (attr->sample_type & PERF_SAMPLE_READ)
			return split_sample(run, attr, &d.sample, &rs);
		return report_sample(run, (size_t)ev, &d.sample, &rs, period);
	}
	report_memo_forget(run->memo, h->type);
	if (pk_record_decode(h, attr ? attr : pk_data_reader_attr(run->r, 0), &d) != 0)
		return 0;
	if (run->offcpu && (err = offcpu(run, ev, &d, NULL)) < 0)
		return err;
	if (d.type == PERF_RECORD_LOST_SAMPLES)
		run->lost_samples += d.lost_samples.lost;
	if (d.type == PERF_RECORD_CGROUP && (err = report_sort2_cgroup(run->o, &d.cgroup)) < 0)
		return err;
	if (d.type == PERF_RECORD_NAMESPACES && (err = report_sort3_namespaces(run->o, &d.namespaces)) < 0)
		return err;
	if (d.type == PERF_RECORD_READ && run->o->show_threads &&
	    (err = report_threads_add(&run->thread_counts, ev >= 0 ? (size_t)ev : 0, &d.read)) < 0)
		return err;
	return pk_resolver_process(run->res, &d);
}

int report_comm_override(struct pk_hist *h, const struct pk_threads *threads)
{
	const char *from, *to;
	int err = 0;

	for (size_t k = 0; !err && pk_threads_rename(threads, k, &from, &to); k++)
		err = pk_hist_rename_comm(h, from, to);
	return err;
}

/* Read every record.  Returns 0, 1 after a warning about damage in the
 * data section (the rows before it stand), or a negative errno. */
static int read_records(struct report_run *run)
{
	const struct perf_event_header *rec;
	int rc, rc2, err = 0;

	run->socket_out = report_flags4_socket_out(run->o);
	run->blank = (struct pk_hist_sample){ .size = sizeof(run->blank) };
	run->blank_rs = (struct pk_resolved_sample){ .size = sizeof(run->blank_rs) };
	cli_progress_init(&run->progress);
	report_time_span(run->r, &run->first_time, &run->last_time);
	while (!err && (rc = pk_data_reader_next(run->r, &rec)) > 0) {
		err = report_record(run, rec);
		/* How far through the recording's time the samples are. */
		cli_progress_update(&run->progress, run->time > run->first_time ? run->time - run->first_time : 0,
				    run->last_time - run->first_time);
	}
	cli_progress_done(&run->progress);
	if (run->memo && (rc2 = report_memo_flush(run->memo)) < 0 && (!err || err == -EINVAL))
		err = rc2;	/* a damaged sample's rows before it still count */
	for (size_t i = 0; !err && i < run->nr_ev; i++)
		err = report_comm_override(run->ev[i].hist, pk_resolver_threads(run->res));
	for (size_t i = 0; i < run->nr_ev; i++)	/* an EVENT_UPDATE on the way renames, as in perf */
		if (pk_data_reader_name(run->r, i))
			run->ev[i].name = report_offcpu_name(run->offcpu, i, pk_data_reader_name(run->r, i));
	if (err == -EINVAL) {	/* what came before a bad sample still counts */
		cli_error("report", NULL);
		return 1;
	}
	if (err < 0)
		return err;
	if (rc < 0) {
		const struct pk_error *e = pk_last_error();

		cli_message(stderr, "perfkit report: warning: %s: %s; the report covers the records "
			    "before it\n", e->what, e->why);
		return 1;
	}
	return 0;
}

/* ---- the command -------------------------------------------------------------- */

/* perf's check for --cpu: every event must record the CPU. */
static int check_cpus(const struct report_run *run)
{
	for (size_t i = 0; run->o->cpus && i < pk_data_reader_nr_events(run->r); i++)
		if (!(pk_data_reader_attr(run->r, i)->sample_type & PERF_SAMPLE_CPU)) {
			cli_message(stderr, "perfkit report: %s does not contain CPU events: remove --cpu "
				    "to proceed\n", run->o->input);
			return CLI_EXIT_EVENT;
		}
	return 0;
}

static int setup(struct report_run *run)
{
	size_t nr = pk_data_reader_nr_events(run->r);
	int order[2 * PK_HIST_MAX_KEYS];
	size_t nr_order = report_fields_order(run->o, order);
	int err;

	char dir[4096];

	if ((err = pk_resolver_new(run->r, &run->res)) < 0)
		return err;
	run->srclines = report_srcline_wanted(run->o);
	if (!report_needs_chains(run->o))	/* perf unwinds nothing then either */
		pk_resolver_set_chains(run->res, false);
	run->width_syms = report_width_syms(run->o);
	if (!report_needs_symbols(run->o))
		pk_resolver_set_symbols(run->res, false);	/* nor stack health: it judges by symbols */
	else if ((err = report_health_new(run->o, &run->health)) < 0)
		return err;
	/* (in caller order the resolver gives whole chains: add_chain cuts) */
	pk_resolver_set_max_stack(run->res, run->o->max_stack);
	pk_resolver_set_inline(run->res, !run->o->no_inline);
	pk_resolver_set_caller_order(run->res, run->o->cg.caller);
	/* perf reads the binaries that ran from the build-id cache first. */
	if ((cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(run->res, dir)) < 0) ||
	    (err = cli_symfs_apply(run->res)) < 0 ||
	    (err = pk_maps_set_demangle(pk_resolver_maps(run->res),
					run->o->f4.no_demangle ? PK_DEMANGLE_NONE :
					run->o->verbose ? PK_DEMANGLE_PARAMS : PK_DEMANGLE_NAME)) < 0 ||
	    (err = report_flags2_resolver(run->o, run->res)) < 0 ||
	    (err = report_flags3_resolver(run->o, run->res)) < 0)
		return err;
	if (!(run->ev = calloc(nr ? nr : 1, sizeof(*run->ev))))
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const char *name = pk_data_reader_name(run->r, i);

		run->ev[i].name = report_offcpu_name(run->offcpu, i, name ? name : "unknown");
		if ((err = pk_hist_new(run->o->keys, run->o->nr_keys, &run->ev[i].hist)) < 0 ||
		    (err = pk_hist_set_order(run->ev[i].hist, order, nr_order)) < 0)
			return err;
		/* perf's tie rule holds while call graphs are shown. */
		if (run->o->callchain)
			pk_hist_set_chain_order(run->ev[i].hist, run->o->cg.caller ? PK_HIST_CHAIN_CALLER_FIRST
										 : PK_HIST_CHAIN_CALLEE_FIRST);
		/* each chain kept once, an entry's tree built as it prints:
		 * children mode's trees hold every chain through an entry,
		 * together many times the chains (branch frames are counted as
		 * they come, so --branch-history builds trees as it goes) */
		if (!run->o->branch_history &&
		    (err = pk_hist_defer_chains(run->ev[i].hist)) < 0)
			return err;
		/* no graph shown (-g none, or no chains): nothing asks for a tree */
		if (!run->o->callchain && (err = pk_hist_no_trees(run->ev[i].hist)) < 0)
			return err;
		run->nr_ev++;
	}
	if ((err = report_reads_init(&run->reads, run->r)) < 0 ||
	    (err = report_threads_init(&run->thread_counts, nr)) < 0)
		return err;
	if ((report_branch_wanted(run->o, run->r) && (err = report_branch_setup(run->o, run->r, &run->branch)) != 0) ||
	    (err = report_brhist_new(run->o, &run->brhist)) < 0)
		return err;
	if (!run->branch && !run->brhist && !run->offcpu &&
	    (err = report_memo_new(run->o, run->ev, run->nr_ev, run->health, run->o->callchain || run->o->children,
				   run->o->children, &run->memo)) < 0)
		return err;
	return report_group_setup(run->o, run->r, run->ev, run->nr_ev);
}

static void teardown(struct report_run *run)
{
	for (size_t i = 0; i < run->nr_ev; i++) {
		pk_hist_free(run->ev[i].hist);
		free(run->ev[i].group_desc);
	}
	free(run->ev);
	report_branch_free(run->branch);
	report_brhist_free(run->brhist);
	report_memo_free(run->memo);
	report_reads_free(&run->reads);
	report_threads_free(&run->thread_counts);
	cli_names_free(&run->names);
	free(run->chains.samples);
	free(run->chains.frames);
	report_srclines_free(run->src);
	pk_resolver_free(run->res);
	report_offcpu_free(run->offcpu);
	pk_stack_health_free(run->health);
	pk_data_reader_free(run->r);
}

static int report(struct report_opts *o, bool defaulted)
{
	struct report_run run = { .o = o };
	int rc;

	if ((rc = cli_check_input("report", o->input, o->force, defaulted)))
		return rc;
	if (pk_data_reader_open(o->input, &run.r) < 0)
		return cli_error("report", NULL);
	report_warn_unfinished(stderr, run.r, o->input);
	if (o->stats || o->header || o->header_only) {
		if ((rc = report_info(o, run.r)) != -1)
			return !rc && o->stats ? report_health_stats(o) : rc;	/* --stats, --header-only: done, the reader freed */
	}
	if (o->f2.tasks)
		return report_tasks(o, run.r);
	if ((rc = check_cpus(&run)) || (rc = report_mem_check(o, run.r)) || (rc = report_sort_plus(o, run.r)) ||
	    (rc = report_flags2_setup(o, run.r)) ||
	    (rc = report_cg_setup(o, run.r)) || (rc = report_brhist_opts(o, run.r)) ||
	    (rc = report_default_sort(o, run.r)) ||
	    (rc = report_sort2_setup(o, run.r)) || (rc = report_branch_keys(o, run.r)) ||
	    (rc = report_hier_setup(o)) || (rc = report_parent_setup(o, run.r)) || (rc = report_flags4_setup(o, run.r))) {
		pk_data_reader_free(run.r);
		return rc;
	}
	if (o->format >= 0 && o->format != REPORT_FORMAT_JSON)
		return report_export(o, run.r);
	if (o->dump)
		return report_dump_run("report", o->input, run.r, o->f2.disable_order);
	if ((rc = report_offcpu_new(o, run.r, &run.offcpu)) > 0) {
		pk_data_reader_free(run.r);
		return rc;
	}
	if (!rc && (rc = setup(&run)) >= 0)
		rc = read_records(&run);
	if (rc >= 0)
		report_warn_skipped(stderr, run.r);
	if (rc >= 0)
		rc = report_group_link(o, run.ev, run.nr_ev);
	if (rc >= 0) {
		for (size_t i = 0; i < run.nr_ev; i++)
			pk_hist_sort(run.ev[i].hist);
		if (o->format == REPORT_FORMAT_JSON) {
			rc = report_json(o, run.ev, run.nr_ev, run.lost_samples, run.health);
		} else {
			int shown;

			cli_pager_start();	/* on a terminal, as perf does */
			o->color = cli_color_use(o->color_mode);
			shown = run.branch ? report_branch_print(stdout, o, run.branch, run.ev, run.nr_ev,
								 run.lost_samples) :
				report_print(stdout, o, run.ev, run.nr_ev, run.lost_samples,
					     pk_resolver_threads(run.res));

			if (shown < 0)
				rc = cli_usage("report", "out of memory");
			else if (!shown)
				cli_message(stderr, "perfkit report: %s has no samples (after the filters)\n", o->input);
			else if (o->show_threads && o->f4.raw)
				report_flags4_threads_raw(stdout, &run.thread_counts, run.ev);
			else if (o->show_threads && report_threads_print(stdout, &run.thread_counts, run.ev) < 0)
				rc = cli_usage("report", "out of memory");
			rc = rc > 0 ? rc : 0;
		}
		fflush(stdout);	/* the table whole before these lines, on one stream too */
		report_health_print(stderr, run.health, o);
	} else {
		rc = cli_error("report", NULL);
	}
	teardown(&run);
	cli_pager_finish();
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {
		.cg = { .mode = PK_CALLCHAIN_GRAPH_ABS, .min_percent = 0.5 },
		.children_opt = -1,
		.max_stack = 127,
		.format = -1,	/* perf's PERF_MAX_STACK_DEPTH */
		.group_opt = -1,
	};
	bool defaulted;
	int rc = report_parse_args(&o, argc, argv);

	if (!rc) {
		defaulted = !o.input;
		if (defaulted)
			o.input = cli_default_input();
		rc = report(&o, defaulted);
	}
	cli_words_free(o.comms), cli_words_free(o.dsos), cli_words_free(o.syms);
	free(o.pids), free(o.tids), free(o.cpus);
	report_parent_free(&o);
	report_verbose_free(&o);
	report_flags2_free(&o);
	report_sort2_free(&o);
	return rc < 0 ? 0 : rc;
}
