#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_diff_flags.sh - perfkit diff's -v, -D and -m against perf diff 6.1
# on the same files, byte for byte: -v's full DSO paths, symbol addresses
# and origin letters and its "# Data files:" block (with other options,
# three files, and -q, which turns it off); -D's dump of each file's
# records (perf diff's handlers) followed by the table; -m, which perf
# takes and which changes nothing; and unresolved addresses of a stripped
# program as perf diff collapses them.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/diff-perf.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

if ! command -v perf >/dev/null; then
	skip "comparisons with perf diff" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock -F 999 -o old.data -- "$W" hot 150 >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o new.data -- "$W" hotb 150 >/dev/null 2>&1
"$PERFKIT" record -F 999 -o pk-new.data -- "$W" hotb 150 >/dev/null 2>&1

# -v: the full path of every DSO, each symbol's address and origin letter.
run diff -v old.data new.data
contains "-v names the workload by its full path" "$out" "$W "
contains "and lists the two files" "$out" "#  [1] new.data"
# -v's origin letter of [vdso] says where its image was read: B when the
# build-id cache has it, which for perf's is its own recordings above.
# perfkit reads the same cache for these (the tests' own has the vDSO only
# once some perfkit recording hit it, which depends on what other tests
# ran first).
saved=$PERFKIT_BUILDID_DIR
unset PERFKIT_BUILDID_DIR
for args in "-v" "-v -c ratio -p" "-v -F -c delta" "-v -s sym" "-v -s dso" "-v -t ;" "-v -b" \
	"-v -q" "-q -v -c ratio" "-v -v" "-v -S hot_a,hot_b"; do
	# shellcheck disable=SC2086
	same_as_perf $args old.data new.data
done
same_as_perf -v old.data pk-new.data
same_as_perf -v old.data new.data pk-new.data
export PERFKIT_BUILDID_DIR=$saved

# A stripped program's unresolved addresses (Debian's sh is dash without
# symbols): perf collapses them into the entry of the lowest address, and
# widens the DSO column for them whatever the sort keys.
loop='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
perf record -q -e cpu-clock -F 999 -o sh-old.data -- sh -c "$loop" >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o sh-new.data -- sh -c "$loop" >/dev/null 2>&1
# perf record put dash in perf's build-id cache, where perf diff -v finds
# its symbols (origin B): perfkit reads that cache too for these, not the
# tests' own (which has dash only once a perfkit recording of it was made).
saved=$PERFKIT_BUILDID_DIR
unset PERFKIT_BUILDID_DIR
for args in "" "-v" "-s sym" "-s dso" "-s comm,dso" "-s dso,sym,comm" "-c ratio -F"; do
	# shellcheck disable=SC2086
	same_as_perf $args sh-old.data sh-new.data
done
export PERFKIT_BUILDID_DIR=$saved

# -D: each file's records as perf diff dumps them, then the table.
run diff -D old.data new.data
contains "-D dumps the first file's records" "$out" "@old.data ["
contains "then the second's" "$out" "@new.data ["
contains "with perf diff's unhandled ID_INDEX" "$out" "PERF_RECORD_ID_INDEX: unhandled!"
check "and no report header comment" [ "$(printf '%s\n' "$out" | grep -c 'header info')" = 0 ]
same_as_perf -D old.data new.data
same_as_perf -D -c ratio old.data pk-new.data
same_as_perf -D -q old.data new.data new.data
# a sample --time drops is dumped without its thread and DSO lines
same_as_perf -D --time 50% old.data new.data
same_as_perf -D --time 10%/2:50% -c delta old.data new.data

# -m: perf loads module symbols anyway; the table is the same.
same_as_perf -m old.data new.data
same_as_perf --modules -c delta old.data new.data
run diff -m old.data new.data
plain=$("$PERFKIT" diff old.data new.data 2>/dev/null)
check "-m changes nothing" [ "$out" = "$plain" ]
done_testing
