/* SPDX-License-Identifier: MIT */
/*
 * catalog.c - the event catalogue behind pk_catalog_*: every event this
 * machine offers, in libpfm4's information model (events with attributes per
 * OS layer).  This file owns the object, its string arena, the generic
 * hardware/software/cache events, the raw, breakpoint and probe descriptors,
 * name lookup with near-miss hints and attribute lookup; the sysfs PMUs,
 * tracepoints and libpfm4 sources live in catalog-sysfs.c and catalog-pfm.c.
 */
#include "catalog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- arena ------------------------------------------------------------ */

struct cat_block {
	struct cat_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

#define CAT_BLOCK_SIZE (64 * 1024)

void *pk__cat_alloc(struct pk_catalog *cat, size_t size)
{
	struct cat_block *b = cat->arena.blocks;

	size = (size + 15) & ~(size_t)15;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > CAT_BLOCK_SIZE ? size : CAT_BLOCK_SIZE;

		b = pk__malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = cat->arena.blocks;
		cat->arena.blocks = b;
	}
	b->used += size;
	return memset(b->data + b->used - size, 0, size);
}

char *pk__cat_strdup(struct pk_catalog *cat, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *p = pk__cat_alloc(cat, n);

	if (p)
		memcpy(p, s ? s : "", n);
	return p;
}

char *pk__cat_printf(struct pk_catalog *cat, const char *fmt, ...)
{
	va_list ap;
	char small[256];
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = pk__cat_alloc(cat, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof(small)) {
		memcpy(p, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}

static void arena_free(struct cat_arena *a)
{
	while (a->blocks) {
		struct cat_block *next = a->blocks->next;

		free(a->blocks);
		a->blocks = next;
	}
}

/* ---- the shared perf_events layers --------------------------------------- */

static const struct pk_attr_info perf_attrs[] = {
#define PERF(n, t, isdfl, dfl, d) { .size = sizeof(struct pk_attr_info), .name = n, .desc = d, \
	.equiv = "", .type = t, .ctrl = PK_ATTR_CTRL_PERF_EVENT, .is_dfl = isdfl, .dfl_val64 = dfl, \
	.field = -1 },
#include "catalog-attrs.def"
#undef PERF
};

static const struct pk_attr_info ext_attrs[] = {
#define EXT(n, t, isdfl, dfl, d) { .size = sizeof(struct pk_attr_info), .name = n, .desc = d, \
	.equiv = "", .type = t, .ctrl = PK_ATTR_CTRL_PERF_EVENT, .is_dfl = isdfl, .dfl_val64 = dfl, \
	.field = -1 },
#include "catalog-attrs.def"
#undef EXT
};

#define NR_PERF (sizeof(perf_attrs) / sizeof(perf_attrs[0]))
#define NR_EXT (sizeof(ext_attrs) / sizeof(ext_attrs[0]))

/* ---- entries ------------------------------------------------------------- */

struct cat_event *pk__cat_add(struct pk_catalog *cat, enum pk_event_source src, const char *name,
			      const char *pmu, const char *desc, const char *canonical)
{
	struct cat_event *e;

	if (cat->nr == cat->alloc) {
		size_t alloc = cat->alloc ? cat->alloc * 2 : 256;
		struct cat_event *ev = pk__realloc(cat->ev, alloc * sizeof(*ev));

		if (!ev)
			return NULL;
		cat->ev = ev;
		cat->alloc = alloc;
	}
	e = &cat->ev[cat->nr];
	memset(e, 0, sizeof(*e));
	e->info.size = sizeof(e->info);
	e->info.source = src;
	e->info.name = pk__cat_strdup(cat, name);
	e->info.pmu = pk__cat_strdup(cat, pmu);
	e->info.desc = pk__cat_strdup(cat, desc);
	e->info.equiv = "";
	e->info.canonical = pk__cat_strdup(cat, canonical ? canonical : name);
	if (!e->info.name || !e->info.pmu || !e->info.desc || !e->info.canonical)
		return NULL;
	e->kind = CAT_PLAIN;
	pk__cat_set_own(e, NULL, 0);
	cat->nr++;
	return e;
}

