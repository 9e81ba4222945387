/* SPDX-License-Identifier: MIT */
/*
 * pmu.c - sysfs PMU discovery.  pk_pmus_scan() reads every directory under
 * <root>/bus/event_source/devices into one immutable snapshot: the PMU's
 * type, its format/ bit-fields, its events/ aliases with their .scale,
 * .unit, .per-pkg and .snapshot companions, its cpumask, caps/, mux interval
 * and rdpmc setting.  Sysfs is full of surprises (attributes that vanish,
 * read errors, drivers that print odd text), so the scan takes what it can
 * read and skips the rest instead of failing.  Format text, bit packing and
 * term encoding are in format.c.
 */
#include "pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define DEVICES_REL "bus/event_source/devices"

/* A sysfs attribute never exceeds one page. */
#define SYSFS_TEXT_MAX 4096

struct pmu_cap {
	char *name;
	char *value;
};

struct pk_pmu {
	char *name;
	uint32_t type;
	struct pk_pmu_format *formats;
	size_t nr_formats;
	struct pk_pmu_alias *aliases;
	size_t nr_aliases;
	char *cpumask;
	struct pmu_cap *caps;
	size_t nr_caps;
	int mux_interval_ms;
	int rdpmc;
};

/* A directory that looks like a PMU but has no usable type number. */
struct unusable_pmu {
	char *name;
	char *why;
};

struct pk_pmus {
	struct pk_pmu *pmus;
	size_t nr_pmus;
	struct unusable_pmu *unusable;
	size_t nr_unusable;
	char *dir;		/* the devices directory scanned */
};

/* A directory's entry names, sorted with strcmp. */
struct name_list {
	char **names;
	size_t nr;
};

/* What one scan needs besides the PMU being filled. */
struct scan_ctx {
	char text[SYSFS_TEXT_MAX];
	/*
	 * .scale files are written by the kernel with a '.' decimal point; the
	 * C locale parses them whatever locale the application has set, without
	 * touching process-wide state.
	 */
	locale_t c_locale;
	char why[256];		/* read_pmu's reason when it returns PMU_UNUSABLE */
};

/* read_pmu's results besides 0 and a negative errno. */
enum { PMU_NOT_A_PMU = 1, PMU_UNUSABLE = 2 };

/* ---- small file and directory helpers -------------------------------------- */

static bool join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len;
}

