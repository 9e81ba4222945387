#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat.sh - perfkit stat on a command: counts of a deterministic
# workload against the expected number and against perf stat on the same
# workload, perf's CSV layout, the exit status passed through, -o/--append,
# the default event set, and the messages for bad input.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

# Handshakes instead of sleeps: each test waits for the state it needs
# (a process has exec'd, perfkit has its counters open, a workload has
# finished a burst, an interval has been printed), never for a guess at
# how long something takes.
# await CMD...: polls CMD until it succeeds; 1 after 10 s (a hung test).
await() {
	local i=0
	until "$@"; do
		i=$((i + 1))
		[ "$i" -lt 1000 ] || return 1
		sleep 0.01
	done
}
# comm_is PID NAME: PID has exec'd NAME (/proc has its own name).
comm_is() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; }
# counting PID: perfkit (PID) has its counters open and enabled: it holds
# a perf event descriptor and sleeps in the loop that waits for the -p
# tasks to end (its only nanosleep without -D: see cmd-stat.c).
counting() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'anon_inode:\[perf_event\]' &&
		[ "$(cat "/proc/$1/wchan" 2>/dev/null)" = hrtimer_nanosleep ]
}
# lines_in FILE PATTERN N: FILE has at least N lines matching PATTERN.
lines_in() { [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -ge "$3" ]; }
# run_until_killed PID ARGS...: like run, for a perfkit that counts the
# process PID (which sleeps until killed) until it exits.  PID is killed
# once perfkit has its counters open, so they always see a live process.
run_until_killed() {
	local pid=$1 bg
	shift
	"$PERFKIT" "$@" >"$tmp/run.out" 2>"$tmp/run.err" &
	bg=$!
	await counting "$bg"
	kill "$pid"
	wait "$bg"
	rc=$?
	wait "$pid" 2>/dev/null
	out=$(cat "$tmp/run.out")
	err=$(cat "$tmp/run.err")
	case $err in
	*Sanitizer* | *"runtime error:"*) not_ok "sanitizer report from perfkit $*"; diag "$err" ;;
	esac
}
# A workload whose page faults are known: python3 touches 2000 fresh pages.
cat >"$tmp/touch.py" <<'PY'
import mmap
m = mmap.mmap(-1, 2000 * 4096)
for i in range(0, 2000 * 4096, 4096):
    m[i] = 1
PY

run stat -x, -e page-faults,task-clock -- python3 "$tmp/touch.py"
check "stat of a workload exits 0" test "$rc" -eq 0
pf=$(printf '%s\n' "$err" | awk -F, '$3 == "page-faults" { print $1 }')
check "page-faults counts the 2000 touched pages (got '$pf')" test "${pf:-0}" -ge 2000
check "CSV has perf's 7 fields: value,unit,event,run,pct,metric,unit" \
	sh -c 'printf "%s\n" "$1" | awk -F, "NF != 7 { bad = 1 } END { exit bad }"' sh "$err"
contains "task-clock is in msec with CPUs utilized" "$err" ",msec,task-clock,"

if command -v perf >/dev/null; then
	ppf=$(perf stat -x, -e page-faults -- python3 "$tmp/touch.py" 2>&1 >/dev/null |
		awk -F, '$3 == "page-faults" { print $1 }')
	# Same workload, same kernel: within a few faults of each other, and
	# perfkit's own work must not show up (no more than perf's + 5%).
	check "page-faults agree with perf stat ($pf vs $ppf)" \
		test "$pf" -le $((ppf + ppf / 20)) -a "$pf" -ge $((ppf - ppf / 20))
else
	skip "page-faults agree with perf stat" "perf is not installed"
fi

run stat -e task-clock -- sh -c 'exit 7'
check "the command's exit status is perfkit's (7, got $rc)" test "$rc" -eq 7
contains "the table names the command" "$err" "Performance counter stats for 'sh -c exit 7':"
contains "the table has the elapsed time" "$err" "seconds time elapsed"

