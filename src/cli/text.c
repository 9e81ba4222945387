/* SPDX-License-Identifier: MIT */
/*
 * text.c - what the CLI does with text that came from outside: numbers
 * from options through the library's checked parser with a message that
 * names the option, user strings echoed in messages with their control and
 * escape bytes shown as \xNN (so an event string or a file name cannot
 * drive the terminal), UTF-8 validation shared with the JSON writer, and
 * the check that an output stream really reached its file.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cli_num_u64(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max,
		uint64_t *out)
{
	if (pk_num_parse_u64(arg, min, max, out) == 0)
		return 0;
	cli_usage(cmd, "%s: %s", opt, pk_last_error()->why);
	return -1;
}

int cli_num_i64(const char *cmd, const char *opt, const char *arg, int64_t min, int64_t max,
		int64_t *out)
{
	if (pk_num_parse_i64(arg, min, max, out) == 0)
		return 0;
	cli_usage(cmd, "%s: %s", opt, pk_last_error()->why);
	return -1;
}

int cli_num_seconds(const char *cmd, const char *opt, const char *arg, double min, double max,
		    double *out)
{
	if (pk_num_parse_seconds(arg, min, max, out) == 0)
		return 0;
	cli_usage(cmd, "%s: %s", opt, pk_last_error()->why);
	return -1;
}

size_t cli_utf8_len(const unsigned char *p)
{
	size_t n;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Bytes a terminal acts on: C0 controls, DEL, and the C1 controls
 * (U+0080..U+009F, two bytes in UTF-8), of which U+009B is a CSI. */
static size_t safe_len(const unsigned char *p)
{
	size_t n = cli_utf8_len(p);

	if (n == 1 && (p[0] < 0x20 || p[0] == 0x7f))
		return 0;
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0;
	return n;
}

void cli_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = safe_len(p);

		if (n && p + n <= end) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\x%02x", *p++);
		}
	}
}

size_t cli_escaped_width(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t w = 0;

	while (p < end) {
		size_t n = safe_len(p);

		if (n && p + n <= end) {
			w++;	/* one column per character, as near as a terminal gets */
			p += n;
		} else {
			w += 4;
			p++;
		}
	}
	return w;
}

void cli_vmessage(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small) && (buf = malloc((size_t)n + 1)))
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
	if (!buf)
		buf = small, n = (int)strlen(small);
	/* Lines stay lines; everything else that could steer the terminal is shown. */
	for (const char *p = buf, *nl; p < buf + n; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + n - p));
		if (!nl)
			nl = buf + n;
		cli_escape(f, p, (size_t)(nl - p));
		if (nl < buf + n)
			fputc('\n', f);
	}
	if (buf != small)
		free(buf);
}

void cli_message(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage(f, fmt, ap);
	va_end(ap);
}

int cli_output_check(const char *cmd, FILE *f, const char *name)
{
	int failed = ferror(f), err = 0;

	errno = 0;
	if (fflush(f) != 0) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return 0;
	/* A failure during an earlier implicit flush leaves no errno: ask the
	 * file again with nothing buffered, which gives the cause. */
	if (!err && fileno(f) >= 0) {
		clearerr(f);
		if (fputc('\n', f) == EOF || fflush(f) != 0)
			err = errno;
	}
	if (f != stderr)
		cli_message(stderr, "perfkit %s: cannot write %s: %s\n", cmd, name,
			    err ? strerror(err) : "a write failed");
	return -1;
}

void cli_words_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

int cli_words(const char *cmd, const char *arg, char ***out)
{
	size_t n = 1, k = 0;
	char **list;

	for (const char *p = arg; *p; p++)
		n += *p == ',';
	if (!(list = calloc(n + 1, sizeof(*list))))
		return cli_usage(cmd, "out of memory");
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");

		if (len && !(list[k++] = strndup(p, len))) {
			cli_words_free(list);
			return cli_usage(cmd, "out of memory");
		}
		p += len;
		if (!*p)
			break;
	}
	cli_words_free(*out);
	*out = list;
	return 0;
}