static void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* read_text - dir/name into ctx->text, trailing blanks removed.  0 or -errno. */
static int read_text(struct scan_ctx *ctx, const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n;

	if (!join(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	n = pk__read_file(path, ctx->text, sizeof(ctx->text));
	if (n < 0)
		return n;
	rstrip(ctx->text);
	return 0;
}

/* read_int - dir/name as an int; *val is -1 when absent or not an int. */
static void read_int(const char *dir, const char *name, int *val)
{
	char path[PATH_MAX];
	long v;

	*val = -1;
	if (join(path, sizeof(path), dir, name) && !pk__read_long(path, &v) &&
	    v >= INT_MIN && v <= INT_MAX)
		*val = (int)v;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(struct name_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->nr = 0;
}

/* list_dir - the entries of `dir` but . and .., sorted.  0 or -errno. */
static int list_dir(const char *dir, struct name_list *l)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;
	int err = 0;

	l->names = NULL;
	l->nr = 0;
	if (!d && errno == ENOMEM)
		return pk__error_nomem("reading the directory %s", dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (l->nr == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			char **n = pk__realloc(l->names, ncap * sizeof(*n));

			if (!n) {
				err = pk__error_nomem("a sysfs directory listing");
				break;
			}
			l->names = n;
			cap = ncap;
		}
		l->names[l->nr] = pk__strdup(de->d_name);
		if (!l->names[l->nr]) {
			err = pk__error_nomem("a sysfs directory listing");
			break;
		}
		l->nr++;
	}
	closedir(d);
	if (err) {
		names_free(l);
		return err;
	}
	if (l->nr)
		qsort(l->names, l->nr, sizeof(*l->names), cmp_names);
	return 0;
}

static bool names_has(const struct name_list *l, const char *name)
{
	return l->nr && bsearch(&name, l->names, l->nr, sizeof(*l->names), cmp_names);
}

/* ---- one PMU ---------------------------------------------------------------- */

static int read_formats(struct scan_ctx *ctx, const char *pmu_dir, struct pk_pmu *pmu)
{
	char dir[PATH_MAX];
	struct name_list l;
	int err = 0;

	if (!join(dir, sizeof(dir), pmu_dir, "format"))
		return 0;
	/* No format/ (software, tracepoint): nothing to encode.  Out of
	 * memory is an error; a missing or unreadable directory is not. */
	if ((err = list_dir(dir, &l)) != 0)
		return err == -ENOMEM ? err : 0;
	pmu->formats = pk__calloc(l.nr ? l.nr : 1, sizeof(*pmu->formats));
	if (!pmu->formats) {
		names_free(&l);
		return pk__error_nomem("the PMU %s's formats", pmu->name ? pmu->name : "?");
	}
	for (size_t i = 0; i < l.nr; i++) {
		struct pk_pmu_format *f = &pmu->formats[pmu->nr_formats];
		const char *why;

		/* A file we cannot read or parse describes nothing we could encode. */
		if (read_text(ctx, dir, l.names[i]) ||
		    pk__pmu_format_scan(ctx->text, &f->field, &f->mask, &why))
			continue;
		f->name = pk__strdup(l.names[i]);
		f->spec = pk__strdup(ctx->text);
		pmu->nr_formats++;
		if (!f->name || !f->spec) {
			err = pk__error_nomem("a PMU format");
			break;
		}
	}
	names_free(&l);
	return err;
}

/* Files next to an alias that describe it rather than being aliases. */
enum companion { COMP_SCALE, COMP_UNIT, COMP_PER_PKG, COMP_SNAPSHOT, NR_COMPANIONS };
static const char *const companion_suffix[NR_COMPANIONS] = {
	[COMP_SCALE] = ".scale",
	[COMP_UNIT] = ".unit",
	[COMP_PER_PKG] = ".per-pkg",
	[COMP_SNAPSHOT] = ".snapshot",
};

static bool is_companion(const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < NR_COMPANIONS; i++) {
		size_t s = strlen(companion_suffix[i]);

		if (n > s && !strcmp(name + n - s, companion_suffix[i]))
			return true;
	}
	return false;
}

/*
 * read_companion - the text of alias `name`'s companion file `c` into
 * ctx->text.  Returns true when the file is listed and readable.
 */
static bool read_companion(struct scan_ctx *ctx, const char *dir, const struct name_list *l,
			   const char *name, enum companion c)
{
	char file[NAME_MAX + 16];
	int n = snprintf(file, sizeof(file), "%s%s", name, companion_suffix[c]);

	if (n < 0 || (size_t)n >= sizeof(file) || !names_has(l, file))
		return false;
	return read_text(ctx, dir, file) == 0;
}

static double parse_scale(const struct scan_ctx *ctx)
{
	char *end;
	double v;

	if (ctx->c_locale == (locale_t)0)
		return 1.0;
	v = strtod_l(ctx->text, &end, ctx->c_locale);
	/* A scale that does not parse would silently zero or blow up counts. */
	if (end == ctx->text || *end || !isfinite(v) || v == 0.0)
		return 1.0;
	return v;
}

/* A flag file counts as set unless it says 0, the way perf treats presence. */
static bool parse_flag(const struct scan_ctx *ctx)
{
	return strcmp(ctx->text, "0") != 0;
}

static int fill_alias(struct scan_ctx *ctx, const char *dir, const struct name_list *l,
		      const char *name, struct pk_pmu_alias *a)
{
	a->name = pk__strdup(name);
	a->terms = pk__strdup(ctx->text);
	a->scale = 1.0;
	if (read_companion(ctx, dir, l, name, COMP_SCALE))
		a->scale = parse_scale(ctx);
	a->unit = pk__strdup(read_companion(ctx, dir, l, name, COMP_UNIT) ? ctx->text : "");
	a->per_pkg = read_companion(ctx, dir, l, name, COMP_PER_PKG) && parse_flag(ctx);
	a->snapshot = read_companion(ctx, dir, l, name, COMP_SNAPSHOT) && parse_flag(ctx);
	return a->name && a->terms && a->unit ? 0 : pk__error_nomem("a PMU event alias");
}

static int read_aliases(struct scan_ctx *ctx, const char *pmu_dir, struct pk_pmu *pmu)
{
	char dir[PATH_MAX];
	struct name_list l;
	int err = 0;

	if (!join(dir, sizeof(dir), pmu_dir, "events"))
		return 0;
	/* Out of memory is an error; a missing or unreadable directory is not. */
	if ((err = list_dir(dir, &l)) != 0)
		return err == -ENOMEM ? err : 0;
	pmu->aliases = pk__calloc(l.nr ? l.nr : 1, sizeof(*pmu->aliases));
	if (!pmu->aliases) {
		names_free(&l);
		return pk__error_nomem("a PMU's event aliases");
	}
	for (size_t i = 0; i < l.nr && !err; i++) {
		if (is_companion(l.names[i]) || read_text(ctx, dir, l.names[i]))
			continue;
		err = fill_alias(ctx, dir, &l, l.names[i], &pmu->aliases[pmu->nr_aliases++]);
	}
	names_free(&l);
	return err;
}

static int read_caps(struct scan_ctx *ctx, const char *pmu_dir, struct pk_pmu *pmu)
{
	char dir[PATH_MAX];
	struct name_list l;
	int err = 0;

	if (!join(dir, sizeof(dir), pmu_dir, "caps"))
		return 0;
	/* Out of memory is an error; a missing or unreadable directory is not. */
	if ((err = list_dir(dir, &l)) != 0)
		return err == -ENOMEM ? err : 0;
	pmu->caps = pk__calloc(l.nr ? l.nr : 1, sizeof(*pmu->caps));
	if (!pmu->caps) {
		names_free(&l);
		return pk__error_nomem("a PMU's caps");
	}
	for (size_t i = 0; i < l.nr; i++) {
		struct pmu_cap *c = &pmu->caps[pmu->nr_caps];

		if (read_text(ctx, dir, l.names[i]))
			continue;
		c->name = pk__strdup(l.names[i]);
		c->value = pk__strdup(ctx->text);
		pmu->nr_caps++;
		if (!c->name || !c->value) {
			err = pk__error_nomem("a PMU cap");
			break;
		}
	}
	names_free(&l);
	return err;
}

static void pmu_release(struct pk_pmu *pmu)
{
	for (size_t i = 0; i < pmu->nr_formats; i++) {
		free((char *)pmu->formats[i].name);
		free((char *)pmu->formats[i].spec);
	}
	free(pmu->formats);
	for (size_t i = 0; i < pmu->nr_aliases; i++) {
		free((char *)pmu->aliases[i].name);
		free((char *)pmu->aliases[i].terms);
		free((char *)pmu->aliases[i].unit);
	}
	free(pmu->aliases);
	for (size_t i = 0; i < pmu->nr_caps; i++) {
		free(pmu->caps[i].name);
		free(pmu->caps[i].value);
	}
	free(pmu->caps);
	free(pmu->cpumask);
	free(pmu->name);
	memset(pmu, 0, sizeof(*pmu));
}

/*
 * The type number in a PMU's type file, or PMU_UNUSABLE with the reason in
 * ctx->why: perf_event_open cannot use a PMU without it, but the user
 * should hear why a PMU the kernel lists is missing.
 */
static int read_type(struct scan_ctx *ctx, const char *dir, uint32_t *type)
{
	char path[PATH_MAX], text[64];
	size_t n;
	uint64_t v;
	int len;

	if (!join(path, sizeof(path), dir, "type"))
		return PMU_NOT_A_PMU;
	len = pk__read_file(path, text, sizeof(text));
	if (len < 0) {
		snprintf(ctx->why, sizeof(ctx->why), "its type file cannot be read: %s", strerror(-len));
		return PMU_UNUSABLE;
	}
	n = (size_t)len;
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "its type file is empty");
		return PMU_UNUSABLE;
	}
	if (pk__num_u64(text, n, 0, UINT32_MAX, &v) < 0) {
		snprintf(ctx->why, sizeof(ctx->why), "its type file holds '%.*s', not a number from 0 to %u",
			 (int)(n > 40 ? 40 : n), text, UINT32_MAX);
		return PMU_UNUSABLE;
	}
	*type = (uint32_t)v;
	return 0;
}

