/* SPDX-License-Identifier: MIT */
/*
 * parse-kinds.c - one function per kind of event (generic, cache, raw, PMU,
 * breakpoint, probe, tracepoint, libpfm4) that turns a parsed event into
 * descriptors with their attrs.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- event kinds -------------------------------------------------------- */


static int finish(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
		  struct pk__event *d, const struct pk_pmu *pmu)
{
	int err;

	if (x->slashed) {
		err = pk__parse_terms(p, s, p->spec + x->terms, x->terms_len, x->terms, true, d, pmu, 0);
		if (err < 0)
			return err;
	}
	if (x->mods_len)
		return pk__parse_mods(p, s, x->mods, x->mods_len, d, false, true);
	return 0;
}

static int set_name(struct pk__parser *p, const struct pk__span *s, struct pk__event *d)
{
	if (!d->desc.name)
		d->desc.name = pk__parse_own_copy(p, p->spec + s->start, s->end - s->start);
	return d->desc.name ? 0 : pk__error_nomem("an event name");
}

int pk__parse_add_generic(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
		       const struct pk__generic *g)
{
	struct pk__event *d = pk__parse_add(p, s->start);
	int err;

	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = g->type;
	d->a.attr.config = g->config;
	d->desc.source = g->type == PERF_TYPE_HARDWARE ? PK_SRC_HARDWARE : PK_SRC_SOFTWARE;
	d->desc.pmu = g->type == PERF_TYPE_HARDWARE ? "cpu" : "software";
	if ((err = finish(p, s, x, d, NULL)) < 0 || (err = set_name(p, s, d)) < 0)
		return err;
	return pk__parse_set_canonical(p, d, g->name, false);
}

int pk__parse_add_cache(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x, uint64_t config)
{
	struct pk__event *d = pk__parse_add(p, s->start);
	char base[64];
	int err;

	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = PERF_TYPE_HW_CACHE;
	d->a.attr.config = config;
	d->desc.source = PK_SRC_HW_CACHE;
	d->desc.pmu = "cpu";
	if ((err = finish(p, s, x, d, NULL)) < 0 || (err = set_name(p, s, d)) < 0)
		return err;
	pk__cache_name(config, base, sizeof(base));
	return pk__parse_set_canonical(p, d, base, false);
}

int pk__parse_add_raw(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x, uint32_t type,
		   uint64_t config)
{
	struct pk__event *d = pk__parse_add(p, s->start);
	char base[64];
	int err;

	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = type;
	d->a.attr.config = config;
	d->desc.source = PK_SRC_RAW;
	d->desc.pmu = "cpu";
	if ((err = finish(p, s, x, d, NULL)) < 0 || (err = set_name(p, s, d)) < 0)
		return err;
	if (type != PERF_TYPE_RAW) {
		const struct pk_pmu *pmu = pk__parse_pmus(p) ? pk__pmu_find_by_type(p->pmus, type) : NULL;
		const struct pk__generic *g = NULL;

		for (size_t i = 0; i < pk__nr_generic_events; i++)
			if (pk__generic_events[i].type == type && pk__generic_events[i].config == d->a.attr.config)
				g = &pk__generic_events[i];
		d->desc.source = type == PERF_TYPE_HARDWARE ? PK_SRC_HARDWARE :
			    type == PERF_TYPE_SOFTWARE ? PK_SRC_SOFTWARE :
			    type == PERF_TYPE_HW_CACHE ? PK_SRC_HW_CACHE : PK_SRC_PMU;
		if (pmu && !(d->desc.pmu = pk__parse_own(p, pk__strdup(pk_pmu_name(pmu)))))
			return pk__error_nomem("an event's PMU name");
		if (g)
			return pk__parse_set_canonical(p, d, g->name, false);
		snprintf(base, sizeof(base), "%u:0x%" PRIx64, type, (uint64_t)d->a.attr.config);
		return pk__parse_set_canonical(p, d, base, false);
	}
	snprintf(base, sizeof(base), "r%" PRIx64, (uint64_t)d->a.attr.config);
	return pk__parse_set_canonical(p, d, base, false);
}

int pk__parse_add_pmu(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
			 const struct pk_pmu *pmu, const struct pk_pmu_alias *alias)
{
	struct pk__event *d = pk__parse_add(p, s->start);
	int err;

	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = pk_pmu_type(pmu);
	d->desc.source = PK_SRC_PMU;
	/* The PMU snapshot is freed when parsing ends; keep our own copy. */
	if (!(d->desc.pmu = pk__parse_own(p, pk__strdup(pk_pmu_name(pmu)))))
		return pk__error_nomem("an event's PMU name");
	if (alias && (err = pk__parse_terms(p, s, alias->terms, strlen(alias->terms), s->start, false, d,
					 pmu, 1)) < 0)
		return err;
	if ((err = finish(p, s, x, d, pmu)) < 0 || (err = set_name(p, s, d)) < 0)
		return err;
	if (d->a.word[PK__ATTR8_CONFIG3])
		d->a.attr.size = PERF_ATTR_SIZE_VER7 + 8;
	return pk__parse_pmu_canonical(p, d);
}

