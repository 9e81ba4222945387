#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_diff_cycles.sh - perf diff's -c cycles on files whose samples
# brstack-craft.py gave branch stacks with cycles (no LBR here).  perf
# diff 6.1 crashes on such files, so the checks are computed here: a file
# against itself has every block matched (all changes 0), and each row
# has one line per block end, counted from perf script's brstacksym of
# the same file (the branch sources with cycles in the row's symbol);
# --cycles-hist's column against a model of perf's block accounting run
# on perf script's branches of the same files.
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
# (a row the new file lacks: its first line's cell blank, as perf's; a
# row only the new file has: no baseline, its blocks against themselves)
good=$(grep -v '^#' <<<"$out" |
	grep -cE '^ +([0-9.]+%( +\[[^]]+ -> [^]]+\] +-?[0-9]+)?|\[[^]]+ -> [^]]+\] +0)  +[^ ]')
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

# --cycles-hist: the same recording crafted again with cycles that vary
# from sample to sample, so every block has its twin and the differences
# of their first eight cycle counts are known from perf script's branches.
python3 "$CRAFT" --feature --vary-cycles old.data var-br.data
run diff -c cycles --cycles-hist old-br.data old-br.data
expect_rc "--cycles-hist: a table" 0
contains "with perf's stddev/Hist column" "$out" "stddev/Hist"
nonblank=$(grep -v '^#' <<<"$out" | grep -c '±')
check "a file against itself: no differences to chart ($nonblank lines with one)" [ "$nonblank" = 0 ]
run diff -c cycles --cycles-hist old-br.data var-br.data
expect_rc "--cycles-hist on files that differ: a table" 0
# The model: perf's __symbol__account_cycles over each sample's entries,
# oldest first (a block ends at a source with cycles and starts at the
# previous entry's target in the same symbol; a longer block resets the
# count, the first eight cycles since kept), then compute_cycles_diff's
# differences, their standard error of the mean in percent of the mean
# (perf's Welford update_stats) and print_spark's ticks.
model() {
	perf script -F brstacksym -i "$1" 2>/dev/null | python3 -c '
import sys, collections
blocks = collections.defaultdict(dict)
def split(a):
    return a.rsplit("+0x", 1) if "+0x" in a else (None, None)
for line in sys.stdin:
    es = [e.split("/") for e in line.split()]
    if not es or es[0][5] == "0":
        continue
    prev = None
    for e in reversed(es):
        sym, off = split(e[0])
        cyc = int(e[5])
        if cyc and sym:
            end = int(off, 16)
            ps, po = split(prev) if prev else (None, None)
            have = ps == sym and int(po, 16) < end
            start = int(po, 16) if have else 0
            b = blocks[sym].setdefault(end, {"num": 0, "have": False, "start": 0, "spark": []})
            if not (not have and b["have"]) and not (b["num"] and have and b["have"] and b["start"] < start):
                if b["num"] and have and (not b["have"] or b["start"] > start):
                    b["num"], b["spark"] = 0, []
                if b["num"] < 8:
                    b["spark"].append(cyc)
                b.update(have=have, start=start)
                b["num"] += 1
        prev = e[1]
for sym, bs in blocks.items():
    for end, b in bs.items():
        print(sym, b["start"], end, *b["spark"])
'
}
model old-br.data >old.model
model var-br.data >var.model
want=$(python3 - old.model var.model <<'PY'
import sys, math
def load(p):
    return {tuple(l.split()[:3]): [int(x) for x in l.split()[3:]] for l in open(p)}
old, new = load(sys.argv[1]), load(sys.argv[2])
ticks = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
for k, nv in sorted(new.items()):
    if k[0] not in ("hot_a", "hot_b"):
        continue
    ov = old.get(k, [])
    v = [abs(a - b) for a, b in zip(nv, ov)]
    mean = m2 = 0.0
    for i, x in enumerate(v):
        d = x - mean
        mean += d / (i + 1)
        m2 += d * (x - mean)
    if len(v) < 2 or mean == 0:
        print(k[0], "-")
        continue
    rel = 100.0 * math.sqrt(m2 / (len(v) - 1) / len(v)) / mean
    f = max(((max(v) - min(v)) << 8) // 7, 1)
    print(k[0], "\u00b1%5.1f%% %s" % (rel, "".join(ticks[((x - min(v)) << 8) // f] for x in v)))
PY
)
got=$(grep -v '^#' <<<"$out" | grep -E '\] +(hot_a|hot_b) *$' | python3 -c '
import sys, re
for line in sys.stdin:
    m = re.search(r"\] +-?[0-9]+ (.*?)  +perfkit-workload +\[\.\] +(\S+)", line)
    cell = m.group(1).strip() if m else "?"
    print(m.group(2) if m else "?", cell if cell else "-")
' | sort)
want=$(sort <<<"$want")
check "each block's stddev and sparkline as the model computes them from perf script's branches" [ "$want" = "$got" ]
[ "$want" = "$got" ] || diag "model: $want" "perfkit: $got"
charted=$(grep -c '±' <<<"$got")
check "some blocks of hot_a or hot_b charted ($charted)" [ "$charted" -gt 0 ]
run diff -c cycles old-br.data var-br.data
check "without --cycles-hist: no stddev/Hist column" [ "$(grep -c stddev/Hist <<<"$out")" = 0 ]
run diff --cycles-hist old-br.data new-br.data
expect_rc "--cycles-hist without -c cycles: a usage error, as perf" 2
run diff -c cycles old-br.data new-br.data old-br.data
expect_rc "-c cycles on three files: a usage error" 2
# perf 6.1 reaches a BUG_ON for these (no formula, no separated cell
# for the cycles columns): refused with a message, nothing printed.
for flags in "-F" "-t ," "-t , --cycles-hist" "-F --cycles-hist"; do
	run diff -c cycles $flags old-br.data new-br.data
	expect_rc "-c cycles $flags: a usage error" 2
	check "and no table" [ -z "$out" ]
	contains "saying which flag" "$err" "${flags%% *}"
	contains "does not go with -c cycles" "$err" "-c cycles"
done

done_testing