/*
 * read_pmu - fill *pmu from devices/<name>.  Returns 0, PMU_NOT_A_PMU when
 * the entry is not a directory, PMU_UNUSABLE (the reason in ctx->why) when
 * it has no usable type number, or -ENOMEM.  Every other attribute is
 * optional.
 */
static int read_pmu(struct scan_ctx *ctx, const char *devices, const char *name,
		    struct pk_pmu *pmu)
{
	char dir[PATH_MAX];
	struct stat st;
	int err;

	memset(pmu, 0, sizeof(*pmu));
	/* stat, not lstat: on a real system every entry is a symlink to /sys/devices. */
	if (!join(dir, sizeof(dir), devices, name) || stat(dir, &st) || !S_ISDIR(st.st_mode))
		return PMU_NOT_A_PMU;
	if ((err = read_type(ctx, dir, &pmu->type)) != 0)
		return err;
	pmu->name = pk__strdup(name);
	if (!pmu->name)
		return pk__error_nomem("a PMU name");
	read_int(dir, "perf_event_mux_interval_ms", &pmu->mux_interval_ms);
	read_int(dir, "rdpmc", &pmu->rdpmc);
	/* Hybrid PMUs (cpu_core, cpu_atom) name their CPUs in `cpus`. */
	if (!read_text(ctx, dir, "cpumask") || !read_text(ctx, dir, "cpus")) {
		pmu->cpumask = pk__strdup(ctx->text);
		if (!pmu->cpumask)
			return pk__error_nomem("a PMU cpumask");
	}
	err = read_formats(ctx, dir, pmu);
	if (!err)
		err = read_aliases(ctx, dir, pmu);
	if (!err)
		err = read_caps(ctx, dir, pmu);
	return err;
}

