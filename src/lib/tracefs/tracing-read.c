/* SPDX-License-Identifier: MIT */
/*
 * tracing-read.c - the read side of perf.data's HEADER_TRACING_DATA: the
 * tracing magic, version, byte order, long and page sizes, header_page,
 * header_event, the ftrace and event format files grouped by subsystem,
 * kallsyms, printk formats and (version 0.6) saved_cmdlines, each handed
 * to libtraceevent, so a tracepoint sample's raw bytes print as perf
 * script prints them ("prev_comm=... ==> next_comm=...").  Every length is
 * checked against the section; a format text that is not what the kernel
 * writes (printable ASCII, tabs, newlines) is refused before libtraceevent
 * sees it, as format.c does.
 */
#include "tracefs.h"
#include "sys/sys.h"

#include <byteswap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

struct pk_tracing {
	struct tep_handle *tep;
	unsigned char *copy;	/* a sample's raw bytes, NUL-padded */
	size_t copy_len;
};

/* A cursor over the section. */
struct in {
	const unsigned char *p;
	size_t len, off;
	bool swap;
};

static int bad(const struct in *in, const char *why)
{
	return pk__error(-EINVAL, "read tracing data", "%s at offset %zu of %zu", why, in->off, in->len);
}

static int take(struct in *in, size_t n, const unsigned char **out)
{
	if (n > in->len - in->off)
		return bad(in, "section ends early");
	*out = in->p + in->off;
	in->off += n;
	return 0;
}

static int take_u32(struct in *in, uint32_t *v)
{
	const unsigned char *p = NULL;
	int err = take(in, 4, &p);

	if (err)
		return err;
	memcpy(v, p, 4);
	if (in->swap)
		*v = bswap_32(*v);
	return 0;
}

static int take_u64(struct in *in, uint64_t *v)
{
	const unsigned char *p = NULL;
	int err = take(in, 8, &p);

	if (err)
		return err;
	memcpy(v, p, 8);
	if (in->swap)
		*v = bswap_64(*v);
	return 0;
}

/* A NUL-terminated string inside the section. */
static int take_str(struct in *in, const char **s)
{
	const unsigned char *end = memchr(in->p + in->off, 0, in->len - in->off);

	if (!end)
		return bad(in, "unterminated string");
	*s = (const char *)in->p + in->off;
	in->off = (size_t)(end - in->p) + 1;
	return 0;
}

/* A block of `size` bytes, copied with a NUL after it (libtraceevent's
 * parsers want text they may write into and that ends). */
static int take_text(struct in *in, uint64_t size, char **out)
{
	const unsigned char *p = NULL;
	int err;

	if (size > in->len - in->off)
		return bad(in, "a block runs past the section");
	if ((err = take(in, (size_t)size, &p)))
		return err;
	if (!(*out = pk__malloc((size_t)size + 1)))
		return pk__error(-ENOMEM, "read tracing data", "out of memory for %llu bytes",
				 (unsigned long long)size);
	memcpy(*out, p, (size_t)size);
	(*out)[size] = 0;
	return 0;
}

/* What the kernel writes in a format file; libtraceevent 1.7.1 crashes on
 * some other bytes (see format.c). */
static bool kernel_text(const char *t, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((t[i] < 0x20 || t[i] > 0x7e) && t[i] != '\n' && t[i] != '\t')
			return false;
	return true;
}

/* One format file (u64 size, text) of subsystem `sys`. */
static int read_format(struct in *in, struct tep_handle *tep, const char *sys)
{
	uint64_t size;
	char *text, why[128], msg[192];
	int err;

	if ((err = take_u64(in, &size)) || (err = take_text(in, size, &text)))
		return err;
	if (!kernel_text(text, (size_t)size)) {
		free(text);
		return bad(in, "a format file holds bytes the kernel does not write");
	}
	if ((err = pk__tracefs_print_fmt_check(text, (size_t)size, why, sizeof(why))) < 0) {
		free(text);
		if (err == -ENOMEM)
			return pk__error(err, "read tracing data", "out of memory");
		snprintf(msg, sizeof(msg), "a format file is damaged: %s", why);
		return bad(in, msg);
	}
	if (tep_parse_event(tep, text, (unsigned long)size, sys) != 0) {
		free(text);
		return bad(in, "libtraceevent refuses a format file");
	}
	free(text);
	return 0;
}

