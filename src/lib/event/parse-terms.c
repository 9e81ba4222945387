/* SPDX-License-Identifier: MIT */
/*
 * parse-terms.c - the parts of an event string after its name: modifiers
 * with perf's semantics, the /term=value/ list (common terms, PMU format
 * terms and aliases), canonical strings, and near-miss suggestions.
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

/* ---- modifiers -------------------------------------------------------- */

struct mods {
	int eu, ek, eh, eH, eG, eI, precise, precise_max, sample_read, pinned, exclusive, weak, bpf;
	int exclude_GH;
};

/* Modifier i of the string at off: a known letter, given once ('p' may
 * repeat).  Returns 0, or -EINVAL with the column pointing at it. */
static int check_mod(struct pk__parser *p, const struct pk__span *s, size_t off, size_t i)
{
	const char *m = p->spec + off;
	char c = m[i], q[8];

	snprintf(q, sizeof(q), "%c", c);
	if (!strchr(MODIFIER_CHARS, c) || !c) {
		pk__parse_error(p, s, off + i, -EINVAL, "unknown modifier '%s'", q);
		pk__error_hint("modifiers are u (user), k (kernel), h (hypervisor), G (guest), "
			       "H (host), I (not idle), p/pp/ppp (precise), P (max precise), "
			       "S (sample read), D (pinned), e (exclusive), W (weak group), b (BPF counter)");
		return -EINVAL;
	}
	if (c != 'p' && memchr(m, c, i)) {
		pk__parse_error(p, s, off + i, -EINVAL, "modifier '%s' is given twice", q);
		return -EINVAL;
	}
	return 0;
}

/*
 * Apply a modifier string with perf's semantics: the first of u/k/h excludes
 * all three privilege levels and each letter then re-includes its own; G/H
 * do the same for guest/host; 'u' and 'p' also exclude the guest unless G/H
 * said otherwise.  `add` starts from the event's current bits (group
 * modifiers combine with the members' own, including the exclude_guest
 * every event starts with), otherwise from nothing: `cpu-clock:k` has
 * exclude_guest clear, `{cpu-clock}:k` set, as in perf 6.1.
 */
int pk__parse_mods(struct pk__parser *p, const struct pk__span *s, size_t off, size_t n,
		      struct pk__event *d, bool add, bool leader)
{
	const char *m = p->spec + off;
	struct perf_event_attr *a = &d->a.attr;
	struct mods x = { 0 };
	int exclude;

	if (add) {
		x = (struct mods){ a->exclude_user, a->exclude_kernel, a->exclude_hv,
				   a->exclude_host, a->exclude_guest, a->exclude_idle,
				   a->precise_ip, d->desc.precise_max, d->desc.sample_read, a->pinned,
				   a->exclusive, d->desc.weak, d->desc.bpf_counter,
				   d->exclude_GH };
	}
	exclude = x.eu | x.ek | x.eh;
	for (size_t i = 0; i < n; i++) {
		char c = m[i];

		if (check_mod(p, s, off, i) < 0)
			return -EINVAL;
		switch (c) {
		case 'u':
		case 'k':
		case 'h':
			if (!exclude)
				exclude = x.eu = x.ek = x.eh = 1;
			if (c == 'u' && !x.exclude_GH)
				x.eG = 1;
			*(c == 'u' ? &x.eu : c == 'k' ? &x.ek : &x.eh) = 0;
			break;
		case 'G':
		case 'H':
			if (!x.exclude_GH)
				x.exclude_GH = x.eG = x.eH = 1;
			*(c == 'G' ? &x.eG : &x.eH) = 0;
			break;
		case 'I': x.eI = 1; break;
		case 'p':
			if (++x.precise > 3) {
				pk__parse_error(p, s, off + i, -EINVAL, "%s", "precise level above 3");
				pk__error_hint("use at most ppp (zero skid), or P for the highest level the PMU offers");
				return -EINVAL;
			}
			if (!x.exclude_GH)
				x.eG = 1;
			break;
		case 'P': x.precise_max = 1; break;
		case 'S': x.sample_read = 1; break;
		case 'D': x.pinned = 1; break;
		case 'e': x.exclusive = 1; break;
		case 'W': x.weak = 1; break;
		case 'b': x.bpf = 1; break;
		}
	}
	a->exclude_user = x.eu;
	a->exclude_kernel = x.ek;
	a->exclude_hv = x.eh;
	a->exclude_host = x.eH;
	a->exclude_guest = x.eG;
	d->exclude_GH = x.exclude_GH;
	a->exclude_idle = x.eI;
	a->precise_ip = x.precise;
	d->desc.precise_max = x.precise_max;
	d->desc.sample_read = x.sample_read;
	d->desc.weak = x.weak;
	d->desc.bpf_counter = x.bpf;
	if (leader) {
		a->pinned = x.pinned;
		a->exclusive = x.exclusive;
	}
	return 0;
}

