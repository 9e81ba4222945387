#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_flags2.sh - the rest of perf stat 6.1's flags: -n/--null, -S,
# --table, --timeout, --log-fd, --interval-clear, --filter, -g, --no-scale,
# --no-merge; -T, --smi-cost, --iostat and --cputype on fixture sysfs trees
# (this VM has none of their hardware); and the -I --summary split layouts
# (the CSV's summary column per core, --metric-only's totals, the figures
# of the last short interval), next to perf where it runs here.  Counts compared with perf
# are ones every run must give (0 switches of a task that is not the
# command); the rest are structure.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_perf() { command -v perf >/dev/null; }
# Numbers out: the layout of a table, to compare with perf's.
shape() { printf '%s\n' "$1" | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'; }

# -n / --null: no counters, the elapsed line only (perf's spelling).
run stat --null -- true
expect_rc "--null times the command" 0
contains "... the elapsed line" "$err" "seconds time elapsed"
check "... no counter lines" sh -c '! printf "%s" "$1" | grep -q "task-clock"' sh "$err"
if have_perf; then
	want=$(perf stat -n -- true 2>&1)
	check "... perf -n's layout" test "$(shape "$err")" = "$(shape "$want")"
fi

# -n with -e: perf leaves out its default set only; -e's events count, and
# no blank line comes before the elapsed line.  The files keep the trailing
# blank lines ($(...) would strip them): perf ends with two after "sys".
run stat -n -x, -e task-clock -- true
contains "-n -e task-clock: still counted, as perf" "$err" ",msec,task-clock,"
if have_perf; then
	# (-r with task-clock: its noise is never exactly 0, which perf leaves out)
	for args in "-n -e task-clock,page-faults" "-n" "-e page-faults" "-r 2 -e task-clock"; do
		# shellcheck disable=SC2086
		"$PERFKIT" stat $args -- true 2>"$tmp/mine"
		# shellcheck disable=SC2086
		perf stat $args -- true 2>"$tmp/perf"
		check "perf stat $args: the same lines, blank ones too, numbers aside" \
			cmp -s <(sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g' "$tmp/mine") \
			<(sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g' "$tmp/perf")
	done
fi

# -S: sync() before each run; the counts are the same counts.
run stat -S -x, -e task-clock -- true
expect_rc "-S runs" 0
contains "... and counts" "$err" ",msec,task-clock,"

# -r: perf's table leaves out a noise of exactly 0: `true` execs once in
# every run.
run stat -r 3 -e sched:sched_process_exec -- true
check "-r 3, one exec each run: the count 1 with no ( +- ) after it, as perf" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +1 +sched:sched_process_exec +$"' sh "$err"

# --table: perf's table of each run, between the counts and the mean.
run stat -r 3 --table -e task-clock -- true
expect_rc "--table with -r 3" 0
check "three rows of run time, sign and bar" test \
	"$(printf '%s\n' "$err" | grep -cE '^ +[0-9]+\.[0-9]+ \([-+][0-9]+\.[0-9]+\) #+$')" = 3
check "perf's headings in its order, before the elapsed line" test \
	"$(printf '%s\n' "$err" | grep -E '# (Table|Final)|time elapsed' | sed -E 's/^ +//; s/[0-9].*elapsed.*/elapsed/')" = \
	"$(printf '# Table of individual measurements:\n# Final result:\nelapsed')"
check "... indented to where the mean's digits start, as perf indents them" test \
	"$(printf '%s\n' "$err" | grep -E '# Table' | sed -E 's/#.*//' | awk '{print length}')" = \
	"$(printf '%s\n' "$err" | grep 'time elapsed' | sed -E 's/[0-9].*//' | awk '{print length}')"
run stat --table -e task-clock -- true
contains "--table without -r: perf's refusal" "$err" "--table is only supported with -r"

# --timeout: SIGTERM at MS, perf's psignal line, the counts, exit 0.
run stat --timeout 200 -x, -e task-clock -- sleep 30
expect_rc "--timeout ends a 30 s sleep with perf's exit status 0" 0
contains "... perf's psignal line" "$err" "sleep: Terminated"
contains "... and prints the counts" "$err" ",msec,task-clock,"
# Without a command: -a ends at the timeout (else it would count until
# Ctrl-C); -p ends when its task does, before a 10-minute timeout.
run stat -a --timeout 150 -x, -e task-clock
expect_rc "-a --timeout ends by itself" 0
contains "... and prints the counts" "$err" ",msec,task-clock,"
sleep 0.2 &
run stat -p $! --timeout 600000 -x, -e task-clock
expect_rc "-p --timeout: ends with the task, as perf" 0
run stat --timeout 5 -- true
contains "under 10 ms: perf's refusal" "$err" "timeout must be >= 10ms."
run stat --timeout 50 -x, -e task-clock -- true
contains "under 100 ms: perf's warning" "$err" "timeout < 100ms."
run stat --timeout 100 -I 100 -- true
contains "with -I: perf's refusal" "$err" "timeout option is not supported with interval-print."

# --log-fd: the counts on that descriptor, stderr keeps the rest.
"$PERFKIT" stat --log-fd 3 -x, -e task-clock -- true 3>"$tmp/fd3" 2>"$tmp/err"
check "--log-fd 3: the CSV is on fd 3" grep -q ",msec,task-clock," "$tmp/fd3"
check "... and not on stderr" sh -c '! grep -q task-clock "$1"' sh "$tmp/err"
echo first >"$tmp/fd3"
"$PERFKIT" stat --log-fd 3 --append -x, -e task-clock -- true 3>>"$tmp/fd3"
check "--append with --log-fd keeps what was there" test "$(head -1 "$tmp/fd3")" = first
run stat -o "$tmp/o" --log-fd 3 -- true
contains "-o with --log-fd: perf's refusal" "$err" "cannot use both --output and --log-fd"
run stat --log-fd -1 -- true
contains "a negative fd: perf's refusal" "$err" "argument to --log-fd must be a > 0"

# --interval-clear: refused off a terminal, in perf's words.
run stat --interval-clear -I 100 -e task-clock -- true
contains "--interval-clear to a pipe: perf's refusal" "$err" "--interval-clear does not work with output"
if command -v script >/dev/null; then
	script -qec "$PERFKIT stat --interval-clear -I 100 -e task-clock -- sleep 0.35" /dev/null \
		>"$tmp/tty" 2>&1 </dev/null
	check "on a terminal: perf's clear before each interval" \
		test "$(grep -c $'\033\\[H\033\\[2J' "$tmp/tty")" -ge 3
	check "... and the heading again after each clear" \
		test "$(grep -c '#           time             counts unit events' "$tmp/tty")" -ge 3
else
	skip "--interval-clear on a terminal" "no script(1)"
	skip "... heading after each clear" "no script(1)"
fi

# --filter: on the tracepoints of the -e before it.  The command's own
# switches, filtered to another task's, are 0 on every run; unfiltered, a
# sleep switches out at least once.
run stat -x, -e sched:sched_switch -- sleep 0.05
n=$(printf '%s\n' "$err" | awk -F, '$3 == "sched:sched_switch" { print $1 }')
check "unfiltered: the sleep switched out (got $n)" test "${n:-0}" -ge 1
run stat -x, -e sched:sched_switch --filter 'prev_pid == 1' -- sleep 0.05
n=$(printf '%s\n' "$err" | awk -F, '$3 == "sched:sched_switch" { print $1 }')
check "--filter 'prev_pid == 1': none of the command's switches (got $n)" test "$n" = 0
if have_perf; then
	want=$(perf stat -x, -e sched:sched_switch --filter 'prev_pid == 1' -- sleep 0.05 2>&1 |
		awk -F, '$3 == "sched:sched_switch" { print $1 }')
	check "... as perf counts it ($want)" test "$n" = "$want"
fi
run stat -x, -e sched:sched_switch --filter 'prev_pid == 1' --filter 'prev_pid == 2' -- sleep 0.05
expect_rc "two filters on one -e are joined, as perf's (A) && (B)" 0
run stat -x, -e sched:sched_switch -e task-clock --filter 'prev_pid == 1' -- true
check "--filter after a software event: refused" test "$rc" -ne 0
contains "... saying the kernel took no filter" "$err" "SET_FILTER"
run stat --filter 'prev_pid == 1' -- true
contains "--filter before any -e: perf's words" "$err" "--filter option should follow a -e tracepoint"

# -g: every event in one group: members open enabled under the leader.
run stat -g -v -x, -e task-clock,page-faults,context-switches -- true
expect_rc "-g runs" 0
check "one leader disabled, two members enabled with it" test \
	"$(printf '%s\n' "$err" | grep -c '^  disabled  *1')" = 1
run stat -g -x, -- true
check "-g over the default set: perf lists all eight events" test \
	"$(printf '%s\n' "$err" | awk -F, 'NF > 5 { print $3 }' | tr '\n' ' ')" = \
	"task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses "
run stat -g -e '{task-clock,page-faults}' -- true
contains "-g over a {group}: refused" "$err" "-g puts every event into one group"

# --no-scale / --scale / --no-merge: software events never multiplex, so
# the counts' columns are the same (tests/unit/counter/test_evlist.c checks
# the unscaled value on a multiplexed reading).
run stat --no-scale --no-merge -x, -e task-clock -- true
expect_rc "--no-scale --no-merge run" 0
check "... with perf's CSV columns" sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9.]+,msec,task-clock,[0-9]+,100\.00,"' sh "$err"

