/* SPDX-License-Identifier: MIT */
/*
 * report-verbose.c - perf report -v's table: each DSO by its full path
 * (perf's long name, which the dso key then also sorts by), and before a
 * resolved symbol its address and the letter perf's dso__symtab_origin
 * gives for where the DSO's symbols came from (kallsyms, vmlinux, the
 * build-id cache, the file itself, ...).  The letters are kept per name
 * in a small table the printer reads back.  Code a KSYMBOL registered (BPF
 * programs, trampolines, dispatchers) as perf 6.1 keeps it: no symbol
 * table ('!'), addresses relative to the code's own map, and for the
 * kernel's BPF images (perf's is_bpf_image) an empty long name.
 */
#include "report.h"
#include "dso-names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_origins {
	const char **names;	/* interned: compared by pointer */
	char *letters;
	size_t nr;
};

int report_verbose_on(struct report_opts *o)
{
	o->verbose++;
	if (!o->origins && !(o->origins = calloc(1, sizeof(*o->origins))))
		return cli_usage("report", "out of memory");
	return 0;
}

/* The build-id caches: perfkit's (cli_buildid_dir), and perf's default
 * ~/.debug, which perf record fills even where perfkit's is elsewhere. */
static const char *cache_dir(int which, char *buf, size_t len)
{
	const char *home = getenv("HOME");

	if (!which)
		return cli_buildid_dir(buf, len);
	return home && (size_t)snprintf(buf, len, "%s/.debug", home) < len ? buf : NULL;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/* Whether a build-id cache holds debug info for d (<dir>/.build-id/xx/
 * rest/debug): perf looks there before the system's debug files.  A DSO
 * the recording's build-id table leaves out (no sample's ip was in it:
 * perf record marks only those, so one reached through call chains
 * alone) is looked up by its file's own build-id, which perf's dso__load
 * reads when none was recorded; the cache may still hold it from another
 * recording. */
static bool cached_debug(const struct pk_dso *d)
{
	char dir[4096], path[4200], hex[41] = "";
	uint8_t file_id[20];
	const uint8_t *id = d->build_id;
	int n, size = (int)d->build_id_size;

	if (!size && d->name[0] == '/' && (size = pk_build_id_read(d->name, file_id)) > 0)
		id = file_id;
	for (int i = 0; i < size && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	for (int which = 0; size > 0 && which < 2; which++) {
		if (!cache_dir(which, dir, sizeof(dir)))
			continue;
		n = snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/debug", dir, hex, hex + 2);
		if (n > 0 && (size_t)n < sizeof(path) && !access(path, R_OK))
			return true;
	}
	return false;
}

/* Whether `f` lies in a build-id cache. */
static bool in_cache(const char *f)
{
	char dir[4096];

	for (int which = 0; which < 2; which++)
		if (cache_dir(which, dir, sizeof(dir)) && under(f, dir))
			return true;
	return false;
}

/* A KSYMBOL's code: kernel code named neither "[kernel.kallsyms]" nor a
 * module's "[name]". */
static bool ksymbol_code(const struct pk_dso *d)
{
	return d->kernel && d->name[0] != '[';
}

/* perf 6.1's is_bpf_image: a trampoline or dispatcher the kernel made. */
static bool bpf_image(const char *name)
{
	return !strncmp(name, "bpf_trampoline_", 15) || !strncmp(name, "bpf_dispatcher_", 15);
}

/* perf's dso__symtab_origin, from the file the resolver read symbols from. */
static char origin_of(const struct pk_dso *d)
{
	const char *f = d->symfile;
	size_t n = f ? strlen(f) : 0;

	if (ksymbol_code(d))	/* its one symbol from the record: no symtab type */
		return '!';
	if (d->kernel && !f)	/* no kallsyms, no vmlinux: no symtab type */
		return '!';
	if (d->kernel)
		return strstr(f, "vmlinux") ? 'v' : 'k';
	if (!f)
		return '!';
	if (in_cache(f))	/* .../elf, or .../debug */
		return n >= 6 && !strcmp(f + n - 6, "/debug") ? 'D' : 'B';
	if (!strncmp(f, "/usr/lib/debug/", 15) && cached_debug(d))
		return 'D';
	if (!strncmp(f, "/usr/lib/debug/.build-id/", 25))
		return 'b';
	if (!strcmp(f, d->name))
		return 'd';
	return 'l';	/* a .gnu_debuglink file */
}

const char *report_verbose_dso(const struct report_opts *o, struct cli_names *n, const struct pk_dso *d,
			       uint32_t pid, bool *nomem)
{
	struct report_origins *t = o->origins;
	const char *name;
	const char **names;
	char *letters;

	if (!d || cli_dso_is_jit(d))
		return cli_dso_short_name(n, d, pid, nomem);	/* "[JIT] tid PID" too */
	/* perf's machine__process_ksymbol_register sets a BPF image's long
	 * name to "", and dso__load_vmlinux a kernel's to its vmlinux's */
	if (!(name = cli_names_intern(n, ksymbol_code(d) && bpf_image(d->name) ? "" :
				      d->kernel && origin_of(d) == 'v' ? cli_symfs_long_name(d->symfile) :
				      d->name))) {
		*nomem = true;
		return NULL;
	}
	for (size_t i = 0; i < t->nr; i++) {
		if (t->names[i] != name)
			continue;
		/* a DSO first met before its build-id or symbols were known may
		 * learn them later: look again while the letter says none */
		if (t->letters[i] == '!' || t->letters[i] == 'b')
			t->letters[i] = origin_of(d);
		return name;
	}
	names = realloc(t->names, (t->nr + 1) * sizeof(*names));
	if (names)
		t->names = names;
	letters = names ? realloc(t->letters, t->nr + 1) : NULL;
	if (!letters) {
		*nomem = true;
		return NULL;
	}
	t->letters = letters;
	t->names[t->nr] = name;
	t->letters[t->nr++] = origin_of(d);
	return name;
}

char report_verbose_origin(const struct report_opts *o, const char *dso)
{
	for (size_t i = 0; dso && o->origins && i < o->origins->nr; i++)
		if (o->origins->names[i] == dso)
			return o->origins->letters[i];
	return '!';
}

void report_ksym_sample(struct pk_hist_sample *s, const struct pk_dso *d)
{
	/* A KSYMBOL's map starts at its one symbol (perf's symbol__new at
	 * map_ip(map->start), 0), and perf has no adjust_symbols to undo. */
	if (d && ksymbol_code(d) && s->sym && s->ip >= s->sym_start) {
		s->ip -= s->sym_start;
		s->sym_start = 0;
	}
}

void report_ksym_frame(struct pk_hist_sample *fs, const struct pk_dso *d)
{
	fs->sym_start = report_ksym_start(d, fs->sym, fs->sym_start);
}

uint64_t report_ksym_start(const struct pk_dso *d, const char *sym, uint64_t sym_start)
{
	return d && ksymbol_code(d) && sym ? 0 : sym_start;
}

bool report_verbose_dso_listed(const struct report_opts *o, const char *dso, const struct pk_dso *d)
{
	const char *base = o->verbose && dso && dso[0] == '/' ? strrchr(dso, '/') + 1 : NULL;

	/* perf's machine__resolve: the short name, or the long one (the full
	 * path) when the DSO has one of its own, with or without -v */
	return report_in_list(o->dsos, dso) || (base && report_in_list(o->dsos, base)) ||
	       (d && !cli_dso_is_jit(d) && report_in_list(o->dsos, d->name));
}

void report_verbose_free(struct report_opts *o)
{
	if (o->origins) {
		free(o->origins->names);
		free(o->origins->letters);
		free(o->origins);
		o->origins = NULL;
	}
}