int pk__parse_add_breakpoint(struct pk__parser *p, const struct pk__span *s)
{
	const char *t = p->spec + s->start + 4, *end = p->spec + s->end;
	uint64_t addr, len = 0;
	const char *q = t;
	char type[4] = "", base[96];
	struct pk__event *d;
	int err;

	while (q < end && *q != '/' && *q != ':')
		q++;
	if (pk__num_u64(t, (size_t)(q - t), 0, UINT64_MAX, &addr) < 0)
		return pk__parse_error(p, s, (size_t)(t - p->spec), -EINVAL, "%s",
			      "mem: needs an address: mem:ADDR[/LEN][:rwx] (e.g. mem:0x601040/8:w)");
	if (q < end && *q == '/') {
		const char *l = ++q;

		while (q < end && *q != ':')
			q++;
		/* perf 6.1 parses any length and drops it when the kernel refuses;
		 * hardware watchpoints cover 1, 2, 4 or 8 bytes, so say so here. */
		if (pk__num_u64(l, (size_t)(q - l), 1, 8, &len) < 0 || (len & (len - 1)))
			return pk__parse_error(p, s, (size_t)(l - p->spec), -EINVAL,
					       "breakpoint length '%.*s' is not 1, 2, 4 or 8 bytes",
					       (int)(q - l), l);
	}
	d = pk__parse_add(p, s->start);
	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = PERF_TYPE_BREAKPOINT;
	d->a.attr.sample_period = 1;
	d->desc.source = PK_SRC_BREAKPOINT;
	d->desc.pmu = "breakpoint";
	d->a.attr.bp_addr = addr;
	d->a.attr.bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (q < end) {		/* ':' then rwx and/or modifiers */
		const char *m = q + 1, *me = m;

		while (me < end && *me != ':')
			me++;
		if (me > m && strspn(m, "rwx") >= (size_t)(me - m) && me - m <= 3) {
			d->a.attr.bp_type = 0;
			for (const char *c = m; c < me; c++) {
				unsigned bit = *c == 'r' ? HW_BREAKPOINT_R : *c == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

				if (d->a.attr.bp_type & bit)
					return pk__parse_error(p, s, (size_t)(c - p->spec), -EINVAL, "%s",
						      "breakpoint access type repeats a letter");
				d->a.attr.bp_type |= bit;
			}
			if (d->a.attr.bp_type & HW_BREAKPOINT_X && d->a.attr.bp_type != HW_BREAKPOINT_X)
				return pk__parse_error(p, s, (size_t)(m - p->spec), -EINVAL, "%s",
					      "an execute breakpoint (x) cannot also watch reads or writes");
			m = me < end ? me + 1 : me;
			me = end;
		} else if (me < end || strspn(m, MODIFIER_CHARS) < (size_t)(me - m)) {
			pk__parse_error(p, s, (size_t)(m - p->spec), -EINVAL, "%s",
			       "breakpoint access type must be r, w, x or rw");
			pk__error_hint("mem:ADDR[/LEN][:rwx][:modifiers], e.g. mem:0x601040/8:w:u");
			return -EINVAL;
		}
		if (m < end && (err = pk__parse_mods(p, s, (size_t)(m - p->spec), (size_t)(end - m), d, false, true)) < 0)
			return err;
	}
	if (!len)
		len = d->a.attr.bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	d->a.attr.bp_len = len;
	if ((err = set_name(p, s, d)) < 0)
		return err;
	snprintf(type, sizeof(type), "%s%s%s", d->a.attr.bp_type & HW_BREAKPOINT_R ? "r" : "",
		 d->a.attr.bp_type & HW_BREAKPOINT_W ? "w" : "", d->a.attr.bp_type & HW_BREAKPOINT_X ? "x" : "");
	snprintf(base, sizeof(base), "mem:0x%" PRIx64 "/%" PRIu64 ":%s", addr, len, type);
	return pk__parse_set_canonical(p, d, base, false);
}