run stat -e task-clock,cycles -- true
contains "an event this machine cannot count shows <not supported>" "$err" "<not supported>      cycles"

run stat -- true
contains "the default set counts the software events" "$err" "page-faults"
if [ -d /sys/bus/event_source/devices/cpu ]; then
	skip "the default set says what it dropped" "this machine has a hardware PMU"
else
	contains "the default set says what it dropped" "$err" "not counting cycles, instructions"
fi

run stat -o "$tmp/out" -e page-faults -- true
check "-o writes the counts to the file" grep -q page-faults "$tmp/out"
run stat -o "$tmp/out" --append -e cs -- true
check "--append keeps what was there" sh -c 'grep -q page-faults "$1" && grep -q "cs " "$1"' sh "$tmp/out"

run stat -e task-clock -- perfkit-no-such-command
check "a command that cannot run exits 1 (got $rc)" test "$rc" -eq 1
contains "and says it cannot run" "$err" "cannot run 'perfkit-no-such-command'"

run stat -e task-clok -- true
check "a bad event exits 1 (got $rc)" test "$rc" -eq 1
contains "with a near miss" "$err" "did you mean task-clock?"

run stat -e task-clock
check "no command is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "that says a command is needed" "$err" "no command given"

run stat -o /nonexistent-dir/out -- true
check "an unwritable -o exits 1 (got $rc)" test "$rc" -eq 1
contains "and names the file" "$err" "/nonexistent-dir/out"
# Targets: a process until it exits, CPUs while a command runs.
sleep 60 &
spid=$!
run_until_killed "$spid" stat -x, -e task-clock,cs -p "$spid"
check "-p counts until the process exits (exit 0, got $rc)" test "$rc" -eq 0
contains "-p prints the process's counts" "$err" ",task-clock,"
run stat -e cpu-clock,cs -a -- sleep 0.2
contains "-a with a command counts system wide" "$err" "Performance counter stats for 'system wide':"
ncpu=$(nproc)
cpus=$(printf '%s\n' "$err" | awk '/cpu-clock/ { print $5 }')
check "-a's cpu-clock covers every CPU (${cpus:-?} CPUs utilized of $ncpu)" \
	awk -v c="${cpus:-0}" -v n="$ncpu" 'BEGIN { exit !(c > n - 0.3 && c < n + 0.3) }'
run stat -C 0 -e cs -x, -- sleep 0.1
check "-C 0 counts on CPU 0 (exit 0, got $rc)" test "$rc" -eq 0
run stat -p 2147483646 -e cs
check "-p of a missing process exits 1 (got $rc)" test "$rc" -eq 1
contains "and says there is no such process" "$err" "no such process"
run stat -C 0-x -e cs
contains "a bad CPU list points at the column" "$err" "      ^"
run stat -p 12a -e cs
check "a bad pid list is a usage error (exit 2, got $rc)" test "$rc" -eq 2
run stat -p 1 -t 1 -- true
check "two targets at once is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# Repeats, JSON, null run, quiet, no-inherit.
run stat -r 5 -e task-clock,page-faults -- true
contains "-r names the number of runs" "$err" "Performance counter stats for 'true' (5 runs):"
contains "-r shows each count's noise" "$err" "( +-"
contains "-r shows the elapsed time's spread" "$err" "seconds time elapsed  ( +-"
run stat -r 3 -x, -e page-faults -- true
check "-r with -x adds the noise column (8 fields)" \
	sh -c 'printf "%s\n" "$1" | awk -F, "NF != 8 || \$4 !~ /%$/ { bad = 1 } END { exit bad }"' sh "$err"