/* ---- the snapshot ------------------------------------------------------------ */

static int no_devices(int err, const char *devices)
{
	const char *root = getenv("PERFKIT_SYSFS_ROOT");
	char what[PATH_MAX + 32];

	snprintf(what, sizeof(what), "scan PMUs in %s", devices);
	if (err != -ENOENT && err != -ENOTDIR) {
		pk__error(err, what, "cannot read the directory: %s", strerror(-err));
		return err;
	}
	pk__error(-ENOENT, what, err == -ENOTDIR ? "it is not a directory" :
		  "the directory does not exist");
	if (root && *root)
		pk__error_hint("PERFKIT_SYSFS_ROOT is '%s': point it at a tree holding "
			       "bus/event_source/devices, or unset it to use /sys", root);
	else
		pk__error_hint("the kernel lacks perf_events (CONFIG_PERF_EVENTS) or "
			       "sysfs is not mounted on /sys");
	return -ENOENT;
}

static int add_unusable(struct pk_pmus *pmus, const char *name, const char *why)
{
	struct unusable_pmu *u = pk__realloc(pmus->unusable, (pmus->nr_unusable + 1) * sizeof(*u));

	if (!u)
		return pk__error_nomem("the list of unusable PMUs");
	pmus->unusable = u;
	u += pmus->nr_unusable;
	u->name = pk__strdup(name);
	u->why = pk__strdup(why);
	if (!u->name || !u->why) {
		free(u->name);
		free(u->why);
		return pk__error_nomem("the list of unusable PMUs");
	}
	pmus->nr_unusable++;
	return 0;
}

