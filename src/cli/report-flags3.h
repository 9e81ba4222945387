/* SPDX-License-Identifier: MIT */
/*
 * report-flags3.h - more of perf report 6.1's flags (report-flags3.c):
 * -k/--vmlinux, --ignore-vmlinux, and the symbol and trace flags whose effect perfkit's
 * table already has (-m, --demangle, --demangle-kernel,
 * --raw-trace, --time-quantum).
 */
#ifndef PK_CLI_REPORT_FLAGS3_H
#define PK_CLI_REPORT_FLAGS3_H

#include "cli.h"

/* The option ids of these flags (after report-flags2.h's). */
enum {
	REPORT_OPT_VMLINUX = 'k', REPORT_OPT_MODULES = 'm',
	REPORT_OPT_IGNORE_VMLINUX = 0x300, REPORT_OPT_DEMANGLE, REPORT_OPT_DEMANGLE_KERNEL,
	REPORT_OPT_RAW_TRACE, REPORT_OPT_TIME_QUANTUM, REPORT_OPT_HIERARCHY,
};

/* What these flags set. */
struct report_flags3 {
	const char *vmlinux;		/* -k: the kernel's symbols from this file alone */
	bool hierarchy;			/* --hierarchy (report-hier.c) */
	bool ignore_vmlinux;		/* --ignore-vmlinux: not even -k's */
	uint64_t time_quantum;		/* --time-quantum in ns (perf's time key: 100ms) */
	bool raw_trace;			/* --raw-trace (the trace key refuses it yet) */
};

/* Their rows of report's option table (cmd-report.c). */
#define REPORT_FLAGS3_OPTIONS \
	{ "hierarchy", 0, CLI_ARG_NONE, REPORT_OPT_HIERARCHY, NULL, \
	  "one level per sort key (comm, pid, cpu, dso, sym), each entry indented under the one before" }, \
	{ "vmlinux", 'k', CLI_ARG_REQUIRED, REPORT_OPT_VMLINUX, "FILE", \
	  "the kernel's symbols from this vmlinux alone (none when it is not the recorded kernel's)" }, \
	{ "ignore-vmlinux", 0, CLI_ARG_NONE, REPORT_OPT_IGNORE_VMLINUX, NULL, \
	  "read no vmlinux, not even -k's: the kernel's symbols from kallsyms" }, \
	{ "modules", 'm', CLI_ARG_NONE, REPORT_OPT_MODULES, NULL, \
	  "modules' symbols (perfkit reads them from kallsyms either way: the table is the same)" }, \
	{ "demangle", 0, CLI_ARG_NONE, REPORT_OPT_DEMANGLE, NULL, "demangle C++ names (the default)" }, \
	{ "demangle-kernel", 0, CLI_ARG_NONE, REPORT_OPT_DEMANGLE_KERNEL, NULL, \
	  "demangle the kernel's names (a C kernel has none mangled: the table is the same)" }, \
	{ "raw-trace", 0, CLI_ARG_NONE, REPORT_OPT_RAW_TRACE, NULL, \
	  "perf's trace key raw (refused with the trace key yet, and so on a file of tracepoints only, " \
	  "whose default order is perf's trace_fields; else the table is the same)" }, \
	{ "time-quantum", 0, CLI_ARG_REQUIRED, REPORT_OPT_TIME_QUANTUM, "TIME", \
	  "the time key's quantum (default 100ms), N with s, ms, us or ns" }

struct report_opts;
struct pk_resolver;

/* report_flags3_option - option `id` with `arg` into o: these flags', or
 * else report_flags2_option's.  0, or an exit status after perf's message. */
int report_flags3_option(struct report_opts *o, int id, const char *arg);

/* report_flags3_resolver - -k's file as the kernel's symbols of `res`.
 * 0 or -ENOMEM. */
int report_flags3_resolver(const struct report_opts *o, struct pk_resolver *res);

#endif
