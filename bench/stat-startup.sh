#!/bin/sh
# SPDX-License-Identifier: MIT
# stat-startup.sh - perfkit stat against perf stat on an empty command, side
# by side in one run: wall time (hyperfine) and the page faults each tool
# attributes to `true` (its own work must not leak into the count).
# usage: bench/stat-startup.sh [PATH-TO-PERFKIT]   (default build/src/cli/perfkit)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
EV=task-clock,page-faults,context-switches
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
hyperfine -N -w 20 -r 200 --export-json "$out" \
	'true' "$PERFKIT stat -e $EV -- true" "perf stat -e $EV -- true" >/dev/null 2>&1
python3 - "$out" <<'PY'
import json, sys
r = {x["command"].split()[0]: x for x in json.load(open(sys.argv[1]))["results"]}
t, k, p = (r[c]["mean"] * 1e3 for c in ("true", next(c for c in r if "perfkit" in c), "perf"))
print(f"wall time, mean of 200: true {t:.2f} ms, perfkit stat {k:.2f} ms, perf stat {p:.2f} ms")
print(f"perfkit / perf = {k / p:.2f}x   (target <= 0.15x)")
print(f"perfkit - true = {k - t:.2f} ms (target <= 1 ms)")
PY
pf() { "$@" 2>&1 >/dev/null | awk -F, '$3 == "page-faults" { print $1 }'; }
echo "page-faults counted for 'true': perfkit $(pf "$PERFKIT" stat -x, -e page-faults -- true)," \
	"perf $(pf perf stat -x, -e page-faults -- true)  (target: perfkit <= perf)"