# -T: perf's transaction events, its limited set, its refusal.
PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/intel run stat -v -x, -T -- true
expect_rc "-T on the Skylake fixture runs (nothing but task-clock counts here)" 0
check "perf's transaction_attrs, in its order" test \
	"$(printf '%s\n' "$err" | grep -E '^(task-clock|instructions|cycles|cpu/[a-z-]+/)$' | tr '\n' ' ')" = \
	"task-clock instructions cycles cpu/cycles-t/ cpu/tx-start/ cpu/el-start/ cpu/cycles-ct/ "
check "... with the fixture's encodings (cycles-t in_tx, cycles-ct in_tx_cp)" test \
	"$(printf '%s\n' "$err" | awk '/^  config /{print $2}' | grep -c '^0x[13]0000003c$')" = 2
run stat -T -- true
expect_rc "-T here: no TSX" 1
contains "... perf's words" "$err" "Cannot set up transaction events"
PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/icelake run stat -T -- true
contains "Ice Lake fixture (no tx events): refused" "$err" "Cannot set up transaction events"

# --smi-cost: perf's checks in its order.
PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/amd run stat -a --smi-cost -- true
contains "--smi-cost without freeze_on_smi (AMD fixture): perf's words" "$err" "freeze_on_smi is not supported."
cp -r "$PERFKIT_FIXTURES/sysfs/intel/bus" "$tmp/"
mkdir -p "$tmp/devices/system/cpu"	# -a reads the online CPUs there
cp /sys/devices/system/cpu/online "$tmp/devices/system/cpu/"
freeze=$tmp/bus/event_source/devices/cpu/freeze_on_smi
PERFKIT_SYSFS_ROOT=$tmp run stat -a -v --smi-cost -- true
if [ "$rc" = 0 ]; then
	check "freeze_on_smi 0, set to 1 for the run: perf's {msr/aperf/,msr/smi/,cycles}" test \
		"$(printf '%s\n' "$err" | grep -E '^(msr/[a-z]+/|cycles)$' | tr '\n' ' ')" = "msr/aperf/ msr/smi/ cycles "
