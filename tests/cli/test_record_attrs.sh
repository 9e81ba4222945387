#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_attrs.sh - the attrs perfkit record writes against perf 6.1
# record's on this machine, as perf evlist -v reads them back from both
# files: perf's default event (cycles at the highest precise level, the
# vendor's exclude_guest fix-up, and here, without a PMU, its cpu-clock
# fallback named from the attr, "cpu-clock:ppp"), the P modifier, the
# fallback's names for other cycles events, read_format (ID|LOST; -s adds
# the times, S groups GROUP), and --off-cpu's on-CPU event
# (perf 6.1 without BPF skeletons ignores --off-cpu: its file holds the
# default event alone); for CPU targets, inherit and the side-band dummy
# opened enabled; -p; --per-thread without sample times; --switch-output;
# -i (--no-inherit), --running-time (the enabled and running times in
# read_format), --sample-identifier, --no-bpf-event, -n (a zero rate); --overwrite (every event written backward, the sideband's
# too: no event added for a task, -a's dummy:HG backward and enabled);
# --phys-data, --no-buffering, -I[REGS], --group (groups in the list merged,
# with -a and S the dummy a member sampling as the others); --transaction,
# --all-cgroups, --buildid-mmap, -u and the flags that change no attr.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v perf >/dev/null; then
	skip "record's attrs against perf" "perf is not installed"
	done_testing
	exit 0
fi

# attrs FILE: perf evlist -v's line per event, without its tip.
attrs() { perf evlist -v -i "$1" 2>/dev/null | grep -v '^#'; }

