#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_valgrind.sh - the CLI's main paths (list, info, stat, record, report, script, diff) under
# valgrind memcheck, on perfkit-dyn: the CLI linked dynamically against libc
# (src/cli/meson.build), since valgrind cannot replace malloc/free in the
# shipped, fully static perfkit.  Each run must end without a memcheck error
# (valgrind's exit status 99: an invalid read or write, a use of
# uninitialised memory, a bad free, or a definitely lost block at exit) and
# with the command's own exit status.  Usage: test_valgrind.sh PERFKIT-DYN.
PERFKIT=${1:?usage: test_valgrind.sh PERFKIT-DYN}
. "$(dirname "$0")/../cli/tap.sh"

# --child-silent-after-fork: record forks the workload's child, which waits
# for a go byte and execs (valgrind then stops following it).  When perfkit
# gives up before the go (a bad event, say), that child _exits without an
# exec, holding a copy of the parent's heap that no register points to any
# more, and valgrind would report that copy as lost in the child.  Every
# error of perfkit's own process is still reported: the exit status checked
# here is that process's.
vg=(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
	--track-fds=no --child-silent-after-fork=yes -q)
# No suppressions: libpfm4, libtraceevent, libelf, libzstd and glibc report
# nothing on these paths with valgrind 3.19 (Debian 12).  Should third-party
# noise appear, it goes in a committed .supp file here, an entry per report
# with its reason; perfkit's own code is never suppressed.

if ! command -v valgrind >/dev/null; then
	not_ok "valgrind is installed (make deps installs it)"
	done_testing
fi

