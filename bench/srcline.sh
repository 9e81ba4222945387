#!/bin/sh
# SPDX-License-Identifier: MIT
# srcline.sh - perfkit report --sort srcline against perf report --sort
# srcline on the same file (perf forks addr2line and asks it address by
# address; perfkit reads each object's DWARF once in process), and
# perfkit with and without srcline (--sort sym), side by side in one
# hyperfine run.  The file is recorded by perf from the inline target
# (-O2 -g, functions inlined two deep) with frame-pointer chains, unless
# one is given; --no-children -g none, so the table is what is measured.
# usage: bench/srcline.sh [PATH-TO-PERFKIT [PERF.DATA]]
#        (default build/src/cli/perfkit, a new recording)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
TARGET=${TARGET:-build/tests/perfkit-inline-target}
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $# -ge 2 ]; then
	data=$2
else
	data=$dir/srcline.data
	perf record -q -e cpu-clock -F 10000 -g -o "$data" -- "$TARGET" 1000 >/dev/null 2>&1
fi
opts="-i $data --stdio --no-children -g none"
k="$PERFKIT report $opts --sort srcline"
ks="$PERFKIT report $opts --sort sym"
p="perf report $opts --sort srcline"
ps="perf report $opts --sort sym"
if [ "$($PERFKIT report $opts --sort srcline | grep -v '^# (')" != "$(perf report $opts --sort srcline 2>/dev/null | grep -v '^# (')" ]; then
	echo "note: the two tables differ on this file" >&2
fi
hyperfine -N -w 1 -r 5 --export-json "$dir/h.json" "$k" "$ks" "$p" "$ps" >/dev/null 2>&1
python3 - "$dir/h.json" <<'PY'
import json, sys
r = [x["mean"] for x in json.load(open(sys.argv[1]))["results"]]
names = ["perfkit report --sort srcline", "perfkit report --sort sym",
         "perf report --sort srcline", "perf report --sort sym"]
for n, t in zip(names, r):
    print(f"  {n:32s} {t * 1e3:8.1f} ms")
print(f"perfkit / perf, --sort srcline: {r[0] / r[2]:.3f}x")
print(f"perfkit srcline / perfkit sym:  {r[0] / r[1]:.2f}x (what the lines cost)")
print(f"perf srcline / perf sym:        {r[2] / r[3]:.2f}x")
PY
