/* SPDX-License-Identifier: MIT */
/*
 * tracing.c - the HEADER_TRACING_DATA feature section, without which perf
 * refuses a recording of tracepoints ("broken or missing trace data"): the
 * tracing magic and version 0.6, the byte order, the sizes of a long and a
 * page, tracefs's header_page and header_event layouts, the ftrace formats
 * (none), the format files of the tracepoints recorded grouped by
 * subsystem, and empty kallsyms, printk formats and saved_cmdlines.  Layout
 * from tools/perf/Documentation/perf.data-file-format.txt; the texts are
 * copied from tracefs as the kernel wrote them.
 */
#include "data.h"
#include "sys/sys.h"
#include "tracefs/tracefs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct out {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void put(struct out *o, const void *p, size_t len)
{
	if (o->err)
		return;
	if (o->len + len > o->cap) {
		size_t cap = (o->cap ? o->cap * 2 : 4096) + len;
		unsigned char *n = pk__realloc(o->p, cap);

		if (!n) {
			o->err = pk__error_nomem("the tracing data section");
			return;
		}
		o->p = n;
		o->cap = cap;
	}
	memcpy(o->p + o->len, p, len);
	o->len += len;
}

static void put_u8(struct out *o, uint8_t v) { put(o, &v, sizeof(v)); }
static void put_u32(struct out *o, uint32_t v) { put(o, &v, sizeof(v)); }
static void put_u64(struct out *o, uint64_t v) { put(o, &v, sizeof(v)); }

/* A NUL-terminated string, as perf's reader reads names. */
static void put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s) + 1);
}

/* The name header_page/header_event with its NUL, a u64 size, the text. */
static void put_header_file(struct out *o, const char *tracefs, const char *file)
{
	char *text;
	size_t len;
	int err = pk__tracefs_header_text(tracefs, file, &text, &len);

	if (err < 0) {
		if (!o->err)
			o->err = err;
		return;
	}
	put_str(o, file);
	put_u64(o, len);
	put(o, text, len);
	free(text);
}

/* One event format file: a u64 size, then the text. */
static void put_format(struct out *o, const char *tracefs, const struct pk__tp *tp)
{
	char *text;
	size_t len;
	int err = pk__tracefs_format_text(tracefs, tp->sys, tp->name, &text, &len);

	if (err < 0) {
		if (!o->err)
			o->err = err;
		return;
	}
	put_u64(o, len);
	put(o, text, len);
	free(text);
}

/* Whether an event of `ev` is the tracepoint with this id. */
static bool recorded(const struct pk__data_event *ev, size_t nr, uint64_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ev[i].attr.type == PERF_TYPE_TRACEPOINT && ev[i].attr.config == id)
			return true;
	return false;
}

/* The end of the subsystem that starts at tps[i], and how many of its
 * tracepoints are recorded. */
static size_t sys_end(const struct pk__tp *tps, const bool *used, size_t nr, size_t i,
		      uint32_t *nr_used)
{
	size_t end = i;

	*nr_used = 0;
	while (end < nr && !strcmp(tps[end].sys, tps[i].sys))
		*nr_used += used[end++];
	return end;
}

/*
 * The event formats: a u32 count of subsystems, then per subsystem its
 * name, a u32 count and the formats.  `tps` is sorted by subsystem, so a
 * subsystem's tracepoints are adjacent; `used` marks the recorded ones.
 */
static void put_events(struct out *o, const char *tracefs, const struct pk__tp *tps,
		       const bool *used, size_t nr)
{
	uint32_t nr_sys = 0, n;

	for (size_t i = 0, end; i < nr; i = end) {
		end = sys_end(tps, used, nr, i, &n);
		nr_sys += n > 0;
	}
	put_u32(o, nr_sys);
	for (size_t i = 0, end; i < nr; i = end) {
		end = sys_end(tps, used, nr, i, &n);
		if (!n)
			continue;
		put_str(o, tps[i].sys);
		put_u32(o, n);
		for (size_t k = i; k < end; k++)
			if (used[k])
				put_format(o, tracefs, &tps[k]);
	}
}

/* The fixed start: magic, version, byte order, long and page sizes. */
static void put_start(struct out *o)
{
	static const char magic[] = "\027\010\104tracing";
	const uint16_t probe = 1;

	put(o, magic, sizeof(magic) - 1);
	put_str(o, "0.6");
	put_u8(o, *(const uint8_t *)&probe == 1 ? 0 : 1);	/* 1: big-endian */
	put_u8(o, (uint8_t)sizeof(long));
	put_u32(o, (uint32_t)pk__sys_page_size());
}

