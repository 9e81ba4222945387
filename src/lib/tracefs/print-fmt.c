/* SPDX-License-Identifier: MIT */
/*
 * print-fmt.c - the sanity check a format file's "field:" lines and its
 * "print fmt:" line pass before libtraceevent parses it.
 *
 * libtraceevent 1.7.1 builds an expression tree from the print fmt's
 * arguments and follows NULL pointers on some malformed ones: an argument
 * REC->x where x is not a field of the event (it looks the field up for
 * __print_flags and writes through the result), or brackets that do not
 * pair (`"",i?q:e]`).  Both were found by fuzzing a recording's tracing
 * data (fuzz_tracing, fuzz_tracefs).  It also reads a NULL token when a
 * field's type ends the text right after a '[' ("field:char x[" and nothing
 * more: a format cut short; fuzz_tracing again).  The kernel writes none of
 * these: every field line it writes ends its declaration with a ';'.  A
 * format file that has them is damaged and is refused here with the reason.
 */
#include "tracefs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 256
#define MAX_DEPTH 64
#define NAME_MAX_LEN 64

struct names {
	char name[MAX_FIELDS][NAME_MAX_LEN];
	size_t nr;
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Past `word` and then any blanks at p, or NULL when p does not start
 * with it. */
static const char *past_word(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - p) < n || memcmp(p, word, n))
		return NULL;
	for (p += n; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	return p;
}

/*
 * libtraceevent reads a format file as tokens, so "field :" and "print
 * fmt :" (blanks anywhere between the words) are its "field:" and "print
 * fmt:" too (fuzz_tracing).  field_tag: past the ':' of the first "field"
 * tag between p and end, else NULL.  print_fmt_tag: where the first "print
 * fmt:" tag starts (a name's "print" not counted), *after past its ':';
 * NULL when there is none.
 */
static const char *field_tag(const char *p, const char *end)
{
	for (const char *f = p; (f = memmem(f, (size_t)(end - f), "field", 5)); f++) {
		const char *q = past_word(f, end, "field");

		if (q && q < end && *q == ':')
			return q + 1;
	}
	return NULL;
}

static const char *print_fmt_tag(const char *text, const char *end, const char **after)
{
	for (const char *f = text; (f = memmem(f, (size_t)(end - f), "print", 5)); f++) {
		const char *q = past_word(f, end, "print");

		if (f > text && ident_char(f[-1]))
			continue;
		if (q && (q = past_word(q, end, "fmt")) && q < end && *q == ':') {
			*after = q + 1;
			return f;
		}
	}
	return NULL;
}

/*
 * A "field:TYPE NAME[N];" line's NAME: the identifier that ends the text
 * before the ';', once a trailing "[...]" is taken off.  Empty when the
 * line has no ';' or no identifier there.
 */
static void field_name(const char *p, const char *end, char *out)
{
	const char *semi = memchr(p, ';', (size_t)(end - p)), *e, *s;

	out[0] = 0;
	if (!semi)
		return;
	e = semi;
	while (e > p && e[-1] == ' ')
		e--;
	if (e > p && e[-1] == ']') {
		while (e > p && e[-1] != '[')
			e--;
		if (e > p)
			e--;
	}
	for (s = e; s > p && ident_char(s[-1]); s--)
		;
	if (e > s && (size_t)(e - s) < NAME_MAX_LEN) {
		memcpy(out, s, (size_t)(e - s));
		out[e - s] = 0;
	}
}

/* Every "field:" line's name, up to the "print fmt:" line. */
static void collect_fields(const char *text, const char *end, struct names *n)
{
	const char *p = text, *nl;

	n->nr = 0;
	for (; p < end; p = nl + 1) {
		const char *f;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		f = field_tag(p, nl);
		if (f && n->nr < MAX_FIELDS) {
			field_name(f, nl, n->name[n->nr]);
			if (n->name[n->nr][0])
				n->nr++;
		}
	}
}

static bool has_field(const struct names *n, const char *s, size_t len)
{
	for (size_t i = 0; i < n->nr; i++)
		if (strlen(n->name[i]) == len && !memcmp(n->name[i], s, len))
			return true;
	return false;
}

/* Past a quoted string starting at *p (on its '"'); false when it does not
 * end before `end`. */