static int read_start(struct in *in, struct tep_handle *tep, const char **version)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const unsigned char *p = NULL, *sizes = NULL;
	uint32_t page_size;
	int err;

	if ((err = take(in, sizeof(magic), &p)))
		return err;
	if (memcmp(p, magic, sizeof(magic)))
		return bad(in, "no tracing magic");
	if ((err = take_str(in, version)) || (err = take(in, 2, &sizes)))
		return err;
	in->swap = sizes[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if ((err = take_u32(in, &page_size)))
		return err;
	tep_set_file_bigendian(tep, sizes[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									     : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, sizes[1]);
	tep_set_page_size(tep, (int)page_size);
	return 0;
}

/* header_page (parsed) and header_event (only skipped, as perf does). */
static int read_headers(struct in *in, struct tep_handle *tep, int long_size)
{
	static const char *const names[] = { "header_page", "header_event" };

	for (int i = 0; i < 2; i++) {
		const char *name;
		uint64_t size;
		char *text;
		int err;

		if ((err = take_str(in, &name)))
			return err;
		if (strcmp(name, names[i]))
			return bad(in, i ? "no header_event" : "no header_page");
		if ((err = take_u64(in, &size)) || (err = take_text(in, size, &text)))
			return err;
		if (!i && kernel_text(text, (size_t)size))
			tep_parse_header_page(tep, text, (unsigned long)size, long_size);
		free(text);
	}
	return 0;
}

static int read_events(struct in *in, struct tep_handle *tep)
{
	uint32_t nr_ftrace, nr_sys;
	int err;

	if ((err = take_u32(in, &nr_ftrace)))
		return err;
	for (uint32_t i = 0; i < nr_ftrace; i++)
		if ((err = read_format(in, tep, "ftrace")))
			return err;
	if ((err = take_u32(in, &nr_sys)))
		return err;
	for (uint32_t s = 0; s < nr_sys; s++) {
		const char *sys;
		uint32_t nr;

		if ((err = take_str(in, &sys)) || (err = take_u32(in, &nr)))
			return err;
		for (uint32_t i = 0; i < nr; i++)
			if ((err = read_format(in, tep, sys)))
				return err;
	}
	return 0;
}

/*
 * Keep only the printk_formats lines the kernel writes ("0xaddr : \"fmt\"")
 * with a format of at least two characters inside its quotes.
 * libtraceevent 1.7.1 reads before the start of a shorter one
 * (tep_register_print_string looks two bytes back from its end) and past
 * the end of a line with no ':' (it skips the space after the colon
 * unchecked); the other lines are dropped, in place.
 */
static void keep_kernel_printk(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		size_t len = strcspn(in, "\n");
		const char *colon = memchr(in, ':', len);
		size_t fmt_len = colon ? len - (size_t)(colon + 2 - in) : 0;
		bool nl = in[len] == '\n';	/* not on the text's last line */

		if (colon && (size_t)(colon - in) + 2 <= len && colon[1] == ' ' && fmt_len >= 4 &&
		    colon[2] == '"' && in[len - 1] == '"') {
			memmove(out, in, len);
			out += len;
			/* a newline only where there was one: on the last line
			 * out may have caught up with in, and the byte after it
			 * is the text's terminating NUL (fuzz_tracing) */
			if (nl)
				*out++ = '\n';
		}
		in += len + nl;
	}
	*out = 0;
}

/* kallsyms and printk formats (u32 sizes), saved_cmdlines (u64, 0.6). */
static int read_tail(struct in *in, struct tep_handle *tep, bool cmdlines)
{
	for (int i = 0; i < 3; i++) {
		uint32_t size32 = 0;
		uint64_t size;
		char *text;
		int err;

		if (i == 2 && !cmdlines)
			break;
		if (i < 2 ? (err = take_u32(in, &size32)) : (err = take_u64(in, &size)))
			return err;
		if (i < 2)
			size = size32;
		if (!size)
			continue;
		if ((err = take_text(in, size, &text)))
			return err;
		if (i == 0)
			tep_parse_kallsyms(tep, text);
		else if (i == 1) {
			keep_kernel_printk(text);
			tep_parse_printk_formats(tep, text);
		}
		else
			tep_parse_saved_cmdlines(tep, text);
		free(text);
	}
	return 0;
}

int pk_tracing_data_parse(const void *bytes, size_t len, struct pk_tracing **out)
{
	struct in in = { .p = bytes, .len = len };
	struct pk_tracing *t;
	const char *version;
	int err;

	*out = NULL;
	if (!bytes && len)
		return pk__error(-EINVAL, "read tracing data", "no bytes");
	if (!(t = pk__calloc(1, sizeof(*t))))
		return pk__error(-ENOMEM, "read tracing data", "out of memory");
	if (!(t->tep = tep_alloc())) {
		free(t);
		return pk__error(-ENOMEM, "read tracing data", "out of memory for libtraceevent");
	}
	err = read_start(&in, t->tep, &version);
	if (!err)
		err = read_headers(&in, t->tep, tep_get_long_size(t->tep));
	if (!err)
		err = read_events(&in, t->tep);
	if (!err)
		err = read_tail(&in, t->tep, strcmp(version, "0.6") >= 0);
	if (err) {
		pk_tracing_free(t);
		return err;
	}
	*out = t;
	return 0;
}

