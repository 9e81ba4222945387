/* SPDX-License-Identifier: MIT */
/*
 * parse.c - event strings to perf_event_attr: perf 6.1's grammar (generic,
 * cache, raw, numeric, pmu/terms/, sysfs aliases, breakpoints, tracepoints,
 * modifiers, groups) plus direct uprobes/kprobes and libpfm4 names.  The
 * parser is hand-written recursive descent over the spec; every error names
 * the problem and the 1-based column of the offending character.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



int pk__parse_col(const struct pk__parser *p, size_t off)
{
	(void)p;
	return (int)off + 1;
}

int pk__parse_error(const struct pk__parser *p, const struct pk__span *s, size_t off, int err,
		    const char *fmt, ...)
{
	char what[300], why[600];
	va_list ap;

	snprintf(what, sizeof(what), "event '%.*s'", (int)(s->end - s->start), p->spec + s->start);
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pk__error(err, what, "%s", why);
	pk__error_column(pk__parse_col(p, off));
	return err;
}

/* ---- growing the result ------------------------------------------------- */

char *pk__parse_own(struct pk__parser *p, char *s)
{
	char **n;

	if (!s)
		return NULL;
	n = pk__realloc(p->ev->owned, (p->ev->nr_owned + 1) * sizeof(*n));
	if (!n) {
		free(s);
		return NULL;
	}
	p->ev->owned = n;
	n[p->ev->nr_owned++] = s;
	return s;
}

char *pk__parse_own_copy(struct pk__parser *p, const char *s, size_t n)
{
	return pk__parse_own(p, pk__strndup(s, n));
}

struct pk__event *pk__parse_add(struct pk__parser *p, size_t start)
{
	struct pk__event *d;

	if (p->ev->nr == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		struct pk__event *n = pk__realloc(p->ev->ev, cap * sizeof(*n));
		const char **b;
		char *st;

		if (!n)
			return NULL;
		p->ev->ev = n;
		b = pk__realloc(p->base, cap * sizeof(*b));
		if (!b)
			return NULL;
		p->base = b;
		st = pk__realloc(p->style, cap);
		if (!st)
			return NULL;
		p->style = st;
		p->cap = cap;
	}
	d = &p->ev->ev[p->ev->nr];
	memset(d, 0, sizeof(*d));
	d->desc.size = sizeof(d->desc);
	d->desc.leader = p->ev->nr;
	d->desc.nr_members = 1;
	d->desc.column = pk__parse_col(p, start);
	d->desc.max_stack = -1;
	d->desc.time = -1;
	d->desc.overwrite = -1;
	d->a.attr.size = PERF_ATTR_SIZE_VER7;
	/* perf's event_attr_init: every event starts excluding the guest (perf
	 * clears this only in `perf kvm --guest`, which perfkit has not); a
	 * modifier string then sets the bits afresh. */
	d->a.attr.exclude_guest = 1;
	p->base[p->ev->nr] = NULL;
	p->style[p->ev->nr] = STYLE_NONE;
	p->ev->nr++;
	return d;
}

/* The caller's snapshot when opts carries one (a caller parsing many
 * strings scans sysfs once), else one scan per parse, made on first use. */
const struct pk_pmus *pk__parse_pmus(struct pk__parser *p)
{
	const struct pk_parse_opts *o = p->opts;

	if (p->pmus || p->pmus_err)
		return p->pmus;
	if (o && o->size >= offsetof(struct pk_parse_opts, pmus) + sizeof(o->pmus) && o->pmus) {
		p->pmus = o->pmus;
		return p->pmus;
	}
	p->pmus_err = pk_pmus_scan(&p->pmus_owned);
	p->pmus = p->pmus_owned;
	return p->pmus;
}

/* opts->kallsyms when the caller's opts have it, else NULL (/proc/kallsyms). */
const char *pk__parse_kallsyms(const struct pk__parser *p)
{
	const struct pk_parse_opts *o = p->opts;

	if (o && o->size >= offsetof(struct pk_parse_opts, kallsyms) + sizeof(o->kallsyms))
		return o->kallsyms;
	return NULL;
}

