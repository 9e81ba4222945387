#!/bin/sh
# SPDX-License-Identifier: MIT
# report.sh - perfkit report against perf report on the same large file,
# side by side in one run (hyperfine), with the peak memory of each.  The
# file is recorded by perf with frame-pointer call chains (-g) unless one
# is given; both tools print the same table (--sort comm,dso), perf in
# the modes issue 10 measures: --no-children, -g none, and its default
# (children).  The issue's target is 0.1x of perf's time.
# usage: bench/report.sh [PATH-TO-PERFKIT [PERF.DATA]]   (default build/src/cli/perfkit, a new recording)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
WORKLOAD=${WORKLOAD:-build/tests/perfkit-workload}
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $# -ge 2 ]; then
	data=$2
else
	data=$dir/big.data
	perf record -q -e cpu-clock -F 20000 -g -o "$data" -- "$WORKLOAD" hot 20000 >/dev/null 2>&1
fi
samples=$("$PERFKIT" report -i "$data" --stdio -n --sort comm | awk '/^# Samples:/ { s = 1 } s && $2 ~ /^[0-9]+$/ { n += $2 } END { print n }')
size=$(stat -c %s "$data")
k="$PERFKIT report -i $data --stdio --sort comm,dso"
p="perf report -i $data --stdio --sort comm,dso"
hyperfine -N -w 1 -r 5 --export-json "$dir/h.json" "$k" "$p --no-children" "$p --no-children -g none" \
	"$p --children" >/dev/null 2>&1
for c in "$k" "$p --no-children" "$p --no-children -g none" "$p --children"; do
	/usr/bin/time -f %M -o "$dir/rss" $c >/dev/null 2>&1
	cat "$dir/rss"
done >"$dir/rss.all"
python3 - "$dir/h.json" "$dir/rss.all" "$samples" "$size" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
rss = [int(x) for x in open(sys.argv[2]).read().split()]
n, size = int(sys.argv[3]), int(sys.argv[4])
names = ["perfkit report", "perf report --no-children", "perf report --no-children -g none", "perf report (children)"]
print(f"{n} samples, {size / 1e6:.1f} MB; --sort comm,dso; mean of 5 runs")
k = res[0]["mean"]
for name, r, m in zip(names, res, rss):
    t = r["mean"]
    print(f"  {name:34s} {t * 1e3:8.0f} ms  {t / n * 1e6:6.2f} us/sample  {m / 1024:6.1f} MB peak"
          + ("" if r is res[0] else f"  perfkit / this = {k / t:.3f}x"))
PY