void pk__cat_set_own(struct cat_event *e, struct pk_attr_info *own, size_t n)
{
	e->own = own;
	e->info.nr_attrs[PK_OS_PMU] = n;
	e->info.nr_attrs[PK_OS_PERF] = n + NR_PERF;
	e->info.nr_attrs[PK_OS_PERF_EXT] = n + NR_PERF + NR_EXT;
}

/* Parse "event=0x3c,umask=1,edge" and return the value of `term`:
 * true with *val set when present (a bare term means 1). */
static bool term_value(const char *terms, const char *term, uint64_t *val)
{
	size_t tl = strlen(term);

	for (const char *p = terms; p && *p;) {
		size_t n = strcspn(p, ",");

		while (*p == ' ')
			p++, n--;
		if (n >= tl && !strncmp(p, term, tl) && (n == tl || p[tl] == '=')) {
			*val = n == tl ? 1 : strtoull(p + tl + 1, NULL, 0);
			return true;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

int pk__cat_format_attrs(struct pk_catalog *cat, const struct pk_pmu *pmu, const char *terms,
			 struct pk_attr_info **out, size_t *n)
{
	size_t nr = pk_pmu_nr_formats(pmu);
	struct pk_attr_info *a = NULL;

	if (nr && !(a = pk__cat_alloc(cat, nr * sizeof(*a))))
		return pk__error_nomem("a catalog entry's attributes");
	for (size_t i = 0; i < nr; i++) {
		const struct pk_pmu_format *f = pk_pmu_format(pmu, i);

		a[i].size = sizeof(a[i]);
		/* The snapshot is freed once the catalogue is built: copy. */
		a[i].name = pk__cat_strdup(cat, f->name);
		a[i].desc = pk__cat_printf(cat, "%s bits %s", pk_pmu_name(pmu), f->spec);
		if (!a[i].name || !a[i].desc)
			return pk__error_nomem("a catalog entry's attributes");
		a[i].equiv = "";
		a[i].code = f->mask;
		a[i].type = popcount64(f->mask) == 1 ? PK_ATTR_MOD_BOOL : PK_ATTR_MOD_INT;
		a[i].ctrl = PK_ATTR_CTRL_PMU;
		a[i].field = f->field;
		a[i].is_dfl = terms && term_value(terms, f->name, &a[i].dfl_val64);
	}
	*out = a;
	*n = nr;
	return 0;
}

/* ---- generic sources ------------------------------------------------------ */

static int add_generic(struct pk_catalog *cat, uint32_t type)
{
	for (size_t i = 0; i < pk__nr_generic_events; i++) {
		const struct pk__generic *g = &pk__generic_events[i];
		struct cat_event *e;

		if (g->type != type)
			continue;
		e = pk__cat_add(cat, type == PERF_TYPE_HARDWARE ? PK_SRC_HARDWARE : PK_SRC_SOFTWARE,
				g->name, type == PERF_TYPE_HARDWARE ? "cpu" : "software", g->desc, NULL);
		if (!e)
			return pk__error_nomem("a catalog entry");
		e->info.equiv = g->alias;
		e->info.code = g->config;
	}
	return 0;
}

/* perf's tool events, which perf list shows after the software events. */
static int add_tools(struct pk_catalog *cat)
{
	for (int t = PK_TOOL_DURATION_TIME; t <= PK_TOOL_SYSTEM_TIME; t++) {
		struct cat_event *e = pk__cat_add(cat, PK_SRC_TOOL, pk__tool_name((enum pk_tool_event)t),
						  "tool", pk__tool_desc((enum pk_tool_event)t), NULL);

		if (!e)
			return pk__error_nomem("a catalog entry");
		e->info.code = (uint64_t)t;
	}
	return 0;
}

/* Words for generated cache descriptions, indexed like the perf enums. */
static const char *const cache_type_desc[PERF_COUNT_HW_CACHE_MAX] = {
	"Level 1 data cache", "Level 1 instruction cache", "Last-level cache", "Data TLB",
	"Instruction TLB", "Branch prediction unit", "Local memory (NUMA node)",
};
static const char *const cache_op_desc[PERF_COUNT_HW_CACHE_OP_MAX][2] = {
	{ "loads", "load" }, { "stores", "store" }, { "prefetches", "prefetch" },
};

static int add_cache(struct pk_catalog *cat)
{
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!pk__cache_op_valid(t, op))
				continue;
			for (int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				uint64_t config = (uint64_t)t | (uint64_t)op << 8 | (uint64_t)res << 16;
				char name[64], desc[128];
				struct cat_event *e;

				pk__cache_name(config, name, sizeof(name));
				if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(desc, sizeof(desc), "%s %s", cache_type_desc[t],
						 cache_op_desc[op][0]);
				else
					snprintf(desc, sizeof(desc), "%s %s misses", cache_type_desc[t],
						 cache_op_desc[op][1]);
				e = pk__cat_add(cat, PK_SRC_HW_CACHE, name, "cpu", desc, NULL);
				if (!e)
					return pk__error_nomem("a catalog entry");
				e->info.code = config;
			}
		}
	}
	return 0;
}

