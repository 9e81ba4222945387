/* SPDX-License-Identifier: MIT */
/*
 * report-srcline.c - the srcline and srcfile sort keys of `perfkit
 * report`: a sample's location as perf 6.1 names it ("file.c:123", the
 * file's base name), or, where no line is known, perf's fallbacks
 * ("sym+OFFSET" in decimal, "dso[ADDR]" without a symbol, "??:0" outside
 * every map; srcfile "" for all of them), each string interned once so
 * the histogram can key on the pointer.  Lines come from the library
 * (pk_maps_srcline), read in process, never from a forked addr2line.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Interned strings: open addressing on the string's hash. */
struct report_srclines {
	char **tab;
	size_t cap, nr;
	/* "NAME (inlined)" by the frame's name pointer: an inline frame's
	 * name is its address's srcline answer's, kept as long as the DSO */
	struct {
		const char *sym, *name;
	} inl[256];
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static char **str_slot(char **tab, size_t cap, const char *s)
{
	size_t i = str_hash(s) & (cap - 1);

	while (tab[i] && strcmp(tab[i], s))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static const char *intern(struct report_srclines *t, const char *s)
{
	char **slot;

	if (t->nr * 2 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		for (size_t i = 0; i < t->cap; i++)
			if (t->tab[i])
				*str_slot(tab, cap, t->tab[i]) = t->tab[i];
		free(t->tab);
		t->tab = tab;
		t->cap = cap;
	}
	slot = str_slot(t->tab, t->cap, s);
	if (!*slot) {
		if (!(*slot = strdup(s)))
			return NULL;
		t->nr++;
	}
	return *slot;
}

void report_srclines_free(struct report_srclines *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->tab[i]);
	free(t->tab);
	free(t);
}

static bool full_path;	/* --full-source-path (report_srcline_full_path) */

void report_srcline_full_path(void)
{
	full_path = true;
}

/* perf's gnu_basename, unless --full-source-path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && !full_path ? slash + 1 : path;
}

/* Whether o sorts by a source key. */
static bool wants(const struct report_opts *o)
{
	for (size_t i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == PK_HIST_KEY_SRCLINE || o->keys[i] == PK_HIST_KEY_SRCFILE)
			return true;
	return false;
}

bool report_srcline_wanted(const struct report_opts *o)
{
	return wants(o);
}

/* The line addr2line finds at loc, as perf's srcline_from_fileline makes
 * it, and its file; false when it finds none. */
static bool found_text(struct pk_maps *maps, const struct pk_location *loc, char *buf, size_t len, char *file,
		       size_t file_len)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	int err = loc->dso ? pk_maps_srcline(maps, loc, &sl) : -ENOENT;

	file[0] = '\0';
	if (err == 0) {
		snprintf(buf, len, "%s:%u", base_name(sl.file_addr2line), sl.line);
		snprintf(file, file_len, "%s", base_name(sl.file_addr2line));
	} else if (err == -ENODATA) {
		/* No line, but addr2line names a function there (see
		 * pk_maps_srcline): its "FILE:?" reads as FILE:0 in perf, ":0" for
		 * an unnamed STT_FILE, "??:0" for none; srcfile is FILE. */
		snprintf(buf, len, "%s:0", sl.file_addr2line ? base_name(sl.file_addr2line) : "??");
		snprintf(file, file_len, "%s", sl.file_addr2line ? base_name(sl.file_addr2line) : "");
	}
	return err == 0 || err == -ENODATA;
}

/* perf's srcline of a location: file:line, else its fallbacks. */
static void srcline_text(struct pk_maps *maps, const struct pk_location *loc, bool lookup,
			 const char *dso, char *buf, size_t len, char *file, size_t file_len)
{
	file[0] = '\0';
	if (lookup && found_text(maps, loc, buf, len, file, file_len))
		return;
	if (!loc->dso) {
		snprintf(buf, len, "??:0");
	} else if (loc->sym) {
		snprintf(buf, len, "%s+%" PRIu64, loc->sym, loc->symoff);
	} else {
		snprintf(buf, len, "%s[%" PRIx64 "]", dso ? dso : "", loc->addr);
	}
}

