/* SPDX-License-Identifier: MIT */
/*
 * format.c - a PMU's format/ terms as bits: parsing format text
 * ("config:0-7,32-35"), packing a term's value over the format's (possibly
 * scattered) bit ranges the way the kernel gathers them, and encoding a
 * named term through a scanned PMU's formats with an error that lists the
 * terms the PMU does have.  Pure functions over text and numbers; the sysfs
 * scan that feeds them is in pmu.c.
 */
#include "pmu.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- format text and bit packing ------------------------------------------ */

static const char *const field_names[] = { "config", "config1", "config2", "config3" };

static uint64_t bit_range(unsigned int lo, unsigned int hi)
{
	uint64_t ones = ~0ULL >> (63 - (hi - lo));

	return ones << lo;
}

static int parse_bit(const char **p, unsigned int *bit)
{
	unsigned long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 63)
			return -ERANGE;
		s++;
	}
	*bit = (unsigned int)v;
	*p = s;
	return 0;
}

/* The grammar and results are in pmu.h; pure, it never touches the record. */
int pk__pmu_format_scan(const char *text, int *field, uint64_t *mask, const char **why)
{
	const char *colon = strchr(text, ':');
	const char *p;
	uint64_t m = 0;
	int f = -1;

	for (size_t i = 0; colon && i < sizeof(field_names) / sizeof(field_names[0]); i++) {
		if (strlen(field_names[i]) == (size_t)(colon - text) &&
		    !memcmp(text, field_names[i], (size_t)(colon - text)))
			f = (int)i;
	}
	if (f < 0) {
		*why = "expected config, config1, config2 or config3 followed by ':'";
		return 1;
	}
	p = colon + 1;
	for (;;) {
		unsigned int lo, hi;
		int err = parse_bit(&p, &lo);

		if (err) {
			*why = err == -ERANGE ? "bit numbers go from 0 to 63" : "expected a bit number";
			return (int)(p - text) + 1;
		}
		hi = lo;
		if (*p == '-') {
			const char *start = ++p;

			err = parse_bit(&p, &hi);
			if (err || hi < lo) {
				*why = err == -EINVAL ? "expected the range's last bit number" :
				       err == -ERANGE ? "bit numbers go from 0 to 63" :
						      "a range's last bit is below its first";
				return (int)(start - text) + 1;
			}
		}
		m |= bit_range(lo, hi);
		if (*p != ',')
			break;
		p++;
	}
	/* A trailing newline or blank is how sysfs prints; anything else is not. */
	while (isspace((unsigned char)*p))
		p++;
	if (*p) {
		*why = "expected ',' or the end of the format";
		return (int)(p - text) + 1;
	}
	*field = f;
	*mask = m;
	return 0;
}

int pk__pmu_parse_format(const char *text, int *field, uint64_t *mask)
{
	const char *why = "";
	int column;

	if (!text)
		return pk__error(-EINVAL, "parse PMU format", "no format text");
	column = pk__pmu_format_scan(text, field, mask, &why);
	if (!column)
		return 0;
	pk__error(-EINVAL, "parse PMU format", "'%s' is not a format: %s", text, why);
	pk__error_hint("a format looks like config:0-7 or config1:1,6-10,44");
	pk__error_column(column);
	return -EINVAL;
}

int pk__pmu_pack(uint64_t mask, uint64_t value, uint64_t *field)
{
	uint64_t packed = 0;
	uint64_t rest = value;

	/* The kernel gathers a term's bits from the mask's set bits, low to high. */
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (rest & 1)
			packed |= 1ULL << bit;
		rest >>= 1;
	}
	if (rest)
		return -ERANGE;
	*field = (*field & ~mask) | packed;
	return 0;
}

static uint64_t mask_max(uint64_t mask)
{
	int nbits = __builtin_popcountll(mask);

	return nbits == 64 ? UINT64_MAX : (1ULL << nbits) - 1;
}

/* Name every term in the hint so a typo is one glance away from its fix. */
static void hint_terms(const struct pk_pmu *pmu)
{
	char list[512];
	size_t used = 0;

	size_t nr = pk_pmu_nr_formats(pmu);
	const char *name = pk_pmu_name(pmu);

	list[0] = '\0';
	for (size_t i = 0; i < nr && used < sizeof(list); i++) {
		int n = snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
				 pk_pmu_format(pmu, i)->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (nr)
		pk__error_hint("the terms of %s are: %s", name, list);
	else
		pk__error_hint("%s has no format/ terms: use one of its events instead", name);
}

int pk_pmu_encode(const struct pk_pmu *pmu, const char *term, uint64_t value, uint64_t config[4])
{
	const struct pk_pmu_format *f;
	char what[256];

	if (!pmu || !term || !config)
		return pk__error(-EINVAL, "encode a PMU term", "no PMU, term or config given");
	snprintf(what, sizeof(what), "encode %s/%s=%#llx/", pk_pmu_name(pmu), term,
		 (unsigned long long)value);
	f = pk_pmu_find_format(pmu, term);
	if (!f) {
		pk__error(-ENOENT, what, "PMU %s has no format term '%s'", pk_pmu_name(pmu),
			  term);
		hint_terms(pmu);
		return -ENOENT;
	}
	if (pk__pmu_pack(f->mask, value, &config[f->field]) == -ERANGE) {
		uint64_t max = mask_max(f->mask);

		pk__error(-ERANGE, what, "%#llx does not fit in %s, which is %s (%d bits)",
			  (unsigned long long)value, term, f->spec, __builtin_popcountll(f->mask));
		pk__error_hint("the largest value %s takes is %#llx (%llu)", term,
			       (unsigned long long)max, (unsigned long long)max);
		return -ERANGE;
	}
	return 0;
}
