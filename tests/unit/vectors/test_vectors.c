/* SPDX-License-Identifier: MIT */
/*
 * test_vectors.c - checks pk_events_parse against the golden vectors in
 * tests/fixtures/vectors: event strings with the attrs perf 6.1 (or the
 * kernel's documented encoding, or the Intel SDM for libpfm4 names) gives
 * them, strings perf rejects, and perfkit's own invalid-string errors.  One
 * cmocka test per line, named by the event string, so a failure reads
 * "not ok 17 - cycles:u" followed by every field that differs.
 *
 * Usage: test_vectors [--portable] KIND FILE [ARG]
 *   attrs FILE          every line parses to the listed events
 *   reject FILE [EXT]   every string fails to parse, except those EXT
 *                       (perfkit-ext.tsv) lists as perfkit extensions
 *   invalid FILE WHERE  the rows of invalid.tsv for WHERE fail with the
 *                       listed errno, column, why and hint
 *   count DIR           the vectors hold at least 150 distinct strings
 * --portable runs a "#! sysfs live" file against the Intel fixture tree
 * and skips the lines that need this machine (tracepoint ids, dynamic PMU
 * types): the unit suite's view of the host set.  See tests/tools/vectors.py
 * for the line format.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfkit.h"

#define MAX_LINES 4096
#define MSG_MAX 8192

struct line {
	char *string;		/* the event string, @VECTORS@ expanded */
	char **fields;		/* the columns after the string */
	int nr_fields;
	int lineno;
};

static struct {
	const char *kind;
	const char *file;
	const char *arg;
	bool portable;
	bool live;		/* "#! sysfs live" and not --portable */
	const char *skip_file;	/* why every line skips (sha256 mismatch), or NULL */
	char vectors[4096];	/* $PERFKIT_FIXTURES/vectors */
	char fixtures[4096];
	char **ext;		/* strings perfkit accepts beyond perf */
	int nr_ext;
} cfg;

/* ---- small helpers --------------------------------------------------------- */

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		abort();
	return p;
}

/* Replace every @VECTORS@ in s by the vectors directory (new heap string). */
static char *expand(const char *s)
{
	static const char tag[] = "@VECTORS@";
	size_t n = strlen(s) + 1, vl = strlen(cfg.vectors);
	const char *p;
	char *out, *o;

	for (p = strstr(s, tag); p; p = strstr(p + 1, tag))
		n += vl;
	out = o = malloc(n);
	if (!out)
		abort();
	while ((p = strstr(s, tag))) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, cfg.vectors, vl);
		o += vl;
		s = p + sizeof(tag) - 1;
	}
	strcpy(o, s);
	return out;
}

static void appendf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void appendf(char *buf, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len >= MSG_MAX - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, MSG_MAX - len, fmt, ap);
	va_end(ap);
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno == 0 && end != s && *end == '\0';
}

/* ---- directives and the files' lines ---------------------------------------- */

static void directive(const char *d)
{
	char path[4096], hex[128], cmd[4300], got[128] = "", tree[64];
	FILE *p;

	if (sscanf(d, "#! sysfs %63s", tree) == 1) {
		cfg.live = !strcmp(tree, "live") && !cfg.portable;
		if (!strcmp(tree, "live"))
			snprintf(tree, sizeof(tree), "intel");
		if (cfg.live) {
			unsetenv("PERFKIT_SYSFS_ROOT");
		} else {
			char root[4200];

			snprintf(root, sizeof(root), "%s/sysfs/%s", cfg.fixtures, tree);
			setenv("PERFKIT_SYSFS_ROOT", root, 1);
		}
	} else if (!strncmp(d, "#! env ", 7)) {
		char *kv = xstrdup(d + 7), *eq = strchr(kv, '=');

		if (eq) {
			*eq = '\0';
			setenv(kv, eq + 1, 1);
		}
		free(kv);
	} else if (sscanf(d, "#! sha256 %4095s %127s", path, hex) == 2) {
		snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
		p = popen(cmd, "r");
		if (!p || fscanf(p, "%127s", got) != 1 || strcmp(got, hex)) {
			static char why[4400];

			snprintf(why, sizeof(why), "%s is not the file the vectors were generated "
				 "from (rerun tests/tools/gen-vectors.sh probes)", path);
			cfg.skip_file = why;
		}
		if (p)
			pclose(p);
	}
}

