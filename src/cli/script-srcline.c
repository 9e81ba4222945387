/* SPDX-License-Identifier: MIT */
/*
 * script-srcline.c - perf script's srcline field (-F +srcline): the
 * "\n  file.c:123" perf 6.1 prints after a sample's ip or a call-chain
 * frame, read from the DWARF in process (pk_maps_srcline) where perf asks
 * addr2line, with perf's rules for what is printed when no line is known:
 * "FILE:0" for an address without a line in a function addr2line finds
 * in the symbol table (":0" for an unnamed STT_FILE), nothing for "??:0",
 * "dso[addr]" where nothing could be read, and an inlined function's line
 * as it came.
 */
#include "script.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* --full-source-path: perf's srcline_full_filename, for the one command */
static bool full_path;

void script_srcline_full_path(bool on)
{
	full_path = on;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A source file's name as perf's srcline_from_fileline prints it. */
static const char *file_name(const char *path)
{
	return full_path ? path : base_name(path);
}

void script_print_srcline(FILE *f, struct pk_resolver *res, const struct pk_location *loc,
			  const struct pk_frame *fr, bool inline_on)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	int err;

	if (fr && fr->inl) {	/* addr2line's record for this function, as it came */
		const char *file = fr->inl->file_addr2line;

		fprintf(f, "\n  %s:%u", file ? file_name(file) : "??", fr->inl->line);
		return;
	}
	if (!loc->dso)
		return;
	err = pk_maps_srcline(pk_resolver_maps(res), loc, &sl);
	if (err == 0) {
		fprintf(f, "\n  %s:%u", file_name(sl.file_addr2line), sl.line);
	} else if (err == -ENODATA) {
		/* No line, but addr2line names a function there: "FILE:?" with
		 * the symbol table's file, "??:?" without one.  perf 6.1 reads
		 * either as FILE:0 and prints it, except "??:0" (its "unknown"),
		 * which it leaves out unless its inline pass keeps it as the
		 * record of an unwound frame. */
		if (sl.file_addr2line)
			fprintf(f, "\n  %s:0", file_name(sl.file_addr2line));
		else if (fr && fr->unwound && inline_on)
			fputs("\n  ??:0", f);
	} else {
		/* KSYMBOL code (a BPF program, dispatcher, trampoline): perf's
		 * address in its map, which starts at its one symbol */
		bool ksym = loc->dso->kernel && loc->dso->name[0] != '[' && loc->sym;

		fprintf(f, "\n  %s[%" PRIx64 "]",
			loc->dso->name[0] == '[' ? loc->dso->name : base_name(loc->dso->name),
			ksym ? loc->addr - loc->sym_start : loc->addr);
	}
}
