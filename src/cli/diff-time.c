/* SPDX-License-Identifier: MIT */
/*
 * diff-time.c - perf diff 6.1's --time: a time string (perf's
 * util/time-utils.c forms: `START,END` in seconds with up to nine
 * decimals, several such ranges separated by spaces, or percentages of
 * the file's first-to-last sample span: `10%/2`, `0%-10%,30%-40%`, `50%`)
 * parsed into ranges for one file, `A:B` giving each file its own string,
 * and the test that keeps or drops a sample by its time.
 */
#include "diff.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSEC_PER_SEC 1000000000ULL

/* perf's parse_nsec_time: SEC[.NSEC], the fraction at most nine digits. */
static int parse_nsec(const char *s, size_t len, uint64_t *out)
{
	uint64_t sec = 0, nsec = 0;
	size_t i = 0, digits = 0;

	while (len && isspace((unsigned char)*s))	/* strtoull's leading spaces */
		s++, len--;

	for (; i < len && isdigit((unsigned char)s[i]); i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]) && digits < 9; i++, digits++)
			nsec = nsec * 10 + (uint64_t)(s[i] - '0');
		for (; digits < 9; digits++)
			nsec *= 10;
	}
	if (i != len)
		return -EINVAL;
	*out = sec * NSEC_PER_SEC + nsec;
	return 0;
}

/* perf_time__parse_str: START,END, either side empty for open. */
static int parse_range(const char *s, size_t len, struct diff_time_range *r)
{
	const char *comma = memchr(s, ',', len);
	size_t slen = comma ? (size_t)(comma - s) : len;

	*r = (struct diff_time_range){ 0, 0 };
	if ((slen && parse_nsec(s, slen, &r->start) < 0) ||
	    (comma && comma + 1 < s + len && parse_nsec(comma + 1, (size_t)(s + len - comma - 1), &r->end) < 0))
		return -EINVAL;
	return r->end && r->end < r->start ? -EINVAL : 0;
}

/* perf_time__parse_strs: as many ranges as commas, split at the space
 * after each range but the last; they must not overlap. */
static int parse_ranges(const char *s, struct diff_time *t)
{
	size_t num = 0;
	const char *p = s;

	for (const char *c = s; *c; c++)
		num += *c == ',';
	if (!num)
		return -EINVAL;
	for (size_t i = 0; i + 1 < num; i++) {
		const char *arg = p, *q = strchr(p, ',') + 1;

		while (isspace((unsigned char)*q))
			q++;
		for (; *q && !isspace((unsigned char)*q); q++)
			if (*q == ',')
				return -EINVAL;
		if (parse_range(arg, (size_t)(q - arg), &t->r[t->nr++]) < 0)
			return -EINVAL;
		p = *q ? q + 1 : q;
	}
	if (parse_range(p, strlen(p), &t->r[t->nr++]) < 0)
		return -EINVAL;
	for (size_t i = 0; i + 1 < t->nr; i++)
		if (t->r[i].end >= t->r[i + 1].start)
			return -EINVAL;
	return 0;
}

/* perf's parse_percent: a number then '%' (what follows the '%' unread, as perf). */
static int parse_percent(const char *s, size_t len, double *pcnt)
{
	const char *pc = memchr(s, '%', len);
	char buf[64], *end;

	if (!pc || (size_t)(pc - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, (size_t)(pc - s));
	buf[pc - s] = '\0';
	*pcnt = strtod(buf, &end) / 100.0;
	return *end ? -EINVAL : 0;
}

/* perf's set_percent_time: a share of first..last, the end one short of
 * the next slice's start unless it is the last sample's time. */
static int set_percent(struct diff_time_range *r, double from, double to, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -EINVAL;
	r->start = first + (uint64_t)round(from * (double)total);
	r->end = first + (uint64_t)round(to * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* One piece: `P%/N` (the Nth slice of P%) or `A%-B%`. */
static int parse_percent_piece(const char *s, size_t len, bool slash, struct diff_time_range *r, uint64_t first,
			       uint64_t last)
{
	const char *sep = memchr(s, slash ? '/' : '-', len);
	double a, b;
	char num[32], *end;
	long n;

	if (!sep)
		return -EINVAL;
	if (!slash) {
		if (parse_percent(s, (size_t)(sep - s), &a) < 0 ||
		    parse_percent(sep + 1, (size_t)(s + len - sep - 1), &b) < 0)
			return -EINVAL;
		return set_percent(r, a, b, first, last);
	}
	if (parse_percent(s, (size_t)(sep - s), &a) < 0 || (size_t)(s + len - sep - 1) >= sizeof(num))
		return -EINVAL;
	memcpy(num, sep + 1, (size_t)(s + len - sep - 1));
	num[s + len - sep - 1] = '\0';
	n = strtol(num, &end, 10);
	if (*end || a <= 0.0)
		return -EINVAL;
	return set_percent(r, a * (double)(n - 1), a * (double)n, first, last);
}

/* perf_time__percent_parse_str: comma-separated slash or dash pieces, or one `P%`. */
static int parse_percents(const char *s, struct diff_time *t, uint64_t first, uint64_t last)
{
	bool slash = strchr(s, '/'), dash = strchr(s, '-');

	if (!slash && !dash) {	/* `P%`, its '%' last: perf's `P%/1` */
		double pcnt;

		if (strchr(s, '%')[1] || parse_percent(s, strlen(s), &pcnt) < 0 || pcnt <= 0.0)
			return -EINVAL;
		return set_percent(&t->r[t->nr++], 0.0, pcnt, first, last);
	}
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, ",");

		if (parse_percent_piece(p, len, slash, &t->r[t->nr++], first, last) < 0)
			return -EINVAL;
		p += len + (p[len] == ',');
	}
	return 0;
}

int diff_time_parse(const char *s, uint64_t first, uint64_t last, struct diff_time *t)
{
	size_t size = 1;
	int err;

	for (const char *c = s; *c; c++)
		size += *c == ',';
	t->nr = 0;
	if (!(t->r = calloc(size + 1, sizeof(*t->r))))
		return -ENOMEM;
	if (!strchr(s, '%'))
		err = parse_ranges(s, t);
	else if (!first && !last)
		err = -ENODATA;
	else
		err = parse_percents(s, t, first, last);
	if (err < 0) {
		free(t->r);
		*t = (struct diff_time){ 0 };
	}
	return err;
}

bool diff_time_skip(const struct diff_time *t, uint64_t time)
{
	if (!t->nr || !time)
		return false;
	if (t->nr == 1)
		return (t->r[0].start && time < t->r[0].start) || (t->r[0].end && time > t->r[0].end);
	for (size_t i = 0; i < t->nr; i++)
		if (time >= t->r[i].start && (time <= t->r[i].end || !t->r[i].end))
			return false;
	return true;
}

const char *diff_time_part(const char *s, size_t file, char *buf, size_t len)
{
	const char *p = s;

	if (!strchr(s, ':'))
		return s;	/* one string for every file */
	for (size_t i = 0; i < file && p; i++)
		p = (p = strchr(p, ':')) ? p + 1 : NULL;
	if (!p || !*p || *p == ':' || strcspn(p, ":") >= len)
		return NULL;
	memcpy(buf, p, strcspn(p, ":"));
	buf[strcspn(p, ":")] = '\0';
	return buf;
}
