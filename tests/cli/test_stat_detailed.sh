#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_detailed.sh - perfkit stat -d, -dd, -ddd: perf 6.1's detailed
# event sets appended to the list, with the attrs perf opens for them (the
# generic cache events, the same on every PMU: checked on the fixture sysfs
# trees too), and what a machine without them shows: <not supported>.
. "$(dirname "$0")/tap.sh"

# attrs: the type and config lines of -v's perf_event_attr blocks.
attrs() { printf '%s\n' "$1" | grep -E '^  (type|config) '; }
names() { printf '%s\n' "$1" | awk -F, 'NF >= 7 { print $3 }'; }
want_d="L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses"
want_dd="$want_d L1-icache-loads L1-icache-load-misses dTLB-loads dTLB-load-misses iTLB-loads iTLB-load-misses"
want_ddd="$want_dd L1-dcache-prefetches L1-dcache-prefetch-misses"

for d in d dd ddd; do
	run stat "-$d" -x, -e task-clock -- true
	expect_rc "-$d runs" 0
	want=want_$d
	check "-$d appends perf's detailed set after -e" \
		test "$(names "$err" | tr '\n' ' ')" = "task-clock ${!want} "
done
run stat -d -d -d -x, -e task-clock -- true
check "-d -d -d is -ddd" test "$(names "$err" | tr '\n' ' ')" = "task-clock $want_ddd "

run stat -v -ddd -e task-clock -- true
mine=$(attrs "$err")
check "-ddd opens the cache attrs perf 6.1 lists (type 3, L1D read miss = 0x10000, prefetch = 0x200)" \
	sh -c 'printf "%s\n" "$1" | grep -q "config *0x10000" && printf "%s\n" "$1" | grep -q "config *0x10200" &&
	       [ "$(printf "%s\n" "$1" | grep -c "^  type *3")" -eq 12 ]' sh "$mine"
for tree in "$PERFKIT_FIXTURES"/sysfs/*/; do
	[ -d "$tree" ] || continue
	r=$(PERFKIT_SYSFS_ROOT=$tree "$PERFKIT" stat -v -ddd -e task-clock -- true 2>&1)
	check "the same attrs with the $(basename "$tree") fixture's PMUs" test "$(attrs "$r")" = "$mine"
done

if command -v perf >/dev/null; then
	theirs=$(attrs "$(perf stat -vv -ddd -e task-clock -- true 2>&1)")
	check "-ddd's attrs are perf -vv -ddd's, in order" test "$mine" = "$theirs"
	p=$(perf stat -x, -ddd -e task-clock -- true 2>&1 >/dev/null)
	run stat -x, -ddd -e task-clock -- true
	# Where the events do not exist (no hardware PMU) both say <not supported>.
	check "the same events, each counted or <not supported> as in perf" \
		test "$(printf '%s\n' "$err" | awk -F, '{ print ($1 ~ /^</ ? $1 : "N"), $3 }')" = \
		"$(printf '%s\n' "$p" | awk -F, '{ print ($1 ~ /^</ ? $1 : "N"), $3 }')"
else
	skip "-ddd's attrs are perf -vv -ddd's" "perf is not installed"
	skip "the same events as perf" "perf is not installed"
fi

# Without -e the default set comes first; its events that cannot count
# here are left out as before, -d's are shown.
run stat -x, -d -- true
check "-d without -e: the default set, then -d's set" \
	sh -c 'printf "%s\n" "$1" | awk -F, "NF >= 7 { print \$3 }" | tr "\n" " " | grep -q "^task-clock .*page-faults.* L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses $"' sh "$err"
done_testing
