/* SPDX-License-Identifier: MIT */
/*
 * pfm.c - libpfm4 event names ("INST_RETIRED:ANY_P:c=1:u",
 * "skl::UOPS_ISSUED:ANY", "perf::PERF_COUNT_SW_CPU_CLOCK") to
 * perf_event_attr through pfm_get_os_event_encoding(PFM_OS_PERF_EVENT_EXT),
 * with libpfm4's terse error codes turned into messages that name the bad
 * part and list what the event accepts.  libpfm4 keeps its own process-wide
 * tables (and reads LIBPFM_FORCE_PMU once, at its first initialisation);
 * we keep no state of our own.
 */
#include "event.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib_perf_event.h>

/*
 * Privilege levels a string without u/k/h counts: user and kernel, as perf
 * --pfm-events asks (tools/perf/util/pfm.c passes PFM_PLM0|PFM_PLM3).
 * libpfm4 uses this default only when the string names no level; levels the
 * PMU cannot filter are left included (exclude_hv=0 on Intel core PMUs),
 * while PMUs that know the hypervisor level (AMD, perf::) get exclude_hv=1.
 * A u or k modifier excludes the other levels, as in perf's own syntax.
 */
#define DFL_PLM (PFM_PLM0 | PFM_PLM3)

#define NR_PFM_PMUS 1024	/* beyond PFM_PMU_MAX of any libpfm4 4.x */

static int init(const char *what)
{
	int ret = pfm_initialize();

	if (ret != PFM_SUCCESS) {
		pk__error(-EOPNOTSUPP, what, "libpfm4 could not initialise: %s", pfm_strerror(ret));
		pk__error_hint("LIBPFM_FORCE_PMU, if set, must name a libpfm4 PMU model");
		return -EOPNOTSUPP;
	}
	return 0;
}

static bool pmu_info(int pmu, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm_get_pmu_info((pfm_pmu_t)pmu, pi) == PFM_SUCCESS && pi->name;
}

/*
 * Split "[pmu::]NAME[:attr...]": *base gets "[pmu::]NAME", *attrs points at
 * the first attribute (or at the terminating NUL), *pmu_len is the length
 * of the "pmu" prefix (0 without one).
 */
static void split_event(const char *text, char *base, size_t len, const char **attrs,
			size_t *pmu_len)
{
	const char *dcolon = strstr(text, "::");
	const char *name = dcolon ? dcolon + 2 : text;
	const char *colon = strchr(name, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text);

	*pmu_len = dcolon ? (size_t)(dcolon - text) : 0;
	*attrs = colon ? colon + 1 : text + strlen(text);
	snprintf(base, len, "%.*s", (int)n, text);
}

static void upcase(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = '\0';
}

/* ---- unknown events ---------------------------------------------------------- */

/*
 * The closest event name over the PMUs libpfm4 considers present, when it
 * is close enough to be a typo (a third of the name may differ).
 */
static bool nearest_event(const char *name, int only_pmu, char *best, size_t len)
{
	char want[256];
	size_t best_dist = strlen(name) / 3 + 1, want_len;

	upcase(want, sizeof(want), name);
	want_len = strlen(want);
	for (int p = 0; p < NR_PFM_PMUS; p++) {
		pfm_pmu_info_t pi;

		if ((only_pmu >= 0 && p != only_pmu) || !pmu_info(p, &pi) || !pi.is_present)
			continue;
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t ei = { .size = sizeof(ei) };
			char have[256];
			size_t d, have_len;

			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
				continue;
			/* Names whose lengths alone put them out of reach are
			 * most of the thousands: skip them before copying. */
			have_len = strlen(ei.name);
			if ((have_len > want_len ? have_len - want_len : want_len - have_len) >= best_dist)
				continue;
			upcase(have, sizeof(have), ei.name);
			d = pk__edit_distance_max(have, want, best_dist - 1);
			if (d < best_dist) {
				best_dist = d;
				snprintf(best, len, "%s::%s", pi.name, ei.name);
			}
		}
	}
	return best[0] != '\0';
}

