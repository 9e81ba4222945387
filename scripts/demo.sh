#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh - what `make run` shows: perfkit profiling the bundled workload
# (tests/workloads/workload.c, two hot functions) with call chains on the
# cpu-clock event (this VM has no hardware PMU), the top of the report,
# the report as JSON, and a flame graph and a pprof profile written into
# the build directory, with where they are.  $1 is the perfkit binary, $2
# the workload, $3 the directory the files go to.
set -u
PERFKIT=${1:?usage: demo.sh PERFKIT WORKLOAD OUTDIR}
WORKLOAD=${2:?usage: demo.sh PERFKIT WORKLOAD OUTDIR}
OUT=${3:?usage: demo.sh PERFKIT WORKLOAD OUTDIR}

section() {
	printf '\n==== %s ====\n\n' "$*"
}

mkdir -p "$OUT" || exit 1
data="$OUT/perf.data"

section "perfkit record -g -e cpu-clock -- $(basename "$WORKLOAD") hot 300"
"$PERFKIT" record -g -e cpu-clock -o "$data" -- "$WORKLOAD" hot 300 || exit 1

section "perfkit report --no-children (the top 10 rows)"
"$PERFKIT" report -i "$data" --stdio --no-children -g none | grep -v '^#' | grep -v '^$' | head -10

section "perfkit report (call graphs, Children totals; the top)"
"$PERFKIT" report -i "$data" --stdio --percent-limit 5 | grep -v '^#' | head -30

"$PERFKIT" report -i "$data" --format=flamegraph -o "$OUT/flame.svg" || exit 1
"$PERFKIT" report -i "$data" --format=pprof -o "$OUT/profile.pb.gz" || exit 1
"$PERFKIT" report -i "$data" --format=json -o "$OUT/report.json" || exit 1

section "files"
echo "recording:   $data"
echo "flame graph: $OUT/flame.svg          (open it in a browser)"
echo "pprof:       $OUT/profile.pb.gz     (pprof -top $OUT/profile.pb.gz, or pprof -http=: ...)"
echo "JSON report: $OUT/report.json       (schema: docs/EXPORTS.md)"
echo "more:        $PERFKIT report -i $data --stdio"
exit 0
