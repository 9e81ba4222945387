#!/bin/sh
# SPDX-License-Identifier: MIT
# record-startup.sh - perfkit record against perf record on an empty
# command, side by side in one run (hyperfine).  perf's time is mostly its
# sideband thread waiting out a one-second poll; the issue's target for
# perfkit is under 50 ms.
# usage: bench/record-startup.sh [PATH-TO-PERFKIT]   (default build/src/cli/perfkit)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$dir" "$out"' EXIT
hyperfine -N -w 2 -r 10 --export-json "$out" \
	"$PERFKIT record -q -o $dir/k.data -- true" "perf record -q -o $dir/p.data -- true" >/dev/null 2>&1
python3 - "$out" <<'PY'
import json, sys
k, p = (r["mean"] * 1e3 for r in json.load(open(sys.argv[1]))["results"])
print(f"record -- true, mean of 10: perfkit {k:.1f} ms, perf {p:.1f} ms, "
      f"perfkit / perf = {k / p:.3f}x   (target: perfkit < 50 ms)")
PY