/* Whether [off, off+n) is a plausible modifier string (letters only). */
bool pk__parse_looks_like_mods(const char *m, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalpha((unsigned char)m[i]))
			return false;
	/* Lowercase words of modifier letters only: "u", "ukh", "ppp". */
	for (size_t i = 0; i < n; i++)
		if (!strchr(MODIFIER_CHARS, m[i]))
			return n <= 2;	/* a short typo like "q" is still a modifier */
	return true;
}

/* ---- near misses -------------------------------------------------------- */


void pk__parse_consider(struct pk__best *b, const char *cand)
{
	/* Only a distance of 3 or less becomes a hint (pk__parse_suggest). */
	size_t d = pk__edit_distance_max(b->typed, cand, b->dist > 4 ? 4 : b->dist);

	if (d < b->dist) {
		b->dist = d;
		snprintf(b->name, sizeof(b->name), "%s", cand);
	}
}

/* Set "did you mean X?" when a known event name is close to `typed`. */
void pk__parse_suggest(struct pk__parser *p, const char *typed)
{
	struct pk__best b = { .typed = typed, .dist = SIZE_MAX };
	char buf[128];

	for (size_t i = 0; i < pk__nr_generic_events; i++) {
		pk__parse_consider(&b, pk__generic_events[i].name);
		if (pk__generic_events[i].alias[0])
			pk__parse_consider(&b, pk__generic_events[i].alias);
	}
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX && pk__cache_op_valid(t, op); r++) {
				pk__cache_name((uint64_t)t | (uint64_t)op << 8 | (uint64_t)r << 16, buf, sizeof(buf));
				pk__parse_consider(&b, buf);
			}
	if (pk__parse_pmus(p))
		for (size_t i = 0; i < pk_pmus_nr(p->pmus); i++) {
			const struct pk_pmu *pmu = pk_pmus_get(p->pmus, i);

			for (size_t j = 0; j < pk_pmu_nr_aliases(pmu); j++) {
				snprintf(buf, sizeof(buf), "%s/%s/", pk_pmu_name(pmu), pk_pmu_alias(pmu, j)->name);
				pk__parse_consider(&b, buf);
			}
		}
	if (b.dist <= 3 && b.dist * 4 <= strlen(typed) + 4)
		pk__error_hint("did you mean %s? ('perfkit list' shows every event)", b.name);
	else
		pk__error_hint("'perfkit list' shows every event this machine offers");
}

/* ---- terms ------------------------------------------------------------ */

struct term {
	const char *name;
	size_t name_len;
	const char *val;	/* NULL when the term has no '=' */
	size_t val_len;
	size_t off;		/* offset of the term in the spec, for columns */
};

static bool term_is(const struct term *t, const char *name)
{
	return strlen(name) == t->name_len && !strncmp(t->name, name, t->name_len);
}