/* Read FILE: directives applied, comments dropped, each line split on tabs. */
static int read_lines(const char *file, struct line *out, int max)
{
	char buf[16384];
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f) {
		fprintf(stderr, "test_vectors: cannot open %s: %s\n", file, strerror(errno));
		exit(1);
	}
	while (fgets(buf, sizeof(buf), f) && n < max) {
		char *save = NULL, *tok, *p = buf;
		struct line *l = &out[n];

		buf[strcspn(buf, "\n")] = '\0';
		if (!strncmp(buf, "#!", 2)) {
			directive(buf);
			continue;
		}
		if (buf[0] == '#' || (buf[0] == '\0'))
			continue;
		memset(l, 0, sizeof(*l));
		l->lineno = n + 1;
		tok = strchr(p, '\t');
		if (tok)
			*tok = '\0';
		l->string = expand(p);
		l->fields = calloc(64, sizeof(char *));
		if (!l->fields)
			abort();
		p = tok ? tok + 1 : NULL;
		for (tok = p ? strtok_r(p, "\t", &save) : NULL; tok && l->nr_fields < 64;
		     tok = strtok_r(NULL, "\t", &save))
			l->fields[l->nr_fields++] = expand(tok);
		n++;
	}
	fclose(f);
	return n;
}

/* ---- expected values ----------------------------------------------------------- */

/* The attr fields the vectors name.  Identity fields are always compared
 * (absent = 0); the others only when the vector lists them. */
struct field {
	const char *name;
	bool identity;
	uint64_t (*get)(const struct perf_event_attr *a);
};

#define GETTER(f) \
	static uint64_t get_##f(const struct perf_event_attr *a) { return (uint64_t)a->f; }
GETTER(type) GETTER(config) GETTER(config1) GETTER(config2) GETTER(bp_type)
GETTER(exclude_user) GETTER(exclude_kernel) GETTER(exclude_hv) GETTER(precise_ip)
GETTER(pinned) GETTER(exclusive) GETTER(exclude_guest) GETTER(exclude_host)
GETTER(exclude_idle) GETTER(inherit) GETTER(freq) GETTER(sample_period) GETTER(sample_freq)

static const struct field fields[] = {
	{ "type", true, get_type },		{ "config", true, get_config },
	{ "config1", true, get_config1 },	{ "config2", true, get_config2 },
	{ "bp_type", true, get_bp_type },	{ "exclude_user", true, get_exclude_user },
	{ "exclude_kernel", true, get_exclude_kernel }, { "exclude_hv", true, get_exclude_hv },
	{ "precise_ip", true, get_precise_ip },	{ "pinned", true, get_pinned },
	{ "exclusive", true, get_exclusive },	{ "exclude_guest", false, get_exclude_guest },
	{ "exclude_host", false, get_exclude_host }, { "exclude_idle", false, get_exclude_idle },
	{ "inherit", false, get_inherit },	{ "freq", false, get_freq },
	{ "sample_period", false, get_sample_period },
	{ "sample_freq", false, get_sample_freq },
};
#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

/* Resolve tp:SYS:NAME from the live tracefs.  Returns 0, or -1 with *why set. */
static int resolve_tp(const char *spec, uint64_t *v, const char **why)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char sys[256], name[256], path[1024];
	size_t i;

	if (sscanf(spec, "%255[^:]:%255s", sys, name) != 2)
		return *why = "malformed tp: value", -1;
	for (i = 0; i < 2; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/%s/%s/id", dirs[i], sys, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%" SCNu64, v) != 1)
			i = 2;
		fclose(f);
		if (i < 2)
			return 0;
	}
	*why = "tracefs is not mounted here, or lacks this tracepoint (its id is machine-specific)";
	return -1;
}

/* Resolve pmu:NAME through perfkit's own sysfs scan (honours PERFKIT_SYSFS_ROOT). */
static int resolve_pmu(const char *name, uint64_t *v, const char **why)
{
	struct pk_pmus *pmus = NULL;
	const struct pk_pmu *pmu;
	int ret = -1;

	if (pk_pmus_scan(&pmus) < 0)
		return *why = "cannot scan sysfs PMUs", -1;
	pmu = pk_pmus_find(pmus, name);
	if (pmu) {
		*v = pk_pmu_type(pmu);
		ret = 0;
	} else {
		*why = "the PMU these vectors name is not on this machine";
	}
	pk_pmus_free(pmus);
	return ret;
}

/*
 * Compare one event against its expectation "k=v k=v ...".  Appends every
 * difference to msg.  Returns -1 (with *skip set) when the expectation
 * cannot be resolved here.
 */