run stat -j -e task-clock,page-faults,cycles -- true
json_lines() {
	printf '%s\n' "$err" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
assert [r["event"] for r in rows] == ["task-clock", "page-faults", "cycles"], rows
assert rows[0]["unit"] == "msec" and rows[0]["metric-unit"] == "CPUs utilized", rows[0]
assert float(rows[1]["counter-value"]) > 0 and rows[1]["pcnt-running"] == 100.0, rows[1]
assert rows[2]["counter-value"] == "<not supported>", rows[2]
'
}
check "-j prints one parseable JSON object per event, with perf's keys" json_lines
run stat -n -- true
check "-n times the command without counters" sh -c 'case "$1" in *"seconds time elapsed"*) ! printf "%s" "$1" | grep -q msec;; *) exit 1;; esac' sh "$err"
run stat -q -e cs -- sh -c 'exit 4'
check "-q prints nothing and still passes the exit status (4, got $rc)" \
	sh -c '[ "$1" -eq 4 ] && [ -z "$2" ]' sh "$rc" "$err"
run stat -x, -e page-faults -- sh -c "python3 $tmp/touch.py; true"
with=$(printf '%s\n' "$err" | awk -F, '{ print $1 }')
run stat -x, --no-inherit -e page-faults -- sh -c "python3 $tmp/touch.py; true"
without=$(printf '%s\n' "$err" | awk -F, '{ print $1 }')
check "--no-inherit leaves the children's faults out ($without < $with - 2000)" \
	test "${without:-0}" -lt $((${with:-0} - 2000))
run stat -r 0 -- true
check "-r 0 is a usage error (exit 2, got $rc)" test "$rc" -eq 2
run stat -x, -j -- true
check "-x with -j is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# One line per CPU, one per thread.
run stat -A -a -x, -e cpu-clock,cs -- sleep 0.05
cpus_seen=$(printf '%s\n' "$err" | awk -F, '$4 == "cpu-clock" { n++ } END { print n + 0 }')
check "-A -a prints cpu-clock once per online CPU ($cpus_seen of $(nproc))" test "$cpus_seen" -eq "$(nproc)"
contains "-A lines start with the CPU" "$err" "CPU0,"
run stat -A -a -e cs -- sleep 0.01
check "-A's table puts CPU0 in perf's 11-column prefix" sh -c 'printf "%s\n" "$1" | grep -Eq "^CPU0 {7}[ 0-9]{18} "' sh "$err"
sleep 60 &
spid=$!
await comm_is "$spid" sleep
run_until_killed "$spid" stat --per-thread -p "$spid" -x, -e task-clock
contains "--per-thread names each thread comm-tid" "$err" "sleep-$spid,"
run stat -A -e cs -- true
check "-A without -a/-C is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# Intervals and delay.
# The command ends when released, after stat has printed 3 intervals: then
# stat prints a 4th, short one, for the time since the 3rd.
mkfifo "$tmp/go"
"$PERFKIT" stat -I 100 -x, -e cs -- sh -c 'read x <"$0"' "$tmp/go" 2>"$tmp/i.err" &
bg=$!
await lines_in "$tmp/i.err" ',cs,' 3
exec 8<>"$tmp/go"
echo go >&8
wait "$bg"
rc=$?
exec 8<&-
err=$(cat "$tmp/i.err")
lines=$(printf '%s\n' "$err" | grep -c ',cs,')
check "-I 100 prints every interval and a last one when the command ends (exit $rc, $lines lines)" \
	test "$rc" -eq 0 -a "$lines" -ge 4
stamps=$(printf '%s\n' "$err" | awk -F, '$4 == "cs" { printf "%s ", $1 }')
check "the first interval is stamped after 0.1 s, each later one after it ($stamps)" \
	awk -v s="$stamps" 'BEGIN { n = split(s, t, " "); ok = t[1] >= 0.1
	     for (i = 2; i <= n; i++) ok = ok && t[i] > t[i - 1]; exit !ok }'
