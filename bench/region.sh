#!/bin/sh
# SPDX-License-Identifier: MIT
# region.sh - what pk_region_read costs beside the bare group read(2) it
# makes, on two software events of the calling thread (bench/region.c):
# 1. the user-space instructions of one pk_region_read, counted by
#    callgrind over 1000 calls (load-independent), linked statically and
#    against the shared library, with the functions they go to; and those
#    of a bare read(2) of the same group fd (libc's read: the floor);
# 2. timed side by side in one run: pk_region_read against the bare
#    read(2), pk_region_stop+start against the bare pair of group ioctls
#    and against PAPI_stop+PAPI_start (when Debian's libpapi-dev is
#    installed), pk_markers_begin+end against the bare pair of ioctls;
#    each ratio as the median of 101 paired rounds and as the ratio of
#    the two quietest rounds.
# usage: bench/region.sh [BUILD-DIR]   (default build; valgrind for part 1)
set -eu
B=${1:-build}
src=$(dirname "$0")/..
exe=$(mktemp)
cg=$(mktemp)
trap 'rm -f "$exe" "$cg"' EXIT
papi=""
[ -f /usr/include/papi.h ] && papi="-DHAVE_PAPI -lpapi"
static="$B/libperfkit.a -lpfm -lelf -ldw -ltraceevent -lzstd -lz -liberty -lpthread"
# build LINK...: the bench, linked with LINK.
build() {
	# shellcheck disable=SC2086
	cc -O2 -D_GNU_SOURCE -I"$src/include" -o "$exe" "$src/bench/region.c" "$@" $papi
}
# count FUNCTION [MODE]: instructions per call of FUNCTION (inclusive)
# over the 1000 calls `region MODE` makes, and the functions they go to.
count() {
	valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect="$1" \
		"$exe" ${2:-} >/dev/null 2>&1
	callgrind_annotate --inclusive=yes --auto=no "$cg" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%d instructions per call (inclusive):\n", $1 / 1000 }
		/src\/lib\/|io\/.*read\.c|tls_get_addr/ { n = $1; gsub(",", "", n); f = $0; sub(/ \[.*/, "", f); sub(/.*:/, "", f); if (seen[f]++) next
			printf "  %-24s %6d\n", f, n / 1000 }'
}
if command -v valgrind >/dev/null; then
	# shellcheck disable=SC2086
	build $static
	printf "bare group read(2), libc's read: "
	count read bare
	printf "pk_region_read, static archive: "
	count pk_region_read
	build -L"$B" -lperfkit -Wl,-rpath,"$(cd "$B" && pwd)"
	printf "pk_region_read, shared library: "
	count pk_region_read
fi
# shellcheck disable=SC2086
build $static
"$exe" time
