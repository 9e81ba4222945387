/* SPDX-License-Identifier: MIT */
/*
 * script.h - what cmd-script.c (options, -F rules, reading) and
 * script-print.c (one line per sample, as perf script prints it) share.
 */
#ifndef PK_CLI_SCRIPT_H
#define PK_CLI_SCRIPT_H

#include "cli.h"
#include "script-filter.h"

/* perf script's output fields (-F), as bits of a uint64_t (perf has more
 * than 32). */
#define SF_BIT(n) (UINT64_C(1) << (n))
#define SF_COMM SF_BIT(0)
#define SF_TID SF_BIT(1)
#define SF_PID SF_BIT(2)
#define SF_TIME SF_BIT(3)
#define SF_CPU SF_BIT(4)
#define SF_EVNAME SF_BIT(5)
#define SF_TRACE SF_BIT(6)
#define SF_IP SF_BIT(7)
#define SF_SYM SF_BIT(8)
#define SF_DSO SF_BIT(9)
#define SF_ADDR SF_BIT(10)
#define SF_SYMOFF SF_BIT(11)
#define SF_PERIOD SF_BIT(12)
#define SF_MISC SF_BIT(13)
#define SF_WEIGHT SF_BIT(14)
#define SF_IREGS SF_BIT(15)
#define SF_UREGS SF_BIT(16)
#define SF_BRSTACK SF_BIT(17)
#define SF_BRSTACKSYM SF_BIT(18)
#define SF_BRSTACKOFF SF_BIT(19)
#define SF_PHYS_ADDR SF_BIT(20)
#define SF_DATA_PAGE_SIZE SF_BIT(21)
#define SF_CODE_PAGE_SIZE SF_BIT(22)
#define SF_SRCLINE SF_BIT(23)
#define SF_DATA_SRC SF_BIT(24)
#define SF_TOD SF_BIT(25)
#define SF_IPC SF_BIT(26)
#define SF_INSN SF_BIT(27)
#define SF_INSNLEN SF_BIT(28)
#define SF_SRCCODE SF_BIT(29)
#define SF_BRSTACKINSN SF_BIT(30)
#define SF_BRSTACKINSNLEN SF_BIT(31)
#define SF_INS_LAT SF_BIT(32)
#define SF_BPF_OUTPUT SF_BIT(33)

/* The output types perf keys -F by: the attr types below PERF_TYPE_MAX, then
 * everything else. */
enum { SCRIPT_TYPE_OTHER = PERF_TYPE_MAX + 1, SCRIPT_NR_TYPES };

struct script_type {
	uint64_t fields;	/* what is printed */
	uint64_t invalid;	/* what -F may not ask for this type */
	uint64_t user_fields;	/* asked for by name in an untyped -F */
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
	struct script_kept *kept;	/* script-print.c's texts kept between samples */
};

/* script_kept_free - free what script-print.c keeps between samples
 * (ctx.kept: call chains' lines by chain id, lines' starts by thread, the
 * last time and period); NULL is a no-op. */
void script_kept_free(struct script_kept *m);

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
