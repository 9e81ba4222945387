/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - C++ (Itanium ABI) and Rust (legacy and v0) symbol names
 * made readable through libiberty's demanglers, GCC's own (the one
 * binutils and perf use): maintained with the compilers, and its
 * demangler files carry a linking exception that leaves our MIT code
 * unencumbered.  The callback forms are used: they allocate nothing and
 * never call xmalloc's exit-on-failure.  No parameters, as perf 6.1 prints
 * names by default; with them (DMGL_PARAMS) as it prints them under -v.
 */
#include "symbols/symbols.h"

#include <string.h>

#include <libiberty/demangle.h>

/* Mangled names longer than this are shown as they are: the demangler's
 * working set lives on the stack and grows with the name. */
#define MAX_MANGLED 4096

struct out {
	char *buf;
	size_t len, used;
	bool overflow;
};

static void append(const char *s, size_t n, void *arg)
{
	struct out *o = arg;

	if (!n)
		return;	/* libiberty's Rust demangler hands out (NULL, 0) pieces */
	if (o->overflow || n >= o->len - o->used) {
		o->overflow = true;
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

static const char *demangle(const char *name, int cxx_flags, char *buf, size_t len)
{
	struct out o = { buf, len, 0, false };
	int ok;

	if (len < 2 || strnlen(name, MAX_MANGLED + 1) > MAX_MANGLED)
		return NULL;
	buf[0] = '\0';
	if (name[0] == '_' && name[1] == 'R')	/* Rust v0 */
		ok = rust_demangle_callback(name, DMGL_RUST, append, &o);
	else if (name[0] == '_' && name[1] == 'Z') {
		/* Rust legacy names are Itanium-shaped: the Rust demangler
		 * takes them first, so their hash suffix goes as perf drops it. */
		ok = rust_demangle_callback(name, DMGL_RUST, append, &o);
		if (!ok || o.overflow) {
			o = (struct out){ buf, len, 0, false };
			buf[0] = '\0';
			ok = cplus_demangle_v3_callback(name, cxx_flags, append, &o);
		}
	} else
		return NULL;
	return ok && !o.overflow && o.used ? buf : NULL;
}

const char *pk__demangle(const char *name, char *buf, size_t len)
{
	return demangle(name, DMGL_ANSI, buf, len);
}

const char *pk__demangle_params(const char *name, char *buf, size_t len)
{
	return demangle(name, DMGL_ANSI | DMGL_PARAMS, buf, len);
}
