/* SPDX-License-Identifier: MIT */
/*
 * parse.h - private to the event parser (parse.c, parse-terms.c,
 * parse-kinds.c): the parser state, spans of the spec, and the functions the
 * three files share.
 */
#ifndef PK_PARSE_H
#define PK_PARSE_H

#include "event.h"

#define MODIFIER_CHARS "ukhGHIpPSDeWb"

struct pk__parser {
	const char *spec;
	const struct pk_parse_opts *opts;
	struct pk_events *ev;
	size_t cap;
	const struct pk_pmus *pmus;	/* opts->pmus, or scanned on first use */
	struct pk_pmus *pmus_owned;	/* the scan, when this parse made it */
	int pmus_err;
	char tracefs[512];		/* found on first use */
	int tracefs_err;		/* 1 = not looked up yet */
	char tracefs_why[400];		/* why tracefs is unavailable, for messages */
	/* Per event: the canonical string without modifiers, and how the
	 * modifiers attach ("cycles:u", "cpu/config=0x3c/u", none for libpfm4);
	 * finished once group modifiers have been applied. */
	const char **base;
	char *style;
};

enum { STYLE_COLON, STYLE_SLASH, STYLE_NONE };

/* One event's text inside the spec: [start, end). */
struct pk__span {
	size_t start, end;
};

/* The pieces of "HEAD/TERMS/MODS" or "BODY:MODS". */
struct pk__parts {
	size_t head, head_len;		/* offsets into the spec */
	size_t terms, terms_len;	/* terms_len == 0 and !slashed: none */
	size_t mods, mods_len;
	bool slashed;
};

struct pk__best {
	const char *typed;
	char name[128];
	size_t dist;
};

char *pk__parse_own(struct pk__parser *p, char *s);
char *pk__parse_own_copy(struct pk__parser *p, const char *s, size_t n);
struct pk__event *pk__parse_add(struct pk__parser *p, size_t start);
const struct pk_pmus *pk__parse_pmus(struct pk__parser *p);
const char *pk__parse_tracefs(struct pk__parser *p);
const char *pk__parse_kallsyms(const struct pk__parser *p);
int pk__parse_col(const struct pk__parser *p, size_t off);
int pk__parse_error(const struct pk__parser *p, const struct pk__span *s, size_t off, int err,
		    const char *fmt, ...) PK__PRINTF(5, 6);
bool pk__parse_num(const char *s, size_t n, uint64_t *out);
bool pk__parse_hex(const char *s, size_t n, uint64_t *out);
int pk__parse_mods(struct pk__parser *p, const struct pk__span *s, size_t off, size_t n,
		      struct pk__event *d, bool add, bool leader);
bool pk__parse_looks_like_mods(const char *m, size_t n);
void pk__parse_consider(struct pk__best *b, const char *cand);
void pk__parse_suggest(struct pk__parser *p, const char *typed);
int pk__parse_terms(struct pk__parser *p, const struct pk__span *s, const char *text, size_t n,
		       size_t off, bool in_spec, struct pk__event *d, const struct pk_pmu *pmu,
		       int depth);
int pk__parse_set_canonical(struct pk__parser *p, struct pk__event *d, const char *base, bool slash);
int pk__parse_finish_canonical(struct pk__parser *p);
int pk__parse_pmu_canonical(struct pk__parser *p, struct pk__event *d);
int pk__parse_add_generic(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
		       const struct pk__generic *g);
int pk__parse_add_cache(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x, uint64_t config);
int pk__parse_add_raw(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x, uint32_t type,
		   uint64_t config);
int pk__parse_add_pmu(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
			 const struct pk_pmu *pmu, const struct pk_pmu_alias *alias);
int pk__parse_add_breakpoint(struct pk__parser *p, const struct pk__span *s);
int pk__parse_add_probe(struct pk__parser *p, const struct pk__span *s, bool kprobe, bool ret, size_t prefix);
int pk__parse_add_tracepoints(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
			   const char *dir, const char *sys, const char *name);
int pk__parse_add_libpfm(struct pk__parser *p, const struct pk__span *s);

/* Tool events (tool.c): adding one; refusing one inside a group of more
 * than one event (perf would leave the group uncounted). */
int pk__parse_add_tool(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
		       enum pk_tool_event t);
int pk__tool_check_group(const struct pk__parser *p, const struct pk__span *gs, size_t first);

#endif
