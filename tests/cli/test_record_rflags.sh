#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_rflags.sh - what a user sees of record's --dry-run (exit 0,
# no file, the command not run; a bad event still refused), --exclude-perf
# (no tracepoint sample of perfkit's own pid in a system-wide recording,
# where one without it has some), --phys-data's samples read back by perf
# script and perfkit script, and --timestamp-boundary's header times.  The
# attrs of these flags are compared with perf's in test_record_attrs.sh.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# --dry-run: the options and events checked, nothing recorded or run.
run record --dry-run -e cpu-clock -o dry.data -- touch ran
expect_rc "--dry-run exits 0" 0
check "--dry-run writes no file" test ! -e dry.data
check "--dry-run does not run the command" test ! -e ran
run record --dry-run -e no_such_event -o dry.data -- touch ran
check "--dry-run refuses an unknown event (status $rc)" test "$rc" -ne 0
contains "and names it" "$err" "no_such_event"
run record --dry-run --no-such-flag -- true
expect_rc "--dry-run with an unknown flag is a usage error" 2

# --exclude-perf: where it can go.
run record --exclude-perf -e sched:sched_switch -- true
expect_rc "--exclude-perf before any -e is a usage error" 2
run record -e cpu-clock --exclude-perf -o x.data -- true
check "--exclude-perf after a -e without tracepoints fails (status $rc)" test "$rc" -ne 0
check "... before anything is recorded" test ! -e x.data
# perf 6.1 says why in its words; so does perfkit, also when the -e mixes
# a tracepoint with another event (perf fails on any event not one).
if command -v perf >/dev/null; then
	pmsg=$(perf record -e cpu-clock --exclude-perf -o p.data -- true 2>&1 >/dev/null | head -1)
	contains "--exclude-perf after -e cpu-clock: perf's message" "$err" "$pmsg"
	run record -e cpu-clock,sched:sched_switch --exclude-perf -o x.data -- true
	contains "--exclude-perf after a mixed -e: perf's message" "$err" "$pmsg"
	run record --exclude-perf -e sched:sched_switch -o x.data -- true
	contains "--exclude-perf before any -e: perf's message" "$err" "$pmsg"
else
	skip "--exclude-perf: perf's messages" "perf is not installed"
fi

# record_own_pid FILE ARGS...: a system-wide sched_switch recording of
# `sleep 0.2` with ARGS; prints perfkit's pid.  perfkit waits for the
# command in poll, so without a filter its own switches are recorded.
record_own_pid() {
	local file=$1
	shift
	"$PERFKIT" record -q -a -e sched:sched_switch "$@" -o "$file" -- sleep 0.2 >/dev/null 2>"$file.err" &
	local pid=$!
	wait "$pid"
	echo "$pid $?"
}
if ! command -v perf >/dev/null; then
	skip "--exclude-perf's samples" "perf is not installed"
else
	read -r pid st < <(record_own_pid with.data --exclude-perf)
	read -r pid0 st0 < <(record_own_pid without.data)
	check "record -a -e sched:sched_switch --exclude-perf records (status $st)" test "$st" -eq 0
	check "... and without it (status $st0)" test "$st0" -eq 0
	pids=$(perf script -i with.data -F pid 2>/dev/null | tr -d ' ')
	pids0=$(perf script -i without.data -F pid 2>/dev/null | tr -d ' ')
	check "perf reads the --exclude-perf file's samples" test -n "$pids"
	check "without --exclude-perf, perfkit's own switches are there (pid $pid0)" \
		grep -qx "$pid0" <<<"$pids0"
	check "with --exclude-perf, none of perfkit's (pid $pid)" bash -c '! grep -qx "$1" <<<"$2"' _ "$pid" "$pids"
fi

# --phys-data: samples perf script and perfkit script read, with the field.
run record -q --phys-data -e cpu-clock -c 100000 -o phys.data -- "$PERFKIT_WORKLOAD" hot 100
expect_rc "record --phys-data" 0
if command -v perf >/dev/null; then
	n=$(perf script -i phys.data -F ip,phys_addr 2>/dev/null | grep -c .)
	check "perf script -F ip,phys_addr reads its samples ($n)" test "$n" -gt 0
fi
run script -i phys.data -F ip,phys_addr
expect_rc "perfkit script -F ip,phys_addr reads it" 0
check "... with a line a sample" test -n "$out"

# --timestamp-boundary: the first and last sample times in the header,
# as perf --header-only shows them (perfkit writes them in any case).
run record -q --timestamp-boundary -e cpu-clock -o tb.data -- true
expect_rc "record --timestamp-boundary" 0
if command -v perf >/dev/null; then
	first=$(perf report --header-only -i tb.data 2>/dev/null | sed -n 's/^# time of first sample : //p')
	check "perf shows its first sample time ($first)" test -n "$first" -a "$first" != 0.000000
fi
done_testing