run stat -I 100 --interval-count 2 -e task-clock -- sleep 60
check "--interval-count 2 stops the command after 2 intervals (exit 0, got $rc)" test "$rc" -eq 0
check "and prints 2 lines after perf's header" \
	sh -c 'printf "%s\n" "$1" | grep -q "^#           time             counts unit events" &&
	       [ "$(printf "%s\n" "$1" | grep -c "task-clock")" -eq 2 ]' sh "$err"
# Two identical bursts of page faults: -D 300 must count the second burst
# only.  The first (2000 pages from a C program, a few ms) is over long
# before 300 ms; the second starts only once stat says it is counting.
if [ -n "${PERFKIT_WORKLOAD:-}" ]; then
	burst="$PERFKIT_WORKLOAD pages 2000"
else
	burst="python3 $tmp/touch.py"
fi
run stat -x, -e page-faults -- $burst
one=$(printf '%s\n' "$err" | awk -F, '$3 == "page-faults" { print $1 }')
"$PERFKIT" stat -D 300 -x, -e page-faults -- sh -c "$burst; read x <'$tmp/go'; $burst" 2>"$tmp/d.err" &
bg=$!
await lines_in "$tmp/d.err" "Events enabled" 1
exec 8<>"$tmp/go"
echo go >&8
wait "$bg"
exec 8<&-
err=$(cat "$tmp/d.err")
delayed=$(printf '%s\n' "$err" | awk -F, '$3 == "page-faults" { print $1 }')
contains "-D says when counting starts" "$err" "Events enabled"
check "-D 300 counts the second burst only ($delayed, one burst is $one)" \
	awk -v d="${delayed:-0}" -v o="${one:-0}" 'BEGIN { exit !(o > 0 && d > o * 0.7 && d < o * 1.3) }'
run stat -I 5 -- true
check "-I below 10 ms is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# Aggregation by topology (this machine's sysfs).
run stat --per-socket -a -x, -e cpu-clock -- sleep 0.02
total=$(printf '%s\n' "$err" | awk -F, '$5 == "cpu-clock" { n += $2 } END { print n + 0 }')
check "--per-socket's aggregates cover every CPU once ($total of $(nproc))" test "$total" -eq "$(nproc)"
contains "--per-socket lines start S<socket>" "$err" "S0,"
run stat --per-core -a -x, -e cs -- sleep 0.02
cores=$(cat /sys/devices/system/cpu/cpu*/topology/core_id 2>/dev/null | sort -u | wc -l)
lines=$(printf '%s\n' "$err" | grep -c ',cs,')
check "--per-core prints one line per core ($lines of $cores)" test "$lines" -eq "$cores"
run stat --per-node -a -e cs -- sleep 0.01
contains "--per-node lines start N<node>" "$err" "N0 "
# perf 6.1's order: each aggregate, then each event in it.
run stat --per-core -a -x, -e cs,page-faults -- sleep 0.02
order=$(printf '%s\n' "$err" | awk -F, '$5 == "cs" || $5 == "page-faults" { printf "%s/%s ", $1, $5 }')
check "--per-core lists each core's events together, as perf does ($order)" \
	sh -c 'set -- $1; [ "${1%/*}" = "${2%/*}" ] && [ "${1#*/}" = cs ] && [ "${2#*/}" = page-faults ]' sh "$order"