static bool skip_string(const char **p, const char *end)
{
	const char *s = *p + 1;

	for (; s < end && *s != '"'; s++)
		if (*s == '\\' && s + 1 < end)
			s++;
	if (s >= end)
		return false;
	*p = s + 1;
	return true;
}

/* Why a text is refused, in `why`; -EINVAL. */
static int refuse(char *why, size_t why_len, const char *reason)
{
	snprintf(why, why_len, "%s", reason);
	return -EINVAL;
}

/* A bracket out of place: "a ')' in its arguments closes nothing". */
static int refuse_bracket(char *why, size_t why_len, char c, const char *what)
{
	snprintf(why, why_len, "a '%c' in its arguments %s", c, what);
	return -EINVAL;
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	return p;
}

/* Past the bracketed group starting at p (on its '('), strings skipped;
 * NULL when it does not close before `end`. */
static const char *skip_group(const char *p, const char *end)
{
	size_t depth = 0;

	while (p < end) {
		if (*p == '"') {
			if (!skip_string(&p, end))
				return NULL;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			return p + 1;
		p++;
	}
	return NULL;
}

/* Whether p starts a token libtraceevent 1.7.1 takes after a conditional's
 * last operand: a binary operator ('=' only as "=="; '-' not as "->"),
 * another '?' or ':', a closing bracket, a ',', or the end. */
static bool after_operand_ok(const char *p, const char *end)
{
	if (p == end)
		return true;
	if (*p == '=')
		return end - p >= 2 && p[1] == '=';
	if (*p == '-')
		return !(end - p >= 2 && p[1] == '>');
	return strchr("+*/%&|^<>!~?:),]}", *p) != NULL;	/* the bracket check pairs ] } */
}

/*
 * Whether the operand after a conditional's ':' (p just past it) is one
 * libtraceevent 1.7.1 can take: it crashes when that operand (unary
 * operators, casts, then a name, REC->name, a number, a string or a
 * character or bracketed group; names in a row count as one, as in
 * "unsigned int") is
 * followed by anything but what after_operand_ok allows: '->', '.', '[',
 * ';', '{', '=' ("a ? b : REC->x[0]", "a ? b : (int)x->y", "a ? b : d_t
 * x->y", "a ? b : 1.5", "a ? b : 32;"; fuzz_tracing).  The kernel's
 * formats put such an operand in brackets.  A name followed by '(' is a
 * call: fine.
 */
static bool colon_operand_ok(const char *p, const char *end)
{
	p = skip_spaces(p, end);
	while (p < end && strchr("-!~*&+", *p) && !(end - p >= 2 && !memcmp(p, "->", 2)))
		p = skip_spaces(p + 1, end);	/* unary operators */
	while (p < end && *p == '(') {	/* casts, or the operand's own group */
		const char *q = skip_group(p, end);

		if (!q)
			return true;	/* the bracket check says why */
		p = skip_spaces(q, end);
		if (p == end || (!ident_char(*p) && *p != '"' && *p != '('))
			return after_operand_ok(p, end);
	}
	if (p < end && *p == '"') {
		if (!skip_string(&p, end))
			return true;
	} else if (p < end && *p == '\'') {	/* a character: 'S' */
		for (p++; p < end && *p != '\''; p++)
			if (*p == '\\')
				p++;
		if (p >= end)
			return true;
		p++;
	} else {	/* names in a row are one to libtraceevent: "d_t x" */
		while (p < end && ident_char(*p)) {
			if (end - p >= 5 && !memcmp(p, "REC->", 5))
				p += 5;
			while (p < end && ident_char(*p))
				p++;
			p = skip_spaces(p, end);
		}
		if (p < end && *p == '(')
			return true;	/* a call */
	}
	return after_operand_ok(skip_spaces(p, end), end);
}

/*
 * Whether what follows a '/' or '%' in the arguments (p just past it) is a
 * divisor libtraceevent 1.7.1 can take: it folds a division of names and
 * numbers while parsing and stops on SIGFPE when the divisor comes to 0
 * ("a / b", "x / (y)", "1 % 0"; fuzz_tracing).  The kernel divides only by
 * a non-zero number ("/ 250", "/ 1000L", "% 64") or a sizeof ("/
 * sizeof(u64)"), so nothing else is taken.  A number with a leading 0 is
 * octal to libtraceevent's strtoull: "% 008" divides by 0 (fuzz_tracing).
 */
static bool divisor_ok(const char *p, const char *end)
{
	bool nonzero = false;

	p = skip_spaces(p, end);
	if (end - p >= 6 && !memcmp(p, "sizeof", 6)) {
		p = skip_spaces(p + 6, end);
		return p < end && *p == '(';
	}
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		for (p += 2; p < end && strchr("0123456789abcdefABCDEF", *p); p++)
			nonzero |= *p != '0';
	else if (p < end && *p == '0')	/* octal, as strtoull reads it: "008" is 0 */
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (*p > '7')
				return false;
			nonzero |= *p != '0';
		}
	else
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			nonzero |= *p != '0';
	while (p < end && strchr("uUlL", *p))
		p++;
	return nonzero && (p == end || !ident_char(*p));
}

