/* SPDX-License-Identifier: MIT */
/*
 * report-symbols.c - whether a report needs symbols at all: a table keyed
 * by threads, DSOs and CPUs only, without call graphs, symbol filters or
 * -v, prints nothing a symbol table, kallsyms or debug information would
 * change, so the resolver is told not to read them (about 40 ms of kernel
 * CPU for /proc/kallsyms alone, see docs/PERFORMANCE.md); and whether it
 * needs call chains at all.
 */
#include "report.h"

#include <string.h>

/* The keys a row can be told apart by without knowing any symbol. */
static bool key_without_symbols(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM:
	case PK_HIST_KEY_PID:
	case PK_HIST_KEY_TID:
	case PK_HIST_KEY_DSO:
	case PK_HIST_KEY_CPU:
	case PK_HIST_KEY_PERIOD:
		return true;
	default:
		return false;
	}
}

bool report_needs_chains(const struct report_opts *o)
{
	return o->format != -1 || o->callchain || o->children || o->parent_on || o->exclude_other ||
	       o->branch_history || o->off_cpu || o->f2.chain;
}

bool report_needs_symbols(const struct report_opts *o)
{
	/* --hierarchy sizes the object column by whether each entry's
	 * symbol resolved (perf's unresolved-address width), whatever keys */
	if (o->format != -1 || o->callchain || o->syms || o->parent_on || o->exclude_other ||
	    o->verbose || o->off_cpu || o->sort_sym || o->f3.hierarchy)
		return true;
	for (size_t i = 0; i < o->nr_keys; i++)
		if (!key_without_symbols(o->keys[i]))
			return true;
	return false;
}

bool report_width_syms(const struct report_opts *o)
{
	if (report_needs_symbols(o) || o->dsos || o->f4.nr_widths)
		return false;
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == PK_HIST_KEY_DSO)
			return true;
	return false;
}

const char *report_width_sym(struct pk_resolver *res, const struct pk_sample *smp,
			     const struct pk_resolved_sample *rs, const char *dso)
{
	struct pk_location loc = { .size = sizeof(loc) };

	if (!rs->loc.dso || !dso || strlen(dso) >= 16 ||
	    pk_maps_resolve(pk_resolver_maps(res), rs->pid, smp->ip, rs->cpumode, &loc) < 0)
		return NULL;
	return loc.sym;
}