# --per-thread: threads from the largest count down, named from /proc even
# when a command only times the counting.
sh -c 'while :; do :; done' &
bpid=$!
sleep 60 &
spid=$!
await comm_is "$bpid" sh
await comm_is "$spid" sleep
run stat --per-thread -x, -p "$spid,$bpid" -e task-clock -- sleep 0.1
kill "$spid"
first=$(printf '%s\n' "$err" | awk -F, '$4 == "task-clock" { print $1; exit }')
check "--per-thread puts the busiest thread first ($first)" test "$first" = "sh-$bpid"
contains "and names a -p thread by its own name, not the timing command's" "$err" "sleep-$spid,"
# -I with each way of splitting the counts, in perf's layout.
run stat -I 100 --interval-count 2 -A -a -e cs,page-faults
check "-I -A: perf's header" sh -c 'printf "%s\n" "$1" | head -1 | grep -qx "#           time CPU                    counts unit events"' sh "$err"
lines=$(printf '%s\n' "$err" | grep -Ec '^ +[0-9]+\.[0-9]{9} CPU[0-9]+ ')
check "-I -A: a line per interval, CPU and event ($lines of $((2 * 2 * $(nproc))))" test "$lines" -eq $((2 * 2 * $(nproc)))
run stat -I 100 --interval-count 1 -x, -A -a -e cs
stamps=$(printf '%s\n' "$err" | awk -F, '$2 ~ /^CPU/ && $5 == "cs" { print $1 }' | sort -u | wc -l)
check "-I -A -x,: every CPU's line has the interval's stamp first ($stamps stamp)" test "$stamps" -eq 1
# Each interval's line holds that interval's time, not the running total:
# more than nothing, and no more than the interval lasted (its stamps).
run stat -I 100 --interval-count 2 --per-thread -x, -p "$bpid" -e task-clock
busy=$(printf '%s\n' "$err" | awk -F, -v t="sh-$bpid" '$2 == t && $5 == "task-clock" {
	ms = $3 + 0; len = ($1 - prev) * 1000; prev = $1
	if (ms > 0 && ms <= len + 5) n++ } END { print n + 0 }')
check "-I --per-thread: the busy thread's time in each interval, within the interval ($busy of 2)" \
	test "$busy" -eq 2
run stat -I 100 --interval-count 1 --per-socket -a -e cpu-clock
contains "-I --per-socket: perf's header" "$err" "#           time socket cpus             counts unit events"
contains "and the socket's line" "$err" " S0 "
if command -v perf >/dev/null; then
	ours=$(printf '%s\n' "$err" | grep ' S0 ' | head -1 | awk '{ print NF }')
	theirs=$(perf stat -I 100 --interval-count 1 --per-socket -a -e cpu-clock 2>&1 | grep ' S0 ' | head -1 | awk '{ print NF }')
	check "-I --per-socket lines have perf's fields ($ours, perf $theirs)" test -n "$ours" -a "$ours" = "$theirs"
fi
kill "$bpid" 2>/dev/null
run stat --per-core -e cs -- true
check "--per-core without -a/-C is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# perf's fallback to user space when the kernel refuses kernel counting.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "unprivileged fallback to :u" "needs root to drop to user nobody with setpriv"
elif [ "$paranoid" -lt 2 ]; then
	skip "unprivileged fallback to :u" "kernel.perf_event_paranoid is $paranoid: kernel counting is allowed"
else
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFKIT" stat -e task-clock,cs -- true 2>&1)
	contains "as nobody, events fall back to user space and are named :u" "$out" "task-clock:u"
	contains "and one message says why and how to fix it" "$out" \
		"task-clock, cs: counted in user space only (:u): the kernel refused to count kernel space (kernel.perf_event_paranoid is $paranoid)"
fi
# -G: only tasks in the cgroup count.  The workload moves itself into a fresh
# cgroup before exec; an empty cgroup next to it must count (almost) nothing.
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ "$(id -u)" -ne 0 ] || [ -z "$cgroot" ] || ! mkdir "$cgroot/perfkit-test-$$" 2>/dev/null; then
	skip "-G counts a cgroup" "needs root and a writable cgroup2 mount to make test cgroups"
