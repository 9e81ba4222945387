#!/bin/sh
# SPDX-License-Identifier: MIT
# install-test.sh BUILDDIR SRCDIR - `meson install` into a DESTDIR under
# $TMPDIR, check that the library (versioned .so and .a), the headers,
# perfkit.pc, the CLI, the man pages (sections 1 and 3, man finding a
# function by its name) and the bash and
# zsh completion are in place, then build two
# examples against the installed tree with pkg-config alone and run them
# on the installed shared library.
set -eu
build=$1 src=$2
dest=$(mktemp -d "${TMPDIR:-/tmp}/pk-install.XXXXXX")
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >/dev/null

need() {	# need WHAT FIND-ARGS...: exactly one installed file matches
	what=$1; shift
	n=$(find "$dest" "$@" | wc -l)
	[ "$n" -ge 1 ] || { echo "not installed: $what"; exit 1; }
	echo "installed: $what"
}
need "perfkit.h" -path '*/include/perfkit.h'
for h in "$src"/include/perfkit/*.h; do
	need "perfkit/$(basename "$h")" -path "*/include/perfkit/$(basename "$h")"
done
need "libperfkit.so.0.1.0" -name libperfkit.so.0.1.0 -type f
need "libperfkit.so.0" -name libperfkit.so.0 -type l
need "libperfkit.so" -name libperfkit.so -type l
need "libperfkit.a" -name libperfkit.a
need "perfkit.pc" -name perfkit.pc
need "bin/perfkit" -path '*/bin/perfkit' -type f
# perfkit(1) and a page for every command the CLI lists.
need "man1/perfkit.1" -path "*/man/man1/perfkit.1"
cmds=$("$build/src/cli/perfkit" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
[ -n "$cmds" ] || { echo "perfkit --help lists no commands"; exit 1; }
for c in $cmds; do
	need "man1/perfkit-$c.1" -path "*/man/man1/perfkit-$c.1"
done
# libperfkit(3) and a page for every public header.
need "man3/libperfkit.3" -path "*/man/man3/libperfkit.3"
for h in "$src"/include/perfkit/*.h; do
	m=pk_$(basename "$h" .h)
	need "man3/$m.3" -path "*/man/man3/$m.3"
done
# A page per function, linked (.so) to its header's page: man finds
# pk_evlist_open under its own name (man -w follows the link to the
# header's page) and shows pk_evlist(3).
mandir=$(dirname "$(dirname "$(find "$dest" -path '*/man/man3/libperfkit.3')")")
man_ok=	# a working man-db (a minimized image's man is a stub that fails)
if command -v man >/dev/null && MANPAGER=cat man -M "$mandir" -w libperfkit >/dev/null 2>&1; then
	man_ok=1
else
	echo "no working man: the link pages are checked as files only"
fi
for fn in pk_evlist_open:pk_evlist pk_ring_next:pk_ring pk_overflow_handle:pk_overflow \
	  pk_last_error:pk_error; do
	f=${fn%%:*} page=${fn#*:}
	need "man3/$f.3" -path "*/man/man3/$f.3"
	[ "$(cat "$mandir/man3/$f.3")" = ".so man3/$page.3" ] ||
		{ echo "man3/$f.3 does not link to $page.3"; exit 1; }
	if [ -n "$man_ok" ]; then
		w=$(MANPAGER=cat man -M "$mandir" -w "$f") ||
			{ echo "man -w $f finds no page"; exit 1; }
		[ "$w" = "$mandir/man3/$page.3" ] || { echo "man -w $f: $w"; exit 1; }
		MANWIDTH=80 MANPAGER=cat man -M "$mandir" "$f" 2>&1 | grep -q "^PK_$(echo "${page#pk_}" | tr a-z A-Z)(3)" ||
			{ echo "man $f does not show $page(3)"; exit 1; }
		echo "man $f: $page(3)"
	fi
done

# Shell completion where bash-completion and zsh look for it.
need "bash completion" -path '*/share/bash-completion/completions/perfkit' -type f
need "zsh completion" -path '*/share/zsh/site-functions/_perfkit' -type f

pcdir=$(dirname "$(find "$dest" -name perfkit.pc)")
libdir=$(dirname "$(find "$dest" -name libperfkit.so.0.1.0)")
export PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs perfkit)
echo "pkg-config: $flags"
for ex in region watchpoint; do
	${CC:-cc} -std=gnu11 -Wall -Werror -o "$dest/$ex" "$src/examples/$ex.c" $flags
	LD_LIBRARY_PATH="$libdir" ldd "$dest/$ex" | grep -q "$libdir/libperfkit.so.0" ||
		{ echo "$ex does not load the installed libperfkit"; exit 1; }
done
out=$(LD_LIBRARY_PATH="$libdir" "$dest/region")
echo "$out"
echo "$out" | awk '$1 == "page-faults" && $2 >= 4096 { ok = 1 } END { exit !ok }'
out=$(LD_LIBRARY_PATH="$libdir" "$dest/watchpoint")
echo "$out"
echo "$out" | grep -qx "moved, limit written: 2 hits, at &limit"
"$(find "$dest" -path '*/bin/perfkit' -type f)" --version
