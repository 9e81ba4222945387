/* SPDX-License-Identifier: MIT */
/*
 * perfmap.c - the symbols a JIT (V8, the JVM with perf-map-agent, .NET,
 * LuaJIT, ...) writes to /tmp/perf-PID.map for its anonymous executable
 * memory: one "START SIZE name" line per function, START and SIZE in hex
 * with or without 0x, the name the rest of the line (spaces included).
 * The file is outside input: malformed lines are skipped, long lines are
 * read whole.
 */
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *hex(char *p, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (;; p++, n++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (d < 0)
			break;
		if (n == 16)
			return NULL;	/* more than 64 bits */
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return n ? p : NULL;
}

int pk__perfmap_line(char *line, uint64_t *start, uint64_t *size, const char **name)
{
	char *p = hex(line, start), *end;

	if (!p || *p != ' ' || !(p = hex(p + 1, size)) || *p != ' ')
		return -EINVAL;
	p++;
	end = p + strcspn(p, "\r\n");
	*end = '\0';
	if (p == end || *size == 0)
		return -EINVAL;
	*name = p;
	return 0;
}

int pk__perfmap_load(const char *path, struct pk__symtab **out)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	struct pk__symtab *t;
	int ret;

	if (!f)
		return pk__error(-ENOENT, "read a JIT's symbols", "cannot open %s", path);
	if ((ret = pk__symtab_new(&t)) < 0) {
		fclose(f);
		return ret;
	}
	while (ret == 0 && getline(&line, &cap, f) >= 0) {
		uint64_t start, size;
		const char *name;

		if (pk__perfmap_line(line, &start, &size, &name) == 0)
			ret = pk__symtab_add(t, start, size, name, STB_GLOBAL);
	}
	free(line);
	fclose(f);
	if (ret < 0) {
		pk__symtab_free(t);
		return ret;
	}
	pk__symtab_finish(t, false);
	*out = t;
	return 0;
}
