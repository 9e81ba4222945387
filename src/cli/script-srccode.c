/* SPDX-License-Identifier: MIT */
/*
 * script-srccode.c - perf script 6.1's -F srccode: after a sample's line,
 * the source line its ip is at, as "|LINE     text" (perf's "|%-8d %s"),
 * from the file addr2line names (joined with the unit's compile directory
 * when relative, so it opens from any directory, as in perf), left out where no line
 * or file is found and when the thread's last printed line was the same
 * file and line.  Files are read once and kept, each as its lines.
 */
#include "script.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One source file: its text and where each line starts. */
struct src_file {
	char *path;
	char *text;		/* NULL: the file could not be read */
	size_t len;
	size_t *starts;
	size_t nr_lines;
};

/* A thread's last printed line (perf's thread->srccode_state). */
struct src_last {
	uint32_t tid;
	bool used;
	const struct src_file *file;
	unsigned int line;
};

struct script_srccode {
	struct src_file *files;
	size_t nr_files;
	struct src_last *last;	/* open addressing by tid */
	size_t cap_last, nr_last;
};

void script_srccode_free(struct script_srccode *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nr_files; i++) {
		free(sc->files[i].path);
		free(sc->files[i].text);
		free(sc->files[i].starts);
	}
	free(sc->files);
	free(sc->last);
	free(sc);
}

/* Read f->path whole and index its lines; f->text stays NULL on failure. */
static void read_lines(struct src_file *f)
{
	FILE *in = fopen(f->path, "rb");
	size_t cap = 0, n;
	char buf[65536];

	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
		char *t = realloc(f->text, f->len + n + 1);

		if (!t)
			break;
		f->text = t;
		memcpy(f->text + f->len, buf, n);
		f->len += n;
	}
	if (in)
		fclose(in);
	if (f->text)
		f->text[f->len] = '\0';
	for (size_t i = 0; f->text && i < f->len; i++) {
		if (i && f->text[i - 1] != '\n')
			continue;
		if (f->nr_lines == cap) {
			size_t *s = realloc(f->starts, (cap = cap ? cap * 2 : 256) * sizeof(*s));

			if (!s)
				break;
			f->starts = s;
		}
		f->starts[f->nr_lines++] = i;
	}
}

static const struct src_file *file_of(struct script_srccode *sc, const char *path)
{
	struct src_file *files, *f;

	for (size_t i = 0; i < sc->nr_files; i++)
		if (!strcmp(sc->files[i].path, path))
			return &sc->files[i];
	if (!(files = realloc(sc->files, (sc->nr_files + 1) * sizeof(*files))))
		return NULL;
	sc->files = files;
	f = &files[sc->nr_files];
	memset(f, 0, sizeof(*f));
	if (!(f->path = strdup(path)))
		return NULL;
	sc->nr_files++;
	read_lines(f);
	return f;
}

static struct src_last *last_of(struct script_srccode *sc, uint32_t tid)
{
	size_t i;

	if (sc->nr_last * 2 >= sc->cap_last) {
		size_t cap = sc->cap_last ? sc->cap_last * 2 : 64;
		struct src_last *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t k = 0; k < sc->cap_last; k++) {
			if (!sc->last[k].used)
				continue;
			for (i = sc->last[k].tid & (cap - 1); t[i].used; i = (i + 1) & (cap - 1))
				;
			t[i] = sc->last[k];
		}
		free(sc->last);
		sc->last = t;
		sc->cap_last = cap;
	}
	for (i = tid & (sc->cap_last - 1); sc->last[i].used && sc->last[i].tid != tid;
	     i = (i + 1) & (sc->cap_last - 1))
		;
	if (!sc->last[i].used) {
		sc->last[i] = (struct src_last){ .tid = tid, .used = true };
		sc->nr_last++;
	}
	return &sc->last[i];
}

int script_print_srccode(FILE *out, struct script_srccode **scp, struct pk_resolver *res, uint32_t tid,
			 const struct pk_location *loc)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	const struct src_file *f;
	struct src_last *last;
	const char *text;
	size_t len;

	if (!loc->dso || pk_maps_srcline(pk_resolver_maps(res), loc, &sl) < 0 || !sl.file_addr2line)
		return 0;
	if (!*scp && !(*scp = calloc(1, sizeof(**scp))))
		return -ENOMEM;
	if (!(f = file_of(*scp, sl.file_addr2line)) || !(last = last_of(*scp, tid)))
		return -ENOMEM;
	if (last->file == f && last->line == sl.line)
		return 0;	/* perf: no repeat of the thread's last line */
	if (!f->text || !sl.line || sl.line > f->nr_lines)
		return 0;
	text = f->text + f->starts[sl.line - 1];
	len = strcspn(text, "\n");
	if (text + len > f->text + f->len)
		len = (size_t)(f->text + f->len - text);
	fprintf(out, "|%-8u %.*s\n", sl.line, (int)len, text);
	last->file = f;
	last->line = sl.line;
	return 0;
}