static int add_raw(struct pk_catalog *cat)
{
	struct cat_event *e = pk__cat_add(cat, PK_SRC_RAW, "rNNN", "cpu",
					  "Raw PMU event: NNN is the hexadecimal config", "r0");

	return e ? 0 : pk__error_nomem("a catalog entry");
}

/* Breakpoint attributes: the access letters of mem:ADDR[/LEN][:rwx] and the
 * length.  perf 6.1 defaults to rw and a 4-byte length (8 for x alone). */
static const struct pk_attr_info bp_attrs[] = {
	{ .name = "r", .desc = "trigger on reads (bp_type HW_BREAKPOINT_R)", .code = 1,
	  .type = PK_ATTR_MOD_BOOL, .is_dfl = true, .dfl_val64 = 1 },
	{ .name = "w", .desc = "trigger on writes (bp_type HW_BREAKPOINT_W)", .code = 2,
	  .type = PK_ATTR_MOD_BOOL, .is_dfl = true, .dfl_val64 = 1 },
	{ .name = "x", .desc = "trigger on execution (bp_type HW_BREAKPOINT_X)", .code = 4,
	  .type = PK_ATTR_MOD_BOOL },
	{ .name = "len", .desc = "bytes watched: 1, 2, 4 or 8 (bp_len)", .code = 0,
	  .type = PK_ATTR_MOD_INT, .is_dfl = true, .dfl_val64 = 4 },
};

static int own_copy(struct pk_catalog *cat, struct cat_event *e, const struct pk_attr_info *src,
		    size_t n, enum pk_attr_ctrl ctrl)
{
	struct pk_attr_info *a = pk__cat_alloc(cat, n * sizeof(*a));

	if (!a)
		return pk__error_nomem("a catalog entry's attributes");
	for (size_t i = 0; i < n; i++) {
		a[i] = src[i];
		a[i].size = sizeof(a[i]);
		a[i].equiv = "";
		a[i].ctrl = ctrl;
		a[i].field = -1;
	}
	pk__cat_set_own(e, a, n);
	return 0;
}

static int add_breakpoint(struct pk_catalog *cat)
{
	struct cat_event *e = pk__cat_add(cat, PK_SRC_BREAKPOINT, "mem:ADDR", "breakpoint",
					  "Hardware breakpoint: mem:ADDR[/LEN][:rwx]", "mem:0x0");

	if (!e)
		return pk__error_nomem("a catalog entry");
	return own_copy(cat, e, bp_attrs, sizeof(bp_attrs) / sizeof(bp_attrs[0]),
			PK_ATTR_CTRL_PERF_EVENT);
}