static int scan_all(struct scan_ctx *ctx, const char *devices, const struct name_list *l,
		    struct pk_pmus *pmus)
{
	pmus->pmus = pk__calloc(l->nr ? l->nr : 1, sizeof(*pmus->pmus));
	if (!pmus->pmus)
		return pk__error_nomem("the PMU table");
	/* The names are sorted, so the snapshot is too. */
	for (size_t i = 0; i < l->nr; i++) {
		struct pk_pmu *pmu = &pmus->pmus[pmus->nr_pmus];
		int ret = read_pmu(ctx, devices, l->names[i], pmu);

		if (ret == 0) {
			pmus->nr_pmus++;
			continue;
		}
		pmu_release(pmu);
		if (ret < 0)
			return ret;
		if (ret == PMU_UNUSABLE && add_unusable(pmus, l->names[i], ctx->why) < 0)
			return pk__error_nomem("the list of unusable PMUs");
	}
	return 0;
}

int pk_pmus_scan(struct pk_pmus **out)
{
	char devices[PATH_MAX];
	struct scan_ctx *ctx;
	struct pk_pmus *pmus;
	struct name_list l;
	int err;

	if (!out)
		return pk__error(-EINVAL, "scan PMUs", "no place to store the snapshot");
	if (!pk__sysfs_path(devices, sizeof(devices), DEVICES_REL))
		return pk__error(-ENAMETOOLONG, "scan PMUs",
				 "the sysfs root makes a path longer than %zu bytes", sizeof(devices));
	err = list_dir(devices, &l);
	if (err == -ENOMEM)
		return pk__error_nomem("the list of PMU directories");
	if (err)
		return no_devices(err, devices);
	ctx = pk__malloc(sizeof(*ctx));
	pmus = pk__calloc(1, sizeof(*pmus));
	if (!ctx || !pmus) {
		err = pk__error_nomem("the PMU snapshot");
	} else if (!(pmus->dir = pk__strdup(devices))) {
		err = pk__error_nomem("the PMU snapshot");
	} else {
		ctx->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
		err = scan_all(ctx, devices, &l, pmus);
		if (ctx->c_locale != (locale_t)0)
			freelocale(ctx->c_locale);
	}
	free(ctx);
	names_free(&l);
	if (err) {
		pk_pmus_free(pmus);
		return pk__error(err, "scan PMUs", "out of memory while reading %s", devices);
	}
	*out = pmus;
	return 0;
}

void pk_pmus_free(struct pk_pmus *pmus)
{
	if (!pmus)
		return;
	for (size_t i = 0; i < pmus->nr_pmus; i++)
		pmu_release(&pmus->pmus[i]);
	for (size_t i = 0; i < pmus->nr_unusable; i++) {
		free(pmus->unusable[i].name);
		free(pmus->unusable[i].why);
	}
	free(pmus->unusable);
	free(pmus->pmus);
	free(pmus->dir);
	free(pmus);
}

const char *pk_pmus_dir(const struct pk_pmus *pmus)
{
	return pmus && pmus->dir ? pmus->dir : "";
}

size_t pk_pmus_nr_unusable(const struct pk_pmus *pmus)
{
	return pmus ? pmus->nr_unusable : 0;
}

const char *pk_pmus_unusable(const struct pk_pmus *pmus, size_t i, const char **why)
{
	if (!pmus || i >= pmus->nr_unusable)
		return NULL;
	if (why)
		*why = pmus->unusable[i].why;
	return pmus->unusable[i].name;
}

size_t pk_pmus_nr(const struct pk_pmus *pmus)
{
	return pmus ? pmus->nr_pmus : 0;
}