static int not_found(const char *text, const char *what)
{
	char base[256], pmu[64], best[320];
	const char *attrs;
	size_t pmu_len;
	int only = -1;

	split_event(text, base, sizeof(base), &attrs, &pmu_len);
	pk__error(-ENOENT, what, "libpfm4 knows no event '%s' on this machine's PMUs", base);
	if (pmu_len) {
		snprintf(pmu, sizeof(pmu), "%.*s", (int)pmu_len, text);
		for (int p = 0; p < NR_PFM_PMUS && only < 0; p++) {
			pfm_pmu_info_t pi;

			if (!pmu_info(p, &pi) || strcasecmp(pi.name, pmu))
				continue;
			if (!pi.is_present) {
				pk__error_hint("libpfm4's PMU '%s' (%s) is not active here; "
					       "LIBPFM_FORCE_PMU=%s selects it", pi.name, pi.desc, pi.name);
				return -ENOENT;
			}
			only = p;
		}
		if (only < 0) {
			/* A forced model hides every other PMU from libpfm4. */
			const char *forced = getenv("LIBPFM_FORCE_PMU");

			if (forced && forced[0])
				pk__error_hint("LIBPFM_FORCE_PMU=%s restricts libpfm4 to that model, "
					       "so PMU '%s' is unavailable", forced, pmu);
			else
				pk__error_hint("libpfm4 has no PMU called '%s'", pmu);
			return -ENOENT;
		}
	}
	best[0] = '\0';
	if (nearest_event(base + (pmu_len ? pmu_len + 2 : 0), only, best, sizeof(best)))
		pk__error_hint("did you mean '%s'? ('perfkit list pfm' lists them)", best);
	else
		pk__error_hint("'perfkit list pfm' lists the events libpfm4 knows on this machine");
	return -ENOENT;
}

/* ---- bad attributes ------------------------------------------------------------ */

static bool attr_info(int idx, int i, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->size = sizeof(*ai);
	return pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, ai) == PFM_SUCCESS &&
	       ai->name;
}

/* "umasks ANY_P, ALL; modifiers e, i, c (default ANY_P)" into buf. */
static void list_attrs(int idx, int nattrs, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		bool first = true;

		for (int i = 0; i < nattrs && off < len; i++) {
			pfm_event_attr_info_t ai;
			bool umask;

			if (!attr_info(idx, i, &ai))
				continue;
			umask = ai.type == PFM_ATTR_UMASK;
			if (umask != (pass == 0))
				continue;
			off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s",
						first ? (off ? "; " : "") : ", ",
						first ? (umask ? "umasks " : "modifiers ") : "",
						ai.name, umask && ai.is_dfl ? " (default)" : "");
			first = false;
		}
	}
}

/* The attribute called `name` (case-insensitive, as libpfm4 matches), or -1. */
static int find_attr(int idx, int nattrs, const char *name, size_t n)
{
	for (int i = 0; i < nattrs; i++) {
		pfm_event_attr_info_t ai;

		if (attr_info(idx, i, &ai) && strlen(ai.name) == n && !strncasecmp(ai.name, name, n))
			return i;
	}
	return -1;
}

/*
 * Name the attribute libpfm4 objected to: the first one the event does not
 * have, else (for "already set") the first one given twice, else the only
 * one with a value.  Writes "" when it cannot tell.
 */
static void culprit(int idx, int nattrs, const char *attrs, int code, char *buf, size_t len)
{
	const char *tok = attrs, *valued = NULL;
	int nr_valued = 0;

	buf[0] = '\0';
	while (*tok) {
		size_t n = strcspn(tok, ":"), name_len = strcspn(tok, ":=");

		if (find_attr(idx, nattrs, tok, name_len) < 0) {
			snprintf(buf, len, "'%.*s' is not a umask or modifier of this event",
				 (int)name_len, tok);
			return;
		}
		if (name_len < n) {
			valued = tok;
			nr_valued++;
		}
		if (code == PFM_ERR_ATTR_SET) {
			for (const char *o = tok + n; *o; o += strcspn(o, ":")) {
				o += *o == ':';
				if (strcspn(o, ":=") == name_len && !strncasecmp(o, tok, name_len)) {
					snprintf(buf, len, "'%.*s' is given twice", (int)name_len, tok);
					return;
				}
			}
		}
		tok += n + (tok[n] == ':');
	}
	if (code == PFM_ERR_ATTR_VAL && nr_valued == 1)
		snprintf(buf, len, "'%.*s' has a value out of range", (int)strcspn(valued, ":"),
			 valued);
}