int pk__parse_add_probe(struct pk__parser *p, const struct pk__span *s, bool kprobe, bool ret, size_t prefix)
{
	const char *t = p->spec + s->start + prefix;
	size_t n = s->end - s->start - prefix;
	struct pk__event *d;
	char *owned = NULL, *canonical = NULL, *text;
	const char *colon = memrchr(t, ':', n);
	size_t mods = 0;
	int err;

	/* A trailing ":mods" (letters only) after the symbol is a modifier list. */
	if (colon && (kprobe || memchr(t, ':', (size_t)(colon - t))) &&
	    pk__parse_looks_like_mods(colon + 1, (size_t)(t + n - colon - 1)) && colon + 1 < t + n) {
		mods = (size_t)(t + n - colon - 1);
		n = (size_t)(colon - t);
	}
	if (!pk__parse_pmus(p))
		return p->pmus_err;
	text = pk__strndup(t, n);
	if (!text)
		return pk__error_nomem("a probe spec");
	d = pk__parse_add(p, s->start);
	if (!d) {
		free(text);
		return pk__error_nomem("the event list");
	}
	err = pk__probe_encode(p->pmus, kprobe, ret, text, &d->a.attr, &owned, &canonical);
	if (err < 0) {
		/* Point at the part that is wrong: the file when it is missing,
		 * otherwise the symbol after the last colon. */
		const char *sym = kprobe ? NULL : strrchr(text, ':');
		size_t at = err == -ENODEV ? s->start : s->start + prefix;

		if (sym && err != -ENODEV) {
			*(char *)sym = '\0';
			if (err != -ENOENT || access(text, F_OK) == 0)
				at += (size_t)(sym - text) + 1;
		}
		free(text);
		pk__error_column(pk__parse_col(p, at));
		return err;
	}
	free(text);
	if (!pk__parse_own(p, owned) || !pk__parse_own(p, canonical))
		return pk__error_nomem("a probe event's names");
	d->desc.source = kprobe ? PK_SRC_KPROBE : PK_SRC_UPROBE;
	d->desc.pmu = kprobe ? "kprobe" : "uprobe";
	d->a.attr.sample_period = 1;
	if (mods && (err = pk__parse_mods(p, s, s->end - mods, mods, d, false, true)) < 0)
		return err;
	if ((err = set_name(p, s, d)) < 0)
		return err;
	return pk__parse_set_canonical(p, d, canonical, false);
}

int pk__parse_add_tracepoints(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
			   const char *dir, const char *sys, const char *name)
{
	struct pk__tp *tps;
	size_t nr;
	int err = pk__tp_expand(dir, sys, name, &tps, &nr);

	if (err < 0) {
		pk__error_column(pk__parse_col(p, x->head));
		return err;
	}
	for (size_t i = 0; i < nr && err >= 0; i++) {
		struct pk__event *d = pk__parse_add(p, s->start);
		char base[300];

		if (!d) {
			err = pk__error_nomem("the event list");
			break;
		}
		d->a.attr.type = PERF_TYPE_TRACEPOINT;
		d->a.attr.config = tps[i].id;
		d->a.attr.sample_period = 1;
		d->desc.source = PK_SRC_TRACEPOINT;
		d->desc.pmu = "tracepoint";
		snprintf(base, sizeof(base), "%s:%s", tps[i].sys, tps[i].name);
		if ((err = finish(p, s, x, d, NULL)) < 0)
			break;
		if (!d->desc.name && !(d->desc.name = pk__parse_own(p, pk__strdup(base))))
			err = pk__error_nomem("an event name");
		if (err >= 0)
			err = pk__parse_set_canonical(p, d, base, false);
	}
	pk__tp_free(tps, nr);
	return err;
}

int pk__parse_add_libpfm(struct pk__parser *p, const struct pk__span *s)
{
	struct pk__event *d;
	char *text = pk__strndup(p->spec + s->start, s->end - s->start), *fstr = NULL, *pmu = NULL;
	struct perf_event_attr a;
	int err;

	if (!text)
		return pk__error_nomem("a tracepoint spec");
	memset(&a, 0, sizeof(a));
	err = pk__pfm_encode(text, &a, &fstr, &pmu);
	free(text);
	if (err < 0) {
		pk__error_column(pk__parse_col(p, s->start));
		return err;
	}
	/* pk__parse_own frees what it cannot keep; free what it never saw. */
	d = pk__parse_add(p, s->start);
	if (!d) {
		free(fstr);
		free(pmu);
		return pk__error_nomem("the event list");
	}
	if (!pk__parse_own(p, fstr)) {
		free(pmu);
		return pk__error_nomem("a tracepoint filter");
	}
	if (!pk__parse_own(p, pmu))
		return pk__error_nomem("a PMU name");
	d->a.attr = a;
	d->a.attr.size = PERF_ATTR_SIZE_VER7;
	d->desc.source = PK_SRC_LIBPFM;
	d->desc.pmu = pmu;
	d->desc.canonical = fstr;
	return set_name(p, s, d);
}