else	# this kernel's PMU of the fixture's msr type refuses the fixture's encoding
	contains "freeze_on_smi 0, set to 1 for the run: perf's group opens, msr/aperf/ first, on the fixture's msr PMU" \
		"$err" "perf_event_open(msr/aperf/, pid=-1"
fi
check "freeze_on_smi was 0: set back to 0 after the run, as perf does" test "$(cat "$freeze")" = 0
# A file not even root can write, which reads as 0 to atoi ("Linux ...").
mv "$freeze" "$tmp/freeze.saved"
ln -s /proc/version "$freeze"
PERFKIT_SYSFS_ROOT=$tmp run stat -a --smi-cost -- true
contains "freeze_on_smi 0 and not writable: perf's words" "$err" "Failed to set freeze_on_smi."
rm "$freeze"
mv "$tmp/freeze.saved" "$freeze"
rm "$tmp/bus/event_source/devices/msr/events/smi"
PERFKIT_SYSFS_ROOT=$tmp run stat -a --smi-cost -- true
contains "no msr/smi/: perf's words" "$err" "To measure SMI cost, it needs msr/aperf/, msr/smi/ and cpu/cycles/ support"

# --iostat, --cputype: refused in perf's words without their PMUs.
run stat --iostat -- true
contains "--iostat without uncore_iio" "$err" "Unsupported uncore pmu configuration"
run stat --cputype core -- true
contains "--cputype on a machine that is not hybrid" "$err" "--cputype core is not supported!"
run stat -e task-clock --cputype core -- true
contains "--cputype after -e: perf's words" "$err" "Must define cputype before events/metrics"
mkdir -p "$tmp/bus/event_source/devices/cpu_atom"
cp "$tmp/bus/event_source/devices/cpu/type" "$tmp/bus/event_source/devices/cpu_atom/"
PERFKIT_SYSFS_ROOT=$tmp run stat --cputype atom -x, -e task-clock -- true
expect_rc "--cputype atom where cpu_atom exists runs" 0
run stat --hybrid-merge --percore-show-thread -x, -e task-clock -- true
expect_rc "--hybrid-merge, --percore-show-thread: accepted as perf does here" 0

