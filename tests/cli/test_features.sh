#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_features.sh - the header features of perfkit's files against perf's:
# `perf record -a` and `perfkit record -a` of the same command, read back by
# `perf report --header-only -I`, list the same features (the "missing
# features" line) and the same machine facts (host, CPUs, topology, NUMA
# nodes, caches, memory blocks, PMUs).  Lines that differ by nature are
# normalised: times, offsets and sizes, the version and command line, the
# events, a node's free memory, and the order of the PMU mappings.  And
# perfkit's -a recording has perf's side-band event, dummy:HG.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# header FILE: perf's header view of FILE, normalised.
header() {
	perf report --header-only -I -i "$1" 2>/dev/null | grep -v \
		-e '^# captured on' -e '^# data offset' -e '^# data size' -e '^# feat offset' \
		-e '^# perf version' -e '^# cmdline' -e '^# event :' -e '^# time of' \
		-e '^# sample duration' |
		sed -e 's/\(meminfo  : total = [0-9]* kB\), free = [0-9]* kB/\1/' |
		python3 -c '
import sys
for line in sys.stdin:
    if line.startswith("# pmu mappings: "):
        maps = line[len("# pmu mappings: "):].strip().split(", ")
        line = "# pmu mappings: " + ", ".join(sorted(maps)) + "\n"
    sys.stdout.write(line)'
}

if ! command -v perf >/dev/null; then
	skip "perf and perfkit write the same features" "perf is not installed"
	done_testing
	exit 0
fi
if ! perf record -q -a -o perf.data -- sleep 0.1 >/dev/null 2>&1; then
	skip "perf and perfkit write the same features" "perf record -a is not allowed here"
	done_testing
	exit 0
fi
run record -a -o perfkit.data -- sleep 0.1
check "perfkit record -a exits 0 (got $rc)" test "$rc" -eq 0
header perf.data >perf.txt
header perfkit.data >perfkit.txt
for what in "missing features" "node0 meminfo" "node0 cpu list" "CPU cache info" \
	"memory nodes" "pmu mappings" "sibling threads"; do
	if grep -q "$what" perf.txt; then
		check "perfkit's file has perf's \"$what\" line" grep -q "$what" perfkit.txt
	fi
done
if diff -u perf.txt perfkit.txt >diff.txt; then
	ok "perf shows the same features and machine facts for both files"
else
	not_ok "perf shows the same features and machine facts for both files"
	diag "$(cat diff.txt)"
fi
# The side-band event of -a: perf's dummy:HG, carrying the process records
# and the kernel symbol and BPF program records, and sampling nothing.
sideband() {
	perf evlist -v -i "$1" 2>/dev/null | grep '^dummy:HG:' |
		sed -e 's/read_format: [A-Z_|]*, //' -e 's/disabled: 1, //' -e 's/inherit: 1, //'
}
want=$(sideband perf.data)
got=$(sideband perfkit.data)
check "perfkit's -a recording has perf's side-band event (dummy:HG)" test -n "$got" -a "$got" = "$want"
[ "$got" = "$want" ] || diag "perf:    $want" "perfkit: $got"
contains "and it asks for ksymbol and bpf_event records" "$got" "ksymbol: 1, bpf_event: 1"
done_testing
