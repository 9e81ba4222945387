/* SPDX-License-Identifier: MIT */
/*
 * report-dump.h - perf report -D / perf script -D: every record of a
 * perf.data file as perf 6.1 dumps it (report-dump.c).
 */
#ifndef PK_CLI_REPORT_DUMP_H
#define PK_CLI_REPORT_DUMP_H

#include <stdio.h>

#include "cli.h"

/*
 * report_dump - print to `f` every record `r` delivers, in the order perf
 * report -D prints them (time order, each FINISHED_ROUND before the records
 * it releases): its file offset in `path` (the name as the user gave it),
 * size and type, the raw bytes in perf's hex dump, then the decoded line
 * (the sample's thread and DSO from a resolver fed with the records so
 * far, once per event perf delivers it to: for PERF_SAMPLE_READ, each
 * counter that grew since its last sample); then perf's "Aggregated
 * stats" block and each event's count of samples delivered.  `o` NULL (or all false) is perf report's -D, else see struct
 * report_dump_opts.
 * Returns 0, or a negative errno with pk_last_error set (the records
 * before the damage are printed), or the hook's negative return.
 */
/* What perf script -D does differently: no header comment and no stats,
 * its own THREAD_MAP and CPU_MAP handlers (no ": unhandled!"), and its
 * lines for each record after the dump's (the hook, given each record
 * once its dump is printed; a negative return stops the dump).  And perf
 * diff -D's: no header comment and no stats either, and its stubs' ":
 * unhandled!" for ID_INDEX and after EVENT_UPDATE. */
struct report_dump_opts {
	bool script;
	bool diff;
	/* perf report -D --disable-order: the records in the file's order,
	 * its FINISHED_ROUNDs "unhandled!" (no ordered queue handles them). */
	bool file_order;
	int (*hook)(void *ctx, const struct perf_event_header *h);
	/* perf diff's --time drops a sample before resolving it: true leaves
	 * out the sample's thread and DSO lines (NULL: none is dropped). */
	bool (*dropped)(void *ctx, const struct pk_sample *s);
	/* perf script's: a PERF_SAMPLE_READ sample is delivered once per
	 * counter that grew (its event ev, its id, its growth as the period),
	 * each after its thread and DSO lines; NULL: nothing more for each.
	 * A negative return stops the dump. */
	int (*member)(void *ctx, const struct perf_event_header *h, size_t ev, uint64_t id, uint64_t period);
	void *ctx;
};

int report_dump(FILE *f, struct pk_data_reader *r, const char *path, const struct report_dump_opts *o);

/* report_dump_run - `cmd` -D: report_dump of `r` (read from `path`) to
 * stdout, in the file's order with `file_order` (report's
 * --disable-order), then the skipped AUX area records' warning; frees r.
 * Returns the command's exit status. */
int report_dump_run(const char *cmd, const char *path, struct pk_data_reader *r, bool file_order);

/* report_warn_skipped - "Warning: N AUXTRACE records skipped" and the
 * like on `f` for the AUX area records `r` skipped so far (nothing when
 * there were none). */
void report_warn_skipped(FILE *f, const struct pk_data_reader *r);

/* report_warn_unfinished - perf's two-line WARNING for a file whose data
 * size field is 0 (pk_data_reader_unfinished), naming it as `path`, to f;
 * nothing for any other file.  perf prints it when it opens the file. */
void report_warn_unfinished(FILE *f, const struct pk_data_reader *r, const char *path);

/* report-dump-rec.c: the lines perf's -D prints after the header line
 * for the records report-dump.c leaves to it. */

/* report_dump_sample_extra - dump_sample's lines between the call chain
 * and the read values: branch stack, user and interrupt registers, user
 * stack, weight, data source, physical address, page sizes, transaction,
 * each when the attr's sample_type has it. */
void report_dump_sample_extra(FILE *f, const struct pk_sample *s, const struct perf_event_attr *a);

/* report_dump_lbr_chain - perf's "... LBR call chain" block, printed
 * before the FP chain for an event sampling the LBR call stack
 * (PERF_SAMPLE_BRANCH_CALL_STACK) whose chain has a user part: the kernel
 * frames and the user marker, then the user stack the branch entries
 * give; nothing otherwise. */
void report_dump_lbr_chain(FILE *f, const struct pk_sample *s, const struct perf_event_attr *a);

/* report_dump_read - the rest of a PERF_RECORD_READ record's line `h` and
 * the lines after it, as perf 6.1's dump_read prints them: pid, tid, the
 * name of its event (`name`, NULL for perf's "unknown"), the value; then,
 * when its event's attr `a` is known (not NULL), the time enabled, time
 * running, id and lost count its read_format has, read where perf's fixed
 * struct perf_record_read has them (0 past the record's end). */
void report_dump_read(FILE *f, const struct perf_event_header *h, const char *name,
		      const struct perf_event_attr *a);

/* report_dump_text_poke - the rest of a TEXT_POKE record's line, as perf
 * 6.1 prints it: the address, its kernel symbol with the offset (through
 * res's maps, when one holds it), the lengths, then the old and the new
 * bytes, 16 a line. */
void report_dump_text_poke(FILE *f, const struct pk_record *d, struct pk_resolver *res);

/* report_dump_kernel_rec - the rest of the line (and the lines after it)
 * for NAMESPACES, CGROUP, BPF_EVENT, THROTTLE, UNTHROTTLE, AUX,
 * ITRACE_START and AUX_OUTPUT_HW_ID as perf's report (or with `script`,
 * perf's script) prints them.  Returns false, printing nothing, for
 * another type. */
bool report_dump_kernel_rec(FILE *f, const struct pk_record *d, bool script);

/* report_dump_user_rec - the same for perf's STAT_CONFIG, STAT,
 * STAT_ROUND and TIME_CONV records (`h` is the whole record). */
bool report_dump_user_rec(FILE *f, const struct perf_event_header *h, bool script);

#endif