const char *pk__parse_tracefs(struct pk__parser *p)
{
	if (p->tracefs_err == 1) {
		p->tracefs_err = pk__tracefs_find(p->opts ? p->opts->tracefs : NULL, p->tracefs,
						  sizeof(p->tracefs));
		/* Keep the reason: the error record is reused for the event. */
		if (p->tracefs_err)
			snprintf(p->tracefs_why, sizeof(p->tracefs_why), "%s", pk_last_error()->why);
	}
	return p->tracefs_err ? NULL : p->tracefs;
}

/* ---- numbers ---------------------------------------------------------- */

/* A decimal or 0x-hex number filling [s, s+n) exactly, through the one
 * checked number parser (leading zeros are decimal, as in perf's lexer). */
bool pk__parse_num(const char *s, size_t n, uint64_t *out)
{
	return pk__num_u64(s, n, 0, UINT64_MAX, out) == 0;
}

bool pk__parse_hex(const char *s, size_t n, uint64_t *out)
{
	char buf[40], *end;

	if (!n || n > 16 || !isxdigit((unsigned char)s[0]))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtoull(buf, &end, 16);
	return !errno && *end == '\0';
}

/* ---- dispatch ------------------------------------------------------------- */

static bool has_prefix(const struct pk__parser *p, const struct pk__span *s, const char *pre)
{
	size_t n = strlen(pre);

	return s->end - s->start >= n && !strncmp(p->spec + s->start, pre, n);
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* libpfm4's event names are upper case: INST_RETIRED, UOPS_ISSUED:ANY. */
static bool looks_like_pfm(const char *name)
{
	size_t n = strcspn(name, ":");

	for (size_t i = 0; i < n; i++)
		if (islower((unsigned char)name[i]) || name[i] == '-')
			return false;
	return n > 0;
}

/* A sysfs alias without its PMU: one event per PMU that has it.  Returns
 * 1 when any was added, 0 when no PMU has it, or a negative errno. */
static int add_bare_alias(struct pk__parser *p, const struct pk__span *s, struct pk__parts *x,
			  const char *body)
{
	size_t before = p->ev->nr;
	int err;

	if (!pk__parse_pmus(p))
		return 0;
	for (size_t i = 0; i < pk_pmus_nr(p->pmus); i++) {
		const struct pk_pmu *pmu = pk_pmus_get(p->pmus, i);
		const struct pk_pmu_alias *al = pk_pmu_find_alias(pmu, body);

		if (al && (err = pk__parse_add_pmu(p, s, x, pmu, al)) < 0)
			return err;
	}
	return p->ev->nr > before;
}

/* A plain name nothing else knew: libpfm4's last, then the message with
 * the nearest known name. */
static int unknown_plain(struct pk__parser *p, const struct pk__span *s, struct pk__parts *x,
			 const char *body, bool has_colon)
{
	int err;

	if (!p->opts || !p->opts->no_libpfm) {
		char pfm_why[768], pfm_hint[768];

		err = pk__parse_add_libpfm(p, s);
		if (err != -ENOENT)
			return err;
		/* For names shaped like libpfm4's ("INST_RETIRED", "pmu::name"),
		 * what libpfm4 knows is the useful part of the message. */
		snprintf(pfm_why, sizeof(pfm_why), "%s", pk_last_error()->why);
		snprintf(pfm_hint, sizeof(pfm_hint), "%s", pk_last_error()->hint);
		if (strstr(body, "::") || looks_like_pfm(body)) {
			pk__parse_error(p, s, x->head, -ENOENT, "unknown event '%s'", body);
			pk__error_hint("%s%s%s", pfm_why, pfm_hint[0] ? "; " : "", pfm_hint);
			return -ENOENT;
		}
	}
	pk__parse_error(p, s, x->head, -ENOENT, "unknown event '%s'", body);
	if (has_colon && p->tracefs_err && p->tracefs_err != 1) {
		pk__parse_error(p, s, x->head, -ENOENT,
				"'%s' looks like a tracepoint (subsys:event), but tracefs is not available: %s",
				body, p->tracefs_why);
		pk__error_hint("as root: %s", PK__TRACEFS_MOUNT_HINT);
		return -ENOENT;
	}
	pk__parse_suggest(p, body);
	return -ENOENT;
}

/* A name without slashes: generic, cache, raw, numeric, alias, tracepoint, libpfm. */
static int parse_plain(struct pk__parser *p, const struct pk__span *s, struct pk__parts *x)
{
	char body[256], *colon;
	const struct pk__generic *g;
	uint64_t v, v2;
	int64_t cache;
	const char *dir;
	int err;

	if (x->head_len >= sizeof(body))
		return pk__parse_error(p, s, x->head, -EINVAL, "%s", "event name is too long");
	memcpy(body, p->spec + x->head, x->head_len);
	body[x->head_len] = '\0';
	colon = strchr(body, ':');
	if (!colon) {
		if (pk__tool_find(body) != PK_TOOL_NONE)
			return pk__parse_add_tool(p, s, x, pk__tool_find(body));
		/* perf's exact spellings first; other cases ("CYCLES") only after
		 * the sysfs aliases, which perf matches ignoring case. */
		if ((g = pk__generic_find(body)) &&
		    (!strcmp(g->name, body) || !strcmp(g->alias, body)))
			return pk__parse_add_generic(p, s, x, g);
		cache = pk__cache_parse(body);
		if (cache >= 0)
			return pk__parse_add_cache(p, s, x, (uint64_t)cache);
		if (cache != -ENOENT) {
			pk__error_column(pk__parse_col(p, x->head));
			return (int)cache;
		}
		if (body[0] == 'r' && (pk__parse_hex(body + 1, strlen(body + 1), &v) ||
				       (!strncmp(body, "r0x", 3) && pk__parse_hex(body + 3, strlen(body + 3), &v))))
			return pk__parse_add_raw(p, s, x, PERF_TYPE_RAW, v);
		if ((err = add_bare_alias(p, s, x, body)) != 0)
			return err < 0 ? err : 0;
		if (g)
			return pk__parse_add_generic(p, s, x, g);
	} else {
		*colon = '\0';
		if (pk__parse_num(body, strlen(body), &v) && pk__parse_num(colon + 1, strlen(colon + 1), &v2)) {
			if (v > UINT32_MAX)
				return pk__parse_error(p, s, x->head, -EINVAL, "%s", "event type does not fit in 32 bits");
			return pk__parse_add_raw(p, s, x, (uint32_t)v, v2);
		}
		if (!strstr(colon + 1, ":") && colon[1] != ':' && (dir = pk__parse_tracefs(p)) &&
		    (is_glob(body) || pk__tracefs_is_system(dir, body))) {
			if (!colon[1])
				return pk__parse_error(p, s, x->head + strlen(body) + 1, -EINVAL, "%s",
					      "tracepoint needs an event name after the colon: subsys:event");
			return pk__parse_add_tracepoints(p, s, x, dir, body, colon + 1);
		}
		*colon = ':';
	}
	return unknown_plain(p, s, x, body, colon != NULL);
}

static int unknown_pmu(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x, const char *head)
{
	char list[400];
	size_t n = 0;
	struct pk__best b = { .typed = head, .dist = SIZE_MAX };

	list[0] = '\0';
	for (size_t i = 0; p->pmus && i < pk_pmus_nr(p->pmus); i++) {
		const char *name = pk_pmu_name(pk_pmus_get(p->pmus, i));

		pk__parse_consider(&b, name);
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", name);
	}
	/* A PMU the kernel lists but whose type file is unusable: say why. */
	for (size_t i = 0; i < pk_pmus_nr_unusable(p->pmus); i++) {
		const char *why, *name = pk_pmus_unusable(p->pmus, i, &why);

		if (!strcmp(name, head)) {
			pk__parse_error(p, s, x->head, -ENODEV, "PMU '%s' cannot be used: %s", head, why);
			pk__error_hint("perf_event_open needs the number in %s/%s/type", pk_pmus_dir(p->pmus),
				       head);
			return -ENODEV;
		}
	}
	pk__parse_error(p, s, x->head, -ENODEV, "no PMU named '%s' on this machine", head);
	if (!strcmp(head, "cpu") || !strncmp(head, "cpu_", 4))
		pk__error_hint("this machine has no hardware PMU (a virtual machine without PMU "
			       "passthrough?); PMUs here: %s. Count software events such as "
			       "cpu-clock or task-clock instead", list);
	else if (b.dist <= 2)
		pk__error_hint("did you mean %s? PMUs here: %s", b.name, list);
	else
		pk__error_hint("PMUs here: %s", list);
	return -ENODEV;
}

/* "HEAD/TERMS/MODS": a PMU, or a generic/cache/raw/tracepoint event with terms. */
static int parse_slashed(struct pk__parser *p, const struct pk__span *s, struct pk__parts *x)
{
	char head[256];
	const struct pk__generic *g;
	const struct pk_pmu *pmu;
	int64_t cache;
	uint64_t v;
	char *colon;
	const char *dir;

	if (x->head_len >= sizeof(head) || !x->head_len)
		return pk__parse_error(p, s, x->head, -EINVAL, "%s",
			      x->head_len ? "PMU name is too long" : "expected a PMU or event name before '/'");
	memcpy(head, p->spec + x->head, x->head_len);
	head[x->head_len] = '\0';
	if ((g = pk__generic_find(head)))
		return pk__parse_add_generic(p, s, x, g);
	if ((cache = pk__cache_parse(head)) >= 0)
		return pk__parse_add_cache(p, s, x, (uint64_t)cache);
	if (head[0] == 'r' && pk__parse_hex(head + 1, strlen(head + 1), &v))
		return pk__parse_add_raw(p, s, x, PERF_TYPE_RAW, v);
	if ((colon = strchr(head, ':')) && (dir = pk__parse_tracefs(p))) {
		*colon = '\0';
		return pk__parse_add_tracepoints(p, s, x, dir, head, colon + 1);
	}
	if (!pk__parse_pmus(p))
		return p->pmus_err;
	pmu = pk_pmus_find(p->pmus, head);
	if (!pmu)
		return unknown_pmu(p, s, x, head);
	return pk__parse_add_pmu(p, s, x, pmu, NULL);
}

static int parse_event(struct pk__parser *p, const struct pk__span *s)
{
	const char *t = p->spec + s->start;
	size_t n = s->end - s->start;
	const char *slash = memchr(t, '/', n);
	struct pk__parts x = { .head = s->start };

	if (!n)
		return pk__parse_error(p, s, s->start, -EINVAL, "%s", "expected an event name");
	if (has_prefix(p, s, "mem:"))
		return pk__parse_add_breakpoint(p, s);
	if (has_prefix(p, s, "uprobe:"))
		return pk__parse_add_probe(p, s, false, false, 7);
	if (has_prefix(p, s, "uretprobe:"))
		return pk__parse_add_probe(p, s, false, true, 10);
	if (has_prefix(p, s, "kprobe:"))
		return pk__parse_add_probe(p, s, true, false, 7);
	if (has_prefix(p, s, "kretprobe:"))
		return pk__parse_add_probe(p, s, true, true, 10);
	if (slash) {
		const char *close = memchr(slash + 1, '/', (size_t)(t + n - slash - 1));

		if (!close)
			return pk__parse_error(p, s, s->end, -EINVAL, "%s", "missing closing '/' after the terms");
		x.slashed = true;
		x.head_len = (size_t)(slash - t);
		x.terms = (size_t)(slash + 1 - p->spec);
		x.terms_len = (size_t)(close - slash - 1);
		x.mods = (size_t)(close + 1 - p->spec);
		if (x.mods < s->end && p->spec[x.mods] == ':')
			x.mods++;
		x.mods_len = s->end - x.mods;
		if (x.mods_len && memchr(p->spec + x.mods, '/', x.mods_len))
			return pk__parse_error(p, s, x.mods, -EINVAL, "%s", "unexpected '/' after the terms");
		return parse_slashed(p, s, &x);
	}
	x.head_len = n;
	const char *colon = memrchr(t, ':', n);

	if (colon && pk__parse_looks_like_mods(colon + 1, (size_t)(t + n - colon - 1))) {
		/* libpfm4 names keep their own ":u" style attributes. */
		bool pfm = (colon > t && memchr(t, ':', (size_t)(colon - t)) && looks_like_pfm(t)) ||
			   memmem(t, n, "::", 2);

		if (!pfm) {
			x.head_len = (size_t)(colon - t);
			x.mods = (size_t)(colon + 1 - p->spec);
			x.mods_len = (size_t)(t + n - colon - 1);
		}
	} else if (colon && colon == t + n - 1 && !memmem(t, n, "::", 2)) {
		return pk__parse_error(p, s, s->end, -EINVAL, "%s", "expected modifiers after ':'");
	}
	return parse_plain(p, s, &x);
}

/* ---- lists and groups ------------------------------------------------------ */

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

/* Find where the event starting at i ends: at ',' '}' '{' or the end, but a
 * comma between the slashes of pmu/a=1,b=2/ belongs to the event. */
static size_t event_end(const char *s, size_t i)
{
	bool probe = !strncmp(s + i, "uprobe:", 7) || !strncmp(s + i, "uretprobe:", 10) ||
		     !strncmp(s + i, "kprobe:", 7) || !strncmp(s + i, "kretprobe:", 10) ||
		     !strncmp(s + i, "mem:", 4);
	bool in_terms = false;

	for (; s[i]; i++) {
		if (s[i] == '/' && !probe)
			in_terms = !in_terms;
		else if (!in_terms && (s[i] == ',' || s[i] == '}' || s[i] == '{' || s[i] == ' ' ||
				       s[i] == '\t'))
			break;
	}
	return i;
}

static int parse_group(struct pk__parser *p, size_t *pos)
{
	size_t i = *pos + 1, first = p->ev->nr, open = *pos;
	struct pk__span gs = { open, strlen(p->spec) };
	int err;

	for (;;) {
		struct pk__span s;

		i = skip_space(p->spec, i);
		if (p->spec[i] == '{')
			return pk__parse_error(p, &gs, i, -EINVAL, "%s", "groups cannot be nested");
		if (p->spec[i] == '}' && p->ev->nr == first)
			return pk__parse_error(p, &gs, i, -EINVAL, "%s", "empty group: put events between { and }");
		s.start = i;
		s.end = event_end(p->spec, i);
		while (s.end > s.start && (p->spec[s.end - 1] == ' ' || p->spec[s.end - 1] == '\t'))
			s.end--;
		if ((err = parse_event(p, &s)) < 0)
			return err;
		i = skip_space(p->spec, event_end(p->spec, i));
		if (p->spec[i] == ',') {
			i++;
			continue;
		}
		if (p->spec[i] == '}')
			break;
		gs.end = i;
		pk__parse_error(p, &gs, open, -EINVAL, "%s", "unbalanced '{': the group is never closed");
		pk__error_hint("close the group with '}', e.g. {cycles,instructions}");
		return -EINVAL;
	}
	i++;
	gs.end = i;
	if (p->spec[i] == ':') {
		size_t m = i + 1, e = event_end(p->spec, m);

		gs.end = e;
		for (size_t k = first; k < p->ev->nr; k++)
			if ((err = pk__parse_mods(p, &gs, m, e - m, &p->ev->ev[k], true, k == first)) < 0)
				return err;
		i = e;
	}
	for (size_t k = first; k < p->ev->nr; k++)
		p->ev->ev[k].desc.leader = first;
	p->ev->ev[first].desc.nr_members = p->ev->nr - first;
	if ((err = pk__tool_check_group(p, &gs, first)) < 0)
		return err;
	*pos = i;
	return 0;
}

static int parse_list(struct pk__parser *p)
{
	size_t i = 0;
	int err;

	for (;;) {
		i = skip_space(p->spec, i);
		if (p->spec[i] == '{') {
			err = parse_group(p, &i);
		} else if (p->spec[i] == '}') {
			struct pk__span s = { i, i + 1 };

			return pk__parse_error(p, &s, i, -EINVAL, "%s", "'}' without a matching '{'");
		} else {
			struct pk__span s = { i, event_end(p->spec, i) };

			while (s.end > s.start && (p->spec[s.end - 1] == ' ' || p->spec[s.end - 1] == '\t'))
				s.end--;
			err = parse_event(p, &s);
			i = event_end(p->spec, i);
		}
		if (err < 0)
			return err;
		i = skip_space(p->spec, i);
		if (!p->spec[i])
			return 0;
		if (p->spec[i] == '{') {
			struct pk__span s = { i, i + 1 };

			return pk__parse_error(p, &s, i, -EINVAL, "%s", "expected ',' before '{'");
		}
		if (p->spec[i] != ',') {
			struct pk__span s = { i, i + 1 };

			return pk__parse_error(p, &s, i, -EINVAL, "%s", p->spec[i] == '}' ?
				      "'}' without a matching '{'" : "expected ',' between events");
		}
		i++;
		if (!p->spec[skip_space(p->spec, i)]) {
			struct pk__span s = { i - 1, i };

			return pk__parse_error(p, &s, i - 1, -EINVAL, "%s", "trailing ',' with no event after it");
		}
	}
}

/* ---- public API ----------------------------------------------------------- */

int pk_events_parse(const char *spec, const struct pk_parse_opts *opts, struct pk_events **out)
{
	struct pk__parser p = { .spec = spec, .opts = opts, .tracefs_err = 1 };
	int err;

	pk__error_clear();
	if (!spec || !out)
		return pk__error(-EINVAL, "pk_events_parse", "%s", "no event string given");
	if (!*spec)
		return pk__error(-EINVAL, "event ''", "%s", "the event list is empty");
	p.ev = pk__calloc(1, sizeof(*p.ev));
	if (!p.ev)
		return pk__error_nomem("the event list");
	err = parse_list(&p);
	if (err >= 0)
		err = pk__parse_finish_canonical(&p);
	pk_pmus_free(p.pmus_owned);
	free(p.base);
	free(p.style);
	if (err < 0) {
		pk_events_free(p.ev);
		return err;
	}
	for (size_t i = 0; i < p.ev->nr; i++)
		p.ev->ev[i].desc.config3 = p.ev->ev[i].a.word[PK__ATTR8_CONFIG3];
	*out = p.ev;
	return (int)p.ev->nr;
}

void pk_events_free(struct pk_events *ev)
{
	if (!ev)
		return;
	for (size_t i = 0; i < ev->nr_owned; i++)
		free(ev->owned[i]);
	free(ev->owned);
	free(ev->ev);
	free(ev);
}

size_t pk_events_nr(const struct pk_events *ev)
{
	return ev ? ev->nr : 0;
}

const struct perf_event_attr *pk_events_attr(const struct pk_events *ev, size_t i)
{
	return ev && i < ev->nr ? &ev->ev[i].a.attr : NULL;
}

int pk_events_group(struct pk_events *ev, size_t first, size_t n)
{
	size_t end = first + n;

	if (ev && __atomic_load_n(&ev->frozen, __ATOMIC_RELAXED))
		return pk__error(-EBUSY, "pk_events_group", "%s", "the event list was given to "
				 "pk_evlist_new: its groups are set");
	if (!ev || !n || first >= ev->nr || n > ev->nr - first ||
	    ev->ev[first].desc.leader < first || (end < ev->nr && ev->ev[end].desc.leader < end))
		return pk__error(-EINVAL, "pk_events_group", "events %zu..%zu are not whole groups of "
				 "the list", first, end - 1);
	for (size_t k = first; k < end; k++) {
		ev->ev[k].desc.leader = first;
		ev->ev[k].desc.nr_members = 1;
	}
	ev->ev[first].desc.nr_members = n;
	return 0;
}

struct perf_event_attr *pk_events_attr_mut(struct pk_events *ev, size_t i)
{
	if (ev && __atomic_load_n(&ev->frozen, __ATOMIC_RELAXED)) {
		pk__error(-EBUSY, "pk_events_attr_mut", "%s", "the event list was given to "
			  "pk_evlist_new, which copied its attrs: a change now would not take effect");
		pk__error_hint("%s", "complete the attrs before pk_evlist_new, or parse the list again");
		return NULL;
	}
	return ev && i < ev->nr ? &ev->ev[i].a.attr : NULL;
}

void pk__events_freeze(const struct pk_events *ev)
{
	/* The list was allocated mutable by pk_events_parse; the const is the
	 * evlist's promise not to change what it copies. */
	__atomic_store_n(&((struct pk_events *)ev)->frozen, true, __ATOMIC_RELAXED);
}

const struct pk_event_desc *pk_events_desc(const struct pk_events *ev, size_t i)
{
	return ev && i < ev->nr ? &ev->ev[i].desc : NULL;
}

const char *pk_event_source_name(enum pk_event_source src)
{
	static const char *const names[] = {
		[PK_SRC_HARDWARE] = "hardware", [PK_SRC_SOFTWARE] = "software",
		[PK_SRC_HW_CACHE] = "hw-cache", [PK_SRC_RAW] = "raw",
		[PK_SRC_PMU] = "pmu", [PK_SRC_TRACEPOINT] = "tracepoint",
		[PK_SRC_BREAKPOINT] = "breakpoint", [PK_SRC_UPROBE] = "uprobe",
		[PK_SRC_KPROBE] = "kprobe", [PK_SRC_LIBPFM] = "libpfm4",
		[PK_SRC_TOOL] = "tool",
	};

	return (unsigned)src < sizeof(names) / sizeof(names[0]) ? names[src] : "unknown";
}