# same DESC ARGS...: perfkit record ARGS and perf record ARGS on `true`
# write the same attrs.
same() {
	local desc=$1 mine theirs
	shift
	rm -f "$tmp/k.data" "$tmp/p.data"
	run record "$@" -o "$tmp/k.data" -- true
	perf record "$@" -o "$tmp/p.data" -- true >/dev/null 2>&1
	mine=$(attrs "$tmp/k.data")
	theirs=$(attrs "$tmp/p.data")
	check "$desc: the attrs perf writes" test -n "$theirs" -a "$mine" = "$theirs"
	[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
}

same "record with no -e"
for e in cycles cycles:P cycles:u cycles:pp cycles:k cpu-clock:P; do
	same "record -e $e" -e "$e"
done

# read_format: ID|LOST as perf sets it; -s adds the times; :S groups GROUP.
same "record -s" -s
same "record -s -e cpu-clock" -s -e cpu-clock
same "record -e cpu-clock,task-clock" -e cpu-clock,task-clock
same "record -e {cpu-clock,task-clock}:S" -e '{cpu-clock,task-clock}:S'
same "record -s -e {cpu-clock,task-clock}:S" -s -e '{cpu-clock,task-clock}:S'
same "record --no-inherit -e {cpu-clock,task-clock}:S" --no-inherit -e '{cpu-clock,task-clock}:S'
same "record -e cpu-clock:S" -e cpu-clock:S
same "record -i" -i
same "record -i -e {cpu-clock,task-clock}:S" -i -e '{cpu-clock,task-clock}:S'
same "record --running-time" --running-time
same "record --running-time -e {cpu-clock,task-clock}:S" --running-time -e '{cpu-clock,task-clock}:S'
same "record --running-time -s" --running-time -s
same "record --sample-identifier" --sample-identifier
same "record --sample-identifier -e {cpu-clock,task-clock}:S" --sample-identifier -e '{cpu-clock,task-clock}:S'
same "record --no-bpf-event" --no-bpf-event
same "record -n" -n
same "record -a -n" -a -n
same "record -n -e {cpu-clock,task-clock}:S" -n -e '{cpu-clock,task-clock}:S'
same "record -a --no-bpf-event --sample-identifier" -a --no-bpf-event --sample-identifier
same "record -g -e sched:sched_switch" -g -e sched:sched_switch

# --phys-data, --no-buffering, -I (bare: perf's default interrupt
# registers; attached: a list), --group (the -e events as one group).
same "record --phys-data" --phys-data
same "record --no-buffering" --no-buffering
same "record -I" -I
same "record -IAX,BX" -IAX,BX
same "record --intr-regs=AX,SP" --intr-regs=AX,SP
same "record --group -e cpu-clock,task-clock" --group -e cpu-clock,task-clock
same "record --group -e cpu-clock -e task-clock:u" --group -e cpu-clock -e task-clock:u
same "record --group" --group
same "record -a --group --no-buffering -e cpu-clock,task-clock" -a --group --no-buffering -e cpu-clock,task-clock
# --group with groups in the list: perf merges them into its one group
# (their modifiers kept on their members), with -a its dummy too.
groups() { perf evlist -g -i "$1" 2>/dev/null | grep -v '^#'; }
for a in "" -a; do
	for e in '{cpu-clock,task-clock},page-faults' 'page-faults,{cpu-clock:k,task-clock}:u'; do
		same "record ${a:+$a }--group -e $e" $a --group -e "$e"
		mine=$(groups "$tmp/k.data") theirs=$(groups "$tmp/p.data")
		check "record ${a:+$a }--group -e $e: perf's one group ($theirs)" test -n "$theirs" -a "$mine" = "$theirs"
	done
done

# -a with S: under --group the dummy is a member of the S leader and
# samples as its members (no period, the leader's layout, so one layout:
# ID); inherit cleared only on the events that read the group.
for e in '{cpu-clock,task-clock}:S' 'cpu-clock:S,task-clock' 'cpu-clock,task-clock:S' \
	'{cpu-clock,task-clock}:S,page-faults'; do
	same "record -a --group -e $e" -a --group -e "$e"
done
same "record -C 0 --group -e {cpu-clock,task-clock}:S" -C 0 --group -e '{cpu-clock,task-clock}:S'

# rec13's flags: --transaction (perf sets the bit, its printer has no
# name for it: the sample sizes are checked in test_record_flags2.sh),
# --all-cgroups (CGROUP, and the side band's cgroup bit), --buildid-mmap
# (the side band's build_id bit), and the flags that leave the attrs as
# they are (-r, --synth, --buildid-all, --aio, --affinity,
# --num-thread-synthesize, --proc-map-timeout).
same "record --transaction" --transaction
same "record --all-cgroups" --all-cgroups
same "record -a --all-cgroups" -a --all-cgroups
same "record --buildid-mmap" --buildid-mmap
same "record --buildid-all" --buildid-all
same "record -r 1" -r 1
same "record --synth no" --synth no
same "record --aio --affinity node" --aio --affinity node
same "record --num-thread-synthesize 2 --proc-map-timeout 100" --num-thread-synthesize 2 --proc-map-timeout 100
# The sample's period: recorded with a frequency (and by a tracepoint, or
# with -P), not with -c's fixed period, with which the kernel would sample
# a software event at every event; an event's own period= or freq= term
# wins over -c and -F; -a's dummy takes -c's or -F's rate, or keeps 1.
same "record -c 10 -e page-faults" -c 10 -e page-faults
same "record -c 10 -P -e page-faults" -c 10 -P -e page-faults
same "record -e page-faults/period=10/" -e page-faults/period=10/
same "record -c 10 -e page-faults/freq=100/" -c 10 -e page-faults/freq=100/
same "record -F 100 -e page-faults/period=10/" -F 100 -e page-faults/period=10/
same "record -c 10 -e {page-faults,cpu-clock}:S" -c 10 -e '{page-faults,cpu-clock}:S'
same "record -c 5 -e {cpu-clock/period=7/,task-clock}:S" -c 5 -e '{cpu-clock/period=7/,task-clock}:S'
# An S leader's members take its layout whole (their own PERIOD, RAW, CPU
# go), as perf's leader sampling copies it.
same "record -e {cpu-clock/period=100000/,task-clock}:S" -e '{cpu-clock/period=100000/,task-clock}:S'
same "record -c 7 -e {cpu-clock,task-clock/freq=50/}:S" -c 7 -e '{cpu-clock,task-clock/freq=50/}:S'
same "record -e {cpu-clock,sched:sched_switch}:S" -e '{cpu-clock,sched:sched_switch}:S'
same "record -a -e {cpu-clock,sched:sched_switch}:S" -a -e '{cpu-clock,sched:sched_switch}:S'
same "record -a -c 10000 -e cpu-clock" -a -c 10000 -e cpu-clock
same "record -a -F 100 -e cpu-clock" -a -F 100 -e cpu-clock
same "record -a -c 500 -e cpu-clock/freq=10/" -a -c 500 -e cpu-clock/freq=10/
same "record -a -P -e cpu-clock" -a -P -e cpu-clock
same "record -a -c 100 -e sched:sched_switch" -a -c 100 -e sched:sched_switch

# -u: a process of nobody's, its threads' events as perf opens them.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 600 &
	# wait until the background process is nobody's (setpriv switches
	# after the fork): a bounded poll of its owner, not a fixed sleep
	for _ in $(seq 200); do
		[ "$(ps -o user= -p "$!" 2>/dev/null | tr -d ' ')" = nobody ] && break
		sleep 0.05
	done
	nobody_sleeper=$!
	same "record -u nobody" -u nobody
	kill "$nobody_sleeper"
	wait "$nobody_sleeper" 2>/dev/null
fi

# CPU targets: inherit set as for a task, and the side-band dummy:HG
# opened enabled (perf's immediate event), not waiting for the start.
same "record -a" -a
same "record -a -g" -a -g
same "record -C 0" -C 0
same "record -C 0 -s -e cpu-clock,task-clock" -C 0 -s -e cpu-clock,task-clock
same "record -a --switch-events" -a --switch-events

# --overwrite: the flight recorder's attrs, for a command and for CPUs.
same "record --overwrite" --overwrite
same "record --overwrite -e cpu-clock,task-clock" --overwrite -e cpu-clock,task-clock
same "record --overwrite -g -e {cpu-clock,task-clock}:S" --overwrite -g -e '{cpu-clock,task-clock}:S'
same "record -a --overwrite" -a --overwrite
same "record -a --tail-synthesize" -a --tail-synthesize
same "record -C 0 --overwrite -g --running-time" -C 0 --overwrite -g --running-time

# --per-thread: no inherit and, as perf's evsel__config, no sample times
# (no inherit, no CPU target) unless -T asks for them.
same "record --per-thread" --per-thread
same "record --per-thread -g" --per-thread -g
same "record --per-thread -T" --per-thread -T
same "record --per-thread -e cpu-clock,task-clock" --per-thread -e cpu-clock,task-clock
# A file without sample times reports as perf reports it.
. "$(dirname "$0")/report-perf.sh"
if [ -n "${PERFKIT_WORKLOAD:-}" ]; then
	run record --per-thread -e cpu-clock -o "$tmp/pt.data" -- "$PERFKIT_WORKLOAD" hot 50
	same_as_perf "$tmp/pt.data"
	same_as_perf "$tmp/pt.data" --sort comm,dso
fi

# -p: a sleeping process of ours, with inherit as perf; -t without it
# (perf's cmd_record drops it for -t alone).
sleep 600 &
sleeper=$!
same "record -p PID" -p "$sleeper"
same "record -p PID -g" -p "$sleeper" -g
same "record -p PID --per-thread" -p "$sleeper" --per-thread
same "record -t TID" -t "$sleeper"
same "record -p PID --overwrite" -p "$sleeper" --overwrite
kill "$sleeper"
wait "$sleeper" 2>/dev/null

# --switch-output: the file is named FILE.<timestamp> when it ends.
switched() {
	local desc=$1 mine theirs
	shift
	rm -f "$tmp"/k.data* "$tmp"/p.data*
	run record "$@" -o "$tmp/k.data" -- true
	perf record "$@" -o "$tmp/p.data" -- true >/dev/null 2>&1
	mine=$(attrs "$tmp"/k.data.*)
	theirs=$(attrs "$tmp"/p.data.*)
	check "$desc: the attrs perf writes" test -n "$theirs" -a "$mine" = "$theirs"
	[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
}
switched "record --switch-output" --switch-output
switched "record -a --switch-output=signal" -a --switch-output=signal
switched "record --overwrite --switch-output" --overwrite --switch-output
switched "record -a --overwrite --switch-output=signal" -a --overwrite --switch-output=signal

# --off-cpu without -e: its first event is the default one, as perf opens it.
# name, precise level and guest bit: perf evlist -v's name and those fields.
first() {
	attrs "$1" | head -1 | awk -F', ' '{ s = $1; sub(/:.*/, "", s); sub(/: type.*/, "", $1)
		printf "%s", $1; for (i = 2; i <= NF; i++) if ($i ~ /^(precise_ip|exclude_guest|type|config):/) printf " %s", $i }'
}
run record --off-cpu -o "$tmp/k.data" -- true
perf record -o "$tmp/p.data" -- true >/dev/null 2>&1
mine=$(first "$tmp/k.data")
theirs=$(first "$tmp/p.data")
check "record --off-cpu: the on-CPU event is perf's default ($theirs)" \
	test -n "$theirs" -a "$mine" = "$theirs"
[ "$mine" = "$theirs" ] || diag "perfkit: $mine" "perf: $theirs"
done_testing