static int compare_event(size_t i, const char *expect, const struct pk_events *ev,
			 char *msg, const char **skip)
{
	const struct pk_event_desc *d = pk_events_desc(ev, i);
	const struct perf_event_attr *a = pk_events_attr(ev, i);
	bool seen[NR_FIELDS] = { false };
	char *copy = xstrdup(expect), *save = NULL, *kv;
	size_t f;

	for (kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *val = strchr(kv, '=');
		uint64_t want = 0, got;

		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(kv, "leader")) {
			if (d->leader != strtoull(val, NULL, 10))
				appendf(msg, "#   event %zu: leader: expected %s, got %zu\n", i, val, d->leader);
			continue;
		}
		for (f = 0; f < NR_FIELDS && strcmp(fields[f].name, kv); f++)
			;
		if (f == NR_FIELDS) {
			appendf(msg, "#   event %zu: unknown field '%s' in the vector\n", i, kv);
			continue;
		}
		seen[f] = true;
		got = fields[f].get(a);
		if (!strncmp(val, "str:", 4)) {
			const char *s = (const char *)(uintptr_t)got;

			if (!s || strcmp(s, val + 4))
				appendf(msg, "#   event %zu: %s: expected -> \"%s\", got -> %s%s%s\n", i, kv,
					val + 4, s ? "\"" : "", s ? s : "NULL", s ? "\"" : "");
			continue;
		}
		if ((!strncmp(val, "tp:", 3) && resolve_tp(val + 3, &want, skip) < 0) ||
		    (!strncmp(val, "pmu:", 4) && resolve_pmu(val + 4, &want, skip) < 0)) {
			free(copy);
			return -1;
		}
		if (strncmp(val, "tp:", 3) && strncmp(val, "pmu:", 4) && !parse_u64(val, &want))
			appendf(msg, "#   event %zu: bad value '%s' in the vector\n", i, val);
		else if (got != want)
			appendf(msg, "#   event %zu: %s: expected 0x%" PRIx64 " (%s), got 0x%" PRIx64 "\n",
				i, kv, want, val, got);
	}
	for (f = 0; f < NR_FIELDS; f++)
		if (fields[f].identity && !seen[f] && fields[f].get(a) != 0)
			appendf(msg, "#   event %zu: %s: expected 0, got 0x%" PRIx64 "\n", i,
				fields[f].name, fields[f].get(a));
	free(copy);
	return 0;
}

static struct pk_parse_opts parse_opts(void)
{
	struct pk_parse_opts o;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	/* Unit runs never mount tracefs; live runs ask for it as the CLI does. */
	if (cfg.live)
		(void)pk_tracefs_mount();
	return o;
}

static bool needs_live(const struct line *l)
{
	int i;

	for (i = 0; i < l->nr_fields; i++)
		if (strstr(l->fields[i], "=tp:") || strstr(l->fields[i], "=pmu:"))
			return true;
	return false;
}

/*
 * Why a line cannot run here (printed as a TAP comment and left out, because
 * cmocka 1.1.5 reports skip() as "not ok # SKIP", which Meson counts as a
 * failure), or NULL when it can.
 */
static const char *unrunnable(const struct line *l)
{
	const char *why = NULL;
	uint64_t v;
	int i, j;

	if (cfg.skip_file)
		return cfg.skip_file;
	if (!strcmp(cfg.kind, "reject")) {
		for (j = 0; j < cfg.nr_ext; j++)
			if (!strcmp(cfg.ext[j], l->string))
				return "a perfkit extension, checked by perfkit-ext.tsv";
		return NULL;
	}
	if (strcmp(cfg.kind, "attrs"))
		return NULL;
	if (cfg.portable && needs_live(l))
		return "needs this machine's tracefs or PMU types (runs in suite kernel)";
	for (i = 0; i < l->nr_fields; i++) {
		char *copy = xstrdup(l->fields[i]), *save = NULL, *kv;

		for (kv = strtok_r(copy, " ", &save); kv && !why; kv = strtok_r(NULL, " ", &save)) {
			char *val = strchr(kv, '=');

			if (val && !strncmp(val + 1, "tp:", 3))
				resolve_tp(val + 4, &v, &why);
			else if (val && !strncmp(val + 1, "pmu:", 4))
				resolve_pmu(val + 5, &v, &why);
		}
		free(copy);
		if (why)
			return why;
	}
	return NULL;
}

/* ---- the three kinds of test ------------------------------------------------------ */

