/* SPDX-License-Identifier: MIT */
/*
 * script.h - what cmd-script.c (options, -F rules, reading) and
 * script-print.c (one line per sample, as perf script prints it) share.
 */
#ifndef PK_CLI_SCRIPT_H
#define PK_CLI_SCRIPT_H

#include "cli.h"

/* perf script's output fields (-F), as bits. */
enum script_field {
	SF_COMM = 1u << 0, SF_TID = 1u << 1, SF_PID = 1u << 2, SF_TIME = 1u << 3,
	SF_CPU = 1u << 4, SF_EVNAME = 1u << 5, SF_TRACE = 1u << 6, SF_IP = 1u << 7,
	SF_SYM = 1u << 8, SF_DSO = 1u << 9, SF_ADDR = 1u << 10, SF_SYMOFF = 1u << 11,
	SF_PERIOD = 1u << 12,
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
};

struct script_opts {
	const char *input;		/* -i, default perf.data */
	bool ns;			/* --ns */
	bool force;			/* -f */
	bool show_task, show_mmap;	/* --show-task-events, --show-mmap-events */
	struct script_type type[SCRIPT_NR_TYPES];
};

/* The -F type of an attr type. */
static inline int script_type_of(uint32_t attr_type)
{
	return attr_type < PERF_TYPE_MAX ? (int)attr_type : SCRIPT_TYPE_OTHER;
}

/* Everything the printer needs for one sample. */
struct script_ctx {
	const struct script_opts *o;
	struct pk_maps *maps;
	struct pk_threads *threads;
	struct pk_tracing *tracing;	/* NULL: the file has no tracing data */
	int name_width;			/* the longest event name */
	bool callchains;		/* some event records call chains */
	char *trace_buf;
	size_t trace_len;
};

/*
 * script_print_sample - the line(s) perf script prints for sample `s` of
 * event `name` (attr `attr`, header misc `misc`).  Returns 0 or -ENOMEM.
 */
int script_print_sample(FILE *f, struct script_ctx *c, const struct perf_event_attr *attr,
			const char *name, uint16_t misc, const struct pk_sample *s);

#endif
