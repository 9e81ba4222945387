#!/bin/sh
# SPDX-License-Identifier: MIT
# selfmon.sh - build bench/selfmon.c against the build's static libperfkit
# and run it: region reads and start/stop against raw syscalls and
# PAPI-style per-event ioctls and PAPI itself, markers, and the mmap-page
# read.
# usage: bench/selfmon.sh [BUILD-DIR]   (default build)
set -eu
B=${1:-build}
src=$(dirname "$0")/..
exe=$(mktemp)
trap 'rm -f "$exe"' EXIT
# PAPI (libpapi-dev, installed by scripts/deps.sh) is benched in the same
# run when its header is there.
papi=""
[ -f /usr/include/papi.h ] && papi="-DHAVE_PAPI -lpapi"
# shellcheck disable=SC2086
cc -O2 -D_GNU_SOURCE -I"$src/include" -I"$src/src/lib" -I"$B" -o "$exe" "$src/bench/selfmon.c" \
	"$B/libperfkit.a" $papi -lpfm -lelf -ltraceevent -lzstd -lpthread
"$exe"
# Instructions of one page read (pk__page_read and the seam's fake rdpmc and
# rdtsc it calls), counted by callgrind over 1000 calls.
if command -v valgrind >/dev/null; then
	cg=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect=pk__page_read \
		"$exe" page >/dev/null 2>&1
	ir=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	rm -f "$cg"
	echo "page read: $((ir / 1000)) instructions per call (callgrind, 1000 calls)"
fi
