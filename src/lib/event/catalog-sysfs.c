/* SPDX-License-Identifier: MIT */
/*
 * catalog-sysfs.c - the catalogue's kernel-described sources: every sysfs
 * PMU's events/ aliases and its raw format terms, and every tracepoint under
 * tracefs with its format fields as attributes (read on first use, since the
 * format files are the slowest thing the catalogue touches).
 */
#include "catalog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- sysfs PMUs --------------------------------------------------------- */

/* The config an alias selects: each term packed through the PMU's format;
 * terms the format does not know (config=, period=) are taken as written. */
static uint64_t alias_config(const struct pk_pmu *pmu, const char *terms)
{
	uint64_t config[4] = { 0 };
	char term[64];

	for (const char *p = terms; p && *p;) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);
		size_t tl = eq ? (size_t)(eq - p) : n;
		uint64_t val = eq ? strtoull(eq + 1, NULL, 0) : 1;

		if (tl < sizeof(term)) {
			memcpy(term, p, tl);
			term[tl] = '\0';
			if (!strcmp(term, "config"))
				config[0] = val;
			else
				pk_pmu_encode(pmu, term, val, config);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return config[0];
}

static int add_alias(struct pk_catalog *cat, const struct pk_pmu *pmu, const struct pk_pmu_alias *al)
{
	const char *pn = pk_pmu_name(pmu);
	char name[256], desc[512];
	struct pk_attr_info *a;
	struct cat_event *e;
	size_t n;
	int len;

	snprintf(name, sizeof(name), "%s/%s/", pn, al->name);
	len = snprintf(desc, sizeof(desc), "%s", al->terms);
	if (al->unit && al->unit[0] && len >= 0 && (size_t)len < sizeof(desc))
		len += snprintf(desc + len, sizeof(desc) - (size_t)len, " (unit %s, scale %.12g)",
				al->unit, al->scale);
	else if (al->scale != 1.0 && len >= 0 && (size_t)len < sizeof(desc))
		len += snprintf(desc + len, sizeof(desc) - (size_t)len, " (scale %.12g)", al->scale);
	if (al->per_pkg && len >= 0 && (size_t)len < sizeof(desc))
		snprintf(desc + len, sizeof(desc) - (size_t)len, ", counted per package");
	e = pk__cat_add(cat, PK_SRC_PMU, name, pn, desc, NULL);
	if (!e)
		return -ENOMEM;
	e->info.equiv = pk__cat_printf(cat, "%s/%s/", pn, al->terms);
	if (!e->info.equiv || pk__cat_format_attrs(cat, pmu, al->terms, &a, &n))
		return -ENOMEM;
	e->info.code = alias_config(pmu, al->terms);
	pk__cat_set_own(e, a, n);
	return 0;
}

/* "cpu/raw": the PMU's format terms, for "cpu/event=0x3c,umask=1/". */
static int add_pmu_raw(struct pk_catalog *cat, const struct pk_pmu *pmu)
{
	const char *pn = pk_pmu_name(pmu);
	char name[128], desc[256], canon[160];
	struct pk_attr_info *a;
	struct cat_event *e;
	size_t n;

	snprintf(name, sizeof(name), "%s/raw", pn);
	snprintf(desc, sizeof(desc), "Raw %s event: %s/term=value[,term=value...]/ with the terms below",
		 pn, pn);
	snprintf(canon, sizeof(canon), "%s/config=0/", pn);
	e = pk__cat_add(cat, PK_SRC_RAW, name, pn, desc, canon);
	if (!e || pk__cat_format_attrs(cat, pmu, NULL, &a, &n))
		return -ENOMEM;
	pk__cat_set_own(e, a, n);
	return 0;
}

/* The PMUs with sources of their own in the catalogue. */
static bool pmu_has_own_source(const struct pk_pmu *pmu)
{
	uint32_t type = pk_pmu_type(pmu);
	const char *name = pk_pmu_name(pmu);

	return type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_TRACEPOINT ||
	       type == PERF_TYPE_BREAKPOINT || !strcmp(name, "uprobe") || !strcmp(name, "kprobe");
}

int pk__cat_add_sysfs(struct pk_catalog *cat, const struct pk_pmus *pmus)
{
	for (size_t i = 0; i < pk_pmus_count(pmus); i++) {
		const struct pk_pmu *pmu = pk_pmus_get(pmus, i);

		if (pmu_has_own_source(pmu))
			continue;
		for (size_t j = 0; j < pk_pmu_nr_aliases(pmu); j++)
			if (add_alias(cat, pmu, pk_pmu_alias(pmu, j)))
				return -ENOMEM;
		if (pk_pmu_nr_formats(pmu) && add_pmu_raw(cat, pmu))
			return -ENOMEM;
	}
	return 0;
}

/* ---- tracepoints ------------------------------------------------------------ */

