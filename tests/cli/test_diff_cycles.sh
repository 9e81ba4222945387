#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_diff_cycles.sh - perf diff's -c cycles on files whose samples
# brstack-craft.py gave branch stacks with cycles (no LBR here).  perf
# diff 6.1 crashes on such files, so the checks are computed here: a file
# against itself has every block matched (all changes 0), and each row
# has one line per block end, counted from perf script's brstacksym of
# the same file (the branch sources with cycles in the row's symbol).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

if ! command -v perf >/dev/null; then
	skip "block counts from perf script" "perf is not installed"
	done_testing
	exit 0
fi
"$PERFKIT" record -F 999 -o old.data -- "$W" hot 100 >/dev/null 2>&1
"$PERFKIT" record -F 999 -o new.data -- "$W" hotb 100 >/dev/null 2>&1
python3 "$CRAFT" --feature old.data old-br.data
python3 "$CRAFT" --feature new.data new-br.data

run diff -c cycles old-br.data new-br.data
expect_rc "-c cycles on branch stacks with cycles: a table" 0
contains "with perf's block column" "$out" "[Program Block Range] Cycles Diff"
contains "a block of hot_a by its source lines" "$out" "[workload.c:"
cells=$(grep -v '^#' <<<"$out" | grep -c .)
# (a row the new file lacks: its first line's cell blank, as perf's)
good=$(grep -v '^#' <<<"$out" | grep -cE '^ +[0-9.]+%( +\[[^]]+ -> [^]]+\] +-?[0-9]+)?  +[^ ]')
check "every line a baseline, a block range and its change ($good of $cells)" test "$cells" -gt 0 -a "$good" = "$cells"

# A file against itself: every block has its twin, no change.
run diff -c cycles old-br.data old-br.data
nonzero=$(grep -v '^#' <<<"$out" | grep -cvE '\] +0  ')
check "a file against itself: every change 0 ($nonzero others)" [ "$nonzero" = 0 ]
# One line per block end: the distinct sources with cycles in each symbol.
want=$(perf script -F brstacksym -i old-br.data 2>/dev/null | python3 -c '
import sys, collections
ends = collections.defaultdict(set)
for line in sys.stdin:
    es = [e.split("/") for e in line.split()]
    if not es or es[0][5] == "0":
        continue
    for e in es:
        frm, cyc = e[0], int(e[5])
        if cyc and "+0x" in frm:
            sym, off = frm.rsplit("+0x", 1)
            ends[sym].add(int(off, 16))
for s in ("hot_a", "hot_b"):
    print(s, len(ends[s]))
')
got=$(for s in hot_a hot_b; do echo "$s $(grep -v '^#' <<<"$out" | grep -c "\] $s *$")"; done)
check "one line per block end in hot_a and hot_b, as perf script's branches give them ($got)" [ "$want" = "$got" ]
[ "$want" = "$got" ] || diag "perf script: $want"

run diff -c cycles --cycles-hist old-br.data new-br.data
expect_rc "--cycles-hist: not implemented, a usage error" 2
run diff -c cycles old-br.data new-br.data old-br.data
expect_rc "-c cycles on three files: a usage error" 2

done_testing
