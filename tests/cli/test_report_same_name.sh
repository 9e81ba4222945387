#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_same_name.sh - two copies of one program in two directories,
# run one after the other: two DSOs of one short name.  perf 6.1's dso key
# compares the names it shows (short ones, long ones under -v) and its sym
# key the DSO names and then the symbols' addresses, so perf report merges
# the two copies' rows and -v keeps them apart.  perfkit report compared
# with perf report on the same file, sorted several ways, with and without
# -v; user-space samples only (task-clock:u), so no kernel ties decide.
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
done_testing
