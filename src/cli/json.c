/* SPDX-License-Identifier: MIT */
/*
 * json.c - the CLI's JSON writer: a tiny streaming emitter that tracks
 * nesting so callers never place commas themselves, escapes strings per
 * RFC 8259 (quotes, backslashes and every control character), passes
 * UTF-8 through untouched and writes any byte that is not UTF-8 as
 * \ufffd.  No external library: it is ~150 lines.
 */
#include "cli.h"

#include <inttypes.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->has_items[0] = false;
	j->after_key = false;
}

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Before any value or key: the comma and newline its position needs. */
static void before_item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			fputc(',', j->f);
		indent(j);
	}
	j->has_items[j->depth] = true;
}

static void open_container(struct json *j, char c)
{
	before_item(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	bool had = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
}

void json_begin_object(struct json *j) { open_container(j, '{'); }
void json_end_object(struct json *j) { close_container(j, '}'); }
void json_begin_array(struct json *j) { open_container(j, '['); }
void json_end_array(struct json *j) { close_container(j, ']'); }

void json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default: {
			size_t n = cli_utf8_len(p);

			/* Control characters must be escaped; a byte that is not
			 * UTF-8 cannot be in JSON at all: it becomes U+FFFD. */
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else if (!n)
				fputs("\\ufffd", f);
			else
				fwrite(p, 1, n, f), p += n - 1;
		}
		}
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	before_item(j);
	json_escape(j->f, key);
	fputs(": ", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	before_item(j);
	json_escape(j->f, s);
}

void json_u64(struct json *j, uint64_t v)
{
	before_item(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	before_item(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
	before_item(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before_item(j);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_kv_i64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_i64(j, v);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