static void test_attrs(void **state)
{
	const struct line *l = *state;
	struct pk_parse_opts o = parse_opts();
	struct pk_events *ev = NULL;
	static char msg[MSG_MAX];
	const char *skip_why = NULL;
	int ret, i;

	if (cfg.skip_file || (cfg.portable && needs_live(l))) {
		print_message("# SKIP %s: %s\n", l->string,
			      cfg.skip_file ? cfg.skip_file : "needs this machine's tracefs/PMU types (suite kernel)");
		skip();
	}
	ret = pk_events_parse(l->string, &o, &ev);
	if (ret < 0) {
		char err[1024];

		pk_error_format(NULL, err, sizeof(err));
		print_error("# '%s': expected %d event(s), got error %d: %s\n", l->string,
			    l->nr_fields, ret, err);
		fail();
	}
	msg[0] = '\0';
	if ((size_t)ret != pk_events_nr(ev) || ret != l->nr_fields)
		appendf(msg, "#   expected %d event(s), got %d (count %zu)\n", l->nr_fields, ret,
			pk_events_nr(ev));
	for (i = 0; i < l->nr_fields && (size_t)i < pk_events_nr(ev); i++) {
		if (compare_event((size_t)i, l->fields[i], ev, msg, &skip_why) < 0) {
			pk_events_free(ev);
			print_message("# SKIP %s: %s\n", l->string, skip_why);
			skip();
		}
	}
	pk_events_free(ev);
	if (msg[0]) {
		print_error("# '%s' (line %d):\n%s", l->string, l->lineno, msg);
		fail();
	}
}

static void test_reject(void **state)
{
	const struct line *l = *state;
	struct pk_parse_opts o = parse_opts();
	struct pk_events *ev = NULL;
	int ret;

	ret = pk_events_parse(l->string, &o, &ev);
	if (ret >= 0) {
		print_error("# '%s': perf 6.1 rejects it (%s) but perfkit parsed %d event(s)\n",
			    l->string, l->nr_fields ? l->fields[0] : "?", ret);
		pk_events_free(ev);
		fail();
	}
}

static int errno_of(const char *name)
{
	static const struct { const char *name; int value; } names[] = {
		{ "EINVAL", EINVAL }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV },
		{ "EOPNOTSUPP", EOPNOTSUPP }, { "ERANGE", ERANGE }, { "EACCES", EACCES },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return names[i].value;
	return 0;
}

static void test_invalid(void **state)
{
	const struct line *l = *state;
	struct pk_parse_opts o = parse_opts();
	struct pk_events *ev = NULL;
	const struct pk_error *e;
	static char msg[MSG_MAX];
	int ret, want_errno;

	assert_true(l->nr_fields >= 4);
	want_errno = errno_of(l->fields[0]);
	ret = pk_events_parse(l->string, &o, &ev);
	if (ret >= 0) {
		print_error("# '%s': expected -%s, but it parsed into %d event(s)\n", l->string,
			    l->fields[0], ret);
		pk_events_free(ev);
		fail();
	}
	e = pk_last_error();
	msg[0] = '\0';
	if (ret != -want_errno)
		appendf(msg, "#   errno: expected -%s (%d), got %d\n", l->fields[0], -want_errno, ret);
	if (strcmp(l->fields[1], "-") && e->column != atoi(l->fields[1]))
		appendf(msg, "#   column: expected %s, got %d\n", l->fields[1], e->column);
	if (!strcasestr(e->why, l->fields[2]))
		appendf(msg, "#   why: expected to contain \"%s\", got \"%s\"\n", l->fields[2], e->why);
	if (strcmp(l->fields[3], "-") && !strcasestr(e->hint, l->fields[3]))
		appendf(msg, "#   hint: expected to contain \"%s\", got \"%s\"\n", l->fields[3], e->hint);
	if (msg[0]) {
		print_error("# '%s':\n%s#   (what: \"%s\")\n", l->string, msg, e->what);
		fail();
	}
}

/* ---- count: the issue asks for at least 150 distinct strings --------------------- */

