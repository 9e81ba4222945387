#!/bin/sh
# SPDX-License-Identifier: MIT
# gen-vectors.sh - regenerate perfkit's golden event-string vectors in
# tests/fixtures/vectors/ from their oracles:
#   host          perf 6.1 on this machine's sysfs      -> perf61-host.tsv
#   intel, amd    perf 6.1 on the fixture sysfs trees   -> perf61-{intel,amd}.tsv
#                 (bind-mounted in a private mount namespace; needs root)
#   probes        the kernel's uprobe/kprobe encoding   -> perfkit-probes.tsv,
#                 offsets from nm + readelf                kernel-uprobe.tsv
#   corpus        seed fuzz/corpus/events/ with every vector string
#   pfm           cross-check the hand-written libpfm4 vectors (libpfm-*.tsv,
#                 from the Intel SDM / AMD PPR) against the installed libpfm4
# Strings perf rejects land in perf61-invalid-SET.tsv with perf's message.
# invalid.tsv and perfkit-ext.tsv are written by hand (perfkit's own design).
# The outputs are committed, so the tests never need perf.
#
# Usage: tests/tools/gen-vectors.sh [host|intel|amd|probes|pfm|corpus|all]...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py="python3 $here/vectors.py"
# A PERF_CPUID with no pmu-events table: perf then knows only the sysfs
# aliases of the fixture tree, as perfkit does, instead of adding the JSON
# events of whatever CPU the generating machine has.
fixture_cpuid=PerfkitFixture-0-0-0

command -v perf >/dev/null || { echo "gen-vectors: perf is not installed" >&2; exit 1; }
[ $# -gt 0 ] || set -- all
for set in "$@"; do
	case $set in
	host)	$py gen host ;;
	intel|amd)
		[ -d "$root/tests/fixtures/sysfs/$set/bus/event_source/devices" ] ||
			{ echo "gen-vectors: no fixture tree for $set" >&2; exit 1; }
		$py gen "$set" --sysfs "$root/tests/fixtures/sysfs/$set" --cpuid "$fixture_cpuid" ;;
	probes)	python3 "$here/gen-probes.py" ;;
	pfm)	for f in "$root"/tests/fixtures/vectors/libpfm-*.tsv; do $py pfmcheck "$f"; done ;;
	corpus)	python3 "$here/gen-fuzz-corpus.py" ;;
	all)	"$0" host intel amd probes pfm corpus ;;
	*)	echo "gen-vectors: unknown set '$set'" >&2; exit 2 ;;
	esac
done
