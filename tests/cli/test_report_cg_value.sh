#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_cg_value.sh - report -g's value word (percent, period,
# count; abbreviated as perf allows) against perf report 6.1 on the same
# file: each chain's period or sample count where perf prints its share,
# in graph, fractal, flat and folded, with and without Children.  One
# recording of a fixed period (pingpong: two processes' kernel chains
# branch).  perf prints fractal's "[...]" line from a struct symbol it
# never initialises, so it is sometimes "[...] (inlined)": that suffix
# is dropped from perf's side; the tip line aside.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

run report -i /nonexistent --stdio -g graph,0.5,caller,function,bogus
expect_rc "an unknown -g word is still refused" 2
contains "named in the message" "$err" "bad -g word 'bogus'"
if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -g -e cpu-clock -c 100000 -o g.data -- "$PERFKIT_WORKLOAD" pingpong 2000 >/dev/null 2>&1

same() {	# report's arguments
	local theirs ours
	theirs=$(perf report -i g.data --stdio "$@" 2>/dev/null | grep -v 'Tip:\|perf report --' |
		sed 's/--\[\.\.\.\] (inlined)$/--[...]/')
	ours=$("$PERFKIT" report -i g.data --stdio "$@" 2>/dev/null | grep -v 'Tip:\|perfkit report --')
	if [ -n "$ours" ] && [ "$theirs" = "$ours" ]; then
		ok "report $* equals perf's"
	else
		not_ok "report $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}

ours=$("$PERFKIT" report -i g.data --stdio --no-children -g graph,0.5,callee,count 2>/dev/null)
check "-g count: chains' sample counts where percentages were" grep -qE -- '--[0-9]+--[a-z_]' <<<"$ours"
check "-g count: no percentage in the graphs" \
	bash -c '! grep -E "^ {12,}.*--[0-9.]+%--" <<<"$1"' _ "$ours"
for m in graph fractal flat folded; do
	for v in period count co pe; do
		same -g "$m,0.5,caller,function,$v"
		same --no-children -g "$m,callee,$v"
	done
done
same --no-children -g fractal,2,period,3
done_testing
