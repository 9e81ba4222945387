#!/bin/sh
# SPDX-License-Identifier: MIT
# compile-profile.sh - record a deep, many-process `--call-graph dwarf`
# profile: perf records `gcc -O2 -c` of the first N of the library's
# sources, each its own cc1 process, chains tens of frames deep through
# cc1 (stripped) and libc.  Sourced by bench/compile-memory.sh and
# bench/dwarf-modes.sh.
# usage: . bench/compile-profile.sh; compile_profile SRC NR DIR
#        (writes DIR/gcc.data, using DIR/sources and DIR/x.o)
compile_profile() {
	ls "$1"/src/lib/*/*.c | head -n "$2" >"$3/sources"
	perf record -q --call-graph dwarf -F 3000 -o "$3/gcc.data" -- sh -c '
		while read -r f; do
			gcc -O2 -D_GNU_SOURCE -I"$1/include" -I"$1/src/lib" -I"$1/build" \
				-I/usr/include/traceevent -c "$f" -o "$2/x.o" || exit 1
		done <"$2/sources"' sh "$1" "$3" >/dev/null 2>&1
}
