/* SPDX-License-Identifier: MIT */
/*
 * error.c - the per-thread error record behind pk_last_error(): what was
 * attempted, why it failed, how to fix it, and where in a string.  Every
 * failing path in the library fills it through pk__error() and friends.
 */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct error_store {
	struct pk_error pub;
	char what[256];
	char why[768];
	char hint[768];
};

static _Thread_local struct error_store err_store = {
	.pub = { .what = "", .why = "", .hint = "" },
};

static void vformat(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);

	/* Mark a cut message so nobody mistakes it for the whole story. */
	if (n >= (int)len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

int pk__error(int err, const char *what, const char *why_fmt, ...)
{
	struct error_store *s = &err_store;
	va_list ap;

	snprintf(s->what, sizeof(s->what), "%s", what ? what : "");
	va_start(ap, why_fmt);
	vformat(s->why, sizeof(s->why), why_fmt, ap);
	va_end(ap);
	s->hint[0] = '\0';
	s->pub.code = err;
	s->pub.column = 0;
	s->pub.what = s->what;
	s->pub.why = s->why;
	s->pub.hint = s->hint;
	return err;
}

int pk__error_nomem(const char *what_fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, what_fmt);
	vformat(what, sizeof(what), what_fmt, ap);
	va_end(ap);
	return pk__error(-ENOMEM, "allocate memory", "out of memory for %s", what);
}

void pk__error_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(err_store.hint, sizeof(err_store.hint), fmt, ap);
	va_end(ap);
	err_store.pub.hint = err_store.hint;
}

void pk__error_column(int column)
{
	err_store.pub.column = column;
}

void pk__error_clear(void)
{
	err_store.what[0] = err_store.why[0] = err_store.hint[0] = '\0';
	err_store.pub.code = 0;
	err_store.pub.column = 0;
	err_store.pub.what = err_store.what;
	err_store.pub.why = err_store.why;
	err_store.pub.hint = err_store.hint;
}

const struct pk_error *pk_last_error(void)
{
	return &err_store.pub;
}

int pk_error_format(const struct pk_error *e, char *buf, size_t len)
{
	if (!e)
		e = pk_last_error();
	if (e->hint && e->hint[0])
		return snprintf(buf, len, "%s: %s\n  hint: %s", e->what, e->why, e->hint);
	return snprintf(buf, len, "%s: %s", e->what, e->why);
}
