/* SPDX-License-Identifier: MIT */
/*
 * fuzz_host.c - libFuzzer target for the host layer's parsers of outside
 * input.  The first byte picks one: 'k' a /proc/kallsyms file (through the
 * real reader, in chunks, whole and quick (names checked afterwards),
 * which must agree, from a memfd, so
 * overlong and unterminated lines are covered too), 's' a /proc/PID/status
 * text searched for a few keys, 'm'
 * /proc/PID/maps lines, 'c' a CPU list.  Every result is checked against
 * its contract: parsed strings lie inside the input and are terminated.
 * fuzz_replay_host runs the committed corpus (fuzz/corpus/host) in CI.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfkit.h"
#include "host/host.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static volatile size_t sink;

static int ksym(void *arg, const struct pk__host_ksym *s)
{
	if (!s->name[0] || (s->module && !s->module[0]))
		abort();	/* the parser promised a name, and a non-empty module */
	sink += strlen(s->name) + (s->module ? strlen(s->module) : 0) + (size_t)s->type;
	++*(size_t *)arg;
	return 0;
}

/* The quick walk's lines: counted when well-formed, the unchecked ones
 * once pk__host_ksym_name_ok says so. */
static int ksym_quick(void *arg, const struct pk__host_ksym *s)
{
	if (s->unchecked && (s->module || !pk__host_ksym_name_ok(s->name, s->name_len)))
		return 0;
	return ksym(arg, s);
}

static void kallsyms(const char *text, size_t len)
{
	char path[64];
	int fd = memfd_create("kallsyms", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, len) == (ssize_t)len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		size_t chunked = 0, whole = 0, quick = 0;
		char *kept = NULL;
		int r1 = pk__host_kallsyms_read(path, PK__KSYM_NEED_ADDRS, ksym, &chunked);
		int r2 = pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS, ksym, &whole, &kept);

		/* Read in chunks or whole, the same lines and the same answer. */
		if (r1 != r2 || chunked != whole)
			abort();
		free(kept);
		/* And quick, names checked afterwards: the same again. */
		kept = NULL;
		if (pk__host_kallsyms_load(path, PK__KSYM_NEED_ADDRS | PK__KSYM_QUICK, ksym_quick, &quick,
					   &kept) != r2 || quick != whole)
			abort();
		free(kept);
		sink += strlen(pk_last_error()->why);
	}
	close(fd);
}

static void status(const char *text)
{
	static const char *const keys[] = { "Tgid", "PPid", "Name", "Pid", "" };
	char out[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (pk__host_status_field(text, keys[i], out, sizeof(out)) == 0)
			sink += strlen(out);
}

/* Each line of text through a line parser, on its own heap copy. */
static void lines(const char *text, int (*one)(char *line))
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = malloc(n + 2);

		if (!line)
			return;
		memcpy(line, p, n);
		line[n] = p[n];
		line[n + (p[n] != 0)] = '\0';
		one(line);
		free(line);
		p += n + (p[n] != 0);
	}
}

static int one_map(char *line)
{
	struct pk__host_map m;
	size_t len = strlen(line);

	if (pk__host_maps_parse(line, &m) == 0) {
		if (m.end < m.start || strlen(m.perms) != 4 || m.path < line || m.path > line + len)
			abort();
		sink += strlen(m.path);
	}
	return 0;
}

static int one_ksym(char *line)
{
	struct pk__host_ksym s;
	size_t len = strlen(line);

	if (pk__host_ksym_parse(line, &s) == 0 && (s.name < line || s.name > line + len))
		abort();
	return 0;
}

static void cpus(const char *text)
{
	int *list;
	size_t nr;

	if (pk_cpus_parse(text, &list, &nr) == 0) {
		for (size_t i = 1; i < nr; i++)
			if (list[i - 1] >= list[i])
				abort();	/* sorted, no duplicates */
		free(list);
	} else if (pk_last_error()->column < 1) {
		abort();	/* a bad list points at a column */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1 || size > 1 << 16)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0]) {
	case 'k': kallsyms(text, size - 1); lines(text, one_ksym); break;
	case 's': status(text); break;
	case 'm': lines(text, one_map); break;
	case 'c': cpus(text); break;
	default: break;
	}
	free(text);
	return 0;
}
