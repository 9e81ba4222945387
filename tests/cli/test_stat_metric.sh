#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit stat -M: metric and group names looked up for the CPU perf's way
# (PERFKIT_CPUID standing in for the host's cpuid, LIBPFM_FORCE_PMU for its
# PMU), the events a metric adds and the attrs opened for them, perf's
# message for a name that matches nothing (compared with perf's own line on
# this machine) and for a metric whose events the PMU lacks.
. "$(dirname "$0")/tap.sh"

SKL=GenuineIntel-6-5E-3
ZEN3=AuthenticAMD-25-11-1

run stat -M NO_SUCH_METRIC -- true
expect_rc "an unknown metric is not fatal (perf goes on with its default events)" 0
contains "perf's message for an unknown metric" "$err" "Cannot find metric or group \`NO_SUCH_METRIC'"
contains "the default events are counted instead" "$err" "task-clock"
if command -v perf >/dev/null; then
	want=$(perf stat -M NO_SUCH_METRIC -- true 2>&1 | head -1)
	contains "the message is perf's, word for word" "$err" "$want"
else
	skip "the message is perf's, word for word" "no perf"
fi

PERFKIT_CPUID=$SKL LIBPFM_FORCE_PMU=skl run stat -v -M IPC -- true
expect_rc "IPC on a Skylake counts" 0
check "IPC opens INST_RETIRED:ANY_P (0xc0) then CPU_CLK_UNHALTED:THREAD_P (0x3c), raw" \
	test "$(printf '%s\n' "$err" | awk '/^  type /{t=$2} /^  config /{print t "/" $2}' | tr '\n' ' ')" \
	= "4/0xc0 4/0x3c "
contains "IPC's events are shown by name" "$err" "CPU_CLK_UNHALTED:THREAD_P"
check "no default events when a metric matched" eval '! printf "%s" "$err" | grep -q context-switches'

