#!/bin/sh
# SPDX-License-Identifier: MIT
# stat-startup.sh - perfkit stat against perf stat on an empty command, side
# by side in one run: wall time (hyperfine), next to `true` alone and to the
# floor of any tool that runs a command (fork + exec + wait, bench/forkexec.c),
# and the page faults each tool attributes to `true` (its own work must not
# leak into the count).
# usage: bench/stat-startup.sh [PATH-TO-PERFKIT]   (default build/src/cli/perfkit)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
EV=task-clock,page-faults,context-switches
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
out=$(mktemp)
fe=$(mktemp)
trap 'rm -f "$out" "$fe"' EXIT
cc -O2 -o "$fe" "$(dirname "$0")/forkexec.c"
hyperfine -N -w 20 -r 300 --export-json "$out" \
	'true' "$fe true" "$PERFKIT stat -e $EV -- true" "perf stat -e $EV -- true" >/dev/null 2>&1
python3 - "$out" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
t, f, k, p = (r["mean"] * 1e3 for r in res)
print(f"wall time, mean of 300: true {t:.2f} ms, fork+exec+wait floor {f:.2f} ms, "
      f"perfkit stat {k:.2f} ms, perf stat {p:.2f} ms")
print(f"perfkit / perf          = {k / p:.2f}x   (target <= 0.15x)")
print(f"perfkit - true          = {k - t:.2f} ms (target <= 1 ms)")
print(f"perfkit - fork+exec floor = {k - f:.2f} ms (what perfkit itself adds)")
PY
# Page faults vary by one or two with address-space randomisation: compare medians.
pf() {
	for i in $(seq 21); do
		"$@" 2>&1 >/dev/null | awk -F, '$3 == "page-faults" { print $1 }'
	done | sort -n | sed -n 11p
}
echo "page-faults counted for 'true', median of 21: perfkit $(pf "$PERFKIT" stat -x, -e page-faults -- true)," \
	"perf $(pf perf stat -x, -e page-faults -- true)  (target: perfkit <= perf)"
