/* SPDX-License-Identifier: MIT */
/*
 * metric-expr.c - named metrics for perfkit stat -M: the table
 * (metrics.def), matching a row to the CPU by its cpuid regex, and the
 * evaluator of a row's expression (numbers, event names, + - * /,
 * parentheses, unary minus and d_ratio(a, b)) over counts the caller looks
 * up.  perf's conditional `A if COND else B` (lowest precedence, right
 * to left), its comparisons `a < b` and `a > b` (1 or 0; below + and -,
 * left to right, as perf 6.1's expr.y has them), max(a, b), min(a, b)
 * and literals such as #SMT_on (names
 * starting with '#', answered by the caller's lookup too) are taken; the
 * branch a condition does not take is parsed without looking its names
 * up, so a caller collecting event names sees only the events used.
 * Event names take perf's escapes: a backslash makes the next character
 * part of the name (`topdown\-fe\-bound`, `cmask\=1`), and '@' stands for
 * '/' (`cpu@event\=0xd@` is the event cpu/event=0xd/); the lookup gets the
 * name with both undone.
 * The evaluator is a recursive descent over the string with a depth
 * limit; it takes outside input and is fuzzed (fuzz/fuzz_metric_expr.c).
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const struct pk_metric_def table[] = {
#define METRIC(n, g, e, s, u, c, d, k) { sizeof(struct pk_metric_def), n, g, e, s, u, c, d, k },
#include "metrics.def"
#undef METRIC
};

const struct pk_metric_def *pk_metric_def_get(size_t idx)
{
	return idx < sizeof(table) / sizeof(table[0]) ? &table[idx] : NULL;
}

static unsigned nr_dashes(const char *s)
{
	unsigned n = 0;

	while ((s = strchr(s, '-')))
		n++, s++;
	return n;
}

int pk_metric_def_matches(const struct pk_metric_def *m, const char *cpuid)
{
	bool full_map, full_id;
	regmatch_t pm;
	size_t len;
	regex_t re;
	int rc;

	if (!m || !cpuid)
		return -EINVAL;
	/* perf's rule: a regex naming the stepping (vendor-family-model-
	 * stepping) needs a cpuid that has one; one without it is matched
	 * against the cpuid with its stepping dropped; the match must cover
	 * the whole of that. */
	full_map = nr_dashes(m->cpuid) == 3;
	full_id = nr_dashes(cpuid) == 3;
	if (full_map && !full_id)
		return 0;
	len = !full_map && full_id ? (size_t)(strrchr(cpuid, '-') - cpuid) : strlen(cpuid);
	if (regcomp(&re, m->cpuid, REG_EXTENDED) != 0)
		return -EINVAL;
	rc = regexec(&re, cpuid, 1, &pm, 0) == 0 && pm.rm_so == 0 && (size_t)pm.rm_eo == len;
	regfree(&re);
	return rc;
}

/* The deepest nesting accepted: bounds the recursion on outside input. */
#define MAX_DEPTH 64

struct parser {
	const char *p;
	int depth;
	int (*lookup)(void *arg, const char *name, size_t len, double *value);
	void *arg;
	bool dry;	/* parsing a branch not taken: no lookups, values 0 */
};

static int compare(struct parser *ps, double *v);
static int cond(struct parser *ps, double *v);

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n')
		ps->p++;
}

/* The longest event name, once its escapes are undone. */
#define MAX_NAME 256

static bool ident_start(const char *p)
{
	return isalpha((unsigned char)*p) || *p == '_' || (p[0] == '\\' && p[1]);
}

static bool ident_char(const char *p)
{
	return isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == ':' || *p == '@' ||
	       (p[0] == '\\' && p[1]);
}

/* The name at ps->p (its first character checked by the caller) into
 * buf with perf's escapes undone: its length, or -EINVAL when too long. */
static int ident(struct parser *ps, char *buf)
{
	size_t n = 0;

	while (ident_char(ps->p)) {
		char c = *ps->p++;

		if (c == '\\')
			c = *ps->p++;
		else if (c == '@')
			c = '/';
		if (n == MAX_NAME - 1)
			return -EINVAL;
		buf[n++] = c;
	}
	buf[n] = 0;
	return (int)n;
}

static int expect(struct parser *ps, char c)
{
	skip_space(ps);
	if (*ps->p != c)
		return -EINVAL;
	ps->p++;
	return 0;
}

/* d_ratio(a, b): a / b, 0 when b is 0 (perf's definition); max, min. */
static int function(struct parser *ps, char which, double *v)
{
	double a, b;
	int err;

	if ((err = expect(ps, '(')) < 0 || (err = cond(ps, &a)) < 0 ||
	    (err = expect(ps, ',')) < 0 || (err = cond(ps, &b)) < 0 || (err = expect(ps, ')')) < 0)
		return err;
	if (which == 'd')
		*v = b == 0 ? 0 : a / b;
	else
		*v = (which == 'M') == (a > b) ? a : b;
	return 0;
}

/* Which function a name followed by '(' is: 'd', 'M' (max), 'm' (min) or 0. */
static char function_name(const char *s, size_t len)
{
	if (len == 7 && !strncmp(s, "d_ratio", 7))
		return 'd';
	if (len == 3 && !strncmp(s, "max", 3))
		return 'M';
	return len == 3 && !strncmp(s, "min", 3) ? 'm' : 0;
}

static int number(struct parser *ps, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(ps->p, &end);
	if (end == ps->p || errno == ERANGE || !isfinite(*v))
		return -EINVAL;
	ps->p = end;
	return 0;
}

