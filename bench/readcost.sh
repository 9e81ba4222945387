#!/bin/sh
# SPDX-License-Identifier: MIT
# readcost.sh - the floor of reading FILE out of the page cache here
# (bench/readcost.c): pread(2) with windows of 64 KB to 8 MB, on the
# source's grid and 8, 16 and 64 bytes off it, and a sliding mmap(2)
# window plain, populated and sequential; each after one read that puts
# the file in the page cache.  Compare with a report's system time on the
# same file (`/usr/bin/time -f '%U %S'`).
# usage: bench/readcost.sh FILE
set -eu
f=$1
exe=$(mktemp)
trap 'rm -f "$exe"' EXIT
cc -O2 -o "$exe" "$(dirname "$0")/readcost.c"
cat "$f" >/dev/null
for w in 64 256 1024 8192; do "$exe" "$f" pread $w; done
for o in 8 16 64; do "$exe" "$f" pread 256 $o; done
for m in mmap mmappop mmapseq; do for w in 1024 65536; do "$exe" "$f" $m $w; done; done
