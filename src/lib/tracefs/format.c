/* SPDX-License-Identifier: MIT */
/*
 * format.c - the one parser of tracepoint format files
 * (events/<sys>/<name>/format): libtraceevent's, the kernel community's
 * own, whose result is copied into a plain struct pk__tp_format so that no
 * libtraceevent type leaves this file: field names, types, offsets, sizes,
 * signedness, array and __data_loc shapes, the id; and the print format as
 * the kernel wrote it.
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

	return (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && c &&
	       (c == f->type || c[-1] == ' ') &&
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
	/* libtraceevent marks "__data_loc T" dynamic without "[]" too. */
	out->is_array = f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC);
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
static int copy_event(const struct tep_event *ev, const char *sys, const char *pf, size_t pf_len,
		      struct pk__tp_format **out)
{
	size_t bytes = str_size(sys) + str_size(ev->name) + pf_len + 1;
	size_t nc = count_fields(ev->format.common_fields, &bytes);
	size_t nf = count_fields(ev->format.fields, &bytes);
	size_t head = sizeof(struct pk__tp_format) + (nc + nf) * sizeof(struct pk__tp_field);
	struct pk__tp_format *f = pk__calloc(1, head + bytes);
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
	f->print_fmt = p.next;
	memcpy(p.next, pf ? pf : "", pf_len);
	p.next[pf_len] = '\0';
	p.next += pf_len + 1;
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
 * The text after "print fmt:" up to the end of its line, as the kernel wrote
 * it (the quoted format, then its arguments), or NULL and *fmt_len 0 when
 * there is none.  *head_len is the length of the text before that line.
 */
static const char *find_print_fmt(const char *text, size_t len, size_t *head_len,
				  size_t *fmt_len)
{
	const char *p = memmem(text, len, "\nprint fmt:", 11), *end = text + len, *nl;

	*fmt_len = 0;
	*head_len = p ? (size_t)(p - text) + 1 : len;
	if (!p)
		return NULL;
	p += 11;
	while (p < end && *p == ' ')
		p++;
	nl = memchr(p, '\n', (size_t)(end - p));
	*fmt_len = (size_t)((nl ? nl : end) - p);
	return p;
}

/* Format files are ASCII text: the names and C types of the fields. */
static int check_text(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c != '\t' && c != '\n' && (c < 0x20 || c > 0x7e))
			return pk__error(-EINVAL, "parse tracepoint format",
					 "byte 0x%02x at offset %zu: a format file is ASCII text", c, i);
	}
	return 0;
}

/*
 * Only the fields go through libtraceevent.  Given the "print fmt:" line it
 * also builds the arguments' expression tree, which only printing needs,
 * and version 1.7.1 follows a NULL pointer on some malformed arguments
 * (`"",i?q:e]`, found by fuzz_tracefs) and rewrites the flags of fields
 * handed to __print_flags, losing their signed bit.  The printer will parse
 * the print fmt kept here when it needs it.
 */
int pk__tracefs_format_parse(const char *text, size_t len, const char *sys,
			     struct pk__tp_format **out)
{
	struct tep_handle *tep;
	struct tep_event *ev = NULL;
	enum tep_errno terr;
	const char *pf;
	size_t head_len, pf_len;
	char msg[160], *head;
	int ret;

	*out = NULL;
	if (len > FORMAT_MAX)
		return pk__error(-EINVAL, "parse tracepoint format",
				 "%zu bytes is too long for a format file", len);
	tep = tep_alloc();
	if (!tep)
		return pk__error(-ENOMEM, "parse tracepoint format", "out of memory for libtraceevent");
	pf = find_print_fmt(text, len, &head_len, &pf_len);
	/* libtraceevent 1.7.1's tokenizer returns a NULL token at the end of
	 * input and for bytes it does not know, and some of its field paths
	 * pass that to strcmp ("field:r s[" with nothing after, or with a
	 * 0xd0 after it: fuzz_tracefs).  So it sees only text the kernel
	 * writes (printable ASCII, tabs, newlines; a NUL ends the text), and
	 * the text always ends on a newline. */
	head_len = strnlen(text, head_len);
	if ((ret = check_text(text, head_len)) < 0) {
		tep_free(tep);
		return ret;
	}
	head = pk__malloc(head_len + 1);
	if (!head) {
		tep_free(tep);
		return pk__error(-ENOMEM, "parse tracepoint format", "out of memory for %zu bytes",
				 head_len + 1);
	}
	memcpy(head, text, head_len);
	head[head_len] = '\n';
	terr = tep_parse_format(tep, &ev, head, (unsigned long)head_len + 1, sys);
	free(head);
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
	ret = copy_event(ev, sys, pf, pf_len, out);
	tep_free(tep);
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
	buf = pk__malloc(cap);
	while (buf) {
		if (n + 1 == cap) {
			if (cap > FORMAT_MAX) {
				err = -EFBIG;
				break;
			}
			if (!(bigger = pk__realloc(buf, cap * 2))) {
				err = pk__error_nomem("a tracepoint format file");
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
		err = pk__error_nomem("a tracepoint format file");
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* Read <tracefs>/events/<a>[/<b>/format]; the record names the path. */
static int read_text(const char *tracefs, const char *a, const char *b, char **out,
		     size_t *len)
{
	char path[PATH_MAX];
	int n, ret;

	*out = NULL;
	*len = 0;
	if (b)
		n = snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, a, b);
	else
		n = snprintf(path, sizeof(path), "%s/events/%s", tracefs, a);
	if (n < 0 || n >= (int)sizeof(path))
		return pk__error(-ENAMETOOLONG, "read tracepoint format", "the path of %s%s%s is too long",
				 a, b ? ":" : "", b ? b : "");
	ret = slurp(path, out, len);
	if (ret == -ENOMEM)
		return ret;	/* the record says what ran out */
	if (ret < 0)
		return pk__error(ret, "read tracepoint format", "cannot read %s: %s", path,
				 strerror(-ret));
	return 0;
}

int pk__tracefs_format_text(const char *tracefs, const char *sys, const char *name,
			    char **out, size_t *len)
{
	return read_text(tracefs, sys, name, out, len);
}

int pk__tracefs_header_text(const char *tracefs, const char *file, char **out, size_t *len)
{
	if (strcmp(file, "header_page") && strcmp(file, "header_event")) {
		*out = NULL;
		*len = 0;
		return pk__error(-EINVAL, "read tracefs header", "%s is not header_page or header_event",
				 file);
	}
	return read_text(tracefs, file, NULL, out, len);
}

int pk__tracefs_format(const char *tracefs, const char *sys, const char *name,
		       struct pk__tp_format **out)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = read_text(tracefs, sys, name, &text, &len);
	if (ret < 0)
		return ret;
	ret = pk__tracefs_format_parse(text, len, sys, out);
	free(text);
	return ret;
}

void pk__tp_format_free(struct pk__tp_format *f)
{
	free(f);
}
