/* SPDX-License-Identifier: MIT */
/*
 * probe.c - uprobes and kprobes through the uprobe/kprobe PMUs
 * (perf_event_open(2): config1 names the file or function, config2 holds the
 * offset or address, the PMU's `retprobe` format bit picks the return probe).
 * No tracefs probe definitions are created: the kernel makes a temporary
 * probe per event and removes it on close.  For uprobes the symbol is turned
 * into a file offset (by the elf layer), because the kernel wants an offset;
 * a kprobe's symbol is checked against /proc/kallsyms (the host layer).
 */
#include "event.h"
#include "elf/elf.h"
#include "host/host.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NR_NEAR 3

/* The closest names seen so far, best first (for "did you mean" hints). */
struct near {
	char name[NR_NEAR][128];
	size_t dist[NR_NEAR];
	size_t nr;
};

static void near_add(struct near *n, const char *want, const char *name)
{
	/* Beyond half the name it is a different name, not a typo. */
	size_t limit = strlen(want) / 2 + 1;
	size_t d = pk__edit_distance_max(name, want, limit);
	size_t i;

	if (d > limit)
		return;
	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->name[i], name))
			return;
	for (i = n->nr; i > 0 && n->dist[i - 1] > d; i--) {
		if (i < NR_NEAR) {
			n->dist[i] = n->dist[i - 1];
			memcpy(n->name[i], n->name[i - 1], sizeof(n->name[i]));
		}
	}
	if (i >= NR_NEAR)
		return;
	n->dist[i] = d;
	snprintf(n->name[i], sizeof(n->name[i]), "%s", name);
	if (n->nr < NR_NEAR)
		n->nr++;
}

static void near_hint(const struct near *n, const char *where)
{
	char list[NR_NEAR * 132] = "";
	size_t off = 0;

	for (size_t i = 0; i < n->nr; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					i ? ", " : "", n->name[i]);
	if (n->nr)
		pk__error_hint("the closest symbols in %s: %s", where, list);
}

/* Parse a whole string as a number (decimal, or hex with 0x). */
static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s[0] || s[0] == '-' || isspace((unsigned char)s[0]))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && !*end;
}