const struct pk_pmu *pk_pmus_get(const struct pk_pmus *pmus, size_t i)
{
	return pmus && i < pmus->nr_pmus ? &pmus->pmus[i] : NULL;
}

static int cmp_pmu_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct pk_pmu *)elem)->name);
}

const struct pk_pmu *pk_pmus_find(const struct pk_pmus *pmus, const char *name)
{
	if (!pmus || !name || !pmus->nr_pmus)
		return NULL;
	return bsearch(name, pmus->pmus, pmus->nr_pmus, sizeof(*pmus->pmus), cmp_pmu_name);
}

const struct pk_pmu *pk__pmu_find_by_type(const struct pk_pmus *pmus, uint32_t type)
{
	for (size_t i = 0; pmus && i < pmus->nr_pmus; i++) {
		if (pmus->pmus[i].type == type)
			return &pmus->pmus[i];
	}
	return NULL;
}

/* ---- one PMU's accessors ---------------------------------------------------- */

const char *pk_pmu_name(const struct pk_pmu *pmu)
{
	return pmu ? pmu->name : NULL;
}

uint32_t pk_pmu_type(const struct pk_pmu *pmu)
{
	return pmu ? pmu->type : 0;
}

size_t pk_pmu_nr_formats(const struct pk_pmu *pmu)
{
	return pmu ? pmu->nr_formats : 0;
}

const struct pk_pmu_format *pk_pmu_format(const struct pk_pmu *pmu, size_t i)
{
	return pmu && i < pmu->nr_formats ? &pmu->formats[i] : NULL;
}

static int cmp_format_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct pk_pmu_format *)elem)->name);
}

const struct pk_pmu_format *pk_pmu_find_format(const struct pk_pmu *pmu, const char *name)
{
	if (!pmu || !name || !pmu->nr_formats)
		return NULL;
	return bsearch(name, pmu->formats, pmu->nr_formats, sizeof(*pmu->formats),
		       cmp_format_name);
}

size_t pk_pmu_nr_aliases(const struct pk_pmu *pmu)
{
	return pmu ? pmu->nr_aliases : 0;
}

const struct pk_pmu_alias *pk_pmu_alias(const struct pk_pmu *pmu, size_t i)
{
	return pmu && i < pmu->nr_aliases ? &pmu->aliases[i] : NULL;
}

static int cmp_alias_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct pk_pmu_alias *)elem)->name);
}

const struct pk_pmu_alias *pk_pmu_find_alias(const struct pk_pmu *pmu, const char *name)
{
	const struct pk_pmu_alias *a;

	if (!pmu || !name || !pmu->nr_aliases)
		return NULL;
	/* An exact match wins when two aliases differ only in case. */
	a = bsearch(name, pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), cmp_alias_name);
	for (size_t i = 0; !a && i < pmu->nr_aliases; i++) {
		if (!strcasecmp(pmu->aliases[i].name, name))
			a = &pmu->aliases[i];
	}
	return a;
}

const char *pk_pmu_cpumask(const struct pk_pmu *pmu)
{
	return pmu ? pmu->cpumask : NULL;
}

size_t pk_pmu_nr_caps(const struct pk_pmu *pmu)
{
	return pmu ? pmu->nr_caps : 0;
}

int pk_pmu_cap(const struct pk_pmu *pmu, size_t i, const char **name, const char **value)
{
	if (!pmu || i >= pmu->nr_caps)
		return pk__error(-ERANGE, "read a PMU cap", "no cap %zu: %s has %zu", i,
				 pmu ? pmu->name : "no PMU", pmu ? pmu->nr_caps : 0);
	if (name)
		*name = pmu->caps[i].name;
	if (value)
		*value = pmu->caps[i].value;
	return 0;
}

int pk_pmu_mux_interval_ms(const struct pk_pmu *pmu)
{
	return pmu ? pmu->mux_interval_ms : -1;
}

int pk_pmu_rdpmc(const struct pk_pmu *pmu)
{
	return pmu ? pmu->rdpmc : -1;
}
