#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit stat --topdown on fixture core PMUs (PERFKIT_SYSFS_ROOT): the
# events perf 6.1 picks (Skylake's slots events, grouped when the NMI
# watchdog is off; system-wide only) and --metric-only's frame they print
# in.  The figures on counts are tests/unit/cli/test_stat_topdown.c's: this
# machine has no core PMU to count them.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The Skylake fixture plus this machine's online CPUs, which -a reads.
cp -r "$PERFKIT_FIXTURES/sysfs/intel/bus" "$tmp/"
mkdir -p "$tmp/devices/system/cpu"
cp /sys/devices/system/cpu/online "$tmp/devices/system/cpu/"

PERFKIT_SYSFS_ROOT=$tmp run stat --topdown -- true
expect_rc "the slots events count system-wide only: exit status 1" 1
contains "... in perf's words" "$err" "top down event configuration requires system-wide mode (-a)"
PERFKIT_SYSFS_ROOT=$tmp run stat -a -A --topdown -- true
contains "-A: perf's refusal" "$err" "top down event configuration requires --per-core mode"

PERFKIT_SYSFS_ROOT=$tmp run stat -a -v --topdown -- true
expect_rc "--topdown -a on a Skylake (fixture) runs" 0
check "perf's five slots events, in perf's order, and no default events" test \
	"$(printf '%s\n' "$err" | grep '^topdown-' | tr '\n' ' ')" = \
	"topdown-total-slots topdown-slots-retired topdown-recovery-bubbles topdown-fetch-bubbles topdown-slots-issued "
check "... opened with the fixture's encodings (0x3c any=1 first)" test \
	"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | head -1)" = "0x20003c"
if [ "$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null)" = 0 ]; then
	check "the NMI watchdog is off: no warning about it" \
		eval '! printf "%s" "$err" | grep -q nmi_watchdog'
else
	contains "the NMI watchdog holds a counter: perf's warning" "$err" \
		"nmi_watchdog enabled with topdown. May give wrong results."
fi
PERFKIT_SYSFS_ROOT=$tmp run stat -a -x, --topdown -- true
expect_rc "-x with --topdown runs" 0
check "nothing counts here: --metric-only's frame, one empty column per event" \
	test "$err" = "$(printf ',,,,,\n,,,,,')"
PERFKIT_SYSFS_ROOT=$tmp run stat -a -v --topdown -e page-faults -- true
check "-e's events first, then the topdown ones (perf adds them after)" \
	test "$(printf '%s\n' "$err" | grep -E '^(page-faults|topdown-)' | head -2 | tr '\n' ' ')" = \
	"page-faults topdown-total-slots "
done_testing
