/* SPDX-License-Identifier: MIT */
/*
 * script-srcline.c - perf script's srcline field (-F +srcline): the
 * "\n  file.c:123" perf 6.1 prints after a sample's ip or a call-chain
 * frame, read from the DWARF in process (pk_maps_srcline) where perf asks
 * addr2line, with perf's rules for what is printed when no line is known:
 * nothing for an address with a symbol but no line, "dso[addr]" where
 * nothing could be read, and an inlined function's line as it came.
 */
#include "script.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void script_print_srcline(FILE *f, struct pk_resolver *res, const struct pk_location *loc,
			  const struct pk_frame *fr, bool inline_on)
{
	struct pk_srcline sl = { .size = sizeof(sl) };
	int err;

	if (fr && fr->inl) {	/* addr2line's record for this function, as it came */
		const char *file = fr->inl->file_addr2line;

		fprintf(f, "\n  %s:%u", file ? base_name(file) : "??", fr->inl->line);
		return;
	}
	if (!loc->dso)
		return;
	err = pk_maps_srcline(pk_resolver_maps(res), loc, &sl);
	if (err == 0) {
		fprintf(f, "\n  %s:%u", base_name(sl.file_addr2line), sl.line);
	} else if (err == -ENODATA && loc->sym) {
		/* addr2line's "??:?": perf's inline pass keeps it as a record of
		 * an unwound frame and prints it; otherwise it is "??:0", left out. */
		if (fr && fr->unwound && inline_on)
			fputs("\n  ??:0", f);
	} else {
		fprintf(f, "\n  %s[%" PRIx64 "]",
			loc->dso->name[0] == '[' ? loc->dso->name : base_name(loc->dso->name), loc->addr);
	}
}
