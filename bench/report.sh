#!/bin/sh
# SPDX-License-Identifier: MIT
# report.sh - perfkit report and script against perf report and script on
# the same large file, every mode issue 10 measures side by side in one
# hyperfine run, with the peak memory of each.  The file is recorded by
# perf with frame-pointer call chains (-g) unless one is given.  The modes:
# report --no-children, report (children, the default with call chains),
# report --no-children -g none, report --no-children --sort sym, each with
# the default keys (comm,dso,sym) unless named, and script.  Reported per
# command: wall time, CPU time (user + system: on a loaded machine wall time
# is mostly waiting for a CPU) and peak memory, and perfkit / perf for both
# times.  The issue's target is 0.1x of perf's time in every mode.
# Kernel symbols come from ~/.debug's kallsyms copy when it is this boot's
# (perfkit's fixed cost ~6 ms, else ~40 ms for /proc/kallsyms): see PERFORMANCE.md.
# usage: bench/report.sh [PATH-TO-PERFKIT [PERF.DATA [RUNS]]]
#        (default build/src/cli/perfkit, a new recording, 5)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
RUNS=${3:-5}
WORKLOAD=${WORKLOAD:-build/tests/perfkit-workload}
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $# -ge 2 ]; then
	data=$2
else
	data=$dir/big.data
	perf record -q -e cpu-clock -F 20000 -g -o "$data" -- "$WORKLOAD" hot 30000 >/dev/null 2>&1
fi
samples=$("$PERFKIT" report -i "$data" --stdio --no-children -g none -n --sort comm 2>/dev/null |
	awk '/^# Samples:/ { s = 1 } s && $2 ~ /^[0-9]+$/ { n += $2 } END { print n }')
size=$(stat -c %s "$data")
modes="--no-children|--children|--no-children -g none|--no-children --sort sym|script"
# the command of TOOL in MODE
cmd() {
	case $2 in
	script) echo "$1 script -i $data" ;;
	*) echo "$1 report -i $data --stdio $2" ;;
	esac
}
set --
IFS='|'
for m in $modes; do
	set -- "$@" "$(cmd "$PERFKIT" "$m")" "$(cmd perf "$m")"
done
unset IFS
hyperfine -N -w 1 -r "$RUNS" -i --export-json "$dir/h.json" "$@" >/dev/null 2>&1
for c in "$@"; do
	# shellcheck disable=SC2086
	/usr/bin/time -f %M -o "$dir/rss" $c >/dev/null 2>&1 || true
	cat "$dir/rss"
done >"$dir/rss.all"
python3 - "$dir/h.json" "$dir/rss.all" "$samples" "$size" "$modes" "$RUNS" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
rss = [int(x) for x in open(sys.argv[2]).read().split()]
n, size, modes, runs = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split("|"), sys.argv[6]
print(f"{n} samples, {size / 1e6:.1f} MB; mean of {runs} runs")
print(f"  {'mode':28s} {'tool':8s} {'wall ms':>8s} {'cpu ms':>8s} {'us/sample':>9s} {'peak MB':>8s}  perfkit/perf wall, cpu")
for i, m in enumerate(modes):
    k, p = res[2 * i], res[2 * i + 1]
    for tool, r, mem in (("perfkit", k, rss[2 * i]), ("perf", p, rss[2 * i + 1])):
        cpu = r["user"] + r["system"]
        ratio = "" if tool == "perf" else \
            f"  {k['mean'] / p['mean']:.3f}x, {(k['user'] + k['system']) / (p['user'] + p['system']):.3f}x"
        print(f"  {m:28s} {tool:8s} {r['mean'] * 1e3:8.0f} {cpu * 1e3:8.0f} {cpu / n * 1e6:9.2f} "
              f"{mem / 1024:8.1f}{ratio}")
PY
