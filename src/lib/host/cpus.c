/* SPDX-License-Identifier: MIT */
/*
 * cpus.c - CPU lists ("0-3,8", the syntax of sysfs and of perf -C) parsed
 * into sorted arrays, and the online CPUs read from sysfs; also the small
 * int-array helpers the host layer's other lists share.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int pk__host_ints_push(int **arr, size_t *nr, size_t *cap, int v)
{
	if (*nr == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		int *n = pk__realloc(*arr, c * sizeof(*n));

		if (!n)
			return pk__error_nomem("a list of CPU or thread ids");
		*arr = n;
		*cap = c;
	}
	(*arr)[(*nr)++] = v;
	return 0;
}

size_t pk__host_ints_sort_unique(int *a, size_t nr)
{
	size_t k = 0;

	if (!nr)
		return 0;
	qsort(a, nr, sizeof(*a), cmp_int);
	for (size_t i = 0; i < nr; i++)
		if (!k || a[k - 1] != a[i])
			a[k++] = a[i];
	return k;
}

static int bad_list(const char *list, const char *at, const char *why)
{
	pk__error(-EINVAL, "CPU list", "'%s': %s", list, why);
	pk__error_column((int)(at - list) + 1);
	pk__error_hint("%s", "a CPU list is numbers and ranges separated by commas, e.g. 0-3,8");
	return -EINVAL;
}

struct range {
	long lo, hi;
};

static int cmp_range(const void *a, const void *b)
{
	long x = ((const struct range *)a)->lo, y = ((const struct range *)b)->lo;

	return (x > y) - (x < y);
}

/* The CPUs of the ranges, sorted and once each: the ranges are sorted and
 * merged first, so repeated or overlapping big ranges cost nothing more
 * than one (a list of a thousand "0-1000000" would otherwise sort a
 * billion numbers). */
static int expand(struct range *r, size_t nr_ranges, int **cpus, size_t *nr)
{
	size_t k = 0, total = 0, n = 0;
	int *a;

	qsort(r, nr_ranges, sizeof(*r), cmp_range);
	for (size_t i = 0; i < nr_ranges; i++) {
		if (k && r[i].lo <= r[k - 1].hi + 1) {
			if (r[i].hi > r[k - 1].hi)
				r[k - 1].hi = r[i].hi;
		} else {
			r[k++] = r[i];
		}
	}
	for (size_t i = 0; i < k; i++)
		total += (size_t)(r[i].hi - r[i].lo + 1);
	if (!(a = pk__malloc(total * sizeof(*a))))
		return pk__error(-ENOMEM, "CPU list", "out of memory for %zu CPUs", total);
	for (size_t i = 0; i < k; i++)
		for (long c = r[i].lo; c <= r[i].hi; c++)
			a[n++] = (int)c;
	*cpus = a;
	*nr = n;
	return 0;
}

int pk_cpus_parse(const char *list, int **cpus, size_t *nr)
{
	const char *p = list;
	struct range *r = NULL;
	size_t n = 0, cap = 0;
	int err;

	pk__error_clear();
	if (!list || !*list)
		return bad_list(list ? list : "", list ? list : "", "the list is empty");
	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1])) {
				p = end + 1;
				goto bad;
			}
			hi = strtol(end + 1, &end, 10);
		}
		if (hi < lo || hi > 1 << 20) {
			free(r);
			return bad_list(list, p, hi < lo ? "a range runs backwards" : "CPU number too large");
		}
		if (n == cap) {
			struct range *m = pk__reallocarray(r, cap = cap ? cap * 2 : 16, sizeof(*m));

			if (!m) {
				free(r);
				return pk__error_nomem("a CPU list");
			}
			r = m;
		}
		r[n++] = (struct range){ lo, hi };
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	err = expand(r, n, cpus, nr);
	free(r);
	return err;
bad:
	free(r);
	return bad_list(list, p, "expected a CPU number");
}

int pk_cpus_online(int **cpus, size_t *nr)
{
	char path[512], buf[4096];
	int err;

	pk__error_clear();
	if (!pk__sysfs_path(path, sizeof(path), "devices/system/cpu/online"))
		return pk__error(-ENAMETOOLONG, "read the online CPUs",
				 "the sysfs root makes a path longer than %zu bytes", sizeof(path));
	err = pk__read_file(path, buf, sizeof(buf));
	if (err < 0)
		return pk__error(err, "read the online CPUs", "%s: %s", path, strerror(-err));
	return pk_cpus_parse(buf, cpus, nr);
}