static int primary(struct parser *ps, double *v)
{
	char name[MAX_NAME + 1];
	size_t len = 0;
	int err;
	char fn;

	skip_space(ps);
	if (*ps->p == '(') {
		ps->p++;
		if ((err = cond(ps, v)) < 0)
			return err;
		return expect(ps, ')');
	}
	if (isdigit((unsigned char)*ps->p) || *ps->p == '.')
		return number(ps, v);
	if (*ps->p == '#')	/* a literal: #SMT_on, #num_cpus, ... */
		name[len++] = *ps->p++;
	if (!ident_start(ps->p))
		return -EINVAL;
	if ((err = ident(ps, name + len)) < 0)
		return err;
	len += (size_t)err;
	/* The conditional's keywords are never event names. */
	if (!strcmp(name, "if") || !strcmp(name, "else"))
		return -EINVAL;
	/* A function's name not followed by '(' is an event of that name. */
	if ((fn = function_name(name, len))) {
		skip_space(ps);
		if (*ps->p == '(')
			return function(ps, fn, v);
	}
	*v = 0;
	return ps->dry ? 0 : ps->lookup(ps->arg, name, len, v);
}

static int unary(struct parser *ps, double *v)
{
	int err;

	if (++ps->depth > MAX_DEPTH)
		return -E2BIG;
	skip_space(ps);
	if (*ps->p == '-') {
		ps->p++;
		if ((err = unary(ps, v)) == 0)
			*v = -*v;
	} else {
		err = primary(ps, v);
	}
	ps->depth--;
	return err;
}

static int term(struct parser *ps, double *v)
{
	double r;
	char op;
	int err;

	if ((err = unary(ps, v)) < 0)
		return err;
	for (;;) {
		skip_space(ps);
		op = *ps->p;
		if (op != '*' && op != '/')
			return 0;
		ps->p++;
		if ((err = unary(ps, &r)) < 0)
			return err;
		if (op == '/' && r == 0 && !ps->dry)
			return -EDOM;
		*v = op == '*' ? *v * r : r == 0 ? 0 : *v / r;
	}
}

static int expr(struct parser *ps, double *v)
{
	double r;
	char op;
	int err;

	if (++ps->depth > MAX_DEPTH)
		return -E2BIG;
	if ((err = term(ps, v)) < 0)
		return err;
	for (;;) {
		skip_space(ps);
		op = *ps->p;
		if (op != '+' && op != '-')
			break;
		ps->p++;
		if ((err = term(ps, &r)) < 0)
			return err;
		*v = op == '+' ? *v + r : *v - r;
	}
	ps->depth--;
	return 0;
}

/* a < b, a > b: 1 when it holds, else 0; lower than + and -. */
static int compare(struct parser *ps, double *v)
{
	double r;
	char op;
	int err;

	if ((err = expr(ps, v)) < 0)
		return err;
	for (;;) {
		skip_space(ps);
		op = *ps->p;
		if (op != '<' && op != '>')
			return 0;
		ps->p++;
		if ((err = expr(ps, &r)) < 0)
			return err;
		*v = op == '<' ? *v < r : *v > r;
	}
}

/* Whether the keyword `kw` comes next (a whole word); consumes it if so. */
static bool keyword(struct parser *ps, const char *kw)
{
	size_t n = strlen(kw);

	skip_space(ps);
	if (strncmp(ps->p, kw, n) || ident_char(ps->p + n))
		return false;
	ps->p += n;
	return true;
}

/*
 * A if C else B.  A comes before the condition that decides whether it is
 * used, so it is first parsed dry; then the branch taken is parsed for
 * real (A again from its start) and the other one dry.
 */
static int cond(struct parser *ps, double *v)
{
	const char *start = ps->p;
	bool dry = ps->dry;
	double c, unused;
	int err;

	if (++ps->depth > MAX_DEPTH)
		return -E2BIG;
	ps->dry = true;
	err = compare(ps, v);
	ps->dry = dry;
	if (err < 0)
		return err;
	if (!keyword(ps, "if")) {
		ps->p = start;
		err = compare(ps, v);
	} else if ((err = compare(ps, &c)) == 0 && !keyword(ps, "else")) {
		err = -EINVAL;
	} else if (err == 0) {
		ps->dry = dry || c;	/* B is the branch when c is 0 */
		err = cond(ps, c ? &unused : v);
		ps->dry = dry;
		if (err == 0 && c) {
			const char *end = ps->p;

			ps->p = start;
			err = compare(ps, v);
			ps->p = end;
		}
	}
	ps->depth--;
	return err;
}

int pk_metric_expr_eval(const char *text,
			int (*lookup)(void *arg, const char *name, size_t len, double *value),
			void *arg, double *out)
{
	struct parser ps = { text, 0, lookup, arg, false };
	double v;
	int err;

	if (!text || !lookup || !out)
		return pk__error(-EINVAL, "a metric expression", "an argument is NULL");
	err = cond(&ps, &v);
	if (err == 0) {
		skip_space(&ps);
		if (*ps.p)
			err = -EINVAL;
	}
	if (err < 0) {
		if (err == -EINVAL || err == -E2BIG)
			pk__error(err, "a metric expression", "%s at offset %zu",
				  err == -E2BIG ? "nested too deep" : "cannot parse",
				  (size_t)(ps.p - text));
		return err;
	}
	*out = v;
	return 0;
}