static int fill(struct report_srclines **tp, const struct report_opts *o, struct pk_maps *maps,
		const struct pk_location *loc, bool lookup, struct pk_hist_sample *s)
{
	char line[4096], file[4096];

	if (!wants(o))
		return 0;
	if (!*tp && !(*tp = calloc(1, sizeof(**tp))))
		return -ENOMEM;
	srcline_text(maps, loc, lookup, s->dso, line, sizeof(line), file, sizeof(file));
	if (!(s->srcline = intern(*tp, line)) || !(s->srcfile = intern(*tp, file)))
		return -ENOMEM;
	return 0;
}

int report_srcline_fill(struct report_srclines **tp, const struct report_opts *o,
			struct pk_maps *maps, const struct pk_location *loc, struct pk_hist_sample *s)
{
	return fill(tp, o, maps, loc, true, s);
}

/* "sym (inlined)", interned in *tp; NULL when out of memory. */
static const char *inlined_name(struct report_srclines **tp, const char *sym)
{
	char line[4096];
	size_t slot = ((uintptr_t)sym >> 3 ^ (uintptr_t)sym >> 11) % 256;
	const char *name;

	if (!*tp && !(*tp = calloc(1, sizeof(**tp))))
		return NULL;
	if ((*tp)->inl[slot].sym == sym)
		return (*tp)->inl[slot].name;
	snprintf(line, sizeof(line), "%s (inlined)", sym);
	if ((name = intern(*tp, line))) {
		(*tp)->inl[slot].sym = sym;
		(*tp)->inl[slot].name = name;
	}
	return name;
}

int report_srcline_frame(struct report_srclines **tp, const struct report_opts *o,
			 struct pk_maps *maps, const struct pk_frame *f, struct pk_hist_sample *s)
{
	struct pk_location loc = f->loc;
	const char *file;
	char line[4096];
	int n;

	if (f->inlined && (s->sym = inlined_name(tp, f->loc.sym)) == NULL)
		return -ENOMEM;	/* perf's inline symbols print with the suffix */
	if (f->unwound && !f->inl)	/* perf's unwound nodes carry the DSO's address */
		return fill(tp, o, maps, &f->loc, true, s);
	/* perf 6.1's cumulative entries for PERF_SAMPLE_CALLCHAIN frames, and
	 * for the functions at an unwound address, carry the sampled ip:
	 * addr2line finds nothing at it in a relocated DSO. */
	loc.addr = f->ip;
	loc.symoff = f->ip - f->loc.sym_start;
	if ((n = fill(tp, o, maps, &loc, f->ip == f->loc.addr, s)) < 0 || !f->inl || !wants(o))
		return n;
	/* The function's own srcline is addr2line's record for it. */
	file = f->inl->file_addr2line;
	snprintf(line, sizeof(line), "%s:%u", file ? base_name(file) : "??", f->inl->line);
	return (s->srcline = intern(*tp, line)) ? 0 : -ENOMEM;
}

int report_srcline_chain(struct report_srclines **tp, enum pk_callchain_key key, struct pk_maps *maps,
			 const struct pk_frame *f, const char **out)
{
	char line[4096], file[4096];

	*out = NULL;
	if (key == PK_CALLCHAIN_KEY_FUNCTION || !f->loc.dso)
		return 0;
	if (f->inl)	/* perf's inline frames carry their inline record's line */
		snprintf(line, sizeof(line), "%s:%u",
			 f->inl->file_addr2line ? base_name(f->inl->file_addr2line) : "??", f->inl->line);
	else if (!found_text(maps, &f->loc, line, sizeof(line), file, sizeof(file))) {
		/* perf: no line, and only the address key shows the offset
		 * (its "dso[ADDR]" for no symbol never prints: the ip does). */
		if (key != PK_CALLCHAIN_KEY_ADDRESS || !f->loc.sym)
			return 0;
		snprintf(line, sizeof(line), "+%" PRIu64, f->loc.symoff);
	}
	if (!*tp && !(*tp = calloc(1, sizeof(**tp))))
		return -ENOMEM;
	return (*out = intern(*tp, line)) ? 0 : -ENOMEM;
}