static int bad_attr(const char *text, int code, const char *what)
{
	char base[256], who[160], valid[700];
	pfm_event_info_t ei = { .size = sizeof(ei) };
	const char *attrs;
	size_t pmu_len;
	int idx;

	split_event(text, base, sizeof(base), &attrs, &pmu_len);
	idx = pfm_find_event(base);
	if (idx < 0 || pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return pk__error(-EINVAL, what, "libpfm4: %s", pfm_strerror(code));
	culprit(idx, ei.nattrs, attrs, code, who, sizeof(who));
	pk__error(-EINVAL, what, "libpfm4: %s%s%s", pfm_strerror(code), who[0] ? ": " : "", who);
	list_attrs(idx, ei.nattrs, valid, sizeof(valid));
	if (valid[0])
		pk__error_hint("%s takes %s", ei.name, valid);
	return -EINVAL;
}

/* ---- entry point --------------------------------------------------------------- */

static void copy_attr(struct perf_event_attr *dst, const struct perf_event_attr *src)
{
	dst->type = src->type;
	dst->config = src->config;
	dst->config1 = src->config1;
	dst->config2 = src->config2;
	dst->exclude_user = src->exclude_user;
	dst->exclude_kernel = src->exclude_kernel;
	dst->exclude_hv = src->exclude_hv;
	dst->exclude_host = src->exclude_host;
	dst->exclude_guest = src->exclude_guest;
	dst->precise_ip = src->precise_ip;
	dst->freq = src->freq;
	dst->sample_period = src->sample_period;	/* a union with sample_freq */
	dst->pinned = src->pinned;
	dst->exclusive = src->exclusive;
}

static int map_error(const char *text, int code, const char *what)
{
	switch (code) {
	case PFM_ERR_NOTFOUND:
		return not_found(text, what);
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
	case PFM_ERR_TOOMANY:
	case PFM_ERR_UMASK:
	case PFM_ERR_FEATCOMB:
		return bad_attr(text, code, what);
	case PFM_ERR_NOMEM:
		return pk__error_nomem("libpfm4's encoding of %s", text);
	case PFM_ERR_NOINIT:
	case PFM_ERR_NOTSUPP:
		return pk__error(-EOPNOTSUPP, what, "libpfm4: %s", pfm_strerror(code));
	default:
		return pk__error(-EINVAL, what, "libpfm4: %s", pfm_strerror(code));
	}
}

/*
 * libpfm4's perf:: PMU has the tracepoints of debugfs's tracing directory
 * when debugfs is mounted, matched without regard to case ("SCHED:
 * sched_switch").  perf 6.1 takes tracepoint names exactly, from tracefs,
 * and so does the parser before it falls back to libpfm4: a tracepoint
 * reaching here is one it did not find, and is refused the same wherever
 * debugfs is mounted, with the exact name libpfm4 took it for.
 */
static int tracepoint_refused(const char *text, char *qualified)
{
	const char *name = strncmp(qualified, "perf::", 6) ? qualified : qualified + 6;
	const char *colon = strchr(name, ':');
	size_t len = colon && strchr(colon + 1, ':') ? (size_t)(strchr(colon + 1, ':') - name) : strlen(name);
	char what[300];

	/* as the tracefs lookup says it; -EINVAL, not -ENOENT, so that the
	 * parser says it whatever the name looks like */
	snprintf(what, sizeof(what), "tracepoint %s", text);
	pk__error(-EINVAL, what, "no tracepoint matches %s (tracepoint names are matched exactly)", text);
	pk__error_hint("did you mean '%.*s'? ('perfkit list tracepoint' lists them all)", (int)len, name);
	free(qualified);
	return -EINVAL;
}

int pk__pfm_encode(const char *text, struct perf_event_attr *attr, char **fstr, char **pmu)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei = { .size = sizeof(ei) };
	pfm_pmu_info_t pi;
	char what[300], *qualified = NULL, *name;
	int ret;

	*fstr = NULL;
	*pmu = NULL;
	snprintf(what, sizeof(what), "libpfm4 event %s", text);
	ret = init(what);
	if (ret < 0)
		return ret;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.fstr = &qualified;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(text, DFL_PLM, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		free(qualified);
		return map_error(text, ret, what);
	}
	/* cpu=N picks a CPU, which an attr cannot carry: refuse it rather than
	 * silently count on every CPU. */
	if (arg.cpu >= 0) {
		free(qualified);
		pk__error(-EINVAL, what, "the libpfm4 modifier cpu=%d cannot be honoured here", arg.cpu);
		pk__error_hint("drop cpu=%d and select CPUs with -C/--cpu", arg.cpu);
		return -EINVAL;
	}
	/* libpfm4 allocates the string; a NULL one only comes from its OOM. */
	if (!qualified)
		return pk__error_nomem("libpfm4's name of %s", text);
	if (a.type == PERF_TYPE_TRACEPOINT)
		return tracepoint_refused(text, qualified);
	if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    !pmu_info(ei.pmu, &pi)) {
		free(qualified);
		return pk__error(-EINVAL, what, "libpfm4 encoded the event but cannot name its PMU");
	}
	name = pk__strdup(pi.name);
	if (!name) {
		free(qualified);
		return pk__error_nomem("an event name");
	}
	copy_attr(attr, &a);
	*fstr = qualified;
	*pmu = name;
	return 0;
}