else
	mkdir "$cgroot/perfkit-empty-$$"
	into="echo \$\$ > $cgroot/perfkit-test-$$/cgroup.procs && exec python3 $tmp/touch.py"
	run stat -a -G "perfkit-test-$$" -x, -e page-faults -- sh -c "$into"
	in_cg=$(printf '%s\n' "$err" | awk -F, '$3 == "page-faults" { print $1 }')
	contains "-G adds the cgroup column" "$err" ",page-faults,perfkit-test-$$,"
	check "-G counts the workload inside the cgroup ($in_cg >= 2000)" test "${in_cg:-0}" -ge 2000
	run stat -a -G "perfkit-empty-$$" -x, -e page-faults -- python3 "$tmp/touch.py"
	empty=$(printf '%s\n' "$err" | awk -F, '$3 == "page-faults" { print $1 }')
	# Its tasks never run, so the counter never does: perf's <not counted>.
	check "-G on an empty cgroup counts none of a workload outside it ($empty)" \
		sh -c 'case "$1" in "<not counted>") exit 0;; ""|*[!0-9]*) exit 1;; *) [ "$1" -lt 100 ];; esac' sh "$empty"
	rmdir "$cgroot/perfkit-test-$$" "$cgroot/perfkit-empty-$$" 2>/dev/null
fi
run stat -a -G perfkit-no-such-cgroup -e cs -- true
check "an unknown cgroup exits 1 (got $rc)" test "$rc" -eq 1
contains "and says where it looked" "$err" "no cgroup 'perfkit-no-such-cgroup' under"
run stat -G x -e cs -- true
check "-G without -a/-C is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# --control with -D -1: counting only between "enable" and "disable".
# Bursts: 3000 pages, then 1000 pages; enable in between.  The command
# marks the end of each burst (b1, b2) and waits to be let go (fd 8).
if [ -n "${PERFKIT_WORKLOAD:-}" ] && command -v mkfifo >/dev/null; then
	mkfifo "$tmp/ctl" "$tmp/ack"
	exec 8<>"$tmp/go"
	"$PERFKIT" stat -D -1 --control "fifo:$tmp/ctl,$tmp/ack" -x, -e page-faults -- \
		sh -c "$PERFKIT_WORKLOAD pages 3000; : >'$tmp/b1'; read x <'$tmp/go'
		       $PERFKIT_WORKLOAD pages 1000; : >'$tmp/b2'; read x <'$tmp/go'" \
		>"$tmp/ctl.out" 2>&1 &
	bg=$!
	await test -e "$tmp/b1"
	exec 7<>"$tmp/ack"
	echo ping >"$tmp/ctl"
	ack1=$(timeout 5 dd bs=5 count=1 <&7 2>/dev/null | od -An -c | tr -d ' ')
	echo enable >"$tmp/ctl"
	timeout 5 dd bs=5 count=1 <&7 >/dev/null 2>&1
	echo go >&8
	await test -e "$tmp/b2"
	echo disable >"$tmp/ctl"
	timeout 5 dd bs=5 count=1 <&7 >/dev/null 2>&1
	echo bogus >"$tmp/ctl"
	await lines_in "$tmp/ctl.out" "unknown command" 1
	echo go >&8
	wait "$bg"
	exec 7<&- 8<&-
	out=$(cat "$tmp/ctl.out")
	check "--control acknowledges like perf: ack, newline, NUL ('$ack1')" test "$ack1" = 'ack\n\0'
	got=$(printf '%s\n' "$out" | awk -F, '$3 == "page-faults" { print $1 }')
	check "only the enabled second burst is counted ($got, between 1000 and 2500)" \
		test "${got:-0}" -ge 1000 -a "${got:-0}" -lt 2500
	contains "the enabling is reported" "$out" "Events enabled"
	contains "an unknown command is named" "$out" "unknown command 'bogus'"
else
	skip "--control" "needs the workload binary and mkfifo"