# vrun WANT ARGS...: runs perfkit ARGS under valgrind (stdout in $out,
# stderr in $err, status in $rc) and checks the status is WANT, not a
# memcheck error.
vrun() {
	local want=$1 o e desc
	shift
	desc="$*"
	desc=${desc//"${TMPDIR:-/tmp}"\//}
	desc=${desc//"$PERFKIT_WORKLOAD"/workload}
	o=$(mktemp) e=$(mktemp)
	"${vg[@]}" "$PERFKIT" "$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o")
	err=$(cat "$e")
	rm -f "$o" "$e"
	if [ "$rc" -eq 99 ]; then
		not_ok "no memcheck error: perfkit $desc"
		diag "$err"
	elif [ "$rc" -ne "$want" ]; then
		not_ok "perfkit $desc exits $want"
		diag "exit status $rc" "$err"
	else
		ok "perfkit $desc (exit $want, no memcheck error)"
	fi
}

# The binary is one valgrind can see into: memcheck counts its mallocs
# (a static binary's are invisible to it: "0 allocs").
allocs=$(valgrind "$PERFKIT" info task-clock 2>&1 >/dev/null |
	sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,)
if [ "${allocs:-0}" -gt 0 ]; then ok "memcheck sees perfkit-dyn's heap ($allocs allocs)"
else not_ok "memcheck sees perfkit-dyn's heap"; diag "allocs: '${allocs}'"; fi

# list: a glob over tracepoints (tracefs) and the whole catalogue as JSON.
vrun 0 list 'sched:*'
contains "list 'sched:*' shows sched:sched_switch" "$out" "sched:sched_switch"
vrun 0 list --json
json_check "list --json is the catalogue, task-clock in it" '
assert any(e["name"] == "task-clock" for e in d), len(d)'

# info: an event, a group, a tracepoint (tracefs: root), a bad event.
vrun 0 info --json task-clock:u
vrun 0 info --json '{task-clock,page-faults}' 'cs,faults'
json_check "info: the group and the list come back as two entries" 'assert len(d) == 2, d'
if [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/tracing/events/sched/sched_switch/format ]; then
	vrun 0 info --json sched:sched_switch
	json_check "info sched:sched_switch is a tracepoint (type 2)" 'assert d[0]["attrs"][0]["type"] == 2, d'
else
	skip "info on a tracepoint" "needs root and tracefs"
fi
vrun 1 info nosuch-event
contains "info on a bad event says so" "$err" "unknown event 'nosuch-event'"

# stat: a command, CSV, system-wide intervals, a bad event.
vrun 0 stat -e task-clock -- true
contains "stat prints task-clock" "$err" "task-clock"
vrun 0 stat -x, -e task-clock -- true
contains "stat -x, prints a CSV row" "$err" ",msec,task-clock,"
vrun 0 stat -a -I 100 --interval-count 1 -e task-clock,page-faults
contains "stat -a -I prints one interval" "$err" "page-faults"
vrun 0 stat -r 2 -e '{task-clock,page-faults}' -- true
contains "stat -r 2 reports both runs" "$err" "(2 runs)"
vrun 1 stat -e nosuch -- true
contains "stat on a bad event says so" "$err" "unknown event 'nosuch'"

# record: frequency sampling of a command, frame-pointer and DWARF call
# graphs, system-wide for a duration.  The workload is not under valgrind.
data=${TMPDIR:-/tmp}/perfkit-vg-$$.data
wl=("$PERFKIT_WORKLOAD" hot 100)
samples() { [[ $err =~ \(([0-9]+)\ samples\) ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; }
vrun 0 record -F 1000 -o "$data" -- "${wl[@]}"
check "record -F 1000 wrote samples" samples
vrun 0 record -g -F 1000 -o "$data" -- "${wl[@]}"
check "record -g wrote samples" samples
vrun 0 record --call-graph dwarf -F 1000 -o "$data" -- "${wl[@]}"
check "record --call-graph dwarf wrote samples" samples
# report and script of that file: the DWARF unwinder (libdw) on every
# sample's stack, the call-graph printer, script's chains and fields.
vrun 0 report -i "$data" --stdio -g graph,0.5,caller --sort comm,dso,sym
contains "report -g of the DWARF file prints call chains" "$out" "---"
vrun 0 script -i "$data"
contains "script of the DWARF file prints the workload's samples" "$out" "perfkit-workloa"
vrun 0 script -i "$data" -F comm,tid,time,event,ip,sym,dso,period --ns
vrun 0 record -a --duration 0.2 -o "$data"
check "record -a --duration 0.2 wrote samples" samples
# report: every sort key of that -a file, filters, and its error paths.
vrun 0 report -i "$data" --stdio -n --show-total-period --sort comm,pid,tid,dso,sym,cpu,period
contains "report of the -a file prints its table" "$out" "# Samples: "
vrun 0 report -i "$data" --stdio --sort comm,dso --comms perfkit-workloa,sh --dsos '[kernel.kallsyms]'
vrun 2 report -i "$data" --stdio --sort nosuch
vrun 1 report -i "$data.missing" --stdio
# diff: the DWARF recording (kept as .old) against the -a file, the table
# with every column and both --format outputs.
vrun 0 diff -c ratio -p -F "$data.old" "$data"
contains "diff prints perf diff's table" "$out" "# Baseline"
vrun 0 diff --format folded "$data.old" "$data"
vrun 0 diff --format flamegraph --output "$data.svg" "$data.old" "$data"
rm -f "$data.svg"
if [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/tracing/events/sched/sched_switch/format ]; then
	vrun 0 record -e sched:sched_switch -a --duration 0.2 -o "$data"
	check "record of a tracepoint wrote samples" samples
	# script of it: the recording's tracing data through libtraceevent.
	vrun 0 script -i "$data"
	contains "script prints the tracepoint's fields" "$out" "prev_comm="
else
	skip "record of a tracepoint" "needs root and tracefs"
fi
# A BPF program with BTF loaded while recording (tests/cli/bpf-load.c): the
# BPF_BTF feature carries the BTF blob bpf(2) fills through a pointer
# inside its info, which memcheck cannot follow; the writer once wrote it
# out as uninitialised bytes (sys/bpf.c now zeroes the blob first).
bpfdir=$(mktemp -d)
mkfifo "$bpfdir/in" "$bpfdir/out"
"$PERFKIT_BPF_LOAD" <"$bpfdir/in" >"$bpfdir/out" 2>"$bpfdir/err" &
loader=$!
exec 3>"$bpfdir/in"	# the loader exits when this closes
read -r _ _ btf <"$bpfdir/out"
if [ -n "$btf" ]; then
	vrun 0 record --call-graph dwarf -F 1000 -o "$data" -- "${wl[@]}"
	if command -v perf >/dev/null; then
		n=$(perf report --header-only -i "$data" 2>/dev/null | grep -c "^# btf info of id $btf\$")
		check "record with a BPF program loaded keeps its BTF (id $btf) for perf" test "$n" -eq 1
	else
		skip "perf reads the BTF kept" "perf is not installed"
	fi
else
	skip "record with a BPF program's BTF" "bpf-load: $(cat "$bpfdir/err")"
fi
exec 3>&-
wait "$loader"
rm -rf "$bpfdir"
# Error paths: a bad event (after the workload's child is forked) and a
# command that does not exist.
vrun 1 record -e nosuch -o "$data" -- true
vrun 1 record -e cpu-clock -o "$data" -- /nonexistent/command
contains "record of a missing command says so" "$err" "cannot run '/nonexistent/command'"
rm -f "$data" "$data.old"

done_testing