/* The uprobe/kprobe PMUs: one descriptor per probe kind, refined by the
 * PMU's own format terms (retprobe, ref_ctr_offset). */
static const struct {
	const char *pmu, *name, *desc, *canonical;
	enum pk_event_source src;
} probes[] = {
	{ "uprobe", "uprobe:PATH:SYMBOL", "User-space probe: uprobe:PATH:SYMBOL[+OFF] or PATH:0xOFFSET",
	  "uprobe:/bin/true:0x0", PK_SRC_UPROBE },
	{ "uprobe", "uretprobe:PATH:SYMBOL", "Return probe on a user-space function",
	  "uretprobe:/bin/true:0x0", PK_SRC_UPROBE },
	{ "kprobe", "kprobe:SYMBOL", "Kernel probe: kprobe:SYMBOL[+OFF] or kprobe:0xADDRESS",
	  "kprobe:vfs_read", PK_SRC_KPROBE },
	{ "kprobe", "kretprobe:SYMBOL", "Return probe on a kernel function",
	  "kretprobe:vfs_read", PK_SRC_KPROBE },
};

static int add_probes(struct pk_catalog *cat, const struct pk_pmus *pmus)
{
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct pk_pmu *pmu = pmus ? pk_pmus_find(pmus, probes[i].pmu) : NULL;
		struct pk_attr_info *a;
		struct cat_event *e;
		size_t n;

		if (!pmu)
			continue;
		e = pk__cat_add(cat, probes[i].src, probes[i].name, probes[i].pmu, probes[i].desc,
				probes[i].canonical);
		if (!e || pk__cat_format_attrs(cat, pmu, NULL, &a, &n))
			return pk__error_nomem("a catalog entry");
		e->info.code = pk_pmu_type(pmu);
		pk__cat_set_own(e, a, n);
	}
	return 0;
}

/* ---- the object ------------------------------------------------------------ */

static int build(struct pk_catalog *cat, const struct pk_catalog_opts *o)
{
	struct pk_pmus *pmus = NULL;
	int err;

	/* No PMU directory is a machine without perf_events sysfs (or a wrong
	 * PERFKIT_SYSFS_ROOT): the generic events are still worth listing. */
	if (pk_pmus_scan(&pmus) == -ENOMEM)
		return -ENOMEM;
	err = add_generic(cat, PERF_TYPE_HARDWARE);
	if (!err)
		err = add_generic(cat, PERF_TYPE_SOFTWARE);
	if (!err)
		err = add_tools(cat);
	if (!err)
		err = add_cache(cat);
	if (!err)
		err = add_raw(cat);
	if (!err && pmus)
		err = pk__cat_add_sysfs(cat, pmus);
	if (!err)
		err = add_breakpoint(cat);
	if (!err)
		err = add_probes(cat, pmus);
	pk_pmus_free(pmus);
	if (!err && !o->no_tracepoints)
		err = pk__cat_add_tracepoints(cat, o);
	if (!err && !o->no_libpfm)
		err = pk__cat_add_libpfm(cat, o->all_libpfm);
	return err;
}

int pk_catalog_new(const struct pk_catalog_opts *opts, struct pk_catalog **out)
{
	struct pk_catalog_opts o = { .size = sizeof(o) };
	struct pk_catalog *cat;
	int err;

	/* Copy only the part of the options the caller's struct has. */
	if (opts && opts->size) {
		size_t n = opts->size < sizeof(o) ? opts->size : sizeof(o);

		memcpy(&o, opts, n);
	}
	cat = pk__calloc(1, sizeof(*cat));
	if (!cat)
		return pk__error_nomem("the event catalog");
	pthread_mutex_init(&cat->lock, NULL);
	err = build(cat, &o);
	if (err) {
		pk_catalog_free(cat);
		return pk__error(err, "pk_catalog_new", "out of memory while enumerating events");
	}
	*out = cat;
	return 0;
}

