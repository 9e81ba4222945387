#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit stat --topdown on fixture core PMUs (PERFKIT_SYSFS_ROOT): the
# events perf 6.1 picks (Skylake's slots events, grouped when the NMI
# watchdog is off; system-wide only; Ice Lake's perf-metrics events under
# slots) and --metric-only's frame they print in; -M TopdownL1 on the Ice
# Lake fixture (icl-metrics.json's events, slots leading each group).  The figures on counts are tests/unit/cli/test_stat_topdown.c's: this
# machine has no core PMU to count them.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The Skylake fixture plus this machine's online CPUs, which -a reads, as
# SMT siblings of one core (the slots events count per core).
cp -r "$PERFKIT_FIXTURES/sysfs/intel/bus" "$tmp/"
mkdir -p "$tmp/devices/system/cpu"
cp /sys/devices/system/cpu/online "$tmp/devices/system/cpu/"
ncpus=$(getconf _NPROCESSORS_ONLN)
for c in $(seq 0 $((ncpus - 1))); do
	mkdir -p "$tmp/devices/system/cpu/cpu$c/topology"
	for f in physical_package_id die_id core_id; do
		echo 0 >"$tmp/devices/system/cpu/cpu$c/topology/$f"
	done
done

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
check "nothing counts here: --metric-only's frame per core (perf's AGGR_CORE), unheaded (perf 6.1 heads -M metrics only), one empty column per event" \
	test "$err" = "$(printf 'core,cpus,\nS0-D0-C0,%s,,,,,,' "$ncpus")"
PERFKIT_SYSFS_ROOT=$tmp run stat -a --per-core -x, --topdown -- true
check "--per-core given too: the same" \
	test "$err" = "$(printf 'core,cpus,\nS0-D0-C0,%s,,,,,,' "$ncpus")"
PERFKIT_SYSFS_ROOT=$tmp run stat -a --per-socket --topdown -- true
contains "--per-socket: perf's refusal" "$err" "top down event configuration requires --per-core mode"
PERFKIT_SYSFS_ROOT=$tmp run stat -a -v --topdown -e page-faults -- true
check "-e's events first, then the topdown ones (perf adds them after)" \
	test "$(printf '%s\n' "$err" | grep -E '^(page-faults|topdown-)' | head -2 | tr '\n' ' ')" = \
	"page-faults topdown-total-slots "

# NO_NMI_WATCHDOG (skl-metrics.json's Page_Walks_Utilization): perf's
# warning and hint exactly when this machine's NMI watchdog is on.
PERFKIT_SYSFS_ROOT=$tmp PERFKIT_CPUID=GenuineIntel-6-5E-3 LIBPFM_FORCE_PMU=skl \
	run stat -M Page_Walks_Utilization -- true
expect_rc "-M Page_Walks_Utilization on a Skylake (fixture) runs" 0
if [ "$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null || echo 0)" -gt 0 ]; then
	contains "the NMI watchdog is on: perf's words, the events ungrouped" "$err" \
		"Splitting metric group Page_Walks_Utilization into standalone metrics."
	contains "... and perf's hint" "$err" "Try disabling the NMI watchdog to comply NO_NMI_WATCHDOG"
else
	check "the NMI watchdog is off: the metric's events grouped, nothing said" \
		eval '! printf "%s" "$err" | grep -q -e Splitting -e "Try disabling"'
fi

# Ice Lake client (fixture): the perf-metrics events, level 1 only.
ICL=$PERFKIT_FIXTURES/sysfs/icelake
PERFKIT_SYSFS_ROOT=$ICL run stat -v --topdown -- true
expect_rc "--topdown on an Ice Lake needs no -a (perf-metrics events)" 0
check "slots, then perf's four level-1 events, in perf's order" test \
	"$(printf '%s\n' "$err" | grep -E '^(slots|topdown-)' | tr '\n' ' ')" = \
	"slots topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound "
check "... opened with the fixture's encodings" test \
	"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | tr '\n' ' ')" = \
	"0x400 0x8000 0x8100 0x8200 0x8300 "
PERFKIT_SYSFS_ROOT=$ICL run stat --topdown --td-level 2 -- true
expect_rc "--td-level 2 on an Ice Lake client: refused" 1
contains "... in perf's words: level 2 needs topdown-br-mispredict" "$err" \
	"Invalid top-down metrics level. The max level is 1."

# -M TopdownL1 on the Ice Lake: icl-metrics.json's events, each metric its
# own group led by slots (the kernel takes topdown events only so):
# Frontend adds INT_MISC.UOP_DROPPING (0x100d), Backend the recovery
# cycles' edges (event 0x0d umask 1 cmask 1 edge: 0x104010d), Bad
# Speculation both.
PERFKIT_SYSFS_ROOT=$ICL PERFKIT_CPUID=GenuineIntel-6-7E-5 LIBPFM_FORCE_PMU=icl \
	run stat -v -M TopdownL1 -- true
expect_rc "-M TopdownL1 on an Ice Lake counts" 0
check "four groups, each led by slots, with perf's events" test \
	"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | tr '\n' ' ')" = \
	"0x400 0x8200 0x8100 0x8000 0x8300 0x100d 0x400 0x8200 0x8100 0x8000 0x8300 0x100d 0x104010d 0x400 0x8300 0x8200 0x8100 0x8000 0x104010d 0x400 0x8000 0x8200 0x8100 0x8300 "
contains "INT_MISC.RECOVERY_CYCLES,cmask=1,edge by libpfm4's name for that encoding" "$err" \
	"INT_MISC:CLEARS_COUNT"
check "no Skylake events on an Ice Lake" eval '! printf "%s" "$err" | grep -q IDQ_UOPS'
PERFKIT_SYSFS_ROOT=$ICL PERFKIT_CPUID=GenuineIntel-6-7E-5 LIBPFM_FORCE_PMU=icl \
	run stat --metric-only -x, -M TopdownL1 -- true
check "--metric-only -x: a heading per metric though nothing counted, none for its events" \
	test "$(printf '%s\n' "$err" | head -1)" = \
	"tma_frontend_bound,tma_bad_speculation,tma_backend_bound,tma_retiring,"
check "... and an empty field for each of the 24 events" \
	test "$(printf '%s\n' "$err" | sed -n 2p)" = "$(printf '%24s' '' | tr ' ' ,)"
PERFKIT_CPUID=GenuineIntel-6-7E-5 run list metricgroups
contains "TopdownL1 is an Ice Lake metric group" "$out" "TopdownL1"
done_testing
