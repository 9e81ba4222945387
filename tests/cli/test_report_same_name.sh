#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_same_name.sh - two copies of one program in two directories,
# run one after the other: two DSOs of one short name.  perf 6.1's dso key
# compares the names it shows (short ones, long ones under -v) and its sym
# key the DSO names and then the symbols' addresses, so perf report merges
# the two copies' rows and -v keeps them apart.  perfkit report compared
# with perf report on the same file, sorted several ways, with and without
# -v; user-space samples only (task-clock:u), so no kernel ties decide.
# A -g recording of the same runs: the call-graph trees under the rows.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# A build-id cache of this test's own, as in test_report_verbose.sh.
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME" one two
cp "$PERFKIT_WORKLOAD" one/wl
cp "$PERFKIT_WORKLOAD" two/wl

. "$(dirname "$0")/report-perf.sh"

perf record -q -e task-clock:u -c 200000 -o two.data -- sh -c './one/wl hot 150; ./two/wl hot 150' \
	>/dev/null 2>&1
for v in "" -v; do
	for s in dso,sym sym dso comm,dso,sym sym,dso; do
		same_as_perf two.data $v --sort $s
	done
done
same_as_perf two.data

# What a user sees whatever the samples: one hot_a row for both copies, two under -v.
run report -i two.data --stdio --sort dso,sym
check "dso,sym: both copies' hot_a in one row" test "$(printf '%s\n' "$out" | grep -c '\] hot_a$')" -eq 1
run report -i two.data --stdio -v --sort dso,sym
check "-v dso,sym: a hot_a row for each copy" test "$(printf '%s\n' "$out" | grep -c '\] hot_a$')" -eq 2
contains "-v dso,sym: the first copy by its path" "$out" "$tmp/one/wl"
contains "-v dso,sym: the second copy by its path" "$out" "$tmp/two/wl"

# With call chains: perf's call-graph tree matches frames by their DSO
# objects (match_chain compares dso pointers), so under the one merged
# hot_a row each copy's hot_a is a branch of its own; under -v the rows
# are apart already.  Every print mode and order compared with perf, rows
# of 1% and more (the one-sample rows of ld.so and sh tie, and their
# order among ties is not what this test is about).
perf record -q -g -e task-clock:u -c 200000 -o g.data -- sh -c './one/wl hot 150; ./two/wl hot 150' \
	>/dev/null 2>&1
for v in "" -v; do
	for a in "" --no-children "-g caller" "-g callee" "--no-children -g caller" "-g fractal" "-g flat" \
		 "-g folded"; do
		# shellcheck disable=SC2086
		same_as_perf g.data $v $a --percent-limit 1
	done
	same_as_perf g.data $v --sort dso,sym --percent-limit 1
	same_as_perf g.data $v --no-children --sort sym -g caller --percent-limit 1
done
run report -i g.data --stdio --no-children --sort sym
check "-g: the hot_a row's tree keeps each copy's hot_a apart" \
	test "$(printf '%s\n' "$out" | grep -c -- '--hot_a$')" -eq 2
done_testing
