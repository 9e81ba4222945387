/* SPDX-License-Identifier: MIT */
/*
 * format.c - the one parser of tracepoint format files
 * (events/<sys>/<name>/format): libtraceevent's, the kernel community's
 * own, whose result is copied into a plain struct pk__tp_format so that no
 * libtraceevent type leaves this file.  Field names, types, offsets, sizes,
 * signedness, array and __data_loc shapes, the id and the print format.
 */
#include "tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

/* Format files are a few KiB; anything past this is not one. */
#define FORMAT_MAX (1u << 20)

/* The strings of a format, packed after the struct and its fields. */
struct pack {
	char *next;
	char *end;
};

static const char *pack_str(struct pack *p, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *dst = p->next;

	if ((size_t)(p->end - p->next) < n)
		return "";	/* cannot happen: the block was sized from the same strings */
	memcpy(dst, s ? s : "", n);
	p->next += n;
	return dst;
}

static size_t str_size(const char *s)
{
	return strlen(s ? s : "") + 1;
}

/* Strings are char arrays, fixed or dynamic; u8 arrays stay numbers. */
static bool is_char_array(const struct tep_format_field *f)
{
	const char *c = strstr(f->type, "char");

	return (f->flags & TEP_FIELD_IS_ARRAY) && c && (c == f->type || c[-1] == ' ') &&
	       (c[4] == '\0' || c[4] == '[' || c[4] == ' ');
}

static void copy_field(struct pack *p, const struct tep_format_field *f, bool common,
		       struct pk__tp_field *out)
{
	out->name = pack_str(p, f->name);
	out->type = pack_str(p, f->type);
	out->offset = f->offset < 0 ? 0 : (unsigned int)f->offset;
	out->size = f->size < 0 ? 0 : (unsigned int)f->size;
	out->arraylen = f->arraylen;
	out->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	out->is_array = f->flags & TEP_FIELD_IS_ARRAY;
	out->is_dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
	out->is_string = is_char_array(f);
	out->is_common = common;
}

static size_t count_fields(const struct tep_format_field *f, size_t *bytes)
{
	size_t n = 0;

	for (; f; f = f->next, n++)
		*bytes += str_size(f->name) + str_size(f->type);
	return n;
}

/* Copy a parsed event into one malloc'd block. */
static int copy_event(const struct tep_event *ev, const char *sys, struct pk__tp_format **out)
{
	size_t bytes = str_size(sys) + str_size(ev->name) + str_size(ev->print_fmt.format);
	size_t nc = count_fields(ev->format.common_fields, &bytes);
	size_t nf = count_fields(ev->format.fields, &bytes);
	size_t head = sizeof(struct pk__tp_format) + (nc + nf) * sizeof(struct pk__tp_field);
	struct pk__tp_format *f = calloc(1, head + bytes);
	struct pack p;
	size_t i = 0;

	if (!f)
		return pk__error(-ENOMEM, "parse tracepoint format", "out of memory for %zu fields",
				 nc + nf);
	f->fields = (struct pk__tp_field *)(f + 1);
	p.next = (char *)f + head;
	p.end = p.next + bytes;
	f->sys = pack_str(&p, sys);
	f->name = pack_str(&p, ev->name);
	f->print_fmt = pack_str(&p, ev->print_fmt.format);
	f->id = ev->id < 0 ? 0 : (uint64_t)ev->id;
	for (const struct tep_format_field *x = ev->format.common_fields; x; x = x->next)
		copy_field(&p, x, true, &f->fields[i++]);
	for (const struct tep_format_field *x = ev->format.fields; x; x = x->next)
		copy_field(&p, x, false, &f->fields[i++]);
	f->nr_fields = i;
	*out = f;
	return 0;
}

/*
 * libtraceevent 1.7 replaces a field's flags with TEP_FIELD_IS_FLAG or
 * TEP_FIELD_IS_SYMBOLIC when the print format hands the field to
 * __print_flags or __print_symbolic, losing the signed bit the file declared
 * (sched_switch's prev_state).  The fields alone, without "print fmt:",
 * parse with the flags as written; this takes the signedness from there.
 */
