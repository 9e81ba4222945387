/* SPDX-License-Identifier: MIT */
/*
 * report-flags3.c - more of perf report 6.1's flags: -k/--vmlinux (the
 * kernel's symbols from that vmlinux alone, none when it is not the
 * recorded kernel's, as script -k; perf refuses a file it cannot read
 * before it opens the data), and the flags whose effect perfkit's table
 * already has: --ignore-vmlinux (-k's file is not read then, as in perf
 * 6.1; perfkit looks for no other vmlinux), -m (module symbols come from
 * kallsyms either way), --demangle (the default) and --demangle-kernel
 * (C kernels have no mangled names), --raw-trace (refused with the trace key
 * yet, report-sort2.c, and so on a file of tracepoints only, whose default
 * order it makes perf's trace_fields, report-opts.c), --time-quantum (the time key's quantum, report-sort2.c; its
 * value checked as perf checks it).
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* perf's parse_time_quantum: N with an optional unit s, ms, us or ns. */
static int time_quantum(const char *arg, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mul;
	} units[] = { { "", 1 }, { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 } };
	char *end;
	unsigned long long v = strtoull(arg, &end, 0);

	if (end == arg)
		goto bad;
	if (!v) {
		cli_message(stderr, "time quantum cannot be 0\n");
		return CLI_EXIT_USAGE;
	}
	while (*end == ' ' || (*end >= '\t' && *end <= '\r'))
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = v * units[i].mul;
			return 0;
		}
bad:
	cli_message(stderr, "Cannot parse time quantum `%s'\n", arg);
	return CLI_EXIT_USAGE;
}

int report_flags3_option(struct report_opts *o, int id, const char *arg)
{
	switch (id) {
	case REPORT_OPT_VMLINUX:
		if (access(arg, R_OK) < 0) {
			cli_message(stderr, "perfkit report: Invalid file: %s\n", arg);
			return CLI_EXIT_EVENT;
		}
		o->f3.vmlinux = arg;
		return 0;
	case REPORT_OPT_TIME_QUANTUM: return time_quantum(arg, &o->f3.time_quantum);
	case REPORT_OPT_HIERARCHY: o->f3.hierarchy = true; return 0;
	case REPORT_OPT_IGNORE_VMLINUX: o->f3.ignore_vmlinux = true; return 0;
	case REPORT_OPT_RAW_TRACE: o->f3.raw_trace = true; return 0;	/* report-sort2.c */
	case REPORT_OPT_MODULES: case REPORT_OPT_DEMANGLE:
	case REPORT_OPT_DEMANGLE_KERNEL:
		return 0;	/* the table is already what perf prints with them */
	default:
		return report_flags2_option(o, id, arg);
	}
}

int report_flags3_resolver(const struct report_opts *o, struct pk_resolver *res)
{
	if (!o->f3.vmlinux || o->f3.ignore_vmlinux)
		return 0;	/* perf 6.1: --ignore-vmlinux drops -k's file too */
	return pk_maps_set_dir(pk_resolver_maps(res), PK_MAPS_DIR_VMLINUX, o->f3.vmlinux);
}