void pk_catalog_free(struct pk_catalog *cat)
{
	if (!cat)
		return;
	pthread_mutex_destroy(&cat->lock);
	arena_free(&cat->arena);
	free(cat->ev);
	free(cat);
}

size_t pk_catalog_nr(const struct pk_catalog *cat)
{
	return cat ? cat->nr : 0;
}

/* Tracepoint fields are read on first use: reading ~2,300 format files
 * would cost more than the rest of the catalogue together. */
static const struct cat_event *entry(const struct pk_catalog *cat, size_t i)
{
	struct cat_event *e;

	if (!cat || i >= cat->nr)
		return NULL;
	e = &cat->ev[i];
	if (e->kind == CAT_TRACEPOINT) {
		struct pk_catalog *c = (struct pk_catalog *)cat;

		pthread_mutex_lock(&c->lock);
		if (!e->loaded)
			pk__cat_load_tracepoint(c, e);
		pthread_mutex_unlock(&c->lock);
	}
	return e;
}

const struct pk_event_info *pk_catalog_get(const struct pk_catalog *cat, size_t i)
{
	const struct cat_event *e = entry(cat, i);

	return e ? &e->info : NULL;
}

int pk_catalog_attr(const struct pk_catalog *cat, size_t ev, size_t idx, enum pk_os os,
		    struct pk_attr_info *out)
{
	const struct cat_event *e = entry(cat, ev);
	const struct pk_attr_info *a;
	size_t nr0;

	if (!e)
		return pk__error(-ERANGE, "pk_catalog_attr", "event index %zu is out of range (%zu events)",
				 ev, pk_catalog_nr(cat));
	if ((unsigned)os > PK_OS_PERF_EXT)
		return pk__error(-ERANGE, "pk_catalog_attr", "OS layer %d does not exist", (int)os);
	if (idx >= e->info.nr_attrs[os])
		return pk__error(-ERANGE, e->info.name, "attribute %zu is out of range: %zu at this layer",
				 idx, e->info.nr_attrs[os]);
	nr0 = e->info.nr_attrs[PK_OS_PMU];
	if (e->kind == CAT_LIBPFM)
		a = os == PK_OS_PMU ? &e->own[idx] : &e->hi[idx];
	else if (idx < nr0)
		a = &e->own[idx];
	else if (idx < nr0 + NR_PERF)
		a = &perf_attrs[idx - nr0];
	else
		a = &ext_attrs[idx - nr0 - NR_PERF];
	*out = *a;
	out->size = sizeof(*out);
	/* The shared tables number their attributes within their layer. */
	if (e->kind != CAT_LIBPFM && idx >= nr0)
		out->code = idx - nr0 < NR_PERF ? idx - nr0 : idx - nr0 - NR_PERF;
	return 0;
}

/* ---- lookup ----------------------------------------------------------------- */

static int find_exact(const struct pk_catalog *cat, const char *name)
{
	for (size_t i = 0; i < cat->nr; i++)
		if (!strcmp(cat->ev[i].info.name, name) || !strcmp(cat->ev[i].info.canonical, name))
			return (int)i;
	return -1;
}

/* "pmu/alias" and "pmu/alias/" with the alias in any case, like perf; a
 * term list ("cpu/event=0x3c/") names the PMU's raw descriptor. */
static int find_pmu_form(const struct pk_catalog *cat, const char *name)
{
	const char *slash = strchr(name, '/');
	size_t pl, al;
	const char *alias;

	if (!slash || slash == name)
		return -1;
	pl = (size_t)(slash - name);
	alias = slash + 1;
	al = strcspn(alias, "/");
	for (size_t i = 0; i < cat->nr; i++) {
		const struct pk_event_info *in = &cat->ev[i].info;

		if (strncmp(in->name, name, pl) || in->name[pl] != '/')
			continue;
		if (in->source == PK_SRC_PMU && !strncasecmp(in->name + pl + 1, alias, al) &&
		    in->name[pl + 1 + al] == '/' && !in->name[pl + 2 + al])
			return (int)i;
		if (in->source == PK_SRC_RAW && (memchr(alias, '=', al) || al == 0))
			return (int)i;
	}
	return -1;
}