static void fix_signedness(struct pk__tp_format *f, const char *text, size_t len, const char *sys)
{
	const char *pf = memmem(text, len, "\nprint fmt:", 11);
	struct tep_handle *tep;
	struct tep_event *ev = NULL;
	size_t i = 0;

	if (!pf || !(tep = tep_alloc()))
		return;
	if (tep_parse_format(tep, &ev, text, (unsigned long)(pf - text + 1), sys) == 0 && ev) {
		for (const struct tep_format_field *x = ev->format.common_fields; x && i < f->nr_fields;
		     x = x->next, i++)
			f->fields[i].is_signed = x->flags & TEP_FIELD_IS_SIGNED;
		for (const struct tep_format_field *x = ev->format.fields; x && i < f->nr_fields;
		     x = x->next, i++)
			f->fields[i].is_signed = x->flags & TEP_FIELD_IS_SIGNED;
	}
	tep_free(tep);
}

static bool needs_signedness_fix(const struct tep_event *ev)
{
	for (const struct tep_format_field *x = ev->format.fields; x; x = x->next)
		if (x->flags & (TEP_FIELD_IS_FLAG | TEP_FIELD_IS_SYMBOLIC))
			return true;
	return false;
}

int pk__tracefs_format_parse(const char *text, size_t len, const char *sys,
			     struct pk__tp_format **out)
{
	struct tep_handle *tep;
	struct tep_event *ev = NULL;
	enum tep_errno terr;
	char msg[160];
	bool fix;
	int ret;

	*out = NULL;
	if (len > FORMAT_MAX)
		return pk__error(-EINVAL, "parse tracepoint format",
				 "%zu bytes is too long for a format file", len);
	tep = tep_alloc();
	if (!tep)
		return pk__error(-ENOMEM, "parse tracepoint format", "out of memory for libtraceevent");
	terr = tep_parse_format(tep, &ev, text, (unsigned long)len, sys);
	if (terr != 0 || !ev || !ev->name) {
		/* libtraceevent 1.7 answers a text without its "name:" line with
		 * TEP_ERRNO__MEM_ALLOC_FAILED; a malformed file is far likelier
		 * than an allocation failure, so every failure is -EINVAL. */
		if (terr == TEP_ERRNO__MEM_ALLOC_FAILED)
			snprintf(msg, sizeof(msg), "no \"name:\" line where a format file starts");
		else if (tep_strerror(tep, terr, msg, sizeof(msg)) < 0)
			snprintf(msg, sizeof(msg), "error %d", (int)terr);
		tep_free(tep);
		return pk__error(-EINVAL, "parse tracepoint format", "libtraceevent: %s", msg);
	}
	fix = needs_signedness_fix(ev);
	ret = copy_event(ev, sys, out);
	tep_free(tep);
	if (ret == 0 && fix)
		fix_signedness(*out, text, len, sys);
	return ret;
}

/* Read a whole format file; *len excludes the NUL added after it. */
static int slurp(const char *path, char **out, size_t *len)
{
	size_t n = 0, cap = 8192;
	char *buf, *bigger;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	while (buf) {
		if (n + 1 == cap) {
			if (cap > FORMAT_MAX) {
				err = -EFBIG;
				break;
			}
			if (!(bigger = realloc(buf, cap * 2))) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	if (!buf)
		err = -ENOMEM;
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int pk__tracefs_format(const char *tracefs, const char *sys, const char *name,
		       struct pk__tp_format **out)
{
	char path[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, name) >=
	    (int)sizeof(path))
		return pk__error(-ENAMETOOLONG, "read tracepoint format", "the path of %s:%s is too long",
				 sys, name);
	ret = slurp(path, &text, &len);
	if (ret < 0)
		return pk__error(ret, "read tracepoint format", "cannot read %s: %s", path,
				 strerror(-ret));
	ret = pk__tracefs_format_parse(text, len, sys, out);
	free(text);
	return ret;
}

void pk__tp_format_free(struct pk__tp_format *f)
{
	free(f);
}
