#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit list: every event grouped by source, perf list's tags, globs,
# --source, JSON, and the opens-here marks, live and on the fixture trees.
. "$(dirname "$0")/tap.sh"

run list
expect_rc "list exits 0" 0
contains "list: Software events heading" "$out" "Software events:"
contains "list: perf's 'OR' for aliases" "$out" "context-switches OR cs"
check "list: task-clock is a Software event that opens here" \
	grep -Eq '^  task-clock +\[Software event\]$' <<<"$out"

run list --json
expect_rc "list --json exits 0" 0
json_check "list --json: objects with the documented keys" '
assert isinstance(d, list) and len(d) > 50
for e in d:
    assert {"name", "aliases", "source", "pmu", "desc", "opens"} <= set(e), e
    assert isinstance(e["opens"], bool) and isinstance(e["aliases"], list)
    if not e["opens"]:
        assert e["reason"], e
cs = [e for e in d if e["name"] == "context-switches"][0]
assert cs["aliases"] == ["cs"] and cs["opens"] is True and cs["source"] == "software"
assert len([e for e in d if e["source"] == "software"]) == 12
assert all(e["opens"] for e in d if e["source"] == "software")'
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	json_check "list --json: no hardware PMU, so hardware events do not open" '
hw = [e for e in d if e["source"] == "hardware"]
assert len(hw) == 10 and not any(e["opens"] for e in hw)'
fi
json_check "list --json: live breakpoint and uprobe entries" '
names = [e["name"] for e in d]
assert "mem:ADDR" in names
assert "uprobe:PATH:SYMBOL" in names or "uprobe" not in __import__("os").listdir("/sys/bus/event_source/devices")'

if [ -d /sys/kernel/tracing/events/sched ]; then
	run list --json 'sched:*'
	nsched=$(find /sys/kernel/tracing/events/sched -mindepth 1 -maxdepth 1 -type d | wc -l)
	json_check "list 'sched:*': exactly the sched tracepoints" "
assert len(d) == $nsched, (len(d), $nsched)
assert all(e['name'].startswith('sched:') and e['source'] == 'tracepoint' for e in d)"
else
	skip "list 'sched:*'" "no tracefs"
fi

run list --json --source=sw,cache
json_check "--source=sw,cache keeps those two" '
assert {e["source"] for e in d} == {"software", "hw-cache"}, {e["source"] for e in d}'
run list --json sw
json_check "a source name as an argument, like perf list sw" '
assert {e["source"] for e in d} == {"software"} and len(d) == 12'
run list --json clock
json_check "a plain word keeps the names containing it" '
names = {e["name"] for e in d}
assert {"cpu-clock", "task-clock"} <= names and all("clock" in n.lower() for n in names), names'

export PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/intel
run list --json --source=pmu,raw,probe
json_check "intel fixture: cpu, uncore, power, msr aliases and raw descriptors" '
names = {e["name"] for e in d}
for n in ["cpu/cycles-t/", "uncore_imc_0/cas_count_read/", "power/energy-pkg/", "msr/tsc/",
          "cpu/raw", "uncore_cbox_0/raw", "kprobe:SYMBOL", "uprobe:PATH:SYMBOL"]:
    assert n in names, n
imc = [e for e in d if e["name"] == "uncore_imc_0/cas_count_read/"][0]
assert imc["pmu"] == "uncore_imc_0" and "MiB" in imc["desc"]'
run list --source=pmu
contains "intel fixture text: Kernel PMU event tag" "$out" "cpu/cycles-t/                                      [Kernel PMU event]"
export PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/amd
run list --json --source=pmu,raw
json_check "amd fixture: amd_df, amd_l3, ibs raw descriptors" '
names = {e["name"] for e in d}
assert {"amd_df/raw", "amd_l3/raw", "ibs_op/raw", "ibs_fetch/raw", "msr/irperf/"} <= names, names'
unset PERFKIT_SYSFS_ROOT

LIBPFM_FORCE_PMU=skl run list --json --source=libpfm
json_check "LIBPFM_FORCE_PMU=skl: skl's events, qualified by PMU" '
assert d and all(e["pmu"] == "libpfm4:skl" for e in d), {e["pmu"] for e in d}
assert "skl::INST_RETIRED" in {e["name"] for e in d}'

done_testing
