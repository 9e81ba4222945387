#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_brhist.sh - perf report 6.1's --branch-history in perfkit
# report: on -g recordings whose samples brstack-craft.py gave a branch
# stack (no LBR here), each sample's chain starts with its branches and
# every graph frame ends with perf's branch counts ("(CALL
# predicted:0.0%)", "(cycles:300)"), compared byte for
# byte with perf on the same files (user-only samples of a fixed period;
# the comparison holds for any file, wherever the samples land), with and
# without the BRANCH_STACK feature, in both call-graph orders, with
# --no-children and in perf's other -g print types; and without --sort,
# perf's default keys for it.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -e cpu-clock:u -c 1000000 -g -o mine.data -- "$W" hot 40 >/dev/null 2>&1
python3 "$CRAFT" --feature mine.data mine-br.data
python3 "$CRAFT" mine.data mine-nofeat.data

# What holds without perf.
run report -i mine-br.data --stdio --branch-history --sort sym
expect_rc "--branch-history on a file with the BRANCH_STACK feature: exit 0" 0
check "no branch mode: no Branch Statistics" [ "$(grep -c 'Branch Statistics' <<<"$out")" = 0 ]
check "a branch target's types and predicted share" grep -Eq '(CALL|COND_FWD|COND_BWD|UNCOND)[A-Z_ 0-9]*( predicted:[0-9.]+%)?\)$' <<<"$out"
check "a branch source's cycles" grep -Eq ' \(cycles:(7|300)( iter:[0-9]+ avg_cycles:[0-9]+)?\)$' <<<"$out"
# (the workload's call chains are short, frame pointers omitted: perf's
# arithmetic leaves none of them after the branches, so "(calltrace)"
# frames are the unit test's, test_callchain_branch.c)
check "the unmapped branch end joins the chains" grep -q '0x1234' <<<"$out"
run report -i mine-br.data --stdio --sort sym -g address --no-branch-stack
check "without it: no branch frames, no counts" \
	[ "$(grep -c -e '0x1234' -e '(cycles:' <<<"$out")" = 0 ]
run report -i mine-nofeat.data --stdio --branch-history --sort sym
expect_rc "without the feature: exit 0" 0
check "... the branches join the chains" grep -q '0x1234' <<<"$out"
check "... but no counts are printed (perf's rule)" [ "$(grep -c -e '(cycles:' -e 'predicted:' <<<"$out")" = 0 ]

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report --branch-history" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock:u -c 1000000 -g -o perf.data -- "$W" hot 40 >/dev/null 2>&1
python3 "$CRAFT" --feature perf.data perf-br.data
python3 "$CRAFT" perf.data perf-nofeat.data
for f in mine-br.data mine-nofeat.data perf-br.data perf-nofeat.data; do
	same_as_perf "$f" --branch-history --sort sym
done
for args in "--no-children" "-g caller" "-g callee" "--no-children -g caller" "-g fractal" "-g flat" "-g folded" "--sort comm,sym"; do
	# shellcheck disable=SC2086
	same_as_perf perf-br.data --branch-history --sort sym $args
done
# no --sort: perf's srcline,symbol,dso (its ipc_null column after them),
# the frames' entries keyed by their chain nodes' srclines
for f in mine-br.data perf-br.data perf-nofeat.data perf.data; do
	same_as_perf "$f" --branch-history
done
same_as_perf perf-br.data --branch-history --no-children
# a file without branch stacks: the usual graphs, keyed by address
same_as_perf perf.data --branch-history --sort sym
done_testing