int pk__cat_add_tracepoints(struct pk_catalog *cat, const struct pk_catalog_opts *opts)
{
	char dir[512];
	struct pk__tp *tps = NULL;
	size_t nr = 0;
	int err = 0;

	/* No tracefs, or none readable, means no tracepoints: not an error. */
	if (pk__tracefs_dir(opts->tracefs, false, dir, sizeof(dir)) < 0)
		return 0;
	if (pk__tp_expand(dir, "*", "*", &tps, &nr) < 0)
		return 0;
	for (size_t i = 0; i < nr && !err; i++) {
		char name[256];
		struct cat_event *e;

		snprintf(name, sizeof(name), "%s:%s", tps[i].sys, tps[i].name);
		e = pk__cat_add(cat, PK_SRC_TRACEPOINT, name, "tracepoint", "", NULL);
		if (!e || !(e->tp_dir = pk__cat_printf(cat, "%s/events/%s/%s", dir, tps[i].sys,
							  tps[i].name))) {
			err = -ENOMEM;
			break;
		}
		e->kind = CAT_TRACEPOINT;
		e->info.code = tps[i].id;
	}
	pk__tp_free(tps, nr);
	return err;
}

/* Read a whole (small) file into a malloc'd NUL-terminated buffer. */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		char *bigger;

		len += (size_t)n;
		if (cap - len > 1 || cap >= 1 << 20)
			continue;
		if (!(bigger = realloc(buf, cap * 2)))
			break;
		buf = bigger;
		cap *= 2;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/*
 * One "field:TYPE NAME[N];\toffset:N;\tsize:N;\tsigned:N;" line into *a.
 * Returns false for lines that are not a user field (common_*, blank).
 */
static bool parse_field(struct pk_catalog *cat, const char *line, struct pk_attr_info *a)
{
	const char *decl = strstr(line, "field:"), *end, *nm, *arr, *word, *tl, *p, *dl;
	unsigned long off = 0, size = 0;
	int sign = 0;

	if (!decl)
		return false;
	decl += 6;
	end = strchr(decl, ';');
	if (!end)
		return false;
	/* The name is the last word of the declaration, before a trailing
	 * [N]; "__data_loc char[] name" has its brackets in the type. */
	nm = end;
	while (nm > decl && nm[-1] == ' ')
		nm--;
	arr = NULL;
	if (nm > decl && nm[-1] == ']') {
		while (nm > decl && nm[-1] != '[')
			nm--;
		if (nm > decl)
			arr = --nm;
	}
	while (nm > decl && nm[-1] == ' ')
		nm--;
	word = nm;
	while (word > decl && word[-1] != ' ' && word[-1] != '*')
		word--;
	if (word == nm || !strncmp(word, "common_", 7))
		return false;
	if ((p = strstr(end, "offset:")))
		off = strtoul(p + 7, NULL, 10);
	if ((p = strstr(end, "size:")))
		size = strtoul(p + 5, NULL, 10);
	if ((p = strstr(end, "signed:")))
		sign = atoi(p + 7);
	a->size = sizeof(*a);
	a->name = pk__cat_printf(cat, "%.*s", (int)(nm - word), word);
	tl = word;
	while (tl > decl && tl[-1] == ' ')
		tl--;
	a->desc = pk__cat_printf(cat, "%.*s%.*s: offset %lu, size %lu, %s", (int)(tl - decl), decl,
				 arr ? (int)(end - arr) : 0, arr ? arr : "", off, size,
				 sign ? "signed" : "unsigned");
	if (!a->name || !a->desc)
		return false;
	a->equiv = "";
	a->code = off;
	/* Strings: char arrays and dynamic (__data_loc) fields; the rest are numbers. */
	dl = strstr(decl, "char");
	a->type = dl && dl < word && (arr || !strncmp(decl, "__data_loc", 10) ||
				     !strncmp(decl, "__rel_loc", 9))
		  ? PK_ATTR_MOD_STR : PK_ATTR_MOD_INT;
	a->ctrl = PK_ATTR_CTRL_PMU;
	a->field = -1;
	return true;
}

void pk__cat_load_tracepoint(struct pk_catalog *cat, struct cat_event *e)
{
	char path[640];
	char *text, *line, *save = NULL;
	struct pk_attr_info *a;
	size_t n = 0, max = 0;

	e->loaded = true;
	snprintf(path, sizeof(path), "%s/format", e->tp_dir);
	text = slurp(path);
	if (!text)
		return;
	for (const char *p = text; (p = strstr(p, "field:")); p += 6)
		max++;
	a = max ? pk__cat_alloc(cat, max * sizeof(*a)) : NULL;
	if (a) {
		for (line = strtok_r(text, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save))
			if (parse_field(cat, line, &a[n]))
				n++;
		pk__cat_set_own(e, a, n);
	}
	free(text);
}
