#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit info: event strings -> canonical form, attributes, perf_event_attr
# fields (JSON numbers under kernel UAPI names) and whether they open, on
# this machine and on the fixture sysfs trees.
. "$(dirname "$0")/tap.sh"

run info --json task-clock:u
expect_rc "info task-clock:u exits 0" 0
json_check "task-clock:u: type 1, config 1, user only" '
a = d[0]["attrs"][0]
assert d[0]["event"] == "task-clock:u"
assert (a["type"], a["config"]) == (1, 1), a
assert (a["exclude_user"], a["exclude_kernel"], a["exclude_hv"]) == (0, 1, 1), a
assert a["group_leader"] == 0 and a["size"] >= 64
assert d[0]["source"] == "software" and d[0]["pmu"] == "software"
assert d[0]["opens"] is True and "error" not in d[0]'
json_check "task-clock:u: perf-layer attributes u k h H G I p D e" '
names = [x["name"] for x in d[0]["attributes"]]
assert names == list("ukhHGIpDe"), names
p = [x for x in d[0]["attributes"] if x["name"] == "p"][0]
assert p["type"] == "int" and p["ctrl"] == "perf_event"'

run info --json '{task-clock,page-faults}' 'cs,faults'
json_check "a group leads from its first event, a list does not group" '
g, l = d[0]["attrs"], d[1]["attrs"]
assert [a["group_leader"] for a in g] == [0, 0], g
assert [a["config"] for a in g] == [1, 2]
assert [a["group_leader"] for a in l] == [0, 1], l
assert [a["config"] for a in l] == [3, 2]'

run info --json --os=perf-ext task-clock
json_check "--os=perf-ext adds period, freq, call-graph" '
names = [x["name"] for x in d[0]["attributes"]]
assert names[:9] == list("ukhHGIpDe") and "period" in names and "call-graph" in names, names'
run info --json --os=pmu task-clock
json_check "--os=pmu: a software event has no PMU attributes" 'assert d[0]["attributes"] == []'

run info --json 'mem:0x1000/8:w'
json_check "breakpoint fields: type 5, bp_type W, bp_addr, bp_len" '
a = d[0]["attrs"][0]
assert (a["type"], a["bp_type"], a["bp_addr"], a["bp_len"]) == (5, 2, 4096, 8), a
assert [x["name"] for x in d[0]["attributes"]][:4] == ["r", "w", "x", "len"]'

run info task-clock
expect_rc "text info exits 0" 0
contains "text info: canonical line" "$out" "canonical"
contains "text info: perf -vv attr layout" "$out" "perf_event_attr"
contains "text info: config line" "$out" "config "
contains "text info: opens here" "$out" "opens here   yes"

tp=/sys/kernel/tracing/events/sched/sched_switch/id
if [ -r "$tp" ]; then
	run info --json sched:sched_switch
	json_check "tracepoint: type 2, config is its id, fields as attributes" "
a = d[0]['attrs'][0]
assert (a['type'], a['config']) == (2, $(cat $tp)), a
names = [x['name'] for x in d[0]['attributes']]
assert 'prev_pid' in names and 'next_comm' in names and not any(n.startswith('common_') for n in names), names"
else
	skip "tracepoint info" "no readable tracefs"
fi

if [ -r /sys/bus/event_source/devices/msr/type ]; then
	run info --json msr/tsc/
	json_check "msr/tsc/: the live msr PMU's type" "
a = d[0]['attrs'][0]
assert a['type'] == $(cat /sys/bus/event_source/devices/msr/type), a
assert d[0]['pmu'] == 'msr' and d[0]['source'] == 'pmu'"
else
	skip "msr/tsc/" "no msr PMU"
fi

if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	run info --json cycles
	expect_rc "cycles without a hardware PMU still exits 0" 0
	json_check "cycles without a hardware PMU: opens false with the reason" '
assert d[0]["opens"] is False
e = d[0]["error"]
assert e["errno"] == "ENOENT" and e["why"] and e["hint"], e'
else
	skip "cycles does not open" "this machine has a cpu PMU"
fi

# The fixture trees: alias defaults and raw terms.
export PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/intel
run info --json --os=pmu cpu/cycles-t/
json_check "intel cpu/cycles-t/: config and alias defaults" '
a = d[0]["attrs"][0]
assert (a["type"], a["config"]) == (4, 0x10000003c), a
at = {x["name"]: x for x in d[0]["attributes"]}
assert at["event"]["default"] == 0x3c and at["in_tx"]["default"] == 1, at
assert at["in_tx"]["type"] == "bool" and at["cmask"]["type"] == "int"
assert at["cmask"]["code"] == 0xff000000 and at["cmask"]["field"] == 0'
run info --json 'uncore_imc_0/event=0x4,umask=0x3/'
json_check "intel uncore raw terms: type 15, config 0x304" '
a = d[0]["attrs"][0]
assert (a["type"], a["config"]) == (15, 0x304), a'
export PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/amd
run info --json 'cpu/event=0x1c0,umask=0/'
json_check "amd split event field: 0x1c0 -> config 0x1000000c0" '
assert d[0]["attrs"][0]["config"] == 0x1000000c0, d[0]["attrs"][0]'
unset PERFKIT_SYSFS_ROOT

# libpfm4 forced to Skylake, at each OS layer.
LIBPFM_FORCE_PMU=skl run info --json --os=pmu 'skl::INST_RETIRED:ANY_P:u'
json_check "libpfm4 skl INST_RETIRED:ANY_P:u: encoding and PMU attributes" '
a = d[0]["attrs"][0]
assert a["config"] & 0xffff == 0xc0, hex(a["config"])
assert a["exclude_kernel"] == 1 and a["exclude_user"] == 0, a
at = {x["name"]: x for x in d[0]["attributes"]}
assert at["ANY_P"]["type"] == "umask" and at["ANY_P"]["default"] is not None
assert at["u"]["ctrl"] == "pmu" and at["c"]["type"] == "int" and at["e"]["type"] == "bool"'
LIBPFM_FORCE_PMU=skl run info --json --os=perf 'skl::INST_RETIRED'
json_check "libpfm4 at the perf layer: u is perf_event's, period is not there yet" '
at = {x["name"]: x for x in d[0]["attributes"]}
assert at["u"]["ctrl"] == "perf_event" and at["i"]["ctrl"] == "pmu", at["u"]
assert "period" not in at'

done_testing