/*
 * The largest value of each numeric common term: what its attr field holds
 * and the kernel takes (a period with bit 63 set is refused by
 * perf_event_open; a user stack copy is at most 65528 bytes, like perf's
 * --call-graph dwarf; sample_freq is compared with an int sysctl).
 */
static uint64_t term_max(const struct term *t)
{
	if (term_is(t, "period"))
		return INT64_MAX;
	if (term_is(t, "freq") || term_is(t, "aux-sample-size"))
		return UINT32_MAX;
	if (term_is(t, "stack-size"))
		return 65528;
	if (term_is(t, "max-stack"))
		return INT_MAX;
	return UINT64_MAX;
}

/* A term's value through the checked number parser; the error names the term
 * and points at its value. */
static int term_num(struct pk__parser *p, const struct pk__span *s, const struct term *t, uint64_t *v)
{
	char why[400];
	int err;

	if (!t->val) {
		*v = 1;
		return 0;
	}
	err = pk__num_u64(t->val, t->val_len, 0, term_max(t), v);
	if (!err)
		return 0;
	snprintf(why, sizeof(why), "%s", pk_last_error()->why);
	pk__parse_error(p, s, t->off + t->name_len + 1, -EINVAL, "term '%.*s': %s", (int)t->name_len,
			t->name, why);
	return -EINVAL;
}

static char *term_str(struct pk__parser *p, const struct term *t)
{
	const char *v = t->val;
	size_t n = t->val_len;

	if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	return pk__parse_own_copy(p, v, n);
}

static const struct {
	const char *name;
	uint64_t bit;
} branch_types[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL }, { "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL }, { "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },	{ "call_stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
};

static int term_branch_type(struct pk__parser *p, const struct pk__span *s, const struct term *t,
			    struct pk__event *d)
{
	const char *v = t->val;
	size_t n = t->val ? t->val_len : 0;

	for (size_t i = 0; i < sizeof(branch_types) / sizeof(branch_types[0]); i++)
		if (strlen(branch_types[i].name) == n && !strncmp(branch_types[i].name, v, n)) {
			d->a.attr.branch_sample_type |= branch_types[i].bit;
			return 0;
		}
	pk__parse_error(p, s, t->off, -EINVAL, "%s", "unknown branch_type");
	pk__error_hint("branch_type is one of any, any_call, any_ret, ind_call, call, cond, "
		       "ind_jmp, call_stack, abort_tx, in_tx, no_tx, save_type, u, k, hv");
	return -EINVAL;
}

/* Terms every event accepts: perf's "common" terms plus config*. */
static int apply_common_term(struct pk__parser *p, const struct pk__span *s, const struct term *t,
			     struct pk__event *d)
{
	struct perf_event_attr *a = &d->a.attr;
	uint64_t v = 0;
	int err;