/* The arguments after the quoted format: strings closed, brackets paired,
 * every REC->name a field.  A string may hold newlines, as the kernel
 * writes them. */
static int check_args(const char *p, const char *end, const struct names *n, char *why,
		      size_t why_len)
{
	const char *start = p;
	char stack[MAX_DEPTH];
	size_t depth = 0;

	while (p < end) {
		char c = *p;

		if (c == '"') {
			if (!skip_string(&p, end))
				return refuse(why, why_len, "a string in its arguments is not closed");
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (depth == MAX_DEPTH)
				return refuse(why, why_len, "its arguments nest too deep");
			stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth || stack[--depth] != c)
				return refuse_bracket(why, why_len, c, "closes nothing");
		} else if ((c == '/' || c == '%') && !divisor_ok(p + 1, end)) {
			return refuse(why, why_len, "a '/' or '%' in its arguments divides by "
				      "something other than a non-zero number or a sizeof");
		} else if (c == ':' && !colon_operand_ok(p + 1, end)) {
			return refuse(why, why_len, "the operand after a ':' in its arguments is "
				      "followed by what libtraceevent cannot take (such as '->', '[' or ';') "
				      "outside brackets");
		} else if (c == 'R' && (size_t)(end - p) >= 5 && !memcmp(p, "REC->", 5) &&
			   (p == start || !ident_char(p[-1]))) {
			const char *s = p + 5, *e = s;

			while (e < end && ident_char(*e))
				e++;
			if (!has_field(n, s, (size_t)(e - s))) {
				snprintf(why, why_len, "it prints REC->%.*s, which is not a field",
					 (int)(e - s), s);
				return -EINVAL;
			}
			p = e;
			continue;
		}
		p++;
	}
	if (depth)
		return refuse_bracket(why, why_len, stack[depth - 1], "is never closed");
	return 0;
}

/* Every "field:" line before `end` declares its field up to a ';' on the
 * same line. */
static int check_field_lines(const char *text, const char *end, char *why, size_t why_len)
{
	for (const char *p = text, *nl; p < end; p = nl + 1) {
		const char *f;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		f = field_tag(p, nl);
		if (f && !memchr(f, ';', (size_t)(nl - f)))
			return refuse(why, why_len, "a field line has no ';' after its declaration");
	}
	return 0;
}

int pk__tracefs_print_fmt_check(const char *text, size_t len, char *why, size_t why_len)
{
	const char *end = text + len, *p = NULL, *tag = print_fmt_tag(text, end, &p);
	struct names *n;
	int err;

	if ((err = check_field_lines(text, tag ? tag : end, why, why_len)))
		return err;
	if (!tag)
		return 0;	/* nothing for libtraceevent to build */
	while (p < end && *p == ' ')
		p++;
	/* To the end of the text: the kernel writes a format string's
	 * newlines as they are (ext4_fc_stats, ext4_fsmap_*). */
	while (end > p && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\0'))
		end--;
	if (p == end)
		return 0;
	if (*p != '"' || !skip_string(&p, end))
		return refuse(why, why_len, "its print fmt does not start with a closed quoted format");
	n = pk__malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	collect_fields(text, tag, n);
	err = check_args(p, end, n, why, why_len);
	free(n);
	if (err == -EINVAL) {	/* say where: "its print fmt: a ')' in ..." */
		char reason[128];

		snprintf(reason, sizeof(reason), "%s", why);
		snprintf(why, why_len, "its print fmt: %s", reason);
	}
	return err;
}