static int count_main(const char *dir)
{
	char path[8192], buf[16384];
	static char *seen[MAX_LINES * 4];
	size_t nr = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		printf("1..1\nnot ok 1 - count: cannot open %s\n", dir);
		return 1;
	}
	while ((de = readdir(d))) {
		FILE *f;

		if (!strstr(de->d_name, ".tsv"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		while (f && fgets(buf, sizeof(buf), f)) {
			if (buf[0] == '#' || buf[0] == '\n')
				continue;
			buf[strcspn(buf, "\t\n")] = '\0';
			for (i = 0; i < nr && strcmp(seen[i], buf); i++)
				;
			if (i == nr && nr < sizeof(seen) / sizeof(seen[0]))
				seen[nr++] = xstrdup(buf);
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	printf("1..1\n%s 1 - %zu distinct event strings in the vectors (at least 150)\n",
	       nr >= 150 ? "ok" : "not ok", nr);
	for (i = 0; i < nr; i++)
		free(seen[i]);
	return nr >= 150 ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------------- */

static void load_ext(const char *file)
{
	static struct line ext[MAX_LINES];
	int n, i;
	const char *saved = getenv("PERFKIT_SYSFS_ROOT");
	char *keep = saved ? xstrdup(saved) : NULL;
	bool live = cfg.live;

	n = read_lines(file, ext, MAX_LINES);	/* its directives must not leak */
	if (keep)
		setenv("PERFKIT_SYSFS_ROOT", keep, 1);
	else
		unsetenv("PERFKIT_SYSFS_ROOT");
	free(keep);
	cfg.live = live;
	cfg.ext = calloc((size_t)n + 1, sizeof(char *));
	for (i = 0; cfg.ext && i < n; i++)
		cfg.ext[cfg.nr_ext++] = ext[i].string;
}

/* invalid.tsv's WHERE column picks the environment instead of a directive. */
static void invalid_env(void)
{
	cfg.live = cfg.arg && !strcmp(cfg.arg, "live");
	if (cfg.arg && !strcmp(cfg.arg, "pfm-skl"))
		setenv("LIBPFM_FORCE_PMU", "skl", 1);	/* before libpfm4 initialises */
	if (!cfg.live) {
		char root[4200];

		snprintf(root, sizeof(root), "%s/sysfs/intel", cfg.fixtures);
		setenv("PERFKIT_SYSFS_ROOT", root, 1);
	}
}

int main(int argc, char **argv)
{
	static struct line lines[MAX_LINES];
	static struct CMUnitTest tests[MAX_LINES];
	const char *fx = getenv("PERFKIT_FIXTURES");
	void (*fn)(void **) = NULL;
	const char *skip_reason = NULL;
	int argi = 1, n, i, nt = 0;

	if (argi < argc && !strcmp(argv[argi], "--portable")) {
		cfg.portable = true;
		argi++;
	}
	if (argc - argi < 2 || !fx) {
		fprintf(stderr, "usage: test_vectors [--portable] attrs|reject|invalid|count FILE [ARG]\n"
			"(PERFKIT_FIXTURES must point at tests/fixtures)\n");
		return 2;
	}
	cfg.kind = argv[argi];
	cfg.file = argv[argi + 1];
	cfg.arg = argi + 2 < argc ? argv[argi + 2] : NULL;
	snprintf(cfg.fixtures, sizeof(cfg.fixtures), "%s", fx);
	snprintf(cfg.vectors, sizeof(cfg.vectors), "%s/vectors", fx);
	if (!strcmp(cfg.kind, "count"))
		return count_main(cfg.file);
	if (!strcmp(cfg.kind, "invalid"))
		invalid_env();
	if (!strcmp(cfg.kind, "reject") && cfg.arg)
		load_ext(cfg.arg);
	n = read_lines(cfg.file, lines, MAX_LINES);
	fn = !strcmp(cfg.kind, "attrs") ? test_attrs : !strcmp(cfg.kind, "reject") ? test_reject
	     : !strcmp(cfg.kind, "invalid") ? test_invalid : NULL;
	if (!fn) {
		fprintf(stderr, "test_vectors: unknown kind '%s'\n", cfg.kind);
		return 2;
	}
	for (i = 0; i < n; i++) {
		const char *why;

		if (fn == test_invalid && (lines[i].nr_fields < 5 || !cfg.arg ||
					   strcmp(lines[i].fields[4], cfg.arg)))
			continue;
		why = unrunnable(&lines[i]);
		if (why) {
			skip_reason = why;
			printf("# not run: %s: %s\n", lines[i].string, why);
			continue;
		}
		tests[nt].name = lines[i].string[0] ? lines[i].string : "(empty string)";
		tests[nt].test_func = fn;
		tests[nt].initial_state = &lines[i];
		nt++;
	}
	if (nt == 0) {
		printf("1..0 # SKIP %s\n", skip_reason ? skip_reason : "no vectors apply here");
		return 0;
	}
	return _cmocka_run_group_tests(cfg.file, tests, (size_t)nt, NULL, NULL);
}