/* libpfm4 names: "skl::INST_RETIRED[:ANY_P:u]" or "INST_RETIRED[:...]". */
static int find_libpfm(const struct pk_catalog *cat, const char *name)
{
	const char *sep = strstr(name, "::");
	const char *ev = sep ? sep + 2 : name;
	size_t el = strcspn(ev, ":");

	for (size_t i = 0; i < cat->nr; i++) {
		const struct pk_event_info *in = &cat->ev[i].info;

		if (in->source != PK_SRC_LIBPFM || strncmp(in->name, ev, el) || in->name[el])
			continue;
		/* pmu is "libpfm4:<name>". */
		if (sep && (strncmp(in->pmu + 8, name, (size_t)(sep - name)) ||
			    in->pmu[8 + (sep - name)]))
			continue;
		return (int)i;
	}
	return -1;
}

static int find_prefix(const struct pk_catalog *cat, const char *name)
{
	static const struct { const char *prefix, *entry; } kinds[] = {
		{ "mem:", "mem:ADDR" },
		{ "uprobe:", "uprobe:PATH:SYMBOL" },
		{ "uretprobe:", "uretprobe:PATH:SYMBOL" },
		{ "kprobe:", "kprobe:SYMBOL" },
		{ "kretprobe:", "kretprobe:SYMBOL" },
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strncmp(name, kinds[k].prefix, strlen(kinds[k].prefix)))
			return find_exact(cat, kinds[k].entry);
	if (name[0] == 'r' && name[1] && strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1))
		return find_exact(cat, "rNNN");
	return -1;
}

/* Generic aliases ("cs"), cache spellings ("l1d-loads"), then the rest. */
static int find_any(const struct pk_catalog *cat, const char *name)
{
	const struct pk__generic *g;
	int64_t config;
	int i;

	if ((i = find_exact(cat, name)) >= 0)
		return i;
	if ((g = pk__generic_find(name)) && (i = find_exact(cat, g->name)) >= 0)
		return i;
	if ((config = pk__cache_parse(name)) >= 0) {
		char buf[64];

		pk__cache_name((uint64_t)config, buf, sizeof(buf));
		if ((i = find_exact(cat, buf)) >= 0)
			return i;
	}
	if ((i = find_pmu_form(cat, name)) >= 0)
		return i;
	if ((i = find_prefix(cat, name)) >= 0)
		return i;
	return find_libpfm(cat, name);
}

static int not_found(const struct pk_catalog *cat, const char *name)
{
	size_t best = (size_t)-1, best_i = 0;
	size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;

	pk__error(-ENOENT, name, "no such event in the catalogue of this machine");
	for (size_t i = 0; i < cat->nr; i++) {
		size_t d = pk__edit_distance_max(name, cat->ev[i].info.name, limit);

		if (d < best) {
			best = d;
			best_i = i;
		}
	}
	if (best <= limit)
		pk__error_hint("did you mean '%s'?", cat->ev[best_i].info.name);
	else
		pk__error_hint("'perfkit list' shows every event this machine offers");
	return -ENOENT;
}

int pk_catalog_find(const struct pk_catalog *cat, const char *name)
{
	char base[256];
	int i;

	if (!cat || !name || !*name)
		return pk__error(-ENOENT, "pk_catalog_find", "no event name given");
	if ((i = find_any(cat, name)) >= 0)
		return i;
	/* "task-clock:u": the event without its modifiers. */
	if (strchr(name, ':') && !strchr(name, '/')) {
		snprintf(base, sizeof(base), "%.*s", (int)strcspn(name, ":"), name);
		if ((i = find_any(cat, base)) >= 0)
			return i;
	}
	return not_found(cat, name);
}
