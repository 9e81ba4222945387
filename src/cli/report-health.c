/* SPDX-License-Identifier: MIT */
/*
 * report-health.c - perfkit report's stack health (issue 11): what share
 * of the samples had their call stack cut, why, and what to do about it,
 * from the library's pk_stack_health count.  A few lines on stderr after
 * the table when something is wrong (the table on stdout stays perf's,
 * byte for byte), all of it under --stats, for which the file is read a
 * second time through the resolver.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define PFX "perfkit report: stack health: "

/* The kernel's limit on recorded call-chain entries, or 0 when unknown.
 * It is read at report time: the file does not record it. */
static unsigned int kernel_max_stack(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	unsigned int v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

int report_health_new(const struct report_opts *o, struct pk_stack_health **out)
{
	unsigned int kmax = kernel_max_stack();
	unsigned int max = o->max_stack;
	int err;

	if ((err = pk_stack_health_new(out)) < 0)
		return err;
	if (kmax && kmax < max)
		max = kmax;
	pk_stack_health_set_max_stack(*out, max);
	return 0;
}

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

/* The fix for a DSO without symbols: a distribution's file has its
 * debug symbols in a package; anything else has to be built with them. */
static const char *symbol_fix(const struct pk_dso *d)
{
	if (d->kernel)
		return "install the kernel's -dbg package or let kallsyms be read "
		       "(kernel.kptr_restrict=0)";
	if (!strncmp(d->name, "/usr/", 5) || !strncmp(d->name, "/lib", 4))
		return "install its -dbgsym/-dbg package";
	return "build with -g and do not strip it";
}

/* The DSOs with problem `bit`, "a, b and 2 more" (at most `max` named;
 * all when max is 0). */
static void print_dsos(FILE *f, struct pk_stack_health *h, size_t nr, unsigned int bit, size_t max)
{
	struct pk_stack_health_dso d;
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < nr && pk_stack_health_dso(h, i, &d) == 0; i++) {
		if (!(d.problems & bit))
			continue;
		if (max && shown == max) {
			more++;
			continue;
		}
		cli_message(f, "%s%s", shown ? ", " : "", d.dso->name);
		shown++;
	}
	if (more)
		fprintf(f, " and %zu more", more);
}

static void print_summary(FILE *f, struct pk_stack_health *h, const struct pk_stack_health_figures *s,
			  const struct report_opts *o, size_t max_named)
{
	unsigned int kmax = kernel_max_stack();

	if (s->nr_dwarf_cut)
		fprintf(f, PFX "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) outgrew the --call-graph dwarf "
			"stack copy of %" PRIu64 " bytes: record with --call-graph dwarf,%" PRIu64 "%s\n",
			s->nr_dwarf_cut, s->nr_samples, pct(s->nr_dwarf_cut, s->nr_samples), s->dwarf_size,
			s->dwarf_suggest, s->dwarf_suggest == PK_STACK_HEALTH_MAX_DWARF_SIZE ? " (perf's most)"
											       : " or more");
	if (s->nr_fp_cut) {
		fprintf(f, PFX "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) have frame-pointer call chains "
			"cut short, frame pointers missing in ", s->nr_fp_cut, s->nr_samples,
			pct(s->nr_fp_cut, s->nr_samples));
		print_dsos(f, h, s->nr_dsos, PK_STACK_HEALTH_NO_FRAME_POINTER, max_named);
		fputs(": build with -fno-omit-frame-pointer or record with --call-graph dwarf\n", f);
	}
	if (s->nr_unwind_cut) {
		fprintf(f, PFX "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) have --call-graph dwarf chains "
			"cut short, unwind tables missing in ", s->nr_unwind_cut, s->nr_samples,
			pct(s->nr_unwind_cut, s->nr_samples));
		print_dsos(f, h, s->nr_dsos, PK_STACK_HEALTH_NO_UNWIND_TABLE, max_named);
		fputs(": build with -fasynchronous-unwind-tables and keep its .eh_frame\n", f);
	}
	if (s->nr_max_stack)
		fprintf(f, PFX "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) have call chains of %u frames, "
			"the limit: %s\n", s->nr_max_stack, s->nr_samples, pct(s->nr_max_stack, s->nr_samples),
			s->max_stack, o->max_stack <= s->max_stack || !kmax
					      ? "report with a larger --max-stack"
					      : "raise kernel.perf_event_max_stack and record again");
	for (unsigned int bit = PK_STACK_HEALTH_NO_SYMBOLS; bit <= PK_STACK_HEALTH_BUILD_ID; bit <<= 1) {
		struct pk_stack_health_dso d;

		for (size_t i = 0, n = 0; i < s->nr_dsos && pk_stack_health_dso(h, i, &d) == 0; i++) {
			if (!(d.problems & bit) || (max_named && n++ >= max_named))
				continue;
			cli_message(f, PFX "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) have addresses in %s %s: %s\n",
				    d.nr_samples, s->nr_samples, pct(d.nr_samples, s->nr_samples), d.dso->name,
				    bit == PK_STACK_HEALTH_BUILD_ID ? "whose file has another build-id than the recording's"
								    : "that resolve to no symbol",
				    bit == PK_STACK_HEALTH_BUILD_ID ? "report with the binary that ran (perfkit record "
								      "keeps it in the build-id cache unless -N)"
								    : symbol_fix(d.dso));
		}
	}
}

