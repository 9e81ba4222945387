#!/bin/sh
# SPDX-License-Identifier: MIT
# dwarf-report.sh - report and script on `--call-graph dwarf` recordings,
# an older perfkit, this one and perf side by side in one run: CPU time
# (task-clock, `perf stat -r RUNS`) and wall time (RUNS runs), with each
# ratio to perf.  perf records two files: the unwind target (its chain
# runs through ld.so's and libc's start code, whose Debian debug files
# have zlib-compressed DWARF) and the workload's `hot`.  Before timing,
# bench/same-output.sh checks that the two perfkits print the same bytes
# on both files (the script stops when they differ).  Both perfkits use a
# build-id cache of the script's own ($PERFKIT_BUILDID_DIR), which that
# check fills with the whole images of compressed debug files the new one
# keeps there, so its timed runs read them back; the new-cold column times
# it with those images removed before each run (it inflates and keeps them
# again).  With BIG=1, two large shallow files too: wb.data, recorded by
# the new perfkit (290 MB of the workload's `hot 5000`: its 8 MiB DWARF
# rings make rounds of ~2 MB, which pin many of the reader's buffers),
# and pwb.data, perf's of `hot 3000` (173 MB).
# usage: [BIG=1] bench/dwarf-report.sh OLD-PERFKIT [NEW-PERFKIT [BUILD [RUNS]]]
#        (defaults: build/src/cli/perfkit, build, 5)
set -eu
OLD=$1
NEW=${2:-build/src/cli/perfkit}
BUILD=${3:-build}
RUNS=${4:-5}
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/cache"
export PERFKIT_BUILDID_DIR="$dir/cache"
perf record -q --call-graph dwarf -e task-clock:u -F 5000 -o "$dir/u.data" -- \
	"$BUILD/tests/unit/unwind/perfkit-unwind-target" >/dev/null 2>&1
perf record -q --call-graph dwarf -e task-clock:u -F 2000 -o "$dir/w.data" -- \
	"$BUILD/tests/perfkit-workload" hot 300 >/dev/null 2>&1
files="u w"
if [ "${BIG:-0}" = 1 ]; then
	"$NEW" record -q --call-graph dwarf -c 250000 -o "$dir/wb.data" -- \
		"$BUILD/tests/perfkit-workload" hot 5000 >/dev/null 2>&1
	perf record -q --call-graph dwarf -c 250000 -o "$dir/pwb.data" -- \
		"$BUILD/tests/perfkit-workload" hot 3000 >/dev/null 2>&1
	files="$files wb pwb"
fi
paths=$(for f in $files; do printf '%s ' "$dir/$f.data"; done)
# shellcheck disable=SC2086
sh "$SRC/bench/same-output.sh" "$OLD" $paths | sed "s|$dir/||" >"$dir/old.md5"
# shellcheck disable=SC2086
sh "$SRC/bench/same-output.sh" "$NEW" $paths | sed "s|$dir/||" >"$dir/new.md5"
if ! cmp -s "$dir/old.md5" "$dir/new.md5"; then
	echo "the two perfkits print different bytes:" >&2
	diff "$dir/old.md5" "$dir/new.md5" >&2 || true
	exit 1
fi
echo "same output: $(wc -l <"$dir/new.md5") report/script commands on the files ($files)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# cpu TOOL ARGS...: task-clock in ms, mean of RUNS
cpu() {
	perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null | grep task-clock | cut -d, -f1
}
# cold TOOL ARGS...: task-clock in ms, mean of RUNS, each with no kept
# debug image in the build-id cache
cold() {
	for _ in $(seq "$RUNS"); do
		rm -rf "$dir/cache/.perfkit-dwarf"
		perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | grep task-clock | cut -d, -f1
	done | awk '{ s += $1 } END { printf "%.2f\n", s / NR }'
}
# wall TOOL ARGS...: wall ms per run over RUNS runs
wall() {
	t0=$(date +%s%N)
	for _ in $(seq "$RUNS"); do "$@" >/dev/null 2>&1; done
	echo "$(( ($(date +%s%N) - t0) / RUNS / 1000000 ))"
}
printf '%-7s %-44s %9s %9s %9s %9s %7s %7s %7s\n' file command old-cpu new-cpu new-cold perf-cpu old/p new/p wall-n/p
for f in $files; do
	for o in "report --stdio --no-children" "report --stdio" "report --stdio --no-children --sort srcline" \
		"script" "script -F ip --no-inline"; do
		# shellcheck disable=SC2086
		co=$(cpu "$OLD" $o -i "$dir/$f.data")
		# shellcheck disable=SC2086
		cn=$(cpu "$NEW" $o -i "$dir/$f.data")
		# shellcheck disable=SC2086
		cc=$(cold "$NEW" $o -i "$dir/$f.data")
		# shellcheck disable=SC2086
		cp=$(cpu perf $o -i "$dir/$f.data")
		# shellcheck disable=SC2086
		wn=$(wall "$NEW" $o -i "$dir/$f.data")
		# shellcheck disable=SC2086
		wp=$(wall perf $o -i "$dir/$f.data")
		printf '%-7s %-44s %9s %9s %9s %9s %7.2f %7.2f %7.2f\n' "$f.data" "$o" "$co" "$cn" "$cc" "$cp" \
			"$(echo "$co / $cp" | bc -l)" "$(echo "$cn / $cp" | bc -l)" "$(echo "$wn / $wp" | bc -l)"
	done
done