	if (term_is(t, "name") || term_is(t, "call-graph") || term_is(t, "metric-id")) {
		char *str;

		if (!t->val || !t->val_len)
			return pk__parse_error(p, s, t->off, -EINVAL, "%s", "this term needs a value: term=TEXT");
		str = term_str(p, t);
		if (!str)
			return pk__error_nomem("a string term");
		if (term_is(t, "name"))
			d->desc.name = str;
		else if (term_is(t, "call-graph")) {
			if (strcmp(str, "fp") && strcmp(str, "dwarf") && strcmp(str, "lbr") &&
			    strcmp(str, "no")) {
				pk__parse_error(p, s, t->off + t->name_len + 1, -EINVAL, "%s",
				       "unknown call-graph mode");
				pk__error_hint("call-graph is fp, dwarf, lbr or no");
				return -EINVAL;
			}
			d->desc.call_graph = str;
		}
		return 0;
	}
	if (term_is(t, "branch_type"))
		return term_branch_type(p, s, t, d);
	if ((err = term_num(p, s, t, &v)) < 0)
		return err;
	if (term_is(t, "config"))
		a->config = v;
	else if (term_is(t, "config1"))
		a->config1 = v;
	else if (term_is(t, "config2"))
		a->config2 = v;
	else if (term_is(t, "config3"))
		d->a.word[PK__ATTR8_CONFIG3] = v;
	else if (term_is(t, "period")) {
		a->sample_period = v;
		a->freq = 0;
		d->desc.rate_set = true;
	} else if (term_is(t, "freq")) {
		a->sample_freq = v;
		a->freq = 1;
		d->desc.rate_set = true;
	} else if (term_is(t, "time"))
		d->desc.time = v != 0;
	else if (term_is(t, "stack-size"))
		d->desc.stack_size = (uint32_t)v;
	else if (term_is(t, "max-stack"))
		d->desc.max_stack = v > INT_MAX ? INT_MAX : (int)v;
	else if (term_is(t, "inherit") || term_is(t, "no-inherit")) {
		a->inherit = term_is(t, "inherit") ? v != 0 : 0;
		d->desc.no_inherit_set = true;
	} else if (term_is(t, "overwrite") || term_is(t, "no-overwrite"))
		d->desc.overwrite = term_is(t, "overwrite") ? v != 0 : 0;
	else if (term_is(t, "aux-output"))
		a->aux_output = v != 0;
	else if (term_is(t, "aux-sample-size"))
		a->aux_sample_size = (uint32_t)v;
	else
		return 1;	/* not a common term */
	return 0;
}

static int apply_pmu_term(struct pk__parser *p, const struct pk__span *s, const struct term *t,
			  struct pk__event *d, const struct pk_pmu *pmu, int depth);

/* Split "a=1,b,c=x" at commas and apply each term. */
int pk__parse_terms(struct pk__parser *p, const struct pk__span *s, const char *text, size_t n,
		       size_t off, bool in_spec, struct pk__event *d, const struct pk_pmu *pmu,
		       int depth)
{
	size_t i = 0;

	while (i < n) {
		size_t e = i, eq;
		struct term t;
		int err;

		while (e < n && text[e] != ',')
			e++;
		for (eq = i; eq < e && text[eq] != '='; eq++)
			;
		t.name = text + i;
		t.name_len = eq - i;
		t.val = eq < e ? text + eq + 1 : NULL;
		t.val_len = eq < e ? e - eq - 1 : 0;
		t.off = in_spec ? off + i : off;
		if (!t.name_len)
			return pk__parse_error(p, s, t.off, -EINVAL, "%s", "empty term: expected term=value");
		err = apply_common_term(p, s, &t, d);
		if (err == 1) {
			char name[64];

			if (pmu) {
				err = apply_pmu_term(p, s, &t, d, pmu, depth);
			} else {
				snprintf(name, sizeof(name), "%.*s", (int)t.name_len, t.name);
				pk__parse_error(p, s, t.off, -EINVAL, "unknown term '%s'", name);
				pk__error_hint("this event takes config, config1, config2, config3, name, period, "
					       "freq, branch_type, time, call-graph, stack-size, max-stack, "
					       "inherit, no-inherit, overwrite, no-overwrite");
				err = -EINVAL;
			}
		}
		if (err < 0)
			return err;
		i = e + 1;
	}
	return 0;
}