fi
run stat -D -1 -e cs -- true
check "-D -1 without --control is a usage error (exit 2, got $rc)" test "$rc" -eq 2
run stat --control fifo:/nonexistent/ctl -e cs -- true
contains "a missing control FIFO is named" "$err" "/nonexistent/ctl"
run stat -v -e task-clock:u -- true
contains "-v shows the attr as opened, in perf's layout" "$err" "  exclude_kernel                   1"
# -r with per-CPU and per-socket output: means per CPU over the runs.
run stat -r 3 -A -a -x, -e cpu-clock -- sleep 0.05
n=$(printf '%s\n' "$err" | grep -c ',cpu-clock,')
check "-r 3 -A prints one mean line per CPU ($n of $(nproc))" test "$n" -eq "$(nproc)"
ms=$(printf '%s\n' "$err" | awk -F, '$4 == "cpu-clock" { print $2; exit }')
check "each CPU's cpu-clock is about the 50 ms each run lasted ($ms ms)" \
	awk -v m="${ms:-0}" 'BEGIN { exit !(m > 45 && m < 150) }'
run stat -r 2 --per-thread -e cs -- true
check "-r with --per-thread is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "that says why" "$err" "every run has different threads"

# -r with -I: every run prints its intervals.  --control with -I: commands
# are taken between interval prints.
run stat -r 2 -I 100 -e cs -- sleep 0.15
headers=$(printf '%s\n' "$err" | grep -c '^#           time')
check "-r 2 -I prints each run's intervals ($headers headers)" test "$headers" -eq 2
if [ -n "${PERFKIT_WORKLOAD:-}" ] && command -v mkfifo >/dev/null; then
	mkfifo "$tmp/ctl2" "$tmp/ack2"
	rm -f "$tmp/b1"
	exec 8<>"$tmp/go"
	"$PERFKIT" stat -I 100 -D -1 --control "fifo:$tmp/ctl2,$tmp/ack2" -x, -e page-faults -- \
		sh -c "$PERFKIT_WORKLOAD pages 3000; : >'$tmp/b1'; read x <'$tmp/go'
		       $PERFKIT_WORKLOAD pages 1000" \
		>"$tmp/ctl2.out" 2>&1 &
	bg=$!
	await test -e "$tmp/b1"
	exec 7<>"$tmp/ack2"
	echo enable >"$tmp/ctl2"
	timeout 5 dd bs=5 count=1 <&7 >/dev/null 2>&1
	echo go >&8
	wait "$bg"
	exec 7<&- 8<&-
	total=$(awk -F, '$4 == "page-faults" && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$tmp/ctl2.out")
	check "--control with -I: the intervals after enable hold the second burst only ($total)" \
		test "$total" -ge 1000 -a "$total" -lt 2500
else
	skip "--control with -I" "needs the workload binary and mkfifo"
fi
# Thread names are the process's own choice: -j must escape them.
odd='q"x\y'
python3 -c '
import sys, time
open("/proc/self/comm", "w").write(sys.argv[2])
open(sys.argv[1], "w").close()
time.sleep(60)
' "$tmp/renamed" "$odd" &
npid=$!
await test -e "$tmp/renamed"
run_until_killed "$npid" stat -j --per-thread -p "$npid" -e task-clock
escaped() {
	printf '%s\n' "$err" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
want = sys.argv[2] + "-" + sys.argv[1]
assert rows and all(r["thread"] == want for r in rows), (rows, want)
' "$npid" "$odd"
}
check "-j --per-thread escapes a thread name with quotes and backslashes" escaped
# Ctrl-C or SIGTERM: stat stops, passes the signal on to the command (so a
# command that would run for half a minute ends now), prints what it counted,
# and exits as the command did.  The command says it has started through
# a FIFO before the signal is sent; without the signal it would exit 0.
for sig in INT TERM; do
	mkfifo "$tmp/up-$sig"
	"$PERFKIT" stat -e task-clock -- sh -c "echo up > '$tmp/up-$sig'; exec sleep 30" \
		2>"$tmp/sig-$sig.err" &
	spid=$!
	read -r _ <"$tmp/up-$sig"
	kill -"$sig" "$spid"
	wait "$spid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig reaches the command: stat exits $want as it did (got $rc)" test "$rc" -eq "$want"
	check "SIG$sig: the counts are still printed" grep -q 'task-clock' "$tmp/sig-$sig.err"
done
done_testing
