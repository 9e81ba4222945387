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
};

struct report_opts;
struct pk_resolver;

/* report_flags3_option - whether `id` is one of these flags; if so, its
 * `arg` into o and *rc = 0, or CLI_EXIT_USAGE after perf's message. */
bool report_flags3_option(struct report_opts *o, int id, const char *arg, int *rc);

/* report_flags3_resolver - -k's file as the kernel's symbols of `res`.
 * 0 or -ENOMEM. */
int report_flags3_resolver(const struct report_opts *o, struct pk_resolver *res);

#endif