static bool anything_wrong(const struct pk_stack_health_figures *s)
{
	return s->nr_dwarf_cut || s->nr_fp_cut || s->nr_unwind_cut || s->nr_max_stack || s->nr_dsos;
}

void report_health_print(FILE *f, struct pk_stack_health *h, const struct report_opts *o)
{
	struct pk_stack_health_figures s = { .size = sizeof(s) };

	if (!h || o->quiet || pk_stack_health_get(h, &s) < 0 || !anything_wrong(&s))
		return;
	print_summary(f, h, &s, o, 3);
}

/* --stats: everything, and the totals it is out of. */
static void print_full(FILE *f, struct pk_stack_health *h, const struct report_opts *o)
{
	struct pk_stack_health_figures s = { .size = sizeof(s) };

	if (pk_stack_health_get(h, &s) < 0)
		return;
	fprintf(f, PFX "%" PRIu64 " samples, %" PRIu64 " with call chains, %" PRIu64 " with a "
		"--call-graph dwarf stack copy; chains cut: %" PRIu64 " by the copy's size, %" PRIu64
		" by missing frame pointers, %" PRIu64 " by missing unwind tables, %" PRIu64 " at the %u-frame limit; %" PRIu64 " samples in "
		"DSOs with problems\n", s.nr_samples, s.nr_chains, s.nr_dwarf, s.nr_dwarf_cut, s.nr_fp_cut,
		s.nr_unwind_cut, 		s.nr_max_stack, s.max_stack, s.nr_dso_samples);
	if (!anything_wrong(&s)) {
		fputs(PFX "no call stack was cut\n", f);
		return;
	}
	print_summary(f, h, &s, o, 0);
}

/* One record of the --stats pass: side-band to the resolver, samples
 * resolved and counted.  Records that do not decode are left out. */
static int stats_record(struct pk_data_reader *r, struct pk_resolver *res, struct pk_stack_health *h,
			const struct perf_event_header *hdr)
{
	int ev = pk_data_reader_event_of(r, hdr);
	const struct perf_event_attr *attr = pk_data_reader_attr(r, ev >= 0 ? (size_t)ev : 0);
	struct pk_record d = { .size = sizeof(d) };
	struct pk_resolved_sample rs = { .size = sizeof(rs) };
	int err;

	if (!attr || pk_record_decode(hdr, attr, &d) != 0)
		return 0;
	if (hdr->type != PERF_RECORD_SAMPLE)
		return pk_resolver_process(res, &d);
	if (ev < 0)
		return 0;
	if ((err = pk_resolver_resolve(res, &d, &rs)) < 0)
		return err;
	return pk_stack_health_add(h, attr, &d.sample, &rs);
}

int report_health_stats(const struct report_opts *o)
{
	struct pk_data_reader *r = NULL;
	struct pk_resolver *res = NULL;
	struct pk_stack_health *h = NULL;
	const struct perf_event_header *hdr;
	char dir[4096];
	int err, rc;

	if (!strcmp(o->input, "-"))
		return 0;	/* standard input was read once already */
	if ((err = pk_data_reader_open(o->input, &r)) < 0 || (err = pk_resolver_new(r, &res)) < 0 ||
	    (err = report_health_new(o, &h)) < 0)
		goto out;
	pk_resolver_set_max_stack(res, o->max_stack);
	if ((cli_buildid_dir(dir, sizeof(dir)) && (err = pk_resolver_set_buildid_dir(res, dir)) < 0) ||
	    (err = cli_symfs_apply(res)) < 0)
		goto out;
	while (!err && (rc = pk_data_reader_next(r, &hdr)) > 0)
		err = stats_record(r, res, h, hdr);
	(void)rc;	/* a damaged tail was reported by --stats: count what came before */
	if (!err)
		print_full(stderr, h, o);
out:
	if (err < 0)
		cli_error("report", NULL);
	pk_stack_health_free(h);
	pk_resolver_free(res);
	pk_data_reader_free(r);
	return err < 0 ? CLI_EXIT_EVENT : 0;
}