void pk_tracing_free(struct pk_tracing *t)
{
	if (!t)
		return;
	tep_free(t->tep);
	free(t->copy);
	free(t);
}

/* The event of a raw sample, or NULL. */
static struct tep_event *event_of(struct pk_tracing *t, const void *raw, size_t size,
				  struct tep_record *rec)
{
	*rec = (struct tep_record){ .data = (void *)raw, .size = (int)size };
	if (size < 2 || size > 1u << 30)
		return NULL;
	return tep_find_event(t->tep, tep_data_type(t->tep, rec));
}

const char *pk_tracing_event_name(struct pk_tracing *t, const void *raw, size_t size)
{
	struct tep_record rec;
	struct tep_event *ev = event_of(t, raw, size, &rec);

	return ev ? ev->name : NULL;
}

int pk_tracing_event_id_name(struct pk_tracing *t, uint64_t id, char *buf, size_t len)
{
	struct tep_event *ev = t && id <= INT32_MAX ? tep_find_event(t->tep, (int)id) : NULL;

	if (!ev)
		return -ENOENT;
	return snprintf(buf, len, "%s:%s", ev->system, ev->name);
}

/* The first field of ev whose bytes (a static field's, or the data a
 * __data_loc/__rel_loc field points at) do not lie within the sample's
 * `size` raw bytes, or NULL.  libtraceevent reads them unchecked. */
static const struct tep_format_field *field_outside(struct tep_handle *tep, struct tep_event *ev,
						    const unsigned char *raw, size_t size)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };

	for (int i = 0; i < 2; i++)
		for (struct tep_format_field *f = lists[i]; f; f = f->next) {
			uint64_t at, len;

			if (f->offset < 0 || f->size < 0 || (uint64_t)f->offset + (uint64_t)f->size > size)
				return f;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			if (f->size != 2 && f->size != 4)
				return f;	/* no loc libtraceevent reads */
			at = tep_read_number(tep, raw + f->offset, f->size);
			len = f->size == 4 ? at >> 16 : 0;
			at &= 0xffff;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				at += (uint64_t)f->offset + (uint64_t)f->size;
			if (at + len > size)
				return f;
		}
	return NULL;
}

/* The sample's bytes copied with NULs after them, so a string field
 * without its own NUL ends there; NULL when out of memory. */
static unsigned char *padded(struct pk_tracing *t, const void *raw, size_t size)
{
	if (t->copy_len < size + 8) {
		unsigned char *c = realloc(t->copy, size + 8);

		if (!c)
			return NULL;
		t->copy = c;
		t->copy_len = size + 8;
	}
	memcpy(t->copy, raw, size);
	memset(t->copy + size, 0, 8);
	return t->copy;
}

int pk_tracing_format(struct pk_tracing *t, const void *raw, size_t size, int cpu, char *buf,
		      size_t len)
{
	struct tep_record rec;
	struct tep_event *ev = event_of(t, raw, size, &rec);
	const struct tep_format_field *f;
	struct trace_seq s;
	int n;

	if (!ev)
		return pk__error(-ENOENT, "format tracepoint data",
				 "no format in the tracing data for this sample's event");
	if ((f = field_outside(t->tep, ev, raw, size)))
		return pk__error(-EINVAL, "format tracepoint data",
				 "the sample's %zu raw bytes do not hold field '%s' of %s:%s as its format "
				 "places it (offset %d, size %d): a damaged sample or format",
				 size, f->name ? f->name : "?", ev->system, ev->name, f->offset, f->size);
	if (!(rec.data = padded(t, raw, size)))
		return pk__error(-ENOMEM, "format tracepoint data", "out of memory");
	rec.cpu = cpu;
	trace_seq_init(&s);
	tep_print_event(t->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.state != TRACE_SEQ__GOOD) {
		trace_seq_destroy(&s);
		return pk__error(-ENOMEM, "format tracepoint data", "out of memory");
	}
	n = (int)s.len;
	if (len)
		snprintf(buf, len, "%s", s.buffer);
	trace_seq_destroy(&s);
	return n;
}
