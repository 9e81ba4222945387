/* SPDX-License-Identifier: MIT */
/*
 * script.h - what cmd-script.c (options, -F rules, reading) and
 * script-print.c (one line per sample, as perf script prints it) share.
 */
#ifndef PK_CLI_SCRIPT_H
#define PK_CLI_SCRIPT_H

#include "cli.h"
#include "script-filter.h"

/* perf script's output fields (-F), as bits. */
enum script_field {
	SF_COMM = 1u << 0, SF_TID = 1u << 1, SF_PID = 1u << 2, SF_TIME = 1u << 3,
	SF_CPU = 1u << 4, SF_EVNAME = 1u << 5, SF_TRACE = 1u << 6, SF_IP = 1u << 7,
	SF_SYM = 1u << 8, SF_DSO = 1u << 9, SF_ADDR = 1u << 10, SF_SYMOFF = 1u << 11,
	SF_PERIOD = 1u << 12, SF_MISC = 1u << 13, SF_WEIGHT = 1u << 14, SF_IREGS = 1u << 15,
	SF_UREGS = 1u << 16, SF_BRSTACK = 1u << 17, SF_BRSTACKSYM = 1u << 18, SF_BRSTACKOFF = 1u << 19,
	SF_PHYS_ADDR = 1u << 20, SF_DATA_PAGE_SIZE = 1u << 21, SF_CODE_PAGE_SIZE = 1u << 22, SF_SRCLINE = 1u << 23,
	SF_DATA_SRC = 1u << 24, SF_TOD = 1u << 25, SF_IPC = 1u << 26, SF_INSN = 1u << 27, SF_INSNLEN = 1u << 28,
	SF_SRCCODE = 1u << 29, SF_BRSTACKINSN = 1u << 30, SF_BRSTACKINSNLEN = 1u << 31,
};

/* The output types perf keys -F by: the attr types below PERF_TYPE_MAX, then
 * everything else. */
enum { SCRIPT_TYPE_OTHER = PERF_TYPE_MAX + 1, SCRIPT_NR_TYPES };

struct script_type {
	uint32_t fields;	/* what is printed */
	uint32_t invalid;	/* what -F may not ask for this type */
	uint32_t user_fields;	/* asked for by name in an untyped -F */
	bool user_set;		/* a -F named this type (or all of them) */
	bool wildcard;		/* ... through an untyped -F */
	bool blank;		/* -F named only fields that print nothing here: blank lines, as perf */
};

struct script_opts {
	const char *input;		/* -i, default perf.data */
	bool ns;			/* --ns */
	bool force;			/* -f */
	bool dump;			/* -D (report-dump.c) */
	bool show_task, show_mmap;	/* --show-task-events, --show-mmap-events */
	bool header, header_only;	/* --header, --header-only (report-header.c) */
	bool show_info;			/* -I */
	bool no_inline;			/* --no-inline */
	unsigned int max_stack;		/* --max-stack (perf's 127 when not given) */
	bool verbose;			/* -v: C++ names with parameter lists */
	uint64_t max_blocks;		/* --max-blocks for brstackinsn, 0: all */
	bool max_stack_given;		/* --max-stack was given; 0 prints no frames */
	struct script_type type[SCRIPT_NR_TYPES];
	struct script_filter filt;	/* script-filter.c's and script-events.c's flags */
};

/* The -F type of an attr type. */
static inline int script_type_of(uint32_t attr_type)
{
	return attr_type < PERF_TYPE_MAX ? (int)attr_type : SCRIPT_TYPE_OTHER;
}

/* Everything the printer needs for one sample. */
struct script_ctx {
	const struct script_opts *o;
	struct script_filter *filt;	/* o's, writable: --reltime/--deltatime keep state */
	struct pk_resolver *res;	/* comms, maps and call chains */
	struct pk_tracing *tracing;	/* NULL: the file has no tracing data */
	int name_width;			/* the longest event name */
	bool callchains;		/* some event records call chains */
	struct script_reads *reads;	/* PERF_SAMPLE_READ values (script-read.c) */
	char *trace_buf;
	size_t trace_len;
	bool trace_damage_said;	/* a sample's fields past its bytes: warned */
	/* script-fields2.c: CLOCK_DATA for -F tod, and data_src's widest line */
	bool clock_on;
	uint64_t tod_ns, clock_ns;
	int data_src_width;
	struct script_srccode *srccode;	/* script-srccode.c's files and threads */
};

/* ---- script-srccode.c: -F srccode ------------------------------------------ */
struct script_srccode;

/*
 * script_print_srccode - perf's -F srccode line for location loc of
 * thread tid ("|LINE     text\n"), from the table made on first use in
 * *scp: nothing where no source line is found, or when it is the line
 * last printed for the thread.  0, or -ENOMEM.
 */
int script_print_srccode(FILE *out, struct script_srccode **scp, struct pk_resolver *res, uint32_t tid,
			 const struct pk_location *loc);

/* script_srccode_free - free the table; NULL is a no-op. */
void script_srccode_free(struct script_srccode *sc);

/*
 * script_print_srcline - perf's "\n  file.c:123" for a location (a
 * sample's, or frame fr's, NULL for the sample's own) as -F srcline
 * prints it; `inline_on`: the resolver gives inline frames (perf's
 * --inline), which decides whether a line-less unwound frame shows ??:0.
 */
void script_print_srcline(FILE *f, struct pk_resolver *res, const struct pk_location *loc,
			  const struct pk_frame *fr, bool inline_on);

/* script_srcline_full_path - --full-source-path: srcline shows the source
 * file's path as the DWARF names it, not its base name. */
void script_srcline_full_path(bool on);

/* script_show_kernel_path - --show-kernel-path: script_dso_name gives a
 * DSO's long name (pk_dso.long_name) where it has one. */
void script_show_kernel_path(bool on);

/* script_dso_name - the name perf script prints for DSO `d` (perf's
 * map__fprintf_dsoname): its name, or its long name under
 * --show-kernel-path; "[unknown]" for NULL. */
const char *script_dso_name(const struct pk_dso *d);

/*
 * script_print_sample - the line(s) perf script prints for the decoded
 * sample `rec` of event `name` (attr `attr`), resolved through c->res.
 * Returns 0, -ENOMEM, the resolver's error, or -ECANCELED after a
 * message (a --dlfilter failed: stop).
 */
int script_print_sample(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
			const char *name, const struct pk_record *rec);

/*
 * script_print_side - the line perf script's --show-task-events (COMM,
 * FORK, EXIT) or --show-mmap-events (MMAP, MMAP2) prints for the decoded
 * side-band record `rec` of the event `attr` (NULL: none is known, and
 * perf prints only the record): the sample's start fields, then
 * "PERF_RECORD_<TYPE>" and the record.  Call it after c->res followed the
 * record, except for EXIT (perf prints before it forgets the thread).
 * Returns 0 or -ENOMEM.
 */
int script_print_side(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
		      const struct pk_record *rec);

#endif
