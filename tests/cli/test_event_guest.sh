#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_event_guest.sh - exclude_guest/exclude_host as perf 6.1 opens them:
# perfkit stat -v's attrs against perf stat -vv's for plain, modified and
# grouped events of every kind that opens here, and the event of perfkit
# record with no -e (perf clears exclude_guest there on AMD CPUs only)
# against perf's, read back by perf evlist -v from both files.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# gh: one line per attr block of -v / -vv, its exclude_guest/exclude_host.
gh() {
	printf '%s\n' "$1" | awk '/^perf_event_attr:/ { if (n++) print s; s = "attr" }
		/^  exclude_(guest|host) / { s = s " " $1 "=" $2 } END { if (n) print s }'
}

if ! command -v perf >/dev/null; then
	skip "guest/host bits against perf" "perf is not installed"
	done_testing
	exit 0
fi
for e in cpu-clock page-faults sched:sched_switch mem:0x1000 duration_time cpu-clock:u \
	 cpu-clock:k cpu-clock:G cpu-clock:H cpu-clock:I '{cpu-clock,task-clock}' \
	 '{cpu-clock,task-clock}:k' '{cpu-clock:k,task-clock}:u' '{cpu-clock:H,task-clock:GH}:G'; do
	run stat -v -e "$e" -- true
	mine=$(gh "$err")
	theirs=$(gh "$(perf stat -vv -e "$e" -- true 2>&1)")
	check "stat -e $e: the guest/host bits perf opens" test "$mine" = "$theirs"
	[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
done
run stat -v -- true
check "stat's default events: the guest/host bits perf opens" \
	test "$(gh "$err")" = "$(gh "$(perf stat -vv -- true 2>&1)")"

# The default event of record: both files' first attr as perf reads it.
eg() { perf evlist -v -i "$1" 2>/dev/null | head -1 | grep -o 'exclude_guest: 1'; }
run record -o "$tmp/k.data" -- true
perf record -o "$tmp/p.data" -- true >/dev/null 2>&1
check "record with no -e: exclude_guest as perf sets it ('$(eg "$tmp/p.data")')" \
	test -s "$tmp/k.data" -a -s "$tmp/p.data" -a "$(eg "$tmp/k.data")" = "$(eg "$tmp/p.data")"
run record -e cycles -o "$tmp/k.data" -- true
perf record -e cycles -o "$tmp/p.data" -- true >/dev/null 2>&1
check "record -e cycles: exclude_guest as perf sets it ('$(eg "$tmp/p.data")')" \
	test -s "$tmp/k.data" -a -s "$tmp/p.data" -a "$(eg "$tmp/k.data")" = "$(eg "$tmp/p.data")"
done_testing
