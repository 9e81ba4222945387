/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pmu.c - libFuzzer target for what the pmu layer reads from sysfs: a
 * PMU's type, cpumask, format/ files (bit ranges), events/ aliases with
 * their .scale, .unit, .per-pkg and .snapshot companions, and caps/.  An
 * input is entries separated by NUL bytes, each "PATH\nCONTENT" where PATH
 * is type, cpumask, format/NAME, events/NAME or caps/NAME (NAME of
 * [A-Za-z0-9_.-]); other entries are ignored.  They are written as the
 * files of one PMU, "fz" (type 42 unless the input gives one), in a sysfs
 * tree made under $TMPDIR (else /dev/shm, else /tmp) when the process starts and removed when it
 * exits; each input's files are removed after it.  The tree is scanned with
 * pk_pmus_scan, and then: every format kept must parse again to the same
 * field and mask, every alias have a finite non-zero scale and strings,
 * and "fz/ALIAS/" and "fz/FORMAT=1/" go through pk_events_parse against
 * the snapshot, succeeding or failing with a described error.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkit.h"
#include "pmu/pmu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENTRIES 32

static char root[1024];		/* the temporary sysfs root */
static char pmu_dir[1200];	/* root/bus/event_source/devices/fz */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_root(void)
{
	if (*root)
		remove_tree(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char path[1100];

	(void)argc;
	(void)argv;
	struct stat st;

	/* tmpfs when there is one: creating and removing files on ext4 took
	 * 90% of the time. */
	if (!tmp || !*tmp || strlen(tmp) > 900)
		tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(root, sizeof(root), "%s/fuzz-pmu.XXXXXX", tmp);
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	snprintf(path, sizeof(path), "%s/bus", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", root);
	if (mkdir(path, 0755))
		abort();
	snprintf(pmu_dir, sizeof(pmu_dir), "%.1100s/fz", path);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	return 0;
}

/* Whether `path` (n bytes) is one of the files a PMU directory may hold. */
static bool allowed(const char *path, size_t n)
{
	static const char *const dirs[] = { "format/", "events/", "caps/" };
	const char *name = NULL;

	if ((n == 4 && !memcmp(path, "type", 4)) || (n == 7 && !memcmp(path, "cpumask", 7)))
		return true;
	for (size_t i = 0; i < 3 && !name; i++)
		if (n > strlen(dirs[i]) && !strncmp(path, dirs[i], strlen(dirs[i])))
			name = path + strlen(dirs[i]);
	if (!name || path + n - name > 64 || (name[0] == '.' && (path + n - name <= 2)))
		return false;
	for (const char *c = name; c < path + n; c++)
		if (!(*c == '_' || *c == '.' || *c == '-' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			return false;
	return true;
}

/* Write one file of the PMU directory. */
static bool put(const char *rel, size_t rel_len, const void *text, size_t len)
{
	char path[1400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.*s", pmu_dir, (int)rel_len, rel);
	if (!(f = fopen(path, "w")))
		return false;
	fwrite(text, 1, len, f);
	fclose(f);
	return true;
}

/* Write the input's entries as the PMU's files. */
static void write_pmu(const uint8_t *data, size_t size)
{
	static const char *const subdirs[] = { "", "/format", "/events", "/caps" };
	char path[1400];
	bool have_type = false;
	size_t at = 0;
	int nr = 0;

	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s%s", pmu_dir, subdirs[i]);
		mkdir(path, 0755);
	}
	while (at < size && nr < MAX_ENTRIES) {
		const char *e = (const char *)data + at;
		const char *end = memchr(e, 0, size - at);
		size_t len = end ? (size_t)(end - e) : size - at;
		const char *nl = memchr(e, '\n', len);

		if (nl && allowed(e, (size_t)(nl - e)) &&
		    put(e, (size_t)(nl - e), nl + 1, len - (size_t)(nl + 1 - e))) {
			have_type |= nl - e == 4 && !memcmp(e, "type", 4);
			nr++;
		}
		at += len + 1;
	}
	if (!have_type)
		put("type", 4, "42\n", 3);
}

/* A failed parse is a negative errno with its error record filled in. */
static void check_parse(const char *spec, const struct pk_pmus *pmus, uint32_t type)
{
	struct pk_parse_opts opts = { .size = sizeof(opts), .no_libpfm = true, .pmus = pmus };
	struct pk_events *ev = NULL;
	int n = pk_events_parse(spec, &opts, &ev);

	if (n < 0) {
		const struct pk_error *e = pk_last_error();

		if (e->code != n || !e->what || !e->why || !e->hint || ev)
			abort();
		return;
	}
	for (int i = 0; i < n; i++)
		if (pk_events_attr(ev, (size_t)i)->type != type)
			abort();	/* "fz/.../" encoded for another PMU */
	pk_events_free(ev);
}

static void check_pmu(const struct pk_pmus *pmus)
{
	const struct pk_pmu *pmu = pk_pmus_find(pmus, "fz");
	char spec[256];
	uint32_t type;

	if (!pmu)
		return;	/* unusable: a bad type file */
	type = pk_pmu_type(pmu);
	for (size_t i = 0; i < pk_pmu_nr_formats(pmu); i++) {
		const struct pk_pmu_format *f = pk_pmu_format(pmu, i);
		uint64_t mask;
		int field;

		if (!f || pk__pmu_parse_format(f->spec, &field, &mask) != 0 || field != f->field ||
		    mask != f->mask || !f->name)
			abort();	/* a kept format that does not parse to itself */
		snprintf(spec, sizeof(spec), "fz/%s=1/", f->name);
		check_parse(spec, pmus, type);
	}
	for (size_t i = 0; i < pk_pmu_nr_aliases(pmu); i++) {
		const struct pk_pmu_alias *a = pk_pmu_alias(pmu, i);

		if (!a || !a->name || !a->terms || !a->unit || !isfinite(a->scale) || a->scale == 0.0)
			abort();
		if (pk_pmu_find_alias(pmu, a->name) == NULL)
			abort();
		snprintf(spec, sizeof(spec), "fz/%s/", a->name);
		check_parse(spec, pmus, type);
	}
	for (size_t i = 0; i < pk_pmu_nr_caps(pmu); i++) {
		const char *name, *value;

		if (pk_pmu_cap(pmu, i, &name, &value) != 0 || !name || !value)
			abort();
	}
	if (pk_pmu_cpumask(pmu))
		(void)strlen(pk_pmu_cpumask(pmu));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_pmus *pmus = NULL;

	write_pmu(data, size);
	if (pk_pmus_scan(&pmus) == 0)
		check_pmu(pmus);
	pk_pmus_free(pmus);
	remove_tree(pmu_dir);
	return 0;
}
