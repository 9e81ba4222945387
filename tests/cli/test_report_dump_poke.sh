#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_dump_poke.sh - report -D and script -D on files with a
# PERF_RECORD_TEXT_POKE record (crafted by poke-craft.py into a recording,
# since only Intel PT recordings ask the kernel for them): the address,
# its kernel symbol with the offset, the lengths and the old and new bytes
# 16 a line, byte for byte as perf 6.1 prints them; also for an address no
# kernel map holds and for a poke of no bytes.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
craft=$(dirname "$0")/poke-craft.py

# same_dump CMD FILE: perfkit CMD -D prints what perf CMD -D prints.
same_dump() {
	local theirs ours
	theirs=$(perf "$1" -D -i "$2" 2>/dev/null)
	ours=$("$PERFKIT" "$1" -D -i "$2" 2>"$tmp/err")
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$2: $1 -D equals perf's"
	else
		not_ok "$2: $1 -D equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

perf record -q -e page-faults -c 1 -o pf.data -- "$W" pages 20 >/dev/null 2>&1
ksym=$(awk '$2 == "T" && $3 == "schedule" { print $1; exit }' /proc/kallsyms)
n=0
for spec in "${ksym:-0} 5 5" "1000 20 3" "ffffffff81000000 0 0" \
	"$(printf '%x' $((0x${ksym:-0} + 7))) 16 17"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	python3 "$craft" pf.data poke$n.data $spec
	same_dump report poke$n.data
	same_dump script poke$n.data
done

# What a user reads whatever the kernel: the bytes, 16 a line.
run report -D -i poke2.data
contains "poke2.data: the old bytes' first line" "$out" \
	"            Old bytes: 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f"
contains "poke2.data: the old bytes' second line" "$out" "            Old bytes: 20 21 22 23"
contains "poke2.data: the new bytes" "$out" "            New bytes: e8 e9 ea"
if [ -n "$ksym" ] && [ "$ksym" != 0000000000000000 ]; then
	run report -D -i poke1.data
	contains "poke1.data: the address named by its kernel symbol" "$out" \
		"PERF_RECORD_TEXT_POKE $ksym schedule+0x0 old len 5 new len 5"
else
	skip "poke1.data: the address named by its kernel symbol" "no schedule in /proc/kallsyms"
fi

echo "1..$tap_n"
exit $tap_fail
