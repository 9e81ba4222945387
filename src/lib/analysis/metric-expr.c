/* SPDX-License-Identifier: MIT */
/*
 * metric-expr.c - named metrics for perfkit stat -M: the table
 * (metrics.def), matching a row to the CPU by its cpuid regex, and the
 * evaluator of a row's expression (numbers, event names, + - * /,
 * parentheses, unary minus and d_ratio(a, b)) over counts the caller looks
 * up.  The evaluator is a recursive descent over the string with a depth
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
#define METRIC(n, g, e, s, u, c, d) { sizeof(struct pk_metric_def), n, g, e, s, u, c, d },
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
};

static int expr(struct parser *ps, double *v);

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n')
		ps->p++;
}

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':';
}

static int expect(struct parser *ps, char c)
{
	skip_space(ps);
	if (*ps->p != c)
		return -EINVAL;
	ps->p++;
	return 0;
}

/* d_ratio(a, b): a / b, 0 when b is 0 (perf's definition). */
static int d_ratio(struct parser *ps, double *v)
{
	double a, b;
	int err;

	if ((err = expect(ps, '(')) < 0 || (err = expr(ps, &a)) < 0 ||
	    (err = expect(ps, ',')) < 0 || (err = expr(ps, &b)) < 0 || (err = expect(ps, ')')) < 0)
		return err;
	*v = b == 0 ? 0 : a / b;
	return 0;
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
	const char *s;
	size_t len;
	int err;

	skip_space(ps);
	if (*ps->p == '(') {
		ps->p++;
		if ((err = expr(ps, v)) < 0)
			return err;
		return expect(ps, ')');
	}
	if (isdigit((unsigned char)*ps->p) || *ps->p == '.')
		return number(ps, v);
	if (!ident_start(*ps->p))
		return -EINVAL;
	s = ps->p;
	while (ident_char(*ps->p))
		ps->p++;
	len = (size_t)(ps->p - s);
	/* "d_ratio" not followed by '(' is an event of that name. */
	if (len == 7 && !strncmp(s, "d_ratio", 7)) {
		skip_space(ps);
		if (*ps->p == '(')
			return d_ratio(ps, v);
	}
	return ps->lookup(ps->arg, s, len, v);
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
		if (op == '/' && r == 0)
			return -EDOM;
		*v = op == '*' ? *v * r : *v / r;
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

int pk_metric_expr_eval(const char *text,
			int (*lookup)(void *arg, const char *name, size_t len, double *value),
			void *arg, double *out)
{
	struct parser ps = { text, 0, lookup, arg };
	double v;
	int err;

	if (!text || !lookup || !out)
		return pk__error(-EINVAL, "a metric expression", "an argument is NULL");
	err = expr(&ps, &v);
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