static void list_pmu_terms(const struct pk_pmu *pmu, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pk_pmu_nr_formats(pmu) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", pk_pmu_format(pmu, i)->name);
	for (size_t i = 0; i < pk_pmu_nr_aliases(pmu) && i < 12 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", pk_pmu_alias(pmu, i)->name);
}

static int apply_pmu_term(struct pk__parser *p, const struct pk__span *s, const struct term *t,
			  struct pk__event *d, const struct pk_pmu *pmu, int depth)
{
	uint64_t cfg[4] = { d->a.attr.config, d->a.attr.config1, d->a.attr.config2, d->a.word[PK__ATTR8_CONFIG3] };
	const struct pk_pmu_alias *alias;
	char name[64], list[400];
	uint64_t v;
	int err;

	snprintf(name, sizeof(name), "%.*s", (int)t->name_len, t->name);
	if (pk_pmu_find_format(pmu, name)) {
		if ((err = term_num(p, s, t, &v)) < 0)
			return err;
		err = pk_pmu_encode(pmu, name, v, cfg);
		if (err < 0) {
			/* A value too wide for its bits is a malformed spec (EINVAL);
			 * keep the PMU layer's explanation of the bit ranges. */
			char why[768], hint[768];

			snprintf(why, sizeof(why), "%s", pk_last_error()->why);
			snprintf(hint, sizeof(hint), "%s", pk_last_error()->hint);
			pk__parse_error(p, s, t->off, err == -ERANGE ? -EINVAL : err, "%s", why);
			if (hint[0])
				pk__error_hint("%s", hint);
			return err == -ERANGE ? -EINVAL : err;
		}
		d->a.attr.config = cfg[0];
		d->a.attr.config1 = cfg[1];
		d->a.attr.config2 = cfg[2];
		d->a.word[PK__ATTR8_CONFIG3] = cfg[3];
		return 0;
	}
	/* "r0x1a8" inside the slashes is a raw config, like perf's. */
	if (name[0] == 'r' && !t->val &&
	    (pk__parse_hex(name + 1, strlen(name + 1), &v) ||
	     (!strncmp(name, "r0x", 3) && pk__parse_hex(name + 3, strlen(name + 3), &v)))) {
		d->a.attr.config = v;
		return 0;
	}
	alias = pk_pmu_find_alias(pmu, name);
	if (alias && !t->val && depth < 4)
		return pk__parse_terms(p, s, alias->terms, strlen(alias->terms), t->off, false, d, pmu,
				   depth + 1);
	/* The software PMU has no events/ directory; its events are the
	 * generic software names: software/task-clock/. */
	if (pk_pmu_type(pmu) == PERF_TYPE_SOFTWARE && !t->val) {
		const struct pk__generic *g = pk__generic_find(name);

		if (g && g->type == PERF_TYPE_SOFTWARE) {
			d->a.attr.config = g->config;
			return 0;
		}
	}
	list_pmu_terms(pmu, list, sizeof(list));
	if (!t->val) {
		/* A bare word names an event of the PMU: unknown event, not syntax. */
		pk__parse_error(p, s, t->off, -ENOENT, "PMU '%s' has no event or term '%s'",
				pk_pmu_name(pmu), name);
		pk__error_hint("PMU '%s' takes: %s", pk_pmu_name(pmu),
			       list[0] ? list : "config, config1, config2");
		return -ENOENT;
	}
	pk__parse_error(p, s, t->off, -EINVAL, "unknown term '%s'", name);
	pk__error_hint("PMU '%s' takes: %s; and the common terms (period, freq, name, call-graph, ...)",
		       pk_pmu_name(pmu), list[0] ? list : "config, config1, config2");
	return -EINVAL;
}

/* ---- canonical strings ---------------------------------------------------- */

/* Whether mods_string writes a letter other than G/H for event d. */
static bool mods_other(const struct pk__event *d)
{
	const struct perf_event_attr *a = &d->a.attr;
	bool priv = a->exclude_user || a->exclude_kernel || a->exclude_hv;
	bool all = a->exclude_user && a->exclude_kernel && a->exclude_hv;

	return (priv && !all) || a->exclude_idle || a->precise_ip || d->desc.precise_max ||
	       d->desc.sample_read || a->pinned || a->exclusive || d->desc.weak || d->desc.bpf_counter;
}

/*
 * The modifier letters that give d's attr back.  Without modifiers an event
 * excludes the guest; a modifier string starts from nothing, 'u' and 'p'
 * excluding the guest again.  G/H are written when the guest/host bits
 * differ from that: G for exclude_host, H for exclude_guest, both for
 * neither (an explicit G or H sets both bits before clearing its own).
 */
static void mods_string(const struct pk__event *d, char *buf, size_t len)
{
	const struct perf_event_attr *a = &d->a.attr;
	size_t n = 0;
	bool priv = a->exclude_user || a->exclude_kernel || a->exclude_hv;
	bool implied_eg = (priv && !a->exclude_user) || a->precise_ip;
	bool dflt_eg = mods_other(d) ? implied_eg : true;
	bool gh = a->exclude_host || (bool)a->exclude_guest != dflt_eg;

#define PUT(c) do { if (n + 1 < len) buf[n++] = (c); } while (0)
	if (priv) {
		if (!a->exclude_user)
			PUT('u');
		if (!a->exclude_kernel)
			PUT('k');
		if (!a->exclude_hv)
			PUT('h');
	}
	if (gh && !a->exclude_guest)
		PUT('G');
	if (gh && !a->exclude_host)
		PUT('H');
	if (a->exclude_idle)
		PUT('I');
	for (unsigned i = 0; i < a->precise_ip; i++)
		PUT('p');
	if (d->desc.precise_max)
		PUT('P');
	if (d->desc.sample_read)
		PUT('S');
	if (a->pinned)
		PUT('D');
	if (a->exclusive)
		PUT('e');
	if (d->desc.weak)
		PUT('W');
	if (d->desc.bpf_counter)
		PUT('b');
#undef PUT
	buf[n] = '\0';
}

/* Remember the canonical base of event d; modifiers are appended at the end. */
int pk__parse_set_canonical(struct pk__parser *p, struct pk__event *d, const char *base, bool slash)
{
	size_t i = (size_t)(d - p->ev->ev);

	p->base[i] = pk__parse_own(p, pk__strdup(base));
	p->style[i] = slash ? STYLE_SLASH : STYLE_COLON;
	return p->base[i] ? 0 : pk__error_nomem("an event's canonical name");
}

int pk__parse_finish_canonical(struct pk__parser *p)
{
	for (size_t i = 0; i < p->ev->nr; i++) {
		struct pk__event *d = &p->ev->ev[i];
		char mods[32], *c;

		if (p->style[i] == STYLE_NONE)
			continue;
		mods_string(d, mods, sizeof(mods));
		if (pk__asprintf(&c, "%s%s%s", p->base[i], mods[0] && p->style[i] == STYLE_COLON ? ":" : "",
			     mods) < 0)
			return pk__error_nomem("an event's canonical name");
		if (!(d->desc.canonical = pk__parse_own(p, c)))
			return pk__error_nomem("an event's canonical name");
	}
	return 0;
}

int pk__parse_pmu_canonical(struct pk__parser *p, struct pk__event *d)
{
	char c1[32] = "", c2[32] = "", c3[32] = "", *base;
	int err;

	/* The PMU name comes from sysfs (up to 255 bytes): size the string to fit. */
	if (d->a.attr.config1)
		snprintf(c1, sizeof(c1), ",config1=0x%" PRIx64, (uint64_t)d->a.attr.config1);
	if (d->a.attr.config2)
		snprintf(c2, sizeof(c2), ",config2=0x%" PRIx64, (uint64_t)d->a.attr.config2);
	if (d->a.word[PK__ATTR8_CONFIG3])
		snprintf(c3, sizeof(c3), ",config3=0x%" PRIx64, d->a.word[PK__ATTR8_CONFIG3]);
	if (pk__asprintf(&base, "%s/config=0x%" PRIx64 "%s%s%s/", d->desc.pmu, (uint64_t)d->a.attr.config, c1, c2,
		     c3) < 0)
		return pk__error_nomem("an event's canonical name");
	err = pk__parse_set_canonical(p, d, base, true);
	free(base);
	return err;
}