PERFKIT_CPUID=$SKL LIBPFM_FORCE_PMU=skl run stat -j -M summary,CPI -- true
check "a group (any case: IPC, Instructions) and a metric (CPI, 1 / IPC): each metric its own events" \
	test "$(printf '%s\n' "$err" | sed -n 's/.*"event" : "\([^"]*\)".*/\1/p' | tr '\n' ' ')" = \
	"INST_RETIRED:ANY_P CPU_CLK_UNHALTED:THREAD_P INST_RETIRED:ANY_P INST_RETIRED:ANY_P CPU_CLK_UNHALTED:THREAD_P "

PERFKIT_CPUID=$ZEN3 LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run stat -v -M branch_misprediction_ratio -- true
check "Zen 3 branch_misprediction_ratio opens PMCx0C3 and PMCx0C2" \
	test "$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | tr '\n' ' ')" = "0xc3 0xc2 "

# Zen 3's l2_cache group (amdzen3/recommended.json) on the Zen 3 fixture:
# perf's encodings, in recommended.json's order: all_no_prefetch (0x60,
# umask 0xf9: a bit libpfm4 has no umask for) as a cpu@...@ term list, the
# others by libpfm4's names (the prefetch events 0x70-0x72, umask 0xff, as
# two of libpfm4's umasks).
PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/amd PERFKIT_CPUID=$ZEN3 \
	LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run stat -v -M l2_cache -- true
expect_rc "-M l2_cache on a Zen 3 counts" 0
check "no metric of the group is left out" eval '! printf "%s" "$err" | grep -q "Cannot find"'
check "its seven metrics' events, as perf encodes them" test \
	"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | tr '\n' ' ')" = \
	"0xf960 0xff70 0xff71 0xff72 0xff70 0xff71 0xff72 0x964 0xff71 0xff72 0xff71 0xff72 0xf664 0xff70 0x20000048f 0x20000078f 0x10000188e 0x100001f8e "
if command -v perf >/dev/null; then
	pk=$(PERFKIT_CPUID=$ZEN3 "$PERFKIT" list metric | grep -E '^  [a-z_0-9]+$' | sort)
	pf=$(PERF_CPUID=$ZEN3 perf list metric 2>/dev/null | grep -E '^  [a-z_0-9]+$' | sort)
	check "every Zen 3 metric perfkit lists, perf 6.1 lists too" \
		test -z "$(comm -23 <(printf '%s\n' "$pk") <(printf '%s\n' "$pf"))"
	pk=$(PERFKIT_CPUID=GenuineIntel-6-7E-5 "$PERFKIT" list metric | grep -E '^  [a-z_0-9]+$' | sort)
	pf=$(PERF_CPUID=GenuineIntel-6-7E-5 perf list metric 2>/dev/null | grep -E '^  [a-z_0-9]+$' | sort)
	check "every Ice Lake metric perfkit lists, perf 6.1 lists too" \
		test -z "$(comm -23 <(printf '%s\n' "$pk") <(printf '%s\n' "$pf"))"
else
	skip "every Zen 3 metric perfkit lists, perf 6.1 lists too" "no perf"
	skip "every Ice Lake metric perfkit lists, perf 6.1 lists too" "no perf"
fi

PERFKIT_CPUID=$ZEN3 LIBPFM_FORCE_PMU=skl run stat -M branch_misprediction_ratio -- true
expect_rc "a metric whose events the PMU lacks is left out" 0
contains "perf's message names the missing event" "$err" \
	"Cannot find PMU \`RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED'. Missing kernel support?"

PERFKIT_CPUID=$SKL LIBPFM_FORCE_PMU=skl run stat -M branch_misprediction_ratio -- true
contains "a Zen 3 metric is not offered on a Skylake" "$err" \
	"Cannot find metric or group \`branch_misprediction_ratio'"

PERFKIT_CPUID=$SKL run list metric
check "list metric on a Skylake: perf's layout, a heading then names with descriptions" \
	test "$(printf '%s\n' "$out" | head -5)" = "$(printf '\n%s\n\n%s\n%s' 'Metrics:' '  Big_Code' \
	'       [Total pipeline cost of instruction fetch related bottlenecks by large code footprint programs (i-side cache; TLB and BTB misses)]')"
check "Skylake's whole top-down level 1, sorted" test "$(printf '%s\n' "$out" |
	grep -E '^  tma_(backend_bound|bad_speculation|frontend_bound|retiring)$' | tr '\n' ' ')" = \
	"  tma_backend_bound   tma_bad_speculation   tma_frontend_bound   tma_retiring "
check "perf 6.1's Skylake set less the 21 left out: 148 metrics" \
	test "$(printf '%s\n' "$out" | grep -c '^  [A-Za-z]')" -eq 148

# -M TopdownL1 (perf 6.1's group, from skl-metrics.json): without SMT (as
# here), the events perf's formulas need, each metric's own group, as
# perf opens them: IDQ_UOPS_NOT_DELIVERED.CORE 0x19c, CPU_CLK_UNHALTED.THREAD
# 0x3c, UOPS_ISSUED.ANY 0x10e, UOPS_RETIRED.RETIRE_SLOTS 0x2c2,
# INT_MISC.RECOVERY_CYCLES 0x10d.
if [ "$(cat /sys/devices/system/cpu/smt/active 2>/dev/null)" = 0 ]; then
	PERFKIT_CPUID=$SKL LIBPFM_FORCE_PMU=skl run stat -v -M TopdownL1 -- true
	expect_rc "-M TopdownL1 on a Skylake counts" 0
	check "Frontend Bound opens IDQ_UOPS_NOT_DELIVERED.CORE and the cycles first" \
		test "$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | head -2 | tr '\n' ' ')" = "0x19c 0x3c "
	check "the group's events are perf's, and no per-SMT-thread ones without SMT" test \
		"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | sort -u | tr '\n' ' ')" = "0x10d 0x10e 0x19c 0x2c2 0x3c "
	check "four metrics, each its own group: 12 events" \
		test "$(printf '%s\n' "$err" | grep -c '^  config ')" -eq 12
else
	skip "-M TopdownL1's events without SMT" "SMT is on here"
fi
PERFKIT_CPUID=GenuineIntel-6-7E-5 run list metric
check "list metric on an Ice Lake: 154 metrics, each once with its description" \
	test "$(printf '%s\n' "$out" | grep -c '^       \[')/$(printf '%s\n' "$out" | grep -c '^  [A-Za-z]')" = 154/154
PERFKIT_CPUID=$SKL run list metricgroups
contains "TopdownL1 is a Skylake metric group" "$out" "TopdownL1"

PERFKIT_CPUID=$ZEN3 run list metricgroups
check "list metricgroups on a Zen 3: each group once, sorted" test "$out" = "$(printf '\n%s\n\n%s\n' \
	'Metric Groups:' 'branch_prediction
decoder
l2_cache
tlb')"
if command -v perf >/dev/null; then
	pk=$(PERFKIT_CPUID=$ZEN3 "$PERFKIT" list metricgroups | sed 1,3d)
	pf=$(PERF_CPUID=$ZEN3 perf list metricgroups 2>/dev/null | sed 1,3d)
	check "every Zen 3 group perfkit lists, perf 6.1 lists too" \
		test -z "$(comm -23 <(printf '%s\n' "$pk") <(printf '%s\n' "$pf"))"
else
	skip "every Zen 3 group perfkit lists, perf 6.1 lists too" "no perf"
fi

# Every metric of the generated table (scripts/gen-metrics.py) on its model:
# all of them at once, on the model's fixture core PMU with libpfm4's forced
# PMU; no metric is left out for an event perfkit cannot name.
for m in "AuthenticAMD-25-11-1 amd64_fam19h_zen3 amd 10" "$SKL skl intel 148" \
	"GenuineIntel-6-7E-5 icl icelake 154"; do
	set -- $m
	names=$(PERFKIT_CPUID=$1 "$PERFKIT" list metric | sed -n 's/^  \([A-Za-z].*\)$/\1/p' | sort -u)
	check "$2: the table's $4 metrics are listed" test "$(printf '%s\n' "$names" | wc -l)" -eq "$4"
	PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/$3 PERFKIT_CPUID=$1 LIBPFM_FORCE_PMU=$2 \
		run stat --metric-no-group -M "$(printf '%s\n' "$names" | paste -sd,)" -- true
	check "$2: every metric's events resolve" eval \
		'! printf "%s" "$err" | grep -qE "Cannot find|event syntax error"'
done

done_testing
