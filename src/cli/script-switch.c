/* SPDX-License-Identifier: MIT */
/*
 * script-switch.c - perf script 6.1's --switch-on/--switch-off events
 * (perf's evswitch: the samples after the on event's and before the off
 * event's, the two themselves with --show-on-off-events), --stop-bt (a
 * call chain ends at one of these functions), --kallsyms (the kernel's
 * symbols from a file in /proc/kallsyms' format), --vmlinux (from that
 * vmlinux alone: none when it is not the recorded kernel's), the AUX-trace shorthands
 * on a file without AUX data (--insn-trace, --call-trace, --call-ret-trace:
 * their -F edits and nanoseconds; --graph-function, whose test needs the
 * branch flags only decoded AUX data has, so no sample passes it; --xed:
 * the output piped through `xed -F insn: -A -64`, as perf's forced pager),
 * and the flags perf takes that change nothing without a vmlinux or the
 * brstackinsn field (--show-kernel-path, --max-blocks).
 */
#include "script.h"
#include "pager.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int script_switch_option(struct script_filter *f, int id, const char *arg)
{
	switch (id) {
	case SOPT_SWITCH_ON: f->switch_on = arg; return 0;
	case SOPT_SWITCH_OFF: f->switch_off = arg; return 0;
	case SOPT_SHOW_ON_OFF: f->show_on_off = true; return 0;
	case SOPT_STOP_BT: return script_filter_split(arg, &f->stop_bt);
	case SOPT_GRAPH_FUNC: f->graph_function = arg; return 0;
	case SOPT_KALLSYMS: f->kallsyms = arg; return 0;
	case SOPT_XED: f->xed = true; return 0;
	case SOPT_CALLRET_TRACE: f->print_flags = true; return 0;
	case 'k':
		/* perf refuses a file it cannot read before it opens the data */
		if (access(arg, R_OK) < 0) {
			cli_message(stderr, "Invalid file: %s\n", arg);
			return CLI_EXIT_USAGE;
		}
		f->vmlinux = arg;
		return 0;
	case SOPT_FULL_SRC: script_srcline_full_path(true); return 0;
	case SOPT_SHOW_KPATH: script_show_kernel_path(true); return 0;
	case SOPT_INSN_TRACE: case SOPT_CALL_TRACE:
		return 0;	/* the traces' -F edits: cmd-script.c */
	default: return script_dlfilter_option(f, id, arg);
	}
}

const char *script_switch_fields(int id, const char *arg)
{
	switch (id) {
	case SOPT_INSN_TRACE:
		if (arg && !strcmp(arg, "disasm")) {	/* perf 6.1 has no disasm field */
			cli_message(stderr, "Invalid field requested.\n");
			return NULL;
		}
		if (arg && *arg && strcmp(arg, "raw")) {
			cli_message(stderr, "Only accept raw|disasm\n");
			return NULL;
		}
		return "+insn,-event,-period";
	case SOPT_CALL_TRACE: return "-ip,-addr,-event,-period";	/* and perf's callindent */
	default: return "-ip,-addr,-event,-period";	/* --call-ret-trace: and callindent, flags */
	}
}

/* perf's evlist__find_evsel_by_str: the first event of that name. */
static int find_event(struct pk_data_reader *r, const char *what, const char *name, int *ev)
{
	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++) {
		const char *n = pk_data_reader_name(r, i);

		if (n && !strcmp(n, name)) {
			*ev = (int)i;
			return 0;
		}
	}
	cli_message(stderr, "ERROR: switch-%s event not found (%s)\n"
		    "HINT:  use 'perf evlist' to see the available event names\n", what, name);
	return CLI_EXIT_EVENT;
}

int script_switch_setup(struct script_filter *f, struct pk_data_reader *r)
{
	int err;

	f->on_ev = f->off_ev = -1;
	if (f->switch_on) {
		if ((err = find_event(r, "on", f->switch_on, &f->on_ev)))
			return err;
		f->discarding = true;	/* nothing before the first on event */
	}
	if (f->switch_off && (err = find_event(r, "off", f->switch_off, &f->off_ev)))
		return err;
	return script_dlfilter_open(f);
}

int script_switch_resolver(struct script_filter *f, struct pk_resolver *res)
{
	if ((f->kallsyms && pk_maps_set_dir(pk_resolver_maps(res), PK_MAPS_DIR_KALLSYMS, f->kallsyms) < 0) ||
	    (f->vmlinux && pk_maps_set_dir(pk_resolver_maps(res), PK_MAPS_DIR_VMLINUX, f->vmlinux) < 0))
		return cli_error("script", NULL);
	if (f->xed)
		cli_pager_force(isatty(1) ? "xed -F insn: -A -64 | less" : "xed -F insn: -A -64");
	return 0;
}

/* perf's evswitch__discard for a sample of event ev. */
static bool evswitch_discard(struct script_filter *f, int ev)
{
	if (f->on_ev >= 0 && f->discarding) {
		if (ev != f->on_ev)
			return true;
		f->discarding = false;
		return !f->show_on_off;
	}
	if (f->off_ev >= 0 && !f->discarding && ev == f->off_ev) {
		f->discarding = true;
		return !f->show_on_off;
	}
	return false;
}

int script_filter_early_tests(struct script_filter *f, struct pk_resolver *res,
			      const struct perf_event_attr *attr, const struct pk_record *rec)
{
	int rc;

	if (f->dlfilter && (rc = script_dlfilter_early(f, res, attr, f->cur_name, rec)) <= 0)
		return rc;
	return !script_filter_skip(f, &rec->sample);
}

int script_filter_pass_tests(struct script_filter *f, struct pk_resolver *res,
			     const struct perf_event_attr *attr, const struct pk_record *rec,
			     const struct pk_resolved_sample *r)
{
	int rc;

	if (f->graph_function)
		return 0;	/* no branch flags: perf's resolve_branch_sym finds no name */
	if (evswitch_discard(f, f->cur_ev))
		return 0;
	rc = f->dlfilter ? script_dlfilter_filter(f, res, attr, rec, r) : 1;
	/* --per-event-dump counts the samples printed, as perf's process_event */
	if (rc == 1 && f->nr_samples && f->cur_ev >= 0 && (size_t)f->cur_ev < f->nr_files)
		f->nr_samples[f->cur_ev]++;
	return rc;
}

bool script_switch_stops(const struct script_filter *f, const char *sym)
{
	for (size_t i = 0; f->stop_bt && sym && f->stop_bt[i]; i++)
		if (!strcmp(f->stop_bt[i], sym))
			return true;
	return false;
}