static bool is_hex_address(const char *s)
{
	uint64_t v;

	return (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && parse_u64(s, &v);
}

/* Split "SYMBOL+OFF" in place; *off is 0 without "+OFF". */
static int split_offset(char *sym, uint64_t *off, const char *what)
{
	char *plus = strchr(sym, '+');

	*off = 0;
	if (!plus)
		return 0;
	*plus = '\0';
	if (!parse_u64(plus + 1, off))
		return pk__error(-EINVAL, what, "'%s' is not an offset", plus + 1);
	return 0;
}

/* A walk for one name (kernel or ELF symbols): the match, then near misses. */
struct ksym_check {
	const char *want;
	bool any;
	struct near near;
};

/* ---- the PMU ------------------------------------------------------------- */

static int find_pmu(const struct pk_pmus *pmus, bool kprobe, bool retprobe,
		    const char *what, struct perf_event_attr *attr)
{
	const char *name = kprobe ? "kprobe" : "uprobe";
	const struct pk_pmu *pmu = pmus ? pk_pmus_find(pmus, name) : NULL;
	const struct pk_pmu_format *f;
	uint64_t config = 0;

	if (!pmu) {
		pk__error(-ENODEV, what, "this kernel has no %s PMU (CONFIG_%s_EVENTS)", name,
			  kprobe ? "KPROBE" : "UPROBE");
		pk__error_hint("the %s PMU needs Linux 4.17 or later built with CONFIG_%s_EVENTS=y; "
			       "see /sys/bus/event_source/devices/", name,
			       kprobe ? "KPROBE" : "UPROBE");
		return -ENODEV;
	}
	attr->type = pk_pmu_type(pmu);
	attr->config = 0;
	if (!retprobe)
		return 0;
	f = pk_pmu_find_format(pmu, "retprobe");
	if (!f || f->field != 0 || pk__pmu_pack(f->mask, 1, &config) < 0)
		return pk__error(-EOPNOTSUPP, what,
				 "the %s PMU has no usable 'retprobe' format bit in config", name);
	attr->config = config;
	return 0;
}

/* ---- uprobes: symbol -> file offset ---------------------------------------- */

static int sym_near(void *arg, const struct pk__elf_sym *s)
{
	struct ksym_check *c = arg;

	if (s->type == STT_FUNC || s->type == STT_GNU_IFUNC)	/* the functions only */
		near_add(&c->near, c->want, s->name);
	return 0;
}

static int elf_symbol_offset(const char *path, const char *sym, const char *what, uint64_t *off)
{
	struct ksym_check c = { .want = sym, .any = false, .near = { .nr = 0 } };
	struct pk__elf *e;
	uint64_t value;
	int ret = pk__elf_open(path, &e);

	if (ret == -EINVAL) {
		pk__error(-EINVAL, what, "%s is not an ELF file", path);
		pk__error_hint("a uprobe goes on an executable or shared library");
		return -EINVAL;
	}
	if (ret < 0) {
		char why[PATH_MAX + 64];

		/* The elf layer's reason, under this probe's name. */
		snprintf(why, sizeof(why), "%s", pk_last_error()->why);
		return pk__error(ret, what, "%s", why);
	}
	ret = pk__elf_symbol_offset(e, sym, off, &value);
	if (ret == -ENOENT) {
		/* Edit distances are only worth computing once we know we have missed. */
		pk__elf_symbols(e, sym_near, &c);
		pk__error(-ENOENT, what, "%s has no function symbol '%s'", path, sym);
		if (c.near.nr)
			near_hint(&c.near, path);
		else
			pk__error_hint("no function symbol of %s is close to '%s' (nm -D %s lists "
				       "them; a stripped file needs PATH:0xOFFSET)", path, sym, path);
	} else if (ret < 0) {
		pk__error(-EINVAL, what, "'%s' (0x%" PRIx64 ") lies in no loadable segment of %s",
			  sym, value, path);
	}
	pk__elf_close(e);
	return ret;
}

/* "PATH:SYMBOL[+OFF]" or "PATH:0xOFFSET" -> absolute path and file offset. */
static int uprobe_target(char *text, const char *what, char **path_out, uint64_t *off)
{
	char *colon = strrchr(text, ':'), *sym;
	char real[PATH_MAX];
	uint64_t add;
	struct stat st;
	int ret;

	if (!colon || colon == text || !colon[1])
		return pk__error(-EINVAL, what, "a uprobe is PATH:SYMBOL[+OFFSET] or PATH:0xOFFSET");
	*colon = '\0';
	sym = colon + 1;
	if (!realpath(text, real) || stat(real, &st) < 0) {
		int err = errno == EACCES ? -EACCES : -ENOENT;

		pk__error(err, what, "cannot use %s: %s", text, strerror(errno));
		pk__error_hint("check the path of the executable or library");
		return err;
	}
	if (!S_ISREG(st.st_mode))
		return pk__error(-EINVAL, what, "%s is not a regular file", real);
	if (is_hex_address(sym)) {
		parse_u64(sym, off);
	} else {
		ret = split_offset(sym, &add, what);
		if (ret < 0)
			return ret;
		if (!sym[0])
			return pk__error(-EINVAL, what, "the symbol name is empty");
		ret = elf_symbol_offset(real, sym, what, off);
		if (ret < 0)
			return ret;
		*off += add;
	}
	*path_out = pk__strdup(real);
	return *path_out ? 0 : pk__error_nomem("a probe's binary path");
}

/* ---- kprobes -------------------------------------------------------------- */

static bool valid_ksym(const char *s)
{
	if (!s[0])
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

static int ksym_is(void *arg, const struct pk__host_ksym *s)
{
	struct ksym_check *c = arg;

	c->any = true;
	return !strcmp(s->name, c->want);
}

static int ksym_near(void *arg, const struct pk__host_ksym *s)
{
	struct ksym_check *c = arg;

	if (s->type == 't' || s->type == 'T')
		near_add(&c->near, c->want, s->name);
	return 0;
}

/*
 * Check `sym` against /proc/kallsyms when it is readable, so a typo is
 * reported with its near misses now rather than as a bare EINVAL from
 * perf_event_open later.  Without kallsyms the kernel has the last word.
 */
static int check_kallsyms(const char *path, const char *sym, const char *what)
{
	struct ksym_check c = { .want = sym, .any = false, .near = { .nr = 0 } };
	int ret = pk__host_kallsyms_read(path, 0, ksym_is, &c);

	if (ret != 0 || !c.any) {
		pk__error_clear();	/* found, or no kallsyms to check against */
		return 0;
	}
	/* Missed: a second pass for the near misses among functions.  Edit
	 * distances are only worth computing once we know we have missed. */
	if (pk__host_kallsyms_read(path, 0, ksym_near, &c) < 0)
		c.near.nr = 0;
	pk__error(-ENOENT, what, "the kernel has no symbol '%s' (%s)", sym,
		  path ? path : "/proc/kallsyms");
	if (c.near.nr)
		near_hint(&c.near, "the kernel");
	else
		pk__error_hint("no kernel function is close to '%s'; %s lists them", sym,
			       path ? path : "/proc/kallsyms");
	return -ENOENT;
}

/* "SYMBOL[+OFF]" or "0xADDRESS" -> name (NULL for an address) and offset/address. */
static int kprobe_target(const char *kallsyms, char *text, const char *what, char **name,
			 uint64_t *off)
{
	int ret;

	*name = NULL;
	if (is_hex_address(text)) {
		parse_u64(text, off);
		return 0;
	}
	ret = split_offset(text, off, what);
	if (ret < 0)
		return ret;
	if (!valid_ksym(text)) {
		pk__error(-EINVAL, what, "'%s' is not a kernel symbol name", text);
		pk__error_hint("a kprobe is SYMBOL[+OFFSET] or 0xADDRESS");
		return -EINVAL;
	}
	ret = check_kallsyms(kallsyms, text, what);
	if (ret < 0)
		return ret;
	*name = pk__strdup(text);
	return *name ? 0 : pk__error_nomem("a probe name");
}

/* ---- entry point ------------------------------------------------------------ */

static int make_canonical(bool kprobe, bool retprobe, const char *name, uint64_t off,
			  char **canonical)
{
	const char *kind = kprobe ? (retprobe ? "kretprobe" : "kprobe")
				  : (retprobe ? "uretprobe" : "uprobe");
	int n;

	if (!kprobe)
		n = pk__asprintf(canonical, "%s:%s:0x%" PRIx64, kind, name, off);
	else if (!name)
		n = pk__asprintf(canonical, "%s:0x%" PRIx64, kind, off);
	else if (off)
		n = pk__asprintf(canonical, "%s:%s+0x%" PRIx64, kind, name, off);
	else
		n = pk__asprintf(canonical, "%s:%s", kind, name);
	if (n < 0) {
		*canonical = NULL;
		return pk__error_nomem("a probe's canonical spec");
	}
	return 0;
}

int pk__probe_encode(const struct pk_pmus *pmus, const char *kallsyms, bool kprobe, bool retprobe,
		     const char *text, struct perf_event_attr *attr, char **owned,
		     char **canonical)
{
	char what[PATH_MAX + 32];
	char *copy, *name = NULL;
	uint64_t off = 0;
	int ret;

	*owned = NULL;
	*canonical = NULL;
	snprintf(what, sizeof(what), "%s %s",
		 kprobe ? (retprobe ? "kretprobe" : "kprobe") : (retprobe ? "uretprobe" : "uprobe"),
		 text);
	ret = find_pmu(pmus, kprobe, retprobe, what, attr);
	if (ret < 0)
		return ret;
	copy = pk__strdup(text);
	if (!copy)
		return pk__error_nomem("a probe spec");
	ret = kprobe ? kprobe_target(kallsyms, copy, what, &name, &off)
		     : uprobe_target(copy, what, &name, &off);
	free(copy);
	if (ret < 0)
		return ret;
	ret = make_canonical(kprobe, retprobe, name, off, canonical);
	/* An address probe has no name: config1 stays NULL, but callers own a
	 * string either way, so hand them the address text. */
	if (ret == 0 && !name && pk__asprintf(&name, "0x%" PRIx64, off) < 0) {
		name = NULL;
		ret = pk__error_nomem("a probe name");
	}
	if (ret < 0) {
		free(name);
		free(*canonical);
		*canonical = NULL;
		return ret;
	}
	attr->config1 = kprobe && is_hex_address(text) ? 0 : (uint64_t)(uintptr_t)name;
	attr->config2 = off;
	*owned = name;
	return 0;
}
