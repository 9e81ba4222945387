#!/bin/sh
# SPDX-License-Identifier: MIT
# region.sh - the user-space instructions of one pk_region_read (two
# software events, the read(2) path) counted by callgrind over 1000 calls,
# with the functions they go to, linked statically and against the shared
# library (which pays glibc's __tls_get_addr for the sys seam's
# thread-local table); bench/selfmon.sh times it against a raw read(2).
# usage: bench/region.sh [BUILD-DIR]   (default build; needs valgrind)
set -eu
B=${1:-build}
src=$(dirname "$0")/..
exe=$(mktemp)
cg=$(mktemp)
trap 'rm -f "$exe" "$cg"' EXIT
# count LINK...: build the bench with LINK, count one pk_region_read.
count() {
	cc -O2 -D_GNU_SOURCE -I"$src/include" -o "$exe" "$src/bench/region.c" "$@"
	valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect=pk_region_read \
		"$exe" >/dev/null 2>&1
	callgrind_annotate --inclusive=yes --auto=no "$cg" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%d instructions per call (inclusive):\n", $1 / 1000 }
		/src\/lib\/|io\/.*read\.c|tls_get_addr/ { n = $1; gsub(",", "", n); f = $0; sub(/ \[.*/, "", f); sub(/.*:/, "", f); if (seen[f]++) next
			printf "  %-24s %6d\n", f, n / 1000 }'
}
printf "pk_region_read, static archive: "
count "$B/libperfkit.a" -lpfm -lelf -ldw -ltraceevent -lzstd -lz -liberty -lpthread
printf "pk_region_read, shared library: "
count -L"$B" -lperfkit -Wl,-rpath,"$(cd "$B" && pwd)"