# -I --summary split per core: perf's layout, the CSV's summary column,
# and the last short interval's figures over the nominal interval.
run stat --summary -I 100 -x, --per-core -a -e task-clock -- sleep 0.25
check "per-core interval lines: time,core,cpus,count,..." \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +[0-9]+\.[0-9]{9},S[0-9]+-D[0-9]+-C[0-9]+,[0-9]+,[0-9.]+,msec,task-clock,"' sh "$err"
check "summary lines: perf's column, then the core" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +summary,S[0-9]+-D[0-9]+-C[0-9]+,[0-9]+,[0-9.]+,msec,task-clock,"' sh "$err"
if have_perf; then
	want=$(perf stat --summary -I 100 -x, --per-core -a -e task-clock -- sleep 0.25 2>&1)
	check "... the same lines as perf's, numbers aside" test \
		"$(shape "$err" | sort -u)" = "$(shape "$want" | sort -u)"
fi
last=$(printf '%s\n' "$err" | grep -v summary | tail -1)
check "the last (short) interval: CPUs utilized over the nominal 100 ms, as perf (msec/100 = figure)" \
	python3 -c "
import sys
f = sys.argv[1].split(',')
assert abs(float(f[3]) / 100 - float(f[8])) < 0.002, f
" "$last"

# perf heads the first interval and every 25th after it.
run stat -I 10 -e task-clock -- sleep 0.4
n=$(printf '%s\n' "$err" | grep -c 'task-clock')
h=$(printf '%s\n' "$err" | grep -c '^#           time')
check "-I 10: $h headings for $n intervals, one per 25 as perf" test "$h" = $(((n + 24) / 25))
run stat -I 10 -x, --metric-only -e task-clock,page-faults -- sleep 0.4
n=$(printf '%s\n' "$err" | grep -cE '^ +[0-9]+\.[0-9]{9},')
h=$(printf '%s\n' "$err" | grep -c '^ time,')
check "--metric-only -x,: $h headings for $n intervals, the same rule" test "$h" = $(((n + 24) / 25))

# --metric-only totals after -I: perf heads them no more, and its CSV puts
# "summary" before each event's figures (none here: perf shows no rates).
run stat --summary -I 100 -x';' --metric-only --per-core -a -e task-clock,context-switches -- sleep 0.25
check "per core: 'S..-D..-C..;cpus;' then summary; per event" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^S[0-9]+-D[0-9]+-C[0-9]+;[0-9]+; +summary; +summary;$"' sh "$err"
check "... and the heading only over the intervals" test \
	"$(printf '%s\n' "$err" | grep -c 'core,cpus,')" = 1
run stat --summary -I 100 -x';' --metric-only -a -e task-clock,context-switches -- sleep 0.25
check "unsplit: a line of summary; per event" test \
	"$(printf '%s\n' "$err" | tail -1)" = "         summary;         summary;"
run stat --summary --no-csv-summary -I 100 -x';' --metric-only --per-core -a -e task-clock -- sleep 0.25
check "--no-csv-summary: none" sh -c '! printf "%s" "$1" | grep -q summary' sh "$err"
if have_perf; then
	for split in --per-core -A ''; do
		run stat --summary -I 100 -x';' --metric-only $split -a -e task-clock,context-switches -- sleep 0.25
		want=$(perf stat --summary -I 100 -x';' --metric-only $split -a -e task-clock,context-switches -- sleep 0.25 2>&1)
		check "--metric-only --summary ${split:-unsplit}: perf's lines, numbers aside" test \
			"$(shape "$err" | sort -u)" = "$(shape "$want" | sort -u)"
	done
fi

done_testing
