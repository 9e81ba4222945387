/* SPDX-License-Identifier: MIT */
/*
 * replay.c - runs every file of the given corpus directories through
 * LLVMFuzzerTestOneInput (fuzz_events.c or fuzz_tracefs.c, whichever it is
 * linked with) and speaks TAP, one case per file.
 * This is how the fuzz corpus, including any crash a fuzzing run found and
 * committed, is checked in CI without clang or libFuzzer: a crash aborts
 * the run (Meson reports the file last announced), a clean pass prints ok.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the regular files of dir, sorted so runs are reproducible. */
static size_t list_files(const char *dir, char ***out)
{
	struct dirent *de;
	size_t n = 0, cap = 0;
	char **v = NULL, path[4096];
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				abort();
		}
		v[n] = strdup(path);
		if (!v[n++])
			abort();
	}
	closedir(d);
	qsort(v, n, sizeof(*v), by_name);
	*out = v;
	return n;
}

static int replay(const char *path)
{
	static uint8_t buf[1 << 20];
	size_t len;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return LLVMFuzzerTestOneInput(buf, len);
}

int main(int argc, char **argv)
{
	char **files[64];
	size_t nr[64], total = 0, k;
	int a, t = 0, bad = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (a = 1; a < argc && a < 65; a++) {
		nr[a - 1] = list_files(argv[a], &files[a - 1]);
		total += nr[a - 1];
	}
	if (total == 0) {
		printf("1..0 # SKIP no corpus files under the given directories\n");
		return argc > 1 ? 1 : 0;
	}
	printf("1..%zu\n", total);
	for (a = 1; a < argc && a < 65; a++) {
		for (k = 0; k < nr[a - 1]; k++) {
			const char *p = files[a - 1][k];

			printf("# %s\n", p);
			fflush(stdout);
			if (replay(p) < 0) {
				printf("not ok %d - %s (unreadable)\n", ++t, p);
				bad++;
			} else {
				printf("ok %d - %s\n", ++t, strrchr(p, '/') + 1);
			}
			free(files[a - 1][k]);
		}
		free(files[a - 1]);
	}
	return bad ? 1 : 0;
}
