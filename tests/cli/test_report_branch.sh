#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_branch.sh - perf report 6.1's branch mode in perfkit report:
# -b on files whose samples brstack-craft.py gave a branch stack (no LBR
# here), and perf's own choice of it for a file with the BRANCH_STACK
# feature and no user stacks (not for one without the feature, nor for a
# --call-graph dwarf recording), each byte for byte against perf on the
# same file: rows of each branch, perf's default branch columns and
# widths, its sort order and its Branch Statistics block.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -F 999 -o mine.data -- "$W" hotb 50 >/dev/null 2>&1
python3 "$CRAFT" --feature mine.data mine-br.data
python3 "$CRAFT" mine.data mine-nofeat.data

# What holds without perf: every branch a row's share, four per sample.
run report -i mine-br.data --stdio
expect_rc "a file with the BRANCH_STACK feature: branch mode, exit 0" 0
contains "perf's branch columns" "$out" "# Overhead  Command          Source Shared Object  Source Symbol"
contains "and its branch statistics" "$out" "# Branch Statistics:"
nr=$("$PERFKIT" report -i mine.data --stdio -n -q --sort comm | awk '{ s += $2 } END { print s }')
want="$((nr * 4))  of"	# perf's convert_unit past 1000: 1K and so on
[ $((nr * 4)) -gt 1000 ] && want="$((nr * 4 / 1000))K of"
check "Samples counts the branches: four per sample ($nr samples)" \
	grep -q "^# Samples: $want event" <<<"$out"
sum=$(printf '%s\n' "$out" | awk '/^ +[0-9.]+%/ { sub(/%/, "", $1); s += $1 } END { printf "%.0f", s }')
check "the rows add up to 100% ($sum)" [ "$sum" = 100 ]
run report -i mine-nofeat.data --stdio
check "without the feature: the usual table" [ "$(printf '%s\n' "$out" | grep -c 'Source Symbol')" = 0 ]
run report -i mine-br.data --stdio --no-branch-stack
check "--no-branch-stack: the usual table" [ "$(printf '%s\n' "$out" | grep -c 'Branch Statistics')" = 0 ]
run report -i mine-br.data --stdio -b --sort comm
expect_rc "-b with --sort (keys branch mode does not take yet): exit 1" 1
contains "saying so" "$err" "takes no --sort or -F keys yet"
run report -i mine-br.data --stdio --sort comm
expect_rc "--sort without -b on a BRANCH_STACK file: the usual table" 0
check "... not branch mode" [ "$(printf '%s\n' "$out" | grep -c 'Branch Statistics')" = 0 ]
run report -i mine.data --stdio -b
expect_rc "-b on a file without branch stacks: exit 1" 1
contains "with perf's words" "$err" "no branch data. Did you call perf record without -b?"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report -b" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock -F 999 -o perf.data -- "$W" hot 50 >/dev/null 2>&1
python3 "$CRAFT" --feature perf.data perf-br.data
# kernel ends: a program that spends its time in system calls
perf record -q -e cpu-clock -F 999 -o dd.data -- dd if=/dev/zero of=/dev/null bs=1k count=100000 \
	>/dev/null 2>&1
python3 "$CRAFT" --feature dd.data dd-br.data
perf record -q --call-graph dwarf -e cpu-clock -F 999 -o dwarf.data -- "$W" hot 30 >/dev/null 2>&1
python3 "$CRAFT" --feature dwarf.data dwarf-br.data
for f in mine-br.data mine-nofeat.data perf-br.data dd-br.data; do
	same_as_perf "$f"
	same_as_perf "$f" -b
done
same_as_perf mine-br.data -q
same_as_perf perf-br.data --no-branch-stack
# a user stack: perf's default is no branch mode, -b turns it on
same_as_perf dwarf-br.data --no-children
same_as_perf dwarf-br.data -b
done_testing