static int build(struct out *o, const char *root, const struct pk__tp *tps, const bool *used,
		 size_t nr)
{
	put_start(o);
	put_header_file(o, root, "header_page");
	put_header_file(o, root, "header_event");
	put_u32(o, 0);		/* ftrace format files: none */
	put_events(o, root, tps, used, nr);
	put_u32(o, 0);		/* kallsyms: empty */
	put_u32(o, 0);		/* printk formats: empty */
	put_u64(o, 0);		/* saved_cmdlines (version 0.6): empty */
	return o->err;
}

static int cmp_tp(const void *a, const void *b)
{
	const struct pk__tp *x = a, *y = b;
	int c = strcmp(x->sys, y->sys);

	return c ? c : strcmp(x->name, y->name);
}

/* Move the one tracepoint in `one` (when it has this id) onto tps[]. */
static int take_one(struct pk__tp *one, size_t nr_one, uint64_t id, struct pk__tp **tps,
		    size_t *nr)
{
	struct pk__tp *n;

	if (nr_one != 1 || one->id != id)
		return -ENOENT;
	n = pk__reallocarray(*tps, *nr + 1, sizeof(*n));
	if (!n)
		return pk__error_nomem("the tracing data section");
	*tps = n;
	n[(*nr)++] = *one;
	free(one);	/* the strings now belong to tps[] */
	return 0;
}

/*
 * The recorded tracepoints found by their events' names ("sys:name", as
 * the event list names them): a few id files read instead of thousands.
 * -ENOENT when a name does not lead to its attr's id (a renamed or
 * differently named event); then the caller scans every id.
 */
static int by_name(const char *root, const struct pk__data_event *ev, size_t nr_ev,
		   struct pk__tp **tps, size_t *nr)
{
	int err = 0;

	for (size_t i = 0; !err && i < nr_ev; i++) {
		char sys[256], name[256];
		struct pk__tp *one = NULL;
		size_t nr_one = 0;
		bool seen = false;

		if (ev[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		for (size_t k = 0; k < *nr; k++)
			seen |= (*tps)[k].id == ev[i].attr.config;
		if (seen)
			continue;
		if (!ev[i].name || sscanf(ev[i].name, "%255[^:]:%255[^:]", sys, name) != 2)
			return -ENOENT;
		err = pk__tracefs_list(root, sys, name, 0, "write the tracing data", &one, &nr_one);
		if (!err)
			err = take_one(one, nr_one, ev[i].attr.config, tps, nr);
		if (err < 0)
			pk__tp_free(one, nr_one);
	}
	if (!err && *nr)
		qsort(*tps, *nr, sizeof(**tps), cmp_tp);
	return err;
}

/* The tracepoints recorded, sorted by subsystem: by name when every name
 * leads to its id, else from every tracepoint's id.  used[] marks them. */
static int lookup(const char *root, const struct pk__data_event *ev, size_t nr_ev,
		  struct pk__tp **tps, size_t *nr, bool **used)
{
	int err = by_name(root, ev, nr_ev, tps, nr);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		pk__tp_free(*tps, *nr);
		*tps = NULL;
		*nr = 0;
		pk__error_clear();
		err = pk__tracefs_list(root, "*", "*", 0, "write the tracing data", tps, nr);
		if (err < 0)
			return err;
	}
	*used = pk__calloc(*nr ? *nr : 1, sizeof(**used));
	if (!*used) {
		pk__tp_free(*tps, *nr);
		return pk__error_nomem("the tracing data section");
	}
	for (size_t i = 0; i < *nr; i++)
		(*used)[i] = recorded(ev, nr_ev, (*tps)[i].id);
	return 0;
}

int pk__data_writer_tracing(const char *tracefs, const struct pk__data_event *ev, size_t nr_ev,
			    unsigned char **out, size_t *len)
{
	struct out o = { 0 };
	struct pk__tp *tps = NULL;
	char root[PATH_MAX];
	size_t nr = 0;
	bool *used = NULL, any = false;
	int err;

	*out = NULL;
	*len = 0;
	for (size_t i = 0; i < nr_ev; i++)
		any |= ev[i].attr.type == PERF_TYPE_TRACEPOINT;
	if (!any)
		return 0;
	err = pk__tracefs_find(tracefs, root, sizeof(root));
	if (err < 0)
		return err;
	err = lookup(root, ev, nr_ev, &tps, &nr, &used);
	if (err < 0)
		return err;
	err = build(&o, root, tps, used, nr);
	free(used);
	pk__tp_free(tps, nr);
	if (err < 0) {
		free(o.p);
		return err;
	}
	*out = o.p;
	*len = o.len;
	return 0;
}
